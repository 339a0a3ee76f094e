import { describe, expect, test } from 'vitest';
import { allowancesNoLongerNeeded, LIMITS, measureSource, measureTree, overTheLimits, type Allowance } from './code-size.js';
import { projectRoot } from './import-graph.js';

// STYLE.md: one concept per file, pure cores with thin shells. A function over 60 lines or a class with over 10
// fields is several concepts in one, and a newcomer reads it as one (issues 25 and 39, "Done when"). This reads every
// function and class of src/ (code-size.ts), so a new one over the limits fails here, named with its file, line
// and size. The sandbox's data tables are constants, not functions: they are not counted, whatever their length.

/**
 * Functions and classes allowed over the limits, each named with why. Empty: everything fits. The test fails on an
 * entry that fits again, so that the list only shrinks. Add nothing here: split the function or the class instead.
 */
const BEING_RESHAPED: Allowance[] = [];

describe('the functions and classes of src/', () => {
  const sizes = measureTree(projectRoot(), 'src');

  test('are read whole: every kind of function, methods named with their class, classes with their fields', () => {
    const find = (file: string, name: string) => sizes.find((s) => s.file === file && s.name === name);
    expect(find('src/warehouse/flatten.ts', 'flattenLawsuit')).toMatchObject({ kind: 'function' });
    expect(find('src/input/csv.ts', 'CsvReader.push')).toMatchObject({ kind: 'function' });
    expect(find('src/input/encoding.ts', 'EncodingSniffer')).toMatchObject({ kind: 'class' });
    expect(find('src/input/encoding.ts', 'EncodingSniffer')!.size).toBeGreaterThan(3);
    expect(sizes.filter((s) => s.kind === 'function').length).toBeGreaterThan(1000);
  });

  test(`have no function over ${LIMITS.functionLines} lines and no class over ${LIMITS.classFields} fields (but those being reshaped, listed by name)`, () => {
    expect(overTheLimits(sizes, BEING_RESHAPED)).toEqual([]);
    expect(allowancesNoLongerNeeded(sizes, BEING_RESHAPED)).toEqual([]);
  });
});

describe('the check itself', () => {
  const body = (n: number): string => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
  const text = [
    `export function long(a: number): number {\n${body(58)}\n  return a;\n}`, // 61 lines
    `export function fits(): void {\n${body(58)}\n}`, // 60 lines
    `const arrow = (x: number) => {\n${body(60)}\n};`, // 62 lines, named after its variable
    `export class Wide {\n${Array.from({ length: 9 }, (_, i) => `  f${i} = ${i};`).join('\n')}\n`
      + `  constructor(private readonly a: number, public b: number, c: number) {}\n  m(): void {}\n}`, // 11 fields: c is a parameter only
    `export class Narrow { x = 1; constructor(readonly y: number) {} }`,
    `export const obj = { method() {\n${body(60)}\n} };`,
  ].join('\n');
  const sizes = measureSource('src/toy.ts', text);
  const lineOf = (start: string): number => text.split('\n').findIndex((l) => l.startsWith(start)) + 1;

  test('measure a function from its first line to its body\'s last, and a class by its fields and parameter properties', () => {
    const of = (name: string) => sizes.find((s) => s.name === name)?.size;
    expect([of('long'), of('fits'), of('arrow'), of('Wide'), of('Narrow'), of('Wide.constructor'), of('method')]).toEqual([61, 60, 62, 11, 2, 1, 62]);
  });

  test('report what is over the limits and not allowed, and the allowances no longer needed', () => {
    const allowed: Allowance[] = [
      { file: 'src/toy.ts', kind: 'function', name: 'arrow', why: 'still over' },
      { file: 'src/toy.ts', kind: 'function', name: 'fits', why: 'fits now' },
      { file: 'src/gone.ts', kind: 'class', name: 'Gone', why: 'gone' },
    ];
    expect(overTheLimits(sizes, allowed)).toEqual([
      'src/toy.ts:1 function long is 61 lines (at most 60)',
      `src/toy.ts:${lineOf('export class Wide')} class Wide has 11 fields (at most 10)`,
      `src/toy.ts:${lineOf('export const obj')} function method is 62 lines (at most 60)`,
    ]);
    expect(allowancesNoLongerNeeded(sizes, allowed)).toEqual([
      'src/toy.ts function fits is allowed over the limits but is within them now (or gone): take it off the list',
      'src/gone.ts class Gone is allowed over the limits but is within them now (or gone): take it off the list',
    ]);
  });
});
