// What `whet intents` produces: one run per engine, the cases where engines disagree, and the dated
// report. Its own file so the report renderer and the runner both read it without importing each other.
import type { IntentMetrics } from './metrics.js';
import type { CaseScore } from './score-case.js';
import type { Gate, IntentThresholds } from './thresholds.js';

export interface EngineRun {
  engine: { spec: string; label: string; identity: Record<string, unknown> };
  metrics: IntentMetrics;
  gates: Gate[];
  /** No gate failed (n/a gates do not fail). */
  passed: boolean;
  all_errored: boolean;
  usage: { input_tokens: number; output_tokens: number };
  scores: CaseScore[];
}

export interface Disagreement {
  id: string;
  kind: string;
  /** Per engine, in run order: what it did, in one line each (from the scores). */
  scores: CaseScore[];
}

export interface IntentsResult {
  schema: 'whetstone.intents/1';
  date: string;
  cases_file: string;
  cases_sha256: string;
  catalog: string;
  catalog_sha256: string;
  capabilities: number;
  kind_filter: string[];
  kinds: Record<string, number>;
  thresholds: IntentThresholds;
  runs: EngineRun[];
  disagreements: Disagreement[];
  report: string;
  exit_code: number;
}
