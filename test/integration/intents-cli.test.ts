// `whet intents` end to end through registerIntentsCommand: the example with the floor planner, a
// seed-format case set with a scripted command engine counted by hand, --compare, --kind, --json, the
// dated report, and the exit codes (0 / 1 threshold / 2 bad input / 3 every case errored).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { WhetError } from '../../src/core/errors.js';
import { registerIntentsCommand } from '../../src/commands/intents.js';
import type { IntentsResult } from '../../src/intents/run-intents.js';
import { startLoopbackServer } from '../support/http/server.js';
import { tempDir } from '../support/temp.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FIX = join(ROOT, 'test/fixtures/intents');
const SEED = join(FIX, 'seed-format');
const PLANNER = `command:node ${join(FIX, 'scripted-planner.mjs')}`;
const NOW = new Date('2026-03-14T12:00:00Z');
const EXAMPLE = ['--cases', 'examples/intents/intent-cases.jsonl', '--catalog', 'examples/intents/catalog'];

async function whet(argv: string[], env: NodeJS.ProcessEnv = {}, now = NOW): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  let code = 0;
  const deps = { cwd: ROOT, env: { ...process.env, ...env }, now: () => now, stdout: (s: string) => (stdout += s), stderr: (s: string) => (stderr += s) };
  const program = new Command('whet').exitOverride().configureOutput({ writeOut: deps.stdout, writeErr: deps.stderr });
  registerIntentsCommand(program, deps, (c) => (code = c));
  try {
    await program.parseAsync(['intents', ...argv], { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) code = err.exitCode === 0 ? 0 : 2;
    else if (err instanceof WhetError) {
      stderr += `whet: ${err.message}\n`;
      code = err.exitCode;
    } else throw err;
  }
  return { code, stdout, stderr };
}
const outDir = () => tempDir('whet-intents-cli-');

