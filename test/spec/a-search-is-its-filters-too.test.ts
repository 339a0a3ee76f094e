import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocuments } from '../../src/input/documents.js';
import { documentIdentity, searchFor } from '../../src/input/search-body.js';
import { sameSearch } from '../../src/api/search-match.js';
import { documentTrackingKey, trackingKey } from '../../src/pipeline/tracking/identity.js';
import { searchIdentity } from '../../src/spec/identifiers.js';
import type { Search } from '../../src/spec/types.js';

// A search's identity (src/spec/search-identity.ts) includes what it asks besides its key: its filters, its
// credential, masked_response and with_attachments. One document with two filter sets is two searches, bought
// twice; one filter set written two ways — tribunals in another order, case or spelling, codes with leading
// zeros, 150000 or 150.000,00, a date as 2024-01-31 or 31/01/2024 — is one, bought once. A search asking nothing
// besides keeps the identity the ledger has always stored, so an old warehouse buys nothing again.

const CNPJ = '11222333000181';
const HEADER = 'search_key,search_type,side,amount_gte,amount_lte,tribunals,subject_codes,classification_codes,distribution_date_gte,customer_key,masked_response';

/** One filter set as the list may write it: each field a few ways, all meaning the same. */
interface Written { side: string; amount: string; tribunals: string; subjects: string; classes: string; date: string; key: string; masked: string }

const SIDE = ['Passive', 'passive', 'PASSIVE', 'passivo'];
const AMOUNT = ['150000', '150000.00', '"150.000,00"', '"150,000.00"', '"150000,0"', 'R$150000'];
const TRIBUNAL_SPELLINGS: Record<string, string[]> = {
  TJSP: ['TJSP', 'tjsp', ' TjSp '], TRT2: ['TRT2', 'trt02', 'TRT-2'], 'TRE-SP': ['TRE-SP', 'tresp', 'TRE SP'], TJDFT: ['TJDFT', 'tjdf'],
};
const DATE = ['2024-01-31', '31/01/2024'];
const MASKED = ['true', 'yes', 'sim', '1'];

const written: fc.Arbitrary<Written> = fc.record({
  side: fc.constantFrom(...SIDE),
  amount: fc.constantFrom(...AMOUNT),
  tribunals: fc.shuffledSubarray(Object.keys(TRIBUNAL_SPELLINGS), { minLength: 4, maxLength: 4 })
    .chain((ts) => fc.tuple(...ts.map((t) => fc.constantFrom(...TRIBUNAL_SPELLINGS[t]))).map((xs) => xs.join('|'))),
  subjects: fc.shuffledSubarray(['7698', '10433', '00436'], { minLength: 3, maxLength: 3 }).map((xs) => xs.join(' | ')),
  classes: fc.constantFrom('7|436', '436|7', '0007|436|7'),
  date: fc.constantFrom(...DATE),
  key: fc.constant('vault-user'),
  masked: fc.constantFrom(...MASKED),
});

const line = (w: Written): string => [CNPJ, 'cnpj', w.side, w.amount, '', w.tribunals, w.subjects, w.classes, w.date, w.key, w.masked].join(',');

