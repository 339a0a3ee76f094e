import { afterAll, describe, expect, it } from 'vitest';
import { lstatSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/shared/config.js';
import { EtlError } from '../../src/shared/errors.js';
import { acquireRunLock } from '../../src/shared/lock.js';
import { upsertRequest } from '../../src/warehouse/ledger.js';
import { openWorkCopy } from '../../src/warehouse/publish.js';
import { scratch, query } from '../support/pipeline.js';

// A warehouse reached through a symbolic link is the file the link ends at. The lock was keyed by the path as
// written: a run through the link and a run on the file itself ran at once; and the publish renamed the work
// copy over the link, so that the night lived in a file of its own while the real one kept the last night.

const tmp = scratch();
afterAll(() => tmp.cleanup());
let n = 0;

const configOf = (warehouse: string): Config => loadConfig({ env: { LAWSUIT_WAREHOUSE: warehouse }, flags: { sandbox: true } });

/** `<dir>/real/w.duckdb` and a link to it from another folder, `<dir>/link/w.duckdb` (made before or after the file). */
function linked(): { real: string; link: string } {
  const dir = join(tmp.dir, `case${++n}`);
  mkdirSync(join(dir, 'real'), { recursive: true });
  mkdirSync(join(dir, 'link'), { recursive: true });
  const real = join(realpathSync(dir), 'real', 'w.duckdb');
  const link = join(dir, 'link', 'w.duckdb');
  symlinkSync(real, link);
  return { real, link };
}

describe('a warehouse reached through a symbolic link', () => {
  it('is locked as the file it ends at: a run through the link and one on the file do not run at once', async () => {
    const { real, link } = linked();
    const through = configOf(link);
    const direct = configOf(real);
    const first = await acquireRunLock(through.lockFile, { command: 'run' });
    try {
      const second = await acquireRunLock(direct.lockFile, { command: 'run' }).then(async (l) => { await l.release(); return undefined; }, (e: unknown) => e);
      expect(second).toBeInstanceOf(EtlError);
      expect((second as EtlError).code).toBe('RUN_LOCKED');
    } finally {
      await first.release();
    }
    expect(through.warehouse).toBe(real);
    expect(through.lockFile).toBe(direct.lockFile);
  });

  it('so is a link in a folder of the path, and a link to a file not made yet', () => {
    const { real } = linked();
    const dir = join(tmp.dir, `case${++n}`);
    mkdirSync(dir);
    symlinkSync(join(real, '..'), join(dir, 'data'));
    expect(configOf(join(dir, 'data', 'w.duckdb')).warehouse).toBe(real);
    expect(configOf(join(dir, 'data', 'new', 'w.duckdb')).warehouse).toBe(join(real, '..', 'new', 'w.duckdb'));
    // a plain path is left as it was written
    expect(configOf('data/warehouse.duckdb').warehouse).toBe('data/warehouse.duckdb');
  });

  it('is published to the file it ends at: the link stays a link, and reads the night', async () => {
    const { real, link } = linked();
    for (const night of ['first-night', 'second-night']) {
      const copy = await openWorkCopy(configOf(link).warehouse);
      await upsertRequest(copy.wh, { request_id: night, search_type: 'cpf', search_key: '09206529722', status: 'pending' });
      await copy.publish();
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(lstatSync(real).isFile()).toBe(true);
    }
    const rows = await query<{ request_id: string }>(link, 'SELECT request_id FROM requests ORDER BY 1');
    expect(rows.map((r) => r.request_id)).toEqual(['first-night', 'second-night']);
  });
});
