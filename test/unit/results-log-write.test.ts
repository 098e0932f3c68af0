// The results log's write check (writeProblem) replaced a full schema parse per line: it must refuse
// every line the reader's schema would skip, or a resume would silently redo — and the log lose — a line
// that was written whole. Each case is judged against the reader itself (JSON round trip + the schema).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResultsLog, resultLineSchema, writeProblem, type ResultLine } from '../../src/state/results-log.js';
import { tempDir } from '../support/cli.js';

const good = (): ResultLine => ({
  task_id: 't1',
  attempt: 0,
  status: 'pass',
  score: 1,
  reason: 'ok',
  judges: [{ type: 'contains', passed: true, score: 1, reason: 'found' }],
  output: 'answer',
  usage: { input_tokens: 3, output_tokens: 2, cost_usd: 0.001 },
  duration_ms: 12,
  engine_calls: 1,
  finished_at: new Date(0).toISOString(),
  judge_usage: { input_tokens: 1 },
});

const readerAccepts = (l: ResultLine) => resultLineSchema.safeParse(JSON.parse(JSON.stringify(l))).success;

const bad: [string, (l: ResultLine) => void][] = [
  ['NaN score', (l) => (l.score = NaN)],
  ['infinite duration', (l) => (l.duration_ms = Infinity)],
  ['fractional attempt', (l) => (l.attempt = 0.5)],
  ['negative attempt', (l) => (l.attempt = -1)],
  ['unknown status', (l) => ((l as { status: string }).status = 'maybe')],
  ['NaN engine_calls', (l) => (l.engine_calls = NaN)],
  ['NaN judge score', (l) => (l.judges[0]!.score = NaN)],
  ['infinite cost', (l) => (l.usage.cost_usd = Infinity)],
  ['NaN judge tokens', (l) => (l.judge_usage = { output_tokens: NaN })],
];

describe('results log write check', () => {
  it('accepts what the reader accepts', () => {
    expect(writeProblem(good())).toBeUndefined();
    expect(readerAccepts(good())).toBe(true);
    const minimal: ResultLine = { ...good(), judges: [], usage: {} };
    delete minimal.judge_usage;
    expect(writeProblem(minimal)).toBeUndefined();
    expect(readerAccepts(minimal)).toBe(true);
  });

  it.each(bad)('refuses a line with %s, which the reader would skip', (_name, spoil) => {
    const l = good();
    spoil(l);
    expect(readerAccepts(l)).toBe(false);
    expect(writeProblem(l)).toBeDefined();
    const file = join(tempDir(), 'r.jsonl');
    const log = ResultsLog.open(file);
    expect(() => log.append(l)).toThrow(/does not match its schema/);
    log.close();
    expect(readFileSync(file, 'utf8')).toBe('');
  });
});
