import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createProgress, renderBar } from '../../src/shared/progress.js';
import { REDACT_PATHS } from '../../src/shared/logger.js';

class FakeStream extends Writable {
  chunks: string[] = [];
  constructor(readonly isTTY: boolean, readonly columns = 120) { super(); }
  override _write(c: unknown, _e: BufferEncoding, cb: () => void): void { this.chunks.push(String(c)); cb(); }
  get text(): string { return this.chunks.join(''); }
}

function jsonLog() {
  const sink = new FakeStream(false);
  const log = pino({ level: 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink);
  return { log, lines: () => sink.text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('progress on a terminal', () => {
  it('redraws one line with count, bar, percent, rate and eta, at most every redrawMs', () => {
    let t = 0;
    const tty = new FakeStream(true);
    const { log, lines } = jsonLog();
    const p = createProgress({ stream: tty, log, label: 'documents', total: 50, unit: 'docs', now: () => t, redrawMs: 100 });
    const drawsAtStart = tty.chunks.length;
    for (let i = 0; i < 37; i++) { t += 10; p.tick(); } // 37 ticks over 370 ms: at most 4 redraws
    const redraws = tty.chunks.length - drawsAtStart;
    expect(redraws).toBeGreaterThanOrEqual(3);
    expect(redraws).toBeLessThanOrEqual(4);
    t = 3000;
    p.done();
    const last = tty.chunks.at(-2)!;
    expect(last.startsWith('\r')).toBe(true);
    expect(last).toMatch(/^\rdocuments 37\/50 \[=+> *\] 74% 12\.3 docs\/s eta 2s\x1b\[K$/);
    expect(tty.chunks.at(-1)).toBe('\n');
    expect(tty.text.includes('\n')).toBe(true);
    expect(tty.text.indexOf('\n')).toBe(tty.text.length - 1); // one line, redrawn in place
    expect(lines()).toHaveLength(0); // no JSON lines on a terminal
  });

  it('shows the count and rate without a total', () => {
    expect(renderBar({ label: 'pages', unit: 'pages', done: 20, elapsedMs: 4000 })).toBe('pages 20 5.0 pages/s');
    expect(renderBar({ label: 'files', unit: 'files', done: 4, total: 4, elapsedMs: 1000 }, 10)).toBe('files 4/4 [==========] 100% 4.0 files/s');
  });
});

describe('progress off a terminal', () => {
  it('logs a JSON line at each 10 % step and at done, never a bar', () => {
    let t = 0;
    const out = new FakeStream(false);
    const { log, lines } = jsonLog();
    const p = createProgress({ stream: out, log, label: 'documents', total: 200, unit: 'docs', now: () => t });
    for (let i = 0; i < 200; i++) { t += 5; p.tick(); }
    p.done();
    p.done();
    expect(out.text).toBe('');
    const all = lines();
    const steps = all.filter((l) => l.event === 'progress');
    expect(steps.map((l) => l.percent)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    const fin = all.filter((l) => l.event === 'progress.done');
    expect(fin).toHaveLength(1);
    expect(fin[0]).toMatchObject({ label: 'documents', done: 200, total: 200, level: 30 });
    // the process's memory goes with each line: a night that grows towards its limit shows it in the log
    expect(fin[0].rss_mb).toBeGreaterThan(10);
  });

  it('logs at least every logEveryMs when the total is unknown, and follows a total learnt later', () => {
    let t = 0;
    const { log, lines } = jsonLog();
    const p = createProgress({ stream: new FakeStream(false), log, label: 'pages', unit: 'pages', now: () => t, logEveryMs: 1000 });
    for (let i = 0; i < 25; i++) { t += 100; p.tick(); } // 2.5 s: two time-based lines
    expect(lines().filter((l) => l.event === 'progress')).toHaveLength(2);
    p.setTotal(50); // 25/50: the 50 % step is logged now
    expect(lines().at(-1)).toMatchObject({ event: 'progress', done: 25, total: 50, percent: 50 });
  });
});
