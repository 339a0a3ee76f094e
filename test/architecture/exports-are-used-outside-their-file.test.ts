import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from './import-graph.js';
import { exportUses, readProject, seamProblems, unreachableFiles, unusedElsewhere, usedOnlyByTooling, type Seam } from './export-usage.js';

// An exported name says "another file needs me". One that no other file uses is a public surface nobody reads:
// the reader of the file has to look for callers that do not exist, and the name cannot be renamed or removed
// without that search. Drop the `export` (or the code, if its own file does not use it either).

// Every folder of src/ is checked: src/api, src/pipeline and src/shared/failure-policy.ts were left out until
// 2026-11-28, when they held 111 such names and an API barrel (src/api/index.ts) no file imported.

// A value of src/ that only tests and benchmarks take is code the image ships for them alone, and a test that
// reaches past what the product calls. A test goes through the function src/ uses where that exercises the same
// rule; a constant it needs is the documented one or read from behaviour; a helper the product has no use for
// lives in test/support or bench/. What is left is a seam, named here once with why a test needs it. Types are
// not counted: the build erases them. On 2026-11-28 there were 80 such values (and 26 types), 12 of them a barrel
// passing on a name only tests took.

/** The seams of src/: values exported for tests and benchmarks alone. */
const SEAMS: readonly Seam[] = [
  { file: 'src/input/documents.ts', name: 'parseDocuments', why: 'the documents list read from bytes in memory: readDocuments\' rules without a file, for the list reader\'s unit tests' },
  { file: 'src/api/responses.ts', name: 'parseResponsesPage', why: 'a responses page as the client reads it, each item keeping its text: tests and benches feed the loader and the sweep without HTTP' },
  { file: 'src/cli/sandbox-args.ts', name: 'parseSandboxArgs', why: 'the sandbox\'s flags read without starting a sandbox, which runSandboxCli does' },
  { file: 'src/pipeline/commands.ts', name: 'stagesFor', why: 'the stages a command runs and what each needs, without running them' },
  { file: 'src/pipeline/stage.ts', name: 'STAGE_NAMES', why: 'every stage there is, for the test that run_stages.stage\'s comment names each' },
  { file: 'src/pipeline/tracking/read-runs.ts', name: 'boundOf', why: 'the end of a trackings read found on its own, its calls counted, on a scripted listing' },
  { file: 'src/pipeline/transfer.ts', name: 'CrashSignal', why: 'what a test\'s onLoaded hook throws to end a transfer run as a kill would, between a file\'s load and its PATCH' },
  { file: 'src/shared/failure-policy.ts', name: 'FAILURE_RULES', why: 'the policy\'s table itself: its test holds every API code to a rule and every passing failure to an item\'s reach' },
  { file: 'src/shared/logger.ts', name: 'REDACT_PATHS', why: 'test loggers write to a sink with the product\'s redaction, so that a log a test reads is what the product writes' },
  { file: 'src/shared/progress.ts', name: 'renderBar', why: 'one progress line from a snapshot, without a terminal' },
  { file: 'src/shared/progress.ts', name: 'EtaMeter', why: 'the time-left estimate on a fake clock' },
  { file: 'src/warehouse/merge.ts', name: 'mergeStatements', why: 'the merges derived from any declaration: adding-a-column-is-one-edit derives them from an edited copy' },
  { file: 'src/warehouse/schema/staging.ts', name: 'stageColumns', why: 'the staging tables derived from any declaration, for the same test' },
  { file: 'src/warehouse/schema/exports.ts', name: 'exportTables', why: 'the exports derived from any declaration, for the same test' },
  { file: 'src/warehouse/rebuild.ts', name: 'DERIVED_TABLES', why: 'the tables rebuild says it derives: its test compares each one before and after' },
];

/** Issue 39: at most this many values of src/ exported for tests alone. */
const MAX_SEAMS = 20;

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

  const toolingTypes = usedOnlyByTooling(uses).filter((u) => u.typeOnly).length;
  it(`only tests and benchmarks take are the seams named above, each still one, at most ${MAX_SEAMS} (${toolingTypes} types they alone take are not counted)`, () => {
    expect(seamProblems(uses, SEAMS, MAX_SEAMS)).toEqual([]);
  });
});

/** A project of a few files in a folder of its own, removed when the block's tests end. */
function scratchProject(prefix: string): { root: string; write: (file: string, text: string) => void } {
  const root = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return {
    root,
    write: (file, text) => {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    },
  };
}

describe('the check itself', () => {
  const { root, write } = scratchProject('exports-');
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

describe('the check of the seams itself', () => {
  const { root, write } = scratchProject('seams-');
  write('src/lib/s.ts', 'export const seam = 1;\nexport const stray = 2;\nexport const nowUsed = 3;\nexport const unused = 4;\nexport type Alias = { n: number };\nexport interface Shape { n: number }\n');
  write('src/lib/user.ts', `import { nowUsed } from './s.js';\nexport const u = nowUsed;\n`);
  write('src/lib/passed.ts', `interface Local { a: 1 }\nexport type { Local };\nexport { type Shape as S2, seam as seam2 } from './s.js';\n`);
  write('test/t.test.ts', `import { seam, stray, nowUsed, type Alias, type Shape } from '../src/lib/s.js';\nimport { seam2, type S2, type Local } from '../src/lib/passed.js';\n`);
  const uses = exportUses(readProject(root));
  const seam = (file: string, name: string, why = 'a test needs it'): Seam => ({ file, name, why });

  it('tells a type from a value, whether declared, listed or passed on', () => {
    const kinds = Object.fromEntries(uses.map((u) => [`${u.file}: ${u.name}`, u.typeOnly]));
    expect(kinds).toMatchObject({
      'src/lib/s.ts: seam': false, 'src/lib/s.ts: Alias': true, 'src/lib/s.ts: Shape': true,
      'src/lib/passed.ts: Local': true, 'src/lib/passed.ts: S2': true, 'src/lib/passed.ts: seam2': false,
    });
  });

  it('passes a list naming every value only tests take, and counts no type', () => {
    expect(seamProblems(uses, [seam('src/lib/s.ts', 'seam'), seam('src/lib/s.ts', 'stray'), seam('src/lib/passed.ts', 'seam2')], 3)).toEqual([]);
  });

  it('fails on a value left off, an entry no longer needed or given no reason, one named twice, and a list too long', () => {
    const problems = seamProblems(uses, [
      seam('src/lib/s.ts', 'seam'), seam('src/lib/s.ts', 'seam'), seam('src/lib/passed.ts', 'seam2', ' '),
      seam('src/lib/s.ts', 'nowUsed'), seam('src/lib/s.ts', 'unused'), seam('src/lib/s.ts', 'Alias'), seam('src/lib/gone.ts', 'gone'),
    ], 6);
    expect(problems).toEqual([
      'src/lib/s.ts: stray is used only by test/t.test.ts: reach it through what src/ calls, or name it a seam with why',
      'src/lib/passed.ts: seam2 is a seam with no reason given',
      'src/lib/s.ts: nowUsed is a seam but src/ uses it now (src/lib/user.ts): drop the entry',
      'src/lib/s.ts: unused is a seam but no other file uses it: drop the export and the entry',
      'src/lib/s.ts: Alias is a seam but a type, which the image does not ship: drop the entry',
      'src/lib/gone.ts: gone is a seam but is exported no more: drop the entry',
      'src/lib/s.ts: seam is named 2 times among the seams',
      '7 seams, more than the 6 allowed',
    ]);
  });
});
