import type { RunSummary } from '../pipeline/summary.js';

type Totals = NonNullable<RunSummary['warehouse']>;

/**
 * The tables whose row count a run summary keeps (RunSummary.warehouse), in the order the reports list them and
 * with the names they give them; the scheduler's metrics label each by its field. `lawsuitsThisRun` is not one:
 * it counts a run, not a table.
 */
export const WAREHOUSE_TOTALS: ReadonlyArray<{ label: string; field: Exclude<keyof Totals, 'lawsuitsThisRun'> }> = [
  { label: 'lawsuits', field: 'lawsuits' },
  { label: 'parties', field: 'parties' },
  { label: 'lawyers', field: 'lawyers' },
  { label: 'steps', field: 'steps' },
  { label: 'raw responses', field: 'responses' },
];
