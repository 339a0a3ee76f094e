// The Lawsuit Query Service's payloads as this project reads them (spec: "Resources and their fields"): the
// vocabulary the client, the documents list, the pipeline and the warehouse share, so none of them reaches into
// another for it. The sandbox keeps a reading of its own, written apart, so that the tests compare two.
// The service's objects are dynamic: every interface keeps an index signature so that properties the
// spec does not list survive untouched into responses_raw and lawsuits.raw.

/** Every search type, spelled as the documents list's `search_type` column and the API spell it. */
export const SEARCH_TYPES = ['cpf', 'cnpj', 'oab', 'name', 'lawsuit_cnj', 'lawsuit_id'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

type RequestStatus = 'created' | 'pending' | 'started' | 'cancelling' | 'cancelled' | 'completed';
type Side = 'Passive' | 'Active' | 'Interested' | 'Unknown';

interface IncludeExclude { keys?: string[]; not_equal?: boolean }
interface SubjectFilter { contains?: string[]; not_contains?: string[]; conteins?: string[]; keys?: string[]; not_equal?: boolean }

export interface Filter {
  side?: Side;
  distribution_date_gte?: string;
  /** Not in the spec's table; the provider documents `distribution_date_gte/_lte` (REFERENCE.md, "Two levels"). */
  distribution_date_lte?: string;
  amount_gte?: number;
  amount_lte?: number;
  tribunals?: IncludeExclude;
  subject_codes?: SubjectFilter;
  classification_codes?: IncludeExclude;
  last_step_date_gte?: string;
  last_step_date_lte?: string;
  party_names?: string[];
  party_documents?: string[];
}

export interface SearchParams {
  lawsuit_instance?: number;
  masked_response?: boolean;
  filter?: Filter;
  credential?: { customer_key: string };
  create_complete_request?: boolean;
  [extra: string]: unknown;
}

export interface Search {
  search_type: SearchType;
  search_key: string;
  response_type?: string;
  cache_ttl_in_days?: number;
  on_demand?: boolean;
  search_params?: SearchParams;
}

export interface RequestObject {
  request_id: string;
  search: Search & { search_params?: SearchParams & { pagination?: Record<string, unknown> } };
  origin?: string;
  origin_id?: string;
  user_id?: string;
  status: RequestStatus;
  tags?: Record<string, unknown>;
  created_at: string;
  updated_at?: string;
  [extra: string]: unknown;
}

interface Lawyer { name: string; side?: string; person_type?: string; documents?: DocumentRef[]; oab?: string; [extra: string]: unknown }
interface DocumentRef { document: string; document_type: string; [extra: string]: unknown }

interface Party {
  name: string;
  side?: string;
  person_type?: string;
  document?: string;
  document_type?: string;
  main_document?: string;
  documents?: DocumentRef[];
  lawyers?: Lawyer[];
  tags?: Record<string, unknown>;
  [extra: string]: unknown;
}

interface Step {
  lawsuit_cnj?: string;
  lawsuit_instance?: number;
  private?: boolean;
  step_id: string;
  tags?: Record<string, unknown>;
  content?: string;
  step_date?: string;
  steps_count?: number;
  step_type?: string;
  [extra: string]: unknown;
}

interface CodeName { code: string; name: string; [extra: string]: unknown }

export interface Lawsuit {
  code: string;
  justice?: string;
  tribunal?: string;
  instance: number;
  distribution_date?: string;
  tribunal_acronym?: string;
  secrecy_level?: number;
  tags?: Record<string, unknown>;
  subjects?: CodeName[];
  classifications?: CodeName[];
  courts?: Array<{ code?: string; name: string }>;
  parties?: Party[];
  steps?: Step[];
  attachments?: Array<Record<string, unknown>>;
  related_lawsuits?: unknown[];
  crawler?: { source_name?: string; crawl_id?: string; weight?: number; updated_at?: string };
  metadata?: Record<string, unknown>;
  amount?: number;
  area?: string;
  county?: string;
  state?: string;
  city?: string;
  justice_description?: string;
  last_step?: Partial<Step> & { steps_count?: number };
  phase?: string;
  status?: string;
  name?: string;
  created_at?: string;
  updated_at?: string;
  free_justice?: boolean;
  [extra: string]: unknown;
}

interface ApplicationError { code: number; message: string; [extra: string]: unknown }

export interface ResponseItem {
  request_id: string;
  response_id: string;
  origin?: string;
  origin_id?: string;
  response_type: 'lawsuit' | 'application_error' | string;
  response_data: Lawsuit | ApplicationError;
  user_id?: string;
  created_at: string;
  request_created_at?: string;
  request_status?: RequestStatus;
  tags?: { debug?: boolean; dashboard_id?: string | null; cached_response?: boolean; [extra: string]: unknown };
  [extra: string]: unknown;
}

export interface Tracking {
  tracking_id: string;
  user_id?: string;
  status: 'created' | 'active' | 'updated' | 'updating' | 'paused' | string;
  recurrence: number;
  search: Search;
  created_at: string;
  updated_at?: string;
  [extra: string]: unknown;
}

export interface SyncResult { has_lawsuits: boolean; request_id: string; response_data: Lawsuit[] }
export interface CountResult { total: number }
interface GroupedEntry { count: number; value: string | number }
export interface GroupedResult {
  classifications: GroupedEntry[]; subjects: GroupedEntry[]; areas: GroupedEntry[]; tribunals: GroupedEntry[];
  justices: GroupedEntry[]; phases: GroupedEntry[]; states: GroupedEntry[]; instances: GroupedEntry[];
  sides: GroupedEntry[]; person_types: GroupedEntry[]; lawsuits_count: number;
}

/** Transfer-file record, with the fields REFERENCE.md gives for the real provider. */
export interface TransferFile {
  transfer_file_id: string;
  description?: string;
  file_type: 'csv' | 'json' | 'parquet';
  name: string;
  status: string;
  created_at?: string;
  updated_at?: string;
  completed_at?: string | null;
  started_at?: string | null;
  downloaded_at?: string | null;
  error_at?: string | null;
  error_message?: string | null;
  file_size?: number;
  lawsuits_count?: number;
  [extra: string]: unknown;
}
