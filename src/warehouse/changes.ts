import type { Warehouse } from './warehouse.js';

// What changed tonight: the lawsuits as the run left them, compared with the snapshot the previous detection
// kept (lawsuit_state), set-based. Everything a detection writes (the changes, the status history, the new
// snapshot and the change_detections row that marks the run as done) commits in one transaction, so a run
// that crashes mid-way has detected nothing and a run that calls it twice (a resumed run) inserts nothing new.

export const CHANGE_KINDS = ['new_lawsuit', 'new_steps', 'status', 'phase', 'amount', 'secrecy_level', 'new_party', 'gone_from_search'] as const;
type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface ChangeRow { code: string; instance: number; change: ChangeKind; old_value: string | null; new_value: string | null }

export interface ChangeReport {
  /** Rows of lawsuit_changes for the run, per kind (every kind present, 0 when none). */
  counts: Record<ChangeKind, number>;
  /** The most telling changes first: phase, status, amount, secrecy, gone from a search, new party, new steps, new lawsuits. */
  top: ChangeRow[];
  /** False when the run had been detected before (nothing inserted this time). */
  fresh: boolean;
}

interface DetectOptions {
  /** The detection time (lawsuit_changes.detected_at, lawsuit_status_history.valid_from). Default now. */
  now?: Date;
  /** How many changes `top` holds. Default 10. */
  top?: number;
  /** New lawsuits attributed to their first search per statement (memory bound of a big first run). Default 40 000. */
  newPerSlice?: number;
  /**
   * Detect this run's changes again, replacing its change_detections row (`rebuild`, which keeps that table as
   * the record of which runs detected when: emptied, a rebuild killed half way would lose it).
   */
  again?: boolean;
}

// A party is the same party across payloads when it has the same document, else the same name (indexes move).
const PARTY_KEY = `coalesce(nullif(trim(document), ''), 'name:' || upper(strip_accents(trim(name))))`;

const CURRENT = `
CREATE OR REPLACE TEMP TABLE _chg_cur AS
SELECT l.code, l.instance, l.name, l.status, l.phase, l.amount, l.secrecy_level, l.updated_at,
       coalesce(s.n, 0)::INTEGER AS steps_count, st.code IS NULL AS is_new,
       st.status AS old_status, st.phase AS old_phase, st.amount AS old_amount,
       st.secrecy_level AS old_secrecy_level, st.steps_count AS old_steps_count
FROM lawsuits l
LEFT JOIN (SELECT code, instance, count(*) AS n FROM steps GROUP BY code, instance) s USING (code, instance)
LEFT JOIN lawsuit_state st USING (code, instance)`;

const CURRENT_PARTIES = `
CREATE OR REPLACE TEMP TABLE _chg_parties AS
SELECT code, instance, ${PARTY_KEY} AS party_key, min(name) AS name
FROM parties WHERE ${PARTY_KEY} IS NOT NULL GROUP BY ALL`;

// Every fully loaded request, newest first within its search; rn = 1 is the search's current answer. Only the
// searches that ask nothing besides their key, on_demand and instance: a filtered one (search_params.filter, a
// credential, masked_response, with_attachments) is another search of the same key (spec/search-identity.ts), and
// compared with the plain one it would report gone every lawsuit its filter leaves out; a lawsuit leaving a filtered
// search may besides have only stopped matching it (an amount changed). The plain search of the key reports it.
const LATEST_SEARCHES = `
CREATE OR REPLACE TEMP TABLE _chg_searches AS
SELECT * FROM (
  SELECT request_id, search_type, search_key, coalesce(on_demand, false) AS on_demand, coalesce(lawsuit_instance, -1) AS lawsuit_instance,
         row_number() OVER (PARTITION BY search_type, search_key, coalesce(on_demand, false), coalesce(lawsuit_instance, -1)
                            ORDER BY coalesce(completed_at, created_at) DESC NULLS LAST, request_id DESC) AS rn
  FROM requests
  WHERE loaded_at IS NOT NULL AND search_type IS NOT NULL AND search_key IS NOT NULL AND NOT coalesce(with_attachments, false)
    AND len(list_filter(coalesce(json_keys(search, '$.search_params'), []), k -> k <> 'lawsuit_instance')) = 0
) WHERE rn = 1`;

