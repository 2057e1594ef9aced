"""The hard checks of DESIGN §6, one pure function each, numbered as ``verdict.Check``.

Every check returns a list of problems (``verdict.Problem``: a rule id and a message) —
empty when it passes — and ``evaluate`` turns each into a typed ``verdict.Reason`` naming
its check and rule (``str(reason)`` reads ``anchor_warrant: '$4.2M' matches no cited
value``). ``assess`` keeps check 7's doubts as reasons too: why a claim is undecided.

Which checks run on which claim:

- every claim: 2 (text non-empty);
- ``absent``: nothing else — it always passes (DESIGN §6.8);
- ``fact`` and ``coaching``: 3 (pointers resolve) and 4 (a fact cites; at most
  ``MAX_POINTERS`` pointers); then 5–7 against the cited fields that resolve. A fact
  with no resolving citation stops there (it is UNLINKED: there is nothing to warrant
  against); coaching always runs 5–7, so a number or name it carries without a citation
  fails like a fact would ("smuggled facts").
- 7 binds numbers to their fields for both kinds; its measure and content rules apply to
  facts only (coaching is advice: its own words are not the report's).

Check 1 (the answer parses; zero claims is never a pass) is about a whole answer: the
caller parses it, and ``verdict.answer_label`` labels zero claims UNGROUNDED.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import lru_cache, partial
from itertools import pairwise
from typing import NamedTuple

from rapidfuzz.distance import OSA

from prism_slack import language
from prism_slack.claims import Claim
from prism_slack.evidence import canonical_path
from prism_slack.facts.model import FactKind
from prism_slack.language import stem, words
from prism_slack.lazy import cached_property
from prism_slack.reports.model import Report
from prism_slack.verdict import Check, Derivation, Problem, Reason
from prism_slack.verify import concepts, lexicon, proof
from prism_slack.verify.anchors import (
    KEY_REACH,
    Anchoring,
    anchor,
    anchor_count,
    countable,
    in_key,
    matches,
    same_kind,
)
from prism_slack.verify.attributes import (
    ContentEvidence,
    Findings,
    Naming,
    Stated,
    binding_problems,
    content_missing,
    content_problems,
    denials,
    figure_words,
    measure_problems,
    measured,
    naming_runs,
    near_words,
    other_base,
    sentence_of,
    stated_cells,
    substituted_cells,
    swap_problems,
    unsaid_scope,
)
from prism_slack.verify.context import directions
from prism_slack.verify.counts import list_count
from prism_slack.verify.derived import derive, in_points, relations_named
from prism_slack.verify.entities import Name, NameEvidence, find_names, identifier_key
from prism_slack.verify.index import Container, LeafFacts, VerifierIndex, index_for
from prism_slack.verify.numbers import MASK, QKind, Quantity, Scan, scan
from prism_slack.verify.opposites import opposite_problems
from prism_slack.verify.quantifiers import quantifier_problems
from prism_slack.verify.ranks import Ranked, rank_findings
from prism_slack.verify.text import (
    Squashed,
    list_item,
    list_items,
    path_phrases,
    path_words,
    spell_initials,
    squash_name,
    squash_text,
    years_of,
)

MAX_POINTERS = 8
"""How many field paths one claim may cite."""

RELATION_REACH = 5
"""How many words either side of a figure may name the relation that derives it."""

INITIALS_ZIPF = 3.5
"""A cited key word rarer than this in English (``nps``, ``adr``, ``arr``) may be written
out as the words it abbreviates (``net promoter score``)."""

_LOWER_WORD = re.compile(r"\b[a-z]+\b")
_HEDGE = "|".join(sorted((re.escape(h) for h in lexicon.HEDGES), key=len, reverse=True))
_FOCUS = re.compile(rf"\bonly(?=\s+(?:(?:{_HEDGE})\s+)?{MASK})")
"""``only`` before a figure weighs it (``only about 40%``); it does not say "and no other"."""
_WORDY_QUALIFIERS = sorted(
    (p for p in [*lexicon.BOUNDS, *lexicon.HEDGES] if any(map(concepts.is_content, p.split()))),
    key=len,
    reverse=True,
)
_QUALIFIER = re.compile(rf"\b(?:{'|'.join(map(re.escape, _WORDY_QUALIFIERS))})(?=\s+{MASK})")
"""A bound or hedge before a figure that has a content word (``close to``, ``something
like``): check 5 reads it (the others are stop words)."""
_NOT_SINCE = re.compile(rf"(?:\bnot\b|\bnever\b|n't\b)(?=[^.;]*\bsince\s+{MASK})")
"""``haven't replatformed since 2019``: how a last year is said (``last_replatform_year``)."""
_RELATIVE_PERIOD = re.compile(
    r"\b(?:last|past|previous)(?=\s+(?:fiscal\s+)?(?:year|quarter|month)\b)"
)

TYPO_MIN = 4
"""Words shorter than this are never read as typos of one another."""

RESTATED_GAP = 1
"""How many content words a claim restating one value may leave unfound (``purchases``
in ``18.7% of purchases are returned``). An added segment, cause or comparison takes more
(``of orders placed by first-time buyers``)."""


def typo_edits(word: str) -> int:
    """How many edits make a typo of a word this long: 1 up to 7 letters, then 2."""
    return 1 if len(word) < 8 else 2


