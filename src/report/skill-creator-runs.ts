// One attempt of a whetstone evaluation as skill-creator sees a run (references/schemas.md): its
// benchmark.json `runs[]` entry, its grading.json and timing.json, field names exactly as that document
// spells them. Only a judged attempt gets a grading.json: skill-creator's aggregator averages every
// grading.json it finds, so an error or an unjudged eval graded 0/0 would pull its mean down.
// What whetstone does not measure (steps, transcript size, grader time) is null and named in
// `whetstone.not_measured`, never a made-up zero; whetstone's own facts sit under `whetstone`, a key the
// viewer ignores.
import type { JudgeSpec, Task } from '../config/suite-schema.js';
import { evalNameOf, type Configuration } from '../config/skill-creator-dirs.js';
import type { ResultLine } from '../state/results-log.js';
import { round4 } from '../core/numbers.js';

export { evalIdOf, evalNameOf, type Configuration } from '../config/skill-creator-dirs.js';

export interface ScExpectation {
  text: string;
  passed: boolean;
  evidence: string;
}

export interface ScRun {
  eval_id: number;
  eval_name: string;
  configuration: Configuration;
  run_number: number;
  result: { pass_rate: number; passed: number; failed: number; total: number; time_seconds: number; tokens: number; tool_calls: number; errors: number };
  expectations: ScExpectation[];
  notes: string[];
  whetstone: { task_id: string; attempt: number; status: ResultLine['status']; score: number; variant: string };
}

export interface ScGrading {
  expectations: ScExpectation[];
  summary: { passed: number; failed: number; total: number; pass_rate: number };
  execution_metrics: {
    tool_calls: Record<string, number>;
    total_tool_calls: number;
    total_steps: number | null;
    errors_encountered: number;
    output_chars: number;
    transcript_chars: number | null;
  };
  timing: { executor_duration_seconds: number; grader_duration_seconds: number | null; total_duration_seconds: number };
  claims: { claim: string; type: string; verified: boolean; evidence: string }[];
  user_notes_summary: { uncertainties: string[]; needs_review: string[]; workarounds: string[] };
  whetstone: { task_id: string; attempt: number; configuration: Configuration; variant: string; status: ResultLine['status']; not_measured: string[] };
}


/** What a judge checks, in words, for suites whose judges are not skill-creator expectations. */
export function describeJudge(spec: JudgeSpec | undefined, type: string): string {
  if (!spec) return type === 'trigger' ? 'the agent invokes the skill exactly when it should' : type;
  switch (spec.type) {
    case 'contains':
      return `contains ${spec.expected.map((s) => JSON.stringify(s)).join(', ')}`;
    case 'not_contains':
      return `does not contain ${spec.expected.map((s) => JSON.stringify(s)).join(', ')}`;
    case 'regex':
      return `${spec.negate ? 'does not match' : 'matches'} /${spec.pattern}/${spec.flags ?? ''}`;
    case 'equals':
      return `equals ${JSON.stringify(spec.expected)}`;
    case 'llm-rubric':
    case 'llm_rubric':
      return spec.rubric ?? `judge spec ${spec.spec ?? ''}`.trim();
    case 'tool_call':
      return `tool call of intent case ${spec.case_id}`;
    case 'script':
      return `script ${Array.isArray(spec.command) ? spec.command.join(' ') : spec.command} exits 0`;
    case 'pytest':
      return `pytest ${spec.test_file} passes`;
    case 'json':
      return 'the output is JSON matching its schema';
  }
}

function expectationsOf(line: ResultLine, task: Task | undefined): ScExpectation[] {
  return line.judges.map((j, i) => ({
    text: j.expectation ?? task?.expectations?.[i] ?? describeJudge(task?.judges[i], j.type),
    passed: j.passed && j.error === undefined,
    evidence: j.reason,
  }));
}

