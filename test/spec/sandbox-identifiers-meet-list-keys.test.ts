import { describe, expect, it } from 'vitest';
import { normaliseKey } from '../../src/input/normalise.js';
import { normalizeCnj, normalizeDocument, normalizeOab } from '../../src/spec/identifiers.js';
import { Universe } from '../../src/sandbox/universe.js';

// Issue 12: a lawyer's OAB in the warehouse must equal the OAB a user searched for. The sandbox writes
// lawyers' OABs the ways tribunals do (`SP123456` in state courts, `123456/SP` elsewhere) beside a
// normalised document; its own reading of the spec finds lawsuits by the normal form. The lenient
// normalisers turn every payload value into the key that, searched from the documents list, finds that lawsuit.
type Obj = Record<string, unknown>;

describe('identifiers in the sandbox\'s payloads take the documents list\'s key form', () => {
  const u = new Universe({ seed: 7, lawsuits: 400 });
  const now = Date.UTC(2030, 0, 1);
  // Base instances only: the sandbox finds a lawsuit's other instance (its twin) through the base's parties.
  const lawsuits = Array.from({ length: u.count }, (_, i) => i).filter((i) => !u.planner.isTwin(i))
    .map((i) => [i, u.lawsuit(i, now, { privileged: true })] as const)
    .filter((x): x is readonly [number, Obj] => x[1] !== undefined);

  it('every lawyer\'s OAB, as the tribunal wrote it, normalises to the key that finds the lawsuit', () => {
    let seen = 0, written = 0;
    for (const [i, l] of lawsuits) {
      for (const party of l.parties as Obj[]) {
        for (const w of [...((party.lawyers as Obj[]) ?? []), ...(party.person_type === 'Advogado' ? [party] : [])]) {
          if (typeof w.oab !== 'string' || w.oab === '') continue;
          const key = normaliseKey('oab', w.oab);
          expect(key.ok, String(w.oab)).toBe(true);
          if (!key.ok) continue;
          expect(normalizeOab(w.oab)).toBe(key.key);
          const doc = (w.documents as Obj[])[0].document;
          expect(normalizeOab(doc)).toBe(key.key);
          expect(u.lawsuitsOfOab(key.key)).toContain(i);
          seen++;
          if (w.oab !== key.key) written++;
        }
      }
    }
    expect(seen).toBeGreaterThan(200);
    // The tribunals' spellings differ from the key: the test reads them, not copies of the key.
    expect(written / seen).toBeGreaterThan(0.9);
  });

  it('every party\'s CPF or CNPJ normalises to the key that finds the lawsuit', () => {
    let seen = 0;
    for (const [i, l] of lawsuits) {
      for (const party of l.parties as Obj[]) {
        if (party.person_type === 'Advogado' || typeof party.document !== 'string' || party.document === '') continue;
        const type = party.document_type === 'CNPJ' ? 'cnpj' : 'cpf';
        const key = normaliseKey(type, party.document);
        expect(key.ok, String(party.document)).toBe(true);
        if (!key.ok) continue;
        expect(normalizeDocument(party.document)).toBe(key.key);
        expect(u.lawsuitsOfDocument(key.key), `lawsuit ${i}, ${key.key}`).toContain(i);
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(200);
  });

  it('every lawsuit\'s code is already in the normal form, and its digits alone normalise to it', () => {
    for (const [, l] of lawsuits) {
      const code = l.code as string;
      const key = normaliseKey('lawsuit_cnj', code);
      expect(key).toEqual({ ok: true, key: code });
      expect(normalizeCnj(code.replace(/\D/g, ''))).toBe(code);
    }
  });
});