class ClaimContext:
    """One claim, read once, with the cited fields it may be warranted by."""

    def __init__(self, claim: Claim, report: Report, allowed: frozenset[str]) -> None:
        self.claim = claim
        self.evidence = report.evidence
        self.series = report.facts.series
        self.index: VerifierIndex = index_for(report)
        self.found: Scan = scan(claim.text)
        if claim.kind == "coaching":  # advice names a threshold ("keep it under $50,000")
            self.found = replace(
                self.found, quantities=tuple(_threshold(q) for q in self.found.quantities)
            )
        self.allowed = _allowed_evidence(allowed)
        leaves: dict[str, LeafFacts] = {}
        containers: dict[str, Container] = {}
        self.resolved = False
        for path in claim.evidence:
            resolved = report.evidence.resolve(path)
            if resolved is None:
                continue
            self.resolved = True
            for facts in self.index.facts(resolved):
                leaves.setdefault(facts.path, facts)
            container = self.index.container(path)
            if container is not None:
                containers.setdefault(container.path, container)
        self.cited: tuple[LeafFacts, ...] = tuple(leaves.values())
        if any(countable(q) for q in self.found.quantities):
            for container in self._lists_cited_whole():
                containers.setdefault(container.path, container)
        keys = {
            w
            for leaf in self.cited
            for w in path_words(leaf.path)
            if language.zipf(w) < INITIALS_ZIPF
        }
        masked = spell_initials(self.found.masked, keys)  # "net promoter score" → nps
        if masked != self.found.masked:
            self.found = replace(self.found, masked=masked)
        self.containers: tuple[Container, ...] = tuple(containers.values())
        self._holds: dict[str, bool] = {}  # could_hold, by leaf path

    @cached_property
    def names(self) -> list[Name]:
        own = set(_LOWER_WORD.findall(self.found.masked))  # words this claim writes lower-case
        return find_names(
            self.found.masked,
            lambda w: w in own or self.index.ordinary(w) or bool(concepts.measures([w])),
        )  # a measure's word ("Turnover was up …") is vocabulary, not a name

    @cached_property
    def lower_names(self) -> list[str]:
        """Names written in lower case: rare words (``language.NAME_ZIPF``) of a fact
        that are neither capitalised names, nor found in the cited evidence, the
        prospect's names or the allowed terms (``they use shopify``). Not names: a
        particle verb (``outscore``), a word with a common English form
        (``language.english_form``: ``alumnus``, ``synced``), any form of an English verb
        (``outran``: lemminflect), a word the report's sentences write in lower case
        (``lifecycle``), a contraction, a typo of a cited word (``misspelt``), an elided
        word the cited value writes joined (``l'ombre``)."""
        if self.claim.kind != "fact":
            return []  # coaching is advice: its rare words are its own
        evidence = self.content_evidence.words
        lowered = self.found.text.lower()
        out = []
        for word in dict.fromkeys(_LOWER_WORD.findall(self.content_text)):
            if len(word) < 4 or word in concepts.NOT_CONTENT or not language.rare(word):
                continue
            if language.particle_verb(word) or language.english_form(word) or language.verb(word):
                continue  # ``outscore``, ``alumnus`` (alumni), ``synced``, ``outran``: English
            if evidence.has(word) or self.name_evidence.contains(word):
                continue
            if word in self.index.prose:
                continue  # the report's sentences write it in lower case: a word, not a name
            if f"{word}'" in lowered or self.misspelt(word):
                continue  # a contraction (``aren't``), or a typo of a cited word
            elided = re.search(rf"\b([a-z]+)'{word}\b", lowered)
            if elided and self.name_evidence.contains(elided.group(1) + word):
                continue  # ``l'ombre``: one token of the cited ``avant que l'ombre``
            out.append(word)
        return out

    def misspelt(self, word: str) -> bool:
        """A rare word a letter or two off a word of the cited evidence (its values, keys
        and the prospect's names): a typo (``poistion`` citing ``position``), left
        undecided (it is not a name of its own, nor proof of one). Compared whole, with
        the same first letter, at most ``typo_edits`` edits (a swap of two letters is one);
        or by stem (``difflib`` ratio 0.8)."""
        stems = sorted(self.content_evidence.words.stems)
        if difflib.get_close_matches(stem(word), stems, n=1, cutoff=0.8):
            return True
        limit = typo_edits(word)
        return any(
            token[0] == word[0] and OSA.distance(word, token, score_cutoff=limit) <= limit
            for token in self.evidence_tokens
        )

    @cached_property
    def evidence_tokens(self) -> frozenset[str]:
        """The whole name tokens of the cited values, keys and the prospect's names."""
        out: set[str] = set()
        for squashed in self.name_evidence.texts:
            bounds = sorted(squashed.bounds)
            out.update(squashed.text[a:b] for a, b in pairwise(bounds))
        return frozenset(t for t in out if len(t) >= TYPO_MIN)

    @cached_property
    def anchorings(self) -> list[Anchoring]:
        """Each quantity against the cited fields — a count of a cited list against its
        items (``counts``), a period with a figure against whole date ranges; one no cited
        value states may still be a derived figure (``derived``) when the claim names its
        relation: next to the figure (operands from any cited values), or anywhere in a
        claim with one figure (operands from two different cited fields)."""
        out = []
        masked = self.found.masked
        figures = any(q.numeric and not q.year_like for q in self.found.quantities)
        dated = any(q.kind in (QKind.PERIOD, QKind.DATE) for q in self.found.quantities)
        whole = figures or (dated and not _says_boundary(words(masked)))  # "covers H1": all
        for q in self.found.quantities:
            before_q = words(masked[: q.start])
            total = before_q[-1:] == ["of"] or before_q[-2:] == ["of", "the"]  # "one of the six"
            counted = countable(q) and list_count(
                words(masked[q.end :]), self.containers, self.index.cells, whole=total
            )
            if counted:
                out.append(anchor_count(q, *counted))
                continue
            a = anchor(q, self.cited, self.containers, whole_periods=whole)
            derivation = None
            if a.problem is not None:
                before, after = words(masked[: q.start]), words(masked[q.end :])
                if in_key(
                    q, _content(before)[-KEY_REACH:] + _content(after)[:KEY_REACH], self.cited
                ):
                    out.append(Anchoring(q, ()))  # ``1st`` of ``1st_prize``: a key word
                    continue
                near = before[-RELATION_REACH:] + after[:RELATION_REACH]
                points = in_points(near)
                years = years_of(self.found.text)
                derivation = derive(
                    q, self.cited, relations_named(near), points=points, years=years
                )
                if derivation is None and len(self.found.quantities) == 1:
                    far = relations_named(words(masked))
                    derivation = derive(q, self.cited, far, apart=True, points=points, years=years)
            if derivation is not None:
                used = tuple(leaf for leaf in self.cited if leaf.path in derivation.operands)
                a = Anchoring(q, used, derivation=derivation)
            out.append(a)
        return out

    @property
    def derivations(self) -> list[Derivation]:
        return [a.derivation for a in self.anchorings if a.derivation is not None]

    @cached_property
    def name_evidence(self) -> NameEvidence:
        texts = [leaf.value_text for leaf in self.cited if leaf.value_text is not None]
        texts += [t for leaf in self.cited for t in leaf.path_texts]
        texts += self.subject_names
        units = frozenset().union(*(leaf.units for leaf in self.cited))
        return NameEvidence(
            texts=(*texts, *self.index.company.texts, *self.allowed.texts),
            units=units | self.index.company.units | self.allowed.units,
        )

    @cached_property
    def content_text(self) -> str:
        """The claim with quantities, identifiers, names, ranked superlatives, the words of
        a relation its derived figures recompute by (``miss … by 0.4 seconds``, ``don't
        use``), the word that places a period (``last year``), ``only`` that weighs a
        figure (``only about 40%``), a bound or hedge before one (``close to``) and the
        negation that says a last year (``haven't … since 2019``) masked: what check 7
        counts (names are check 6's business, and the arithmetic proves the relation, so
        neither is also a missing word)."""
        chars = list(self.found.masked)
        spans = [(n.start, n.end) for n in self.names] + list(self.ranked.spans)
        related = {w for d in self.derivations for w in lexicon.RELATION_WORDS[d.relation]}
        lower = self.found.masked.lower()
        spans += [m.span() for m in _LOWER_WORD.finditer(lower) if m.group(0) in related]
        spans += [m.span() for m in _RELATIVE_PERIOD.finditer(lower)]
        spans += [m.span() for m in _FOCUS.finditer(lower)]
        spans += [m.span() for m in _QUALIFIER.finditer(lower)]
        if "since" in lower and any(
            lexicon.LAST_PATH_WORDS & set(path_words(leaf.path)) for leaf in self.cited
        ):
            spans += [m.span() for m in _NOT_SINCE.finditer(lower)]
        for start, end in spans:
            chars[start:end] = MASK * (end - start)
        return "".join(chars)

    @cached_property
    def cited_passages(self) -> list[tuple[str, str]]:
        """(path, value) of each cited value that is text (a sentence, a name)."""
        texts = self.index.texts
        return [(leaf.path, texts[leaf.path]) for leaf in self.cited if leaf.path in texts]

    @cached_property
    def ranked(self) -> Ranked:
        """The claim's superlatives, ranked among the figure's peers (``verify.ranks``)."""
        if self.claim.kind != "fact":
            return Ranked()
        paths = [p for cited in self.claim.evidence if (p := canonical_path(cited))]
        return rank_findings(
            self.found.masked,
            self.anchorings,
            self.index,
            cited=self.content_evidence.words,
            paths=paths,
        )

    @cached_property
    def content_evidence(self) -> ContentEvidence:
        return ContentEvidence.of(
            self.cited, self.containers, self.index.company_stems | self.record_stems
        )

    def _lists_cited_whole(self) -> list[Container]:
        """The lists every item of which a cited field belongs to (``risks[0].rating`` …
        ``risks[5].rating``): cited item by item, the list is cited, and may be counted."""
        items: dict[str, set[int]] = {}
        for leaf in self.cited:
            for at in list_items(leaf.path):
                items.setdefault(at.list_path, set()).add(at.item)
        out = []
        for path, cited in items.items():
            container = self.index.container(path)
            if container is not None and container.is_list and cited == set(range(container.size)):
                out.append(container)
        return out

    @cached_property
    def subject_names(self) -> list[Squashed]:
        """The name of the record a cited field belongs to (``people[0].name`` for
        ``people[0].notes``): a claim about the notes may name whom they are of."""
        index = self.index
        out: list[Squashed] = []
        for leaf in self.cited:
            at = list_item(leaf.path)
            if at is None or not at.field:
                continue
            for path in index.children.get(at.path, ()):
                fact = index.typed.get(path)
                text = index.leaves[path].value_text if path in index.leaves else None
                named = "name" in path_words(path.rpartition(".")[2])  # its ``name``, ``fullName``
                if named and fact is not None and fact.kind is FactKind.NAME and text is not None:
                    out.append(text)
        return out

    @cached_property
    def record_stems(self) -> frozenset[str]:
        """Stems of the other text fields of each list item a cited passage belongs to
        (``findings[3].title`` for ``findings[3].detail``): a record's title names what
        its detail is about."""
        index = self.index
        out: set[str] = set()
        for leaf in self.cited:
            at = list_item(leaf.path)
            if at is None or not at.field or "." in at.field or not index.passage(leaf.path):
                continue
            for path in index.children.get(at.path, ()):
                if path in index.texts:
                    out |= index.leaves[path].stems
        return frozenset(out)

    @cached_property
    def binding(self) -> Findings:
        """Check 7's rule 1: each figure's own words name what a field of it holds."""
        rival_stems, rival_concepts = self.rivals
        return binding_problems(
            self.found,
            self.anchorings,
            rival_stems,
            self.cited,
            rival_concepts,
            requalified=self.index.requalified,
        )

    @cached_property
    def attribute(self) -> Findings:
        """Check 7's findings: problems (positive evidence) and doubts (wording not found).
        Binding is read for facts and coaching; measures, content and record swaps for
        facts only (coaching is advice: its own words are not the report's)."""
        index = self.index
        rival_stems, rival_concepts = self.rivals
        out = Findings(list(self.binding.problems), list(self.binding.doubts))
        if self.claim.kind == "fact":
            text, evidence = self.content_text, self.content_evidence
            out.extend(
                measure_problems(
                    text,
                    evidence,
                    rival_stems,
                    rival_concepts,
                    lambda words: index.sibling_swap(words, self.cited, self.could_hold),
                    names_cited=self.names_cited_key,
                )
            )
            out.problems += swap_problems(
                text,
                evidence,
                self.cited,
                index.records,
                cells=index.cells,
                phrases=(index.phrases, index.item_stems),
            )
            out.problems += self.crossed_records()
            out.problems += self.ranked.problems
            out.problems += opposite_problems(text, [value for _, value in self.cited_passages])
            out.problems += self.renamed_values()
            out.problems += self.denied_values()
            out.problems += self.affirmed_absences()
            out.problems += substituted_cells(
                self.found.text, self.cited, index.texts, index.all_stems
            )
            out.problems += self.trend_problems()
            out.doubts += self.trend_doubts + self.scope_doubts if not out.problems else []
            out.problems += quantifier_problems(self.found.text, self.cited_passages)
            out.extend(content_problems(*self.content_gap, anchored=self.anchored))
        return out

    @cached_property
    def rivals(self) -> tuple[frozenset[str], frozenset[str]]:
        """The claim's words that name report fields, and the concepts it names that
        report fields hold, kept only where such a field could hold its figures (a list or
        object holds only a count: ``members`` names no rival of three and a half
        minutes)."""
        counts = all(countable(q) for q in self.measured)
        return self.index.rivals(words(self.found.masked), self.could_hold, counts=counts)

    def crossed_records(self) -> list[Problem]:
        """A name held only by one cited item of a list and a role held only by another
        (``Marcus Ellery, the Chief Digital Officer`` citing Marcus's name and Priya's
        title): the claim gives a person another record's role."""
        by_item: dict[str, list[LeafFacts]] = {}
        for leaf in self.cited:
            if (at := list_item(leaf.path)) is not None:
                # a table stored by column (``stakeholders.name[0]``, ``….title[0]``): the
                # items of one index are one record
                table = at.list_path.rpartition(".")[0]
                record = at.path if at.field or not table else f"{table}[{at.item}]"
                by_item.setdefault(record, []).append(leaf)
        if len(by_item) < 2:
            return []
        said = concepts.all_concepts(words(self.found.masked.lower())) & lexicon.ROLE_CONCEPTS
        problems = []
        for name in self.names:
            owners = {
                item
                for item, leaves in by_item.items()
                if any(
                    leaf.value_text and leaf.value_text.contains(name.squashed) for leaf in leaves
                )
            }
            for role in sorted(said):
                holders = {
                    item
                    for item, leaves in by_item.items()
                    if any(role in leaf.concepts for leaf in leaves)
                }
                if owners and holders and not owners & holders:
                    message = f"'{name.text}' is {min(owners)}, but {role} is {min(holders)}'s"
                    problems.append(Problem("attribute.crossed_records", message))
        return problems

    @cached_property
    def stated(self) -> list[tuple[Stated, Callable[[LeafFacts], bool]]]:
        """The values the claim states — each anchored amount and each cited text cell it
        writes — with what could hold each (a value of the same kind; a text)."""
        out: list[tuple[Stated, Callable[[LeafFacts], bool]]] = []
        for a in self.anchorings:
            sources = tuple(s for s in a.sources if isinstance(s, LeafFacts))
            q = a.quantity
            if sources and a.derivation is None and measured(q):
                out.append((Stated(q.start, q.end, q.text, sources), partial(_holds_amount, q)))
        for cell in stated_cells(self.found.masked, self.cited, self.index.cell_words):
            if not any(cell.start < s.end and s.start < cell.end for s, _ in out):
                out.append((cell, _holds_text))
        return out

    def renamed_values(self) -> list[Problem]:
        """A value the claim states whose naming words (``naming_runs``) name the key of
        another field next to the one that holds it better than that one's
        (``VerifierIndex.renamed``): ``footscray have a crowd of 11.11 (77)`` when 11.11
        (77) is the away team's score; ``footscray be the home team`` when footscray is
        ``away_team``. Words between the value and the rival field's own stated value may
        name that one (``_names_neighbour``): no evidence."""
        stated = [s for s, _ in self.stated]
        masked = self.found.masked
        problems = []
        for (value, could_hold), run in zip(self.stated, naming_runs(masked, stated), strict=True):
            if not run.naming:
                continue
            rival = self.index.renamed(value.sources, could_hold, near=run.near, naming=run.naming)
            if rival is not None and not _names_neighbour(masked, value, run, stated, rival):
                own = ", ".join(leaf.path for leaf in value.sources)
                message = (
                    f"'{value.text}' is {own}, but the claim calls it "
                    f"{' '.join(run.naming)!r}, which names {rival}"
                )
                problems.append(Problem("attribute.renamed_value", message))
        return problems

    def denied_values(self) -> list[Problem]:
        """A negator that denies what a cited field states (``attributes.denials``): a
        cited text cell (``be not from the democratic party`` when the party is
        democratic), or a field whose whole key the words after it name and whose value
        is present (``there be no extra point`` when ``extra_points`` is 7; not when it is
        0, ``none`` or ``-``: ``lexicon.ABSENT_VALUES``)."""
        stated = [s for s, _ in self.stated]
        problems = []
        for denial in denials(self.found.masked, stated):
            given = {  # the value is given after the negator: "no video, audio only"
                leaf.path for s in stated if s.start > denial.at for leaf in s.sources
            }
            if denial.value is not None:
                value = stated[denial.value]
                if value.start <= denial.at < value.end:
                    continue  # the negator is the value's own word (``is never measured``)
                if any(self._negative(leaf.path) for leaf in value.sources):
                    continue  # ``has no in-ground probes`` of ``No in-ground probes``
                if any(self._absent_in_row(leaf.path) for leaf in value.sources):
                    continue  # ``no net income figure`` of a row whose value is ``n/a``
                if not value.amount:
                    paths = ", ".join(leaf.path for leaf in value.sources)
                    message = f"the claim denies '{value.text}', which {paths} states"
                    problems.append(Problem("attribute.denied_value", message))
                continue
            said = {stem(w) for w in denial.words}
            named = [
                leaf
                for leaf in self.cited
                if self.index.key_stems.get(leaf.path) and self.index.key_stems[leaf.path] <= said
            ]
            for leaf in named:
                if leaf.path not in given and self.index.present(leaf):
                    message = (
                        f"the claim denies {' '.join(denial.words)!r}, but {leaf.path} states it"
                    )
                    problems.append(Problem("attribute.denied_field", message))
                    break
        return problems

    def _cites_a_series(self) -> bool:
        """Does the claim cite two or more points of one series?"""
        return bool(proof.cited_series(self.series, self.cited))

    def _series_goes(self, sign: int) -> bool:
        """Did a series the claim cites two or more points of go the way ``sign`` says?"""
        direction = proof.direction_of(sign)
        return any(s.direction == direction for s in proof.cited_series(self.series, self.cited))

    def _absent_in_row(self, path: str) -> bool:
        """Is a cited field of the same list item an absent value (``n/a``, ``—``)?"""
        row = list_item(path)
        return row is not None and any(
            (at := list_item(leaf.path)) is not None
            and (at.list_path, at.item) == (row.list_path, row.item)
            and not self.index.present(leaf)
            for leaf in self.cited
        )

    def _negative(self, path: str) -> bool:
        """Does the field's own value open with a negator (``No in-ground probes``)?"""
        leaf = self.evidence.leaf(path)
        first = re.match(r"\W*([A-Za-z]+)", leaf.render()) if leaf is not None else None
        return first is not None and first.group(1).lower() in lexicon.NEGATION_WORDS

    def affirmed_absences(self) -> list[Problem]:
        """A claim with no negator that names a cited field's whole key whose value says
        the thing is absent (``no``, ``none``: ``there be moving part of lead - acid`` when
        ``moving_parts`` is ``no``) says it is there."""
        tokens = words(self.found.masked)
        if set(tokens) & (lexicon.NEGATION_WORDS | lexicon.ABSENT_WORDS):
            return []
        said = {stem(w) for w in tokens}
        for leaf in self.cited:
            key = self.index.key_stems.get(leaf.path)
            text = self.index.texts.get(leaf.path, "").strip().lower()
            if key and key <= said and text in lexicon.ABSENT_WORDS:
                named = " ".join(sorted(key))
                message = f"the claim says there is {named}, but {leaf.path} is {text!r}"
                return [Problem("attribute.affirmed_absence", message)]
        return []

    def trend_problems(self) -> list[Problem]:
        """A direction word anywhere in the claim (``grew``, ``up from the prior year``,
        ``slid``) about a measure whose change the report states with the other sign
        (``Revenue grew to $412.5M`` when ``revenue_growth_pct = -5.0``), or against the
        one change field the claim cites and states no figure of (``Loans rose to $2.59B``
        citing ``loan_growth_pct = -2.3``)."""
        tokens = words(self.content_text)
        said = set(directions(tokens).values())
        if len(said) != 1 or any(a.problem for a in self.anchorings):
            return []  # no one direction, or check 5 already read the signs
        [sign] = said
        problems = self.retention_problems(tokens, sign)
        anchored = {s.path for a in self.anchorings for s in a.sources}  # check 5 read those
        changes = [c for c in self.cited if set(path_words(c.path)) & lexicon.TREND_PATH_WORDS]
        for leaf in changes if len(changes) == 1 else ():  # the one change cited, unstated
            change = next((q for q in leaf.quantities if q.numeric and not q.from_path), None)
            if leaf.path in anchored or change is None or not change.value:
                continue
            if (change.value > 0) != (sign > 0):
                message = f"the claim says it went the other way ({leaf.path} = {change.text})"
                problems.append(Problem("attribute.trend_of_change", message))
        if self._series_goes(sign) or proof.said_in_cited(
            self.evidence, self.cited, self.claim.text
        ):
            return problems  # the cited series went that way, or the report says it itself
        for concept in sorted(concepts.measures(tokens)):
            for path, trend in self.index.trends.get(concept, ()):
                if trend != sign and path not in anchored:
                    value = self.index.leaves[path].quantities[0].text
                    message = f"the claim says {concept} went the other way ({path} = {value})"
                    problems.append(Problem("attribute.trend_of_measure", message))
        return problems

    @cached_property
    def trend_doubts(self) -> list[Problem]:
        """A direction word (``has slipped to 21.6%``, ``keeps rising``) in a fact whose
        cited fields are all levels: a level cannot say whether it changed, so the claim
        is undecided. Not when the cited values say the word too, a cited field is a change
        or a retention level, a figure of the claim is a change check 5 read, or a derived
        change."""
        evidence = self.content_evidence.words
        tokens = words(self.content_text)
        found = directions(tokens)
        said = [tokens[i] for i in found if not evidence.has(tokens[i])]
        if self.claim.kind != "fact" or not said:
            return []  # no direction word, or the cited values say it too
        signs = set(found.values())
        if len(signs) == 1 and self._series_goes(signs.pop()):
            return []  # the cited series went that way: its points are no mere levels
        if any(q.direction for q in self.found.quantities) or any(
            d.relation == "change" for d in self.derivations
        ):
            return []
        for leaf in self.cited:
            if set(path_words(leaf.path)) & lexicon.TREND_PATH_WORDS:
                return []
            if leaf.measures & lexicon.RETENTION_CONCEPTS:
                return []
        named = ", ".join(dict.fromkeys(said))
        message = f"'{named}' says the figure changed, and every cited field is a level"
        return [Problem("attribute.level_changed", message)]

    @cached_property
    def read_from_passages(self) -> list[tuple[Quantity, str]]:
        """Each figure of the claim that a cited passage states, with that passage's path."""
        return [
            (a.quantity, s.path)
            for a in self.anchorings
            if a.quantity.numeric and not a.quantity.optional and a.derivation is None
            for s in a.sources
            if self.index.passage(s.path)
        ]

    @cached_property
    def scope_doubts(self) -> list[Problem]:
        """A figure a cited passage gives only with a name beside it that the claim does
        not say (``81% across the group`` from ``88.9% across the group but 81% at
        Brno``), or as a share of another base (``46% of the membership`` from ``46% of
        closed accounts``): the claim may have dropped, or swapped, what it is of."""
        out: list[Problem] = []
        if not self.read_from_passages:
            return out
        said = set(words(self.found.text))
        for q, path in self.read_from_passages:
            passage, names = self.index.passage_scan(path)
            held = [v for v in passage.quantities if matches(q, v)]
            if unsaid := unsaid_scope(passage, held, names, said):
                message = f"{path} gives '{q.text}' for {', '.join(unsaid)}, not the claim's"
                out.append(Problem("attribute.scope_unsaid", message))
            elif base := other_base(q, self.found, passage, held):
                message = f"{path} gives '{q.text}' of {' '.join(base)}, not the claim's"
                out.append(Problem("attribute.other_base", message))
        return out

    def retention_problems(self, tokens: list[str], sign: int) -> list[Problem]:
        """A direction word about the base (``customer base``, ``revenue``) that a cited
        retention level contradicts: kept above 100% of itself, the base grew."""
        hits = concepts.hits(tokens)
        retention = {
            i
            for h in hits
            if h.concept in lexicon.RETENTION_CONCEPTS
            for i in range(h.start, h.end)
        }
        base = any(h.concept in lexicon.BASE_CONCEPTS and h.start not in retention for h in hits)
        if not base and not lexicon.BASE_WORDS & set(tokens):
            return []
        problems = []
        for leaf in self.cited:
            if not leaf.measures & lexicon.RETENTION_CONCEPTS:
                continue
            for q in leaf.quantities:
                level = q.value * 100 if q.fraction else q.value
                if q.kind is QKind.PERCENT and level != 100 and (level > 100) != (sign > 0):
                    grew = "grew" if level > 100 else "shrank"
                    message = f"{leaf.path} = {q.text}: the base {grew}"
                    problems.append(Problem("attribute.retention_base", message))
        return problems

    def could_hold(self, leaf: LeafFacts) -> bool:
        """Could ``leaf`` hold this claim's figures: a value of the same kind (percent,
        money, unit, count) for each measured number? True when the claim has none. A
        passage says many things, so it could hold a figure only when it states it
        (``shoppers`` somewhere in a finding that gives 38.2% cannot take ``a third``)."""
        held = self._holds.get(leaf.path)
        if held is None:
            measured = self.measured
            if self.index.passage(leaf.path):
                held = all(
                    any(same_kind(q, v) and matches(q, v) for v in leaf.quantities)
                    for q in measured
                )  # same_kind first: it is cheap, and most values are of another kind
                held = held and not self.restates_passage(leaf)
            else:
                held = all(any(same_kind(q, v) for v in leaf.quantities) for q in measured)
            self._holds[leaf.path] = held
        return held

    def restates_passage(self, leaf: LeafFacts) -> bool:
        """Does the claim say each of its figures in words the passage ``leaf`` says it in
        (``Members wait just over three and a half minutes`` beside ``Members wait 212
        seconds on average``)? Then the passage is a second source of the figure, not a
        rival one."""
        pairs = [(v, t) for v, t in zip(leaf.quantities, leaf.clauses, strict=True) if t]
        for q in self.measured:
            near = near_words(*figure_words(self.found, q))
            if not near or not any(matches(q, v) and all(map(t.has, near)) for v, t in pairs):
                return False
        return bool(self.measured)

    def said_near(self, path: str, q: Quantity) -> bool:
        """Is a word the claim says figure ``q`` in also in the sentence of the passage at
        ``path`` that gives it (or has ``q`` no words of its own)? ``HubSpot holds about
        310,000 contacts`` is not ``about 310,000 customers exist in both``."""
        near = near_words(*figure_words(self.found, q))
        passage = self.index.passage_scan(path)[0]
        sentences = [sentence_of(passage, v) for v in passage.quantities if matches(q, v)]
        return not near or any(s.has(w) for s in sentences for w in near)

    @cached_property
    def measured(self) -> list[Quantity]:
        """The claim's anchored figures (what a rival field would have to hold)."""
        return [a.quantity for a in self.anchorings if a.sources and a.quantity.numeric]

    @cached_property
    def content_gap(self) -> tuple[int, list[str]]:
        """How many content words the claim has, and those its evidence lacks."""
        return content_missing(self.content_text, self.content_evidence)

    @cached_property
    def said_stems(self) -> frozenset[str]:
        """Stems of every word the claim writes, names included."""
        return frozenset(stem(w) for w in words(self.found.text))

    @property
    def names_cited_key(self) -> bool:
        """Does the claim write every naming word of a cited field's key, names included
        (``Rule of 40`` for ``rule_of_40``)?"""
        keys = (self.index.key_stems.get(leaf.path, frozenset()) for leaf in self.cited)
        return any(key and key <= self.said_stems for key in keys)

    @cached_property
    def restates(self) -> bool:
        """Does this fact only restate cited values? Every cited field is one value (a
        number, a date or a short text, not a passage: ``index.passage``) that the claim
        names by a word or concept of its key or writes whole, or a passage one of the
        claim's figures is read from, and no two are of different items of one list; the
        claim anchors a number or name or writes a cited value whole, says no change of a
        level (``trend_doubts``) and leaves at most ``RESTATED_GAP`` content words
        unfound. The checks have matched what it states; its unfound word
        frames it (``About 18.7% of purchases end up being returned`` citing
        ``metrics.return_rate``), so ``auto`` posts it unjudged, at its rung, marked. A
        passage it only names may hold a fact it adds (an invented finding)."""
        if self.claim.kind != "fact" or not self.cited or self.trend_doubts:
            return False  # a change said of a level is more than the level
        if self.scope_doubts:
            return False  # what a figure is of is in doubt: more than framing
        said = concepts.measures(words(self.found.masked)) & _PER_PERIOD
        if said - frozenset().union(*(leaf.concepts for leaf in self.cited)):
            return False  # "every month" of a rate a year: a period the fields do not name
        if self._cites_a_series():
            return False  # a claim over a series' points says its shape: more than a value
        missing = self.content_gap[1]
        if len(set(missing)) > RESTATED_GAP or set(missing) & _NEVER_FRAMING:
            return False  # "all", "never", "only", "biggest" unfound: never framing
        unfound = concepts.all_concepts(missing)
        held = frozenset().union(*(leaf.concepts for leaf in self.cited))
        if any(
            unfound & family and held & family - unfound for family in lexicon.EXCLUSIVE_MEASURES
        ):
            return False  # ``most of them on desktop`` where the evidence says mobile
        index = self.index
        claim = squash_text(self.found.text)
        stated = {
            leaf.path
            for leaf in self.cited
            if leaf.value_text and claim.contains(leaf.value_text.text)
            if not index.passage(leaf.path)
        }  # a name written in lower case is no name, but it is the value (``algolia``)
        if not (self.anchored or stated):
            return False
        if _joins_records(leaf.path for leaf in self.cited):
            return False  # ``Linh … insisting on a SOC 2 report``: two people's fields
        named = {hit.concept for hit in concepts.hits(words(self.found.text))}

        figures = {  # the passages a figure is read from, in a word of its sentence there
            path for q, path in self.read_from_passages if self.said_near(path, q)
        }

        def restated(leaf: LeafFacts) -> bool:
            if index.passage(leaf.path):
                return leaf.path in figures
            if leaf.path in stated:
                return True  # ``a not-for-profit`` citing ``company.ownership``
            phrases = path_phrases(leaf.path)
            key = words(" ".join(phrases[1:] or phrases))  # not the section (``metrics``)
            return bool({stem(w) for w in key} & self.said_stems) or any(
                hit.concept in named for hit in concepts.hits(key)
            )

        return all(restated(leaf) for leaf in self.cited)

    @property
    def anchored(self) -> bool:
        """Does the claim carry anything the hard checks can anchor (number, name, id)?"""
        required = [q for q in self.found.quantities if not q.optional]
        return bool(required or self.found.identifiers or self.names)


