// The HTTP rows' floor: the same calls the openai engine makes — the official SDK's chat.completions.create
// through whetstone's fetch (src/engines/http-fetch.ts), SDK retries off, a timeout and an abort signal
// per call — with nothing of whetstone's around them: no suite, judges, results log, accounting. Its CPU
// per call is what any evaluator on this SDK spends before doing its own work, so the evaluation rows'
// CPU per call reads against it.
//
// Run by bench.ts as a child: node dist/scripts/bench-sdk-floor.js <base-url> <calls> <concurrency>; prints
// {"calls", "cpu_ms", "wall_ms"} for the call phase (the SDK loaded and a first round sent before it).
import OpenAI from 'openai';
import { apiFetch } from '../src/engines/http-fetch.js';

const [baseURL, callsArg, concArg] = process.argv.slice(2);
const calls = Number(callsArg);
const concurrency = Number(concArg);
const client = new OpenAI({ apiKey: 'bench-loopback', baseURL: `${baseURL}/v1`, organization: null, project: null, maxRetries: 0, logLevel: 'off', fetch: apiFetch });

async function round(n: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next++ < n) {
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(), 60_000);
      try {
        await client.chat.completions.create(
          { model: 'bench', messages: [{ role: 'system', content: 'A generated skill for benchmarks.' }, { role: 'user', content: `Question ${next} about apples` }] },
          { signal: ac.signal, maxRetries: 0, timeout: 65_000 },
        );
      } finally {
        clearTimeout(timer);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

// Connections opened and code warmed by one round first, as the evaluation's first calls are not
// charged to the SDK either way: the figure is the steady cost of a call.
await round(concurrency);
const cpu = process.cpuUsage();
const started = performance.now();
await round(calls);
const d = process.cpuUsage(cpu);
console.log(JSON.stringify({ calls, cpu_ms: (d.user + d.system) / 1000, wall_ms: performance.now() - started }));
