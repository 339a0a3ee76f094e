import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/cli/exit-codes.js';
import { outcomeOf as outcomeOnly } from '../../src/pipeline/outcome.js';
import type { StageResult, StageStatus } from '../../src/pipeline/stage.js';

const t = new Date('2026-11-23T02:00:00Z');
/** The outcome and the exit code the CLI gives it (src/cli/exit-codes.ts). */
const outcomeOf = (stages: StageResult[]) => {
  const o = outcomeOnly(stages);
  return { ...o, exitCode: exitCodeOf(o.status) };
};
function stage(name: StageResult['name'], status: StageStatus, extra: Partial<StageResult> = {}): StageResult {
  return { name, status, startedAt: t, finishedAt: t, counts: {}, failures: [], ...extra };
}
const night = (over: Partial<Record<StageResult['name'], StageResult>> = {}): StageResult[] =>
  (['documents', 'search', 'transfer', 'changes', 'exports', 'publish'] as const).map((n) => over[n] ?? stage(n, 'ok'));

describe('the outcome of a run, from its stages alone', () => {
  it('is ok with exit 0 when every stage ended ok, or was left out on purpose, and nothing failed', () => {
    expect(outcomeOf(night())).toMatchObject({ status: 'ok', exitCode: 0, failures: [] });
    const leftOut = stage('transfer', 'skipped', { error: { code: 'STAGE_LEFT_OUT', message: 'left out by --skip-transfer' } });
    expect(outcomeOf(night({ transfer: leftOut }))).toMatchObject({ status: 'ok', exitCode: 0 });
  });

  it('is partial with exit 4, naming the stage, when one stage was refused and the rest went on', () => {
    const refused = stage('transfer', 'refused', { error: { code: 'API_FORBIDDEN', message: 'GET /transfer-file refused with 403' } });
    const o = outcomeOf(night({ transfer: refused }));
    expect(o).toMatchObject({ status: 'partial', exitCode: 4, troubled: ['transfer refused'] });
    expect(o.failures).toEqual([{ stage: 'transfer', what: 'stage', where: 'transfer (refused)', code: 'API_FORBIDDEN', reason: 'GET /transfer-file refused with 403' }]);
  });

  it('is partial when a stage was ok but some of its items failed (a document, a request still running)', () => {
    const search = stage('search', 'ok', { failures: [{ what: 'request', where: 'line 3 (cpf), request r1', code: 'REQUEST_STILL_RUNNING', reason: 'still running' }] });
    expect(outcomeOf(night({ search }))).toMatchObject({ status: 'partial', exitCode: 4, troubled: [] });
  });

  it('is refused with exit 3 when a refusal reached the whole run, whatever else happened', () => {
    const search = stage('search', 'refused', { runWide: true, error: { code: 'API_UNAUTHORIZED', message: '401' } });
    const transfer = stage('transfer', 'skipped', { error: { code: 'API_UNAUTHORIZED', message: 'not run: the API key was refused earlier in this run' } });
    expect(outcomeOf(night({ search, transfer }))).toMatchObject({ status: 'refused', exitCode: 3 });
    // a 403 confined to one stage is not the key's refusal
    const transferOnly = stage('transfer', 'refused', { error: { code: 'API_FORBIDDEN', message: '403' } });
    expect(outcomeOf(night({ transfer: transferOnly })).exitCode).toBe(4);
  });

  it('is interrupted with exit 4 after SIGTERM, and failed with exit 2 on a usage error', () => {
    expect(outcomeOf(night({ search: stage('search', 'interrupted') }))).toMatchObject({ status: 'interrupted', exitCode: 4 });
    const exports = stage('exports', 'failed', { usageError: true, error: { code: 'FS_NOT_WRITABLE', message: 'data/exports is not writable' } });
    expect(outcomeOf(night({ exports }))).toMatchObject({ status: 'usage-error', exitCode: 2 });
  });

  it('is unreachable with exit 75 when the stages that called the API made calls and not one was answered', () => {
    const dark = (name: StageResult['name'], calls: number, answered: number) => stage(name, 'failed', { api: { calls, answered } });
    const o = outcomeOf(night({ search: dark('search', 329, 0), transfer: dark('transfer', 7, 0) }));
    expect(o).toMatchObject({ status: 'unreachable', exitCode: 75 });
    // one answer (a 4xx, a 429: the upstream is there) makes it an ordinary partial night
    expect(outcomeOf(night({ search: dark('search', 329, 0), transfer: dark('transfer', 7, 1) }))).toMatchObject({ status: 'partial', exitCode: 4 });
    // a night that called nothing (nothing to do) is no unreachable night
    expect(outcomeOf(night({ search: stage('search', 'ok', { api: { calls: 0, answered: 0 } }) }))).toMatchObject({ status: 'ok', exitCode: 0 });
    // SIGTERM and a refused key say more than the dark
    expect(outcomeOf(night({ search: stage('search', 'interrupted', { api: { calls: 3, answered: 0 } }) })).exitCode).toBe(4);
  });
});
