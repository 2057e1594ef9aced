"""`prism feedback [TURN] [--limit N] [--json]`: what the bot said lately, and what reps thought.

Lists the most recent turns (newest first) from the state store at ``REDIS_URL``: when,
where, which report, the answer label, how many claims were withheld, and the 👍/👎 votes.
With a turn id (or its first characters), shows that turn's claims with their rung and the
reasons any was withheld. The rep's question is not part of the audit record, so it is
never shown.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

from prism_slack.cli.ask_cmd import store_problem
from prism_slack.errors import ConfigError, StoreUnavailable
from prism_slack.ports import AuditLog, AuditRecord
from prism_slack.settings import Settings
from prism_slack.state.redis_store import open_state_store

EXIT_OK = 0
EXIT_NOT_FOUND = 1
EXIT_STORE = 2
DEFAULT_LIMIT = 20


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "feedback",
        help="recent turns with their label, withheld claims and votes",
        description=__doc__,
    )
    parser.add_argument("turn", nargs="?", help="show one turn (its id or a prefix of it)")
    parser.add_argument("--limit", type=int, default=DEFAULT_LIMIT, metavar="N")
    parser.add_argument("--json", action="store_true", help="one JSON object per turn")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    if settings.redis_url is None:
        print(
            "prism feedback: REDIS_URL is not set, so there is no store to read: without it "
            "each process keeps its turns in its own memory. Set REDIS_URL to the Redis the "
            "server uses",
            file=sys.stderr,
        )
        return EXIT_STORE
    try:
        store = open_state_store(settings.redis_url.get_secret_value())
    except ConfigError as e:
        print(f"prism feedback: {e}", file=sys.stderr)
        return EXIT_STORE
    try:
        return show(store, args.turn, limit=max(args.limit, 1), as_json=args.json)
    except StoreUnavailable as e:
        print(f"prism feedback: {store_problem(store.description, e)}", file=sys.stderr)
        return EXIT_STORE


def show(log: AuditLog, turn: str | None, *, limit: int, as_json: bool) -> int:
    """Print the listing (or one turn) from ``log``; the exit status."""
    records = log.recent_audits(limit if turn is None else max(limit, 1000))
    if turn is not None:
        records = [r for r in records if r.turn_id.startswith(turn)][:1]
        if not records:
            print(f"prism feedback: no recent turn {turn!r}", file=sys.stderr)
            return EXIT_NOT_FOUND
    rows = [summary(r, log.get_feedback(r.turn_id)) for r in records]
    if as_json:
        for row in rows:
            print(json.dumps(row))
    elif turn is not None:
        _details(records[0], rows[0])
    else:
        _table(rows)
    return EXIT_OK


def summary(record: AuditRecord, votes: dict[str, str]) -> dict[str, Any]:
    counted = Counter(votes.values())
    where = record.conversation
    return {
        "turn_id": record.turn_id,
        "at": record.at.isoformat(timespec="seconds"),
        "channel": where.channel,
        "thread": where.thread,
        "report": record.report,
        "outcome": record.outcome,
        "label": record.label.value if record.label else None,
        "method": record.method.value if record.method else None,
        "claims": len(record.verdicts),
        "withheld": len(record.withheld),
        "up": counted.get("up", 0),
        "down": counted.get("down", 0),
    }


def _table(rows: list[dict[str, Any]]) -> None:
    if not rows:
        print("No recent turns.")
        return
    header = ("AT", "TURN", "CHANNEL", "REPORT", "LABEL", "CLAIMS", "WITHHELD", "UP", "DOWN")
    lines = [header] + [
        (
            row["at"],
            row["turn_id"][:12],
            row["channel"],
            row["report"] or "-",
            row["label"] or row["outcome"],
            str(row["claims"]),
            str(row["withheld"]),
            str(row["up"]),
            str(row["down"]),
        )
        for row in rows
    ]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        print("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip())


def _details(record: AuditRecord, row: dict[str, Any]) -> None:
    print(f"turn {record.turn_id} at {row['at']} in {row['channel']} ({row['report'] or '-'})")
    print(
        f"label {row['label'] or row['outcome']} by {row['method'] or '-'}; votes: "
        f"{row['up']} up, {row['down']} down"
    )
    withheld = {w.claim.text: w.reasons for w in record.withheld}
    for verdict in record.verdicts:
        claim = verdict.claim
        mark = "withheld" if claim.text in withheld else "posted"
        print(f"- [{mark}, {verdict.rung.value}] ({claim.kind}) {claim.text}")
        for reason in withheld.get(claim.text) or verdict.reasons:
            print(f"    {reason}")
