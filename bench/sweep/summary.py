"""The figures of a sweep: per class and per report, model calls per turn, the directive
table, and the MISSED list — as JSON-ready data, as Markdown, and as terminal text.

Every figure is a count or a ratio of counts (rounded to four places), in a fixed order, so
the same code gives byte-identical output: no timestamps, no timings.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from typing import Any

from .cases import CLASSES, DESCRIPTIONS, Case
from .directives import Directive
from .generate import Generated
from .run import MODES, Checked, Turn

Json = dict[str, Any]


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _pct(rate: float | None) -> str:
    return "—" if rate is None else f"{rate * 100:.1f}%"


def _block(checked: Sequence[Checked], turns: Sequence[Turn]) -> Json:
    """Figures of one group of cases (a class, or a class within a report)."""
    n = len(checked)
    flagged = sum(c.flagged for c in checked)
    out: Json = {
        "n": n,
        "verifier_errors": sum(c.verdict is None for c in checked),
        "verifier_flagged": flagged,
        "verifier_rate": _rate(flagged, n),
        "pipeline": {},
    }
    for mode in MODES:
        mine = [t for t in turns if t.mode == mode]
        hidden = sum(t.hidden for t in mine)
        out["pipeline"][mode] = {
            "turns": len(mine),
            "errors": sum(t.result is None for t in mine),
            "not_posted": hidden,
            "rate": _rate(hidden, len(mine)),
        }
    return out


def figures(
    generated: Sequence[Generated],
    checked: Sequence[Checked],
    turns: Sequence[Turn],
    directives: Sequence[Directive],
    *,
    seed: int,
    examples: int,
    holdout: Sequence[Checked] = (),
    holdout_seeds: Sequence[int] = (),
) -> Json:
    """Every figure of a sweep. ``holdout``: verdicts on claims generated with other seeds
    (and not in the main set) — phrasings nobody has tuned the verifier against."""
    by_class: dict[str, list[Checked]] = {c: [] for c in CLASSES}
    turns_by_class: dict[str, list[Turn]] = {c: [] for c in CLASSES}
    for c in checked:
        by_class[c.case.cls].append(c)
    for t in turns:
        turns_by_class[t.case.cls].append(t)
    skipped = _reasons(g.skipped for g in generated)
    inapplicable = _reasons(g.not_applicable for g in generated)

    classes: Json = {}
    for cls, polarity in CLASSES.items():
        classes[cls] = {
            "polarity": polarity,
            "description": DESCRIPTIONS[cls],
            **_block(by_class[cls], turns_by_class[cls]),
            "skipped_as_true": sum(skipped.get(cls, {}).values()),
            "skipped_as_true_reasons": skipped.get(cls, {}),
            "not_applicable": sum(inapplicable.get(cls, {}).values()),
            "not_applicable_reasons": inapplicable.get(cls, {}),
        }

    per_report: Json = {}
    for g in generated:
        report_checked = [c for c in checked if c.case.slug == g.slug]
        report_turns = [t for t in turns if t.case.slug == g.slug]
        per_report[g.slug] = {
            cls: _block(
                [c for c in report_checked if c.case.cls == cls],
                [t for t in report_turns if t.case.cls == cls],
            )
            for cls in CLASSES
            if any(c.case.cls == cls for c in report_checked)
        }

    return {
        "seed": seed,
        "reports": [g.slug for g in generated],
        "totals": _totals(checked),
        "classes": classes,
        "per_report": per_report,
        "model_calls_per_turn": _calls(turns),
        "companions_withheld": {
            mode: sum(t.companion_lost for t in turns if t.mode == mode) for mode in MODES
        },
        "directives": [asdict(d) for d in directives],
        "missed": _missed(checked, turns, examples),
        "holdout": {
            "seeds": list(holdout_seeds),
            "classes": {
                cls: _holdout_block([c for c in holdout if c.case.cls == cls]) for cls in CLASSES
            },
            "missed": _missed(holdout, [], examples),
        },
    }


def _holdout_block(checked: Sequence[Checked]) -> Json:
    flagged = sum(c.flagged for c in checked)
    return {
        "n": len(checked),
        "verifier_flagged": flagged,
        "verifier_rate": _rate(flagged, len(checked)),
    }


def _reasons(counters: Iterable[Counter[tuple[str, str]]]) -> dict[str, dict[str, int]]:
    """Per class, reason → n, summed over reports, in sorted order."""
    total: Counter[tuple[str, str]] = Counter()
    for counter in counters:
        total.update(counter)
    out: dict[str, dict[str, int]] = {}
    for (cls, reason), n in sorted(total.items()):
        out.setdefault(cls, {})[reason] = n
    return out


def _totals(checked: Sequence[Checked]) -> Json:
    correct = [c for c in checked if c.case.polarity == "correct"]
    fabricated = [c for c in checked if c.case.polarity == "fabricated"]
    return {
        "cases": len(checked),
        "correct": len(correct),
        "fabricated": len(fabricated),
        "verifier_false_flag_rate": _rate(sum(c.flagged for c in correct), len(correct)),
        "verifier_catch_rate": _rate(sum(c.flagged for c in fabricated), len(fabricated)),
    }


def _calls(turns: Sequence[Turn]) -> Json:
    out: Json = {}
    for mode in MODES:
        mine = [t for t in turns if t.mode == mode and t.result is not None]
        clean = [t.calls for t in mine if t.case.polarity == "correct"]
        dirty = [t.calls for t in mine if t.case.polarity == "fabricated"]
        every = [t.calls for t in mine]
        out[mode] = {
            "turns": len(mine),
            "mean": round(statistics.fmean(every), 4) if every else None,
            "mean_correct_only": round(statistics.fmean(clean), 4) if clean else None,
            "mean_with_fabrication": round(statistics.fmean(dirty), 4) if dirty else None,
            "max": max(every, default=0),
            "judge_calls": sum(t.judge_calls for t in mine),
        }
    return out


def _example(case: Case, checked: Checked | None, turns: Sequence[Turn]) -> Json:
    out: Json = {
        "report": case.slug,
        "text": case.claim.text,
        "kind": case.claim.kind,
        "evidence": list(case.claim.evidence),
        "note": case.note,
    }
    if checked is not None:
        out["verifier"] = (
            {"error": checked.error}
            if checked.verdict is None
            else {
                "supported": checked.verdict.supported,
                "rung": checked.verdict.rung.value,
                "reasons": [str(r) for r in checked.verdict.reasons],
            }
        )
    if turns:
        out["posted_in"] = [t.mode for t in turns if t.result is not None and not t.hidden]
    return out


def _missed(checked: Sequence[Checked], turns: Sequence[Turn], examples: int) -> Json:
    """Per class: fabrications the verifier passed or the pipeline posted, and correct
    claims the verifier rejected or the pipeline withheld (up to ``examples`` each)."""
    turns_of: dict[str, list[Turn]] = {}
    for t in turns:
        turns_of.setdefault(t.case.ident, []).append(t)
    out: Json = {}
    for cls, polarity in CLASSES.items():
        bad = []
        for c in checked:
            if c.case.cls != cls:
                continue
            mine = turns_of.get(c.case.ident, [])
            if polarity == "fabricated":
                wrong = not c.flagged or any(t.result is not None and not t.hidden for t in mine)
            else:
                wrong = c.flagged or any(t.hidden for t in mine)
            if wrong or c.verdict is None:
                bad.append(_example(c.case, c, mine))
        if bad:
            out[cls] = {"count": len(bad), "examples": bad[:examples]}
    return out


# --- rendering -------------------------------------------------------------------------------


def _row(cls: str, block: Json, held: Json) -> str:
    auto, always = block["pipeline"]["auto"]["rate"], block["pipeline"]["always"]["rate"]
    return (
        f"| {cls} | {block['n']} | {_pct(block['verifier_rate'])} | {_pct(auto)} | "
        f"{_pct(always)} | {_pct(held['verifier_rate'])} ({held['n']}) | "
        f"{block['skipped_as_true']} | {block['description']} |"
    )


def markdown(data: Json) -> str:
    classes = data["classes"]
    held = data["holdout"]["classes"]
    seeds = ", ".join(str(x) for x in data["holdout"]["seeds"]) or "(none)"
    head = (
        "| class | n | verifier | pipeline auto | pipeline always | verifier, held-out (n) "
        "| skipped as true | what |\n|---|---:|---:|---:|---:|---:|---:|---|"
    )
    lines = [
        "# Fabrication sweep (bench/qa_sweep.py)",
        "",
        f"Reports: {', '.join(data['reports'])}. Seed {data['seed']}. "
        f"{data['totals']['cases']} claims ({data['totals']['fabricated']} fabricated, "
        f"{data['totals']['correct']} correct), each through the verifier and through the "
        'whole pipeline (scripted model; scripted judge that always says "supported").',
        "",
        "## Fabrications: catch rate (higher is better)",
        "",
        "Verifier: claim not supported. Pipeline: the claim's text is not in the rendered reply.",
        f"Held-out: verifier only, on claims generated with seeds {seeds} that the main "
        "seed does not generate (phrasings nobody tuned against).",
        "",
        head,
        *(_row(c, b, held[c]) for c, b in classes.items() if b["polarity"] == "fabricated"),
        "",
        "## Correct claims: false-flag rate (lower is better)",
        "",
        "Verifier: claim rejected. Pipeline: the claim's text is not in the rendered reply.",
        "",
        head,
        *(_row(c, b, held[c]) for c, b in classes.items() if b["polarity"] == "correct"),
        "",
        "## Model calls per turn",
        "",
        "| judge mode | turns | mean | correct-only answers | with a fabrication | max "
        "| judge calls |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for mode, c in data["model_calls_per_turn"].items():
        lines.append(
            f"| {mode} | {c['turns']} | {c['mean']} | {c['mean_correct_only']} | "
            f"{c['mean_with_fabrication']} | {c['max']} | {c['judge_calls']} |"
        )
    lost = data["companions_withheld"]
    lines += [
        "",
        "Correct companion claims withheld alongside a fabrication: "
        + ", ".join(f"{m} {n}" for m, n in lost.items()),
        "",
        "## Directive compliance (computed)",
        "",
        "| directive | pass | evidence |",
        "|---|---|---|",
        *(
            f"| {d['id']} {d['title']} | {'PASS' if d['passed'] else 'FAIL'} | "
            f"{d['evidence'].replace('|', '/')} |"
            for d in data["directives"]
        ),
        "",
        "## Per report",
        "",
        "Verifier rate (catch rate for fabrications, false-flag rate for correct claims) and n;",
        "the pipeline rates per report are in qa_sweep.json.",
        "",
        *per_report_table(data),
        "",
        "## MISSED",
        "",
        *missed_lines(data["missed"], data),
        "",
        f"## MISSED on held-out seeds ({seeds}, verifier only)",
        "",
        *missed_lines(data["holdout"]["missed"], data),
    ]
    return "\n".join(lines) + "\n"


def per_report_table(data: Json) -> list[str]:
    slugs = list(data["per_report"])
    lines = ["| class | " + " | ".join(slugs) + " |", "|---|" + "---:|" * len(slugs)]
    for cls in data["classes"]:
        cells = []
        for slug in slugs:
            b = data["per_report"][slug].get(cls)
            cells.append(f"{_pct(b['verifier_rate'])} ({b['n']})" if b else "—")
        lines.append(f"| {cls} | " + " | ".join(cells) + " |")
    return lines


def missed_lines(missed: Json, data: Json) -> list[str]:
    if not missed:
        return ["Nothing missed: every fabrication caught, no correct claim flagged."]
    lines = []
    for cls, entry in missed.items():
        polarity = data["classes"][cls]["polarity"]
        what = "missed fabrications" if polarity == "fabricated" else "false flags"
        lines.append(f"- **{cls}** — {entry['count']} {what}:")
        for ex in entry["examples"]:
            verdict = ex.get("verifier", {})
            why = verdict.get("error") or "; ".join(verdict.get("reasons", [])) or "supported"
            posted = ""
            if "posted_in" in ex:
                posted = f"; posted in: {','.join(ex['posted_in']) or 'none'}"
            lines.append(
                f"    - [{ex['report']}] {ex['kind']} {ex['text']!r} cites "
                f"{ex['evidence']} ({ex['note'] or 'no note'}) → verifier: {why}{posted}"
            )
    return lines


def terminal(data: Json) -> str:
    """What the script prints: the Markdown tables and the MISSED list."""
    return markdown(data)
