import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/pipeline/summary.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { exportParquet } from '../../src/warehouse/export.js';
import { EXPORT_TABLES } from '../../src/warehouse/schema/exports.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { configFor, countOf, nightly, scratch } from '../support/pipeline.js';
import { decodedText, NeedleScanner, readExport, rowsOf, type ExportFile } from './export-files.js';

// LAWSUIT_EXPORT_PRIVACY=pseudonymise end to end: a night against the sandbox with the example documents list
// (CPF, CNPJ, OAB, name and lawsuit searches, rejected lines), then the same warehouse with people put where
// free text can quote them. Every export file is scanned, as bytes and decoded, for every CPF and every
// natural person's name the warehouse holds; the pseudonyms are checked against Node's own HMAC.

const SALT = 'test-secret-0123456789abcdef0123456789abcdef';
const OTHER_SALT = 'another-secret-0123456789abcdef0123456789abcd';
const tmp = scratch('export-privacy-');
let sandbox: Sandbox;
let wh: Warehouse;
let summary: RunSummary;
let night: ExportFile[];
let priv: ExportFile[];
let plain: ExportFile[];
let otherSalt: ExportFile[];
let withheld: number;

/** The pseudonym as docs/warehouse.md "Sharing exports (LGPD)" defines it, computed here with Node's crypto. */
const pseudonymOfDoc = (cpf: string, salt = SALT): string => createHmac('sha256', salt).update(`doc:${cpf.replace(/[^0-9A-Za-z]/g, '').toUpperCase()}`).digest('hex');
const punctuated = (cpf: string): string => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
const digitsOf = (s: string): string => s.replace(/[^0-9]/g, '');

// People the test adds where only free text or an unusual field carries them.
const EDGE = {
  partyOnlyInList: { name: 'Quitéria Privacidade Lista', cpf: '52998224725' },
  partyWithoutDocuments: { name: 'Zuleide Semdocumento Ramos' },
  lawyerWithCpf: { name: 'Doutor Cpf Advogado', cpf: '11144477735', oab: '998877SP' },
  company: { name: 'Acme Privacidade Ltda', cnpj: '11222333000181' },
  nameSearch: 'Teodoro Buscado Pelonome',
  transferCpf: '39053344705',
};

