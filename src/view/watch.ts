// Live updates: the state directory is polled (a few stat calls a run) while a page listens, and each
// change is sent as a Server-Sent Event naming the runs that moved. Polling, not fs.watch: it sees writes
// by any process — another terminal, a CI job, a shard on a shared disk where inotify says nothing — and a
// run that appears, the same way on every platform.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isSafeId } from '../config/safe-id.js';
import { iterations } from '../loop/iterations.js';
import { iterationPaths } from '../loop/paths.js';
import { stateLayout } from '../state/layout.js';

const stamp = (file: string): string => {
  try {
    const s = statSync(file);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return '-';
  }
};

/** What changes when a run moves: its run.json and events, its newest iteration's files and results logs. */
function runStamp(runDir: string): string {
  const parts = [stamp(stateLayout.runManifest(runDir)), stamp(stateLayout.events(runDir))];
  const its = iterations(runDir);
  const n = its[its.length - 1];
  if (n !== undefined) {
    const dir = iterationPaths(runDir, n).dir;
    parts.push(String(n), stamp(dir));
    const results = stateLayout.resultsDir(dir);
    if (existsSync(results)) for (const f of readdirSync(results).sort()) parts.push(f, stamp(join(results, f)));
  }
  return parts.join('|');
}

/** Every run's stamp, and the feedback file's. */
export function snapshot(stateDir: string): Map<string, string> {
  const out = new Map<string, string>();
  const runs = stateLayout.runsDir(stateDir);
  if (existsSync(runs)) for (const id of readdirSync(runs).filter(isSafeId)) out.set(id, runStamp(stateLayout.runDir(stateDir, id)));
  out.set('@feedback', stamp(stateLayout.feedback(stateDir)));
  return out;
}

/** The keys whose stamp differs (a run added, removed or moved). */
export function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).sort();
}

export interface Watcher {
  add(send: (changes: string[]) => void): () => void;
  close(): void;
}

/** Polls every `ms` while at least one listener is there. */
export function watchState(stateDir: string, ms: number): Watcher {
  const listeners = new Set<(changes: string[]) => void>();
  let last = snapshot(stateDir);
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    let next: Map<string, string>;
    try {
      next = snapshot(stateDir);
    } catch {
      return; // a folder removed mid-read (prune): the next tick sees the result
    }
    const c = changed(last, next);
    last = next;
    if (c.length) for (const l of listeners) l(c);
  };
  return {
    add(send) {
      listeners.add(send);
      if (!timer) {
        last = snapshot(stateDir);
        timer = setInterval(tick, ms);
      }
      return () => {
        listeners.delete(send);
        if (listeners.size === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
    close() {
      listeners.clear();
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
