// The eval set's shape (docs/method.md: Building a suite on a grid): cases sampled on a declared grid, every meaningful cell
// filled, negative controls present, ids that stay put. A cell that names a dimension or value the grid
// does not declare is an error (a typo that would silently leave its real cell empty); empty cells and
// tasks without a cell are warnings, because only the author knows which cells are meaningful.
// Ids: the loader already refuses ids that are not safe file names; lint adds that an id like `task-3`
// or `t12` is a position, not a name: when a case is inserted or deleted someone renumbers, and every
// result, baseline and lesson keyed by the old id points at another case (examples/intents/README.md "Cases": ids are stable,
// never reused or renumbered).
import type { Finding, LintContext, Rule } from './types.js';
import { SAFE_ID } from '../config/suite-schema.js';
import { taskPlace } from './types.js';

/** Empty cells listed one by one; past this the rest are counted in one finding. */
export const MAX_EMPTY_CELLS_LISTED = 50;

export function cellKey(dims: readonly string[], cell: Record<string, string>): string {
  return dims.map((d) => `${d}=${cell[d] ?? '?'}`).join(' × ');
}

export const gridRule: Rule = (ctx) => {
  const grid = ctx.suite.grid;
  const out: Finding[] = [];
  if (!grid || Object.keys(grid).length === 0) {
    out.push({
      file: ctx.file,
      line: 1,
      severity: 'warning',
      rule: 'grid-none',
      message: 'the suite declares no grid, so its coverage cannot be checked',
      hint: 'add `grid:` (e.g. intent, persona, complexity → their values) and a `cell:` on each task',
    });
    return out;
  }
  const dims = Object.keys(grid);
  const covered = new Set<string>();
  for (const t of ctx.suite.tasks) {
    const place = taskPlace(ctx, t);
    if (!t.cell) {
      if (!isNegativeControl(t)) {
        out.push({ ...place, severity: 'warning', rule: 'grid-no-cell', task: t.id, message: `task "${t.id}" has no cell on the declared grid`, hint: `add cell: {${dims.map((d) => `${d}: …`).join(', ')}}` });
      }
      continue;
    }
    let valid = true;
    for (const [dim, value] of Object.entries(t.cell)) {
      const values = grid[dim];
      const at = ctx.lineOf(['tasks', t.index, 'cell', dim]);
      if (!values) {
        valid = false;
        out.push({ file: ctx.file, line: at, severity: 'error', rule: 'grid-unknown-dimension', task: t.id, message: `cell dimension "${dim}" is not in the grid (${dims.join(', ')})`, hint: 'fix the spelling, or declare the dimension under grid:' });
      } else if (!values.includes(value)) {
        valid = false;
        out.push({ file: ctx.file, line: at, severity: 'error', rule: 'grid-unknown-value', task: t.id, message: `"${value}" is not a value of grid dimension "${dim}" (${values.join(', ')})`, hint: `use one of ${values.join(', ')}, or add "${value}" to grid.${dim}` });
      }
    }
    const missing = dims.filter((d) => t.cell?.[d] === undefined);
    if (missing.length > 0) {
      valid = false;
      out.push({ ...place, severity: 'warning', rule: 'grid-partial-cell', task: t.id, message: `task "${t.id}" has no value for grid dimension${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`, hint: 'place the task on every dimension so its cell is known' });
    }
    if (valid) covered.add(cellKey(dims, t.cell));
  }
  out.push(...emptyCells(ctx, grid, dims, covered));
  return out;
};

