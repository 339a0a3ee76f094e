import type { Sandbox } from '../sandbox/server.js';

/** A documents CSV whose searches find at least `lawsuits` lawsuits in the sandbox (big litigants first). */
export function documentsFinding(sb: Sandbox, lawsuits: number): { csv: string; documents: number; expected: number } {
  const seen = new Set<string>();
  const picked: Array<{ search_type: string; search_key: string }> = [];
  let expected = 0;
  for (let offset = 0; expected < lawsuits && offset < 50; offset++) {
    const samples = sb.sampleDocuments(500, offset).filter((d) => d.search_type === 'cnpj' || d.search_type === 'cpf');
    for (const d of samples) {
      if (expected >= lawsuits || seen.has(d.search_key)) continue;
      seen.add(d.search_key);
      const n = sb.truth({ search_type: d.search_type, search_key: d.search_key }).length;
      if (n < 200) continue;
      picked.push(d);
      expected += n;
    }
  }
  const csv = ['search_key,search_type', ...picked.map((d) => `${d.search_key},${d.search_type}`)].join('\n') + '\n';
  return { csv, documents: picked.length, expected };
}

/** A documents CSV of `n` ordinary documents (all search types), for call-count figures. */
export function ordinaryDocuments(sb: Sandbox, n: number): string {
  const rows = sb.sampleDocuments(n).map((d) => `"${d.search_key.replace(/"/g, '""')}",${d.search_type}`);
  return ['search_key,search_type', ...rows].join('\n') + '\n';
}
