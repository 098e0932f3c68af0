// The shapes intent evals pass around (examples/intents/README.md, seed 003). A case says what should happen; an
// engine returns a Decision; the harness checks the Decision against the catalogue's schemas and the
// case's expectation. Nothing here does I/O. With the case and catalogue readers (intent-cases.ts,
// intent-catalog.ts) it is the input format a suite's intents block is read in, so it stands in config/,
// below src/intents/ (engines, scoring, reports), which builds on it.

export type Behavior = 'call' | 'clarify' | 'refuse';

export interface IntentCase {
  /** Stable id; never reused (duplicates are a load error). */
  id: string;
  /** As written in the file; grouping and reports use it verbatim. */
  kind: string;
  /** The user's words exactly as written, typos included. */
  utterance: string;
  /** Project, previous call(s), connected systems, attachments, history: passed to engines verbatim. */
  context: Record<string, unknown>;
  expect: {
    behavior: Behavior;
    /** null when nothing should be called. */
    capability: string | null;
    /** Only these keys are checked; values may be matchers (see intent-params.ts). */
    params: Record<string, unknown>;
  };
  note?: string;
  /** 1-based line in the cases file. */
  line: number;
}

export interface Capability {
  id: string;
  description: string;
  /** Systems that offer it (e.g. jira, github). */
  systems: string[];
  /** JSON Schema of the arguments; always an object schema. */
  parameters: Record<string, unknown>;
  /** Extra words for the floor planner; also shown to model engines in the tool description. */
  keywords: string[];
  /** Permissions the user must hold (`context.permissions`); shown to model engines too. */
  requires: string[];
  /** `file:line:col` where it is defined. */
  where: string;
}

/** One capability as engines see it (no file positions). */
export interface CatalogEntry {
  id: string;
  description: string;
  systems: string[];
  parameters: Record<string, unknown>;
  keywords?: string[];
  requires?: string[];
}

/** What an engine is asked: the case minus its expectation. */
export interface IntentRequest {
  /** The case id, for logs and scripted engines; a real planner must not depend on it. */
  id: string;
  utterance: string;
  context: Record<string, unknown>;
  catalog: CatalogEntry[];
}

export interface PlannedCall {
  capability: string;
  /** As the engine produced them; not yet validated (may not even be an object). */
  params: unknown;
  /** Set when the engine's arguments could not be parsed at all (e.g. invalid JSON). */
  paramsError?: string;
}

/** How a model's reply was read: a pseudo-tool / real tool call, or the plain-text fallback. */
export type DecisionVia = 'tool' | 'text' | 'json' | 'rules';

export type Decision =
  | { behavior: 'call'; calls: PlannedCall[]; via?: DecisionVia }
  | { behavior: 'clarify'; question: string; via?: DecisionVia }
  | { behavior: 'refuse'; reason: string; via?: DecisionVia };

export interface TokenUsage {
  input_tokens?: number;
  output_tokens?: number;
}

export type IntentErrorKind = 'timeout' | 'exit' | 'spawn' | 'parse' | 'http' | 'aborted' | 'internal';

/** One engine's answer to one case: a decision, or an error that is never scored as a wrong decision. */
export interface CaseRun {
  id: string;
  decision?: Decision;
  error?: { kind: IntentErrorKind; message: string };
  usage?: TokenUsage;
  duration_ms: number;
}

export interface IntentEngine {
  /** The `--engine` value it was built from. */
  readonly spec: string;
  /** A one-line human description for reports. */
  readonly label: string;
  /** Everything that changes its answers (program, model); never secrets. */
  identity(): Record<string, unknown>;
  decide(request: IntentRequest, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<Omit<CaseRun, 'id'>>;
}
