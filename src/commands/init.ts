// `whet init [DIR] [--skill SKILL]`: a commented pipeline.yaml targeting the skills already in DIR
// (init-adopt.ts) — or, in a folder with none, an example skill with its task suite — and .gitignore
// entries for the state directory. It writes the engine it finds installed (claude, then codex) into the
// config; nothing ever switches engines at run time — what the config says is what runs.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { appendAtomically, writeFileAtomicallySync } from '../core/atomic.js';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../core/errors.js';
import { isDependencyOf } from '../core/package-info.js';
import type { CliDeps, SetCode } from '../program/deps.js';
import { findProgram } from '../core/find-program.js';
import { findSkills, judgeNote, targetsBlock, type FoundSkill } from './init-adopt.js';

function engineBlock(found: 'claude' | 'codex' | undefined): string {
  if (found === 'claude') return '# Found `claude` on PATH: Claude Code headless answers the tasks.\nengine:\n  type: claude\n  # model: sonnet\n  # max_turns: 4\n';
  if (found === 'codex') return '# Found `codex` on PATH: Codex answers the tasks.\nengine:\n  type: codex\n';
  return '# No agent CLI found on PATH. The mock engine answers offline by quoting the skill (docs/reference/engines.md:\n# "The mock engine"); replace it with claude, codex, command, openai or anthropic for real numbers.\nengine:\n  type: mock\n';
}

// A starter in a real domain, so the first run reads as it will on the author's own skill: the feedback
// proposer names the skill and the failing category in its rules ("When a meeting notes request involves
// action items, …"), which for a placeholder name and category read as nonsense.
const SKILL = `---
name: meeting-notes
description: Turns a meeting transcript into short notes with the decisions taken and the open questions. Use when someone asks for meeting notes, minutes or a recap of a call.
---

# Meeting notes

Write notes a colleague who missed the meeting can read in one minute.

## When to use

- Notes, minutes or a recap from a meeting transcript, a call recording's text or chat log of a meeting.

## When not to use

- Scheduling a meeting or writing an agenda: this skill only records what a meeting already said.

## Steps

1. Open with one line naming the meeting, its date and who attended.
2. List every decision the meeting took under a Decisions heading, one line each.
3. List what is still undecided under an Open questions heading.

## Output format

A Markdown heading with the meeting's name and date, then one section per list.
`;

/**
 * Held-out tasks carry an explicit split, so a fresh project has some for the gate to decide on (the
 * ratio alone holds out none of a category with one task). Enough for a first run to reach a decision,
 * far from enough for a real one: \`whet plan\` says how many a suite needs on its engine.
 */
export const HELD_OUT = 3;

const SUITE = `# Task suite (seed 001 format v1.0). Every task: an id, a prompt, and a judge. Optional: category,
# split (train|holdout), negative (a negative control), judges (several, all must pass), pass_k.
# The generator learns from train tasks only; the gate decides on held-out ones. This starter holds out
# ${HELD_OUT} tasks: enough for a first run to reach a decision, not for a real one. On a model whose answers
# vary, finding a +10-point gain with 80% power takes tens of held-out tasks (about 40 at these pass rates
# and evaluate.max_attempts 10): \`whet plan\` computes it for your suite and engine.
skill_id: meeting-notes
version: "1.0"
tasks:
  - id: decisions-01
    category: decisions
    split: train
    prompt: "Write up the decisions this meeting took. Ana: we ship on Friday. Ben: agreed, and we drop the beta banner."
    judge: {type: contains, expected: ["Decisions"]}
  - id: decisions-02
    category: decisions
    split: holdout
    prompt: "List the decisions from today's meeting: the launch moves to May and the price stays."
    judge: {type: contains, expected: ["Decisions"]}
  - id: action-items-01
    category: action-items
    split: train
    prompt: "Write meeting notes with the action items. Ana will send the contract by Monday; Ben books the venue."
    judge: {type: contains, expected: ["Action items"]}
  - id: action-items-02
    category: action-items
    split: holdout
    prompt: "Recap the action items of this call: Chen fixes the login bug, Dana writes the announcement."
    judge: {type: contains, expected: ["Action items"]}
  - id: open-questions-01
    category: open-questions
    split: train
    prompt: "Minutes of the meeting: nobody knew whether legal signed off, so that stays open."
    judge: {type: contains, expected: ["Open questions"]}
  - id: scheduling-01
    category: scope
    split: holdout
    negative: true
    prompt: "Help with scheduling a meeting with the design team next week."
    judge: {type: contains, expected: ["only records what a meeting already said"]}
`;

const THRESHOLDS = '# Set before any result and copied into each run: a run refuses to continue if they change.\nthresholds:\n  min_delta: 0\n  max_new_failures: 0\n  significance: 0.05\n\ncache:\n  ttl: 7d\n';

/** What init wrote, and the skills it adopted (none: it wrote the starter). */
export function init(deps: CliDeps, dir: string, o: { skill?: string } = {}): string[] {
  return initProject(deps, dir, o).written;
}

