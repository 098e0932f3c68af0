// A ranking from the seed generator carries candidates as edit plans (execution_plan {action,
// section_heading, content_lines | frontmatter_updates}, or a bare {action, content}), not as skills.
// Each must be evaluated as the target with the plan applied — the bytes the engine gets are the bytes
// the gate would promote — or refused with the plan's file:line:col before the state dir exists.
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSkill } from '../../src/skill/read.js';
import { applyVariant } from '../../src/state/promote.js';
import { fixturesBin, tempDir, whet, write } from '../support/cli.js';

const TARGET = [
  '---',
  'name: release-notes',
  'description: Writes release notes.',
  'metadata:',
  '  owner: docs-team',
  '  tier: 2',
  '---',
  '',
  '# Release notes',
  '',
  '## When to Use',
  '',
  '- Preparing release notes.',
  '',
  '## CLI',
  '',
  'Run `notes build`.',
  '',
].join('\n');

const SUITE = `skill_id: rn
version: "1.0"
tasks:
  - {id: t-1, category: basics, prompt: "notes please", judge: {type: contains, expected: ["Release notes"]}}
  - {id: t-2, category: basics, prompt: "caveats", judge: {type: contains, expected: ["Caveats"]}}
`;

const CANDIDATES = [
  { id: 'c-append', score: 8, category: 'docs', execution_plan: { action: 'append_markdown_section', section_heading: 'Caveats', content_lines: ['- Never invent a version number.', '- Ask when the date is unknown.'] } },
  { id: 'c-replace', score: 8, category: 'docs', execution_plan: { action: 'replace_markdown_section', section_heading: 'When to Use', content_lines: ['## When to Use', '', '- Preparing release notes or a changelog entry.'] } },
  { id: 'c-insert', score: 8, category: 'docs', execution_plan: { action: 'insert_before_section', section_heading: 'CLI', content_lines: ['## Design Notes', '', 'Notes are grouped by kind of change.'] } },
  { id: 'c-frontmatter', score: 8, category: 'prompt', execution_plan: { action: 'update_yaml_frontmatter', frontmatter_updates: { version: '0.2.0', metadata: { tier: 1 } } } },
  { id: 'c-bare', score: 8, category: 'docs', action: 'append_markdown_section', content: '## Caveats\n\nCheck every hash against the commit list.' },
];

// What each plan must make of the target, written out: the fragment is a part of it, never all of it.
const EXPECTED: Record<string, string> = {
  'c-append': `${TARGET}\n## Caveats\n\n- Never invent a version number.\n- Ask when the date is unknown.\n`,
  'c-replace': TARGET.replace('- Preparing release notes.', '- Preparing release notes or a changelog entry.'),
  'c-insert': TARGET.replace('## CLI', '## Design Notes\n\nNotes are grouped by kind of change.\n\n## CLI'),
  'c-frontmatter': TARGET.replace('  tier: 2\n', '  tier: 1\nversion: 0.2.0\n'),
  'c-bare': `${TARGET}\n## Caveats\n\nCheck every hash against the commit list.\n`,
};

