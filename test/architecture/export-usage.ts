import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

// Which exported names of src/ another file uses, read off the syntax of every TypeScript file of the project
// (no type checker: fast, and enough for names). An export nobody else imports is a name made public for no
// reader; one only tests import is code the image ships for the tests alone. A use counts when another file
// imports the name (type-only imports too), re-exports it and that is imported, imports the whole module
// (`import * as`, a dynamic `import()`), or names it in the text of a script it writes for a child process
// beside the module's path.

/** The files read: `src/` and the tooling that may use it. */
export const READ_DIRS = ['src', 'test', 'bench'] as const;

export interface ExportUse {
  /** The exporting file, relative to the root, POSIX separators. */
  file: string;
  name: string;
  /** Other files that use it. */
  usedBy: string[];
  /** The name occurs in its own file beyond its declaration (else dropping `export` leaves it unused). */
  usedInOwnFile: boolean;
  /** An interface or a type alias (or a name passed on as one): erased at build, so the image does not ship it. */
  typeOnly: boolean;
}

export interface Parsed {
  file: string;
  text: string;
  /** Local exports: name -> how many times the identifier occurs in the file. */
  exports: Map<string, number>;
  /** Which of `exports` are types alone (interface, type alias, `export type { … }`); a named re-export is what its source is. */
  types: Set<string>;
  /** `export { a } from './m'` and `export * from './m'`: the name here -> [module, name there]; '*' for all. */
  reexports: Array<{ from: string; names: Array<[string, string]> | '*' }>;
  /** Names this file takes from other modules: module -> names ('*': all of them). */
  imports: Map<string, Set<string>>;
}

const toPosix = (p: string): string => p.split(sep).join('/');

function tsFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : tsFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const resolveSpecifier = (from: string, spec: string): string | undefined =>
  (spec.startsWith('./') || spec.startsWith('../') ? posix.normalize(posix.join(posix.dirname(from), spec)).replace(/\.js$/, '.ts') : undefined);

const hasModifier = (node: ts.Node, kind: ts.SyntaxKind): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);

function parse(root: string, path: string): Parsed {
  const file = toPosix(relative(root, path));
  const text = readFileSync(path, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const declared: string[] = [];
  const types = new Set<string>();
  // Interfaces and type aliases of the file, exported or not, for an `export { Name }` list that names one.
  const localTypes = new Set(sf.statements.filter((st) => ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st))
    .map((st) => (st as ts.InterfaceDeclaration | ts.TypeAliasDeclaration).name.text));
  const reexports: Parsed['reexports'] = [];
  const imports = new Map<string, Set<string>>();
  const take = (mod: string | undefined, names: Iterable<string>): void => {
    if (!mod) return;
    const set = imports.get(mod) ?? new Set<string>();
    for (const n of names) set.add(n);
    imports.set(mod, set);
  };
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const mod = resolveSpecifier(file, st.moduleSpecifier.text);
      const clause = st.importClause;
      if (!clause) continue;
      const names: string[] = [];
      if (clause.name) names.push('default');
      const b = clause.namedBindings;
      if (b && ts.isNamespaceImport(b)) names.push('*');
      if (b && ts.isNamedImports(b)) for (const e of b.elements) names.push((e.propertyName ?? e.name).text);
      take(mod, names);
    } else if (ts.isExportDeclaration(st)) {
      const mod = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? resolveSpecifier(file, st.moduleSpecifier.text) : undefined;
      if (mod) {
        if (!st.exportClause) reexports.push({ from: mod, names: '*' });
        else if (ts.isNamedExports(st.exportClause)) {
          reexports.push({ from: mod, names: st.exportClause.elements.map((e) => [e.name.text, (e.propertyName ?? e.name).text]) });
          // A name passed on is this file's export too: one nobody takes from here is a line to drop.
          for (const e of st.exportClause.elements) {
            declared.push(e.name.text);
            if (st.isTypeOnly || e.isTypeOnly) types.add(e.name.text);
          }
        } else reexports.push({ from: mod, names: '*' });
      } else if (st.exportClause && ts.isNamedExports(st.exportClause)) {
        for (const e of st.exportClause.elements) {
          declared.push(e.name.text);
          if (st.isTypeOnly || e.isTypeOnly || localTypes.has((e.propertyName ?? e.name).text)) types.add(e.name.text);
        }
      }
    } else if (ts.isExportAssignment(st)) {
      declared.push('default');
    } else if (hasModifier(st, ts.SyntaxKind.ExportKeyword)) {
      if (hasModifier(st, ts.SyntaxKind.DefaultKeyword)) declared.push('default');
      else if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) declared.push(d.name.text);
      } else if ('name' in st && st.name && ts.isIdentifier(st.name as ts.Node)) {
        declared.push((st.name as ts.Identifier).text);
        if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) types.add(st.name.text);
      }
    }
  }
  // A dynamic import takes the whole module (what it destructures is not worth following).
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteral(n.arguments[0])) {
      take(resolveSpecifier(file, n.arguments[0].text), ['*']);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  const exports = new Map(declared.map((name) => [name, occurrences(sf, name)]));
  return { file, text, exports, types, reexports, imports };
}

