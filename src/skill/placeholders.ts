// Template holes left in a skill's text: a structural template that still says `[a realistic request]`
// is a form to fill in, not guidance. The generator counts them when it writes templates and the
// discriminator when it scores candidates, so both agree on what a hole is.

/** `[a realistic request]`-style template holes; markdown links ([t](u), [t][r], [r]: u) are not holes. */
export function countPlaceholders(text: string): number {
  return [...text.matchAll(/\[[^\]\n]{3,}\](?![(\[:])/g)].length;
}
