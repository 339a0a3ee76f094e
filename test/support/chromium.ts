import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The Chromium a browser test opens. By default the one inside the npm package @sparticuz/chromium (a
// devDependency): `npm ci` alone brings it, the lock file pins its version, so a fresh machine, a developer's
// and CI all render with the same browser, and nothing is installed through apt. It needs only libnss3,
// libnspr4 and libexpat from the system (`ldd` on it), which a Debian machine has without any browser.
// CHROMIUM_PATH names another executable instead (Debian's is /usr/bin/chromium).
//
// The package keeps the browser brotli-compressed and unpacks it into os.tmpdir() on first use, trusting any
// /tmp/chromium it finds there, whatever its version or however half-written. So it is unpacked here into a
// fresh folder beside the final one and renamed into place whole: a run killed while unpacking, or two test
// runs (other worktrees, other machines' users) unpacking at once, never leave a half browser to launch.

/** Where the browser came from: the npm package, or the path in CHROMIUM_PATH. */
export interface TestChromium { executablePath: string; source: 'npm' | 'CHROMIUM_PATH'; version?: string }

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PACKAGE = join(root, 'node_modules', '@sparticuz', 'chromium');

/** The browser to launch: CHROMIUM_PATH if set, else the npm package's, unpacked once per version. */
export async function testChromium(env: NodeJS.ProcessEnv = process.env): Promise<TestChromium> {
  const named = env.CHROMIUM_PATH;
  if (named) {
    if (!existsSync(named)) throw new Error(`CHROMIUM_PATH=${named}: no such file (unset it to use the npm package's Chromium)`);
    return { executablePath: named, source: 'CHROMIUM_PATH' };
  }
  if (!existsSync(join(PACKAGE, 'package.json'))) {
    throw new Error('@sparticuz/chromium is not installed: run `npm ci` (it is a devDependency), or set CHROMIUM_PATH to a Chromium');
  }
  const { version } = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { version: string };
  const home = join(root, 'node_modules', '.cache', `sparticuz-chromium-${version}`);
  const executablePath = join(home, 'chromium');
  if (!existsSync(join(home, '.complete'))) await unpackInto(home);
  return { executablePath, source: 'npm', version };
}

async function unpackInto(home: string): Promise<void> {
  mkdirSync(dirname(home), { recursive: true });
  const work = mkdtempSync(`${home}.unpacking-`);
  try {
    const { default: Chromium } = await import('@sparticuz/chromium');
    // executablePath() reads os.tmpdir() (that is, TMPDIR) before its first await: point it at `work` for just that.
    const before = process.env.TMPDIR;
    process.env.TMPDIR = work;
    let unpacked: Promise<string>;
    try {
      unpacked = Chromium.executablePath();
    } finally {
      if (before === undefined) delete process.env.TMPDIR; else process.env.TMPDIR = before;
    }
    const exe = await unpacked;
    if (exe !== join(work, 'chromium')) throw new Error(`@sparticuz/chromium unpacked to ${exe}, not into ${work}`);
    writeFileSync(join(work, '.complete'), '');
    try {
      renameSync(work, home);
    } catch (e) {
      // another run got there first with a whole copy: use it
      if (!existsSync(join(home, '.complete'))) throw e;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
