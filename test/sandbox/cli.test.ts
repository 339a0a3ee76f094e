// The `sandbox` command: flags, the base address on the first stdout line, a clean stop.
import { describe, expect, test } from 'vitest';
import { parseSandboxArgs, runSandboxCli } from '../../src/sandbox/cli.js';

describe('sandbox command', () => {
  test('flags are parsed; bad ones are all reported at once', () => {
    expect(parseSandboxArgs(['--port', '8080', '--seed=4', '--api-key', 'a', '--api-key', 'b', '--lawsuits', '1000', '--rate-limit', '10', '--court-delay-ms', '0', '--faults', '5xx=0.1']))
      .toMatchObject({ port: 8080, seed: 4, apiKeys: ['a', 'b'], lawsuits: 1000, rateLimit: 10, courtDelayMs: 0, faults: '5xx=0.1' });
    expect(parseSandboxArgs([]).courtDelayMs).toBeGreaterThan(0);
    expect(() => parseSandboxArgs(['--port', 'x', '--nope'])).toThrow(/--port.*--nope/s);
  });

  test('prints the base address first, serves with the given key, stops cleanly', async () => {
    const lines: string[] = [];
    let stop!: () => void;
    const stopped = new Promise<void>((r) => { stop = r; });
    const done = runSandboxCli(['--port', '0', '--lawsuits', '500', '--api-key', 'cli-key'], { out: { write: (s: string) => lines.push(s) }, stop: stopped });
    for (let k = 0; k < 100 && lines.length === 0; k++) await new Promise((r) => setTimeout(r, 20));
    const url = lines[0].trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${url}/requests`, { headers: { 'api-key': 'cli-key' } })).status).toBe(200);
    expect((await fetch(`${url}/requests`, { headers: { 'api-key': 'sandbox-key' } })).status).toBe(401);
    stop();
    await done;
    await expect(fetch(`${url}/requests`)).rejects.toThrow();
  });
});
