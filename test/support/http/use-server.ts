// One loopback server (server.ts) for a whole test file: started before its first test, closed after its
// last, its recorded requests cleared before each test so a test reads only its own. What every HTTP engine
// test file set up by hand (beforeAll, afterAll, beforeEach) before.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startLoopbackServer, type Handler, type LoopbackServer } from './server.js';

export function useLoopbackServer(handler?: Handler): LoopbackServer {
  let server: LoopbackServer | undefined;
  const live = (): LoopbackServer => {
    if (!server) throw new Error('the loopback server starts before the first test: use it inside a test or hook');
    return server;
  };
  beforeAll(async () => {
    server = await startLoopbackServer(handler);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    if (server) server.requests.length = 0;
  });
  return {
    get url() {
      return live().url;
    },
    get requests() {
      return live().requests;
    },
    maxInFlight: () => live().maxInFlight(),
    handle: (h) => live().handle(h),
    script: (...replies) => live().script(...replies),
    close: () => live().close(),
  };
}
