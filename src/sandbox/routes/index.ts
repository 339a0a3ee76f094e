// Every route file of the sandbox. A later area (sync queries, tracking, transfer files) adds its module here.
//
// Counter labels are "<METHOD> <path pattern>":
//   POST /requests, GET /requests/:id, GET /requests, GET /responses            (api: key, rate limit, faults)
//   GET /_sandbox/counters, POST /_sandbox/counters/reset, POST /_sandbox/truth, GET /_sandbox/samples,
//   POST|GET /_sandbox/faults, POST|GET /_sandbox/clock, GET /_sandbox/lawsuit, GET /_sandbox/changes,
//   GET /_sandbox/tracking/:id, POST /_sandbox/tracking/:id/{pause,resume,delete}, GET|POST /_sandbox/tracking-runs,
//   POST /_sandbox/foreign/trackings                                             (introspection: no key, not counted)
//   POST|GET /tracking, GET|DELETE /tracking/:id, POST /tracking/:id/{pause,resume} (api)
//   GET /lawsuits/:cnj/:instance/attachments/:id (api: a redirect), GET /_attachment-files/... (storage: no key, not counted)
// Unknown paths are counted as "<METHOD> UNMATCHED".

import type { RouteModule } from '../context.js';
import { introspectionRoutes } from './introspection.js';
import { requestRoutes } from './requests.js';
import { responseRoutes } from './responses.js';
import { syncRoutes } from './sync.js';
import { trackingRoutes } from './tracking.js';
import { trackingIntrospectionRoutes } from './tracking-introspection.js';
import { transferRouteModule } from '../transfer/route-module.js';
import { attachmentRoutes } from '../attachments/routes.js';

export const routeModules: RouteModule[] = [requestRoutes, responseRoutes, introspectionRoutes, transferRouteModule,
  syncRoutes,
  trackingRoutes, trackingIntrospectionRoutes, attachmentRoutes,
];
