// The targets of pipeline.yaml, expanded: a skill folder, a SKILL.md, or a glob of either
// (`skills/*/SKILL.md`, expanded with fast-glob and sorted), each with its suite — the one the target
// names, else tasks.yaml or task_suite.yaml beside the skill — and its own engine when it overrides one.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import fg from 'fast-glob';
import { ConfigError } from '../errors.js';
import type { EngineConfig } from './engine-schema.js';
import type { PipelineConfig } from './pipeline.js';

export interface ResolvedTarget {
  /** Folder holding SKILL.md. */
  skillDir: string;
  suitePath: string;
  engine?: EngineConfig;
}

/** The suite of a skill: the one named, else tasks.yaml or task_suite.yaml beside SKILL.md. */
export function suiteFor(skillDir: string, named?: string): string {
  if (named) return named;
  for (const f of ['tasks.yaml', 'task_suite.yaml']) if (existsSync(join(skillDir, f))) return join(skillDir, f);
  throw new ConfigError(`no task suite for ${skillDir}: add tasks.yaml beside SKILL.md or name "suite:" in the target`);
}

export function expandTargets(cfg: PipelineConfig): ResolvedTarget[] {
  const out: ResolvedTarget[] = [];
  for (const t of cfg.targets) {
    const isGlob = fg.isDynamicPattern(relative(cfg.dir, t.skill));
    const paths = isGlob ? fg.sync(relative(cfg.dir, t.skill), { cwd: cfg.dir, onlyFiles: false, absolute: true }).sort() : [t.skill];
    if (isGlob && paths.length === 0) throw new ConfigError(`target "${relative(cfg.dir, t.skill)}" matches nothing`, cfg.path);
    for (const p of paths) {
      const skillDir = existsSync(p) && statSync(p).isDirectory() ? p : dirname(p);
      if (!existsSync(join(skillDir, 'SKILL.md'))) throw new ConfigError(`target ${p} has no SKILL.md`, cfg.path);
      // A suite named for a glob target would be shared by every match; resolve it per skill instead.
      out.push({ skillDir, suitePath: suiteFor(skillDir, isGlob ? undefined : t.suite), engine: t.engine });
    }
  }
  const seen = new Set<string>();
  return out.filter((t) => (seen.has(t.skillDir) ? false : (seen.add(t.skillDir), true))).map((t) => ({ ...t, skillDir: resolve(t.skillDir) }));
}
