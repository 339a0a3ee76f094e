import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { configFor, countOf, nightly, query, scratch } from '../support/pipeline.js';
import { readDocuments } from '../../src/input/documents.js';

// A request the provider answered completed and then forgot before its responses were read (404 on its own
// listing): the one path where reading a request leads to submitting its search again (the search stage's
// reducer, read-failed -> lost -> submit). The night waits for that second request and loads it; the first is
// recorded lost with the reason; nothing else is bought twice. The upstream is the sandbox behind a proxy on
// 127.0.0.1 that asks the sandbox for an unknown request the first time a request's own responses are read.

const UNKNOWN = 'ffffffff-ffff-4fff-bfff-ffffffffffff';

describe('a request forgotten between its completion and its reading', () => {
  let sb: Sandbox;
  let proxy: Server;
  let url = '';
  let forgotten: string | undefined;
  const tmp = scratch();

  beforeAll(async () => {
    sb = await startSandbox({ courtDelayMs: 0 });
    const upstream = new URL(sb.url);
    proxy = createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://proxy');
      const id = u.searchParams.get('request_id');
      if (req.method === 'GET' && u.pathname.endsWith('/responses') && id && forgotten === undefined) {
        forgotten = id;
        u.searchParams.set('request_id', UNKNOWN);
      }
      const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: `${upstream.pathname.replace(/\/$/, '')}${u.pathname}${u.search}`, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(out);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${upstream.pathname}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => proxy.close(() => r()));
    await sb.close();
    tmp.cleanup();
  });

  it('is recorded lost, its search submitted again once, and the night waits for and loads the new request', async () => {
    // three documents of the example list that find something in the sandbox's universe
    const docs = (await readDocuments('config/documents.example.csv')).documents
      .filter((d) => (d.searchType === 'cpf' || d.searchType === 'cnpj') && sb.truth({ search_type: d.searchType, search_key: d.searchKey }).length > 0).slice(0, 3);
    expect(docs).toHaveLength(3);
    const list = join(tmp.dir, 'list.csv');
    writeFileSync(list, `search_key,search_type\n${docs.map((d) => `${d.searchKey},${d.searchType}`).join('\n')}\n`);
    const cfg = configFor(url, tmp.dir, {
      LAWSUIT_DOCUMENTS: list, LAWSUIT_RESPONSES_STRATEGY: 'per-request', LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true',
      // the documents' wave is the subject: the lawsuit level has its own tests (two-levels-*)
      LAWSUIT_DETAIL: 'header',
    });
    const s = await nightly(cfg);
    expect(forgotten).toBeDefined();
    expect(s.status).toBe('ok');
    expect(countOf(s, 'search', 'submitted')).toBe(4);
    expect(countOf(s, 'search', 'resubmitted_lost')).toBe(1);
    expect(countOf(s, 'search', 'completed')).toBe(3);
    expect(countOf(s, 'search', 'failed')).toBe(0);
    const rows = await query<{ request_id: string; status: string; loaded: boolean; error: string | null }>(cfg.warehouse,
      'SELECT request_id, status, loaded_at IS NOT NULL AS loaded, error FROM requests ORDER BY submitted_at');
    expect(rows.filter((r) => r.status === 'lost')).toEqual([
      { request_id: forgotten, status: 'lost', loaded: false, error: expect.stringMatching(/no longer knows this request \(404\)/) },
    ]);
    expect(rows.filter((r) => r.loaded)).toHaveLength(3);
    const hits = await query<{ hit: string }>(cfg.warehouse, `SELECT DISTINCT code || '#' || instance AS hit FROM search_hits ORDER BY 1`);
    const truth = new Set(docs.flatMap((d) => sb.truth({ search_type: d.searchType, search_key: d.searchKey }).map((l) => `${l.code}#${l.instance}`)));
    expect(hits.map((h) => h.hit)).toEqual([...truth].sort());
  }, 120_000);
});
