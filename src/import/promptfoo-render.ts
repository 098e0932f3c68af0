// Prompts and vars rendered as promptfoo renders them, with its own template engine, Nunjucks. Ported
// from promptfoo 0.121.20 (the npm package's dist/src: `getNunjucksEngine` in util-*.js, `renderPrompt`,
// `resolveVariables`, `autoWrapRawIfPartialNunjucks` and `referencesUndefinedVariables` in
// evaluatorHelpers-*.js, `renderVarsInObject` beside them), for the prompts an import can carry:
// - the engine: `nunjucks.configure({autoescape: false, throwOnUndefined: false})`, a global `env`, and
//   the `load` filter (JSON.parse); templates are found beside the config (promptfoo: the working folder);
// - the vars: a trailing newline cut, then `{{ name }}` references between vars resolved (up to 5
//   passes), then each string var rendered as a template over the vars unless it names an undefined one;
// - a prompt that parses as JSON (a chat prompt file) has every string in it rendered over the vars; any
//   other prompt is rendered over the rendered vars, wrapped in {% raw %} when it holds a partial tag.
// `env` holds the config's own `env:` only: promptfoo also reads the process environment at run time,
// which an import must not write into a suite file.
import { nunjucksLib } from '../core/lazy.js';

type Vars = Record<string, unknown>;

export interface PromptfooTemplates {
  renderString(template: string, vars: Vars): string;
}

/** getNunjucksEngine(): one environment per import (promptfoo makes one per render; the settings are the same). */
export function promptfooEngine(dir: string, env: Record<string, unknown> = {}): PromptfooTemplates {
  const nj = nunjucksLib();
  const e = new nj.Environment(new nj.FileSystemLoader(dir), { autoescape: false, throwOnUndefined: false });
  e.addGlobal('env', env);
  e.addFilter('load', (s: string) => JSON.parse(s) as unknown);
  return e;
}

/** resolveVariables: `{{ name }}` placeholders between vars replaced by the var's value, at most 5 passes. */
export function resolveVariables(vars: Vars): Vars {
  const re = /\{\{\s*(\w+)\s*\}\}/;
  let resolved: boolean;
  let passes = 0;
  do {
    resolved = true;
    for (const key of Object.keys(vars)) {
      const value = vars[key];
      if (typeof value !== 'string') continue;
      const m = re.exec(value);
      if (m && vars[m[1]!] !== undefined) {
        vars[key] = value.replace(m[0], String(vars[m[1]!]));
        resolved = false;
      }
    }
    passes++;
  } while (!resolved && passes < 5);
  return vars;
}

export function autoWrapRawIfPartialNunjucks(prompt: string): string {
  const partial = /({%[^%]*$|{{[^}]*$|{#[^#]*$)/m.test(prompt);
  const wrapped = /{%\s*raw\s*%}/.test(prompt) && /{%\s*endraw\s*%}/.test(prompt);
  return partial && !wrapped ? `{% raw %}${prompt}{% endraw %}` : prompt;
}

/** extractVariablesFromTemplate: the variables a template reads (loop variables by their list). */
export function templateVariables(template: string): string[] {
  const found = new Set<string>();
  const re = /\{\{[\s]*([^{}\s|]+)[\s]*(?:\|[^}]+)?\}\}|\{%[\s]*(?:if|for)[\s]+([^{}\s]+)[\s]*.*?%\}/g;
  const text = template.replace(/\{#[\s\S]*?#\}/g, '');
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const v = m[1] ?? m[2];
    if (v) found.add(v);
  }
  const loops = /\{%[\s]*for[\s]+(\w+)[\s]+in[\s]+(\w+)[\s]*%\}/g;
  while ((m = loops.exec(text)) !== null) {
    found.delete(m[1]!);
    found.add(m[2]!);
  }
  return [...found];
}

/** The root names a template reads that no var gives (`env` is the engine's own). */
export function undefinedVariables(template: string, vars: Vars): string[] {
  return templateVariables(template).flatMap((v) => {
    const root = /^([A-Za-z_]\w*)/.exec(v)?.[1];
    return root && root !== 'env' && vars[root] === undefined ? [root] : [];
  });
}

function renderInObject(t: PromptfooTemplates, value: unknown, vars: Vars): unknown {
  if (typeof value === 'string') return t.renderString(value, vars);
  if (Array.isArray(value)) return value.map((v) => renderInObject(t, v, vars));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderInObject(t, v, vars)]));
  return value;
}

/** renderPrompt for a prompt's raw text and one test's vars (already merged over defaultTest's). */
export function renderPromptfoo(t: PromptfooTemplates, raw: string, given: Vars): string {
  const vars: Vars = {};
  for (const [k, v] of Object.entries(given)) vars[k] = typeof v === 'string' ? v.replace(/\n$/, '') : v;
  resolveVariables(vars);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    const rendered = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, typeof v !== 'string' || undefinedVariables(v, vars).length ? v : t.renderString(autoWrapRawIfPartialNunjucks(v), vars)]));
    return t.renderString(autoWrapRawIfPartialNunjucks(raw), rendered);
  }
  return JSON.stringify(renderInObject(t, parsed, vars), null, 2);
}

/**
 * generateVarCombinations: promptfoo runs a test once per combination of its vars' values, where a var
 * holding a list of strings is one value per item (a list of anything else stays one value), in the
 * vars' order; `options.disableVarExpansion` keeps the test whole. (`file://` vars are not imported.)
 */
export function varCombinations(vars: Vars, disabled: boolean): Vars[] {
  if (disabled) return [vars];
  let out: Vars[] = [{}];
  for (const [key, value] of Object.entries(vars)) {
    const values = Array.isArray(value) && typeof value[0] === 'string' ? (value as unknown[]) : [value];
    out = out.flatMap((c) => values.map((v) => ({ ...c, [key]: v })));
  }
  return out;
}
