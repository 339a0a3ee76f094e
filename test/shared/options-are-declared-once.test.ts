import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../src/cli/command-specs.js';
import { OPTIONS } from '../../src/shared/options/table.js';
import { commandFlagsTable, commandsTable, configurationTable, declaredFlags as flagsOf } from '../support/option-tables.js';

// Every flag, variable and config-file key is declared once, in src/shared/options/table.ts; the help of each
// command and the documentation's tables are made from it. These tests read the made things as data (rows and
// cells), so that a second declaration, or a row that disagrees with the table, shows up here.

const rows = (table: string): string[][] =>
  table.split('\n').slice(2).map((l) => l.slice(2, -2).split(/ (?<!\\)\| /));

describe('the option table', () => {
  it('gives the warehouse one declaration that every command working on one shares: one flag, one variable, one key', () => {
    const warehouse = rows(configurationTable()).filter((r) => r[0].includes('LAWSUIT_WAREHOUSE'));
    expect(warehouse).toEqual([[
      '`LAWSUIT_WAREHOUSE`', '`--warehouse` (run, export, transfer, query, track, doctor, report, rebuild)', '`warehouse`', 'the DuckDB warehouse',
      'data/warehouse.duckdb',
    ]]);
    const helps = new Set(COMMAND_NAMES.flatMap((c) => flagsOf(c).filter((f) => f.flag.startsWith('--warehouse ')).map((f) => f.help)));
    expect(helps.size).toBe(1);
    // The lock is the warehouse's unless named: the scheduler and the commands it starts read the same option.
    expect(rows(configurationTable()).find((r) => r[0] === '`LAWSUIT_LOCK_FILE`')?.slice(1, 3)).toEqual(['`--lock` (schedule)', '`lock_file`']);
  });

  it('has one row per variable and per config-file key, and never a key for a secret', () => {
    const configured = rows(configurationTable());
    const variables = configured.flatMap((r) => r[0].split(' / ')).filter(Boolean);
    expect(new Set(variables).size).toBe(variables.length);
    const keys = configured.map((r) => r[2]).filter((k) => k !== '' && k !== 'never');
    expect(new Set(keys).size).toBe(keys.length);
    expect(configured.find((r) => r[0].startsWith('`LAWSUIT_API_KEY`'))?.[2]).toBe('never');
    expect(configured.find((r) => r[0].startsWith('`LAWSUIT_EXPORT_SALT`'))?.[2]).toBe('never');
  });

  it('lists every command with the flags its help shows, and the flags a command reads itself', () => {
    const commands = rows(commandsTable());
    expect(commands.map((r) => r[0])).toEqual(COMMAND_NAMES.map((c) => `\`${c}\``));
    for (const [i, c] of COMMAND_NAMES.entries()) {
      const shown = commands[i][2] === '' ? [] : commands[i][2].split(', ');
      expect(shown, c).toEqual(flagsOf(c).map((f) => `\`${f.flag.split(' ')[0]}\``));
    }
    const own = rows(commandFlagsTable());
    expect(own.find((r) => r[1] === '`--kind <kind>`')?.[0]).toBe('`query`');
    expect(own.filter((r) => r[0] === '`sandbox`').map((r) => r[1])).toContain('`--tracking-runs <content>`');
    const sandboxOptions = Object.values(OPTIONS).filter((o) => 'readBy' in o && o.readBy === 'sandbox');
    expect(own.filter((r) => r[0] === '`sandbox`')).toHaveLength(sandboxOptions.length);
  });

  it('is what docs/operating.md shows as the configuration table, row for row', () => {
    const doc = readFileSync(new URL('../../docs/operating.md', import.meta.url), 'utf8');
    const start = doc.indexOf('<!-- generated from src/shared/options/table.ts');
    const end = doc.indexOf('<!-- end of the generated table -->');
    expect(start).toBeGreaterThan(-1);
    const shown = doc.slice(doc.indexOf('\n', start) + 1, end).trim();
    // On a difference, paste the expected side over the docs' table: it is the option table's own rendering.
    expect(shown).toBe(configurationTable().trim());
  });
});
