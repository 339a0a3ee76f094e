// The list of files the sandbox offers, a pure function of the seed and the options: the same sandbox always
// offers the same files with the same ids, names, timestamps and contents.

import { hash, uuidOf } from '../random.js';
import { FLAT_KINDS, type FlatKind } from './flat-source.js';

type TransferFileType = 'csv' | 'json' | 'parquet';
const FILE_TYPES: readonly TransferFileType[] = ['csv', 'json', 'parquet'];

/** One file of the catalogue: its record fields at start-up plus what its content is made of. */
export interface CatalogueFile {
  transfer_file_id: string;
  name: string;
  description: string;
  file_type: TransferFileType;
  /** completed or error at start-up; then whatever the client PATCHes (downloaded, error). */
  status: string;
  created_at: string;
  updated_at: string;
  started_at: string;
  completed_at: string | null;
  downloaded_at: string | null;
  error_at: string | null;
  failed_at: string | null;
  error_message: string | null;
  /** Which rows the file holds. */
  kind: FlatKind;
  /** The file's lawsuit stream in the FlatSource (distinct per file). */
  stream: number;
  /** Text files stop at the first lawsuit boundary at or past this many bytes; parquet files hold the lawsuits
   * whose CSV form would take that many bytes (so they come out smaller). */
  targetBytes: number;
  /** False for the files the provider itself failed to prepare: they have no content to download. */
  hasContent: boolean;
}

/** An extra file a test or the bench wants in the catalogue. */
interface ExtraFile {
  /** Size to aim for, in bytes. Default 16 KiB. */
  bytes?: number;
  /** Default 'csv'. */
  fileType?: TransferFileType;
  /** Default 'lawsuits'. */
  kind?: FlatKind;
  /** Server-given name, e.g. a hostile one. Default `<uuid>-part-00001.<ext>`. */
  name?: string;
}

export interface CatalogueOptions {
  /** Everything is derived from it. */
  seed: number;
  /** Number of regular files. Default 12. */
  count?: number;
  /** How many of the regular files the provider failed to prepare (status error). Default 2. */
  errorCount?: number;
  /** Smallest regular file, in bytes. Default 4096. */
  minBytes?: number;
  /** Largest regular file, in bytes. Default 3 MiB. */
  maxBytes?: number;
  /** Files appended after the regular ones (huge files for tests and the bench, hostile names). Default none. */
  extra?: readonly ExtraFile[];
}

const BASE_MS = Date.UTC(2025, 0, 6, 2, 0, 0);
const MINUTE = 60_000;

export function buildCatalogue(opts: CatalogueOptions): CatalogueFile[] {
  const count = opts.count ?? 12;
  const errorCount = Math.min(opts.errorCount ?? 2, count);
  const minBytes = opts.minBytes ?? 4096;
  const maxBytes = Math.max(opts.maxBytes ?? 3 * 1024 * 1024, minBytes);
  const files: CatalogueFile[] = [];
  // The failed files sit among the others (every other one from the end), not all at one end of the listing.
  const failed = new Set(Array.from({ length: errorCount }, (_, k) => count - 1 - 2 * k).filter((i) => i >= 0));
  for (let i = 0; i < count; i++) {
    const ratio = count === 1 ? 0 : i / (count - 1);
    const bytes = Math.round(minBytes * (maxBytes / minBytes) ** ratio);
    files.push(makeFile(opts.seed, i, FILE_TYPES[i % 3], FLAT_KINDS[Math.floor(i / 3) % 3], bytes, undefined, !failed.has(i)));
  }
  (opts.extra ?? []).forEach((x, k) => {
    files.push(makeFile(opts.seed, count + k, x.fileType ?? 'csv', x.kind ?? 'lawsuits', x.bytes ?? 16_384, x.name, true));
  });
  return files;
}

function makeFile(seed: number, i: number, fileType: TransferFileType, kind: FlatKind, bytes: number, name: string | undefined, ok: boolean): CatalogueFile {
  const id = uuidOf(seed, 'transfer-file', i);
  const created = BASE_MS + i * 6 * 60 * MINUTE + (hash(seed, i, 0xc0de) % 240) * MINUTE;
  const iso = (ms: number) => new Date(ms).toISOString();
  const started = created + MINUTE;
  const ended = started + (1 + Math.ceil(bytes / 10_000_000)) * MINUTE;
  return {
    transfer_file_id: id,
    name: name ?? `${id}-part-00001.${fileType}`,
    description: `${kind} export ${iso(created).slice(0, 10)}`,
    file_type: fileType,
    status: ok ? 'completed' : 'error',
    created_at: iso(created),
    updated_at: iso(ended),
    started_at: iso(started),
    completed_at: ok ? iso(ended) : null,
    downloaded_at: null,
    error_at: ok ? null : iso(ended),
    failed_at: ok ? null : iso(ended),
    error_message: ok ? null : 'export worker timed out while writing the file',
    kind,
    stream: i,
    targetBytes: bytes,
    hasContent: ok,
  };
}
