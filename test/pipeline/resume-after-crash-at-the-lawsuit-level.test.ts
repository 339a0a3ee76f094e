import { describeResume } from './support/resume-after-crash.js';

// Kill points among the lawsuit-level reads, counted on from the list's `docs` submissions (their submissions,
// their sweep's commits, after the stage); the documents' wave's are in resume-after-crash.test.ts.
describeResume('the lawsuit level', (docs) => [`submit.before-post=${docs + 4}`, `submit.after-post=${docs + 9}`, 'collect.after-commit=6',
  'stage.after-lawsuits=1'], false);
