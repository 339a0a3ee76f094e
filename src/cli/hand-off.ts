import { writeFileSync } from 'node:fs';
import type { Logger } from 'pino';
import type { CommandEnd } from '../pipeline/command-end.js';

/**
 * Tells the process that started this command how it ended (Config.summaryFile; `schedule` reads it). Written at
 * once and whole: the process may be about to exit.
 */
export function handOff(path: string | undefined, end: CommandEnd, log: Logger): void {
  if (!path) return;
  try {
    writeFileSync(path, JSON.stringify(end));
  } catch (e) {
    log.warn({ err: e }, 'how the command ended could not be handed to the scheduler');
  }
}
