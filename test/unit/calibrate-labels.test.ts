// Reading calibration files: JSONL and CSV, human first, labels in any case; anything else is an error
// that names `file:line:` so the user can fix it (exit 2 through the CLI).
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLabelText, readLabelFile } from '../../src/calibrate/labels.js';
import { splitCsvLine } from '../../src/calibrate/csv.js';
import { ConfigErrors } from '../../src/core/errors.js';
import { tempDir } from '../support/cli.js';
import { errorOf } from '../support/errors.js';

describe('JSONL pairs', () => {
  it('reads labels in any case, with optional category and id, skipping blank lines', () => {
    const pairs = parseLabelText('{"human":"fail","judge":"Pass","category":"billing","id":7}\n\n{"human":" PASS ","judge":"FAIL"}\n', 'l.jsonl', 'jsonl');
    expect(pairs).toEqual([
      { human: 'FAIL', judge: 'PASS', category: 'billing', id: '7', line: 1 },
      { human: 'PASS', judge: 'FAIL', line: 3 },
    ]);
  });

  it('reports a bad label at its line as file:line: field: message', () => {
    const e = errorOf(() => parseLabelText('{"human":"FAIL","judge":"PASS"}\n{"human":"MAYBE","judge":"PASS"}\n', 'labels.jsonl', 'jsonl'));
    expect(e.message).toBe('labels.jsonl:2: human: expected PASS or FAIL, got "MAYBE"');
  });

  it('reports every problem at once: missing label, invalid JSON, not an object, bad category', () => {
    const text = ['{"human":"FAIL"}', '{oops', '["FAIL","PASS"]', '{"human":"PASS","judge":"PASS","category":3}', '{"human":"PASS","judge":"P"}'].join('\n');
    const e = errorOf(() => parseLabelText(text, 'l.jsonl', 'jsonl'));
    expect(e).toBeInstanceOf(ConfigErrors);
    const lines = e.message.split('\n');
    expect(lines[0]).toBe('l.jsonl:1: judge: missing; expected "PASS" or "FAIL"');
    expect(lines[1]).toMatch(/^l\.jsonl:2: not valid JSON: /);
    expect(lines[2]).toBe('l.jsonl:3: expected a JSON object like {"human": "FAIL", "judge": "PASS"}');
    expect(lines[3]).toBe('l.jsonl:4: category: expected a non-empty string, got 3');
    expect(lines[4]).toBe('l.jsonl:5: judge: expected PASS or FAIL, got "P"');
  });

  it('refuses a file with no pairs', () => {
    expect(errorOf(() => parseLabelText('\n  \n', 'e.jsonl', 'jsonl')).message).toMatch(/^e\.jsonl:1: no labelled pairs/);
  });
});

describe('CSV pairs', () => {
  it('reads human,judge with an optional header row, a third category column, quotes, CRLF', () => {
    const text = 'human,judge,category\r\nFAIL,pass,billing\r\n"PASS", "FAIL"\r\npass,PASS,"a, b"\r\n';
    expect(parseLabelText(text, 'l.csv', 'csv')).toEqual([
      { human: 'FAIL', judge: 'PASS', category: 'billing', line: 2 },
      { human: 'PASS', judge: 'FAIL', line: 3 },
      { human: 'PASS', judge: 'PASS', category: 'a, b', line: 4 },
    ]);
    expect(parseLabelText('FAIL,FAIL\nPASS,FAIL\n', 'l.csv', 'csv')).toHaveLength(2);
  });

  it('allows a header only as the first row, and never one that is a misspelt label', () => {
    expect(errorOf(() => parseLabelText('FAIL,FAIL\nhuman,judge\n', 'l.csv', 'csv')).message).toBe(
      'l.csv:2: human (column 1): expected PASS or FAIL, got "human"\nl.csv:2: judge (column 2): expected PASS or FAIL, got "judge"',
    );
    expect(errorOf(() => parseLabelText('PASSED,FAIL\nFAIL,FAIL\n', 'l.csv', 'csv')).message).toBe('l.csv:1: human (column 1): expected PASS or FAIL, got "PASSED"');
  });

  it('names the line of a wrong column count or a broken quote', () => {
    expect(errorOf(() => parseLabelText('FAIL,PASS\nFAIL\n', 'l.csv', 'csv')).message).toBe('l.csv:2: expected 2 columns (human, judge) or 3 (human, judge, category), found 1');
    expect(errorOf(() => parseLabelText('FAIL,PASS\n"FAIL,PASS\n', 'l.csv', 'csv')).message).toBe('l.csv:2: unterminated quoted field starting at column 1');
  });

  it('splits RFC 4180 lines', () => {
    expect(splitCsvLine('a,"b ""c"", d",')).toEqual(['a', 'b "c", d', '']);
    expect(splitCsvLine('"x" y,z')).toBe('unexpected text after the quoted field at column 5');
  });
});

describe('reading files', () => {
  it('chooses the format by extension, else by the first line, and strips a BOM', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.csv'), '\uFEFFhuman,judge\nFAIL,PASS\n');
    writeFileSync(join(dir, 'b.txt'), '{"human":"FAIL","judge":"PASS"}\n');
    writeFileSync(join(dir, 'c.txt'), 'FAIL,PASS\n');
    for (const f of ['a.csv', 'b.txt', 'c.txt']) expect(readLabelFile(join(dir, f), dir)).toEqual([expect.objectContaining({ human: 'FAIL', judge: 'PASS' })]);
  });

  it('names a missing file', () => {
    const dir = tempDir();
    expect(errorOf(() => readLabelFile(join(dir, 'nope.jsonl'), dir)).message).toMatch(/nope\.jsonl: cannot read calibration file: file not found$/);
  });
});
