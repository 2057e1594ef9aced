#!/usr/bin/env python3
"""Resolve every path cited in a blind set's claims.jsonl, questions.jsonl and
rep-questions.jsonl: ``python3 bench/corpora/check_paths.py bench/corpora/table-styles``.

Paths: dotted identifiers, [i] list indexes, ["..."] keys that are not plain identifiers.
An `a|b` entry must resolve in every alternative. Exits 1 on any miss or format error.
"""

import json
import re
import sys
from pathlib import Path

HERE = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path.cwd()
SAMPLE_REPORTS = Path(__file__).resolve().parents[2] / "reports"  # the sample reports
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def parse(path):
    toks, i, n = [], 0, len(path)
    while i < n:
        c = path[i]
        if c == ".":
            if i == 0 or i == n - 1:
                raise ValueError("stray dot")
            i += 1
            continue
        if c == "[":
            if path.startswith('["', i):
                j = path.find('"]', i + 2)
                if j < 0:
                    raise ValueError('unclosed ["')
                toks.append(json.loads('"' + path[i + 2 : j] + '"'))
                i = j + 2
            else:
                j = path.find("]", i)
                if j < 0:
                    raise ValueError("unclosed [")
                toks.append(int(path[i + 1 : j]))
                i = j + 1
            continue
        m = IDENT.match(path, i)
        if not m:
            raise ValueError(f"bad char {c!r} at {i}")
        toks.append(m.group(0))
        i = m.end()
    return toks


def resolve(doc, path):
    cur = doc
    for t in parse(path):
        if isinstance(t, int):
            if not isinstance(cur, list) or t >= len(cur):
                raise KeyError(t)
        elif not isinstance(cur, dict) or t not in cur:
            raise KeyError(t)
        cur = cur[t]
    return cur


def load(p):
    return [json.loads(line) for line in Path(p).read_text().splitlines() if line.strip()]


def main():
    errors, n = [], 0
    reports = {}
    for d in (HERE / "reports").iterdir():
        reports[d.name] = json.loads((d / "audit-data.json").read_text())
    samples = {
        d.name: json.loads((d / "audit-data.json").read_text()) for d in SAMPLE_REPORTS.iterdir()
    }
    for slug, doc in reports.items():
        for k in ("name", "aliases", "domain"):
            assert k in doc["company"], (slug, k)
        assert isinstance(doc["company"]["aliases"], list)
        for k in ("id", "generated_at"):
            assert k in doc["report"], (slug, k)

    def check(where, docs, slug, path):
        nonlocal n
        if slug not in docs:
            errors.append(f"{where}: unknown report {slug}")
            return
        for alt in path.split("|"):
            n += 1
            try:
                resolve(docs[slug], alt)
            except Exception as e:
                errors.append(
                    f"{where}: {slug}: {alt!r} does not resolve ({type(e).__name__}: {e})"
                )

    claim_keys = {"report", "claim", "ok", "class", "style", "note"}
    for i, c in enumerate(load(HERE / "claims.jsonl"), 1):
        w = f"claims.jsonl:{i}"
        if set(c) != claim_keys or set(c["claim"]) != {"text", "kind", "evidence"}:
            errors.append(f"{w}: keys {sorted(c)}")
        if c["claim"]["kind"] not in ("fact", "coaching", "absent"):
            errors.append(f"{w}: kind {c['claim']['kind']}")
        if c["claim"]["kind"] == "absent" and c["claim"]["evidence"]:
            errors.append(f"{w}: absent claim with evidence")
        if c["claim"]["kind"] != "absent" and not c["claim"]["evidence"]:
            errors.append(f"{w}: no evidence")
        for p in c["claim"]["evidence"]:
            check(w, reports, c["report"], p)

    q_keys = {"report", "style", "question", "bind", "context", "expect", "related", "kind"}
    for fname, docs, keys in (
        ("questions.jsonl", reports, q_keys),
        ("rep-questions.jsonl", samples, q_keys - {"style"}),
    ):
        for i, q in enumerate(load(HERE / fname), 1):
            w = f"{fname}:{i}"
            if set(q) != keys:
                errors.append(f"{w}: keys {sorted(q)}")
            if q["expect"] in (["absent"], "absent"):  # "absent", as the scorers read it
                if q["kind"] not in ("absent", "competitor"):
                    errors.append(f"{w}: absent expect on kind {q['kind']}")
            else:
                for p in q["expect"]:
                    check(w, docs, q["report"], p)
            for p in q["related"]:
                check(w, docs, q["report"], p)
            if q["kind"] == "followup" and not q["context"]:
                errors.append(f"{w}: followup without context")
            if q["kind"] == "typo" and q["bind"]:
                errors.append(f"{w}: typo should be bind false")
    if errors:
        print("\n".join(errors))
        print(f"FAIL: {len(errors)} problem(s) over {n} path checks")
        sys.exit(1)
    print(f"OK: {n} path checks resolved; no format problems")


if __name__ == "__main__":
    main()
