import { CASES, ISSUE_SETUP, rates } from './decision-trials.js';
import { LOOP_CASES, loopRates, deterministicRates, POPULATION_CASE, DRIFT_CASE } from './run-trials.js';
const N = Number(process.argv[2] ?? 100);
const t0 = process.cpuUsage();
const one = { ...ISSUE_SETUP, maxIterations: 1 };
for (const c of CASES) { const r = await rates(ISSUE_SETUP, c, 'whetstone', N, 1 + CASES.indexOf(c) * 100003); console.log('def', c.name, r.keepRate, r.meanAttempts.toFixed(2), r.meanCalls.toFixed(0)); }
for (const c of CASES) { const r = await rates(one, c, 'whetstone', N, 1 + CASES.indexOf(c) * 100003); console.log('mi1', c.name, r.keepRate, r.meanAttempts.toFixed(2), r.meanCalls.toFixed(0)); }
console.log('cpu', (process.cpuUsage(t0).user/1e6).toFixed(1));
for (const m of [10, 30]) { const r = await rates({ ...one, maxAttempts: m }, POPULATION_CASE, 'whetstone', N, 5); console.log('pop', m, r.keepRate, r.meanAttempts.toFixed(2)); }
for (const d of ['whetstone', 'cached baseline'] as const) { const r = await rates(ISSUE_SETUP, DRIFT_CASE, d, N, 7); console.log('drift', d, r.keepRate); }
console.log('det', await deterministicRates(ISSUE_SETUP, 0.05, N * 4, 9));
for (const c of LOOP_CASES) console.log('loop', c.name, await loopRates(ISSUE_SETUP, c, Math.max(20, N / 2), 11));
const ext = { ...ISSUE_SETUP, extreme: 0.5 };
for (const c of [CASES[0]!, CASES[3]!]) { const r = await rates(ext, c, 'whetstone', N, 13); console.log('extreme', c.name, r.keepRate, r.meanAttempts.toFixed(2), r.meanCalls.toFixed(0)); }
console.log('cpu', (process.cpuUsage(t0).user/1e6).toFixed(1));
