// A progress bar for long evaluations, drawn on stderr only when it is a terminal: done/total,
// pass/fail/error counts and an ETA from the rate so far. Redraws are throttled so ten thousand fast
// tasks do not turn into ten thousand writes — of the bar, or of the results log it reports on.
export interface Progress {
  /**
   * `unjudged` attempts (nothing to grade them by) count as done, in no column. `beforeDraw` runs before
   * the bar shows new counts, only then: what it shows as judged must be on disk first (run-variant.ts).
   */
  tick(status: 'pass' | 'fail' | 'error' | 'unjudged', beforeDraw?: () => void): void;
  done(): void;
}

export function formatBar(label: string, s: { done: number; total: number; pass: number; fail: number; error: number; elapsedMs: number }, width = 24): string {
  const frac = s.total === 0 ? 1 : s.done / s.total;
  const filled = Math.round(frac * width);
  const rate = s.elapsedMs > 0 ? s.done / s.elapsedMs : 0;
  const etaMs = rate > 0 ? (s.total - s.done) / rate : NaN;
  const eta = Number.isFinite(etaMs) ? `ETA ${etaMs < 1000 ? '<1s' : `${Math.ceil(etaMs / 1000)}s`}` : 'ETA --';
  return `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${s.done}/${s.total} pass ${s.pass} fail ${s.fail} error ${s.error} ${eta}`;
}

export function createProgress(label: string, total: number, write: (s: string) => void, now: () => number = () => performance.now(), everyMs = 100): Progress {
  const started = now();
  const s = { done: 0, total, pass: 0, fail: 0, error: 0, elapsedMs: 0 };
  let last = -Infinity;
  const draw = () => {
    s.elapsedMs = now() - started;
    write(`\r\x1b[2K${formatBar(label, s)}`);
  };
  return {
    tick(status, beforeDraw) {
      s.done++;
      if (status !== 'unjudged') s[status]++;
      const t = now();
      if (t - last >= everyMs || s.done === total) {
        last = t;
        beforeDraw?.();
        draw();
      }
    },
    done() {
      draw();
      write('\n');
    },
  };
}
