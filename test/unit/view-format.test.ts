// One number format for the CLI and `whet view` (issue 41): the page's formatter (assets/view/format.js, a
// plain script) loaded as the browser loads it, and held to the CLI's own functions (src/measure/print.ts)
// on the same rates — "0.5000 [0.19, 0.81]" in both, never "50.0% [18.8%, 81.2%]" in one of them.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { rateInterval, rateNumber } from '../../src/measure/print.js';
import { wilson } from '../../src/stats/wilson.js';
import { ciWords } from '../../src/measure/verdict.js';

type Fmt = { f4: (x: number | null) => string; interval: (c: { low: number; high: number } | null) => string; rate: (r: unknown) => string };
const sandbox: { whetFormat?: Fmt } = {};
runInNewContext(readFileSync(join(import.meta.dirname, '../../assets/view/format.js'), 'utf8'), sandbox);
const page = sandbox.whetFormat!;

describe('the viewer words numbers as the CLI does', () => {
  it('a rate and its interval: the same text for every count of passes out of 0..12', () => {
    let compared = 0;
    for (let n = 0; n <= 12; n++) {
      for (let k = 0; k <= n; k++) {
        const ci = n ? wilson(k, n) : null;
        const r = { pass_rate: n ? k / n : null, pass_rate_ci95: ci, passed: k, failed: n - k, errors: 0, judged: n } as never;
        expect(page.f4(n ? k / n : null)).toBe(rateNumber(n ? k / n : null));
        expect(page.interval(ci)).toBe(rateInterval(r));
        // The text the page shows is the CLI's number, then its interval as the gate's lines word it.
        expect(page.rate(r)).toBe(n ? `${rateNumber(k / n)}${ciWords(ci)}` : '—');
        compared++;
      }
    }
    expect(compared).toBe(91);
    expect(page.rate({ pass_rate: 0.5, pass_rate_ci95: wilson(5, 10) })).toBe('0.5000 [0.24, 0.76]');
  });
});
