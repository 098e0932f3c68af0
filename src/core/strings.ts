// Strings that outlive what they were cut from or built by. A large suite keeps one task per line of its
// file and one tally per task for the whole run, so how each kept string is stored is most of a large
// evaluation's memory: a substring that pins its source, or the same text held once per task.

/**
 * A copy of `s` in a string of its own. V8 keeps a substring of 13 characters or more as a view into its
 * source (a sliced string), so one retained prompt kept the whole text it was parsed from alive; and a
 * view made of a concatenation (`' ' + s` then slice) is itself a view of a fresh copy, 32 bytes more per
 * string. Latin-1 (or, beyond it, UTF-16) bytes round-trip every JavaScript string exactly, lone
 * surrogates included, and the decoded string is a plain sequential one.
 */
export function detach(s: string): string {
  if (s.length < 13) return s;
  const encoding = ONE_BYTE.test(s) ? 'latin1' : 'utf16le';
  return Buffer.from(s, encoding).toString(encoding);
}

const ONE_BYTE = /^[\x00-\xff]*$/;

/**
 * Hands back one instance of each equal string it is given: a run builds the same judge reason for many
 * tasks ("contains: missing 1/1: …"), each its own copy of the same text, and the tallies keep them all.
 * Bounded — once `limit` distinct strings are held it starts again — so a run whose strings are all
 * different (free-text reasons) holds no more than the strings its tallies hold anyway; and meant to live
 * as long as those tallies, not the process, so nothing keeps a finished run's strings.
 */
export class StringPool {
  private readonly seen = new Map<string, string>();

  constructor(private readonly limit = 4096) {}

  intern(s: string): string {
    const known = this.seen.get(s);
    if (known !== undefined) return known;
    if (this.seen.size >= this.limit) this.seen.clear();
    this.seen.set(s, s);
    return s;
  }

  /** Distinct strings held now (what the bound applies to). */
  get size(): number {
    return this.seen.size;
  }
}
