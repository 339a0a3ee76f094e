import type { Migration } from './migration.js';
import { migration as m001 } from './001-core-tables.js';
import { migration as m002 } from './002-submission-intents.js';
import { migration as m020 } from './020-synchronous-query-history.js';
import { migration as m021 } from './021-tracking-records-and-checks.js';
import { migration as m022 } from './022-synchronous-and-tracking-history-views.js';
import { migration as m030 } from './030-change-detection.js';
import { migration as m031 } from './031-analysts-views.js';
import { migration as m040 } from './040-run-stages.js';
import { migration as m041 } from './041-load-problems.js';
import { migration as m042 } from './042-texts-too-long-in-parts.js';
import { migration as m050 } from './050-responses-read-by-a-sweep-or-per-request.js';
import { migration as m051 } from './051-active-lawsuits-on-loaded-at.js';
import { migration as m052 } from './052-transfer-tables.js';
import { migration as m060 } from './060-order-free-merge.js';
import { migration as m061 } from './061-upstream-dialects.js';
import { migration as m070 } from './070-why-a-tracked-document-is-searched.js';
import { migration as m075 } from './075-tracking-runs-read.js';
import { migration as m080 } from './080-steps-inherit-their-lawsuits-version.js';
import { migration as m081 } from './081-transfer-files-wait-after-a-passing-failure.js';
import { migration as m090 } from './090-two-levels.js';
import { migration as m100 } from './100-searches-asking-for-attachments.js';
import { migration as m101 } from './101-header-fields-related-lawsuits-and-error-reasons.js';
import { migration as m102 } from './102-a-documents-answer-is-its-plain-searchs.js';
import { migration as m110 } from './110-webhook-deliveries.js';
import { migration as m120 } from './120-lawsuit-trackings.js';
import { migration as m130 } from './130-attachments-by-id-and-their-files.js';
import { migration as m140 } from './140-a-usage-error-is-named-so.js';

// Every migration, in the order they apply. A new one is a new file with the next number, added at the end.
export const MIGRATIONS: readonly Migration[] = [
  m001, m002, m020, m021, m022, m030, m031, m040, m041, m042, m050, m051, m052, m060, m061, m070, m075, m080, m081, m090, m100, m101, m102, m110, m120, m130, m140,
];

export type { Migration } from './migration.js';
