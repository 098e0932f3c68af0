#!/usr/bin/env python3
"""An external generate stage for whetstone, in Python with the standard library only.

whetstone runs it in place of the built-in generator when pipeline.yaml says

    stages:
      generate:
        command: [python3, examples/external-generator/generate.py]

and tells it everything through environment variables (docs/external-stages.md): the target skill
(WHET_TARGET_SKILL_FILE, WHET_TARGET_SHA256), the judged failures of the baseline's *train* tasks
(WHET_INPUT_TRAIN_FAILURES), the lessons of earlier runs (WHET_INPUT_LESSONS, when there are any), the
sha256 of every input (WHET_INPUTS) and where to write candidates.json (WHET_OUTPUT).

For each kind of request (task category) whose train tasks failed, it proposes one section of guidance,
written the way a person would write it for every request of that kind: a section of its own for the
topic, placed first, saying what each item means for the reader. It never copies what a judge checks
(expected strings, patterns, task ids): whether the guidance generalises is for the held-out tasks at the
gate to say. whetstone checks the file against `whet schemas` (candidates) and applies each candidate's
edit actions itself to build its variant folder, so the content hash and line counts written here must be
those of the actions applied to the target: append_section at the end of the document, reproduced below.
"""
import difflib
import hashlib
import json
import os
import re
import sys
from datetime import datetime, timezone


def env(name):
    value = os.environ.get(name)
    if value is None:
        sys.stderr.write(f"generate.py: {name} is not set; run me through whetstone (stages.generate.command)\n")
        sys.exit(2)
    return value


def sha256_text(text):
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def dominant_eol(text):
    crlf = text.count("\r\n")
    return "\r\n" if crlf > text.count("\n") - crlf else "\n"


def ends_with_blank_line(s):
    return s == "" or re.search(r"\n[ \t]*\r?\n$", s) is not None or re.fullmatch(r"[ \t]*\r?\n", s) is not None


def append_section(text, title, body):
    """What whetstone's append_section (no `after`) gives: a blank line, `## title`, a blank line, the body."""
    eol = dominant_eol(text)
    lines = body.replace("\r\n", "\n").split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    block = f"## {title}" + (eol + eol + eol.join(lines) if lines else "")
    pre = ""
    if text.lstrip("\ufeff"):
        if not text.endswith("\n"):
            pre += eol
        if not ends_with_blank_line(text + pre):
            pre += eol
    return text + pre + block + (eol if text.endswith("\n") or not text.lstrip("\ufeff") else "")


def diff_stats(old, new):
    added = removed = 0
    # Lines with their endings, as whetstone counts them: a last line that gains a newline is changed.
    matcher = difflib.SequenceMatcher(a=old.splitlines(True), b=new.splitlines(True), autojunk=False)
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op in ("replace", "delete"):
            removed += a2 - a1
        if op in ("replace", "insert"):
            added += b2 - b1
    return {"added": added, "removed": removed}


def headings(text):
    return {m.group(1).strip().lower() for m in re.finditer(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", text, re.M)}


def rejected_contents(lessons_file, target_dir):
    """Contents a person or the gate already rejected on this target: never proposed again."""
    out = set()
    if not lessons_file or not os.path.exists(lessons_file):
        return out
    with open(lessons_file, encoding="utf-8") as f:
        for line in f:
            try:
                lesson = json.loads(line)
            except ValueError:
                continue
            if lesson.get("decision") == "reject" and lesson.get("content_sha256"):
                if lesson.get("target") == target_dir:
                    out.add(lesson["content_sha256"])
    return out


def guidance(topic):
    """A rule for every request about `topic`, in the topic's own words."""
    return (
        f"When a request involves {topic}, give {topic} a section of its own, titled {topic[:1].upper() + topic[1:]}, "
        "ahead of the rest of the answer.\n"
        "For each item in it, say in plain words what it means for the reader and what they have to do about it, "
        "then go on with the usual sections."
    )


def main():
    skill_file = env("WHET_TARGET_SKILL_FILE")
    with open(skill_file, encoding="utf-8", newline="") as f:
        text = f.read()
    with open(env("WHET_INPUT_TRAIN_FAILURES"), encoding="utf-8") as f:
        failures = json.load(f)
    inputs = json.loads(env("WHET_INPUTS"))
    rejected = rejected_contents(os.environ.get("WHET_INPUT_LESSONS"), env("WHET_TARGET_DIR"))
    present = headings(text)

    by_category = {}
    for failure in failures:
        by_category.setdefault(failure["category"], []).append(failure["task_id"])

    candidates, skipped = [], []
    for category, task_ids in sorted(by_category.items()):
        topic = re.sub(r"[-_.]+", " ", category).strip()
        title = topic[:1].upper() + topic[1:]
        if title.lower() in present:
            skipped.append({"title": f"Guidance for {topic} requests", "proposer": "feedback", "why": f'the skill already has a section "{title}"'})
            continue
        body = guidance(topic)
        new_text = append_section(text, title, body)
        content = sha256_text(new_text)
        if content in rejected:
            skipped.append({"title": f"Guidance for {topic} requests", "proposer": "feedback", "why": "this content was rejected before on this target"})
            continue
        cid = "py-" + re.sub(r"[^a-z0-9]+", "-", topic.lower()).strip("-")
        candidates.append({
            "id": cid,
            "title": f"Guidance for {topic} requests",
            "category": "coverage",
            "risk": "low",
            "rationale": f"Train requests about {topic} failed; a section saying how to answer every such request, placed first, addresses the kind of request rather than one case.",
            "proposer": "feedback",
            "answers": {"kind": "train_failures", "tasks": task_ids, "detail": f"{len(task_ids)} train failure(s) in category {category}"},
            "actions": [{"type": "append_section", "heading": title, "body": body, "reason": f"no guidance for {topic} requests"}],
            "variant_path": f"variants/{cid}",
            "diff": "".join(difflib.unified_diff(text.splitlines(True), new_text.splitlines(True), "a/SKILL.md", "b/SKILL.md")),
            "diff_stats": diff_stats(text, new_text),
            "content_sha256": content,
        })

    now = datetime.now(timezone.utc)
    artifact = {
        "schema": env("WHET_OUTPUT_SCHEMA"),
        "stage": env("WHET_OUTPUT_STAGE"),
        "run_id": env("WHET_RUN_ID"),
        "iteration": int(env("WHET_ITERATION")),
        "created_at": now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z",
        "inputs": {name: entry["sha256"] for name, entry in inputs.items() if name in ("baseline.json", "target", "lessons")},
        "verdict": "proposed" if candidates else "none",
        "next_step": "discriminate",
        "next_owner": "discriminator",
        "target": {"path": env("WHET_TARGET_DIR"), "skill_file": skill_file, "sha256": env("WHET_TARGET_SHA256")},
        "candidates": candidates,
        "proposer_errors": [],
        "signals": {"train_failures": [f["task_id"] for f in failures], "weakest_dimensions": [], "lessons_considered": len(rejected)},
        "skipped": skipped,
        "engine_calls": 0,
        "cost_usd": 0,
    }
    with open(env("WHET_OUTPUT"), "w", encoding="utf-8") as f:
        json.dump(artifact, f, indent=2)
        f.write("\n")
    sys.stderr.write(f"generate.py: {len(candidates)} candidate(s), {len(skipped)} skipped\n")


if __name__ == "__main__":
    main()