def _names_neighbour(
    masked: str, value: Stated, run: Naming, stated: Iterable[Stated], path: str
) -> bool:
    """Is the field at ``path`` the one of another stated value that the run also sits
    against, with only the run's words and link words between the two (``ajmer be the
    destination of the garib nwaz exp``: the words may name ajmer)?"""
    between = set(run.near) | set(run.naming) | lexicon.RELATION_LINKS | {"with"}
    for other in stated:
        if other is value or path not in {leaf.path for leaf in other.sources}:
            continue
        after = other.start >= value.end
        gap = masked[value.end : other.start] if after else masked[other.end : value.start]
        if set(words(gap)) <= between:
            return True
    return False


def _content(tokens: list[str]) -> list[str]:
    return [t for t in tokens if t not in language.STOP_WORDS]


def _holds_amount(q: Quantity, leaf: LeafFacts) -> bool:
    """Could ``leaf`` hold the amount ``q``: a value of the same kind?"""
    return any(same_kind(q, v) for v in leaf.quantities)


def _holds_text(leaf: LeafFacts) -> bool:
    """Could ``leaf`` hold a text cell's value: a text with no figure in it?"""
    return leaf.is_text and not any(not q.from_path for q in leaf.quantities)


@lru_cache(maxsize=64)
def _allowed_evidence(allowed: frozenset[str]) -> NameEvidence:
    terms = sorted(t for t in allowed if t.strip())
    return NameEvidence(
        texts=tuple(squash_text(t) for t in terms),
        units=frozenset(squash_name(t) for t in terms),
    )


