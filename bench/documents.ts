import { cpfCheckDigits } from '../src/sandbox/check-digits.js';
import { startSandbox, type Sandbox } from '../src/sandbox/server.js';

/** The seed of every universe the bench reads its documents from. */
const SEED = 7;

/** The sandbox's arguments for the universe of `lawsuits` lawsuits the documents were chosen from. */
export const universeArgs = (lawsuits: number): string[] => ['--seed', String(SEED), '--lawsuits', String(lawsuits)];

/** Documents chosen by `pick` from a sandbox of the universe of `lawsuits` lawsuits, started in process for it. */
export async function withUniverse<T>(lawsuits: number, pick: (sb: Sandbox) => T): Promise<T> {
  const sb = await startSandbox({ seed: SEED, lawsuits });
  try {
    return pick(sb);
  } finally {
    await sb.close();
  }
}

type Doc = { search_key: string; search_type: string };

/** The documents list's CSV text of `rows`, a key quoted when CSV needs it. */
function csvOf(rows: readonly Doc[]): string {
  const key = (k: string) => (/[",\r\n]/.test(k) ? `"${k.replace(/"/g, '""')}"` : k);
  return ['search_key,search_type', ...rows.map((d) => `${key(d.search_key)},${d.search_type}`)].join('\n') + '\n';
}

/** A documents CSV whose searches find at least `lawsuits` lawsuits in the sandbox, each at least `min` (big litigants first). */
export function documentsFinding(sb: Sandbox, lawsuits: number, min = 200): { csv: string; searches: Doc[]; documents: number; expected: number } {
  const seen = new Set<string>();
  const picked: Doc[] = [];
  let expected = 0;
  for (let offset = 0; expected < lawsuits && offset < 50; offset++) {
    const samples = sb.sampleDocuments(500, offset).filter((d) => d.search_type === 'cnpj' || d.search_type === 'cpf');
    for (const d of samples) {
      if (expected >= lawsuits || seen.has(d.search_key)) continue;
      seen.add(d.search_key);
      const n = sb.truth({ search_type: d.search_type, search_key: d.search_key }).length;
      if (n < min) continue;
      picked.push(d);
      expected += n;
    }
  }
  return { csv: csvOf(picked), searches: picked, documents: picked.length, expected };
}

/** A documents CSV of `n` ordinary documents (all search types), for call-count figures. */
export function ordinaryDocuments(sb: Sandbox, n: number): string {
  return csvOf(sb.sampleDocuments(n));
}

/**
 * A portfolio of individuals, the usual case of credit and compliance users: `n` CPFs of which `nothing` (a fifth
 * by default; all of them for the night that finds nothing) find nothing and the rest one to three lawsuits each.
 */
export function individualDocuments(sb: Sandbox, n: number, nothing = Math.floor(n / 5)): { csv: string; expected: number } {
  const keys: string[] = [];
  let expected = 0;
  for (let offset = 0; keys.length < n - nothing && offset < 200; offset++) {
    for (const d of sb.sampleDocuments(500, 100 + offset)) {
      if (keys.length >= n - nothing || d.search_type !== 'cpf' || keys.includes(d.search_key)) continue;
      const found = sb.truth({ search_type: 'cpf', search_key: d.search_key }).length;
      if (found < 1 || found > 3) continue;
      keys.push(d.search_key);
      expected += found;
    }
  }
  // Valid CPFs outside the universe's people: well-formed, found nowhere.
  for (let i = 0; keys.length < n; i++) {
    const body = String(900_000_000 + i * 7919).slice(0, 9);
    const cpf = body + cpfCheckDigits(body);
    if (sb.truth({ search_type: 'cpf', search_key: cpf }).length === 0) keys.push(cpf);
  }
  return { csv: csvOf(keys.map((k) => ({ search_key: k, search_type: 'cpf' }))), expected };
}

/** A few companies with thousands of lawsuits each: `n` CNPJs finding at least `min` lawsuits and at most `max`. */
export function companyDocuments(sb: Sandbox, n: number, min = 1000, max = Number.POSITIVE_INFINITY): { csv: string; expected: number } {
  const keys: string[] = [];
  let expected = 0;
  for (let offset = 0; keys.length < n && offset < 200; offset++) {
    for (const d of sb.sampleDocuments(500, 300 + offset)) {
      if (keys.length >= n || d.search_type !== 'cnpj' || keys.includes(d.search_key)) continue;
      const found = sb.truth({ search_type: 'cnpj', search_key: d.search_key }).length;
      if (found < min || found > max) continue;
      keys.push(d.search_key);
      expected += found;
    }
  }
  return { csv: csvOf(keys.map((k) => ({ search_key: k, search_type: 'cnpj' }))), expected };
}

/**
 * The ordinary mix of the calls figures: `n` ordinary documents (all search types) but those finding more than
 * `max` lawsuits, which are the companies mix's business (and would make one night of the mix a quarter of a
 * million responses: 20 of the first 300 samples find 2,000 to 28,000 each).
 */
export function ordinaryMix(sb: Sandbox, n: number, max = 2_000): string {
  const kept = sb.sampleDocuments(Math.ceil(n * 1.5))
    .filter((d) => sb.truth({ search_type: d.search_type, search_key: d.search_key }).length <= max).slice(0, n);
  return csvOf(kept);
}
