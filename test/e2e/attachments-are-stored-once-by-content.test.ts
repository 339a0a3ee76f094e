import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentPdf } from '../../src/sandbox/attachments/pdf.js';
import { attachmentPoints } from '../../src/sandbox/lawsuit-object.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { configFor, countOf, nightly, query, scratch } from '../support/pipeline.js';

// Attachments (issue 36, docs/warehouse.md "Attachments"): with LAWSUIT_WITH_ATTACHMENTS the lawsuit-level reads ask
// for them, and every ready attachment's file is downloaded once, stored by its sha256 (the same bytes under two
// ids once), recorded with it; one not ready is recorded and left for a later night. A second night downloads
// nothing again. Files cut short, longer than announced, over the size limit or refused (403) leave nothing stored
// and a reason, and are asked for again on a later night (a day later; a file too large, once the limit grows).
// The pre-signed addresses the files came from are nowhere in the warehouse or the reports.

const FILE_ROUTE = 'GET /lawsuits/:cnj/:instance/attachments/:id';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Files in the store (not the half-written ones). */
function stored(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((d) => d !== '.partial').flatMap((d) => readdirSync(join(dir, d)).map((f) => join(dir, d, f)));
}

/** A few lawsuits with attachments, open to any caller, one of them with two attachments of the same bytes, one with a file still pending. */
function pickLawsuits(sb: Sandbox): { codes: string[]; ready: string[] } {
  const now = sb.state.clock.now();
  const out: string[] = [];
  const ready: string[] = [];
  let twin = false;
  let pending = false;
  for (let i = 0; i < sb.universe.count && out.length < 6; i++) {
    const o = sb.universe.observe(i, now, true);
    if (!o || !o.plan.hasAttachments || o.plan.secrecy > 0 || out.includes(o.plan.code)) continue;
    const points = attachmentPoints(7, o.plan, o.steps);
    if (points.length === 0 || points.length > 6) continue;
    const shas = points.filter((p) => p.readyMs <= now).map((p) => sha(Buffer.concat([...attachmentPdf({ seed: 7, code: o.plan.code, instance: o.plan.instance, id: p.id, name: p.name }).pieces()])));
    const hasTwin = new Set(shas).size < shas.length;
    const hasPending = points.some((p) => p.readyMs > now);
    if ((hasTwin && !twin) || (hasPending && !pending) || out.length < 4) {
      out.push(o.plan.code);
      ready.push(...points.filter((p) => p.readyMs <= now).map((p) => p.id));
      twin ||= hasTwin;
      pending ||= hasPending;
    }
  }
  expect({ twin, pending }).toEqual({ twin: true, pending: true });
  return { codes: out, ready };
}

