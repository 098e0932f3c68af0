// Which text a ranked candidate is, decided before the state directory is touched. In order: its variant
// folder (variant_path, or variants/<id>/ beside the ranking), a seed edit plan applied to the target
// (execution_plan, or a bare {action, content}: the content is a fragment, never the skill), or the
// whole skill text the ranking carries (skill_content / content / body). Never the target in its place.
// A seed plan's result is written as a variant folder (a copy of the target folder with the edited
// SKILL.md), so what the engine is given is a file on disk, the same bytes the gate would promote.
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { formatPath, type LoadedYaml } from '../config/load-yaml.js';
import { insideRoot } from '../config/safe-id.js';
import { ConfigError } from '../core/errors.js';
import type { EditAction } from '../skill/edits.js';
import { readSkill, skillFromText, type LoadedSkill } from '../skill/read.js';
import { applySeedPlan, SeedPlanError, seedPlanOf } from '../skill/seed-plan.js';
import { stateLayout } from '../state/layout.js';
import { materialise } from '../state/variant.js';
import type { RankingInput } from '../artifacts/evaluation.js';

type Candidate = RankingInput['scored_candidates'][number];

export type CandidateSource =
  | { kind: 'variant'; skill: LoadedSkill }
  | { kind: 'inline'; text: string }
  | { kind: 'seed_plan'; text: string; actions: EditAction[] };

/** An earlier variants/<id>/ kept as superseded/<time>-variants-<id>/ (kept, never deleted). */
function supersedeVariant(iterDir: string, variantDir: string, id: string, now: Date): string | undefined {
  if (!existsSync(variantDir)) return undefined;
  const dest = join(stateLayout.supersededDir(iterDir), `${now.toISOString().replace(/[:.]/g, '-')}-variants-${id}`);
  mkdirSync(dirname(dest), { recursive: true });
  renameSync(variantDir, dest);
  return dest;
}

/** The candidate's text or folder; a located ConfigError for a plan that cannot be read or applied. */
export function resolveCandidate(ranking: LoadedYaml<RankingInput>, index: number, rankingDir: string, target: LoadedSkill): CandidateSource {
  const c: Candidate = ranking.value.scored_candidates[index]!;
  if (c.variant_path) return { kind: 'variant', skill: readSkill(resolve(rankingDir, c.variant_path)) };
  const conventional = join(rankingDir, 'variants', c.id);
  if (existsSync(join(conventional, 'SKILL.md'))) return { kind: 'variant', skill: readSkill(conventional) };
  const at = (path: (string | number)[]) => ranking.at(['scored_candidates', index, ...path]);
  const field = (path: (string | number)[]) => formatPath(['scored_candidates', index, ...path]);
  let plan;
  try {
    plan = seedPlanOf(c);
    if (plan) {
      // (A bare {action, content}'s content is the plan's own fragment; beside an execution_plan it is a skill.)
      const whole = ([...(plan.path.length ? (['content'] as const) : []), 'skill_content', 'body'] as const).find((k) => c[k] !== undefined);
      // A plan beside a whole skill leaves open which one the ranking means; neither is guessed.
      if (whole) throw new SeedPlanError(`candidate "${c.id}" carries both an edit plan and ${whole}; keep one`, [whole]);
      const applied = applySeedPlan(target.text, plan);
      return { kind: 'seed_plan', text: applied.text, actions: applied.actions };
    }
  } catch (e) {
    if (e instanceof SeedPlanError) throw new ConfigError(`${e.message} (candidate "${c.id}"; the plan is applied to ${target.file}, never evaluated as the skill)`, at(e.path), field(e.path));
    throw e;
  }
  const inline = c.skill_content ?? c.content ?? c.body;
  if (inline) return { kind: 'inline', text: inline };
  throw new ConfigError(
    `candidate "${c.id}" has no content: no variant_path, no variants/${c.id}/SKILL.md beside the ranking, no execution_plan and no skill_content; refusing to evaluate the original in its place`,
    at([]),
  );
}

/**
 * The candidate's skill as the engine will get it. A seed plan's text, and an inline SKILL.md, becomes
 * `<iterDir>/variants/<id>/` (an earlier folder of that name moves to superseded/ first): the whole target
 * folder (references/, scripts/, assets …) with that SKILL.md, as the generate stage writes a loop
 * candidate — so every delivery (a command engine's WHET_SKILL_DIR, an installed skill) sees the files the
 * skill links to, and the folder is exactly what would be promoted. A variant folder is what it is.
 */
export async function candidateSkill(
  source: CandidateSource,
  o: { id: string; iterDir: string; target: LoadedSkill; exclude: readonly string[]; now: Date; log: (line: string) => void },
): Promise<{ skill: LoadedSkill; variantPath?: string }> {
  if (source.kind === 'variant') return { skill: source.skill };
  // A target given as text alone has no folder to copy: the candidate is its text too.
  if (!o.target.dir) return { skill: skillFromText(source.text, o.target.name) };
  const variantDir = insideRoot(join(o.iterDir, 'variants'), join(o.iterDir, 'variants', o.id), 'candidate id');
  const moved = supersedeVariant(o.iterDir, variantDir, o.id, o.now);
  if (moved) o.log(`previous variants/${o.id} moved to ${moved}`);
  await materialise({ targetDir: o.target.dir, variantDir, skillText: source.text, exclude: o.exclude });
  if (source.kind === 'seed_plan') o.log(`candidate ${o.id}: seed edit plan (${source.actions.map((a) => a.type).join(', ')}) applied to the target; evaluating variants/${o.id}`);
  // The target's name, not the folder's (variants/<id>): the skill is the target with another SKILL.md.
  return { skill: { ...readSkill(variantDir), name: o.target.name }, variantPath: `variants/${o.id}` };
}
