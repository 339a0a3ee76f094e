// One validation convention for every endpoint (docs/dialect-and-spec-gaps.md, "Spec gaps"): an unknown query parameter, a value
// outside an enumeration and a filter key the spec does not name are all a 400 ValidationError that names the
// problem; nothing is silently ignored.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, sandbox } from './helpers.js';

describe('validation convention', () => {
  let sb: Sandbox;
  let doc: string;
  beforeAll(async () => { sb = await sandbox(); doc = sb.sampleDocuments(20).find((d) => d.search_type === 'cnpj')!.search_key; });
  afterAll(async () => sb.close());

  const rejected = (r: { status: number; body: any }, word: string) => {
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.error.name).toBe('ValidationError');
    expect(r.body.error.data.join(' ')).toContain(word);
  };

  test('an unknown query parameter is a 400 on every listing', async () => {
    for (const path of ['/requests', '/responses', '/tracking', '/transfer-file']) {
      rejected(await call(sb, 'GET', `${path}?page=1&colour=blue`), 'colour');
      expect((await call(sb, 'GET', `${path}?page=1`)).status).toBe(200);
    }
  });

  test('a value outside an enumeration is a 400 on every listing', async () => {
    rejected(await call(sb, 'GET', '/requests?status=finished'), 'status');
    rejected(await call(sb, 'GET', '/tracking?status=finished'), 'status');
    rejected(await call(sb, 'GET', '/transfer-file?status=finished'), 'status');
    rejected(await call(sb, 'GET', '/transfer-file?file_type=xlsx'), 'file_type');
    rejected(await call(sb, 'GET', '/responses?request_status=finished'), 'request_status');
    rejected(await call(sb, 'GET', '/responses?response_type=verdict'), 'response_type');
    rejected(await call(sb, 'GET', '/responses?order=sideways'), 'order');
    expect((await call(sb, 'GET', '/requests?status=started,cancelling')).status).toBe(200);
    expect((await call(sb, 'GET', '/transfer-file?status=available')).status).toBe(200);
  });

  test('a filter key the spec does not name is a 400 on every endpoint that takes a search', async () => {
    const search = (filter: object) => ({ search: { search_type: 'cnpj', search_key: doc, search_params: { filter } } });
    for (const path of ['/requests', '/lawsuits', '/requests/count', '/requests/create/grouped']) {
      rejected(await call(sb, 'POST', path, search({ court: 'TJSP' })), 'court');
      rejected(await call(sb, 'POST', path, search({ tribunals: { keys: ['TJSP'], exclude: true } })), 'exclude');
      expect((await call(sb, 'POST', path, search({ tribunals: { keys: ['TJSP'], not_equal: false }, subject_codes: { conteins: ['5952'] } }))).status).toBe(200);
    }
    rejected(await call(sb, 'POST', '/tracking', { recurrence: 1, ...search({ court: 'TJSP' }) }), 'court');
  });
});
