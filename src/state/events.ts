// events.jsonl: an append-only diary of a run (stage started / finished / failed, with timings), for
// `whet status` and for people reading a run after the fact. Each line is checked against a schema on
// write, like every other artifact: the fields readers rely on (`at`, `event`, and `stage` / `iteration`
// when present) always have their types; anything else a stage wants to say rides along.
import { mkdirSync } from 'node:fs';
import { appendAtomically } from '../core/atomic.js';
import { z } from 'zod';
import { InternalError } from '../core/errors.js';
import { stateLayout } from './layout.js';
import { ONCE } from '../core/parse-once.js';

export const runEventSchema = z.looseObject({
  at: z.iso.datetime(),
  event: z.string().regex(/^[a-z][a-z0-9_]*$/, 'an event name is snake_case'),
  stage: z.string().min(1).optional(),
  iteration: z.number().int().min(0).optional(),
});

export interface RunEvent {
  event: string;
  stage?: string;
  iteration?: number;
  [key: string]: unknown;
}

export function appendEvent(runDir: string, ev: RunEvent, now: Date = new Date()): void {
  const line = { at: now.toISOString(), ...ev };
  const checked = runEventSchema.safeParse(line, ONCE);
  if (!checked.success) throw new InternalError(`event ${JSON.stringify(ev.event)} does not match its schema: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  mkdirSync(runDir, { recursive: true });
  appendAtomically(stateLayout.events(runDir), `${JSON.stringify(line)}\n`);
}
