// Config mistakes found before the run: an invalid enumeration in pipeline.yaml is exit 2 naming its
// file:line:col with nothing written; max_turns: 1 in installed mode is warned about before any task;
// `whet doctor` reports each agent CLI's version and whether it knows every flag whetstone passes.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesBin, tempDir, whet, write } from '../support/cli.js';

function project(pipeline: string): string {
  const dir = tempDir();
  write(join(dir, 'skill/SKILL.md'), '---\nname: notes\ndescription: Writes release notes.\n---\n# Notes\n');
  write(join(dir, 'skill/tasks.yaml'), 'skill_id: notes\nversion: "1.0"\ntasks:\n  - {id: a, prompt: "notes", judge: {type: regex, pattern: "fake"}}\n');
  write(join(dir, 'pipeline.yaml'), pipeline);
  return dir;
}
const args = ['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill'];
const env = { ...process.env, PATH: `${fixturesBin}:${process.env.PATH}` };

describe('enumerations in pipeline.yaml are checked at load', () => {
  const cases: [string, string, RegExp][] = [
    ['claude permission_mode', 'state_dir: state\nengine:\n  type: claude\n  permission_mode: acceptedits\n', /pipeline\.yaml:4:20 engine\.permission_mode: .*"acceptEdits"/],
    ['claude mode', 'state_dir: state\nengine: {type: claude, mode: install}\n', /pipeline\.yaml:2:\d+ engine\.mode: /],
    ['codex sandbox', 'state_dir: state\njudge_engine:\n  type: codex\n  sandbox: readonly\n', /pipeline\.yaml:4:12 judge_engine\.sandbox: .*"read-only"/],
    ['codex skill_delivery', 'state_dir: state\nengine:\n  type: codex\n  skill_delivery: instaled\n', /pipeline\.yaml:4:19 engine\.skill_delivery: .*"installed"/],
    ['claude setting_sources', 'state_dir: state\nengine:\n  type: claude\n  setting_sources: [user, global]\n', /pipeline\.yaml:4:27 engine\.setting_sources\[1\]: .*"project"/],
  ];
  for (const [what, yaml, expected] of cases) {
    it(`${what}: exit 2 with the position, state directory untouched`, async () => {
      const dir = project(yaml);
      const r = await whet(args, { cwd: dir, env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(expected);
      expect(existsSync(join(dir, 'state'))).toBe(false);
    });
  }
});

describe('settings that load but cannot work are said before the run', () => {
  it('max_turns: 1 with installed mode: a warning naming the field, before any task runs', async () => {
    const dir = project('state_dir: state\nengine: {type: claude, mode: installed, max_turns: 1}\n');
    const r = await whet([...args, '--json'], { cwd: dir, env: { ...env, FAKE_CLAUDE_MODE: 'stream' } });
    expect(r.stderr).toMatch(/whet: warning: .*pipeline\.yaml: engine\.max_turns: 1 with mode: installed leaves no turn for the answer \(invoking the skill takes one\); use max_turns: 2 or more/);
    const doctor = await whet(['doctor'], { cwd: dir, env });
    expect(doctor.stdout).toMatch(/\[MISSING\] engine \(claude\) config: engine\.max_turns: 1 with mode: installed/);
  });
});

describe('whet doctor and the flags whetstone passes', () => {
  it('reports each CLI’s version and that it knows every flag; a release without one is caught, with the way out', async () => {
    const dir = project('engine: {type: claude, mode: installed}\njudge_engine: {type: codex, sandbox: read-only}\n');
    const ok = await whet(['doctor'], { cwd: dir, env });
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.stdout).toMatch(/\[ok\] engine \(claude\) program: .*\/claude \(2\.1\.44 \(Claude Code\)\)/);
    expect(ok.stdout).toMatch(/\[ok\] engine \(claude\) flags: supports every flag whetstone passes \(--output-format --verbose --no-session-persistence --allowedTools --setting-sources\)/);
    expect(ok.stdout).toMatch(/\[ok\] judge_engine \(codex\) flags: supports every flag whetstone passes \(--json --skip-git-repo-check --ephemeral --sandbox\)/);
    const old = await whet(['doctor'], { cwd: dir, env: { ...env, FAKE_CLAUDE_HELP_OMIT: '--no-session-persistence,--setting-sources', FAKE_CODEX_HELP_OMIT: '--ephemeral', FAKE_CLAUDE_VERSION: '1.0.30' } });
    expect(old.code).toBe(1);
    expect(old.stdout).toMatch(/\[ok\] engine \(claude\) program: .*\(1\.0\.30 \(Claude Code\)\)/);
    expect(old.stdout).toMatch(/\[MISSING\] engine \(claude\) flags: claude --help does not list --no-session-persistence, --setting-sources: this release is probably too old \(upgrade it; or session_persistence: true leaves the session flag out; or user_setup: true leaves --setting-sources out \(and lets the user's own settings in\)\)/);
    expect(old.stdout).toMatch(/\[MISSING\] judge_engine \(codex\) flags: codex exec --help does not list --ephemeral/);
  });
});
