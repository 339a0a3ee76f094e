// Public surface of the sandbox emulator.
export { startSandbox, type Sandbox, type SandboxOptions } from './server.js';
export { runSandboxCli, parseSandboxArgs } from './cli.js';
export { Universe } from './universe.js';
export { parseFaults, type FaultSettings } from './faults.js';
export type { RouteDef, RouteModule, RouteHandler, Reply, CallContext, SandboxState } from './context.js';
export type { CounterSnapshot } from './counters.js';
export type { SampleDocument } from './samples.js';
