import PQueue from 'p-queue';
import type { Logger } from 'pino';
import type { JobSpec } from './job-loader.js';

// The jobs share one warehouse and one API key's rate budget, so they never run at the same time: every
// occurrence goes through this one queue (p-queue, one at a time), and the run lock (taken by each command)
// covers other processes. An occurrence of a job already running or waiting is skipped: it would only repeat
// the run in line.

export type Reason = 'scheduled' | `catch-up:${string}`;

export class JobQueue {
  private readonly queue = new PQueue({ concurrency: 1 });
  /** The jobs in line, by name: the first is running (or about to), the others wait. */
  private readonly line: string[] = [];
  /**
   * How to drop each job still waiting: p-queue removes an aborted task from its queue and settles its promise.
   * A running task is never aborted this way (p-queue would stop waiting for it): its command is told to stop.
   */
  private readonly waiting = new Map<string, AbortController>();
  private closed = false;

  constructor(private readonly run: (job: JobSpec, reason: Reason) => Promise<void>, private readonly log: Logger) {}

  enqueue(job: JobSpec, reason: Reason): void {
    if (this.closed) return;
    if (this.line.includes(job.name)) {
      const why = this.line[0] === job.name ? 'already running' : 'already queued';
      this.log.info({ event: 'job.skipped', job: job.name, reason, why }, `${job.name}: occurrence skipped, the job is already running or queued`);
      return;
    }
    const ahead = this.line[0];
    if (ahead !== undefined) this.log.info({ event: 'job.queued', job: job.name, reason, behind: ahead }, `${job.name}: waits for ${ahead} to end`);
    this.line.push(job.name);
    const drop = new AbortController();
    this.waiting.set(job.name, drop);
    const started = (): Promise<void> => {
      this.waiting.delete(job.name);
      return this.run(job, reason);
    };
    this.queue.add(started, { signal: drop.signal })
      .catch((e: unknown) => {
        if (!drop.signal.aborted) this.log.error({ event: 'job.end', job: job.name, outcome: 'failed', err: e }, `${job.name}: the scheduler failed running it`);
      })
      .finally(() => this.line.splice(this.line.indexOf(job.name), 1));
  }

  /** Takes no occurrence any more and drops those waiting; the running one goes on. Returns the names dropped. */
  close(): string[] {
    this.closed = true;
    const dropped = [...this.waiting.keys()];
    for (const d of this.waiting.values()) d.abort();
    this.waiting.clear();
    return dropped;
  }

  /** Resolves when nothing runs or waits. */
  onIdle(): Promise<void> {
    return this.queue.onIdle();
  }
}
