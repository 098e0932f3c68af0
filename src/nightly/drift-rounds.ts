// Where `whet nightly` runs tonight's drift rounds: inside each target's evaluation, after its first
// measurement and under the state lock (src/measure/standalone.ts AfterFirst), when the engines are noisy
// (engineNoise: the same rule the evaluate stage follows) and the previous night of the target recorded
// attempt counts. A night merged from shards has no evaluation to add rounds to: its drift is tested once,
// with the attempts it has (drift.ts).
import { engineNoise } from '../measure/setup.js';
import type { AfterFirst } from '../measure/standalone.js';
import type { VariantOutcome } from '../evaluation/run-variant.js';
import type { SequentialSettings } from '../evaluation/sequential.js';
import type { AfterTarget } from './baseline.js';
import { hasCounts } from './drift-noisy.js';
import { nightSignificance } from './accumulate.js';
import { historyOf, nightlyDir, previousNight, readHistory } from './history.js';
import { referenceAttempts, runNightRounds, type NightRounds } from './night-rounds.js';
import type { HistoryLineRead } from './schema.js';

export interface TargetRounds {
  outcome: NightRounds;
  settings: SequentialSettings;
}

const counts = (t: { task_id: string; passes: number; judged: number; errors: number }) => ({ task_id: t.task_id, passes: t.passes, judged: t.judged, errors: t.errors });

/** The rounds of each target, by target key, are put in `found` as they finish. */
export function driftRounds(found: Map<string, TargetRounds>, log?: (line: string) => void): AfterTarget {
  let history: HistoryLineRead[] | undefined;
  return (t, all): AfterFirst =>
    async ({ prepared, tallies, round }) => {
      if (engineNoise(prepared).deterministic) return undefined;
      history ??= readHistory(all.stateDir);
      const ids = all.targets.map((x) => ({ target: x.skillDir, target_key: x.key }));
      const previous = previousNight(nightlyDir(all.stateDir), historyOf(history, { target: t.skillDir, target_key: t.key }, ids));
      // Nothing to compare with, or a night recorded before attempt counts were: compared by status.
      if (!previous || !hasCounts(previous.tasks)) return undefined;
      const cfg = prepared.cfg;
      const settings: SequentialSettings = { significance: nightSignificance(cfg.thresholds.significance), minEffect: cfg.thresholds.min_effect, maxAttempts: Math.max(prepared.passK, cfg.maxAttempts) };
      let stopped: VariantOutcome | undefined;
      const outcome = await runNightRounds({
        settings,
        firstAttempts: prepared.passK,
        reference: referenceAttempts(previous.tasks, settings, prepared.passK),
        first: tallies.map(counts),
        previous: previous.tasks,
        log: log && ((l) => log(`${t.skillDir}: ${l}`)),
        measure: async (n) => {
          const o = await round(n);
          if (o.interrupted) {
            stopped = o;
            return 'interrupted';
          }
          return { tasks: o.tallies.map(counts), engineCalls: o.engineCalls, judgeCalls: o.judgeCalls };
        },
      });
      found.set(t.key, { outcome, settings });
      return stopped;
    };
}