describe('attachment files', () => {
  const tmp = scratch();
  let sb: Sandbox;
  let csv: string;
  beforeAll(async () => {
    sb = await startSandbox({ seed: 7, rateLimit: 100_000, lawsuits: 3000 });
    csv = join(tmp.dir, 'documents.csv');
    const picked = pickLawsuits(sb);
    writeFileSync(csv, ['search_key,search_type', ...picked.codes.map((c) => `${c},lawsuit_cnj`)].join('\n'));
  }, 60_000);
  afterAll(async () => { await sb?.close(); tmp.cleanup(); });

  const cfgOf = (name: string, env: Record<string, string> = {}) => configFor(sb.url, join(tmp.dir, name), {
    LAWSUIT_DOCUMENTS: csv, LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_WITH_ATTACHMENTS: 'true', LAWSUIT_ATTACHMENTS_DIR: join(tmp.dir, name, 'attachments'), ...env,
  });
  const fileCalls = () => Object.values(sb.counters().by_endpoint[FILE_ROUTE] ?? {}).reduce((a, b) => a + b, 0);

  it('stores every ready file once by its sha256, records the rest, and a second night downloads none again', async () => {
    const cfg = cfgOf('plain');
    const before = fileCalls();
    const s = await nightly(cfg);
    expect(s.status, JSON.stringify(s.failures)).toBe('ok');
    const rows = await query<{ attachment_id: string; status: string; state: string; sha256: string | null; path: string | null; bytes: number | null; content_type: string | null }>(cfg.warehouse,
      `SELECT a.attachment_id, a.status, d.state, d.sha256, f.path, f.bytes::INTEGER AS bytes, f.content_type
       FROM attachments a LEFT JOIN attachment_downloads d USING (code, instance, attachment_id) LEFT JOIN attachment_files f ON f.sha256 = d.sha256`);
    const ready = rows.filter((r) => r.status === 'done');
    expect(ready.length).toBeGreaterThan(4);
    for (const r of ready) {
      expect(r.state, r.attachment_id).toBe('stored');
      const bytes = readFileSync(r.path!);
      expect(sha(bytes)).toBe(r.sha256);
      expect(bytes.length).toBe(r.bytes);
      expect(r.content_type).toBe('application/pdf');
      expect(r.path).toMatch(new RegExp(`/${r.sha256!.slice(0, 2)}/${r.sha256}\\.pdf$`));
    }
    for (const r of rows.filter((x) => x.status !== 'done')) expect(r.state).toBe('not_ready');
    // the same bytes under two ids: one file
    const distinct = new Set(ready.map((r) => r.sha256)).size;
    expect(distinct).toBeLessThan(ready.length);
    expect(stored(cfg.attachmentsDir).length).toBe(distinct);
    expect(fileCalls() - before).toBe(ready.length);
    expect(countOf(s, 'attachments', 'stored')).toBe(distinct);
    expect(countOf(s, 'attachments', 'bytes_stored')).toBe([...new Map(ready.map((r) => [r.sha256, r.bytes!])).values()].reduce((a, b) => a + b, 0));

    // the files are the sandbox's, byte for byte
    const one = ready[0];
    const [{ code, instance }] = await query<{ code: string; instance: number }>(cfg.warehouse, `SELECT code, instance FROM attachments WHERE attachment_id = '${one.attachment_id}'`);
    const served = await fetch(`${sb.url}/lawsuits/${code}/${instance}/attachments/${one.attachment_id}`, { headers: { 'api-key': 'sandbox-key' } });
    expect(sha(Buffer.from(await served.arrayBuffer()))).toBe(one.sha256);

    const again = fileCalls();
    const s2 = await nightly(cfg);
    expect(s2.status).toBe('ok');
    expect(fileCalls()).toBe(again);
    expect(countOf(s2, 'attachments', 'due')).toBe(0);
    expect(stored(cfg.attachmentsDir).length).toBe(distinct);

    // no pre-signed address anywhere in the warehouse
    const wh = await Warehouse.open(cfg.warehouse, { readOnly: true });
    try {
      const tables = await wh.all<{ t: string }>(`SELECT table_name AS t FROM duckdb_tables() WHERE schema_name = 'main'`);
      for (const { t } of tables) {
        const [hit] = await wh.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM "${t}" x WHERE to_json(x)::VARCHAR LIKE '%X-Amz-Signature%' OR to_json(x)::VARCHAR LIKE '%_attachment-files%'`);
        expect(hit.n, t).toBe(0);
      }
    } finally { await wh.close(); }
    for (const f of readdirSync(cfg.reportsDir)) expect(readFileSync(join(cfg.reportsDir, f), 'utf8')).not.toMatch(/X-Amz-Signature|_attachment-files/);
  }, 120_000);

  it('a search by document reads its lawsuits whole with their attachments, and stores their files', async () => {
    // a person whose few lawsuits have attachments: the search answers headers, the lawsuits stage reads them whole
    const now = sb.state.clock.now();
    let cpf: string | undefined;
    for (let i = 0; i < sb.universe.count && !cpf; i++) {
      const l = sb.universe.lawsuit(i, now, { onDemand: true, shape: 'full', withAttachments: true }) as any;
      if (!l || l.secrecy_level !== 0 || !l.attachments?.some((a: any) => a.status === 'done')) continue;
      const doc = l.parties.find((q: any) => q.document_type === 'CPF')?.document;
      const found = doc ? sb.truth({ search_type: 'cpf', search_key: doc }) : [];
      if (found.length > 0 && found.length <= 6) cpf = doc;
    }
    const list = join(tmp.dir, 'person.csv');
    writeFileSync(list, `search_key,search_type\n${cpf},cpf\n`);
    const cfg = cfgOf('person', { LAWSUIT_DOCUMENTS: list });
    const s = await nightly(cfg);
    expect(s.status, JSON.stringify(s.failures)).toBe('ok');
    const [r] = await query<{ reads: number; asked: number; listed: number; ready: number; stored: number }>(cfg.warehouse, `SELECT
      (SELECT count(*) FROM requests WHERE basis IS NOT NULL)::INTEGER AS reads,
      (SELECT count(*) FROM requests WHERE basis IS NOT NULL AND with_attachments)::INTEGER AS asked,
      (SELECT count(*) FROM attachments)::INTEGER AS listed,
      (SELECT count(*) FROM attachments WHERE status = 'done')::INTEGER AS ready,
      (SELECT count(*) FROM attachment_downloads WHERE state = 'stored')::INTEGER AS stored`);
    expect(r.reads).toBeGreaterThan(0);
    expect(r.asked).toBe(r.reads);
    expect(r.ready).toBeGreaterThan(0);
    expect(r.stored).toBe(r.ready);
  }, 120_000);

  it.each([
    ['cut short', 'attachment_cut=1', {}, { state: 'failed' }],
    ['longer than its Content-Length', 'attachment_long=1', {}, { state: 'failed', error_code: 'ATTACHMENT_CHECKSUM' }],
    ['over the limit', 'attachment_big=1:400000', { LAWSUIT_ATTACHMENT_MAX_SIZE: '200KB' }, { state: 'too_large', error_code: 'ATTACHMENT_TOO_LARGE', bytes: 400000 }],
    ['refused (403, secrecy)', 'attachment_403=1', {}, { state: 'refused', error_code: 'API_SECRET_LAWSUIT' }],
  ] as const)('a file %s leaves nothing stored and a reason, and is fetched on a later night', async (name, faults, env, want) => {
    const cfg = cfgOf(name.replace(/\W/g, '_'), env);
    sb.setFaults(faults);
    let s;
    try { s = await nightly(cfg); } finally { sb.setFaults(''); }
    expect(s.status, JSON.stringify(s.failures)).toBe('ok');
    const rows = await query<{ attachment_id: string; state: string; error_code: string | null; reason: string | null; sha256: string | null; bytes: number | null; next_try_at: Date | null }>(cfg.warehouse,
      `SELECT d.attachment_id, d.state, d.error_code, d.reason, d.sha256, d.bytes::INTEGER AS bytes, d.next_try_at
       FROM attachments a LEFT JOIN attachment_downloads d USING (code, instance, attachment_id) WHERE a.status = 'done'`);
    expect(rows.length).toBeGreaterThan(4);
    for (const r of rows) {
      expect(r, r.reason ?? '').toMatchObject({ ...want, sha256: null });
      expect(r.reason).toEqual(expect.any(String));
      // a file too large waits for a larger limit; the others for the backoff's first day
      if (r.state !== 'too_large') expect(r.next_try_at!.getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    }
    // nothing stored, nothing half-written
    expect(stored(cfg.attachmentsDir)).toEqual([]);
    expect(existsSync(join(cfg.attachmentsDir, '.partial')) ? readdirSync(join(cfg.attachmentsDir, '.partial')) : []).toEqual([]);
    expect(countOf(s, 'attachments', want.state)).toBe(rows.length);

    // the next night asks for none of them (their backoff), and a day later, the upstream well again, all are stored
    const s2 = await nightly({ ...cfg, attachmentMaxBytes: 1_000_000 });
    expect(countOf(s2, 'attachments', 'due')).toBe(want.state === 'too_large' ? rows.length : 0);
    const wh = await Warehouse.open(cfg.warehouse);
    await wh.run(`UPDATE attachment_downloads SET next_try_at = next_try_at - INTERVAL 1 DAY WHERE state IN ('failed', 'refused')`);
    await wh.close();
    await nightly({ ...cfg, attachmentMaxBytes: 1_000_000 });
    const [left] = await query<{ n: number }>(cfg.warehouse, `SELECT count(*) FILTER (WHERE d.state IS DISTINCT FROM 'stored')::INTEGER AS n
      FROM attachments a LEFT JOIN attachment_downloads d USING (code, instance, attachment_id) WHERE a.status = 'done'`);
    expect(left.n).toBe(0);
  }, 120_000);
});
