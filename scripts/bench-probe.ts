// Loaded with `node --import` into every process the bench measures (whet commands and the bare `node -e 0`
// reference alike): at exit it writes the process's own CPU time, peak RSS and uptime to the file named by
// WHET_BENCH_PROBE (the peak RSS of its own address space: src/core/peak-rss.ts). An exit hook sees commands that end through process.exit too (commander's --version
// and --help), which a figure written by the command itself would miss.
import { writeFileSync } from 'node:fs';
import { peakRssKb } from '../src/core/peak-rss.js';

const file = process.env['WHET_BENCH_PROBE'];
if (file) {
  process.on('exit', () => {
    const r = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ cpu_ms: Math.round((r.userCPUTime + r.systemCPUTime) / 1000), max_rss_kb: peakRssKb(), uptime_ms: Math.round(process.uptime() * 1000) }));
  });
}

export {};
