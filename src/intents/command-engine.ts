// The `command:PROGRAM [ARGS]` intent engine: any program decides, one process per case, started
// through runProcess (never a shell string). Protocol, documented in examples/intents/README.md:
//
//   stdin   one JSON object: {"protocol": "whetstone.intents/1", "id", "utterance", "context",
//           "catalog": [{"id", "description", "systems", "parameters", "keywords"?, "requires"?}]}
//   stdout  one JSON decision (decision.ts): the whole stdout, or else its last non-empty line
//           (so a program may log progress lines before it)
//   exit    0; anything else is an error for that case, never a wrong decision
//
// The environment is the caller's plus WHET_INTENT_CASE_ID. The case's kind and expectation are
// never sent: the program sees what a runtime would see.
import { resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { describeOutcome, runProcess } from '../core/proc.js';
import { parseDecision } from './decision.js';
import type { CaseRun, IntentEngine, IntentRequest } from '../config/intent-types.js';

export const INTENT_PROTOCOL = 'whetstone.intents/1';

/** Splits `prog --flag 'two words' "x y"` into argv; no shell, no expansion. */
export function splitArgs(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: '"' | "'" | null = null;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) cur += line[++i];
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) out.push(cur);
      cur = '';
      started = false;
    } else {
      if (ch === '\\' && i + 1 < line.length) cur += line[++i];
      else cur += ch;
      started = true;
    }
  }
  if (quote) throw new UsageError(`unterminated ${quote} in engine command: ${line}`);
  if (started) out.push(cur);
  return out;
}

function lastJson(stdout: string): unknown {
  const whole = stdout.trim();
  try {
    return JSON.parse(whole);
  } catch {
    const lines = whole.split('\n').map((l) => l.trim()).filter(Boolean);
    const last = lines[lines.length - 1];
    if (last === undefined) throw new Error('no output');
    return JSON.parse(last);
  }
}

export function createCommandIntentEngine(spec: string, commandLine: string, opts: { cwd: string; env: NodeJS.ProcessEnv }): IntentEngine {
  const argv = splitArgs(commandLine);
  if (argv.length === 0) throw new UsageError('--engine command: needs a program, e.g. command:./planner.py');
  // A path is resolved here, so the program is found whatever directory the engine later runs in.
  if (argv[0]!.includes('/')) argv[0] = resolve(opts.cwd, argv[0]!);
  return {
    spec,
    label: `command ${argv.join(' ')}`,
    identity: () => ({ type: 'command', argv, protocol: INTENT_PROTOCOL }),
    async decide(request: IntentRequest, o): Promise<Omit<CaseRun, 'id'>> {
      const input = JSON.stringify({ protocol: INTENT_PROTOCOL, ...request });
      const out = await runProcess({
        argv,
        input,
        cwd: opts.cwd,
        env: { ...opts.env, WHET_INTENT_CASE_ID: request.id },
        timeoutMs: o.timeoutMs,
        signal: o.signal,
      });
      const duration_ms = out.durationMs;
      if (out.spawnError) return { error: { kind: 'spawn', message: out.spawnError }, duration_ms };
      if (out.aborted) return { error: { kind: 'aborted', message: 'aborted' }, duration_ms };
      if (out.timedOut) return { error: { kind: 'timeout', message: describeOutcome(out, o.timeoutMs) }, duration_ms };
      if (out.exitCode !== 0) return { error: { kind: 'exit', message: describeOutcome(out, o.timeoutMs) }, duration_ms };
      let value: unknown;
      try {
        value = lastJson(out.stdout);
      } catch {
        const shown = out.stdout.trim().replace(/\s+/g, ' ').slice(0, 200);
        return { error: { kind: 'parse', message: `stdout is not a JSON decision: ${shown || '(empty)'}` }, duration_ms };
      }
      const parsed = parseDecision(value, 'json');
      if (!parsed.ok) return { error: { kind: 'parse', message: parsed.message }, duration_ms };
      return { decision: parsed.decision, duration_ms };
    },
  };
}
