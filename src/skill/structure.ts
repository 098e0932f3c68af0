// Structural score of a SKILL.md: cheap, deterministic checks of the shape Anthropic's skill guidance asks
// for. It says nothing about whether the skill makes an agent do better (only the evaluate stage measures
// that); it finds missing parts the generator can propose to add. Every dimension scores 0..1 (1 = pass),
// says what it found, and when below 1 carries one edit action that makes it pass: a generic template with
// [placeholders] for the generator to fill, never a fix tailored to one case. Each proposed fix has been
// applied and re-measured here, so the loop cannot get stuck on a dimension it was told how to fix.
//
// Sources for the thresholds:
//  - body under 500 lines: Anthropic's skill authoring guidance ("Keep SKILL.md body under 500 lines"),
//    repeated in its own skill-creator skill (compat/anthropic-skills/skill-creator/SKILL.md, lines 90 and 96:
//    "<500 lines ideal", "Keep SKILL.md under 500 lines"); found with the docs/pages search "SKILL.md best
//    practices body under 500 lines progressive disclosure".
//  - description 1..1024 characters, name at most 64 lower-case letters, digits and hyphens, and a description
//    that says both what the skill does and when to use it: the Agent Skills frontmatter rules (agentskills.io
//    specification, restated on Anthropic's best-practices page).
import { ConfigError } from '../core/errors.js';
import { applyEdit, type EditAction } from './edits.js';
import { parseSkill, type SkillDocument } from './markdown.js';
import { descriptionQuality, frontmatterFields } from './structure-frontmatter.js';
import { bodyLength, fencesClosed } from './structure-body.js';
import { examples, outputContract, whenNotToUse, whenToUse, workflowSteps } from './structure-sections.js';
import {
  MAX_BODY_LINES,
  MAX_DESCRIPTION_CHARS,
  MAX_NAME_CHARS,
  MIN_DESCRIPTION_WORDS,
  type Check,
  type DimensionId,
  type StructureDimension,
  type StructureReport,
} from './structure-common.js';

export * from './structure-common.js';

/**
 * The dimensions, in report order. An open fence hides everything after it (headings appended at the end
 * would be code), so it comes first: a loop that applies fixes in this order closes it before adding sections.
 */
export const STRUCTURE_CHECKS: readonly Check[] = [
  fencesClosed,
  frontmatterFields,
  descriptionQuality,
  whenToUse,
  whenNotToUse,
  examples,
  outputContract,
  workflowSteps,
  bodyLength,
];

/** What each dimension checks and when it passes. */
export const DIMENSION_RULES: Record<DimensionId, string> = {
  fences_closed: 'every code fence is closed (an unclosed one turns the rest of the file into code)',
  frontmatter_fields: `frontmatter parses and has \`name\` (≤${MAX_NAME_CHARS} chars of a-z, 0-9, single hyphens) and a non-empty \`description\`; 0.5 for each (0.25 for a malformed name)`,
  description_quality: `description ≤${MAX_DESCRIPTION_CHARS} chars, ≥${MIN_DESCRIPTION_WORDS} words (2 CJK chars count as 1), and says when to use the skill; mean of the three`,
  when_to_use: 'a "When to Use" / "何时使用" / "Triggers" section (1); only a frontmatter `triggers:` list (0.5)',
  when_not_to_use: 'a "When NOT to Use" / "何时不使用" / boundaries section (1); only a "not for" / "不用于" phrase (0.5)',
  examples: 'an <example> block, a fenced code block, or an "Example" / "示例" heading',
  output_contract: 'an "Output" / "Format" / "Returns" / "输出" section saying what the result looks like',
  workflow_steps: 'an ordered list of at least 2 steps outside code, or 2+ "Step N" headings (1); only a workflow heading (0.5)',
  body_length: `body at most ${MAX_BODY_LINES} lines (1), falling linearly to 0 at ${2 * MAX_BODY_LINES}`,
};

export function scoreStructure(text: string): StructureReport {
  const doc = parseSkill(text);
  const dimensions = STRUCTURE_CHECKS.map((check): StructureDimension => {
    const { score, finding } = check.measure(doc);
    const fix = score < 1 ? verifiedFix(doc, check) : undefined;
    return fix ? { id: check.id, score, finding, fix } : { id: check.id, score, finding };
  });
  const total = dimensions.reduce((s, d) => s + d.score, 0) / dimensions.length;
  return { dimensions, total };
}

/** The first candidate fix that applies and brings the dimension to 1. */
function verifiedFix(doc: SkillDocument, check: Check): EditAction | undefined {
  for (const candidate of check.fixes(doc)) {
    let after: string;
    try {
      after = applyEdit(doc.text, candidate);
    } catch (e) {
      if (e instanceof ConfigError) continue;
      throw e;
    }
    if (check.measure(parseSkill(after)).score === 1) return candidate;
  }
  return undefined;
}