describe('a search is its filters too', () => {
  it('one filter set written two ways is one search: one document, one identity, the other line a duplicate', () => {
    fc.assert(fc.property(written, written, (a, b) => {
      const list = parseDocuments(`${HEADER}\n${line(a)}\n${line(b)}\n`);
      expect(list.rejected).toEqual([]);
      expect(list.documents).toHaveLength(1);
      expect(list.duplicates.map((d) => [d.line, d.firstLine])).toEqual([[3, 2]]);
    }), { numRuns: 300 });
  });

  it('two filter sets are two searches, and so are two credentials, masked or not, and attachments asked or not', () => {
    const base = { side: 'Passive', amount: '150000', tribunals: 'TJSP|TRT2', subjects: '7698', classes: '7', date: '2024-01-31', key: 'vault-user', masked: 'true' };
    const variants: Written[] = [
      base,
      { ...base, side: 'Active' },
      { ...base, amount: '150000.01' },
      { ...base, tribunals: 'TJSP' },
      { ...base, tribunals: 'TJSP|TRT2|TRT15' },
      { ...base, subjects: '7698|10433' },
      { ...base, classes: '436' },
      { ...base, date: '2024-02-01' },
      { ...base, key: 'other-user' },
      { ...base, key: '' },
      { ...base, masked: 'false' },
      { ...base, masked: '' },
    ];
    const list = parseDocuments(`${HEADER}\n${variants.map(line).join('\n')}\n${CNPJ},cnpj,,,,,,,,,\n`);
    expect(list.rejected).toEqual([]);
    expect(list.duplicates).toEqual([]);
    expect(list.documents).toHaveLength(variants.length + 1);
    expect(new Set(list.documents.map(documentIdentity)).size).toBe(variants.length + 1);
    const cnj: Search = { search_type: 'lawsuit_cnj', search_key: '0710802-55.2018.8.02.0001' };
    expect(searchIdentity(cnj, { withAttachments: true })).not.toBe(searchIdentity(cnj, { withAttachments: false }));
  });

  it('a search that asks nothing besides keeps the identity the ledger always stored (an old warehouse buys nothing again)', () => {
    expect(searchIdentity({ search_type: 'cpf', search_key: '09206529722' })).toBe('cpf|09206529722|db|*');
    expect(searchIdentity({ search_type: 'lawsuit_cnj', search_key: '0710802-55.2018.8.02.0001', on_demand: true, search_params: { lawsuit_instance: 2 } }))
      .toBe('lawsuit_cnj|0710802-55.2018.8.02.0001|od|2');
    expect(searchIdentity({ search_type: 'name', search_key: 'José  da Silva' })).toBe('name|jose da silva|db|*');
    // an empty filter, or one the upstream echoed empty, asks nothing either
    expect(searchIdentity({ search_type: 'cpf', search_key: '09206529722', search_params: { filter: {} } })).toBe('cpf|09206529722|db|*');
    const [doc] = parseDocuments(`search_key\n092.065.297-22\n`).documents;
    expect(documentIdentity(doc)).toBe('cpf|09206529722|db|*');
  });

  it('a lost submission is found in the listing whatever form the upstream echoes its filter in, and never another search\'s', () => {
    const [doc] = parseDocuments(`${HEADER}\n${line({ side: 'Passive', amount: '150000', tribunals: 'TJSP|TRT2', subjects: '7698', classes: '7', date: '2024-01-31', key: 'vault-user', masked: 'true' })}\n`).documents;
    const sent = searchFor(doc);
    const echoed = (filter: object, extra: object = {}): Partial<Search> => ({
      search_type: 'cnpj', search_key: '11.222.333/0001-81', search_params: { filter, pagination: {}, ...extra } as Search['search_params'],
    });
    const same = {
      side: 'PASSIVE', amount_gte: '150000.00', tribunals: { keys: ['trt2', 'TJSP'] }, subject_codes: { keys: ['7698'], not_equal: false },
      classification_codes: { keys: ['7'], not_equal: false }, distribution_date_gte: '2024-01-31T00:00:00.000Z',
    };
    expect(sameSearch(sent, echoed(same))).toBe(true);
    // the credential and masked_response left out of an echo prove nothing against it; shown, they must agree
    expect(sameSearch(sent, echoed(same, { credential: { customer_key: 'vault-user' }, masked_response: true }))).toBe(true);
    expect(sameSearch(sent, echoed(same, { credential: { customer_key: 'someone-else' } }))).toBe(false);
    expect(sameSearch(sent, echoed(same, { masked_response: false }))).toBe(false);
    expect(sameSearch(sent, echoed({ ...same, side: 'Active' }))).toBe(false);
    expect(sameSearch(sent, echoed({ ...same, tribunals: { keys: ['TJSP'] } }))).toBe(false);
    expect(sameSearch(sent, echoed({ ...same, tribunals: { keys: ['TJSP', 'TRT2'], not_equal: true } }))).toBe(false);
    expect(sameSearch(sent, echoed({}))).toBe(false);
  });

  it('a tracking carries its document\'s filters: a listed record with them is that document\'s, one without them another search\'s', () => {
    const [filtered, plain] = parseDocuments(`${HEADER}\n${CNPJ},cnpj,Passive,,,TJSP,,,,,\n${CNPJ},cnpj,,,,,,,,,\n`).documents;
    const listed = (params?: object): string => trackingKey('cnpj', '11.222.333/0001-81', params as Search['search_params']);
    expect(listed({ filter: { side: 'passive', tribunals: { keys: ['tjsp'], not_equal: false } }, pagination: {} })).toBe(documentTrackingKey(filtered));
    expect(listed({ filter: {}, pagination: {} })).toBe(documentTrackingKey(plain));
    expect(documentTrackingKey(filtered)).not.toBe(documentTrackingKey(plain));
    // a tracking's identity is its search's (one identity, spec/search-identity.ts): an unfiltered one is type and key
    expect(documentTrackingKey(plain)).toBe(searchIdentity({ search_type: 'cnpj', search_key: CNPJ }));
    expect(documentTrackingKey(plain)).toBe(`cnpj|${CNPJ}|db|*`);
  });
});