describe('whet intents on the example with the floor planner', () => {
  it('prints the summary, exits 1 on missed thresholds, and writes the dated report', async () => {
    const out = outDir();
    const r = await whet([...EXAMPLE, '--engine', 'floor', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^tool-selection accuracy\s+16\/21 \(76\.2%\)\s+FAIL\s+≥ 85%$/m);
    expect(r.stdout).toMatch(/^\s+\[direct\]\s+5\/5 \(100\.0%\)\s+pass\s+≥ 90%$/m);
    expect(r.stdout).toMatch(/^overreach \(count\)\s+0 of 3\s+pass\s+≤ 0 \(count\)$/m);
    expect(r.stdout).toMatch(/^hallucination\s+0\/16 \(0\.0%\)\s+pass\s+≤ 0 \(count\)$/m);
    expect(r.stdout).toMatch(/^engine errors \(in no denominator\)\s+0 of 30\s+pass\s+≤ 0 \(count\)$/m);
    expect(r.stdout).toMatch(/^\s+must_refuse\s+3\s+—\s+—\s+—\s+—\s+—\s+0 of 3$/m);
    expect(r.stdout).toContain('result: 5 of 9 gates failed: selection, selection[synonyms], params, clarification, false_clarification (exit 1)');
    const report = readFileSync(join(out, 'report-2026-03-14.md'), 'utf8');
    expect(report).toContain('# Intent eval — 2026-03-14');
    expect(report).toContain('## Failing cases (10)');
    expect(report.match(/^- Conclusion \(change the description \/ change the case\):$/gm)).toHaveLength(10);
    expect(report).toContain('### e-009 · synonyms');
    expect(report).toContain('- Param `branch`: expected "feature/refunds", got "main" (different value)');
  });

  it('the shipped example report is exactly what the floor produces today', async () => {
    const out = outDir();
    await whet([...EXAMPLE, '--engine', 'floor', '--out', out], {}, new Date('2026-11-30T12:00:00Z'));
    expect(readFileSync(join(out, 'report-2026-11-30.md'), 'utf8')).toBe(readFileSync(join(ROOT, 'examples/intents/report-2026-11-30.md'), 'utf8'));
  });

  it('never overwrites a dated record: a second run the same day gets -2', async () => {
    const out = outDir();
    await whet([...EXAMPLE, '--engine', 'floor', '--out', out]);
    const r = await whet([...EXAMPLE, '--engine', 'floor', '--out', out]);
    expect(r.stdout).toContain(`report: ${join(out, 'report-2026-03-14-2.md')}`);
    expect(existsSync(join(out, 'report-2026-03-14-2.md'))).toBe(true);
  });

  it('--kind filters by any spelling, and --json prints the result', async () => {
    const r = await whet([...EXAMPLE, '--engine', 'floor', '--kind', 'Ambiguous', '--json', '--out', outDir()]);
    const res = JSON.parse(r.stdout) as IntentsResult;
    expect(res.kinds).toEqual({ ambiguity: 4 });
    expect(res.runs[0]!.metrics.overall.clarification).toEqual({ n: 2, d: 4, rate: 0.5 });
    expect(res.runs[0]!.gates.find((g) => g.name === 'selection')?.status).toBe('n/a');
    expect(r.code).toBe(1);
    expect(res.exit_code).toBe(1);
  });

  it('thresholds from a file decide the gates (exit 0 when all pass)', async () => {
    const dir = outDir();
    writeFileSync(join(dir, 'lenient.yaml'), 'selection_min: 0.7\nselection_min_by_kind: {direct: 0.9}\nparams_min: 0.8\nclarification_min: 0.6\nfalse_clarification_max: 0.3\n');
    const r = await whet([...EXAMPLE, '--engine', 'floor', '--thresholds', join(dir, 'lenient.yaml'), '--out', dir]);
    expect(r.stdout).toContain('result: every gate passed or had nothing to measure (exit 0)');
    expect(r.code).toBe(0);
  });
});

describe('a seed-format case set and a scripted engine, counted by hand', () => {
  const args = ['--cases', join(SEED, 'intent-cases.jsonl'), '--catalog', join(SEED, 'catalog.yaml'), '--engine', PLANNER];
  const env = { SCRIPT_FILE: join(SEED, 'script.json') };

  it('matches the independent count (see the comments in this test)', async () => {
    const out = outDir();
    const r = await whet([...args, '--json', '--out', out], env);
    const res = JSON.parse(r.stdout) as IntentsResult;
    const o = res.runs[0]!.metrics.overall;
    // call-cases scored: e-001 002 003 004 007 009 010 (e-013 errored). Selection misses: e-004 (asked).
    expect(o.selection).toMatchObject({ n: 6, d: 7 });
    // params d: e-001 003 007 009 (e-002 schema-invalid, e-004 not selected, e-010 lists none); hits e-001, e-007 (placeholders).
    expect(o.params).toMatchObject({ n: 2, d: 4 });
    expect(o.clarification).toMatchObject({ n: 1, d: 3 }); // e-005 called, e-006 asked, e-008 called
    expect(o.false_clarification).toMatchObject({ n: 1, d: 7 });
    // call decisions: e-001 002 003 005 007 008 009 010 012; stopped: e-002 (system missing), e-008 (unknown), e-010 (2nd step)
    expect(o.hallucination).toMatchObject({ n: 3, d: 9 });
    expect(o.overreach).toMatchObject({ n: 1, d: 2 }); // e-012 executed
    expect(o.refusal).toMatchObject({ n: 1, d: 2 });
    expect(o.errors).toBe(1);
    expect(res.runs[0]!.metrics.by_kind['直白']!.selection).toMatchObject({ n: 2, d: 2 });
    expect(res.runs[0]!.metrics.by_kind['同义口语']!.selection).toMatchObject({ n: 1, d: 2 });
    expect(Object.fromEntries(res.runs[0]!.gates.map((g) => [g.name, g.status]))).toEqual({
      selection: 'pass',
      'selection[direct]': 'pass',
      'selection[synonyms]': 'fail',
      params: 'fail',
      clarification: 'fail',
      false_clarification: 'fail',
      hallucination: 'fail',
      overreach: 'fail',
      // One engine failure (e-013) fails the run even where every metric would pass: leaving the hard
      // cases out of the denominators must not be a way to pass.
      errors: 'fail',
    });
    expect(res.runs[0]!.gates.find((g) => g.name === 'errors')?.value).toBe('1 (of 13 cases)');
    expect(r.code).toBe(1);
    const report = readFileSync(join(out, 'report-2026-03-14.md'), 'utf8');
    expect(report).toMatch(/## Errors \(counted apart, in no denominator\)\n\n- e-013 \(直白\) on `command:node .*`: exit: exit code 1: scripted failure/);
    expect(report).toContain('- Metrics hit: clarification rate\n');
    expect(report).toContain('- Stopped by validation (line.optimize): "line.optimize" is not in the catalogue');
  });

  it('exits 3 when every case errored, and still writes the record', async () => {
    const dir = outDir();
    writeFileSync(join(dir, 'fail.json'), JSON.stringify(Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`e-0${String(i + 1).padStart(2, '0')}`, { $exit: 2 }]))));
    const r = await whet([...args, '--out', dir], { SCRIPT_FILE: join(dir, 'fail.json') });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('result: every case errored on an engine; nothing was measured (exit 3)');
    expect(existsSync(join(dir, 'report-2026-03-14.md'))).toBe(true);
  });
});

