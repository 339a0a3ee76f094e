// Choosing the dialect: the sandbox option (default DEFAULT_DIALECT, a bad name refused with the other bad
// options), `lawsuit-etl sandbox --dialect`, LAWSUIT_SANDBOX_DIALECT for the embedded sandbox of `--sandbox`;
// GET /_sandbox/dialect tells which one is spoken, with its table of differences.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { prepareEnvironment } from '../../src/cli/environment.js';
import { loadConfig } from '../../src/shared/config.js';
import { ConfigError } from '../../src/shared/errors.js';
import { parseSandboxArgs, runSandboxCli } from '../../src/cli/sandbox-args.js';
import { DEFAULT_DIALECT, DIALECTS } from '../../src/sandbox/dialect.js';
import { startSandbox } from '../../src/sandbox/server.js';

const dialectAt = async (url: string) => (await (await fetch(`${url}/_sandbox/dialect`)).json()) as { dialect: string; rules: { createdStatus: number } };

describe('choosing the dialect', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialect-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the option: the default is DEFAULT_DIALECT; each name is spoken and shown; a bad one is refused with the rest', async () => {
    const plain = await startSandbox({ lawsuits: 200 });
    expect((await dialectAt(plain.url)).dialect).toBe(DEFAULT_DIALECT);
    await plain.close();
    for (const name of ['documented', 'spec'] as const) {
      const sb = await startSandbox({ lawsuits: 200, dialect: name });
      const shown = await dialectAt(sb.url);
      expect(shown.dialect).toBe(name);
      expect(shown.rules).toEqual(JSON.parse(JSON.stringify(DIALECTS[name])));
      const doc = sb.sampleDocuments(5).find((d) => d.search_type === 'cpf' || d.search_type === 'cnpj')!;
      const post = await fetch(`${sb.url}/requests`, {
        method: 'POST', headers: { 'api-key': 'sandbox-key', 'content-type': 'application/json' },
        body: JSON.stringify({ search: { search_type: doc.search_type, search_key: doc.search_key } }),
      });
      expect(post.status).toBe(name === 'documented' ? 201 : 200);
      await sb.close();
    }
    await expect(startSandbox({ dialect: 'yaml' as never, retentionMs: -1 })).rejects.toThrow(/retentionMs.*dialect must be one of documented, spec/s);
  });

  test('the command: --dialect documented|spec, a bad name named with the other bad flags', async () => {
    expect(parseSandboxArgs(['--dialect', 'documented']).dialect).toBe('documented');
    expect(parseSandboxArgs(['--dialect=spec']).dialect).toBe('spec');
    expect(parseSandboxArgs([]).dialect).toBeUndefined();
    expect(() => parseSandboxArgs(['--dialect', 'json', '--port', 'x'])).toThrow(/--dialect must be one of documented, spec.*--port/s);
    const lines: string[] = [];
    let stop!: () => void;
    const stopped = new Promise<void>((r) => { stop = r; });
    let announce!: () => void;
    const announced = new Promise<void>((r) => { announce = r; });
    const done = runSandboxCli(['--lawsuits', '200', '--dialect', 'documented'], { out: { write: (s: string) => { lines.push(s); announce(); } }, stop: stopped });
    await announced;
    expect((await dialectAt(lines[0].trim())).dialect).toBe('documented');
    stop();
    await done;
  });

  test('the embedded sandbox: LAWSUIT_SANDBOX_DIALECT, checked where the sandbox starts', async () => {
    const env = {
      LAWSUIT_WAREHOUSE: join(dir, 'w.duckdb'), LAWSUIT_EXPORT_DIR: join(dir, 'exports'), LAWSUIT_REPORTS_DIR: join(dir, 'reports'),
      LAWSUIT_STAGING_DIR: join(dir, 'staging'), LAWSUIT_CONFIG: join(dir, 'empty.json'),
    };
    writeFileSync(env.LAWSUIT_CONFIG, '{}');
    for (const name of ['documented', 'spec']) {
      const cfg = loadConfig({ env: { ...env, LAWSUIT_SANDBOX_DIALECT: name }, command: 'report', flags: { sandbox: true } });
      expect(cfg.sandboxDialect).toBe(name);
      const environment = await prepareEnvironment(cfg);
      expect((await dialectAt(environment.cfg.urls.requests)).dialect).toBe(name);
      await environment.close();
    }
    const unset = loadConfig({ env, command: 'report', flags: { sandbox: true } });
    const environment = await prepareEnvironment(unset);
    expect((await dialectAt(environment.cfg.urls.requests)).dialect).toBe(DEFAULT_DIALECT);
    await environment.close();
    const bad = loadConfig({ env: { ...env, LAWSUIT_SANDBOX_DIALECT: 'yaml' }, command: 'report', flags: { sandbox: true } });
    const refused = await prepareEnvironment(bad).then(() => undefined, (e: unknown) => e);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).problems.join(' ')).toMatch(/LAWSUIT_SANDBOX_DIALECT must be one of documented, spec/);
  });
});
