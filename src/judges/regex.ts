// The regex judge. Suites are trusted input, but model output is not, and V8's backtracking engine
// can take exponential time on some patterns. Capping the tested text at 1 MB is the cheap guard the
// design asks for: it bounds the common blow-ups (huge outputs) without a worker thread per judge.
// It does not defend against a pattern that is exponential on short input; such patterns are the
// suite author's bug, and the evaluator's per-task timeout is the backstop.
import type { JudgeSpec } from '../config/suite-schema.js';
import type { JudgeResult } from './types.js';
import { errorResult, quote } from './result.js';

type RegexSpec = Extract<JudgeSpec, { type: 'regex' }>;

/** Characters (UTF-16 code units) of output the pattern is tested against. */
export const REGEX_MAX_INPUT = 1024 * 1024;

export function compileJudgeRegex(pattern: string, flags = ''): RegExp | string {
  // g and y make RegExp.test stateful (lastIndex), which would make a shared judge flaky.
  if (!/^[imsu]*$/.test(flags)) return `flags "${flags}" not allowed: use only i, m, s, u`;
  try {
    return new RegExp(pattern, flags);
  } catch (err) {
    return `invalid regex ${quote(pattern)}: ${err instanceof Error ? err.message : String(err)}`;
  }
}

// One compiled pattern per judge spec (specs are shared by every task and attempt that uses them, and
// never changed); safe to share because g and y, the flags that give a RegExp state, are refused.
const compiled = new WeakMap<RegexSpec, RegExp | string>();

export function judgeRegex(spec: RegexSpec, output: string): JudgeResult {
  let re = compiled.get(spec);
  if (re === undefined) compiled.set(spec, (re = compileJudgeRegex(spec.pattern, spec.flags ?? '')));
  if (typeof re === 'string') return errorResult('regex', re);

  const capped = output.length > REGEX_MAX_INPUT;
  const text = capped ? output.slice(0, REGEX_MAX_INPUT) : output;
  const note = capped ? ` (tested the first ${REGEX_MAX_INPUT} of ${output.length} characters)` : '';
  const match = re.exec(text);
  const shown = `/${spec.pattern}/${spec.flags ?? ''}`;
  const negate = spec.negate ?? false;
  const passed = negate ? match === null : match !== null;

  let reason: string;
  if (match) {
    const at = `${shown} matched at offset ${match.index}: ${quote(match[0])}`;
    reason = negate ? `${at}, but must not match${note}` : `${at}${note}`;
  } else {
    reason = negate ? `${shown} does not match, as required${note}` : `${shown} does not match${note}`;
  }
  return { type: 'regex', passed, score: passed ? 1 : 0, reason };
}