beforeAll(async () => {
  // the rate limit raised: the exports are the subject, not the pace (132 s of the suite at the sandbox's default)
  sandbox = await startSandbox({ seed: 1, apiKeys: ['sandbox-key'], rateLimit: 100_000 });
  const cfg = configFor(sandbox.url, tmp.dir, {
    LAWSUIT_EXPORT_PRIVACY: 'pseudonymise', LAWSUIT_EXPORT_SALT: SALT, LAWSUIT_SKIP_TRANSFER: 'true',
  });
  summary = await nightly(cfg);
  night = await readExport(join(tmp.dir, 'exports'));

  wh = await Warehouse.open(join(tmp.dir, 'warehouse.duckdb'));
  const [host] = await wh.all<{ code: string; instance: number; name: string; document: string }>(`
    SELECT p.code, p.instance, p.name, p.document FROM parties p JOIN lawsuits l USING (code, instance)
    WHERE l.secrecy_level = 0 AND p.document_type = 'CPF' AND length(p.document) = 11 ORDER BY p.code, p.party_index LIMIT 1`);
  const at = [host.code, host.instance];
  await wh.run(`UPDATE lawsuits SET name = $3 WHERE code = $1 AND instance = $2`, [...at, `${host.name.toUpperCase()} (CPF ${punctuated(host.document)}) x ${EDGE.company.name}`]);
  await wh.run(`INSERT INTO steps (code, instance, step_id, step_date, content, private) VALUES
    ($1, $2, 'pz-1', '2026-01-02', $3, false), ($1, $2, 'pz-2', '2026-01-03', $4, true)`,
  [...at, `Intimado(a) ${host.name.toUpperCase()}, CPF ${punctuated(host.document)}; e ${EDGE.partyWithoutDocuments.name.toLowerCase()} (CPF${host.document}).`,
    `Sob segredo: ${EDGE.lawyerWithCpf.name}`]);
  await wh.run(`INSERT INTO attachments (code, instance, attachment_id, name, raw) VALUES ($1, $2, 'a99', $3, $4::JSON)`,
    [...at, `Procuração de ${host.name}.pdf`, JSON.stringify({ attachment_name: `Procuração de ${host.name}.pdf`, holder_cpf: host.document })]);
  await wh.run(`INSERT INTO parties (code, instance, party_index, name, side, person_type, document, document_type, main_document, documents) VALUES
    ($1, $2, 90, $3, 'Passive', 'Réu', NULL, NULL, '', $4::JSON),
    ($1, $2, 91, $5, 'Interested', 'Desconhecido', NULL, NULL, NULL, '[]'::JSON),
    ($1, $2, 92, $6, 'Passive', 'Réu', $7, 'CNPJ', $7, $8::JSON)`,
  [...at, EDGE.partyOnlyInList.name, JSON.stringify([{ document: EDGE.partyOnlyInList.cpf }]), EDGE.partyWithoutDocuments.name,
    EDGE.company.name, EDGE.company.cnpj, JSON.stringify([{ document: EDGE.company.cnpj, document_type: 'CNPJ' }])]);
  await wh.run(`INSERT INTO lawyers (code, instance, party_index, lawyer_index, name, side, oab, person_type, documents) VALUES ($1, $2, 90, 0, $3, 'Passive', $4, 'Advogado', $5::JSON)`,
    [...at, EDGE.lawyerWithCpf.name, EDGE.lawyerWithCpf.oab, JSON.stringify([{ document: EDGE.lawyerWithCpf.cpf, document_type: 'CPF' }, { document: EDGE.lawyerWithCpf.oab, document_type: 'OAB' }])]);
  await wh.run(`INSERT INTO requests (request_id, search_type, search_key, status, search, error) VALUES ('pz-req', 'name', $1, 'failed', $2::JSON, $3)`,
    [EDGE.nameSearch, JSON.stringify({ search_type: 'name', search_key: EDGE.nameSearch }), `no lawsuit for ${EDGE.nameSearch}`]);
  await wh.run(`INSERT INTO transfer_files (transfer_file_id, name, error) VALUES ('pz-tf', 'x.csv', $1)`, [`line 3: CPF ${EDGE.transferCpf} unreadable`]);
  // A lawsuit whose secrecy is unknown counts as the highest.
  await wh.run(`UPDATE lawsuits SET secrecy_level = NULL WHERE (code, instance) IN (SELECT code, instance FROM lawsuits WHERE secrecy_level = 0 AND code <> $1 ORDER BY code LIMIT 1)`, [host.code]);

  const privacy = { mode: 'pseudonymise' as const, salt: SALT, maxSecrecy: 0 };
  withheld = (await exportParquet(wh, join(tmp.dir, 'private'), { privacy })).withheldLawsuits;
  await exportParquet(wh, join(tmp.dir, 'plain'));
  await exportParquet(wh, join(tmp.dir, 'other-salt'), { privacy: { ...privacy, salt: OTHER_SALT } });
  [priv, plain, otherSalt] = await Promise.all(['private', 'plain', 'other-salt'].map((d) => readExport(join(tmp.dir, d))));
}, 240_000);

afterAll(async () => {
  await wh?.close().catch(() => undefined);
  await sandbox?.close();
  tmp.cleanup();
});

interface Person { name: string | null; docs: string[] }

