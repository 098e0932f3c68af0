// V8's compile cache for the code whet loads (Node 22.1 and later; Node 20 has no such API and this does
// nothing there). A command loads most of ~900 KB of bundled code on every start; with the cache, Node
// reads the compiled form instead of compiling it again: measured on Node 22.23, a one-task evaluation
// 0.90× and a 10,000-task one 0.93× the time without (A/B, fresh processes). TypeScript's tsc does the same.
// Node keeps the cache in NODE_COMPILE_CACHE, else in <tmpdir>/node-compile-cache, and checks each entry
// against the source it was made from; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
import module from 'node:module';

type Enable = () => { status: number; directory?: string };

/** Turns the cache on for the modules loaded from now on; returns its directory, or undefined when off. */
export function enableCompileCache(): string | undefined {
  const enable = (module as unknown as { enableCompileCache?: Enable }).enableCompileCache;
  if (typeof enable !== 'function') return undefined;
  try {
    return enable().directory;
  } catch {
    // A cache that cannot be set up (an unwritable directory) only costs the time it would have saved.
    return undefined;
  }
}
