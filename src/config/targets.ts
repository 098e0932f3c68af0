// The targets of pipeline.yaml, expanded: a skill folder, a SKILL.md, or a glob of either
// (`skills/*/SKILL.md`, expanded with fast-glob and sorted), each with its suite — the one the target
// names, else tasks.yaml or task_suite.yaml beside the skill, else evals/evals.json — and its own engine when it overrides one.
// A target is skill + suite + engine (its `key`); only exact duplicates collapse.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fastGlob } from '../core/lazy.js';
import { canonicalJson, sha256 } from '../core/hash.js';
import { ConfigError } from '../core/errors.js';
import type { EngineConfig } from './engine-schema.js';
import type { PipelineConfig } from './pipeline.js';

export interface ResolvedTarget {
  /** Folder holding SKILL.md. */
  skillDir: string;
  suitePath: string;
  engine?: EngineConfig;
  /** What the target is — skill, suite and engine override — so one skill measured two ways is two targets. */
  key: string;
}

/** A stable id of skill + suite + engine override: the same three always give the same key. */
export function targetKey(skillDir: string, suitePath: string, engine: EngineConfig | undefined): string {
  return sha256(canonicalJson({ skill: resolve(skillDir), suite: resolve(suitePath), engine: engine ?? null })).slice('sha256:'.length, 'sha256:'.length + 16);
}

/**
 * The suite of a skill: the one named, else tasks.yaml or task_suite.yaml beside SKILL.md, else
 * skill-creator's evals/evals.json in the skill folder — or in a folder above it, for repositories that
 * keep SKILL.md in a sub-folder and evals/ at their root (at most two levels up, never past a `.git` root).
 */
export function suiteFor(skillDir: string, named?: string): string {
  if (named) return named;
  for (const f of ['tasks.yaml', 'task_suite.yaml']) if (existsSync(join(skillDir, f))) return join(skillDir, f);
  let dir = resolve(skillDir);
  for (let up = 0; up <= EVALS_JSON_LEVELS_UP; up++) {
    const evals = join(dir, 'evals', 'evals.json');
    if (existsSync(evals)) return evals;
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) break;
    dir = dirname(dir);
  }
  throw new ConfigError(`no task suite for ${skillDir}: add tasks.yaml (or skill-creator's evals/evals.json) beside SKILL.md or name "suite:" in the target`);
}

const EVALS_JSON_LEVELS_UP = 2;

/**
 * Refuses, at its line of pipeline.yaml, a target whose skill or suite path names nothing (issue 42: "skill
 * not found: skills/nope" named neither the file nor the line). A glob is checked by what it matches.
 */
export function refuseMissingTargetPaths(cfg: PipelineConfig, i: number): void {
  const t = cfg.targets[i];
  if (!t) return;
  const where = (key: 'skill' | 'suite') => [cfg.at?.(['targets', i, key]) ?? cfg.path ?? 'pipeline.yaml', `targets[${i}].${key}`] as const;
  const shown = (p: string) => relative(cfg.dir, p) || '.';
  if (!fastGlob().isDynamicPattern(relative(cfg.dir, t.skill)) && !existsSync(t.skill)) throw new ConfigError(`no such skill folder or SKILL.md: ${shown(t.skill)} (relative to ${cfg.path ? 'the folder of pipeline.yaml' : 'the working folder'})`, ...where('skill'));
  if (t.suite && !existsSync(t.suite)) throw new ConfigError(`no such suite file: ${shown(t.suite)} (relative to ${cfg.path ? 'the folder of pipeline.yaml' : 'the working folder'})`, ...where('suite'));
}

export function expandTargets(cfg: PipelineConfig, warn: (line: string) => void = () => undefined): ResolvedTarget[] {
  const out: ResolvedTarget[] = [];
  for (const [i, t] of cfg.targets.entries()) {
    refuseMissingTargetPaths(cfg, i);
    const at = cfg.at?.(['targets', i, 'skill']) ?? cfg.path;
    const isGlob = fastGlob().isDynamicPattern(relative(cfg.dir, t.skill));
    const paths = isGlob ? fastGlob().sync(relative(cfg.dir, t.skill), { cwd: cfg.dir, onlyFiles: false, absolute: true }).sort() : [t.skill];
    if (isGlob && paths.length === 0) throw new ConfigError(`target "${relative(cfg.dir, t.skill)}" matches nothing`, at);
    for (const p of paths) {
      const skillDir = existsSync(p) && statSync(p).isDirectory() ? p : dirname(p);
      if (!existsSync(join(skillDir, 'SKILL.md'))) throw new ConfigError(`target ${p} has no SKILL.md`, at);
      // A suite named for a glob target would be shared by every match; resolve it per skill instead.
      const suitePath = resolve(suiteFor(skillDir, isGlob ? undefined : t.suite));
      out.push({ skillDir: resolve(skillDir), suitePath, engine: t.engine, key: targetKey(skillDir, suitePath, t.engine) });
    }
  }
  // Only an exact duplicate (a glob and a folder naming the same skill, suite and engine) collapses: the same
  // skill with another suite or engine is a different measurement and must not be dropped silently.
  const seen = new Set<string>();
  return out.filter((t) => {
    if (!seen.has(t.key)) return seen.add(t.key), true;
    warn(`warning: target ${relative(cfg.dir, t.skillDir) || '.'} (suite ${relative(cfg.dir, t.suitePath)}) is listed more than once in ${cfg.path ?? 'pipeline.yaml'}; evaluating it once`);
    return false;
  });
}
