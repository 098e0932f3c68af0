// run.json after `whet verify --repair`: rebuilt when it was lost or damaged, from the manifest run_started
// registered (src/loop/open.ts: `registered`), with the iteration and status the run's artifacts now say;
// marked `interrupted` when measurements were moved aside, so `whet resume` takes the run up again.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { iterations } from '../loop/iterations.js';
import { loopManifest } from '../loop/manifest.js';
import { nextStep } from '../loop/next-step.js';
import { ONCE } from '../core/parse-once.js';
import { sha256 } from '../core/hash.js';
import { stateLayout } from '../state/layout.js';
import { readLenient } from '../state/read-lenient.js';
import { supersedeFile, writeRunManifest, type RunManifest } from '../state/runs.js';
import { statusAfter } from './preflight.js';

/**
 * The manifest run_started registered: registered.json when the line names it by hash (and the file is those
 * bytes), the line's own `registered` in runs started before; undefined when neither is there whole.
 */
function registered(runDir: string): Record<string, unknown> | undefined {
  const file = stateLayout.events(runDir);
  if (!existsSync(file)) return undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('"run_started"')) continue;
    try {
      const e = JSON.parse(line) as { event?: unknown; registered?: unknown; registered_sha256?: unknown };
      if (e.event !== 'run_started') continue;
      if (typeof e.registered === 'object' && e.registered !== null) return e.registered as Record<string, unknown>;
      const kept = stateLayout.registeredManifest(runDir);
      if (typeof e.registered_sha256 !== 'string' || !existsSync(kept)) return undefined;
      const bytes = readFileSync(kept);
      if (sha256(bytes) !== e.registered_sha256) return undefined;
      const m = JSON.parse(bytes.toString('utf8')) as unknown;
      return typeof m === 'object' && m !== null ? (m as Record<string, unknown>) : undefined;
    } catch {
      // a torn line or file registers nothing
    }
  }
  return undefined;
}

export async function rebuildManifest(stateDir: string, runDir: string, o: { rebuild: boolean; superseded: boolean; now: Date }): Promise<{ ok: boolean; message: string }> {
  const file = stateLayout.runManifest(runDir);
  const its = iterations(runDir);
  const status = o.superseded ? 'interrupted' : its.length ? statusAfter(nextStep(runDir)) : 'interrupted';
  const now = o.now.toISOString();
  if (!o.rebuild) {
    if (!o.superseded) return { ok: true, message: '' };
    const m = readLenient(file);
    if (!m) return { ok: false, message: `run.json cannot be read, so the run is not marked interrupted` };
    await writeRunManifest(runDir, { ...(m as RunManifest), status, updated_at: now, ...(its.length ? { iteration: its[its.length - 1] } : {}) });
    return { ok: true, message: `run.json: status ${status}; "whet resume ${String(m.run_id)}" measures again what was moved` };
  }
  const reg = registered(runDir);
  const rel = relative(stateDir, file);
  if (!reg) {
    const why = its.length
      ? 'no registered manifest is left whole (registered.json is missing or not the file run_started named, the run started before whetstone kept one, or that line was lost)'
      : 'a standalone evaluation keeps no manifest in its events (run the same "whet evaluate" command again: it measures anew)';
    return { ok: false, message: `${rel} not rebuilt: ${why}; restore run.json from a copy of the state directory` };
  }
  const rebuilt = { ...reg, status, updated_at: now, iteration: its[its.length - 1] ?? 1 };
  const checked = loopManifest.safeParse(rebuilt, ONCE);
  if (!checked.success) return { ok: false, message: `${rel} not rebuilt: the manifest run_started registered does not match its schema (${checked.error.issues[0]?.message ?? '?'})` };
  const aside = existsSync(file) ? supersedeFile(runDir, file, o.now) : undefined;
  await writeRunManifest(runDir, checked.data);
  return { ok: true, message: `${rel} rebuilt from the manifest registered when the run started (status ${status}, iteration ${rebuilt.iteration})${aside ? `; the damaged one moved to ${relative(stateDir, aside)}` : ''}` };
}
