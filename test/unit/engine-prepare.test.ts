// Engine.prepare: an HTTP engine's SDK import (begun when the engine is built) is finished before the task
// phase starts, so the phase's wall and CPU time — what `npm run bench` divides by the calls — are the
// calls' own. It reaches runVariant through every engine wrapper, and never rejects.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Suite, Task } from '../../src/config/suite-schema.js';
import { countCalls, createEngine } from '../../src/engines/index.js';
import { subscriptionLimit } from '../../src/engines/subscription-limit.js';
import type { Engine, EngineResult } from '../../src/engines/types.js';
import { runVariant } from '../../src/evaluation/run-variant.js';
import { tempDir } from '../support/cli.js';

const task = (id: string): Task => ({ id, prompt: `p ${id}`, judges: [{ type: 'contains', expected: ['ok'] }], timeoutMs: 1000, category: 'c', negative: false, critical: false, index: 0 });

function slowToPrepare(events: string[], name: string, ms: number): Engine {
  return {
    type: 'mock',
    identity: () => ({ type: 'mock' }),
    prepare: () => new Promise<void>((r) => setTimeout(() => (events.push(`${name} prepared`), r()), ms)),
    run: async (): Promise<EngineResult> => {
      events.push(`${name} run`);
      return { ok: true, output: 'ok', usage: {}, duration_ms: 0 };
    },
  };
}

describe('Engine.prepare', () => {
  it('runVariant awaits the engine and the judge engine before the task phase, which does not count it', async () => {
    const dir = tempDir();
    const events: string[] = [];
    const suite: Suite = { path: join(dir, 'tasks.yaml'), dir, skillId: 's', tasks: ['a', 'b'].map(task), contentHash: 'sha256:0' };
    const o = await runVariant({
      variant: 'baseline',
      suite,
      engine: slowToPrepare(events, 'engine', 300),
      judgeEngine: slowToPrepare(events, 'judge', 250),
      passK: 1,
      concurrency: 2,
      resultsFile: join(dir, 'results/baseline.jsonl'),
    });
    expect(events.slice(0, 2).sort()).toEqual(['engine prepared', 'judge prepared']);
    expect(events.slice(2)).toEqual(['engine run', 'engine run']);
    expect(o.engineCalls).toBe(2);
    expect(o.wallMs).toBeLessThan(250);
  });

  it('reaches the caller through createEngine and countCalls for both HTTP engines, and resolves', async () => {
    for (const type of ['openai', 'anthropic'] as const) {
      const engine = countCalls(createEngine({ type, model: 'm', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'K' }, { env: { K: 'k-test' } }));
      expect(typeof engine.prepare).toBe('function');
      await expect(engine.prepare!()).resolves.toBeUndefined();
      expect(engine.calls()).toBe(0);
    }
  });

  it('the agent CLIs’ subscription-limit gate reaches the metering through createEngine and countCalls', () => {
    for (const type of ['claude', 'codex'] as const) {
      const engine = countCalls(createEngine({ type }, { env: {} }));
      expect(engine.rateLimitGate, type).toBe(subscriptionLimit(type));
    }
  });
});
