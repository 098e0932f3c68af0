// The loopback OpenAI-compatible server `npm run bench` measures the HTTP path against: POST
// /chat/completions answered after a fixed latency, counting the requests in flight (the figure that
// shows whether `--concurrency` reached the server). It listens on 127.0.0.1 only, on an ephemeral port.
// The answer passes the bench suite's apple tasks the way the mock engine does (APPLE-OK, 42-A), so the
// HTTP rows judge the same outcomes as the instant rows.
//
// Run alone (for profiling by hand): node dist/scripts/bench-server.js [latency-ms] — prints its URL.
import { createServer } from 'node:http';
import { listenLoopback, startedAsProgram } from './loopback.js';

export interface BenchServer {
  url: string;
  /** The most requests in flight at once since start (or the last reset). */
  maxInFlight(): number;
  requests(): number;
  reset(): void;
  close(): Promise<void>;
}

/** The user turn of a Chat Completions body (the system turn holds the skill, which names both fruits). */
function userTurn(body: string): string {
  try {
    const messages = (JSON.parse(body) as { messages?: { role?: string; content?: unknown }[] }).messages ?? [];
    const last = messages[messages.length - 1];
    return typeof last?.content === 'string' ? last.content : '';
  } catch {
    return '';
  }
}

function completion(body: string): string {
  const apples = userTurn(body).includes('apples');
  return JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'bench',
    choices: [{ index: 0, message: { role: 'assistant', content: apples ? 'APPLE-OK, code 42-A' : 'Happy to help with pears.', refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 40, completion_tokens: 6, total_tokens: 46 },
  });
}

export async function startBenchServer(latencyMs: number): Promise<BenchServer> {
  let inFlight = 0;
  let peak = 0;
  let count = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      inFlight++;
      count++;
      peak = Math.max(peak, inFlight);
      let done = false;
      const finish = () => {
        if (!done) {
          done = true;
          inFlight--;
        }
      };
      res.on('close', finish);
      const body = completion(Buffer.concat(chunks).toString('utf8'));
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body, finish);
      }, latencyMs);
    });
  });
  // Keep-alive sockets outlive a response; the bench starts many processes against one server.
  server.keepAliveTimeout = 5000;
  const { url, close } = await listenLoopback(server);
  return {
    url,
    maxInFlight: () => peak,
    requests: () => count,
    reset: () => {
      peak = inFlight;
      count = 0;
    },
    close,
  };
}

if (startedAsProgram(import.meta.url)) {
  const s = await startBenchServer(Number(process.argv[2] ?? 50));
  console.log(s.url);
  const report = () => console.error(`requests ${s.requests()} · max in flight ${s.maxInFlight()}`);
  process.on('SIGINT', () => {
    report();
    process.exit(0);
  });
  setInterval(report, 5000).unref();
}
