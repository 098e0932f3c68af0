// Which build of whetstone this is, for what it keeps on disk whose meaning depends on its own code (the
// checked copy of a suite, src/config/suite-copy.ts): a copy written by another build is not trusted.
// The bundle (scripts/bundle-options.ts) writes here a hash of every compiled module and the lockfile, so
// a rebuild after any change of code gets a new id; version numbers alone would not change between two
// development builds. Code run unbundled (tests, `node dist/src/...`) has no id, and keeps no such copy.
export const BUILD_ID: string | undefined = undefined;