# --- the checks --------------------------------------------------------------------------


def check_text_nonempty(claim: Claim) -> list[Problem]:
    """2. The claim says something."""
    return [] if claim.text.strip() else [Problem("text.empty", "the claim text is empty")]


def check_pointers_resolve(claim: Claim, report: Report) -> list[Problem]:
    """3. Every cited path resolves in the bound report."""
    return [
        Problem("pointers.unresolved", f"{path!r} does not resolve in report {report.slug}")
        for path in claim.evidence
        if report.evidence.resolve(path) is None
    ]


def check_fact_cites(claim: Claim) -> list[Problem]:
    """4. A fact cites at least one path; no claim cites more than ``MAX_POINTERS``."""
    problems = []
    if claim.kind == "fact" and not claim.evidence:
        problems.append(Problem("cites.none", "a fact must cite at least one field path"))
    if len(claim.evidence) > MAX_POINTERS:
        message = f"{len(claim.evidence)} pointers exceed the cap of {MAX_POINTERS}"
        problems.append(Problem("cites.too_many", message))
    return problems


def check_anchor_warrant(ctx: ClaimContext) -> list[Problem]:
    """5. Every number, percentage, amount, date, period and score matches a cited value."""
    return [a.problem for a in ctx.anchorings if a.problem is not None]


