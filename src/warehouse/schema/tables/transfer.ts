import { C } from '../common.js';
import type { Column, Table } from '../types.js';

/** What the transfer step appends to every row of a transfer file. */
const FROM_FILE: readonly Column[] = [
  { name: 'transfer_file_id', type: 'VARCHAR', notNull: true, comment: C.transfer_file_id },
  { name: 'loaded_at', type: 'TIMESTAMPTZ', notNull: true, comment: C.transfer_loaded_at },
];
const ADDED_COLUMN = 'column a transfer file added beyond the known flat schema (name and type as the file gave them)';

const transferFiles: Table = {
  name: 'transfer_files',
  comment: 'Transfer files offered by the provider and what became of them here.',
  key: ['transfer_file_id'],
  export: {},
  columns: [
    { name: 'transfer_file_id', type: 'VARCHAR', notNull: true, comment: 'the provider\'s transfer file id' },
    { name: 'name', type: 'VARCHAR', privacy: 'not personal', comment: 'file name' },
    { name: 'description', type: 'VARCHAR', privacy: 'cpf text', comment: 'the provider\'s description' },
    { name: 'file_type', type: 'VARCHAR', comment: 'csv, json or parquet' },
    { name: 'status', type: 'VARCHAR', comment: 'local status: loaded (provider not yet told), downloaded (done), waiting (failed for a passing cause: tried again from retry_after) or error (bad in itself: size or content; marked error at the provider)' },
    { name: 'file_size', type: 'BIGINT', comment: 'size in bytes' },
    { name: 'lawsuits_count', type: 'INTEGER', comment: 'distinct lawsuits in the file' },
    { name: 'created_at', type: 'TIMESTAMPTZ', comment: 'when the provider created it' },
    { name: 'completed_at', type: 'TIMESTAMPTZ', comment: 'when the provider finished preparing it' },
    { name: 'downloaded_at', type: 'TIMESTAMPTZ', comment: 'when it was marked downloaded at the provider' },
    { name: 'loaded_rows', type: 'INTEGER', comment: 'rows loaded from it' },
    { name: 'loaded_at', type: 'TIMESTAMPTZ', comment: 'when it was loaded' },
    { name: 'error', type: 'VARCHAR', privacy: 'cpf text', comment: 'why it failed' },
    { name: 'run_id', type: 'VARCHAR', comment: C.run_id },
    { name: 'remote_status', type: 'VARCHAR', comment: 'status at the provider, in the vocabulary its listing speaks: completed, error, downloaded (the spec) or pending, available, consumed (the documentation); a loaded file is marked downloaded or consumed to match' },
    { name: 'target_table', type: 'VARCHAR', comment: 'the transfer_* table its rows went to' },
    { name: 'attempts', type: 'INTEGER', comment: 'download attempts it took' },
    { name: 'updated_at', type: 'TIMESTAMPTZ', comment: 'last change of this row' },
    { name: 'failed_runs', type: 'INTEGER', comment: 'runs in a row it failed in for a passing cause (a time-out, a full disk); 0 once loaded' },
    { name: 'retry_after', type: 'TIMESTAMPTZ', comment: 'a waiting file is not tried before this: 30 min after its first failed run, doubling with each, at most a day' },
  ],
};

const transferLawsuits: Table = {
  name: 'transfer_lawsuits',
  comment: 'Lawsuit rows from transfer files (flat schema), one row per file row.',
  addedColumns: ADDED_COLUMN,
  columns: [
    { name: 'code', type: 'VARCHAR', comment: C.code },
    { name: 'instance', type: 'INTEGER', comment: C.instance },
    { name: 'tribunal_acronym', type: 'VARCHAR', comment: C.tribunal_acronym },
    { name: 'justice', type: 'VARCHAR', comment: 'branch of justice code' },
    { name: 'tribunal', type: 'VARCHAR', comment: 'tribunal code' },
    { name: 'distribution_date', type: 'TIMESTAMPTZ', comment: 'when the lawsuit was filed' },
    { name: 'amount', type: 'DECIMAL(18,2)', comment: 'amount in dispute (BRL)' },
    { name: 'status', type: 'VARCHAR', comment: 'Ativo or Finalizado' },
    { name: 'phase', type: 'VARCHAR', comment: 'procedural phase' },
    { name: 'secrecy_level', type: 'INTEGER', comment: 'secrecy level (0 = public)' },
    { name: 'name', type: 'VARCHAR', comment: 'title of the lawsuit' },
    { name: 'area', type: 'VARCHAR', comment: 'area of law' },
    { name: 'state', type: 'VARCHAR', comment: 'state (UF)' },
    { name: 'city', type: 'VARCHAR', comment: 'city of the court' },
    { name: 'updated_at', type: 'TIMESTAMPTZ', comment: 'when the provider last updated it' },
    ...FROM_FILE,
  ],
};

const transferParties: Table = {
  name: 'transfer_parties',
  comment: 'Party rows from transfer files (flat schema).',
  addedColumns: ADDED_COLUMN,
  columns: [
    { name: 'code', type: 'VARCHAR', comment: C.code },
    { name: 'instance', type: 'INTEGER', comment: C.instance },
    { name: 'party_index', type: 'INTEGER', comment: C.party_index },
    { name: 'name', type: 'VARCHAR', comment: 'party name' },
    { name: 'side', type: 'VARCHAR', comment: 'side in the lawsuit' },
    { name: 'person_type', type: 'VARCHAR', comment: 'person type as given' },
    { name: 'document', type: 'VARCHAR', comment: 'document, digits only' },
    { name: 'document_type', type: 'VARCHAR', comment: 'cpf or cnpj' },
    ...FROM_FILE,
  ],
};

const transferSteps: Table = {
  name: 'transfer_steps',
  comment: 'Step rows from transfer files (flat schema).',
  addedColumns: ADDED_COLUMN,
  columns: [
    { name: 'code', type: 'VARCHAR', comment: C.code },
    { name: 'instance', type: 'INTEGER', comment: C.instance },
    { name: 'step_id', type: 'VARCHAR', comment: 'the provider\'s step id' },
    { name: 'step_date', type: 'TIMESTAMPTZ', comment: 'when the step happened' },
    { name: 'content', type: 'VARCHAR', comment: 'text of the step' },
    { name: 'private', type: 'BOOLEAN', comment: 'true for a step under secrecy' },
    ...FROM_FILE,
  ],
};

export const transferTables: readonly Table[] = [transferFiles, transferLawsuits, transferParties, transferSteps];
