"""Records: small immutable values, written as plain classes.

Why not `dataclasses` or `typing.NamedTuple`: CPython 3.11 builds each of those from generated
source at import time (`exec` for a dataclass's methods, `eval` for a named tuple's `__new__`,
and a compile for every string annotation), about 1 ms a dataclass and 0.2 ms a named tuple,
and the first compile of a process costs a millisecond more. `ocp lint` of one small file
defines some thirty records, and must start within 3× a bare interpreter (issue 28). A record
writes its `__init__` out, so that code is compiled once, into the module's .pyc, like any
other function. Its members are `Final` in the class body, so mypy holds them immutable, and
its `__slots__` name them (sorted, as ruff keeps them): equality, hashing, `repr` and `replace`
are read from them here, once for every record.

A record is not a tuple (a named tuple is: iterable, indexable, equal to a plain tuple), so
nothing can read one by position by mistake. The hot values made by the thousand, `Finding`
and the secret scan's hits, stay named tuples: a tuple is made in C.
"""

from __future__ import annotations

from app import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Self


class Record:
    """The base of a record: subclasses set ``__slots__`` to their members, each one a
    parameter of their ``__init__`` of the same name, and assign each there."""

    __slots__: tuple[str, ...] = ()

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self.__slots__])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self).__qualname__, self._values()))

    def __repr__(self) -> str:
        members = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__qualname__}({members})"

    def replace(self, **changes: object) -> Self:
        """A copy with ``changes`` in place of members (``dataclasses.replace``)."""
        unknown = set(changes) - set(self.__slots__)
        if unknown:
            raise TypeError(f"{type(self).__qualname__} has no member {sorted(unknown)[0]!r}")
        values = {name: changes.get(name, getattr(self, name)) for name in self.__slots__}
        return type(self)(**values)
