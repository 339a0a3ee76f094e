import { BenchClient } from './client.js';
import { peakRss } from './peak-rss.js';
import { sandboxChild } from './sandbox-child.js';
import { Universe } from '../src/sandbox/universe.js';
import type { Search } from '../src/spec/types.js';

// The sandbox's peak memory per endpoint on the universe's largest document (the party with the most lawsuits:
// in the 1,000,000-lawsuit universe a big municipality, tens of thousands of them), under the CLI's 128 MB heap.
// Each endpoint is measured in a sandbox of its own, so that each peak (VmHWM) is that endpoint's alone; an
// endpoint that kills the sandbox is reported as such (peak null) rather than stopping the benchmark.

const SEED = 1;
const HEAP = ['--max-old-space-size=128', '--max-semi-space-size=4'];

export interface EndpointFigures { endpoint: string; peakRssMb: number | null; ms: number; detail: string }
export interface LargestDocument { document: string; name: string; lawsuits: number }

/** The public entity or big company found in the most lawsuits of the universe (candidates: the big parties). */
export function largestDocument(lawsuits = 1_000_000): LargestDocument {
  const u = new Universe({ seed: SEED, lawsuits });
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

type Search1 = Pick<Search, 'search_type' | 'search_key'>;
type Run = (client: BenchClient, search: Search1) => Promise<string>;

const mb = (v: unknown) => `${Math.round(JSON.stringify(v).length / 1e6)} MB`;

/** Each endpoint, as a client would call it for that document (through the project's client: any 2xx it documents). */
const ENDPOINTS: Record<string, Run> = {
  'POST /requests + GET /responses (all pages)': async ({ api }, search) => {
    const r = await api.requests.create(search);
    while ((await api.requests.get(r.request_id)).status !== 'completed') await new Promise((res) => setTimeout(res, 100));
    let pages = 0;
    let items = 0;
    for await (const p of api.responses.walk(r.request_id, { pageSize: 100 })) {
      pages++;
      items += p.items.length;
    }
    return `${items} items in ${pages} pages`;
  },
  'POST /lawsuits (historical)': async ({ api }, search) => {
    const r = await api.lawsuits.historical({ search });
    return `${r.response_data.length} lawsuits, ${mb(r)}`;
  },
  'POST /lawsuits (process_status)': async ({ api }, search) => {
    const r = await api.lawsuits.historical({ search, process_status: true });
    return `${r.response_data.length} lawsuits, ${mb(r)}`;
  },
  'POST /requests/count': async ({ api }, search) => `total ${(await api.lawsuits.count({ search })).total}`,
  'POST /requests/create/grouped': async ({ api }, search) => `lawsuits_count ${(await api.lawsuits.grouped({ search })).lawsuits_count}`,
  'POST /requests/create': async ({ api }, search) => `has_lawsuits ${(await api.lawsuits.exists({ search: { ...search, search_params: {} } })).has_lawsuits}`,
};

/** Peak RSS of a fresh sandbox of the universe of `lawsuits` serving each endpoint once for the largest document. */
export async function sandboxEndpoints(doc: LargestDocument, lawsuits = 1_000_000): Promise<EndpointFigures[]> {
  const out: EndpointFigures[] = [];
  const search: Search1 = { search_type: 'cnpj', search_key: doc.document };
  for (const [endpoint, run] of Object.entries(ENDPOINTS)) {
    const sb = await sandboxChild(['--seed', String(SEED), '--lawsuits', String(lawsuits), '--rate-limit', '100000000', '--boot-id', 'bench'], HEAP);
    // A sandbox that died answers nothing: one retry, not the client's six with their backoff.
    const client = new BenchClient(sb.url, { retries: 1 });
    let peak = 0;
    const timer = setInterval(() => { peak = Math.max(peak, peakRss(sb.pid)); }, 50);
    const t0 = Date.now();
    try {
      const detail = await run(client, search);
      peak = Math.max(peak, peakRss(sb.pid));
      out.push({ endpoint, peakRssMb: Math.round(peak), ms: Date.now() - t0, detail });
    } catch (e) {
      // A sandbox that ran out of heap answers nothing: the peak it reached before is what it held.
      out.push({ endpoint, peakRssMb: null, ms: Date.now() - t0, detail: `failed after ${Math.round(peak)} MB: ${(e as Error).message}` });
    } finally {
      clearInterval(timer);
      await client.close();
      sb.stop();
    }
  }
  return out;
}
