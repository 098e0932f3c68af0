// Big task suites without the whole raw tree in memory. Parsing a 100,000-task suite in one piece held
// its raw YAML tree (~900 bytes a task) and the validated copy at once — the peak of the whole
// evaluation. Here the top-level `tasks:` block sequence is cut at its items and parsed and validated
// SLICE tasks at a time, so only one slice of raw tree lives at any moment.
//
// It is a fast path only, taken when the text is plainly shaped: one `tasks:` line at column 0 opening
// a block sequence, no anchors, aliases, tags or document markers anywhere (a slice could not resolve an
// alias into another). Anything else — and any parse or schema problem in a slice — returns undefined,
// and the caller reads the whole document the usual way, which is exact and locates every error.
// Item boundaries are lines at the sequence's own indentation starting with `-`: a block scalar or a
// continued flow scalar inside an item is always indented deeper, so it is never cut.
import jsYaml from 'js-yaml';
import { z } from 'zod';
import { ONCE } from '../core/parse-once.js';
import { flatCheckOf } from '../core/flat-check.js';
import { collectWhenGrown, holdYoungGeneration } from '../core/gc-hint.js';
import { treeNestsDeeper } from './nesting.js';
import { shareJsYaml } from '../core/lazy.js';

shareJsYaml(jsYaml);

const SLICE = 250;

interface Section {
  /** Offsets of the `tasks:` line's start and the section's end. */
  start: number;
  end: number;
  /** Offsets where each item starts (its `-` line). */
  items: number[];
}

