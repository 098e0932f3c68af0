// The sample project `whet stage check` runs a stage program on: a copy, trimmed to eight tasks, of the
// release-notes example (examples/release-notes, which the package does not ship). On the mock engine its
// baseline fails train tasks of two categories, so a generator has failures to answer, and the built-in
// stages select, evaluate and gate a candidate, so every later stage has real inputs to read.
export const SAMPLE_SKILL = `---
name: sample-release-notes
description: Turns a list of merged commits into user-facing release notes grouped by kind of change. Use when preparing a release, a changelog entry or a version announcement.
---

# Release notes

Write release notes that a user of the product can read in one minute.

## When to use

- Preparing release notes, a changelog entry or a version announcement from commits or merged pull requests.

## When not to use

- Writing commit messages or reviewing code: this skill only summarises what already shipped.

## Steps

1. Group the commits by kind: Features for feat commits, Bug fixes for fix commits, Other changes for the rest.
2. Rewrite each commit subject in plain language for users; leave out internal refactors users cannot see.
3. Title the notes with the version number and the release date, for example "## v2.4.0 (2026-11-30)".
4. End each item with its short commit hash in parentheses, for example "(a1b2c3d)".

## Output format

A Markdown heading with the version, then one section per group, each a bulleted list.
`;

export const SAMPLE_SUITE = `skill_id: sample-release-notes
version: "1.0"
description: The sample suite whet stage check runs a stage program on
grid:
  intent: [write-notes, review-notes, out-of-scope]
  complexity: [simple, tricky]

tasks:
  - id: rn-group-01
    category: grouping
    split: train
    cell: {intent: write-notes, complexity: simple}
    description: Commits are grouped into Features and Bug fixes
    prompt: |
      Write the release notes for these commits:
      - feat: dark mode for the dashboard
      - fix: crash when the login token expires
    judge: {type: contains, expected: ["Features", "Bug fixes"]}
    timeout_seconds: 60

  - id: rn-group-02
    category: grouping
    split: holdout
    cell: {intent: write-notes, complexity: tricky}
    description: Refactors that users cannot see are left out
    prompt: |
      Turn these merged commits into release notes: feat: CSV export; refactor: split the
      exporter module; fix: wrong totals in the monthly report.
    judges:
      - {type: contains, expected: ["Features", "Bug fixes"]}
      - {type: not_contains, expected: ["exporter module"]}

  - id: rn-breaking-01
    category: breaking-changes
    split: train
    cell: {intent: write-notes, complexity: tricky}
    description: A removed API is announced as a breaking change with its migration
    prompt: |
      Write the release notes. One commit is a breaking change:
      - feat!: remove the v1 API (use /v2 instead)
      - fix: typo in the settings page
    judge: {type: contains, expected: ["Breaking changes", "migration"]}

  - id: rn-breaking-02
    category: breaking-changes
    split: holdout
    cell: {intent: review-notes, complexity: tricky}
    description: Reviewing draft notes, a hidden breaking change must be called out
    prompt: |
      Review these draft release notes. The config key \`retries\` was renamed to \`max_retries\`,
      which breaks existing configs, but the draft lists it under Other changes.
    judge: {type: contains, expected: ["Breaking changes"]}

  - id: rn-security-01
    category: security
    split: train
    cell: {intent: write-notes, complexity: tricky}
    description: A security fix is listed under its own heading with its advisory id
    prompt: |
      Write the release notes. Commits: fix(security): escape HTML in comments (CVE-2026-1234);
      feat: emoji reactions.
    judge: {type: contains, expected: ["Security"]}

  - id: rn-plain-01
    category: language
    split: holdout
    cell: {intent: write-notes, complexity: simple}
    description: Items are rewritten in plain language for users
    prompt: 'Rewrite this commit subject for users in plain language: "fix(api): nil deref in ctx propagation".'
    judge: {type: contains, expected: ["plain language"]}

  - id: rn-scope-01
    category: scope
    split: holdout
    negative: true
    cell: {intent: out-of-scope, complexity: simple}
    description: Negative control - a commit message is not release notes
    prompt: Write a commit message for my change to the login form.
    judges:
      - {type: contains, expected: ["only summarises what already shipped"]}
      - {type: not_contains, expected: ["## v"]}

  - id: rn-scope-02
    category: scope
    split: train
    negative: true
    cell: {intent: out-of-scope, complexity: tricky}
    description: Negative control - code review is out of scope
    prompt: Please review the code in this pull request for bugs.
    judge: {type: not_contains, expected: ["Features for feat commits"]}
`;

export const SAMPLE_PIPELINE = `# whet stage check: the sample project (mock engine, one iteration)
state_dir: state
engine: {type: mock}
targets: [{skill: sample-release-notes, suite: sample-release-notes/tasks.yaml}]
loop: {max_iterations: 1, plateau_window: 1, candidates_per_iteration: 3, proposers: [feedback, structural]}
thresholds: {min_delta: 0, max_new_failures: 0}
evaluate: {concurrency: 2}
`;
