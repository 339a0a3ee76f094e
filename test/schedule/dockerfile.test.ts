import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// No Docker engine runs here, so the image is checked by reading its recipe: the properties the issue asks
// for, and that every file it copies from the build context exists and is not excluded by .dockerignore.

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

interface Instr { op: string; args: string; stage: number }

function parse(text: string): { instrs: Instr[]; args: Record<string, string> } {
  const joined = text.replace(/\\\r?\n/g, ' ');
  const instrs: Instr[] = [];
  const args: Record<string, string> = {};
  let stage = -1;
  for (const raw of joined.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(\w+)\s+(.*)$/.exec(line);
    if (!m) throw new Error(`cannot parse Dockerfile line: ${line}`);
    const op = m[1].toUpperCase();
    if (op === 'FROM') stage++;
    if (op === 'ARG' && stage === -1) {
      const [k, v] = m[2].split('=');
      args[k] = v;
    }
    instrs.push({ op, args: m[2].replace(/\s+/g, ' '), stage });
  }
  return { instrs, args };
}

const { instrs, args } = parse(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const stages = instrs.filter((i) => i.op === 'FROM');
const last = stages.length - 1;
const final = instrs.filter((i) => i.stage === last);
const expand = (s: string) => s.replace(/\$\{(\w+)\}/g, (_m, k: string) => args[k] ?? '');

describe('the Dockerfile', () => {
  it('builds on a current LTS Node image in every stage', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const s of stages) {
      const image = expand(s.args.split(' ')[0]);
      const m = /^node:(\d+)-/.exec(image);
      expect(m, image).not.toBeNull();
      const major = Number(m![1]);
      expect(major % 2, 'LTS lines are even').toBe(0);
      // 26 is the Active LTS line since 2026-10-28; 24 went to maintenance on 2026-10-20
      expect(major).toBeGreaterThanOrEqual(26);
    }
  });

  it('installs only production dependencies in the final image, without the compile-time prepare script', () => {
    const runs = final.filter((i) => i.op === 'RUN').map((i) => i.args);
    expect(runs.some((r) => /npm ci\b.*--omit=dev/.test(r) && r.includes('--ignore-scripts'))).toBe(true);
    expect(runs.some((r) => /npm (run )?build|tsc/.test(r))).toBe(false);
    expect(final.some((i) => i.op === 'COPY' && i.args.startsWith('--from=') && i.args.includes('/app/dist'))).toBe(true);
  });

  it('runs as a non-root user under an init process, with /app/data as a volume and schedule as the default', () => {
    const user = final.filter((i) => i.op === 'USER').at(-1);
    expect(user?.args).toBeDefined();
    expect(['root', '0']).not.toContain(user!.args.split(':')[0]);
    expect(final.find((i) => i.op === 'VOLUME')?.args).toMatch(/\/app\/data/);
    expect(final.find((i) => i.op === 'WORKDIR')?.args).toBe('/app');
    expect(final.some((i) => i.op === 'ENV' && /NODE_ENV=production/.test(i.args))).toBe(true);
    const entry = JSON.parse(final.find((i) => i.op === 'ENTRYPOINT')!.args) as string[];
    expect(entry[0]).toBe('/usr/bin/tini');
    expect(final.some((i) => i.op === 'RUN' && /apt-get install[^&]*\btini\b/.test(i.args))).toBe(true);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(entry.slice(-2)).toEqual(['node', pkg.bin['lawsuit-etl']]);
    expect(JSON.parse(final.find((i) => i.op === 'CMD')!.args)).toEqual(['schedule']);
    // The user switch comes after the last step that needs root.
    const userAt = final.indexOf(user!);
    expect(final.slice(userAt).some((i) => i.op === 'RUN')).toBe(false);
  });

  it('names a documents list to mount, never the example list', () => {
    const env = final.filter((i) => i.op === 'ENV').map((i) => i.args).join(' ');
    const m = /LAWSUIT_DOCUMENTS=(\S+)/.exec(env);
    expect(m, 'LAWSUIT_DOCUMENTS is set in the image').not.toBeNull();
    expect(m![1]).not.toContain('example');
    expect(m![1].startsWith('/')).toBe(true);
  });

  it('checks the scheduler\'s health with node itself (no curl in the slim image), on the port it exposes', () => {
    const hc = final.filter((i) => i.op === 'HEALTHCHECK');
    expect(hc).toHaveLength(1);
    const m = /^(.*?)\s*CMD\s+(\[.*\])$/.exec(hc[0].args);
    expect(m, hc[0].args).not.toBeNull();
    expect(m![1]).toMatch(/--interval=\d+s/);
    expect(m![1]).toMatch(/--timeout=\d+s/);
    const cmd = JSON.parse(m![2]) as string[];
    expect(cmd[0]).toBe('node');
    expect(cmd.join(' ')).not.toMatch(/curl|wget/);
    // The script is compiled from src/ into the dist/ the final image copies.
    const script = cmd[1];
    expect(script).toMatch(/^dist\/.+\.js$/);
    expect(existsSync(join(ROOT, script.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts'))), script).toBe(true);
    const env = final.filter((i) => i.op === 'ENV').map((i) => i.args).join(' ');
    const port = /LAWSUIT_METRICS_PORT=(\d+)/.exec(env)?.[1];
    expect(port, 'LAWSUIT_METRICS_PORT is set in the image').toBeDefined();
    expect(final.find((i) => i.op === 'EXPOSE')?.args.split(' ')).toContain(port);
    expect(env).not.toMatch(/LAWSUIT_METRICS_HOST=127/);
  });

  it('copies only files that exist and that .dockerignore lets through', () => {
    const ignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    const ignored = (p: string) => ignore.some((pat) => {
      const re = new RegExp(`^${pat.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/|$)`);
      return re.test(p);
    });
    const copies = instrs.filter((i) => (i.op === 'COPY' || i.op === 'ADD') && !i.args.startsWith('--from='));
    expect(copies.length).toBeGreaterThan(0);
    for (const c of copies) {
      const parts = c.args.startsWith('[') ? (JSON.parse(c.args) as string[]) : c.args.split(' ').filter((p) => !p.startsWith('--'));
      for (const src of parts.slice(0, -1)) {
        expect(existsSync(join(ROOT, src)), `COPY source ${src}`).toBe(true);
        expect(ignored(src), `COPY source ${src} is excluded by .dockerignore`).toBe(false);
      }
    }
    for (const heavy of ['node_modules', 'data', '.git', 'dist']) expect(ignored(heavy), heavy).toBe(true);
  });
});
