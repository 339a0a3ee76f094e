import type { ImportGraph } from './import-graph.js';

// ARCHITECTURE.md's table of src/'s folders is the one declaration of which folder may import which: this reads
// it (the backquoted folders of its last column) and checks an import graph against it. Nothing here knows the
// folders' names, so a rule changes by editing the table alone.

/**
 * One row of the table: files of `folder` (e.g. `src/api`) may import files of these folders, or of any; and
 * packages, unless `packages` is false (then Node's own `node:` modules alone).
 */
export interface LayerRule { folder: string; mayImport: readonly string[] | 'everything'; packages: boolean }

/** An edge the document names as breaking its table: `file` imports files of `folder`. */
export interface KnownBreak { file: string; folder: string }

export interface LayerTable { rules: LayerRule[]; knownBreaks: KnownBreak[] }

const ROW = /^\|\s*`(src\/[^`]*?)\/?`\s*\|/;
const BREAK = /^- `(src\/[^`]+\.ts)` → `(src\/[^`]*?)\/?`/;
const FOLDER = /^[a-z][a-z0-9-]*\/$/;

/**
 * The rules and known breaks a document states. The last cell of a row is `everything`, `nothing of ours`, or
 * a comma-separated list of folders in backquotes (`api/`), then optionally `; no package`; anything else in it
 * is an error, so that prose such as "never `api/`" cannot be read as a permission.
 */
export function readLayerTable(markdown: string): LayerTable {
  const rules: LayerRule[] = [];
  const knownBreaks: KnownBreak[] = [];
  for (const line of markdown.split('\n')) {
    const row = ROW.exec(line);
    if (row) {
      const cells = line.split('|').map((c) => c.trim()).filter((c, i, all) => i > 0 && i < all.length - 1);
      const [folders, ...rest] = (cells[cells.length - 1] ?? '').split(';').map((c) => c.trim());
      if (rest.length > 1 || (rest.length === 1 && rest[0] !== 'no package')) {
        throw new Error(`${row[1]}: after "may import"'s folders only "; no package" may follow, not ${JSON.stringify(rest.join(';'))}`);
      }
      rules.push({ folder: row[1], mayImport: mayImport(row[1], folders), packages: rest.length === 0 });
      continue;
    }
    const b = BREAK.exec(line);
    if (b) knownBreaks.push({ file: b[1], folder: b[2] });
  }
  return { rules, knownBreaks };
}

function mayImport(folder: string, cell: string): LayerRule['mayImport'] {
  if (cell === 'everything') return 'everything';
  if (cell === 'nothing of ours') return [];
  const names = cell.split(',').map((s) => s.trim());
  const bad = names.filter((n) => !/^`[^`]+`$/.test(n) || !FOLDER.test(n.slice(1, -1)));
  if (names.length === 0 || bad.length > 0) {
    throw new Error(`${folder}: "may import" must be everything, nothing of ours or a list of \`folder/\`s, not ${JSON.stringify(cell)}`);
  }
  return names.map((n) => `src/${n.slice(1, -2)}`);
}

/** `src/api` for `src/api/rate-limit/state.ts`; `src` for a file directly under src/. */
export function folderOf(file: string): string {
  const parts = file.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** Edges between two folders of src/ the table does not allow and does not list as known, as `a -> b (why)`. */
export function edgesAgainstTable(graph: ImportGraph, table: LayerTable): string[] {
  const rules = new Map(table.rules.map((r) => [r.folder, r]));
  const out: string[] = [];
  for (const [from, targets] of graph) {
    const a = folderOf(from);
    const rule = rules.get(a);
    if (!rule) continue; // foldersOutsideTable names it
    for (const to of targets) {
      const b = folderOf(to);
      if (a === b || !to.startsWith('src/') || !rules.has(b)) continue;
      if (rule.mayImport === 'everything' || rule.mayImport.includes(b)) continue;
      if (table.knownBreaks.some((k) => k.file === from && k.folder === b)) continue;
      const allowed = rule.mayImport.length === 0 ? 'nothing of ours' : rule.mayImport.map((f) => `${f.slice(4)}/`).join(', ');
      out.push(`${from} -> ${to} (${a}/ may import ${allowed}: ARCHITECTURE.md)`);
    }
  }
  return out.sort();
}

/** Folders of the graph with no row (or files directly under src/), and rows naming a folder the graph lacks. */
export function foldersOutsideTable(graph: ImportGraph, table: LayerTable): string[] {
  const inGraph = new Set([...graph.keys()].filter((f) => f.startsWith('src/')).map(folderOf));
  const inTable = new Set(table.rules.map((r) => r.folder));
  const named = table.rules.flatMap((r) => (r.mayImport === 'everything' ? [] : r.mayImport.map((f) => ({ row: r.folder, f }))));
  return [
    ...[...inGraph].filter((f) => !inTable.has(f)).map((f) => `${f}/ has files but no row`),
    ...[...inTable].filter((f) => !inGraph.has(f)).map((f) => `${f}/ has a row but no file`),
    ...named.filter(({ f }) => !inTable.has(f)).map(({ row, f }) => `${row}/ may import ${f}/, which has no row`),
  ].sort();
}

/** Known breaks the graph no longer has: the document should drop them. */
export function breaksNoLongerThere(graph: ImportGraph, table: LayerTable): string[] {
  return table.knownBreaks
    .filter((k) => !(graph.get(k.file) ?? []).some((to) => folderOf(to) === k.folder))
    .map((k) => `${k.file} -> ${k.folder}/ is listed as breaking the table but the file no longer imports it`);
}

/** Packages imported by files of a folder whose row says "no package" (Node's `node:` modules are not packages). */
export function packagesAgainstTable(packages: ImportGraph, table: LayerTable): string[] {
  const bare = new Set(table.rules.filter((r) => !r.packages).map((r) => r.folder));
  const out: string[] = [];
  for (const [from, specs] of packages) {
    if (!bare.has(folderOf(from))) continue;
    for (const s of specs) if (!s.startsWith('node:')) out.push(`${from} -> ${s} (${folderOf(from)}/ imports no package: ARCHITECTURE.md)`);
  }
  return out.sort();
}
