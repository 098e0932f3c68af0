// The real-duration tests (a two-minute run, kills at 5/35/75 s, crash trials) mostly wait on a slow
// engine. Started first, in a worker of their own, they overlap the rest of the suite instead of
// adding their length to it; every other file keeps vitest's own order.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LONG = /real-durations\.test\.ts$/;

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter((f) => LONG.test(f.moduleId)), ...sorted.filter((f) => !LONG.test(f.moduleId))];
  }
}
