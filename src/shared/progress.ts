import type { Logger } from 'pino';
import { stderrTerminal, type Terminal } from './terminal.js';

// Long work (documents, pages, files) shows a bar to a person at a terminal and leaves sparse JSON lines for a
// log collector otherwise: a bar's carriage returns are garbage in a log file, and a line per item is noise.

interface ProgressOptions {
  /**
   * Where the bar is drawn, on a line of its own that log lines never overwrite. Default standard error's
   * terminal; the bar is drawn only when it is a TTY.
   */
  terminal?: Terminal;
  /** Where the progress lines go when the stream is not a terminal (pino JSON, redacted by the logger). */
  log: Logger;
  /** What is counted, e.g. `documents`; starts the bar and names the log lines. */
  label: string;
  /** Expected count; unknown (no percentage, no eta) when left out. Default unknown. */
  total?: number;
  /** Unit of the rate, e.g. `docs` (shown as `12.3 docs/s`). */
  unit: string;
  /** Smallest interval between two redraws of the bar. Default 100 ms (at most ~10 redraws a second). */
  redrawMs?: number;
  /** Off a terminal, a line is logged at each 10 % step and at least this often while work goes on. Default 30 000 ms. */
  logEveryMs?: number;
  /** On a terminal, the bar is redrawn this often even when nothing moves, so the eta counts down. Default 1 000 ms. */
  refreshMs?: number;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

export interface Progress {
  /** Count `n` more items done. Default 1. */
  tick(n?: number): void;
  /** Set or correct the expected count (it is often learnt after the work started). */
  setTotal(n: number): void;
  /** Draw the final state and end the line (terminal) or log the final line. Later calls do nothing. */
  done(): void;
}

interface ProgressSnapshot {
  label: string;
  unit: string;
  done: number;
  total?: number;
  elapsedMs: number;
  /** Seconds left, when known (see EtaMeter); default: the remaining items at the average rate so far. */
  etaSeconds?: number | null;
}

/** One line of the bar, e.g. `documents 37/50 [=======>   ] 74% 12.3 docs/s eta 1s`. Pure, for tests. */
export function renderBar(s: ProgressSnapshot, width = 24): string {
  const rate = s.elapsedMs > 0 ? (s.done * 1000) / s.elapsedMs : 0;
  const rateText = `${rate.toFixed(1)} ${s.unit}/s`;
  if (s.total === undefined || s.total <= 0) return `${s.label} ${s.done} ${rateText}`;
  const frac = Math.min(1, s.done / s.total);
  const filled = Math.floor(frac * width);
  const bar = filled >= width ? '='.repeat(width) : '='.repeat(filled) + '>' + ' '.repeat(width - filled - 1);
  const left = s.total - s.done;
  const seconds = s.etaSeconds === undefined ? (rate > 0 ? left / rate : undefined) : s.etaSeconds ?? undefined;
  const eta = seconds !== undefined && left > 0 ? ` eta ${formatSeconds(seconds)}` : '';
  return `${s.label} ${s.done}/${s.total} [${bar}] ${Math.floor(frac * 100)}% ${rateText}${eta}`;
}

/**
 * A steady eta. Two things made the old one jump: the first items alone said 1m54s at 1/46 after a slow start,
 * and between two ticks it froze (a stale 6 s for 4.5 s). Here nothing is said before `settleMs` have passed
 * and a few items arrived; after that the eta counts down with the clock between ticks, and each new estimate
 * (the remaining items at the average rate so far) pulls it only part of the way, by how much time passed
 * (half-life `halfLifeMs`), so a burst of items moves it smoothly instead of at once.
 */
export class EtaMeter {
  private eta: number | undefined;
  private last: number;
  constructor(private readonly start: number, private readonly halfLifeMs = 5_000, private readonly settleMs = 2_000) {
    this.last = start;
  }

