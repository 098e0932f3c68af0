// A task suite's `intents:` block (issue 5 §6): an intent case file and a capability catalogue, both
// inside the suite's folder, become tasks judged by `tool_call`. Each case is one task: id = case id,
// category = kind, prompt = the utterance verbatim, negative = the case expects a refusal. The case
// file and catalogue go into the suite's content hash, so editing either invalidates a cached baseline.
// Problems inside the files are reported by the intents loaders at `file:line:col`.
import type { Hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { checkCasesAgainstCatalog, loadCases } from './intent-cases.js';
import { loadCatalog } from './intent-catalog.js';
import { ConfigError } from '../core/errors.js';
import { fixtureInside } from './fixture-path.js';
import { SAFE_ID, type SuiteInput, type SuiteIntents, type Task } from './suite-schema.js';

export interface LoadedSuiteIntents {
  intents: SuiteIntents;
  /** One task per case, in file order; `index` continues after the suite's own tasks. */
  tasks: Task[];
}

export function loadSuiteIntents(
  spec: NonNullable<SuiteInput['intents']>,
  dir: string,
  o: { at: (path: (string | number)[]) => string; hash: Hash; firstIndex: number; timeoutMs: number },
): LoadedSuiteIntents | ConfigError[] {
  const problems: ConfigError[] = [];
  const casesFile = fixtureInside(dir, spec.cases, (m) => problems.push(new ConfigError(m, o.at(['intents', 'cases']), 'intents.cases')));
  const catalogPath = fixtureInside(dir, spec.catalog, (m) => problems.push(new ConfigError(m, o.at(['intents', 'catalog']), 'intents.catalog')));
  if (!casesFile || !catalogPath) return problems;
  // Paths in messages are shown the way the suite's own are (relative to the working directory).
  const catalog = loadCatalog(catalogPath, process.cwd());
  const loaded = loadCases(casesFile, process.cwd());
  checkCasesAgainstCatalog(loaded, catalog);
  o.hash.update('\0intents.cases\0').update(readFileSync(casesFile)).update(`\0intents.catalog\0${catalog.hash}`);

  const cases = new Map(loaded.cases.map((c) => [c.id, c]));
  const tasks: Task[] = [];
  loaded.cases.forEach((c, i) => {
    // Case ids become result and run file names, like task ids.
    if (!SAFE_ID.test(c.id)) {
      problems.push(new ConfigError(`case id "${c.id}" must be a safe file name to be a task id (letters, digits, ".", "_", "-")`, loaded.at(i, ['id']), 'id'));
      return;
    }
    tasks.push({
      id: c.id,
      prompt: c.utterance,
      description: c.note,
      judges: [{ type: 'tool_call', case_id: c.id }],
      timeoutMs: o.timeoutMs,
      category: c.kind,
      negative: c.expect.behavior === 'refuse',
      critical: false,
      index: o.firstIndex + i,
    });
  });
  if (problems.length > 0) return problems;
  return { intents: { cases, catalog }, tasks };
}
