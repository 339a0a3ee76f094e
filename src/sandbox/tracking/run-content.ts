// What a tracking's run sends. The documentation does not say whether a run answers every lawsuit its search finds
// or only those that changed since the previous run; the sandbox does the second by default (`changed`: new to
// the search, or with new steps, changes.ts) and the first on request (`every`), so that a client can be tried
// against both. A tracking's first run has nothing to compare with: it sends every lawsuit either way.

export const RUN_CONTENTS = ['changed', 'every'] as const;
export type RunContent = (typeof RUN_CONTENTS)[number];

/** The run's content of a name, collecting a problem (not throwing) so that callers report every bad option at once. */
export function parseRunContent(value: unknown, field: string, problems: string[]): RunContent | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (RUN_CONTENTS as readonly string[]).includes(value)) return value as RunContent;
  problems.push(`${field} must be one of ${RUN_CONTENTS.join(', ')} (got ${JSON.stringify(value)})`);
  return undefined;
}
