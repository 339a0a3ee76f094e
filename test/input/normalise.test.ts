import { describe, expect, it } from 'vitest';
import { normaliseKey } from '../../src/input/normalise.js';

describe('keys normalised per search type', () => {
  it('CPF and numeric CNPJ keep digits only', () => {
    expect(normaliseKey('cpf', '092.065.297-22')).toEqual({ ok: true, key: '09206529722' });
    expect(normaliseKey('cnpj', '11.222.333/0001-81')).toEqual({ ok: true, key: '11222333000181' });
  });
  it('alphanumeric CNPJ keeps its letters, upper case', () => {
    expect(normaliseKey('cnpj', '12.abc.345/01de-35')).toEqual({ ok: true, key: '12ABC34501DE35' });
  });
  it('CNJ numbers take the punctuated form the API uses for codes', () => {
    expect(normaliseKey('lawsuit_cnj', '07108025520188020001')).toEqual({ ok: true, key: '0710802-55.2018.8.02.0001' });
    expect(normaliseKey('lawsuit_cnj', '5059111-78.2025.4.02.5101')).toEqual({ ok: true, key: '5059111-78.2025.4.02.5101' });
  });
  it('names are trimmed with inner whitespace collapsed', () => {
    expect(normaliseKey('name', '  Maria   da\tSilva ')).toEqual({ ok: true, key: 'Maria da Silva' });
  });
  it('lawsuit ids are lower-cased UUIDs', () => {
    expect(normaliseKey('lawsuit_id', '3F2C1D9E-8A7B-4C6D-9E0F-1A2B3C4D5E6F'))
      .toEqual({ ok: true, key: '3f2c1d9e-8a7b-4c6d-9e0f-1a2b3c4d5e6f' });
  });
  it('OAB takes its one form', () => {
    expect(normaliseKey('oab', 'SP0123456')).toEqual({ ok: true, key: '123456SP' });
  });

  it.each([
    ['cpf', '092.065.297-23', 'CPF check digits do not match (expected 22, got 23)'],
    ['cpf', '11111111111', 'all digits equal'],
    ['cpf', '11222333000181', 'CPF must have 11 digits, got 14'],
    ['cnpj', '12ABC34501DE36', 'CNPJ check digits do not match (expected 35, got 36)'],
    ['cnpj', '092.065.297-22', 'CNPJ must have 14 characters, got 11'],
    ['cnpj', '12ABC34501DEXX', 'two check digits'],
    ['lawsuit_cnj', '0001234-55.2023.8.26.0100', 'CNJ check digits do not match (expected 08, got 55)'],
    ['lawsuit_cnj', '0001234-55.2023.8.26.010', 'CNJ number must have 20 digits, got 19'],
    ['lawsuit_id', 'not-a-uuid', 'UUID'],
    ['name', '12345', 'no letters'],
    ['oab', '123456ZZ', 'ZZ'],
    ['name', '   ', 'empty search_key'],
  ] as const)('%s %j is rejected: %s', (type, key, reason) => {
    const r = normaliseKey(type, key);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toContain(reason);
  });
});
