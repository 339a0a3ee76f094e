import { describe, expect, test } from 'vitest';
import { forbiddenImports, importCycles, importsLeaving, projectRoot, readImportGraph, type ForbiddenImport } from './import-graph.js';

// STYLE.md: data flows one way (documents -> plan -> api -> rows -> warehouse -> exports), the spec's vocabulary
// sits on the ground floor (src/spec), and the client and the sandbox are two readings of the spec kept apart so
// that the tests compare them. These are read off the import graph of src/ itself, so a new import that breaks
// one fails here, naming the file and the edge.

const RULES: readonly ForbiddenImport[] = [
  { from: 'src/input', to: 'src/api', why: 'the documents list reads the spec (src/spec), not the HTTP client' },
  { from: 'src/warehouse', to: 'src/api', why: 'the warehouse stores what the client handed over; the spec\'s types live in src/spec' },
  { from: 'src/sandbox', to: 'src/api', why: 'the sandbox is a reading of the spec of its own' },
  { from: 'src/api', to: 'src/sandbox', why: 'the client is a reading of the spec of its own' },
  { from: 'src/sandbox', to: 'src/spec', why: 'the sandbox keeps its own reading of the spec\'s types and identifiers' },
];

describe('the import graph of src/', () => {
  const graph = readImportGraph(projectRoot(), 'src');

  test('is read whole: every file is in it and the graph has edges', () => {
    expect(graph.has('src/cli/main.ts')).toBe(true);
    expect(graph.has('src/spec/types.ts')).toBe(true);
    expect(graph.get('src/warehouse/load.ts')).toContain('src/spec/types.ts');
  });

  test('has no import cycle', () => {
    const cycles = importCycles(graph);
    expect(cycles.map((c) => `${c.path.join(' -> ')}  (knot of ${c.files.length}: ${c.files.join(', ')})`)).toEqual([]);
  });

  test('keeps the client out of input/ and warehouse/, and the client and the sandbox apart', () => {
    expect(forbiddenImports(graph, RULES)).toEqual([]);
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

  test('report each forbidden edge with its reason, and each import leaving the tree', () => {
    expect(forbiddenImports(toy, RULES)).toEqual([
      `src/sandbox/s.ts -> src/api/h.ts (${RULES[2].why})`,
      `src/sandbox/s.ts -> src/spec/x.ts (${RULES[4].why})`,
    ]);
    expect(importsLeaving(toy, 'src')).toEqual(['src/sandbox/s.ts -> ../test/support/t.ts']);
  });
});
