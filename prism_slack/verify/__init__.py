"""The deterministic verifier (DESIGN §6): pure functions of (claim, cited evidence, report).

No model client, no network, no clock, no randomness. Each hard check is a named function
in ``checks``; every failure is a typed ``verdict.Reason`` naming its check and its rule
(``verify.rules``: the registry, with an example of each, that ``docs/verifier.md`` lists),
and so is every reason a claim is left undecided (``ClaimVerdict.undecided_reasons``).

The rules, in short (each module's docstring has the detail):

- **5 anchor warrant** (``anchors``, grammar in ``numbers``): every number, percent,
  amount, date, period, score and record string matches a cited value to the precision
  shown. Units and scale come from field names too (``_usd``, ``_pct``, ``_days``,
  ``_millions``, ``_bps``; an amount in thousands is only that amount); number words
  (text2num), shares (``seven in ten``, ``a third``, ``half``), ``a dozen``, a number
  word's time unit (``three minutes``); bounds and hedges point the right way, and a close
  one (``just over``) is near; direction words in the clause must agree with a change's
  sign; a score or time string (``7 - 8``, ``1:56.85``) matches as a whole. A figure no
  cited value states is still warranted when it recomputes exactly from two cited numbers
  by a relation the claim names next to it (``derived``: difference, complement, sum,
  share, percent change, a column's total over a cited list's items); the arithmetic goes
  in ``ClaimVerdict.derivations``. A number before a cited list's name counts its items,
  only those its qualifiers pick (``counts``: ``two critical findings``); a period stated
  with a figure must be the cited date range as a whole (``8.91% in Q4 2025`` is no full
  year's rate). A number that is part of a cited field's key, next to another word of that
  key (``1st place`` citing ``1st_prize``), names the field and needs no value. Table
  dates read as tables write them (``1984 - 06 - 09``, ``3 / 30 / 07``); a count in
  millions matches a fractional value whose field states no scale
  (``6.66 million viewers`` ⊨ ``viewers: 6.66``); ``before``/``prior to``/``after`` bound
  a year; a score's scale may be another cited number field (``20 out of 22`` citing
  ``won`` and ``played``).
- **6 entity warrant** (``entities``): every name — capitalised, or a rare lower-case word
  (``language.rare``) — is in the cited values or is the prospect's; a sentence opener,
  a contraction (``They're``) or an imperative (``Ask Dana``) is not a name. A rare word
  with a common English form (``alumnus``/alumni, ``synced``/sync) is no name, nor is a
  typo of a cited word or key (``poistion``: one edit, same first letter), nor an elided
  word the cited value writes joined (``l'ombre``).
- **7 attribute warrant** (``attributes``) fails only on positive evidence: the claim
  names a measure or field that another field holds and nothing the cited one holds, the
  field next to the cited one (``medicare`` citing ``medicaid_pct``), a contradicting
  qualifier, the words of another number of the cited sentence, a distinctive word of
  another item of a cited list, a person with another cited record's role, a superlative
  the figure's rank among its peers contradicts (``ranks``), a phrase the cited values
  never say while they say its opposite or an excluding alternative (``opposites``:
  ``gold`` when the row says bronze), a direction about the base that a cited retention
  level contradicts, a whole group where the restated clause speaks of
  part (``quantifiers``), a stated value whose naming words name another field of its
  record better than its own (key words weighed by how few keys have them: ``footscray
  have a crowd of 11.11 (77)``), another row's multi-word cell written whole, a cited cell
  with one word swapped for a name found nowhere in the report, a negation of what a cited
  field states. Content words leave out stop words, hedges, light verbs in any form
  (``language.light``), a derived figure's relation words, ``last`` before a period,
  ``only`` and a bound or hedge before a figure, ``every`` before a period and the
  negation that says a last year (``haven't … since 2019``); a cited passage of a list
  item is read with its record's other text; a period from 1 January to 31 December is
  the calendar year; British and American spellings stem alike. Wording not
  found in the cited values only makes the claim *undecided*; a fact with nothing
  anchored is undecided too; an unanchored fact whose words are nearly all missing from
  its evidence is about something else and fails. A direction word in a fact whose cited
  fields are all levels leaves it undecided (a level cannot say it changed), and so does
  a figure a cited passage gives with a name beside it the claim does not say (``81% at
  Brno`` for ``81% across the group``) or of another base (``46% of the membership``
  from ``46% of closed accounts``); measures that exclude each other (gross and net
  revenue retention) contradict. A passage that states the figure in the claim's own
  words is a second source, not a rival field; a plural noun (``members wait``) is who is
  counted, not a qualifier. An undecided fact that only *restates* the one-value fields
  it cites and names (or writes whole), or figures a passage gives in a sentence with one
  of the claim's words, from one item of each list, with at most one content word
  unfound, is marked ``ClaimVerdict.restates`` (``checks.ClaimContext.restates``):
  ``auto`` needs no judge for it.

Rungs (``verdict.Rung``), per claim:

- ``UNLINKED`` — check 2, 3 or 4 failed, or nothing that is cited resolves (coaching and
  ``absent`` claims that cite nothing stay here even when supported);
- ``POINTER-LINKED`` — the pointers resolve, but a number or name is not warranted (5, 6);
- ``ANCHOR-WARRANTED`` — numbers and names warranted, attribute or content not (7), or
  supported but *undecided* (``ClaimVerdict.undecided``);
- ``EVIDENCE-WARRANTED`` — every hard check passed and check 7 is settled;
- ``ENTAILMENT-VERIFIED`` — never from the verifier: only ``promote``, which the pipeline
  calls after a real judge confirmed a supported (or undecided) claim.

A claim is ``supported`` when no hard check fails; an undecided claim is supported.

Modules, one job each:

- ``numbers``: the scanner of quantities and identifiers; ``quantity`` (what a quantity
  is), ``calendar`` (dates, periods), ``spoken`` (records, shares, number words),
  ``context`` (bounds, hedges, directions), ``fields`` (report values by field path);
- ``entities``: names in a claim, and when cited values warrant them;
- ``concepts``: measure concepts and synonym groups; ``lexicon``: the word lists (stop
  words and relation words in ``prism_slack/data/``);
- ``anchors``: whether a cited quantity warrants a claimed one (check 5); ``derived``:
  figures recomputed from cited ones; ``counts``: counts of a cited list;
- ``ranks``: superlatives checked against the figure's peers (check 7);
- ``attributes``: binding numbers to fields, measures, content words, swaps (check 7);
- ``index``: everything read from a report, built once per report and cached;
- ``checks``: one function per hard check, ``evaluate`` and ``assess``; ``rules``: the
  rule registry;
- ``text``: folding, path words, squashed names (tokens and stems: ``prism_slack.language``).
"""

