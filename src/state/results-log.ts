// results/<variant>.jsonl: one line per task × attempt, appended as it finishes. It is the resume point:
// a re-run skips every (task, attempt) already judged here. Lines finished in the same turn of the event
// loop are written together, with one write(2) on an O_APPEND descriptor, at the end of that turn (a
// write per line was a tenth of a fast evaluation's time). Nothing reports an attempt as judged before
// its line is written — the progress bar flushes before it draws new counts, and closing flushes — so a
// kill -9 loses only attempts nobody was told about, which the resume runs again; a torn last line is
// cut off when the file is opened again.
import { closeSync, createReadStream, existsSync, fstatSync, ftruncateSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { attemptStatus } from './measures.js';
import { InternalError } from '../core/errors.js';
import { mapped } from '../core/atomic.js';
import { intentMetricSetSchema } from '../intents/intent-metrics.js';

export const judgeOutcomeSchema = z.object({
  type: z.string(),
  passed: z.boolean(),
  score: z.number(),
  reason: z.string(),
  error: z.string().optional(),
  /** skill-creator evals: the expectation this judgement graded (the reason is its evidence). */
  expectation: z.string().optional(),
});

export const resultLineSchema = z.object({
  task_id: z.string(),
  attempt: z.number().int().min(0),
  /** pass / fail were judged; error means the engine or a judge could not do its job; unjudged: nothing to judge by. */
  status: attemptStatus,
  score: z.number(),
  reason: z.string(),
  judges: z.array(judgeOutcomeSchema),
  error: z.object({ kind: z.string(), message: z.string() }).optional(),
  output: z.string(),
  output_truncated: z.boolean().optional(),
  usage: z.object({ input_tokens: z.number().optional(), output_tokens: z.number().optional(), cost_usd: z.number().optional() }),
  duration_ms: z.number(),
  /** Every call of the attempt: the task's and its judges'. */
  engine_calls: z.number().int().min(0),
  /** Of engine_calls, the judges' (absent: none, or a line written before the split was kept). */
  judge_calls: z.number().int().min(0).optional(),
  finished_at: z.string(),
  /** Whether the agent invoked the skill (engines that load it as the agent does). */
  skill_triggered: z.boolean().optional(),
  /** Names of the tools the agent called, in order. */
  tool_calls: z.array(z.string()).optional(),
  /**
   * Requests of this attempt that failed (HTTP engines), each with its cause, whether a retry then
   * succeeded or not; the messages are redacted by the engine. Older logs hold only the count.
   */
  failed_attempts: z
    .union([z.number().int(), z.array(z.object({ kind: z.string(), message: z.string(), status: z.number().optional(), waited_ms: z.number().optional() }))])
    .optional(),
  /** What this attempt's judge-engine calls (llm-rubric) used; budgets and totals count it with `usage`. */
  judge_usage: z.object({ input_tokens: z.number().optional(), output_tokens: z.number().optional(), cost_usd: z.number().optional() }).optional(),
  /** tool_call tasks: this attempt's contribution to the intent metrics (src/intents/intent-metrics.ts). */
  intent: intentMetricSetSchema.optional(),
});
export type ResultLine = z.infer<typeof resultLineSchema>;

/** Outputs above this many characters are cut in the log (the judges saw them whole). */
export const MAX_LOGGED_OUTPUT = 64 * 1024;

/** Pending lines are written once they reach this size, even within one turn of the event loop. */
const FLUSH_AT_CHARS = 256 * 1024;

export const attemptKey = (taskId: string, attempt: number) => `${taskId}#${attempt}`;

export class ResultsLog {
  private pending: string[] = [];
  private pendingChars = 0;
  private scheduled = false;
  /** A write that failed at the end of a turn, thrown to the next append or close (never uncaught). */
  private failure: unknown;

  private constructor(
    readonly file: string,
    private fd: number,
  ) {}

  /** Opens for appending, first cutting any torn last line left by a killed process. */
  static open(file: string): ResultsLog {
    mkdirSync(dirname(file), { recursive: true });
    const fd = openSync(file, 'a+');
    const size = fstatSync(fd).size;
    if (size > 0) {
      const tail = Buffer.alloc(Math.min(size, 1 << 20));
      readSync(fd, tail, 0, tail.length, size - tail.length);
      if (tail[tail.length - 1] !== 0x0a) {
        const lastNl = tail.lastIndexOf(0x0a);
        ftruncateSync(fd, lastNl < 0 ? size - tail.length : size - tail.length + lastNl + 1);
      }
    }
    return new ResultsLog(file, fd);
  }

  append(line: ResultLine): void {
    const out = line.output.length > MAX_LOGGED_OUTPUT ? { ...line, output: line.output.slice(0, MAX_LOGGED_OUTPUT), output_truncated: true } : line;
    // A line the resume would skip as torn must never be written whole. The type already fixes its shape;
    // what it cannot fix are the values the reader's schema refuses (NaN and Infinity become null in JSON,
    // an unknown status from a cast). Checking those is ~20x cheaper than the schema parse per line,
    // which was the largest cost of an attempt on a fast engine.
    const problem = writeProblem(out);
    if (problem) throw new InternalError(`result line for ${line.task_id} attempt ${line.attempt} does not match its schema: ${problem}`);
    if (this.fd < 0) throw new InternalError(`results log ${this.file} is closed`);
    if (this.failure !== undefined) throw this.failure;
    const text = `${JSON.stringify(out)}\n`;
    this.pending.push(text);
    this.pendingChars += text.length;
    // An instant engine finishes every attempt without yielding to the event loop: bound what waits.
    if (this.pendingChars >= FLUSH_AT_CHARS) return this.flush();
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        try {
          this.flush();
        } catch (err) {
          this.failure = err;
        }
      });
    }
  }

  /** Writes every line appended so far (before anything reports them as judged). */
  flush(): void {
    this.scheduled = false;
    if (this.failure !== undefined) throw this.failure;
    if (this.pending.length === 0 || this.fd < 0) return;
    const bytes = Buffer.from(this.pending.join(''), 'utf8');
    this.pending = [];
    this.pendingChars = 0;
    // A short write (a full disk) must not drop the lines after it silently: write the rest, or throw —
    // and then cut the log back to its last whole line, so it still parses line by line (issue 33).
    let at = 0;
    try {
      for (; at < bytes.length; ) at += writeSync(this.fd, bytes, at, bytes.length - at);
    } catch (err) {
      try {
        if (at > 0) ftruncateSync(this.fd, fstatSync(this.fd).size - at);
      } catch {
        // The torn line is cut when the log is opened again.
      }
      throw mapped(err, this.file);
    }
  }

  close(): void {
    if (this.fd < 0) return;
    const fd = this.fd;
    // Closed even when the last lines cannot be written (a full disk): a leaked descriptor keeps the disk busy.
    try {
      this.flush();
    } finally {
      this.fd = -1;
      closeSync(fd);
    }
  }
}

