// Failpoints: named places where a test can make the process die as abruptly as a power cut, to prove
// that a run killed there resumes cleanly. `LAWSUIT_FAILPOINTS="submit.after-post=3,collect.after-commit=2"`
// kills the process with SIGKILL on the 3rd and 2nd time each point is reached. Unset (always, in
// production), a failpoint costs one Map lookup.

const spec = new Map<string, number>();
for (const part of (process.env.LAWSUIT_FAILPOINTS ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
  const [name, n] = part.split('=');
  spec.set(name, Number(n ?? '1') || 1);
}
const hits = new Map<string, number>();

export function failpoint(name: string): void {
  const at = spec.get(name);
  if (at === undefined) return;
  const n = (hits.get(name) ?? 0) + 1;
  hits.set(name, n);
  if (n >= at) process.kill(process.pid, 'SIGKILL');
}
