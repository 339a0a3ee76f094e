import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PageSink, type PendingPage } from '../../src/pipeline/page-sink.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { cnj, lawsuitItem, richLawsuit } from '../warehouse/fixtures.js';

// The page sink (src/pipeline/page-sink.ts): one transaction at a time, the pages that arrive while one runs
// going together into the next, and a reader held back (room()) while the pages not yet committed reach the
// bound, released by a commit. The warehouse's transaction is held at a gate the test opens, so every step is
// an event, never a sleep.

let wh: Warehouse;
let gate: { open(): void; entered: Promise<void> };
beforeEach(async () => {
  wh = await Warehouse.open(':memory:');
  const transaction = wh.transaction.bind(wh);
  let enter!: () => void;
  let open!: () => void;
  const entered = new Promise<void>((r) => { enter = r; });
  const opened = new Promise<void>((r) => { open = r; });
  gate = { open, entered };
  wh.transaction = (async (fn: () => Promise<unknown>) => {
    enter();
    await opened;
    return transaction(fn);
  }) as Warehouse['transaction'];
});
afterEach(async () => { await wh.close(); });

let n = 0;
const page = (items: number): PendingPage => ({
  items: Array.from({ length: items }, () => lawsuitItem(richLawsuit({ code: cnj(++n) }), { request_id: 'req-1' })),
  ledger: [],
});

describe('the page sink', () => {
  it('holds a reader back while the pages held reach the bound, and lets it on once a commit makes room', async () => {
    const events: string[] = [];
    const sink = new PageSink(wh, { runId: 'r1', maxItems: 3, onCommit: (_c, pages) => events.push(`commit of ${pages}`) });
    const first = sink.add(page(3));
    await gate.entered;
    const room = sink.room().then(() => events.push('room'));
    const second = sink.add(page(1)).then(() => events.push('second committed'));
    events.push('gate opened');
    gate.open();
    await Promise.all([first, room, second]);
    expect(events).toEqual(['gate opened', 'commit of 1', 'room', 'commit of 1', 'second committed']);
    expect((await wh.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM responses_raw'))[0].n).toBe(4);
  });

  it('pages added while a transaction runs go together into the next one, each resolved with it', async () => {
    const commits: number[] = [];
    const sink = new PageSink(wh, { runId: 'r1', onCommit: (_c, pages) => commits.push(pages) });
    const first = sink.add(page(1));
    await gate.entered;
    const rest = [sink.add(page(2)), sink.add(page(1)), sink.add(page(3))];
    gate.open();
    await Promise.all([first, ...rest]);
    expect(commits).toEqual([1, 3]);
  });
});
