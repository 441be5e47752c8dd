"""The exceptions of the ``aliasing`` package."""

from __future__ import annotations

__all__ = ["Error", "InputError", "AliasError", "FileError"]


class Error(Exception):
    """Base of every exception this package raises.

    ``str(e)`` is the one-line message the ``alias`` command prints after
    ``error:``; ``e.reason`` a short machine-readable reason (see
    :class:`InputError`).

    >>> import aliasing
    >>> try:
    ...     aliasing.curve("16", bits=8, ber=1e-5)
    ... except aliasing.Error as e:
    ...     print(type(e).__name__, e.reason)
    InputError bad_length
    """

    reason: str

    def __init__(self, message: str, reason: str = "invalid") -> None:
        super().__init__(message)
        self.reason = reason

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class InputError(Error, ValueError):
    """Bad input: an argument, name, value or file the command refuses.

    ``reason`` is one of ``arguments`` (the options themselves),
    ``bad_polynomial``, ``unknown_name``, ``bad_stack``, ``bad_ber``,
    ``bad_length``, ``unsupported``, ``invalid``, ``document``, ``plot``.

    >>> import aliasing
    >>> try:
    ...     aliasing.Crc("crc33")
    ... except aliasing.InputError as e:
    ...     print(e.reason)
    unknown_name
    """


class AliasError(Error, RuntimeError):
    """A valid request that could not be run: ``reason`` is ``too_big``
    (over the memory limit), ``plot`` (drawing failed) or ``internal``.

    >>> import aliasing
    >>> try:
    ...     aliasing.curve("32", bits=100, ber=1e-5, method="markov", memory="1M")
    ... except aliasing.AliasError as e:
    ...     print(e.reason, isinstance(e, RuntimeError))
    too_big True
    """


class FileError(AliasError, OSError):
    """A file that could not be read or written (``reason`` is ``io``).

    >>> import aliasing
    >>> try:
    ...     aliasing.merge("/nonexistent/part.json")
    ... except aliasing.Error as e:
    ...     print(type(e).__name__, isinstance(e, OSError))
    FileError True
    """
