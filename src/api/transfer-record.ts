// Reading a transfer-file record as loosely as the provider documents it (docs/dialect-and-spec-gaps.md, "The provider's dialect"):
// the spec names the statuses completed, error and downloaded, the documentation also pending, available and
// consumed; `file_size` is shown as 0.038 (not bytes); the name of the download address's field is not shown.
// Each rule is strict where a mistake costs data (a size check that would refuse every file, a file loaded
// twice) and lenient where the documentation is loose.

/** What the transfer step does with a file of this status. */
type TransferState =
  /** Ready to download: `completed` (spec), `available` (documentation). */
  | 'ready'
  /** Already taken by someone: `downloaded` (spec), `consumed` (documentation). */
  | 'taken'
  /** Marked failed at the provider: `error`, `failed`. */
  | 'failed'
  /** Not ready yet: `pending`, `started`, `processing`, `created`. */
  | 'waiting'
  /** A status neither names: left alone and reported, never loaded on a guess. */
  | 'unknown';

const STATES: Readonly<Record<string, TransferState>> = {
  completed: 'ready', available: 'ready',
  downloaded: 'taken', consumed: 'taken',
  error: 'failed', failed: 'failed',
  pending: 'waiting', started: 'waiting', processing: 'waiting', created: 'waiting',
};

export function transferStateOf(status: unknown): TransferState {
  return typeof status === 'string' ? STATES[status.trim().toLowerCase()] ?? 'unknown' : 'unknown';
}

/** The word a file is marked taken with, at the provider: one of the two vocabularies its listings use. */
export type TakenStatus = 'downloaded' | 'consumed';

/**
 * How to mark taken a file its listing showed with `status`, in that listing's vocabulary: `consumed` where it
 * says available/consumed (the documentation's page), `downloaded` where it says completed/downloaded (the spec's).
 */
export function takenStatusFor(status: unknown): TakenStatus {
  const s = typeof status === 'string' ? status.trim().toLowerCase() : '';
  return s === 'available' || s === 'consumed' ? 'consumed' : 'downloaded';
}

/** The other vocabulary's word, for a provider that refuses the one its listing suggested. */
export function otherTakenStatus(s: TakenStatus): TakenStatus {
  return s === 'consumed' ? 'downloaded' : 'consumed';
}

/**
 * The record's `file_size` when it is plainly a count of bytes: a whole number of at least a KiB. The
 * documentation shows 0.038 (megabytes, by the look of it): a size in another unit would fail every download's
 * size check, so a fraction, or a number too small to tell, checks nothing.
 */
export function sizeInBytes(fileSize: unknown): number | undefined {
  return typeof fileSize === 'number' && Number.isSafeInteger(fileSize) && fileSize >= 1024 ? fileSize : undefined;
}

/** Field names a download address is known under, the sandbox's spec reading first. */
const ADDRESS_FIELDS = ['download_url', 'url', 'presigned_url', 'signed_url', 'file_url', 'download_link', 'link'];

type DownloadAddress = { url: string; field: string } | { error: string };

/**
 * Where the file downloads from: a field of a known name holding an address; else the one field of the record
 * (top level) holding an http(s) address; else an error saying which. The address itself never appears in the
 * error: it is a credential for five minutes.
 */
export function downloadAddressOf(record: Readonly<Record<string, unknown>>): DownloadAddress {
  const isAddress = (v: unknown): v is string => typeof v === 'string' && /^https?:\/\/\S+$/i.test(v.trim());
  for (const f of ADDRESS_FIELDS) if (isAddress(record[f])) return { url: (record[f] as string).trim(), field: f };
  const found = Object.entries(record).filter(([, v]) => isAddress(v));
  const distinct = new Set(found.map(([, v]) => (v as string).trim()));
  if (distinct.size === 1) return { url: [...distinct][0], field: found[0][0] };
  if (distinct.size === 0) return { error: 'the provider gave no download address for this file (no field holds an http(s) address)' };
  return { error: `the file's record holds ${distinct.size} different addresses (${found.map(([k]) => k).join(', ')}): which one downloads it is not known` };
}
