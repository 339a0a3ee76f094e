// Hand-built payloads for the warehouse tests: one lawsuit carrying every field the spec lists (both
// descriptive forms) plus properties it does not, and response items wrapping lawsuits.
import type { Lawsuit, ResponseItem } from '../../src/spec/types.js';

export function richLawsuit(over: Partial<Lawsuit> = {}): Lawsuit {
  return {
    code: '0710802-55.2018.8.02.0001',
    justice: '8',
    tribunal: '02',
    instance: 1,
    distribution_date: '2018-03-04T10:11:12.000Z',
    tribunal_acronym: 'TJAL',
    secrecy_level: 0,
    tags: { is_fallback_source: false, crawl_id: 'crawl-tag-1', dictionary_updated_at: '2024-01-01T00:00:00.000Z' },
    subjects: [{ code: '7698', name: 'Perdas e Danos' }, { code: '10433', name: 'Indenizacao por Dano Moral' }],
    classifications: [{ code: '7', name: 'Procedimento Comum Civel' }],
    courts: [{ code: '0001', name: '1a Vara Civel de Maceio' }, { name: 'Turma Recursal' }],
    parties: [
      {
        name: 'Maria da Silva', side: 'Active', person_type: 'Autor', document: '09206529722', document_type: 'CPF',
        main_document: '092.065.297-22', documents: [{ document: '092.065.297-22', document_type: 'CPF' }],
        lawyers: [
          { name: 'Dr. Joao Advogado', side: 'Active', person_type: 'Advogado', oab: 'SP123456' },
          { name: 'Dra. Ana Advogada', person_type: 'Advogado', documents: [{ document: 'DF0012345', document_type: 'OAB' }] },
        ],
        tags: { crawl_id: 'crawl-party-1' },
      },
      {
        name: 'ACME LTDA', side: 'Passive', person_type: 'Réu', document: '12ABC34501DE35', document_type: 'CNPJ',
        main_document: '', documents: [], lawyers: [],
      },
      { name: 'Pedro Advogado Avulso', side: 'Passive', person_type: 'Advogado' },
    ],
    steps: [
      {
        lawsuit_cnj: '0710802-55.2018.8.02.0001', lawsuit_instance: 1, private: false, step_id: 'st-1', tags: { crawl_id: 'c1' },
        content: 'Distribuido por sorteio', step_date: '2018-03-04T10:11:12.000Z', steps_count: 3, step_type: '26',
      },
      { step_id: 'st-2', private: true, content: 'Conclusos para despacho', step_date: '2019-05-06T07:08:09.000Z', step_type: '51' },
      { private: false, content: 'Peticao juntada', step_date: '2020-01-02T03:04:05.000Z' } as never,
    ],
    attachments: [{ attachment_date: '2019-05-06T00:00:00.000Z', attachment_name: 'peticao.pdf', pages: 3 }],
    // The documentation shows the list empty and its items' fields not at all: an object with a CNJ code (and an
    // instance, a relation), a bare number, and an item without one (kept in raw only).
    related_lawsuits: [
      { code: '5059111-78.2025.4.02.5101', instance: 2, relation: 'Apensado' },
      '00012340820238260100',
      { description: 'autos fisicos sem numero' },
    ],
    crawler: { source_name: 'TJAL-ESAJ', crawl_id: 'crawl-1', weight: 3, updated_at: '2024-02-01T00:00:00.000Z' },
    metadata: { origin: 'fixture' },
    amount: 12345.67,
    area: 'Civel',
    county: 'Maceio',
    state: 'AL',
    city: 'Maceio',
    justice_description: 'Justica Estadual',
    last_step: {
      lawsuit_cnj: '0710802-55.2018.8.02.0001', lawsuit_instance: 1, step_id: 'st-2', step_date: '2020-01-02T03:04:05.000Z',
      private: false, steps_count: 3, content: 'Peticao juntada', tags: {},
    },
    phase: 'Inicial',
    status: 'Ativo',
    name: 'Maria da Silva x ACME LTDA',
    created_at: '2018-03-05T00:00:00.000Z',
    updated_at: '2024-02-02T00:00:00.000Z',
    free_justice: true,
    // Not in the spec: must survive into lawsuits.raw untouched.
    judge: 'Juiz Fulano',
    situation: 'Em andamento',
    unknown_extra: { nested: [1, 2, { deep: 'x' }] },
    ...over,
  };
}

let seq = 0;
/** A response item wrapping a lawsuit; response ids are unique unless given. */
export function lawsuitItem(l: Lawsuit, over: Partial<ResponseItem> = {}): ResponseItem {
  seq++;
  return {
    request_id: 'req-1',
    response_id: `resp-${seq}-${Math.random().toString(16).slice(2, 8)}`,
    origin: 'api',
    response_type: 'lawsuit',
    response_data: l,
    user_id: 'user-1',
    created_at: '2024-03-01T00:00:00.000Z',
    request_status: 'completed',
    tags: { cached_response: false, debug: false, dashboard_id: null },
    ...over,
  };
}

export function errorItem(over: Partial<ResponseItem> = {}): ResponseItem {
  seq++;
  return {
    request_id: 'req-err',
    response_id: `resp-err-${seq}`,
    response_type: 'application_error',
    response_data: { code: 2, message: 'LAWSUIT_NOT_FOUND' },
    created_at: '2024-03-01T00:00:00.000Z',
    ...over,
  };
}

/** A distinct valid-looking CNJ number per i (check digits not needed by the warehouse). */
export function cnj(i: number): string {
  const n = String(i).padStart(7, '0');
  return `${n}-00.2020.8.26.0100`;
}
