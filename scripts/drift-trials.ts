// Nightly drift over sequences of dated nights on a simulated noisy model (issue 39): 40 tasks, each with
// its own chance drawn from 0.3–0.8, each night `attempts` seeded coins per task. Every night goes through
// the decisions `whet nightly` makes — compareNights (tonight against the previous night, the noisy
// engine's test at the nightly significance) and accumulateNight (the CUSUM against the reference night)
// — and the rates are counted: false alerts per 30 unchanged nights, the share of sequences a loss of
// 2 points a night is alerted by its 10th night, and the share a 10-point step is alerted on its night or
// the next. The test runs sized-down counts (test/unit/nightly-accumulate.test.ts); npm run bench the full.
import { mulberry32 } from '../src/stats/index.js';
import { THRESHOLD_DEFAULTS } from '../src/config/thresholds.js';
import { compareNights } from '../src/nightly/drift.js';
import { accumulateNight, nightSignificance } from '../src/nightly/accumulate.js';
import type { AccumulatedDecline, NightRecord, NightTask } from '../src/nightly/schema.js';

export interface DriftSetup {
  tasks: number;
  chance: [number, number];
  /** Attempts per task each night (what a night's reference attempts are on a noisy engine). */
  attempts: number;
  significance: number;
  /** The CUSUM's K and H, when not the design's (the search for them). */
  design?: { k: number; h: number };
}

// 10 attempts: what a night's reference attempts come to on this model with the default design
// (night-rounds.ts referenceAttempts: the power for min_effect 0.1 at the nightly significance needs max_attempts).
export const DRIFT_SETUP: DriftSetup = { tasks: 40, chance: [0.3, 0.8], attempts: 10, significance: THRESHOLD_DEFAULTS.significance };

/** How the model's chances move night by night: the drop on night n (0 before the change). */
export type Scenario = { kind: 'unchanged' } | { kind: 'decline'; perNight: number; from: number } | { kind: 'step'; size: number; at: number };

const HASH = 'same';

function night(chances: number[], drop: number, attempts: number, rnd: () => number): NightRecord {
  const tasks: NightTask[] = chances.map((c, i) => {
    const p = Math.max(0, c - drop);
    let passes = 0;
    for (let k = 0; k < attempts; k++) if (rnd() < p) passes++;
    return { task_id: `t${i}`, status: passes > 0 ? 'pass' : 'fail', category: `c${i % 4}`, attempts, judged: attempts, passes };
  });
  const passed = tasks.reduce((n, t) => n + (t.passes ?? 0), 0);
  return { target: 'skill', target_key: 'k', label: 'skill', suite: 's', pass_rate: passed / (tasks.length * attempts), skill_sha256: HASH, suite_sha256: HASH, engine_sha256: HASH, judge_engine_sha256: HASH, settings: { pass_k: attempts, task_timeout_ms: 1 }, noise: { deterministic: false, why: 'simulated' }, tasks };
}

const dropOn = (s: Scenario, n: number) => (s.kind === 'decline' ? (n >= s.from ? s.perNight * (n - s.from + 1) : 0) : s.kind === 'step' ? (n >= s.at ? s.size : 0) : 0);

/** One sequence of `nights` dated nights (night 0 the reference); which nights alerted, and by which test. */
export function sequence(setup: DriftSetup, scenario: Scenario, nights: number, seed: number): { alerts: boolean[]; byNight: boolean[]; byAccumulation: boolean[] } {
  const rnd = mulberry32(seed);
  const chances = Array.from({ length: setup.tasks }, () => setup.chance[0] + (setup.chance[1] - setup.chance[0]) * rnd());
  const alerts: boolean[] = [];
  const byNight: boolean[] = [];
  const byAccumulation: boolean[] = [];
  let previous: (NightRecord & { label: string }) | undefined;
  let acc: AccumulatedDecline | undefined;
  let reference: NightTask[] | undefined;
  for (let n = 0; n < nights; n++) {
    const tonight = night(chances, dropOn(scenario, n), setup.attempts, rnd);
    const drift = compareNights(tonight, previous, nightSignificance(setup.significance), undefined, { minEffect: THRESHOLD_DEFAULTS.min_effect, maxAttempts: setup.attempts });
    acc = accumulateNight({ tonight: { file: `n${n}.json`, label: `night ${n}`, tasks: tonight.tasks }, ...(acc ? { previous: acc } : {}), ...(reference ? { reference } : {}), ...(setup.design ? { design: setup.design } : {}) });
    if (acc.nights === 0) reference = tonight.tasks;
    byNight.push(drift.alert);
    byAccumulation.push(acc.alert);
    alerts.push(drift.alert || acc.alert);
    previous = { ...tonight, label: `night ${n}` };
  }
  return { alerts, byNight, byAccumulation };
}

