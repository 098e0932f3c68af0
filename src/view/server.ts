// `whet view`'s HTTP server (node:http, no framework): 127.0.0.1 only, every request through the guard
// (guard.ts), then a fixed table of routes — the page and its few script and style files from the
// package, JSON read models of the state directory, Server-Sent Events for live updates, and the two
// changes a person can make (feedback; approve/reject, only with --review). No route takes a path: runs,
// iterations and candidates are ids checked by the safe-id rule and looked up through stateLayout, so no
// file outside the state directory (or the package's own page files) can be read through it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/package-info.js';
import { WhetError } from '../core/errors.js';
import { isSafeId } from '../config/safe-id.js';
import { stateLayout } from '../state/layout.js';
import { readLenient } from '../state/read-lenient.js';
import { newToken, refusal, SAFE_HEADERS, SESSION_PARAM } from './guard.js';
import { runDetail } from './run-model.js';
import { RunIndex } from './run-index.js';
import { iterationPaths } from '../loop/paths.js';
import { outputsTable, taskOutputs } from './outputs-model.js';
import { verifyRun } from '../inspect/verify-run.js';
import { refuseDamagedRun } from '../inspect/refuse-damaged.js';
import { watchState } from './watch.js';
import { pendingReviews, type ReviewAction } from './review-model.js';
import { exportFeedback, listFeedback, saveFeedback } from './feedback-model.js';

/** The page's files, shipped in the package (package.json `files`): served by name from this list only. */

/** The run's damaged files, as every read model finds them (verify-run.ts): the outputs pages show none of their values. */
async function damagedIn(stateDir: string, runId: string): Promise<Map<string, string>> {
  const check = await verifyRun(stateDir, runId);
  return new Map(check.problems.filter((p) => check.damaged.has(p.path)).map((p) => [p.path, p.message]));
}

export const ASSET_DIR = join(PACKAGE_ROOT, 'assets', 'view');
/** Runs on a page of the list: what the page asks for (assets/view/app.js PAGE) and what goes in with the page. */
const RUNS_PAGE = 50;
const ASSETS: Record<string, string> = {
  'format.js': 'text/javascript',
  'app.js': 'text/javascript',
  'pages.js': 'text/javascript',
  'outputs.js': 'text/javascript',
  'app.css': 'text/css',
};

export interface ViewerOptions {
  stateDir: string;
  port: number;
  now: () => Date;
  /** Set with --review: approve/reject through `whet review`'s own function. Absent: read-only. */
  review?: ReviewAction;
  token?: string;
  /** How often the state directory is polled while a page listens (ms). */
  pollMs?: number;
}

export interface Viewer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const json = (res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}) => {
  res.writeHead(status, { ...SAFE_HEADERS, 'content-type': 'application/json; charset=utf-8', ...extra });
  res.end(JSON.stringify(body));
};

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 64 * 1024) throw new HttpError(413, 'a request body is at most 64 KiB');
    chunks.push(c as Buffer);
  }
  try {
    const v = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new HttpError(400, 'the body is not a JSON object');
}

const runId = (s: string | undefined): string => {
  if (!isSafeId(s)) throw new HttpError(404, 'no such run');
  return s;
};
const iterationOf = (s: string | undefined): number => {
  if (!s || !/^\d{1,5}$/.test(s)) throw new HttpError(404, 'no such iteration');
  return Number(s);
};

