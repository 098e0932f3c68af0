// The half-extreme suite (docs/method.md: What it does on a noisy model) through the real CLI: `whet run`
// (dist/bin/whet.js, a process of its own) against the loopback noisy model (scripts/noisy-model.ts), 40
// tasks with 20 held out, ten of those at chance 0.98 or 0.02 and the rest drawn in 0.3–0.8, one edit of a
// true effect the caller sets, the default settings (each candidate at 0.05 ÷ 5). The kernel-level trials
// (scripts/decision-trials.ts) count a decision's calls by the evaluation's rules; this counts what the
// product sent: every results line of iteration 1 (one line an engine call) but the baseline stage's train
// tasks, which the trials leave to the baseline stage too. Seconds a run, so tens of runs, not hundreds.
//
// node dist/scripts/cli-trials.js [effect, default 0] [runs, default 30]
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNoisyModel } from './noisy-model.js';
import { startedAsProgram } from './loopback.js';
import { runProcess } from '../src/core/proc.js';

const SKILL = `---\nname: answerer\ndescription: Answers short factual questions for the support team.\n---\n# Answerer\n\nAnswer the question the user asks.\n\n## Tone\nBe brief.\n`;
const WHET = resolve(fileURLToPath(import.meta.url), '../../bin/whet.js');

export interface CliTrial {
  kept: boolean;
  /** Engine calls of the decision, counted as the kernel-level trials count them. */
  calls: number;
}

function project(dir: string, url: string): void {
  mkdirSync(join(dir, 'answerer'));
  writeFileSync(join(dir, 'answerer/SKILL.md'), SKILL);
  const tasks = Array.from({ length: 40 }, (_, i) => {
    const tag = i < 10 ? (i % 2 ? 'HARD-' : 'EASY-') : '';
    return `  - id: q-${String(i).padStart(2, '0')}\n    prompt: "${tag}Question number ${i}: what is the answer?"\n    split: ${i < 20 ? 'holdout' : 'train'}\n    judge: {type: contains, expected: ["ANSWER-OK"]}\n`;
  });
  writeFileSync(join(dir, 'answerer/tasks.yaml'), `skill_id: answerer\nversion: "1.0"\ntasks:\n${tasks.join('')}`);
  writeFileSync(join(dir, 'pipeline.yaml'), `engine: {type: openai, model: sim, base_url: "${url}/v1", api_key_env: SIM_KEY}\nstate_dir: state\ntargets:\n  - skill: answerer\n    suite: answerer/tasks.yaml\n`);
}

/** One `whet run` on a fresh project and model; its first iteration's decision and calls. */
export async function cliTrial(seed: number, effect: number): Promise<CliTrial> {
  const model = await startNoisyModel({ seed, baseline: SKILL, effect, fixedChance: { 'EASY-': 0.98, 'HARD-': 0.02 } });
  const dir = mkdtempSync(join(tmpdir(), 'whet-cli-trial-'));
  try {
    project(dir, model.url);
    const r = await runProcess({ argv: [process.execPath, WHET, 'run'], cwd: dir, env: { ...process.env, SIM_KEY: 'sk-loopback-sim' }, timeoutMs: 300_000 });
    if (r.exitCode !== 0) throw new Error(`whet run exited ${r.exitCode}: ${r.stderr.slice(-500)}`);
    const runs = join(dir, 'state/runs');
    const iter = join(runs, readdirSync(runs)[0]!, 'iter-001');
    if (!existsSync(join(iter, 'gate.json'))) throw new Error('iteration 1 gated nothing');
    const results = join(iter, 'results');
    const lines = readdirSync(results)
      .filter((f) => f.endsWith('.jsonl'))
      .reduce((a, f) => a + readFileSync(join(results, f), 'utf8').split('\n').filter(Boolean).length, 0);
    const kept = (JSON.parse(readFileSync(join(iter, 'gate.json'), 'utf8')) as { decision: string }).decision === 'keep';
    // The baseline stage measured all 40 tasks; its 20 train ones are the baseline stage's, not the decision's.
    return { kept, calls: lines - 20 };
  } finally {
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (startedAsProgram(import.meta.url)) {
  const effect = Number(process.argv[2] ?? 0);
  const runs = Number(process.argv[3] ?? 30);
  const all: CliTrial[] = [];
  for (let seed = 1; seed <= runs; seed++) all.push(await cliTrial(seed, effect));
  const calls = all.map((t) => t.calls);
  console.log(`effect ${effect}: ${runs} runs of whet run, kept ${all.filter((t) => t.kept).length}; calls per decision mean ${(calls.reduce((a, b) => a + b, 0) / runs).toFixed(1)} (min ${Math.min(...calls)}, max ${Math.max(...calls)})`);
}