/** timing.json (schemas.md): whetstone times the attempt as a whole, the engine's call and its judges together. */
export interface ScTiming {
  total_tokens: number;
  duration_ms: number;
  total_duration_seconds: number;
  executor_start: string;
  executor_end: string;
  executor_duration_seconds: number;
}

export interface ScRunFiles {
  run: ScRun;
  /** Absent when the attempt was not judged (an error, an unjudged eval). */
  grading?: ScGrading;
  timing: ScTiming;
  /** outputs/: the agent's answer, and what went wrong when it errored. */
  outputs: { name: string; text: string }[];
}

/** The expectations of an eval, in words: its own, else what each judge checks. */
export function assertionsOf(task: Task | undefined): string[] {
  if (!task) return [];
  return task.judges.map((j, i) => task.expectations?.[i] ?? describeJudge(j, j.type));
}

export function runOf(line: ResultLine, task: Task | undefined, configuration: Configuration, variant: string, evalId: number): ScRunFiles {
  const expectations = expectationsOf(line, task);
  const judgeErrors = line.judges.filter((j) => j.error !== undefined).length;
  const passed = expectations.filter((e) => e.passed).length;
  const failed = line.judges.filter((j) => !j.passed && j.error === undefined).length;
  const total = expectations.length;
  const engineFailed = line.status === 'error' && line.judges.length === 0;
  const errors = judgeErrors + (engineFailed ? 1 : 0);
  const toolNames = line.tool_calls ?? [];
  const tools: Record<string, number> = {};
  for (const name of toolNames) tools[name] = (tools[name] ?? 0) + 1;
  const seconds = round4(line.duration_ms / 1000);
  const notes: string[] = [];
  if (line.status === 'unjudged') notes.push('unjudged: the eval has no expectations and no expected_output; its answer is kept, not graded');
  if (line.status === 'error') notes.push(`error (not a failure): ${line.error ? `${line.error.kind}: ${line.error.message}` : line.reason}`);
  const summary = { passed, failed, total, pass_rate: total ? round4(passed / total) : 0 };
  const run: ScRun = {
    eval_id: evalId,
    eval_name: evalNameOf(task, line.task_id),
    configuration,
    run_number: line.attempt + 1,
    result: { ...summary, time_seconds: seconds, tokens: (line.usage.input_tokens ?? 0) + (line.usage.output_tokens ?? 0), tool_calls: toolNames.length, errors },
    expectations,
    notes,
    whetstone: { task_id: line.task_id, attempt: line.attempt, status: line.status, score: line.score, variant },
  };
  const grading: ScGrading = {
    expectations,
    summary,
    execution_metrics: { tool_calls: tools, total_tool_calls: toolNames.length, total_steps: null, errors_encountered: errors, output_chars: line.output.length, transcript_chars: null },
    timing: { executor_duration_seconds: seconds, grader_duration_seconds: null, total_duration_seconds: seconds },
    claims: [],
    user_notes_summary: { uncertainties: [], needs_review: [], workarounds: [] },
    whetstone: { task_id: line.task_id, attempt: line.attempt, configuration, variant, status: line.status, not_measured: ['total_steps', 'transcript_chars', 'grader_duration_seconds', 'claims', 'user_notes_summary'] },
  };
  const end = Date.parse(line.finished_at);
  const timing: ScTiming = {
    total_tokens: run.result.tokens,
    duration_ms: line.duration_ms,
    total_duration_seconds: seconds,
    executor_start: Number.isFinite(end) ? new Date(end - line.duration_ms).toISOString() : line.finished_at,
    executor_end: line.finished_at,
    executor_duration_seconds: seconds,
  };
  const outputs = [{ name: 'answer.md', text: line.output_truncated ? `${line.output}\n\n[whetstone: the answer was cut at ${line.output.length} characters in the results log; the judges saw it whole]\n` : line.output }];
  if (line.status === 'error') outputs.push({ name: 'error.txt', text: `${notes[notes.length - 1]}\n` });
  const judged = line.status === 'pass' || line.status === 'fail';
  return { run, ...(judged ? { grading } : {}), timing, outputs };
}
