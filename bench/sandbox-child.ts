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
    child.once('exit', (c) => reject(new Error(`sandbox exited (${c})`)));
    child.stdout.once('data', (d: Buffer) => {
      child.removeAllListeners('exit');
      resolve({ url: d.toString().split('\n')[0].trim(), pid: child.pid!, stop: () => child.kill('SIGTERM') });
    });
  });
}
