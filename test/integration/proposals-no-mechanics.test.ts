// A proposal is guidance a person would write for a kind of request, not the test pasted into the skill.
// Scanned here: every candidate the demo's loop and the generate stage produce on the suites the tests
// use — the text each adds to the skill, and its title — for the judges' mechanics: an expected string
// in quotes, a judge's whole expected list on one line, a regex source, a task id, or an "the answer
// includes …" checklist. And the proposer never sees held-out judges: editing one changes no candidate.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readArtifact } from '../../src/state/artifact-io.js';
import { loadSuite } from '../../src/config/suite.js';
import { iterationPaths } from '../../src/loop/paths.js';
import { evaluateLoopBaseline } from '../../stages/evaluate/loop.js';
import { standaloneEvaluation } from '../../src/artifacts/evaluation.js';
import { run as generate } from '../../stages/generate/index.js';
import { candidatesArtifact } from '../../src/artifacts/candidates.js';
import { exampleDir, loopProject, repoRoot } from '../fixtures/stages/loop-project.js';
import { replyWith, scriptedEngine } from '../fixtures/stages/scripted-engine.js';
import { exampleLoopProject, whet } from '../support/cli.js';

interface Mechanics {
  lists: string[][];
  patterns: string[];
  ids: string[];
}

function mechanicsOf(suitePath: string): Mechanics {
  const m: Mechanics = { lists: [], patterns: [], ids: [] };
  for (const t of loadSuite(suitePath).tasks) {
    m.ids.push(t.id);
    for (const j of t.judges) {
      if (j.type === 'contains' || j.type === 'not_contains') m.lists.push(j.expected);
      else if (j.type === 'equals') m.lists.push([j.expected]);
      else if (j.type === 'regex') m.patterns.push(j.pattern);
    }
  }
  return m;
}

const QUOTES: [string, string][] = [['"', '"'], ["'", "'"], ['“', '”'], ['`', '`'], ['\\"', '\\"']];
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every way `text` quotes the judges' mechanics; [] when it quotes none. */
function quotedMechanics(text: string, m: Mechanics): string[] {
  const found: string[] = [];
  const lower = text.toLowerCase();
  for (const list of m.lists) {
    for (const s of list) for (const [a, b] of QUOTES) if (lower.includes(`${a}${s}${b}`.toLowerCase())) found.push(`quotes expected ${a}${s}${b}`);
    if (list.length >= 2 && text.split('\n').some((line) => list.every((s) => line.toLowerCase().includes(s.toLowerCase())))) found.push(`whole expected list ${JSON.stringify(list)} on one line`);
  }
  for (const p of m.patterns) if (text.includes(p)) found.push(`regex source ${p}`);
  for (const id of m.ids) if (new RegExp(`(^|[^\\w-])${escape(id)}($|[^\\w-])`).test(text)) found.push(`task id ${id}`);
  const checklist = /\bthe (?:answer|output|response) (?:includes|contains|leaves out|omits|matches|does not match)\b/i.exec(text);
  if (checklist) found.push(`checklist "${checklist[0]}"`);
  return [...new Set(found)];
}

/** What each candidate of a run adds to the skill (its diff's added lines) and its title. */
function proposalsOf(runDir: string): { id: string; text: string }[] {
  const out: { id: string; text: string }[] = [];
  for (const iter of readdirSync(runDir).filter((d) => d.startsWith('iter-'))) {
    const file = join(runDir, iter, 'candidates.json');
    let a;
    try {
      a = readArtifact(file, candidatesArtifact);
    } catch {
      continue;
    }
    for (const c of a.candidates) {
      const added = c.diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).map((l) => l.slice(1));
      out.push({ id: `${iter}/${c.id}`, text: `${c.title}\n${added.join('\n')}` });
    }
  }
  return out;
}

