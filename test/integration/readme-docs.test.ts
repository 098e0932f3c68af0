// What the README promises and the code holds: `npm run demo` (the README's first command, after the
// install) runs the loop with the documented outcome, and the settings tables of the configuration
// reference and the structure dimensions of the loop guide are exactly the ones the code has, so the
// documentation cannot silently fall behind. (Every pipeline.yaml key, command and flag:
// reference-docs.test.ts.)
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropicEngineConfig, claudeEngineConfig, codexEngineConfig, openaiEngineConfig } from '../../src/config/engine-schema.js';
import { pipelineSchema } from '../../src/config/pipeline.js';
import { DIMENSION_RULES } from '../../src/skill/structure.js';
import { repoRoot } from '../support/cli.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const configuration = readFileSync(join(repoRoot, 'docs/reference/configuration.md'), 'utf8');
const loopGuide = readFileSync(join(repoRoot, 'docs/guides/running-the-loop.md'), 'utf8');

/** The text of a page from a heading to the next heading of the same or a higher level. */
function section(page: string, heading: string): string {
  const start = page.indexOf(`\n${heading}\n`);
  if (start < 0) return '';
  const level = heading.indexOf(' ');
  const rest = page.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level}} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
}

describe('README and the settings tables', () => {
  it('starts with the two commands: install and run the demo offline, and the whole test suite', () => {
    const first = /^```sh\n([\s\S]*?)```/m.exec(readme)?.[1] ?? '';
    expect(first.split('\n')[0]).toMatch(/^npm install && npm run demo\s+#/);
    expect(first.split('\n')[1]).toMatch(/^npm test\s+#/);
    expect(readme.indexOf('```sh')).toBeLessThan(readme.indexOf('\n## '));
  });

  it('npm run demo keeps one candidate on held-out evidence, rejects another, and stops on a plateau', () => {
    const r = spawnSync(process.execPath, [join(repoRoot, 'dist/scripts/demo.js')], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/gate: KEEP cand-\S+ — held-out gain \+0\.\d+ with no new failures/);
    expect(r.stdout).toMatch(/gate: REJECT cand-\S+ — held-out delta/);
    expect(r.stdout).toMatch(/run done: stopped by plateau/);
    // Every gate records the run-level claim (issue 38): each candidate at significance ÷ max_iterations.
    // On the mock engine the sign test is shown, not enforced: the demo flips one of five held-out tasks.
    const runs = join(repoRoot, 'state/demo/state/runs');
    const gate1 = JSON.parse(readFileSync(join(runs, readdirSync(runs)[0]!, 'iter-001/gate.json'), 'utf8'));
    expect(gate1.run_level).toMatchObject({ significance: 0.05, enforced: false });
    expect(gate1.run_level.per_candidate).toBeCloseTo(0.05 / gate1.run_level.max_iterations, 6);
    expect(gate1.checks.find((c: { id: string }) => c.id === 'significance').detail).toMatch(/one-sided exact sign test .* informational: the mock engine demonstrates the pipeline/);

    // It ends with the commands that show what it did, typed as printed from the repository root.
    const typed = [...r.stdout.matchAll(/^ {2}(node \S+ (status|show|report) -c \S+)/gm)].map((m) => ({ cmd: m[2]!, argv: m[1]!.split(' ') }));
    expect(typed.map((t) => t.cmd)).toEqual(['status', 'show', 'report']);
    const out: Record<string, string> = {};
    for (const t of typed) {
      const c = spawnSync(t.argv[0]!, t.argv.slice(1), { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
      expect(c.status, `${t.argv.join(' ')}: ${c.stderr}`).toBe(0);
      out[t.cmd] = c.stdout;
    }
    expect(out.status).toMatch(/loop\s+completed/);
    expect(out.status).toMatch(/decisions 1:keep/);
    expect(out.show).toMatch(/gate: KEEP cand-\S+/);
    expect(out.report).toMatch(/^# whetstone report — run `/m);
    expect(out.report).toMatch(/decision \*\*keep\*\*/);
    const reportFile = /^evidence report: (\S+)$/m.exec(r.stdout)?.[1];
    expect(reportFile && readFileSync(join(repoRoot, reportFile), 'utf8')).toMatch(/^# whetstone report/);
  });

  it('lists every loop setting and every structure dimension the code has', () => {
    const loop = pipelineSchema.shape.loop.unwrap();
    const keys = Object.keys(loop.shape);
    const table = section(configuration, '## `loop`');
    expect(table.length).toBeGreaterThan(0);
    for (const key of keys) expect(table, `loop.${key}`).toMatch(new RegExp(`\\| \`${key}[\`.]`));
    const dimensions = section(loopGuide, "## Structure dimensions and the discriminator's score");
    expect(dimensions.length).toBeGreaterThan(0);
    for (const id of Object.keys(DIMENSION_RULES)) expect(dimensions, id).toContain(`| \`${id}\``);
  });

  it('lists every claude and codex engine setting the code has', () => {
    const table = section(configuration, '### Agent CLI settings (`claude`, `codex`)');
    expect(table.length).toBeGreaterThan(0);
    for (const schema of [claudeEngineConfig, codexEngineConfig]) {
      for (const key of Object.keys(schema.shape).filter((k) => k !== 'type')) expect(table, key).toContain(`| \`${key}\``);
    }
  });

  it('lists every openai and anthropic engine setting the code has', () => {
    const table = section(configuration, '### HTTP engine settings (`openai`, `anthropic`)');
    expect(table.length).toBeGreaterThan(0);
    for (const schema of [openaiEngineConfig, anthropicEngineConfig]) {
      for (const key of Object.keys(schema.shape).filter((k) => k !== 'type')) expect(table, key).toContain(`| \`${key}\``);
    }
    // The ceiling the code applies when max_concurrency is not written is the one the table names.
    expect(table).toContain("| `max_concurrency` | both | the run's concurrency |");
  });

  it('lists every evaluate setting the code has', () => {
    const keys = Object.keys(pipelineSchema.shape.evaluate.unwrap().shape);
    const table = section(configuration, '## `evaluate`');
    expect(table.length).toBeGreaterThan(0);
    for (const key of keys) expect(table, `evaluate.${key}`).toContain(`| \`${key}\``);
  });
});
