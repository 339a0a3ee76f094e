import type { Config } from '../shared/config.js';
import { ConfigError } from '../shared/errors.js';
import { OPTIONS } from '../shared/options/table.js';
import type { Environment } from '../pipeline/runner.js';
import { parseDialect } from '../sandbox/dialect.js';
import { parseResources } from '../sandbox/resource-plan.js';
import { startSandbox } from '../sandbox/server.js';

const SANDBOX_KEY = 'sandbox-key';

/**
 * With --sandbox, starts the embedded emulator on a free loopback port and points all four base addresses
 * at it; otherwise uses the configured addresses and key. The CLI is the one place that knows both worlds,
 * and the runner asks for it only when the command sends something.
 */
export async function prepareEnvironment(cfg: Config): Promise<Environment> {
  if (!cfg.sandbox) return { cfg, apiKey: cfg.apiKey ?? '', close: async () => undefined };
  const problems: string[] = [];
  const forbid = cfg.sandboxForbid ? parseResources(cfg.sandboxForbid, OPTIONS.sandboxForbid.env, problems) : undefined;
  const dialect = parseDialect(cfg.sandboxDialect, OPTIONS.sandboxDialect.env, problems);
  if (problems.length) throw new ConfigError(problems);
  const sandbox = await startSandbox({
    port: 0, seed: cfg.sandboxSeed, courtDelayMs: cfg.sandboxCourtDelayMs, rateLimit: cfg.sandboxRateLimit, faults: cfg.sandboxFaults, apiKeys: [SANDBOX_KEY], forbid, dialect,
  });
  const urls = { requests: sandbox.url, tracking: sandbox.url, lawsuits: sandbox.url, transfer: sandbox.url };
  return { cfg: { ...cfg, urls }, apiKey: SANDBOX_KEY, close: () => sandbox.close() };
}
