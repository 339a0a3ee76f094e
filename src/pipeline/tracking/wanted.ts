import type { DocumentSpec } from '../../input/documents.js';
import type { LawsuitDetail } from '../../shared/options/values.js';
import type { RunContext } from '../context.js';
import { ended } from '../lawsuits/plan.js';
import { trackingKey } from './identity.js';
import type { WantedLawsuits } from './reconcile.js';

// Which lawsuits get a tracking of their own (the second kind: lawsuit_cnj, one per number), read from the
// warehouse: those a listed document finds — by its latest search or its tracking's runs, as
// v_active_lawsuits_per_document counts a document's lawsuits; never by a lawsuit-level read or a lawsuit's own
// tracking, which follow a lawsuit rather than find it — as far as the depth the user chose keeps them
// whole (LAWSUIT_DETAIL: every one, the ones not archived or finished, or none). A number's tracking is made once a
// lawsuit of it is whole (`ready`): before, the night reads it whole first (the lawsuits stage), and the second pass
// makes its tracking.

interface Found { search_type: string; search_key: string; code: string; whole: boolean; status: string | null; phase: string | null }

/** Each number a listed document finds, with whether any of its instances is whole and whether every one ended. */
async function foundByListed(ctx: RunContext, listed: readonly DocumentSpec[]): Promise<Map<string, { whole: boolean; ended: boolean }>> {
  const rows = await ctx.wh.all<Found>(`
    WITH latest AS (
      SELECT request_id, search_type, search_key FROM (
        SELECT request_id, search_type, search_key,
               row_number() OVER (PARTITION BY search_type, search_key ORDER BY coalesce(completed_at, created_at) DESC NULLS LAST, request_id DESC) AS rn
        FROM requests WHERE loaded_at IS NOT NULL AND basis IS NULL AND search_key IS NOT NULL
      ) WHERE rn = 1
    ),
    found_by AS (
      SELECT request_id, search_type, search_key FROM latest
      UNION ALL SELECT request_id, search_type, search_key FROM tracking_runs WHERE search_key IS NOT NULL
    ),
    found AS (SELECT DISTINCT f.search_type, f.search_key, h.code, h.instance FROM search_hits h JOIN found_by f USING (request_id))
    SELECT f.search_type, f.search_key, f.code, v.level = 'whole' AS whole, v.status, v.phase
    FROM found f JOIN v_lawsuit_levels v USING (code, instance)`);
  const wanted = new Set(listed.map((d) => trackingKey(d.searchType, d.searchKey)));
  const identities = new Map<string, boolean>();
  const byCode = new Map<string, { whole: boolean; ended: boolean }>();
  for (const r of rows) {
    const k = `${r.search_type}\u0000${r.search_key}`;
    let isListed = identities.get(k);
    if (isListed === undefined) identities.set(k, isListed = wanted.has(trackingKey(r.search_type, r.search_key)));
    if (!isListed) continue;
    const c = byCode.get(r.code) ?? { whole: false, ended: true };
    c.whole ||= r.whole;
    c.ended &&= ended(r);
    byCode.set(r.code, c);
  }
  return byCode;
}

/** The lawsuits whose trackings tonight's reconciliation wants, and those the depth leaves, from what the warehouse holds now. */
export async function wantedLawsuits(ctx: RunContext, listed: readonly DocumentSpec[], detail: LawsuitDetail): Promise<WantedLawsuits> {
  const keep: Array<{ code: string; ready: boolean }> = [];
  const left = new Map<string, 'ended' | 'depth'>();
  for (const [code, f] of [...await foundByListed(ctx, listed)].sort(([a], [b]) => a.localeCompare(b))) {
    if (detail === 'header') left.set(code, 'depth');
    else if (detail === 'active' && f.ended) left.set(code, 'ended');
    else keep.push({ code, ready: f.whole });
  }
  return { keep, left };
}
