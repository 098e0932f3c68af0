// `--concurrency` reaches the server: `whet evaluate --concurrency 64` against a loopback OpenAI-compatible
// server, with no engine config beyond the base URL, has 64 requests in flight at once — counted by the
// server, not by the client. Until the engines' unwritten default ceiling (8) gave way to the run's own
// concurrency, the server never saw more than 8. A max_concurrency the config writes still caps, and the
// summary and artifact say so (effective concurrency, what capped it).
//
// The server holds every request until `target` are in flight (or a fallback delay has passed, so a
// capped run still finishes), so the peak it records is what the client admits, whatever the machine's load.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';

import { useLoopbackServer } from '../support/http/use-server.js';
import { openaiCompletion } from '../support/http/wire.js';
import { tempDir, whet, write } from '../support/cli.js';

let target = 64;
let fallbackMs = 10_000;
let waiting: (() => void)[] = [];

const server = useLoopbackServer(
  (rq) =>
    new Promise((resolve) => {
      const answer = () => resolve({ body: openaiCompletion({ content: 'PASSWORD' }) });
      const timer = setTimeout(answer, fallbackMs);
      waiting.push(() => {
        clearTimeout(timer);
        answer();
      });
      if (rq.inFlight >= target) {
        const all = waiting;
        waiting = [];
        for (const release of all) release();
      }
    }),
);

function project(engineExtra: string, tasks: number): string {
  const dir = tempDir('whet-concurrency-');
  write(join(dir, 'skill/SKILL.md'), '---\nname: echo\ndescription: Answers the task.\n---\n# Echo\nAnswer.\n');
  const lines = Array.from({ length: tasks }, (_, i) => `  - id: t-${i}\n    prompt: "task ${i}"\n    judge: {type: contains, expected: ["PASSWORD"]}\n`);
  write(join(dir, 'skill/tasks.yaml'), `skill_id: echo\nversion: "1.0"\ntasks:\n${lines.join('')}`);
  write(join(dir, 'pipeline.yaml'), `engine: {type: openai, model: m, base_url: "${server.url}/v1"${engineExtra}}\ncache: {enabled: false}\n`);
  return dir;
}

const evaluate = (dir: string) =>
  whet(['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', '--state-root', 'state', '--concurrency', '64', '--output', 'out.json'], {
    cwd: dir,
    env: { ...process.env, OPENAI_API_KEY: 'sk-loopback-0000' },
  });

describe('evaluate --concurrency on an HTTP engine', () => {
  it('puts 64 requests in flight at the server when the config writes no max_concurrency', async () => {
    target = 64;
    fallbackMs = 10_000;
    const dir = project('', 128);
    const before = server.requests.length;
    const r = await evaluate(dir);
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests.length - before).toBe(128);
    expect(server.maxInFlight()).toBe(64);
    const a = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'));
    expect(a.evaluation.concurrency).toEqual({ requested: 64, effective: 64, capped_by: null, adaptive_lowest: null });
    expect(r.stdout).toMatch(/· concurrency 64\n/);
    expect(r.stderr).not.toMatch(/max_concurrency/);
  }, 60_000);

  it('keeps a max_concurrency the config writes, and states the effective concurrency in the summary and artifact', async () => {
    target = 16;
    fallbackMs = 300;
    const dir = project(', max_concurrency: 4', 24);
    const before = server.requests.length;
    const r = await evaluate(dir);
    expect(r.code, r.stderr).toBe(0);
    const seen = server.requests.slice(before);
    expect(seen).toHaveLength(24);
    expect(Math.max(...seen.map((s) => s.inFlight))).toBe(4);
    const a = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'));
    expect(a.evaluation.concurrency).toEqual({ requested: 64, effective: 4, capped_by: 'engine.max_concurrency', adaptive_lowest: null });
    expect(r.stdout).toContain('concurrency 4 (64 asked for; capped by engine.max_concurrency)');
    expect(r.stderr).toMatch(/at most 4 openai calls run at once .*engine\.max_concurrency/);
  }, 60_000);
});
