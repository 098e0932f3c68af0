// The llm proposer: asks a model for edits, given the skill text, the TRAIN failures (request and what
// the judges said) and what earlier attempts on this target taught. Held-out tasks never reach the prompt:
// the caller passes train failures only and buildLlmPrompt refuses anything else. Lessons go in without
// their free-text `why`, which can name held-out tasks (the gate explains itself with their ids).
// The reply must be JSON {candidates: [...]} of edit actions (zod-checked); an unusable reply is retried
// once with the problem stated, then reported as a proposer error — never silently dropped.
import { z } from 'zod';
import { changeCategory, CHANGE_CATEGORIES, risk } from '../../src/artifacts/vocabulary.js';
import type { Engine } from '../../src/engines/types.js';
import { EditActionSchema } from '../../src/skill/edits.js';
import type { Lesson } from '../../src/artifacts/learning.js';
import type { Proposal, ProposerError } from './proposal.js';
import type { TrainFailure } from '../../src/loop/train-failures.js';
import { EngineError } from '../../src/core/errors.js';

/** A train failure with its request (src/loop/train-failures.ts). */
export type LlmFailure = TrainFailure;

export interface LlmInput {
  skillText: string;
  failures: readonly LlmFailure[];
  lessons: readonly Lesson[];
  max: number;
  /** A person's verdicts on train outputs (`whet view`; src/lessons/feedback.ts), train tasks only. */
  feedback?: readonly LlmFeedback[];
}

/** One verdict as the prompt shows it: the task's kind, the verdict and the person's words. */
export interface LlmFeedback {
  task_id: string;
  category: string;
  split: 'train' | 'holdout' | null;
  rating: 'good' | 'bad';
  comment: string;
}

export const llmReply = z.object({
  candidates: z.array(
    z.object({
      title: z.string().trim().min(1),
      category: changeCategory,
      risk,
      rationale: z.string().trim().min(1),
      answers: z.array(z.string()).optional(),
      actions: z.array(EditActionSchema).min(1),
    }),
  ),
});

const ACTIONS_HELP = [
  '{"type": "append_section", "heading": "Title", "body": "markdown", "after": "(optional) existing section title"}',
  '{"type": "insert_before_section", "section": "existing section title", "heading": "Title", "body": "markdown"}',
  '{"type": "replace_section", "section": "existing section title", "body": "the new body; the heading line stays"}',
  '{"type": "replace_text", "find": "exact text occurring once in SKILL.md", "replace": "new text"}',
  '{"type": "update_frontmatter", "set": {"description": "..."}}',
  '{"type": "append_text", "text": "raw text added at the very end"}',
];

export function buildLlmPrompt(input: LlmInput): { system: string; prompt: string } {
  const leaked = input.failures.filter((f) => f.split !== 'train');
  if (leaked.length > 0) throw new Error(`refusing to show the generator non-train tasks: ${leaked.map((f) => f.task_id).join(', ')}`);
  const verdicts = input.feedback ?? [];
  const heldOut = verdicts.filter((f) => f.split !== 'train');
  if (heldOut.length > 0) throw new Error(`refusing to show the generator feedback on non-train tasks: ${heldOut.map((f) => f.task_id).join(', ')}`);
  const failures = input.failures.length
    ? input.failures.map((f) => `- task ${f.task_id} (category ${f.category})\n  request: ${f.prompt.trim().replace(/\n/g, '\n  ')}\n  judges: ${f.reason}`).join('\n')
    : '(none: every training task passed; propose only what the lessons or the skill itself call for, or reply {"candidates": []})';
  const lessons = input.lessons.length
    ? input.lessons
        .map((l) => `- iteration ${l.iteration}: ${l.category ?? 'no'} change (${l.actions.join(', ') || 'no actions'}) → ${l.decision}${l.delta === null ? '' : `, held-out pass-rate delta ${l.delta >= 0 ? '+' : ''}${l.delta.toFixed(4)}`}`)
        .join('\n')
    : '(none yet)';
  const prompt = [
    `Propose at most ${input.max} edits to the SKILL.md below so that an agent following it handles the failed requests listed after it, and every other request of the same kind.`,
    '',
    'Rules:',
    '- One observed failure is a class: write guidance for the whole kind of request. Never answer one specific request, and never copy a request\'s text into the skill.',
    '- Keep each edit small, in the skill\'s own style and language, and change only what the failures call for.',
    '- Do not repeat a change the lessons show was rejected.',
    '',
    'Reply with only this JSON object, no prose:',
    `{"candidates": [{"title": "...", "category": one of ${JSON.stringify(CHANGE_CATEGORIES)}, "risk": "low" | "medium" | "high", "rationale": "why it helps that kind of request", "answers": ["ids of the failed tasks it addresses"], "actions": [edit actions, applied in order]}]}`,
    '',
    'Edit actions:',
    ...ACTIONS_HELP.map((a) => `- ${a}`),
    '',
    'SKILL.md:',
    '<<<SKILL',
    input.skillText.replace(/\s+$/, ''),
    'SKILL>>>',
    '',
    'Failed tasks (training split):',
    failures,
    '',
    'Lessons from earlier attempts on this skill:',
    lessons,
    ...(verdicts.length
      ? [
          '',
          "A person's verdicts on answers to training requests (guidance for the kind of request, never the person's words copied as a check):",
          ...verdicts.map((f) => `- task ${f.task_id} (category ${f.category}): ${f.rating}${f.comment.trim() ? ` — ${f.comment.trim().replace(/\s+/g, ' ')}` : ''}`),
        ]
      : []),
  ].join('\n');
  return { system: 'You improve the instructions an AI agent follows (a SKILL.md). You reply with one JSON object and nothing else.', prompt };
}