def _singular(key: str) -> tuple[str, ...]:
    """An identifier and, when it ends in a digit and ``s``, its singular: ``ATR 72-600s``
    are aircraft of the type ``72-600``."""
    return (key, key[:-1]) if len(key) > 2 and key.endswith("s") and key[-2].isdigit() else (key,)


def check_entity_warrant(ctx: ClaimContext) -> list[Problem]:
    """6. Every name and identifier appears in the cited values (or is the prospect's own
    name, or an allowed term)."""
    evidence = ctx.name_evidence
    where = "no cited value" if ctx.cited else "no cited value (nothing is cited)"
    problems = [
        Problem(
            "entity.not_cited", f"'{n.text}' appears in {where}{_closest(n.squashed, evidence)}"
        )
        for n in ctx.names
        if not evidence.warrants(n)
    ]
    problems += [
        Problem(
            "entity.rare_word", f"'{word}' reads as a name (a rare word) and appears in {where}"
        )
        for word in ctx.lower_names
    ]
    problems += [
        Problem(
            "entity.identifier",
            f"identifier '{span.text}' appears in {where}"
            f"{_closest(identifier_key(span), evidence)}",
        )
        for span in ctx.found.identifiers
        if not any(evidence.contains(key) for key in _singular(identifier_key(span)))
        and not evidence.abbreviates(identifier_key(span))
    ]
    return problems


