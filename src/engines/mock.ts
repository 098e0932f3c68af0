// The offline engine. It behaves like an obedient agent that can only quote its instructions: asked a
// task, it answers with the skill's lines that share the most words with the prompt. So the answer is
// a pure function of (skill text, prompt): editing the skill changes the answer exactly where the edit
// is relevant, which is what lets the whole loop be demonstrated and tested with no model.
// The rules are documented in docs/reference/engines.md ("The mock engine"); keep the two in step.
import { setTimeout as sleep } from 'node:timers/promises';
import type { MockEngineConfig } from '../config/engine-schema.js';
import type { Engine, EngineRequest, EngineResult } from './types.js';
import { contentLines, tokenize } from './mock-text.js';

/** At most this many skill lines make up an answer. */
export const MOCK_MAX_LINES = 6;
/** The whole answer when no skill line shares a word with the prompt. */
export const MOCK_NO_ANSWER = 'I could not find guidance for this request in the skill.';
/** How many of the rubric's words the mock grader checks for. */
export const MOCK_RUBRIC_TERMS = 12;

interface IndexedLine {
  text: string;
  tokens: Set<string>;
}

export function createMockEngine(cfg: MockEngineConfig = { type: 'mock' }): Engine {
  // Suites send the same skill thousands of times; index each distinct skill text once.
  const indexCache = new Map<string, IndexedLine[]>();
  const indexOf = (skill: string): IndexedLine[] => {
    let idx = indexCache.get(skill);
    if (!idx) {
      idx = contentLines(skill).map((text) => ({ text, tokens: tokenize(text) }));
      if (indexCache.size > 64) indexCache.clear();
      indexCache.set(skill, idx);
    }
    return idx;
  };

  return {
    type: 'mock',
    identity: () => ({ type: 'mock', rules: 'mock/1' }),
    async run(req: EngineRequest, opts?: { signal?: AbortSignal }): Promise<EngineResult> {
      const started = performance.now();
      if (cfg.latency_ms) {
        try {
          await sleep(cfg.latency_ms, undefined, { signal: opts?.signal });
        } catch {
          return { ok: false, output: '', usage: {}, duration_ms: Math.round(performance.now() - started), error: { kind: 'aborted', message: 'aborted' } };
        }
      }
      const output = req.kind === 'judge' ? grade(req) : answer(req, indexOf);
      return {
        ok: true,
        output,
        usage: { input_tokens: estimateTokens(req.prompt) + estimateTokens(req.skill?.text ?? ''), output_tokens: estimateTokens(output), cost_usd: 0 },
        duration_ms: Math.round(performance.now() - started),
      };
    },
  };
}

function answer(req: EngineRequest, indexOf: (s: string) => IndexedLine[]): string {
  if (!req.skill) return MOCK_NO_ANSWER;
  const wanted = tokenize(req.prompt);
  const scored: { i: number; score: number }[] = [];
  const lines = indexOf(req.skill.text);
  for (let i = 0; i < lines.length; i++) {
    let score = 0;
    for (const t of lines[i]!.tokens) if (wanted.has(t)) score++;
    if (score > 0) scored.push({ i, score });
  }
  if (scored.length === 0) return MOCK_NO_ANSWER;
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  return scored
    .slice(0, MOCK_MAX_LINES)
    .sort((a, b) => a.i - b.i)
    .map((s) => lines[s.i]!.text)
    .join('\n');
}

/** The mock grader: the share of the rubric's first distinct words that the output contains (×10 as a rating). */
function grade(req: EngineRequest): string {
  const rubric = req.grading?.rubric ?? req.prompt;
  const output = req.grading?.output ?? '';
  const terms = [...tokenize(rubric)].slice(0, MOCK_RUBRIC_TERMS);
  const have = tokenize(output);
  const found = terms.filter((t) => have.has(t));
  const score = terms.length === 0 ? 0 : found.length / terms.length;
  const why = `mock grader: ${found.length}/${terms.length} rubric terms present in the output`;
  if (req.grading?.reply === 'rating') return JSON.stringify({ rating: Math.round(score * 100) / 10, reason: why });
  return JSON.stringify({
    score: Math.round(score * 10_000) / 10_000,
    reason: why,
  });
}

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
