// With LAWSUIT_CALLBACK_URL set, every request a night buys and every tracking `track` makes carries it as
// `callback_url` (top level of the body); without it, none does.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { exitCodeOf } from '../../src/cli/exit-codes.js';
import { runCommand } from '../../src/pipeline/runner.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { callbackReceiver, type CallbackReceiver } from '../support/callback-receiver.js';
import { configFor, scratch, silent } from '../support/pipeline.js';

let sb: Sandbox;
let rx: CallbackReceiver;
const dirs: Array<{ dir: string; cleanup(): void }> = [];

beforeAll(async () => {
  sb = await startSandbox({ seed: 3, lawsuits: 2_000, rateLimit: 100_000, bootId: 'cb', courtDelayMs: 0 });
  rx = await callbackReceiver();
});
afterAll(async () => {
  await sb.close();
  await rx.close();
  for (const d of dirs) d.cleanup();
});

async function command(name: 'run' | 'track', env: Record<string, string>): Promise<number> {
  const s = scratch();
  dirs.push(s);
  const list = join(s.dir, 'documents.csv');
  writeFileSync(list, `search_type,search_key\n${sb.sampleDocuments(4).map((d) => `${d.search_type},${d.search_key}`).join('\n')}\n`);
  const cfg = configFor(sb.url, s.dir, { LAWSUIT_DOCUMENTS: list, LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true',
    // no wait for deliveries, which reach no spool here: the bodies are the subject
    LAWSUIT_CALLBACK_WAIT_SECONDS: '0', ...env });
  const r = await runCommand({
    command: name, cfg, log: silent, signal: new AbortController().signal, exitCodeOf,
    environment: async (c) => ({ cfg: c, apiKey: c.apiKey ?? '', close: async () => undefined }), pollTuning: { minIntervalMs: 20, maxIntervalMs: 200 },
  });
  return r.exitCode;
}

const made = () => sb.state.store.listOf('sandbox-key').filter((r) => !r.foreign && r.trackingId === undefined);
const trackings = () => sb.state.trackings.records.listOf('sandbox-key');

describe('the callback URL', () => {
  test('is sent with every request a night makes, and with none when it is not set', async () => {
    expect(await command('run', {})).toBe(0);
    const before = made().length;
    expect(before).toBeGreaterThan(0);
    expect(made().every((r) => r.callbackUrl === undefined)).toBe(true);
    expect(await command('run', { LAWSUIT_CALLBACK_URL: rx.url }))
      .toBe(0);
    const tonight = made().slice(before);
    expect(tonight.length).toBeGreaterThan(0);
    expect(tonight.map((r) => r.callbackUrl)).toEqual(tonight.map(() => rx.url));
  });

  test('is sent with every tracking `track` makes', async () => {
    expect(await command('track', { LAWSUIT_CALLBACK_URL: rx.url })).toBe(0);
    expect(trackings().length).toBeGreaterThan(0);
    expect(trackings().map((t) => t.callbackUrl)).toEqual(trackings().map(() => rx.url));
  });
});
