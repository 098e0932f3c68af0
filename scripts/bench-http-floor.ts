// The HTTP rows' floor: the same requests the openai engine sends — one JSON POST each through
// whetstone's transport (src/engines/http-json.ts over http-fetch.ts), a timeout and an abort signal per
// call — with nothing of whetstone's around them: no suite, judges, results log, retries, accounting. Its
// CPU per call is what sending and reading a call costs before the evaluator does its own work, so the
// evaluation rows' CPU per call reads against it.
//
// Run by bench.ts as a child: node dist/scripts/bench-http-floor.js <base-url> <calls> <concurrency>;
// prints {"calls", "cpu_ms", "wall_ms"} for the call phase (a first round sent before it).
import { postJson } from '../src/engines/http-json.js';

const [baseURL, callsArg, concArg] = process.argv.slice(2);
const calls = Number(callsArg);
const concurrency = Number(concArg);
const url = `${baseURL}/v1/chat/completions`;
const headers = { accept: 'application/json', 'content-type': 'application/json', authorization: 'Bearer bench-loopback' };

async function round(n: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next++ < n) {
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(), 60_000);
      try {
        const body = { model: 'bench', messages: [{ role: 'system', content: 'A generated skill for benchmarks.' }, { role: 'user', content: `Question ${next} about apples` }] };
        await postJson(url, headers, body, ac.signal);
      } finally {
        clearTimeout(timer);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

// Connections opened and code warmed by one round first, as the evaluation's first calls are: the figure
// is the steady cost of a call.
await round(concurrency);
const cpu = process.cpuUsage();
const started = performance.now();
await round(calls);
const d = process.cpuUsage(cpu);
console.log(JSON.stringify({ calls, cpu_ms: (d.user + d.system) / 1000, wall_ms: performance.now() - started }));
