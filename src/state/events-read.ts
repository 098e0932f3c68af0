// What the readers of a run's events.jsonl (`whet status`, `whet show`, the report) find in it, read line
// by line and leniently: a torn last line says nothing. Apart from events.ts, which checks every line it
// writes against a schema, so that reading the diary loads no zod.
import { existsSync, readFileSync } from 'node:fs';
import { stateLayout } from './layout.js';

/** When the run's promotions were last undone by `whet rollback` (its events log), or null. */
export function rolledBackAt(runDir: string): string | null {
  const file = stateLayout.events(runDir);
  if (!existsSync(file)) return null;
  let at: string | null = null;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('"rollback"')) continue;
    try {
      const e = JSON.parse(line) as { event?: string; at?: string };
      if (e.event === 'rollback') at = e.at ?? at;
    } catch {
      // A line cut short by a crash says nothing reliable.
    }
  }
  return at;
}

export interface RateLimitState {
  state: 'paused' | 'stopped';
  engine: string;
  resets_at: string | null;
  message: string;
}

/**
 * The run's rate-limit state from its events.jsonl: `paused` while the newest pause has not been followed
 * by a resume (and its reset is still ahead), `stopped` when the newest such event is a stop; else null.
 */
export function rateLimitState(runDir: string, now: Date): RateLimitState | null {
  const file = stateLayout.events(runDir);
  if (!existsSync(file)) return null;
  let last: Record<string, unknown> | undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      // Any later start of work (a resumed session, a stage) ends what an earlier stop or pause said.
      const e = JSON.parse(line) as Record<string, unknown>;
      if (typeof e['event'] === 'string' && /^(rate_limit_|started$|resumed$|stage_started$|run_started$|run_ended$)/.test(e['event'])) last = e;
    } catch {
      // A torn last line says nothing reliable.
    }
  }
  if (!last || (last['event'] !== 'rate_limit_paused' && last['event'] !== 'rate_limit_stopped')) return null;
  const resets = typeof last['resets_at'] === 'string' ? last['resets_at'] : null;
  if (last['event'] === 'rate_limit_paused' && resets !== null && Date.parse(resets) < now.getTime() - 60_000) return null;
  return { state: last['event'] === 'rate_limit_paused' ? 'paused' : 'stopped', engine: String(last['engine'] ?? '?'), resets_at: resets, message: String(last['message'] ?? '') };
}
