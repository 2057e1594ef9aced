"""The verifier is pure (DESIGN §6: no randomness): a verdict does not depend on the order
Python's hash seed gives sets. Each seed runs in its own interpreter."""

from __future__ import annotations

import json
import subprocess
import sys

COLUMNS = ("home_team", "home_team_score", "away_team", "away_team_score", "venue", "crowd")
ROWS = [  # TabFact table 2-10776330-9 (MIT), the 1961 VFL season's round 9
    ("geelong", "9.7 (61)", "hawthorn", "10.10 (70)", "kardinia park", "14197"),
    ("collingwood", "14.10 (94)", "st kilda", "12.12 (84)", "victoria park", "27280"),
    ("richmond", "12.10 (82)", "north melbourne", "10.16 (76)", "punt road oval", "10000"),
    ("south melbourne", "8.14 (62)", "melbourne", "14.14 (98)", "lake oval", "10200"),
    ("footscray", "9.5 (59)", "fitzroy", "9.9 (63)", "western oval", "21197"),
    ("essendon", "12.17 (89)", "carlton", "7.12 (54)", "windy hill", "23000"),
]
DATA = {
    "company": {"name": "1961 vfl season", "aliases": []},
    "report": {"id": "2-10776330-9", "generated_at": "2019-12-20"},
    "rows": [{**dict(zip(COLUMNS, row, strict=True)), "date": "17 june 1961"} for row in ROWS],
}
PROBE = """
import json, sys
from prism_slack.claims import Claim
from prism_slack.reports.model import build_report
from prism_slack.verify import verify_claim

report = build_report("vfl", json.loads(sys.argv[1]))
text = "when the away team score be 10.10 (70) the home team be hawthorn"
claim = Claim(text=text, kind="fact", evidence=["rows[0]"])
print([str(r) for r in verify_claim(claim, report).reasons])
"""
SEEDS = ("1", "7")
"""Two keys of this table name the stated score equally well (``away team score`` and
``home team score``); summed in set order, seed 7 once broke that tie the other way."""


def test_a_verdict_does_not_depend_on_the_hash_seed() -> None:
    outputs = {
        subprocess.run(
            [sys.executable, "-c", PROBE, json.dumps(DATA)],
            env={"PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in SEEDS
    }
    assert len(outputs) == 1, outputs
