// A loopback npm registry built from the project's lockfile, so `npm install -g <tarball>` — what
// docs/getting-started/first-run.md tells a user to type — runs offline in a test. `npm install -g`
// resolves the tarball's dependency ranges against registry metadata (packuments), which npm's cache does
// not hold after `npm ci` (that installs from the lockfile alone). This server answers those requests with
// the lockfile's runtime entries only — the versions the project tests — and every tarball URL points back
// at it and is answered 404: npm takes each tarball from its cache by the integrity the packument states
// (what `npm ci` just filled), so a package missing from the cache fails the install instead of reaching
// out.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface LockEntry {
  version?: string;
  integrity?: string;
  dev?: boolean;
  link?: boolean;
  [key: string]: unknown;
}

/** The fields of a lockfile entry npm's resolver reads from a packument's version. */
const CARRIED = ['dependencies', 'optionalDependencies', 'peerDependencies', 'peerDependenciesMeta', 'bin', 'engines', 'os', 'cpu'];

export interface LoopbackRegistry {
  url: string;
  /** Names npm asked for that the lockfile has no runtime entry for (a failing install says which). */
  missing: string[];
  close(): Promise<void>;
}

export async function startLockfileRegistry(lock: { packages: Record<string, LockEntry> }): Promise<LoopbackRegistry> {
  const versions = new Map<string, Map<string, Record<string, unknown>>>();
  let base = '';
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key.includes('node_modules/') || entry.dev || entry.link || !entry.version || !entry.integrity) continue;
    const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const byVersion = versions.get(name) ?? new Map<string, Record<string, unknown>>();
    const manifest: Record<string, unknown> = { name, version: entry.version };
    for (const field of CARRIED) if (entry[field] !== undefined) manifest[field] = entry[field];
    manifest['dist'] = { integrity: entry.integrity, tarball: `/-/${encodeURIComponent(name)}-${entry.version}.tgz` };
    byVersion.set(entry.version, manifest);
    versions.set(name, byVersion);
  }
  const missing: string[] = [];
  const server: Server = createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1).split('?')[0]!);
    const found = versions.get(name);
    if (!found || name.startsWith('-/')) {
      if (!name.startsWith('-/')) missing.push(name);
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    const all = Object.fromEntries([...found].map(([v, m]) => [v, { ...m, dist: { ...(m['dist'] as object), tarball: `${base}${(m['dist'] as { tarball: string }).tarball}` } }]));
    const latest = [...found.keys()].sort(compareVersions).at(-1)!;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name, 'dist-tags': { latest }, versions: all }));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/`,
    missing,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((x) => Number(x));
  const pb = b.split(/[.-]/).map((x) => Number(x));
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}
