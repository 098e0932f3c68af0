// `whet init` in a folder that already holds skills: their SKILL.md folders (skills/<name>/, .claude/skills/<name>/, or a top-level <name>/ as in a skills repository) with the
// suites beside them — whetstone's tasks.yaml, skill-creator's evals/evals.json and trigger sets — become
// pipeline.yaml's targets, so the first `whet run` measures the author's skill, not a starter beside it.
// `whet init --skill DIR` names the one to adopt. The starter is for a folder with no skill in it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { fastGlob } from '../core/lazy.js';
import { UsageError } from '../core/errors.js';
import { loadSuite } from '../config/suite.js';

export interface FoundSuite {
  /** Relative to the project folder, `/`-separated. */
  path: string;
  kind: 'tasks' | 'evals' | 'trigger';
}

export interface FoundSkill {
  /** Relative to the project folder, `/`-separated; `.` for the folder itself. */
  dir: string;
  suites: FoundSuite[];
}

const WHERE = ['*/SKILL.md', 'skills/*/SKILL.md', '.claude/skills/*/SKILL.md'];

const rel = (root: string, p: string) => relative(root, p).split(sep).join('/') || '.';

/** The skills of `root`, or the one `--skill` names (resolved from `cwd`). */
export function findSkills(root: string, cwd: string, skill?: string): FoundSkill[] {
  if (skill !== undefined) {
    const dir = resolve(cwd, skill);
    const folder = existsSync(dir) && statSync(dir).isFile() && basename(dir) === 'SKILL.md' ? resolve(dir, '..') : dir;
    if (!existsSync(join(folder, 'SKILL.md'))) throw new UsageError(`--skill ${skill}: no SKILL.md in ${folder}`);
    const r = relative(root, folder);
    if (r.startsWith('..') || resolve(root, r) !== folder) throw new UsageError(`--skill ${skill}: the skill must be inside the project folder ${root} (pipeline.yaml's paths are relative to it)`);
    return [{ dir: rel(root, folder), suites: suitesOf(root, folder) }];
  }
  // pipeline.yaml and state/ inside a skill folder would be copied with it into every candidate.
  if (existsSync(join(root, 'SKILL.md'))) throw new UsageError(`${root} is a skill folder (it holds SKILL.md): run whet init in the folder above it, e.g. whet init .. --skill ${basename(root)}`);
  const files = fastGlob().sync(WHERE, { cwd: root, dot: true, onlyFiles: true, absolute: true, ignore: ['**/node_modules/**'] });
  return [...new Set(files.map((f) => resolve(f, '..')))].sort().map((d) => ({ dir: rel(root, d), suites: suitesOf(root, d) }));
}

/** The suites whetstone reads beside a skill: tasks.yaml, evals/evals.json, and evals/ trigger sets. */
function suitesOf(root: string, dir: string): FoundSuite[] {
  const out: FoundSuite[] = [];
  for (const f of ['tasks.yaml', 'task_suite.yaml']) if (existsSync(join(dir, f))) out.push({ path: rel(root, join(dir, f)), kind: 'tasks' });
  const evals = join(dir, 'evals');
  if (existsSync(join(evals, 'evals.json'))) out.push({ path: rel(root, join(evals, 'evals.json')), kind: 'evals' });
  if (existsSync(evals) && statSync(evals).isDirectory()) {
    for (const f of readdirSync(evals).sort()) {
      if (!f.endsWith('.json') || f === 'evals.json') continue;
      try {
        if (loadSuite(join(evals, f)).format === 'skill-creator-trigger') out.push({ path: rel(root, join(evals, f)), kind: 'trigger' });
      } catch {
        // Not a suite whetstone reads (a metrics file, a fixture): not a target.
      }
    }
  }
  return out;
}

/** The engine a trigger set needs (src/config/trigger-engine.ts), from the agent CLI found. */
function triggerEngine(found: 'claude' | 'codex' | undefined): string | undefined {
  if (found === 'claude') return '{type: claude, mode: installed}';
  if (found === 'codex') return '{type: codex, skill_delivery: installed}';
  return undefined;
}

const q = (p: string) => (/^[\w./-]+$/.test(p) ? p : JSON.stringify(p));

/** pipeline.yaml's `targets:` block for the adopted skills, each suite one target. */
export function targetsBlock(skills: FoundSkill[], found: 'claude' | 'codex' | undefined): string {
  const lines = ['# The skills found here, each with the suites beside it (one target per suite).', 'targets:'];
  let active = 0;
  for (const s of skills) {
    if (!s.suites.length) {
      lines.push(`  # - skill: ${q(s.dir)}   # no suite yet: add tasks.yaml or evals/evals.json beside its SKILL.md, then uncomment`);
      continue;
    }
    for (const suite of s.suites) {
      if (suite.kind === 'trigger') {
        const engine = triggerEngine(found);
        const head = '  # A trigger set: whether the agent invokes the skill, which only an engine that installs it can see.';
        if (engine) {
          lines.push(head, `  - skill: ${q(s.dir)}`, `    suite: ${q(suite.path)}`, `    engine: ${engine}`);
          active++;
        } else lines.push(`${head}\n  # Needs claude (mode: installed) or codex (skill_delivery: installed) on PATH:`, `  # - skill: ${q(s.dir)}`, `  #   suite: ${q(suite.path)}`, '  #   engine: {type: claude, mode: installed}');
        continue;
      }
      lines.push(`  - skill: ${q(s.dir)}`, `    suite: ${q(suite.path)}`);
      active++;
    }
  }
  if (active === 0) lines.push('  []');
  return `${lines.join('\n')}\n`;
}

/** A note for a skill-creator suite on the mock engine: its expectations need a model to grade them. */
export function judgeNote(skills: FoundSkill[], found: 'claude' | 'codex' | undefined): string {
  if (found || !skills.some((s) => s.suites.some((x) => x.kind === 'evals'))) return '';
  return "\n# skill-creator's expectations are graded by a model. The mock only counts shared words (whet run --mock\n# says so before it starts), so set a model here to grade them (docs/reference/engines.md):\n# judge_engine:\n#   type: anthropic\n#   model: claude-sonnet-4-5\n";
}
