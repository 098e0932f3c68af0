// The answer key (docs/method.md: Calibrating a judge): hand-labelled outputs, one JSON object a line —
// {"id", "output", "human": "PASS|FAIL", "category"?, "task"? (or "prompt")}. Running a judge spec over
// it gives the human/judge pairs calibration is computed from. The judge is given only the output and
// its task: the human label, the id and the category stay here (the request's taskId is the item's
// position, since an id like "bad-03" would itself be a hint).
import pLimit from 'p-limit';
import { ConfigError, ConfigErrors } from '../core/errors.js';
import { displayPath, readTextFile } from '../config/load-yaml.js';
import type { Engine } from '../engines/types.js';
import { judgeWithSpec } from '../judges/spec-judge.js';
import type { LoadedJudgeSpec } from '../judges/spec-schema.js';
import { labelProblem, parseLabel, type Label, type LabelPair } from './labels.js';

export interface AnswerKeyItem {
  id: string;
  output: string;
  human: Label;
  category?: string;
  task?: string;
  line: number;
}

const MAX_PROBLEMS = 20;

export function readAnswerKey(file: string, cwd = process.cwd()): AnswerKeyItem[] {
  const shown = displayPath(file, cwd);
  const text = readTextFile(file, 'answer key').toString('utf8').replace(/^\uFEFF/, '');
  const problems: ConfigError[] = [];
  const fail = (line: number, msg: string) => problems.push(new ConfigError(msg, `${shown}:${line}`));
  const items: AnswerKeyItem[] = [];
  const seen = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length && problems.length < MAX_PROBLEMS; i++) {
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    const item = parseItem(raw, i + 1, fail);
    if (!item) continue;
    const first = seen.get(item.id);
    if (first !== undefined) fail(item.line, `id: duplicate id ${JSON.stringify(item.id)} (first at line ${first})`);
    else seen.set(item.id, item.line);
    items.push(item);
  }
  if (problems.length === 1) throw problems[0]!;
  if (problems.length > 1) throw new ConfigErrors(problems);
  if (items.length === 0) throw new ConfigError('the answer key has no labelled outputs', `${shown}:1`);
  return items;
}

function parseItem(raw: string, line: number, fail: (line: number, msg: string) => void): AnswerKeyItem | undefined {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch (err) {
    fail(line, `not valid JSON: ${(err as Error).message}`);
    return undefined;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    fail(line, 'expected a JSON object like {"id": "a1", "output": "...", "human": "PASS"}');
    return undefined;
  }
  const o = v as Record<string, unknown>;
  let problems = 0;
  const bad = (msg: string) => {
    problems++;
    fail(line, msg);
  };
  const id = typeof o.id === 'number' && Number.isFinite(o.id) ? String(o.id) : o.id;
  if (typeof id !== 'string' || id.trim() === '') bad(`id: expected a non-empty string, got ${JSON.stringify(o.id)}`);
  if (typeof o.output !== 'string') bad(`output: expected the output text as a string, got ${JSON.stringify(o.output)}`);
  const human = parseLabel(o.human);
  if (!human) bad(labelProblem('human', o.human));
  if (o.task !== undefined && o.prompt !== undefined) bad('give either "task" or "prompt", not both');
  const task = o.task ?? o.prompt;
  if (task !== undefined && typeof task !== 'string') bad(`task: expected a string, got ${JSON.stringify(task)}`);
  if (o.category !== undefined && (typeof o.category !== 'string' || o.category.trim() === '')) {
    bad(`category: expected a non-empty string, got ${JSON.stringify(o.category)}`);
  }
  if (problems > 0 || typeof id !== 'string' || typeof o.output !== 'string' || !human) return undefined;
  const item: AnswerKeyItem = { id: id.trim(), output: o.output, human, line };
  if (typeof o.category === 'string') item.category = o.category.trim();
  if (typeof task === 'string' && task.trim() !== '') item.task = task;
  return item;
}

export interface JudgedPair extends LabelPair {
  id: string;
  reason: string;
}

export interface AnswerKeyRun {
  pairs: JudgedPair[];
  errors: { id: string; error: string }[];
}

export interface RunAnswerKeyOptions {
  engine: Engine;
  timeoutMs: number;
  concurrency: number;
  signal?: AbortSignal;
}

/** Judges every item; results keep the key's order whatever order the engine answers in. */
export async function runAnswerKey(spec: LoadedJudgeSpec, items: readonly AnswerKeyItem[], o: RunAnswerKeyOptions): Promise<AnswerKeyRun> {
  const limit = pLimit(Math.max(1, o.concurrency));
  const verdicts = await Promise.all(
    items.map((item, i) =>
      limit(async () => {
        if (o.signal?.aborted) return { ok: false as const, error: 'aborted before judging' };
        return judgeWithSpec(spec, {
          output: item.output,
          ...(item.task !== undefined ? { task: item.task } : {}),
          engine: o.engine,
          timeoutMs: o.timeoutMs,
          taskId: `calibration-item-${i + 1}`,
          ...(o.signal ? { signal: o.signal } : {}),
        });
      }),
    ),
  );
  const run: AnswerKeyRun = { pairs: [], errors: [] };
  items.forEach((item, i) => {
    const v = verdicts[i]!;
    if (!v.ok) run.errors.push({ id: item.id, error: v.error });
    else {
      const pair: JudgedPair = { id: item.id, human: item.human, judge: v.label, reason: v.reason, line: item.line };
      if (item.category !== undefined) pair.category = item.category;
      run.pairs.push(pair);
    }
  });
  return run;
}

/** The pairs file, human first as docs/method.md writes it; `whet calibrate pairs.jsonl` reads it back. */
export function pairsJsonl(pairs: readonly JudgedPair[]): string {
  return pairs
    .map((p) => JSON.stringify({ human: p.human, judge: p.judge, id: p.id, ...(p.category !== undefined ? { category: p.category } : {}), reason: p.reason }))
    .map((l) => `${l}\n`)
    .join('');
}

const norm = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/** Answer-key outputs that are also one of the judge's few-shots: their agreement is memorised, not measured. */
export function fewShotOverlap(spec: LoadedJudgeSpec, items: readonly AnswerKeyItem[]): string[] {
  const shots = spec.spec.few_shots.map((f) => norm(f.output));
  return items.filter((it) => norm(it.output).length > 0 && shots.some((s) => s === norm(it.output))).map((it) => it.id);
}
