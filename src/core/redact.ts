// The one redaction whetstone applies to what it records and prints about engines: credentials in URL
// userinfo (`http://user:KEY@host/v1` → `http://***@host/v1`) and argument values that look like keys
// (`sk-…`, the value after `--api-key`/`--token`/…, `NAME_KEY=…`). Engine identities and engine error
// messages are redacted where engines are built (engines/index.ts), so every artifact, run.json, results
// line and cache entry gets the redacted form; everything the CLI prints passes through `redactText` too.
// The engine itself still receives the real values: only the copies meant for people and files change.

export const REDACTED = '***';

/** scheme://userinfo@ — the userinfo part cannot hold `/`, `@` or whitespace. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@'"<>]+@/gi;
/** OpenAI- and Anthropic-style secret keys (`sk-…`, `sk-ant-…`), and GitHub tokens. */
const KEY_TOKEN = /\b(sk-(?:ant-)?|ghp_|gho_|github_pat_)[A-Za-z0-9_-]{6,}/g;
/** `--api-key=VALUE`, `--token VALUE` (one space), `-H "Authorization: Bearer VALUE"`. */
const FLAG_VALUE = /(--?(?:api[-_]?key|token|access[-_]?token|auth[-_]?token|secret|password|passwd)[= ])("[^"]*"|'[^']*'|[^\s"']+)/gi;
const BEARER = /\b(Authorization:\s*(?:Bearer|Basic))\s+[A-Za-z0-9._~+/=-]+/gi;
/** `OPENAI_API_KEY=VALUE`, `api_key=VALUE`: an assignment to a name that says it holds a secret. */
const SECRET_ASSIGNMENT = /\b([A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD)[A-Z0-9_]*=|(?:api[-_]?key|access[-_]?token|token|secret|password)=)([^\s"']+)/g;

/** A flag whose next argument is a secret value. */
const SECRET_FLAG = /^--?(?:api[-_]?key|token|access[-_]?token|auth[-_]?token|secret|password|passwd)$/i;

export function redactText(s: string): string {
  if (!s) return s;
  return s
    .replace(URL_USERINFO, `$1${REDACTED}@`)
    .replace(KEY_TOKEN, `$1${REDACTED}`)
    .replace(FLAG_VALUE, `$1${REDACTED}`)
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(SECRET_ASSIGNMENT, `$1${REDACTED}`);
}

/** argv with key-looking values redacted: the value after a secret flag as well as the patterns above. */
export function redactArgv(argv: readonly string[]): string[] {
  return argv.map((a, i) => (i > 0 && SECRET_FLAG.test(argv[i - 1] ?? '') ? REDACTED : redactText(a)));
}

/** Any JSON-like value with every string redacted; string arrays are treated as argv. */
export function redactDeep<T>(v: T): T {
  if (typeof v === 'string') return redactText(v) as T;
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x === 'string')) return redactArgv(v as string[]) as T;
    return v.map((x) => redactDeep(x)) as T;
  }
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = redactDeep(x);
    return out as T;
  }
  return v;
}
