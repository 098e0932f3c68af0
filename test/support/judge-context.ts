// What the judge tests share (test/unit/judges-*.test.ts): a task, a judge context on the judges' fixture
// suite, and an engine that answers a judge from a script.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Task } from '../../src/config/suite-schema.js';
import type { Engine, EngineRequest, EngineResult } from '../../src/engines/types.js';
import type { JudgeContext } from '../../src/judges/types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const suiteDir = path.resolve(here, '../fixtures/judges/suite');

export function task(over: Partial<Task> = {}): Task {
  return {
    id: 't1',
    prompt: 'Write the release notes.',
    judges: [],
    timeoutMs: 10_000,
    category: 'default',
    negative: false,
    critical: false,
    index: 0,
    ...over,
  };
}


export function ctx(output: string, over: Partial<JudgeContext> = {}): JudgeContext {
  return { output, task: task(), suiteDir, timeoutMs: 10_000, ...over };
}

/** An engine that answers from a script and records what it was asked. */
export class ScriptedEngine implements Engine {
  readonly type = 'scripted';
  readonly requests: EngineRequest[] = [];
  constructor(private readonly replies: Array<string | Partial<EngineResult>>) {}
  identity(): Record<string, unknown> {
    return { type: this.type };
  }
  async run(request: EngineRequest): Promise<EngineResult> {
    this.requests.push({ ...request });
    const next = this.replies.shift();
    if (next === undefined) throw new Error('ScriptedEngine: no more replies');
    const base: EngineResult = { ok: true, output: '', usage: { input_tokens: 10, output_tokens: 5, cost_usd: 0.001 }, duration_ms: 1 };
    return typeof next === 'string' ? { ...base, output: next } : { ...base, ...next };
  }
}
