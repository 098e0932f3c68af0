// Reading a calibration file (docs/method.md: Calibrating a judge): one human/judge pair a line, human first. JSONL
// (`{"human": "FAIL", "judge": "PASS"}`, optional "category" and "id") or a CSV of two columns (human,
// judge; an optional third is the category; one header row allowed). Labels are PASS or FAIL in any
// case; anything else is an error at its line, because a typo silently dropped or guessed would change
// the very figures the file exists to produce. All problems are reported at once (up to 20).
import { extname } from 'node:path';
import { ConfigError, ConfigErrors } from '../core/errors.js';
import { displayPath, readTextFile } from '../config/load-yaml.js';
import { splitCsvLine } from './csv.js';

export type Label = 'PASS' | 'FAIL';

export interface LabelPair {
  human: Label;
  judge: Label;
  category?: string;
  id?: string;
  /** 1-based line in the file it came from. */
  line: number;
}

const MAX_PROBLEMS = 20;

export function parseLabel(v: unknown): Label | undefined {
  if (typeof v !== 'string') return undefined;
  const u = v.trim().toUpperCase();
  return u === 'PASS' || u === 'FAIL' ? u : undefined;
}

export function labelProblem(field: string, v: unknown): string {
  if (v === undefined) return `${field}: missing; expected "PASS" or "FAIL"`;
  return `${field}: expected PASS or FAIL, got ${JSON.stringify(v)}`;
}

export type LabelFormat = 'jsonl' | 'csv';

/** By extension; otherwise by the first non-blank line (`{` means JSONL). */
export function labelFormatOf(file: string, text: string): LabelFormat {
  const ext = extname(file).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson' || ext === '.json') return 'jsonl';
  const first = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  return first.trim().startsWith('{') ? 'jsonl' : 'csv';
}

export function readLabelFile(file: string, cwd = process.cwd()): LabelPair[] {
  const text = readTextFile(file, 'calibration file').toString('utf8').replace(/^\uFEFF/, '');
  return parseLabelText(text, displayPath(file, cwd), labelFormatOf(file, text));
}

export function parseLabelText(text: string, shown: string, format: LabelFormat): LabelPair[] {
  const problems: ConfigError[] = [];
  const pairs: LabelPair[] = [];
  const fail = (line: number, msg: string) => problems.push(new ConfigError(msg, `${shown}:${line}`));
  const lines = text.split(/\r?\n/);
  let sawRow = false;
  for (let i = 0; i < lines.length && problems.length < MAX_PROBLEMS; i++) {
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    const line = i + 1;
    const firstRow = !sawRow;
    sawRow = true;
    const pair = format === 'jsonl' ? fromJsonLine(raw, line, fail) : fromCsvLine(raw, line, firstRow, fail);
    if (pair) pairs.push(pair);
  }
  if (problems.length === 1) throw problems[0]!;
  if (problems.length > 1) throw new ConfigErrors(problems);
  if (pairs.length === 0) throw new ConfigError('no labelled pairs: expected one {"human": "PASS|FAIL", "judge": "PASS|FAIL"} a line', `${shown}:1`);
  return pairs;
}

/**
 * A category column made only of PASS/FAIL values: the file is read as documented (the third column a
 * category), but one made of labels is almost surely a second judge's, or a human's, column — each
 * figure per category would then be a figure per label (issue 42). Said, naming the file and column.
 */
export function labelsAsCategoryWarning(pairs: LabelPair[], shown: string): string | undefined {
  if (pairs.length === 0 || !pairs.every((p) => p.category !== undefined && parseLabel(p.category) !== undefined)) return undefined;
  const values = [...new Set(pairs.map((p) => p.category!.toUpperCase()))].sort().join('" and "');
  return `${shown}:${pairs[0]!.line}: the category column (the third in a CSV) holds only PASS/FAIL values, read as categories "${values}": if it is another judge's or person's labels, give each pair of labels a file of its own (human first, judge second); a category names a kind of task`;
}

type Fail = (line: number, msg: string) => void;

function fromJsonLine(raw: string, line: number, fail: Fail): LabelPair | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    fail(line, `not valid JSON: ${(err as Error).message}`);
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(line, 'expected a JSON object like {"human": "FAIL", "judge": "PASS"}');
    return undefined;
  }
  const o = value as Record<string, unknown>;
  const human = parseLabel(o.human);
  const judge = parseLabel(o.judge);
  if (!human) fail(line, labelProblem('human', o.human));
  if (!judge) fail(line, labelProblem('judge', o.judge));
  const category = optionalText(o.category, 'category', line, fail);
  const id = o.id === undefined ? undefined : typeof o.id === 'number' ? String(o.id) : optionalText(o.id, 'id', line, fail);
  if (!human || !judge) return undefined;
  return withOptional({ human, judge, line }, category, id);
}

function optionalText(v: unknown, field: string, line: number, fail: Fail): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v.trim() === '') {
    fail(line, `${field}: expected a non-empty string, got ${JSON.stringify(v)}`);
    return undefined;
  }
  return v.trim();
}

function withOptional(p: LabelPair, category: string | undefined, id: string | undefined): LabelPair {
  if (category !== undefined) p.category = category;
  if (id !== undefined) p.id = id;
  return p;
}

/** Values that are not PASS/FAIL but plainly meant to be one: never taken for a header. */
const LABEL_LIKE = new Set(['P', 'F', 'PASSED', 'FAILED', 'PAS', 'FAL', 'FIAL', 'PSAS', 'OK', 'YES', 'NO', 'Y', 'N', 'TRUE', 'FALSE', '0', '1']);

function fromCsvLine(raw: string, line: number, firstRow: boolean, fail: Fail): LabelPair | undefined {
  const cells = splitCsvLine(raw);
  if (typeof cells === 'string') {
    fail(line, cells);
    return undefined;
  }
  const [h, j, c] = cells.map((s) => s.trim());
  const human = parseLabel(h);
  const judge = parseLabel(j);
  const isHeader = firstRow && cells.length >= 2 && cells.length <= 3 && !human && !judge && ![h, j].some((s) => LABEL_LIKE.has((s ?? '').toUpperCase()));
  if (isHeader) return undefined;
  if (cells.length < 2 || cells.length > 3) {
    fail(line, `expected 2 columns (human, judge) or 3 (human, judge, category), found ${cells.length}`);
    return undefined;
  }
  if (!human) fail(line, labelProblem('human (column 1)', h));
  if (!judge) fail(line, labelProblem('judge (column 2)', j));
  if (!human || !judge) return undefined;
  return withOptional({ human, judge, line }, c ? c : undefined, undefined);
}
