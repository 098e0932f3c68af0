// Durations are written as strings ("500ms", "90s", "15m", "2h", "7d") and parsed once, here (the
// config's zod field for them is duration-schema.ts, so printing a duration loads no zod).

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const PATTERN = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)\s*$/;

/** Milliseconds in a duration string, or undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const m = PATTERN.exec(text);
  if (!m) return undefined;
  return Math.round(Number(m[1]) * UNITS[m[2]!]!);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)}m`;
  if (ms < 172_800_000) return `${(ms / 3_600_000).toFixed(1)}h`;
  return `${(ms / 86_400_000).toFixed(1)}d`;
}
