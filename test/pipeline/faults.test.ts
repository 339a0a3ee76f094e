import { describeEveryFault } from './support/every-fault.js';

// Every fault of the sandbox at once, in the provider's documented dialect (support/every-fault.ts); the spec's
// reading is faults-in-the-spec-dialect.test.ts, beside it.
describeEveryFault('documented');
