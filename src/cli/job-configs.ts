import { loadConfig, type Config } from '../shared/config.js';
import { ConfigError, isEtlError } from '../shared/errors.js';
import type { JobSpec } from '../schedule/job-loader.js';
import { parseCommandLine } from './program.js';

/**
 * The configuration each job's command will run with, read as that command will read it (its own arguments, the
 * environment `schedule` gives it, the config file), checked at once: every problem, each naming its jobs. The
 * scheduler looks at each job's run lock through it, so that it looks where the job's command will lock.
 */
export function configureJobs(jobs: readonly JobSpec[], env: NodeJS.ProcessEnv): ReadonlyMap<string, Config> {
  const problems = new Map<string, string[]>();
  const configs = new Map<string, Config>();
  for (const job of jobs) {
    const found: string[] = [];
    try {
      const parsed = parseCommandLine([job.command, ...job.args]);
      configs.set(job.name, loadConfig({ env, flags: parsed.flags, command: job.command }));
    } catch (e) {
      if (e instanceof ConfigError) found.push(...e.problems);
      else found.push(isEtlError(e) ? e.message : String(e));
    }
    for (const p of found) problems.set(p, [...(problems.get(p) ?? []), job.name]);
  }
  if (problems.size > 0) throw new ConfigError([...problems].map(([p, names]) => `${p} (jobs: ${names.join(', ')})`));
  return configs;
}
