// What a key's plan includes. The real service answers a call to a resource outside the plan with 403
// INSUFFICIENT_PERMISSIONS (spec, "Authentication" 4); `forbid` takes resources out of the sandbox's plan, for
// every key, so that a client's handling of a plan without transfer files (or tracking...) can be exercised.

/** The resources a plan may leave out, and the API routes each one covers. */
const RESOURCES = ['requests', 'responses', 'tracking', 'lawsuits', 'transfer'] as const;
export type Resource = (typeof RESOURCES)[number];

const ROUTE_RESOURCE: Record<string, Resource> = {
  'POST /requests': 'requests', 'GET /requests': 'requests', 'GET /requests/:id': 'requests',
  'GET /responses': 'responses',
  'POST /tracking': 'tracking', 'GET /tracking': 'tracking', 'GET /tracking/:id': 'tracking',
  'POST /tracking/:id/pause': 'tracking', 'POST /tracking/:id/resume': 'tracking', 'DELETE /tracking/:id': 'tracking',
  'POST /lawsuits': 'lawsuits', 'POST /requests/count': 'lawsuits', 'POST /requests/create': 'lawsuits', 'POST /requests/create/grouped': 'lawsuits',
  'GET /transfer-file': 'transfer', 'GET /transfer-file/:id': 'transfer', 'PATCH /transfer-file/:id': 'transfer',
};

/** The resource a route label ("GET /requests/:id") belongs to, if it is one a plan can leave out. */
export function resourceOf(label: string): Resource | undefined {
  return ROUTE_RESOURCE[label];
}

/**
 * Reads a list of resources (an array or a comma-separated string); problems are collected, not thrown, so
 * that a caller reports every bad option at once.
 */
export function parseResources(value: unknown, field: string, problems: string[]): Resource[] {
  const items = typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean)
    : Array.isArray(value) ? value : undefined;
  if (items === undefined) { problems.push(`${field} must be a list of resources (${RESOURCES.join(', ')})`); return []; }
  const out: Resource[] = [];
  for (const item of items) {
    if (typeof item === 'string' && (RESOURCES as readonly string[]).includes(item)) { if (!out.includes(item as Resource)) out.push(item as Resource); }
    else problems.push(`${field}: unknown resource ${JSON.stringify(item)} (known: ${RESOURCES.join(', ')})`);
  }
  return out;
}

export class ResourcePlan {
  private forbidden: Set<Resource>;
  constructor(forbid: readonly Resource[] = []) {
    this.forbidden = new Set(forbid);
  }
  forbids(resource: Resource | undefined): boolean {
    return resource !== undefined && this.forbidden.has(resource);
  }
  set(forbid: readonly Resource[]): void {
    this.forbidden = new Set(forbid);
  }
  get(): Resource[] {
    return RESOURCES.filter((r) => this.forbidden.has(r));
  }
}

/** The spec's 403 body for a call to a resource outside the plan. */
export function notInPlan(resource: Resource): Record<string, unknown> {
  return { error: 'Forbidden', message: `The resource "${resource}" is not in this API key's plan`, code: 'INSUFFICIENT_PERMISSIONS' };
}
