// The universe's CPF, CNPJ (numeric and alphanumeric) and CNJ numbers pass check-digit rules written here
// independently from REFERENCE.md, and CNJ numbers carry real justice and tribunal codes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { sandbox, scan } from './helpers.js';

function cpfOk(d: string): boolean {
  if (!/^\d{11}$/.test(d) || /^(\d)\1{10}$/.test(d)) return false;
  const n = [...d].map(Number);
  const dv = (len: number) => { let s = 0; for (let i = 0; i < len; i++) s += n[i] * (len + 1 - i); const r = s % 11; return r < 2 ? 0 : 11 - r; };
  return dv(9) === n[9] && dv(10) === n[10];
}
function cnpjOk(d: string): boolean {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(d)) return false;
  const v = [...d].map((c) => c.charCodeAt(0) - 48);
  const dv = (w: number[]) => { const s = w.reduce((a, wi, i) => a + wi * v[i], 0); const r = s % 11; return r < 2 ? 0 : 11 - r; };
  return dv([5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === v[12] && dv([6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === v[13];
}
function cnjOk(code: string): boolean {
  const m = /^(\d{7})-(\d{2})\.(\d{4})\.(\d)\.(\d{2})\.(\d{4})$/.exec(code);
  if (!m) return false;
  const n = BigInt(`${m[1]}${m[3]}${m[4]}${m[5]}${m[6]}${m[2]}`);
  return n % 97n === 1n;
}
const TRIBUNAL_CODES: Record<string, string> = {
  TJSP: '8.26', TJRJ: '8.19', TJMG: '8.13', TJRS: '8.21', TJPR: '8.16', TJBA: '8.05', TJPE: '8.17', TJDFT: '8.07', TJCE: '8.06', TJAL: '8.02',
  TRT1: '5.01', TRT2: '5.02', TRT3: '5.03', TRT15: '5.15', TRF1: '4.01', TRF2: '4.02', TRF3: '4.03', TRF4: '4.04',
  'TRE-SP': '6.26', 'TRE-RJ': '6.19', 'TRE-MG': '6.13', TJMSP: '9.26', TJMMG: '9.13', TJMRS: '9.21', STJ: '3.00', TST: '5.00',
};

describe('generated documents', () => {
  let sb: Sandbox;
  let all: any[];
  beforeAll(async () => { sb = await sandbox(); all = scan(sb, { onDemand: true }); });
  afterAll(async () => sb.close());

  test('the independent checkers accept the reference vectors and reject the known bad one', () => {
    expect(cpfOk('09206529722')).toBe(true);
    expect(cnpjOk('12ABC34501DE35')).toBe(true);
    expect(cnpjOk('A1B2C3D4E5F668')).toBe(true);
    expect(cnjOk('0710802-55.2018.8.02.0001')).toBe(true);
    expect(cnjOk('0001234-55.2023.8.26.0100')).toBe(false);
  });

  test('every CPF and CNPJ of every party has valid check digits; alphanumeric CNPJs appear from July 2026', () => {
    let cpfs = 0;
    const cnpjs = new Set<string>();
    for (const l of all) for (const p of l.parties) {
      if (!p.document || l.secrecy_level >= 5) continue;
      if (p.document_type === 'CPF') { expect(cpfOk(p.document), p.document).toBe(true); cpfs++; }
      if (p.document_type === 'CNPJ') { expect(cnpjOk(p.document), p.document).toBe(true); cnpjs.add(p.document); }
    }
    expect(cpfs).toBeGreaterThan(1000);
    // The test clock (June 2026) is before the first alphanumeric CNPJ; a year later some lawsuits name one.
    expect([...cnpjs].filter((d) => /[A-Z]/.test(d))).toEqual([]);
    const later = scan(sb, { onDemand: true, at: Date.parse('2027-09-01T00:00:00Z') });
    const alnum = new Set(later.flatMap((l) => l.parties).filter((p: any) => p.document_type === 'CNPJ' && /[A-Z]/.test(p.document)).map((p: any) => p.document));
    expect(alnum.size).toBeGreaterThan(0);
    for (const d of alnum) expect(cnpjOk(d as string), d as string).toBe(true);
  });

  test('every CNJ number is valid, its year is the distribution year of the first instance, and J.TR match the tribunal', () => {
    for (const l of all) {
      expect(cnjOk(l.code), l.code).toBe(true);
      const [, , year, j, tr] = /^(\d{7}-\d{2})\.(\d{4})\.(\d)\.(\d{2})/.exec(l.code)!;
      expect(`${j}.${tr}`).toBe(TRIBUNAL_CODES[l.tribunal_acronym]);
      expect(l.justice).toBe(j);
      expect(l.tribunal).toBe(tr);
      if (l.instance === 1) expect(year).toBe(l.distribution_date.slice(0, 4));
    }
  });

  test('lawyers carry OAB numbers; the universe has the irregularities of the spec', () => {
    const oabs = all.flatMap((l) => l.parties.flatMap((p: any) => p.lawyers.flatMap((w: any) => (w.documents ?? []).map((d: any) => d.document))));
    expect(oabs.length).toBeGreaterThan(1000);
    for (const o of oabs) expect(o).toMatch(/^[1-9]\d{3,6}[A-Z]{2}[A-Z]?$/);
    expect(all.some((l) => l.parties.some((p: any) => p.person_type === 'Advogado'))).toBe(true);
    expect(all.some((l) => l.courts.some((c: any) => c.code === undefined))).toBe(true);
    expect(all.some((l) => l.parties.some((p: any) => p.main_document === '' && p.document !== ''))).toBe(true);
    expect(all.some((l) => l.last_step === undefined && l.steps.length > 0)).toBe(true);
    expect(all.some((l) => l.last_step !== undefined)).toBe(true);
    expect(all.some((l) => 'foro' in l || 'vara_federal' in l)).toBe(true);
    const levels = new Set(all.map((l) => l.secrecy_level));
    for (const lv of [0, 1, 3, 5]) expect(levels.has(lv)).toBe(true);
    expect(all.filter((l) => l.secrecy_level === 5).length / all.length).toBeLessThan(0.02);
    const codes = new Map<string, number[]>();
    for (const l of all) codes.set(l.code, [...(codes.get(l.code) ?? []), l.instance]);
    expect([...codes.values()].some((ins) => ins.includes(1) && ins.includes(2))).toBe(true);
  });

  test('phases and statuses are the spec\'s values', () => {
    const phases = ['Aguardando execução ou julgamento', 'Arquivado', 'Cancelado', 'Execução', 'Execução ou cumprimento', 'Inicial', 'Reativado', 'Recurso', 'Sentença', 'Trânsito em julgado ou acordo'];
    const seen = new Set<string>();
    for (const l of all) { expect(phases).toContain(l.phase); expect(['Ativo', 'Finalizado']).toContain(l.status); seen.add(l.phase); }
    expect(seen.size).toBeGreaterThanOrEqual(7);
  });
});
