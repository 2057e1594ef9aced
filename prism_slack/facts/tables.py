"""Tables stored as a header and rows (``{"columns": [...], "rows": [[...], ...]}``, as
spreadsheet and dataframe exports write them), read once for the compiler and the answerer.

A table is one of two kinds:

- a *figure table*: its first column labels each row, and the rest are periods
  (``["metric", "FY2023", "FY2024"]``) or one value column (``["field", "value"]``); each
  row is one figure (a series when it has two periods or more), named by its label;
- a *record table* (``["name", "title", "notes"]``): each row is a record whose fields
  are named by the header.

A ``units`` object beside the rows gives a unit per row label or per column.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from prism_slack.evidence import join_key

ROW_KEYS = ("rows", "data", "values", "records")
"""The keys a table's rows may be stored under."""


@dataclass(frozen=True, slots=True)
class Table:
    path: str
    """The path of the object that holds the table."""
    key: str
    """The key of its rows (``rows``)."""
    columns: tuple[str, ...]
    rows: Sequence[Sequence[Any]]
    periods: tuple[int, ...]
    """The columns whose header names a period."""
    units: Mapping[str, str]
    figures: bool
    """A figure table: column 0 labels each row's figure."""

    def cell(self, i: int, j: int) -> str:
        return f"{join_key(self.path, self.key)}[{i}][{j}]"

    def row(self, i: int) -> str:
        return f"{join_key(self.path, self.key)}[{i}]"

    def label(self, i: int) -> str | None:
        """Row ``i``'s label, in a figure table."""
        first = self.rows[i][0] if self.figures and self.rows[i] else None
        return first.strip() if isinstance(first, str) and first.strip() else None

    def unit(self, i: int, j: int) -> str | None:
        """The unit the table states for cell ``(i, j)``: by its row's label, else by its
        column's header."""
        label = self.label(i)
        if label is not None and label in self.units:
            return self.units[label]
        return self.units.get(self.columns[j])


def table_of(path: str, obj: Mapping[str, Any], is_period: Callable[[str], bool]) -> Table | None:
    """The table ``obj`` stores, or ``None`` when it is no header-and-rows table;
    ``is_period`` tells a header that names a period (``FY2024``)."""
    columns = obj.get("columns")
    if not (
        isinstance(columns, list)
        and len(columns) >= 2
        and all(isinstance(c, str) and c.strip() for c in columns)
    ):
        return None
    key = next((k for k in ROW_KEYS if isinstance(obj.get(k), list)), None)
    if key is None:
        return None
    rows = obj[key]
    if not rows or not all(isinstance(r, list) and len(r) == len(columns) for r in rows):
        return None
    periods = tuple(j for j, c in enumerate(columns) if j and is_period(c))
    labelled = all(isinstance(r[0], str) for r in rows)
    figures = labelled and (len(periods) == len(columns) - 1 or len(columns) == 2)
    raw_units = obj.get("units")
    units = (
        {str(k): v for k, v in raw_units.items() if isinstance(v, str)}
        if isinstance(raw_units, Mapping)
        else {}
    )
    return Table(path, key, tuple(columns), rows, periods, units, figures)
