"""Context-manager mixins for things that hold a resource: a client, a server, a process.

``Closeable``: ``with thing:`` hands back ``thing`` and calls ``thing.close()`` on the way
out. ``Startable``: ``with thing:`` calls ``thing.start()`` (which returns ``thing``) and
``thing.close()`` on the way out; ``close()`` is ``stop()`` unless a class says otherwise
(a class that owns more than what ``stop()`` releases, like a temporary directory).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType
from typing import Self


class Closeable(ABC):
    """``with thing:`` closes ``thing`` at the end, whatever happened inside."""

    @abstractmethod
    def close(self) -> None:
        """Release what the object holds."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class Startable(Closeable):
    """``with thing:`` starts ``thing`` and closes (by default: stops) it at the end."""

    @abstractmethod
    def start(self) -> Self:
        """Start, and return the object itself (so ``x = Thing().start()`` reads well)."""

    @abstractmethod
    def stop(self) -> None:
        """Stop running and release what ``start()`` took."""

    def close(self) -> None:
        self.stop()

    def __enter__(self) -> Self:
        return self.start()
