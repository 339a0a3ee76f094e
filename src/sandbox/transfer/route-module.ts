// The transfer routes in the sandbox core's route table (src/sandbox/routes/index.ts lists route modules).
// The /transfer-file routes are API routes (key, rate limit, counters); the download address is object
// storage: `api: false`, so it needs no key and does not count against the rate limit.

import type { RouteDef, RouteModule, SandboxState } from '../context.js';
import { createTransferContext, type TransferContext, type TransferSandboxOptions } from './context.js';
import { transferRoutes } from './routes.js';

/** Key of `state.extensions` under which options for the transfer files may be put before the server starts. */
export const TRANSFER_OPTIONS_KEY = 'transfer.options';
/** Key of `state.extensions` under which the transfer context lives (tests reach the catalogue and faults there). */
const TRANSFER_CONTEXT_KEY = 'transfer.context';

const PATHS: Record<string, string> = {
  'GET /transfer-file': '/transfer-file',
  'GET /transfer-file/:id': '/transfer-file/:id',
  'PATCH /transfer-file/:id': '/transfer-file/:id',
  'GET /_files/:id/:name': '/_files/:id/:name',
};

export const transferRouteModule: RouteModule = (state: SandboxState): RouteDef[] => {
  const opts = (state.extensions.get(TRANSFER_OPTIONS_KEY) ?? {}) as TransferSandboxOptions;
  const ctx: TransferContext = createTransferContext({
    seed: state.options.seed, now: () => state.clock.now(), publicBaseUrl: undefined, ...opts, dialect: state.dialect,
  });
  state.extensions.set(TRANSFER_CONTEXT_KEY, ctx);
  return transferRoutes(ctx).map((r) => ({
    method: r.method,
    path: PATHS[r.label],
    api: r.auth,
    mutates: r.method === 'PATCH',
    handle: async (call) => {
      const m = r.pattern.exec(call.url.pathname) ?? Object.assign([call.url.pathname], { index: 0, input: call.url.pathname }) as RegExpExecArray;
      await r.handler(call.req, call.res, m, call.url, r.method === 'PATCH' ? { value: call.body } : undefined);
      return { status: call.res.statusCode, handled: true };
    },
  }));
};
