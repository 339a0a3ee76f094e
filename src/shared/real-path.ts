import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

// One warehouse, one name. The run lock, the work copy and the publish are all named after the warehouse's
// path; reached through a symbolic link, one file had two names: two runs at once each held "its" lock, and the
// publish renamed its work copy over the link, so that the night lived in a file of its own beside the real one.
// Every name of the warehouse is therefore read as the file it ends at.

/** Links followed in a row before giving up (Linux's own limit, ELOOP). */
const MAX_LINKS = 40;

/**
 * The path `path` ends at once every symbolic link on the way is followed — of the file itself (a dangling link
 * included: the file it will make) and of its folders — whether or not the file exists yet. Given back as it was
 * written when no link is on the way, so that a plain path reads the same in messages; `:memory:` is no path.
 */
export function realPathOf(path: string): string {
  if (path === ':memory:' || path === '') return path;
  const plain = resolve(path);
  const real = followed(plain, 0);
  return real === plain ? path : real;
}

function followed(abs: string, links: number): string {
  try {
    return realpathSync(abs);
  } catch {
    // Not there yet (or not reachable): follow what is there, and keep the rest of the name as written.
  }
  if (links < MAX_LINKS) {
    let isLink = false;
    try {
      isLink = lstatSync(abs).isSymbolicLink();
    } catch { /* nothing at this name */ }
    if (isLink) return followed(resolve(dirname(abs), readlinkSync(abs)), links + 1);
  }
  const parent = dirname(abs);
  return parent === abs ? abs : join(followed(parent, links), basename(abs));
}
