import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createProgress, EtaMeter, renderBar } from '../../src/shared/progress.js';
import { REDACT_PATHS } from '../../src/shared/logger.js';
import { Terminal } from '../../src/shared/terminal.js';
import { Screen } from '../support/screen.js';

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
  it('redraws its own line with count, bar, percent, rate and eta, at most every redrawMs', () => {
    let t = 0;
    const tty = new FakeStream(true);
    const { log, lines } = jsonLog();
    const p = createProgress({ terminal: new Terminal(tty), log, label: 'documents', total: 50, unit: 'docs', now: () => t, redrawMs: 100, refreshMs: 60_000 });
    const drawsAtStart = tty.chunks.length;
    for (let i = 0; i < 37; i++) { t += 10; p.tick(); } // 37 ticks over 370 ms: at most 4 redraws
    const redraws = tty.chunks.length - drawsAtStart;
    expect(redraws).toBeGreaterThanOrEqual(3);
    expect(redraws).toBeLessThanOrEqual(4);
    const screen = new Screen();
    screen.write(tty.text);
    expect(screen.text()).toHaveLength(1);
    expect(screen.text()[0]).toMatch(/^documents 3\d\/50 \[=+> *\] \d\d% \d+\.\d docs\/s/);
    t = 3000;
    p.done();
    const final = new Screen();
    final.write(tty.text);
    // the final line stays, with the average rate over the whole work and no eta
    expect(final.text()).toEqual(['documents 37/50 [=================>      ] 74% 12.3 docs/s']);
    expect(lines()).toHaveLength(0); // no JSON lines on a terminal
  });

  it('a log line written while bars are shown goes above them, whole; the bars are drawn again below it', () => {
    let t = 0;
    const tty = new FakeStream(true, 200);
    const term = new Terminal(tty);
    const { log } = jsonLog();
    const docs = createProgress({ terminal: term, log, label: 'documents', total: 10, unit: 'docs', now: () => t, redrawMs: 0, refreshMs: 60_000 });
    const pages = createProgress({ terminal: term, log, label: 'pages', unit: 'pages', now: () => t, redrawMs: 0, refreshMs: 60_000 });
    for (let i = 1; i <= 6; i++) {
      t += 500;
      docs.tick();
      pages.tick(3);
      term.write(`12:00:0${i} INFO: loaded batch ${i}\n`);
    }
    const screen = new Screen();
    screen.write(tty.text);
    const rows = screen.text();
    expect(rows.slice(0, 6)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `12:00:0${i} INFO: loaded batch ${i}`));
    expect(rows.slice(6)).toHaveLength(2);
    expect(rows[6]).toMatch(/^documents 6\/10 /);
    expect(rows[7]).toMatch(/^pages 18 /);
    docs.done();
    term.write('12:00:07 INFO: after the documents\n');
    pages.done();
    const end = new Screen();
    end.write(tty.text);
    expect(end.text().slice(6)).toEqual([expect.stringMatching(/^documents 6\/10 /), '12:00:07 INFO: after the documents', expect.stringMatching(/^pages 18 /)]);
  });

  it('the eta is steady: none before it means something, it counts down between ticks, and a burst moves it smoothly', () => {
    const m = new EtaMeter(0);
    expect(m.at(500, 1, 46)).toBeUndefined(); // 1 of 46 after half a second says nothing yet (it said 1m54s)
    const etas: number[] = [];
    // one document a second on average, arriving in bursts of three every three seconds
    for (let s = 1; s <= 30; s++) etas.push(m.at(s * 1000, Math.floor(s / 3) * 3, 46) ?? NaN);
    const known = etas.filter((e) => !Number.isNaN(e));
    expect(known.length).toBeGreaterThan(20);
    // between two redraws a second apart it moves by little, and downwards on the whole
    const steps = known.slice(1).map((e, i) => e - known[i]);
    expect(Math.max(...steps.map(Math.abs))).toBeLessThan(4);
    expect(known.at(-1)!).toBeLessThan(known[0]);
    // and it is right: about 16 documents left at one a second at the end
    expect(known.at(-1)!).toBeGreaterThan(11);
    expect(known.at(-1)!).toBeLessThan(21);
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
    const p = createProgress({ terminal: new Terminal(out), log, label: 'documents', total: 200, unit: 'docs', now: () => t });
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
    const p = createProgress({ terminal: new Terminal(new FakeStream(false)), log, label: 'pages', unit: 'pages', now: () => t, logEveryMs: 1000 });
    for (let i = 0; i < 25; i++) { t += 100; p.tick(); } // 2.5 s: two time-based lines
    expect(lines().filter((l) => l.event === 'progress')).toHaveLength(2);
    p.setTotal(50); // 25/50: the 50 % step is logged now
    expect(lines().at(-1)).toMatchObject({ event: 'progress', done: 25, total: 50, percent: 50 });
  });
});
