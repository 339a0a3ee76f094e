// Public surface of the sandbox emulator.
export { startSandbox, DEFAULT_RETENTION_MS, type Sandbox, type SandboxOptions } from './server.js';
export { RESOURCES, type Resource } from './resource-plan.js';
export { TPU_CLASSES, TPU_SUBJECTS, TPU_MOVEMENTS, type TpuItem } from './tpu.js';
export { runSandboxCli, parseSandboxArgs } from './cli.js';
export { Universe } from './universe.js';
export { parseFaults, type FaultSettings } from './faults.js';
export { DEFAULT_DIALECT, DIALECT_NAMES, DIALECTS, parseDialect, type Dialect, type DialectName } from './dialect.js';
export type { RouteDef, RouteModule, RouteHandler, Reply, CallContext, SandboxState } from './context.js';
export type { CounterSnapshot } from './counters.js';
export type { SampleDocument } from './samples.js';
