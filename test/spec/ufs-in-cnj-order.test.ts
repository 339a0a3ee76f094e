import { describe, expect, it } from 'vitest';
import { isUf, UFS } from '../../src/spec/uf.js';

describe('the UFs, declared once', () => {
  it('are the 27 federative units in the order CNJ numbers state courts (REFERENCE.md: 8.26 is SP)', () => {
    expect(UFS).toHaveLength(27);
    expect(new Set(UFS).size).toBe(27);
    expect(UFS.indexOf('AC') + 1).toBe(1);
    expect(UFS.indexOf('DF') + 1).toBe(7);
    expect(UFS.indexOf('RJ') + 1).toBe(19);
    expect(UFS.indexOf('SP') + 1).toBe(26);
    expect(UFS.indexOf('TO') + 1).toBe(27);
  });
  it('are recognised upper case only', () => {
    expect(isUf('SP')).toBe(true);
    expect(isUf('sp')).toBe(false);
    expect(isUf('XX')).toBe(false);
  });
});