export interface DriftRates {
  /** False alerts per 30 unchanged nights: all tests, and each test alone. */
  falsePer30: number;
  falsePer30Night: number;
  falsePer30Accumulated: number;
  /** Share of sequences where a loss of `perNight` a night is alerted by the 10th night of the decline. */
  declineBy10: number;
  /** Mean night of the decline its first alert came on (11 when none did by night 10). */
  declineNights: number;
  /** Share of sequences where a step is alerted on its night or the next. */
  stepByNext: number;
}

const WARMUP = 4;

/** The three figures of the issue over `sequences` seeded sequences each (`unchangedNights` nights long). */
export function driftRates(setup: DriftSetup, sequences: number, unchangedNights: number, seed0 = 1): DriftRates {
  let falseAll = 0;
  let falseNight = 0;
  let falseAcc = 0;
  let counted = 0;
  for (let k = 0; k < sequences; k++) {
    const r = sequence(setup, { kind: 'unchanged' }, unchangedNights + 1, seed0 + k * 7919);
    // Night 0 has nothing to compare with; every later night is an unchanged night.
    counted += unchangedNights;
    falseAll += r.alerts.slice(1).filter(Boolean).length;
    falseNight += r.byNight.slice(1).filter(Boolean).length;
    falseAcc += r.byAccumulation.slice(1).filter(Boolean).length;
  }
  let declined = 0;
  let nightsTo = 0;
  let stepped = 0;
  for (let k = 0; k < sequences; k++) {
    const d = sequence(setup, { kind: 'decline', perNight: 0.02, from: WARMUP }, WARMUP + 10, seed0 + 1_000_003 + k * 7919);
    const first = d.alerts.slice(WARMUP).indexOf(true);
    if (first >= 0) declined++;
    nightsTo += first >= 0 ? first + 1 : 11;
    const s = sequence(setup, { kind: 'step', size: 0.1, at: WARMUP }, WARMUP + 2, seed0 + 2_000_003 + k * 7919);
    if (s.alerts[WARMUP] || s.alerts[WARMUP + 1]) stepped++;
  }
  const per30 = (n: number) => (30 * n) / counted;
  return { falsePer30: per30(falseAll), falsePer30Night: per30(falseNight), falsePer30Accumulated: per30(falseAcc), declineBy10: declined / sequences, declineNights: nightsTo / sequences, stepByNext: stepped / sequences };
}

/** The bench's table: the figures at the model and, beside it, with fewer attempts a night. */
export function driftTable(sequences: number): string[] {
  const rows = [DRIFT_SETUP, { ...DRIFT_SETUP, attempts: 6 }].map((s) => {
    const r = driftRates(s, sequences, 60);
    const f = (x: number) => x.toFixed(2);
    const pct = (x: number) => `${Math.round(x * 100)}%`;
    return `| ${s.tasks} tasks, chances ${s.chance.join('–')}, ${s.attempts} attempts a night | ${f(r.falsePer30)} (night ${f(r.falsePer30Night)}, accumulated ${f(r.falsePer30Accumulated)}) | ${pct(r.declineBy10)} (mean night ${r.declineNights.toFixed(1)}) | ${pct(r.stepByNext)} |`;
  });
  return [
    `${sequences} seeded sequences per figure; unchanged sequences of 60 nights. Goals: ≤ 1 false alert per 30 nights; ≥ 80% for both drops.`,
    '',
    '| model | false alerts per 30 unchanged nights | −2 points a night alerted by night 10 | −10 step alerted that night or next |',
    '|---|---|---|---|',
    ...rows,
  ];
}
