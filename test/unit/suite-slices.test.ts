// Big suites are read slice by slice (src/config/suite-slices.ts). The slices must read exactly what the
// whole-document parse reads, and anything not plainly shaped must be left to the whole-document path.
import jsYaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { readSuiteInSlices, sameTree, taskSection } from '../../src/config/suite-slices.js';
import { suiteSchema } from '../../src/config/suite-schema.js';

const whole = (text: string) => suiteSchema.parse(jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA }));

const task = (i: number, pad = '  ') =>
  [
    `${pad}- id: t${i}`,
    `${pad}  # a comment inside an item`,
    `${pad}  prompt: |`,
    `${pad}    Line one of task ${i}`,
    `${pad}    - a list line inside the block scalar`,
    `${pad}  -x not a boundary either`.replace('-x', 'description: "- quoted'),
    `${pad}    still the description"`,
    `${pad}  judges:`,
    `${pad}  - {type: contains, expected: ["A${i}"]}`,
    `${pad}  - type: regex`,
    `${pad}    pattern: "\\\\d+-A"`,
  ].join('\n');

const suite = (n: number, o: { pad?: string; after?: string } = {}) =>
  `# leading comment\nskill_id: s\nversion: "1.0"\ntasks:\n# comment before the first item\n\n${Array.from({ length: n }, (_, i) => task(i, o.pad)).join('\n\n')}\n${o.after ?? ''}`;

describe('suite slices', () => {
  it.each([
    ['indented items, more tasks than one slice', suite(4500)],
    ['items at column 0', suite(30, { pad: '' })],
    ['a top-level key after the tasks', suite(30, { after: 'description: after the tasks\ngrid:\n  tone: [a, b]\n' })],
    ['no final newline', suite(3).trimEnd()],
  ])('reads %s exactly as the whole document', (_name, text) => {
    expect(taskSection(text)).toBeDefined();
    const sliced = readSuiteInSlices(text, suiteSchema);
    expect(sliced).toBeDefined();
    expect(sliced).toEqual(whole(text));
  });

  it.each([
    ['an anchor and alias', suite(3).replace('- {type: contains, expected: ["A0"]}', '- &j {type: contains, expected: ["A0"]}') + '\nextra: *j\n'],
    ['a flow sequence of tasks', 'skill_id: s\nversion: "1.0"\ntasks: [{id: a, prompt: p, judge: {type: contains, expected: [x]}}]\n'],
    ['a second document', `${suite(2)}---\nskill_id: t\n`],
    ['a tab', suite(2).replace('  - id: t1', '\t- id: t1')],
    ['a schema problem in a task', suite(3).replace('id: t1', 'id: "bad id"')],
    ['an unknown key at the top', `${suite(2)}unknown: 1\n`],
    ['a YAML error in a slice', suite(3).replace('prompt: |', 'prompt: "unclosed')],
  ])('leaves %s to the whole-document read', (_name, text) => {
    expect(readSuiteInSlices(text, suiteSchema)).toBeUndefined();
  });

  it('reads repeated judge lists exactly, however they alternate and in whatever key order they are written', () => {
    // Seven lists (more than the reader compares as trees before looking one up by its JSON), two of them
    // the same judges with their keys in another order, cycling over the tasks.
    const lists = [
      '{type: contains, expected: ["X"]}',
      '{expected: ["X"], type: contains}',
      '{type: regex, pattern: "a+"}',
      '{type: regex, pattern: "a+", flags: i}',
      '{type: contains, expected: ["X", "Y"]}',
      '{type: not_contains, expected: ["Z"]}',
      '{type: contains, expected: ["X"], case_sensitive: false}',
    ];
    const order = [0, 0, 1, 2, 0, 3, 4, 5, 6, 1, 1, 0, 6, 2, 5, 3, 4, 0];
    const text = `skill_id: s\nversion: "1.0"\ntasks:\n${order.map((l, i) => `  - id: t${i}\n    prompt: p\n    judges:\n      - ${lists[l]}\n`).join('')}`;
    const sliced = readSuiteInSlices(text, suiteSchema);
    expect(sliced).toBeDefined();
    // As text: toEqual would not see keys in another order.
    expect(JSON.stringify(sliced)).toBe(JSON.stringify(whole(text)));
  });
});

describe('sameTree', () => {
  it.each([
    [{ a: 1, b: [1, { c: 'x' }] }, { a: 1, b: [1, { c: 'x' }] }, true],
    [{ a: 1, b: 2 }, { b: 2, a: 1 }, false],
    [[1, 2], { 0: 1, 1: 2 }, false],
    [[1, 2], [1, 2, 3], false],
    [{ a: NaN }, { a: NaN }, false],
    [{ a: null }, { a: undefined }, false],
    [{ a: {} }, { a: [] }, false],
    ['x', 'x', true],
  ])('%j and %j: %s', (a, b, same) => {
    expect(sameTree(a, b)).toBe(same);
  });
});
