// The seed generator's plans as edit actions: what each action becomes, steps applied in order, the
// seed's deep frontmatter merge, and the refusals (with the path of the field at fault).
import { describe, expect, it } from 'vitest';
import { applySeedPlan, SeedPlanError, seedPlanOf } from '../../src/skill/seed-plan.js';

const SKILL = '---\nname: x\nmetadata:\n  owner: a\n  tags: [one]\n---\n\n# X\n\n## Usage\n\nRun it.\n\n## CLI\n\n`x run`\n';

const apply = (candidate: Record<string, unknown>) => applySeedPlan(SKILL, seedPlanOf(candidate)!);

describe('seed edit plans', () => {
  it('has no plan without execution_plan or a bare action', () => {
    expect(seedPlanOf({ id: 'c', skill_content: SKILL })).toBeUndefined();
  });

  it('applies a list of steps in order, each on the result of the one before', () => {
    const out = apply({
      execution_plan: [
        { action: 'insert_before_section', section_heading: '## CLI', content: '## Notes\nShort.' },
        { action: 'replace_markdown_section', section_heading: 'Notes', content_lines: ['Shorter.'] },
        { action: 'append_markdown_section', content_lines: ['### Caveats', 'None.'] },
      ],
    });
    expect(out.actions.map((a) => a.type)).toEqual(['insert_before_section', 'replace_section', 'append_section']);
    expect(out.text).toBe(SKILL.replace('## CLI', '## Notes\n\nShorter.\n\n## CLI') + '\n### Caveats\n\nNone.\n');
  });

  it('merges frontmatter deeply, as the seed does: nested keys not named stay', () => {
    const out = apply({ action: 'update_yaml_frontmatter', fields: { metadata: { owner: 'b' }, version: '1.1' } });
    expect(out.text).toContain('metadata:\n  owner: b\n  tags:\n    - one\nversion: "1.1"\n---');
    expect(out.text.endsWith('## CLI\n\n`x run`\n')).toBe(true);
  });

  it('names the field at fault', () => {
    const err = (c: Record<string, unknown>) => {
      try {
        apply(c);
      } catch (e) {
        if (e instanceof SeedPlanError) return [e.path, e.message] as const;
        throw e;
      }
      throw new Error('no error');
    };
    expect(err({ execution_plan: [{ action: 'append_markdown_section', section_heading: 'A', content: 'a' }, { action: 'nope' }] })).toEqual([['execution_plan', 1, 'action'], expect.stringMatching(/not one of the seed's actions/)]);
    expect(err({ execution_plan: { action: 'append_markdown_section', section_heading: 'Usage', content: 'dup' } })[1]).toMatch(/a section titled "Usage" already exists/);
    expect(() => seedPlanOf({ execution_plan: 'append' })).toThrow(/execution_plan must be an object/);
  });
});
