// A key whose plan leaves a resource out: every call to it is the spec's 403 INSUFFICIENT_PERMISSIONS with a
// message naming the resource, the rest of the API works; settable at start (`forbid`, `--forbid`) and at run
// time (/_sandbox/plan).
import { afterEach, describe, expect, test } from 'vitest';
import { parseSandboxArgs } from '../../src/cli/sandbox-args.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { call, sandbox } from './helpers.js';

describe('plan without a resource', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { await sb?.close(); sb = undefined; });

  const forbidden = (r: { status: number; body: any }, resource: string) => {
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ error: 'Forbidden', code: 'INSUFFICIENT_PERMISSIONS' });
    expect(r.body.message).toContain(`"${resource}"`);
    expect(r.body.message).toContain('not in');
  };

  test('forbid: [transfer] refuses every transfer-file call and nothing else', async () => {
    sb = await sandbox({ forbid: ['transfer'] });
    forbidden(await call(sb, 'GET', '/transfer-file'), 'transfer');
    forbidden(await call(sb, 'GET', '/transfer-file/abc'), 'transfer');
    forbidden(await call(sb, 'PATCH', '/transfer-file/abc', { status: 'downloaded' }), 'transfer');
    expect((await call(sb, 'POST', '/requests', { search: { search_type: 'name', search_key: 'Ana Silva Santos' } })).status).toBe(200);
    expect((await call(sb, 'GET', '/requests')).status).toBe(200);
    expect((await call(sb, 'GET', '/tracking')).status).toBe(200);
    expect(sb.counters().by_endpoint['GET /transfer-file']).toEqual({ 403: 1 });
    // A refused call still takes its slot of the key's window, as the provider counts it.
    const r = await call(sb, 'GET', '/transfer-file');
    expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeLessThan(100000 - 5);
  });

  test('the plan can be read and changed at run time through /_sandbox/plan', async () => {
    sb = await sandbox();
    const body = { search: { search_type: 'name', search_key: 'Ana Silva Santos' } };
    expect((await call(sb, 'POST', '/lawsuits', body)).status).toBe(200);
    const set = await call(sb, 'POST', '/_sandbox/plan', { forbid: ['tracking', 'lawsuits', 'responses'] }, null);
    expect(set.body).toEqual({ forbid: ['responses', 'tracking', 'lawsuits'] });
    for (const path of ['/lawsuits', '/requests/count', '/requests/create', '/requests/create/grouped']) forbidden(await call(sb, 'POST', path, body), 'lawsuits');
    forbidden(await call(sb, 'POST', '/tracking', { recurrence: 1, ...body }), 'tracking');
    forbidden(await call(sb, 'GET', '/responses'), 'responses');
    expect((await call(sb, 'GET', '/transfer-file')).status).toBe(200);
    expect((await call(sb, 'GET', '/_sandbox/plan', undefined, null)).body).toEqual({ forbid: ['responses', 'tracking', 'lawsuits'] });
    const bad = await call(sb, 'POST', '/_sandbox/plan', { forbid: ['files', 'tracking', 'robots'] }, null);
    expect(bad.status).toBe(400);
    expect(bad.body.error.data.join(' ')).toMatch(/files.*robots/s);
    sb.setForbidden([]);
    expect((await call(sb, 'POST', '/lawsuits', body)).status).toBe(200);
  });

  test('bad options are all reported at once, from code and from the command line', async () => {
    await expect(startSandbox({ forbid: ['files' as never], bootId: 'a b', retentionMs: -1 })).rejects.toThrow(/retentionMs.*bootId.*files/s);
    expect(parseSandboxArgs(['--forbid', 'transfer,tracking', '--boot-id', 'b1', '--retention-ms', '60000']))
      .toMatchObject({ forbid: ['transfer', 'tracking'], bootId: 'b1', retentionMs: 60000 });
    expect(() => parseSandboxArgs(['--forbid', 'transfer,files', '--boot-id', '', '--faults', 'foreign=2'])).toThrow(/files.*boot-id.*foreign/s);
  });
});
