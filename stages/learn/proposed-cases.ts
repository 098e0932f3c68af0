// New eval cases proposed from observed failures (docs/method.md: One failure is a class): one observed failure is a
// class, and failures feed back as new cases. Each failing task becomes a skeleton of the same category,
// grid cell and judge with the prompt left for a person to write. The file is for review only: it is not
// a loadable suite (`status: proposed` is not a suite key), and nothing adds it to the suite — least of
// all to the held-out split, which must stay cases the loop has never been tuned on.
import { stringify } from 'yaml';
import type { Task } from '../../src/config/suite-schema.js';
import type { PipelineEvaluation, StandaloneEvaluation } from '../../src/artifacts/evaluation.js';

export interface ObservedFailure {
  task_id: string;
  /** Which variants failed it this iteration. */
  failed_on: ('baseline' | 'candidate')[];
  split: 'train' | 'holdout' | undefined;
  reason: string;
}

/** Judged failures (never errors) of the candidate and the baseline; from baseline.json when nothing was measured. */
export function observedFailures(baseline: StandaloneEvaluation, evaluation?: PipelineEvaluation): ObservedFailure[] {
  const out = new Map<string, ObservedFailure>();
  const add = (variant: 'baseline' | 'candidate', rows: readonly { task_id: string; status: string; split?: 'train' | 'holdout' | undefined; reason: string }[]) => {
    for (const r of rows) {
      if (r.status !== 'fail') continue;
      const f = out.get(r.task_id) ?? { task_id: r.task_id, failed_on: [], split: r.split, reason: r.reason };
      f.failed_on.push(variant);
      out.set(r.task_id, f);
    }
  };
  // A skipped or failed evaluation measured nothing; the iteration's baseline still did.
  if (evaluation && evaluation.baseline_results.length + evaluation.candidate_results.length > 0) {
    add('baseline', evaluation.baseline_results);
    add('candidate', evaluation.candidate_results);
    // A candidate the held-out test rejected ran no train task (src/measure/train-after-keep.ts): the baseline's train failures still count.
    if (!evaluation.baseline_results.some((r) => r.split === 'train')) add('baseline', baseline.task_results.filter((r) => r.split === 'train'));
  } else {
    add('baseline', baseline.task_results);
  }
  return [...out.values()];
}

export const PROPOSED_HEADER = [
  '# Proposed eval cases, from failures observed in run {run} iteration {iteration}.',
  '# FOR A PERSON TO REVIEW. One observed failure is a class (docs/method.md: One failure is a class): for each case below, write a',
  '# new request of the same kind in place of the TODO prompt, check the judge still fits, then copy it',
  '# into the suite yourself and choose its split. whetstone never adds these to the suite, and never to',
  '# the held-out set, automatically: held-out cases must stay unseen by the loop that is judged on them.',
];

export interface ProposedCases {
  text: string;
  count: number;
}

export function proposedCases(o: { runId: string; iteration: number; skillId: string; failures: readonly ObservedFailure[]; tasks: readonly Task[] }): ProposedCases {
  const byId = new Map(o.tasks.map((t) => [t.id, t]));
  // Suite order, so the file reads like the suite it would extend.
  const failures = [...o.failures].filter((f) => byId.has(f.task_id)).sort((a, b) => byId.get(a.task_id)!.index - byId.get(b.task_id)!.index);
  const cases = failures.map((f) => {
    const t = byId.get(f.task_id)!;
    const like = t.description ? `${t.id} (${t.description})` : t.id;
    return {
      id: `${t.id}-more-${o.iteration}`,
      status: 'proposed',
      source: { task: t.id, split: f.split ?? 'unknown', failed_on: f.failed_on, judges_said: f.reason },
      category: t.category,
      ...(t.cell ? { cell: t.cell } : {}),
      ...(t.negative ? { negative: true } : {}),
      description: `another request like ${t.id}${t.description ? `: ${t.description}` : ''}`,
      prompt: `TODO: another request like ${like}`,
      ...(t.judges.length === 1 ? { judge: t.judges[0] } : { judges: t.judges }),
    };
  });
  if (cases.length === 0) return { text: '', count: 0 };
  const header = PROPOSED_HEADER.map((l) => l.replace('{run}', o.runId).replace('{iteration}', String(o.iteration))).join('\n');
  const body = stringify({ skill_id: o.skillId, version: '1.0', status: 'proposed', tasks: cases }, { lineWidth: 0 });
  return { text: `${header}\n${body}`, count: cases.length };
}
