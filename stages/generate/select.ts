// Which proposals become this iteration's candidates. Pure: proposals and texts in, candidates and the
// reasons for everything left out.
//
// Order: the proposers take turns, feedback → llm → structural, one proposal each per round, until the
// cap (cfg.loop.candidatesPerIteration) is reached. Feedback comes first because it answers failures
// observed on this skill; the llm's proposals read the same failures but are a model's guess; structural
// fixes are generic templates. Taking turns (rather than all feedback first) keeps each enabled proposer
// represented when the cap allows, so the discriminator compares kinds of change, not only variations
// of one; within a proposer, its own order (most failures first, weakest dimension first) is kept.
//
// Left out, each with its reason (candidates.json `skipped`): a proposal whose actions do not apply (a
// proposer error, not a crash), one that changes nothing, one whose resulting SKILL.md was evaluated on
// this target before and rejected (lessons), one waiting for review in this run, one identical to an earlier candidate, and any over the cap.
import { sha256 } from '../../src/state/artifact-io.js';
import { applyEdits } from '../../src/skill/edits.js';
import type { Lesson } from '../../src/artifacts/learning.js';
import { slugify, type Proposal, type ProposerError, type Skipped } from './proposal.js';

export interface SelectInput {
  /** Proposals per proposer, in priority order. */
  groups: readonly (readonly Proposal[])[];
  targetText: string;
  /** SKILL.md content hashes already rejected on this target, with the lesson that says so. */
  rejected: ReadonlyMap<string, Lesson>;
  /** SKILL.md content hashes waiting for a person's review in this run. */
  pending?: ReadonlyMap<string, Lesson>;
  cap: number;
}

export interface Chosen {
  id: string;
  proposal: Proposal;
  /** The variant's SKILL.md. */
  text: string;
  contentSha: string;
}

export interface Selection {
  chosen: Chosen[];
  skipped: Skipped[];
  errors: ProposerError[];
}

/** Round-robin over the groups: first of each, then second of each, … */
export function interleave<T>(groups: readonly (readonly T[])[]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...groups.map((g) => g.length));
  for (let i = 0; i < longest; i++) for (const g of groups) if (i < g.length) out.push(g[i]!);
  return out;
}

export function candidateId(n: number, title: string): string {
  return `cand-${String(n).padStart(2, '0')}-${slugify(title)}`;
}

export function selectCandidates(input: SelectInput): Selection {
  const out: Selection = { chosen: [], skipped: [], errors: [] };
  const seen = new Map<string, string>();
  for (const p of interleave(input.groups)) {
    let text: string;
    try {
      text = applyEdits(input.targetText, p.actions);
    } catch (e) {
      out.errors.push({ proposer: p.proposer, message: `"${p.title}": its actions do not apply: ${(e as Error).message}` });
      continue;
    }
    const skip = (why: string) => out.skipped.push({ title: p.title, proposer: p.proposer, why });
    if (text === input.targetText) {
      skip('its actions change nothing');
      continue;
    }
    const contentSha = sha256(text);
    const lesson = input.rejected.get(contentSha);
    if (lesson) {
      skip(`this exact SKILL.md was evaluated on this target in run ${lesson.run_id} iteration ${lesson.iteration} and rejected: ${lesson.why}`);
      continue;
    }
    const held = input.pending?.get(contentSha);
    if (held) {
      skip(`this exact SKILL.md (${held.candidate_id}) waits for review from iteration ${held.iteration} of this run: whet review approve|reject ${held.run_id} ${held.candidate_id} --iteration ${held.iteration}`);
      continue;
    }
    const twin = seen.get(contentSha);
    if (twin) {
      skip(`same content as ${twin}`);
      continue;
    }
    if (out.chosen.length >= input.cap) {
      skip(`over the cap of ${input.cap} candidate(s) per iteration (loop.candidates_per_iteration)`);
      continue;
    }
    const id = candidateId(out.chosen.length + 1, p.title);
    seen.set(contentSha, id);
    out.chosen.push({ id, proposal: p, text, contentSha });
  }
  return out;
}