const INSERT = `INSERT INTO lawsuit_changes (run_id, code, instance, change, detail, old_value, new_value, search_type, search_key, detected_at)`;

const NEW_LAWSUITS = `${INSERT}
SELECT $1, c.code, c.instance, 'new_lawsuit', '', NULL, c.name, f.first[1], f.first[2], $2::TIMESTAMPTZ
FROM _chg_cur c
LEFT JOIN (
  -- the search that found each new lawsuit first: an aggregate over the new lawsuits' hits only (a window over
  -- every hit held the whole table in memory on a first run of 90k lawsuits)
  -- a lawsuit-level read the night chose (a basis) reads a lawsuit a search already found: it never found it, even
  -- when a rebuild loads both in one transaction and their first_seen_at tie
  SELECT h.code, h.instance, arg_min([r.search_type, r.search_key], (r.chosen, h.first_seen_at, r.request_id)) AS first
  -- a tracking's run finds for its document as a search does (tracking_runs says which document)
  FROM search_hits h JOIN (SELECT request_id, search_type, search_key, basis IS NOT NULL AS chosen FROM requests
    UNION ALL SELECT request_id, search_type, search_key, false FROM tracking_runs) r USING (request_id)
  SEMI JOIN _chg_cur n ON n.code = h.code AND n.instance = h.instance AND n.is_new AND hash(n.code) % $3 = $4
  GROUP BY h.code, h.instance
) f ON f.code = c.code AND f.instance = c.instance
WHERE c.is_new AND hash(c.code) % $3 = $4`;

/** New lawsuits per slice of NEW_LAWSUITS: a first run of 180k lawsuits in one statement ran out of DuckDB's 128 MB. */
const NEW_PER_SLICE = 40_000;

// A field a newer payload left out keeps its stored value (spec-choices), so NULL never replaces a value:
// a change is a new non-NULL value different from the one in the snapshot.
const FIELD_CHANGES = `${INSERT}
SELECT $1, code, instance, change, '', old_value, new_value, NULL, NULL, $2::TIMESTAMPTZ FROM (
  SELECT code, instance, 'status' AS change, old_status AS old_value, status AS new_value FROM _chg_cur WHERE NOT is_new
  UNION ALL SELECT code, instance, 'phase', old_phase, phase FROM _chg_cur WHERE NOT is_new
  UNION ALL SELECT code, instance, 'amount', old_amount::VARCHAR, amount::VARCHAR FROM _chg_cur WHERE NOT is_new
  UNION ALL SELECT code, instance, 'secrecy_level', old_secrecy_level::VARCHAR, secrecy_level::VARCHAR FROM _chg_cur WHERE NOT is_new
  UNION ALL SELECT code, instance, 'new_steps', old_steps_count::VARCHAR, steps_count::VARCHAR FROM _chg_cur
    WHERE NOT is_new AND steps_count > old_steps_count
)
WHERE new_value IS NOT NULL AND old_value IS DISTINCT FROM new_value`;

const NEW_PARTIES = `${INSERT}
SELECT $1, p.code, p.instance, 'new_party', p.party_key, NULL, p.name, NULL, NULL, $2::TIMESTAMPTZ
FROM _chg_parties p
JOIN _chg_cur c ON c.code = p.code AND c.instance = p.instance AND NOT c.is_new
WHERE NOT EXISTS (SELECT 1 FROM lawsuit_state_parties s WHERE s.code = p.code AND s.instance = p.instance AND s.party_key = p.party_key)`;

