import { describe, expect, it } from 'vitest';
import {
  normalizeCnj, normalizeDocument, normalizeOab, parseCnj, parseCnpj, parseCpf, parseOab, type Parsed,
} from '../../src/spec/identifiers.js';
import { normaliseKey } from '../../src/input/normalise.js';
import { formatCnpj, formatCpf } from '../../src/sandbox/check-digits.js';

// The documents list keys (strict parsers) and the warehouse's payload values (lenient normalisers) must
// meet on one form: a lawyer's OAB in the warehouse equals the OAB a user searched for.
const value = (r: Parsed) => (r.ok ? r.value : `REJECTED: ${r.reason}`);

const CPF = ['092.065.297-22', '09206529722', ' 092 065 297 22 ', '092065297-22', '092.065.297/22'];
const CNPJ = ['11.222.333/0001-81', '11222333000181', '11 222 333 0001 81', '12.ABC.345/01DE-35', '12.abc.345/01de-35', '12ABC34501DE35', 'A1B2C3D4E5F668', 'a1.b2c.3d4/e5f6-68'];
const CNJ = ['0710802-55.2018.8.02.0001', '07108025520188020001', ' 0710802 55 2018 8 02 0001 ', '5059111-78.2025.4.02.5101', '0001234-08.2023.8.26.0100', '0001234/08.2023.8.26.0100'];
const OAB = [
  ['123456SP', '123456SP'], ['SP123456', '123456SP'], ['SP0123456', '123456SP'], ['SP00123456', '123456SP'], ['DF0012345', '12345DF'],
  ['123.456/SP', '123456SP'], ['123456/sp', '123456SP'], ['OAB/SP 123.456', '123456SP'], ['OAB/SP nº 123.456', '123456SP'],
  ['oab-rj 98765', '98765RJ'], ['OAB: MG 42', '42MG'], ['SP 0123456', '123456SP'], ['123456SPA', '123456SPA'], ['SP123456A', '123456SPA'],
  ['123.456/SP-b', '123456SPB'], ['  42mg ', '42MG'],
] as const;

describe('the strict parsers and the lenient normalisers give one form', () => {
  it.each(CPF)('CPF %j', (text) => {
    expect(value(parseCpf(text))).toBe('09206529722');
    expect(normalizeDocument(text)).toBe('09206529722');
    expect(normaliseKey('cpf', text)).toEqual({ ok: true, key: '09206529722' });
  });

  it.each(CNPJ)('CNPJ %j', (text) => {
    const strict = value(parseCnpj(text));
    expect(strict).toMatch(/^[0-9A-Z]{12}\d\d$/);
    expect(normalizeDocument(text)).toBe(strict);
    expect(normaliseKey('cnpj', text)).toEqual({ ok: true, key: strict });
  });

  it.each(CNJ)('CNJ %j', (text) => {
    const strict = value(parseCnj(text));
    expect(strict).toMatch(/^\d{7}-\d\d\.\d{4}\.\d\.\d\d\.\d{4}$/);
    expect(normalizeCnj(text)).toBe(strict);
    expect(normaliseKey('lawsuit_cnj', text)).toEqual({ ok: true, key: strict });
  });

  it.each(OAB)('OAB %j -> %s', (text, form) => {
    expect(value(parseOab(text))).toBe(form);
    expect(normalizeOab(text)).toBe(form);
    // A lawyer listed as a party carries the OAB as the party's document.
    expect(normalizeDocument(text)).toBe(form);
    expect(normaliseKey('oab', text)).toEqual({ ok: true, key: form });
  });

  it('the issue\'s two cases now agree', () => {
    expect(normalizeOab('OAB/SP 123.456')).toBe(value(parseOab('OAB/SP 123.456')));
    expect(normalizeOab('SP00123456')).toBe('123456SP');
  });

  it('the normal forms are fixed points of every reader, and format back to the punctuated forms', () => {
    expect(formatCpf('09206529722')).toBe('092.065.297-22');
    expect(formatCnpj('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(value(parseCnj('07108025520188020001'))).toBe('0710802-55.2018.8.02.0001');
    for (const text of [...CPF, ...CNPJ]) {
      const n = normalizeDocument(text)!;
      expect(normalizeDocument(n)).toBe(n);
      expect(normalizeDocument(n.length === 11 ? formatCpf(n) : formatCnpj(n))).toBe(n);
    }
    for (const text of CNJ) expect(normalizeCnj(normalizeCnj(text))).toBe(normalizeCnj(text));
    for (const [, form] of OAB) expect(value(parseOab(form))).toBe(form);
  });
});

describe('the lenient normalisers are total', () => {
  it.each([undefined, null, true, {}, [], Number.NaN, Infinity, '', '   '])('%j -> null', (v) => {
    expect(normalizeDocument(v)).toBeNull();
    expect(normalizeOab(v)).toBeNull();
    expect(normalizeCnj(v)).toBeNull();
  });

  it('keeps text it does not recognise as given, trimmed', () => {
    expect(normalizeDocument(' ***.456.789-** ')).toBe('***.456.789-**');
    expect(normalizeDocument('RG 12.345.678-9')).toBe('RG 12.345.678-9');
    expect(normalizeOab(' 123456XX ')).toBe('123456XX');
    expect(normalizeOab('Dr. Fulano')).toBe('Dr. Fulano');
    expect(normalizeCnj('0710802-55.2018.8.02.000')).toBe('0710802-55.2018.8.02.000');
    expect(normalizeCnj('processo 0710802-55.2018.8.02.0001')).toBe('processo 0710802-55.2018.8.02.0001');
  });

  it('forms by shape, not validity: a payload\'s mistyped check digit keeps the one form', () => {
    expect(parseCpf('092.065.297-23').ok).toBe(false);
    expect(normalizeDocument('092.065.297-23')).toBe('09206529723');
    expect(parseCnj('0001234-55.2023.8.26.0100').ok).toBe(false);
    expect(normalizeCnj('00012345520238260100')).toBe('0001234-55.2023.8.26.0100');
  });

  it('reads numbers as JavaScript writes them', () => {
    expect(normalizeDocument(11222333000181)).toBe('11222333000181');
    expect(normalizeOab(42)).toBe('42');
  });
});
