// The names skill-creator gives the runs of a workspace (its SKILL.md "Running and evaluating test cases"
// and eval-viewer/generate_review.py): `eval-<id>/<configuration>/run-<n>/`, and a run's id in the
// viewer's feedback.json is that path with `/` turned into `-` (`eval-1-with_skill-run-1`). One module
// names them for both directions — `whet report --format skill-creator` writes them, the feedback export
// and `whet import feedback` read them back — so a review given on an exported run finds its attempt.
import type { Task } from './suite-schema.js';

/**
 * skill-creator's configurations: a skill against no skill (`with_skill`/`without_skill`), and an edit
 * against the skill it improves (`new_skill`/`old_skill`, "Improving an existing skill").
 */
export const CONFIGURATIONS = ['with_skill', 'without_skill', 'new_skill', 'old_skill'] as const;
export type Configuration = (typeof CONFIGURATIONS)[number];

/** The eval's own id when it was a number, else its position in the suite (schemas.md: "numeric"). */
export function evalIdOf(task: Task | undefined, fallback: number): number {
  const id = task?.origin?.id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : (task?.index ?? fallback);
}

export function evalNameOf(task: Task | undefined, taskId: string): string {
  return task?.origin?.name ?? (typeof task?.origin?.id === 'string' ? task.origin.id : taskId);
}

export interface EvalDir {
  taskId: string;
  evalId: number;
  /** `eval-<id>`, or `eval-<id>-<k>` when two tasks share an id. */
  dir: string;
}

/**
 * Each task's eval folder, in suite order; task ids the suite no longer holds (`extra`, in the order they
 * were met) come after, numbered by position past the suite's end.
 */
export function evalDirs(tasks: readonly Task[], extra: readonly string[] = []): Map<string, EvalDir> {
  const out = new Map<string, EvalDir>();
  const used = new Set<string>();
  const add = (taskId: string, evalId: number) => {
    if (out.has(taskId)) return;
    let dir = `eval-${evalId}`;
    for (let k = 2; used.has(dir); k++) dir = `eval-${evalId}-${k}`;
    used.add(dir);
    out.set(taskId, { taskId, evalId, dir });
  };
  tasks.forEach((t, i) => add(t.id, evalIdOf(t, i)));
  extra.forEach((id, i) => add(id, tasks.length + i));
  return out;
}

/** A run's folder under the workspace, and its id as skill-creator's viewer names it. */
export function runPath(evalDir: string, configuration: Configuration, attempt: number): { path: string; runId: string } {
  const parts = [evalDir, configuration, `run-${attempt + 1}`];
  return { path: parts.join('/'), runId: parts.join('-') };
}

/**
 * A feedback.json run id back to its parts. skill-creator's own runs have no `run-<n>` when the workspace
 * holds one run per configuration (`eval-0-with_skill`): that reads as attempt null, the eval as a whole.
 */
export function parseRunId(runId: string): { evalDir: string; configuration: Configuration; attempt: number | null } | undefined {
  const m = /^(.+)-(with_skill|without_skill|new_skill|old_skill)(?:-run-(\d+))?$/.exec(runId);
  if (!m) return undefined;
  const n = m[3] === undefined ? null : Number(m[3]) - 1;
  if (n !== null && n < 0) return undefined;
  return { evalDir: m[1]!, configuration: m[2] as Configuration, attempt: n };
}

/** The variant a run measures with no skill at all (`whet evaluate --standalone --without-skill`): skill-creator's `without_skill`. */
export const NO_SKILL_VARIANT = 'no-skill';

/** Which configuration a measured variant is: a candidate against the baseline, or the skill against none. */
export function configurationOf(variant: string, candidate: string | null): Configuration {
  if (candidate) return variant === candidate ? 'new_skill' : 'old_skill';
  return variant === NO_SKILL_VARIANT ? 'without_skill' : 'with_skill';
}

/** The variant a configuration names in a run (undefined: the run has no such configuration). */
export function variantOf(configuration: Configuration, candidate: string | null): string | undefined {
  if (candidate) return configuration === 'new_skill' ? candidate : configuration === 'old_skill' ? 'baseline' : undefined;
  return configuration === 'with_skill' ? 'baseline' : configuration === 'without_skill' ? NO_SKILL_VARIANT : undefined;
}
