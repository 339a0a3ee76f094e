// POST /tracking and GET /tracking: created, a duplicate answered 409 naming the existing record, statuses
// moving with the sandbox clock, the repeatable status filter and paging, validation errors.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LawsuitApi } from '../../src/api/client.js';
import type { Tracking } from '../../src/spec/types.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { LAWSUITS, SEED, clientFor, get, post } from './helpers.js';

let sandbox: Sandbox;
let api: LawsuitApi;
const T0 = new Date('2025-03-01T02:00:00Z');

beforeAll(async () => {
  sandbox = await startSandbox({ seed: SEED, lawsuits: LAWSUITS, now: T0, rateLimit: 100_000, dialect: 'spec' });
  api = clientFor(sandbox);
});
afterAll(async () => {
  await api.close();
  await sandbox.close();
});

async function all(status?: string[]): Promise<Tracking[]> {
  const out: Tracking[] = [];
  for await (const t of api.tracking.walk({ status, pageSize: 2 })) out.push(t);
  return out;
}

it('creates a tracking, answers a duplicate 409 with its id, and moves it through its states with the clock', async () => {
  const search = { search_type: 'cpf' as const, search_key: '092.065.297-22' };
  const first = await api.tracking.create(search, 3);
  if (first.conflict) throw new Error('first creation met a conflict');
  expect(first.tracking.status).toBe('created');
  expect(first.tracking.recurrence).toBe(3);

  const raw = await post(sandbox, '/tracking', { recurrence: 3, search: { search_type: 'cpf', search_key: '09206529722' } });
  expect(raw.status).toBe(409);
  expect(raw.body.error).toEqual({ name: 'Conflict', message: expect.any(String), data: [first.tracking.tracking_id] });
  const dup = await api.tracking.create(search, 3);
  expect(dup).toEqual({ conflict: true, trackingId: first.tracking.tracking_id });
  expect((await all()).length).toBe(1);

  const statusNow = async () => (await all()).find((t) => t.tracking_id === first.tracking.tracking_id)!.status;
  sandbox.setNow(new Date(T0.getTime() + 2 * 3_600_000));
  expect(await statusNow()).toBe('active');
  sandbox.setNow(new Date(T0.getTime() + 3 * 86_400_000 + 10 * 60_000));
  expect(await statusNow()).toBe('updating');
  sandbox.setNow(new Date(T0.getTime() + 3 * 86_400_000 + 2 * 3_600_000));
  expect(await statusNow()).toBe('updated');
  await post(sandbox, `/_sandbox/tracking/${first.tracking.tracking_id}/pause`, {});
  expect(await statusNow()).toBe('paused');
});

it('filters the listing by repeated status values and pages through it', async () => {
  sandbox.setNow(new Date('2025-04-01T00:00:00Z'));
  const docs = sandbox.sampleDocuments(6).filter((d) => d.search_type !== 'cpf' || d.search_key !== '09206529722').slice(0, 4);
  const made: string[] = [];
  for (const d of docs) {
    const r = await api.tracking.create({ search_type: d.search_type as any, search_key: d.search_key }, 7);
    if (!r.conflict) made.push(r.tracking.tracking_id);
  }
  expect(made.length).toBe(docs.length);
  const everything = await all();
  expect(everything.length).toBe(1 + made.length);
  const created = await all(['created']);
  expect(created.map((t) => t.tracking_id).sort()).toEqual([...made].sort());
  const pausedOrCreated = await all(['paused', 'created']);
  expect(pausedOrCreated.length).toBe(everything.length);
  expect(await all(['active', 'updating', 'updated'])).toEqual([]);
  const page = await get(sandbox, '/tracking?page=1&page_size=2&status=created,paused');
  expect(page.body.meta).toMatchObject({ page: 1, page_count: 2, all_count: everything.length, all_pages_count: Math.ceil(everything.length / 2) });
});

it('rejects a bad recurrence, a bad search and an unknown status filter with 400 and every reason', async () => {
  const bad = await post(sandbox, '/tracking', { recurrence: 0, search: { search_type: 'cpf', search_key: '123' } });
  expect(bad.status).toBe(400);
  expect(bad.body.error.name).toBe('ValidationError');
  expect(bad.body.error.data.join(' ')).toMatch(/recurrence/);
  expect(bad.body.error.data.join(' ')).toMatch(/CPF/);
  const wrongCnj = await post(sandbox, '/tracking', { recurrence: 1, search: { search_type: 'lawsuit_cnj', search_key: '0001234-55.2023.8.26.0100' } });
  expect(wrongCnj.status).toBe(422);
  const list = await get(sandbox, '/tracking?status=sleeping');
  expect(list.status).toBe(400);
  expect(list.body.error.data[0]).toMatch(/status must be among/);
});
