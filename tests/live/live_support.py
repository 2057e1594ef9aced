"""Shared by the live gates and their conftest: the token usage every gate spent."""

from __future__ import annotations

from prism_slack.usage import TokenUsage

SPENT: list[TokenUsage] = []
