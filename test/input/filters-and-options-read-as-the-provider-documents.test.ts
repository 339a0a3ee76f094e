import { describe, expect, it } from 'vitest';
import { parseDocuments } from '../../src/input/documents.js';
import { searchFor } from '../../src/input/search-body.js';
import { readSearchOptions } from '../../src/input/search-options.js';

/** One cell of a line read as the documents list reads it: the value the filter takes, or the line's reason. */
function cell(column: 'amount_gte' | 'distribution_date_gte', text: string): unknown {
  const r = readSearchOptions('cpf', (c) => (c === column ? text : ''));
  return r.reasons.length > 0 ? { reason: r.reasons.join('; ') } : r.options.filter?.[column];
}
const parseAmount = (text: string) => cell('amount_gte', text);
const parseDate = (text: string) => cell('distribution_date_gte', text);

// The documents list's columns for the provider's documented filters and options (CONTRACT.md, "The documents
// list") become the request's own shape: `search_params.filter` with numbers as numbers, dates as ISO dates and
// lists as arrays, `search_params.credential.customer_key`, `search_params.masked_response`; `with_attachments`
// goes beside the search, at the top level of the body. A value the provider cannot take rejects its line, with
// the reason, and the rest of the list runs.

const HEADER = 'search_key,search_type,side,amount_gte,amount_lte,tribunals,subject_codes,classification_codes,'
  + 'distribution_date_gte,distribution_date_lte,last_step_date_gte,last_step_date_lte,customer_key,masked_response,with_attachments';

const CNPJ = '11222333000181';
const CNJ = '0710802-55.2018.8.02.0001';

