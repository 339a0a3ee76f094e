import type { Logger } from 'pino';
import { exitCodeOf } from './exit-codes.js';

// Stopping that always ends. The first SIGTERM (or SIGINT) aborts the run's signal: no call is started any more,
// those in flight are cut off (api/http.ts), what is loaded is committed and published (stage-runner.ts), and the
// command exits 4 as it would at any end. Nothing of that waits on the network, yet a publish of a large
// warehouse, or a fault nobody foresaw, could still hold it; so a grace period starts with the signal, and its
// end, or a second signal, ends the process at once, with the code the contract gives a run stopped by SIGTERM
// (4: what was not done is the next run's, from its work copy). An adversarial run once saw a stopped run alive
// 222 s after SIGTERM, until SIGKILL, leaving the scheduler no exit code at all.

interface ShutdownOptions {
  /** How long the run may take to end once told to stop, in ms (Config.shutdownGraceMs). */
  graceMs: number;
  log: Logger;
  /** Ends the process. Default process.exit (tests give their own). */
  exit?: (code: number) => void;
  /** Where the signals come from. Default the process. */
  signals?: Pick<NodeJS.Process, 'on' | 'off'>;
}

interface Shutdown {
  /** Aborted at the first SIGTERM or SIGINT. */
  signal: AbortSignal;
  /** The command ended by itself: the grace period no longer runs, the signals are left alone. */
  dispose(): void;
}

const HANDLED = ['SIGTERM', 'SIGINT'] as const;

export function gracefulShutdown(opts: ShutdownOptions): Shutdown {
  const ac = new AbortController();
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const signals = opts.signals ?? process;
  let grace: NodeJS.Timeout | undefined;
  const onSignal = (sig: NodeJS.Signals): void => {
    if (ac.signal.aborted) {
      opts.log.warn({ event: 'shutdown.again', signal: sig }, `${sig} again: exiting at once`);
      exit(exitCodeOf('interrupted'));
      return;
    }
    opts.log.warn({ event: 'shutdown.start', signal: sig, grace_ms: opts.graceMs },
      `stopping: no new calls, calls in flight cut off; publishing what is loaded within ${opts.graceMs / 1000} s`);
    ac.abort();
    grace = setTimeout(() => {
      opts.log.error({ event: 'shutdown.grace_over', signal: sig, grace_ms: opts.graceMs },
        `the run did not end within its grace period (LAWSUIT_SHUTDOWN_GRACE_SECONDS): exiting at once; the next run carries on from its work copy`);
      exit(exitCodeOf('interrupted'));
    }, opts.graceMs);
    // The grace period bounds the run's end; it must not be what keeps an ended process alive.
    grace.unref();
  };
  for (const s of HANDLED) signals.on(s, onSignal);
  return {
    signal: ac.signal,
    dispose: () => {
      clearTimeout(grace);
      for (const s of HANDLED) signals.off(s, onSignal);
    },
  };
}
