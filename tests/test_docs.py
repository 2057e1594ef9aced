"""The docs stay true: README's shape, links that stay inside the repository, and every
command the docs show is run (or, for servers and placeholders, its options are checked
against the command's own --help)."""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

import pytest

from prism_slack.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]
TWO_COMMANDS = [
    'scripts/setup && .venv/bin/prism ask --report northwind-outfitters "What do they use for '
    "search, and what's their conversion rate?\"",
    "scripts/test",
]
_FENCE = re.compile(r"```(\w*)\n(.*?)```", re.DOTALL)
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_PLACEHOLDER = re.compile(r"\b(FILE|NAME|SLUG|TURN|DIR|QUESTION|TEXT|ID|N|S|D)\b|\[|export\.json")
LONG_RUNNING = {"serve", "socket"}


def blocks(doc: Path, lang: str | None = None) -> list[str]:
    return [body for kind, body in _FENCE.findall(doc.read_text()) if lang in (None, kind)]


def shown_commands() -> list[tuple[str, list[str]]]:
    """(doc, argv after `prism`) for every `prism …` line of every sh block."""
    found = []
    for doc in DOCS:
        for body in blocks(doc, "sh"):
            for line in body.splitlines():
                command = line.split("  #")[0].strip()
                for prefix in (".venv/bin/prism ", "prism "):
                    if command.startswith(prefix):
                        found.append((doc.name, shlex.split(command[len(prefix) :])))
    return found


def test_readme_starts_with_the_two_commands_and_stays_short() -> None:
    text = README.read_text()
    assert len(text) < 10_000, len(text)
    assert [b.strip() for b in blocks(README, "sh")[:2]] == TWO_COMMANDS
    assert text.index("scripts/setup") < text.index("## What it does")


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_no_doc_points_outside_the_repository(doc: Path) -> None:
    for target in _LINK.findall(doc.read_text()):
        if re.match(r"[a-z]+://", target):
            continue  # a web page, not a file
        path = (doc.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT), f"{doc.name} links outside the repository: {target}"
        assert path.exists(), f"{doc.name} links to a missing {target}"
    assert "../shared" not in doc.read_text()


def test_the_docs_show_commands() -> None:
    assert len(shown_commands()) >= 10


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh clone: nothing configured, run from the repository's root."""
    for name in (
        "GEMINI_API_KEY",
        "REDIS_URL",
        "SLACK_BOT_TOKEN",
        "SLACK_SIGNING_SECRET",
        "SLACK_APP_TOKEN",
        "PRISM_REPORTS_DIR",
        "PRISM_JUDGE",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))


@pytest.mark.parametrize(
    ("doc", "argv"), shown_commands(), ids=[" ".join(a) for _, a in shown_commands()]
)
def test_each_command_the_docs_show_runs_or_exists(
    offline: None, capsys: pytest.CaptureFixture[str], doc: str, argv: list[str]
) -> None:
    runnable = argv and argv[0] not in LONG_RUNNING and not any(map(_PLACEHOLDER.search, argv))
    if runnable:
        assert main(argv) == 0, f"{doc}: prism {' '.join(argv)}\n{capsys.readouterr()}"
        return
    words = [a for a in argv if not a.startswith(("[", "-")) and a.islower() and a.isalpha()]
    with pytest.raises(SystemExit) as done:
        main([*words[:2], "--help"])
    assert done.value.code == 0
    usage = capsys.readouterr().out
    for option in re.findall(r"--[a-z][a-z-]*", " ".join(argv)):
        assert option in usage, f"{doc}: prism {' '.join(argv)}: no {option} in --help"


def test_the_readme_sample_reply_is_what_prism_answers(
    offline: None, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = next(b for b in blocks(README, "") if b.startswith("$ .venv/bin/prism ask"))
    command, *shown = sample.strip().splitlines()
    assert main(shlex.split(command.removeprefix("$ .venv/bin/prism "))) == 0
    assert capsys.readouterr().out.strip().splitlines() == shown


def test_the_fresh_clone_doctor_output_is_what_doctor_prints(
    offline: None, capsys: pytest.CaptureFixture[str]
) -> None:
    operator = ROOT / "docs" / "operator.md"
    shown = next(b for b in blocks(operator, "") if b.startswith("✓ Slack: not configured"))
    assert main(["doctor"]) == 0
    assert capsys.readouterr().out == shown
