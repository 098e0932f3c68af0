// The judge specs a suite's llm-rubric judges point at, loaded for the leakage check. A spec that cannot
// be loaded, or a judge that gives both an inline rubric and a spec, would make every task it judges an
// error at run time; lint says so first, at the task's line.
import { relative, resolve } from 'node:path';
import { fixtureInside } from '../config/fixture-path.js';
import { displayPath } from '../config/load-yaml.js';
import { loadJudgeSpec } from '../judges/spec.js';
import type { LoadedJudgeSpec } from '../judges/spec-schema.js';
import type { Finding, LintContext } from './types.js';
import { judgePath } from './types.js';

export interface JudgeSpecsFound {
  specs: { loaded: LoadedJudgeSpec; shown: string }[];
  findings: Finding[];
}

/** `extra` are spec files named on the command line (resolved against cwd), checked like the suite's. */
export function loadSuiteJudgeSpecs(ctx: Omit<LintContext, 'judgeSpecs' | 'skill'>, extra: string[], cwd: string): JudgeSpecsFound {
  const found: JudgeSpecsFound = { specs: [], findings: [] };
  const seen = new Set<string>();
  const take = (path: string) => {
    const loaded = loadJudgeSpec(path);
    if (seen.has(loaded.path)) return;
    seen.add(loaded.path);
    found.specs.push({ loaded, shown: displayPath(loaded.path, cwd) });
  };
  for (const t of ctx.suite.tasks) {
    t.judges.forEach((j, k) => {
      if (j.type !== 'llm-rubric' && j.type !== 'llm_rubric') return;
      const jp = judgePath(ctx, t.index, k);
      const add = (key: string, rule: string, message: string, hint: string) =>
        found.findings.push({ file: ctx.file, line: ctx.lineOf([...jp, key]), severity: 'error', rule, task: t.id, message: `task "${t.id}": ${message}`, hint });
      if (j.spec !== undefined && j.rubric !== undefined) {
        add('spec', 'judge-rubric-and-spec', 'the llm-rubric judge gives both "rubric" and "spec"; it cannot tell which one defines the labels', 'keep the spec file and move the rubric text into its label definitions');
      }
      if (j.spec === undefined) return;
      let problem: string | undefined;
      const file = fixtureInside(ctx.suite.dir, j.spec, (m) => (problem = m));
      if (!file) return add('spec', 'judge-spec-invalid', problem ?? `judge spec ${j.spec} cannot be read`, 'point spec: at a judge spec file inside the suite folder');
      try {
        take(file);
      } catch (err) {
        add('spec', 'judge-spec-invalid', `judge spec ${relative(ctx.suite.dir, file)} is invalid: ${(err as Error).message}`, 'fix the spec file (see examples/judges/release-notes-quality.yaml)');
      }
    });
  }
  // A spec named on the command line that does not load is a usage problem: let its ConfigError through.
  for (const e of extra) take(resolve(cwd, e));
  return found;
}
