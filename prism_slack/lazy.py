"""``cached_property`` for objects one thread reads (a claim's ``ClaimContext``).

``functools.cached_property`` takes a lock on every first read in Python 3.11 (3.12
dropped it); a claim's context reads about twenty of them, every claim of every turn.
This one computes the value on first read and keeps it in the instance's ``__dict__``,
where later reads find it without calling the descriptor at all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Self, TypeVar, overload

T = TypeVar("T")


class cached_property(Generic[T]):
    """``functools.cached_property`` without the lock."""

    def __init__(self, func: Callable[[Any], T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type[Any], name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type[Any] | None = None) -> Self: ...
    @overload
    def __get__(self, instance: object, owner: type[Any] | None = None) -> T: ...
    def __get__(self, instance: object | None, owner: type[Any] | None = None) -> T | Self:
        if instance is None:
            return self
        value = self.func(instance)
        instance.__dict__[self.name] = value
        return value
