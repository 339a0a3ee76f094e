import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { errorForStatus } from '../../src/api/errors.js';
import type { RunContext } from '../../src/pipeline/context.js';
import { STAGE_NAMES, type Stage, type StageName } from '../../src/pipeline/stage.js';
import { columnOf, tableOf } from '../../src/warehouse/schema/index.js';
import { rebuildFirst, stagesFor } from '../../src/pipeline/commands.js';
import { runStages } from '../../src/pipeline/stage-runner.js';
import { loadConfig } from '../../src/shared/config.js';
import { EtlError } from '../../src/shared/errors.js';
import { startRun } from '../../src/warehouse/ledger.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';

// The stage runner on fake stages over an in-memory warehouse: what runs, what is skipped and why, and what
// `run_stages` says afterwards.

let wh: Warehouse;
let ctx: RunContext;
let ac: AbortController;
beforeEach(async () => {
  wh = await Warehouse.open(':memory:');
  ac = new AbortController();
  const runId = await startRun(wh, { command: 'run' });
  ctx = { cfg: loadConfig({ env: {}, flags: { sandbox: true } }), wh, runId, log: pino({ level: 'silent' }), signal: ac.signal, api: undefined as never };
});
afterEach(async () => { await wh.close(); });

const ran: string[] = [];
function fake(name: StageName, opts: { needs?: StageName[]; callsApi?: boolean; throws?: unknown; onRun?: () => void } = {}): Stage {
  return {
    name, needs: opts.needs ?? [], callsApi: opts.callsApi ?? false,
    async run() {
      ran.push(name);
      opts.onRun?.();
      if (opts.throws) throw opts.throws;
      return { counts: { things: name.length } };
    },
  };
}
const rows = () => wh.all<{ stage: string; status: string; error_code: string | null; position: number; finished_at: Date | null }>(
  'SELECT stage, status, error_code, position, finished_at FROM run_stages WHERE run_id = $1 ORDER BY position', [ctx.runId]);