/** How many identifiers of `sf` spell `name`, outside `export { … }` lists (which only pass a name on). */
function occurrences(sf: ts.SourceFile, name: string): number {
  let n = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isExportSpecifier(node)) return;
    if (ts.isIdentifier(node) && node.text === name) n++;
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return n;
}

/** The parsed TypeScript files of the project, by path. */
export type Project = ReadonlyMap<string, Parsed>;

export function readProject(root: string): Project {
  return new Map(READ_DIRS.flatMap((d) => tsFiles(join(root, d))).map((p) => parse(root, p)).map((p) => [p.file, p]));
}

/**
 * Files under `dir` that no other file imports and no file of the project names by its built path (an entry
 * point is named: package.json's bin, the Dockerfile, a test that spawns it): a module nobody can reach.
 */
export function unreachableFiles(root: string, parsed: Project, dir = 'src'): string[] {
  const texts = [...parsed.values()].map((p) => p.text);
  for (const extra of ['package.json', 'Dockerfile']) {
    try {
      texts.push(readFileSync(join(root, extra), 'utf8'));
    } catch {
      // not every project has both
    }
  }
  const imported = new Set([...parsed.values()].flatMap((p) => [...p.imports.keys(), ...p.reexports.map((r) => r.from)]));
  return [...parsed.keys()].filter((f) => f.startsWith(`${dir}/`) && !imported.has(f))
    .filter((f) => !texts.some((t) => t.includes(f.slice(`${dir}/`.length).replace(/\.ts$/, '.js')))).sort();
}

/** Every exported name of the files under `dir` (e.g. 'src'), with the other files that use it. */
export function exportUses(parsed: Project, dir = 'src'): ExportUse[] {
  const used = new Map<string, Set<string>>();
  const key = (file: string, name: string): string => `${file}\0${name}`;
  const mark = (file: string, name: string, by: string, seen = new Set<string>()): void => {
    const k = key(file, name);
    if (seen.has(k)) return;
    seen.add(k);
    const target = parsed.get(file);
    if (!target) return;
    if (name === '*') {
      for (const n of target.exports.keys()) mark(file, n, by, seen);
      for (const r of target.reexports) mark(r.from, '*', by, seen);
      return;
    }
    if (target.exports.has(name)) (used.get(k) ?? used.set(k, new Set()).get(k)!).add(by);
    for (const r of target.reexports) {
      if (r.names === '*') mark(r.from, name, by, seen);
      else for (const [here, there] of r.names) if (here === name) mark(r.from, there, by, seen);
    }
  };
  for (const p of parsed.values()) {
    for (const [mod, names] of p.imports) for (const n of names) mark(mod, n, p.file, new Set());
    // A script written for a child process imports the built module by path: a name it spells beside that path.
    for (const target of parsed.values()) {
      if (target.file === p.file || !target.file.startsWith('src/')) continue;
      const built = `${target.file.slice('src/'.length).replace(/\.ts$/, '.js')}`;
      if (!p.text.includes(built) || p.imports.has(target.file)) continue;
      for (const n of target.exports.keys()) if (new RegExp(`\\b${n}\\b`).test(p.text)) mark(target.file, n, p.file, new Set());
    }
  }
  return [...parsed.values()].filter((p) => p.file.startsWith(`${dir}/`)).flatMap((p) => [...p.exports].map(([name, count]) => ({
    file: p.file,
    name,
    usedBy: [...(used.get(key(p.file, name)) ?? [])].filter((f) => f !== p.file).sort(),
    usedInOwnFile: count > 1,
    typeOnly: isTypeOnly(parsed, p.file, name),
  })));
}

