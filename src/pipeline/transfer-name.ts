// Where a transfer file is staged. The id and name come from the server, so neither may steer the write: a
// name with a path separator, a `..`, a control character or an absolute form is refused outright (the file is
// then marked error for the provider to fix), and what remains is reduced to [A-Za-z0-9._-].

import { isAbsolute, join, resolve, sep } from 'node:path';
import { EtlError } from '../shared/errors.js';

class UnsafeNameError extends EtlError {
  constructor(message: string) {
    super('TRANSFER_UNSAFE_NAME', message);
    this.name = 'UnsafeNameError';
  }
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why a server-given name is refused, or undefined when it is acceptable. */
function unsafeNameReason(name: string): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return 'the name is empty';
  if (name.length > 255) return 'the name is longer than 255 characters';
  if (CONTROL.test(name)) return 'the name contains a control character';
  if (name.includes('/') || name.includes('\\')) return 'the name contains a path separator';
  if (name.includes('..')) return 'the name contains ".."';
  if (isAbsolute(name) || /^[A-Za-z]:/.test(name)) return 'the name is an absolute path';
  return undefined;
}

/**
 * The staged file's path: `<stagingDir>/<id>-<sanitised name>`. Throws UnsafeNameError for a hostile id or name.
 * The result is checked to lie inside the staging folder whatever the rules above missed.
 */
export function stagingPath(stagingDir: string, id: string, name: string): string {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw new UnsafeNameError('refused a transfer file whose id is not a plain identifier');
  const why = unsafeNameReason(name);
  if (why) throw new UnsafeNameError(`refused the server-given file name: ${why}`);
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 200);
  const root = resolve(stagingDir);
  const path = resolve(join(root, `${id}-${safe}`));
  if (!path.startsWith(root + sep)) throw new UnsafeNameError('refused a file name that resolves outside the staging folder');
  return path;
}
