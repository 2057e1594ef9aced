"""An all-numeric date the number grammar reads more than one way, read by python-dateutil.

The grammar gives ``03/09/2026``, ``15 / 3 / 03`` or ``14.09.07`` every reading it may have
(day or month first, a two-digit year in either century), which is what a claim is matched
against. A typed fact needs the one date a person reads, or none: ``one_date`` parses the
text month-first and day-first and keeps the date only when both agree (``15/3/03`` is 15
March 2003; ``03/09/2026`` stays open). A two-digit year takes dateutil's century (within
fifty years of now). Chosen by ``bench/library_trial.py`` (issue 19).
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache

from dateutil import parser

_NUMBERS = re.compile(r"\d+")


@lru_cache(maxsize=4096)
def one_date(text: str) -> dt.date | None:
    """The one calendar day ``text`` names, or ``None`` when it reads two ways, is not
    three numbers (day, month, year), or does not parse."""
    if len(_NUMBERS.findall(text)) != 3:
        return None
    try:
        readings = {parser.parse(text, dayfirst=first).date() for first in (False, True)}
    except (ValueError, OverflowError):
        return None
    return readings.pop() if len(readings) == 1 else None