describe('the filter and option columns', () => {
  it('give each filter its documented shape: side, numbers, arrays of acronyms and codes, ISO dates, credential and options', () => {
    const list = parseDocuments([
      HEADER,
      `${CNPJ},cnpj,passive,"150.000,50",2000000,tjsp|TRT-02|tre sp,7698|010433,0436|7,31/01/2020,2024-12-31,2025-01-01,2025-06-30,vault-user-1,true,`,
      `${CNJ},lawsuit_cnj,,,,,,,,,,,,,yes`,
    ].join('\n'));
    expect(list.rejected).toEqual([]);
    const [company, lawsuit] = list.documents;
    expect(searchFor(company)).toEqual({
      search_type: 'cnpj', search_key: CNPJ, response_type: 'lawsuit',
      search_params: {
        masked_response: true,
        filter: {
          side: 'Passive',
          amount_gte: 150000.5,
          amount_lte: 2000000,
          tribunals: { keys: ['TJSP', 'TRT2', 'TRE-SP'], not_equal: false },
          subject_codes: { contains: ['7698', '10433'] },
          classification_codes: { keys: ['436', '7'], not_equal: false },
          distribution_date_gte: '2020-01-31',
          distribution_date_lte: '2024-12-31',
          last_step_date_gte: '2025-01-01',
          last_step_date_lte: '2025-06-30',
        },
        credential: { customer_key: 'vault-user-1' },
      },
    });
    expect(company.withAttachments).toBeUndefined();
    expect(searchFor(lawsuit)).toEqual({ search_type: 'lawsuit_cnj', search_key: CNJ, response_type: 'lawsuit' });
    expect(lawsuit.withAttachments).toBe(true);
    expect(list.warnings).toEqual([]);
  });

  it('leave every column out of a line that leaves it empty (a list without them reads as before)', () => {
    const list = parseDocuments(`${HEADER}\n${CNPJ},,,,,,,,,,,,,,\n`);
    expect(list.documents).toEqual([{ line: 2, searchType: 'cnpj', searchKey: CNPJ, rawKey: CNPJ, onDemand: false }]);
    expect(searchFor(list.documents[0])).toEqual({ search_type: 'cnpj', search_key: CNPJ, response_type: 'lawsuit' });
  });

  it('reject a value the provider cannot take, with its reason, and search the rest of the list', () => {
    const bad: Array<[string, RegExp]> = [
      [`${CNPJ},cnpj,defendant`, /side "defendant" is not Active, Passive, Interested or Unknown/],
      [`${CNPJ},cnpj,,lots`, /amount_gte "lots" is not an amount in reais/],
      [`${CNPJ},cnpj,,-5`, /amount_gte "-5" is not an amount/],
      [`${CNPJ},cnpj,,1.000`, /amount_gte "1.000" could be read two ways/],
      [`${CNPJ},cnpj,,5000,100`, /amount_gte "5000" is above amount_lte "100": no lawsuit can match/],
      [`${CNPJ},cnpj,,,,TJSP|TJXX`, /tribunals: unknown acronym "TJXX"/],
      [`${CNPJ},cnpj,,,,"TJSP,TJRJ"`, /tribunals: unknown acronym "TJSP,TJRJ".*separated by \|/],
      [`${CNPJ},cnpj,,,,,7698|dano moral`, /subject_codes "dano moral" is not a code of the CNJ tables/],
      [`${CNPJ},cnpj,,,,,,7a`, /classification_codes "7a" is not a code/],
      [`${CNPJ},cnpj,,,,,,,2024-02-30`, /distribution_date_gte "2024-02-30" is not a date/],
      [`${CNPJ},cnpj,,,,,,,,12/31/2024`, /distribution_date_lte "12\/31\/2024" is not a date/],
      [`${CNPJ},cnpj,,,,,,,,,2025-02-01,2025-01-01`, /last_step_date_gte "2025-02-01" is above last_step_date_lte "2025-01-01"/],
      [`${CNPJ},cnpj,,,,,,,,,,,"vault\u0007"`, /customer_key contains the control character U\+0007/],
      [`${CNPJ},cnpj,,,,,,,,,,,,maybe`, /masked_response "maybe" is not true\/false/],
      [`${CNJ},lawsuit_cnj,,,,,,,,,,,,,often`, /with_attachments "often" is not true\/false/],
    ];
    const list = parseDocuments([HEADER, ...bad.map(([l]) => l), `${CNPJ},cnpj,Active`].join('\n'));
    expect(list.rejected.map((r) => r.line)).toEqual(bad.map((_, i) => i + 2));
    bad.forEach(([, reason], i) => expect(list.rejected[i].reason, bad[i][0]).toMatch(reason));
    expect(list.documents.map((d) => [d.line, d.filter])).toEqual([[bad.length + 2, { side: 'Active' }]]);
  });

  it('name every problem of a line at once', () => {
    const list = parseDocuments(`${HEADER}\n${CNPJ},cnpj,sideways,x,,TJZZ\n`);
    expect(list.rejected[0].reason.split('; ')).toHaveLength(3);
  });

  it('leave out, and say so once, an option its search type does not use: attachments on a search by document, masked_response on one by number', () => {
    const list = parseDocuments([
      HEADER,
      `${CNPJ},cnpj,,,,,,,,,,,,,true`,
      `12345678909,cpf,,,,,,,,,,,,,true`,
      `${CNJ},lawsuit_cnj,,,,,,,,,,,,false,`,
    ].join('\n'), 'portfolio.csv');
    expect(list.rejected).toEqual([]);
    expect(list.documents.map((d) => [d.withAttachments, d.maskedResponse])).toEqual([[undefined, undefined], [undefined, undefined], [undefined, undefined]]);
    expect(list.warnings).toHaveLength(2);
    expect(list.warnings![0]).toMatch(/^portfolio\.csv: with_attachments left out of 2 line\(s\) that search by another type \(line 2, 3\): attachments come with lawsuit_cnj searches only/);
    expect(list.warnings![1]).toMatch(/masked_response left out of 1 line\(s\).*\(line 4\)/);
  });
});

describe('an amount', () => {
  it.each([
    ['150000', 150000], ['150000.5', 150000.5], ['150000,50', 150000.5], ['150.000,50', 150000.5], ['150,000.50', 150000.5],
    ['1.000.000', 1000000], ['1,000,000', 1000000], ['R$ 1.500,00', 1500], [' 0 ', 0], ['12', 12],
  ])('%j is %d', (text, n) => expect(parseAmount(text)).toBe(n));

  it.each(['abc', '1.000', '1,000', '1.5.0', '1,00.0', '150000.505', '150.00,50', '-3', '1e6'])('%j is refused', (text) => {
    expect(parseAmount(text)).toHaveProperty('reason');
  });

  it.each(['', '  '])('%j is no amount at all: the filter is left out', (text) => {
    expect(parseAmount(text)).toBeUndefined();
  });
});

describe('a date', () => {
  it.each([['2024-02-29', '2024-02-29'], ['29/02/2024', '2024-02-29'], ['1/2/2024', '2024-02-01']])('%j is %s', (text, iso) => expect(parseDate(text)).toBe(iso));
  it.each(['2023-02-29', '2024-13-01', '31/04/2024', '2024/01/01', '2024-01-01T00:00:00Z', 'yesterday'])('%j is refused', (text) => {
    expect(parseDate(text)).toHaveProperty('reason');
  });
});
