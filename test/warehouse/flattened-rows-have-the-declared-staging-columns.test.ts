import { expect, it } from 'vitest';
import { flattenLawsuit } from '../../src/warehouse/flatten.js';
import { STAGE_COLUMNS } from '../../src/warehouse/schema/staging.js';
import { richLawsuit } from './fixtures.js';

// The row types of rows.ts are interfaces written beside the declaration (a type cannot be derived from data
// known only at run time): the rows flatten makes must have exactly the staged columns the declaration gives,
// no column staged that the rows do not carry (it would load as NULL), no field of a row that is never staged.

it('every kind of row flatten makes has exactly the declared staging columns', () => {
  const f = flattenLawsuit(richLawsuit(), { responseId: 'r', responseCreatedAt: '2024-03-01T00:00:00.000Z', cachedResponse: false, source: 'async', runId: 'run-1' });
  const kinds = { lawsuits: [f.lawsuit], parties: f.parties, lawyers: f.lawyers, steps: f.steps, subjects: f.subjects, classifications: f.classifications, courts: f.courts, attachments: f.attachments, related_lawsuits: f.related_lawsuits } as const;
  for (const [kind, rows] of Object.entries(kinds)) {
    expect(rows.length, kind).toBeGreaterThan(0);
    const staged = STAGE_COLUMNS[kind as keyof typeof kinds].map(([c]) => c).sort();
    for (const row of rows) expect(Object.keys(row).sort(), kind).toEqual(staged);
  }
});
