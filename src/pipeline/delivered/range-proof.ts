import type { SweepParams } from '../../shared/config.js';
import type { RunContext } from '../context.js';
import type { PageSink } from '../page-sink.js';
import { untilHeld, untilQuiet } from './await-deliveries.js';
import { proofIo } from './counts.js';
import type { SpoolReading } from './spool-reading.js';

// A trackings night's reading of its trackings' runs, proved by their deliveries: the reading would list every
// response of the key created in its range (tracking/read-runs.ts); once the spool is loaded, the range is read
// when the warehouse holds as many responses created in it as the provider counts there (proof.ts, one call; and
// one more when the count had to be awaited while deliveries still arrived). Then no page is listed: the reading's
// cursor moves to the range's end with the responses of its last millisecond known, and the next night starts there.

interface RangeProof {
  proved: boolean;
  calls: number;
  /** Response ids held at the range's last millisecond (the cursor's `atLast`: not read again by the next night). */
  atLast: string[];
}

export function rangeProver(ctx: RunContext, reading: SpoolReading, sink: PageSink, params: SweepParams): (from: number, until: number) => Promise<RangeProof> {
  const io = proofIo(ctx, params);
  return async (from, until) => {
    await untilQuiet(ctx, reading, sink);
    let held = await io.heldIn(from, until);
    let c = await io.countIn(from, until, held);
    let calls = 1;
    if (!('untrusted' in c) && c.count > held && await untilHeld(ctx, reading, sink, () => io.heldIn(from, until), c.count)) {
      held = await io.heldIn(from, until);
      c = await io.countIn(from, until, held);
      calls++;
    }
    const proved = !('untrusted' in c) && c.count === held && !c.more;
    const atLast = proved ? (await ctx.wh.all<{ id: string }>(`SELECT response_id AS id FROM responses_raw WHERE created_at >= $1::TIMESTAMPTZ AND created_at < $2::TIMESTAMPTZ`,
      [new Date(until).toISOString(), new Date(until + 1).toISOString()])).map((r) => r.id) : [];
    return { proved, calls, atLast };
  };
}
