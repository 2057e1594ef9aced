"""The offline facts-only answerer and the coaching playbook.

The sample reports are loaded straight from ``reports/<slug>/audit-data.json`` (no store).
Tables: questions per report with the field paths the answer must cite, questions whose
answer must be ``absent``; every claim over the whole table must pass the verifier.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

import pytest

from prism_slack.claims import Answer
from prism_slack.errors import ConfigError
from prism_slack.llm import lexicon
from prism_slack.llm.offline import MAX_BRIEF_CLAIMS, OfflineAnswerer
from prism_slack.llm.offline_index import index_for
from prism_slack.llm.offline_wording import ask_claim, coaching_claim, format_number
from prism_slack.llm.playbook import FRAME_IDS, MOVE_IDS, Playbook, load_playbook, parse_playbook
from prism_slack.pipeline.compose import absent_text
from prism_slack.ports import AnswerModel, AnswerRequest, Prompt
from prism_slack.reports.model import Report, build_report
from prism_slack.verify import verify_answer

REPORTS_DIR = Path(__file__).resolve().parent.parent / "reports"
PLAYBOOK_YAML = (
    Path(__file__).resolve().parent.parent / "prism_slack" / "data" / "playbook.yaml"
).read_text("utf-8")
ABSENT = "absent"

_REPORTS: dict[str, Report] = {}


def report(slug: str) -> Report:
    if slug not in _REPORTS:
        data = json.loads((REPORTS_DIR / slug / "audit-data.json").read_text("utf-8"))
        _REPORTS[slug] = build_report(slug, data)
    return _REPORTS[slug]


def ask(slug: str, question: str) -> Answer:
    prompt = Prompt(system="", user=question, digest="0")
    return OfflineAnswerer().answer(AnswerRequest(question, report(slug), prompt))


def cited(answer: Answer) -> set[str]:
    return {path for claim in answer.claims for path in claim.evidence}


# (report, question, paths the answer must cite — or ABSENT)
CASES: list[tuple[str, str, tuple[str, ...] | str]] = [
    # Northwind Outfitters: retail e-commerce
    ("northwind-outfitters", "What do they use for search?", ("vendors.search",)),
    ("northwind-outfitters", "what's their conversion rate?", ("metrics.conversion_rate_pct",)),
    ("northwind-outfitters", "top findings?", ("findings[0].title", "findings[0].severity")),
    (
        "northwind-outfitters",
        "summarize the audit",
        ("findings[0].title", "financials.revenue_usd"),
    ),
    (
        "northwind-outfitters",
        "who should I talk to?",
        (
            "stakeholders[0].name",
            "stakeholders[0].title",
            "stakeholders[0].role",
            "stakeholders[3].name",
        ),
    ),
    ("northwind-outfitters", "how do I open the call?", ("findings[0].title",)),
    ("northwind-outfitters", "what's their revenue?", ("financials.revenue_usd",)),
    (
        "northwind-outfitters",
        "how profitable are they?",
        ("financials.gross_margin", "financials.ebitda_margin_pct"),
    ),
    ("northwind-outfitters", "what's their churn?", ("metrics.churn_rate",)),
    (
        "northwind-outfitters",
        "how did they score on search relevance?",
        ("scores.search_relevance", "scores.max"),
    ),
    ("northwind-outfitters", "what CRM are they on?", ("vendors.crm",)),
    ("northwind-outfitters", "who is the champion?", ("stakeholders[1].name",)),
    ("northwind-outfitters", "Where is Northwind Outfitters headquartered?", ("company.hq.city",)),
    ("northwind-outfitters", "how fast are they growing?", ("financials.revenue_growth_pct",)),
    ("northwind-outfitters", "what's the membership ARR?", ("financials.membership_arr_usd",)),
    ("northwind-outfitters", "which email platform do they use?", ("vendors.email",)),
    ("northwind-outfitters", "when were they founded?", ("company.founded",)),
    ("northwind-outfitters", "do they use Algolia?", ("vendors.search",)),
    ("northwind-outfitters", "what's the page load time?", ("metrics.page_load_p75",)),
    (
        "northwind-outfitters",
        "what are their payment issues?",
        ("vendors.payments", "metrics.payment_failure_rate"),
    ),
    ("northwind-outfitters", "who wrote the audit?", ("report.auditor",)),
    ("northwind-outfitters", "tell me about NWO", ("findings[0].title", "financials.revenue_usd")),
    ("northwind-outfitters", "any quick wins?", ("findings[1].title",)),
    # Kestrelpoint Software: B2B SaaS
    ("kestrelpoint-software", "what do they use for search?", ABSENT),
    ("kestrelpoint-software", "do they use Algolia?", ABSENT),
    ("kestrelpoint-software", "what's their conversion rate?", ("metrics.trial_conversion_pct",)),
    ("kestrelpoint-software", "top findings?", ("findings[0].title", "findings[0].severity")),
    (
        "kestrelpoint-software",
        "summarize the audit",
        ("findings[0].title", "financials.revenue_usd"),
    ),
    (
        "kestrelpoint-software",
        "who should I talk to?",
        ("stakeholders[0].name", "stakeholders[1].role", "stakeholders[3].title"),
    ),
    ("kestrelpoint-software", "how do I open the call?", ("findings[0].title",)),
    ("kestrelpoint-software", "what's their top line?", ("financials.revenue_usd",)),
    ("kestrelpoint-software", "what are their margins?", ("financials.gross_margin",)),
    ("kestrelpoint-software", "what is their churn rate?", ("metrics.churn_rate",)),
    (
        "kestrelpoint-software",
        "what's their security posture score?",
        ("scores.security_posture", "scores.max"),
    ),
    ("kestrelpoint-software", "what's their annual recurring revenue?", ("financials.arr_usd",)),
    ("kestrelpoint-software", "who owns the pricing page?", ("stakeholders[1].name",)),
    ("kestrelpoint-software", "which payment provider do they use?", ("vendors.payments",)),
    ("kestrelpoint-software", "what's their fiscal year?", ("report.fiscal_year",)),
    # Cedar Valley Health Partners: regional healthcare
    ("cedar-valley-health", "what do they use for search?", ("findings[0].detail",)),
    ("cedar-valley-health", "what's their conversion rate?", ABSENT),
    ("cedar-valley-health", "top findings?", ("findings[0].title", "findings[0].severity")),
    ("cedar-valley-health", "summarize the audit", ("findings[0].title", "financials.revenue_usd")),
    (
        "cedar-valley-health",
        "who should I talk to?",
        ("stakeholders[0].name", "stakeholders[4].name"),
    ),
    ("cedar-valley-health", "how do I open the call?", ("findings[0].title",)),
    ("cedar-valley-health", "what were their sales?", ("financials.revenue_usd",)),
    ("cedar-valley-health", "what's their profitability?", ("financials.operating_margin",)),
    ("cedar-valley-health", "what's their churn?", ABSENT),
    (
        "cedar-valley-health",
        "what's the data quality score?",
        ("scores.data_quality", "scores.max"),
    ),
    ("cedar-valley-health", "what's their no-show rate?", ("metrics.no_show_rate",)),
    ("cedar-valley-health", "which EHR do they run?", ("vendors.ehr",)),
    ("cedar-valley-health", "who is the blocker?", ("stakeholders[3].name",)),
    # Northwind Logistics: 3PL
    ("northwind-logistics", "what do they use for search?", ("vendors.search",)),
    ("northwind-logistics", "what's their conversion rate?", ABSENT),
    ("northwind-logistics", "top findings?", ("findings[0].title", "findings[0].severity")),
    ("northwind-logistics", "summarize the audit", ("findings[0].title", "financials.revenue_usd")),
    (
        "northwind-logistics",
        "who should I talk to?",
        ("stakeholders[0].name", "stakeholders[2].role"),
    ),
    ("northwind-logistics", "how do I open the call?", ("findings[0].title",)),
    ("northwind-logistics", "what's their revenue?", ("financials.revenue_usd",)),
    ("northwind-logistics", "what's their gross margin?", ("financials.gross_margin",)),
    ("northwind-logistics", "what's their churn?", ("metrics.churn_rate",)),
    (
        "northwind-logistics",
        "what's their customer portal score?",
        ("scores.customer_portal", "scores.max"),
    ),
    ("northwind-logistics", "what TMS do they use?", ("vendors.tms",)),
    ("northwind-logistics", "what's their on-time delivery?", ("metrics.on_time_delivery_pct",)),
]

SLUGS = sorted({slug for slug, _, _ in CASES})

# More questions a rep asks, on every report: no expected paths, but every claim must pass
# the verifier and the answer must stay bounded.
MORE_QUESTIONS = [
    "what's the biggest risk?",
    "tell me about their email",
    "how many employees do they have?",
    "what is wrong with their search?",
    "what's their NPS?",
    "who is the economic buyer?",
    "which analytics tool do they use?",
    "what's their tech stack?",
    "what competitors do they have?",
    "what opportunities are there?",
    "give me the key metrics",
    "what are their financials?",
    "what vendors do they use?",
    "what's their marketing budget?",
    "how many support tickets do they get?",
    "when was the last pricing change?",
    "what's their net revenue?",
    "what's their EBITDA margin?",
    "what are their scores?",
    "what's the audit scope?",
    "what should I ask about their churn?",
    "how do I handle the blocker?",
    "how do I handle the objection about price?",
    "what's the next step?",
    "who is the CFO?",
    "did revenue decline?",
]

ALWAYS_ABSENT = [
    "what's their headcount in Brazil?",
    "who is their CEO's spouse?",
    "what's their stock price?",
    "what's their Q1 revenue?",
    "how many trademarks do they hold?",
]


@pytest.mark.parametrize(("slug", "question", "expected"), CASES)
def test_answer_cites_the_expected_fields(
    slug: str, question: str, expected: tuple[str, ...] | str
) -> None:
    answer = ask(slug, question)
    assert 1 <= len(answer.claims) <= MAX_BRIEF_CLAIMS
    if expected == ABSENT:
        assert_absent(answer)
        return
    assert "absent" not in {c.kind for c in answer.claims}, answer
    missing = set(expected) - cited(answer)
    assert not missing, f"{question!r} did not cite {sorted(missing)}: {answer}"


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("question", ALWAYS_ABSENT)
def test_questions_the_report_cannot_answer_are_absent(slug: str, question: str) -> None:
    assert_absent(ask(slug, question))


def assert_absent(answer: Answer) -> None:
    """ "Not in the report" first, then at most what the report holds nearby (facts)."""
    first, *nearby = answer.claims
    assert (first.kind, first.evidence) == ("absent", []), answer
    assert absent_text(first.text) == first.text, answer  # the fixed sentence or a plain one
    assert all(c.kind == "fact" for c in nearby), answer
    assert len(nearby) <= 2, answer


@pytest.mark.parametrize("slug", SLUGS)
def test_findings_come_most_severe_first(slug: str) -> None:
    answer = ask(slug, "top findings?")
    severities = [
        report(slug).evidence.leaf(c.evidence[1]).value  # type: ignore[union-attr]
        for c in answer.claims
    ]
    rank = {"critical": 0, "high": 1, "medium": 2, "low": 3}
    assert severities == sorted(severities, key=lambda s: rank[str(s)])
    assert len(severities) >= 3


@pytest.mark.parametrize("slug", SLUGS)
def test_opening_the_call_coaches_from_the_playbook_anchored_to_a_fact(slug: str) -> None:
    answer = ask(slug, "how do I open the call?")
    coaching = [c for c in answer.claims if c.kind == "coaching"]
    facts = [c for c in answer.claims if c.kind == "fact"]
    assert coaching and facts
    opener = load_playbook().get("M1")
    assert opener.name in coaching[0].text
    first_sentence = opener.guidance.split(". ")[0]
    assert first_sentence[1:] in coaching[0].text
    assert coaching[0].evidence, "coaching cites the finding it is anchored to"
    assert set(coaching[0].evidence) <= cited(Answer(claims=facts))
    assert any(ch.isdigit() for c in facts for ch in c.text), "M1 leans on a figure"


@pytest.mark.parametrize(
    ("question", "entry_id"),
    [
        ("any quick wins?", "F6"),
        ("what's the next step?", "M9"),
        ("how do I handle pushback on price?", "M10"),
        ("who should I talk to?", "M6"),
    ],
)
def test_coaching_names_the_move_the_question_asks_for(question: str, entry_id: str) -> None:
    answer = ask("northwind-outfitters", question)
    entry = load_playbook().get(entry_id)
    coaching = [c for c in answer.claims if c.kind == "coaching"]
    assert coaching
    assert coaching[0].text.startswith(f"{entry.name}: ")


MINIMAL = {
    "company": {"name": "Bare Bones Ltd", "aliases": ["Bare Bones"]},
    "report": {"id": "AUD-1", "generated_at": "2026-01-02"},
}


@pytest.mark.parametrize(
    "question", ["top findings?", "summarize the audit", "who should I talk to?", "revenue?"]
)
def test_a_report_with_only_its_envelope_answers_absent(question: str) -> None:
    bare = build_report("bare-bones", MINIMAL)
    answer = OfflineAnswerer().answer(AnswerRequest(question, bare, Prompt("", "", "")))
    assert [c.kind for c in answer.claims] == ["absent"]


def test_coaching_without_findings_still_coaches_but_cites_nothing() -> None:
    bare = build_report("bare-bones", MINIMAL)
    answer = OfflineAnswerer().answer(
        AnswerRequest("how do I open the call?", bare, Prompt("", "", ""))
    )
    assert [c.kind for c in answer.claims] == ["coaching", "coaching"]
    assert all(c.evidence == [] for c in answer.claims)


def test_a_multi_part_question_answers_each_part_and_says_what_is_missing() -> None:
    answer = ask("northwind-outfitters", "what's their churn and their headcount in Brazil?")
    assert "metrics.churn_rate" in cited(answer)
    assert answer.claims[-1].kind == "absent"


def test_values_are_worded_verbatim_or_faithfully() -> None:
    texts = {
        c.text
        for q in ("churn", "revenue", "growth")
        for c in ask("northwind-outfitters", f"what's their {q}?").claims
    }
    assert "Churn rate: 2.11%." in texts
    assert "Revenue: $412.5M." in texts
    assert "Revenue growth: down 5%." in texts


@pytest.mark.parametrize(
    ("keys", "value", "text"),
    [
        (("metrics", "churn_rate"), 0.0211, "2.11%"),
        (("metrics", "payment_failure_rate"), 0.0011, "0.11%"),
        (("financials", "gross_margin"), 0.412, "41.2%"),
        (("financials", "revenue_usd"), 412500000, "$412.5M"),
        (("financials", "revenue_usd"), 1843000000, "$1.84B"),
        (("financials", "revenue_usd"), 1843700000, "$1.84B"),
        (("financials", "net_revenue_usd"), 351422807, "$351M"),
        (("financials", "arr_usd"), 74000000, "$74M"),
        (("financials", "membership_arr_usd"), 4137220, "$4.14M"),
        (("financials", "deal_usd"), 250000, "$250,000"),
        (("metrics", "sales_cycle_days"), 74, "74 days"),
        (("financials", "days_cash_on_hand"), 142, "142 days"),
        (("metrics", "members"), 4100000, "4.1M"),
        (("financials", "revenue_growth_pct"), -5.0, "-5.0%"),
        (("metrics", "trial_conversion_pct"), 3.66, "3.66%"),
        (("financials", "burn_multiple"), 0.9, "0.9"),
        (("metrics", "monthly_sessions"), 6830000, "6.83M"),
        (("company", "employees"), 1240, "1,240"),
        (("company", "founded"), 2004, "2004"),
        (("metrics", "last_replatform_year"), 2019, "2019"),
        (("metrics", "patient_visits_per_year"), 1146000, "1.15M"),
        (("financials", "rule_of_40"), 28.1, "28.1"),
    ],
)
def test_number_formats(keys: tuple[str, ...], value: float, text: str) -> None:
    assert format_number(keys, value) == text


def test_answers_are_deterministic_and_bounded() -> None:
    for slug, question, _ in CASES:
        first, second = ask(slug, question), ask(slug, question)
        assert first == second
        assert len(first.claims) <= MAX_BRIEF_CLAIMS


def test_offline_answerer_is_an_answer_model() -> None:
    model: AnswerModel = OfflineAnswerer()
    assert model.name == "offline"
    assert (
        OfflineAnswerer(max_claims=2)
        .answer(
            AnswerRequest(
                "who should I talk to?", report("northwind-outfitters"), Prompt("", "", "")
            )
        )
        .claims.__len__()
        == 2
    )


def test_the_index_is_built_once_per_report() -> None:
    r = report("kestrelpoint-software")
    assert index_for(r) is index_for(r)


@pytest.mark.parametrize(
    ("word", "concept"),
    [
        ("profitability", "margin"),
        ("provider", "vendor"),
        ("platforms", "vendor"),
        ("stakeholders", "stakeholder"),
        ("contacts", "stakeholder"),
        ("sales", "revenue"),
        ("grew", "growth"),
        ("retention", "churn"),
        ("rating", "score"),
        ("issues", "finding"),
        ("problems", "finding"),
        ("emails", "email"),
        ("payments", "payment"),
        ("CRM", "crm"),
    ],
)
def test_synonyms(word: str, concept: str) -> None:
    assert lexicon.concept(word) == concept


def test_phrases_merge_before_synonyms() -> None:
    assert lexicon.text_terms("what's their top line?") == ["revenue"]
    assert lexicon.text_terms("annual recurring revenue") == ["arr"]
    assert lexicon.text_terms("e-commerce platform") == ["ecommerce", "vendor"]


# -- speed ------------------------------------------------------------------------------


def _synthetic_report(leaves: int, seed: int = 7) -> Report:
    rng = random.Random(seed)
    data: dict[str, Any] = json.loads(
        (REPORTS_DIR / "northwind-outfitters" / "audit-data.json").read_text("utf-8")
    )
    vocab = sorted(lexicon.wordset("alpha beta gamma delta omega sigma kappa lambda theta zeta"))
    extra: dict[str, dict[str, Any]] = {}
    n = len(build_report("base", data).evidence)
    for i in range(leaves - n):
        section = extra.setdefault(f"section_{i % 20}", {})
        key = f"{rng.choice(vocab)}_{rng.choice(vocab)}_{i}"
        section[key] = rng.choice(
            [rng.random(), rng.randint(1, 10**6), " ".join(rng.choices(vocab, k=6))]
        )
    data["extra"] = extra
    return build_report("synthetic", data)


def test_a_question_on_a_thousand_leaf_report_takes_under_two_milliseconds() -> None:
    big = _synthetic_report(1000)
    assert len(big.evidence) == 1000
    model = OfflineAnswerer()
    questions = [q for slug, q, _ in CASES if slug == "northwind-outfitters"] + ALWAYS_ABSENT
    model.answer(AnswerRequest(questions[0], big, Prompt("", "", "")))  # builds the index
    timings = []
    for _ in range(5):
        for question in questions:
            started = time.perf_counter()
            model.answer(AnswerRequest(question, big, Prompt("", "", "")))
            timings.append(time.perf_counter() - started)
    assert statistics.median(timings) < 0.002


# -- playbook ---------------------------------------------------------------------------


def test_packaged_playbook_validates_and_is_complete() -> None:
    playbook = load_playbook()
    assert tuple(f.id for f in playbook.frames) == FRAME_IDS
    assert tuple(m.id for m in playbook.moves) == MOVE_IDS
    assert load_playbook() is playbook


def test_vocabulary_holds_every_id_and_name() -> None:
    playbook = load_playbook()
    vocabulary = playbook.vocabulary()
    for entry in playbook.entries():
        assert entry.id in vocabulary
        assert entry.name in vocabulary


def test_playbook_guidance_and_questions_carry_no_digits() -> None:
    for entry in load_playbook().entries():
        assert not any(ch.isdigit() for ch in entry.guidance), entry.id
        assert not any(ch.isdigit() for ch in entry.question), entry.id


def test_render_lists_every_entry_for_the_prompt() -> None:
    playbook = load_playbook()
    text = playbook.render()
    for entry in playbook.entries():
        assert f"- {entry.id} {entry.name}: " in text


def _broken(old: str, new: str) -> str:
    assert old in PLAYBOOK_YAML
    return PLAYBOOK_YAML.replace(old, new, 1)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (_broken("Walk me through how", "Walk me through 3 ways how"), "must not contain digits"),
        (_broken("Offer a small, low-risk fix", "Offer two small fixes"), "number words: two"),
        (_broken("- id: F6", "- id: F7"), "frame ids are F1–F6"),
        (_broken("name: Quick win", "name: Status quo"), "names must be unique"),
        (
            _broken("ahead of suggesting anything.", "ahead. Of suggesting. Anything."),
            "one or two sentences",
        ),
        (_broken("severities: [critical]", "severities: [urgent]"), "severities"),
        ("frames: [oops", "not valid YAML"),
    ],
)
def test_a_broken_playbook_is_a_config_error_naming_the_problem(text: str, problem: str) -> None:
    with pytest.raises(ConfigError, match=problem):
        parse_playbook(text)


@pytest.mark.parametrize(
    ("finding", "entry_id"),
    [
        (
            {
                "title": "Card data kept outside PCI scope",
                "severity": "critical",
                "detail": "A compliance breach risk.",
            },
            "F4",
        ),
        (
            {
                "title": "Checkout abandonment is high",
                "severity": "high",
                "detail": "Conversion drops and revenue is lost.",
            },
            "M3",
        ),
        (
            {
                "title": "Redirect template is misconfigured",
                "severity": "low",
                "detail": "A quick configuration setting would fix it.",
            },
            "F6",
        ),
        (
            {
                "title": "Nobody owns the lead routing rules",
                "severity": "medium",
                "detail": "The team responsible is unclear.",
            },
            "M2",
        ),
        (
            {
                "title": "Legacy integration breaks nightly",
                "severity": "high",
                "detail": "Manual data sync errors.",
            },
            "M4",
        ),
    ],
)
def test_for_finding_matches_keywords_and_severity(finding: dict[str, str], entry_id: str) -> None:
    assert load_playbook().for_finding(finding).id == entry_id


@pytest.mark.parametrize(
    ("question", "entry_id"),
    [
        ("how do I open the call?", "M1"),
        ("what's a good next step?", "M9"),
        ("how do I handle pushback on budget?", "M10"),
        ("how should I approach the incumbent vendor?", "M7"),
        ("what should I say about the weather?", None),
    ],
)
def test_for_question(question: str, entry_id: str | None) -> None:
    entry = load_playbook().for_question(question)
    assert (entry.id if entry else None) == entry_id


def test_playbook_is_frozen() -> None:
    playbook: Playbook = load_playbook()
    with pytest.raises(ValueError, match="frozen"):
        playbook.moves[0].name = "Something else"  # type: ignore[misc]


# -- the verifier supports everything the offline answerer says --------------------------


def test_every_claim_over_the_whole_table_passes_the_verifier() -> None:
    allowed = load_playbook().vocabulary()
    questions = {(slug, q) for slug, q, _ in CASES}
    questions |= {(slug, q) for slug in SLUGS for q in ALWAYS_ABSENT + MORE_QUESTIONS}
    failures = []
    for slug, question in sorted(questions):
        answer = ask(slug, question)
        for verdict in verify_answer(answer, report(slug), allowed=allowed):
            if not verdict.supported:
                failures.append(f"{slug}: {question!r}: {verdict.claim.text!r} {verdict.reasons}")
    assert not failures, "\n".join(failures)


def test_every_playbook_entry_coaches_without_smuggling_facts() -> None:
    """Uncited, each entry's coaching and question pass the verifier: no number, no name."""
    playbook = load_playbook()
    claims = [c for e in playbook.entries() for c in (coaching_claim(e, []), ask_claim(e, []))]
    verdicts = verify_answer(
        Answer(claims=claims), report("northwind-outfitters"), allowed=playbook.vocabulary()
    )
    failures = [f"{v.claim.text!r}: {v.reasons}" for v in verdicts if not v.supported]
    assert not failures, "\n".join(failures)
