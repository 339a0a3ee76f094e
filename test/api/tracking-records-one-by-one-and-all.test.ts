// The client's calls on one tracking record (GET, pause, resume, DELETE) and its listing of all of a key's records,
// against the sandbox in both dialects: the spec's links envelope and the documentation's flat one with counts
// written as strings. Every status is listed, past one page; a record the service does not have (deleted and
// unknown, or another key's) is the answer 'gone', not an error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import { API_CODES } from '../../src/api/errors.js';
import type { SearchType } from '../../src/spec/types.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';

describe.each(['spec', 'documented'] as const)('tracking records in the %s dialect', (dialect) => {
  let sandbox: Sandbox;
  let api: LawsuitApi;
  let other: LawsuitApi;
  const client = (apiKey: string) => new LawsuitApi({ apiKey, urls: { requests: sandbox.url, tracking: sandbox.url, lawsuits: sandbox.url, transfer: sandbox.url }, retries: 1, baseDelayMs: 10 });

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 5, lawsuits: 3000, now: new Date('2026-01-05T03:00:00Z'), rateLimit: 100_000, dialect, apiKeys: ['mine', 'theirs'] });
    api = client('mine');
    other = client('theirs');
  });
  afterAll(async () => {
    await api.close();
    await other.close();
    await sandbox.close();
  });

  it('lists every record of the key, every status, past the first page', async () => {
    const searches = new Map<string, { search_type: SearchType; search_key: string }>();
    for (const d of sandbox.sampleDocuments(900)) {
      if (d.search_type === 'cpf' || d.search_type === 'cnpj') searches.set(d.search_key.replace(/\D/g, ''), { search_type: d.search_type, search_key: d.search_key });
    }
    const made: string[] = [];
    for (const s of [...searches.values()].slice(0, 130)) {
      const r = await api.tracking.create(s, 1);
      if (!r.conflict) made.push(r.tracking.tracking_id);
    }
    expect(made.length).toBeGreaterThan(100);
    expect(await api.tracking.pause(made[0])).toMatchObject({ tracking_id: made[0], status: 'paused' });
    expect(await api.tracking.delete(made[1])).toMatchObject({ tracking_id: made[1], status: 'deleted' });
    const paused = await api.tracking.pause(made[2]);
    expect(paused).not.toBe('gone');
    expect(await api.tracking.resume(made[2])).toMatchObject({ tracking_id: made[2], status: 'created' });

    const all = await api.tracking.all();
    expect(all.map((t) => t.tracking_id).sort()).toEqual([...made].sort());
    const status = new Map(all.map((t) => [t.tracking_id, t.status]));
    expect([status.get(made[0]), status.get(made[1]), status.get(made[2])]).toEqual(['paused', 'deleted', 'created']);
    expect(await other.tracking.all()).toEqual([]);
  });

  it('answers one record with its latest run, and "gone" for one the key does not have', async () => {
    const first = (await api.tracking.all()).at(-1)!;
    sandbox.advanceDays(1);
    const one = await api.tracking.get(first.tracking_id);
    expect(one).toMatchObject({ tracking_id: first.tracking_id, request_id: expect.any(String) });
    for (const call of [() => other.tracking.get(first.tracking_id), () => other.tracking.pause(first.tracking_id), () => other.tracking.resume(first.tracking_id), () => other.tracking.delete(first.tracking_id)]) {
      expect(await call()).toBe('gone');
    }
    expect(await api.tracking.get('00000000-0000-4000-8000-000000000000')).toBe('gone');
  });

  it('leaves a pause of a deleted record to the caller as a conflict', async () => {
    const deleted = (await api.tracking.all()).find((t) => t.status === 'deleted')!;
    await expect(api.tracking.pause(deleted.tracking_id)).rejects.toMatchObject({ code: API_CODES.conflict, statusCode: 409 });
  });
});
