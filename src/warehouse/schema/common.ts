import type { Column } from './types.js';

/** Column meanings shared by many tables of the declaration. */
export const C = {
  code: 'CNJ number of the lawsuit in the punctuated form NNNNNNN-DD.AAAA.J.TR.OOOO (other identifiers kept as given)',
  instance: 'court instance (1 = first instance, 2 = appeal, ...); with code, the key of a lawsuit',
  run_id: 'the run that wrote the row (runs.run_id)',
  request_id: 'the provider\'s asynchronous request (requests.request_id)',
  search_type: 'kind of search: cpf, cnpj, oab, name, lawsuit_cnj or lawsuit_id',
  search_key: 'the searched key, normalised (documents digits only; CNPJ letters upper case)',
  document_line: 'line of the documents list the search came from',
  queried_at: 'when the provider answered the synchronous query',
  party_index: 'position of the party in the lawsuit\'s parties list (0-based)',
  tribunal_acronym: 'court acronym, e.g. TJSP, TRT2, STJ',
  transfer_file_id: 'the provider\'s transfer file (transfer_files.transfer_file_id)',
  transfer_loaded_at: 'when the row was loaded from its transfer file',
  raw: 'the object exactly as the provider sent it (JSON)',
} as const;

/**
 * The merge's own columns, last in a table merged from several payloads (merge.ts): which version each value
 * came from, so that a payload loaded later but crawled earlier still fills exactly what no newer one carries.
 */
export const MERGE_COLUMNS: readonly Column[] = mergeColumns('version of the newest payload merged into the row, as sortable text (crawl time, updated_at, the response\'s created_at, response id)');

/**
 * The merge's columns of a row under a lawsuit (steps): its version is NULL while it is the lawsuit's, so that a
 * newer crawl repeating the row as it was writes nothing to it (merge.ts, Source.parent).
 */
export const MERGE_CHILD_COLUMNS: readonly Column[] = mergeColumns('version of the newest payload that carried the row, as sortable text (crawl time, updated_at, the response\'s created_at, response id); NULL when it is its lawsuit\'s payload_version (the lawsuit\'s newest payload carried it)');

function mergeColumns(version: string): Column[] {
  return [
    { name: 'payload_version', type: 'VARCHAR', exported: false, comment: version },
    { name: 'column_versions', type: 'JSON', exported: false,
      comment: 'the columns whose value came from an older payload than payload_version (a newer one did not carry them), each with that payload\'s version; NULL when every value is the newest payload\'s' },
  ];
}