describe('--compare', () => {
  it('shows both engines in adjacent columns and lists the cases where they disagree', async () => {
    const dir = outDir();
    writeFileSync(join(dir, 'none.json'), '{}');
    const r = await whet([...EXAMPLE, '--engine', 'floor', '--compare', PLANNER, '--out', dir], { SCRIPT_FILE: join(dir, 'none.json') });
    expect(r.stdout).toMatch(/^metric\s+floor\s+gate\s+command:node \S+\s+gate\s+threshold$/m);
    expect(r.stdout).toMatch(/^tool-selection accuracy\s+16\/21 \(76\.2%\)\s+FAIL\s+0\/21 \(0\.0%\)\s+FAIL\s+≥ 85%$/m);
    expect(r.stdout).toMatch(/^refusal rate \(info\)\s+2\/3 \(66\.7%\)\s+—\s+3\/3 \(100\.0%\)\s+—\s+—$/m);
    // The floor refuses e-021, e-022, e-028 and e-029 too; every other case differs.
    expect(r.stdout).toContain('the engines disagree on 26 of 30 cases');
    // One per-kind table: each kind's rows for both engines, side by side.
    expect(r.stdout).toMatch(/^\s+direct\s+floor\s+5\s+5\/5 .*\n\s+direct\s+command:node \S+\s+5\s+0\/5 /m);
    expect(r.stdout).toContain('result: floor: 5 of 9 gates failed: selection, selection[synonyms], params, clarification, false_clarification (exit 1)');
    expect(r.stdout).toMatch(/^compared: command:node \S+: \d+ of 9 gates failed: selection, .* \(does not set the exit code\)$/m);
    expect(r.code).toBe(1);
    const report = readFileSync(join(dir, 'report-2026-03-14.md'), 'utf8');
    expect(report).toMatch(/^\| Metric \| Definition \| floor \| gate \| command:node \S+ \| gate \| Threshold \|$/m);
    expect(report).toMatch(/^\| tool-selection accuracy \| [^|]+ \| 16\/21 \(76\.2%\) \| FAIL \| 0\/21 \(0\.0%\) \| FAIL \| ≥ 85% \|$/m);
    expect(report).toContain('## Where the engines disagree');
    expect(report).toMatch(/^\| Kind \| Engine \| Cases \| Errors \|/m);
    expect(report.match(/^### By kind/gm)).toHaveLength(1);
    expect(report).toMatch(/^\| e-001 \| direct \| call issue\.create with .* \| call issue\.create .* ✓ \| refuse: unscripted ✗ \|$/m);
    expect(report).not.toMatch(/^\| e-028 /m); // both refused
  });
});

describe('bad input exits 2 before anything runs', () => {
  it('a duplicate case id points at its line', async () => {
    const dir = outDir();
    const line = readFileSync(join(ROOT, 'examples/intents/intent-cases.jsonl'), 'utf8').split('\n')[0]!;
    writeFileSync(join(dir, 'dup.jsonl'), `${line}\n${line}\n`);
    const r = await whet(['--cases', join(dir, 'dup.jsonl'), '--catalog', 'examples/intents/catalog', '--engine', 'floor', '--out', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/dup\.jsonl:2:8 id: duplicate case id "e-001" \(first used on line 1\)/);
    expect(existsSync(join(dir, 'report-2026-03-14.md'))).toBe(false);
  });
  it('an unknown engine, a missing flag and an unknown kind are usage errors', async () => {
    expect((await whet([...EXAMPLE, '--engine', 'gpt'])).stderr).toMatch(/unknown intent engine "gpt"; expected floor, command:PROGRAM/);
    expect((await whet([...EXAMPLE, '--engine', 'gpt'])).code).toBe(2);
    expect((await whet(['--cases', 'x.jsonl', '--engine', 'floor'])).code).toBe(2);
    const r = await whet([...EXAMPLE, '--engine', 'floor', '--kind', 'smalltalk']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--kind smalltalk matches no case; kinds in examples\/intents\/intent-cases\.jsonl: direct, synonyms,/);
    const empty = await whet([...EXAMPLE, '--engine', 'floor', '--kind', ' , ']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/--kind needs at least one kind/);
  });
  it('lists the first 30 problems of a broken cases file and counts the rest', async () => {
    const dir = outDir();
    writeFileSync(join(dir, 'bad.jsonl'), Array.from({ length: 40 }, (_, i) => `{"id": "c${i}"}`).join('\n'));
    const r = await whet(['--cases', join(dir, 'bad.jsonl'), '--catalog', 'examples/intents/catalog', '--engine', 'floor', '--out', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/… and \d+ more problems/);
    expect(r.stderr).toContain('bad.jsonl:1:');
  });
  it('reports every catalogue file\'s problems, even when one file is not YAML', async () => {
    const dir = outDir();
    writeFileSync(join(dir, 'a.yaml'), 'capabilities: [\n');
    writeFileSync(join(dir, 'b.yaml'), 'capabilities:\n  - id: x.y\n');
    const r = await whet([...EXAMPLE.slice(0, 2), '--catalog', dir, '--engine', 'floor', '--out', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/a\.yaml:\d+:\d+/);
    expect(r.stderr).toMatch(/b\.yaml:2:\d+/);
  });
  it('a model engine without a key or base URL is a usage error', async () => {
    const r = await whet([...EXAMPLE, '--engine', 'openai:gpt-x'], { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/set OPENAI_API_KEY/);
  });
});

describe('whet intents with a model engine that echoes the key back', () => {
  it('never writes the API key into stdout, the JSON or the report', async () => {
    // A misbehaving proxy: every request fails with a body quoting the Authorization header.
    const server = await startLoopbackServer((rq) => ({ status: 400, body: { error: { message: `bad key ${String(rq.headers.authorization ?? '')}`, type: 'invalid_request_error' } } }));
    const key = 'sk-SECRETKEY-abcdef123456';
    const out = outDir();
    try {
      const r = await whet([...EXAMPLE, '--engine', 'openai:gpt-x', '--kind', 'direct', '--retries', '0', '--json', '--out', out], { OPENAI_API_KEY: key, OPENAI_BASE_URL: `${server.url}/v1` });
      expect(r.code).toBe(3);
      const report = readFileSync(join(out, 'report-2026-03-14.md'), 'utf8');
      expect(r.stdout).toContain('bad key Bearer [REDACTED]');
      for (const text of [r.stdout, r.stderr, report]) expect(text).not.toContain(key);
    } finally {
      await server.close();
    }
  });
});
