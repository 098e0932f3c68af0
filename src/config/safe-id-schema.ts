// The zod forms of safe-id.ts's rules, for every schema that reads an id, an iteration or a path from a
// suite or an artifact. Apart from safe-id.ts so that checking a command-line id loads no zod.
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { isSafeId, MAX_ITERATION, SAFE_ID, shownId, unsafeIdProblem } from './safe-id.js';

/** The zod form, for every schema that reads an id (suites, rankings, artifacts). */
// A regex check (so `whet schemas` still publishes the pattern) whose message says what is wrong with this id.
export const safeId = z.string().regex(SAFE_ID, { error: (iss) => unsafeIdProblem(String(iss.input)) ?? 'must be a safe file name' });

/** An iteration number that names an iter-NNN folder. */
export const safeIteration = z.number().int().min(0).max(MAX_ITERATION);

/**
 * A path inside the folder it is relative to (an iteration's `variants/<id>`): relative, every segment a
 * safe id. whetstone's own artifacts only hold such paths; one pointing elsewhere was edited by hand.
 */
export const innerPath = z.string().refine((v) => v.split('/').every((seg) => isSafeId(seg)), {
  error: (iss) => `must be a path inside its folder (safe names joined by "/"), not ${shownId(String(iss.input))}`,
});

/** A relative path that cannot leave the folder it is joined to (any file name, but no "..", no root). */
export const relativeInside = z.string().refine((v) => v.length > 0 && !v.includes('\0') && !isAbsolute(v) && !/^[A-Za-z]:/.test(v) && v.split(/[/\\]/).every((seg) => seg !== '..' && seg !== ''), {
  error: (iss) => `must be a relative path inside its folder, not ${shownId(String(iss.input))}`,
});
