import { loadConfig, type Config } from '../shared/config.js';
import { EtlError, EXIT, type ExitCode } from '../shared/errors.js';
import { logger } from '../shared/logger.js';
import { acquireRunLock } from '../shared/lock.js';
import { readDocuments } from '../input/documents.js';
import { openSession } from '../pipeline/session.js';
import { runNightly } from '../pipeline/run.js';
import { formatSummary, type RunSummary } from '../pipeline/summary.js';
import { writeReport } from '../pipeline/report.js';
import { runTransfer } from '../pipeline/transfer.js';
import { Warehouse } from '../warehouse/warehouse.js';
import { exportParquet } from '../warehouse/export.js';
import { runSandboxCli } from '../sandbox/cli.js';
import { runScheduleCli } from '../schedule/command.js';
import { HELP, type ParsedArgs } from './args.js';
import { prepareEnvironment } from './environment.js';

/** SIGTERM/SIGINT abort the run gracefully; a second signal ends the process at once. */
function gracefulSignal(): { signal: AbortSignal; dispose(): void } {
  const ac = new AbortController();
  const onSignal = (sig: NodeJS.Signals): void => {
    if (ac.signal.aborted) process.exit(128 + (sig === 'SIGINT' ? 2 : 15));
    logger().warn({ signal: sig }, 'stopping: no new submissions; finishing what is in hand');
    ac.abort();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return { signal: ac.signal, dispose: () => { process.off('SIGTERM', onSignal); process.off('SIGINT', onSignal); } };
}

function lockPath(cfg: Config): string {
  return process.env.LAWSUIT_LOCK_FILE || `${cfg.warehouse}.lock`;
}

function exitFor(s: RunSummary): ExitCode {
  return s.status === 'ok' || s.status === 'dry-run' ? EXIT.ok : EXIT.partial;
}

export async function runCommand(args: ParsedArgs): Promise<ExitCode> {
  const command = args.command!;
  if (args.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  if (command === 'sandbox') {
    try {
      await runSandboxCli(args.rest);
    } catch (e) {
      if (e instanceof RangeError) throw new EtlError('CLI_BAD_FLAGS', `sandbox: ${e.message}`, { exitCode: EXIT.usage });
      throw e;
    }
    return EXIT.ok;
  }
  if (command === 'schedule') return (await runScheduleCli(args.rest)) as ExitCode;

  const cfg = loadConfig({ flags: args.flags });
  const log = logger();
  log.level = cfg.logLevel;

  if (command === 'export') {
    const lock = await acquireRunLock(lockPath(cfg), { command });
    const wh = await Warehouse.open(cfg.warehouse);
    try {
      const out = await exportParquet(wh, cfg.exportDir);
      process.stdout.write(`exported ${out.tables.length} tables (${out.tables.reduce((n, t) => n + t.rows, 0)} rows) to ${cfg.exportDir}\n`);
      return EXIT.ok;
    } finally {
      await wh.close();
      await lock.release();
    }
  }

  if (command === 'query' || command === 'track') {
    throw new EtlError('CLI_NOT_AVAILABLE', `${command}: the synchronous queries and tracking are not part of this build yet`, { exitCode: EXIT.usage });
  }

  const lock = cfg.dryRun ? undefined : await acquireRunLock(lockPath(cfg), { command });
  const env = await prepareEnvironment(cfg);
  const graceful = gracefulSignal();
  try {
    const list = command === 'run' ? await readDocuments(env.cfg.documents) : undefined;
    const session = await openSession(env.cfg, { command, log, signal: graceful.signal, apiKey: env.apiKey });
    try {
      if (command === 'transfer') {
        const t = await runTransfer({ api: session.ctx.api.transfer, wh: session.ctx.wh, stagingDir: env.cfg.stagingDir, runId: session.ctx.runId, log: session.ctx.log });
        process.stdout.write(`transfer: ${t.listed} listed, ${t.loaded} loaded (${t.rows} rows), ${t.skipped} already loaded, ${t.failed.length} failed\n`);
        for (const f of t.failed) process.stdout.write(`  FAILED ${f.name} (${f.id}): ${f.reason}\n`);
        return t.failed.length ? EXIT.partial : EXIT.ok;
      }
      const summary = await runNightly(session.ctx, list!, { command });
      if (!cfg.dryRun) {
        const report = await writeReport(env.cfg.reportsDir, summary);
        log.info({ report }, 'run report written');
      }
      process.stdout.write(`${formatSummary(summary)}\n`);
      return exitFor(summary);
    } finally {
      await session.close();
    }
  } finally {
    graceful.dispose();
    await env.close();
    await lock?.release();
  }
}
