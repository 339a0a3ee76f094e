import { describeEveryFault } from './support/every-fault.js';

// Every fault of the sandbox at once, in the spec's literal reading (support/every-fault.ts); the documented
// dialect is faults.test.ts, beside it.
describeEveryFault('spec');
