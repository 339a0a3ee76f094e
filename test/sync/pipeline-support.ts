// A RunContext over an in-process sandbox and a temp warehouse carrying the sync migrations.
import type { LawsuitApi } from '../../src/api/client.js';
import type { RunContext } from '../../src/pipeline/context.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { startRun } from '../../src/warehouse/ledger.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { configFor, silent } from '../support/pipeline.js';

export async function openWarehouse(path: string): Promise<Warehouse> {
  return Warehouse.open(path);
}

export async function contextFor(sandbox: Sandbox, dir: string, wh: Warehouse, api: LawsuitApi, command: string, runId?: string): Promise<RunContext> {
  const cfg = configFor(sandbox.url, dir);
  return {
    cfg, api, wh, log: silent, signal: new AbortController().signal,
    runId: runId ?? await startRun(wh, { command }),
  };
}
