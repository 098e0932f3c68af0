// Tells the user and the run directory about subscription rate limits while a run is going: every pause
// (until when), resume and stop of an agent CLI's gate (src/engines/subscription-limit.ts) is said on
// stderr and appended to the run's events.jsonl, where `whet status` reads it (rateLimitState). One
// watcher per run directory: a loop run's evaluate stage inside an already watched run adds none.
import { existsSync, readFileSync } from 'node:fs';
import { onSubscriptionLimit, type LimitNotice } from '../engines/subscription-limit.js';
import { appendEvent } from '../state/events.js';
import { stateLayout } from '../state/layout.js';

const watched = new Set<string>();

/** Starts watching for `runDir`; returns the function that stops it. */
export function watchRateLimits(runDir: string, log: (line: string) => void, now: () => Date): () => void {
  if (watched.has(runDir)) return () => undefined;
  watched.add(runDir);
  const off = onSubscriptionLimit((n: LimitNotice) => {
    log(`whet: ${n.message}`);
    const event = n.kind === 'pause' ? 'rate_limit_paused' : n.kind === 'resume' ? 'rate_limit_resumed' : 'rate_limit_stopped';
    try {
      appendEvent(runDir, { event, engine: n.engine, ...(n.resetsAt !== undefined ? { resets_at: new Date(n.resetsAt).toISOString() } : {}), ...(n.limitType ? { limit_type: n.limitType } : {}), message: n.message }, now());
    } catch {
      // The diary is for people; a run must not fail because a line could not be added to it.
    }
  });
  return () => {
    off();
    watched.delete(runDir);
  };
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
