import { describe, expect, it } from 'vitest';
import { inferSearchType } from '../../src/input/infer.js';

describe('search type inferred from the key shape', () => {
  it.each([
    ['09206529722', 'cpf'],
    ['092.065.297-22', 'cpf'],
    [' 092.065.297-22 ', 'cpf'],
    ['11222333000181', 'cnpj'],
    ['11.222.333/0001-81', 'cnpj'],
    ['12ABC34501DE35', 'cnpj'],
    ['12.ABC.345/01DE-35', 'cnpj'],
    ['12.abc.345/01de-35', 'cnpj'],
    ['07108025520188020001', 'lawsuit_cnj'],
    ['0710802-55.2018.8.02.0001', 'lawsuit_cnj'],
    ['123456SP', 'oab'],
    ['SP123456', 'oab'],
    ['DF0012345', 'oab'],
    ['123.456/SP', 'oab'],
    ['123456SPA', 'oab'],
    ['OAB/SP 123456', 'oab'],
    ['3f2c1d9e-8a7b-4c6d-9e0f-1a2b3c4d5e6f', 'lawsuit_id'],
    ['3F2C1D9E-8A7B-4C6D-9E0F-1A2B3C4D5E6F', 'lawsuit_id'],
    ['Maria da Silva', 'name'],
    ['JOÃO D’ÁVILA', 'name'],
    ['Comércio & Cia. Ltda', 'name'],
  ])('%s -> %s', (key, type) => {
    expect(inferSearchType(key)).toBe(type);
  });

  it.each([[''], ['   '], ['12345'], ['123456789012'], ['Empresa 123'], ['12ABC34501DE3X'], ['@@@']])(
    '%j has no recognisable shape', (key) => {
      expect(inferSearchType(key)).toBeUndefined();
    });

  it('tells an invalid CPF is still a CPF by shape (validation comes later)', () => {
    expect(inferSearchType('092.065.297-23')).toBe('cpf');
  });
});
