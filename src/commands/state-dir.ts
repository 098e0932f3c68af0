// The state directory a command works on: --state-root, else the config's state_dir.
import { resolve } from 'node:path';
import { loadPipeline } from '../config/pipeline.js';
import type { CliDeps } from './deps.js';

export async function stateDirOf(deps: CliDeps, o: { config?: string; stateRoot?: string }): Promise<string> {
  if (o.stateRoot) return resolve(deps.cwd, o.stateRoot);
  return (await loadPipeline(o.config, deps.cwd)).stateDir;
}
