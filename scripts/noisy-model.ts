// A simulated noisy model behind a loopback OpenAI-compatible endpoint (issue 27 §6): POST
// /chat/completions on 127.0.0.1 answers each task right with that task's own chance and wrong otherwise,
// the way a real model at temperature answers the same request differently from call to call. A task's
// chance is drawn once from its prompt and the seed, uniformly in [low, high]; the edit's true effect is
// set by the caller: a skill text (the system turn) other than `baseline` moves every chance by
// `effect` (or only those of the prompts `effectOn` names), clipped to [0, 1]. Each call to the same
// (skill, prompt) takes the next coin of its own seeded stream, so the outcomes do not depend on the
// order concurrent calls arrive in. A right answer contains "ANSWER-OK"; a wrong one does not.
// Wire format: OpenAI Chat Completions (openai-node src/resources/chat/completions).
//
// Run alone: node dist/scripts/noisy-model.js '{"seed":1,"effect":0.25,"baseline":"…"}' — prints its URL.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { listenLoopback, startedAsProgram } from './loopback.js';
import { mulberry32 } from '../src/stats/bootstrap.js';

export interface NoisyModelOptions {
  seed: number;
  /** Range of the tasks' chances. */
  low?: number;
  high?: number;
  /** The baseline skill's text: a system turn that differs from it is the edited skill. */
  baseline: string;
  /** True effect of the edit on a task's chance (pass-rate points). */
  effect: number;
  /** Prompts the effect applies to (default: every prompt). */
  effectOn?: string[];
  /** A prompt containing one of these keys moves by that effect instead (a task the edit breaks: negative). */
  effectFor?: Record<string, number>;
  /** A prompt containing one of these keys has that chance on the baseline instead of one drawn in [low, high]. */
  fixedChance?: Record<string, number>;
  latencyMs?: number;
}

export interface NoisyModel {
  url: string;
  requests(): number;
  /** The chance a (skill, prompt) is answered right with. */
  chance(skill: string, prompt: string): number;
  /** Moves every chance by `points` from now on: a model that changes behind the same config, night by night. */
  shift(points: number): void;
  close(): Promise<void>;
}

const seedOf = (...parts: (string | number)[]) => createHash('sha256').update(parts.join('\u0000')).digest().readUInt32LE(0);

function turns(body: string): { system: string; user: string } {
  try {
    const messages = (JSON.parse(body) as { messages?: { role?: string; content?: unknown }[] }).messages ?? [];
    const text = (role: string) => messages.filter((m) => m.role === role && typeof m.content === 'string').map((m) => m.content as string).join('\n');
    return { system: text('system'), user: messages.length ? String(messages[messages.length - 1]?.content ?? '') : '' };
  } catch {
    return { system: '', user: '' };
  }
}

export async function startNoisyModel(o: NoisyModelOptions): Promise<NoisyModel> {
  const low = o.low ?? 0.3;
  const high = o.high ?? 0.8;
  const streams = new Map<string, () => number>();
  let count = 0;
  let moved = 0;
  const chance = (skill: string, prompt: string) => {
    const fixed = o.fixedChance ? Object.entries(o.fixedChance).find(([key]) => prompt.includes(key)) : undefined;
    const base = fixed ? fixed[1] : low + (high - low) * mulberry32(seedOf(o.seed, 'chance', prompt))();
    const edited = skill.trim().length > 0 && skill.trim() !== o.baseline.trim();
    const touched = !o.effectOn || o.effectOn.some((p) => prompt.includes(p));
    const own = o.effectFor ? Object.entries(o.effectFor).find(([key]) => prompt.includes(key)) : undefined;
    const effect = own ? own[1] : touched ? o.effect : 0;
    return Math.min(1, Math.max(0, base + moved + (edited ? effect : 0)));
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      count++;
      const { system, user } = turns(Buffer.concat(chunks).toString('utf8'));
      const key = `${system}\u0000${user}`;
      let stream = streams.get(key);
      if (!stream) streams.set(key, (stream = mulberry32(seedOf(o.seed, 'coins', key))));
      const right = stream() < chance(system, user);
      const body = JSON.stringify({
        id: 'chatcmpl-noisy',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: 'noisy-sim',
        choices: [{ index: 0, message: { role: 'assistant', content: right ? 'ANSWER-OK: here is the answer.' : 'I am not sure about this one.', refusal: null }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: 30, completion_tokens: 8, total_tokens: 38 },
      });
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      }, o.latencyMs ?? 0);
    });
  });
  const { url, close } = await listenLoopback(server);
  return {
    url,
    requests: () => count,
    chance,
    shift: (points: number) => {
      moved = points;
    },
    close,
  };
}

if (startedAsProgram(import.meta.url)) {
  const m = await startNoisyModel(JSON.parse(process.argv[2] ?? '{"seed":1,"effect":0,"baseline":""}') as NoisyModelOptions);
  console.log(m.url);
  process.on('SIGINT', () => process.exit(0));
}
