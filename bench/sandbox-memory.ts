import { BenchClient } from './client.js';
import { peakRss } from './peak-rss.js';
import { sandboxChild } from './sandbox-child.js';
import { Universe } from '../src/sandbox/universe.js';

// The sandbox's own memory while it serves a backfill's worst case: many requests for big parties (the big
// litigants and public entities of a 1,000,000-lawsuit universe, thousands of lawsuits each), every one kept
// with its responses for the whole run. The sandbox runs in a child process so that its peak RSS (VmHWM) is
// its own; each request is polled to completion and its first page read (every tenth its last page too), and
// the key's merged listing is read at several depths down to its last page, as a sweep over the night would,
// timing each page.

const SEED = 1;

export interface SandboxMemoryFigures {
  requests: number; items: number; peakRssMb: number; ms: number; heldAtEnd: number;
  /** The slowest page of the key's merged listing (GET /responses without request_id), over depths down to the last. */
  slowestListingPageMs: number;
  /** Its page number. */
  slowestListingPage: number;
  /** The first page's time, measured the same way. */
  firstListingPageMs: number;
  /** Each depth's time (ascending order), page number to ms. */
  listingPageMs: Record<number, number>;
}

/** `requests` big-party requests, `concurrency` at a time, against a sandbox of a universe of `lawsuits`. */
export async function sandboxMemory(requests: number, lawsuits = 1_000_000, concurrency = 32): Promise<SandboxMemoryFigures> {
  const u = new Universe({ seed: SEED, lawsuits });
  const parties = [
    ...Array.from({ length: u.cast.companies.big }, (_, k) => u.cast.companies.document(k)),
    ...u.entities.list.map((e) => e.document),
  ];
  const t0 = Date.now();
  // The heap budget of the CLI's shebang: the sandbox as `npx lawsuit-etl sandbox` runs it.
  const sb = await sandboxChild(['--seed', String(SEED), '--lawsuits', String(lawsuits), '--rate-limit', '100000000', '--boot-id', 'bench'],
    ['--max-old-space-size=128', '--max-semi-space-size=4']);
  const client = new BenchClient(sb.url, { maxConcurrency: concurrency });
  let peak = 0;
  const timer = setInterval(() => { peak = Math.max(peak, peakRss(sb.pid)); }, 100);
  try {
    const items = await fill(client, parties, requests, concurrency);
    const listing = await listingPages(client, Math.ceil(items / 100));
    const stats = await client.stats();
    peak = Math.max(peak, peakRss(sb.pid));
    return { requests, items, peakRssMb: Math.round(peak), ms: Date.now() - t0, heldAtEnd: stats.requests_held, ...listing };
  } finally {
    clearInterval(timer);
    await client.close();
    sb.stop();
  }
}

/** Makes the requests, each polled to completion and its first page read; returns the responses they hold. */
async function fill(client: BenchClient, parties: readonly string[], requests: number, concurrency: number): Promise<number> {
  const { api } = client;
  let items = 0;
  let next = 0;
  const worker = async () => {
    for (let k = next++; k < requests; k = next++) {
      const r = await api.requests.create({ search_type: 'cnpj', search_key: parties[k % parties.length] });
      while ((await api.requests.get(r.request_id)).status !== 'completed') await new Promise((res) => setTimeout(res, 100));
      const first = await api.responses.list({ request_id: r.request_id, page: 1, page_size: 100 });
      items += first.allCount;
      if (k % 10 === 0 && first.allPagesCount > 1) await api.responses.list({ request_id: r.request_id, page: first.allPagesCount, page_size: 100 });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return items;
}

/**
 * Pages of the key's merged listing at ten depths and the last one, in both orders: a first read (it may pay for
 * code not yet optimised), then the best of three, since contention from other processes only ever adds to a
 * page's time (on a shared machine a median still moved between 39 and 107 ms). A page's time includes rendering
 * and sending its 100 lawsuits (about 0.5 MB), which page 1 pays too: the first page's time is the yardstick for
 * the others. Timed through `call` (the body parsed as JSON and nothing more), so that it is the sandbox's time.
 */
async function listingPages(client: BenchClient, lastPage: number): Promise<Pick<SandboxMemoryFigures, 'slowestListingPageMs' | 'slowestListingPage' | 'firstListingPageMs' | 'listingPageMs'>> {
  let slowest = { ms: 0, page: 1 };
  let first = 0;
  const byPage: Record<number, number> = {};
  for (const page of [...Array.from({ length: 10 }, (_, d) => 1 + d * Math.floor(lastPage / 10)), lastPage]) {
    for (const order of ['asc', 'desc']) {
      let ms = Number.POSITIVE_INFINITY;
      for (let k = 0; k < 4; k++) {
        const t = performance.now();
        await client.call('GET', '/responses', { query: { page, page_size: 100, order_by: 'created_at', order } });
        if (k > 0) ms = Math.min(ms, performance.now() - t);
      }
      if (page === 1 && order === 'asc') first = ms;
      if (order === 'asc') byPage[page] = Math.round(ms);
      if (ms > slowest.ms) slowest = { ms, page };
    }
  }
  return { slowestListingPageMs: Math.round(slowest.ms * 10) / 10, slowestListingPage: slowest.page, firstListingPageMs: Math.round(first * 10) / 10, listingPageMs: byPage };
}
