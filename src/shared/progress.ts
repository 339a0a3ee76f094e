import type { Logger } from 'pino';

// Long work (documents, pages, files) shows a bar to a person at a terminal and leaves sparse JSON lines for a
// log collector otherwise: a bar's carriage returns are garbage in a log file, and a line per item is noise.

export interface ProgressOptions {
  /** Where the bar is drawn. Default `process.stderr`; the bar is drawn only when `stream.isTTY` is true. */
  stream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
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

export interface ProgressSnapshot {
  label: string;
  unit: string;
  done: number;
  total?: number;
  elapsedMs: number;
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
  const eta = rate > 0 && left > 0 ? ` eta ${formatSeconds(left / rate)}` : '';
  return `${s.label} ${s.done}/${s.total} [${bar}] ${Math.floor(frac * 100)}% ${rateText}${eta}`;
}

function formatSeconds(sec: number): string {
  const s = Math.ceil(sec);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export function createProgress(opts: ProgressOptions): Progress {
  const stream = opts.stream ?? process.stderr;
  const now = opts.now ?? Date.now;
  const tty = (stream as { isTTY?: boolean }).isTTY === true;
  const redrawMs = opts.redrawMs ?? 100;
  const logEveryMs = opts.logEveryMs ?? 30_000;
  const started = now();
  let count = 0;
  let total = opts.total;
  let finished = false;
  let lastDraw = -Infinity;
  let lastLog = started;
  let lastStep = 0;

  const snapshot = (): ProgressSnapshot => ({ label: opts.label, unit: opts.unit, done: count, total, elapsedMs: now() - started });

  const draw = (): void => {
    const columns = (stream as { columns?: number }).columns ?? 80;
    const line = renderBar(snapshot()).slice(0, Math.max(20, columns - 1));
    // \r back to column 0 and clear the rest of the line (ESC [K) so a shorter line leaves no tail.
    stream.write(`\r${line}\x1b[K`);
    lastDraw = now();
  };

  const logLine = (final: boolean): void => {
    const s = snapshot();
    const pct = total ? Math.floor((Math.min(count, total) / total) * 100) : undefined;
    opts.log.info(
      {
        event: final ? 'progress.done' : 'progress', label: s.label, done: s.done, total: s.total ?? null, percent: pct ?? null,
        elapsed_ms: s.elapsedMs, rss_mb: Math.round(process.memoryUsage.rss() / 1_048_576),
      },
      `${s.label}: ${s.done}${s.total !== undefined ? `/${s.total}` : ''}${final ? ' done' : ''}`,
    );
    lastLog = now();
  };

  const step = (): number => (total && total > 0 ? Math.floor((Math.min(count, total) / total) * 10) : 0);

  const update = (): void => {
    if (finished) return;
    if (tty) {
      if (now() - lastDraw >= redrawMs) draw();
      return;
    }
    const st = step();
    if (st > lastStep || now() - lastLog >= logEveryMs) {
      lastStep = Math.max(lastStep, st);
      logLine(false);
    }
  };

  if (tty) draw();
  return {
    tick(n = 1) {
      count += n;
      update();
    },
    setTotal(n: number) {
      total = n;
      lastStep = Math.min(lastStep, step());
      update();
    },
    done() {
      if (finished) return;
      finished = true;
      if (tty) {
        draw();
        stream.write('\n');
      } else {
        logLine(true);
      }
    },
  };
}
