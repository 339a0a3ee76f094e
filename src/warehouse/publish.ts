import { constants as fsc } from 'node:fs';
import { copyFile, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import { failpoint } from '../shared/failpoint.js';
import { applyComments } from './comments.js';
import { firstLine, isDamagedFile } from './wal-recovery.js';
import { Warehouse, WarehouseError, type WarehouseOptions } from './warehouse.js';

// Publishing by rename. DuckDB will not open a file for writing while any other process holds it, even
// read-only ("Conflicting lock is held"), so the run never writes the published file: it loads a work copy
// beside it and, once the run is complete, renames the copy over the published name. A reader that has the
// published file open keeps its inode (the old night, whole); a reader opening after the rename gets the new
// night, whole. Nobody ever opens the work copy but the run, so nobody sees a half-loaded night.
//
// The work copy is also what makes a crash resumable: a run that dies leaves it (and its WAL) behind, with the
// ledger of every page it loaded, and the next run carries on in it instead of starting from the published file.
//
// A kill at any point must leave a work copy DuckDB can open. Catalog changes (migrations, comments) are
// checkpointed the moment they are made, because DuckDB 1.5 cannot replay some of them from a WAL (see
// wal-recovery.ts); the publish checkpoints the night's data first, then comments what the run created, then
// checkpoints again, so the WAL never holds a catalog change across more than one statement.

export interface WorkCopyOptions extends WarehouseOptions {
  /** Where to say that a work copy was resumed, recovered or published. Default: silent. */
  log?: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Run applyComments (comments.ts) on open and before publishing, so every table and column is described. Default true. */
  comment?: boolean;
}

/** What was done to a work copy DuckDB could not open as it was. */
interface WorkCopyRecovery {
  /**
   * - `last-checkpoint`: the WAL could not be replayed at all; the run carries on from the work copy's last
   *   checkpoint, and what came after it (pages, ledger rows) is done again by this run.
   * - `published`: the work copy could not be read at all; the run starts again from the published warehouse.
   */
  how: 'last-checkpoint' | 'published';
  /** DuckDB's reason, first line. */
  reason: string;
  /** Where the unreadable files were kept for inspection (`last-checkpoint`, `published`). */
  keptAt?: string;
}

export interface WorkCopy {
  /** The open warehouse on the work copy: everything the run writes goes here. */
  wh: Warehouse;
  /** `${publishedPath}.work`. */
  workPath: string;
  /** True when an earlier run's work copy was found and carried on (it crashed or stopped before publishing). */
  resumed: boolean;
  /** Set when the work copy could not be opened as it was and had to be recovered. */
  recovery?: WorkCopyRecovery;
  /** CHECKPOINT, comments, CHECKPOINT, close, fsync, rename over the published file. The Warehouse is closed afterwards. */
  publish(): Promise<void>;
  /** Closes without publishing: the work copy stays for the next run to resume. */
  close(): Promise<void>;
}

const workPathOf = (publishedPath: string): string => `${publishedPath}.work`;
const walOf = (path: string): string => `${path}.wal`;
/** DuckDB's spill folder for a file (its default temp_directory): only the run ever uses the work copy's. */
const spillDirOf = (path: string): string => `${path}.tmp`;

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

/** Where a copy is written before it takes its name: a kill mid-copy leaves only this, which nothing opens. */
const partialOf = (path: string): string => `${path}.partial`;

/**
 * `from` copied to `to` whole or not at all: written under a temporary name, flushed, then renamed. A copy
 * written straight to `to` and killed after 9 of 30 MB left a work copy DuckDB could not read ("Could not read
 * enough bytes"), which every later run then tried to carry on in.
 */
async function cloneWhole(from: string, to: string): Promise<void> {
  const partial = partialOf(to);
  await rm(partial, { force: true });
  await cloneFile(from, partial);
  await fsyncPath(partial);
  failpoint('work-copy.before-rename');
  await rename(partial, to);
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

/** The published file (and a WAL an old in-place writer left beside it) as a new work copy, or nothing. */
async function cloneFromPublished(publishedPath: string, workPath: string): Promise<void> {
  // A stale WAL beside a missing work copy is a leftover of an interrupted copy; it must not be replayed.
  await rm(walOf(workPath), { force: true });
  if (await exists(publishedPath)) {
    // A WAL next to the published file means a writer of the old kind (one that wrote the published file in
    // place) stopped without a checkpoint. Copying it along lets DuckDB replay it into the work copy, without
    // opening the published file for writing (which a reader's lock would refuse). It goes first: until the
    // work copy has its name, a WAL beside the missing name is a leftover the next run removes (above).
    if (await exists(walOf(publishedPath))) await cloneFile(walOf(publishedPath), walOf(workPath));
    await cloneWhole(publishedPath, workPath);
  }
}

/**
 * Makes sure a work copy is there to open, true when it is an earlier run's (resumed), false when it is a fresh
 * clone of the published file (or nothing, for a first night).
 */
async function readyWorkCopy(publishedPath: string, workPath: string, log: WorkCopyOptions['log']): Promise<boolean> {
  await mkdir(dirname(publishedPath), { recursive: true });
  // A killed run leaves DuckDB's spill files behind, and a copy it did not finish; nothing else uses either.
  await rm(spillDirOf(workPath), { recursive: true, force: true });
  await rm(partialOf(workPath), { force: true });
  const resumed = await exists(workPath);
  if (resumed) log?.warn({ work_copy: workPath }, 'carrying on in the work copy an earlier run left unpublished');
  else await cloneFromPublished(publishedPath, workPath);
  return resumed;
}

/** The warehouse of the work copy readyWorkCopy left, recovered when DuckDB refuses it as damaged, its comments written. */
async function openReadyWorkCopy(publishedPath: string, workPath: string, resumed: boolean, whOpts: WarehouseOptions, comment: boolean,
  log: WorkCopyOptions['log']): Promise<{ wh: Warehouse; recovery?: WorkCopyRecovery }> {
  let wh: Warehouse;
  let recovery: WorkCopyRecovery | undefined;
  try {
    // A fresh clone is whole by construction (written aside, renamed once whole); a work copy an earlier run left
    // is checked, as is a copy of it (recoverWorkCopy): the check reads every table's storage, too dear for every run.
    wh = resumed ? await openWhole(workPath, whOpts) : await Warehouse.open(workPath, whOpts);
  } catch (e) {
    if (!(e instanceof WarehouseError) || e.code !== 'WAREHOUSE_OPEN' || !isDamagedFile(e)) throw e;
    ({ wh, recovery } = await recoverWorkCopy(publishedPath, workPath, whOpts, e, log));
  }
  try {
    // Comments right after the migrations, checkpointed with them: never left in the WAL (wal-recovery.ts).
    if (comment) await commentDurably(wh, log);
  } catch (e) {
    await wh.close().catch(() => undefined);
    throw e;
  }
  return { wh, recovery };
}

/**
 * Opens (creating or resuming) the work copy of the warehouse at `publishedPath`. Must be called under the run
 * lock: two runs sharing one work copy would interleave their ledgers, and the leftovers of killed runs
 * (DuckDB's spill folder) are removed here on the strength of it.
 */
export async function openWorkCopy(publishedPath: string, opts: WorkCopyOptions = {}): Promise<WorkCopy> {
  const { log, comment = true, ...whOpts } = opts;
  if (publishedPath === ':memory:' || whOpts.readOnly) {
    throw new WarehouseError('WAREHOUSE_WORK_COPY', 'a work copy needs a writable warehouse file');
  }
  const workPath = workPathOf(publishedPath);
  const resumed = await readyWorkCopy(publishedPath, workPath, log);
  const { wh, recovery } = await openReadyWorkCopy(publishedPath, workPath, resumed, whOpts, comment, log);

  let closed = false;
  return {
    wh,
    workPath,
    resumed,
    recovery,
    async publish() {
      if (closed) throw new WarehouseError('WAREHOUSE_WORK_COPY', 'the work copy is already closed');
      await wh.checkpoint(); // the night's data into the file: from here the WAL is empty
      failpoint('publish.after-checkpoint');
      // Tables the run created (transfer_*) get their comments, checkpointed at once like any catalog change.
      if (comment) await commentDurably(wh, log, () => failpoint('publish.after-comments'));
      closed = true;
      await wh.close(); // one more CHECKPOINT (nothing left to write) and the WAL file is gone
      if (await exists(walOf(workPath))) {
        throw new WarehouseError('WAREHOUSE_PUBLISH', `the work copy ${workPath} still has a WAL after its checkpoint; not publishing it`);
      }
      await fsyncPath(workPath);
      // The old WAL belongs to the old file: left there, a reader opening the new file would replay it.
      await rm(walOf(publishedPath), { force: true });
      failpoint('publish.before-rename');
      await rename(workPath, publishedPath);
      failpoint('publish.after-rename');
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

/** DuckDB's file: its main header and two database headers, then its blocks. */
const HEADERS_BYTES = 3 * 4096;

/**
 * Opens a work copy, refusing one cut short. DuckDB opens a file whose end is gone as long as its headers and
 * catalog are there, and fails on the first statement that reads a block past the end ("Could not read enough
 * bytes", on the run's first INSERT): half of a night's published file opened that way. So every block a table's
 * data lies in (pragma_storage_info) must be in the file, or it is damaged; asking DuckDB where they lie reads
 * the tables' metadata, which fails the same way when that is what was lost. (The free blocks DuckDB counts may
 * lie past the end of a file it truncated: only the blocks in use say how long the file must be.)
 */
async function openWhole(path: string, opts: WarehouseOptions): Promise<Warehouse> {
  const wh = await Warehouse.open(path, opts);
  const cutShort = (why: string) => new WarehouseError('WAREHOUSE_OPEN', `the file ${path} is cut short: ${why}`);
  let failure: WarehouseError | undefined;
  try {
    const tables = await wh.all<{ name: string }>(`SELECT table_name AS name FROM duckdb_tables() WHERE database_name = current_database() AND NOT temporary`);
    const [{ block_size: blockSize }] = await wh.all<{ block_size: number }>('SELECT block_size FROM pragma_database_size() WHERE database_name = current_database()');
    let last = -1;
    for (const t of tables) {
      const [r] = await wh.all<{ m: number | null }>(`SELECT max(block_id) AS m FROM pragma_storage_info($1) WHERE persistent`, [t.name]);
      if (r.m !== null) last = Math.max(last, Number(r.m));
    }
    const need = HEADERS_BYTES + (last + 1) * Number(blockSize);
    const size = (await stat(path)).size;
    if (size < need) failure = cutShort(`${size} bytes where its tables' blocks need ${need}`);
  } catch (e) {
    failure = cutShort(firstLine(e));
  }
  if (!failure) return wh;
  await wh.close().catch(() => undefined);
  throw failure;
}

/** Comments what lacks one and checkpoints at once if anything changed. `between` is a test hook (failpoint). */
async function commentDurably(wh: Warehouse, log: WorkCopyOptions['log'], between?: () => void): Promise<void> {
  const { applied, missing } = await applyComments(wh);
  between?.();
  if (applied > 0) await wh.checkpoint();
  if (missing.length > 0) log?.warn({ columns: missing.slice(0, 20) }, 'warehouse columns without a comment (add them to comments.ts)');
}

/**
 * A work copy DuckDB refused to open: set aside (never deleted), and the run carries on from its last checkpoint,
 * or else from the published file. Each step says what happened and what it does about it. (The DuckDB WAL bug a
 * first step once replayed no longer bites: Warehouse.open attaches the file, which replays such a WAL.)
 */
async function recoverWorkCopy(publishedPath: string, workPath: string, whOpts: WarehouseOptions, cause: unknown,
  log: WorkCopyOptions['log']): Promise<{ wh: Warehouse; recovery: WorkCopyRecovery }> {
  const reason = firstLine(cause);
  const keptAt = `${workPath}.broken-${new Date().toISOString().replace(/[-:.]/g, '')}`;
  await rename(workPath, keptAt);
  if (await exists(walOf(workPath))) await rename(walOf(workPath), walOf(keptAt));
  // The file without its WAL is the state of the work copy's last checkpoint: consistent (pages and their
  // ledger rows are checkpointed together), and never older than the published file it was copied from.
  try {
    await cloneWhole(keptAt, workPath);
    const wh = await openWhole(workPath, whOpts);
    log?.error({ work_copy: workPath, kept_at: keptAt, reason },
      'the work copy could not be opened; carrying on from its last checkpoint. What the earlier run did after that checkpoint is done again: '
      + 'its pages are read again, and searches it submitted after it that the provider\'s listing does not show may be submitted again. '
      + 'The unreadable files are kept for inspection');
    return { wh, recovery: { how: 'last-checkpoint', reason, keptAt } };
  } catch (e) {
    await rm(workPath, { force: true });
    await rm(walOf(workPath), { force: true });
    await cloneFromPublished(publishedPath, workPath);
    const wh = await Warehouse.open(workPath, whOpts);
    log?.error({ work_copy: workPath, kept_at: keptAt, reason, last_checkpoint: firstLine(e) },
      'the work copy could not be read at all; starting again from the published warehouse. The earlier run\'s unpublished work is done again, '
      + 'and searches it submitted may be submitted again. The unreadable files are kept for inspection');
    return { wh, recovery: { how: 'published', reason, keptAt } };
  }
}
