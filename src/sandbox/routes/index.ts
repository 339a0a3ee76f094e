// Every route file of the sandbox. A later area (sync queries, tracking, transfer files) adds its module here.

import type { RouteModule } from '../context.js';
import { introspectionRoutes } from './introspection.js';
import { requestRoutes } from './requests.js';
import { responseRoutes } from './responses.js';

export const routeModules: RouteModule[] = [requestRoutes, responseRoutes, introspectionRoutes];
