// Runs one engine over the cases, a few at a time, and returns one CaseRun per case in case order.
// Whatever an engine does — throw, hang past its time limit, return garbage — becomes an error for that
// case and never stops the others; after an abort, cases not started are errors of kind "aborted".
import { catalogEntries, type Catalog } from '../config/intent-catalog.js';
import type { CaseRun, CatalogEntry, IntentCase, IntentEngine, IntentRequest } from '../config/intent-types.js';

export interface RunEngineOptions {
  concurrency: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The request a case turns into: never its kind, note or expectation. */
export function requestFor(c: IntentCase, entries: CatalogEntry[]): IntentRequest {
  return { id: c.id, utterance: c.utterance, context: c.context, catalog: entries };
}

export async function runEngine(engine: IntentEngine, cases: IntentCase[], catalog: Pick<Catalog, 'capabilities'>, opts: RunEngineOptions): Promise<CaseRun[]> {
  const entries = catalogEntries(catalog);
  const results: CaseRun[] = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const i = next++;
      const c = cases[i]!;
      if (opts.signal?.aborted) {
        results[i] = { id: c.id, error: { kind: 'aborted', message: 'not run: interrupted' }, duration_ms: 0 };
        continue;
      }
      const request = requestFor(c, entries);
      try {
        results[i] = { id: c.id, ...(await engine.decide(request, { timeoutMs: opts.timeoutMs, signal: opts.signal })) };
      } catch (err) {
        results[i] = { id: c.id, error: { kind: 'internal', message: `engine threw: ${(err as Error).message ?? String(err)}` }, duration_ms: 0 };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, cases.length)) }, worker));
  return results;
}
