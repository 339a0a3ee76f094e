import { peakRss } from './peak-rss.js';
import { sandboxChild } from './sandbox-child.js';
import { Universe } from '../src/sandbox/universe.js';

// The sandbox's peak memory per endpoint on the 1,000,000-lawsuit universe's largest document (the party with the
// most lawsuits: a big municipality, tens of thousands of them), under the CLI's 128 MB heap. Each endpoint is
// measured in a sandbox of its own, so that each peak (VmHWM) is that endpoint's alone; an endpoint that kills
// the sandbox is reported as such (peak null) rather than stopping the benchmark.

const LAWSUITS = 1_000_000;
const SEED = 1;
const HEAP = ['--max-old-space-size=128', '--max-semi-space-size=4'];

export interface EndpointFigures { endpoint: string; peakRssMb: number | null; ms: number; detail: string }
export interface LargestDocument { document: string; name: string; lawsuits: number }

/** The public entity or big company found in the most lawsuits of the universe (candidates: the big parties). */
export function largestDocument(): LargestDocument {
  const u = new Universe({ seed: SEED, lawsuits: LAWSUITS });
  const parties = [
    ...u.entities.list.map((e) => ({ document: e.document, name: e.name })),
    ...Array.from({ length: u.cast.companies.big }, (_, k) => ({ document: u.cast.companies.document(k), name: u.cast.companies.name(k) })),
  ];
  let best: LargestDocument = { document: '', name: '', lawsuits: -1 };
  for (const p of parties) {
    const n = u.lawsuitsOfDocument(p.document).length;
    if (n > best.lawsuits) best = { ...p, lawsuits: n };
  }
  return best;
}

async function call(url: string, init?: RequestInit): Promise<{ status: number; body: any; bytes: number }> {
  const res = await fetch(url, { ...init, headers: { 'api-key': 'sandbox-key', 'content-type': 'application/json', ...(init?.headers ?? {}) } });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), bytes: text.length };
}

type Run = (base: string, search: object) => Promise<string>;

const post = (base: string, path: string, body: object) => call(`${base}${path}`, { method: 'POST', body: JSON.stringify(body) });
const ok = (r: { status: number }, what: string) => { if (r.status !== 200) throw new Error(`${what}: ${r.status}`); };

/** Each endpoint, as a client would call it for that document. */
const ENDPOINTS: Record<string, Run> = {
  'POST /requests + GET /responses (all pages)': async (base, search) => {
    const r = await post(base, '/requests', { search });
    ok(r, 'POST /requests');
    for (;;) {
      const s = await call(`${base}/requests/${r.body.request_id}`);
      if (s.body.status === 'completed') break;
      await new Promise((res) => setTimeout(res, 100));
    }
    let pages = 0;
    let items = 0;
    for (let page = 1; ; page++) {
      const p = await call(`${base}/responses?request_id=${r.body.request_id}&page=${page}&page_size=100`);
      ok(p, 'GET /responses');
      pages++;
      items += p.body.page_count;
      if (page >= p.body.all_pages_count) break;
    }
    return `${items} items in ${pages} pages`;
  },
  'POST /lawsuits (historical)': async (base, search) => {
    const r = await post(base, '/lawsuits', { search });
    ok(r, 'POST /lawsuits');
    return `${r.body.response_data.length} lawsuits, ${Math.round(r.bytes / 1e6)} MB`;
  },
  'POST /lawsuits (process_status)': async (base, search) => {
    const r = await post(base, '/lawsuits', { search, process_status: true });
    ok(r, 'POST /lawsuits');
    return `${r.body.response_data.length} lawsuits, ${Math.round(r.bytes / 1e6)} MB`;
  },
  'POST /requests/count': async (base, search) => {
    const r = await post(base, '/requests/count', { search });
    ok(r, 'POST /requests/count');
    return `total ${r.body.total}`;
  },
  'POST /requests/create/grouped': async (base, search) => {
    const r = await post(base, '/requests/create/grouped', { search });
    ok(r, 'POST /requests/create/grouped');
    return `lawsuits_count ${r.body.lawsuits_count}`;
  },
  'POST /requests/create': async (base, search) => {
    const r = await post(base, '/requests/create', { search });
    ok(r, 'POST /requests/create');
    return `has_lawsuits ${r.body.has_lawsuits}`;
  },
};

/** Peak RSS of a fresh sandbox serving each endpoint once for the largest document. */
export async function sandboxEndpoints(doc: LargestDocument): Promise<EndpointFigures[]> {
  const out: EndpointFigures[] = [];
  const search = { search_type: 'cnpj', search_key: doc.document };
  for (const [endpoint, run] of Object.entries(ENDPOINTS)) {
    const sb = await sandboxChild(['--seed', String(SEED), '--lawsuits', String(LAWSUITS), '--rate-limit', '100000000', '--boot-id', 'bench'], HEAP);
    let peak = 0;
    const timer = setInterval(() => { peak = Math.max(peak, peakRss(sb.pid)); }, 50);
    const t0 = Date.now();
    try {
      const detail = await run(sb.url, search);
      peak = Math.max(peak, peakRss(sb.pid));
      out.push({ endpoint, peakRssMb: Math.round(peak), ms: Date.now() - t0, detail });
    } catch (e) {
      // A sandbox that ran out of heap answers nothing: the peak it reached before is what it held.
      out.push({ endpoint, peakRssMb: null, ms: Date.now() - t0, detail: `failed after ${Math.round(peak)} MB: ${(e as Error).message}` });
    } finally {
      clearInterval(timer);
      sb.stop();
    }
  }
  return out;
}
