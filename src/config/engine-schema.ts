// Engine configuration as written in pipeline.yaml (`engine:` and `judge_engine:`).
import { z } from 'zod';

export const mockEngineConfig = z.strictObject({
  type: z.literal('mock'),
  /** Simulated latency per call, for benchmarks of concurrency. */
  latency_ms: z.number().int().min(0).max(600_000).optional(),
});

/** How the skill reaches a command engine. */
export const skillDelivery = z.enum(['prepend', 'env', 'none']);

/** USD per million tokens; the cost of a call is input × input_per_mtok + output × output_per_mtok. */
export const priceTable = z.strictObject({
  input_per_mtok: z.number().min(0),
  output_per_mtok: z.number().min(0),
});

export const commandEngineConfig = z.strictObject({
  type: z.literal('command'),
  /** Program and arguments; never run through a shell with user data spliced in. */
  command: z.array(z.string().min(1)).min(1),
  /** `text`: stdout is the answer; `json`: stdout is JSON and `json_path` picks the answer. */
  output: z.enum(['text', 'json']).optional(),
  /** Dotted path into the JSON output, e.g. `result` or `choices.0.message.content`. */
  json_path: z.string().min(1).optional(),
  skill_delivery: skillDelivery.optional(),
  /** Extra environment variables for the program. */
  env: z.record(z.string(), z.string()).optional(),
  /** `temp`: a fresh empty directory per task (default); `suite`: the suite's folder. */
  workdir: z.enum(['temp', 'suite']).optional(),
  timeout_seconds: z.number().positive().optional(),
});

/**
 * `--permission-mode` values Claude Code documents (CLI reference and the Agent SDK's PermissionMode:
 * default, acceptEdits, plan, bypassPermissions; dontAsk in 2.x). Checked at load, so a typo is one
 * located config error instead of every task failing with "invalid permission mode"; a mode newer than
 * this list can still be passed through extra_args.
 */
export const CLAUDE_PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'] as const;

/**
 * Fields both agent CLIs share: isolation from the user's own setup and the subscription rate-limit wait.
 * `user_setup: true` lets the user's own configuration in (Claude Code's setting sources, Codex's
 * CODEX_HOME); the default is an isolated run that never writes under the user's home (claude.ts, codex-home.ts).
 */
const agentCliFields = {
  user_setup: z.boolean().optional(),
  /** The longest pause for a subscription rate limit with a known reset (default 6 h); longer stops the run as `rate_limited`. */
  rate_limit_max_wait_seconds: z.number().min(0).max(30 * 86_400).optional(),
  /** Upper bound of the adaptive concurrency limit that 429s and subscription limits lower (default 8). */
  max_concurrency: z.number().int().positive().max(1024).optional(),
};

export const claudeEngineConfig = z.strictObject({
  type: z.literal('claude'),
  /** The executable (default `claude`, looked up on PATH). */
  bin: z.string().min(1).optional(),
  /**
   * `prepend` (default): SKILL.md text prepended to the prompt, `--output-format json`.
   * `installed`: the skill folder placed at `<workspace>/.claude/skills/<name>/`, where Claude Code
   * discovers project skills, and the run read as `--output-format stream-json --verbose`.
   */
  mode: z.enum(['prepend', 'installed']).optional(),
  model: z.string().min(1).optional(),
  max_turns: z.number().int().positive().optional(),
  /** `--permission-mode`, one of CLAUDE_PERMISSION_MODES. */
  permission_mode: z.enum(CLAUDE_PERMISSION_MODES).optional(),
  /** `--allowedTools`; in installed mode `Skill` is added when missing, or the skill could never load. */
  allowed_tools: z.array(z.string().min(1)).optional(),
  /**
   * `--setting-sources`: which settings, CLAUDE.md files and skills Claude Code loads. Installed mode
   * defaults to `[project]`, so the user's own `~/.claude` skills and instructions stay out of the
   * measurement; `[user, project, local]` is Claude Code's own default. Prepend mode passes it only
   * when set.
   */
  /**
   * `false` (default) passes `--no-session-persistence`, so runs leave no transcripts under
   * ~/.claude/projects/; `true` lets Claude Code save them (and is the way out on a CLI release that
   * mishandles the flag).
   */
  session_persistence: z.boolean().optional(),
  setting_sources: z
    .array(z.enum(['user', 'project', 'local']))
    .refine((a) => new Set(a).size === a.length, 'each source at most once')
    .optional(),
  extra_args: z.array(z.string()).optional(),
  timeout_seconds: z.number().positive().optional(),
  /** Used when the CLI reports tokens but no cost, so max_cost_usd can still see the spending. */
  price: priceTable.optional(),
  ...agentCliFields,
}).superRefine((cfg, ctx) => {
  if (cfg.mode === 'installed' && cfg.setting_sources && !cfg.setting_sources.includes('project')) {
    ctx.addIssue({
      code: 'custom',
      path: ['setting_sources'],
      message: "installed mode needs 'project': the skill under test is a project skill, and without it Claude Code never loads it",
    });
  }
});

