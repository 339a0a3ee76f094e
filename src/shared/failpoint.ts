// A test seam, and nothing else: the crash tests' way into a run. A failpoint is a named place where a test
// makes the process die as abruptly as a power cut, to prove that a run killed there resumes cleanly.
// `LAWSUIT_FAILPOINTS="submit.after-post=3,collect.after-commit=2"` kills the process with SIGKILL on the 3rd
// and 2nd time each point is reached. No configuration, flag or job sets it; unset (always, in production), a
// failpoint costs one Map lookup. It stays in the shipped code because what it proves is that shipped code.

const spec = new Map<string, number>();
for (const part of (process.env.LAWSUIT_FAILPOINTS ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
  const [name, n] = part.split('=');
  spec.set(name, Number(n ?? '1') || 1);
}
const hits = new Map<string, number>();

/**
 * Test seam: counts `times` passes of the point `name`, and kills the process if that reaches the count asked
 * for. A place that does several things at once counts each (a group commit counts its pages), so that the Nth
 * hit is the same on every run, however the timing groups the work.
 */
export function failpoint(name: string, times = 1): void {
  const at = spec.get(name);
  if (at === undefined) return;
  const n = (hits.get(name) ?? 0) + times;
  hits.set(name, n);
  if (n >= at) process.kill(process.pid, 'SIGKILL');
}
