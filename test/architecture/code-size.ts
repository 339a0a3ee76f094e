import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { toPosix, tsFiles } from './import-graph.js';

// How long each function of src/ is and how many fields each class holds, read off the syntax (no type checker).
// A function is counted from its first line (its name, or its first parameter for an arrow function) to the last
// line of its body: declarations, methods, constructors, accessors, arrow functions and function expressions
// alike, each on its own (a function inside another counts in both). A class's fields are its property
// declarations and its constructor's parameter properties (`private readonly x`): what each instance carries.

/** A function's lines or a class's fields. */
export interface Size {
  file: string;
  /** 1-based line where it starts. */
  line: number;
  kind: 'function' | 'class';
  /** Its name; a method's is `Class.method`; an anonymous function's that of the variable or property it is given to. */
  name: string;
  /** Lines of a function, fields of a class. */
  size: number;
}

export interface Limits { functionLines: number; classFields: number }

/**
 * The house's limits: a function a reader takes in on one screen, a class with one concern. Issue 25 set 80 lines;
 * issue 39 brought it to 60, the sixteen functions between the two split into named parts.
 */
export const LIMITS: Limits = { functionLines: 60, classFields: 10 };

const PARAMETER_PROPERTY = new Set([ts.SyntaxKind.PrivateKeyword, ts.SyntaxKind.ProtectedKeyword, ts.SyntaxKind.PublicKeyword, ts.SyntaxKind.ReadonlyKeyword]);

function nameOf(node: ts.Node, sf: ts.SourceFile): string {
  const named = (n: ts.Node): string | undefined => {
    if (ts.isConstructorDeclaration(n)) return 'constructor';
    const name = (n as { name?: ts.Node }).name;
    return name && (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name)) ? name.text : name?.getText(sf);
  };
  const own = named(node);
  if (own !== undefined) {
    const cls = node.parent;
    return (ts.isClassLike(cls) && !ts.isClassLike(node)) ? `${named(cls) ?? '(anonymous class)'}.${own}` : own;
  }
  const p = node.parent;
  if (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) return p.name.getText(sf);
  return '(anonymous)';
}

/** The size of every function and class of one file's text. */
export function measureSource(file: string, text: string): Size[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos: number): number => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const out: Size[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body) {
      const line = lineOf(n.getStart(sf));
      out.push({ file, line, kind: 'function', name: nameOf(n, sf), size: lineOf(n.body.getEnd()) - line + 1 });
    }
    if (ts.isClassLike(n)) {
      const ctor = n.members.find(ts.isConstructorDeclaration);
      const parameterProperties = ctor?.parameters.filter((p) => (ts.getModifiers(p) ?? []).some((m) => PARAMETER_PROPERTY.has(m.kind))).length ?? 0;
      const size = n.members.filter(ts.isPropertyDeclaration).length + parameterProperties;
      out.push({ file, line: lineOf(n.getStart(sf)), kind: 'class', name: nameOf(n, sf), size });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** Every function and class of the TypeScript files under `dir` of `root`, files named from `root`. */
export function measureTree(root: string, dir: string): Size[] {
  return tsFiles(join(root, dir)).sort().flatMap((f) => measureSource(toPosix(relative(root, f)), readFileSync(f, 'utf8')));
}

/** Those over the limits. */
export const oversized = (sizes: readonly Size[], limits: Limits = LIMITS): Size[] =>
  sizes.filter((s) => s.size > (s.kind === 'function' ? limits.functionLines : limits.classFields));

/** A function or class allowed over the limits for now, by file, kind and name (not by size: it changes while it shrinks). */
export interface Allowance { file: string; kind: Size['kind']; name: string; why: string }

const allows = (a: Allowance, s: Size): boolean => a.file === s.file && a.kind === s.kind && a.name === s.name;

const describeSize = (s: Size, limits: Limits): string => (s.kind === 'function'
  ? `${s.file}:${s.line} function ${s.name} is ${s.size} lines (at most ${limits.functionLines})`
  : `${s.file}:${s.line} class ${s.name} has ${s.size} fields (at most ${limits.classFields})`);

/** What is over the limits and not allowed, one line each naming the file, the line, the name and the size. */
export function overTheLimits(sizes: readonly Size[], allowed: readonly Allowance[], limits: Limits = LIMITS): string[] {
  return oversized(sizes, limits).filter((s) => !allowed.some((a) => allows(a, s))).map((s) => describeSize(s, limits));
}

/** Allowances no longer needed: what they name is within the limits now, or is gone. The list only shrinks. */
export function allowancesNoLongerNeeded(sizes: readonly Size[], allowed: readonly Allowance[], limits: Limits = LIMITS): string[] {
  const over = oversized(sizes, limits);
  return allowed.filter((a) => !over.some((s) => allows(a, s)))
    .map((a) => `${a.file} ${a.kind} ${a.name} is allowed over the limits but is within them now (or gone): take it off the list`);
}
