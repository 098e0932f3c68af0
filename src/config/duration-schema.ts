// The config's zod field for a duration string ("90s", "15m"…), parsed by duration.ts.
import { z } from 'zod';
import { parseDuration } from './duration.js';

/** A zod field holding a duration string; parses to milliseconds. */
export const duration = z.string().transform((s, ctx) => {
  const ms = parseDuration(s);
  if (ms === undefined) {
    ctx.addIssue({ code: 'custom', message: `"${s}" is not a duration; write e.g. "500ms", "90s", "15m", "2h", "7d"` });
    return z.NEVER;
  }
  return ms;
});
