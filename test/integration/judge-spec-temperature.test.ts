// A judge spec's temperature reaches the wire: the spec judge's request to an OpenAI-compatible server on
// 127.0.0.1 carries the spec's temperature (0 when the spec sets none), even when the engine it runs on
// is configured hotter for tasks — a judge must repeat its judgements (docs/method.md: Writing a judge like code).
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { OpenAIEngineConfig } from '../../src/config/engine-schema.js';
import { createOpenAIEngine } from '../../src/engines/openai.js';
import { judgeWithSpec } from '../../src/judges/spec-judge.js';
import { loadJudgeSpec } from '../../src/judges/spec.js';
import { tempDir, write } from '../support/cli.js';
import { useLoopbackServer } from '../support/http/use-server.js';
import { openaiCompletion } from '../support/http/wire.js';

const SPEC = `name: notes-judge
description: You review release notes.
labels:
  PASS: Grouped under Features and Bug fixes.
  FAIL: Raw commit subjects.
few_shots:
  - {output: "## Features\\n- Share links", label: PASS, reasoning: Grouped.}
  - {output: "feat: add ShareService", label: FAIL, reasoning: A raw commit subject.}
`;

const server = useLoopbackServer();

async function judgeOnce(specText: string, engineTemperature: number): Promise<unknown> {
  const loaded = loadJudgeSpec(write(join(tempDir(), 'judge.yaml'), specText));
  const cfg: OpenAIEngineConfig = { type: 'openai', model: 'gpt-test', base_url: `${server.url}/v1`, api_key_env: 'WHET_T_KEY', temperature: engineTemperature, max_retries: 0 };
  const engine = createOpenAIEngine(cfg, { env: { WHET_T_KEY: 'k' } });
  server.script({ body: openaiCompletion({ content: '{"label":"PASS","reason":"grouped"}' }) });
  const v = await judgeWithSpec(loaded, { output: '## Features\n- x', task: 'notes', engine, timeoutMs: 5000 });
  expect(v).toMatchObject({ ok: true, label: 'PASS' });
  expect(server.requests).toHaveLength(1);
  return (server.requests[0]?.body as { temperature?: unknown }).temperature;
}

describe('spec judge temperature on the wire', () => {
  it("sends the spec's temperature, not the engine's hotter one", async () => {
    expect(await judgeOnce(`${SPEC}temperature: 0.15\n`, 0.9)).toBe(0.15);
  });

  it('sends 0 when the spec sets none, whatever the engine is configured with', async () => {
    expect(await judgeOnce(SPEC, 1.2)).toBe(0);
  });
});
