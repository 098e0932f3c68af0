// The optional llm judge (loop.discriminate.llm_judge): one engine call per candidate asking how likely
// its edit is to fix the train failures it answers without breaking other behaviour. The prompt carries
// the candidate's title, rationale and diff and the judges' reasons for those TRAIN failures — nothing
// else: held-out tasks are the gate's evidence, and buildJudgePrompt refuses any non-train failure.
// The reply must be JSON {rating: 0–10, reason} (zod-checked); an unusable reply is retried once with the
// problem stated, then recorded as this candidate's judge error (it keeps its cheap score) — never dropped.
import { z } from 'zod';
import type { Engine } from '../../src/engines/types.js';
import type { Candidate } from '../../src/artifacts/candidates.js';
import { EngineError } from '../../src/core/errors.js';

export interface JudgeFailure {
  task_id: string;
  category: string;
  split: 'train' | 'holdout' | undefined;
  /** What the suite's judges said about the baseline's answer. */
  reason: string;
}

export const judgeReply = z.object({
  rating: z.number().min(0).max(10),
  reason: z.string().trim().min(1),
});
export type JudgeReply = z.infer<typeof judgeReply>;

export type Judgement = { ok: true; rating: number; reason: string; calls: number; costUsd: number } | { ok: false; error: string; calls: number; costUsd: number };

const SYSTEM = 'You review proposed edits to the instructions an AI agent follows (a SKILL.md). You reply with one JSON object and nothing else.';

/** The train failures this candidate answers, and the text a grader compares the diff with. */
export function buildJudgePrompt(c: Pick<Candidate, 'title' | 'category' | 'risk' | 'rationale' | 'diff'>, failures: readonly JudgeFailure[]): { system: string; prompt: string; rubric: string } {
  const leaked = failures.filter((f) => f.split !== 'train');
  if (leaked.length > 0) throw new Error(`refusing to show the llm judge non-train tasks: ${leaked.map((f) => f.task_id).join(', ')}`);
  const listed = failures.length
    ? failures.map((f) => `- task ${f.task_id} (category ${f.category}): ${f.reason}`).join('\n')
    : '(none: this edit answers no recorded training failure; rate whether it is safe and useful on its own)';
  const prompt = [
    'Rate how likely the edit below is to fix the failed training tasks it answers without breaking other behaviour of the skill.',
    '0: will not help or will break things; 5: uncertain; 10: clearly fixes them and changes nothing else.',
    '',
    'Reply with only this JSON object, no prose:',
    '{"rating": a number from 0 to 10, "reason": "one or two sentences"}',
    '',
    `Edit: ${c.title} (category ${c.category}, risk ${c.risk})`,
    `Rationale: ${c.rationale}`,
    '',
    'Unified diff against the current SKILL.md:',
    '<<<DIFF',
    c.diff.replace(/\s+$/, ''),
    'DIFF>>>',
    '',
    'Failed training tasks it answers, with what the graders said:',
    listed,
  ].join('\n');
  // The offline mock grades from this pair: does the diff use the words the failures were judged by?
  return { system: SYSTEM, prompt, rubric: failures.map((f) => f.reason).join('\n') };
}

/** The JSON object in a reply, tolerating a code fence or a sentence around it. */
export function parseJudgeReply(output: string): { ok: true; reply: JudgeReply } | { ok: false; problem: string } {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n```/.exec(output);
  const text = fenced ? fenced[1]! : output;
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return { ok: false, problem: 'not JSON: the reply contains no JSON object' };
  let raw: unknown;
  try {
    raw = JSON.parse(text.slice(start, end + 1));
  } catch (e) {
    return { ok: false, problem: `not JSON: ${(e as Error).message}` };
  }
  const r = judgeReply.safeParse(raw);
  if (!r.success) return { ok: false, problem: `does not match {rating: 0–10, reason}: ${r.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(reply)'}: ${i.message}`).join('; ')}` };
  return { ok: true, reply: r.data };
}

export async function judgeCandidate(engine: Engine, c: Candidate, failures: readonly JudgeFailure[], opts: { timeoutMs: number; signal?: AbortSignal }): Promise<Judgement> {
  const { system, prompt, rubric } = buildJudgePrompt(c, failures);
  let calls = 0;
  let costUsd = 0;
  let ask = prompt;
  let problem = '';
  for (let attempt = 1; attempt <= 2; attempt++) {
    calls++;
    const res = await engine.run(
      { kind: 'judge', prompt: ask, system, expectJson: true, grading: { rubric, output: `${c.rationale}\n${c.diff}`, reply: 'rating' }, taskId: c.id, timeoutMs: opts.timeoutMs },
      opts.signal ? { signal: opts.signal } : undefined,
    );
    costUsd += res.usage.cost_usd ?? 0;
    // A refused key or a wrong URL stops the run rather than failing every judgement (src/engines/unusable.ts).
    if (res.error?.stop) throw new EngineError(res.error.stop);
    if (!res.ok) return { ok: false, error: `engine ${res.error?.kind ?? 'error'}: ${res.error?.message ?? 'no cause given'}`, calls, costUsd };
    const parsed = parseJudgeReply(res.output);
    if (parsed.ok) return { ok: true, rating: parsed.reply.rating, reason: parsed.reply.reason.replace(/\s+/g, ' ').slice(0, 300), calls, costUsd };
    problem = parsed.problem;
    ask = `${prompt}\n\nYour previous reply could not be used: ${problem}\nReply again with only the JSON object described above.`;
  }
  return { ok: false, error: `reply unusable twice; last problem: ${problem}`, calls, costUsd };
}
