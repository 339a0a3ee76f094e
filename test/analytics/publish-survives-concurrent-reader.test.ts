import { afterEach, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { sql } from '../../src/warehouse/migrations/migration.js';
import { openWorkCopy } from '../../src/warehouse/publish.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';

// An analyst holds the published warehouse open read-only (another process) while the nightly run writes:
// the run must not fail, the analyst keeps a whole old night, and the next reader gets the whole new one.
// DuckDB would refuse the writer outright if it opened the published file itself.

const tmp = scratch('publish-');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

// A reader in its own process: opens the file READ_ONLY, answers each "count" line on stdin with the row
// count it sees through the connection it keeps open.
const READER = `
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
const require = createRequire(process.cwd() + '/package.json');
const { DuckDBInstance } = require('@duckdb/node-api');
const db = await DuckDBInstance.create(process.argv[2], { access_mode: 'READ_ONLY' });
const con = await db.connect();
const count = async () => Number((await con.runAndReadAll('SELECT count(*) AS n FROM facts')).getRowObjectsJS()[0].n);
process.stdout.write('ready ' + (await count()) + '\\n');
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'count') process.stdout.write('count ' + (await count()) + '\\n');
}
`;

function startReader(path: string): { next(): Promise<string>; ask(q: string): Promise<string> } {
  const script = join(tmp.dir, 'reader.mjs');
  writeFileSync(script, READER);
  const child = spawn(process.execPath, [script, path], { stdio: ['pipe', 'pipe', 'inherit'], cwd: process.cwd() });
  children.push(child);
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const r = await lines.next();
    if (r.done) throw new Error('reader exited');
    return r.value;
  };
  return { next, ask: async (q) => { child.stdin!.write(`${q}\n`); return next(); } };
}

// A run process that writes rows into the work copy and is killed before any checkpoint.
const WRITER = `
import { createRequire } from 'node:module';
const require = createRequire(process.cwd() + '/package.json');
const { DuckDBInstance } = require('@duckdb/node-api');
const db = await DuckDBInstance.create(process.argv[2]);
const con = await db.connect();
await con.run('INSERT INTO facts SELECT range FROM range(' + process.argv[3] + ', ' + process.argv[4] + ')');
process.kill(process.pid, 'SIGKILL');
`;

function killedWriter(path: string, from: number, to: number): Promise<NodeJS.Signals | null> {
  const script = join(tmp.dir, 'writer.mjs');
  writeFileSync(script, WRITER);
  const child = spawn(process.execPath, [script, path, String(from), String(to)], { stdio: 'inherit', cwd: process.cwd() });
  return new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
}

const migrations = [{ version: 1, name: 'facts', changes: [sql('CREATE TABLE facts (n INTEGER PRIMARY KEY)')] }];
const count = async (path: string) => {
  const wh = await Warehouse.open(path, { readOnly: true });
  try {
    return Number((await wh.all<{ n: number }>('SELECT count(*) AS n FROM facts'))[0].n);
  } finally {
    await wh.close();
  }
};
const addRows = (wh: Warehouse, from: number, to: number) => wh.run(`INSERT INTO facts SELECT range FROM range(${from}, ${to})`);

it('publishes while another process reads the published file, which keeps its old night', async () => {
  const published = join(tmp.dir, 'reader-case.duckdb');
  const night1 = await openWorkCopy(published, { migrations });
  expect(night1.resumed).toBe(false);
  await addRows(night1.wh, 0, 100);
  await night1.publish();
  expect(existsSync(`${published}.work`)).toBe(false);

  const reader = startReader(published);
  expect(await reader.next()).toBe('ready 100');

  // Proof that the hazard is real: writing the published file in place is refused while the reader holds it.
  await expect(Warehouse.open(published, { migrations })).rejects.toThrow(/lock/i);

  const night2 = await openWorkCopy(published, { migrations });
  await addRows(night2.wh, 100, 250);
  expect(await reader.ask('count')).toBe('count 100');
  await night2.publish();

  expect(await reader.ask('count')).toBe('count 100');
  expect(await count(published)).toBe(250);
});

it('resumes a run that died before publishing from its work copy; readers meanwhile see the last published night', async () => {
  const published = join(tmp.dir, 'crash-case.duckdb');
  const night1 = await openWorkCopy(published, { migrations });
  await addRows(night1.wh, 0, 10);
  await night1.publish();

  const reader = startReader(published);
  expect(await reader.next()).toBe('ready 10');

  // The run opens its work copy, loads half its night and dies (SIGKILL, in a process of its own): the rows
  // are only in the work copy's WAL, never checkpointed.
  const started = await openWorkCopy(published, { migrations });
  await started.close();
  expect(await killedWriter(`${published}.work`, 10, 40)).toBe('SIGKILL');
  expect(existsSync(`${published}.work.wal`)).toBe(true);
  expect(await count(published)).toBe(10);
  expect(await reader.ask('count')).toBe('count 10');

  const resumed = await openWorkCopy(published, { migrations });
  expect(resumed.resumed).toBe(true);
  expect(Number((await resumed.wh.all<{ n: number }>('SELECT count(*) AS n FROM facts'))[0].n)).toBe(40);
  await addRows(resumed.wh, 40, 60);
  expect(await count(published)).toBe(10);

  // Closing without publishing keeps the work copy for the next run as well.
  await resumed.close();
  const again = await openWorkCopy(published, { migrations });
  expect(again.resumed).toBe(true);
  await again.publish();
  expect(await count(published)).toBe(60);
  expect(await reader.ask('count')).toBe('count 10');
  expect(existsSync(`${published}.work`)).toBe(false);
});

it('takes over a WAL an old in-place writer left beside the published file, and publishes without it', async () => {
  const published = join(tmp.dir, 'legacy-case.duckdb');
  const legacy = await Warehouse.open(published, { migrations });
  await addRows(legacy, 0, 5);
  await legacy.close();
  expect(await killedWriter(published, 5, 25)).toBe('SIGKILL');
  expect(existsSync(`${published}.wal`)).toBe(true);

  const night = await openWorkCopy(published, { migrations });
  expect(night.resumed).toBe(false);
  expect(Number((await night.wh.all<{ n: number }>('SELECT count(*) AS n FROM facts'))[0].n)).toBe(25);
  await night.publish();
  expect(existsSync(`${published}.wal`)).toBe(false);
  expect(await count(published)).toBe(25);
});
