import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/shared/config.js';
import { ConfigError } from '../../src/shared/errors.js';

// Where a night's lawsuits come from (searches or trackings), the recurrence of the trackings it makes and whether
// it may pause more than a tenth of them are configuration: a flag wins over the environment, and every bad value
// is reported at once with the others.

const load = (env: Record<string, string>, flags: Record<string, string | boolean> = {}) =>
  loadConfig({ env: { LAWSUIT_SANDBOX: 'true', ...env }, flags, command: 'export' });

describe('the source of a night as configuration', () => {
  it('defaults to searches, daily trackings, and no pause past the guard', () => {
    expect(load({})).toMatchObject({ source: 'searches', trackingRecurrenceDays: 1, allowPause: false });
  });

  it('is read from the environment, and a flag wins over it', () => {
    expect(load({ LAWSUIT_SOURCE: 'trackings', LAWSUIT_TRACKING_RECURRENCE: '7', LAWSUIT_ALLOW_PAUSE: 'yes' }))
      .toMatchObject({ source: 'trackings', trackingRecurrenceDays: 7, allowPause: true });
    expect(load({ LAWSUIT_SOURCE: 'trackings' }, { source: 'searches', 'allow-pause': true })).toMatchObject({ source: 'searches', allowPause: true });
  });

  it('reports every bad value at once, naming the allowed ones', () => {
    let problems: string[] = [];
    try {
      load({ LAWSUIT_SOURCE: 'tracking', LAWSUIT_TRACKING_RECURRENCE: '0', LAWSUIT_ALLOW_PAUSE: 'maybe' });
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      problems = (e as ConfigError).problems;
    }
    expect(problems).toEqual(expect.arrayContaining([
      'LAWSUIT_TRACKING_RECURRENCE="0" must be a whole number from 1 to 365',
      '--source / LAWSUIT_SOURCE="tracking" is not a source (allowed: searches, trackings)',
      '--allow-pause / LAWSUIT_ALLOW_PAUSE="maybe" is not a boolean (allowed: true/false, 1/0, yes/no)',
    ]));
    expect(problems).toHaveLength(3);
  });

  it('asks a dry run for the key only when it lists trackings (a searches night\'s dry run sends nothing)', () => {
    const run = (env: Record<string, string>) => {
      try {
        loadConfig({ env: { LAWSUIT_DOCUMENTS: 'config/documents.example.csv', ...env }, flags: { 'dry-run': true }, command: 'run' });
        return [];
      } catch (e) {
        return (e as ConfigError).problems;
      }
    };
    expect(run({})).toEqual([]);
    expect(run({ LAWSUIT_SOURCE: 'trackings' })).toEqual(expect.arrayContaining([expect.stringMatching(/^LAWSUIT_API_KEY .*required/)]));
    expect(run({ LAWSUIT_SOURCE: 'trackings', LAWSUIT_SANDBOX: 'true' })).toEqual([]);
  });
});
