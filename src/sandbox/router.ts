// Path matching for the route table: literal segments win over `:param` ones, so later routes such as
// POST /requests/count never fall into /requests/:id.

import type { RouteDef } from './context.js';

interface Compiled { def: RouteDef; segments: string[]; literals: number }

type Match = { route: RouteDef; params: Record<string, string> } | { route: undefined; methodNotAllowed: boolean };

export class Router {
  private readonly routes: Compiled[];
  constructor(defs: RouteDef[]) {
    this.routes = defs
      .map((def) => { const segments = def.path.split('/').filter(Boolean); return { def, segments, literals: segments.filter((s) => !s.startsWith(':')).length }; })
      .sort((a, b) => b.literals - a.literals);
  }

  match(method: string, pathname: string): Match {
    const parts = pathname.split('/').filter(Boolean);
    let pathMatched = false;
    for (const r of this.routes) {
      if (r.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let k = 0; k < parts.length && ok; k++) {
        const s = r.segments[k];
        if (s.startsWith(':')) params[s.slice(1)] = decodeURIComponent(parts[k]);
        else ok = s === parts[k];
      }
      if (!ok) continue;
      if (r.def.method !== method) { pathMatched = true; continue; }
      return { route: r.def, params };
    }
    return { route: undefined, methodNotAllowed: pathMatched };
  }
}
