import { describeResume } from './support/resume-after-crash.js';

// Kill points among the lawsuit-level reads, counted on from the list's `docs` submissions (their submissions,
// their sweep's commits, after the stage); the documents' wave's are in resume-after-crash.test.ts. The example
// list's first 11 lines: each night reads some 80 lawsuits whole (the first 19 lines' 165 made this file 121 s of the
// suite), in pages of 25 so that the 6th page falls among the reads.
describeResume('the lawsuit level', (docs) => [`submit.before-post=${docs + 4}`, `submit.after-post=${docs + 9}`, 'collect.after-commit=6',
  'stage.after-lawsuits=1'], false, { level: 'whole', head: 11, pageSize: 25 });
