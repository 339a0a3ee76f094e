import { sleep, type RunContext } from '../context.js';
import type { PageSink } from '../page-sink.js';
import type { SpoolReading } from './spool-reading.js';

// Waiting for deliveries on their way, without a call: the provider pushes a response as it makes it and retries a
// delivery not answered 2xx, so the deliveries of requests just finished come a little after them. Both waits look
// at the spool every LOOK_MS, load what came, and give up once nothing more came for LAWSUIT_CALLBACK_WAIT_SECONDS.

/** Between two looks at the spool, ms. */
export const LOOK_MS = 250;

/**
 * Loads the spool until it stops growing: nothing new between two looks ends it; so does the wait without anything
 * new, or ten times the wait in all (deliveries of other requests may keep coming). A count asked before the
 * deliveries of the requests just finished are in is a call spent for nothing.
 */
export async function untilQuiet(ctx: RunContext, reading: SpoolReading, sink: PageSink): Promise<void> {
  const start = Date.now();
  let moved = start;
  let seen = -1;
  for (;;) {
    await reading.catchUp(sink);
    const now = Date.now();
    if (reading.figures.deliveries !== seen) moved = now;
    else if (now - moved >= LOOK_MS) return;
    seen = reading.figures.deliveries;
    if (ctx.signal.aborted || now - moved >= ctx.cfg.callback.waitMs || now - start >= 10 * ctx.cfg.callback.waitMs) return;
    await sleep(LOOK_MS / 2, ctx.signal);
  }
}

/** Loads what is delivered until `held()` reaches `count` (true), or until nothing more came for the wait (false). */
export async function untilHeld(ctx: RunContext, reading: SpoolReading, sink: PageSink, held: () => Promise<number>, count: number): Promise<boolean> {
  let now = await held();
  let moved = Date.now();
  while (now < count && !ctx.signal.aborted && Date.now() - moved < ctx.cfg.callback.waitMs) {
    await sleep(LOOK_MS, ctx.signal);
    await reading.catchUp(sink);
    const next = await held();
    if (next > now) moved = Date.now();
    now = next;
  }
  return now >= count;
}
