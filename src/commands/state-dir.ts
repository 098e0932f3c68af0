// The state directory a command works on: --state-root, else the config's state_dir. The config reader
// (js-yaml, the engine schemas) is imported only when there is no --state-root: `status` and `show` on a
// named state directory read no config and start without it.
import { resolve } from 'node:path';
import type { CliDeps } from '../program/deps.js';

export async function stateDirOf(deps: CliDeps, o: { config?: string; stateRoot?: string }): Promise<string> {
  if (o.stateRoot) return resolve(deps.cwd, o.stateRoot);
  const { loadPipeline } = await import('../config/pipeline.js');
  return (await loadPipeline(o.config, deps.cwd)).stateDir;
}