export async function startViewer(o: ViewerOptions): Promise<Viewer> {
  const token = o.token ?? newToken();
  const watcher = watchState(o.stateDir, o.pollMs ?? 400);
  // Every run's row read once in the background (run-index.ts): the runs list then answers from it.
  const index = new RunIndex(o.stateDir, watcher);
  watcher.observe((changed) => index.forget(changed));
  // Once the URL is out: what every run looks like (changes count from here, a few hundred runs between
  // requests), then the count of runs waiting for review (each loop run's row).
  setImmediate(() => void index.warmUp(o.now));
  let port = o.port;
  const html = readFileSync(join(ASSET_DIR, 'index.html'), 'utf8').replaceAll('{{REVIEW}}', o.review ? 'on' : 'off');
  // The runs list's first page goes in with the page (issue 41): the runs page draws at once, with no
  // request after its scripts load. A data block, never run (the CSP allows no inline script); every "<"
  // escaped so nothing in a run id or an error message can end it.
  const page = async () => {
    const first = JSON.stringify(await index.page(o.now(), 0, RUNS_PAGE)).replaceAll('<', '\\u003c');
    return html.replaceAll('{{TOKEN}}', token).replace('{{FIRST_RUNS}}', () => first);
  };

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    // Split before decoding: a task id may hold "/" (sent as %2F) and stays one segment.
    const parts = url.pathname.split('/').slice(1).map((p) => decodeURIComponent(p));
    const method = req.method ?? 'GET';
    if (method === 'POST') {
      const body = await readBody(req);
      if (url.pathname === '/api/feedback') {
        // Feedback is kept to teach the next generator: never about the values of a damaged run (issue 42).
        if (isSafeId(body.run) && existsSync(stateLayout.runDir(o.stateDir, body.run))) await refuseDamagedRun(o.stateDir, body.run, 'save feedback');
        return json(res, 200, saveFeedback(o.stateDir, body as never, o.now()));
      }
      if (url.pathname === '/api/review') {
        if (!o.review) throw new HttpError(403, 'this viewer is read-only: start it with `whet view --review` to approve or reject');
        const { run, candidate, verdict, iteration } = body;
        if (verdict !== 'approve' && verdict !== 'reject') throw new HttpError(400, 'verdict is approve or reject');
        if (!isSafeId(candidate) || typeof iteration !== 'number') throw new HttpError(400, 'a candidate id and its iteration are needed');
        const message = await o.review(runId(run as string), candidate, verdict, iteration);
        index.forget([runId(run as string)]);
        // What it did, from the gate.json it wrote: the files applied and where the backup is (approve only).
        const gate = readLenient(iterationPaths(stateLayout.runDir(o.stateDir, runId(run as string)), iteration).gate);
        const applied = gate?.decision === 'keep' && gate.applied ? { target: String(gate.applied.target), backup: `${o.stateDir}/${String(gate.applied.backup)}`, files: (gate.applied.files ?? []) as string[] } : null;
        return json(res, 200, { message, decision: gate?.decision ?? null, applied });
      }
      throw new HttpError(404, 'no such route');
    }
    if (parts.length === 1 && parts[0] === '') {
      const body = await page();
      res.writeHead(200, { ...SAFE_HEADERS, 'content-type': 'text/html; charset=utf-8' });
      return void res.end(body);
    }
    if (parts[0] === 'assets' && parts.length === 2 && Object.hasOwn(ASSETS, parts[1]!)) {
      res.writeHead(200, { ...SAFE_HEADERS, 'content-type': `${ASSETS[parts[1]!]}; charset=utf-8` });
      return void res.end(readFileSync(join(ASSET_DIR, parts[1]!)));
    }
    if (parts[0] !== 'api') throw new HttpError(404, 'no such page');
    const [, what, a, b, c, d, e, ...rest] = parts;
    if (rest.length) throw new HttpError(404, 'no such route');
    if (what === 'runs' && a === undefined) return json(res, 200, await index.all(o.now()));
    if (what === 'run-list' && a === undefined) {
      const num = (k: string, dflt: number, max: number) => {
        const v = url.searchParams.get(k);
        if (v === null) return dflt;
        if (!/^\d{1,7}$/.test(v)) throw new HttpError(400, `${k} is a whole number`);
        return Math.min(Number(v), max);
      };
      return json(res, 200, await index.page(o.now(), num('offset', 0, 10_000_000), num('limit', 50, 500)));
    }
    if (what === 'runs' && b === undefined) {
      const d0 = await runDetail(o.stateDir, runId(a), o.now());
      if (!d0) throw new HttpError(404, 'no such run');
      return json(res, 200, d0);
    }
    if (what === 'runs' && b === 'iterations' && d === 'outputs' && e === undefined) return json(res, 200, outputsTable(o.stateDir, runId(a), iterationOf(c), await damagedIn(o.stateDir, runId(a))));
    if (what === 'runs' && b === 'iterations' && d === 'outputs' && e !== undefined) {
      const run = runId(a);
      const n = iterationOf(c);
      const damaged = await damagedIn(o.stateDir, run);
      const table = outputsTable(o.stateDir, run, n, damaged);
      if (!table.rows.some((r) => r[0] === e)) throw new HttpError(404, `iteration ${n} has no task ${e}`);
      const { promptOf } = await import('./prompts.js');
      const manifest = readLenient(stateLayout.runManifest(stateLayout.runDir(o.stateDir, run)));
      return json(res, 200, {
        task_id: e,
        row: table.rows.find((r) => r[0] === e),
        candidate: table.candidate,
        ...promptOf(manifest, e),
        ...(table.without_skill ? { without_skill: table.without_skill } : {}),
        variants: taskOutputs(o.stateDir, run, n, e, table.candidate, damaged, table.without_skill !== undefined),
        feedback: listFeedback(o.stateDir, run).filter((f) => f.iteration === n && f.task_id === e),
      });
    }
    if (what === 'feedback' && a === undefined) {
      const run = url.searchParams.get('run');
      return json(res, 200, listFeedback(o.stateDir, run === null ? undefined : runId(run)));
    }
    if (what === 'feedback' && a === 'export' && b === undefined) {
      return json(res, 200, exportFeedback(o.stateDir, runId(url.searchParams.get('run') ?? undefined)), { 'content-disposition': 'attachment; filename="feedback.json"' });
    }
    if (what === 'review' && a === undefined) {
      return json(res, 200, { enabled: !!o.review, pending: await pendingReviews(o.stateDir, o.now()) });
    }
    if (what === 'events' && a === undefined) {
      res.writeHead(200, { ...SAFE_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
      res.write(': whet view\n\n');
      const stop = watcher.add((changes) => res.write(`event: change\ndata: ${JSON.stringify(changes)}\n\n`));
      const beat = setInterval(() => res.write(': beat\n\n'), 15_000);
      req.on('close', () => {
        clearInterval(beat);
        stop();
      });
      return;
    }
    throw new HttpError(404, 'no such route');
  }

  const server = createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1');
    } catch {
      return json(res, 400, { error: 'bad request' });
    }
    const no = refusal({ method: req.method ?? 'GET', headers: req.headers, url }, token, port);
    if (no) return json(res, no.status, { error: no.why });
    route(req, res, url).catch((err: unknown) => {
      if (res.headersSent) return void res.end();
      if (err instanceof HttpError) return json(res, err.status, { error: err.message });
      // A refusal of `whet review` (lock held, integrity check failed) or bad feedback: its own message.
      if (err instanceof WhetError) return json(res, err.exitCode === 2 ? 400 : 409, { error: err.message });
      if (err instanceof URIError) return json(res, 400, { error: 'bad request' });
      return json(res, 500, { error: `internal error: ${(err as Error).message}` });
    });
  });
  // Keep-alive sockets and event streams must not hold close() open.
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  port = typeof addr === 'object' && addr ? addr.port : o.port;
  return {
    url: `http://127.0.0.1:${port}/?${SESSION_PARAM}=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        watcher.close();
        index.stop();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
