// `whet init [DIR]`: a commented pipeline.yaml, an example skill with its task suite, and .gitignore
// entries for the state directory. It writes the engine it finds installed (claude, then codex) into the
// config; nothing ever switches engines at run time — what the config says is what runs.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { appendAtomically, writeFileAtomicallySync } from '../core/atomic.js';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../core/errors.js';
import type { CliDeps, SetCode } from './deps.js';
import { findProgram } from './find-program.js';

function engineBlock(found: 'claude' | 'codex' | undefined): string {
  if (found === 'claude') return '# Found `claude` on PATH: Claude Code headless answers the tasks.\nengine:\n  type: claude\n  # model: sonnet\n  # max_turns: 4\n';
  if (found === 'codex') return '# Found `codex` on PATH: Codex answers the tasks.\nengine:\n  type: codex\n';
  return '# No agent CLI found on PATH. The mock engine answers offline by quoting the skill (README: "The mock\n# engine"); replace it with claude, codex, command, openai or anthropic for real numbers.\nengine:\n  type: mock\n';
}

const SKILL = `---
name: my-skill
description: Describe what the skill does and when to use it, in one or two sentences.
---

# My skill

## When to use

- Describe the requests this skill is for.

## When not to use

- Describe look-alike requests it should leave alone.

## Steps

1. First step.
2. Second step.

## Output format

Describe the shape of a good answer.
`;

const SUITE = `# Task suite (seed 001 format v1.0). Every task: an id, a prompt, and a judge. Optional: category,
# split (train|holdout), negative (a negative control), judges (several, all must pass), pass_k.
# Tasks without a split: 30% of each category is held out for the gate, so write several tasks per
# category (with one, none is held out and \`whet run\` can keep nothing). docs/method.md explains why.
skill_id: my-skill
version: "1.0"
tasks:
  - id: first-task
    category: basics
    prompt: "Replace with a real request."
    judge: {type: contains, expected: ["a string a good answer contains"]}
  - id: out-of-scope
    category: scope
    negative: true
    prompt: "Replace with a request the skill should not handle."
    judge: {type: not_contains, expected: ["a string only the skill's answer would contain"]}
`;

export function init(deps: CliDeps, dir: string): string[] {
  const root = resolve(deps.cwd, dir);
  const cfg = join(root, 'pipeline.yaml');
  if (existsSync(cfg)) throw new UsageError(`${cfg} already exists; edit it, or init another folder`);
  const found = findProgram('claude', deps.env, deps.cwd) ? 'claude' : findProgram('codex', deps.env, deps.cwd) ? 'codex' : undefined;
  mkdirSync(join(root, 'skills/my-skill'), { recursive: true });
  const written: string[] = [];
  const put = (rel: string, text: string) => {
    const p = join(root, rel);
    if (existsSync(p)) return;
    writeFileAtomicallySync(p, text);
    written.push(rel);
  };
  put(
    'pipeline.yaml',
    `# whetstone configuration. Paths are relative to this file. README.md documents every key.\nversion: 1\nstate_dir: state\n\n${engineBlock(found)}\n# What is improved or watched: skill folders, SKILL.md files, or globs such as skills/*/SKILL.md.\ntargets:\n  - skill: skills/my-skill\n\n# Set before any result and copied into each run: a run refuses to continue if they change.\nthresholds:\n  min_delta: 0\n  max_new_failures: 0\n  significance: 0.05\n\ncache:\n  ttl: 7d\n`,
  );
  put('skills/my-skill/SKILL.md', SKILL);
  put('skills/my-skill/tasks.yaml', SUITE);
  const gi = join(root, '.gitignore');
  const have = existsSync(gi) ? readFileSync(gi, 'utf8') : '';
  if (!/^state\/$/m.test(have)) {
    appendAtomically(gi, `${have && !have.endsWith('\n') ? '\n' : ''}# whetstone state (runs, cache, backups)\nstate/\n`);
    written.push('.gitignore');
  }
  return written;
}

/** What to type next, in the order a first hour goes; from the folder init was run in. */
function nextSteps(dir: string): string {
  const c = dir === '.' ? '' : ` -c ${/^[\w./-]+$/.test(dir) ? dir : `'${dir.replace(/'/g, `'\\''`)}'`}/pipeline.yaml`;
  const suite = `${dir === '.' ? '' : `${dir}/`}skills/my-skill/tasks.yaml`;
  return [
    'next: edit skills/my-skill (SKILL.md and tasks.yaml), then:',
    `  whet lint ${suite}    # the suite's coverage, negative controls, leakage`,
    `  whet run --mock${c}    # the improvement loop, offline on the mock engine (drop --mock for the configured engine)`,
    `  whet report${c}        # the evidence report of the newest run`,
    `  whet schedule print --via github${c}    # a nightly GitHub Actions workflow`,
    '',
  ].join('\n');
}

export function registerInitCommand(program: Command, deps: CliDeps, _setCode: SetCode): void {
  program
    .command('init')
    .description('write a commented pipeline.yaml, an example skill and suite, and .gitignore entries')
    .argument('[dir]', 'project folder', '.')
    .action((dir: string) => {
      const written = init(deps, dir);
      deps.stdout(`${written.map((w) => `wrote ${w}`).join('\n')}\n${nextSteps(dir)}`);
    });
}
