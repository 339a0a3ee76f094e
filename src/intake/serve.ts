import { join } from 'node:path';
import type { Logger } from 'pino';
import { DEFAULT_CALLBACK_PORT, type CallbackConfig } from '../shared/config.js';
import { EtlError } from '../shared/errors.js';
import { acquireRunLock } from '../shared/lock.js';
import { startIntake, WEBHOOK_PATH, type Intake } from './intake.js';
import { INTAKE_LOCK } from './spool-format.js';
import { SpoolWriter } from './spool-writer.js';

// The intake as a service: its spool opened under the spool's lock (one intake writes a spool: two would each
// trust their own index of response ids), its port listened on, until stopped. `receive` serves it alone;
// `schedule` beside its jobs when LAWSUIT_CALLBACK_PORT is set.

export interface RunningIntake extends Intake {
  /** The callback URL with its secret hidden, for a log line. */
  shownUrl: string;
  /** Closes the intake (what was accepted is answered first), then releases the spool's lock. */
  stop(): Promise<void>;
}

export async function openIntake(c: CallbackConfig, log: Logger): Promise<RunningIntake> {
  if (c.secret === undefined) throw new EtlError('INTAKE_NO_SECRET', 'the webhook intake needs LAWSUIT_CALLBACK_SECRET(_FILE)', { usage: true });
  const lock = await acquireRunLock(join(c.spool, INTAKE_LOCK), { command: 'receive' }, { log });
  try {
    const spool = await SpoolWriter.open({ dir: c.spool, fsync: c.fsync });
    const intake = await startIntake({ spool, secret: c.secret, maxBytes: c.maxBytes, port: c.port ?? DEFAULT_CALLBACK_PORT, host: c.host, log })
      .catch(async (e: unknown) => { await spool.close(); throw e; });
    const shownUrl = intake.url.replace(`${WEBHOOK_PATH}${c.secret}`, `${WEBHOOK_PATH}[secret]`);
    log.info({ event: 'intake.listening', listening: shownUrl, spool: c.spool, deliveries: spool.deliveries, fsync: c.fsync },
      `the webhook intake listens at ${shownUrl}, writing to ${c.spool}`);
    return { ...intake, shownUrl, stop: async () => { try { await intake.close(); } finally { await lock.release(); } } };
  } catch (e) {
    await lock.release();
    throw e;
  }
}

/** `receive`: the intake served until `signal` aborts (SIGTERM); its URL printed first, on a line of its own. */
export async function serveIntake(c: CallbackConfig, io: { log: Logger; signal: AbortSignal; out: { write(s: string): unknown } }): Promise<void> {
  const intake = await openIntake(c, io.log);
  io.out.write(`${intake.url}\n`);
  if (!io.signal.aborted) await new Promise<void>((resolve) => io.signal.addEventListener('abort', () => resolve(), { once: true }));
  io.log.info({ event: 'intake.stopping' }, 'stopping the webhook intake: answering what was accepted, then closing the spool');
  await intake.stop();
}
