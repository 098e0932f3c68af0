// `whet import promptfoo` reads prompts as promptfoo does (issue 28): a text file of prompts separated by
// `---` lines is several prompts, a chat prompt file keeps its system and user turns (the system turn
// reaches the agent before the skill's text), a test without assertions imports as an unjudged task, and
// each defaultTest assertion not carried over is listed once with every task it applies to.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/config/suite.js';
import { findFiles, fixturesBin, tempDir, whet, write } from '../support/cli.js';

const SKILL = '---\nname: notes\ndescription: writes release notes\n---\n# Notes\nSKILL-TEXT: list every change.\n';

describe('whet import promptfoo: prompts as promptfoo reads them', () => {
  it('makes one task per prompt per test from a `---`-separated prompt file', async () => {
    const dir = tempDir();
    write(join(dir, 'prompts.txt'), 'Summarize {{topic}} in one line.\n---\nExplain {{topic}} to a child.\n---\n\nList three facts about {{topic}}.\n');
    write(join(dir, 'pf.yaml'), 'prompts: [file://prompts.txt]\ntests:\n  - vars: {topic: tides}\n    assert: [{type: icontains, value: tide}]\n  - vars: {topic: rust}\n    assert: [{type: icontains, value: rust}]\n');
    const r = await whet(['import', 'promptfoo', 'pf.yaml'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/wrote tasks\.yaml: 6 task\(s\) from 2 test\(s\) × 3 prompt\(s\)/);
    const suite = loadSuite(join(dir, 'tasks.yaml'));
    expect(suite.tasks.map((t) => [t.id, t.prompt])).toEqual([
      ['test-0-p1', 'Summarize tides in one line.'],
      ['test-0-p2', 'Explain tides to a child.'],
      ['test-0-p3', 'List three facts about tides.'],
      ['test-1-p1', 'Summarize rust in one line.'],
      ['test-1-p2', 'Explain rust to a child.'],
      ['test-1-p3', 'List three facts about rust.'],
    ]);
  });

  it.each([
    ['YAML', 'chat.yaml', '- role: system\n  content: You are the release bot of {{product}}.\n- role: user\n  content: "Write notes for {{version}}"\n'],
    ['JSON messages', 'chat.json', '{"messages": [{"role": "system", "content": "You are the release bot of {{product}}."}, {"role": "user", "content": "Write notes for {{version}}"}]}'],
  ])('keeps a chat prompt file\'s system and user turns (%s), the system turn sent before the skill', async (_what, file, body) => {
    const dir = tempDir();
    write(join(dir, file), body);
    write(join(dir, 'pf.yaml'), `prompts: [file://${file}]\ndefaultTest: {vars: {product: Whetstone}}\ntests:\n  - vars: {version: v2}\n    assert: [{type: contains, value: v2}]\n`);
    const r = await whet(['import', 'promptfoo', 'pf.yaml'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const [task] = loadSuite(join(dir, 'tasks.yaml')).tasks;
    expect(task).toMatchObject({ system: 'You are the release bot of Whetstone.', prompt: 'Write notes for v2' });
    // A real agent program that answers with what it was sent: the system turn, then the skill, then the user turn.
    write(join(dir, 'skill/SKILL.md'), SKILL);
    write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}\n`);
    const ev = await whet(['evaluate', '--standalone', '--task-suite', 'tasks.yaml', '--skill-path', 'skill', '--state-root', 'state'], { cwd: dir });
    expect(ev.code, ev.stdout + ev.stderr).toBe(0);
    const line = JSON.parse(readFileSync(findFiles(join(dir, 'state/runs'), 'baseline.jsonl')[0]!, 'utf8').trim());
    const out = line.output as string;
    expect(out.indexOf('You are the release bot of Whetstone.')).toBeGreaterThanOrEqual(0);
    expect(out.indexOf('You are the release bot')).toBeLessThan(out.indexOf('SKILL-TEXT'));
    expect(out.indexOf('SKILL-TEXT')).toBeLessThan(out.indexOf('Write notes for v2'));
  });

  it('refuses a multi-turn chat prompt at its place, writing nothing', async () => {
    const dir = tempDir();
    write(join(dir, 'chat.yaml'), '- {role: user, content: hi}\n- {role: assistant, content: hello}\n- {role: user, content: again}\n');
    write(join(dir, 'pf.yaml'), 'prompts: [file://chat.yaml]\ntests:\n  - assert: [{type: contains, value: x}]\n');
    const r = await whet(['import', 'promptfoo', 'pf.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/pf\.yaml:1:11: chat prompt file file:\/\/chat\.yaml: 3 user\/assistant turns; .*multi-turn conversation is not imported/);
  });

  it('imports a test without assertions as an unjudged task and lists a defaultTest item once with its tasks', async () => {
    const dir = tempDir();
    write(
      join(dir, 'pf.yaml'),
      'prompts: ["Say {{w}}", "Shout {{w}}"]\ndefaultTest:\n  assert:\n    - {type: javascript, value: "output.length > 1"}\n    - {type: icontains, value: "{{w}}"}\n    - {type: latency, threshold: 500}\ntests:\n  - vars: {w: hi}\n  - vars: {w: yo}\n  - vars: {w: ok}\n',
    );
    const plain = write(join(dir, 'plain.yaml'), 'prompts: ["Say {{w}}"]\ntests:\n  - vars: {w: hi}\n  - vars: {w: yo}\n    assert: [{type: contains, value: yo}]\n');
    const r = await whet(['import', 'promptfoo', 'pf.yaml'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    // Three tests, two prompts: each defaultTest item not carried over is one line naming its six tasks.
    expect(r.stderr.match(/defaultTest\.assert\[0\]/g)).toHaveLength(1);
    expect(r.stderr.match(/defaultTest\.assert\[2\]/g)).toHaveLength(1);
    expect(r.stderr).toMatch(/pf\.yaml:4:7 defaultTest\.assert\[0\]: assertion type "javascript" .* — task test-0-p1, test-0-p2, test-1-p1, test-1-p2, test-2-p1, test-2-p2 marked promptfoo-partial/);
    expect(r.stderr).toMatch(/whet evaluate --standalone --task-suite tasks\.yaml --skill-path skill/);

    const out = await whet(['import', 'promptfoo', plain, '-o', 'plain-tasks.yaml'], { cwd: dir });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toMatch(/1 task\(s\) from tests without assertions are unjudged/);
    const suite = loadSuite(join(dir, 'plain-tasks.yaml'));
    expect(suite.tasks.map((t) => [t.id, t.unjudged ?? false, t.judges.length])).toEqual([['test-0', true, 0], ['test-1', false, 1]]);
    write(join(dir, 'skill/SKILL.md'), SKILL);
    const ev = await whet(['evaluate', '--standalone', '--task-suite', 'plain-tasks.yaml', '--skill-path', 'skill', '--state-root', 'state', '--mock', '--json'], { cwd: dir });
    const a = JSON.parse(ev.stdout);
    expect(a.evaluation).toMatchObject({ total_tasks: 1, unjudged: { tasks: 1, task_ids: ['test-0'] } });
  });
});