/** Where the top-level `tasks:` block sequence and its items are, when the text is plainly shaped. */
export function taskSection(text: string): Section | undefined {
  // Anchors, aliases and tags (at a value's start) and document markers: parsed in slices they would change meaning.
  if (/[&*!]/.test(text) && /(^|[\s[{,:-])[&*!][^\s,\]}]/m.test(text)) return undefined;
  if (/^(---|\.\.\.)(\s|$)|^%|\t/m.test(text)) return undefined;
  const heads = [...text.matchAll(/^tasks:[ \t]*(#.*)?$/gm)];
  if (heads.length !== 1 || /^["']?tasks["']?\s*:/m.test(text.slice(heads[0]!.index + 6))) return undefined;
  const start = heads[0]!.index;
  // The first item: the first line after `tasks:` that is neither blank nor a comment must open one.
  const first = /^( *)(\S)/gm;
  first.lastIndex = text.indexOf('\n', start) + 1;
  if (first.lastIndex === 0) return undefined;
  let head = first.exec(text);
  while (head && head[2] === '#') head = first.exec(text);
  if (!head || head[2] !== '-') return undefined;
  const pad = head[1]!;
  const opened = text.charCodeAt(head.index + pad.length + 1);
  if (!(opened === 0x20 || opened === 0x0a || opened === 0x0d || Number.isNaN(opened))) return undefined;
  // The section ends at the next line that starts at column 0 with something other than a comment or an item.
  const next = /^[^\s#-]/gm;
  next.lastIndex = head.index;
  const end = next.exec(text)?.index ?? text.length;
  // Items: lines at exactly the first item's indentation that start with "-" (found by search, not line by line).
  const items = [head.index];
  const marker = `\n${pad}-`;
  for (let at = text.indexOf(marker, head.index); at >= 0 && at < end; at = text.indexOf(marker, at + 1)) {
    const after = text.charCodeAt(at + marker.length);
    if (after === 0x20 || after === 0x0a || after === 0x0d || Number.isNaN(after)) items.push(at + 1);
  }
  return { start, end, items };
}

function parse(text: string): unknown {
  try {
    const v: unknown = jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA });
    // taskSection refused any anchor or alias, so the value is a tree.
    return treeNestsDeeper(v) ? undefined : v;
  } catch {
    return undefined;
  }
}

/** Thrown while tasks are iterated when a slice turns out not to read cleanly: read the whole document. */
export class NotPlain extends Error {}

export interface SlicedSuite<T> {
  /** Everything but `tasks`, validated. */
  head: Record<string, unknown>;
  /** How many tasks the section holds. */
  count: number;
  /** The validated tasks, parsed a slice at a time as they are taken; throws NotPlain when a slice fails. */
  tasks: Iterable<T>;
}

/**
 * The suite read against `schema` (whose `tasks` is an optional array of task objects) in slices;
 * undefined when the fast path does not apply. Tasks are parsed as the caller iterates, so a caller that
 * turns each into its own object right away never holds more than one slice of raw or validated input.
 */
export function sliceSuite<S extends z.ZodObject>(text: string, schema: S): SlicedSuite<unknown> | undefined {
  const section = taskSection(text);
  if (!section) return undefined;
  const tasksField = schema.shape['tasks'];
  if (!(tasksField instanceof z.ZodOptional) || !(tasksField.unwrap() instanceof z.ZodArray)) return undefined;
  const taskSchema = (tasksField.unwrap() as z.ZodArray<z.ZodType>).element;
  const checkTask = judgesOnce(taskSchema);
  const head = parse(`${text.slice(0, section.start)}${text.slice(section.end)}`);
  if (!head || typeof head !== 'object' || Array.isArray(head) || 'tasks' in head) return undefined;
  const top = schema.safeParse(head, ONCE);
  if (!top.success) return undefined;
  const { items, end } = section;
  function* tasks(): Generator<unknown> {
    for (let i = 0; i < items.length; i += SLICE) {
      // Every task read lives on: the young generation would double to its maximum (core/gc-hint.ts).
      holdYoungGeneration();
      // And what each slice leaves dead is collected before it piles up in the old generation.
      collectWhenGrown();
      const to = i + SLICE < items.length ? items[i + SLICE]! : end;
      const got = (parse(`tasks:\n${text.slice(items[i]!, to)}`) as { tasks?: unknown } | undefined)?.tasks;
      if (!Array.isArray(got) || got.length !== Math.min(SLICE, items.length - i)) throw new NotPlain();
      for (let k = 0; k < got.length; k++) {
        const v = checkTask(got[k]);
        if (v === undefined) throw new NotPlain();
        got[k] = undefined;
        yield v;
      }
    }
  }
  return { head: top.data as Record<string, unknown>, count: items.length, tasks: tasks() };
}

/**
 * A task validator that checks each distinct judge list once. Suites repeat the same judges over many
 * tasks (a 100,000-task suite may have a handful of distinct lists), and validating them was most of the
 * schema's time; a repeated list gets the result its first copy got. The rest of the task is validated as
 * usual. Anything unusual — a task schema without plain `judge`/`judges` fields, a non-object — falls
 * back to the whole schema, and any failure to the caller's exact path.
 */
function judgesOnce(taskSchema: z.ZodType): (raw: unknown) => unknown {
  const whole = (raw: unknown) => {
    const v = taskSchema.safeParse(raw);
    return v.success ? v.data : undefined;
  };
  if (!(taskSchema instanceof z.ZodObject)) return whole;
  const shape = taskSchema.shape as Record<string, z.ZodType>;
  const one = shape['judge'];
  const list = shape['judges'];
  if (!(one instanceof z.ZodOptional) || !(list instanceof z.ZodOptional)) return whole;
  const rest = taskSchema.extend({ judge: z.unknown().optional(), judges: z.unknown().optional() });
  // The plain task is answered by the schema-derived quick check (core/flat-check.ts), the rest by zod.
  const quick = flatCheckOf(rest);
  const seen = new Map<string, unknown>();
  // The lists met last, compared as trees before any is serialised for `seen`: most tasks repeat one of
  // a few lists, and serialising each task's list to look it up was a tenth of a large suite's reading.
  const recent: { schema: z.ZodType; raw: unknown; value: unknown }[] = [];
  const judged = (schema: z.ZodType, raw: unknown): { ok: boolean; value?: unknown } => {
    if (raw === undefined) return { ok: true };
    for (const r of recent) if (r.schema === schema && sameTree(r.raw, raw)) return { ok: true, value: r.value };
    const key = `${schema === one ? '1' : 'n'}${JSON.stringify(raw)}`;
    let value: unknown;
    if (seen.has(key)) value = seen.get(key);
    else {
      const v = schema.safeParse(raw);
      if (!v.success) return { ok: false };
      seen.set(key, (value = v.data));
    }
    recent.unshift({ schema, raw, value });
    if (recent.length > RECENT_LISTS) recent.pop();
    return { ok: true, value };
  };
  return (raw) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return whole(raw);
    const { judge, judges } = raw as { judge?: unknown; judges?: unknown };
    const a = judged(one, judge);
    const b = judged(list, judges);
    if (!a.ok || !b.ok) return undefined;
    let task = quick?.(raw);
    if (!task) {
      const v = rest.safeParse(raw);
      if (!v.success) return undefined;
      task = v.data as Record<string, unknown>;
    }
    if (a.value === undefined) delete task['judge'];
    else task['judge'] = a.value;
    if (b.value === undefined) delete task['judges'];
    else task['judges'] = b.value;
    return task;
  };
}

/** How many of the judge lists met last are compared as trees before a list is looked up by its JSON. */
const RECENT_LISTS = 4;

/**
 * Whether two parsed values are the same tree, as their JSON would say: the same keys in the same order,
 * equal primitives (a NaN never equals, so such a value takes the JSON lookup). Both come from parsing
 * text that was checked for nesting depth, so the recursion is bounded. Not util.isDeepStrictEqual: for
 * 100,000 judge lists it took ≈ 230 ms, more than the JSON lookup it is here to spare (≈ 110 ms; this ≈ 40 ms).
 */
export function sameTree(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameTree(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i] || !sameTree((a as Record<string, unknown>)[ka[i]!], (b as Record<string, unknown>)[kb[i]!])) return false;
  }
  return true;
}

/** The whole suite read in slices (for tests and callers that want the value itself), or undefined. */
export function readSuiteInSlices<S extends z.ZodObject>(text: string, schema: S): z.infer<S> | undefined {
  const sliced = sliceSuite(text, schema);
  if (!sliced) return undefined;
  try {
    return { ...sliced.head, tasks: [...sliced.tasks] } as z.infer<S>;
  } catch (err) {
    if (err instanceof NotPlain) return undefined;
    throw err;
  }
}
