import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importCycles, importsLeaving, projectRoot, readImportGraph, readPackageImports } from './import-graph.js';
import { breaksNoLongerThere, edgesAgainstTable, foldersOutsideTable, packagesAgainstTable, readLayerTable } from './layer-table.js';

// STYLE.md: data flows one way (documents -> plan -> api -> rows -> warehouse -> exports), the spec's vocabulary
// sits on the ground floor (src/spec), and the client and the sandbox are two readings of the spec kept apart so
// that the tests compare them. ARCHITECTURE.md's table says which folder of src/ may import which; this reads
// that table and the import graph of src/ itself, so a new import that breaks a rule fails here, naming the file
// and the edge, and a rule changes by editing the table alone.

describe('the import graph of src/', () => {
  const graph = readImportGraph(projectRoot(), 'src');
  const table = readLayerTable(readFileSync(join(projectRoot(), 'ARCHITECTURE.md'), 'utf8'));

  test('is read whole: every file is in it and the graph has edges', () => {
    expect(graph.has('src/cli/main.ts')).toBe(true);
    expect(graph.has('src/spec/types.ts')).toBe(true);
    expect(graph.get('src/warehouse/load.ts')).toContain('src/spec/types.ts');
  });

  test('has no import cycle', () => {
    const cycles = importCycles(graph);
    expect(cycles.map((c) => `${c.path.join(' -> ')}  (knot of ${c.files.length}: ${c.files.join(', ')})`)).toEqual([]);
  });

  test('ARCHITECTURE.md\'s table has a row for every folder of src/, and its rules name only those folders', () => {
    expect(table.rules.length).toBeGreaterThan(5);
    expect(foldersOutsideTable(graph, table)).toEqual([]);
  });

  test('imports across folders only as the table allows (or as it lists by name as breaking it)', () => {
    expect(edgesAgainstTable(graph, table)).toEqual([]);
    expect(breaksNoLongerThere(graph, table)).toEqual([]);
  });

  test('imports no package into a folder whose row says so (src/spec: Node\'s own modules alone)', () => {
    expect(table.rules.filter((r) => !r.packages).map((r) => r.folder)).toContain('src/spec');
    expect(packagesAgainstTable(readPackageImports(projectRoot(), 'src'), table)).toEqual([]);
  });

  test('imports nothing from outside src/ (bench/ and test/ are tooling the image does not ship)', () => {
    expect(importsLeaving(graph, 'src')).toEqual([]);
  });
});

describe('the checks themselves', () => {
  const toy = new Map<string, string[]>([
    ['src/a.ts', ['src/b.ts']],
    ['src/b.ts', ['src/c.ts', 'src/spec/x.ts']],
    ['src/c.ts', ['src/a.ts']],
    ['src/d.ts', ['src/d.ts']],
    ['src/spec/x.ts', []],
    ['src/sandbox/s.ts', ['src/api/h.ts', 'src/spec/x.ts', '../test/support/t.ts']],
    ['src/api/h.ts', ['src/spec/x.ts']],
  ]);

  test('report each cycle as the path of files that closes it, self-imports included', () => {
    expect(importCycles(toy)).toEqual([
      { files: ['src/a.ts', 'src/b.ts', 'src/c.ts'], path: ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/a.ts'] },
      { files: ['src/d.ts'], path: ['src/d.ts', 'src/d.ts'] },
    ]);
  });

  const doc = [
    '| folder | what it holds | may import |',
    '|---|---|---|',
    '| `src/spec/` | the vocabulary; never `api/` | nothing of ours; no package |',
    '| `src/api/` | the client | `spec/` |',
    '| `src/sandbox/` | the emulator | nothing of ours |',
    '| `src/cli` | the shell | everything |',
    '',
    '- `src/api/h.ts` → `src/sandbox/`: a break the document owns up to',
    '- `src/api/gone.ts` → `src/sandbox/`: one the code no longer has',
  ].join('\n');

  test('read the table: the last column\'s folders, "everything", "nothing of ours", and the breaks listed by name', () => {
    expect(readLayerTable(doc)).toEqual({
      rules: [
        { folder: 'src/spec', mayImport: [], packages: false },
        { folder: 'src/api', mayImport: ['src/spec'], packages: true },
        { folder: 'src/sandbox', mayImport: [], packages: true },
        { folder: 'src/cli', mayImport: 'everything', packages: true },
      ],
      knownBreaks: [{ file: 'src/api/h.ts', folder: 'src/sandbox' }, { file: 'src/api/gone.ts', folder: 'src/sandbox' }],
    });
    expect(() => readLayerTable('| `src/input/` | the list | `spec/`, never `api/` |')).toThrow(/src\/input: "may import" must be/);
    expect(() => readLayerTable('| `src/input/` | the list | `spec/`; no undici |')).toThrow(/src\/input: after "may import"/);
  });

  test('report each edge against the table with the rule it breaks, and each import leaving the tree', () => {
    const table = readLayerTable(doc);
    const graph = new Map<string, string[]>([
      ...toy,
      ['src/api/h.ts', ['src/spec/x.ts', 'src/sandbox/s.ts']],
      ['src/spec/y.ts', ['src/spec/x.ts', 'src/cli/main.ts']],
      ['src/cli/main.ts', ['src/api/h.ts', 'src/sandbox/s.ts', 'src/spec/x.ts']],
    ]);
    expect(edgesAgainstTable(graph, table)).toEqual([
      'src/sandbox/s.ts -> src/api/h.ts (src/sandbox/ may import nothing of ours: ARCHITECTURE.md)',
      'src/sandbox/s.ts -> src/spec/x.ts (src/sandbox/ may import nothing of ours: ARCHITECTURE.md)',
      'src/spec/y.ts -> src/cli/main.ts (src/spec/ may import nothing of ours: ARCHITECTURE.md)',
    ]);
    expect(breaksNoLongerThere(graph, table)).toEqual([
      'src/api/gone.ts -> src/sandbox/ is listed as breaking the table but the file no longer imports it',
    ]);
    const more = new Map([...graph, ['src/input/l.ts', []]]);
    const wider = readLayerTable(`${doc}\n| \`src/gone/\` | a folder since removed | \`input/\` |`);
    expect(foldersOutsideTable(more, wider)).toEqual([
      'src/ has files but no row',
      'src/gone/ has a row but no file',
      'src/gone/ may import src/input/, which has no row',
      'src/input/ has files but no row',
    ]);
    expect(importsLeaving(toy, 'src')).toEqual(['src/sandbox/s.ts -> ../test/support/t.ts']);
    expect(packagesAgainstTable(new Map([
      ['src/spec/x.ts', ['node:crypto', 'lodash']], ['src/api/h.ts', ['undici', 'node:http']],
    ]), table)).toEqual(['src/spec/x.ts -> lodash (src/spec/ imports no package: ARCHITECTURE.md)']);
  });
});
