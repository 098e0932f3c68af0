// Issue 41's first screens: a command that cannot start refuses before it creates anything (no run folder,
// nothing `whet status` would show as running), in `whet doctor`'s words; a folder with no pipeline.yaml
// names `whet init`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesBin, tempDir, whet, write } from '../support/cli.js';

function project(engine: string, extra = ''): string {
  const dir = tempDir();
  write(join(dir, 'skill/SKILL.md'), '---\nname: notes\ndescription: Writes release notes.\n---\n# Notes\n');
  write(join(dir, 'skill/tasks.yaml'), 'skill_id: notes\nversion: "1.0"\ntasks:\n  - {id: a, prompt: "notes", judge: {type: regex, pattern: "fake"}}\n');
  write(join(dir, 'pipeline.yaml'), `state_dir: state\nengine: ${engine}\ntargets:\n  - {skill: skill, suite: skill/tasks.yaml}\n${extra}`);
  return dir;
}
const evaluate = ['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill'];
/** A PATH with node (the fakes are node scripts) but no claude or codex. */
const noAgents = { ...process.env, PATH: '/usr/bin:/bin', OPENAI_API_KEY: '' };
const withFakes = { ...process.env, PATH: `${fixturesBin}:${process.env.PATH}` };

describe('an engine that cannot run is refused before anything is created', () => {
  const commands: [string, string[]][] = [
    ['whet run', ['run']],
    ['whet evaluate', evaluate],
    ['whet baseline', ['baseline']],
    ['whet nightly', ['nightly']],
  ];
  for (const [name, argv] of commands) {
    it(`${name}: a missing API key is exit 2 naming the variable, and no state directory`, async () => {
      const dir = project('{type: openai, model: m, base_url: "http://127.0.0.1:9/v1"}');
      const r = await whet(argv, { cwd: dir, env: noAgents });
      expect(r.stderr).toContain('[MISSING] engine (openai) key: OPENAI_API_KEY is not set in the environment (whetstone reads keys only from there)');
      expect(r.code).toBe(2);
      expect(existsSync(join(dir, 'state'))).toBe(false);
    });
    it(`${name}: claude not on PATH is exit 2 in doctor's words, and no state directory`, async () => {
      const dir = project('{type: claude}');
      const r = await whet(argv, { cwd: dir, env: noAgents });
      expect(r.stderr).toContain('[MISSING] engine (claude) program: claude is not on PATH (install it, or set the full path in pipeline.yaml)');
      expect(r.code).toBe(2);
      expect(existsSync(join(dir, 'state'))).toBe(false);
      // The same words `whet doctor` prints for it.
      expect((await whet(['doctor'], { cwd: dir, env: noAgents })).stdout).toContain('[MISSING] engine (claude) program: claude is not on PATH (install it, or set the full path in pipeline.yaml)');
    });
  }

  it('a malformed base_url is refused with its place before anything is created', async () => {
    const dir = project('{type: openai, model: m, base_url: "localhost:8080/v1"}');
    const r = await whet(['run'], { cwd: dir, env: { ...noAgents, OPENAI_API_KEY: 'k' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/pipeline\.yaml:2:\d+ engine\.base_url: /);
    expect(existsSync(join(dir, 'state'))).toBe(false);
  });

  it('a claude too old to know a flag whetstone passes is refused before the run, with the way out', async () => {
    const dir = project('{type: claude}');
    const r = await whet(['run'], { cwd: dir, env: { ...withFakes, FAKE_CLAUDE_HELP_OMIT: '--no-session-persistence' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/engine \(claude\) flags: claude --help does not list --no-session-persistence: this release is probably too old/);
    expect(existsSync(join(dir, 'state'))).toBe(false);
  });

  it('a judge engine is checked too, and the mock runs need no key', async () => {
    const dir = project('{type: mock}', 'judge_engine: {type: anthropic, model: m}\n');
    write(join(dir, 'skill/tasks.yaml'), 'skill_id: notes\nversion: "1.0"\ntasks:\n  - {id: a, prompt: "notes", judge: {type: llm-rubric, rubric: "is it good"}}\n');
    const r = await whet(evaluate, { cwd: dir, env: { ...noAgents, ANTHROPIC_API_KEY: '' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[MISSING] judge_engine (anthropic) key: ANTHROPIC_API_KEY is not set');
    expect(existsSync(join(dir, 'state'))).toBe(false);
    const mock = await whet([...evaluate, '--mock'], { cwd: dir, env: noAgents });
    expect(mock.stderr).not.toContain('MISSING');
    expect(existsSync(join(dir, 'state'))).toBe(true);
  });
});

describe('no pipeline.yaml here', () => {
  const message = 'no pipeline.yaml here: run `whet init`, or pass -c FILE';
  const commands: [string, string[]][] = [
    ['whet run', ['run']],
    ['whet run --mock', ['run', '--mock']],
    ['whet evaluate', evaluate],
    ['whet baseline', ['baseline']],
    ['whet nightly', ['nightly']],
    ['whet plan', ['plan']],
    ['whet schedule print', ['schedule', 'print']],
  ];
  for (const [name, argv] of commands) {
    it(`${name}: names whet init, exit 2, nothing written`, async () => {
      const dir = tempDir();
      write(join(dir, 'skill/SKILL.md'), '# S\n');
      write(join(dir, 'skill/tasks.yaml'), 'skill_id: s\nversion: "1.0"\ntasks:\n  - {id: a, prompt: "p", judge: {type: regex, pattern: "x"}}\n');
      const r = await whet(argv, { cwd: dir, env: noAgents });
      expect(r.stderr).toContain(message);
      expect(r.code).toBe(2);
      expect(existsSync(join(dir, 'state'))).toBe(false);
    });
  }
  it('whet doctor says it too', async () => {
    const r = await whet(['doctor'], { cwd: tempDir(), env: noAgents });
    expect(r.stdout).toContain(message);
    expect(r.code).toBe(1);
  });
});

describe("the starter's loop ends with its outcome, and the mock edits nothing of the author's", () => {
  it('whet init && whet run --mock: the last lines name the kept candidate, report.md decides in its first 15 lines, SKILL.md unchanged', async () => {
    const dir = tempDir();
    expect((await whet(['init'], { cwd: dir, env: noAgents })).code).toBe(0);
    const skillFile = join(dir, 'skills/meeting-notes/SKILL.md');
    const before = readFileSync(skillFile, 'utf8');
    const r = await whet(['run', '--mock'], { cwd: dir, env: noAgents });
    expect(r.code).toBe(0);
    const last = r.stdout.trimEnd().split('\n').slice(-3);
    expect(last.join('\n')).toMatch(/^kept 1 \(iteration 1: cand-01-[\w-]+\), applied to the mock run's copy state\/mock-copies\/[\w-]+\/meeting-notes\/SKILL\.md \(backup state\/backups\/[\w-]+\/iter-001\); stopped: plateau$/m);
    expect(last[2]).toBe("the mock engine is not a model (it answers by quoting the skill), so this run improved a copy: skills/meeting-notes/SKILL.md is unchanged; whet run --mock --apply lets a mock run edit it");
    expect(r.stderr).toMatch(/this run improves a copy of .*meeting-notes, which stays as it is \(--apply lets a mock run edit it\)/);
    expect(readFileSync(skillFile, 'utf8')).toBe(before);
    const runId = /evidence report: state\/runs\/([^/]+)\/report\.md/.exec(r.stdout)![1]!;
    const copy = readFileSync(join(dir, 'state/mock-copies', runId, 'meeting-notes/SKILL.md'), 'utf8');
    expect(copy).not.toBe(before);
    const head = readFileSync(join(dir, 'state/runs', runId, 'report.md'), 'utf8').split('\n').slice(0, 15).join('\n');
    expect(head).toMatch(/^## Decision$/m);
    expect(head).toMatch(/^Gate, iteration 1: \*\*KEEP\*\* `cand-01-[\w-]+` — held-out gain/m);

    // --apply: the keep edits the skill itself, and the last line says so.
    const applied = await whet(['run', '--mock', '--apply'], { cwd: dir, env: noAgents });
    expect(applied.code).toBe(0);
    const appliedLast = applied.stdout.trimEnd().split('\n').slice(-2);
    expect(appliedLast[0]).toMatch(/^kept 1 \(iteration 1: cand-01-[\w-]+\), applied to skills\/meeting-notes\/SKILL\.md \(backup state\/backups\/[\w-]+\/iter-001\); stopped: plateau$/);
    // Asked for, and said again where the keep is read: the mock's keep is template text.
    expect(appliedLast[1]).toMatch(/^the mock engine is not a model \(engine: mock, by --mock\): skills\/meeting-notes\/SKILL\.md has its template text because --apply asked for it; whet rollback [\w-]+ undoes it$/);
    expect(readFileSync(skillFile, 'utf8')).toBe(copy);
    // A second run finds nothing more to keep, and says the skill is unchanged.
    const again = await whet(['run', '--mock', '--apply'], { cwd: dir, env: noAgents });
    expect(again.stdout.trimEnd().split('\n').at(-1)).toMatch(/^kept nothing; skills\/meeting-notes\/SKILL\.md unchanged; stopped: /);
  });
});
