import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dueAttachments, recordListedPending, recordNotStored, recordStored } from '../../src/warehouse/attachment-ledger.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';

// What is due tonight (attachment-ledger.ts): a file never tried and listed done; a try that stored nothing only
// once its backoff (1, 2, 4, ... days) has passed, never every night; a file listed pending is recorded without a
// call, and due at once when a newer read lists it done; a file too large only once the limit has grown past it;
// a stored file, an attachment without the provider's id, never.

const tmp = scratch('attachments-due-');
let wh: Warehouse;
const H = 3_600_000;
const t0 = new Date('2026-11-01T02:00:00Z');
const at = (hours: number) => new Date(t0.getTime() + hours * H);
const ids = async (now: Date, max = 1_000) => (await dueAttachments(wh, now, max)).map((a) => a.attachment_id).sort();
const due = async (id: string, now: Date) => (await dueAttachments(wh, now, 1_000_000)).find((a) => a.attachment_id === id)!;

beforeAll(async () => {
  wh = await Warehouse.open(join(tmp.dir, 'w.duckdb'));
  for (const [id, status, derived] of [['a', 'done', false], ['b', 'pending', false], ['c', 'done', false], ['d', 'done', true], ['e', 'done', false]] as const) {
    await wh.run(`INSERT INTO attachments (code, instance, attachment_id, attachment_id_derived, status, raw) VALUES ('0000001-00.2020.8.26.0100', 1, $1, $2, $3, '{}')`, [id, derived, status]);
  }
});
afterAll(async () => { await wh.close(); tmp.cleanup(); });

it('asks for each file on its backoff, never every night', async () => {
  expect(await ids(t0)).toEqual(['a', 'c', 'e']);
  expect(await recordListedPending(wh, t0, 'r1')).toBe(1);
  await recordNotStored(wh, await due('a', t0), { state: 'not_ready', error_code: 'ATTACHMENT_NOT_READY', reason: '404' }, t0, 'r1');
  await recordStored(wh, await due('c', t0), { sha256: 'f'.repeat(64), bytes: 10, content_type: 'application/pdf', path: 'x' }, t0, 'r1');
  await recordNotStored(wh, await due('e', t0), { state: 'too_large', error_code: 'ATTACHMENT_TOO_LARGE', reason: 'big', bytes: 5_000 }, t0, 'r1');
  expect(await ids(at(23))).toEqual([]);
  expect(await ids(at(25))).toEqual(['a', 'b']);
  // a second try that stores nothing waits two days, then four
  await recordNotStored(wh, await due('a', at(25)), { state: 'failed', error_code: 'API_NETWORK', reason: 'cut' }, at(25), 'r2');
  expect(await ids(at(25 + 47))).toEqual(['b']);
  expect(await ids(at(25 + 49))).toEqual(['a', 'b']);
  // a newer read lists the pending file done: due at once
  await wh.run(`UPDATE attachments SET status = 'done' WHERE attachment_id = 'b'`);
  expect(await ids(at(1))).toEqual(['b']);
  // a file too large is due once the limit is at least its size
  expect(await ids(at(1), 4_999)).toEqual(['b']);
  expect(await ids(at(1), 5_000)).toEqual(['b', 'e']);
  const [c] = await wh.all<{ attempts: number; next_try_at: Date | null }>(`SELECT attempts, next_try_at FROM attachment_downloads WHERE attachment_id = 'a'`);
  expect(c.attempts).toBe(2);
});
