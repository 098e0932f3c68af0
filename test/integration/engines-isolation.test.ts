// Isolation from the user's own setup: both CLIs' fakes (test/fixtures/bin/claude and codex, which read
// the user-level files the real CLIs read and write sessions where the real CLIs do) run under a
// temporary HOME full of the user's own configuration. By default nothing of it reaches the run, nothing
// is written under HOME, the login still works, and run.json records `isolation: isolated`; with
// `user_setup: true` the user's setup is let in, and recorded as `isolation: user`.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesBin, readJson, snapshotTree, tempDir, whet, write } from '../support/cli.js';

function userHome(): string {
  const home = tempDir('whet-home-');
  write(join(home, '.codex/config.toml'), 'model = "o3"\n[mcp_servers.secret]\ncommand = "x"\n');
  write(join(home, '.codex/AGENTS.md'), '# Always answer in French\n');
  write(join(home, '.codex/skills/user-codex-skill/SKILL.md'), '---\nname: user-codex-skill\ndescription: mine\n---\n');
  write(join(home, '.codex/auth.json'), '{"OPENAI_API_KEY":null,"tokens":{"access_token":"not-a-real-token"}}\n');
  write(join(home, '.claude/CLAUDE.md'), '# Always answer in French\n');
  write(join(home, '.claude/skills/user-claude-skill/SKILL.md'), '---\nname: user-claude-skill\ndescription: mine\n---\n');
  write(join(home, '.claude/settings.json'), '{"hooks":{}}\n');
  return home;
}

/** Every file under HOME with its content and mtime: what "nothing was written" is checked against. */
function fingerprint(home: string): Record<string, string> {
  const tree = snapshotTree(home);
  return Object.fromEntries(Object.entries(tree).map(([rel, b64]) => [rel, `${b64}@${statSync(join(home, rel)).mtimeMs}`]));
}

function project(engine: string): string {
  const dir = tempDir();
  write(join(dir, 'skill/SKILL.md'), '---\nname: notes\ndescription: Writes release notes.\n---\n# Notes\n');
  write(join(dir, 'skill/tasks.yaml'), 'skill_id: notes\nversion: "1.0"\ntasks:\n  - {id: a, prompt: "release notes", judge: {type: regex, pattern: "fake"}}\n  - {id: b, prompt: "more notes", judge: {type: regex, pattern: "fake"}}\n');
  write(join(dir, 'pipeline.yaml'), `engine: ${engine}\n`);
  return dir;
}

const args = ['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', '--json', '--force'];
const lines = (f: string) => readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);

async function evaluate(engine: string, home: string, extra: Record<string, string>) {
  const dir = project(engine);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, PATH: `${fixturesBin}:${process.env.PATH}`, FAKE_CLAUDE_LOG: join(dir, 'claude.log'), FAKE_CODEX_LOG: join(dir, 'codex.log'), ...extra };
  // The user's CODEX_HOME is HOME/.codex here, as for most users.
  delete env['CODEX_HOME'];
  const r = await whet(args, { cwd: dir, env });
  expect(r.code, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout);
  expect(out.evaluation).toMatchObject({ passed: 2, errors: 0 });
  return { dir, manifest: readJson(join(dir, 'state/runs', out.run_id, 'run.json')) };
}

describe('isolation from the user’s own setup (temporary HOME)', () => {
  it('codex and claude, every skill delivery: nothing of ~/.codex or ~/.claude takes part, nothing is written under HOME, the login still works', async () => {
    const home = userHome();
    const before = fingerprint(home);
    for (const delivery of ['agents_md', 'installed']) {
      const { dir, manifest } = await evaluate(`{type: codex, skill_delivery: ${delivery}}`, home, { FAKE_CODEX_MODE: delivery === 'installed' ? 'skill_read' : 'ok' });
      expect(manifest.engine).toMatchObject({ type: 'codex', isolation: 'isolated' });
      for (const e of lines(join(dir, 'codex.log'))) {
        expect(e.argv).toContain('--ephemeral');
        expect(e.codex_home.startsWith(home)).toBe(false);
        expect(e.user_config).toBeNull();
        expect(e.user_agents_md).toBeNull();
        expect(e.auth_json).toBe(true);
        expect(e.skills.map((s: any) => s.name)).toEqual(delivery === 'installed' ? ['notes'] : []);
      }
    }
    for (const mode of ['prepend', 'installed']) {
      const { dir, manifest } = await evaluate(`{type: claude, mode: ${mode}}`, home, { FAKE_CLAUDE_MODE: mode === 'installed' ? 'stream' : 'ok' });
      expect(manifest.engine).toMatchObject({ type: 'claude', isolation: 'isolated', setting_sources: ['project'] });
      for (const e of lines(join(dir, 'claude.log'))) {
        expect(e.home).toBe(home);
        expect(e.argv.slice(e.argv.indexOf('--setting-sources'), e.argv.indexOf('--setting-sources') + 2)).toEqual(['--setting-sources', 'project']);
        expect(e.argv).toContain('--no-session-persistence');
        expect(e.loaded_skills).toEqual(mode === 'installed' ? ['notes'] : []);
      }
    }
    expect(fingerprint(home)).toEqual(before);
  }, 120_000);

  it('user_setup: true lets the user’s setup in, and run.json says so; the fakes are real witnesses of what isolation keeps out', async () => {
    const home = userHome();
    const codex = await evaluate('{type: codex, skill_delivery: installed, user_setup: true}', home, { FAKE_CODEX_MODE: 'skill_no_read' });
    expect(codex.manifest.engine).toMatchObject({ isolation: 'user' });
    const [c] = lines(join(codex.dir, 'codex.log'));
    expect(c?.codex_home).toBe(join(home, '.codex'));
    expect(c?.user_agents_md).toBe('# Always answer in French\n');
    expect(c?.skills.map((s: any) => s.name)).toEqual(['notes', 'user-codex-skill']);
    const claude = await evaluate('{type: claude, mode: installed, user_setup: true}', home, { FAKE_CLAUDE_MODE: 'stream' });
    expect(claude.manifest.engine).toMatchObject({ isolation: 'user' });
    expect(claude.manifest.engine).not.toHaveProperty('setting_sources');
    expect(lines(join(claude.dir, 'claude.log'))[0]?.loaded_skills).toEqual(['notes', 'user-claude-skill']);
    // Without --ephemeral / --no-session-persistence the fakes write sessions under HOME, as the CLIs do.
    const before = fingerprint(home);
    await evaluate('{type: codex, user_setup: true, session_persistence: true}', home, { FAKE_CODEX_MODE: 'ok' });
    await evaluate('{type: claude, session_persistence: true}', home, { FAKE_CLAUDE_MODE: 'ok' });
    const written = Object.keys(fingerprint(home)).filter((k) => !(k in before));
    expect(written.some((k) => k.startsWith('.codex/sessions/'))).toBe(true);
    expect(written.some((k) => k.startsWith('.claude/projects/'))).toBe(true);
  }, 120_000);
});
