// The `claude` engine: a preset of the command engine that runs Claude Code headless (docs/reference/engines.md),
// started through runProcess in a fresh temporary directory per call (removed afterwards, also on
// failure), with the prompt on stdin. `CLAUDECODE` is removed from the child's environment: Claude Code
// ≥ 2.1.39 refuses to start when it finds it ("cannot be launched inside another Claude Code session"),
// which is exactly the case when whetstone itself runs from a Claude Code session; the evaluated run is a
// separate session, not a nested one.
//
// Two modes (`mode` in config):
//
//   prepend (default, the seed's way)
//     <bin> -p --output-format json [flags]
//     stdin = [judge system] + SKILL.md text + SKILL_SEPARATOR + prompt (composePrompt), in an empty
//     directory; stdout is the result envelope (claude-result.ts).
//
//   installed (the skill evaluated the way users run it)
//     <bin> -p --output-format stream-json --verbose [flags]
//     the skill folder is placed at <workspace>/.claude/skills/<name>/ (skill-install.ts), where Claude
//     Code discovers project skills; stdin = [judge system] + prompt only. stdout is the message stream
//     (claude-stream.ts): the result, usage and cost from its last line, every tool_use as
//     EngineResult.tool_calls, and EngineResult.skill_triggered = whether a Skill tool call named it.
//     The user's ~/.claude is never read or written by whetstone; HOME is passed through unchanged so
//     Claude Code finds its login.
//
// Isolation (default, both modes): `--setting-sources project` (settingSources), so the user's own
// ~/.claude settings, CLAUDE.md, hooks, output style and skills take no part in the run — the Agent SDK
// documents settingSources as what decides whether user/project/local settings, CLAUDE.md files and
// skills load (code.claude.com/docs/en/agent-sdk; openprose/prose PR #70: with them left out "user
// skills, project skills, hooks, MCP servers, and project CLAUDE.md never reached the agent"). In
// prepend mode the workspace is empty, so nothing loads but the built-ins. `user_setup: true` passes no
// --setting-sources (Claude Code's own default: user, project, local); `setting_sources` wins over both.
// identity.isolation records which one ran (and so does run.json, which holds the identity).
//
// Rate limits: a `rate_limit_event` with status rejected, or the result text "Claude AI usage limit
// reached|<reset>", is a subscription limit (claude-rate-limit.ts): the run pauses until the reset or
// stops as rate_limited (cli-rate-limit.ts, subscription-limit.ts); 429s feed the adaptive concurrency.
//
// Both modes pass `--no-session-persistence`: with HOME passed through, every `claude -p` would otherwise
// save its transcript under ~/.claude/projects/<cwd-slug>/, one new folder per temporary workspace per
// task. The flag is in Claude Code 2.x's CLI reference ("sessions will not be saved to disk and cannot be
// resumed", print mode only; also forwarded by claude_runner's --no-persist, and the fix proposed in
// promptdriven/pdd issue #310). It is not in identity: it changes what is kept, not what is answered.
// Not verified against a live 2.x binary here; a CLI too old to know it fails every call with "unknown
// option". Some releases were reported to ignore it (anthropics/claude-code #49565: transcripts are
// written as before) or to answer nothing with it (atomchung/ccstory #52: every task is then an engine
// error, never a failed task); `session_persistence: true` in the engine config leaves the flag out.
//
// A run that ends in an API error with a retryable api_error_status (429, 5xx, 529) is run again, in a
// fresh workspace, with retry.ts's backoff (claude-retry.ts); error.status carries the status.
//
// Flags, in this order: --no-session-persistence, --model M, --max-turns N, --permission-mode P,
// --allowedTools a,b,… (comma-joined; in installed mode `Skill` is always allowed, see allowedTools),
// --setting-sources s,…, then extra_args verbatim.
import type { ClaudeEngineConfig } from '../config/engine-schema.js';
import { explainClaudeExit, parseClaudeStdout } from './claude-result.js';
import { createAdaptiveConcurrency, defaultCeiling } from './adaptive.js';
import type { CliRetryOptions } from './claude-retry.js';
import { runRateLimited } from './cli-rate-limit.js';
import { DEFAULT_RATE_LIMIT_MAX_WAIT_MS, subscriptionLimit } from './subscription-limit.js';
import { explainClaudeStreamExit, parseClaudeStream } from './claude-stream.js';
import { childEnv, composePrompt, SKILL_SEPARATOR } from './command.js';
import { executeInvocation, failure, type CommandInvocation } from './invocation.js';
import { installClaudeSkill } from './skill-install.js';
import type { Engine, EngineRequest, EngineResult } from './types.js';
import { placeFiles, withWorkspace } from './workspace.js';

export { envelopeError, explainClaudeExit, parseClaudeStdout } from './claude-result.js';

/** Environment variables never passed to the Claude Code child (see the header). */
export const CLAUDE_DROPPED_ENV = ['CLAUDECODE'] as const;

/** The argv for one call; pure, so identity and tests can see exactly what runs. */
export function claudeArgv(cfg: ClaudeEngineConfig): string[] {
  const installed = cfg.mode === 'installed';
  const argv = [cfg.bin ?? 'claude', '-p', '--output-format', installed ? 'stream-json' : 'json'];
  if (installed) argv.push('--verbose');
  if (cfg.session_persistence !== true) argv.push('--no-session-persistence');
  if (cfg.model !== undefined) argv.push('--model', cfg.model);
  if (cfg.max_turns !== undefined) argv.push('--max-turns', String(cfg.max_turns));
  if (cfg.permission_mode !== undefined) argv.push('--permission-mode', cfg.permission_mode);
  const tools = allowedTools(cfg);
  if (tools) argv.push('--allowedTools', tools.join(','));
  const sources = settingSources(cfg);
  if (sources) argv.push('--setting-sources', sources.join(','));
  argv.push(...(cfg.extra_args ?? []));
  return argv;
}

