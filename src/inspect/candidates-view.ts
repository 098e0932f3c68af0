// What `whet show RUN generate` and `whet diff RUN CAND` read: which iteration holds a stage's artifact
// (the newest that has one — a run that stopped after learn has no gate in its last iteration), each
// candidate as a reviewer needs it (what it changes, why, and which signal it answers, not just its id),
// and a candidate by id in a given iteration, since ids like cand-01-structure-examples recur across
// iterations. Lenient reads, like the rest of inspect: a damaged artifact shows what it has.
import { existsSync } from 'node:fs';
import { iterationPaths } from '../loop/paths.js';
import { iterations } from '../loop/iterations.js';
import { readLenient, type Json } from '../state/read-lenient.js';

export type StageFile = 'baseline' | 'candidates' | 'ranking' | 'evaluation' | 'gate' | 'learning';


/** The iterations of a run that have this stage's artifact, oldest first. */
export function iterationsWith(runDir: string, file: StageFile): number[] {
  return iterations(runDir).filter((n) => existsSync(iterationPaths(runDir, n)[file]));
}

const clip = (s: unknown, max = 70) => {
  const flat = String(s ?? '').replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
};

/** One edit action in a line: its type, where it acts, and the text it brings (clipped). */
export function describeAction(a: Json): string {
  const why = a.reason ? ` — ${a.reason}` : '';
  const body = (b: unknown) => `${String(b ?? '').split('\n').length} line(s)`;
  switch (a.type) {
    case 'append_section':
      return `append_section ${clip(a.heading)}${a.after ? ` after ${clip(a.after)}` : ' at the end'} (${body(a.body)})${why}`;
    case 'insert_before_section':
      return `insert_before_section ${clip(a.heading)} before ${clip(a.section)} (${body(a.body)})${why}`;
    case 'replace_section':
      return `replace_section ${clip(a.section)}${a.keep_subsections ? ', keeping its subsections' : ''} (${body(a.body)})${why}`;
    case 'update_frontmatter': {
      const set = Object.keys(a.set ?? {});
      const parts = [set.length ? `set ${set.join(', ')}` : '', a.remove?.length ? `remove ${a.remove.join(', ')}` : ''].filter(Boolean);
      return `update_frontmatter ${parts.join('; ') || '(nothing)'}${why}`;
    }
    case 'replace_text':
      return `replace_text ${clip(a.find, 40)} → ${clip(a.replace, 40)}${a.occurrence ? ` (occurrence ${a.occurrence})` : ''}${why}`;
    case 'append_text':
      return `append_text ${clip(a.text, 40)}${why}`;
    default:
      return `${String(a.type ?? 'unknown action')}${why}`;
  }
}

/** The signal a candidate answers, e.g. "train failures rn-security-01, rn-security-02: …". */
export function describeSignal(s: Json | undefined): string {
  if (!s) return 'not recorded';
  const kind = s.kind === 'train_failures' ? 'train failures' : s.kind === 'structure' ? 'structure' : s.kind === 'llm' ? "the model's own reading" : String(s.kind);
  const where = [s.dimension ? `dimension ${s.dimension}` : '', s.tasks?.length ? `tasks ${s.tasks.join(', ')}` : ''].filter(Boolean).join(', ');
  return `${kind}${where ? ` (${where})` : ''}${s.detail ? `: ${s.detail}` : ''}`;
}

/** The readable candidates.json of one iteration. */
export function formatCandidates(artifact: Json, iteration: number): string {
  const cands: Json[] = artifact.candidates ?? [];
  const out = [`iteration ${iteration}: ${cands.length} candidate(s) proposed for ${artifact.target?.path ?? 'the target'}`];
  for (const c of cands) {
    const stats = c.diff_stats ? `, +${c.diff_stats.added} −${c.diff_stats.removed} line(s)` : '';
    out.push('', `${c.id}: ${c.title}`, `  category ${c.category}, risk ${c.risk}, proposer ${c.proposer}${stats}`);
    out.push(`  rationale: ${c.rationale ?? '(none)'}`, `  answers: ${describeSignal(c.answers)}`, '  actions:');
    (c.actions ?? []).forEach((a: Json, i: number) => out.push(`    ${i + 1}. ${describeAction(a)}`));
  }
  for (const e of artifact.proposer_errors ?? []) out.push('', `proposer ${e.proposer} failed: ${e.message}`);
  for (const s of artifact.skipped ?? []) out.push(`skipped "${s.title}" (${s.proposer}): ${s.why}`);
  return out.join('\n');
}

export type FoundCandidate = { iteration: number; candidate: Json; all: number[] };

/** A candidate by id: in the given iteration, else the newest that has it; `all` lists every iteration that does. */
export function findCandidate(runDir: string, id: string, iteration?: number, damaged: ReadonlySet<string> = new Set()): FoundCandidate | undefined {
  const found: { n: number; c: Json }[] = [];
  for (const n of iterationsWith(runDir, 'candidates')) {
    if (damaged.has(iterationPaths(runDir, n).candidates)) continue;
    const c = (readLenient(iterationPaths(runDir, n).candidates)?.candidates as Json[] | undefined)?.find((x) => x.id === id);
    if (c) found.push({ n, c });
  }
  const all = found.map((f) => f.n);
  const hit = iteration === undefined ? found[found.length - 1] : found.find((f) => f.n === iteration);
  return hit ? { iteration: hit.n, candidate: hit.c, all } : undefined;
}
