import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_CODES, ApiError, errorForNetwork, errorForStatus } from '../../src/api/errors.js';
import { EtlError } from '../../src/shared/errors.js';
import {
  FAILURE_RULES, mayHaveActed, resolveFailure, stageStatusFor, type CallRole, type Resolution, type ResponseAction,
} from '../../src/shared/failure-policy.js';

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
      ['422', status(422), 'give-up', 'give-up'],
      ['404', status(404), 'give-up', 'give-up'],
      ['409', status(409), 'give-up', 'give-up'],
      ['an answer too large', new ApiError(API_CODES.tooLarge, 'x', { statusCode: 200 }), 'give-up', 'give-up'],
      ['a plain Error', new Error('boom'), 'give-up', 'give-up'],
      ['a warehouse error', new EtlError('WAREHOUSE_SQL', 'x'), 'give-up', 'give-up'],
    ];
    for (const [what, e, idem, unsafe] of rows) {
      expect(resolveFailure(e, { safety: 'idempotent' }).action, what).toBe(idem);
      expect(resolveFailure(e, { safety: 'unsafe' }).action, what).toBe(unsafe);
    }
  });

  it('offers the remedy a failure calls for where the call allows it, and gives up otherwise', () => {
    const tooLarge = new ApiError(API_CODES.tooLarge, 'x', { statusCode: 200 });
    const expired = new ApiError(API_CODES.downloadExpired, 'x', { statusCode: 403 });
    const rows: Array<[string, unknown, CallRole, ResponseAction]> = [
      // what, error, the call, the action
      ['a page too large, on a call whose page can shrink', tooLarge, { pageSized: true }, 'shrink-page'],
      ['a body too large, on a call of fixed size', tooLarge, {}, 'give-up'],
      ['a 404 on a request we made (its status, its responses)', status(404), { ofRequest: true }, 'resubmit'],
      ['a 404 on anything else', status(404), {}, 'give-up'],
      ['a 404 on a record we keep (a tracking): no remedy of a request\'s', status(404), { ofRecord: true }, 'give-up'],
      ['a page too large on a later page (page numbers hold at one size)', tooLarge, { pageSized: false }, 'give-up'],
      ['a 400 on a call with a plainer form (the spec\'s names, the other vocabulary, the spec\'s page size)', status(400), { plainer: true }, 'ask-plainer'],
      ['a 422 on a call with a plainer form', status(422), { plainer: true }, 'ask-plainer'],
      ['a 400 on a call with none (or its plainer form already sent)', status(400), { plainer: false }, 'give-up'],
      ['a 400 on a page-sized call: not a page too large', status(400), { pageSized: true }, 'give-up'],
      ['a 409 on a creation or change of a record we keep', status(409), { ofRecord: true }, 'read-record'],
      ['a 409 on anything else', status(409), { plainer: true, pageSized: true }, 'give-up'],
      ['a 5xx on a call with a plainer form: a plain retry', status(503), { plainer: true }, 'retry'],
      ['a 429 on a record\'s change', status(429), { ofRecord: true }, 'wait-rate-limit'],
      ['an expired download address', expired, {}, 'refresh-address'],
      ['a 429 on a creation', status(429), { safety: 'unsafe' }, 'wait-rate-limit'],
      ['a 5xx a loop already retried as far as it would', Object.assign(status(503), { exhausted: true }), {}, 'give-up'],
      ['a 429 a loop already retried as far as it would', Object.assign(status(429), { exhausted: true }), {}, 'give-up'],
      ['a creation reset after sending, retried out by the client', Object.assign(errorForNetwork(Object.assign(new Error('x'), { code: 'ECONNRESET' }), 'r'), { exhausted: true }), { safety: 'unsafe' }, 'give-up'],
      ['a file that cannot be read yet (TRANSFER_FILE_READ)', new EtlError('TRANSFER_FILE_READ', 'x'), {}, 'retry'],
      ['a refused key', status(401), { ofRequest: true, pageSized: true, plainer: true, ofRecord: true }, 'give-up'],
      ['a 403 on a call with a plainer form', status(403), { plainer: true }, 'give-up'],
    ];
    for (const [what, e, call, action] of rows) expect(resolveFailure(e, call).action, what).toBe(action);
  });

  it('says the kind of failure with the action: how far it reaches, whether it passes, is refused, or is left for the next run', () => {
    const rows: Array<[string, unknown, CallRole, Omit<Resolution, 'action'>]> = [
      ['401', status(401), {}, { reach: 'run', transient: false, refused: true, deferred: false, fileAtFault: false }],
      ['403 in a row', status(403), {}, { reach: 'stage', transient: false, refused: true, deferred: false, fileAtFault: false }],
      ['a 5xx retried out', Object.assign(status(503), { exhausted: true }), {}, { reach: 'item', transient: true, refused: false, deferred: false, fileAtFault: false }],
      ['a 400 on the stage\'s own listing', status(400), { role: 'stage' }, { reach: 'stage', transient: false, refused: false, deferred: false, fileAtFault: false }],
      ['the wait budget spent', new ApiError(API_CODES.outOfTime, 'x', { notProcessed: true }), {}, { reach: 'item', transient: false, refused: false, deferred: true, fileAtFault: false }],
      ['a look-up that cannot tell', new EtlError('REQUEST_LOOKUP_UNPROVEN', 'x'), {}, { reach: 'item', transient: false, refused: false, deferred: true, fileAtFault: false }],
      ['a transferred file whose size is not its record\'s', new EtlError('API_DOWNLOAD_SIZE', 'x'), {}, { reach: 'item', transient: true, refused: false, deferred: false, fileAtFault: true }],
      ['a transferred file that does not read as its type', new EtlError('TRANSFER_FILE_SHAPE', 'x'), {}, { reach: 'item', transient: true, refused: false, deferred: false, fileAtFault: true }],
      ['a download timing out: not the file\'s fault', new ApiError(API_CODES.timeout, 'x'), {}, { reach: 'item', transient: true, refused: false, deferred: false, fileAtFault: false }],
    ];
    for (const [what, e, call, kind] of rows) {
      const { action: _action, ...rest } = resolveFailure(e, call);
      expect(rest, what).toEqual(kind);
    }
  });

  it('never retries what reaches past its item: a passing cause is always one item\'s', () => {
    for (const [code, rule] of Object.entries(FAILURE_RULES)) if (rule.transient) expect(rule.reach, code).toBe('item');
  });

  it('tells whether an unsafe call that failed may still have been acted on (its intent then stays for a look-up)', () => {
    const rows: Array<[string, unknown, boolean]> = [
      ['429: the service did nothing', status(429), false],
      ['a 4xx refusal', status(400), false],
      ['a 403', status(403), false],
      ['a connection never opened', errorForNetwork(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), 'r'), false],
      ['a reset after sending', errorForNetwork(Object.assign(new Error('x'), { code: 'ECONNRESET' }), 'r'), true],
      ['a 5xx', status(502), true],
      ['a time-out once sent', new ApiError(API_CODES.timeout, 'x', { ambiguous: true }), true],
      ['an error that says nothing', new Error('boom'), true],
    ];
    for (const [what, e, acted] of rows) expect(mayHaveActed(e), what).toBe(acted);
  });

  it('says how far a failure reaches: the key the run, a 403 its stage, a bad answer its item unless the stage needed it', () => {
    const rows: Array<[string, unknown, CallRole['role'], Resolution['reach']]> = [
      ['401', status(401), 'item', 'run'],
      ['403 in a row', status(403), 'item', 'stage'],
      ['400 on an item\'s call', status(400), 'item', 'item'],
      ['400 on the stage\'s own listing', status(400), 'stage', 'stage'],
      ['401 on the stage\'s own listing', status(401), 'stage', 'run'],
      ['the warehouse', new EtlError('WAREHOUSE_SQL', 'x'), 'item', 'stage'],
      ['an error with no code', new Error('no code'), 'item', 'stage'],
      ['no role said: an item\'s', status(400), undefined, 'item'],
    ];
    for (const [what, e, role, reach] of rows) expect(resolveFailure(e, role === undefined ? {} : { role }).reach, what).toBe(reach);
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
    const usage = /^(CLI_|ETL_CONFIG|INPUT_|RUN_LOCKED|RUN_SENDS_NOTHING|RUN_READ_ONLY|SCHEDULE_|REPORT_|INTAKE_)/;
    const missing = [...raised].filter((c) => !usage.test(c) && !(c in FAILURE_RULES));
    expect(missing).toEqual([]);
  });
});