describe('proposals never quote judge mechanics', () => {
  it('the scanner finds a pasted checklist, a quoted string, a regex source and a task id', () => {
    const m = mechanicsOf(join(exampleDir, 'tasks.yaml'));
    expect(quotedMechanics('- When a release notes request involves breaking changes, the answer includes "Breaking changes" and "migration".', m)).toEqual([
      'quotes expected "Breaking changes"',
      'quotes expected "migration"',
      'whole expected list ["Breaking changes","migration"] on one line',
      'checklist "the answer includes"',
    ]);
    expect(quotedMechanics('Titles match v\\d+\\.\\d+\\.\\d+ (see rn-title-01).', m)).toEqual(['regex source v\\d+\\.\\d+\\.\\d+', 'task id rn-title-01']);
    expect(quotedMechanics('List breaking changes first, under their own Breaking changes heading.', m)).toEqual([]);
  });

  it('in the demo loop: every iteration’s candidates, kept and rejected', async () => {
    const dir = exampleLoopProject({ loop: '{max_iterations: 4, plateau_window: 2, candidates_per_iteration: 3, proposers: [feedback, structural]}', thresholds: '{min_delta: 0, max_new_failures: 0, significance: 0.05}' });
    const r = await whet(['run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    // The demo's outcome still holds: one kept on held-out evidence, one rejected.
    expect(r.stdout).toMatch(/gate: KEEP cand-\S+ — held-out gain \+0\.\d+/);
    expect(r.stdout).toMatch(/gate: REJECT cand-\S+ — held-out delta/);
    const runs = join(dir, 'state/runs');
    const proposals = readdirSync(runs).flatMap((run) => proposalsOf(join(runs, run)));
    expect(proposals.length).toBeGreaterThanOrEqual(4);
    const m = mechanicsOf(join(dir, 'release-notes/tasks.yaml'));
    for (const p of proposals) expect(quotedMechanics(p.text, m), p.id).toEqual([]);
  });

  it('in the generate stage, on the suites its tests use', async () => {
    const fixture = (f: string) => readFileSync(join(repoRoot, 'test/fixtures/stages', f), 'utf8');
    const projects = [
      await loopProject('loop:\n  proposers: [feedback, structural]\n  candidates_per_iteration: 5\n'),
      await loopProject('loop:\n  proposers: [feedback, structural]\n  candidates_per_iteration: 5\n', { skillText: fixture('leak-skill.md'), suiteText: fixture('leak-suite.yaml') }),
    ];
    for (const p of projects) {
      await evaluateLoopBaseline(p.ctx);
      await generate(p.ctx);
      const proposals = proposalsOf(p.ctx.runDir);
      expect(proposals.some((x) => x.id.includes('guidance-for'))).toBe(true);
      const m = mechanicsOf(join(p.skillDir, 'tasks.yaml'));
      for (const x of proposals) expect(quotedMechanics(x.text, m), x.id).toEqual([]);
    }
  });
});

describe('a model proposal that copies the test', () => {
  it('is left out and reported, whatever proposed it; guidance in its own words goes on', async () => {
    const p = await loopProject('loop:\n  proposers: [llm]\n  candidates_per_iteration: 5\n');
    await evaluateLoopBaseline(p.ctx);
    const proposal = (title: string, body: string) => ({ title, category: 'coverage', risk: 'medium', rationale: 'from the failures', answers: ['rn-breaking-01'], actions: [{ type: 'append_section', heading: title, body }] });
    const copies = [
      proposal('Breaking checklist', 'The answer includes "Breaking changes" and "migration".'),
      proposal('Title pattern', 'Titles follow v\\d+\\.\\d+\\.\\d+ always.'),
      proposal('Task note', 'Remember rn-security-01: name the advisory.'),
    ];
    const fine = proposal('Breaking changes first', 'List breaking changes first, under their own Breaking changes heading, with how users migrate.');
    const { engine } = scriptedEngine([replyWith([...copies, fine])]);
    await generate(p.ctx, { generatorEngine: engine });
    const a = readArtifact(iterationPaths(p.ctx.runDir, 1).candidates, candidatesArtifact);
    expect(a.candidates.map((c) => c.title)).toEqual(['Breaking changes first']);
    const why = Object.fromEntries((a.skipped ?? []).map((x) => [x.title, x.why]));
    expect(why['Breaking checklist']).toMatch(/copies the judges' mechanics into the skill \(the expected string "Breaking changes" in quotes; the expected string "migration" in quotes; a judge's whole expected list \["Breaking changes","migration"\]; a checklist \("The answer includes"\)\)/);
    expect(why['Title pattern']).toMatch(/the regex \/v\\d\+/);
    expect(why['Task note']).toMatch(/the task id rn-security-01/);
  });
});

describe('the proposer never sees held-out judges', () => {
  it('editing a held-out judge’s expected strings changes no candidate, byte for byte', async () => {
    const suite = readFileSync(join(exampleDir, 'tasks.yaml'), 'utf8');
    // rn-hash-01 is held out and passes on the baseline; with an extra expected string it fails, and
    // its failure reason (with the new string) sits in baseline.json beside the train failures.
    const edited = suite.replace('judge: {type: contains, expected: ["short commit hash"]}', 'judge: {type: contains, expected: ["short commit hash", "HELDOUT-EDITED-STRING"]}');
    expect(edited).not.toBe(suite);
    const runs = [];
    for (const suiteText of [suite, edited]) {
      const p = await loopProject('loop:\n  proposers: [feedback, structural]\n  candidates_per_iteration: 5\n', { suiteText });
      await evaluateLoopBaseline(p.ctx);
      await generate(p.ctx);
      runs.push(p);
    }
    const [a, b] = runs.map((p) => iterationPaths(p!.ctx.runDir, 1));
    const heldFail = readArtifact(b!.baseline, standaloneEvaluation).task_results.find((t) => t.task_id === 'rn-hash-01')!;
    expect(heldFail).toMatchObject({ split: 'holdout', status: 'fail' });
    expect(heldFail.reason).toContain('HELDOUT-EDITED-STRING');
    expect(readArtifact(a!.baseline, standaloneEvaluation).task_results.find((t) => t.task_id === 'rn-hash-01')!.status).toBe('pass');

    const ca = readArtifact(a!.candidates, candidatesArtifact);
    const cb = readArtifact(b!.candidates, candidatesArtifact);
    expect(ca.candidates.length).toBeGreaterThan(0);
    expect(JSON.stringify(cb.candidates)).toBe(JSON.stringify(ca.candidates));
    expect(cb.skipped).toEqual(ca.skipped);
    expect(cb.signals).toEqual(ca.signals);
    for (const c of ca.candidates) {
      const fa = readFileSync(join(a!.dir, c.variant_path, 'SKILL.md'));
      const fb = readFileSync(join(b!.dir, c.variant_path, 'SKILL.md'));
      expect(fb.equals(fa), c.id).toBe(true);
    }
    expect(JSON.stringify(cb)).not.toContain('HELDOUT-EDITED-STRING');
  });
});
