// Tells the user and the run directory about subscription rate limits while a run is going: every pause
// (until when), resume and stop of an agent CLI's gate (src/engines/subscription-limit.ts) is said on
// stderr and appended to the run's events.jsonl, where `whet status` reads it (rateLimitState, src/state/events-read.ts). One
// watcher per run directory: a loop run's evaluate stage inside an already watched run adds none.
import { onSubscriptionLimit, type LimitNotice } from '../engines/subscription-limit.js';
import { appendEvent } from '../state/events.js';

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