describe('running a list of stages', () => {
  beforeEach(() => { ran.length = 0; });

  it('a refused stage does not stop the stages that do not need it; one that needs it is skipped, naming it', async () => {
    const forbidden = errorForStatus(403, { error: 'Forbidden', code: 'INSUFFICIENT_PERMISSIONS' }, 'GET /transfer-file', (s) => s);
    const results = await runStages(ctx, [
      fake('documents'), fake('search', { needs: ['documents'], callsApi: true }), fake('transfer', { callsApi: true, throws: forbidden }),
      fake('changes', { needs: ['transfer'] }), fake('exports'),
    ], {});
    expect(ran).toEqual(['documents', 'search', 'transfer', 'exports']);
    expect(results.map((r) => [r.name, r.status])).toEqual([['documents', 'ok'], ['search', 'ok'], ['transfer', 'refused'], ['changes', 'skipped'], ['exports', 'ok']]);
    expect(results[3].error?.message).toContain('needs transfer');
    const stored = await rows();
    expect(stored.map((r) => [r.stage, r.status, r.error_code])).toEqual([
      ['documents', 'ok', null], ['search', 'ok', null], ['transfer', 'refused', 'API_FORBIDDEN'], ['changes', 'skipped', 'STAGE_NEEDS'], ['exports', 'ok', null]]);
    expect(stored.every((r) => r.finished_at !== null)).toBe(true);
  });

  it('after the key is refused (401), the stages that call the API are skipped and the local ones still run', async () => {
    const unauthorized = errorForStatus(401, { code: 'INVALID_API_KEY' }, 'POST /requests', (s) => s);
    const results = await runStages(ctx, [
      fake('search', { callsApi: true, throws: unauthorized }), fake('transfer', { callsApi: true }), fake('exports'),
    ], {});
    expect(ran).toEqual(['search', 'exports']);
    expect(results[0]).toMatchObject({ status: 'refused', runWide: true });
    expect(results[1]).toMatchObject({ status: 'skipped', error: { code: 'API_UNAUTHORIZED' } });
  });

  it('a rebuild that fails: nothing after it runs on the half-made tables, and nothing is published', async () => {
    const [, ...rest] = rebuildFirst([fake('changes'), fake('publish')]);
    const results = await runStages(ctx, [fake('rebuild', { throws: new Error('Out of Memory') }), ...rest], {});
    expect(ran).toEqual(['rebuild']);
    expect(results.map((r) => [r.name, r.status])).toEqual([['rebuild', 'failed'], ['changes', 'skipped'], ['publish', 'skipped']]);
    expect(stagesFor('rebuild').map((s) => [s.name, s.needs])).toEqual([['rebuild', []], ['publish', ['rebuild']]]);
  });

  it('an unexpected error fails its stage only; a usage error is marked so', async () => {
    const results = await runStages(ctx, [
      fake('search', { throws: new Error('no code at all') }), fake('exports', { throws: new EtlError('FS_NOT_WRITABLE', 'cannot write', { usage: true }) }),
      fake('publish'),
    ], {});
    expect(results.map((r) => [r.status, r.error?.code, r.usageError ?? false])).toEqual([['failed', 'UNEXPECTED', false], ['failed', 'FS_NOT_WRITABLE', true], ['ok', undefined, false]]);
  });

  it('SIGTERM during a stage: that stage is recorded interrupted, the later ones skipped', async () => {
    const results = await runStages(ctx, [
      fake('documents'),
      { ...fake('search'), run: async () => { ac.abort(); return { counts: { submitted: 3 }, interrupted: true }; } },
      fake('exports'),
    ], {});
    expect(results.map((r) => r.status)).toEqual(['ok', 'interrupted', 'skipped']);
    expect(results[2].error?.code).toBe('RUN_INTERRUPTED');
    expect((await rows()).map((r) => r.status)).toEqual(['ok', 'interrupted', 'skipped']);
  });

  it('SIGTERM: every stage after the stopped one is skipped but publish, which publishes what was loaded', async () => {
    const publish = { ...fake('publish'), closesWarehouse: true, publishes: true };
    const results = await runStages(ctx, [
      { ...fake('search'), run: async () => { ac.abort(); return { counts: {}, interrupted: true }; } },
      fake('transfer', { callsApi: true }), { ...fake('exports'), publishes: true }, publish,
    ], {});
    expect(results.map((r) => [r.name, r.status])).toEqual([['search', 'interrupted'], ['transfer', 'skipped'], ['exports', 'skipped'], ['publish', 'ok']]);
    expect(ran).toEqual(['publish']); // the search above is a run of its own, not recorded in `ran`
  });

  it('a call cut off by SIGTERM ends its stage interrupted, not failed, whether thrown or handled', async () => {
    const closed = Object.assign(new EtlError('API_CLOSED', 'GET /responses cut off: the run is stopping'), {});
    const results = await runStages(ctx, [
      { ...fake('search'), run: async () => { ac.abort(); return { counts: {}, ended: { status: 'failed', code: 'API_CLOSED', message: 'cut off', reach: 'stage' } }; } },
    ], {});
    expect(results[0].status).toBe('interrupted');
    ac = new AbortController();
    ctx.signal = ac.signal;
    const thrown = await runStages(ctx, [{ ...fake('transfer'), run: async () => { ac.abort(); throw closed; } }], {});
    expect(thrown[0].status).toBe('interrupted');
  });

  it.each([
    { case: 'every item failed, none finished', finished: 0, failures: ['API_TIMEOUT', 'API_SERVER', 'API_TIMEOUT'], status: 'failed', code: 'API_TIMEOUT' },
    { case: 'one item finished', finished: 1, failures: ['API_TIMEOUT', 'API_TIMEOUT'], status: 'ok', code: undefined },
    { case: 'nothing to do', finished: 0, failures: [], status: 'ok', code: undefined },
    { case: 'a stage that does not count what it finished', finished: undefined, failures: ['API_TIMEOUT'], status: 'ok', code: undefined },
  ])('a stage\'s status says what happened: $case -> $status', async ({ finished, failures, status, code }) => {
    const [r] = await runStages(ctx, [{
      ...fake('search'),
      run: async () => ({ counts: {}, finished, failures: failures.map((c, i) => ({ what: 'document' as const, where: `line ${i + 2}`, code: c, reason: `${c} on line ${i + 2}` })) }),
    }], {});
    expect(r.status).toBe(status);
    expect(r.error?.code).toBe(code);
    if (code) expect(r.error?.message).toMatch(/every item it tried failed \(3; 2 with API_TIMEOUT, the first: API_TIMEOUT on line 2\)/);
  });

  it('a night where the API stages made calls and none was answered publishes nothing; one answer is enough to publish', async () => {
    const stats = { calls: 0, answered: 0 };
    ctx.api = { stats: () => ({ ...stats }), budgetUntil: () => undefined } as never;
    const calling = (name: StageName, calls: number, answered: number): Stage => ({
      ...fake(name, { callsApi: true }), run: async () => { stats.calls += calls; stats.answered += answered; return { counts: {} }; },
    });
    const publishing = [{ ...fake('exports'), publishes: true }, { ...fake('publish'), closesWarehouse: true, publishes: true }];
    const dark = await runStages(ctx, [calling('search', 12, 0), calling('transfer', 3, 0), ...publishing], {});
    expect(dark.map((r) => [r.name, r.status, r.error?.code])).toEqual([
      ['search', 'ok', undefined], ['transfer', 'ok', undefined], ['exports', 'skipped', 'RUN_UNREACHABLE'], ['publish', 'skipped', 'RUN_UNREACHABLE']]);
    expect(dark[0].api).toEqual({ calls: 12, answered: 0 });
    const lit = await runStages(ctx, [calling('search', 12, 0), calling('transfer', 3, 1), ...publishing], {});
    expect(lit.map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
  });

  it('a stage still running when the process dies is left in run_stages as interrupted, with no end', async () => {
    let rowWhileRunning: Array<{ status: string; finished_at: Date | null }> = [];
    await runStages(ctx, [{ ...fake('search'), run: async () => { rowWhileRunning = await rows(); return { counts: {} }; } }], {});
    expect(rowWhileRunning).toMatchObject([{ stage: 'search', status: 'interrupted', finished_at: null }]);
  });
});

describe('run_stages as an analyst reads it', () => {
  it('its stage column\'s comment names every stage there is', () => {
    const comment = columnOf(tableOf('run_stages'), 'stage').comment;
    for (const name of STAGE_NAMES) expect(comment, name).toMatch(new RegExp(`\\b${name}\\b`));
  });
});