/** Whether `name` as `file` exports it is a type alone, following a named re-export to its source. */
function isTypeOnly(parsed: Project, file: string, name: string, seen = new Set<string>()): boolean {
  const p = parsed.get(file);
  if (!p || seen.has(`${file}\0${name}`)) return false;
  seen.add(`${file}\0${name}`);
  if (p.types.has(name)) return true;
  for (const r of p.reexports) {
    if (r.names === '*') continue;
    for (const [here, there] of r.names) if (here === name) return isTypeOnly(parsed, r.from, there, seen);
  }
  return false;
}

/** Exports no other file uses. */
export const unusedElsewhere = (uses: readonly ExportUse[]): ExportUse[] => uses.filter((u) => u.usedBy.length === 0);

/** Exports only files outside src/ (tests, benchmarks) use. */
export const usedOnlyByTooling = (uses: readonly ExportUse[]): ExportUse[] =>
  uses.filter((u) => u.usedBy.length > 0 && u.usedBy.every((f) => !f.startsWith('src/')));

/**
 * A value of src/ exported for tests or benchmarks alone: a way into the shipped code that the product itself does
 * not take, named with why a test needs it rather than what src/ calls.
 */
export interface Seam { file: string; name: string; why: string }

/**
 * What is wrong with `seams` against the exports as they are, one sentence each: a value only tooling uses that
 * the list does not name; an entry src/ now uses, that no file uses, that is exported no more, that is a type
 * (erased at build: the image does not ship it, so it is no seam), or that is named twice; a list over `max`.
 */
export function seamProblems(uses: readonly ExportUse[], seams: readonly Seam[], max: number): string[] {
  const problems: string[] = [];
  const key = (file: string, name: string): string => `${file}: ${name}`;
  const listed = new Map<string, number>();
  for (const s of seams) listed.set(key(s.file, s.name), (listed.get(key(s.file, s.name)) ?? 0) + 1);
  for (const u of usedOnlyByTooling(uses)) {
    if (!u.typeOnly && !listed.has(key(u.file, u.name))) {
      problems.push(`${key(u.file, u.name)} is used only by ${u.usedBy.join(', ')}: reach it through what src/ calls, or name it a seam with why`);
    }
  }
  const byKey = new Map(uses.map((u) => [key(u.file, u.name), u]));
  for (const s of seams) {
    const u = byKey.get(key(s.file, s.name));
    const fromSrc = u?.usedBy.filter((f) => f.startsWith('src/')) ?? [];
    if (!u) problems.push(`${key(s.file, s.name)} is a seam but is exported no more: drop the entry`);
    else if (u.typeOnly) problems.push(`${key(s.file, s.name)} is a seam but a type, which the image does not ship: drop the entry`);
    else if (fromSrc.length > 0) problems.push(`${key(s.file, s.name)} is a seam but src/ uses it now (${fromSrc.join(', ')}): drop the entry`);
    else if (u.usedBy.length === 0) problems.push(`${key(s.file, s.name)} is a seam but no other file uses it: drop the export and the entry`);
    if (s.why.trim() === '') problems.push(`${key(s.file, s.name)} is a seam with no reason given`);
  }
  for (const [k, n] of listed) if (n > 1) problems.push(`${k} is named ${n} times among the seams`);
  if (seams.length > max) problems.push(`${seams.length} seams, more than the ${max} allowed`);
  return problems;
}
