// Stand-alone entry of the emulator: `node dist/src/sandbox/main.js --port 8080`.
import { runSandboxCli } from './cli.js';

runSandboxCli(process.argv.slice(2)).catch((e: unknown) => {
  process.stderr.write(`sandbox: ${(e as Error).message}\n`);
  process.exit(2);
});
