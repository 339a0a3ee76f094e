import { existsSync } from 'node:fs';
import type { RunContext } from '../context.js';
import type { NightData } from '../stage.js';
import { SpoolReading, type SpoolFigures } from './spool-reading.js';

// The night's one reading of the intake's spool, shared by the stages that read it (a trackings night's trackings
// stage, then the search stage), opened on first use: when the night sends the callback URL, or when a spool is
// there (deliveries of requests made on a night that sent it). Its segments published whole are deleted once the
// publish stage has published the work copy that holds them (NightData.published).

export async function nightSpool(ctx: RunContext, night: NightData): Promise<SpoolReading | undefined> {
  if (night.spool) return night.spool;
  const dir = ctx.cfg.callback.spool;
  if (ctx.cfg.callback.url === undefined && !existsSync(dir)) return undefined;
  const reading = await SpoolReading.open(ctx, dir);
  night.spool = reading;
  (night.published ??= []).push(() => reading.prune());
  return reading;
}

/** The reading's figures as a stage's counts. */
export function spoolCounts(f: SpoolFigures): Record<string, number> {
  return { spool_deliveries: f.deliveries, spool_loaded: f.loaded, spool_parked: f.parked, spool_unparked: f.unparked, spool_unreadable: f.unreadable };
}