export function initProject(deps: CliDeps, dir: string, o: { skill?: string } = {}): { written: string[]; adopted: FoundSkill[] } {
  const root = resolve(deps.cwd, dir);
  const cfg = join(root, 'pipeline.yaml');
  if (existsSync(cfg)) throw new UsageError(`${cfg} already exists; edit it, or init another folder`);
  const adopted = existsSync(root) || o.skill !== undefined ? findSkills(root, deps.cwd, o.skill) : [];
  const found = findProgram('claude', deps.env, deps.cwd) ? 'claude' : findProgram('codex', deps.env, deps.cwd) ? 'codex' : undefined;
  const written: string[] = [];
  const put = (rel: string, text: string) => {
    const p = join(root, rel);
    if (existsSync(p)) return;
    writeFileAtomicallySync(p, text);
    written.push(rel);
  };
  if (adopted.length) {
    put('pipeline.yaml', `# whetstone configuration. Paths are relative to this file. Every key:\n# docs/reference/configuration.md in the whetstone package.\nversion: 1\nstate_dir: state\n\n${engineBlock(found)}${judgeNote(adopted, found)}\n${targetsBlock(adopted, found)}\n${THRESHOLDS}`);
    ignoreState(root, written);
    return { written, adopted };
  }
  mkdirSync(join(root, 'skills/meeting-notes'), { recursive: true });
  put(
    'pipeline.yaml',
    `# whetstone configuration. Paths are relative to this file. Every key:\n# docs/reference/configuration.md in the whetstone package.\nversion: 1\nstate_dir: state\n\n${engineBlock(found)}\n# What is improved or watched: skill folders, SKILL.md files, or globs such as skills/*/SKILL.md.\ntargets:\n  - skill: skills/meeting-notes\n\n${THRESHOLDS}`,
  );
  put('skills/meeting-notes/SKILL.md', SKILL);
  put('skills/meeting-notes/tasks.yaml', SUITE);
  ignoreState(root, written);
  return { written, adopted };
}

function ignoreState(root: string, written: string[]): void {
  const gi = join(root, '.gitignore');
  const have = existsSync(gi) ? readFileSync(gi, 'utf8') : '';
  if (!/^state\/$/m.test(have)) {
    appendAtomically(gi, `${have && !have.endsWith('\n') ? '\n' : ''}# whetstone state (runs, cache, backups)\nstate/\n`);
    written.push('.gitignore');
  }
}

/** What to type next, in the order a first hour goes; from the folder init was run in. */
function nextSteps(dir: string, dependency: boolean): string {
  const c = dir === '.' ? '' : ` -c ${/^[\w./-]+$/.test(dir) ? dir : `'${dir.replace(/'/g, `'\\''`)}'`}/pipeline.yaml`;
  const suite = `${dir === '.' ? '' : `${dir}/`}skills/meeting-notes/tasks.yaml`;
  return [
    `the starter suite holds out ${HELD_OUT} of its tasks: enough for a first decision, far from enough for a real one (whet plan says how many held-out tasks your engine needs)`,
    'next: edit skills/meeting-notes (SKILL.md and tasks.yaml), then:',
    `  whet lint ${suite}    # the suite's coverage, negative controls, leakage`,
    `  whet plan --mock${c}   # the power to find a gain, and the held-out tasks or attempts it takes`,
    `  whet run --mock${c}    # the improvement loop, offline on the mock engine (drop --mock for the configured engine)`,
    `  whet report${c}        # the evidence report of the newest run`,
    dependency
      ? `  whet schedule print --via github${c}    # a nightly GitHub Actions workflow (npm ci, then the project's whet)`
      : `  whet schedule print --via github --package <spec>${c}    # a nightly GitHub Actions workflow; <spec>: how its job installs whetstone (a tarball you commit from npm pack, a git URL, a version you publish)`,
    '',
  ].join('\n');
}

/** What to type next when init targeted skills already there. */
function adoptedSteps(dir: string, adopted: FoundSkill[]): string {
  const c = dir === '.' ? '' : ` -c ${/^[\w./-]+$/.test(dir) ? dir : `'${dir.replace(/'/g, `'\\''`)}'`}/pipeline.yaml`;
  const at = (p: string) => (dir === '.' ? p : `${dir}/${p}`);
  const lines = adopted.map((s) => `targeting ${s.dir}${s.suites.length ? ` with ${s.suites.map((x) => x.path).join(', ')}` : ' (no suite yet: add tasks.yaml or evals/evals.json beside its SKILL.md)'}`);
  const first = adopted.flatMap((s) => s.suites)[0];
  return [
    ...lines,
    'next:',
    ...(first ? [`  whet lint ${at(first.path)}    # the suite's coverage, negative controls, leakage`] : []),
    `  whet plan --mock${c}   # the power to find a gain, and the held-out tasks or attempts it takes`,
    `  whet run${c}           # the improvement loop on the configured engine`,
    `  whet report${c}        # the evidence report of the newest run`,
    '',
  ].join('\n');
}

export function registerInitCommand(program: Command, deps: CliDeps, _setCode: SetCode): void {
  program
    .command('init')
    .description('write a commented pipeline.yaml, an example skill and suite, and .gitignore entries')
    .argument('[dir]', 'project folder', '.')
    .option('--skill <dir>', 'the skill folder to target (default: the skills found in the project folder; the starter only when there are none)')
    .action((dir: string, o: { skill?: string }) => {
      const { written, adopted } = initProject(deps, dir, o);
      deps.stdout(`${written.map((w) => `wrote ${w}`).join('\n')}\n${adopted.length ? adoptedSteps(dir, adopted) : nextSteps(dir, isDependencyOf(resolve(deps.cwd, dir)))}`);
    });
}
