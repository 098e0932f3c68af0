// What a loop run leaves behind, in the words `whet run` and `whet resume` end with (issue 41): the
// candidates kept and where they were applied, or that nothing was; a candidate waiting for a person; and
// why the run stopped. The keep itself is printed iterations up; this is the line a reader looks for.
import { isAbsolute, join, relative } from 'node:path';
import type { RunView } from './run-view.js';

const shown = (cwd: string, p: string): string => {
  const r = relative(cwd, p);
  return r && !r.startsWith('..') && !isAbsolute(r) ? r : p;
};

/** The stop rule of a finished run ("stopped by plateau: …" gives plateau); an unfinished one says its status. */
export function stoppedWord(status: string, reason: string): string {
  if (status !== 'done') return status.replace(/_/g, ' ');
  return /^stopped by ([^:;(]+)/.exec(reason)?.[1]?.trim() ?? (reason.split(/[:;]/)[0] ?? reason).trim();
}

/** Whether the run's target is the copy a mock run improves (src/loop/open.ts), not the author's skill. */
export function isMockCopy(stateDir: string, skillDir: string): boolean {
  const rel = relative(join(stateDir, 'mock-copies'), skillDir);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/**
 * One or two lines: "kept 1 (iteration 1: cand-…), applied to SKILL.md (backup …); stopped: plateau" or
 * "kept nothing; SKILL.md unchanged; stopped: plateau", then, for a mock run's copy, where the author's
 * own skill stands.
 */
export function outcomeLines(view: RunView, o: { stateDir: string; cwd: string; status: string; reason: string; copyOf?: string }): string[] {
  const target = view.manifest?.target as { skill_path?: string; skill_dir?: string } | undefined;
  const file = target?.skill_path ? shown(o.cwd, target.skill_path) : 'SKILL.md';
  const gates = view.iterations.flatMap((it) => (it.gate ? [{ iteration: it.iteration, ...it.gate }] : []));
  const kept = gates.filter((g) => g.decision === 'keep');
  const waiting = gates.filter((g) => g.decision === 'pending_review');
  const stopped = `stopped: ${stoppedWord(o.status, o.reason)}`;
  const copy = !!target?.skill_dir && isMockCopy(o.stateDir, target.skill_dir);
  const where = copy ? `the mock run's copy ${file}` : file;
  let first: string;
  if (kept.length === 0) first = `kept nothing; ${where} unchanged`;
  else {
    const which = kept.map((g) => `iteration ${g.iteration}: ${g.candidate ?? '?'}`).join(', ');
    // The first keep's backup holds the skill as it was before the run.
    const backup = (kept[0]!.applied as { backup?: string } | undefined)?.backup;
    const undone = view.rolled_back_at ? `, then undone by whet rollback at ${view.rolled_back_at}` : '';
    first = `kept ${kept.length} (${which}), applied to ${where}${backup ? ` (backup ${shown(o.cwd, join(o.stateDir, backup))})` : ''}${undone}`;
  }
  const mockKeeps = view.manifest?.mock_keeps as { applied_to?: string; skill_dir?: string; because?: string; asked_by?: string } | undefined;
  const review = waiting.length ? `; ${waiting.length} wait(s) for review (${waiting.map((g) => `iteration ${g.iteration}: ${g.candidate ?? '?'}`).join(', ')}: whet review approve|reject)` : '';
  // The run's one claim (issue 38), from the last gate that recorded it: what "kept" is held to.
  const level = gates.map((g) => g.run_level as { significance?: number; max_iterations?: number; per_candidate?: number; enforced?: boolean } | undefined).filter((r) => r?.per_candidate !== undefined).at(-1);
  const claim = level ? [`run-level: an edit that does nothing is kept in at most ${level.significance} of runs (each of at most ${level.max_iterations} candidate(s) at ${level.per_candidate}${level.enforced === false ? '; shown, not enforced, on the mock engine' : ''})`] : [];
  const lines = [...claim, `${first}${review}; ${stopped}`];
  if (copy) {
    const ownDir = o.copyOf ?? mockKeeps?.skill_dir;
    const own = ownDir ? shown(o.cwd, join(ownDir, 'SKILL.md')) : 'your own SKILL.md';
    lines.push(`the mock engine is not a model (it answers by quoting the skill), so this run improved a copy: ${own} is unchanged; whet run --mock --apply lets a mock run edit it`);
  } else if (mockKeeps?.applied_to === 'skill' && kept.length) {
    // Asked for with --apply: said again where the keep is read, since the mock's keep is template text.
    lines.push(`the mock engine is not a model (${mockKeeps.because ?? 'engine: mock'}): ${file} has its template text because ${mockKeeps.asked_by ?? '--apply'} asked for it; whet rollback ${view.manifest?.run_id ?? 'RUN'} undoes it`);
  }
  return lines;
}
