import { mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// Child-process tests need plain JavaScript, and dist/ belongs to the whole build (which may be mid-change while
// other parts are written). Transpiling just the modules under test, and what they import, into a temporary
// folder keeps these tests independent of the rest of the project; node_modules is linked so pino and node-cron
// resolve as in dist/.

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** Returns the folder holding `src/**.js`: `src/schedule/*.ts` and every module of ours they import, transpiled. */
export function transpileForChildren(): string {
  const out = mkdtempSync(join(tmpdir(), 'etl-schedule-'));
  symlinkSync(join(ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
  const pending = readdirSync(join(ROOT, 'src/schedule')).filter((f) => f.endsWith('.ts')).map((f) => `src/schedule/${f}`);
  const done = new Set<string>();
  for (let rel = pending.pop(); rel !== undefined; rel = pending.pop()) {
    if (done.has(rel)) continue;
    done.add(rel);
    const text = readFileSync(join(ROOT, rel), 'utf8');
    // The imports as TypeScript's own pre-processor reads them (type-only ones included: harmless extra files).
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (fileName.startsWith('.')) pending.push(join(dirname(rel), fileName).replace(/\.js$/, '.ts'));
    }
    const js = ts.transpileModule(text, {
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