export const codexEngineConfig = z.strictObject({
  type: z.literal('codex'),
  /** The executable (default `codex`, looked up on PATH). */
  bin: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  /** `--sandbox`; codex exec's own default (read-only) when absent. */
  sandbox: z.enum(['read-only', 'workspace-write', 'danger-full-access']).optional(),
  /**
   * `agents_md` (default): the skill becomes AGENTS.md in the workspace; `prepend`: prepended to the
   * prompt; `installed`: the skill folder at `<workspace>/.agents/skills/<name>/`, where Codex discovers
   * skills, and whether it was read reported as skill_triggered (codex-skill.ts).
   */
  skill_delivery: z.enum(['agents_md', 'prepend', 'installed']).optional(),
  /** `false` (default) passes `--ephemeral`, so runs leave no session files; `true` leaves it out. */
  session_persistence: z.boolean().optional(),
  extra_args: z.array(z.string()).optional(),
  timeout_seconds: z.number().positive().optional(),
  /** codex reports tokens, never a cost: this prices its calls. */
  price: priceTable.optional(),
  ...agentCliFields,
});

/** Fields shared by the HTTP engines (retry policy, concurrency, key, price). */
const httpEngineFields = {
  model: z.string().min(1),
  /** Endpoint root, e.g. `http://localhost:11434/v1` (OpenAI-compatible) or `https://api.anthropic.com`. */
  /**
   * The engine appends the endpoint path (`/chat/completions`, `/v1/messages`) to this URL, so a query
   * string would end up inside the path: Azure's classic `…/deployments/X?api-version=…` form is refused
   * with the v1 form to use instead.
   */
  base_url: z
    .url({ protocol: /^https?$/ })
    .refine((u) => !u.includes('?'), 'must not carry a query string (for Azure OpenAI use https://<resource>.openai.azure.com/openai/v1)')
    .optional(),
  /** Name of the environment variable holding the key (never the key itself). */
  api_key_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name').optional(),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().positive().optional(),
  price: priceTable.optional(),
  /** Retries after the first request (default 4); 0 disables retrying. */
  max_retries: z.number().int().min(0).max(20).optional(),
  /** The longest single wait between attempts, in seconds (default 60); a longer retry-after ends the call. */
  retry_max_wait_seconds: z.number().positive().max(3600).optional(),
  /** Upper bound of the adaptive concurrency limit (default 8). */
  max_concurrency: z.number().int().positive().max(1024).optional(),
  timeout_seconds: z.number().positive().optional(),
  /** The largest answer body read, in MiB (default 32): a runaway or hostile answer ends as an engine error, not in memory. */
  max_response_mib: z.number().positive().max(1024).optional(),
};

export const openaiEngineConfig = z.strictObject({
  type: z.literal('openai'),
  ...httpEngineFields,
  /** Newer OpenAI models take `max_completion_tokens`; compatible servers usually take `max_tokens` (default). */
  max_tokens_param: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
});

export const anthropicEngineConfig = z.strictObject({
  type: z.literal('anthropic'),
  ...httpEngineFields,
});

export const engineConfig = z.discriminatedUnion('type', [
  mockEngineConfig,
  commandEngineConfig,
  claudeEngineConfig,
  codexEngineConfig,
  openaiEngineConfig,
  anthropicEngineConfig,
]);
export type EngineConfig = z.infer<typeof engineConfig>;
export type MockEngineConfig = z.infer<typeof mockEngineConfig>;
export type CommandEngineConfig = z.infer<typeof commandEngineConfig>;
export type ClaudeEngineConfig = z.infer<typeof claudeEngineConfig>;
export type CodexEngineConfig = z.infer<typeof codexEngineConfig>;
export type OpenAIEngineConfig = z.infer<typeof openaiEngineConfig>;
export type AnthropicEngineConfig = z.infer<typeof anthropicEngineConfig>;
export type PriceTable = z.infer<typeof priceTable>;
