import { describeResume } from './support/resume-after-crash.js';

// Kill points of the list's searches (headers) and of their responses' sweep, at the header level (LAWSUIT_DETAIL:
// the documents' wave alone, 100 s of the suite with the lawsuit level's 165 reads behind each night): 19 lines of
// the example list, about 165 responses in pages of 50. The lawsuit level's are in
// resume-after-crash-at-the-lawsuit-level.test.ts (the same suite, support/resume-after-crash.ts).
describeResume('the documents\' wave', () => ['submit.before-post=3', 'submit.after-post=12', 'collect.after-commit=2', 'stage.after-search=1',
  'transfer.after-load=2', 'sweep.after-read=1'], true, { level: 'header', head: 19, pageSize: 50 });
