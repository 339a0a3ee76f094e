import type { FieldProblem } from './problems.js';

// The rows a lawsuit flattens into. Their staging columns are declared with the tables (schema/): plain DuckDB types
// (timestamps and amounts as the payload's text) so that an odd value never fails a batch: the merge
// statements TRY_CAST them into the warehouse's types, and a value that does not fit becomes NULL with a row
// in load_problems (problems.ts). JSON text is staged as JSON directly: it is a slice of text JSON.parse
// accepted, or JSON.stringify's output, so it needs no second parse to validate it.

export interface LawsuitRow {
  code: string | null;
  instance: number | null;
  lawsuit_id: string | null;
  tribunal_acronym: string | null;
  justice: string | null;
  justice_description: string | null;
  tribunal: string | null;
  area: string | null;
  state: string | null;
  city: string | null;
  county: string | null;
  /** The judge or rapporteur, as the header names them. */
  judge: string | null;
  /** The lawsuit's situation as the header words it (location section of the descriptive form). */
  situation: string | null;
  distribution_date: string | null;
  /** The amount as the payload wrote it (its number literal, digit for digit, or its text): cast to DECIMAL(18,2) by DuckDB. */
  amount: string | null;
  status: string | null;
  phase: string | null;
  secrecy_level: number | null;
  free_justice: boolean | null;
  name: string | null;
  created_at: string | null;
  updated_at: string | null;
  crawl_id: string | null;
  crawler_source: string | null;
  crawled_at: string | null;
  last_step_date: string | null;
  /** The newest step's id: the payload's last_step, or, in a whole payload, its newest step. */
  last_step_id: string | null;
  steps_count: number | null;
  /** A whole payload's (flatten.ts isWhole) last step and count; null in a header. */
  whole_step_id: string | null;
  whole_steps_count: number | null;
  /** A whole payload's crawl time (else its response's created_at); null in a header. */
  whole_at: string | null;
  /** true in a whole payload, null in a header: once true, the lawsuit was read whole at least once. */
  whole_seen: boolean | null;
  response_id: string | null;
  response_created_at: string | null;
  cached_response: boolean | null;
  source: string | null;
  run_id: string | null;
  /** Which lists the payload carried at all: an absent list keeps what the warehouse has; an empty one clears it. */
  has_parties: boolean;
  has_steps: boolean;
  has_subjects: boolean;
  has_classifications: boolean;
  has_courts: boolean;
  has_attachments: boolean;
  has_related_lawsuits: boolean;
  /** The whole lawsuit object as JSON text, unknown properties included; null when it is in raw_parts (long-values.ts). */
  raw: string | null;
}

export interface PartyRow {
  code: string; instance: number; party_index: number;
  name: string | null; side: string | null; person_type: string | null;
  document: string | null; document_type: string | null; main_document: string | null;
  documents: string | null; raw: string;
}

export interface LawyerRow {
  code: string; instance: number; party_index: number; lawyer_index: number;
  name: string | null; side: string | null; oab: string | null; person_type: string | null; documents: string | null;
}

export interface StepRow {
  code: string; instance: number; step_id: string; step_id_derived: boolean;
  step_date: string | null; content: string | null; private: boolean | null; step_type: string | null; raw: string;
}

export interface ItemRow { code: string; instance: number; item_code: string; item_name: string | null }
export interface CourtRow { code: string; instance: number; court_index: number; court_code: string | null; court_name: string | null }
export interface AttachmentRow {
  code: string; instance: number; attachment_index: number;
  attachment_date: string | null; attachment_name: string | null; raw: string;
}

/** A lawsuit the lawsuit is related to: its CNJ number, its instance and how it is related, when the item says. */
export interface RelatedLawsuitRow {
  code: string; instance: number; related_code: string; related_instance: number | null; relation: string | null; raw: string;
}

/** An application_error item (no lawsuit found, a homonym, secrecy, ...) with its typed reason (application-error.ts). */
export interface ApplicationErrorRow {
  response_id: string; request_id: string | null; created_at: string | null;
  error_code: string | null; message: string | null; reason: string; run_id: string | null;
}

/** One response item as responses_raw keeps it; `item` null when the text is in raw_parts (long-values.ts). */
export interface ResponseRow {
  response_id: string; request_id: string | null; response_type: string | null; created_at: string | null;
  item: string | null; run_id: string | null;
}

/** A part of a text too long for its column (long-values.ts): of a response item, or of a lawsuit's raw. */
export interface RawPartRow {
  owner: 'responses_raw.item' | 'lawsuits.raw';
  response_id: string | null; code: string | null; instance: number | null;
  part: number; text: string;
}

export interface HitRow { request_id: string; code: string; instance: number; response_id: string | null }

/** One row of load_problems (problems.ts), as staged. */
export interface ProblemRow {
  response_id: string | null; code: string | null; instance: number | null;
  field: string; value: string | null; problem: string; detail: string;
}

export interface FlatLawsuit {
  lawsuit: LawsuitRow;
  parties: PartyRow[];
  lawyers: LawyerRow[];
  steps: StepRow[];
  subjects: ItemRow[];
  classifications: ItemRow[];
  attachments: AttachmentRow[];
  courts: CourtRow[];
  related_lawsuits: RelatedLawsuitRow[];
  /** Values of the payload its typed columns cannot hold (problems.ts); the key's problems among them. */
  problems: FieldProblem[];
}