// A search's answer is compared with the answer the previous detection saw for it (search_state), not with
// "the previous request", so a request resumed from a crashed run or a night without a search still compares
// two whole answers.
const GONE = `${INSERT}
SELECT DISTINCT $1, ph.code, ph.instance, 'gone_from_search', l.search_type || ':' || l.search_key, l.search_key, NULL,
       l.search_type, l.search_key, $2::TIMESTAMPTZ
FROM _chg_searches l
JOIN search_state ss ON ss.search_type = l.search_type AND ss.search_key = l.search_key AND ss.on_demand = l.on_demand
  AND ss.lawsuit_instance = l.lawsuit_instance AND ss.request_id <> l.request_id
JOIN search_hits ph ON ph.request_id = ss.request_id
WHERE NOT EXISTS (SELECT 1 FROM search_hits nh WHERE nh.request_id = l.request_id AND nh.code = ph.code AND nh.instance = ph.instance)`;

const HISTORY = `
INSERT INTO lawsuit_status_history (code, instance, run_id, valid_from, status, phase, previous_status, previous_phase, provider_updated_at)
SELECT code, instance, $1, $2::TIMESTAMPTZ, coalesce(status, old_status), coalesce(phase, old_phase), old_status, old_phase, updated_at
FROM _chg_cur
WHERE (is_new AND (status IS NOT NULL OR phase IS NOT NULL))
   OR (NOT is_new AND ((status IS NOT NULL AND status IS DISTINCT FROM old_status) OR (phase IS NOT NULL AND phase IS DISTINCT FROM old_phase)))`;

// Only rows that differ are written: the snapshot's snapshot_run is the run that last moved it.
const REFRESH_STATE = `
INSERT INTO lawsuit_state (code, instance, status, phase, amount, secrecy_level, steps_count, snapshot_run, snapshot_at)
SELECT code, instance, coalesce(status, old_status), coalesce(phase, old_phase), coalesce(amount, old_amount),
       coalesce(secrecy_level, old_secrecy_level), greatest(steps_count, coalesce(old_steps_count, 0)), $1, $2::TIMESTAMPTZ
FROM _chg_cur
WHERE is_new OR status IS DISTINCT FROM old_status OR phase IS DISTINCT FROM old_phase OR amount IS DISTINCT FROM old_amount
   OR secrecy_level IS DISTINCT FROM old_secrecy_level OR steps_count > old_steps_count
ON CONFLICT (code, instance) DO UPDATE SET status = excluded.status, phase = excluded.phase, amount = excluded.amount,
  secrecy_level = excluded.secrecy_level, steps_count = excluded.steps_count, snapshot_run = excluded.snapshot_run,
  snapshot_at = excluded.snapshot_at`;

// Rewritten whole: cheaper than a keyed merge, and the table needs no in-memory key index (at 100k lawsuits
// the index made the detection run out of its memory budget).
const REFRESH_PARTIES = [
  `DELETE FROM lawsuit_state_parties`,
  `INSERT INTO lawsuit_state_parties (code, instance, party_key) SELECT code, instance, party_key FROM _chg_parties`,
];

const REFRESH_SEARCHES = `
INSERT INTO search_state (search_type, search_key, on_demand, lawsuit_instance, request_id, snapshot_run)
SELECT search_type, search_key, on_demand, lawsuit_instance, request_id, $1 FROM _chg_searches
ON CONFLICT (search_type, search_key, on_demand, lawsuit_instance) DO UPDATE SET request_id = excluded.request_id, snapshot_run = excluded.snapshot_run`;

const PRIORITY = `CASE change WHEN 'phase' THEN 1 WHEN 'status' THEN 2 WHEN 'amount' THEN 3 WHEN 'secrecy_level' THEN 4
  WHEN 'gone_from_search' THEN 5 WHEN 'new_party' THEN 6 WHEN 'new_steps' THEN 7 ELSE 8 END`;

// Every insert below runs at most once per run: the whole detection is one transaction guarded by
// change_detections, so the tables need no key index to stay duplicate-free.

/**
 * Detects and records what changed for every lawsuit since the previous detection, attributing it to `runId`.
 * Call it once the run's pages are loaded (and before publishing). Idempotent per run: a second call for the
 * same run inserts nothing and returns what the first recorded.
 */
