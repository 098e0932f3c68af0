// The eval set's shape (docs/method.md: Building a suite on a grid), the first thing a report's evidence names: how many tasks,
// in which categories, how much of the declared grid is filled and which cells are empty, the negative
// controls, and the train / held-out split. Read from the suite file when it can be; otherwise from what
// the results show, saying so.
import type { SuiteInput } from './inputs.js';
import type { SuiteShape, TaskRow } from './model-schema.js';

function countBy<T>(items: T[], key: (t: T) => string): { name: string; n: number }[] {
  const m = new Map<string, number>();
  for (const i of items) m.set(key(i), (m.get(key(i)) ?? 0) + 1);
  return [...m].map(([name, n]) => ({ name, n })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function splitsOf(splits: (string | null | undefined)[]): SuiteShape['splits'] {
  return {
    train: splits.filter((s) => s === 'train').length,
    holdout: splits.filter((s) => s === 'holdout').length,
    unassigned: splits.filter((s) => s !== 'train' && s !== 'holdout').length,
  };
}

/** Every cell of the grid, as `dim=value × dim=value` (lint's spelling), in declaration order. */
export function gridCells(grid: Record<string, string[]>): string[] {
  const dims = Object.keys(grid);
  let cells: string[][] = [[]];
  for (const d of dims) cells = cells.flatMap((c) => (grid[d] ?? []).map((v) => [...c, `${d}=${v}`]));
  return dims.length === 0 ? [] : cells.map((c) => c.join(' × '));
}

function gridOf(suite: SuiteInput): SuiteShape['grid'] {
  const grid = suite.grid;
  if (!grid || Object.keys(grid).length === 0) return null;
  const dims = Object.keys(grid);
  const filled = new Set<string>();
  let withoutCell = 0;
  for (const t of suite.tasks) {
    if (!t.cell) {
      withoutCell++;
      continue;
    }
    if (dims.every((d) => t.cell?.[d] !== undefined && grid[d]?.includes(t.cell[d]!))) filled.add(dims.map((d) => `${d}=${t.cell![d]}`).join(' × '));
  }
  const all = gridCells(grid);
  return {
    dimensions: dims.map((name) => ({ name, values: grid[name] ?? [] })),
    cells_total: all.length,
    cells_filled: all.filter((c) => filled.has(c)).length,
    empty_cells: all.filter((c) => !filled.has(c)),
    tasks_without_cell: withoutCell,
  };
}

export function suiteShapeOf(suite: SuiteInput | undefined, problem: string | undefined, tasks: TaskRow[], fallbackPath: string | null): SuiteShape {
  if (suite) {
    return {
      source: 'suite',
      path: suite.path,
      sha256: suite.sha256 ?? null,
      problem: problem ?? null,
      tasks: suite.tasks.length,
      categories: countBy(suite.tasks, (t) => t.category).map((c) => ({ name: c.name, tasks: c.n })),
      negative_controls: suite.tasks.filter((t) => t.negative).length,
      // The split the run used: tasks without one in the file were assigned when the run started.
      splits: tasks.some((t) => t.split) ? splitsOf(tasks.map((t) => t.split)) : splitsOf(suite.tasks.map((t) => t.split)),
      grid: gridOf(suite),
      judge_types: countBy(
        suite.tasks.flatMap((t) => [...new Set(t.judges)].map((j) => ({ j }))),
        (x) => x.j,
      ).map((c) => ({ type: c.name, tasks: c.n })),
    };
  }
  return {
    source: tasks.length ? 'results' : 'none',
    path: fallbackPath,
    sha256: null,
    problem: problem ?? null,
    tasks: tasks.length,
    categories: countBy(tasks, (t) => t.category).map((c) => ({ name: c.name, tasks: c.n })),
    negative_controls: tasks.filter((t) => t.negative).length,
    splits: splitsOf(tasks.map((t) => t.split)),
    grid: null,
    judge_types: [],
  };
}
