import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_CODES, ApiError, errorForNetwork, errorForStatus } from '../../src/api/errors.js';
import { EtlError } from '../../src/shared/errors.js';
import { FAILURE_RULES, reachOf, resolveFailure, stageStatusFor, type ResponseAction } from '../../src/shared/failure-policy.js';

const noRedact = (s: string) => s;
const status = (n: number) => errorForStatus(n, {}, 'POST /requests', noRedact);

describe('the failure policy', () => {
  it('decides retry, look-up or fail from the error and whether the call may be billed', () => {
    const rows: Array<[string, unknown, ResponseAction, ResponseAction]> = [
      // what, error, idempotent call, unsafe call (POST /requests)
      ['429', status(429), 'wait-rate-limit', 'wait-rate-limit'],
      ['500', status(500), 'retry', 'lookup'],
      ['503', status(503), 'retry', 'lookup'],
      ['connection refused', errorForNetwork(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), 'r'), 'retry', 'retry'],
      ['reset after sending', errorForNetwork(Object.assign(new Error('x'), { code: 'ECONNRESET' }), 'r'), 'retry', 'lookup'],
      ['401', status(401), 'give-up', 'give-up'],
      ['403', status(403), 'give-up', 'give-up'],
      ['400', status(400), 'give-up', 'give-up'],
      ['404', status(404), 'give-up', 'give-up'],
      ['409', status(409), 'give-up', 'give-up'],
      ['a plain Error', new Error('boom'), 'give-up', 'give-up'],
      ['a warehouse error', new EtlError('WAREHOUSE_SQL', 'x'), 'give-up', 'give-up'],
    ];
    for (const [what, e, idem, unsafe] of rows) {
      expect(resolveFailure(e, { safety: 'idempotent' }).action, what).toBe(idem);
      expect(resolveFailure(e, { safety: 'unsafe' }).action, what).toBe(unsafe);
    }
  });

  it('says how far a failure reaches: the key the run, a 403 its stage, a bad answer its item unless the stage needed it', () => {
    expect(reachOf(status(401), 'item')).toBe('run');
    expect(reachOf(status(403), 'item')).toBe('stage');
    expect(reachOf(status(400), 'item')).toBe('item');
    expect(reachOf(status(400), 'stage')).toBe('stage');
    expect(reachOf(new EtlError('WAREHOUSE_SQL', 'x'), 'item')).toBe('stage');
    expect(reachOf(new Error('no code'), 'item')).toBe('stage');
    expect(stageStatusFor(status(403))).toBe('refused');
    expect(stageStatusFor(status(401))).toBe('refused');
    expect(stageStatusFor(status(500))).toBe('failed');
  });

  it('has a rule for every code the API client can raise', () => {
    for (const code of Object.values(API_CODES)) expect(FAILURE_RULES[code], code).toBeDefined();
    expect(new ApiError(API_CODES.server, 'x').transient).toBe(true);
    expect(new ApiError(API_CODES.validation, 'x').transient).toBe(false);
  });

  it('has a rule for every constant error code the source raises (no untyped error escapes it)', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const f of readdirSync(dir)) {
        const p = join(dir, f);
        if (statSync(p).isDirectory()) { if (f !== 'sandbox' && f !== 'bench') walk(p); } else if (p.endsWith('.ts')) files.push(p);
      }
    };
    walk('src');
    const raised = new Set<string>();
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/new (?:EtlError|WarehouseError|TransferLoadError)\(\s*'([A-Z][A-Z0-9_]+)'/g)) raised.add(m[1]);
      expect(text, `${f} builds an untyped error with a code`).not.toMatch(/Object\.assign\(new Error/);
    }
    // Usage and configuration errors end the command with exit 2 before any stage: they need no rule.
    const usage = /^(CLI_|ETL_CONFIG|INPUT_|RUN_LOCKED|RUN_SENDS_NOTHING|RUN_READ_ONLY|SCHEDULE_|REPORT_)/;
    const missing = [...raised].filter((c) => !usage.test(c) && !(c in FAILURE_RULES));
    expect(missing).toEqual([]);
  });
});