export async function detectChanges(wh: Warehouse, runId: string, options: DetectOptions | Date = {}): Promise<ChangeReport> {
  const opts: DetectOptions = options instanceof Date ? { now: options } : options;
  const now = opts.now ?? new Date();
  const fresh = await wh.transaction(async () => {
    if (opts.again) await wh.run('DELETE FROM change_detections WHERE run_id = $1', [runId]);
    const [done] = await wh.all<{ n: number }>('SELECT count(*) AS n FROM change_detections WHERE run_id = $1', [runId]);
    if (Number(done.n) > 0) return false;
    for (const sql of [CURRENT, CURRENT_PARTIES, LATEST_SEARCHES]) await wh.run(sql);
    const [fresh] = await wh.all<{ n: number }>('SELECT count(*) AS n FROM _chg_cur WHERE is_new');
    const slices = Math.max(1, Math.ceil(Number(fresh.n) / Math.max(1, opts.newPerSlice ?? NEW_PER_SLICE)));
    for (let k = 0; k < slices; k++) await wh.run(NEW_LAWSUITS, [runId, now, slices, k]);
    for (const sql of [FIELD_CHANGES, NEW_PARTIES, GONE, HISTORY]) await wh.run(sql, [runId, now]);
    await wh.run(REFRESH_STATE, [runId, now]);
    for (const sql of REFRESH_PARTIES) await wh.run(sql);
    await wh.run(REFRESH_SEARCHES, [runId]);
    await wh.run(`INSERT INTO change_detections (run_id, detected_at, lawsuits_compared, changes, counts)
      SELECT $1, $2::TIMESTAMPTZ, (SELECT count(*) FROM _chg_cur), (SELECT count(*) FROM lawsuit_changes WHERE run_id = $1),
             coalesce((SELECT json_group_object(change, n) FROM (SELECT change, count(*) AS n FROM lawsuit_changes WHERE run_id = $1 GROUP BY change)), '{}')`,
    [runId, now]);
    for (const t of ['_chg_cur', '_chg_parties', '_chg_searches']) await wh.run(`DROP TABLE IF EXISTS ${t}`);
    return true;
  });
  return { ...(await changeReport(wh, runId, opts.top ?? 10)), fresh };
}

/** The counts and top changes recorded for a run (for the run summary). */
async function changeReport(wh: Warehouse, runId: string, top = 10): Promise<Omit<ChangeReport, 'fresh'>> {
  const counts = Object.fromEntries(CHANGE_KINDS.map((k) => [k, 0])) as Record<ChangeKind, number>;
  for (const r of await wh.all<{ change: ChangeKind; n: number }>(
    'SELECT change, count(*) AS n FROM lawsuit_changes WHERE run_id = $1 GROUP BY change', [runId])) counts[r.change] = Number(r.n);
  const rows = await wh.all<ChangeRow>(`SELECT code, instance, change, old_value, new_value FROM lawsuit_changes WHERE run_id = $1
    ORDER BY ${PRIORITY}, (old_value IS NULL) , abs(coalesce(TRY_CAST(new_value AS DOUBLE), 0) - coalesce(TRY_CAST(old_value AS DOUBLE), 0)) DESC,
             code, instance, detail
    LIMIT $2`, [runId, top]);
  return { counts, top: rows };
}

/** One line per kind and the top changes, for the printed run summary. */
export function formatChanges(r: Pick<ChangeReport, 'counts' | 'top'>): string[] {
  const kinds = CHANGE_KINDS.filter((k) => r.counts[k] > 0).map((k) => `${r.counts[k]} ${k}`);
  const lines = [`  changes    ${kinds.length ? kinds.join(', ') : 'none'}`];
  for (const c of r.top) {
    const what = c.change === 'new_lawsuit' ? '' : ` ${c.old_value ?? '∅'} -> ${c.new_value ?? '∅'}`;
    lines.push(`             ${c.code} #${c.instance} ${c.change}${what}`);
  }
  return lines;
}
