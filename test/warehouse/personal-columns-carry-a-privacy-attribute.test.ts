import { expect, it } from 'vitest';
import { SCHEMA } from '../../src/warehouse/schema/index.js';
import type { Schema } from '../../src/warehouse/schema/types.js';

// The exports' privacy mode (src/warehouse/privacy.ts) pseudonymises what the declaration says is personal: a
// column's `privacy` attribute. A column nobody marked is exported as it is, so a new `judge_name` or
// `witness_cpf` would reach a shared BI workspace in clear. An exported column whose name suggests a person or
// a document must say what it holds (`not personal` included: a court's name).

/** Words of a column's name that suggest a person or a document (a searched key is a document or a name). */
const SUGGESTS = new Set([
  'name', 'names', 'nome', 'person', 'people', 'party', 'parties', 'lawyer', 'lawyers', 'judge', 'witness', 'author',
  'email', 'phone', 'address', 'birth', 'document', 'documents', 'doc', 'cpf', 'cnpj', 'rg', 'oab', 'search',
]);

/** `table.column` of every exported column of `schema` that may name a person or a document and says nothing of it. */
function unmarked(schema: Schema): string[] {
  return schema.tables.flatMap((t) => {
    if (!t.export) return [];
    const exported = [
      ...t.columns.filter((c) => c.exported !== false),
      ...Object.keys(t.export.add ?? {}).map((name) => ({ name, type: 'VARCHAR', privacy: undefined })),
    ];
    return exported
      // Only text holds a name or a document as the warehouse keeps them (digits only is still VARCHAR); a
      // `_type` column names a kind (cpf, Autor), an integer counts (runs.documents).
      .filter((c) => (c.type === 'VARCHAR' || c.type === 'JSON') && !c.name.endsWith('_type'))
      .filter((c) => !c.privacy && c.name.split('_').some((w) => SUGGESTS.has(w)))
      .map((c) => `${t.name}.${c.name}`);
  });
}

it('every exported column that may name a person or a document carries a privacy attribute', () => {
  expect(unmarked(SCHEMA)).toEqual([]);
});

it('fails on such a column that carries none', () => {
  const edited: Schema = {
    ...SCHEMA,
    tables: SCHEMA.tables.map((t) => (t.name !== 'lawsuits' ? t : {
      ...t,
      columns: [...t.columns, { name: 'judge_name', type: 'VARCHAR', comment: 'the judge' }, { name: 'witness_cpf', type: 'VARCHAR', comment: 'a witness', exported: false }],
      export: { ...t.export, add: { author_doc: 't.name' } },
    })),
  };
  // Not exported (witness_cpf) is not shared; added to the export (author_doc) is.
  expect(unmarked(edited)).toEqual(['lawsuits.judge_name', 'lawsuits.author_doc']);
});
