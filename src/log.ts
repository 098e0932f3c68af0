// Diagnostic logs: JSON lines on stderr through pino, quiet by default (WHET_LOG_LEVEL=debug|info|warn).
// Results go to stdout and human progress lines to stderr; these logs are for digging into a run.
import pino from 'pino';

export const log = pino(
  { level: process.env.WHET_LOG_LEVEL ?? 'warn', base: undefined, timestamp: pino.stdTimeFunctions.isoTime },
  pino.destination({ dest: 2, sync: true }),
);
