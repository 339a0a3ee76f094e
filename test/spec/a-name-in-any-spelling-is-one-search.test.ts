import { describe, expect, it } from 'vitest';
import { rng } from '../support/random.js';
import { foldName, searchIdentity } from '../../src/spec/identifiers.js';
import type { SearchType } from '../../src/spec/types.js';
import { parseDocuments } from '../../src/input/documents.js';
import { searchFor } from '../../src/pipeline/plan.js';
import { sameSearch } from '../../src/api/search-match.js';
import { trackingKey } from '../../src/pipeline/tracking/identity.js';

// A name written in another case, with or without its accents, or with other spacing, is the same search: the
// provider finds the same lawsuits for each (an adversarial run bought "Ricardo Medeiros Viana" three times for
// the same two lawsuits). One identity (src/spec/search-identity.ts) serves the list's duplicates, the plan's
// and the ledger's key, the look-up of a lost submission and the trackings; the name sent is the first written.

const LETTERS = 'abcdefghijklmnopqrstuvwxyzáàâãéêíóôõúüçñ';
const ACCENTED: Record<string, string> = { a: 'áàâã', e: 'éê', i: 'í', o: 'óôõ', u: 'úü', c: 'ç', n: 'ñ' };
const pick = <T>(r: () => number, xs: readonly T[] | string): T => xs[Math.floor(r() * xs.length)] as T;

function nameOf(r: () => number): string {
  const words = 1 + Math.floor(r() * 4);
  return Array.from({ length: words }, () => Array.from({ length: 2 + Math.floor(r() * 8) }, () => pick<string>(r, LETTERS)).join('')).join(' ');
}

/** Another way of writing `name`: letters' case flipped at random, accents dropped or added, spacing changed. */
function respelled(r: () => number, name: string): string {
  const letters = [...name.normalize('NFD').replace(/[\u0300-\u036f]/g, '')].map((c) => {
    const accented = ACCENTED[c];
    const withAccent = accented && r() < 0.3 ? pick<string>(r, accented) : c;
    return r() < 0.5 ? withAccent.toUpperCase() : withAccent;
  });
  const spaced = letters.join('').split(' ').join(pick(r, [' ', '  ', '\t', ' \u00a0']));
  return `${pick(r, ['', ' ', '\t'])}${spaced}${pick(r, ['', ' ', '  '])}`;
}

/** The identity of a search of `key` by `type`, nothing else asked: the ledger's form, `type|key identity|db|*`. */
const keyIdentity = (type: SearchType, key: string): string => searchIdentity({ search_type: type, search_key: key }).split('|')[1];

describe('a name in any spelling is one search', () => {
  it('folds every respelling of a name to one identity, and different names to different ones (seeded)', () => {
    const r = rng(2101);
    for (let i = 0; i < 2_000; i++) {
      const name = nameOf(r);
      const other = respelled(r, name);
      expect(foldName(other), `${JSON.stringify(name)} / ${JSON.stringify(other)}`).toBe(foldName(name));
      expect(keyIdentity('name', other)).toBe(keyIdentity('name', name));
      // a letter changed (not only its accent or case) is another name
      const plain = foldName(name);
      const at = [...plain].findIndex((c) => c !== ' ');
      const changed = plain.slice(0, at) + (plain[at] === 'x' ? 'y' : 'x') + plain.slice(at + 1);
      expect(foldName(changed)).not.toBe(plain);
    }
  });

  it('documents and other keys are their own identity: only names fold', () => {
    expect(keyIdentity('cnpj', '12ABC34501DE35')).toBe('12ABC34501DE35');
    expect(keyIdentity('lawsuit_id', '3f2c1d9e-8a7b-4c6d-9e0f-1a2b3c4d5e6f')).toBe('3f2c1d9e-8a7b-4c6d-9e0f-1a2b3c4d5e6f');
    expect(keyIdentity('name', 'José  da Conceição')).toBe('jose da conceicao');
  });

  it('three spellings in the list: one document (the first, as written), two duplicates, one plan key', () => {
    const list = parseDocuments('search_key,search_type\nRicardo Medeiros Viana,name\nricardo medeiros viana,name\n  RICARDO   MEDEIROS VIÁNA ,name\n');
    expect(list.documents.map((d) => d.searchKey)).toEqual(['Ricardo Medeiros Viana']);
    expect(list.duplicates.map((d) => [d.line, d.firstLine])).toEqual([[3, 2], [4, 2]]);
    expect(list.rejected).toEqual([]);
    const [doc] = list.documents;
    expect(searchFor(doc).search_key).toBe('Ricardo Medeiros Viana');
    const hashes = ['Ricardo Medeiros Viana', 'ricardo medeiros viana', 'RICARDO MEDEIROS VIÁNA']
      .map((k) => searchIdentity({ search_type: 'name', search_key: k }));
    expect(new Set(hashes).size).toBe(1);
    // the same name on demand, or on one instance only, is another search
    expect(searchIdentity({ search_type: 'name', search_key: 'ricardo medeiros viana', on_demand: true })).not.toBe(hashes[0]);
  });

  it('a submission looked up after a lost answer, and a tracking, match the name in another spelling', () => {
    expect(sameSearch({ search_type: 'name', search_key: 'Ricardo Medeiros Viana' }, { search_type: 'name', search_key: 'RICARDO MEDEIROS VIÁNA' })).toBe(true);
    expect(trackingKey('name', 'Ricardo  Medeiros Viana')).toBe(trackingKey('name', 'ricardo medeiros viána'));
    expect(trackingKey('name', 'Ricardo Medeiros')).not.toBe(trackingKey('name', 'Ricardo Medeiros Viana'));
  });
});
