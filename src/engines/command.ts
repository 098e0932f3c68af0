// The `command` engine (docs/reference/engines.md): any program answers a task. The program is started through
// runProcess (src/core/proc.ts) — never a shell string with user data in it — with the prompt on stdin, in
// a fresh temporary directory per call (or the suite's folder), and with the whole process tree killed on
// timeout. Expected failures come back as values (`ok: false`), never as exceptions:
//
//   spawn    the program could not be started (not found, not executable, working directory missing)
//   timeout  request.timeoutMs elapsed; the process tree was killed
//   aborted  the caller's AbortSignal fired
//   exit     the program exited non-zero or was killed by a signal
//   parse    `output: json` and stdout is not JSON, or `json_path` does not resolve
//
// Each message names the cause and ends with the tail of the program's stderr.
//
// How the skill reaches the program (`skill_delivery`, default `prepend`):
//   prepend  stdin = SKILL.md text + SKILL_SEPARATOR + prompt (see composePrompt)
//   env      stdin = prompt; WHET_SKILL_FILE is a private copy of exactly the SKILL.md text under test,
//            WHET_SKILL_DIR is the skill's folder (its references) or, without one, the copy's folder,
//            WHET_SKILL_NAME is the skill's name
//   none     stdin = prompt
// With no skill on the request (a "no skill" baseline, a judge call) nothing is prepended and the
// WHET_SKILL_* variables are removed from the child's environment, so none leaks in from the parent.
// Every call also sets WHET_TASK_ID (empty when the request has none) and WHET_REQUEST_KIND (task|judge).
//
// The time limit is request.timeoutMs. `timeout_seconds` in the config is the default the evaluator turns
// into request.timeoutMs; the engine itself does not read it.
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { writeFileAtomically } from '../core/atomic.js';
import { basename, join } from 'node:path';

import type { CommandEngineConfig } from '../config/engine-schema.js';
import { ConfigError } from '../core/errors.js';
import { executeInvocation, failure, parseJsonStdout, snippet, type StdoutVerdict } from './invocation.js';
import { getJsonPath, jsonValueToText, parseJsonPath } from './json-path.js';
import type { Engine, EngineRequest, EngineResult, Usage } from './types.js';
import { placeFiles, withWorkspace } from './workspace.js';

// The run machinery moved to invocation.ts; these names stay importable from here.
export {
  executeInvocation,
  parseJsonStdout,
  stderrTail,
  type CommandInvocation,
  type RunExtras,
  type StdoutVerdict,
} from './invocation.js';
import { isRecord } from './values.js';

/**
 * What goes between the SKILL.md text and the task prompt when the skill is prepended: a blank line, a
 * `---` rule, a blank line. It is the join the seed evaluator's family of tools uses
 * (`f"{skill_content}\n\n---\n\n{prompt}"`); SKILL.md's own trailing newline is kept, so the text reaches
 * the model byte for byte as on disk. Part of every engine identity: changing it changes answers.
 */
export const SKILL_SEPARATOR = '\n\n---\n\n';

export type SkillDelivery = 'prepend' | 'env' | 'none';

/**
 * The text sent on stdin: [system] [skill, when delivery is `prepend`] prompt, joined by SKILL_SEPARATOR.
 * `system` (judges' instructions) comes first whenever it is present; an empty skill text or system is
 * left out rather than leaving a dangling separator.
 */
export function composePrompt(request: EngineRequest, delivery: SkillDelivery): string {
  const parts: string[] = [];
  if (request.system) parts.push(request.system);
  if (delivery === 'prepend' && request.skill && request.skill.text.length > 0) parts.push(request.skill.text);
  parts.push(request.prompt);
  return parts.join(SKILL_SEPARATOR);
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}


/**
 * Token and cost accounting from a program's JSON output, when it carries any:
 * `usage.input_tokens` (+ `usage.cache_creation_input_tokens` + `usage.cache_read_input_tokens`, the
 * Anthropic/Claude Code split of the same prompt), `usage.output_tokens`; OpenAI-style
 * `usage.prompt_tokens` / `usage.completion_tokens` when the Anthropic names are absent; cost from
 * `total_cost_usd`, else `cost_usd` (top level, then inside `usage`). Missing numbers stay missing.
 */
export function extractUsage(value: unknown): Usage {
  const usage: Usage = {};
  if (!isRecord(value)) return usage;
  const u = isRecord(value['usage']) ? value['usage'] : undefined;
  if (u) {
    const input = num(u['input_tokens']);
    const cacheCreate = num(u['cache_creation_input_tokens']);
    const cacheRead = num(u['cache_read_input_tokens']);
    if (input !== undefined || cacheCreate !== undefined || cacheRead !== undefined) {
      usage.input_tokens = (input ?? 0) + (cacheCreate ?? 0) + (cacheRead ?? 0);
    } else if (num(u['prompt_tokens']) !== undefined) {
      usage.input_tokens = num(u['prompt_tokens']);
    }
    const output = num(u['output_tokens']) ?? num(u['completion_tokens']);
    if (output !== undefined) usage.output_tokens = output;
  }
  const cost =
    num(value['total_cost_usd']) ?? num(value['cost_usd']) ?? num(u?.['total_cost_usd']) ?? num(u?.['cost_usd']);
  if (cost !== undefined) usage.cost_usd = cost;
  return usage;
}

