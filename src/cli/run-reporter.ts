import type { RunReporter } from '../pipeline/run-record.js';
import { readReportFacts, type ReportFacts } from '../report/facts.js';
import { writeReports } from '../report/run-reports.js';

/**
 * The run's reports as the pipeline asks for them: the facts read while the night is open to the run, both files
 * written into `dir` at its end. Here, in the CLI, because the reports read the pipeline's summary: the pipeline
 * importing them back would make the two folders depend on each other.
 */
export function runReporter(dir: string): RunReporter {
  return {
    readFacts: (wh, runId) => readReportFacts(wh, runId),
    write: (summary, facts) => writeReports(dir, { summary, facts: facts as ReportFacts | undefined }),
  };
}
