"""The pipeline's replies, in the words of the terminal command that shows them.

A turn's reply names Slack's commands (``/prism bind <company>``); ``prism chat`` has
``/bind <company>`` and ``prism ask`` has ``--report SLUG``.
"""

from __future__ import annotations

from prism_slack.pipeline.result import TurnResult

SLACK_BIND = "`/prism bind <company>`"


def for_terminal(result: TurnResult, bind: str) -> TurnResult:
    """``result`` with Slack's bind command replaced by ``bind`` in its message."""
    if result.message is None or SLACK_BIND not in result.message:
        return result
    return result.model_copy(update={"message": result.message.replace(SLACK_BIND, bind)})
