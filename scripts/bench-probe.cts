// Loaded with `node --require` into every process the bench measures (whet commands and the bare `node -e 0`
// reference alike): at exit it writes the process's own CPU time, peak RSS and uptime to the file named by
// WHET_BENCH_PROBE. An exit hook sees commands that end through process.exit too (commander's --version and
// --help), which a figure written by the command itself would miss.
// CommonJS on purpose: a probe loaded with --import started the ES module loader in the bare reference too
// (≈ 25 ms here, half of a bare start), a cost `node -e 0` never has, so every start-up ratio looked better
// than it was.
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * The peak RSS of this process's own address space. Why not process.resourceUsage().maxRSS alone: on
 * Linux, getrusage's ru_maxrss keeps across exec the high-water mark of the memory the process had before
 * it — for a child libuv starts with vfork, its parent's — so a bare `node -e 0` spawned by a 300 MB parent
 * reported 304 MB (its own peak: 39 MB). /proc/self/status's VmHWM is the high-water mark of this process's
 * own address space; where there is no /proc, maxRSS is what there is.
 */
function ownPeakKb(): number {
  const hwm = process.platform === 'linux' ? /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync('/proc/self/status', 'utf8')) : null;
  return hwm ? Number(hwm[1]) : process.resourceUsage().maxRSS;
}

const file = process.env['WHET_BENCH_PROBE'];
if (file) {
  process.on('exit', () => {
    const r = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ cpu_ms: Math.round((r.userCPUTime + r.systemCPUTime) / 1000), max_rss_kb: ownPeakKb(), uptime_ms: Math.round(process.uptime() * 1000) }));
  });
}
