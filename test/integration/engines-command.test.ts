// The command engine against real programs: `cat`, and the probe in test/fixtures/bin/whet-probe.
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { CommandEngineConfig } from '../../src/config/engine-schema.js';
import { createCommandEngine } from '../../src/engines/command.js';
import type { EngineRequest, EngineResult } from '../../src/engines/types.js';
import { waitAllDead } from '../support/process.js';
import { tempDir } from '../support/temp.js';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/bin');
const PROBE = join(BIN, 'whet-probe');
const TMP = realpathSync(tmpdir());

const skill = { name: 'release-notes', text: '# Release notes\nGroup changes by type.\n' };

function req(over: Partial<EngineRequest> = {}): EngineRequest {
  return { kind: 'task', prompt: 'Summarise: fix login bug', taskId: 't-001', timeoutMs: 10_000, ...over };
}

function cmd(over: Partial<CommandEngineConfig> = {}): CommandEngineConfig {
  return { type: 'command', command: [PROBE], output: 'json', ...over };
}

interface ProbeReport {
  stdin: string;
  argv: string[];
  cwd: string;
  cwd_entries: string[];
  env: Record<string, string>;
  skill_file_text: string | null;
}

function report(r: EngineResult): ProbeReport {
  expect(r.error).toBeUndefined();
  expect(r.ok).toBe(true);
  return JSON.parse(r.output) as ProbeReport;
}

