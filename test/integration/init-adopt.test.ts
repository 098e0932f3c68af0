// `whet init` in a folder that already holds a skill targets it (issue 40, item 5): a skill-creator skill
// with evals/evals.json and a trigger set, `--skill DIR`, and the starter only for a folder with none.
import { describe, expect, it } from 'vitest';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPipeline } from '../../src/config/pipeline.js';
import { expandTargets } from '../../src/config/targets.js';
import { fixturesBin, repoRoot, tempDir, whet, write } from '../support/cli.js';

const noAgents = { ...process.env, PATH: '/nonexistent' };

function skillCreatorRepo(): string {
  const dir = tempDir('whet-init-adopt-');
  cpSync(join(repoRoot, 'test/fixtures/evals-json/canonical'), join(dir, 'skills/csv-summary'), { recursive: true });
  write(join(dir, 'skills/csv-summary/evals/trigger_evals.json'), JSON.stringify([{ query: 'summarise this CSV export', should_trigger: true }, { query: 'write a haiku', should_trigger: false }]));
  write(join(dir, 'skills/csv-summary/evals/metrics.json'), '{"not": "a suite"}');
  return dir;
}

describe('whet init adopts the skills already there', () => {
  it('targets a skill-creator skill and its evals.json, writes no starter, and its evals.json lints with exit 0', async () => {
    const dir = skillCreatorRepo();
    const r = await whet(['init'], { cwd: dir, env: noAgents });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/targeting skills\/csv-summary with skills\/csv-summary\/evals\/evals\.json, skills\/csv-summary\/evals\/trigger_evals\.json/);
    expect(existsSync(join(dir, 'skills/meeting-notes'))).toBe(false);
    const yaml = readFileSync(join(dir, 'pipeline.yaml'), 'utf8');
    // No agent CLI: the trigger set is written out, commented, with the engine it needs; the mock's limits said.
    expect(yaml).toMatch(/# {3}suite: skills\/csv-summary\/evals\/trigger_evals\.json/);
    expect(yaml).toMatch(/# judge_engine:/);
    const cfg = await loadPipeline(join(dir, 'pipeline.yaml'), dir);
    expect(expandTargets(cfg).map((t) => [t.skillDir, t.suitePath])).toEqual([[join(dir, 'skills/csv-summary'), join(dir, 'skills/csv-summary/evals/evals.json')]]);
    const lint = await whet(['lint', 'skills/csv-summary/evals/evals.json'], { cwd: dir });
    expect(lint.code, lint.stdout + lint.stderr).toBe(0);
  });

  it('with claude on PATH the trigger set is a target of its own on the installed-mode engine', async () => {
    const dir = skillCreatorRepo();
    expect((await whet(['init'], { cwd: dir, env: { ...process.env, PATH: `${fixturesBin}:${process.env.PATH}` } })).code).toBe(0);
    const cfg = await loadPipeline(join(dir, 'pipeline.yaml'), dir);
    expect(expandTargets(cfg).map((t) => [t.suitePath.slice(dir.length + 1), t.engine ?? null])).toEqual([
      ['skills/csv-summary/evals/evals.json', null],
      ['skills/csv-summary/evals/trigger_evals.json', { type: 'claude', mode: 'installed' }],
    ]);
  });

  it('--skill names the one to adopt; a folder that is itself a skill is refused; an empty folder gets the starter', async () => {
    const dir = skillCreatorRepo();
    cpSync(join(repoRoot, 'test/fixtures/evals-json/expected-only'), join(dir, 'other/summary'), { recursive: true });
    const r = await whet(['init', '--skill', 'other/summary'], { cwd: dir, env: noAgents });
    expect(r.code, r.stderr).toBe(0);
    const cfg = await loadPipeline(join(dir, 'pipeline.yaml'), dir);
    expect(expandTargets(cfg).map((t) => t.skillDir)).toEqual([join(dir, 'other/summary')]);
    const missing = await whet(['init', 'fresh', '--skill', 'nowhere'], { cwd: dir, env: noAgents });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--skill nowhere: no SKILL\.md/);
    expect(existsSync(join(dir, 'fresh/pipeline.yaml'))).toBe(false);
    const inside = await whet(['init'], { cwd: join(dir, 'skills/csv-summary'), env: noAgents });
    expect(inside.code).toBe(2);
    expect(inside.stderr).toMatch(/is a skill folder .*whet init \.\. --skill csv-summary/);
    const empty = tempDir();
    expect((await whet(['init'], { cwd: empty, env: noAgents })).code).toBe(0);
    expect(existsSync(join(empty, 'skills/meeting-notes/SKILL.md'))).toBe(true);
  });
});
