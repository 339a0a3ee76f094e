import type { Logger } from 'pino';
import type { JobRunner } from './child-runner.js';
import { healthOf, type HealthReport } from './health.js';
import { SchedulerMetrics } from './metrics.js';
import { startMetricsServer, type MetricsServer } from './metrics-server.js';
import { startScheduler, type Scheduler, type SchedulerOptions } from './scheduler.js';

// `schedule` as a service: the scheduler and, when a metrics port is configured, the port that lets a
// monitoring system read it. The port is bound before any job starts, so a port that cannot be had stops
// the container at once (exit 2) instead of after a catch-up run; until the jobs are loaded /healthz says
// "starting" (503).

interface ScheduleServiceOptions {
  jobsDir: string;
  statePath: string;
  lockPath?: string;
  /** Each job's own run lock (see SchedulerOptions.lockOf). */
  lockOf?: SchedulerOptions['lockOf'];
  runner: JobRunner;
  log: Logger;
  /** Serve /healthz, /livez and /metrics on this port (0: any free one). Default none. */
  metricsPort?: number;
  /** Default all interfaces. */
  metricsHost?: string;
  /** /healthz answers 503 once a job failed this many times in a row. */
  healthMaxFailures: number;
  /** Clock for the scheduler and the health. Default `() => new Date()`. */
  now?: () => Date;
}

export interface ScheduleService {
  scheduler: Scheduler;
  /** Present when a metrics port was given. */
  server?: MetricsServer;
  /** The health as /healthz reports it. */
  health(): HealthReport;
  stop(): Promise<void>;
}

export async function startScheduleService(opts: ScheduleServiceOptions): Promise<ScheduleService> {
  const now = opts.now ?? (() => new Date());
  let scheduler: Scheduler | undefined;
  const health = (): HealthReport | undefined => {
    if (!scheduler) return undefined;
    const st = scheduler.status();
    return healthOf(st.jobs, st.state, now(), { maxFailures: opts.healthMaxFailures, startedAt: st.startedAt });
  };
  const metrics = opts.metricsPort === undefined ? undefined : new SchedulerMetrics({ healthy: () => health()?.status === 'ok' });
  const server = metrics && await startMetricsServer({
    port: opts.metricsPort!, host: opts.metricsHost, health, metrics: () => metrics.text(), contentType: metrics.contentType,
  });
  if (server) {
    opts.log.info({ event: 'schedule.metrics', port: server.port, host: opts.metricsHost ?? 'all interfaces' },
      `serving /healthz, /livez and /metrics on port ${server.port}`);
  }
  try {
    scheduler = await startScheduler({
      jobsDir: opts.jobsDir, statePath: opts.statePath, lockPath: opts.lockPath, lockOf: opts.lockOf, runner: opts.runner, log: opts.log, now, observer: metrics,
    });
  } catch (e) {
    await server?.close();
    throw e;
  }
  const started = scheduler;
  return {
    scheduler: started,
    server,
    health: () => health()!,
    async stop() {
      await started.stop();
      await server?.close();
    },
  };
}
