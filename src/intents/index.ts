// Public surface of intent evals (METHOD.md §4). The evaluate stage and the gate can score decisions
// they already hold with scoreIntentRun / computeIntentMetrics, and gate them with evaluateGates;
// the CLI goes through registerIntentsCommand.
export { registerIntentsCommand } from './command.js';
export { runIntents, type IntentsOptions, type IntentsResult, type EngineRun, type Disagreement } from './run-intents.js';
export { loadCases, checkCasesAgainstCatalog, type LoadedCases } from './cases.js';
export { loadCatalog, catalogFromEntries, catalogEntries, type Catalog } from './catalog.js';
export { scoreIntentRun, computeIntentMetrics, metricSet, formatFraction, type Fraction, type IntentMetrics, type IntentMetricSet, type ScoredRun } from './metrics.js';
export { scoreCase, type CaseScore, type MetricName } from './score-case.js';
export { matchValue, checkParams, isPlaceholder, type ParamCheck } from './params.js';
export { SEED_THRESHOLDS, evaluateGates, loadThresholds, mergeThresholds, intentThresholdsSchema, type Gate, type IntentThresholds } from './thresholds.js';
export { planFloor, createFloorEngine, rankCapabilities, FLOOR_MIN_SCORE } from './floor.js';
export { createIntentEngine, parseEngineSpec, type EngineSpec } from './engine-spec.js';
export { parseDecision, describeDecision } from './decision.js';
export { runEngine, requestFor } from './run-engine.js';
export { renderReport } from './report-md.js';
export { summarizeIntents } from './summary.js';
export type { Behavior, Capability, CatalogEntry, CaseRun, Decision, IntentCase, IntentEngine, IntentRequest, PlannedCall } from './types.js';