/** The JSON object in a reply, tolerating a code fence or a sentence around it. */
function extractJson(output: string): unknown {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n```/.exec(output);
  const text = fenced ? fenced[1]! : output;
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) throw new Error('the reply contains no JSON object');
  return JSON.parse(text.slice(start, end + 1));
}

export function parseLlmReply(output: string, trainIds: readonly string[], max: number): { ok: true; proposals: Proposal[] } | { ok: false; problem: string } {
  let raw: unknown;
  try {
    raw = extractJson(output);
  } catch (e) {
    return { ok: false, problem: `not JSON: ${(e as Error).message}` };
  }
  const r = llmReply.safeParse(raw);
  if (!r.success) {
    const problems = r.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(reply)'}: ${i.message}`);
    return { ok: false, problem: `does not match the required shape: ${problems.join('; ')}` };
  }
  const known = new Set(trainIds);
  const proposals = r.data.candidates.slice(0, max).map(
    (c): Proposal => ({
      title: c.title,
      category: c.category,
      risk: c.risk,
      rationale: c.rationale,
      proposer: 'llm',
      // Only ids the model was shown count as answered; anything else it names is its own invention.
      answers: { kind: 'llm', tasks: (c.answers ?? []).filter((id) => known.has(id)), detail: 'proposed by the generator model' },
      actions: c.actions,
    }),
  );
  return { ok: true, proposals };
}

export interface LlmOutcome {
  proposals: Proposal[];
  errors: ProposerError[];
  calls: number;
  costUsd: number;
  /** The prompts sent, for the artifact's honesty and for the leakage test. */
  prompts: string[];
}

export async function proposeLlm(engine: Engine, input: LlmInput, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<LlmOutcome> {
  const { system, prompt } = buildLlmPrompt(input);
  const trainIds = input.failures.map((f) => f.task_id);
  const out: LlmOutcome = { proposals: [], errors: [], calls: 0, costUsd: 0, prompts: [] };
  let ask = prompt;
  for (let attempt = 1; attempt <= 2; attempt++) {
    out.prompts.push(ask);
    out.calls++;
    const res = await engine.run({ kind: 'task', prompt: ask, system, expectJson: true, timeoutMs: opts.timeoutMs }, { signal: opts.signal });
    out.costUsd += res.usage.cost_usd ?? 0;
    // A refused key or a wrong URL is no proposer error to note and go on from: the run stops (src/engines/unusable.ts).
    if (res.error?.stop) throw new EngineError(res.error.stop);
    if (!res.ok) {
      out.errors.push({ proposer: 'llm', message: `engine ${res.error?.kind ?? 'error'}: ${res.error?.message ?? 'no cause given'}` });
      return out;
    }
    const parsed = parseLlmReply(res.output, trainIds, input.max);
    if (parsed.ok) {
      out.proposals = parsed.proposals;
      return out;
    }
    if (attempt === 2) {
      out.errors.push({ proposer: 'llm', message: `reply unusable twice; last problem: ${parsed.problem}` });
      return out;
    }
    ask = `${prompt}\n\nYour previous reply could not be used: ${parsed.problem}\nReply again with only the JSON object described above.`;
  }
  return out;
}
