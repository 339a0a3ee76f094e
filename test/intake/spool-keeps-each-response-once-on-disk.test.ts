// The spool's writer: a delivery is on disk when its append resolves, each response is written once whatever the
// order and the repeats, deliveries that arrive together share an fsync (group commit) where one each is the other
// mode, and a segment a killed intake left open is cut back to its last whole line and closed at the next start.
import { appendFileSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { readEnvelope, type Delivery } from '../../src/intake/envelope.js';
import { listSegments, readLines } from '../../src/intake/spool-files.js';
import { decodeRecord, encodeRecord, segmentId } from '../../src/intake/spool-format.js';
import { SpoolWriter } from '../../src/intake/spool-writer.js';
import { delivery } from './deliveries.js';

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });
const scratch = (): string => { const d = mkdtempSync(join(tmpdir(), 'spool-')); dirs.push(d); return d; };

const parsed = (body: string): Delivery => { const e = readEnvelope(body); if (!e.ok) throw new Error(e.detail); return e.delivery; };
const append = (w: SpoolWriter, id: string) => { const body = delivery(id, 'q-1'); return w.append(parsed(body), body, new Date()); };

async function idsIn(dir: string): Promise<string[]> {
  const ids: string[] = [];
  for (const s of await listSegments(dir)) for await (const l of readLines(s.path)) ids.push(decodeRecord(l.text)!.responseId);
  return ids;
}

describe('the spool writer', () => {
  test('writes each response once, whatever the repeats and their order, concurrent or not', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }),
      fc.constantFrom<'batch' | 'delivery'>('batch', 'delivery'),
      async (waves, fsync) => {
        const dir = scratch();
        const w = await SpoolWriter.open({ dir, fsync });
        const outcomes: string[] = [];
        for (const wave of waves) outcomes.push(...await Promise.all(wave.map((n) => append(w, `r-${n}`))));
        await w.close();
        const distinct = new Set(waves.flat().map((n) => `r-${n}`));
        expect((await idsIn(dir)).sort()).toEqual([...distinct].sort());
        expect(outcomes.filter((o) => o === 'written')).toHaveLength(distinct.size);
      },
    ), { numRuns: 25 });
  });

  test('shares an fsync among the deliveries that arrive together (batch), one each otherwise (delivery)', async () => {
    const batch = await SpoolWriter.open({ dir: scratch(), fsync: 'batch' });
    await Promise.all(Array.from({ length: 200 }, (_, i) => append(batch, `r-${i}`)));
    const each = await SpoolWriter.open({ dir: scratch(), fsync: 'delivery' });
    await Promise.all(Array.from({ length: 200 }, (_, i) => append(each, `r-${i}`)));
    expect(each.health.fsyncs).toBe(200);
    expect(batch.health.fsyncs).toBeLessThan(20);
    expect([batch.deliveries, each.deliveries]).toEqual([200, 200]);
    await Promise.all([batch.close(), each.close()]);
  });

  test('closes a segment a killed intake left open, cut back to its last whole line, and knows its responses', async () => {
    const dir = scratch();
    const id = segmentId(new Date('2026-06-15T12:00:00Z'), 4242, 1);
    const line = (r: string) => encodeRecord(parsed(delivery(r, 'q-1')), delivery(r, 'q-1'), new Date());
    writeFileSync(join(dir, `${id}.open`), Buffer.concat([line('r-1'), line('r-2')]));
    appendFileSync(join(dir, `${id}.open`), line('r-3').subarray(0, 40));
    const w = await SpoolWriter.open({ dir, fsync: 'batch' });
    expect(readdirSync(dir).sort()).toEqual([`${id}.ndjson`]);
    expect(await idsIn(dir)).toEqual(['r-1', 'r-2']);
    expect(await append(w, 'r-2')).toBe('duplicate');
    expect(await append(w, 'r-3')).toBe('written');
    await w.close();
    expect(await idsIn(dir)).toEqual(['r-1', 'r-2', 'r-3']);
    expect((await listSegments(dir)).every((s) => !s.open)).toBe(true);
  });

  test('forgets the responses of a segment pruned, at the next roll', async () => {
    const dir = scratch();
    const w = await SpoolWriter.open({ dir, fsync: 'batch', segmentBytes: 1 });
    expect(await append(w, 'r-1')).toBe('written');
    const [first] = await listSegments(dir);
    expect(first.open).toBe(false);
    unlinkSync(first.path);
    expect(await append(w, 'r-2')).toBe('written');
    expect(w.deliveries).toBe(1);
    expect(await append(w, 'r-1')).toBe('written');
    await w.close();
  });
});
