// The documented dialect's requests: POST answers 201; GET /requests filters by creation date, origin,
// origin_id, search type and key, lawsuit instance and one or several statuses; a running request sometimes
// shows a status the spec does not name (`processing`), the same requests every time, and still completes; a
// search by number of a secret lawsuit without a credential is refused 403 for that POST only, while a
// resource left out of the plan is refused on every call as in the spec's reading.
import { afterEach, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, NOW, sandbox, scan } from './helpers.js';

const HOUR = 3_600_000;
const at = (ms: number) => new Date(Date.parse(NOW) + ms);
const ids = (page: any): string[] => page.page_data.map((x: any) => x.request_id);

describe('the documented dialect: requests', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { await sb?.close(); sb = undefined; });

  test('POST /requests answers 201 with the pending request; GET /requests filters by the documented names', async () => {
    sb = await sandbox({ dialect: 'documented' });
    const docs = sb.sampleDocuments(40);
    const cpf = docs.find((d) => d.search_type === 'cpf')!;
    const cnpj = docs.find((d) => d.search_type === 'cnpj')!;
    const secret = new Set(scan(sb).filter((l) => l.secrecy_level >= 3).map((l) => l.code.replace(/\D/g, '')));
    const cnj = docs.find((d) => d.search_type === 'lawsuit_cnj' && !secret.has(d.search_key.replace(/\D/g, '')))!;
    const made: any[] = [];
    const searches = [
      { search_type: 'cpf', search_key: cpf.search_key },
      { search_type: 'cnpj', search_key: cnpj.search_key },
      { search_type: 'lawsuit_cnj', search_key: cnj.search_key, search_params: { lawsuit_instance: 1 } },
    ];
    for (const [k, search] of searches.entries()) {
      sb.setNow(at(k * HOUR));
      const post = await call(sb, 'POST', '/requests', { search });
      expect(post.status, JSON.stringify(post.body)).toBe(201);
      expect(post.body.status).toBe('pending');
      made.push(post.body);
    }
    sb.setNow(at(10 * HOUR));
    const list = (q: string) => call(sb!, 'GET', `/requests?page_size=100&${q}`);
    const all = (await list('')).body;
    expect(ids(all)).toEqual(made.map((r) => r.request_id));

    const second = made[1];
    expect(ids((await list(`created_at_gte=${second.created_at}`)).body)).toEqual(made.slice(1).map((r) => r.request_id));
    expect(ids((await list(`created_at_lte=${second.created_at}`)).body)).toEqual(made.slice(0, 2).map((r) => r.request_id));
    expect(ids((await list('origin=api')).body)).toEqual(ids(all));
    expect((await list('origin=tracking')).body.all_count).toBe(0);
    expect(ids((await list(`origin_id=${second.origin_id}`)).body)).toEqual([second.request_id]);
    expect(ids((await list(`search_type=${second.search.search_type}`)).body)).toEqual([second.request_id]);
    // The key as a person would type it, punctuated or not: the stored key in its lookup form decides.
    const punctuated = cnpj.search_key.replace(/\D/g, '').replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
    expect(ids((await list(`search_key=${encodeURIComponent(punctuated)}`)).body)).toEqual(made.filter((r) => r.search.search_type === 'cnpj').map((r) => r.request_id));
    expect((await list('search_key=00000000000')).body.all_count).toBe(0);
    const cnjMade = made.filter((r) => r.search.search_type === 'lawsuit_cnj').map((r) => r.request_id);
    expect(ids((await list('lawsuit_instance=1')).body)).toEqual(cnjMade);
    expect(ids((await list('status=completed')).body)).toEqual(ids(all));
    expect(ids((await list('status=pending,processing')).body)).toEqual([]);
    expect(ids((await list('status=pending&status=completed')).body)).toEqual(ids(all));
    for (const bad of ['origin=robot', 'search_type=passport', 'status=finished', 'created_at_gte=yesterday', 'lawsuit_instance=0']) {
      const r = await list(bad);
      expect(r.status, bad).toBe(400);
      expect(r.body.error.name).toBe('HttpBadRequestError');
    }
  });

  test('a running request shows `processing` for some requests, the same ones each time, and still completes', async () => {
    // Queued for a sandbox minute, then one court a minute: a minute and a half in, every request is running.
    const run = async (dialect: 'documented' | 'spec') => {
      const s = await sandbox({ dialect, courtDelayMs: 60_000 });
      const docs = s.sampleDocuments(40).filter((d) => d.search_type === 'cpf' || d.search_type === 'cnpj').slice(0, 12);
      const made: string[] = [];
      for (const d of docs) made.push((await call(s, 'POST', '/requests', { search: { search_type: d.search_type, search_key: d.search_key } })).body.request_id);
      s.setNow(new Date(s.state.clock.now() + 90_000));
      const running = await Promise.all(made.map(async (id) => (await call(s, 'GET', `/requests/${id}`)).body.status));
      const again = await Promise.all(made.map(async (id) => (await call(s, 'GET', `/requests/${id}`)).body.status));
      const listed = (await call(s, 'GET', '/requests?page_size=100')).body.page_data.map((r: any) => r.status);
      const responses = await Promise.all(made.map(async (id) => (await call(s, 'GET', `/responses?request_id=${id}`)).body.request_status));
      const onlyProcessing = (await call(s, 'GET', '/requests?page_size=100&status=processing'));
      s.setNow(new Date(s.state.clock.now() + 24 * HOUR));
      const finished = await Promise.all(made.map(async (id) => (await call(s, 'GET', `/requests/${id}`)).body.status));
      await s.close();
      return { made, running, again, listed, responses, onlyProcessing, finished };
    };
    const d = await run('documented');
    expect(new Set(d.running)).toEqual(new Set(['started', 'processing']));
    expect(d.again).toEqual(d.running);
    expect(d.responses).toEqual(d.running);
    expect([...d.listed].sort()).toEqual([...d.running].sort());
    expect(d.onlyProcessing.status).toBe(200);
    expect(ids(d.onlyProcessing.body).sort()).toEqual(d.made.filter((_, k) => d.running[k] === 'processing').sort());
    expect(d.finished.every((s) => s === 'completed')).toBe(true);
    // The spec's reading names no such state, and refuses it as a filter.
    const spec = await run('spec');
    expect(spec.running.every((s) => s === 'started')).toBe(true);
    expect(spec.onlyProcessing.status).toBe(400);
  });

  test('a secret lawsuit searched by number without a credential: 403 for that POST only', async () => {
    sb = await sandbox({ dialect: 'documented' });
    const all = scan(sb);
    // Lawsuit numbers all of whose instances share one secrecy level, so that the level alone decides.
    const byCode = new Map<string, number[]>();
    for (const l of all) byCode.set(l.code, [...(byCode.get(l.code) ?? []), l.secrecy_level]);
    const codeOf = (ok: (level: number) => boolean) => [...byCode.entries()].find(([, ls]) => ls.every(ok))![0];
    const masked = codeOf((l) => l === 3 || l === 4);
    const sealed = codeOf((l) => l === 5);
    const open = codeOf((l) => l === 0);
    const post = (code: string, credential?: string) => call(sb!, 'POST', '/requests', {
      search: { search_type: 'lawsuit_cnj', search_key: code, ...(credential ? { search_params: { credential: { customer_key: credential } } } : {}) },
    });
    for (const code of [masked, sealed]) {
      const refused = await post(code);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ name: 'HttpForbiddenError', data: ['SECRET_LAWSUIT_WITHOUT_CREDENTIAL'] });
    }
    expect((await post(open)).status).toBe(201);
    // A stored credential lifts levels up to 4; an unknown one lifts nothing; level 5 stays sealed.
    expect((await post(masked, 'sandbox-credential')).status).toBe(201);
    expect((await post(masked, 'unknown')).status).toBe(403);
    expect((await post(sealed, 'sandbox-credential')).status).toBe(403);
    // Nothing was made of the refused searches.
    expect((await call(sb, 'GET', '/requests?page_size=100')).body.all_count).toBe(2);
    // The spec's reading answers the same search with the masked lawsuit.
    const spec = await sandbox({ dialect: 'spec' });
    const specPost = await call(spec, 'POST', '/requests', { search: { search_type: 'lawsuit_cnj', search_key: masked } });
    await spec.close();
    expect(specPost.status).toBe(200);
  });

  test('a resource left out of the plan is refused on every call, in the documented error form', async () => {
    sb = await sandbox({ dialect: 'documented', forbid: ['requests'] });
    const doc = sb.sampleDocuments(10).find((d) => d.search_type === 'cpf')!;
    for (let k = 0; k < 2; k++) {
      for (const [method, path, body] of [['POST', '/requests', { search: { search_type: 'cpf', search_key: doc.search_key } }], ['GET', '/requests', undefined]] as const) {
        const r = await call(sb, method, path, body);
        expect(r.status).toBe(403);
        expect(r.body.error).toMatchObject({ name: 'HttpForbiddenError', data: ['INSUFFICIENT_PERMISSIONS'] });
        expect(r.body.error.message).toContain('"requests"');
      }
    }
    expect((await call(sb, 'GET', '/responses')).status).toBe(200);
  });
});
