// `whet doctor`: checks every engine the config names — the program on PATH and its version, for the
// agent CLIs whether they know every flag whetstone passes (engines/cli-flags.ts), settings that are probably
// a mistake (config/engine-warnings.ts), the endpoint reachable, the key variable set — and says exactly
// what is missing. It never reads a key's
// value into its output.
import type { Command } from 'commander';
import { lacking, loadPipeline } from '../config/pipeline.js';
import { engineWarnings } from '../config/engine-warnings.js';
import type { ClaudeEngineConfig, CodexEngineConfig, EngineConfig } from '../config/engine-schema.js';
import { checkFlags } from '../engines/cli-flags.js';
import { runProcess } from '../core/proc.js';
import type { CliDeps, SetCode } from '../program/deps.js';
import { keyCheck, programCheck } from '../engines/offline-checks.js';

export interface Finding {
  engine: string;
  check: string;
  ok: boolean;
  detail: string;
}

type EngineCfg = Record<string, unknown> & { type: string };

const DEFAULT_URL: Record<string, string> = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com' };

// claude prints "2.1.44 (Claude Code)", codex "codex-cli 0.58.0": a version number, or this is not the agent
// CLI (a wrapper script or a stub that ignored --version and answered something else).
const VERSION_NUMBER = /\d+\.\d+/;

/** Checks the program and its version; returns its path when it runs and prints a version. */
async function checkProgram(label: string, program: string, deps: CliDeps, out: Finding[], agentCli = false): Promise<string | undefined> {
  // The same words a run refuses with when the program is missing (engines/offline-checks.ts).
  const { path, ...missing } = programCheck(program, deps.env, deps.cwd);
  if (!path) {
    out.push({ engine: label, ...missing });
    return undefined;
  }
  const v = await runProcess({ argv: [path, '--version'], env: deps.env, cwd: deps.cwd, timeoutMs: 10_000 });
  const version = (v.stdout || v.stderr).trim().split('\n')[0] ?? '';
  if (v.exitCode !== 0) {
    out.push({ engine: label, check: 'program', ok: false, detail: `${path} --version failed: ${v.spawnError ?? `exit ${v.exitCode}`}` });
  } else if (agentCli && !VERSION_NUMBER.test(version)) {
    const shown = version.length > 80 ? `${version.slice(0, 80)}…` : version;
    out.push({ engine: label, check: 'program', ok: false, detail: `${path} --version printed no version number (${shown ? `"${shown}"` : 'nothing'}): is it the ${program} CLI?` });
  } else {
    out.push({ engine: label, check: 'program', ok: true, detail: `${path} (${version || 'no version printed'})` });
    return path;
  }
  return undefined;
}

/** Why fetch failed: undici's "fetch failed" hides the reason in `cause` (ECONNREFUSED, ENOTFOUND, …). */
export function fetchFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && err.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = err instanceof Error ? (err as Error & { cause?: unknown }).cause : undefined;
  if (!(cause instanceof Error)) return err instanceof Error ? err.message : String(err);
  // Connecting to every address of a name fails as an AggregateError whose own message is empty.
  const first = cause instanceof AggregateError ? (cause.errors.find((e): e is Error => e instanceof Error) ?? cause) : cause;
  const code = (cause as Error & { code?: unknown }).code ?? (first as Error & { code?: unknown }).code;
  const message = first.message || cause.message;
  const parts = [typeof code === 'string' ? code : undefined, message && !(typeof code === 'string' && message === code) ? message : undefined].filter(Boolean);
  return parts.length ? `${(err as Error).message}: ${parts.join(' — ')}` : (err as Error).message;
}

async function checkEndpoint(label: string, url: string, out: Finding[], timeoutMs = 5000): Promise<void> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), timeoutMs);
  try {
    const res = await fetch(url, { method: 'GET', signal: ac.signal });
    // Any HTTP answer (even 401/404) proves the endpoint is reachable; the key is checked separately.
    out.push({ engine: label, check: 'endpoint', ok: true, detail: `${url} answered HTTP ${res.status}` });
  } catch (err) {
    out.push({ engine: label, check: 'endpoint', ok: false, detail: `${url} is not reachable: ${fetchFailure(err, timeoutMs)}` });
  } finally {
    clearTimeout(timer);
  }
}

export async function doctor(deps: CliDeps, configPath?: string): Promise<Finding[]> {
  const cfg = await loadPipeline(configPath, deps.cwd);
  const engines: [string, EngineCfg][] = [];
  if (cfg.engine) engines.push(['engine', cfg.engine as EngineCfg]);
  if (cfg.judgeEngine) engines.push(['judge_engine', cfg.judgeEngine as EngineCfg]);
  if (cfg.loop.generatorEngine) engines.push(['loop.generator_engine', cfg.loop.generatorEngine as EngineCfg]);
  cfg.targets.forEach((t, i) => t.engine && engines.push([`targets[${i}].engine`, t.engine as EngineCfg]));
  const out: Finding[] = [];
  if (engines.length === 0) out.push({ engine: 'engine', check: 'config', ok: false, detail: lacking(cfg, `no engine configured in ${cfg.path ?? 'pipeline.yaml'}: set "engine:" (or run "whet init"), or pass --mock to each command`) });
  for (const [where, e] of engines) {
    const label = `${where} (${e.type})`;
    for (const w of engineWarnings(e as EngineConfig, where)) out.push({ engine: label, check: 'config', ok: false, detail: w });
    switch (e.type) {
      case 'mock':
        out.push({ engine: label, check: 'mock', ok: true, detail: 'offline mock engine: answers quote the skill; not a model' });
        break;
      case 'command':
        await checkProgram(label, String((e.command as string[])[0]), deps, out);
        break;
      case 'claude':
      case 'codex': {
        const found = await checkProgram(label, String(e.bin ?? e.type), deps, out, true);
        if (found) out.push({ engine: label, check: 'flags', ...(await checkFlags(found, e as unknown as ClaudeEngineConfig | CodexEngineConfig, deps.env, deps.cwd)) });
        break;
      }
      case 'openai':
      case 'anthropic': {
        out.push({ engine: label, ...keyCheck(e as { type: string; api_key_env?: string }, deps.env) });
        await checkEndpoint(label, String(e.base_url ?? DEFAULT_URL[e.type]), out);
        break;
      }
      default:
        out.push({ engine: label, check: 'type', ok: false, detail: `unknown engine type ${e.type}` });
    }
  }
  return out;
}

export function registerDoctorCommand(program: Command, deps: CliDeps, setCode: SetCode): void {
  program
    .command('doctor')
    .description('check every configured engine: program and version, endpoint, key variable')
    .option('-c, --config <file>', 'pipeline config (default: ./pipeline.yaml)')
    .option('--json', 'JSON output')
    .action(async (o: { config?: string; json?: boolean }) => {
      const findings = await doctor(deps, o.config);
      if (o.json) deps.stdout(`${JSON.stringify(findings, null, 2)}\n`);
      else deps.stdout(`${findings.map((f) => `[${f.ok ? 'ok' : 'MISSING'}] ${f.engine} ${f.check}: ${f.detail}`).join('\n')}\n`);
      setCode(findings.every((f) => f.ok) ? 0 : 1);
    });
}
