import { loadConfig, type Config } from '../shared/config.js';
import { EtlError, EXIT, type ExitCode } from '../shared/errors.js';
import { logger } from '../shared/logger.js';
import { acquireRunLock, defaultLockPath } from '../shared/lock.js';
import { readDocuments } from '../input/documents.js';
import { openSession } from '../pipeline/session.js';
import { finishCommand, runNightly, transferStep } from '../pipeline/run.js';
import { formatSummary, type RunSummary } from '../pipeline/summary.js';
import { writeReport } from '../pipeline/report.js';
import { QUERY_KINDS, runQueries, type QueryKind } from '../pipeline/sync.js';
import { runTracking } from '../pipeline/track.js';
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
  return defaultLockPath(process.env, cfg.warehouse);
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
    // Exports only read: a read-only open works beside analysts holding the file, and never changes it.
    const wh = await Warehouse.open(cfg.warehouse, { readOnly: true });
    try {
      const out = await exportParquet(wh, cfg.exportDir);
      process.stdout.write(`exported ${out.tables.length} tables (${out.tables.reduce((n, t) => n + t.rows, 0)} rows) to ${cfg.exportDir}\n`);
      return EXIT.ok;
    } finally {
      await wh.close();
      await lock.release();
    }
  }

  let kind: QueryKind | undefined;
  if (command === 'query') {
    const k = args.flags.kind;
    if (typeof k !== 'string' || !(QUERY_KINDS as readonly string[]).includes(k)) {
      throw new EtlError('CLI_BAD_FLAGS', `query: --kind must be one of ${QUERY_KINDS.join(', ')} (got ${JSON.stringify(k ?? null)})`, { exitCode: EXIT.usage });
    }
    kind = k as QueryKind;
  }

  const lock = cfg.dryRun ? undefined : await acquireRunLock(lockPath(cfg), { command });
  const env = await prepareEnvironment(cfg);
  const graceful = gracefulSignal();
  try {
    const list = command === 'transfer' ? undefined : await readDocuments(env.cfg.documents);
    if (list && (command === 'query' || command === 'track') && cfg.dryRun) {
      process.stdout.write(`${command}${kind ? ` --kind ${kind}` : ''}: ${list.documents.length} documents, ${list.rejected.length} rejected; `
        + `would cost ${command === 'track' ? `${list.documents.length} creations at most, after listing the trackings` : `${list.documents.length} calls`}\n`);
      return EXIT.ok;
    }
    const session = await openSession(env.cfg, { command, log, signal: graceful.signal, apiKey: env.apiKey });
    // Published only when the command reached its end; an interrupted or failed run leaves its work copy
    // for the next run to resume.
    let publish = false;
    try {
      if (command === 'transfer') {
        const t = await transferStep(session.ctx);
        await finishCommand(session.ctx, { errors: t.failed.length, summary: t });
        publish = true;
        process.stdout.write(`transfer: ${t.listed} listed, ${t.loaded} loaded (${t.rows} rows), ${t.skipped} already loaded, ${t.failed.length} failed\n`);
        for (const f of t.failed) process.stdout.write(`  FAILED ${f.name} (${f.id}): ${f.reason}\n`);
        return t.failed.length ? EXIT.partial : EXIT.ok;
      }
      if (command === 'query' || command === 'track') {
        const r = command === 'query' ? await runQueries(session.ctx, list!, kind!) : await runTracking(session.ctx, list!);
        const failures = r.failures.map((f) => ({ what: 'document', where: `line ${f.line} (${f.searchType})`, code: f.code, reason: f.reason }));
        await finishCommand(session.ctx, { errors: failures.length, summary: r, documents: r.documents, rejected: list!.rejected.length });
        publish = true;
        const { failures: _f, ...figures } = r;
        process.stdout.write(`${command}${kind ? ` --kind ${kind}` : ''}: ${Object.entries(figures).map(([k, v]) => `${k} ${v}`).join(', ')}, ${failures.length} failed\n`);
        for (const f of failures) process.stdout.write(`  FAILED ${f.what} ${f.where}: [${f.code}] ${f.reason}\n`);
        return failures.length ? EXIT.partial : EXIT.ok;
      }
      const summary = await runNightly(session.ctx, list!, { command });
      publish = summary.status === 'ok' || summary.status === 'partial';
      if (!cfg.dryRun) {
        const report = await writeReport(env.cfg.reportsDir, summary);
        log.info({ report }, 'run report written');
      }
      process.stdout.write(`${formatSummary(summary)}\n`);
      return exitFor(summary);
    } finally {
      await session.close({ publish: publish && !cfg.dryRun });
    }
  } finally {
    graceful.dispose();
    await env.close();
    await lock?.release();
  }
}
