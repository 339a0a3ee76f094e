import type { RequestObject } from '../../spec/types.js';
import type { RunContext } from '../context.js';
import { dialectOrAssumed, sweepParamsOf } from '../dialect.js';
import type { SearchShell } from '../search/shell.js';
import type { NightData } from '../stage.js';
import { DeliveryGate } from './gate.js';
import { nightSpool, spoolCounts } from './night-spool.js';
import type { SpoolFigures } from './spool-reading.js';

// A wave's seam with the webhook intake (search/wave.ts: the documents' searches, then the lawsuit-level reads):
// the spool is read first, and, when the night sends the callback URL, a gate holds each finished request between the
// poller and the reducer until its deliveries prove it complete (the reducer then hears it loaded) or hand it on
// (the reducer hears it finished, and it is read by the sweep or per request). Nothing else of the wave knows of
// deliveries.

/** The gate of a wave, and the spool's figures when the wave began (its report counts what it read itself). */
interface WaveGate { gate?: DeliveryGate; before?: SpoolFigures }

export async function openWaveGate(ctx: RunContext, night: NightData, shell: SearchShell): Promise<WaveGate> {
  const reading = await nightSpool(ctx, night);
  if (!reading) return {};
  const before = { ...reading.figures };
  await reading.catchUp(shell.sink);
  if (ctx.cfg.callback.url === undefined) return { before };
  const dialect = await dialectOrAssumed(ctx);
  const finished = (request: RequestObject): void => shell.dispatch({ kind: 'finished', request, member: shell.sweep?.isMember(request.request_id) ?? false });
  const gate = new DeliveryGate({
    ctx, reading, sink: shell.sink,
    out: {
      proven: (request) => {
        shell.sweep?.forget(request.request_id);
        shell.dispatch({ kind: 'loaded', requestId: request.request_id, pages: 0 });
      },
      listing: finished,
      failed: (error) => shell.dispatch({ kind: 'broke', error }),
    },
  }, sweepParamsOf(dialect.dialect, ctx.cfg.sweepParams) ?? null);
  return { gate, before };
}

/** What the wave read of the spool and proved by deliveries, as its stage's counts. */
export function waveGateCounts(night: NightData, g: WaveGate): Record<string, number> {
  if (!night.spool || !g.before) return {};
  const now = spoolCounts(night.spool.figures);
  const then = spoolCounts(g.before);
  const f = g.gate?.figures;
  return {
    ...Object.fromEntries(Object.entries(now).map(([k, v]) => [k, v - (then[k] ?? 0)])),
    ...(f ? { delivered: f.delivered, delivered_responses: f.deliveredResponses, listed_after_delivery: f.listed, proof_calls: f.proofCalls } : {}),
  };
}
