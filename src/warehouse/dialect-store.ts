import type { Warehouse } from './warehouse.js';

// The dialect an upstream was seen to speak, per base address (upstream_dialects): what a probe or a night's
// checks learned, so that the next night starts from it instead of probing again. The warehouse keeps it as
// JSON and does not read inside it (src/api/dialect.ts says what it holds).

interface StoredDialect { dialect: unknown; learnedAt: Date; source: string }

/** The base address as stored: no credentials, no query, no trailing slash. */
function dialectKey(baseUrl: string): string {
  try {
    const u = new URL(baseUrl);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return baseUrl.replace(/[?#].*$/, '').replace(/\/+$/, '');
  }
}

export async function readDialect(wh: Warehouse, baseUrl: string): Promise<StoredDialect | undefined> {
  const [r] = await wh.all<{ dialect: string; learned_at: Date; source: string }>(
    'SELECT dialect::VARCHAR AS dialect, learned_at, source FROM upstream_dialects WHERE base_url = $1', [dialectKey(baseUrl)]);
  return r ? { dialect: JSON.parse(r.dialect), learnedAt: r.learned_at, source: r.source } : undefined;
}

/**
 * Remembers what `baseUrl` was seen to speak. A probe says the calls it made; a night's reading (source `sweep`)
 * made none and leaves the count of the probe it corrects or settles as it was.
 */
export async function writeDialect(
  wh: Warehouse, baseUrl: string, dialect: unknown, opts: { probeCalls?: number; runId?: string; source: 'probe' | 'sweep' },
): Promise<void> {
  await wh.run(`INSERT INTO upstream_dialects (base_url, dialect, learned_at, probe_calls, run_id, source)
    VALUES ($1, $2::JSON, current_timestamp, coalesce($3::INTEGER, 0), $4, $5)
    ON CONFLICT (base_url) DO UPDATE SET dialect = excluded.dialect, learned_at = excluded.learned_at,
      probe_calls = CASE WHEN $3::INTEGER IS NULL THEN upstream_dialects.probe_calls ELSE excluded.probe_calls END,
      run_id = excluded.run_id, source = excluded.source`,
  [dialectKey(baseUrl), JSON.stringify(dialect), opts.probeCalls ?? null, opts.runId ?? null, opts.source]);
}
