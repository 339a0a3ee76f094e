import { constants as fsc } from 'node:fs';
import { copyFile, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import { applyComments } from './comments.js';
import { Warehouse, WarehouseError, type WarehouseOptions } from './warehouse.js';

// Publishing by rename. DuckDB will not open a file for writing while any other process holds it, even
// read-only ("Conflicting lock is held"), so the run never writes the published file: it loads a work copy
// beside it and, once the run is complete, renames the copy over the published name. A reader that has the
// published file open keeps its inode (the old night, whole); a reader opening after the rename gets the new
// night, whole. Nobody ever opens the work copy but the run, so nobody sees a half-loaded night.
//
// The work copy is also what makes a crash resumable: a run that dies leaves it (and its WAL) behind, with the
// ledger of every page it loaded, and the next run carries on in it instead of starting from the published file.

export interface WorkCopyOptions extends WarehouseOptions {
  /** Where to say that a work copy was resumed or published. Default: silent. */
  log?: Pick<Logger, 'info' | 'warn'>;
  /** Run applyComments (comments.ts) before publishing, so every table and column is described. Default true. */
  comment?: boolean;
}

export interface WorkCopy {
  /** The open warehouse on the work copy: everything the run writes goes here. */
  wh: Warehouse;
  /** `${publishedPath}.work`. */
  workPath: string;
  /** True when an earlier run's work copy was found and carried on (it crashed or stopped before publishing). */
  resumed: boolean;
  /** Comments, CHECKPOINT, close, fsync, rename over the published file. The Warehouse is closed afterwards. */
  publish(): Promise<void>;
  /** Closes without publishing: the work copy stays for the next run to resume. */
  close(): Promise<void>;
}

export const workPathOf = (publishedPath: string): string => `${publishedPath}.work`;
const walOf = (path: string): string => `${path}.wal`;

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

/** A reflink where the filesystem has them (instant, no extra space), else a plain copy. */
async function cloneFile(from: string, to: string): Promise<void> {
  try {
    await copyFile(from, to, fsc.COPYFILE_FICLONE);
  } catch {
    await copyFile(from, to);
  }
}

async function fsyncPath(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } catch (e) {
    // Some filesystems refuse fsync on a directory (EINVAL, EISDIR); the rename is still atomic there.
    if (!['EINVAL', 'EISDIR', 'EPERM', 'ENOTSUP'].includes((e as NodeJS.ErrnoException).code ?? '')) throw e;
  } finally {
    await fh.close();
  }
}

/**
 * Opens (creating or resuming) the work copy of the warehouse at `publishedPath`. Must be called under the run
 * lock: two runs sharing one work copy would interleave their ledgers.
 */
export async function openWorkCopy(publishedPath: string, opts: WorkCopyOptions = {}): Promise<WorkCopy> {
  const { log, comment = true, ...whOpts } = opts;
  if (publishedPath === ':memory:' || whOpts.readOnly) {
    throw new WarehouseError('WAREHOUSE_WORK_COPY', 'a work copy needs a writable warehouse file');
  }
  const workPath = workPathOf(publishedPath);
  await mkdir(dirname(publishedPath), { recursive: true });
  const resumed = await exists(workPath);
  if (resumed) {
    log?.warn({ work_copy: workPath }, 'carrying on in the work copy an earlier run left unpublished');
  } else {
    // A stale WAL beside a missing work copy is a leftover of an interrupted copy; it must not be replayed.
    await rm(walOf(workPath), { force: true });
    if (await exists(publishedPath)) {
      await cloneFile(publishedPath, workPath);
      // A WAL next to the published file means a writer of the old kind (one that wrote the published file in
      // place) stopped without a checkpoint. Copying it along lets DuckDB replay it into the work copy, without
      // opening the published file for writing (which a reader's lock would refuse).
      if (await exists(walOf(publishedPath))) await cloneFile(walOf(publishedPath), walOf(workPath));
    }
  }
  const wh = await Warehouse.open(workPath, whOpts);
  let closed = false;
  return {
    wh,
    workPath,
    resumed,
    async publish() {
      if (closed) throw new WarehouseError('WAREHOUSE_WORK_COPY', 'the work copy is already closed');
      if (comment) {
        const { missing } = await applyComments(wh);
        if (missing.length > 0) log?.warn({ columns: missing.slice(0, 20) }, 'warehouse columns without a comment (add them to comments.ts)');
      }
      closed = true;
      await wh.close(); // CHECKPOINTs: the work file then holds everything and its WAL is gone
      if (await exists(walOf(workPath))) {
        throw new WarehouseError('WAREHOUSE_PUBLISH', `the work copy ${workPath} still has a WAL after its checkpoint; not publishing it`);
      }
      await fsyncPath(workPath);
      // The old WAL belongs to the old file: left there, a reader opening the new file would replay it.
      await rm(walOf(publishedPath), { force: true });
      await rename(workPath, publishedPath);
      await fsyncPath(dirname(publishedPath));
      log?.info({ warehouse: publishedPath }, 'warehouse published');
    },
    async close() {
      if (closed) return;
      closed = true;
      await wh.close();
    },
  };
}
