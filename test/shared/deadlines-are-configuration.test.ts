import { describe, expect, it } from 'vitest';
import { DEFAULT_DEADLINES, loadConfig } from '../../src/shared/config.js';
import { ConfigError } from '../../src/shared/errors.js';

// The deadlines of a call and the grace period after SIGTERM are configuration: in seconds (decimals allowed),
// with defaults a night can live with, and every bad value reported at once with the others.

const load = (env: Record<string, string>) => loadConfig({ env: { LAWSUIT_SANDBOX: 'true', ...env }, command: 'export' });

describe('deadlines and the grace period as configuration', () => {
  it('default to 10 s to connect, 30 s for headers, 120 s for a body, 30 min for a download, 10 s of grace', () => {
    const cfg = load({});
    expect(cfg.deadlines).toEqual(DEFAULT_DEADLINES);
    expect(cfg.deadlines).toEqual({ connectMs: 10_000, headersMs: 30_000, bodyMs: 120_000, downloadMs: 1_800_000 });
    expect(cfg.shutdownGraceMs).toBe(10_000);
  });

  it('are read in seconds, decimals allowed', () => {
    const cfg = load({
      LAWSUIT_CONNECT_TIMEOUT_SECONDS: '2.5', LAWSUIT_HEADERS_TIMEOUT_SECONDS: '0.25', LAWSUIT_BODY_TIMEOUT_SECONDS: '300',
      LAWSUIT_DOWNLOAD_TIMEOUT_SECONDS: '7200', LAWSUIT_SHUTDOWN_GRACE_SECONDS: '0',
    });
    expect(cfg.deadlines).toEqual({ connectMs: 2_500, headersMs: 250, bodyMs: 300_000, downloadMs: 7_200_000 });
    expect(cfg.shutdownGraceMs).toBe(0);
  });

  it('reports every bad value at once, each naming its variable and range (no deadline of 0: a call would never end)', () => {
    let problems: string[] = [];
    try {
      load({
        LAWSUIT_CONNECT_TIMEOUT_SECONDS: '0', LAWSUIT_HEADERS_TIMEOUT_SECONDS: 'soon', LAWSUIT_BODY_TIMEOUT_SECONDS: '-1',
        LAWSUIT_DOWNLOAD_TIMEOUT_SECONDS: '1e9', LAWSUIT_SHUTDOWN_GRACE_SECONDS: '601', LAWSUIT_FRESHNESS_DAYS: '-3',
      });
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      problems = (e as ConfigError).problems;
    }
    expect(problems).toEqual([
      'LAWSUIT_FRESHNESS_DAYS="-3" must be a whole number from 0 to 3650',
      'LAWSUIT_CONNECT_TIMEOUT_SECONDS="0" must be a number from 0.01 to 600',
      'LAWSUIT_HEADERS_TIMEOUT_SECONDS="soon" must be a number from 0.01 to 3600',
      'LAWSUIT_BODY_TIMEOUT_SECONDS="-1" must be a number from 0.01 to 3600',
      'LAWSUIT_DOWNLOAD_TIMEOUT_SECONDS="1e9" must be a number from 0.01 to 86400',
      'LAWSUIT_SHUTDOWN_GRACE_SECONDS="601" must be a number from 0 to 600',
    ]);
  });
});