const STATUSES = new Set(['pass', 'fail', 'error', 'unjudged']);
const finite = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const count = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

function usageProblem(u: ResultLine['usage'] | undefined, at: string): string | undefined {
  if (u === undefined) return undefined;
  for (const k of ['input_tokens', 'output_tokens', 'cost_usd'] as const) if (u[k] !== undefined && !finite(u[k])) return `${at}.${k}: expected a finite number`;
  return undefined;
}

/** Why the reader's schema would refuse this line (the values a ResultLine's type cannot rule out), if it would. */
export function writeProblem(l: ResultLine): string | undefined {
  if (typeof l.task_id !== 'string') return 'task_id: expected a string';
  if (!count(l.attempt)) return 'attempt: expected a whole number ≥ 0';
  if (!STATUSES.has(l.status)) return `status: expected one of pass, fail, error, unjudged`;
  if (!finite(l.score)) return 'score: expected a finite number';
  if (!finite(l.duration_ms)) return 'duration_ms: expected a finite number';
  if (!count(l.engine_calls)) return 'engine_calls: expected a whole number ≥ 0';
  if (l.judge_calls !== undefined && !count(l.judge_calls)) return 'judge_calls: expected a whole number ≥ 0';
  if (typeof l.output !== 'string' || typeof l.reason !== 'string' || typeof l.finished_at !== 'string') return 'output, reason, finished_at: expected strings';
  if (!Array.isArray(l.judges)) return 'judges: expected an array';
  for (let i = 0; i < l.judges.length; i++) {
    const j = l.judges[i]!;
    if (typeof j.passed !== 'boolean' || !finite(j.score) || typeof j.reason !== 'string' || typeof j.type !== 'string') return `judges.${i}: expected {type, passed, score, reason}`;
  }
  return usageProblem(l.usage, 'usage') ?? usageProblem(l.judge_usage, 'judge_usage');
}

/**
 * Streams a results file and calls `onLine` for every valid line, latest line per (task, attempt)
 * winning. Lines that do not parse (a torn write) are skipped and counted.
 */
export async function readResults(file: string, onLine: (line: ResultLine) => void): Promise<{ lines: number; skipped: number }> {
  if (!existsSync(file)) return { lines: 0, skipped: 0 };
  const rl = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let lines = 0;
  let skipped = 0;
  for await (const text of rl) {
    if (text.trim() === '') continue;
    let parsed: z.ZodSafeParseResult<ResultLine>;
    try {
      parsed = resultLineSchema.safeParse(JSON.parse(text));
    } catch {
      skipped++;
      continue;
    }
    if (parsed.success) {
      lines++;
      onLine(parsed.data);
    } else skipped++;
  }
  return { lines, skipped };
}
