import { spawnSync } from 'node:child_process';

// A child process that runs DuckDB statements on a file and is then SIGKILLed, leaving its WAL as a crash
// would: the way the tests make the WAL states that DuckDB must replay on the next open.

/** Runs `statements` on `path` in a child process, which SIGKILLs itself afterwards. Returns the child's signal. */
export function killAfter(path: string, statements: readonly string[]): NodeJS.Signals | null {
  const code = `
    import { DuckDBInstance } from '@duckdb/node-api';
    const db = await DuckDBInstance.create(${JSON.stringify(path)}, { threads: '1', checkpoint_threshold: '1GB' });
    const c = await db.connect();
    for (const s of ${JSON.stringify(statements)}) await c.run(s);
    process.kill(process.pid, 'SIGKILL');`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  if (r.signal !== 'SIGKILL') throw new Error(`the child did not reach its kill: ${r.stderr}`);
  return r.signal;
}
