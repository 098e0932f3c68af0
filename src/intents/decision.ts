// Reads a decision written as JSON (the `command` engine's protocol). Accepted shapes:
//
//   {"behavior": "call", "capability": "issue.create", "params": {...}}
//   {"behavior": "call", "calls": [{"capability": "...", "params": {...}}, ...]}   several steps, in order
//   {"behavior": "clarify", "question": "Which environment?"}
//   {"behavior": "refuse", "reason": "No capability deletes databases."}
//
// `arguments` is accepted for `params`; a missing `params` is {}. The seed's Chinese behaviour names
// (调用 / 澄清 / 拒绝) are accepted too. `params` is taken as given, even when it is not an object:
// schema validation (not this parser) decides whether it would run, so a malformed call is a
// hallucination, not an engine error. Only a reply that does not say what to do at all is an error.
import type { Decision, DecisionVia, PlannedCall } from '../config/intent-types.js';

const BEHAVIOR: Record<string, Decision['behavior']> = { call: 'call', '调用': 'call', clarify: 'clarify', '澄清': 'clarify', refuse: 'refuse', '拒绝': 'refuse' };

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function readCall(v: unknown, where: string): PlannedCall | string {
  if (!isRecord(v)) return `${where} must be an object`;
  if (typeof v.capability !== 'string' || v.capability.trim() === '') return `${where}.capability must be a non-empty string`;
  const params = 'params' in v ? v.params : 'arguments' in v ? v.arguments : {};
  return { capability: v.capability, params };
}

export function parseDecision(value: unknown, via: DecisionVia = 'json'): { ok: true; decision: Decision } | { ok: false; message: string } {
  if (!isRecord(value)) return { ok: false, message: 'the decision must be a JSON object' };
  const raw = typeof value.behavior === 'string' ? value.behavior.trim().toLowerCase() : undefined;
  const behavior = raw === undefined ? undefined : BEHAVIOR[raw];
  if (!behavior) return { ok: false, message: `"behavior" must be "call", "clarify" or "refuse" (got ${JSON.stringify(value.behavior)})` };
  if (behavior === 'clarify') return { ok: true, decision: { behavior, question: text(value.question), via } };
  if (behavior === 'refuse') return { ok: true, decision: { behavior, reason: text(value.reason), via } };
  const calls: PlannedCall[] = [];
  if (Array.isArray(value.calls)) {
    if (value.calls.length === 0) return { ok: false, message: '"calls" is empty' };
    for (const [i, c] of value.calls.entries()) {
      const r = readCall(c, `calls[${i}]`);
      if (typeof r === 'string') return { ok: false, message: r };
      calls.push(r);
    }
  } else {
    const r = readCall(value, 'the decision');
    if (typeof r === 'string') return { ok: false, message: r };
    calls.push(r);
  }
  return { ok: true, decision: { behavior: 'call', calls, via } };
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);
}

/** One line describing a decision, for reports: `call issue.create {"project":"PAY"}`. */
export function describeDecision(d: Decision, max = 240): string {
  let s: string;
  if (d.behavior === 'call') s = d.calls.map((c) => `call ${c.capability} ${c.paramsError ? `(${c.paramsError})` : JSON.stringify(c.params ?? {})}`).join(' → ');
  else if (d.behavior === 'clarify') s = `clarify: ${d.question || '(no question text)'}`;
  else s = `refuse: ${d.reason || '(no reason given)'}`;
  if (d.via === 'text') s += ' [read from plain text]';
  s = s.replace(/\s+/g, ' ');
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
