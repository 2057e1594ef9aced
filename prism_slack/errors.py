"""The one exception tree of PRISM for Slack.

Adapters translate SDK errors into these (``raise ... from e``); the pipeline and the
surfaces only ever catch ``PrismError`` subclasses.
"""

from __future__ import annotations

from prism_slack.usage import TokenUsage


class PrismError(Exception):
    """Base of every error PRISM raises on purpose."""


class ConfigError(PrismError):
    """Configuration is missing or inconsistent."""


class ReportError(PrismError):
    """A report file is malformed. ``file``, ``path`` and ``problem`` say exactly where."""

    def __init__(self, file: str, path: str, problem: str) -> None:
        self.file = file
        self.path = path
        self.problem = problem
        super().__init__(f"{file}: {path}: {problem}")


class DuplicateReportFile(ReportError):
    """A report file that shares its company name, report id or domain (``same``) with
    ``others``: neither is served."""

    def __init__(self, file: str, path: str, same: str, others: list[str]) -> None:
        self.others = others
        self.same = same
        verb = "has" if len(others) == 1 else "have"
        problem = (
            f"duplicate: {' and '.join(others)} {verb} the same {same}, so neither is served; "
            "remove the copy, or give each report its own company name, report id and domain"
        )
        super().__init__(file, path, problem)


class UnknownReportError(PrismError):
    """No report with that slug; ``known`` lists the slugs there are."""

    def __init__(self, slug: str, known: list[str]) -> None:
        self.slug = slug
        self.known = known
        listing = ", ".join(known) if known else "none"
        super().__init__(f"unknown report {slug!r} (known: {listing})")


class RefusedReportError(UnknownReportError):
    """The slug's file is there but not served: it duplicates another report."""

    def __init__(self, slug: str, known: list[str], duplicate: DuplicateReportFile) -> None:
        PrismError.__init__(self, f"report {slug!r} is not served: {duplicate}")
        self.slug = slug
        self.known = known
        self.duplicate = duplicate


class AnswerParseError(PrismError):
    """An answer does not follow the claim contract; the message names what is wrong."""


class ModelError(PrismError):
    """The model could not produce a usable answer (after retries)."""


class ModelTimeout(ModelError):
    """The model did not answer in time."""


class ModelRateLimited(ModelError):
    """The model kept answering 429 after retries."""


class ModelAuthError(ModelError):
    """The service refused our credentials (401/403, or an invalid API key): it will keep
    refusing until the operator fixes the key, so it is worth one ERROR, not one a turn."""


class ModelOutputError(ModelError):
    """The model answered, but not with the contract (prose, bad JSON, schema, blocked)."""

    def __init__(self, message: str, raw: str = "") -> None:
        self.raw = raw
        self.usage: TokenUsage | None = None
        """What the broken reply cost, when the service said."""
        super().__init__(message)


class StoreUnavailable(PrismError):
    """The state store (Redis) cannot be reached."""
