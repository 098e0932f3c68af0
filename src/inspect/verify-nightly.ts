// `whet verify` of what `whet nightly` keeps in nightly/: history.jsonl line by line and each day file
// (<date>.json, <date>-N.json) whole, each parsed and held to the schema it was written with
// (src/nightly/schema.ts, in the forms older nights were written in). A damaged night would otherwise only
// show when tonight's nightly refused to compare with it, or, for a schema break, never: the nightly's
// reader skips what it cannot read, and the trend and reference quietly lose those nights.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { problem, readJsonChecked, readJsonlChecked, type Problem } from '../state/verify-files.js';
import type { schemaProblem as SchemaProblem } from './verify-schemas.js';

/** The day files `whet nightly` writes (nightly.ts: a second night on one date is <date>-2.json). */
const NIGHT_FILE = /^\d{4}-\d{2}-\d{2}(-\d+)?\.json$/;

const NIGHTLY_HINTS = {
  history: '"whet verify --repair" moves the bad lines to nightly/superseded/ (whet nightly already skips them; the trend loses those nights)',
  day: '"whet verify --repair" moves it to nightly/superseded/, and later nights compare with the nights that remain (a lost reference night is replaced by the next); or restore it from a copy of the state directory',
};

export function nightlyProblems(stateDir: string, schemaProblem: typeof SchemaProblem): Problem[] {
  const dir = join(stateDir, 'nightly');
  if (!existsSync(dir)) return [];
  const out: Problem[] = [];
  const history = join(dir, 'history.jsonl');
  if (existsSync(history)) {
    const check = (v: unknown) => {
      const wrong = schemaProblem('history', v, '', history);
      return wrong ? `does not match its schema: ${wrong.message}` : undefined;
    };
    out.push(...readJsonlChecked(history, 'nightly/history.jsonl', NIGHTLY_HINTS.history, check).problems);
  }
  for (const name of readdirSync(dir).filter((n) => NIGHT_FILE.test(n)).sort()) {
    const file = join(dir, name);
    const r = readJsonChecked(file, `the night record nightly/${name}`, NIGHTLY_HINTS.day);
    if (!r.ok) {
      out.push(r.problem);
      continue;
    }
    const wrong = schemaProblem('night', r.value, r.bytes.toString('utf8'), file);
    if (wrong) out.push(problem(file, 'schema', `the night record nightly/${name} does not match its schema: ${wrong.message}`, NIGHTLY_HINTS.day, wrong.at));
  }
  return out;
}
