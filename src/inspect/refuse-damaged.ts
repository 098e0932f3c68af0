// The paths that act on a run — `whet resume`, `run --from`, a single stage, `review approve|reject`,
// `rollback`, the nightly's reference and the viewer's feedback and review (issue 42) — make the check the
// read models make (verify-run.ts) before they spend a call or write a byte. `whet resume` of a completed
// run whose iteration-1 evaluation.json was cut in half rewrote report.md from what was left ("iteration 1
// evaluated no candidate" of an iteration that kept one); of an interrupted one it spent calls, finished
// the loop and marked it completed. A damaged run is refused, exit 2, each damaged file named with
// `whet verify --repair`, which moves the damage aside so resume measures it again.
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isSafeId } from '../config/safe-id.js';
import { UsageError } from '../core/errors.js';
import { displayPath } from '../config/locate.js';
import { readRecords } from '../state/records-read.js';
import { stateLayout } from '../state/layout.js';
import { formatProblems, readJsonChecked, readJsonlChecked, type Problem } from '../state/verify-files.js';
import { repairAdvice, verifyRun } from './verify-run.js';

/**
 * The problems that stop an action. Every file a recorded run holds was written whole (temp file, fsync,
 * rename) with its hash recorded first, so one that does not parse or is not its recorded bytes is damage,
 * never a crash's trace. A crash leaves only a temporary file (`leftover`) and, while the run is marked
 * running, a log's last line cut (verifyRun leaves that out): those resume handles itself. A run started
 * before hashes were recorded was written without temp files: its newest artifact cut short is left to
 * resume, which moves it aside, as before; only what no crash leaves stops it.
 */
export function blocking(problems: Problem[], legacy: boolean): Problem[] {
  if (legacy) return problems.filter((p) => p.kind === 'edited' || p.kind === 'unrecorded' || p.kind === 'garbage' || p.kind === 'link');
  return problems.filter((p) => p.kind !== 'leftover');
}

/**
 * The problems of `runId` that stop an action (none: it may act); `only` keeps those of the files the
 * action reads (a rollback works from the backups and events.jsonl alone, run.json lost or not).
 */
export async function damageOf(stateDir: string, runId: string, only?: (p: Problem) => boolean): Promise<Problem[]> {
  const check = await verifyRun(stateDir, runId);
  const found = only ? check.problems.filter(only) : check.problems;
  if (found.length === 0) return [];
  return blocking(found, readRecords(stateLayout.runDir(stateDir, runId)).legacy);
}

/**
 * The refusal's words: what was not done, each damaged file, and what mends it — the repair command, and
 * resume only where it measures again what the repair moves aside (repairAdvice: not for damage the repair
 * cannot mend, such as a backup or a lost events.jsonl, nor for a run that is not a loop run).
 */
export function damagedMessage(runId: string, action: string, problems: Problem[]): string {
  return `cannot ${action}: run ${runId} is damaged, and acting on it would go on from values nobody measured; nothing was changed and no call was spent\n${formatProblems(problems).trimEnd()}\nfirst: ${repairAdvice(runId, problems)}`;
}

/** Throws a UsageError (exit 2) naming every damaged file of `runId`, before `action` does anything. */
export async function refuseDamagedRun(stateDir: string, runId: string, action: string, only?: (p: Problem) => boolean): Promise<void> {
  const bad = await damageOf(stateDir, runId, only);
  if (bad.length) throw new UsageError(damagedMessage(runId, action, bad));
}

/**
 * `whet merge` and `whet nightly --merge` add up shards: each shard.json lies in a run of its shard's state
 * directory (`runs/<id>`, or a loop run's `iter-NNN/shards/…`), whose results logs are what is added. Each such
 * run is checked as resume checks its own, before anything is merged or written.
 */
export async function refuseDamagedShards(shardDirs: readonly string[]): Promise<void> {
  const seen = new Set<string>();
  for (const dir of shardDirs) {
    let run = dir;
    while (dirname(run) !== run && basename(dirname(run)) !== 'runs') run = dirname(run);
    if (dirname(run) === run || seen.has(run)) continue;
    seen.add(run);
    const stateDir = dirname(dirname(run));
    // A partial merge's output holds shard.json and results logs without run.json: what is there must be whole.
    const bad = await damageOf(stateDir, basename(run), (p) => p.kind !== 'missing');
    if (bad.length) throw new UsageError(`${damagedMessage(basename(run), `merge the shard in ${displayPath(dir)}`, bad).replace(/\nfirst: .*$/, '')}\nfirst: whet verify --repair --state-root ${displayPath(stateDir)} ${basename(run)}, or measure that shard again`);
  }
}

/**
 * `whet nightly` compares tonight with the nights before it: nightly/history.jsonl and the day files its
 * lines name must parse, or tonight's drift would be decided against whatever was left of them. A last
 * history line cut short says nothing and is skipped, as the nightly's reader skips it.
 */
export function refuseDamagedNights(stateDir: string): void {
  const dir = join(stateDir, 'nightly');
  const history = join(dir, 'history.jsonl');
  if (!existsSync(history)) return;
  const hint = 'restore it from a copy of the state directory, or "whet verify --repair" moves it to nightly/superseded/ (tonight is then compared with the nights that remain)';
  const h = readJsonlChecked(history, 'nightly/history.jsonl', hint);
  const problems = h.problems.filter((p) => p.kind !== 'truncated');
  const days = new Set(h.values.map((v) => (v as { file?: unknown }).file).filter((f): f is string => isSafeId(f)));
  for (const f of [...days].sort()) {
    const r = existsSync(join(dir, f)) ? readJsonChecked(join(dir, f), `the night record nightly/${f}`, hint) : undefined;
    if (r && !r.ok) problems.push(r.problem);
  }
  if (problems.length) throw new UsageError(`cannot run tonight's nightly: the earlier nights it compares with are damaged; nothing was measured and no call was spent\n${formatProblems(problems).trimEnd()}`);
}
