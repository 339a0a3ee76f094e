import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { configFor, nightRun, query, scratch } from '../support/pipeline.js';
import { startTrickleProxy } from '../support/trickle.js';

// An upstream that answers one kind of call with its headers at once and then a byte every 20 s. Before, such a
// night never ended: no call after 6 s, nothing published after 200 s, a transfer night with every search loaded
// and nothing published. Now each call is cut off at its deadline and retried within the wait budget; past it
// the stage stops calling, and the night ends by itself within the budget and one deadline (and the time a night
// takes anyway), publishing everything the other calls brought. One night per kind of call, side by side.

const BUDGET_MS = 2_000;
const DEADLINE_MS = 1_000;

const KINDS: Array<{ kind: string; trickles: (method: string, path: string) => boolean; hurts: 'search' | 'transfer' | 'nothing' }> = [
  // a creation cut off is looked up in the listing, found, and adopted: the night loses nothing
  { kind: 'POST /requests', trickles: (m, p) => m === 'POST' && p === '/requests', hurts: 'nothing' },
  { kind: 'GET /requests and /requests/:id (polling)', trickles: (m, p) => m === 'GET' && p.startsWith('/requests'), hurts: 'search' },
  { kind: 'GET /responses', trickles: (m, p) => m === 'GET' && p === '/responses', hurts: 'search' },
  { kind: 'GET /transfer-file', trickles: (m, p) => m === 'GET' && p === '/transfer-file', hurts: 'transfer' },
  { kind: 'GET /transfer-file/:id', trickles: (m, p) => m === 'GET' && p.startsWith('/transfer-file/'), hurts: 'transfer' },
  { kind: 'the download', trickles: (m, p) => m === 'GET' && p.startsWith('/_files/'), hurts: 'transfer' },
  // a file loaded whose mark cannot be sent is loaded all the same; the mark goes out with the next run
  { kind: 'PATCH /transfer-file/:id', trickles: (m, p) => m === 'PATCH' && p.startsWith('/transfer-file/'), hurts: 'nothing' },
];

