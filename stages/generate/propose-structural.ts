// The structural proposer: one candidate per weak structural dimension (score < 1), weakest first, each
// the dimension's own checked fix from src/skill/structure.ts. It is generic on purpose and says so: the
// fixes are templates (often with [placeholders]) that make the skill's shape complete, with no evidence
// from any task that they help. Only the evaluation can tell; the discriminator prices the placeholders.
import type { ChangeCategory, Risk } from '../../src/artifacts/vocabulary.js';
import { DIMENSION_RULES, scoreStructure, type DimensionId } from '../../src/skill/structure.js';
import { countPlaceholders, type Proposal } from './proposal.js';

/** Which kind of change fixing each dimension is (the shared vocabulary in src/artifacts/vocabulary.ts). */
export const DIMENSION_CATEGORY: Record<DimensionId, ChangeCategory> = {
  when_to_use: 'trigger',
  description_quality: 'trigger',
  when_not_to_use: 'boundaries',
  examples: 'examples',
  output_contract: 'output-format',
  workflow_steps: 'workflow',
  body_length: 'conciseness',
  frontmatter_fields: 'frontmatter',
  fences_closed: 'other',
};

/** Edits to the frontmatter or the description change whether the skill is picked at all: high risk. */
const HIGH_RISK: ReadonlySet<DimensionId> = new Set(['frontmatter_fields', 'description_quality']);

export function proposeStructural(skillText: string): Proposal[] {
  const report = scoreStructure(skillText);
  const weak = report.dimensions
    .map((d, order) => ({ d, order }))
    .filter(({ d }) => d.score < 1 && d.fix !== undefined)
    .sort((a, b) => a.d.score - b.d.score || a.order - b.order);
  return weak.map(({ d }) => {
    const fix = d.fix!;
    const risk: Risk = HIGH_RISK.has(d.id) || fix.type === 'update_frontmatter' ? 'high' : 'low';
    const placeholders = countPlaceholders(JSON.stringify(fix)) > 0;
    return {
      title: `Structure: ${d.id.replace(/_/g, ' ')}`,
      category: DIMENSION_CATEGORY[d.id],
      risk,
      rationale:
        `Generic structural fix, not evidence from any task: the skill checks found "${d.finding}" ` +
        `(score ${d.score.toFixed(2)}; passes when ${DIMENSION_RULES[d.id]}); the fix: ${fix.reason ?? fix.type}. ` +
        (placeholders ? 'The template has [placeholders] a person (or the llm proposer) must fill before it can help. ' : '') +
        'Only the evaluation can say whether it makes the agent do better.',
      proposer: 'structural' as const,
      answers: { kind: 'structure' as const, dimension: d.id, detail: d.finding },
      actions: [fix],
    };
  });
}
