// Shared set-up of the sync tests: an in-process sandbox, the real client, and documents found through the
// sandbox's own samples (so that they find lawsuits in the database view).
import { LawsuitApi } from '../../src/api/client.js';
import type { Lawsuit } from '../../src/spec/types.js';
import { normaliseKey } from '../../src/input/normalise.js';
import type { DocumentSpec, DocumentsList, SearchType } from '../../src/input/documents.js';
import type { Sandbox } from '../../src/sandbox/server.js';

export const SEED = 7;
export const LAWSUITS = 6000;

export function clientFor(sandbox: Sandbox, apiKey = 'sandbox-key'): LawsuitApi {
  return new LawsuitApi({ apiKey, urls: { requests: sandbox.url, tracking: sandbox.url, lawsuits: sandbox.url, transfer: sandbox.url }, retries: 1, baseDelayMs: 10 });
}

export async function post(sandbox: Sandbox, path: string, body: unknown, apiKey = 'sandbox-key'): Promise<{ status: number; body: any }> {
  const res = await fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { 'api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

export async function get(sandbox: Sandbox, path: string, apiKey = 'sandbox-key'): Promise<{ status: number; body: any }> {
  const res = await fetch(`${sandbox.url}${path}`, { headers: { 'api-key': apiKey } });
  return { status: res.status, body: await res.json() };
}

export const keyOf = (l: { code: string; instance: number }): string => `${l.code}#${l.instance}`;
export const keySet = (ls: ReadonlyArray<{ code: string; instance: number }>): string[] => ls.map(keyOf).sort();

export function docSpec(line: number, searchType: string, rawKey: string): DocumentSpec {
  const n = normaliseKey(searchType as SearchType, rawKey);
  if (!n.ok) throw new Error(`bad test key ${rawKey}: ${n.reason}`);
  return { line, searchType: searchType as SearchType, searchKey: n.key, rawKey, onDemand: false };
}

export function listOf(documents: DocumentSpec[]): DocumentsList {
  return { source: 'test', documents, rejected: [], duplicates: [] };
}

/** The sample document (by party) with the most lawsuits now: the richest ground for filters. */
export function richestParty(sandbox: Sandbox, n = 80): { search_type: string; search_key: string } {
  let best = { search_type: '', search_key: '' };
  let most = -1;
  for (const d of sandbox.sampleDocuments(n)) {
    if (!['cpf', 'cnpj', 'oab', 'name'].includes(d.search_type)) continue;
    const c = sandbox.truth({ search_type: d.search_type, search_key: d.search_key }).length;
    if (c > most) { most = c; best = { search_type: d.search_type, search_key: d.search_key }; }
  }
  return best;
}

export type { Lawsuit };
