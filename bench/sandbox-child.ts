import { spawn } from 'node:child_process';
import { CLI } from './cli-path.js';

export interface SandboxChild { url: string; pid: number; stop(): void }

/**
 * `lawsuit-etl sandbox` in a child process of its own, so that its memory is not the benchmark's (nor the
 * measured run's); resolves with its base address, its first stdout line. `nodeFlags` go to node before the CLI.
 */
export function sandboxChild(args: string[], nodeFlags: string[] = []): Promise<SandboxChild> {
  const child = spawn(process.execPath, [...nodeFlags, CLI, 'sandbox', '--port', '0', '--court-delay-ms', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    // A sandbox of a million lawsuits prints its address in seconds; one that has not in two minutes never will.
    const late = setTimeout(() => { child.kill('SIGKILL'); reject(new Error('the sandbox printed no address within 120 s')); }, 120_000);
    child.once('exit', (c) => { clearTimeout(late); reject(new Error(`sandbox exited (${c})`)); });
    child.stdout.once('data', (d: Buffer) => {
      clearTimeout(late);
      child.removeAllListeners('exit');
      resolve({
        url: d.toString().split('\n')[0].trim(), pid: child.pid!,
        stop: () => {
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
        },
      });
    });
  });
}