def _closest(squashed: str, evidence: NameEvidence) -> str:
    """A near miss among the cited names, as a hint for a rewrite. It never warrants."""
    close = difflib.get_close_matches(squashed, sorted(evidence.units), n=1, cutoff=0.8)
    return f" (closest cited name: {close[0]!r})" if close else ""


def check_attribute_warrant(ctx: ClaimContext) -> list[Problem]:
    """7. Nothing positive says the claim measures something its cited fields do not
    hold (doubts — wording simply not found — leave it undecided instead)."""
    return ctx.attribute.problems


WARRANT_CHECKS: dict[Check, Callable[[ClaimContext], list[Problem]]] = {
    Check.ANCHOR_WARRANT: check_anchor_warrant,
    Check.ENTITY_WARRANT: check_entity_warrant,
    Check.ATTRIBUTE_WARRANT: check_attribute_warrant,
}


def evaluate(
    claim: Claim,
    report: Report,
    *,
    allowed: frozenset[str] = frozenset(),
    skip: frozenset[Check] = frozenset(),
) -> list[Reason]:
    """Run checks 2–7 on one claim; every failure as a ``Reason`` naming its check.

    ``skip`` leaves checks out — for tests that show each check is the one that catches
    a fabrication. Production code never passes it.
    """
    return assess(claim, report, allowed=allowed, skip=skip).reasons


