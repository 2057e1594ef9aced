#!/usr/bin/env python3
"""Resolve every field path cited in claims.jsonl, questions.jsonl and rep-questions.jsonl.

Path syntax (the report-styles README's): dotted keys, ``[i]`` for list items and
``["..."]`` for a key that is not a plain identifier (a space, punctuation, a leading
digit), also at the top level (``["key dates"][0]``). ``expect`` entries may join
alternatives with ``|``; ``expect: "absent"`` has no paths. Also checks the line format,
the kinds, and (for questions) that ``bind: false`` questions carry a context-free
misspelt company name only as text (not checked) and that absent cases have no expect.

Usage: python3 check_paths.py   (exit 1 on any problem)
"""

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPORT_DIRS = [HERE / "reports", HERE.parents[2] / "reports"]
TOKEN = re.compile(r'\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]')


def parse(path: str) -> list:
    out, pos = [], 0
    while pos < len(path):
        m = TOKEN.match(path, pos)
        if not m or (pos == 0 and m.group(0).startswith(".")):
            raise ValueError(f"bad path syntax at {pos}: {path!r}")
        if m.group(1) is not None:
            out.append(m.group(1))
        elif m.group(2) is not None:
            out.append(int(m.group(2)))
        else:
            out.append(json.loads('"' + m.group(3) + '"'))
        pos = m.end()
    return out


def resolve(doc, path: str):
    node = doc
    for part in parse(path):
        if isinstance(part, int):
            if not isinstance(node, list) or part >= len(node):
                raise KeyError(f"{path}: no item [{part}]")
            node = node[part]
        else:
            if not isinstance(node, dict) or part not in node:
                raise KeyError(f"{path}: no key {part!r}")
            if not part.isidentifier() and f'["{part}"]' not in path:
                raise KeyError(f'{path}: key {part!r} needs ["…"] quoting')
            node = node[part]
    return node


def load_reports() -> dict:
    reports = {}
    for d in REPORT_DIRS:
        for f in sorted(d.glob("*/audit-data.json")):
            reports[f.parent.name] = json.loads(f.read_text())
    return reports


def main() -> int:
    reports = load_reports()
    problems, checked = [], 0
    files = {
        "claims.jsonl": ("claim",),
        "questions.jsonl": ("question",),
        "rep-questions.jsonl": ("question",),
    }
    for name in files:
        f = HERE / name
        if not f.exists():
            problems.append(f"{name}: missing")
            continue
        for n, line in enumerate(f.read_text().splitlines(), 1):
            if not line.strip():
                continue
            rec = json.loads(line)
            doc = reports.get(rec["report"])
            if doc is None:
                problems.append(f"{name}:{n}: unknown report {rec['report']}")
                continue
            paths = []
            if name == "claims.jsonl":
                c = rec["claim"]
                if c["kind"] not in ("fact", "coaching", "absent"):
                    problems.append(f"{name}:{n}: kind {c['kind']}")
                if c["kind"] == "absent" and c["evidence"]:
                    problems.append(f"{name}:{n}: absent claim with evidence")
                if c["kind"] != "absent" and not c["evidence"]:
                    problems.append(f"{name}:{n}: no evidence")
                if c["kind"] == "absent" and not rec["ok"]:
                    problems.append(f"{name}:{n}: absent claims are ok by design")
                paths = list(c["evidence"])
            else:
                exp = rec["expect"]
                if rec["kind"] == "absent" and exp != "absent":
                    problems.append(f"{name}:{n}: absent kind with expect {exp}")
                if exp != "absent":
                    for e in exp:
                        paths += e.split("|")
                paths += rec.get("related", [])
            for p in paths:
                checked += 1
                try:
                    resolve(doc, p)
                except (KeyError, ValueError) as e:
                    problems.append(f"{name}:{n}: {e}")
    for p in problems:
        print(p)
    print(f"checked {checked} paths; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
