"""The fabrication sweep's own regression test: its generators on one report, fast.

The sweep (``bench/qa_sweep.py``) is the product's scoreboard; this pins the scoreboard
itself: the cases it generates are well formed, deterministic and cover every class, the
ones it generates as correct really state the report's values, the core fabrication classes
are all caught by the verifier, nothing fabricated survives a turn of the pipeline with a
judge that says "supported" to everything, and the figures and directive table come out in
the shape the results files promise.
"""

from __future__ import annotations

import random
import sys
from decimal import Decimal
from functools import cache
from pathlib import Path

import pytest

from prism_slack.llm.playbook import load_playbook
from prism_slack.reports.model import Report
from prism_slack.reports.store import FileReportStore

BENCH = Path(__file__).resolve().parent.parent / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from sweep.cases import (  # noqa: E402 — the bench directory is put on the path just above
    CLASSES,
    CORRECT_CLASSES,
    FABRICATED_CLASSES,
    Case,
    contains_name,
)
from sweep.directives import (  # noqa: E402
    bench_scripts,
    d1_no_model_in_verifier,
    d2_pointer_claims,
    d5_deterministic,
    pipeline_directives,
    pytest_summary,
)
from sweep.generate import Generated, dangling_paths, generate  # noqa: E402
from sweep.numfmt import Form, change_digit, write, write_mantissa  # noqa: E402
from sweep.run import Checked, Companions, run_pipeline, verify_cases  # noqa: E402
from sweep.summary import figures, markdown  # noqa: E402

ROOT = BENCH.parent
SLUG = "northwind-outfitters"
CORE = (
    "digit_change",
    "scale_x10",
    "percent_x100",
    "rounding_error",
    "sign_flip",
    "vendor_swap",
    "person_swap",
    "period_shift",
    "uncited",
    "dangling_path",
    "smuggled_coaching",
    "other_company",
    "one_right_one_wrong",
)
"""Classes the deterministic anchors decide outright: a regression below 100% is a bug."""


@cache
def store() -> FileReportStore:
    return FileReportStore(ROOT / "reports")


@cache
def generated() -> Generated:
    return generate(store().get(SLUG), store().all())


@cache
def checked() -> tuple[Checked, ...]:
    reports = {r.slug: r for r in store().all()}
    return tuple(verify_cases(generated().cases, reports, load_playbook().vocabulary()))


def report() -> Report:
    return store().get(SLUG)


def test_every_class_is_generated_and_well_formed() -> None:
    cases = generated().cases
    assert {c.cls for c in cases} == set(CLASSES)
    assert set(CORRECT_CLASSES).isdisjoint(FABRICATED_CLASSES)
    for case in cases:
        assert case.slug == SLUG
        assert case.claim.text.strip()
        assert all(isinstance(p, str) and p for p in case.claim.evidence)
        if case.polarity == "fabricated" and case.cls not in ("uncited", "dangling_path"):
            assert case.claim.evidence or case.claim.kind == "coaching" or case.note
    assert len({c.ident for c in cases}) == len(cases)


def test_generation_is_deterministic() -> None:
    again = generate(store().get(SLUG), store().all())
    assert [c.ident for c in again.cases] == [c.ident for c in generated().cases]
    assert again.skipped == generated().skipped
    other_seed = generate(store().get(SLUG), store().all(), seed=99)
    assert [c.ident for c in other_seed.cases] != [c.ident for c in generated().cases]


def test_dangling_and_uncited_cases_really_do_not_link() -> None:
    for case in generated().cases:
        if case.cls == "uncited" and case.note == "cites nothing":
            assert case.claim.evidence == []
        if case.cls == "dangling_path":
            assert any(report().evidence.resolve(p) is None for p in case.claim.evidence)


@pytest.mark.parametrize("cls", CORE)
def test_core_fabrication_class_is_caught_in_full(cls: str) -> None:
    mine = [c for c in checked() if c.case.cls == cls]
    assert mine, f"no {cls} case generated"
    passed = [(c.case.claim.text, c.case.claim.evidence) for c in mine if not c.flagged]
    assert passed == []


def test_no_verifier_crash() -> None:
    assert [(c.case.claim.text, c.error) for c in checked() if c.error] == []


def test_pipeline_never_posts_a_fabrication_and_the_directives_hold() -> None:
    sample: dict[str, Checked] = {}
    for c in checked():
        sample.setdefault(c.case.cls, c)  # the first case of every class
    playbook = load_playbook()
    turns = run_pipeline(
        list(sample.values()),
        store(),
        vocabulary=playbook.vocabulary(),
        playbook_text=playbook.render(),
        seed=8,
        companions=Companions.of(checked()),
    )
    assert len(turns) == 2 * len(sample)
    for turn in turns:
        assert turn.error is None and turn.result is not None
        if turn.case.polarity == "fabricated":
            assert turn.hidden, (turn.mode, turn.case.claim.text, turn.rendered)
            assert len(turn.answer) == 2 and not turn.companion_lost, turn.rendered
        assert turn.calls >= 1
    assert [
        (d.id, d.evidence) for d in pipeline_directives(turns, store().get) if not d.passed
    ] == []
    data = figures([generated()], list(sample.values()), turns, [], seed=8, examples=2)
    assert set(data["classes"]) == set(CLASSES)
    assert data["model_calls_per_turn"]["auto"]["turns"] == len(sample)
    text = markdown(data)
    assert "## MISSED" in text and all(f"| {cls} |" in text for cls in CLASSES)


