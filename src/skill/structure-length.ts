// Two dimensions about the file as a whole: it is short enough to load every time the skill triggers, and no
// code fence is left open (an open fence silently turns every later heading and instruction into code).
import { bodyLines, MAX_BODY_LINES, type Check } from './structure-common.js';
import { shorteningFixes } from './structure-shorten.js';

export const bodyLength: Check = {
  id: 'body_length',
  measure(doc) {
    const n = bodyLines(doc).length;
    if (n <= MAX_BODY_LINES) return { score: 1, finding: `body is ${n} lines (guidance: under ${MAX_BODY_LINES})` };
    return {
      score: Math.max(0, 1 - (n - MAX_BODY_LINES) / MAX_BODY_LINES),
      finding: `body is ${n} lines, over the ${MAX_BODY_LINES}-line guidance: move detail into references/ files and point to them`,
    };
  },
  fixes(doc) {
    const excess = bodyLines(doc).length - MAX_BODY_LINES;
    return excess > 0 ? shorteningFixes(doc, excess) : [];
  },
};

export const fencesClosed: Check = {
  id: 'fences_closed',
  measure(doc) {
    const open = doc.unclosedFence;
    if (!open) return { score: 1, finding: `${doc.codeBlocks.length} code fence(s), all closed` };
    return { score: 0, finding: `the code fence ${open.marker} opened at line ${open.line} is never closed, so everything after it reads as code` };
  },
  fixes(doc) {
    const open = doc.unclosedFence;
    if (!open) return [];
    return [{ type: 'append_text', text: open.marker[0]!.repeat(open.marker.length), reason: 'close the code fence left open' }];
  },
};
