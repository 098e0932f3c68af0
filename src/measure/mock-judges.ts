// What the mock engine cannot grade. As a judge it scores a rubric (an llm-rubric judge, a skill-creator
// expectation or expected_output, a judge spec) by the share of the rubric's words present in the answer
// (src/engines/mock.ts): a stand-in that proves the plumbing, never a judgement. A suite judged that way —
// every evals.json suite — can fall under evaluate.baseline_min_pass_rate with nothing wrong in it, so the
// run says so before it starts, and a weak baseline names the mock judge instead of "a broken suite".
import type { Suite } from '../config/suite-schema.js';

const RUBRIC = new Set(['llm-rubric', 'llm_rubric']);

export interface MockJudged {
  /** Tasks with at least one judge only a model can grade. */
  tasks: number;
  total: number;
  /** In words: "expectations", "rubrics"… */
  kinds: string[];
}

/** The tasks a mock judge would grade by word overlap; undefined when the judge is not the mock, or none are. */
export function mockJudged(suite: Pick<Suite, 'tasks'>, judgeEngineType: string | undefined): MockJudged | undefined {
  if (judgeEngineType !== 'mock') return undefined;
  const kinds = new Set<string>();
  let tasks = 0;
  for (const t of suite.tasks) {
    const rubrics = t.judges.filter((j) => RUBRIC.has(j.type));
    if (!rubrics.length) continue;
    tasks++;
    if (t.expectations?.length) kinds.add('expectations');
    else if (t.origin?.format === 'skill-creator-evals') kinds.add('expected_output');
    for (const j of rubrics) if ('spec' in j && j.spec) kinds.add('judge specs');
    if (!t.expectations?.length && t.origin?.format !== 'skill-creator-evals' && rubrics.some((j) => !('spec' in j && j.spec))) kinds.add('rubrics');
  }
  return tasks ? { tasks, total: suite.tasks.length, kinds: [...kinds] } : undefined;
}

/** How to have a model grade them: `--mock` puts the judge on the mock too, so the way is pipeline.yaml. */
export function judgeEngineHint(usedMockFlag: boolean): string {
  return usedMockFlag
    ? 'to grade them, leave out --mock and set judge_engine in pipeline.yaml to a model (engine: {type: mock} may stay for the agent)'
    : 'to grade them, set judge_engine in pipeline.yaml to a model (docs/reference/configuration.md)';
}

/** The note printed before the run starts. */
export function mockJudgeNote(m: MockJudged, usedMockFlag: boolean): string {
  return `whet: note: the mock judge cannot grade ${m.kinds.join(', ')}: ${m.tasks} of ${m.total} task(s) are graded only by word overlap with the answer, so their pass rate says nothing about the suite or the skill; ${judgeEngineHint(usedMockFlag)}`;
}

/** What a baseline under evaluate.baseline_min_pass_rate means when the mock graded it. */
export function weakMockBaseline(m: MockJudged): string {
  return `the mock judge graded ${m.tasks} of ${m.total} task(s) (${m.kinds.join(', ')}) by word overlap, which such a suite rarely passes — not a sign the suite or the skill is broken; set judge_engine in pipeline.yaml to a model to grade them`;
}
