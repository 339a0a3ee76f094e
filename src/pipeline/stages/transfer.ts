import { failpoint } from '../../shared/failpoint.js';
import { runTransfer } from '../transfer.js';
import type { Stage } from '../stage.js';

/**
 * The provider's transfer files: listed, downloaded, loaded and marked (pipeline/transfer.ts). Needs nothing
 * of the search: a key whose plan has no transfer files (403) refuses this stage only.
 */
export const transferStage: Stage = {
  name: 'transfer',
  needs: [],
  callsApi: true,
  skipReason: (ctx) => (ctx.cfg.skipTransfer ? 'left out by --skip-transfer / LAWSUIT_SKIP_TRANSFER' : undefined),
  async run(ctx) {
    const t = await runTransfer({
      api: ctx.api.transfer, secrets: ctx.api.keyForms, wh: ctx.wh, stagingDir: ctx.cfg.stagingDir, runId: ctx.runId, log: ctx.log, signal: ctx.signal,
      progress: (event, n) => ctx.progress?.('files', event, n), onLoaded: () => failpoint('transfer.after-load'),
    });
    return {
      counts: { listed: t.listed, loaded: t.loaded, rows: t.rows, already_loaded: t.skipped, patched_late: t.patchedLate, failed: t.failed.length, waiting: t.waiting, unknown_status: t.unknownStatus },
      failures: t.failed.map((f) => ({ what: 'transfer file' as const, where: `${f.name} (${f.id})`, code: f.code, reason: f.reason })),
      interrupted: ctx.signal.aborted,
      finished: t.loaded + t.patchedLate,
    };
  },
};
