// What the bench's loopback servers share: listening on 127.0.0.1 only (an ephemeral port), closing with
// every keep-alive socket, and knowing whether the script was started as a program (to print its URL).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Listens on 127.0.0.1 and returns the server's base URL and a close that ends open connections too. */
export async function listenLoopback(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Whether the module at `moduleUrl` is the program node was started with. */
export function startedAsProgram(moduleUrl: string): boolean {
  try {
    return realpathSync(process.argv[1] ?? '') === fileURLToPath(moduleUrl);
  } catch {
    return false;
  }
}
