import { mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// Child-process tests need plain JavaScript, and dist/ belongs to the whole build (which may be mid-change while
// other parts are written). Transpiling just the modules under test into a temporary folder keeps these tests
// independent of the rest of the project; node_modules is linked so pino and node-cron resolve as in dist/.

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const MODULES = ['src/shared/config.ts', 'src/shared/errors.ts', 'src/shared/failure-policy.ts', 'src/shared/logger.ts', 'src/shared/lock.ts', 'src/shared/progress.ts',
  'src/shared/printable.ts', 'src/shared/terminal.ts', 'src/report/warehouse-totals.ts'];

/** Returns the folder holding `src/**.js`; `src/schedule/*.ts` are always included. */
export function transpileForChildren(): string {
  const out = mkdtempSync(join(tmpdir(), 'etl-schedule-'));
  symlinkSync(join(ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
  const files = [...MODULES, ...readdirSync(join(ROOT, 'src/schedule')).filter((f) => f.endsWith('.ts')).map((f) => `src/schedule/${f}`)];
  for (const rel of files) {
    const js = ts.transpileModule(readFileSync(join(ROOT, rel), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      fileName: rel,
    }).outputText;
    const dest = join(out, rel.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, js);
  }
  writeFileSync(join(out, 'package.json'), '{"type":"module"}\n');
  return out;
}
