import { expect } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import type { DocumentSpec, SearchType } from '../../src/input/documents.js';
import { normaliseKey } from '../../src/input/normalise.js';
import type { Sandbox } from '../../src/sandbox/server.js';

// Helpers of the trackings nights' end-to-end tests. A small portfolio of the sandbox's own documents: in two
// levels every lawsuit a document finds is read whole and tracked on its own, so a test's cost follows its lawsuits,
// and a portfolio of tens of lawsuits keeps a night to seconds. And what one key bought, counted at the provider, so
// that nights of several keys on one sandbox child can run side by side.

interface Sample { search_type: string; search_key: string }

async function post(url: string, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status, path).toBe(200);
  return res.json();
}

/**
 * `n` documents (CPF, CNPJ or OAB) of the sandbox's samples, each finding 1 to `max` lawsuits now, none secret to a
 * lawsuit-level read (those are their own tests' subject): the lines of a documents CSV, header first.
 */
export async function smallPortfolio(url: string, n: number, opts: { max?: number; offset?: number } = {}): Promise<string[]> {
  const max = opts.max ?? 8;
  const { samples } = await (await fetch(`${url}/_sandbox/samples?n=${Math.min(1000, 8 * n)}&offset=${opts.offset ?? 0}`)).json() as { samples: Sample[] };
  const lines = ['search_key,search_type'];
  for (const s of samples.filter((d) => ['cpf', 'cnpj', 'oab'].includes(d.search_type))) {
    if (lines.length > n) break;
    const { count } = await post(url, '/_sandbox/truth', { search: { search_type: s.search_type, search_key: s.search_key } }) as { count: number };
    if (count < 1 || count > max) continue;
    const truth = await post(url, '/_sandbox/truth', { documents: [{ search_type: s.search_type, search_key: s.search_key }] }) as { unavailable: unknown[] };
    if (truth.unavailable.length === 0) lines.push(`"${s.search_key}",${s.search_type}`);
  }
  expect(lines.length - 1, 'documents of few lawsuits among the samples').toBe(n);
  return lines;
}

/**
 * `n` distinct CPF and CNPJ documents of an in-process sandbox's samples from `offset`, as the list reader makes them
 * (a different offset per key keeps two keys' portfolios apart).
 */
export function sampledDocuments(sandbox: Sandbox, n: number, offset = 0): DocumentSpec[] {
  const out = new Map<string, DocumentSpec>();
  for (const d of sandbox.sampleDocuments(6 * n, offset)) {
    if (out.size === n) break;
    const k = normaliseKey(d.search_type as SearchType, d.search_key);
    if ((d.search_type !== 'cpf' && d.search_type !== 'cnpj') || !k.ok) continue;
    out.set(k.key, { line: out.size + 2, searchType: d.search_type, searchKey: k.key, rawKey: d.search_key, onDemand: false });
  }
  return [...out.values()];
}

/** A client of the sandbox on one key, for what the provider holds of it. */
export const apiOf = (url: string, key: string): LawsuitApi => new LawsuitApi({ apiKey: key, urls: { requests: url, tracking: url, lawsuits: url, transfer: url }, retries: 0 });

/** What a key bought at the provider: its requests made by POST /requests (searches and lawsuit-level reads), not its trackings' runs. */
export async function boughtBy(url: string, key: string): Promise<number> {
  const api = apiOf(url, key);
  try {
    let n = 0;
    for await (const r of api.requests.walk({ origin: 'api', pageSize: 100 })) if (r.origin !== 'tracking') n++;
    return n;
  } finally {
    await api.close();
  }
}