def _threshold(q: Quantity) -> Quantity:
    """A figure of advice as the threshold it names: ``keep the first phase under $50,000``
    and ``if the deal tops $250,000`` name the cited ``above $50,000``, ``$250,000``."""
    return replace(q, bound="eq", direction=None, threshold=True) if q.numeric else q


def _says_boundary(tokens: Sequence[str]) -> bool:
    """Does the claim speak of where a period starts or ends (``began in Q1 2025``,
    ``from March``), so one day of a cited range in a period it names will do?"""
    return any(
        t in lexicon.BOUNDARY_WORDS or lexicon.BOUNDARY_VERBS & set(language.verb_lemmas(t))
        for t in tokens
    )


def _joins_records(paths: Iterable[str]) -> bool:
    """Do ``paths`` reach into two items of one list (``people[4].name``,
    ``people[3].comment``)?"""
    items: dict[str, set[int]] = {}
    for path in paths:
        for at in list_items(path):
            items.setdefault(at.list_path, set()).add(at.item)
    return any(len(cited) > 1 for cited in items.values())


class Assessment(NamedTuple):
    reasons: list[Reason]
    undecided: tuple[Reason, ...] = ()
    """Why check 7 left a claim with no reason undecided; empty when it is settled."""
    derivations: tuple[Derivation, ...] = ()
    restates: bool = False


