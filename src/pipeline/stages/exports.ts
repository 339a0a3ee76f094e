import { exportParquet } from '../../warehouse/export.js';
import type { Stage } from '../stage.js';

/** The Parquet exports of whatever the warehouse holds: needs no other stage to have succeeded. */
export const exportsStage: Stage = {
  name: 'exports',
  needs: [],
  callsApi: false,
  publishes: true,
  skipReason: (ctx) => (ctx.cfg.skipExport ? 'left out by --skip-export / LAWSUIT_SKIP_EXPORT' : undefined),
  async run(ctx, night) {
    const ex = await exportParquet(ctx.wh, ctx.cfg.exportDir, { privacy: ctx.cfg.exportPrivacy });
    night.exportDir = ctx.cfg.exportDir;
    return { counts: { tables: ex.tables.length, rows: ex.tables.reduce((n, t) => n + t.rows, 0), withheld_lawsuits: ex.withheldLawsuits } };
  },
};
