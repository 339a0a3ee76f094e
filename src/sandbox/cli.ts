// `lawsuit-etl sandbox`: serve the emulator until SIGTERM/SIGINT. The base address is the first line of
// standard output so that a parent process can read it and point its clients there. Its flags are read by the
// CLI (src/cli/sandbox-args.ts), against the option table.

import { startSandbox, type SandboxOptions } from './server.js';

export interface SandboxCliIo {
  /** Where the base address line goes. Default process.stdout. */
  out?: { write(s: string): unknown };
  /** Resolves when the sandbox should stop, besides SIGTERM/SIGINT (tests use it). */
  stop?: Promise<unknown>;
}

/** Starts the sandbox, prints its base address as the first stdout line, serves until stopped. */
export async function serveSandbox(options: SandboxOptions, io: SandboxCliIo = {}): Promise<void> {
  const sandbox = await startSandbox(options);
  (io.out ?? process.stdout).write(`${sandbox.url}\n`);
  await new Promise<void>((resolve) => {
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      sandbox.close().then(resolve, resolve);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    io.stop?.then(stop, stop);
  });
}
