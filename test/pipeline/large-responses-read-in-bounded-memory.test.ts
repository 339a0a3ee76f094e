import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCliAsync } from '../support/cli.js';
import { query, scratch } from '../support/pipeline.js';

// Memory bounded by bytes while reading (issue 11, item 8): a search whose lawsuits carry 20,000 steps each
// (about 3.9 MB apiece, 70 MB for the request) is read by the real CLI, in a child process whose V8 heap is held
// to 128 MB as in production, by the sweep and per request. A page of 100 of them is more than the HTTP client
// takes (64 MiB): the page is asked for again one lawsuit at a time, and the pages stay that small. Before,
// the page was refused and the document failed, or, at 20 lawsuits a page, V8 ran out of heap.

const LAWSUITS = 18;
const STEPS = 20_000;
const T0 = Date.parse('2026-11-21T03:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

function lawsuitText(i: number): string {
  const code = `${String(2_000_000 + i).padStart(7, '0')}-00.2020.8.26.0100`;
  const steps: string[] = [];
  for (let s = 0; s < STEPS; s++) {
    steps.push(`{"step_id":"s${s}","step_date":"2020-01-01T00:00:00Z","lawsuit_cnj":"${code}","private":false,"content":"Movimento ${s}: juntada de peticao e conclusao ao juiz da vara civel"}`);
  }
  return `{"code":"${code}","instance":1,"tribunal_acronym":"TJSP","name":"L${i}","parties":[{"name":"Empresa Teste","side":"Passive","document":"11222333000181","document_type":"CNPJ"}],"steps":[${steps.join(',')}]}`;
}

/** A provider holding one request per search, each answering LAWSUITS lawsuits of STEPS steps, completed at once. */
function bigProvider(): { start(): Promise<string>; server: Server; pageSizes: number[] } {
  const texts = Array.from({ length: LAWSUITS }, (_, i) => lawsuitText(i));
  const requests: Array<{ id: string; at: number; search: unknown }> = [];
  const pageSizes: number[] = [];
  const itemsOf = (r: { id: string; at: number }) => texts.map((t, k) => ({ request: r, k, at: r.at + 10 + k }));
  const item = (x: { request: { id: string; at: number }; k: number; at: number }) =>
    `{"request_id":"${x.request.id}","response_id":"${x.request.id}-${x.k}","response_type":"lawsuit","created_at":"${iso(x.at)}","request_status":"completed","response_data":${texts[x.k]}}`;
  const reqObj = (r: { id: string; at: number; search: unknown }, status: string) => ({ request_id: r.id, status, search: r.search, created_at: iso(r.at), updated_at: iso(r.at + 100) });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
    res.on('error', () => undefined);
    if (req.method === 'POST' && url.pathname === '/requests') {
      let body = '';
      req.on('data', (d: Buffer) => { body += d.toString(); });
      req.on('end', () => {
        const r = { id: `big-${requests.length + 1}`, at: T0 + requests.length * 1_000, search: (JSON.parse(body) as { search: unknown }).search };
        requests.push(r);
        send(200, reqObj(r, 'pending'));
      });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/requests') {
      return send(200, { page_data: [...requests].reverse().map((r) => reqObj(r, 'completed')), links: { next: null }, meta: { page: 1, page_count: requests.length, all_pages_count: 1, all_count: requests.length } });
    }
    const one = /^\/requests\/(.+)$/.exec(url.pathname);
    if (req.method === 'GET' && one) {
      const r = requests.find((x) => x.id === one[1]);
      return r ? send(200, reqObj(r, 'completed')) : send(404, { error: { name: 'NotFound', message: 'no such request', data: [] } });
    }
    if (req.method === 'GET' && url.pathname === '/responses') {
      const page = Number(url.searchParams.get('page') ?? 1);
      const size = Number(url.searchParams.get('page_size') ?? 20);
      pageSizes.push(size);
      const id = url.searchParams.get('request_id');
      const gte = Date.parse(url.searchParams.get('created_at_gte') ?? '') || -Infinity;
      const lte = Date.parse(url.searchParams.get('created_at_lte') ?? '') || Infinity;
      const all = requests.filter((r) => id === null || r.id === id).flatMap(itemsOf).filter((x) => id !== null || (x.at >= gte && x.at <= lte));
      const slice = all.slice((page - 1) * size, page * size);
      // streamed item by item: a client that stops reading at its limit is not answered in full
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"request_status":"completed","page":${page},"page_count":${slice.length},"all_pages_count":${Math.ceil(all.length / size)},"all_count":${all.length},"page_data":[`);
      slice.forEach((x, i) => res.write(`${i > 0 ? ',' : ''}${item(x)}`));
      res.end(']}');
      return;
    }
    send(404, { error: { name: 'NotFound', message: 'no such route', data: [] } });
  });
  return {
    server, pageSizes,
    start: () => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
  };
}

function runChild(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return runCliAsync(['run'], env, ['--max-old-space-size=128', '--max-semi-space-size=4']);
}

describe('responses of lawsuits with 20,000 steps each', () => {
  const tmp = scratch();
  const provider = bigProvider();
  let url = '';
  beforeAll(async () => {
    url = await provider.start();
    writeFileSync(join(tmp.dir, 'documents.csv'), 'search_key,search_type\n11.222.333/0001-81,cnpj\n');
  });
  afterAll(async () => {
    await new Promise((r) => provider.server.close(r));
    tmp.cleanup();
  });

  for (const strategy of ['sweep', 'per-request']) {
    it(`load whole under a 128 MB heap, read ${strategy === 'sweep' ? 'by the sweep' : 'per request'} in pages the run can hold`, async () => {
      const wh = join(tmp.dir, `${strategy}.duckdb`);
      provider.pageSizes.length = 0;
      const r = await runChild({
        PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', LOG_FORMAT: 'json',
        LAWSUIT_API_KEY: 'big-key', LAWSUIT_REQUESTS_URL: url, LAWSUIT_TRACKING_URL: url, LAWSUIT_LAWSUITS_URL: url, LAWSUIT_TRANSFER_URL: url,
        LAWSUIT_DOCUMENTS: join(tmp.dir, 'documents.csv'), LAWSUIT_WAREHOUSE: wh, LAWSUIT_REPORTS_DIR: join(tmp.dir, `${strategy}-reports`),
        LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true', LAWSUIT_RESPONSES_STRATEGY: strategy, LAWSUIT_FRESHNESS_DAYS: '0',
        // The dialect pinned (this provider's names, pages of 100): nothing probed, every page here is the reading's.
        LAWSUIT_PAGE_SIZE: '100', LAWSUIT_SWEEP_PARAMS: 'order_by=order_by:created_at,order=order:asc',
      });
      expect(r.code, r.stderr.slice(-2_000)).toBe(0);
      expect(r.stderr).toContain('too large to read: reading it again in smaller pages');
      // the first page asked for 100 and was refused; after that, pages of one lawsuit (3 MB, above half the batch budget)
      expect(provider.pageSizes[0]).toBe(100);
      expect(Math.max(...provider.pageSizes.slice(1))).toBeLessThanOrEqual(2);
      const [c] = await query<{ lawsuits: number; steps: number; responses: number; loaded: number }>(wh, `SELECT (SELECT count(*) FROM lawsuits) AS lawsuits,
        (SELECT count(*) FROM steps) AS steps, (SELECT count(*) FROM responses_raw) AS responses, (SELECT count(*) FROM requests WHERE loaded_at IS NOT NULL) AS loaded`);
      expect(c).toEqual({ lawsuits: LAWSUITS, steps: LAWSUITS * STEPS, responses: LAWSUITS, loaded: 1 });
    }, 240_000);
  }
});