def assess(
    claim: Claim,
    report: Report,
    *,
    allowed: frozenset[str] = frozenset(),
    skip: frozenset[Check] = frozenset(),
) -> Assessment:
    """The reasons ``evaluate`` gives, the derived figures, and whether a claim with no
    reason is *undecided*: a claim whose wording check 7 could not find in its cited
    evidence (its doubts) — lack of overlap only, never evidence against it. A claim whose
    content words are all found in its cited values is settled (DESIGN §7: it needs no
    judge), anchored or not; ``absent`` claims never are undecided. ``restates``: an
    undecided fact that only restates the cited values it names (``ClaimContext.restates``)."""
    reasons: list[Reason] = []

    def record(check: Check, problems: list[Problem]) -> None:
        if check not in skip:
            reasons.extend(_reason(check, p) for p in problems)

    record(Check.TEXT_NONEMPTY, check_text_nonempty(claim))
    if claim.kind == "absent":
        return Assessment(reasons)
    record(Check.POINTERS_RESOLVE, check_pointers_resolve(claim, report))
    record(Check.FACT_CITES, check_fact_cites(claim))
    ctx = ClaimContext(claim, report, allowed)
    if not claim.text.strip() or (claim.kind == "fact" and not ctx.resolved):
        return Assessment(reasons)
    for check, run in WARRANT_CHECKS.items():
        if check not in skip:
            record(check, run(ctx))
    doubts = [] if reasons else list(ctx.attribute.doubts)
    if doubts and proof.quotes_cited(report, ctx.cited, claim.text):
        doubts = [d for d in doubts if d.rule != FIGURE_UNNAMED]  # its own words, quoted
    if doubts and not ctx.anchored:
        doubts.append(NOTHING_ANCHORED)
    unfound = [_reason(Check.ATTRIBUTE_WARRANT, p) for p in doubts]
    derivations = tuple(ctx.derivations)
    kept, unproven = proof.decide(
        report, ctx.cited, ctx.found.quantities, reasons,
        derived=frozenset(d.figure for d in derivations),
        claim_text=claim.text, names=tuple(n.squashed for n in ctx.names),
    )  # fmt: skip
    if any(d.relation == "part" for d in derivations):
        unproven = [*unproven, proof.PART_UNREAD]  # 70,000 of 318,000 at 22%: which part?
    undecided = () if kept else (*unfound, *unproven)
    restates = bool(undecided) and ctx.restates and not unproven
    return Assessment(kept, undecided, derivations, restates)


FIGURE_UNNAMED = "attribute.figure_unnamed"
_PER_PERIOD = frozenset({"monthly", "quarterly", "weekly", "daily"})
"""Measures that say how often (``data/words/measures.yaml``): a rate of another period is
another figure."""
_NEVER_FRAMING = lexicon.POLARITY | lexicon.HIGHEST | lexicon.LOWEST | lexicon.RIVAL_VERBS
"""Unfound words that assert, never frame: quantifiers, superlatives and the verbs that set
one party against another, when no rule read them."""

NOTHING_ANCHORED = Problem(
    "attribute.nothing_anchored",
    "nothing in the claim (no number, date or name) is anchored to a cited value",
)
"""Said of an undecided claim with nothing anchored."""


def _reason(check: Check, problem: Problem) -> Reason:
    return Reason(check=check, rule=problem.rule, message=problem.message)


def failed_checks(reasons: Iterable[Reason]) -> set[Check]:
    """The checks named by a verdict's reasons."""
    return {r.check for r in reasons}
