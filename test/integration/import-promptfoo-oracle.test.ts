// `whet import promptfoo` against promptfoo itself (issue 40: "compared, in the tests, with promptfoo's own
// rendering of the same configs"). Each config under test/fixtures/promptfoo-render/ is imported by whet
// and evaluated by promptfoo 0.121.20 — its own evaluator, offline, on its `echo` provider, which answers
// with the prompt it was sent (test/oracles/promptfoo/render.mjs) — and every task must carry exactly what
// promptfoo sent for that test and prompt: `---` prompt files, chat prompt files with string or content-part
// messages, filters, loops, nested vars, list vars expanded into one run per combination, prefix/suffix.
//
// promptfoo is installed apart, without its optional providers (1.9 GB with them, 257 MB without):
// `npm ci --prefix test/oracles/promptfoo --omit=optional --ignore-scripts` (`npm test`'s pretest step does it when it is missing).
// Without it this test fails, saying so: it is never skipped.
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/config/suite.js';
import { repoRoot, tempDir, whet } from '../support/cli.js';

const ORACLE = join(repoRoot, 'test/oracles/promptfoo');
const CONFIGS = ['text', 'chat', 'expand'] as const;

interface Row {
  test: number;
  prompt: number;
  sent?: string;
  error?: string;
}
type Message = { role: string; content: string | { type: string; text: string }[] };

const text = (c: Message['content']) => (typeof c === 'string' ? c : c.map((p) => p.text).join('\n\n'));

let dir: string;
let promptfoo: Map<string, Row[]>;

beforeAll(async () => {
  const installed = join(ORACLE, 'node_modules/promptfoo/package.json');
  if (!existsSync(installed)) throw new Error(`promptfoo, which this test compares with, is not installed: run npm ci --prefix test/oracles/promptfoo --omit=optional --ignore-scripts`);
  expect((JSON.parse(readFileSync(installed, 'utf8')) as { version: string }).version).toBe('0.121.20');
  dir = tempDir('whet-pf-oracle-');
  cpSync(join(repoRoot, 'test/fixtures/promptfoo-render'), dir, { recursive: true });
  const out = join(dir, 'promptfoo.json');
  const env = { ...process.env, PROMPTFOO_CONFIG_DIR: tempDir('promptfoo-home-'), PROMPTFOO_DISABLE_TELEMETRY: '1', PROMPTFOO_DISABLE_UPDATE: '1', PROMPTFOO_DISABLE_SHARING: '1' };
  const configs = CONFIGS.map((c) => join(dir, c, 'promptfooconfig.yaml'));
  await promisify(execFile)(process.execPath, [join(ORACLE, 'render.mjs'), out, ...configs], { env, cwd: dir, timeout: 60_000 });
  const rendered = JSON.parse(readFileSync(out, 'utf8')) as { config: string; rows: Row[] }[];
  promptfoo = new Map(rendered.map((r, k) => [CONFIGS[k]!, r.rows]));
}, 90_000);

describe('whet import promptfoo renders every test as promptfoo 0.121.20 does', () => {
  it.each(CONFIGS)('%s: each task carries what promptfoo sent for its test and prompt', async (name) => {
    const r = await whet(['import', 'promptfoo', 'promptfooconfig.yaml'], { cwd: join(dir, name) });
    expect(r.code, r.stderr).toBe(0);
    const tasks = loadSuite(join(dir, name, 'tasks.yaml')).tasks;
    const rows = promptfoo.get(name)!;
    expect(rows.every((row) => !row.error || /Expected output to contain/.test(row.error)), JSON.stringify(rows)).toBe(true);
    // Test-major, prompt-minor, as whet orders its tasks; promptfoo numbers each expanded run as a test.
    expect(tasks).toHaveLength(rows.length);
    rows.forEach((row, k) => {
      const task = tasks[k]!;
      if (name === 'chat') {
        const parsed = JSON.parse(row.sent!) as Message[] | { messages: Message[] };
        const messages = Array.isArray(parsed) ? parsed : parsed.messages;
        const system = messages.filter((m) => m.role === 'system').map((m) => text(m.content).trim());
        expect({ id: task.id, system: task.system, prompt: task.prompt }).toEqual({ id: task.id, system: system.join('\n\n'), prompt: text(messages.find((m) => m.role === 'user')!.content) });
      } else {
        expect({ id: task.id, prompt: task.prompt }).toEqual({ id: task.id, prompt: row.sent });
      }
    });
  });

  it('the figures the comparison rests on: list vars expanded, vars built from vars, a chat var left as written', () => {
    const sent = (name: string) => promptfoo.get(name)!.map((r) => r.sent);
    // Two list vars of two strings: four runs of the first test; a list of objects stays one value.
    expect(promptfoo.get('expand')!.map((r) => r.test)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    expect(sent('expand')[8]).toBe('> - fast\n- quiet\nfor Cy [end]');
    expect(sent('text')[0]).toBe('Describe WIDGET PRO for New Users. Hello ADA, from Platform team');
    expect(sent('text')[6]).toBe('Owner: Grace (core & docs)');
    expect(sent('chat')[0]).toContain('Hi {{ brand | upper }}');
  });

  it('a list var makes one task per combination, named -v<k>, and the summary says so', async () => {
    const r = await whet(['import', 'promptfoo', 'promptfooconfig.yaml', '-o', 'again.yaml'], { cwd: join(dir, 'expand') });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/12 task\(s\) from 3 test\(s\) \(6 with their list vars expanded, as promptfoo runs them\) × 2 prompt\(s\)/);
    const ids = loadSuite(join(dir, 'expand', 'again.yaml')).tasks.map((t) => t.id);
    expect(ids.slice(0, 4)).toEqual(['test-0-v1-p1', 'test-0-v1-p2', 'test-0-v2-p1', 'test-0-v2-p2']);
  });
});
