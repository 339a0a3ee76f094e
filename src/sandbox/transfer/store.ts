// The files' records as the API shows them, and the only state that changes: the status a client PATCHes.

import type { CatalogueFile } from './catalogue.js';
import type { TransferContent } from './content.js';

/** A transfer-file record (REFERENCE.md's fields). */
export interface TransferRecord {
  transfer_file_id: string;
  description: string;
  file_type: string;
  name: string;
  status: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  started_at: string | null;
  downloaded_at: string | null;
  error_at: string | null;
  failed_at: string | null;
  error_message: string | null;
  file_size: number | null;
  lawsuits_count: number | null;
  [field: string]: unknown;
}

type PatchResult = { ok: true; record: TransferRecord } | { ok: false; status: 400 | 404; reasons: string[] };

export class TransferStore {
  private readonly byId = new Map<string, CatalogueFile>();

  constructor(readonly files: readonly CatalogueFile[], private readonly content: TransferContent, private readonly now: () => number) {
    for (const f of files) this.byId.set(f.transfer_file_id, { ...f });
  }

  find(id: string): CatalogueFile | undefined {
    return this.byId.get(id);
  }

  async record(f: CatalogueFile): Promise<TransferRecord> {
    const info = f.hasContent ? await this.content.info(f) : undefined;
    return {
      transfer_file_id: f.transfer_file_id, description: f.description, file_type: f.file_type, name: f.name, status: f.status,
      created_at: f.created_at, updated_at: f.updated_at, completed_at: f.completed_at, started_at: f.started_at,
      downloaded_at: f.downloaded_at, error_at: f.error_at, failed_at: f.failed_at, error_message: f.error_message,
      file_size: info?.bytes ?? null, lawsuits_count: info?.lawsuits ?? null,
    };
  }

  async records(): Promise<TransferRecord[]> {
    return Promise.all([...this.byId.values()].map((f) => this.record(f)));
  }

  /**
   * PATCH body `{status, error_message?: string}`, `status` among `allowed`'s keys (the dialect's names, each
   * meaning downloaded or error); any other field or value is a 400.
   */
  async patch(id: string, body: unknown, allowed: Readonly<Record<string, 'downloaded' | 'error'>> = { downloaded: 'downloaded', error: 'error' }): Promise<PatchResult> {
    const f = this.byId.get(id);
    if (!f) return { ok: false, status: 404, reasons: [`no transfer file ${id}`] };
    const reasons: string[] = [];
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      return { ok: false, status: 400, reasons: ['the body must be a JSON object {status, error_message?}'] };
    }
    const b = body as Record<string, unknown>;
    const extra = Object.keys(b).filter((k) => k !== 'status' && k !== 'error_message');
    if (extra.length) reasons.push(`unknown field(s): ${extra.join(', ')} (allowed: status, error_message)`);
    const to = typeof b.status === 'string' && Object.hasOwn(allowed, b.status) ? allowed[b.status] : undefined;
    if (!to) reasons.push(`status must be ${Object.keys(allowed).map((k) => JSON.stringify(k)).join(' or ')} (got ${JSON.stringify(b.status)})`);
    if (b.error_message !== undefined && b.error_message !== null && typeof b.error_message !== 'string') reasons.push('error_message must be a string');
    if (typeof b.error_message === 'string' && b.error_message.length > 2000) reasons.push('error_message must be at most 2000 characters');
    if (reasons.length) return { ok: false, status: 400, reasons };
    const at = new Date(this.now()).toISOString();
    f.status = to!;
    f.updated_at = at;
    if (to === 'downloaded') f.downloaded_at = at;
    else {
      f.error_at = at;
      f.error_message = typeof b.error_message === 'string' ? b.error_message : null;
    }
    return { ok: true, record: await this.record(f) };
  }
}
