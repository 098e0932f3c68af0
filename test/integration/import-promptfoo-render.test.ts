// `whet import promptfoo` renders prompts and vars as promptfoo does, with its own template engine
// (issue 40, item 4). The comparison with promptfoo itself — its evaluator on its echo provider, over
// configs of every kind — is test/integration/import-promptfoo-oracle.test.ts; here the expectations are
// computed by the Nunjucks library configured as promptfoo 0.121.20 configures it (`getNunjucksEngine`:
// autoescape off, throwOnUndefined off, the `load` filter), with list vars kept whole
// (`options.disableVarExpansion`, which promptfoo honours too), and the messages of an import are checked:
// dropped providers named once, a template Nunjucks cannot render refused at its test.
import { join } from 'node:path';
import nunjucks from 'nunjucks';
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/config/suite.js';
import { tempDir, whet, write } from '../support/cli.js';

/** promptfoo's engine: getNunjucksEngine() with no custom filters. */
function promptfooNunjucks(): nunjucks.Environment {
  const env = nunjucks.configure({ autoescape: false, throwOnUndefined: false });
  env.addGlobal('env', {});
  env.addFilter('load', (s: string) => JSON.parse(s));
  return env;
}

async function imported(files: Record<string, string>): Promise<{ stderr: string; tasks: ReturnType<typeof loadSuite>['tasks']; yaml: string }> {
  const dir = tempDir('whet-pf-render-');
  for (const [f, text] of Object.entries(files)) write(join(dir, f), text);
  const r = await whet(['import', 'promptfoo', 'promptfooconfig.yaml'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  return { stderr: r.stderr, tasks: loadSuite(join(dir, 'tasks.yaml')).tasks, yaml: (await import('node:fs')).readFileSync(join(dir, 'tasks.yaml'), 'utf8') };
}

describe('whet import promptfoo: prompts rendered by promptfoo\'s template engine', () => {
  it('filters, loops, conditionals and vars built from other vars render as Nunjucks renders them', async () => {
    const prompt = 'Describe {{ product | upper }} for {{ audience | title }} in {{ words }} words.\n{% for f in features %}- {{ f | capitalize }}\n{% endfor %}{% if urgent %}Reply today.{% endif %}\n{{ greeting }}';
    const vars = { product: 'widget pro', audience: 'new users', words: 20, features: ['fast', 'quiet'], urgent: true, name: 'Ada', greeting: 'Hello {{ name | upper }}, from {{ product }}' };
    const { tasks, stderr } = await imported({
      'promptfooconfig.yaml': `prompts:\n  - ${JSON.stringify(prompt)}\nproviders: [openai:gpt-4o-mini, {id: anthropic:messages:claude-sonnet-4-5, label: sonnet}]\ntests:\n  - vars: ${JSON.stringify(vars)}\n    options: {disableVarExpansion: true}\n    assert: [{type: contains, value: "{{ product | upper }}"}]\n`,
    });
    const nj = promptfooNunjucks();
    // renderPrompt: each var rendered over the vars first, then the prompt over the rendered vars.
    const renderedVars = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, typeof v === 'string' ? nj.renderString(v, vars) : v]));
    const expected = nj.renderString(prompt, renderedVars);
    expect(expected).toContain('WIDGET PRO');
    expect(expected).toContain('Hello ADA, from widget pro');
    expect(expected).toContain('- Fast\n- Quiet');
    expect(tasks[0]!.prompt).toBe(expected);
    // The assertion's value is rendered with the same engine.
    expect(tasks[0]!.judges[0]).toMatchObject({ type: 'contains', expected: ['WIDGET PRO'] });
    // Each dropped provider named once.
    expect(stderr.match(/not imported: \S*promptfooconfig\.yaml:\d+:\d+ provider openai:gpt-4o-mini: the suite runs on the engine pipeline\.yaml names/g)).toHaveLength(1);
    expect(stderr.match(/provider anthropic:messages:claude-sonnet-4-5:/g)).toHaveLength(1);
  });

  it('a `---` prompt file and a chat prompt file whose content is a list of {type: text, text} parts', async () => {
    const chat = '- role: system\n  content:\n    - {type: text, text: "You write for {{ brand | upper }}."}\n- role: user\n  content:\n    - type: text\n      text: "Summarize {{ topic | title }}."\n    - type: text\n      text: "{% for k in keys %}{{ k }}{% if not loop.last %}, {% endif %}{% endfor %}"\n';
    const { tasks } = await imported({
      'prompts.txt': 'Explain {{ topic }} simply.\n---\nList {{ n }} facts about {{ topic | lower }}.\n',
      'chat.yaml': chat,
      'promptfooconfig.yaml': 'prompts: [file://prompts.txt, file://chat.yaml]\ndefaultTest: {vars: {brand: acme}}\ntests:\n  - vars: {topic: Quantum physics, n: 3, keys: [a, b, c]}\n    options: {disableVarExpansion: true}\n    assert: [{type: icontains, value: quantum}]\n',
    });
    const nj = promptfooNunjucks();
    const vars = { brand: 'acme', topic: 'Quantum physics', n: 3, keys: ['a', 'b', 'c'] };
    expect(tasks.map((t) => t.prompt)).toEqual([
      nj.renderString('Explain {{ topic }} simply.', vars),
      nj.renderString('List {{ n }} facts about {{ topic | lower }}.', vars),
      `${nj.renderString('Summarize {{ topic | title }}.', vars)}\n\n${nj.renderString('{% for k in keys %}{{ k }}{% if not loop.last %}, {% endif %}{% endfor %}', vars)}`,
    ]);
    expect(tasks[2]!.prompt).toBe('Summarize Quantum Physics.\n\na, b, c');
    expect(tasks[2]!.system).toBe(nj.renderString('You write for {{ brand | upper }}.', vars));
  });

  it('a var no test gives is named (promptfoo renders it empty too); a template promptfoo cannot render is refused at the test', async () => {
    const { tasks, stderr } = await imported({ 'promptfooconfig.yaml': 'prompts: ["Hi {{ who }}, about {{ missing }}."]\ntests:\n  - vars: {who: Ada}\n    assert: [{type: contains, value: Ada}]\n' });
    expect(tasks[0]!.prompt).toBe(promptfooNunjucks().renderString('Hi {{ who }}, about {{ missing }}.', { who: 'Ada' }));
    expect(stderr).toMatch(/the prompt reads \{\{ missing \}\}, which no var of this test gives/);
    const dir = tempDir();
    write(join(dir, 'promptfooconfig.yaml'), 'prompts: ["{% for x in %}"]\ntests:\n  - vars: {who: Ada}\n    assert: [{type: contains, value: Ada}]\n');
    const bad = await whet(['import', 'promptfoo', 'promptfooconfig.yaml'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/promptfooconfig\.yaml:3:\d+.*Nunjucks\) cannot render/);
  });
  it('a test\'s own prompts: list is named; a prefix around a chat prompt file is refused at its options', async () => {
    const dir = tempDir();
    write(join(dir, 'promptfooconfig.yaml'), 'prompts: ["A {{ w }}", "B {{ w }}"]\ntests:\n  - vars: {w: x}\n    prompts: ["A {{ w }}"]\n    assert: [{type: contains, value: x}]\n');
    const r = await whet(['import', 'promptfoo', 'promptfooconfig.yaml'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/promptfooconfig\.yaml:4:\d+ tests\[0\]\.prompts: the test becomes a task for every prompt, not only the prompts it names/);
    write(join(dir, 'chat.yaml'), '- {role: user, content: "hi {{ w }}"}\n');
    write(join(dir, 'chat-config.yaml'), 'prompts: [file://chat.yaml]\ntests:\n  - vars: {w: x}\n    options: {prefix: "> "}\n    assert: [{type: contains, value: x}]\n');
    const bad = await whet(['import', 'promptfoo', 'chat-config.yaml', '-o', 'chat-tasks.yaml'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/chat-config\.yaml:4:\d+: options\.prefix\/suffix around chat prompt file file:\/\/chat\.yaml is not imported/);
  });
});