from __future__ import annotations

import logging

from prism_slack.claims import Answer, Claim
from prism_slack.reports.model import Report
from prism_slack.verdict import Check, ClaimVerdict, Reason, Rung
from prism_slack.verify.checks import assess, failed_checks

__all__ = ["promote", "verify_answer", "verify_claim"]

logger = logging.getLogger(__name__)

_LINK_CHECKS = frozenset(
    {Check.PARSES, Check.TEXT_NONEMPTY, Check.POINTERS_RESOLVE, Check.FACT_CITES}
)
_ANCHOR_CHECKS = frozenset({Check.ANCHOR_WARRANT, Check.ENTITY_WARRANT})


def verify_claim(
    claim: Claim, report: Report, *, allowed: frozenset[str] = frozenset()
) -> ClaimVerdict:
    """The verdict on one claim. ``allowed``: extra names coaching may use (playbook ids
    and names such as ``M4`` and ``Quantify the gap``)."""
    reasons, undecided, derivations, restates = assess(claim, report, allowed=allowed)
    rung = _rung(claim, report, reasons)
    if undecided and rung is Rung.EVIDENCE_WARRANTED:
        rung = Rung.ANCHOR_WARRANTED
    return ClaimVerdict(
        claim=claim,
        rung=rung,
        supported=not reasons,
        reasons=reasons,
        undecided=bool(undecided),
        undecided_reasons=list(undecided),
        restates=restates,
        derivations=list(derivations) if not reasons else [],
    )


def verify_answer(
    answer: Answer, report: Report, *, allowed: frozenset[str] = frozenset()
) -> list[ClaimVerdict]:
    """Verdicts for every claim, in order. Zero claims gives ``[]``, which
    ``verdict.answer_label`` labels UNGROUNDED (never a vacuous pass)."""
    verdicts = [verify_claim(claim, report, allowed=allowed) for claim in answer.claims]
    logger.debug(
        "verified report=%s claims=%d supported=%d",
        report.slug,
        len(verdicts),
        sum(v.supported for v in verdicts),
    )
    return verdicts


def promote(verdict: ClaimVerdict) -> ClaimVerdict:
    """The verdict at ENTAILMENT-VERIFIED, after a real judge confirmed the claim.

    Only a supported verdict that is EVIDENCE-WARRANTED, undecided, or already promoted
    may be promoted; anything else raises ``ValueError`` — the judge never rescues a claim.
    """
    promotable = verdict.undecided or verdict.rung in (
        Rung.EVIDENCE_WARRANTED,
        Rung.ENTAILMENT_VERIFIED,
    )
    if not verdict.supported or not promotable:
        raise ValueError(f"cannot promote a {verdict.rung} verdict (supported={verdict.supported})")
    return verdict.model_copy(
        update={
            "rung": Rung.ENTAILMENT_VERIFIED,
            "undecided": False,
            "undecided_reasons": [],
            "restates": False,
        }
    )


def _rung(claim: Claim, report: Report, reasons: list[Reason]) -> Rung:
    failed = failed_checks(reasons)
    resolved = any(report.evidence.resolve(path) is not None for path in claim.evidence)
    if claim.kind == "absent" or failed & _LINK_CHECKS or not resolved:
        return Rung.UNLINKED
    if failed & _ANCHOR_CHECKS:
        return Rung.POINTER_LINKED
    if Check.ATTRIBUTE_WARRANT in failed:
        return Rung.ANCHOR_WARRANTED
    return Rung.EVIDENCE_WARRANTED
