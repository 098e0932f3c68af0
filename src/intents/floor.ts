// The floor planner (`--engine floor`): a deterministic, rule-based planner that gives the floor
// numbers and proves the harness is self-consistent (seed 003: "规则计划器基线"). It is a plain
// function of (utterance, context, catalogue) — the same `IntentRequest` every engine gets — so a
// runtime can use `planFloor` as its fallback planner and the eval measures that very path.
//
// Rules, in order (documented in examples/intents/README.md):
//   1. Steps. The text is split on step words ("then", "and then", "after that", ";", 然后, 之后, 接着).
//      If that gives no split, " and " / 并 / 并且 is tried. A split is used only when every part
//      matches a capability (rule 3) and the parts match different capabilities; the decision is
//      then the parts' calls in order, or the first part's question or refusal.
//   2. Score. Each capability scores the sum, over the distinct content tokens of the text (see
//      floor-text.ts), of the token's weight for it: 3 if the token is in the last segment of its id
//      (`release` in `deploy.release`) or in its `keywords`, plus 2 if it is in an earlier id segment
//      (the namespace, shared with siblings), plus 1 if it is in its description or the name of a
//      system that offers it. Quoted text is left out: it is the payload ("post \"release done\""),
//      not the request.
//   3. Nothing matches. Best score < 3 (not even one id/keyword token) → refuse: nothing in the
//      catalogue does this.
//   4. Tie. Several capabilities share the best score → clarify, naming them.
//   5. Permission. The capability `requires` a permission missing from `context.permissions` → refuse.
//   6. Arguments. Filled by floor-params.ts; a required one still missing → clarify, naming it.
//   7. Otherwise → call.
import { fillParams } from './floor-params.js';
import { idTokens, tokens } from './floor-text.js';
import type { CatalogEntry, Decision, IntentEngine, IntentRequest, PlannedCall } from '../config/intent-types.js';

export const FLOOR_MIN_SCORE = 3;
const STRONG_STEPS = /\s*(?:,\s*)?(?:\band then\b|\bthen\b|\bafter that\b|\bafterwards\b)\s*|\s*[;；]\s*|然后|之后|接着/iu;
const WEAK_STEPS = /\s*,?\s+and\s+|并且|并/iu;

const QUOTED = /["“«「『][^"”»」』]*["”»」』]/gu;

function vocabulary(c: CatalogEntry): Map<string, number> {
  const segments = c.id.split(/[._:/]+/).filter(Boolean);
  const sources: [Set<string>, number][] = [
    [new Set([...idTokens(segments[segments.length - 1] ?? c.id), ...(c.keywords ?? []).flatMap((k) => tokens(k))]), 3],
    [new Set(segments.slice(0, -1).flatMap((s) => idTokens(s))), 2],
    [new Set([...tokens(c.description), ...c.systems.flatMap((s) => tokens(s))]), 1],
  ];
  const v = new Map<string, number>();
  for (const [set, w] of sources) for (const t of set) v.set(t, (v.get(t) ?? 0) + w);
  return v;
}

export interface ScoredCapability {
  entry: CatalogEntry;
  score: number;
}

/** Capabilities by score, best first; ties keep catalogue order. */
export function rankCapabilities(text: string, catalog: CatalogEntry[]): ScoredCapability[] {
  const words = new Set(tokens(text.replace(QUOTED, ' ')));
  return catalog
    .map((entry, i) => {
      const v = vocabulary(entry);
      let score = 0;
      for (const w of words) score += v.get(w) ?? 0;
      return { entry, score, i };
    })
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ entry, score }) => ({ entry, score }));
}

interface StepPlan {
  decision: Decision;
  /** The best capability score: whether this text matched anything at all. */
  score: number;
  capability?: string;
}

function planStep(text: string, context: Record<string, unknown>, catalog: CatalogEntry[]): StepPlan {
  const ranked = rankCapabilities(text, catalog);
  const best = ranked[0];
  if (!best || best.score < FLOOR_MIN_SCORE) {
    return { score: best?.score ?? 0, decision: { behavior: 'refuse', reason: 'No capability in the catalogue matches this request.', via: 'rules' } };
  }
  const tied = ranked.filter((r) => r.score === best.score);
  if (tied.length > 1) {
    const names = tied.map((r) => r.entry.id).join(' or ');
    return { score: best.score, decision: { behavior: 'clarify', question: `Do you mean ${names}?`, via: 'rules' } };
  }
  const cap = best.entry;
  const held = Array.isArray(context.permissions) ? context.permissions.filter((p): p is string => typeof p === 'string') : [];
  const lacking = (cap.requires ?? []).filter((r) => !held.includes(r));
  if (lacking.length > 0) {
    return { score: best.score, capability: cap.id, decision: { behavior: 'refuse', reason: `${cap.id} requires ${lacking.join(', ')}, which this user does not have.`, via: 'rules' } };
  }
  const { params, missing } = fillParams(cap.parameters, text, context);
  if (missing.length > 0) {
    return { score: best.score, capability: cap.id, decision: { behavior: 'clarify', question: `Which ${missing.join(' and ')} should ${cap.id} use?`, via: 'rules' } };
  }
  return { score: best.score, capability: cap.id, decision: { behavior: 'call', calls: [{ capability: cap.id, params }], via: 'rules' } };
}

function planSteps(parts: string[], context: Record<string, unknown>, catalog: CatalogEntry[]): Decision | undefined {
  const plans = parts.map((p) => planStep(p, context, catalog));
  if (plans.some((p) => p.score < FLOOR_MIN_SCORE)) return undefined;
  const ranked = parts.map((p) => rankCapabilities(p, catalog)[0]?.entry.id);
  if (new Set(ranked).size !== ranked.length) return undefined;
  const stop = plans.find((p) => p.decision.behavior !== 'call');
  if (stop) return stop.decision;
  const calls: PlannedCall[] = plans.flatMap((p) => (p.decision.behavior === 'call' ? p.decision.calls : []));
  return { behavior: 'call', calls, via: 'rules' };
}

export function planFloor(request: Pick<IntentRequest, 'utterance' | 'context' | 'catalog'>): Decision {
  const { utterance, context, catalog } = request;
  for (const sep of [STRONG_STEPS, WEAK_STEPS]) {
    const parts = utterance.split(sep).map((p) => p.trim()).filter((p) => p.length > 0);
    if (parts.length < 2) continue;
    const multi = planSteps(parts, context, catalog);
    if (multi) return multi;
  }
  return planStep(utterance, context, catalog).decision;
}

export function createFloorEngine(): IntentEngine {
  return {
    spec: 'floor',
    label: 'floor (deterministic rule-based planner, not a model)',
    identity: () => ({ type: 'floor', min_score: FLOOR_MIN_SCORE, version: 1 }),
    async decide(request) {
      const started = performance.now();
      const decision = planFloor(request);
      return { decision, duration_ms: Math.round(performance.now() - started) };
    },
  };
}
