// The claude engine in installed mode, against the fake `claude` (test/fixtures/bin, first on PATH): the skill
// folder placed where Claude Code discovers project skills, the stream-json output read, the Skill tool call
// detected — and the HOME side (a fake ~/.claude with a personal skill) left exactly as it was.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { createClaudeEngine } from '../../src/engines/claude.js';
import type { ClaudeEngineConfig } from '../../src/config/engine-schema.js';
import type { EngineRequest } from '../../src/engines/types.js';
import type { SkillInput } from '../../src/skill/read.js';
import { tempDir } from '../support/temp.js';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/bin');
const TMP = realpathSync(tmpdir());
// Unique, so a check of the real ~/.claude/skills cannot be confused by anything already there.
const NAME = `whet-installed-${process.pid}`;

interface SkillListing {
  name: string;
  files: string[];
  skill_md?: string | null;
}
interface LogEntry {
  mode: string;
  argv: string[];
  cwd: string;
  stdin: string;
  home: string | null;
  project_skills: SkillListing[] | null;
  home_skills: SkillListing[] | null;
  loaded_skills: string[];
}

let scratch: string;
let skillDir: string;
let fakeHome: string;
let logFile: string;
let counter = 0;

/** Every file under `dir` with its size, mtime and content: any write shows up as a difference. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    out[`${d}/`] = `dir:${statSync(d).mtimeMs}`;
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out[p] = `${st.size}:${st.mtimeMs}:${readFileSync(p, 'utf8')}`;
    }
  };
  walk(dir);
  return out;
}

function readLog(): LogEntry[] {
  if (!existsSync(logFile)) return [];
  return readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogEntry);
}

function engine(over: Partial<ClaudeEngineConfig> = {}) {
  const env = { ...process.env, PATH: `${BIN}${delimiter}${process.env['PATH'] ?? ''}`, HOME: fakeHome, FAKE_CLAUDE_LOG: logFile };
  return { run: (mode: string, r: EngineRequest, extra: Record<string, string> = {}) => createClaudeEngine({ type: 'claude', mode: 'installed', ...over }, { env: { ...env, FAKE_CLAUDE_MODE: mode, ...extra } }).run(r) };
}

const skillText = `---\nname: ${NAME}\ndescription: Writes release notes. Use when asked for release notes.\n---\n# Release notes\nSee references/style.md.\n`;
function req(over: Partial<EngineRequest> = {}): EngineRequest {
  const skill: SkillInput = { name: NAME, text: skillText, dir: skillDir };
  return { kind: 'task', prompt: 'Write release notes for: fix login bug', skill, taskId: 'task-1', timeoutMs: 15_000, ...over };
}

beforeAll(() => {
  scratch = tempDir('whet-installed-test-');
  skillDir = join(scratch, 'skill-src');
  mkdirSync(join(skillDir, 'references'), { recursive: true });
  mkdirSync(join(skillDir, 'scripts'), { recursive: true });
  mkdirSync(join(skillDir, '.git'), { recursive: true });
  writeFileSync(join(skillDir, 'SKILL.md'), 'the ON-DISK text, which must not be what is installed\n');
  writeFileSync(join(skillDir, 'references', 'style.md'), 'Group by type.\n');
  writeFileSync(join(skillDir, 'scripts', 'lint.sh'), '#!/bin/sh\necho ok\n');
  writeFileSync(join(skillDir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  fakeHome = join(scratch, 'home');
  mkdirSync(join(fakeHome, '.claude', 'skills', 'personal-skill'), { recursive: true });
  writeFileSync(join(fakeHome, '.claude', 'skills', 'personal-skill', 'SKILL.md'), '---\nname: personal-skill\n---\nmine\n');
  writeFileSync(join(fakeHome, '.claude', 'settings.json'), '{"model":"opus"}\n');
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});
beforeEach(() => {
  logFile = join(scratch, `log-${++counter}.jsonl`);
});

describe('claude installed mode: placing the skill', () => {
  it('runs claude -p --output-format stream-json --verbose with the configured flags, prompt only on stdin', async () => {
    const r = await engine({ model: 'sonnet', max_turns: 5, permission_mode: 'acceptEdits', allowed_tools: ['Read', 'Bash(git diff:*)'], extra_args: ['--debug'] }).run('stream', req());
    expect(r.error).toBeUndefined();
    const [e] = readLog();
    expect(e?.argv).toEqual([
      '-p', '--output-format', 'stream-json', '--verbose', '--no-session-persistence', '--model', 'sonnet', '--max-turns', '5',
      '--permission-mode', 'acceptEdits', '--allowedTools', 'Read,Bash(git diff:*),Skill', '--setting-sources', 'project', '--debug',
    ]);
    expect(e?.stdin).toBe('Write release notes for: fix login bug');
  });

  it('puts the skill folder under <workspace>/.claude/skills/<name>/ with the text under test as SKILL.md', async () => {
    await engine().run('stream', req());
    const [e] = readLog();
    expect(dirname(e?.cwd ?? '')).toBe(TMP);
    expect(basename(e?.cwd ?? '')).toMatch(/^whet-claude-/);
    expect(e?.project_skills).toEqual([{ name: NAME, files: ['SKILL.md', 'references/style.md', 'scripts/lint.sh'], skill_md: skillText }]);
    expect(existsSync(e?.cwd ?? '/')).toBe(false);
  });

  it('never touches the HOME side: the fake ~/.claude is byte-for-byte and mtime-for-mtime unchanged', async () => {
    const before = snapshot(fakeHome);
    const r = await engine().run('stream', req());
    expect(r.ok).toBe(true);
    const [e] = readLog();
    expect(e?.home).toBe(fakeHome);
    expect(e?.home_skills).toEqual([{ name: 'personal-skill', files: ['SKILL.md'] }]);
    expect(snapshot(fakeHome)).toEqual(before);
    expect(existsSync(join(fakeHome, '.claude', 'projects'))).toBe(false);
    expect(existsSync(join(homedir(), '.claude', 'skills', NAME))).toBe(false);
  });

  it('the fake is a real witness: without --no-session-persistence it saves the transcript under HOME', () => {
    const cwd = join(scratch, 'witness');
    mkdirSync(cwd, { recursive: true });
    const env = { ...process.env, HOME: fakeHome, FAKE_CLAUDE_MODE: 'ok' };
    spawnSync(join(BIN, 'claude'), ['-p', '--output-format', 'json'], { cwd, env, input: 'hi' });
    const slug = cwd.replace(/[^a-zA-Z0-9]/g, '-');
    expect(readdirSync(join(fakeHome, '.claude', 'projects', slug))).toEqual(['0e639165-79b1-4bd4-bb0f-4cb4c15115d4.jsonl']);
    rmSync(join(fakeHome, '.claude', 'projects'), { recursive: true });
  });

  it("keeps the user's own ~/.claude skills out of the run unless setting_sources lets them in", async () => {
    const isolated = await engine().run('stream', req());
    const opened = await engine({ setting_sources: ['user', 'project', 'local'] }).run('stream', req());
    expect(isolated.skill_triggered).toBe(true);
    expect(opened.skill_triggered).toBe(true);
    const [a, b] = readLog();
    expect(a?.argv).toContain('--setting-sources');
    expect(a?.loaded_skills).toEqual([NAME]);
    expect(b?.argv.slice(b.argv.indexOf('--setting-sources'))).toEqual(['--setting-sources', 'user,project,local']);
    expect(b?.loaded_skills).toEqual([NAME, 'personal-skill']);
    // Without the project source Claude Code would not see the skill under test at all (the config refuses
    // that combination; the fake shows what would happen).
    const blind = await engine({ setting_sources: ['user'] }).run('stream', req());
    expect(blind.skill_triggered).toBe(false);
  });

  it('a skill without a folder installs just its SKILL.md; no skill installs nothing', async () => {
    await engine().run('stream', req({ skill: { name: NAME, text: skillText } }));
    const { skill: _none, ...noSkill } = req();
    const r = await engine().run('stream', noSkill);
    const [withText, without] = readLog();
    expect(withText?.project_skills).toEqual([{ name: NAME, files: ['SKILL.md'], skill_md: skillText }]);
    expect(without?.project_skills).toBeNull();
    expect(r.skill_triggered).toBeUndefined();
  });

  it('refuses a skill name that would leave .claude/skills, before running anything', async () => {
    const r = await engine().run('stream', req({ skill: { name: '../../evil', text: 'x' } }));
    expect(r).toMatchObject({ ok: false, error: { kind: 'spawn' } });
    expect(r.error?.message).toContain('../../evil');
    expect(readLog()).toEqual([]);
  });
});

describe('claude installed mode: reading the stream', () => {
  it('triggered: result, usage, cost, every tool call, and skill_triggered true', async () => {
    const r = await engine().run('stream', req(), { FAKE_CLAUDE_RESULT: '## Fixes\n- login' });
    expect(r).toMatchObject({
      ok: true,
      output: '## Fixes\n- login',
      usage: { input_tokens: 3 + 1200 + 15635, output_tokens: 6, cost_usd: 0.0079825 },
      skill_triggered: true,
    });
    expect(r.tool_calls).toEqual([
      { id: 'toolu_01SKILL', name: 'Skill', input: { skill: NAME } },
      { id: 'toolu_02READ', name: 'Read', input: { file_path: `.claude/skills/${NAME}/references/style.md` } },
    ]);
  });

  it('not triggered: skill_triggered false, tool calls still reported', async () => {
    const r = await engine().run('stream_no_trigger', req());
    expect(r).toMatchObject({ ok: true, output: 'fake answer', skill_triggered: false });
    expect(r.tool_calls?.map((t) => t.name)).toEqual(['Bash']);
  });

  it('a Skill call naming another skill does not count', async () => {
    const r = await engine().run('stream', req(), { FAKE_CLAUDE_SKILL: 'some-other-skill' });
    expect(r.skill_triggered).toBe(false);
    expect(r.tool_calls?.[0]).toMatchObject({ name: 'Skill', input: { skill: 'some-other-skill' } });
  });

  it('a refused Skill call is skill_denied, not a trigger; with no allowed_tools Skill is still pre-approved', async () => {
    const denied = await engine().run('stream', req(), { FAKE_CLAUDE_DENY_SKILL: '1' });
    expect(denied).toMatchObject({ ok: true, skill_triggered: false, skill_denied: true });
    expect(denied.tool_calls?.map((t) => t.name)).toEqual(['Skill']);
    // The fake refuses a Skill call that --allowedTools does not pre-approve, as headless mode cannot ask.
    const allowed = await engine().run('stream', req());
    expect(allowed).toMatchObject({ ok: true, skill_triggered: true });
    expect(allowed).not.toHaveProperty('skill_denied');
    expect(readLog()[1]?.argv.slice(-4)).toEqual(['--allowedTools', 'Skill', '--setting-sources', 'project']);
  });

  it('error_max_turns after triggering: exit error, and still says the skill was triggered', async () => {
    const r = await engine({ max_turns: 2 }).run('stream_max_turns', req());
    expect(r).toMatchObject({ ok: false, skill_triggered: true, error: { kind: 'exit' } });
    expect(r.error?.message).toContain('error_max_turns');
  });

  it('garbage (no result message): parse error quoting the bad line', async () => {
    const r = await engine().run('stream_garbage', req());
    expect(r).toMatchObject({ ok: false, error: { kind: 'parse' } });
    expect(r.error?.message).toContain('Welcome to Claude Code!');
  });

  it('exit 1 and timeouts stay errors of their kind', async () => {
    const failed = await engine().run('exit1', req());
    expect(failed.error?.kind).toBe('exit');
    expect(failed.error?.message).toContain('Invalid API key');
    const hung = await engine().run('hang', req({ timeoutMs: 1500 }));
    expect(hung.error?.kind).toBe('timeout');
  });
});
