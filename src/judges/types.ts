// A judge decides whether one output passes one task. Every result says why. A judge that could not
// do its job (script crashed to start, judge engine failed, model returned invalid JSON twice) returns
// `error`, which the evaluator counts apart from failures — never as a pass and never as a fail.
import type { Engine } from '../engines/types.js';
import type { JudgeSpec, SuiteIntents, Task } from '../config/suite-schema.js';

export interface JudgeContext {
  output: string;
  task: Task;
  /** Folder of the suite file: script, pytest and schema paths resolve here. */
  suiteDir: string;
  /** The suite's intent cases and catalogue (`tool_call` judges); absent for suites without `intents:`. */
  intents?: SuiteIntents;
  /** Engine that answers llm-rubric judges; absent when none is configured. */
  judgeEngine?: Engine;
  /** Wraps an engine a judge builds itself (a spec's own engine), so its calls count like the judge engine's. */
  meter?: (engine: Engine) => Engine;
  /** Default timeout for judges that run something (script, pytest, llm-rubric). */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface JudgeResult {
  type: JudgeSpec['type'];
  passed: boolean;
  /** 0..1; contains = fraction of expected strings found (seed semantics). */
  score: number;
  /** One line saying why it passed or failed. */
  reason: string;
  /** Set when the judge could not judge; `passed` is then false and must not be counted as a fail. */
  error?: string;
  usage?: { input_tokens?: number; output_tokens?: number; cost_usd?: number };
}

export type Judge<S extends JudgeSpec = JudgeSpec> = (spec: S, ctx: JudgeContext) => Promise<JudgeResult> | JudgeResult;
