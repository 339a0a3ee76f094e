import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { apiEnv, runCliAsync, runFiles } from '../support/cli.js';
import { query, scratch } from '../support/pipeline.js';

// A night killed (SIGKILL) in the middle of an attachment's body leaves a half-written file under .partial/ and
// the files it had stored recorded in its work copy; the next run removes the half-written file, never counts it,
// and downloads only what was not stored: every ready attachment ends stored once, and no file stored before the
// kill is asked for again. Killed at the 7th body begun: four download at once, so at least three were stored.

const FILE_ROUTE = 'GET /lawsuits/:cnj/:instance/attachments/:id';
const tmp = scratch();
let sb: Sandbox;
let env: Record<string, string>;

beforeAll(async () => {
  sb = await startSandbox({ seed: 7, rateLimit: 100_000, lawsuits: 3000 });
  const now = sb.state.clock.now();
  const codes: string[] = [];
  for (let i = 0; i < sb.universe.count && codes.length < 5; i++) {
    const l = sb.universe.lawsuit(i, now, { onDemand: true, shape: 'full', withAttachments: true }) as { code: string; secrecy_level: number; attachments?: Array<{ status: string }> } | undefined;
    if (l && l.secrecy_level === 0 && (l.attachments?.filter((a) => a.status === 'done').length ?? 0) >= 2 && !codes.includes(l.code)) codes.push(l.code);
  }
  const csv = join(tmp.dir, 'documents.csv');
  writeFileSync(csv, ['search_key,search_type', ...codes.map((c) => `${c},lawsuit_cnj`)].join('\n'));
  env = apiEnv(sb.url, {
    ...runFiles(tmp.dir, 'night'), LAWSUIT_DOCUMENTS: csv, LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true',
    LAWSUIT_WITH_ATTACHMENTS: 'true', LAWSUIT_ATTACHMENTS_DIR: join(tmp.dir, 'attachments'),
  });
}, 60_000);
afterAll(async () => { await sb?.close(); tmp.cleanup(); });

const fileCalls = () => Object.values(sb.counters().by_endpoint[FILE_ROUTE] ?? {}).reduce((a, b) => a + b, 0);

it('resumes without a partial file counted and without downloading what was done', async () => {
  const killed = await runCliAsync(['run'], { ...env, LAWSUIT_FAILPOINTS: 'attachments.mid-body=7' });
  expect(killed.code, killed.stderr).toBeNull();
  const partial = join(tmp.dir, 'attachments', '.partial');
  expect(readdirSync(partial).length).toBeGreaterThan(0);
  const before = await query<{ attachment_id: string }>(`${env.LAWSUIT_WAREHOUSE}.work`, `SELECT attachment_id FROM attachment_downloads WHERE state = 'stored'`);
  expect(before.length).toBeGreaterThan(0);
  const callsBefore = fileCalls();

  const resumed = await runCliAsync(['run'], env);
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(existsSync(partial) ? readdirSync(partial) : []).toEqual([]);
  const rows = await query<{ attachment_id: string; state: string | null; last_run: string | null }>(env.LAWSUIT_WAREHOUSE,
    `SELECT a.attachment_id, d.state, d.run_id AS last_run FROM attachments a LEFT JOIN attachment_downloads d USING (code, instance, attachment_id) WHERE a.status = 'done'`);
  expect(rows.length).toBeGreaterThan(before.length);
  for (const r of rows) expect(r.state, r.attachment_id).toBe('stored');
  // the resumed night asked only for what the killed one had not stored
  expect(fileCalls() - callsBefore).toBe(rows.length - before.length);
  const done = new Set(before.map((b) => b.attachment_id));
  const [{ runs }] = await query<{ runs: number }>(env.LAWSUIT_WAREHOUSE, `SELECT count(DISTINCT run_id)::INTEGER AS runs FROM attachment_downloads`);
  expect(runs).toBe(2);
  expect(rows.filter((r) => done.has(r.attachment_id)).length).toBe(before.length);
}, 240_000);