  /** Seconds left at `now`, or undefined while too little is known. */
  at(now: number, done: number, total: number | undefined): number | undefined {
    const elapsed = now - this.start;
    if (total === undefined || done < 3 || elapsed < this.settleMs || done >= total) return done >= (total ?? Infinity) ? 0 : undefined;
    const raw = ((total - done) * elapsed) / done / 1000;
    if (this.eta === undefined) this.eta = raw;
    else {
      const dt = Math.max(0, now - this.last);
      const predicted = Math.max(0, this.eta - dt / 1000);
      this.eta = predicted + (1 - 0.5 ** (dt / this.halfLifeMs)) * (raw - predicted);
    }
    this.last = now;
    return this.eta;
  }
}

function formatSeconds(sec: number): string {
  const s = Math.ceil(sec);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** The line a log collector gets off a terminal: the fields as data, and a short text for a person reading it. */
function logProgress(log: Logger, s: ProgressSnapshot, final: boolean): void {
  const pct = s.total ? Math.floor((Math.min(s.done, s.total) / s.total) * 100) : undefined;
  log.info(
    {
      event: final ? 'progress.done' : 'progress', label: s.label, done: s.done, total: s.total ?? null, percent: pct ?? null,
      elapsed_ms: s.elapsedMs, rss_mb: Math.round(process.memoryUsage.rss() / 1_048_576),
    },
    `${s.label}: ${s.done}${s.total !== undefined ? `/${s.total}` : ''}${final ? ' done' : ''}`,
  );
}

/** The count so far and the expected one, as the outputs read them. */
interface Tally { done: number; total: number | undefined }

/** Where a progress shows: a bar on a terminal (progressBar), or log lines (progressLog). */
interface ProgressOutput {
  /** The count moved. */
  update(): void;
  /** The expected count was set or corrected. */
  totalChanged(): void;
  /** The work is over: the last state shown. */
  done(): void;
}

export function createProgress(opts: ProgressOptions): Progress {
  const terminal = opts.terminal ?? stderrTerminal();
  const now = opts.now ?? Date.now;
  const started = now();
  const meter = new EtaMeter(started);
  const tally: Tally = { done: 0, total: opts.total };
  let finished = false;

  const snapshot = (): ProgressSnapshot => {
    const t = now();
    const { done, total } = tally;
    return { label: opts.label, unit: opts.unit, done, total, elapsedMs: t - started, etaSeconds: meter.at(t, done, total) ?? null };
  };
  const out = terminal.isTTY ? progressBar(opts, terminal, snapshot, now) : progressLog(opts, tally, snapshot, now, started);
  return {
    tick(n = 1) {
      tally.done += n;
      if (!finished) out.update();
    },
    setTotal(n: number) {
      tally.total = n;
      if (!finished) out.totalChanged();
    },
    done() {
      if (finished) return;
      finished = true;
      out.done();
    },
  };
}

/** The bar on a terminal: redrawn at most every `redrawMs`, and every `refreshMs` so that the eta counts down. */
function progressBar(opts: ProgressOptions, terminal: Terminal, snapshot: () => ProgressSnapshot, now: () => number): ProgressOutput {
  const redrawMs = opts.redrawMs ?? 100;
  const id = `${opts.label}#${Math.random().toString(36).slice(2)}`;
  let lastDraw = -Infinity;
  const draw = (): void => {
    terminal.set(id, renderBar(snapshot()));
    lastDraw = now();
  };
  // The eta counts down between ticks; the timer never keeps the process alive.
  const refresh = setInterval(draw, opts.refreshMs ?? 1_000);
  refresh.unref();
  const update = (): void => {
    if (now() - lastDraw >= redrawMs) draw();
  };
  draw();
  return {
    update,
    totalChanged: update,
    done() {
      clearInterval(refresh);
      // The final line: the whole count, the average rate over the whole work, and no eta.
      terminal.remove(id, renderBar({ ...snapshot(), etaSeconds: null }));
    },
  };
}

/** Log lines off a terminal: one at each tenth of the total, and one at least every `logEveryMs`. */
function progressLog(opts: ProgressOptions, tally: Readonly<Tally>, snapshot: () => ProgressSnapshot, now: () => number, started: number): ProgressOutput {
  const logEveryMs = opts.logEveryMs ?? 30_000;
  let lastLog = started;
  let lastStep = 0;
  const logLine = (final: boolean): void => {
    logProgress(opts.log, snapshot(), final);
    lastLog = now();
  };
  const step = (): number => {
    const { done, total } = tally;
    return total && total > 0 ? Math.floor((Math.min(done, total) / total) * 10) : 0;
  };
  const update = (): void => {
    const st = step();
    if (st > lastStep || now() - lastLog >= logEveryMs) {
      lastStep = Math.max(lastStep, st);
      logLine(false);
    }
  };
  return {
    update,
    totalChanged() {
      lastStep = Math.min(lastStep, step());
      update();
    },
    done: () => logLine(true),
  };
}
