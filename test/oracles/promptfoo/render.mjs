// promptfoo's own rendering of promptfoo configs: each config evaluated by promptfoo's library `evaluate`
// (the evaluator `promptfoo eval` runs: its prompt readers — `---` files, chat files — its test and
// defaultTest merging, its Nunjucks `renderPrompt`) against its `echo` provider, which answers with the
// prompt it was sent. Offline: no cache, no telemetry, no update check, no sharing, nothing written to its
// database (the library path never opens it, which is why the optional native `libsql` binary need not be
// installed). Its config folder is a temporary one the caller passes in PROMPTFOO_CONFIG_DIR.
//
// Usage: node render.mjs OUT.json CONFIG…  →  OUT.json: [{config, rows: [{test, prompt, description, sent}]}]
//   (a file, not stdout: promptfoo logs its progress there)
//   test: the test's index in the config's `tests`; prompt: the prompt's index among the prompts promptfoo
//   read (a `---` file counts once per part, in order); sent: the echo provider's output, the rendered prompt.
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

for (const k of ['PROMPTFOO_DISABLE_TELEMETRY', 'PROMPTFOO_DISABLE_UPDATE', 'PROMPTFOO_DISABLE_SHARING']) process.env[k] = '1';
if (!process.env.PROMPTFOO_CONFIG_DIR) throw new Error('PROMPTFOO_CONFIG_DIR must name a temporary folder');

const require = createRequire(import.meta.url);
const promptfoo = (await import(pathToFileURL(require.resolve('promptfoo')).href)).default;
// promptfoo reads its YAML configs with js-yaml (its `loadYaml`); the same package, its copy.
const yaml = createRequire(require.resolve('promptfoo'))('js-yaml');

const out = [];
const [outFile, ...configs] = process.argv.slice(2);
for (const file of configs) {
  const path = resolve(file);
  const config = yaml.load(readFileSync(path, 'utf8'));
  // promptfoo resolves `file://` paths from the config's folder.
  process.chdir(dirname(path));
  const evaluated = await promptfoo.evaluate({ ...config, providers: ['echo'] }, { cache: false, maxConcurrency: 1, showProgressBar: false });
  const summary = await evaluated.toEvaluateSummary();
  const rows = summary.results.map((r) => ({ test: r.testIdx, prompt: r.promptIdx, description: r.testCase?.description, sent: r.response?.output, error: r.error }));
  rows.sort((a, b) => a.test - b.test || a.prompt - b.prompt);
  out.push({ config: file, rows });
}
writeFileSync(outFile, `${JSON.stringify(out)}\n`);
