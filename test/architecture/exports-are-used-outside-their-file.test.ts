import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from './import-graph.js';
import { exportUses, readProject, unreachableFiles, unusedElsewhere } from './export-usage.js';

// An exported name says "another file needs me". One that no other file uses is a public surface nobody reads:
// the reader of the file has to look for callers that do not exist, and the name cannot be renamed or removed
// without that search. Drop the `export` (or the code, if its own file does not use it either).

// Every folder of src/ is checked: src/api, src/pipeline and src/shared/failure-policy.ts were left out until
// 2026-11-28, when they held 111 such names and an API barrel (src/api/index.ts) no file imported.

describe('the exports of src/', () => {
  const project = readProject(projectRoot());
  const uses = exportUses(project);

  it('are read whole: a name used across files is seen used, one used only by tests too', () => {
    const find = (file: string, name: string) => uses.find((u) => u.file === file && u.name === name);
    expect(find('src/warehouse/schema/index.ts', 'SCHEMA')?.usedBy).toContain('src/warehouse/merge.ts');
    expect(find('src/input/documents.ts', 'parseDocuments')?.usedBy).toContain('test/input/documents.test.ts');
    expect(uses.length).toBeGreaterThan(500);
  });

  it('are each used by another file', () => {
    const dead = unusedElsewhere(uses);
    expect(dead.map((u) => `${u.file}: ${u.name}${u.usedInOwnFile ? '' : ' (not even in its own file)'}`)).toEqual([]);
  });

  it('and every file of src/ is reachable: imported, or an entry point named by its path', () => {
    expect(unreachableFiles(projectRoot(), project)).toEqual([]);
  });
});

describe('the check itself', () => {
  const root = mkdtempSync(join(tmpdir(), 'exports-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  write('src/a.ts', `export const used = 1;\nexport const mine = 2;\nexport const dead = 3;\nexport type Shape = { n: number };\nconst x: Shape = { n: mine };\nexport { x };\n`);
  write('src/b.ts', `import { used, type Shape } from './a.js';\nexport { x as y } from './a.js';\nexport const b: Shape = { n: used };\n`);
  write('src/c.ts', `export const viaBarrel = 1;\n`);
  write('src/barrel.ts', `export * from './c.js';\n`);
  write('src/lone.ts', `export const alone = 1;\n`);
  write('test/t.test.ts', `import { b } from '../src/b.js';\nimport { viaBarrel } from '../src/barrel.js';\nconst script = "import { alone } from 'dist/lone.js'";\n`);

  it('finds the names no other file uses, whether their own file does, and the unreachable files', () => {
    const project = readProject(root);
    const dead = unusedElsewhere(exportUses(project)).map((u) => `${u.file}: ${u.name}${u.usedInOwnFile ? '' : ' (unused)'}`);
    expect(dead.sort()).toEqual(['src/a.ts: dead (unused)', 'src/a.ts: mine', 'src/a.ts: x (unused)', 'src/b.ts: y (unused)']);
    expect(unreachableFiles(root, project)).toEqual([]);
    write('src/orphan.ts', 'export const o = 1;\n');
    expect(unreachableFiles(root, readProject(root))).toEqual(['src/orphan.ts']);
  });
});