let scratch: string;
beforeAll(() => {
  scratch = tempDir('whet-engines-test-');
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('command engine: output', () => {
  it('text output is stdout minus one trailing newline', async () => {
    const engine = createCommandEngine({ type: 'command', command: [PROBE], env: { PROBE_MODE: 'text', PROBE_TEXT: 'line one\n\nline three  ' } });
    const r = await engine.run(req());
    expect(r).toMatchObject({ ok: true, output: 'line one\n\nline three  ', usage: {} });
    expect(r.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('with prepend delivery, stdin is skill + separator + prompt, byte for byte (cat echoes it)', async () => {
    const engine = createCommandEngine({ type: 'command', command: ['cat'] });
    const r = await engine.run(req({ skill, prompt: 'Summarise: fix login bug\n' }));
    expect(r.ok).toBe(true);
    expect(r.output).toBe('# Release notes\nGroup changes by type.\n\n\n---\n\nSummarise: fix login bug');
  });

  it('json output without json_path returns the whole document and reads usage and cost', async () => {
    const r = await createCommandEngine(cmd()).run(req());
    const parsed = report(r);
    expect(parsed.stdin).toBe('Summarise: fix login bug');
    expect(parsed.argv).toEqual([]);
    expect(r.usage).toEqual({ input_tokens: 11, output_tokens: 7, cost_usd: 0.25 });
  });

  it('json_path picks a nested value through array indexes', async () => {
    const r = await createCommandEngine(cmd({ json_path: 'choices.0.message.content' })).run(req({ skill }));
    expect(r).toMatchObject({ ok: true, output: '# Release notes\nGroup changes by type.\n\n\n---\n\nSummarise: fix login bug' });
    expect(r.usage.cost_usd).toBe(0.25);
  });

  it('json_path to a non-string value returns it as JSON', async () => {
    const r = await createCommandEngine(cmd({ json_path: 'argv' })).run(req());
    expect(r).toMatchObject({ ok: true, output: '[]' });
  });

  it('a json_path that does not resolve is a parse error naming the path', async () => {
    const r = await createCommandEngine(cmd({ json_path: 'choices.5.message' })).run(req());
    expect(r.ok).toBe(false);
    expect(r.error?.kind).toBe('parse');
    expect(r.error?.message).toContain('choices.5');
  });

  it('a null at json_path is a parse error', async () => {
    const r = await createCommandEngine(cmd({ json_path: 'answer', env: { PROBE_MODE: 'null_field' } })).run(req());
    expect(r.error?.kind).toBe('parse');
  });

  it('non-JSON stdout with output: json is a parse error quoting the start of stdout', async () => {
    const r = await createCommandEngine(cmd({ env: { PROBE_MODE: 'garbage' } })).run(req());
    expect(r.ok).toBe(false);
    expect(r.output).toBe('');
    expect(r.error?.kind).toBe('parse');
    expect(r.error?.message).toContain('this is {not json');
  });
});

describe('command engine: skill delivery and environment', () => {
  it('env delivery leaves stdin alone and points WHET_SKILL_FILE at exactly the skill text', async () => {
    const skillDir = join(scratch, 'skills', 'release-notes');
    const r = await createCommandEngine(cmd({ skill_delivery: 'env' })).run(req({ skill: { ...skill, dir: skillDir } }));
    const p = report(r);
    expect(p.stdin).toBe('Summarise: fix login bug');
    expect(p.skill_file_text).toBe(skill.text);
    expect(p.env['WHET_SKILL_DIR']).toBe(skillDir);
    expect(p.env['WHET_SKILL_NAME']).toBe('release-notes');
    expect(basename(p.env['WHET_SKILL_FILE'] ?? '')).toBe('SKILL.md');
    // the private copy is not in the working directory and is removed after the call
    expect(p.cwd_entries).toEqual([]);
    expect(existsSync(p.env['WHET_SKILL_FILE'] ?? '/')).toBe(false);
  });

  it('env delivery without a skill folder sets WHET_SKILL_DIR to the copy’s folder', async () => {
    const p = report(await createCommandEngine(cmd({ skill_delivery: 'env' })).run(req({ skill })));
    expect(p.env['WHET_SKILL_DIR']).toBe(dirname(p.env['WHET_SKILL_FILE'] ?? ''));
  });

  it('none delivery sends only the prompt and sets no skill variables', async () => {
    const p = report(await createCommandEngine(cmd({ skill_delivery: 'none' })).run(req({ skill })));
    expect(p.stdin).toBe('Summarise: fix login bug');
    expect(p.env['WHET_SKILL_FILE']).toBeUndefined();
  });

  it('always sets WHET_TASK_ID and WHET_REQUEST_KIND, passes config env, and drops inherited WHET_SKILL_*', async () => {
    process.env['WHET_SKILL_FILE'] = '/leaked/from/parent';
    try {
      const p = report(await createCommandEngine(cmd({ env: { PROBE_EXTRA: 'yes' } })).run(req({ skill })));
      expect(p.env['WHET_TASK_ID']).toBe('t-001');
      expect(p.env['WHET_REQUEST_KIND']).toBe('task');
      expect(p.env['PROBE_EXTRA']).toBe('yes');
      expect(p.env['WHET_SKILL_FILE']).toBeUndefined();
    } finally {
      delete process.env['WHET_SKILL_FILE'];
    }
  });

  it('a judge request prepends its system text and is marked as judge', async () => {
    const p = report(
      await createCommandEngine(cmd()).run({ kind: 'judge', system: 'Grade strictly.', prompt: 'Answer: 42', timeoutMs: 10_000 }),
    );
    expect(p.stdin).toBe('Grade strictly.\n\n---\n\nAnswer: 42');
    expect(p.env['WHET_REQUEST_KIND']).toBe('judge');
    expect(p.env['WHET_TASK_ID']).toBe('');
  });
});

describe('command engine: working directory', () => {
  it('workdir temp: a fresh empty directory under the system temp dir per call, removed afterwards', async () => {
    const engine = createCommandEngine(cmd());
    const a = report(await engine.run(req()));
    const b = report(await engine.run(req()));
    for (const p of [a, b]) {
      expect(dirname(p.cwd)).toBe(TMP);
      expect(basename(p.cwd)).toMatch(/^whet-task-/);
      expect(p.cwd_entries).toEqual([]);
      expect(existsSync(p.cwd)).toBe(false);
    }
    expect(a.cwd).not.toBe(b.cwd);
    expect(a.cwd).not.toBe(realpathSync(process.cwd()));
  });

  it('the temp directory is removed when the program fails too', async () => {
    const log = join(scratch, 'cwd-on-fail.txt');
    const engine = createCommandEngine({ type: 'command', command: ['bash', '-c', 'pwd > "$1"; echo boom >&2; exit 3', 'probe', log] });
    const r = await engine.run(req());
    expect(r.error?.kind).toBe('exit');
    const cwd = readFileSync(log, 'utf8').trim();
    expect(basename(cwd)).toMatch(/^whet-task-/);
    expect(existsSync(cwd)).toBe(false);
  });

  it('workdir suite runs in the suite folder and leaves it in place', async () => {
    const suiteDir = join(scratch, 'suite');
    mkdirSync(suiteDir);
    writeFileSync(join(suiteDir, 'tasks.yaml'), 'tasks: []\n');
    const p = report(await createCommandEngine(cmd({ workdir: 'suite' }), { suiteDir }).run(req()));
    expect(p.cwd).toBe(realpathSync(suiteDir));
    expect(p.cwd_entries).toEqual(['tasks.yaml']);
    expect(existsSync(join(suiteDir, 'tasks.yaml'))).toBe(true);
  });

  it('a suite folder that does not exist is a spawn error, not an exception', async () => {
    const r = await createCommandEngine(cmd({ workdir: 'suite' }), { suiteDir: join(scratch, 'nope') }).run(req());
    expect(r.ok).toBe(false);
    expect(r.error?.kind).toBe('spawn');
    expect(r.error?.message).toContain('nope');
  });
});

describe('command engine: failures are values', () => {
  it('exit 1 is an exit error with the exit code and the tail of stderr', async () => {
    const r = await createCommandEngine(cmd({ env: { PROBE_MODE: 'exit1' } })).run(req());
    expect(r.ok).toBe(false);
    expect(r.output).toBe('');
    expect(r.error?.kind).toBe('exit');
    expect(r.error?.message).toContain('exited with code 1');
    expect(r.error?.message).toContain('probe: fatal: disk on fire');
  });

  it('a missing program is a spawn error', async () => {
    const missing = join(scratch, 'no-such-program');
    const r = await createCommandEngine({ type: 'command', command: [missing, '--x'] }).run(req());
    expect(r.ok).toBe(false);
    expect(r.error?.kind).toBe('spawn');
    expect(r.error?.message).toContain('no-such-program');
  });

  it('a program not on PATH is a spawn error', async () => {
    const r = await createCommandEngine({ type: 'command', command: ['whet-definitely-not-installed-xyz'] }).run(req());
    expect(r.error?.kind).toBe('spawn');
  });

  it('a timeout kills the whole process tree (no orphan), reports stderr, and removes the temp dir', async () => {
    const log = join(scratch, 'hang-pids.jsonl');
    const engine = createCommandEngine(cmd({ env: { PROBE_MODE: 'hang', PROBE_LOG: log } }));
    const t0 = Date.now();
    const r = await engine.run(req({ timeoutMs: 2000 }));
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(r.ok).toBe(false);
    expect(r.error?.kind).toBe('timeout');
    expect(r.error?.message).toContain('2000 ms');
    expect(r.error?.message).toContain('probe: still thinking');
    const entry = JSON.parse(readFileSync(log, 'utf8').trim().split('\n').pop() ?? '{}') as { pids: number[]; cwd: string };
    expect(entry.pids).toHaveLength(3);
    expect(entry.pids.every((p) => Number.isInteger(p) && p > 1)).toBe(true);
    expect(await waitAllDead(entry.pids)).toEqual([]);
    expect(existsSync(entry.cwd)).toBe(false);
  });

  it('an abort signal ends the run with kind aborted and kills the tree', async () => {
    const log = join(scratch, 'abort-pids.jsonl');
    const ac = new AbortController();
    const engine = createCommandEngine(cmd({ env: { PROBE_MODE: 'hang', PROBE_LOG: log } }));
    const pending = engine.run(req({ timeoutMs: 30_000 }), { signal: ac.signal });
    const deadline = Date.now() + 10_000;
    while (!existsSync(log) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    ac.abort();
    const r = await pending;
    expect(r.error?.kind).toBe('aborted');
    const entry = JSON.parse(readFileSync(log, 'utf8').trim()) as { pids: number[] };
    expect(await waitAllDead(entry.pids)).toEqual([]);
  });

  it('a program that exits without reading a large stdin is an ordinary result, not a crash (EPIPE)', async () => {
    // `true` exits at once; writing 1 MB to its closed stdin raises EPIPE on the pipe. That must stay
    // inside the engine: an unhandled 'error' event here would take the whole whetstone process down.
    const r = await createCommandEngine({ type: 'command', command: ['true'] }).run(req({ prompt: 'x'.repeat(1 << 20) }));
    expect(r).toMatchObject({ ok: true, output: '' });
    await new Promise((done) => setTimeout(done, 200)); // let a late 'error' event surface inside this test
  });

  it('an already-aborted signal does not start the program', async () => {
    const log = join(scratch, 'never.txt');
    const ac = new AbortController();
    ac.abort();
    const r = await createCommandEngine({ type: 'command', command: ['bash', '-c', 'touch "$1"', 'x', log] }).run(req(), { signal: ac.signal });
    expect(r.error?.kind).toBe('aborted');
    expect(existsSync(log)).toBe(false);
  });
});