describe('an upstream trickling one kind of call', () => {
  const tmp = scratch();
  const sandboxes: Sandbox[] = [];
  const closers: Array<() => Promise<void>> = [];
  let list: string;
  let normalMs = 0;
  const envFor = (name: string) => ({
    LAWSUIT_DOCUMENTS: list, LAWSUIT_WAREHOUSE: join(tmp.dir, `${name}.duckdb`), LAWSUIT_STAGING_DIR: join(tmp.dir, `${name}-staging`),
    LAWSUIT_REPORTS_DIR: join(tmp.dir, `${name}-reports`), LAWSUIT_SKIP_EXPORT: 'true',
    LAWSUIT_MAX_WAIT_MINUTES: String(BUDGET_MS / 60_000), LAWSUIT_BODY_TIMEOUT_SECONDS: String(DEADLINE_MS / 1000),
    LAWSUIT_DOWNLOAD_TIMEOUT_SECONDS: String(DEADLINE_MS / 1000), LAWSUIT_HEADERS_TIMEOUT_SECONDS: '5',
  });
  const sandbox = async (): Promise<Sandbox> => {
    // a few small transfer files: enough for every kind of transfer call, quick to load
    // the provider's rate limit is not the subject: seven nights side by side on one key would wait on it
    const sb = await startSandbox({ seed: 21, courtDelayMs: 0, rateLimit: 100_000, transfer: { catalogue: { count: 4, errorCount: 1, maxBytes: 64 * 1024 } } });
    sandboxes.push(sb);
    return sb;
  };

  beforeAll(async () => {
    // a few documents that find a few lawsuits each, and one that finds none
    const sb = await sandbox();
    const docs = sb.sampleDocuments(300).filter((d) => (d.search_type === 'cpf' || d.search_type === 'cnpj') && sb.truth(d).length > 0 && sb.truth(d).length <= 20).slice(0, 4);
    list = join(tmp.dir, 'documents.csv');
    writeFileSync(list, `search_key,search_type\n${docs.map((d) => `${d.search_key},${d.search_type}`).join('\n')}\n529.982.247-25,cpf\n`);
    // the same night, with nothing trickled: what a night takes anyway
    const t0 = Date.now();
    const normal = await nightRun(configFor(sb.url, tmp.dir, envFor('normal')));
    normalMs = Date.now() - t0;
    expect(normal.exitCode).toBe(0);
  }, 60_000);
  afterAll(async () => {
    for (const c of closers) await c();
    for (const sb of sandboxes) await sb.close();
    tmp.cleanup();
  });

  it.concurrent.each(KINDS)('$kind: the night ends by itself within the budget and one deadline, publishing the rest', async ({ kind, trickles, hurts }) => {
    const sb = await sandbox();
    const proxy = await startTrickleProxy(sb.url, trickles);
    closers.push(() => proxy.close());
    const name = kind.replace(/[^a-z]+/gi, '-');
    const cfg = configFor(proxy.url, tmp.dir, envFor(name));
    const t0 = Date.now();
    const night = await nightRun(cfg);
    const ms = Date.now() - t0;
    console.log(`${kind}: ${ms} ms, a normal night ${normalMs} ms, exit ${night.exitCode}, ${proxy.trickled()} trickled`);
    expect(proxy.trickled(), 'the kind of call was made, and trickled').toBeGreaterThan(0);
    // generous for a machine running the other nights at once: before, the night did not end at all. Each wave of
    // searches (the list's, then the lawsuit level's reads) waits its own budget and deadline on a trickled call.
    expect(ms, `${kind}: ${ms} ms against a normal night's ${normalMs} ms`).toBeLessThan(normalMs + 2 * (BUDGET_MS + DEADLINE_MS) + 15_000);

    const stages = Object.fromEntries(night.summary.stages.map((s) => [s.name, s.status]));
    expect(stages.publish, kind).toBe('ok');
    const [{ lawsuits }] = await query<{ lawsuits: number }>(cfg.warehouse, 'SELECT count(*)::INTEGER AS lawsuits FROM lawsuits');
    const [{ files }] = await query<{ files: number }>(cfg.warehouse, `SELECT count(*)::INTEGER AS files FROM transfer_files WHERE status IN ('loaded', 'downloaded')`);
    if (hurts === 'nothing' && kind === 'POST /requests') {
      // The list's searches lose nothing. The lawsuit-level reads, some thirty creations each cut off at its
      // deadline and looked up, may outlast their wave's budget: those left are failures of that stage only,
      // whose submissions the next night looks up before it buys anything (resolveOpenIntents).
      expect(stages.search, kind).toBe('ok');
      expect(night.summary.failures.filter((f) => f.stage !== 'lawsuits'), kind).toEqual([]);
      expect(lawsuits).toBeGreaterThan(0);
      expect(files).toBeGreaterThan(0);
    } else if (hurts === 'nothing') {
      expect(night.exitCode, JSON.stringify(night.summary.failures.slice(0, 3))).toBe(kind.startsWith('PATCH') ? 4 : 0);
      expect(lawsuits).toBeGreaterThan(0);
      expect(files).toBeGreaterThan(0);
    } else {
      expect(night.exitCode).toBe(4);
      expect(night.summary.status).toBe('partial');
      // the stage the trickle hurt did none of its work and says so; the other's work is published
      expect(stages[hurts], kind).toBe('failed');
      if (hurts === 'search') expect(files, 'the transfer files are published').toBeGreaterThan(0);
      else expect(lawsuits, 'the searches are published').toBeGreaterThan(0);
    }
    if (hurts === 'search') {
      // what was not read waits in the ledger: the next run reads it without buying it again
      const [{ outstanding }] = await query<{ outstanding: number }>(cfg.warehouse, 'SELECT count(*)::INTEGER AS outstanding FROM requests WHERE loaded_at IS NULL');
      expect(outstanding).toBeGreaterThan(0);
    }
  }, 120_000);
});
