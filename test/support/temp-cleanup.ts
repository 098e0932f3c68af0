// vitest setupFiles entry: the folders a test file made with `tempDir` are removed when it ends, after its
// own afterAll hooks (hooks run as a stack: this one, registered first, runs last).
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp.js';

afterAll(removeTempDirs);