/** The warehouse's people, read independently of the export's macros: every document and name there is. */
async function people(): Promise<{ cpfs: Set<string>; names: Set<string>; companies: Set<string>; cnpjs: Set<string>; oabs: Set<string> }> {
  const parse = (j: unknown): string[] => {
    try {
      const v = JSON.parse(String(j ?? 'null')) as Array<{ document?: unknown }> | null;
      return Array.isArray(v) ? v.map((d) => String(d?.document ?? '')) : [];
    } catch {
      return [];
    }
  };
  const parties = (await wh.all<{ name: string | null; document: string | null; main_document: string | null; documents: string | null }>(
    'SELECT name, document, main_document, documents::VARCHAR AS documents FROM parties'))
    .map((p): Person => ({ name: p.name, docs: [p.document ?? '', p.main_document ?? '', ...parse(p.documents)].filter((d) => d.trim() !== '') }));
  const lawyers = await wh.all<{ name: string | null; oab: string | null; documents: string | null }>('SELECT name, oab, documents::VARCHAR AS documents FROM lawyers');
  const searches = await wh.all<{ search_type: string; search_key: string }>("SELECT search_type, search_key FROM requests WHERE search_type IN ('cpf', 'name')");
  const rejected = await wh.all<{ value: string | null }>('SELECT value FROM rejected_inputs');

  const isCpf = (d: string): boolean => /^[0-9]{11}$/.test(digitsOf(d)) && digitsOf(d).length === d.replace(/[^0-9A-Za-z]/g, '').length;
  const isCnpj = (d: string): boolean => d.replace(/[^0-9A-Za-z]/g, '').length === 14;
  const cpfs = new Set<string>();
  for (const p of parties) for (const d of p.docs) if (isCpf(d)) cpfs.add(digitsOf(d));
  for (const l of lawyers) for (const d of parse(l.documents)) if (isCpf(d)) cpfs.add(digitsOf(d));
  for (const s of searches) if (s.search_type === 'cpf') cpfs.add(digitsOf(s.search_key));
  for (const r of rejected) for (const run of (r.value ?? '').match(/[0-9][0-9.-]*[0-9]/g) ?? []) if (digitsOf(run).length === 11) cpfs.add(digitsOf(run));
  cpfs.add(EDGE.transferCpf);

  const company = (p: Person): boolean => p.docs.some(isCnpj) && !p.docs.some((d) => !isCnpj(d));
  const companies = new Set(parties.filter(company).map((p) => p.name!).filter(Boolean));
  const names = new Set<string>();
  for (const p of parties) if (!company(p) && p.name?.trim()) names.add(p.name);
  for (const l of lawyers) if (l.name?.trim()) names.add(l.name);
  for (const s of searches) if (s.search_type === 'name') names.add(s.search_key);
  const cnpjs = new Set(parties.filter(company).flatMap((p) => p.docs.filter(isCnpj)));
  const oabs = new Set(lawyers.map((l) => l.oab ?? '').filter((o) => o && !isCpf(o)));
  return { cpfs, names, companies, cnpjs, oabs };
}

