// The one interface every engine implements (DESIGN.md "Engines"). Expected failures — timeout,
// non-zero exit, unparseable output, HTTP error after retries — are values (`ok: false`), never
// exceptions, so the evaluator can count them as errors and not as task failures.

export interface SkillInput {
  /** Skill name (frontmatter `name`, else the folder name). */
  name: string;
  /** The SKILL.md text exactly as on disk. */
  text: string;
  /** The folder holding SKILL.md and its references, when there is one. */
  dir?: string;
}

export interface EngineRequest {
  /** What the request is for: a task answer, or a judge's grading call. */
  kind: 'task' | 'judge';
  prompt: string;
  /** The skill under test; absent for judge calls and for "no skill" runs. */
  skill?: SkillInput;
  /** Extra system text (judges use it for their instructions). */
  system?: string;
  /** The caller expects a JSON object back (judges). */
  expectJson?: boolean;
  /**
   * For judge calls: the rubric and the output being graded, as given to the grader. Real engines only
   * read `prompt`; the mock grades from these so its verdicts are predictable.
   */
  grading?: { rubric: string; output: string };
  /** For logs and for engines that name their workspace after the task. */
  taskId?: string;
  timeoutMs: number;
}

export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cost_usd?: number;
}

export interface ToolCall {
  name: string;
  input?: unknown;
}

export type EngineErrorKind = 'timeout' | 'exit' | 'spawn' | 'parse' | 'http' | 'aborted';

export interface EngineResult {
  ok: boolean;
  output: string;
  tool_calls?: ToolCall[];
  usage: Usage;
  duration_ms: number;
  error?: { kind: EngineErrorKind; message: string };
}

export interface Engine {
  /** Engine type as written in config (`mock`, `command`, `claude`, …). */
  readonly type: string;
  /**
   * Everything that changes what this engine answers (program, model, flags, temperature), as plain
   * JSON. It is part of the baseline cache key, so two configs that answer differently must differ here.
   */
  identity(): Record<string, unknown>;
  run(request: EngineRequest, opts?: { signal?: AbortSignal }): Promise<EngineResult>;
}
