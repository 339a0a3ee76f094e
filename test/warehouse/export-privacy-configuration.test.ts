import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, type ConfiguredCommand } from '../../src/shared/config.js';
import { ConfigError } from '../../src/shared/errors.js';

// The export privacy's configuration: its secret is required only where exports are written, read from the
// environment or a file, never from the config file, and never shown in a message.

const dir = mkdtempSync(join(tmpdir(), 'privacy-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SECRET = 'a-secret-that-must-never-be-printed-0123456789';
const base = { LAWSUIT_WAREHOUSE: join(dir, 'w.duckdb'), LAWSUIT_EXPORT_DIR: join(dir, 'exports'), LAWSUIT_REPORTS_DIR: join(dir, 'reports'), LAWSUIT_STAGING_DIR: join(dir, 'staging') };

function problems(env: Record<string, string>, command: ConfiguredCommand = 'export', flags: Record<string, string | boolean> = {}): string[] {
  try {
    loadConfig({ env: { ...base, ...env }, command, flags: { sandbox: true, ...flags } });
    return [];
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    for (const p of e.problems) expect(p).not.toContain(SECRET.slice(0, 12));
    expect(e.message).not.toContain(SECRET.slice(0, 12));
    return e.problems;
  }
}

describe('export privacy configuration', () => {
  it('is off by default and then leaves no lawsuit out', () => {
    const cfg = loadConfig({ env: base, command: 'export' });
    expect(cfg.exportPrivacy).toEqual({ mode: 'off', salt: undefined, maxSecrecy: 5 });
  });

  it('pseudonymise shares only public lawsuits unless told otherwise', () => {
    const cfg = loadConfig({ env: { ...base, LAWSUIT_EXPORT_PRIVACY: 'pseudonymise', LAWSUIT_EXPORT_SALT: SECRET }, command: 'export' });
    expect(cfg.exportPrivacy).toEqual({ mode: 'pseudonymise', salt: SECRET, maxSecrecy: 0 });
    const two = loadConfig({ env: { ...base, LAWSUIT_EXPORT_PRIVACY: 'pseudonymise', LAWSUIT_EXPORT_SALT: SECRET, LAWSUIT_EXPORT_MAX_SECRECY: '2' }, command: 'export' });
    expect(two.exportPrivacy.maxSecrecy).toBe(2);
  });

  it('requires the secret from the commands that write exports, and only from them', () => {
    const on = { LAWSUIT_EXPORT_PRIVACY: 'pseudonymise' };
    for (const command of ['export', 'run'] as const) {
      const p = problems(on, command);
      expect(p).toHaveLength(1);
      expect(p[0]).toMatch(/^LAWSUIT_EXPORT_PRIVACY=pseudonymise needs its secret: set LAWSUIT_EXPORT_SALT_FILE \(or LAWSUIT_EXPORT_SALT\)/);
    }
    expect(problems(on, 'run', { 'skip-export': true })).toEqual([]);
    expect(problems(on, 'run', { 'dry-run': true })).toEqual([]);
    expect(problems(on, 'transfer')).toEqual([]);
    expect(problems(on, 'query')).toEqual([]);
  });

  it('reads the secret from a file, its final newline dropped', () => {
    const file = join(dir, 'salt');
    writeFileSync(file, `${SECRET}\n`);
    const cfg = loadConfig({ env: { ...base, LAWSUIT_EXPORT_PRIVACY: 'pseudonymise', LAWSUIT_EXPORT_SALT_FILE: file }, command: 'export' });
    expect(cfg.exportPrivacy.salt).toBe(SECRET);
  });

  it('reports every problem at once and never shows the secret', () => {
    const p = problems({ LAWSUIT_EXPORT_PRIVACY: 'anonymise', LAWSUIT_EXPORT_SALT: SECRET.slice(0, 20), LAWSUIT_EXPORT_MAX_SECRECY: '6' });
    expect(p).toEqual([
      'LAWSUIT_EXPORT_PRIVACY="anonymise" is not a privacy mode (allowed: off, pseudonymise)',
      'LAWSUIT_EXPORT_SALT: the secret must be at least 32 characters (the value is not shown)',
      'LAWSUIT_EXPORT_MAX_SECRECY="6" must be a whole number from 0 to 5',
    ]);
    writeFileSync(join(dir, 'empty'), '\n');
    expect(problems({ LAWSUIT_EXPORT_PRIVACY: 'pseudonymise', LAWSUIT_EXPORT_SALT_FILE: join(dir, 'empty') })).toEqual([`LAWSUIT_EXPORT_SALT_FILE=${join(dir, 'empty')}: the file is empty`]);
    expect(problems({ LAWSUIT_EXPORT_PRIVACY: 'pseudonymise', LAWSUIT_EXPORT_SALT_FILE: join(dir, 'nope') })).toEqual([`LAWSUIT_EXPORT_SALT_FILE=${join(dir, 'nope')}: cannot read it (ENOENT)`]);
  });

  it('refuses the secret in the config file, where it would sit beside the settings', () => {
    const file = join(dir, 'etl.json');
    writeFileSync(file, JSON.stringify({ export_privacy: 'pseudonymise', export_salt: SECRET }));
    const p = problems({ LAWSUIT_CONFIG: file });
    expect(p).toContain(`${file}: export_salt does not belong in a config file (use LAWSUIT_EXPORT_SALT_FILE or LAWSUIT_EXPORT_SALT)`);
  });
});
