import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { testChromium } from '../support/chromium.js';
import { runCli } from '../support/cli.js';
import { query, scratch } from '../support/pipeline.js';

// The HTML report written by `lawsuit-etl run --sandbox` (the compiled CLI, as `npm start` runs it), opened in
// a real headless Chromium: no console error, no request but the file itself, every chart drawn with a size,
// every rejected line on the page. A screenshot is kept in test-artifacts/report.png (git-ignored) for a
// person to look at. The browser is the npm package's (test/support/chromium.ts), so `npm ci` alone is enough;
// CHROMIUM_PATH=/usr/bin/chromium runs it in Debian's instead.

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
const ARTIFACTS = resolve('test-artifacts');
const tmp = scratch('report-chromium-');

afterAll(() => tmp.cleanup());

describe('the HTML report of npm start, in a real browser', () => {
  it('opens offline with its charts drawn, its rejected lines listed and no error', async () => {
    const browser = await testChromium();
    const env = {
      PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn',
      LAWSUIT_WAREHOUSE: join(tmp.dir, 'warehouse.duckdb'), LAWSUIT_EXPORT_DIR: join(tmp.dir, 'exports'),
      LAWSUIT_STAGING_DIR: join(tmp.dir, 'staging'), LAWSUIT_REPORTS_DIR: join(tmp.dir, 'reports'),
      // the example night reads some 380 lawsuits whole: not waited on at the provider's 180 calls a minute
      LAWSUIT_SANDBOX_RATE_LIMIT: '100000',
    };
    const run = runCli(['run', '--sandbox'], env, 240_000);
    expect(run.status, run.stderr).toBe(0);
    const [html] = readdirSync(env.LAWSUIT_REPORTS_DIR).filter((f) => f.endsWith('.html'));
    expect(html).toBeDefined();
    const file = join(env.LAWSUIT_REPORTS_DIR, html);
    const rejected = await query<{ line: number; reason: string }>(env.LAWSUIT_WAREHOUSE, 'SELECT line, reason FROM rejected_inputs ORDER BY line');
    expect(rejected.length).toBeGreaterThan(0);

    const context = await chromium.launchPersistentContext(join(tmp.dir, 'chromium-profile'), {
      executablePath: browser.executablePath, headless: true, args: FLAGS, viewport: { width: 1000, height: 900 }, offline: true,
    });
    try {
      // the browser launched is the one chosen: the npm package's Chromium reports the package's major version
      if (browser.source === 'npm') expect(context.browser()?.version().split('.')[0]).toBe(browser.version!.split('.')[0]);
      const page = await context.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
      page.on('request', (r) => requests.push(r.url()));
      const url = pathToFileURL(file).href;
      const res = await page.goto(url, { waitUntil: 'load' });
      expect(res?.ok() ?? true).toBe(true);

      const charts = await page.$$eval('figure.chart', (figs) => figs.map((f) => {
        const svgs = [...f.querySelectorAll('svg')];
        const box = svgs[0]?.getBoundingClientRect();
        const painted = svgs.flatMap((s) => [...s.querySelectorAll('path, rect')]).filter((el) => {
          // runs in the page (the DOM's types are not this project's lib)
          const b = (el as unknown as { getBBox(): { width: number; height: number } }).getBBox();
          const fill = (globalThis as unknown as { getComputedStyle(e: unknown): { fill: string } }).getComputedStyle(el).fill;
          return b.width > 0 && b.height > 0 && fill !== 'none' && !/rgba\(.*,\s*0\)$/.test(fill);
        }).length;
        return { id: f.id, svgs: svgs.length, width: box?.width ?? 0, height: box?.height ?? 0, painted };
      }));
      expect(charts.map((c) => c.id)).toEqual(['chart-stages', 'chart-api', 'chart-changes', 'chart-lawsuits']);
      for (const c of charts) {
        expect(c.svgs, c.id).toBe(1);
        expect(c.width, c.id).toBeGreaterThan(100);
        expect(c.height, c.id).toBeGreaterThan(50);
        expect(c.painted, c.id).toBeGreaterThan(0);
      }

      const rows = await page.$$eval('#rejected tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText)));
      expect(rows.map((r) => [Number(r[0]), r[2]])).toEqual(rejected.map((r) => [r.line, r.reason]));

      mkdirSync(ARTIFACTS, { recursive: true });
      const shot = join(ARTIFACTS, 'report.png');
      await page.screenshot({ path: shot, fullPage: true });
      expect(statSync(shot).size).toBeGreaterThan(10_000);

      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
    } finally {
      await context.close();
    }
  });
});