def test_static_directives_are_computed() -> None:
    verify_dir = ROOT / "prism_slack" / "verify"
    d1, d2 = d1_no_model_in_verifier(verify_dir), d2_pointer_claims()
    assert (d1.id, d1.passed, d2.id, d2.passed) == ("D1", True, "D2", True), (d1, d2)
    first = list(checked()[:50])
    again = verify_cases([c.case for c in first], {SLUG: report()}, load_playbook().vocabulary())
    assert d5_deterministic(first, again, True, verify_dir).passed
    assert not d5_deterministic(first, again, False, verify_dir).passed  # sockets not blocked
    named, _missing = bench_scripts(ROOT)
    assert "bench/qa_sweep.py" in named


@pytest.mark.parametrize(
    ("stdout", "expected"),
    [
        ("....\n12 passed in 0.52s\n", {"passed": 12}),
        ("F.\n=== 1 failed, 3 passed, 2 skipped in 1.0s ===\n", {"failed": 1, "passed": 3,
                                                              "skipped": 2}),
        ("ERROR: file or directory not found\n", {}),
    ],
)  # fmt: skip
def test_pytest_summary_is_read(stdout: str, expected: dict[str, int]) -> None:
    assert pytest_summary(stdout) == expected


@pytest.mark.parametrize(
    ("value", "places", "form", "text", "tol"),
    [
        ("4137220", 1, Form("money", 6), "$4.1M", "50000"),
        ("4137220", 1, Form("money", 6, style=2), "4.1 million dollars", "50000"),
        ("3.66", 1, Form("percent"), "3.7%", "0.05"),
        ("2.11", 2, Form("percent", style=1), "2.11 percent", "0.005"),
        ("640", 0, Form("unit", unit="ms"), "640 ms", "0.5"),
        ("6830000", 2, Form("plain", 6), "6.83 million", "5000"),
        ("-5.0", 1, Form("percent"), "-5.0%", "0.05"),
    ],
)
def test_numbers_are_written_with_their_precision(
    value: str, places: int, form: Form, text: str, tol: str
) -> None:
    shown = write(Decimal(value), places, form)
    assert (shown.text, shown.tol) == (text, Decimal(tol))
    assert shown.states(Decimal(value))


def test_hedged_integer_trailing_zeros_are_not_significant() -> None:
    shown = write_mantissa(Decimal(1200), 0, Form("plain", hedge=True))
    assert shown.text == "about 1,200" and shown.tol == Decimal(50)
    assert shown.states(Decimal(1240)) and not shown.states(Decimal(1260))


def test_a_changed_digit_never_states_the_same_value() -> None:
    rng = random.Random(1)
    for _ in range(200):
        shown = write(Decimal("4137220"), rng.randrange(3), Form("money", 6))
        changed = change_digit(shown, rng)
        assert changed.mantissa != shown.mantissa
        assert not changed.text.lstrip("$").startswith("0")


@pytest.mark.parametrize(
    ("haystack", "name", "inside"),
    [
        ("Salesforce Commerce Cloud", "Salesforce", True),
        ("Salesforce Commerce Cloud", "Salesforce Sales Cloud", False),
        ("Bill.com", "bill com", True),
        ("Ridgeline Supply Co.", "Ridgeline Supply", True),
        ("HubSpot", "Hub", False),
    ],
)
def test_a_swapped_name_found_in_the_cited_value_is_recognised(
    haystack: str, name: str, inside: bool
) -> None:
    assert contains_name(haystack, name) is inside


def test_dangling_path_variants_are_near_the_real_path() -> None:
    variants = dangling_paths("financials.revenue_usd", random.Random(3))
    assert "financials.REVENUE_USD" in variants and "financials.revenue" in variants
    assert any(
        v.startswith("findings[4") for v in dangling_paths("findings[0].detail", random.Random(3))
    )


def test_correct_cases_state_the_truth_by_construction() -> None:
    """The generators assert this while building; a correct case the verifier rejects is a
    false flag to report, never a generator error: spot-check one by hand."""
    exact = [
        c for c in generated().cases if c.cls == "exact" and c.field == "financials.revenue_usd"
    ]
    assert exact and any(s in exact[0].claim.text for s in ("412,500,000", "412.5"))


def _case(cls: str) -> Case:
    return next(c for c in generated().cases if c.cls == cls)


def test_cases_know_their_polarity() -> None:
    assert _case("exact").polarity == "correct"
    assert _case("digit_change").polarity == "fabricated"
