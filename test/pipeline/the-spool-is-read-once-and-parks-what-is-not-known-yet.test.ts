// The night's reading of the intake's spool (src/pipeline/delivered/spool-reading.ts): a delivery of a known request
// is loaded, one of a request not known yet is parked and loaded once it is known, a tracking's run is loaded on a
// night that reads that tracking; a segment being written is read to its last whole line and carried on from there;
// and only segments held whole (closed, read to the end, nothing parked in them) are pruned.
import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readEnvelope } from '../../src/intake/envelope.js';
import { encodeRecord, segmentId } from '../../src/intake/spool-format.js';
import type { RunContext } from '../../src/pipeline/context.js';
import { SpoolReading } from '../../src/pipeline/delivered/spool-reading.js';
import { PageSink } from '../../src/pipeline/page-sink.js';
import type { Config } from '../../src/shared/config.js';
import { upsertRequest } from '../../src/warehouse/ledger.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { delivery } from '../intake/deliveries.js';

let wh: Warehouse;
let dir: string;
let ctx: RunContext;
beforeEach(async () => {
  wh = await Warehouse.open(':memory:');
  dir = mkdtempSync(join(tmpdir(), 'spool-read-'));
  ctx = { wh, runId: 'run-1', log: pino({ level: 'silent' }), signal: new AbortController().signal, cfg: { callback: { spool: dir } } as Config } as RunContext;
});
afterEach(async () => {
  await wh.close();
  rmSync(dir, { recursive: true, force: true });
});

const line = (body: string): Buffer => {
  const e = readEnvelope(body);
  if (!e.ok) throw new Error(e.detail);
  return encodeRecord(e.delivery, body, new Date());
};
const ids = async (sql: string): Promise<string[]> => (await wh.all<{ id: string }>(sql)).map((r) => r.id).sort();
const raw = () => ids('SELECT response_id AS id FROM responses_raw');
const parked = () => ids('SELECT response_id AS id FROM deliveries_parked');

describe('the spool read by a night', () => {
  it('loads what it can place, parks the rest until it can, and prunes only what it holds whole', async () => {
    await upsertRequest(wh, { request_id: 'q-known', status: 'completed' });
    const seg = segmentId(new Date('2026-06-15T12:00:00Z'), 1, 1);
    writeFileSync(join(dir, `${seg}.ndjson`), Buffer.concat([
      line(delivery('r-known', 'q-known')), line(delivery('r-later', 'q-later')),
      line(delivery('r-run', 'q-run', { reference_type: 'tracking', reference_id: 't-1' })),
    ]));
    const reading = await SpoolReading.open(ctx, dir);
    const sink = new PageSink(wh, { runId: 'run-1' });
    await reading.catchUp(sink);
    expect(await raw()).toEqual(['r-known']);
    expect(await parked()).toEqual(['r-later', 'r-run']);
    await reading.prune();
    expect(existsSync(join(dir, `${seg}.ndjson`))).toBe(true);

    await upsertRequest(wh, { request_id: 'q-later', status: 'completed' });
    await reading.catchUp(sink);
    expect(await raw()).toEqual(['r-known', 'r-later']);
    expect(await parked()).toEqual(['r-run']);

    await reading.catchUp(sink, new Map([['t-1', { searchType: 'cpf', searchKey: '12345678909' }]]));
    expect(await raw()).toEqual(['r-known', 'r-later', 'r-run']);
    expect(await parked()).toEqual([]);
    expect(await wh.all('SELECT request_id, tracking_id, responses_loaded FROM tracking_runs')).toEqual([{ request_id: 'q-run', tracking_id: 't-1', responses_loaded: 1 }]);
    expect(reading.figures).toMatchObject({ deliveries: 3, loaded: 1, parked: 2, unparked: 2, runs: 1 });

    await reading.prune();
    expect(existsSync(join(dir, `${seg}.ndjson`))).toBe(false);
    expect(reading.figures.pruned).toBe(1);
  });

  it('reads a segment being written to its last whole line, and on from there; a night after reads nothing twice', async () => {
    await upsertRequest(wh, { request_id: 'q-1', status: 'completed' });
    const seg = segmentId(new Date('2026-06-15T12:00:00Z'), 1, 2);
    const open = join(dir, `${seg}.open`);
    const second = line(delivery('r-2', 'q-1'));
    writeFileSync(open, Buffer.concat([line(delivery('r-1', 'q-1')), second.subarray(0, 30)]));
    const first = await SpoolReading.open(ctx, dir);
    const sink = new PageSink(wh, { runId: 'run-1' });
    await first.catchUp(sink);
    expect(await raw()).toEqual(['r-1']);
    appendFileSync(open, second.subarray(30));
    await first.catchUp(sink);
    expect(await raw()).toEqual(['r-2', 'r-1'].sort());
    await first.prune();
    expect(existsSync(open)).toBe(true);

    // the intake closes the segment; the next night reads nothing again and prunes it after its publish
    const closed = join(dir, `${seg}.ndjson`);
    writeFileSync(closed, Buffer.concat([line(delivery('r-1', 'q-1')), second]));
    rmSync(open);
    const next = await SpoolReading.open({ ...ctx, runId: 'run-2' }, dir);
    await next.catchUp(new PageSink(wh, { runId: 'run-2' }));
    expect(next.figures.deliveries).toBe(0);
    await next.prune();
    expect(existsSync(closed)).toBe(false);
  });
});