/** stdout without one trailing line break (`\n` or `\r\n`); everything else is the answer. */
export function stripOneTrailingNewline(s: string): string {
  if (s.endsWith('\r\n')) return s.slice(0, -2);
  if (s.endsWith('\n')) return s.slice(0, -1);
  return s;
}


const SKILL_ENV_KEYS = ['WHET_SKILL_FILE', 'WHET_SKILL_DIR', 'WHET_SKILL_NAME'] as const;

/** The child's environment: the caller's (default process.env), then the config's `env`, then whetstone's own variables. */
export function childEnv(
  request: EngineRequest,
  extra: Record<string, string> | undefined,
  drop: readonly string[] = [],
  base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, ...(extra ?? {}) };
  for (const key of [...SKILL_ENV_KEYS, ...drop]) delete env[key];
  env['WHET_TASK_ID'] = request.taskId ?? '';
  env['WHET_REQUEST_KIND'] = request.kind;
  return env;
}

function sortedRecord(rec: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(rec ?? {}).sort()) out[key] = (rec ?? {})[key] as string;
  return out;
}

export function createCommandEngine(cfg: CommandEngineConfig, opts: { suiteDir?: string; env?: NodeJS.ProcessEnv } = {}): Engine {
  const output = cfg.output ?? 'text';
  const delivery: SkillDelivery = cfg.skill_delivery ?? 'prepend';
  const workdir = cfg.workdir ?? 'temp';
  const jsonPath = cfg.json_path;
  if (jsonPath !== undefined) {
    try {
      parseJsonPath(jsonPath);
    } catch (err) {
      throw new ConfigError(err instanceof Error ? err.message : String(err), undefined, 'engine.json_path');
    }
  }
  if (workdir === 'suite' && !opts.suiteDir) {
    throw new ConfigError('workdir: suite needs the suite folder, and none was given to the engine', undefined, 'engine.workdir');
  }
  const command = [...cfg.command];
  const extraEnv = cfg.env ? { ...cfg.env } : undefined;

  const identity = {
    type: 'command',
    command,
    output,
    json_path: jsonPath ?? null,
    skill_delivery: delivery,
    skill_separator: SKILL_SEPARATOR,
    // Values may be secrets; identities are written into artifacts, so only their hashes appear.
    env: hashedValues(sortedRecord(extraEnv)),
    workdir,
  };

  function parseStdout(stdout: string): StdoutVerdict {
    if (output === 'text') return { ok: true, output: stripOneTrailingNewline(stdout), usage: {} };
    const parsed = parseJsonStdout(stdout);
    if (!parsed.ok) return { ok: false, kind: 'parse', message: parsed.message };
    const usage = extractUsage(parsed.value);
    if (jsonPath === undefined) return { ok: true, output: jsonValueToText(parsed.value), usage };
    const hit = getJsonPath(parsed.value, jsonPath);
    if (!hit.found) {
      return { ok: false, kind: 'parse', message: `json_path "${jsonPath}" not found in output (no "${hit.missingAt}"); stdout begins: "${snippet(stdout)}"`, usage };
    }
    if (hit.value === null || hit.value === undefined) {
      return { ok: false, kind: 'parse', message: `json_path "${jsonPath}" is null in output`, usage };
    }
    return { ok: true, output: jsonValueToText(hit.value), usage };
  }

  return {
    type: 'command',
    identity: () => structuredClone(identity),
    async run(request: EngineRequest, runOpts?: { signal?: AbortSignal }): Promise<EngineResult> {
      const started = performance.now();
      try {
        return await withWorkspace(async (ws) => {
          let cwd: string;
          if (workdir === 'temp') {
            cwd = await ws.tempDir('whet-task-');
            await placeFiles(cwd, request.files);
          } else {
            cwd = opts.suiteDir as string;
            const st = await stat(cwd).catch(() => undefined);
            if (!st?.isDirectory()) return failure('spawn', `working directory ${cwd} (workdir: suite) does not exist`, performance.now() - started);
          }
          const env = childEnv(request, extraEnv, [], opts.env);
          if (delivery === 'env' && request.skill) {
            const skillCopyDir = await ws.tempDir('whet-skill-');
            const skillFile = join(skillCopyDir, 'SKILL.md');
            await writeFileAtomically(skillFile, request.skill.text);
            env['WHET_SKILL_FILE'] = skillFile;
            env['WHET_SKILL_DIR'] = request.skill.dir ?? skillCopyDir;
            env['WHET_SKILL_NAME'] = request.skill.name;
          }
          return executeInvocation({
            argv: command,
            input: composePrompt(request, delivery),
            env,
            cwd,
            timeoutMs: request.timeoutMs,
            ...(runOpts?.signal ? { signal: runOpts.signal } : {}),
            parseStdout,
          });
        });
      } catch (err) {
        // Only our own preparation can land here (mkdtemp, writing the skill copy): the program never ran.
        return failure('spawn', `cannot prepare a run of ${basename(command[0] ?? '')}: ${err instanceof Error ? err.message : String(err)}`, performance.now() - started);
      }
    },
  };
}

function hashedValues(env: Record<string, string> | null | undefined): Record<string, string> | null {
  if (!env) return null;
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, `sha256:${createHash('sha256').update(v).digest('hex').slice(0, 16)}`]));
}
