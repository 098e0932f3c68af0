// The held-out split. A task keeps the split its suite gives it; the others are assigned
// deterministically: within each category, tasks are ordered by sha256 of their id and the first
// round(n × ratio) go to `holdout`. The same suite and ratio always give the same split, every category
// is represented in proportion, and adding a task moves no other task between splits unless its
// category's held-out count changes.
import { hash } from 'node:crypto';
import type { Task } from './suite-schema.js';

export function assignSplits(tasks: Task[], holdoutRatio: number): Task[] {
  const assigned = splitsOf(tasks, holdoutRatio);
  return tasks.map((t) => (t.split ? t : { ...t, split: assigned.get(t.id) ?? 'train' }));
}

/** The split the ratio gives each task that has none of its own (tasks are not changed). */
export function splitsOf(tasks: readonly Task[], holdoutRatio: number): Map<string, 'train' | 'holdout'> {
  const byCategory = new Map<string, Task[]>();
  for (const t of tasks) {
    if (t.split) continue;
    let g = byCategory.get(t.category);
    if (!g) byCategory.set(t.category, (g = []));
    g.push(t);
  }
  const assigned = new Map<string, 'train' | 'holdout'>();
  for (const group of byCategory.values()) {
    const ordered = group
      // binary (latin1): one character per digest byte, so the strings sort as the hex digests do, at half the size.
      .map((t) => ({ t, h: hash('sha256', t.id, 'binary') }))
      .sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : 0));
    const held = Math.round(ordered.length * holdoutRatio);
    ordered.forEach(({ t }, i) => assigned.set(t.id, i < held ? 'holdout' : 'train'));
  }
  return assigned;
}
