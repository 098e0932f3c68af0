import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { chmodSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeServer, listenLoopback, refusedUrl } from '../support/http/server.js';
import { fixturesBin, tempDir, whet, write } from '../support/cli.js';

describe('whet init', () => {
  it('writes a config for the agent CLI it finds, or the mock engine, and keeps .gitignore', async () => {
    const withClaude = tempDir();
    const r = await whet(['init'], { cwd: withClaude, env: { ...process.env, PATH: `${fixturesBin}:${process.env.PATH}` } });
    expect(r.code).toBe(0);
    expect(readFileSync(join(withClaude, 'pipeline.yaml'), 'utf8')).toMatch(/engine:\n  type: claude/);
    const bare = tempDir();
    write(join(bare, '.gitignore'), 'node_modules/');
    expect((await whet(['init'], { cwd: bare, env: { ...process.env, PATH: '/nonexistent' } })).code).toBe(0);
    expect(readFileSync(join(bare, 'pipeline.yaml'), 'utf8')).toMatch(/engine:\n  type: mock/);
    expect(readFileSync(join(bare, '.gitignore'), 'utf8')).toBe('node_modules/\n# whetstone state (runs, cache, backups)\nstate/\n');
    const again = await whet(['init'], { cwd: bare });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/pipeline\.yaml already exists/);
    // What init wrote runs as it is.
    const ev = await whet(['evaluate', '--standalone', '--task-suite', 'skills/meeting-notes/tasks.yaml', '--skill-path', 'skills/meeting-notes', '--json'], { cwd: bare });
    expect(JSON.parse(ev.stdout).evaluation.total_tasks).toBe(6);
  });

  it('into another folder, prints the next commands with that folder\'s config, and they run as printed', async () => {
    const dir = tempDir();
    const r = await whet(['init', 'evals'], { cwd: dir, env: { ...process.env, PATH: '/nonexistent' } });
    expect(r.code, r.stderr).toBe(0);
    const typed = [...r.stdout.matchAll(/^ {2}whet (.+?)(?:\s+#.*)?$/gm)].map((m) => m[1]!.trim().split(/\s+/));
    expect(typed).toEqual([
      ['lint', 'evals/skills/meeting-notes/tasks.yaml'],
      ['plan', '--mock', '-c', 'evals/pipeline.yaml'],
      ['run', '--mock', '-c', 'evals/pipeline.yaml'],
      ['report', '-c', 'evals/pipeline.yaml'],
      ['schedule', 'print', '--via', 'github', '--package', '<spec>', '-c', 'evals/pipeline.yaml'],
    ]);
    // The project lists no whetstone: the workflow needs the spec its job installs, here a tarball committed
    // to the project (issue 39: never a registry name whetstone is not published under).
    write(join(dir, 'evals', 'vendor', 'whetstone-0.1.0.tgz'), 'packed');
    for (const args of typed.map((a) => a.map((w) => (w === '<spec>' ? 'evals/vendor/whetstone-0.1.0.tgz' : w)))) {
      const out = await whet(args, { cwd: dir });
      expect(out.code, `whet ${args.join(' ')}: ${out.stderr}`).toBe(0);
    }
  }, 60_000);

  it('the first init && run --mock in an empty folder reaches a gate decision on held-out tasks, with a rule a person would write', async () => {
    const dir = tempDir();
    const init = await whet(['init'], { cwd: dir, env: { ...process.env, PATH: '/nonexistent' } });
    expect(init.stdout).toMatch(/the starter suite holds out 3 of its tasks: enough for a first decision, far from enough for a real one \(whet plan says how many/);
    expect(readFileSync(join(dir, 'skills/meeting-notes/tasks.yaml'), 'utf8')).toMatch(/takes tens of held-out tasks \(about 40 at these pass rates/);
    const r = await whet(['run', '--mock'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\[ok\] holdout_present: 3 held-out task\(s\) measured on both/);
    expect(r.stdout).toMatch(/gate: KEEP cand-01-guidance-for-action-items-requests — held-out gain \+0\.3333 with no new failures/);
    // The mock is not a model: its keep went to a copy in the state directory (issue 41), the starter is as init wrote it.
    const copy = /applied to the mock run's copy (\S+\/SKILL\.md)/.exec(r.stdout)?.[1];
    expect(copy).toMatch(/^state\/mock-copies\/[\w-]+\/meeting-notes\/SKILL\.md$/);
    const skill = readFileSync(join(dir, copy!), 'utf8');
    expect(skill).toContain('- When a meeting notes request involves action items, give action items a section of its own, titled Action items,');
    expect(skill).not.toMatch(/my skill|basics/);
    expect(readFileSync(join(dir, 'skills/meeting-notes/SKILL.md'), 'utf8')).not.toContain('When a meeting notes request involves action items');
  }, 60_000);

  it('stops the loop after a baseline below evaluate.baseline_min_pass_rate, before generate', async () => {
    const dir = tempDir();
    await whet(['init'], { cwd: dir, env: { ...process.env, PATH: '/nonexistent' } });
    write(join(dir, 'pipeline.yaml'), `${readFileSync(join(dir, 'pipeline.yaml'), 'utf8')}evaluate:\n  baseline_min_pass_rate: 0.9\n`);
    const r = await whet(['run', '--mock'], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/baseline pass rate 0\.5000 < evaluate\.baseline_min_pass_rate 0\.9: the task suite \(or the skill\) is probably broken; nothing was generated/);
    const runs = join(dir, 'state/runs');
    const iter = join(runs, readdirSync(runs)[0]!, 'iter-001');
    expect(readdirSync(iter).filter((f) => f.endsWith('.json'))).toEqual(['baseline.json']);
    expect(JSON.parse(readFileSync(join(iter, 'baseline.json'), 'utf8'))).toMatchObject({ verdict: 'error', next_step: 'abort' });
  }, 60_000);
});

describe('whet doctor', () => {
  it('says exactly what is missing, and never prints a key', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"no key"}}');
    });
    const port = new URL(await listenLoopback(server)).port;
    try {
      const dir = tempDir();
      write(
        join(dir, 'pipeline.yaml'),
        `engine: {type: command, command: ["no-such-agent"]}\njudge_engine: {type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}\n`,
      );
      const r = await whet(['doctor'], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/\[MISSING\] engine \(command\) program: no-such-agent is not on PATH/);
      expect(r.stdout).toMatch(/\[ok\] judge_engine \(command\) program: .*echo-agent/);
      const secret = 'sk-test-very-secret-123';
      const cfg = `engine: {type: mock}\njudge_engine: {type: openai, model: gpt-x, base_url: "http://127.0.0.1:${port}/v1", api_key_env: DOCTOR_KEY}\n`;
      write(join(dir, 'pipeline.yaml'), cfg);
      const missingKey = await whet(['doctor', '--json'], { cwd: dir, env: { ...process.env, DOCTOR_KEY: '' } });
      const findings = JSON.parse(missingKey.stdout);
      expect(findings).toContainEqual(expect.objectContaining({ check: 'key', ok: false, detail: 'DOCTOR_KEY is not set in the environment (whetstone reads keys only from there)' }));
      expect(findings).toContainEqual(expect.objectContaining({ check: 'endpoint', ok: true }));
      const withKey = await whet(['doctor'], { cwd: dir, env: { ...process.env, DOCTOR_KEY: secret } });
      expect(withKey.stdout).toMatch(/\[ok\] judge_engine \(openai\) key: DOCTOR_KEY is set/);
      expect(withKey.stdout + withKey.stderr).not.toContain(secret);
    } finally {
      await closeServer(server);
    }
  });

  it('shows the agent CLIs\' real version lines and says why an endpoint is unreachable', async () => {
    // A port that was just free: nothing listens there any more, so connecting is refused.
    const port = new URL(await refusedUrl()).port;
    const dir = tempDir();
    write(
      join(dir, 'pipeline.yaml'),
      `engine: {type: claude}\njudge_engine: {type: codex}\nloop: {generator_engine: {type: openai, model: m, base_url: "http://127.0.0.1:${port}/v1", api_key_env: DOCTOR_KEY}}\n`,
    );
    const env = { ...process.env, PATH: `${fixturesBin}:${process.env.PATH}`, DOCTOR_KEY: 'k' };
    const r = await whet(['doctor'], { cwd: dir, env });
    expect(r.stdout).toMatch(/\[ok\] engine \(claude\) program: .*\/claude \(2\.1\.44 \(Claude Code\)\)/);
    expect(r.stdout).toMatch(/\[ok\] judge_engine \(codex\) program: .*\/codex \(codex-cli 0\.58\.0\)/);
    expect(r.stdout).toMatch(new RegExp(`\\[MISSING\\] loop.generator_engine \\(openai\\) endpoint: .*not reachable: fetch failed: ECONNREFUSED — connect ECONNREFUSED 127\\.0\\.0\\.1:${port}`));
    // A program that ignores --version and answers something else is not taken for the agent CLI.
    const stub = join(dir, 'claude-stub');
    write(stub, '#!/bin/sh\necho \'{"type":"result","result":"hi"}\'\n');
    chmodSync(stub, 0o755);
    write(join(dir, 'pipeline.yaml'), `engine: {type: claude, bin: "${stub}"}\n`);
    const bad = await whet(['doctor'], { cwd: dir, env });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/\[MISSING\] engine \(claude\) program: .*claude-stub --version printed no version number/);
  });
});
