import { readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import ts from 'typescript';
import { toPosix, tsFiles } from './import-graph.js';

// The two tiers of the suite. `npm test` runs every test; `npm run test:unit` runs the unit tier: the tests that
// load, directly or through anything of ours they import, none of the things below. Nobody files a test in a
// tier: a test that starts the sandbox, opens DuckDB, spawns a process or opens a socket is out of the unit tier
// by what it imports, and one that does none of these is in it. vitest.config.ts reads the tier from here.

/** What keeps a test out of the unit tier, by the module that brings it (`node:` prefixes dropped). */
export const NOT_UNIT: Readonly<Record<string, (module: string) => boolean>> = {
  'the sandbox': (m) => m.startsWith('src/sandbox/'),
  DuckDB: (m) => m.startsWith('@duckdb/'),
  'a child process': (m) => m === 'child_process',
  'a socket': (m) => ['http', 'https', 'http2', 'net', 'tls', 'dgram'].includes(m),
  'a browser': (m) => m === 'playwright-core',
};

/**
 * Each file's imports still there at run time (`import type` and imports of types alone are erased, so they load
 * nothing): files of the project as paths from `root` (`.js` specifiers mapped back to `.ts`), packages and
 * Node's modules as written, without `node:`.
 */
export function readRuntimeImports(root: string, dirs: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const dir of dirs) {
    for (const file of tsFiles(join(root, dir))) {
      const from = toPosix(relative(root, file));
      const specs = runtimeSpecifiers(ts.createSourceFile(from, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest));
      graph.set(from, [...new Set(specs.map((s) => (s.startsWith('.')
        ? posix.normalize(posix.join(posix.dirname(from), s)).replace(/\.js$/, '.ts')
        : s.replace(/^node:/, ''))))].sort());
    }
  }
  return graph;
}

function runtimeSpecifiers(source: ts.SourceFile): string[] {
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      const c = n.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
      const typesAlone = c !== undefined && (c.isTypeOnly || (!c.name && named !== undefined && named.length > 0 && named.every((e) => e.isTypeOnly)));
      if (!typesAlone) out.push(n.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
      if (!n.isTypeOnly) out.push(n.moduleSpecifier.text);
    } else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = n.arguments;
      if (arg && ts.isStringLiteralLike(arg)) out.push(arg.text);
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return out;
}

/** For each test file (`*.test.ts`) of `graph`, the NOT_UNIT reasons its import closure reaches, sorted; [] is unit. */
export function whatTestsReach(graph: ReadonlyMap<string, readonly string[]>, notUnit = NOT_UNIT): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const test of [...graph.keys()].filter((f) => f.endsWith('.test.ts')).sort()) {
    const seen = new Set<string>();
    const stack = [test];
    while (stack.length > 0) {
      for (const m of graph.get(stack.pop()!) ?? []) if (!seen.has(m)) { seen.add(m); stack.push(m); }
    }
    out.set(test, Object.entries(notUnit).filter(([, brings]) => [...seen].some(brings)).map(([why]) => why).sort());
  }
  return out;
}

/** The unit tier of the project at `root`: its test files that reach none of NOT_UNIT. */
export function unitTests(root: string): string[] {
  return [...whatTestsReach(readRuntimeImports(root, ['src', 'test', 'bench']))].filter(([, why]) => why.length === 0).map(([f]) => f);
}