/**
 * The effective `--setting-sources`: the config's, else `project` unless `user_setup: true`, so that the
 * evaluated skill is the only one Claude Code adds besides its built-ins (the user's ~/.claude/skills,
 * CLAUDE.md and hooks would otherwise take part in every task, differently on every machine).
 * Login normally lives outside the settings (the credential store, ANTHROPIC_API_KEY), so it still
 * works; a login set up in ~/.claude/settings.json (apiKeyHelper, env) needs `setting_sources: [user, project]`
 * or `user_setup: true`.
 */
export function settingSources(cfg: ClaudeEngineConfig): string[] | undefined {
  if (cfg.setting_sources) return [...cfg.setting_sources];
  return cfg.user_setup === true ? undefined : ['project'];
}

/**
 * The effective allow-list: the config's, plus `Skill` in installed mode — also when the config sets none,
 * since headless mode cannot ask for permission and a denied Skill call means the skill never loads (the
 * measurement would be of the permission setup, not the skill). It then appears in identity too.
 */
export function allowedTools(cfg: ClaudeEngineConfig): string[] | undefined {
  if (!cfg.allowed_tools) return cfg.mode === 'installed' ? ['Skill'] : undefined;
  const tools = [...cfg.allowed_tools];
  if (cfg.mode === 'installed' && !tools.some((t) => t === 'Skill' || t.startsWith('Skill('))) tools.push('Skill');
  return tools;
}

/** `retry`: the API-error retry policy and its clock (tests); the default is retry.ts's. */
export function createClaudeEngine(cfg: ClaudeEngineConfig, opts: { env?: NodeJS.ProcessEnv; retry?: Omit<CliRetryOptions, 'signal'>; maxConcurrency?: number } = {}): Engine {
  const argv = claudeArgv(cfg);
  const installed = cfg.mode === 'installed';
  // Fields added after the seed appear only when set, so existing configs keep their identity (and
  // their cached baselines).
  const identity: Record<string, unknown> = {
    type: 'claude',
    bin: cfg.bin ?? 'claude',
    model: cfg.model ?? null,
    max_turns: cfg.max_turns ?? null,
    extra_args: [...(cfg.extra_args ?? [])],
    output_format: installed ? 'stream-json' : 'json',
    skill_delivery: installed ? 'installed' : 'prepend',
    skill_separator: SKILL_SEPARATOR,
    workdir: 'temp',
  };
  if (cfg.permission_mode !== undefined) identity['permission_mode'] = cfg.permission_mode;
  const tools = allowedTools(cfg);
  if (tools) identity['allowed_tools'] = tools;
  const sources = settingSources(cfg);
  if (sources) identity['setting_sources'] = sources;
  identity['isolation'] = cfg.user_setup === true ? 'user' : 'isolated';
  const concurrency = createAdaptiveConcurrency({ max: defaultCeiling(cfg.max_concurrency, opts.maxConcurrency) });
  const maxWaitMs = cfg.rate_limit_max_wait_seconds === undefined ? DEFAULT_RATE_LIMIT_MAX_WAIT_MS : cfg.rate_limit_max_wait_seconds * 1000;

  async function invocation(request: EngineRequest, cwd: string, signal: AbortSignal | undefined): Promise<CommandInvocation> {
    await placeFiles(cwd, request.files);
    const base = {
      argv,
      env: childEnv(request, undefined, CLAUDE_DROPPED_ENV, opts.env),
      cwd,
      timeoutMs: request.timeoutMs,
      ...(signal ? { signal } : {}),
    };
    if (!installed) return { ...base, input: composePrompt(request, 'prepend'), parseStdout: parseClaudeStdout, explainExit: explainClaudeExit };
    const skillName = request.skill?.name;
    if (request.skill) await installClaudeSkill(cwd, request.skill);
    return {
      ...base,
      input: composePrompt(request, 'none'),
      parseStdout: (stdout) => parseClaudeStream(stdout, skillName),
      explainExit: (stdout) => explainClaudeStreamExit(stdout, skillName),
    };
  }

  return {
    type: 'claude',
    concurrency,
    rateLimitGate: subscriptionLimit('claude'),
    identity: () => structuredClone(identity),
    async run(request: EngineRequest, runOpts?: { signal?: AbortSignal }): Promise<EngineResult> {
      const once = async (): Promise<EngineResult> => {
        const started = performance.now();
        try {
          return await withWorkspace(async (ws) => executeInvocation(await invocation(request, await ws.tempDir('whet-claude-'), runOpts?.signal)));
        } catch (err) {
          return failure('spawn', `cannot prepare a claude run: ${err instanceof Error ? err.message : String(err)}`, performance.now() - started);
        }
      };
      // A rate limit or an overloaded API (api_error_status 429/5xx/529) is worth another run (claude-retry.ts);
      // a subscription limit waits for its reset or stops the run (cli-rate-limit.ts).
      return runRateLimited(once, { gate: subscriptionLimit('claude'), concurrency, maxWaitMs, ...(opts.retry ? { retry: opts.retry } : {}), ...(runOpts?.signal ? { signal: runOpts.signal } : {}) });
    },
  };
}
