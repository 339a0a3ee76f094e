import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// The import graph of a source tree as TypeScript's own pre-processor reads it (static imports, `export … from`,
// `import type`, dynamic `import('…')`), and the pure checks the architecture test makes on it. Type-only
// imports count: a cycle of types is a knot a reader has to untie all the same.

/** Paths relative to the project root, POSIX separators, `.ts` (an ESM specifier's `.js` mapped back). */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** Every `.ts` file under `dir` (relative to `root`) and the files of the project it imports. */
export function readImportGraph(root: string, dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of tsFiles(join(root, dir))) {
    const from = toPosix(relative(root, file));
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((f) => f.fileName)
      .filter((s) => s.startsWith('./') || s.startsWith('../'))
      .map((s) => posix.normalize(posix.join(posix.dirname(from), s)).replace(/\.js$/, '.ts'));
    graph.set(from, [...new Set(targets)].sort());
  }
  return graph;
}

/** Every `.ts` file under `dir` (relative to `root`) and the packages and Node modules it imports, as written. */
export function readPackageImports(root: string, dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of tsFiles(join(root, dir))) {
    const specs = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((f) => f.fileName);
    graph.set(toPosix(relative(root, file)), [...new Set(specs.filter((s) => !s.startsWith('.')))].sort());
  }
  return graph;
}

export function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

export const toPosix = (p: string): string => p.split(sep).join('/');

/** Files that import each other round (a strongly connected component), and one cycle through them to show. */
export interface ImportCycle {
  /** Every file of the knot, sorted. */
  files: string[];
  /** A shortest path from the first file back to it, e.g. `[a, b, a]`. */
  path: string[];
}

/**
 * The import cycles of `graph`, one per strongly connected component (Tarjan's algorithm, iterative), sorted by
 * first file. A file that imports itself is a cycle of one.
 */
export function importCycles(graph: ImportGraph): ImportCycle[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  const edges = (n: string): readonly string[] => (graph.get(n) ?? []).filter((m) => graph.has(m));

  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; i: number }> = [{ node: start, i: 0 }];
    index.set(start, next); low.set(start, next); next++;
    stack.push(start); onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1];
      const out = edges(top.node);
      if (top.i < out.length) {
        const m = out[top.i++];
        if (!index.has(m)) {
          index.set(m, next); low.set(m, next); next++;
          stack.push(m); onStack.add(m);
          work.push({ node: m, i: 0 });
        } else if (onStack.has(m)) low.set(top.node, Math.min(low.get(top.node)!, index.get(m)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let m: string;
        do { m = stack.pop()!; onStack.delete(m); component.push(m); } while (m !== top.node);
        if (component.length > 1 || edges(top.node).includes(top.node)) components.push(component.sort());
      }
    }
  }
  return components
    .map((files) => ({ files, path: cycleWithin(graph, new Set(files), files[0]) }))
    .sort((a, b) => a.files[0].localeCompare(b.files[0]));
}

/** A shortest path from `start` back to itself through `members` (breadth first). */
function cycleWithin(graph: ImportGraph, members: ReadonlySet<string>, start: string): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const n = queue.shift()!;
    for (const m of graph.get(n) ?? []) {
      if (!members.has(m)) continue;
      if (m === start) {
        const chain: string[] = [];
        for (let k: string | undefined = n; k !== undefined && k !== start; k = cameFrom.get(k)) chain.unshift(k);
        return [start, ...chain, start];
      }
      if (!cameFrom.has(m)) { cameFrom.set(m, n); queue.push(m); }
    }
  }
  return [start, start];
}

/** The imports of files under `dir` that leave it (tooling and tests live outside, and production code needs neither). */
export function importsLeaving(graph: ImportGraph, dir: string): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    if (!from.startsWith(`${dir}/`)) continue;
    for (const to of targets) if (!to.startsWith(`${dir}/`)) out.push(`${from} -> ${to}`);
  }
  return out.sort();
}

export const projectRoot = (): string => join(dirname(fileURLToPath(import.meta.url)), '..', '..');
