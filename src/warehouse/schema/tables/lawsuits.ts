import { C, MERGE_COLUMNS, MERGE_CHILD_COLUMNS } from '../common.js';
import type { Table } from '../types.js';

const lawsuits: Table = {
  name: 'lawsuits',
  comment: 'One row per lawsuit instance, merged from every payload seen: each column holds the value of the newest payload that carries it (docs/warehouse.md, "The merge rule").',
  key: ['code', 'instance'],
  // Steps are a union over every payload, so their flag only says whether the payload carried any.
  stage: { as: 'lawsuits', extra: [['run_id', 'VARCHAR'], ['has_steps', 'BOOLEAN']] },
  export: { partitionBy: 'tribunal_acronym' },
  columns: [
    { name: 'code', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: C.code },
    { name: 'instance', type: 'INTEGER', notNull: true, stage: 'INTEGER', comment: C.instance },
    { name: 'lawsuit_id', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', comment: 'the provider\'s id of this lawsuit instance' },
    { name: 'tribunal_acronym', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', comment: C.tribunal_acronym },
    { name: 'justice', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', comment: 'branch of justice code (J of the CNJ number)' },
    { name: 'justice_description', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', comment: 'branch of justice in words' },
    { name: 'tribunal', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', comment: 'tribunal code (TR of the CNJ number)' },
    { name: 'area', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', comment: 'area of law (e.g. Cível, Trabalhista)' },
    { name: 'state', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', comment: 'state (UF)' },
    { name: 'city', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', comment: 'city of the court' },
    { name: 'county', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', comment: 'judicial district (comarca)' },
    { name: 'distribution_date', type: 'TIMESTAMPTZ', stage: 'VARCHAR', merge: 'carried', comment: 'when the lawsuit was filed' },
    { name: 'amount', type: 'DECIMAL(18,2)', stage: 'VARCHAR', merge: 'carried', comment: 'amount in dispute (BRL)' },
    { name: 'status', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', comment: 'Ativo or Finalizado' },
    { name: 'phase', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', comment: 'procedural phase, e.g. Inicial, Sentença, Recurso, Execução, Arquivado' },
    { name: 'secrecy_level', type: 'INTEGER', stage: 'INTEGER', merge: 'carried', comment: 'secrecy level (0 = public)' },
    { name: 'free_justice', type: 'BOOLEAN', stage: 'BOOLEAN', merge: 'carried', comment: 'true when free legal aid was granted' },
    { name: 'name', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', privacy: 'lawsuit text', comment: 'title of the lawsuit (usually "plaintiff x defendant")' },
    { name: 'created_at', type: 'TIMESTAMPTZ', stage: 'VARCHAR', merge: 'carried', comment: 'when the provider first recorded it' },
    { name: 'updated_at', type: 'TIMESTAMPTZ', stage: 'VARCHAR', merge: 'carried', comment: 'when the provider last updated it' },
    { name: 'crawl_id', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', comment: 'the provider\'s crawl that produced the payload' },
    { name: 'crawler_source', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', comment: 'where the crawl read it (court system)' },
    { name: 'crawled_at', type: 'TIMESTAMPTZ', stage: 'VARCHAR', merge: 'carried', comment: 'when the crawl read the court' },
    { name: 'last_step_date', type: 'TIMESTAMPTZ', stage: 'VARCHAR', merge: 'carried', comment: 'date of the latest step' },
    { name: 'steps_count', type: 'INTEGER', stage: 'INTEGER', merge: 'carried', comment: 'steps the provider counted (last_step.steps_count), or the steps a whole payload listed' },
    { name: 'response_id', type: 'VARCHAR', stage: 'VARCHAR', merge: 'newest', comment: 'the response item the newest payload came in' },
    { name: 'response_created_at', type: 'TIMESTAMPTZ', stage: 'VARCHAR', merge: 'newest', comment: 'creation time of that response item' },
    { name: 'cached_response', type: 'BOOLEAN', stage: 'BOOLEAN', merge: 'newest', comment: 'true when the newest payload came from the provider\'s cache' },
    { name: 'source', type: 'VARCHAR', stage: 'VARCHAR', merge: 'newest', comment: 'how it arrived: async (requests) or historical (synchronous query)' },
    { name: 'first_seen_run', type: 'VARCHAR', load: 's.run_id', merge: 'earliest', comment: 'run that first loaded it' },
    { name: 'last_seen_run', type: 'VARCHAR', load: 's.run_id', merge: 'latest', comment: 'run that last loaded it' },
    { name: 'loaded_at', type: 'TIMESTAMPTZ', notNull: true, load: 'current_timestamp', merge: 'newest', comment: 'when a payload last changed it' },
    { name: 'raw', type: 'JSON', stage: 'JSON', merge: 'newest', exported: false, comment: `${C.raw}: the whole lawsuit, nothing dropped; NULL when too long for a column: see raw_parts and v_lawsuit_raw` },
    // Which lists some payload carried, each from the newest payload that carried the list: an empty list carried
    // says "none now"; a list no payload carried says nothing (its child rows come from the list's payload).
    ...(['parties', 'subjects', 'classifications', 'courts', 'attachments'] as const).map((list) => ({
      name: `has_${list}`, type: 'BOOLEAN', stage: 'BOOLEAN' as const, merge: 'carried' as const, exported: false,
      comment: `true once a payload carried a ${list} list (the ${list === 'parties' ? 'parties and lawyers' : list} come whole from the newest payload that carried it)`,
    })),
    ...MERGE_COLUMNS,
    // Two levels (docs/two-levels.md): a header tells how far the lawsuit has gone (last_step_id, steps_count);
    // a whole payload gave the steps, phase and status held, as far as whole_step_id and whole_steps_count.
    // They differ once a newer header says the lawsuit moved: v_lawsuit_levels reads it from here.
    { name: 'last_step_id', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', comment: 'id of the latest step, as the newest payload that says it (a header\'s last_step, or a whole payload\'s newest step)' },
    { name: 'whole_step_id', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', comment: 'id of the latest step of the newest whole payload (a lawsuit-level answer: steps, phase, status)' },
    { name: 'whole_steps_count', type: 'INTEGER', stage: 'INTEGER', merge: 'carried', comment: 'steps counted by the newest whole payload' },
    { name: 'whole_at', type: 'TIMESTAMPTZ', stage: 'VARCHAR', merge: 'carried', comment: 'crawl time of the newest whole payload (else its response\'s creation)' },
    { name: 'whole_seen', type: 'BOOLEAN', stage: 'BOOLEAN', merge: 'carried', exported: false, comment: 'true once a whole payload (a lawsuit-level answer) was loaded; NULL while only headers were' },
    // Added after the merge's own columns (migration 101): a migrated file appends them, so the declaration does.
    { name: 'judge', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', privacy: 'name', comment: 'judge or rapporteur of the lawsuit, as the header names them' },
    { name: 'situation', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', comment: 'situation of the lawsuit as the header words it (e.g. Em andamento, Arquivado)' },
    {
      name: 'has_related_lawsuits', type: 'BOOLEAN', stage: 'BOOLEAN', merge: 'carried', exported: false,
      comment: 'true once a payload carried a related_lawsuits list (the related lawsuits come whole from the newest payload that carried it)',
    },
  ],
};

const parties: Table = {
  name: 'parties',
  comment: 'Parties of each lawsuit (plaintiffs, defendants, ...), as in its newest payload with a parties list.',
  key: ['code', 'instance', 'party_index'], keptByLoader: true,
  stage: { as: 'parties', list: 'has_parties' },
  export: { partitionBy: 'tribunal_acronym', withLawsuit: ['tribunal_acronym'] },
  columns: [
    { name: 'code', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: C.code },
    { name: 'instance', type: 'INTEGER', notNull: true, stage: 'INTEGER', comment: C.instance },
    { name: 'party_index', type: 'INTEGER', notNull: true, stage: 'INTEGER', comment: C.party_index },
    { name: 'name', type: 'VARCHAR', stage: 'VARCHAR', privacy: 'party name', comment: 'party name' },
    { name: 'side', type: 'VARCHAR', stage: 'VARCHAR', comment: 'Active, Passive, Interested, ...' },
    { name: 'person_type', type: 'VARCHAR', stage: 'VARCHAR', comment: 'person type as the provider gives it (e.g. Autor, Réu)' },
    { name: 'document', type: 'VARCHAR', stage: 'VARCHAR', privacy: 'document', comment: 'main document, digits only (CNPJ letters upper case)' },
    { name: 'document_type', type: 'VARCHAR', stage: 'VARCHAR', comment: 'cpf or cnpj (or other kinds the provider names)' },
    { name: 'main_document', type: 'VARCHAR', stage: 'VARCHAR', privacy: 'document', comment: 'main document as the provider flagged it' },
    { name: 'documents', type: 'JSON', stage: 'JSON', privacy: 'documents', comment: 'every document of the party (JSON list)' },
    { name: 'raw', type: 'JSON', stage: 'JSON', exported: false, comment: C.raw },
  ],
};

const lawyers: Table = {
  name: 'lawyers',
  comment: 'Lawyers of each party.',
  key: ['code', 'instance', 'party_index', 'lawyer_index'], keptByLoader: true,
  stage: { as: 'lawyers', list: 'has_parties' },
  export: { partitionBy: 'tribunal_acronym', withLawsuit: ['tribunal_acronym'] },
  columns: [
    { name: 'code', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: C.code },
    { name: 'instance', type: 'INTEGER', notNull: true, stage: 'INTEGER', comment: C.instance },
    { name: 'party_index', type: 'INTEGER', notNull: true, stage: 'INTEGER', comment: C.party_index },
    { name: 'lawyer_index', type: 'INTEGER', notNull: true, stage: 'INTEGER', comment: 'position of the lawyer in the party\'s list (0-based)' },
    { name: 'name', type: 'VARCHAR', stage: 'VARCHAR', privacy: 'name', comment: 'lawyer name' },
    { name: 'side', type: 'VARCHAR', stage: 'VARCHAR', comment: 'side of the party represented' },
    { name: 'oab', type: 'VARCHAR', stage: 'VARCHAR', privacy: 'oab', comment: 'OAB registration, normalised <number><UF>[letter]' },
    { name: 'person_type', type: 'VARCHAR', stage: 'VARCHAR', comment: 'person type as given' },
    { name: 'documents', type: 'JSON', stage: 'JSON', privacy: 'documents', comment: 'documents of the lawyer (JSON list)' },
  ],
};

const steps: Table = {
  name: 'steps',
  comment: 'Steps (movements) of each lawsuit: the union over every payload seen, never deleted; each column from the newest payload that carries it.',
  key: ['code', 'instance', 'step_id'], keptByLoader: true,
  stage: { as: 'steps' },
  export: { partitionBy: 'step_year', add: { step_year: 'year(t.step_date)' } },
  columns: [
    { name: 'code', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: C.code },
    { name: 'instance', type: 'INTEGER', notNull: true, stage: 'INTEGER', comment: C.instance },
    { name: 'step_id', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: 'the provider\'s step id, or h_<hash of date and content> when it had none' },
    { name: 'step_id_derived', type: 'BOOLEAN', notNull: true, default: 'false', stage: 'BOOLEAN', merge: 'newest', comment: 'true when step_id was derived from the hash' },
    { name: 'step_date', type: 'TIMESTAMPTZ', stage: 'VARCHAR', merge: 'carried', comment: 'when the step happened' },
    { name: 'content', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', privacy: 'lawsuit text', comment: 'text of the step' },
    { name: 'private', type: 'BOOLEAN', stage: 'BOOLEAN', merge: 'carried', privacy: 'secrecy flag', comment: 'true for a step under secrecy' },
    { name: 'step_type', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', comment: 'kind of step as given' },
    { name: 'raw', type: 'JSON', stage: 'JSON', merge: 'newest', exported: false, comment: C.raw },
    ...MERGE_CHILD_COLUMNS,
  ],
};

const subjects: Table = {
  name: 'subjects',
  comment: 'Subjects (assuntos) of each lawsuit.',
  key: ['code', 'instance', 'item_code'], keptByLoader: true,
  stage: { as: 'subjects', list: 'has_subjects' },
  export: {},
  columns: [
    { name: 'code', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: C.code },
    { name: 'instance', type: 'INTEGER', notNull: true, stage: 'INTEGER', comment: C.instance },
    { name: 'item_code', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: 'subject code (CNJ tables)' },
    { name: 'item_name', type: 'VARCHAR', stage: 'VARCHAR', privacy: 'not personal', comment: 'subject name' },
  ],
};

const classifications: Table = {
  name: 'classifications',
  comment: 'Classes (classes processuais) of each lawsuit.',
  key: ['code', 'instance', 'item_code'], keptByLoader: true,
  stage: { as: 'classifications', list: 'has_classifications' },
  export: {},
  columns: [
    { name: 'code', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: C.code },
    { name: 'instance', type: 'INTEGER', notNull: true, stage: 'INTEGER', comment: C.instance },
    { name: 'item_code', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: 'class code (CNJ tables)' },
    { name: 'item_name', type: 'VARCHAR', stage: 'VARCHAR', privacy: 'not personal', comment: 'class name' },
  ],
};

const courts: Table = {
  name: 'courts',
  comment: 'Courts (varas) a lawsuit passed through.',
  key: ['code', 'instance', 'court_index'], keptByLoader: true,
  stage: { as: 'courts', list: 'has_courts' },
  export: {},
  columns: [
    { name: 'code', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: C.code },
    { name: 'instance', type: 'INTEGER', notNull: true, stage: 'INTEGER', comment: C.instance },
    { name: 'court_index', type: 'INTEGER', notNull: true, stage: 'INTEGER', comment: 'position in the courts list (0-based)' },
    { name: 'court_code', type: 'VARCHAR', stage: 'VARCHAR', comment: 'court code' },
    { name: 'court_name', type: 'VARCHAR', stage: 'VARCHAR', privacy: 'not personal', comment: 'court name' },
  ],
};

const attachments: Table = {
  name: 'attachments',
  comment: 'Attachments (documents filed) of each lawsuit.',
  key: ['code', 'instance', 'attachment_index'], keptByLoader: true,
  stage: { as: 'attachments', list: 'has_attachments' },
  export: {},
  columns: [
    { name: 'code', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: C.code },
    { name: 'instance', type: 'INTEGER', notNull: true, stage: 'INTEGER', comment: C.instance },
    { name: 'attachment_index', type: 'INTEGER', notNull: true, stage: 'INTEGER', comment: 'position in the attachments list (0-based)' },
    { name: 'attachment_date', type: 'TIMESTAMPTZ', stage: 'VARCHAR', comment: 'when it was filed' },
    { name: 'attachment_name', type: 'VARCHAR', stage: 'VARCHAR', privacy: 'lawsuit text', comment: 'name of the attachment' },
    { name: 'raw', type: 'JSON', stage: 'JSON', privacy: 'lawsuit text', comment: C.raw },
  ],
};

const relatedLawsuits: Table = {
  name: 'related_lawsuits',
  comment: 'Lawsuits each lawsuit is related to (attached, linked, its origin or its appeal), as its newest payload with a related_lawsuits list gives them. An item without a readable CNJ number stays in lawsuits.raw only.',
  key: ['code', 'instance', 'related_code'], keptByLoader: true,
  stage: { as: 'related_lawsuits', list: 'has_related_lawsuits' },
  export: {},
  columns: [
    { name: 'code', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: C.code },
    { name: 'instance', type: 'INTEGER', notNull: true, stage: 'INTEGER', comment: C.instance },
    { name: 'related_code', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: 'CNJ number of the related lawsuit, punctuated' },
    { name: 'related_instance', type: 'INTEGER', stage: 'INTEGER', comment: 'instance of the related lawsuit, when the item gives one' },
    { name: 'relation', type: 'VARCHAR', stage: 'VARCHAR', comment: 'how it is related, as the provider words it (the item\'s relation or type); NULL when not given' },
    { name: 'raw', type: 'JSON', stage: 'JSON', exported: false, comment: C.raw },
  ],
};

export const lawsuitsTables: readonly Table[] = [lawsuits, parties, lawyers, steps, subjects, classifications, courts, attachments, relatedLawsuits];
