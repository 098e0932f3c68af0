// events.jsonl: an append-only diary of a run (stage started / finished / failed, with timings), for
// `whet status` and for people reading a run after the fact.
import { appendFileSync, mkdirSync } from 'node:fs';
import { stateLayout } from './layout.js';

export interface RunEvent {
  event: string;
  stage?: string;
  iteration?: number;
  [key: string]: unknown;
}

export function appendEvent(runDir: string, ev: RunEvent, now: Date = new Date()): void {
  mkdirSync(runDir, { recursive: true });
  appendFileSync(stateLayout.events(runDir), `${JSON.stringify({ at: now.toISOString(), ...ev })}\n`);
}
