// The `codex` engine: a preset of the command engine that runs OpenAI's Codex CLI headless.
//
//   <bin> exec --json --skip-git-repo-check [--model M] [--sandbox S] [...extra_args] -
//
// `-` makes codex read the prompt from stdin (`codex exec --help`: "If not provided as an argument (or
// if `-` is used), instructions are read from stdin"), so no prompt text is ever on the command line.
// `--skip-git-repo-check` is needed because the workspace is a fresh temporary directory, not a Git
// repository (docs/exec.md, "Git repository requirement"). stdout is the JSONL event stream read by
// codex-events.ts.
//
// The skill reaches Codex the way Codex reads instructions (`skill_delivery`, default `agents_md`): the
// SKILL.md text is written to `<workspace>/AGENTS.md` with the skill folder's other files next to it
// (skill-install.ts). Outside a Git repository Codex reads AGENTS.md from the working directory only,
// plus the user's global ~/.codex/AGENTS.md, which whetstone neither reads nor changes. `prepend` sends
// the SKILL.md text before the prompt instead, as the command engine does. A judge's `system` text is
// always put before the prompt. Like every command preset: one fresh temporary workspace per call,
// removed afterwards; the process tree killed on timeout; failures as values.
import type { CodexEngineConfig } from '../config/engine-schema.js';
import { explainCodexExit, parseCodexStdout } from './codex-events.js';
import { childEnv, composePrompt, SKILL_SEPARATOR } from './command.js';
import { executeInvocation, failure } from './invocation.js';
import { installAgentsMd } from './skill-install.js';
import type { Engine, EngineRequest, EngineResult } from './types.js';
import { placeFiles, withWorkspace } from './workspace.js';

export { explainCodexExit, parseCodexStdout, readCodexEvents } from './codex-events.js';

/** The argv for one call; pure, so identity and tests can see exactly what runs. */
export function codexArgv(cfg: CodexEngineConfig): string[] {
  const argv = [cfg.bin ?? 'codex', 'exec', '--json', '--skip-git-repo-check'];
  if (cfg.model !== undefined) argv.push('--model', cfg.model);
  if (cfg.sandbox !== undefined) argv.push('--sandbox', cfg.sandbox);
  argv.push(...(cfg.extra_args ?? []), '-');
  return argv;
}

export function createCodexEngine(cfg: CodexEngineConfig, opts: { env?: NodeJS.ProcessEnv } = {}): Engine {
  const argv = codexArgv(cfg);
  const delivery = cfg.skill_delivery ?? 'agents_md';
  const identity = {
    type: 'codex',
    bin: cfg.bin ?? 'codex',
    model: cfg.model ?? null,
    sandbox: cfg.sandbox ?? null,
    extra_args: [...(cfg.extra_args ?? [])],
    output_format: 'json',
    skill_delivery: delivery,
    skill_separator: SKILL_SEPARATOR,
    workdir: 'temp',
  };
  return {
    type: 'codex',
    identity: () => structuredClone(identity),
    async run(request: EngineRequest, runOpts?: { signal?: AbortSignal }): Promise<EngineResult> {
      const started = performance.now();
      try {
        return await withWorkspace(async (ws) => {
          const cwd = await ws.tempDir('whet-codex-');
          await placeFiles(cwd, request.files);
          if (delivery === 'agents_md' && request.skill) await installAgentsMd(cwd, request.skill);
          return executeInvocation({
            argv,
            input: composePrompt(request, delivery === 'prepend' ? 'prepend' : 'none'),
            env: childEnv(request, undefined, [], opts.env),
            cwd,
            timeoutMs: request.timeoutMs,
            ...(runOpts?.signal ? { signal: runOpts.signal } : {}),
            parseStdout: parseCodexStdout,
            explainExit: explainCodexExit,
          });
        });
      } catch (err) {
        return failure('spawn', `cannot prepare a codex run: ${err instanceof Error ? err.message : String(err)}`, performance.now() - started);
      }
    },
  };
}
