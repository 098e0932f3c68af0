// The chunk plan of the build (scripts/bundle-chunks.ts) on small graphs whose answer is known: it joins
// what costs no program anything, weighs what costs some, and never gives a program a package, zod or a
// stage it did not load, nor two chunks that import each other.
import { describe, expect, it } from 'vitest';
import { chunkPlan, type FirstChunk } from '../../scripts/bundle-chunks.js';

const chunk = (file: string, o: Partial<FirstChunk> = {}): FirstChunk => ({ file, entry: undefined, modules: [`src/${file}`], imports: [], dynamicImports: [], bytes: 100, ...o });
/** Tags from the test's own marks: a chunk's packages, and a `tag:` module. */
const tagsOf = (c: FirstChunk) => [...c.imports.filter((i) => !i.includes('.')).map((i) => `package:${i}`), ...c.modules.filter((m) => m.startsWith('tag:'))];
const plan = (chunks: FirstChunk[], maxExtraBytes: number) => chunkPlan(chunks, { maxExtraBytes, tagsOf }).map((g) => [...g].sort()).sort();

describe('chunkPlan', () => {
  it('joins chunks every program loads together, at no cost, and leaves entries alone', () => {
    const chunks = [
      chunk('a.js', { entry: 'static', imports: ['x.js', 'y.js'] }),
      chunk('b.js', { entry: 'static', imports: ['x.js', 'y.js', 'z.js'] }),
      chunk('x.js'),
      chunk('y.js'),
      chunk('z.js'),
    ];
    expect(plan(chunks, 0)).toEqual([['x.js', 'y.js']]);
    // At a cost of 100 bytes (a loads z too), z joins them.
    expect(plan(chunks, 100)).toEqual([['x.js', 'y.js', 'z.js']]);
  });

  it('counts what was surely loaded before a dynamic import as loaded', () => {
    // d is imported only from a: whatever a loads is loaded when d runs, so joining k (a and d) with m (a
    // alone) costs nobody anything.
    const chunks = [
      chunk('a.js', { entry: 'static', imports: ['k.js', 'm.js'], dynamicImports: ['d.js'] }),
      chunk('d.js', { entry: 'dynamic', imports: ['k.js'] }),
      chunk('k.js'),
      chunk('m.js'),
    ];
    expect(plan(chunks, 0)).toEqual([['k.js', 'm.js']]);
    // The same graph with d also imported from a second entry that loads neither: now it costs d's path.
    const shared = [...chunks, chunk('e.js', { entry: 'static', dynamicImports: ['d.js'] })];
    expect(plan(shared, 0)).toEqual([]);
    expect(plan(shared, 100)).toEqual([['k.js', 'm.js']]);
  });

  it('never makes a program load a package, or a marked module, it did not load before, at any cost', () => {
    const chunks = [
      chunk('a.js', { entry: 'static', imports: ['x.js'] }),
      chunk('b.js', { entry: 'static', imports: ['x.js', 'yaml-user.js', 'stage.js'] }),
      chunk('x.js'),
      chunk('yaml-user.js', { imports: ['yaml'] }),
      chunk('stage.js', { modules: ['tag:stage:gate'] }),
    ];
    // b already loads all three: joining yaml-user and stage costs nobody; x with either would give a yaml or the stage.
    expect(plan(chunks, Infinity)).toEqual([['stage.js', 'yaml-user.js']]);
  });

  it('counts what a joined chunk imports: joining one chunk can bring its whole closure', () => {
    const chunks = [
      chunk('a.js', { entry: 'static', imports: ['x.js'] }),
      chunk('b.js', { entry: 'static', imports: ['y.js'] }),
      chunk('x.js'),
      chunk('y.js', { imports: ['big.js'] }),
      chunk('big.js', { bytes: 10_000 }),
    ];
    // y with big: free (only b loads them). x with that group costs a 10,100 bytes and b 100.
    expect(plan(chunks, 0)).toEqual([['big.js', 'y.js']]);
    expect(plan(chunks, 10_199)).toEqual([['big.js', 'y.js']]);
    expect(plan(chunks, 10_200)).toEqual([['big.js', 'x.js', 'y.js']]);
  });

  it('never joins two chunks a third one lies between (the joined chunk and the third would import each other)', () => {
    // p imports the entry chunk e, which imports r: p and r joined would import e, which imports them, and
    // an entry's chunk is never joined.
    const chunks = [
      chunk('a.js', { entry: 'static', imports: ['p.js'] }),
      chunk('p.js', { imports: ['e.js'] }),
      chunk('e.js', { entry: 'static', imports: ['r.js'] }),
      chunk('r.js'),
    ];
    expect(plan(chunks, Infinity)).toEqual([]);
  });
});
