// The identifiers the spec's searches and payloads carry — CPF, CNPJ (numeric and alphanumeric), CNJ lawsuit
// numbers and OAB registrations — read one way for the whole project: strict parsers with reasons for the
// documents list, lenient normalisers for payload values, and the same normal form from both; and a search
// key's identity (a name folded: search-identity.ts). This is the
// ground floor: it imports nothing from the client, the warehouse, the pipeline or the sandbox (the sandbox
// keeps a reading of its own, so that the tests compare two).
export { stripPunctuation, quoted, type Parsed } from './parsed.js';
export { parseCpf, parseCnpj } from './cpf-cnpj.js';
export { cnjShape, parseCnj } from './cnj.js';
export { parseOab, looksLikeOab } from './oab.js';
export { normalizeDocument, normalizeOab, normalizeCnj } from './normalize.js';
export { foldName, sameFilter, searchIdentity } from './search-identity.js';
export { readInstance } from './instance.js';
export { tribunalAcronym } from './tribunals.js';
