// The `sandbox` command: flags, the base address on the first stdout line, a clean stop.
import { describe, expect, test } from 'vitest';
import { parseSandboxArgs, runSandboxCli } from '../../src/cli/sandbox-args.js';

describe('sandbox command', () => {
  test('flags are parsed; bad ones are all reported at once', () => {
    expect(parseSandboxArgs(['--port', '8080', '--seed=4', '--api-key', 'a', '--api-key', 'b', '--lawsuits', '1000', '--rate-limit', '10', '--court-delay-ms', '0', '--faults', '5xx=0.1']))
      .toMatchObject({ port: 8080, seed: 4, apiKeys: ['a', 'b'], lawsuits: 1000, rateLimit: 10, courtDelayMs: 0, faults: '5xx=0.1' });
    expect(parseSandboxArgs([]).courtDelayMs).toBeGreaterThan(0);
    expect(() => parseSandboxArgs(['--port', 'x', '--nope'])).toThrow(/--port.*--nope/s);
  });

  test('prints the base address first, serves with the given key, stops cleanly', async () => {
    let stop!: () => void;
    const stopped = new Promise<void>((r) => { stop = r; });
    let printed!: (line: string) => void;
    const firstLine = new Promise<string>((r) => { printed = r; });
    const done = runSandboxCli(['--port', '0', '--lawsuits', '500', '--api-key', 'cli-key'], { out: { write: (s: string) => printed(s) }, stop: stopped });
    const url = (await firstLine).trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${url}/requests`, { headers: { 'api-key': 'cli-key' } })).status).toBe(200);
    expect((await fetch(`${url}/requests`, { headers: { 'api-key': 'sandbox-key' } })).status).toBe(401);
    stop();
    await done;
    await expect(fetch(`${url}/requests`)).rejects.toThrow();
  });
});
