import { describe, expect, it } from 'vitest';
import { ApiError, API_CODES } from '../../src/api/errors.js';
import { EXIT, exitCodeOf, troubleOf } from '../../src/cli/exit-codes.js';
import { ConfigError, EtlError } from '../../src/shared/errors.js';

// The one table of exit codes (CONTRACT.md): how a command ended, a run's status or what it threw, to its code.
// Nothing outside src/cli chooses one.

describe('the exit code of a command', () => {
  it.each([
    ['ok', EXIT.ok], ['dry-run', EXIT.ok], ['partial', EXIT.partial], ['interrupted', EXIT.partial], ['refused', EXIT.auth],
    ['usage-error', EXIT.usage], ['usage', EXIT.usage], ['unexpected', EXIT.unexpected], ['unreachable', EXIT.tryLater], ['locked', EXIT.tryLater],
  ] as const)('a command that ended %s exits %s', (status, code) => {
    expect(exitCodeOf(status)).toBe(code);
  });

  it.each([
    ['a configuration problem', new ConfigError(['LAWSUIT_WAREHOUSE: no']), 'usage', 2],
    ['a usage error', new EtlError('INPUT_NO_SEARCH_KEY', 'no search_key', { usage: true }), 'usage', 2],
    ['the run lock held by another run', new EtlError('RUN_LOCKED', 'another run holds the lock'), 'locked', 75],
    ['the key refused', new ApiError(API_CODES.unauthorized, 'refused'), 'refused', 3],
    ['a resource refused', new ApiError(API_CODES.forbidden, 'refused'), 'refused', 3],
    ['an upstream failing', new ApiError(API_CODES.server, '503'), 'unexpected', 1],
    ['anything else', new Error('boom'), 'unexpected', 1],
  ] as const)('%s thrown is %s: exit %s', (_what, e, trouble, code) => {
    expect(troubleOf(e)).toBe(trouble);
    expect(exitCodeOf(troubleOf(e))).toBe(code);
  });
});
