// The suite's start order (test/support/sequencer.ts): a file that declares it lasts long starts first.
import { describe, expect, it } from 'vitest';
import { declaredSeconds } from '../support/sequencer.js';

describe('declaredSeconds', () => {
  it('reads the mark and its figure from the opening comments only', () => {
    expect(declaredSeconds('// A test.\n// long-running: waits on real lock timers, ≈ 140 s\nimport x from "y";\n')).toBe(140);
    expect(declaredSeconds('// long-running: spawns many CLIs\n\nimport x from "y";\n')).toBe(1);
    expect(declaredSeconds('// A test.\nimport x from "y";\n// long-running: ≈ 90 s\n')).toBe(0);
    expect(declaredSeconds('import x from "y";\n')).toBe(0);
  });
});
