// What a report is built from: the run's artifacts as parsed JSON, read leniently (load.ts) so a report can
// be made of a half-finished run, of artifacts written by an older version, or of a nightly history with
// more fields than we know. The accessors below turn "whatever is there" into typed values without
// throwing; the model decides what a missing value means.

export type Json = Record<string, unknown>;

export interface IterationInputs {
  n: number;
  baseline?: Json;
  candidates?: Json;
  ranking?: Json;
  evaluation?: Json;
  gate?: Json;
  learning?: Json;
  /** proposed-cases.yaml, parsed. */
  proposedCases?: Json;
}

/** The suite as the model needs it (a subset of what config/suite.ts loads), or why it could not be read. */
export interface SuiteInput {
  path: string;
  sha256?: string;
  grid?: Record<string, string[]>;
  tasks: { id: string; prompt: string; category: string; cell?: Record<string, string>; negative: boolean; split?: string; judges: string[] }[];
  /** sha256 of every judge spec file the suite's judges name, to match calibration records. */
  specHashes: string[];
}

/** One nightly/<date>.json, parsed; file is its name inside nightly/. */
export interface NightDay {
  file: string;
  json: Json;
}

import type { RunTotals } from '../evaluation/run-usage.js';
import { round4 } from '../core/numbers.js';

export interface ReportInputs {
  runId: string;
  manifest?: Json;
  /** runs/<run>/evaluation.json of a standalone or pipeline run. */
  evaluation?: Json;
  iterations: IterationInputs[];
  /** The iteration asked for (--iteration); default: chosen by the model. */
  iteration?: number;
  suite?: SuiteInput;
  suiteProblem?: string;
  /** When `whet rollback` undid the run's promotions (events.jsonl), if it did. */
  rolledBackAt?: string | null;
  calibrations: Json[];
  /** Nightly history lines, every target (the model keeps the run's). */
  history: Json[];
  /** The nightly day files (nightly/<date>.json), to find the night that names this run and its drift record. */
  nights?: NightDay[];
  /** Per results file name (baseline, a candidate id): task id → summed attempt durations. */
  durations: Record<string, Record<string, number>>;
  /** Per results file name, task id → each expectation of one attempt with its verdict and evidence. */
  expectations?: Record<string, Record<string, { expectation: string; passed: boolean; evidence: string }[]>>;
  /** What the run spent (run-usage.ts's one count: what status and show say). */
  spent?: RunTotals;
  /** The run's damaged files (src/inspect/verify-run.ts), left out of everything above; the report is marked. */
  damaged?: { file: string; kind: string; at?: string; message: string; hint: string }[];
}

export const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const obj = (v: unknown): Json | undefined => (isObj(v) ? v : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const int = (v: unknown): number | undefined => {
  const n = num(v);
  return n !== undefined && Number.isInteger(n) && n >= 0 ? n : undefined;
};
export const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);

/** A nested value by path, e.g. at(ev, 'evaluation', 'paired', 'p_value'). */
export function at(v: unknown, ...path: string[]): unknown {
  let cur = v;
  for (const k of path) {
    if (!isObj(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

export { round4 };