describe('LAWSUIT_EXPORT_PRIVACY=pseudonymise', () => {
  it('the night exported through the pipeline, pseudonymised, and told how many lawsuits it left out', async () => {
    expect(countOf(summary, 'exports', 'tables')).toBe(EXPORT_TABLES.length);
    expect(countOf(summary, 'exports', 'withheld_lawsuits')).toBeGreaterThan(0);
    const parties = rowsOf(night, 'parties');
    expect(parties.length).toBeGreaterThan(100);
    expect(parties.filter((p) => p.document_type === 'CPF' && /^[0-9a-f]{64}$/.test(String(p.document))).length).toBeGreaterThan(50);
  });

  it('no CPF and no natural person\'s name from the warehouse appears in any export file, as bytes or decoded', async () => {
    const { cpfs, names, companies } = await people();
    expect(cpfs.size).toBeGreaterThan(100);
    expect(names.size).toBeGreaterThan(100);
    // A company's name is not personal data, even on a row that lacks its CNPJ (hidden there, as the rule
    // cannot tell): those names may appear.
    for (const c of companies) names.delete(c);
    for (const e of Object.values(EDGE)) if (typeof e === 'object' && 'cpf' in e) expect(cpfs.has(e.cpf)).toBe(true);
    for (const n of [EDGE.partyOnlyInList.name, EDGE.partyWithoutDocuments.name, EDGE.lawyerWithCpf.name, EDGE.nameSearch]) expect(names.has(n)).toBe(true);

    const text = new NeedleScanner(cpfs, names, 'text');
    const bytes = new NeedleScanner(cpfs, names, 'bytes');
    for (const exp of [night, priv]) {
      expect(exp.length).toBeGreaterThanOrEqual(EXPORT_TABLES.length);
      for (const f of exp) {
        expect([...bytes.findAll(f.bytes.toString('latin1'))], `${f.path} (bytes)`).toEqual([]);
        expect([...text.findAll(decodedText(f))], `${f.path} (decoded)`).toEqual([]);
      }
    }
    // The scan can see them: without privacy, the export shows nearly all of them.
    const seen = new Set(plain.flatMap((f) => [...text.findAll(decodedText(f))]));
    expect(seen.size).toBeGreaterThan((cpfs.size + names.size) * 0.9);
    for (const n of [EDGE.partyOnlyInList.name, EDGE.lawyerWithCpf.name, EDGE.transferCpf]) expect(seen.has(n.toLowerCase())).toBe(true);
  });

  it('keeps companies\' CNPJs and names and lawyers\' OAB numbers', async () => {
    const { cnpjs, companies, oabs } = await people();
    const parties = rowsOf(priv, 'parties');
    const kept = new Set(parties.flatMap((p) => [String(p.document), String(p.main_document)]));
    expect(kept.has(EDGE.company.cnpj)).toBe(true);
    expect(parties.some((p) => p.name === EDGE.company.name)).toBe(true);
    const sharedNames = new Set(parties.map((p) => String(p.name)));
    expect([...companies].filter((c) => sharedNames.has(c)).length).toBeGreaterThan(50);
    expect([...cnpjs].filter((c) => kept.has(c)).length).toBeGreaterThan(50);
    const lawyerOabs = new Set(rowsOf(priv, 'lawyers').map((l) => String(l.oab)));
    expect(lawyerOabs.has(EDGE.lawyerWithCpf.oab)).toBe(true);
    expect([...oabs].filter((o) => lawyerOabs.has(o)).length).toBeGreaterThan(50);
    const edgeLawyer = rowsOf(priv, 'lawyers').find((l) => l.oab === EDGE.lawyerWithCpf.oab)!;
    expect(JSON.parse(String(edgeLawyer.documents))).toEqual([
      { document: pseudonymOfDoc(EDGE.lawyerWithCpf.cpf), document_type: 'CPF' }, { document: EDGE.lawyerWithCpf.oab, document_type: 'OAB' }]);
  });

  it('a join of parties to lawsuits on the hashed document gives the same counts as on the clear one', async () => {
    const clear = await wh.all<{ document: string; n: number }>(`
      SELECT p.document, count(DISTINCT l.code || '#' || l.instance) AS n FROM parties p JOIN lawsuits l USING (code, instance)
      WHERE p.document_type = 'CPF' AND p.document IS NOT NULL AND coalesce(l.secrecy_level, 5) <= 0 GROUP BY p.document`);
    const lawsuits = new Set(rowsOf(priv, 'lawsuits').map((l) => `${l.code}#${l.instance}`));
    const hashed = new Map<string, Set<string>>();
    for (const p of rowsOf(priv, 'parties')) {
      const key = `${p.code}#${p.instance}`;
      if (p.document_type !== 'CPF' || p.document === null || !lawsuits.has(key)) continue;
      hashed.set(String(p.document), (hashed.get(String(p.document)) ?? new Set()).add(key));
    }
    expect(clear.length).toBeGreaterThan(50);
    expect(hashed.size).toBe(clear.length);
    expect([...hashed.values()].map((s) => s.size).sort()).toEqual(clear.map((c) => c.n).sort());
    // Document by document: the pseudonym is HMAC-SHA-256(secret, "doc:" + digits), whoever computes it.
    for (const c of clear) expect(hashed.get(pseudonymOfDoc(c.document))?.size, c.document).toBe(c.n);
    expect(clear.some((c) => c.n > 1)).toBe(true);
  });

  it('pseudonyms are stable across nights and change only with the secret', () => {
    const docs = (exp: ExportFile[]) => new Map(rowsOf(exp, 'parties').filter((p) => p.document_type === 'CPF' && p.document !== null)
      .map((p) => [`${p.code}#${p.instance}#${p.party_index}`, String(p.document)]));
    const first = docs(night);
    const later = docs(priv);
    const both = [...first.keys()].filter((k) => later.has(k));
    expect(both.length).toBeGreaterThan(first.size * 0.9);
    for (const k of both) expect(later.get(k), k).toBe(first.get(k));
    const other = docs(otherSalt);
    expect(other.size).toBe(later.size);
    const laterTokens = new Set(later.values());
    expect([...other.values()].filter((d) => laterTokens.has(d))).toEqual([]);
    const names = (exp: ExportFile[]) => rowsOf(exp, 'lawyers').map((l) => String(l.name));
    expect(names(otherSalt)).not.toEqual(names(priv));
  });

  it('pseudonymises the free text that quotes people, and leaves out what cannot be made safe', async () => {
    const { cpfs } = await people();
    const host = rowsOf(priv, 'steps').find((s) => s.step_id === 'pz-1')!;
    const [hostParty] = await wh.all<{ document: string }>("SELECT document FROM parties p JOIN steps s USING (code, instance) WHERE s.step_id = 'pz-1' AND p.document_type = 'CPF' ORDER BY p.party_index LIMIT 1");
    expect(cpfs.has(hostParty.document)).toBe(true);
    expect(host.content).toMatch(/^Intimado\(a\) [0-9a-f]{64}, CPF [0-9a-f]{64}; e [0-9a-f]{64} \(CPF[0-9a-f]{64}\)\.$/);
    expect(String(host.content)).toContain(pseudonymOfDoc(hostParty.document));
    expect(rowsOf(priv, 'steps').find((s) => s.step_id === 'pz-2')).toMatchObject({ private: true, content: null });
    const lawsuit = rowsOf(priv, 'lawsuits').find((l) => l.code === host.code)!;
    expect(lawsuit.name).toMatch(new RegExp(`^[0-9a-f]{64} \\(CPF [0-9a-f]{64}\\) x ${EDGE.company.name}$`));
    const attachment = rowsOf(priv, 'attachments').find((a) => a.code === host.code && a.attachment_id === 'a99')!;
    expect(attachment.name).toMatch(/^Procuração de [0-9a-f]{64}\.pdf$/);
    expect(JSON.parse(String(attachment.raw))).toEqual({ attachment_name: attachment.name, holder_cpf: pseudonymOfDoc(hostParty.document) });
    const request = rowsOf(priv, 'requests').find((r) => r.request_id === 'pz-req')!;
    expect(request.search_key).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(String(request.search))).toEqual({ search_type: 'name', search_key: request.search_key });
    expect(request.error).toBe(`no lawsuit for ${request.search_key}`);
    expect(rowsOf(priv, 'rejected_inputs').length).toBeGreaterThan(0);
    expect(rowsOf(priv, 'rejected_inputs').every((r) => r.value === null && typeof r.reason === 'string')).toBe(true);
    expect(rowsOf(priv, 'runs').every((r) => r.summary === null && typeof r.calls === 'number')).toBe(true);
    expect(rowsOf(priv, 'transfer_files').find((t) => t.transfer_file_id === 'pz-tf')!.error).toBe(`line 3: CPF ${pseudonymOfDoc(EDGE.transferCpf)} unreadable`);
  });

  it('leaves out lawsuits above the secrecy level, an unknown level included, with every row that belongs to them', async () => {
    const all = await wh.all<{ code: string; instance: number; secrecy_level: number | null }>('SELECT code, instance, secrecy_level FROM lawsuits');
    const kept = new Set(all.filter((l) => l.secrecy_level !== null && l.secrecy_level <= 0).map((l) => `${l.code}#${l.instance}`));
    const out = all.filter((l) => !kept.has(`${l.code}#${l.instance}`));
    expect(out.some((l) => l.secrecy_level === null)).toBe(true);
    expect(out.some((l) => (l.secrecy_level ?? 0) > 0)).toBe(true);
    expect(withheld).toBe(out.length);
    expect(new Set(rowsOf(priv, 'lawsuits').map((l) => `${l.code}#${l.instance}`))).toEqual(kept);
    for (const table of ['parties', 'lawyers', 'steps', 'subjects', 'classifications', 'courts', 'attachments', 'search_hits']) {
      const rows = rowsOf(priv, table);
      const plainRows = rowsOf(plain, table);
      const leaked = rows.filter((r) => !kept.has(`${r.code}#${r.instance}`));
      expect(leaked, table).toEqual([]);
      expect(rows.length, table).toBe(plainRows.filter((r) => kept.has(`${r.code}#${r.instance}`)).length);
    }
    expect(rowsOf(plain, 'lawsuits').length).toBe(all.length);
  });

  it('writes the same columns with the same types as the export without privacy', () => {
    const schemaOf = (exp: ExportFile[], table: string) => exp.find((f) => f.table === table)!.schema;
    for (const t of EXPORT_TABLES) expect(schemaOf(priv, t.table), t.table).toEqual(schemaOf(plain, t.table));
  });

  it('the warehouse keeps the originals', async () => {
    const [{ n }] = await wh.all<{ n: number }>("SELECT count(*) AS n FROM parties WHERE document_type = 'CPF' AND regexp_full_match(document, '[0-9]{11}')");
    expect(n).toBeGreaterThan(100);
    const [{ m }] = await wh.all<{ m: number }>("SELECT count(*) AS m FROM duckdb_functions() WHERE function_name LIKE 'pz\\_%' ESCAPE '\\'");
    expect(m).toBe(0);
  });

  it('works on a warehouse opened read-only, as `lawsuit-etl export` opens it', async () => {
    await wh.close();
    const ro = await Warehouse.open(join(tmp.dir, 'warehouse.duckdb'), { readOnly: true });
    try {
      const res = await exportParquet(ro, join(tmp.dir, 'read-only'), { privacy: { mode: 'pseudonymise', salt: SALT, maxSecrecy: 0 } });
      expect(res.withheldLawsuits).toBe(withheld);
      const again = await readExport(join(tmp.dir, 'read-only'));
      expect(rowsOf(again, 'parties').map((p) => p.document).sort()).toEqual(rowsOf(priv, 'parties').map((p) => p.document).sort());
    } finally {
      await ro.close();
    }
  });
});
