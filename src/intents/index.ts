// Public surface of intent evals (examples/intents/README.md, seed 003). Three ways in:
//
//   CLI      src/commands/intents.ts adds `whet intents` to a commander program.
//   Library  runIntents(options, deps) does what the command does and returns the result (and writes
//            the dated report); nothing is printed.
//   Loop     the evaluate stage, holding decisions it already has, scores them without I/O:
//
//              const catalog = loadCatalog('capabilities/', cwd);          // or catalogFromEntries([...])
//              const { cases } = loadCases('intent-cases.jsonl', cwd);
//              const { metrics, scores } = scoreIntentRun(cases, runs, catalog);  // runs: CaseRun[]
//              const gates = evaluateGates(metrics, SEED_THRESHOLDS);
//
//            `metrics.overall` / `metrics.by_kind[kind]` hold every rate as {n, d, rate}; a gate such as
//            "no new overreach" compares `overall.overreach.n` with the baseline's, and "selection does
//            not drop" compares `overall.selection` the same way (paired on the same case ids).
//
// The metric definitions and their denominators are in metrics.ts; parameter matching and placeholders
// in src/config/intent-params.ts; the engine spec syntax in engine-spec.ts; the floor planner's rules in floor.ts.
export { runIntents, type IntentsOptions, type IntentsDeps, type IntentsResult, type EngineRun, type Disagreement } from './run-intents.js';
export { loadCases, checkCasesAgainstCatalog, type LoadedCases } from '../config/intent-cases.js';
export { loadCatalog, catalogFromEntries, catalogEntries, type Catalog } from '../config/intent-catalog.js';
export { scoreIntentRun, computeIntentMetrics, metricSet, formatFraction, type Fraction, type IntentMetrics, type IntentMetricSet, type ScoredRun } from './metrics.js';
export { scoreCase, type CaseScore, type MetricName } from './score-case.js';
export { matchValue, checkParams, isPlaceholder, type ParamCheck } from '../config/intent-params.js';
export { SEED_THRESHOLDS, evaluateGates, loadThresholds, mergeThresholds, intentThresholdsSchema, type Gate, type IntentThresholds } from './thresholds.js';
export { planFloor, createFloorEngine, rankCapabilities, FLOOR_MIN_SCORE } from './floor.js';
export { createIntentEngine, parseEngineSpec, type EngineSpec } from './engine-spec.js';
export { parseDecision, describeDecision } from './decision.js';
export { runEngine, requestFor } from './run-engine.js';
export { renderReport } from './report-md.js';
export { summarizeIntents } from './summary.js';
export { canonicalKind, CANONICAL_KINDS } from './kinds.js';
export type {
  Behavior,
  Capability,
  CatalogEntry,
  CaseRun,
  Decision,
  IntentCase,
  IntentEngine,
  IntentRequest,
  PlannedCall,
} from '../config/intent-types.js';
