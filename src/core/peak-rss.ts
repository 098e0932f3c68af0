// This process's own peak resident memory, for the figures `npm run bench` and WHET_BENCH_STATS report.
// Why not process.resourceUsage().maxRSS alone: on Linux, getrusage's ru_maxrss keeps across exec the
// high-water mark of the memory the process had before it — for a child libuv starts with vfork, its
// parent's — so a bare `node -e 0` spawned by a 300 MB parent reported 304 MB (its own peak: 39 MB).
// /proc/self/status's VmHWM is the high-water mark of this process's own address space; where there is no
// /proc, maxRSS is what there is.
// scripts/bench-probe.cts reads the same figure the same way: it is CommonJS and cannot import this module.
import { readFileSync } from 'node:fs';

export function peakRssKb(): number {
  try {
    const hwm = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]);
  } catch {
    // no /proc (macOS, Windows)
  }
  return process.resourceUsage().maxRSS;
}
