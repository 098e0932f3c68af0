// The request each task sent, for the outputs page. It is not in the state directory: the run's suite (the
// file run.json names, with its pipeline.yaml's overrides) is read by the server itself, once per file
// change — the browser names only a run and a task id, never a path, so nothing outside the state
// directory can be asked for.
import { statSync } from 'node:fs';
import { suiteOverridesIn } from '../config/pipeline.js';
import { loadSuiteWith } from '../config/suite-overrides.js';
import type { Task } from '../config/suite-schema.js';
import type { Json } from '../state/read-lenient.js';

const suites = new Map<string, { stamp: string; tasks: Map<string, Task> | string }>();

export interface PromptView {
  prompt?: string;
  system?: string;
  /** Why the prompt is not shown (the suite moved, changed shape, or no longer has the task). */
  note?: string;
}

export function promptOf(manifest: Json | undefined, taskId: string): PromptView {
  const tasks = suiteTasks(manifest);
  if (typeof tasks === 'string') return { note: tasks };
  const t = tasks.get(taskId);
  if (!t) return { note: `the suite no longer has task ${taskId}` };
  return { prompt: t.prompt, ...(t.system ? { system: t.system } : {}) };
}

/** The tasks of the suite run.json names, by id; a string says why they cannot be read. */
export function suiteTasks(manifest: Json | undefined): Map<string, Task> | string {
  const file = typeof manifest?.suite?.path === 'string' ? (manifest.suite.path as string) : undefined;
  if (!file) return 'run.json names no suite';
  let stamp: string;
  try {
    const s = statSync(file);
    stamp = `${s.size}:${s.mtimeMs}`;
  } catch {
    return `the suite ${file} cannot be read now`;
  }
  let hit = suites.get(file);
  if (!hit || hit.stamp !== stamp) {
    try {
      const suite = loadSuiteWith({ suiteOverrides: suiteOverridesIn(typeof manifest?.config?.path === 'string' ? manifest.config.path : null) }, file);
      hit = { stamp, tasks: new Map(suite.tasks.map((t) => [t.id, t])) };
    } catch (err) {
      hit = { stamp, tasks: `the suite ${file} cannot be read now (${(err as Error).message.split('\n')[0]})` };
    }
    suites.set(file, hit);
  }
  return hit.tasks;
}