function project(candidates: object[]): string {
  const dir = tempDir();
  write(join(dir, 'skill/SKILL.md'), TARGET);
  write(join(dir, 'skill/references/style.md'), 'Plain words.\n');
  write(join(dir, 'tasks.yaml'), SUITE);
  // echo-agent answers the same way every time: said, so one attempt per task decides (no rounds).
  write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}\nevaluate: {deterministic: true}\n`);
  write(join(dir, 'ranking.json'), JSON.stringify({ run_id: 'run-1', iteration: 1, target: { path: 'skill' }, scored_candidates: candidates }, null, 2));
  return dir;
}

const evaluate = (dir: string, id: string) => whet(['evaluate', '--input', 'ranking.json', '--candidate-id', id, '--task-suite', 'tasks.yaml', '--state-root', 'state', '--json'], { cwd: dir });

describe('evaluate: seed-shaped candidates', () => {
  it('evaluates the target with each plan applied, byte for byte what the gate promotes', async () => {
    const dir = project(CANDIDATES);
    for (const c of CANDIDATES) {
      const r = await evaluate(dir, c.id);
      expect(r.code, r.stderr).toBe(0);
      const a = JSON.parse(r.stdout);
      expect(a.candidate_source).toMatchObject({ kind: 'seed_plan', variant_path: `variants/${c.id}` });
      const variantDir = join(dir, 'state/runs/run-1/iter-001/variants', c.id);
      const variant = readFileSync(join(variantDir, 'SKILL.md'));
      expect(variant.toString('utf8')).toBe(EXPECTED[c.id]);
      // The skill's other files go with it; the suite does not.
      expect(readFileSync(join(variantDir, 'references/style.md'), 'utf8')).toBe('Plain words.\n');
      expect(existsSync(join(variantDir, 'tasks.yaml'))).toBe(false);
      expect(a.inputs.candidate).toBe(readSkill(variantDir).contentHash);
      // What the engine received: the echo agent answers with the skill it was given, then the prompt.
      const lines = readFileSync(join(dir, 'state/runs/run-1/iter-001/results', `${c.id}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { output: string });
      expect(lines).toHaveLength(2);
      for (const l of lines) expect(l.output.startsWith(`${variant.toString('utf8')}\n\n---\n\n`)).toBe(true);
      // Promotion (what the gate runs on keep) onto a copy of the target gives the same bytes.
      const promoted = join(tempDir(), 'skill');
      cpSync(join(dir, 'skill'), promoted, { recursive: true });
      await applyVariant({ stateDir: join(dir, 'state'), runId: `promote-${c.id}`, iteration: 1, targetDir: promoted, variantDir, now: new Date() });
      expect(readFileSync(join(promoted, 'SKILL.md')).equals(variant)).toBe(true);
    }
  });

  it('refuses a plan that cannot be applied or read, at its line, before the state dir exists', async () => {
    const cases: [object, RegExp][] = [
      [{ action: 'replace_markdown_section', section_heading: 'Nowhere', content_lines: ['x'] }, /ranking\.json:\d+:\d+ scored_candidates\[0\]\.execution_plan: replace_markdown_section cannot be applied to the target: replace_section: no section titled "Nowhere"/],
      [{ action: 'rewrite_everything', content: 'x' }, /ranking\.json:\d+:\d+ scored_candidates\[0\]\.execution_plan\.action: action "rewrite_everything" is not one of the seed's actions/],
      [{ action: 'insert_before_section', section_heading: 'CLI', content_lines: ['no heading here'] }, /execution_plan\.content_lines: insert_before_section content must start with the new section's heading/],
      [{ action: 'append_markdown_section', section_heading: 'A', content_lines: ['x'], content: 'y' }, /append_markdown_section has both content_lines and content/],
      [{ action: 'update_yaml_frontmatter' }, /update_yaml_frontmatter needs frontmatter_updates/],
      [{ action: 'append_markdown_section', content_lines: ['no heading'] }, /append_markdown_section needs section_heading/],
    ];
    for (const [plan, message] of cases) {
      const dir = project([{ id: 'c-1', score: 8, execution_plan: plan }]);
      const r = await evaluate(dir, 'c-1');
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(existsSync(join(dir, 'state'))).toBe(false);
    }
    // A plan next to a whole skill: which one is meant is not guessed.
    for (const key of ['skill_content', 'content']) {
      const dir = project([{ id: 'c-1', score: 8, [key]: TARGET, execution_plan: CANDIDATES[0]!.execution_plan }]);
      const r = await evaluate(dir, 'c-1');
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`carries both an edit plan and ${key}`);
      expect(existsSync(join(dir, 'state'))).toBe(false);
    }
  });

  it('uses evaluate.eval_thresholds by the candidate’s category, the single threshold for the rest', async () => {
    const dir = project(CANDIDATES.map((c) => ({ ...c, score: 6 })));
    write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}\nevaluate: {eval_threshold: 5.5, eval_thresholds: {docs: 5.0, prompt: 7.0}, deterministic: true}\n`);
    const prompt = JSON.parse((await evaluate(dir, 'c-frontmatter')).stdout);
    expect(prompt).toMatchObject({ verdict: 'skipped', eval_threshold: 7, eval_threshold_from: 'evaluate.eval_thresholds.prompt' });
    expect(prompt.reason).toBe('score 6 < threshold 7 (evaluate.eval_thresholds.prompt)');
    const docs = JSON.parse((await evaluate(dir, 'c-append')).stdout);
    expect(docs).toMatchObject({ verdict: 'pass', eval_threshold: 5, eval_threshold_from: 'evaluate.eval_thresholds.docs' });
    // A category with no threshold of its own uses the single one, and --eval-threshold replaces that.
    write(join(dir, 'ranking.json'), JSON.stringify({ run_id: 'run-2', target: { path: 'skill' }, scored_candidates: [{ ...CANDIDATES[0], id: 'c-other', category: 'examples', score: 6 }] }));
    const other = JSON.parse((await evaluate(dir, 'c-other')).stdout);
    expect(other).toMatchObject({ verdict: 'pass', eval_threshold: 5.5, eval_threshold_from: 'evaluate.eval_threshold' });
    const flagged = await whet(['evaluate', '--input', 'ranking.json', '--candidate-id', 'c-other', '--task-suite', 'tasks.yaml', '--state-root', 'state', '--json', '--eval-threshold', '6.5'], { cwd: dir });
    expect(JSON.parse(flagged.stdout)).toMatchObject({ verdict: 'skipped', eval_threshold: 6.5, eval_threshold_from: '--eval-threshold' });
  });
});
