import type { BenchPart } from '../part.js';
import { callsPart } from './calls.js';
import { cpuPart } from './cpu.js';
import { levelsPart } from './levels.js';
import { loadPart } from './load.js';
import { memoryPart } from './memory.js';
import { nightPart } from './night.js';
import { ratePart } from './rate.js';
import { rebuildPart } from './rebuild.js';
import { sandboxPart } from './sandbox.js';
import { trackedPart } from './tracked.js';
import { transferPart } from './transfer.js';
import { webhookPart } from './webhook.js';

/** Every part of the bench, in the order the whole runs them: one line to add one (bench/part.ts). */
export const PARTS: readonly BenchPart[] = [ratePart, nightPart, callsPart, loadPart, rebuildPart, memoryPart, cpuPart, transferPart, sandboxPart, trackedPart, levelsPart, webhookPart];
