"""The claim contract (DESIGN §5): what the model emits and ``prism verify`` reads.

The same pydantic model is the model's structured-output schema, so the schema the model
is held to and the schema we parse with cannot drift apart.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from prism_slack.errors import AnswerParseError

ClaimKind = Literal["fact", "coaching", "absent"]

ABSENT_TEXT = "That's not in the audit report."


class Claim(BaseModel):
    """One sentence of an answer and the report field paths it points at."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str = Field(description="One sentence. Facts state only what the cited fields hold.")
    kind: ClaimKind = Field(
        description="fact: about the prospect; coaching: advice or hypothesis; "
        "absent: the report does not hold what was asked."
    )
    evidence: list[str] = Field(
        description="Report field paths (e.g. financials.arr_usd, findings[1].detail)."
    )


class Answer(BaseModel):
    """A whole answer: an ordered list of claims."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    claims: list[Claim]


def answer_json_schema() -> dict[str, Any]:
    """The JSON schema handed to the model as its structured-output schema."""
    return Answer.model_json_schema()


def parse_answer(raw: str | bytes | dict[str, Any]) -> Answer:
    """Parse a claim-contract answer, raising ``AnswerParseError`` that names the problem."""
    data: Any = raw
    if isinstance(raw, (str, bytes)):
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as e:
            raise AnswerParseError(f"not valid JSON: {e.msg} at line {e.lineno}") from e
        except RecursionError as e:
            raise AnswerParseError("not valid JSON: nested too deeply") from e
        except ValueError as e:  # e.g. an integer literal longer than Python reads
            raise AnswerParseError(f"not valid JSON: {str(e).split(':')[0]}") from e
    if not isinstance(data, dict):
        raise AnswerParseError(f"expected a JSON object with 'claims', got {type(data).__name__}")
    try:
        return Answer.model_validate(data)
    except ValidationError as e:
        problems = "; ".join(
            f"{_loc(err['loc'])}: {err['msg']}" for err in e.errors(include_url=False)
        )
        raise AnswerParseError(problems) from e


def _loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "answer"
