import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocuments, readDocuments } from '../../src/input/documents.js';
import { EtlError } from '../../src/shared/errors.js';
import { exitCodeOfError } from '../support/exit.js';

const enc = (s: string) => new TextEncoder().encode(s);
const reasonAt = (list: ReturnType<typeof parseDocuments>, line: number) => list.rejected.find((r) => r.line === line)?.reason;

describe('the documents list', () => {
  it('reads every column, infers types and normalises keys', () => {
    const list = parseDocuments([
      'search_key,search_type,on_demand,lawsuit_instance,cache_ttl_in_days,label',
      '092.065.297-22,,true,1,7,Client A',
      '12.abc.345/01de-35,cnpj,sim,,,',
      '07108025520188020001,,0,2,0,',
      'SP0123456,,,,,',
      '  Maria   da Silva ,NAME,no,,,  trimmed  ',
      '3F2C1D9E-8A7B-4C6D-9E0F-1A2B3C4D5E6F,,yes,,,',
    ].join('\n'), 'list.csv');
    expect(list.source).toBe('list.csv');
    expect(list.rejected).toEqual([]);
    expect(list.documents).toEqual([
      { line: 2, searchType: 'cpf', searchKey: '09206529722', rawKey: '092.065.297-22', onDemand: true, lawsuitInstance: 1, cacheTtlInDays: 7, label: 'Client A' },
      { line: 3, searchType: 'cnpj', searchKey: '12ABC34501DE35', rawKey: '12.abc.345/01de-35', onDemand: true },
      { line: 4, searchType: 'lawsuit_cnj', searchKey: '0710802-55.2018.8.02.0001', rawKey: '07108025520188020001', onDemand: false, lawsuitInstance: 2, cacheTtlInDays: 0 },
      { line: 5, searchType: 'oab', searchKey: '123456SP', rawKey: 'SP0123456', onDemand: false },
      { line: 6, searchType: 'name', searchKey: 'Maria da Silva', rawKey: 'Maria   da Silva', onDemand: false, label: 'trimmed' },
      { line: 7, searchType: 'lawsuit_id', searchKey: '3f2c1d9e-8a7b-4c6d-9e0f-1a2b3c4d5e6f', rawKey: '3F2C1D9E-8A7B-4C6D-9E0F-1A2B3C4D5E6F', onDemand: true },
    ]);
  });

  it('rejects each kind of bad line with its line number and reason, and keeps the good lines after them', () => {
    const bytes = new Uint8Array([
      ...enc([
        'search_key,search_type,on_demand,lawsuit_instance,cache_ttl_in_days',
        '092.065.297-23,,,,', // 2 bad CPF check digit
        '11222333000181,company,,,', // 3 unknown type
        ',cpf,,,', // 4 empty key
        '"09206529722,cpf,,,', // 5 broken quoting (a stray quote, paired with the one on line 6)
        '0920652"9722,cpf,,,', // 6 broken quoting (quote inside a field)
      ].join('\n')),
      0x0a, ...enc('Jo'), 0xe3, ...enc('o Silva,name,,,'), // 7 Latin-1, not UTF-8
      ...enc([
        '',
        '09206529722,,maybe,,', // 8 bad on_demand
        '09206529722,,,0,', // 9 bad instance
        '09206529722,,,1st,', // 10 bad instance
        '09206529722,,,,-3', // 11 bad ttl
        '11222333000181,cpf,,,', // 12 type does not match key
        '0001234-55.2023.8.26.0100,,,,', // 13 bad CNJ check digits
        '123456XX,,,,', // 14 OAB with unknown state
        '12345,,,,', // 15 no recognisable shape
        '092.065.297-22,,,,', // 16 good
        '11.222.333/0001-81,,1,,', // 17 good
        'José Souza,,,,', // 18 good: UTF-8, so the file is UTF-8 and line 7 alone is not
      ].join('\n')),
    ]);
    const list = parseDocuments(bytes);
    expect(list.rejected.map((r) => r.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(reasonAt(list, 2)).toBe('CPF check digits do not match (expected 22, got 23)');
    expect(reasonAt(list, 3)).toMatch(/unknown search_type "company".*cpf, cnpj, oab, name, lawsuit_cnj, lawsuit_id/);
    expect(reasonAt(list, 4)).toBe('empty search_key');
    expect(reasonAt(list, 5)).toMatch(/quote opened on line 5 closes on line 6/);
    expect(reasonAt(list, 6)).toMatch(/quote character inside an unquoted field/);
    expect(reasonAt(list, 7)).toBe('not valid UTF-8 (save the file as UTF-8)');
    expect(reasonAt(list, 8)).toMatch(/on_demand "maybe"/);
    expect(reasonAt(list, 9)).toMatch(/lawsuit_instance "0" is not a positive integer/);
    expect(reasonAt(list, 10)).toMatch(/lawsuit_instance "1st"/);
    expect(reasonAt(list, 11)).toMatch(/cache_ttl_in_days "-3"/);
    expect(reasonAt(list, 12)).toBe('CPF must have 11 digits, got 14 (the key looks like cnpj)');
    expect(reasonAt(list, 13)).toBe('CNJ check digits do not match (expected 08, got 55)');
    expect(reasonAt(list, 14)).toMatch(/"XX" is not a Brazilian UF/);
    expect(reasonAt(list, 15)).toMatch(/cannot tell the search type/);
    expect(list.rejected.find((r) => r.line === 2)?.value).toBe('092.065.297-23,,,,');
    expect(list.rejected.find((r) => r.line === 7)?.value).toBe('Jo\ufffdo Silva,name,,,');
    expect(list.documents.map((d) => [d.line, d.searchType, d.searchKey, d.onDemand])).toEqual([
      [16, 'cpf', '09206529722', false],
      [17, 'cnpj', '11222333000181', true],
      [18, 'name', 'José Souza', false],
    ]);
  });

  it('rejects an unterminated quote on the last lines and keeps the lines after it', () => {
    const list = parseDocuments('search_key,label\n092.065.297-22,"open\n11.222.333/0001-81,x\n');
    expect(list.rejected).toMatchObject([{ line: 2, value: '092.065.297-22,"open' }]);
    expect(list.rejected[0].reason).toMatch(/unterminated quoted field/);
    expect(list.documents.map((d) => [d.line, d.searchKey])).toEqual([[3, '11222333000181']]);
  });

  it('reports every problem of one line at once', () => {
    const list = parseDocuments('search_key,on_demand,lawsuit_instance\n092.065.297-23,perhaps,-1\n');
    expect(list.rejected).toHaveLength(1);
    expect(list.rejected[0].reason.split('; ')).toHaveLength(3);
  });

  it('searches a duplicate once and records where it was first seen', () => {
    const list = parseDocuments([
      'search_key,search_type,on_demand,lawsuit_instance',
      '092.065.297-22,,,',
      '09206529722,cpf,false,', // same search, other spelling
      '09206529722,,true,', // on demand: a different search
      '09206529722,,,2', // one instance: a different search
      '0710802-55.2018.8.02.0001,,,',
      '07108025520188020001,lawsuit_cnj,no,',
      '092.065.297-22,,1,',
    ].join('\r\n'));
    expect(list.documents.map((d) => d.line)).toEqual([2, 4, 5, 6]);
    expect(list.duplicates).toEqual([
      { line: 3, firstLine: 2, key: '09206529722' },
      { line: 7, firstLine: 6, key: '0710802-55.2018.8.02.0001' },
      { line: 8, firstLine: 4, key: '09206529722' },
    ]);
    expect(list.rejected).toEqual([]);
  });

  it('reads a BOM, CRLF, semicolon file with case-insensitive padded header names and extra columns', () => {
    const text = '\ufeff Search_Key ;Notes;ON_DEMAND\r\n092.065.297-22;"has ; inside";sim\r\n\r\n11.222.333/0001-81;x;\r\n';
    const list = parseDocuments(enc(text));
    expect(list.rejected).toEqual([]);
    expect(list.documents.map((d) => [d.line, d.searchKey, d.onDemand])).toEqual([[2, '09206529722', true], [4, '11222333000181', false]]);
  });

  it('skips blank lines and rows of empty cells silently', () => {
    const list = parseDocuments('search_key,label\n\n,\n  ,  \n092.065.297-22,a\n\n');
    expect(list.rejected).toEqual([]);
    expect(list.documents.map((d) => d.line)).toEqual([5]);
  });

  it('rejects a line with more values than the header has columns', () => {
    const list = parseDocuments('search_key,search_type\nSilva, Maria,name\n092.065.297-22,cpf,\n');
    expect(list.rejected).toMatchObject([{ line: 2, value: 'Silva, Maria,name' }]);
    expect(list.rejected[0].reason).toMatch(/3 fields but the header has 2/);
    expect(list.documents.map((d) => d.line)).toEqual([3]);
  });

  it('cuts a rejected value to 500 characters', () => {
    const list = parseDocuments(`search_key\n${'x1'.repeat(400)}\n`);
    expect(list.rejected[0].value).toHaveLength(500);
  });

  it('refuses a file whose header has no search_key, naming the file and the header', () => {
    const err = (() => { try { parseDocuments('cpf,label\n09206529722,a\n', 'clients.csv'); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(EtlError);
    expect(err).toMatchObject({ code: 'INPUT_NO_SEARCH_KEY' });
    expect(exitCodeOfError(err)).toBe(2);
    expect((err as Error).message).toContain('clients.csv');
    expect((err as Error).message).toContain('"cpf", "label"');
  });

  it('refuses an empty file and a UTF-16 file as whole-file errors', () => {
    expect(() => parseDocuments('\n\n')).toThrow(expect.objectContaining({ code: 'INPUT_NO_SEARCH_KEY' }));
    const utf16 = new Uint8Array([0xff, 0xfe, ...[...'search_key\n'].flatMap((c) => [c.charCodeAt(0), 0])]);
    expect(() => parseDocuments(utf16)).toThrow(expect.objectContaining({ code: 'INPUT_ENCODING' }));
  });
});

describe('reading the documents list from disk', () => {
  const dirP = mkdtemp(join(tmpdir(), 'documents-'));
  afterAll(async () => rm(await dirP, { recursive: true, force: true }));

  it('reads a file and names it as the source', async () => {
    const path = join(await dirP, 'list.csv');
    await writeFile(path, 'search_key\n092.065.297-22\nbad"key\n');
    const list = await readDocuments(path);
    expect(list.source).toBe(path);
    expect(list.documents.map((d) => d.searchKey)).toEqual(['09206529722']);
    expect(list.rejected.map((r) => r.line)).toEqual([3]);
  });

  it('a missing file is a configuration error', async () => {
    const missing = await readDocuments(join(await dirP, 'nope.csv')).then(() => undefined, (e: unknown) => e);
    expect(missing).toMatchObject({ code: 'INPUT_NOT_FOUND' });
    expect(exitCodeOfError(missing)).toBe(2);
  });
});