function emptyCells(ctx: LintContext, grid: Record<string, string[]>, dims: string[], covered: Set<string>): Finding[] {
  const out: Finding[] = [];
  const line = ctx.lineOf(['grid']);
  let total = 1;
  for (const d of dims) total *= grid[d]!.length;
  let empty = 0;
  const walk = (i: number, cell: Record<string, string>) => {
    if (i === dims.length) {
      const key = cellKey(dims, cell);
      if (covered.has(key)) return;
      empty++;
      if (empty <= MAX_EMPTY_CELLS_LISTED) {
        out.push({ file: ctx.file, line, severity: 'warning', rule: 'grid-empty-cell', message: `no task in cell ${key}`, hint: 'add a case for this cell, or drop the value from the grid if the cell is not meaningful' });
      }
      return;
    }
    for (const v of grid[dims[i]!]!) walk(i + 1, { ...cell, [dims[i]!]: v });
  };
  // A grid too big to walk is itself worth saying; its cells cannot all be meaningful.
  if (total > 100_000) {
    return [{ file: ctx.file, line, severity: 'warning', rule: 'grid-empty-cell', message: `the grid has ${total} cells and ${covered.size} are covered`, hint: 'declare fewer dimensions or values' }];
  }
  walk(0, {});
  if (empty > MAX_EMPTY_CELLS_LISTED) {
    out.push({ file: ctx.file, line, severity: 'warning', rule: 'grid-empty-cell', message: `… and ${empty - MAX_EMPTY_CELLS_LISTED} more empty cells (${empty} of ${total} in all)`, hint: `fill or prune the grid; only the first ${MAX_EMPTY_CELLS_LISTED} empty cells are listed` });
  }
  return out;
}

/**
 * A negative control: a task marked `negative: true`, or a trigger query that should not trigger — the
 * very thing a negative control is for, written in skill-creator's words.
 */
export function isNegativeControl(t: { negative?: boolean; shouldTrigger?: boolean }): boolean {
  return t.negative === true || t.shouldTrigger === false;
}

export const negativesRule: Rule = (ctx) => {
  const count = ctx.suite.tasks.filter(isNegativeControl).length;
  if (count > 0) return [];
  // skill-creator's evals.json has no way to write a negative control (its evals are all things the skill
  // should do; what it should not trigger on lives in a trigger set): an author's file as written is not an error.
  if (ctx.suite.format === 'skill-creator-evals') {
    return [
      {
        file: ctx.file,
        line: ctx.lineOf(['tasks']),
        severity: 'warning',
        rule: 'negatives-none',
        message: "no negative controls (a warning: skill-creator's evals.json has no field for one): without a request the skill should leave alone, a skill that acts on everything scores as well as one that acts only when it should",
        hint: 'name evals that are negative controls in pipeline.yaml suites: <this file>: negative_controls: [ids] (or `negative: true` on the eval), and measure what should not trigger the skill with a trigger set (should_trigger: false queries)',
      },
    ];
  }
  return [
    {
      file: ctx.file,
      line: ctx.lineOf(['tasks']),
      severity: ctx.options.allowNoNegatives ? 'warning' : 'error',
      rule: 'negatives-none',
      message: 'no negative controls: no task is marked `negative: true` (nor is a should_trigger: false query)',
      hint: 'add requests that should NOT trigger the behaviour, and near-miss look-alikes (docs/method.md: Building a suite on a grid); or pass --allow-no-negatives',
    },
  ];
};

const POSITIONAL_ID = /^(?:(?:task|tasks|case|cases|test|tests|t|c|q|question|item|ex|example|sample|tc|eval|e|id|no|n)[-_.]?)?\d+$/i;

export function looksPositional(id: string): boolean {
  return POSITIONAL_ID.test(id);
}

export const idsRule: Rule = (ctx) => {
  const out: Finding[] = [];
  for (const t of ctx.suite.tasks) {
    // skill-creator's evals.json numbers its evals by format (schemas.md: "Unique integer identifier").
    if (!looksPositional(t.id) || typeof t.origin?.id === 'number') continue;
    out.push({
      ...taskPlace(ctx, t, ['id']),
      severity: 'warning',
      rule: 'id-positional',
      task: t.id,
      message: `id "${t.id}" is a position, not a name: renumbering after an insert or delete would attach old results to another case`,
      hint: 'name the case after what it checks (e.g. refund-partial-typo) and never reuse or renumber ids',
    });
  }
  return out;
};

/** Ids become result and run file names: one that is not a safe file name cannot be evaluated. */
export const unsafeIdsRule: Rule = (ctx) =>
  ctx.suite.tasks
    .filter((t) => !SAFE_ID.test(t.id))
    .map((t) => ({
      ...taskPlace(ctx, t, ['id']),
      severity: 'error' as const,
      rule: 'id-unsafe',
      task: t.id,
      message: `id ${JSON.stringify(t.id)} is not a safe file name, so whet evaluate refuses the suite`,
      hint: `use letters, digits, ".", "_" and "-" only, starting with a letter or digit (e.g. ${JSON.stringify(t.id.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+|-+$/g, '').slice(0, 128) || 'case-1')})`,
    }));
