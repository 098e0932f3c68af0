// zod compiles a fast parser (`new Function`) for each object schema the first time it parses with it: worth
// it for the 10,000 tasks of a suite, not for a value parsed once per process — a config, a run manifest, an
// event line, an artifact's envelope — where building and warming that code cost more than the parse
// itself (an evaluation artifact's envelope in a fresh process: ≈ 6 ms compiled, ≈ 2.5 ms without). zod's
// own parse option for that is `jitless`; these one-time parses pass it. (No zod import: this module is on
// the start-up path of commands that load no zod.)
export const ONCE = { jitless: true } as const;
