// Module hooks for module-log.mjs: run on the loader thread, so they write to the log file directly.
import { appendFileSync } from 'node:fs';

let file;
export function initialize(data) {
  file = data?.file;
}

export async function load(url, context, next) {
  if (file && url.startsWith('file:')) appendFileSync(file, `${url}\n`);
  return next(url, context);
}
