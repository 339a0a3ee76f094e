// A transfer-file record as the dialect shows it. The store keeps the spec's states (completed, error,
// downloaded) and sizes in bytes; the documented dialect shows its own statuses (pending, available, consumed)
// and `file_size` in megabytes, as the provider's documentation does (`file_size: 0.038`): a client cannot
// check a download's length against it.

import type { TransferDialect } from '../dialect.js';
import type { TransferRecord } from './store.js';

export function shownRecord(t: TransferDialect, r: TransferRecord): TransferRecord {
  const status = Object.hasOwn(t.statuses, r.status) ? t.statuses[r.status as keyof TransferDialect['statuses']] : r.status;
  const size = r.file_size === null || t.fileSize === 'bytes' ? r.file_size : Math.round(r.file_size / 1000) / 1000;
  return { ...r, status, file_size: size };
}
