// The ConfigError a reader throws, for the tests that check its message (`file:line:col field: message`):
// anything else it throws is the test's failure as it is, and throwing nothing fails the test too.
import { ConfigError } from '../../src/core/errors.js';

export function errorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

