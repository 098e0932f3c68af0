// The `codex` engine: a preset of the command engine that runs OpenAI's Codex CLI headless.
//
//   <bin> exec --json --skip-git-repo-check [--ephemeral] [--model M] [--sandbox S] [...extra_args] -
//
// `-` makes codex read the prompt from stdin (`codex exec --help`: "If not provided as an argument (or
// if `-` is used), instructions are read from stdin"), so no prompt text is ever on the command line.
// `--skip-git-repo-check` is needed because the workspace is a fresh temporary directory, not a Git
// repository (openai/codex docs/exec.md, "Git repository requirement"). `--ephemeral` ("Run without persisting
// session files to disk", codex-rs/exec/src/cli.rs) keeps every task from leaving a rollout under
// $CODEX_HOME/sessions/; `session_persistence: true` leaves it out (a CLI too old to know it). stdout is
// the JSONL event stream read by codex-events.ts.
//
// How the skill reaches Codex (`skill_delivery`):
//   agents_md (default)  the SKILL.md text as `<workspace>/AGENTS.md`, the folder's other files beside it
//                        (skill-install.ts); Codex loads it whole, frontmatter included.
//   installed            the skill folder at `<workspace>/.agents/skills/<name>/`, where Codex discovers
//                        skills and keeps only name and description in context until the model opens
//                        the body; skill_triggered says whether it did (codex-skill.ts) — the same result
//                        field, trigger rate and false-trigger rate as claude's installed mode.
//   prepend              the SKILL.md text before the prompt, as the command engine does.
// A judge's `system` text is always put before the prompt. Like every command preset: one fresh
// temporary workspace per call, removed afterwards; the process tree killed on timeout; failures as values.
//
// Isolation (default): CODEX_HOME is a fresh directory per call holding only a link to the user's login
// (codex-home.ts), so their config.toml, global AGENTS.md and skills stay out and nothing is written
// under their home; `user_setup: true` runs with the user's own CODEX_HOME. identity.isolation records
// which (run.json holds the identity). Rate limits: a 429 is retried with backoff, a usage limit waits
// for its reset or stops the run as rate_limited, both feed the adaptive concurrency (cli-rate-limit.ts).
import type { CodexEngineConfig } from '../config/engine-schema.js';
import { createAdaptiveConcurrency, defaultCeiling } from './adaptive.js';
import type { CliRetryOptions } from './claude-retry.js';
import { runRateLimited } from './cli-rate-limit.js';
import { explainCodexExit, parseCodexStdout } from './codex-events.js';
import { codexHomeEnv } from './codex-home.js';
import { childEnv, composePrompt, SKILL_SEPARATOR } from './command.js';
import { executeInvocation, failure } from './invocation.js';
import { installAgentsMd, installCodexSkill } from './skill-install.js';
import { DEFAULT_RATE_LIMIT_MAX_WAIT_MS, subscriptionLimit } from './subscription-limit.js';
import type { Engine, EngineRequest, EngineResult } from './types.js';
import { placeFiles, withWorkspace } from './workspace.js';

export { explainCodexExit, parseCodexStdout, readCodexEvents } from './codex-events.js';

/** The argv for one call; pure, so identity and tests can see exactly what runs. */
export function codexArgv(cfg: CodexEngineConfig): string[] {
  const argv = [cfg.bin ?? 'codex', 'exec', '--json', '--skip-git-repo-check'];
  if (cfg.session_persistence !== true) argv.push('--ephemeral');
  if (cfg.model !== undefined) argv.push('--model', cfg.model);
  if (cfg.sandbox !== undefined) argv.push('--sandbox', cfg.sandbox);
  argv.push(...(cfg.extra_args ?? []), '-');
  return argv;
}

export function createCodexEngine(cfg: CodexEngineConfig, opts: { env?: NodeJS.ProcessEnv; retry?: Omit<CliRetryOptions, 'signal'>; maxConcurrency?: number } = {}): Engine {
  const argv = codexArgv(cfg);
  const delivery = cfg.skill_delivery ?? 'agents_md';
  const isolated = cfg.user_setup !== true;
  // `isolation` is part of what answers: the user's AGENTS.md, config and skills change the replies.
  const identity: Record<string, unknown> = {
    type: 'codex',
    bin: cfg.bin ?? 'codex',
    model: cfg.model ?? null,
    sandbox: cfg.sandbox ?? null,
    extra_args: [...(cfg.extra_args ?? [])],
    output_format: 'json',
    skill_delivery: delivery,
    skill_separator: SKILL_SEPARATOR,
    workdir: 'temp',
    isolation: isolated ? 'isolated' : 'user',
  };
  const concurrency = createAdaptiveConcurrency({ max: defaultCeiling(cfg.max_concurrency, opts.maxConcurrency) });
  const maxWaitMs = cfg.rate_limit_max_wait_seconds === undefined ? DEFAULT_RATE_LIMIT_MAX_WAIT_MS : cfg.rate_limit_max_wait_seconds * 1000;
  const gate = subscriptionLimit('codex');
  const base = opts.env ?? process.env;

  async function once(request: EngineRequest, signal: AbortSignal | undefined): Promise<EngineResult> {
    const started = performance.now();
    try {
      return await withWorkspace(async (ws) => {
        const cwd = await ws.tempDir('whet-codex-');
        await placeFiles(cwd, request.files);
        const skillName = delivery === 'installed' ? request.skill?.name : undefined;
        if (delivery === 'agents_md' && request.skill) await installAgentsMd(cwd, request.skill);
        if (delivery === 'installed' && request.skill) await installCodexSkill(cwd, request.skill);
        const home = await codexHomeEnv(isolated, () => ws.tempDir('whet-codex-home-'), base);
        return executeInvocation({
          argv,
          input: composePrompt(request, delivery === 'prepend' ? 'prepend' : 'none'),
          env: childEnv(request, home, [], base),
          cwd,
          timeoutMs: request.timeoutMs,
          ...(signal ? { signal } : {}),
          parseStdout: (stdout) => parseCodexStdout(stdout, skillName),
          explainExit: (stdout) => explainCodexExit(stdout, skillName),
        });
      });
    } catch (err) {
      return failure('spawn', `cannot prepare a codex run: ${err instanceof Error ? err.message : String(err)}`, performance.now() - started);
    }
  }

  return {
    type: 'codex',
    concurrency,
    rateLimitGate: gate,
    identity: () => structuredClone(identity),
    run(request: EngineRequest, runOpts?: { signal?: AbortSignal }): Promise<EngineResult> {
      return runRateLimited(() => once(request, runOpts?.signal), { gate, concurrency, maxWaitMs, ...(opts.retry ? { retry: opts.retry } : {}), ...(runOpts?.signal ? { signal: runOpts.signal } : {}) });
    },
  };
}
