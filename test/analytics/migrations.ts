import { MIGRATIONS, type Migration } from '../../src/warehouse/migrations.js';
import { ANALYTICS_MIGRATIONS } from '../../src/warehouse/migrations-analytics.js';
import { SYNC_MIGRATIONS } from '../../src/warehouse/migrations-sync.js';

/** The built-in migrations plus the sync and analytics ones, each version once (whether or not MIGRATIONS already lists them). */
export function allMigrations(): Migration[] {
  const byVersion = new Map<number, Migration>();
  for (const m of [...MIGRATIONS, ...SYNC_MIGRATIONS, ...ANALYTICS_MIGRATIONS]) if (!byVersion.has(m.version)) byVersion.set(m.version, m);
  return [...byVersion.values()];
}
