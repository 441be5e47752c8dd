"""Exact and simulated probabilities that a corrupted frame passes its CRC and
checksums: the ``alias`` commands as Python functions.

Each function runs the command in-process, through the same code as the
``alias`` binary, and returns a :class:`Result` holding the command's JSON
document (``alias ... --format json``): ``to_dict()`` equals what the binary
prints. Keyword arguments are the command's options with ``_`` for ``-``
(``max_weight=5`` is ``--max-weight 5``); a list where the option takes a
comma-separated list, a scalar for a one-element list.

>>> import aliasing
>>> r = aliasing.curve("crc16-ccitt", bytes=[64, 1518], ber=1e-5)
>>> r.kind, r.method, len(r.points)
('curve', 'dual', 2)
>>> r.column("bits").tolist()
[512, 12144]

The computation runs without the GIL (other Python threads go on), Ctrl-C
stops it (``KeyboardInterrupt``), and ``progress=True`` draws a tqdm bar
(or pass a callable ``progress(stage, done, total)``).

Bad input raises :class:`InputError` (a ``ValueError``) with the command's
one-line message.
"""

from __future__ import annotations

import html
import json
import math
import os
import tempfile
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Union

from . import _native
from ._errors import AliasError, Error, FileError, InputError

__version__: str = _native.__version__

__all__ = [
    "AliasError",
    "Crc",
    "Error",
    "FileError",
    "InputError",
    "Result",
    "compare",
    "curve",
    "hd",
    "merge",
    "run",
    "search",
    "simulate",
    "stack",
    "transfer",
    "TransferResult",
    "weights",
]


class Crc:
    """A CRC, in any notation ``alias --crc`` accepts, validated at construction.

    ``spec`` may be a RevEng catalogue name (``"CRC-32/ISCSI"``), an alias
    (``"crc32"``, ``"ethernet"``, ``"crc16-ccitt"``), a bare width (``"16"``:
    the default primitive polynomial of that width) or a polynomial in full
    (``"0x18005"``), normal (``"16:0x8005"``), Koopman (``"k:0xC002"``) or
    reversed (``"r16:0xA001"``) notation. An unknown name or bad polynomial
    raises :class:`InputError`. The catalogue's entries are constants of this
    module (``aliasing.CRC_32_ISO_HDLC``, ...). Anywhere a CRC or check is
    taken, a ``Crc`` or a string may be given.

    >>> c = Crc("k:0x82608EDB")
    >>> c.width, c.full, c.koopman
    (32, '0x104C11DB7', '0x82608EDB')
    >>> CRC_32_ISCSI.koopman
    '0x8F6E37A0'
    """

    __slots__ = (
        "spec",
        "name",
        "width",
        "full",
        "normal",
        "koopman",
        "reversed",
        "init",
        "refin",
        "refout",
        "xorout",
        "check",
    )

    spec: str
    """The notation given (passed to the command as is)."""
    name: str
    """Catalogue name, or ``primitive-W`` / the polynomial for a plain generator."""
    width: int
    """Number of check bits."""
    full: str
    """Generator in full notation (the x^r term included), e.g. ``0x104C11DB7``."""
    normal: str
    """Generator in normal notation (``width:0x...``, the x^r term left out)."""
    koopman: str
    """Generator in Koopman notation (the x^0 term left out)."""
    reversed: str
    """Generator in reversed (reflected normal) notation."""
    init: int
    """Initial register."""
    refin: bool
    """Input reflected."""
    refout: bool
    """Output reflected."""
    xorout: int
    """Final XOR."""
    check: Optional[int]
    """CRC of ASCII ``123456789`` for catalogue entries, else ``None``."""

    def __init__(self, spec: Union[str, "Crc"]) -> None:
        if isinstance(spec, Crc):
            spec = spec.spec
        if not isinstance(spec, str):
            raise InputError(
                f"a CRC is a string or aliasing.Crc, not {type(spec).__name__}", "arguments"
            )
        info = _native.resolve_crc(spec)
        object.__setattr__(self, "spec", spec)
        for k, v in info.items():
            object.__setattr__(self, k, v)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Crc is immutable")

    def __str__(self) -> str:
        return self.spec

    def __repr__(self) -> str:
        return f"Crc({self.spec!r})"

    def _key(self) -> tuple:
        return (self.full, self.init, self.refin, self.refout, self.xorout)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Crc):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


def _catalogue() -> Dict[str, Crc]:
    return {const: Crc(name) for const, name in _native.catalogue()}


CATALOGUE: Dict[str, Crc] = _catalogue()
"""The RevEng catalogue: constant name (``CRC_32_ISO_HDLC``) to :class:`Crc`."""
globals().update(CATALOGUE)
__all__ += sorted(CATALOGUE)
__all__ += ["CATALOGUE"]


# ---------------------------------------------------------------------------
# results

# lists of rows in result documents, in the order they are looked for
_ROW_KEYS = ("points", "results", "weights", "profile", "checks")


class Result:
    """The JSON document of one command, as the ``alias`` binary prints it
    with ``--format json``.

    ``r["key"]`` reads a top-level field; :meth:`to_dict` gives the whole
    document, :meth:`column` one field of every row of :attr:`points` as a
    numpy array.

    >>> r = curve("crc16-ccitt", bits=[512, 1024], ber=[1e-5, 1e-7])
    >>> r.column("p_undetected").dtype
    dtype('float64')
    """

    __slots__ = ("_text", "_parsed")

    def __init__(self, text: str) -> None:
        self._text = text
        self._parsed: Any = None

    @property
    def _doc(self) -> Any:
        # parsed on first use: a result only saved or passed on is never parsed
        d = self._parsed
        if d is None:
            d = self._parsed = json.loads(self._text)
        return d

    @property
    def kind(self) -> str:
        """The document's kind: ``curve``, ``hd``, ``weights``, ``compare``,
        ``stack``, ``search``, ``simulate``, ... (``simulate`` sweeps are
        lists of documents and have kind ``simulate``).

        >>> hd("crc32c", max_bits=200).kind
        'hd'
        """
        d = self._doc
        if isinstance(d, list):
            return str(d[0].get("kind", "")) if d and isinstance(d[0], dict) else ""
        return str(d.get("kind", ""))

    @property
    def schema(self) -> Optional[int]:
        """The document schema's version.

        >>> isinstance(curve("16", bits=512, ber=1e-5).schema, int)
        True
        """
        return self._doc.get("schema") if isinstance(self._doc, dict) else None

    @property
    def method(self) -> Optional[str]:
        """The exact method used (``markov``, ``dual``, ...) where the document says.

        >>> curve("16", bits=512, ber=1e-5, method="markov").method
        'markov'
        """
        return self._doc.get("method") if isinstance(self._doc, dict) else None

    @property
    def check(self) -> Optional[Dict[str, Any]]:
        """The CRC or check the document is about (its ``check`` or ``crc``
        block: name, width, generator), where it has one.

        >>> curve(CRC_16_KERMIT, bytes=64, ber=1e-5).check["name"]
        'CRC-16/KERMIT'
        """
        if not isinstance(self._doc, dict):
            return None
        c = self._doc.get("check", self._doc.get("crc"))
        return c if isinstance(c, dict) else None

    @property
    def points(self) -> List[Dict[str, Any]]:
        """The document's rows: ``points`` (curve, compare, stack), ``results``
        (search), ``weights`` (weights), ``profile`` (hd) or ``checks``
        (simulate); every document of a sweep for a list of documents.

        >>> [p["bits"] for p in curve("16", bits=[512, 1024], ber=1e-5).points]
        [512, 1024]
        """
        d = self._doc
        if isinstance(d, list):
            return list(d)
        for k in _ROW_KEYS:
            v = d.get(k)
            if isinstance(v, list):
                return v
        return []

    def __getitem__(self, key: str) -> Any:
        return self._doc[key]

    def __contains__(self, key: object) -> bool:
        return isinstance(self._doc, dict) and key in self._doc

    def keys(self) -> Iterable[str]:
        """The document's top-level keys.

        >>> "points" in curve("16", bits=512, ber=1e-5).keys()
        True
        """
        return self._doc.keys() if isinstance(self._doc, dict) else []

    def to_dict(self) -> Dict[str, Any]:
        """The document as fresh Python objects (a list for a simulate sweep),
        equal to ``json.loads`` of the binary's ``--format json`` output.

        >>> d = curve("16", bits=512, ber=1e-5).to_dict()
        >>> d["kind"], d["points"][0]["bits"]
        ('curve', 512)
        """
        return json.loads(self._text)

    def to_json(self) -> str:
        """The document's text, as the binary prints it.

        >>> curve("16", bits=512, ber=1e-5).to_json().startswith("{")
        True
        """
        return self._text

    def column(self, name: str):
        """One field of every row of :attr:`points` as a numpy array: int64
        when every value is an integer, else float64 (``None`` as NaN).
        ``name`` may reach into nested objects with dots (``stack.rate``,
        ``joint.estimate``, ``escapes.low``); an object itself is not a
        column (``TypeError`` naming its fields), nor is a list.

        >>> curve("16", bits=[512, 1024], ber=1e-6).column("p_error").shape
        (2,)
        """
        import numpy as np

        values = []
        for i, row in enumerate(self.points):
            v: Any = row
            for part in name.split("."):
                if not isinstance(v, dict) or part not in v:
                    raise KeyError(f"row {i} of this {self.kind} result has no field `{name}`")
                v = v[part]
            values.append(v)
        if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return np.asarray(values, dtype=np.int64)
        out = []
        for v in values:
            if v is None:
                out.append(math.nan)
            elif isinstance(v, (int, float)) and not isinstance(v, bool):
                out.append(float(v))
            elif isinstance(v, dict):
                fields = ", ".join(f"`{name}.{k}`" for k in v)
                raise TypeError(
                    f"field `{name}` of this {self.kind} result is an object: "
                    f"name one of its fields ({fields})"
                )
            else:
                raise TypeError(f"field `{name}` of this {self.kind} result is not numeric")
        return np.asarray(out, dtype=np.float64)

    def to_pandas(self):
        """The rows of :attr:`points` as a pandas DataFrame, nested objects
        flattened to dotted column names (needs pandas).

        >>> df = curve("16", bits=[512, 1024], ber=[1e-5, 1e-6]).to_pandas()
        >>> df.shape[0], list(df.columns[:3])
        (4, ['ber', 'bits', 'data_bits'])
        """
        try:
            import pandas as pd
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("to_pandas needs pandas: pip install pandas") from e
        return pd.json_normalize(self.points)

    def _repr_html_(self) -> str:
        """An HTML table of the rows (at most 200) for notebooks.

        >>> curve("16", bits=[512, 1024], ber=1e-5)._repr_html_().count("<tr>")
        3
        """
        rows = self.points
        title = html.escape(f"aliasing {self.kind} result")
        c = self.check
        if c and "name" in c:
            title += " &mdash; " + html.escape(str(c["name"]))
        if self.method:
            title += html.escape(f" (method: {self.method})")
        if not rows:
            return f"<b>{title}</b><pre>{html.escape(self._text[:4000])}</pre>"
        cols: List[str] = []
        for r in rows:
            for k in r:
                if k not in cols:
                    cols.append(k)
        head = "".join(f"<th>{html.escape(k)}</th>" for k in cols)
        body = []
        for r in rows[:200]:
            cells = "".join(f"<td>{html.escape(_cell(r.get(k)))}</td>" for k in cols)
            body.append(f"<tr>{cells}</tr>")
        more = f"<p>... {len(rows) - 200} more rows</p>" if len(rows) > 200 else ""
        return (
            f"<b>{title}</b><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>{more}"
        )

    def __repr__(self) -> str:
        return f"<aliasing.{type(self).__name__} kind={self.kind!r} rows={len(self.points)}>"

    def plot(
        self,
        path: Union[str, "os.PathLike[str]"],
        *,
        y: str = "alias",
        x: str = "auto",
        size: Optional[Sequence[int]] = None,
    ) -> None:
        """Draws the result to ``path`` (``.svg`` or ``.png``) through ``alias
        plot``: ``y`` is ``alias`` (P(alias | error)) or ``undetected``
        (P_ud), ``x`` is ``auto``, ``bits`` or ``bytes``, ``size`` a
        ``(width, height)`` in pixels. Curves, comparisons, stacks and
        simulations can be drawn.

        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "crc16.svg")
        >>> curve("16", bits=[512, 1024, 2048], ber=[1e-5, 1e-7]).plot(path)
        >>> open(path).read(4)
        '<svg'
        """
        fd, tmp = tempfile.mkstemp(suffix=".json", prefix="aliasing-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(self._text)
            argv = ["plot", tmp, "--output=" + os.fspath(path), "--y=" + y, "--x=" + x]
            if size is not None:
                w, h = size
                argv.append(f"--size={int(w)}x{int(h)}")
            _native.run(argv, None)
        finally:
            os.unlink(tmp)


def _cell(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, (dict, list)):
        return json.dumps(v)
    return "" if v is None else str(v)


class TransferResult(Result):
    """The document of :func:`transfer` (``alias transfer --format json``),
    with its top-level fields as typed attributes.

    Its rows (:attr:`points`) hold plain numbers (``mtu``, ``frame_bytes``,
    ``payload_bytes``, ``frames``, ``frames_sent``, ``ber``, ``hops``,
    ``p_error``, ``bytes_per_escape``, ``independence_escapes``) and three
    objects, named in columns as in :func:`stack`'s ``joint``: with a dot,
    ``joint_per_frame.estimate`` / ``.low`` / ``.high`` / ``.method``,
    ``escapes.estimate`` / ``.low`` / ``.high`` and ``p_at_least_one.estimate``
    / ``.low`` / ``.high``. ``column("escapes")`` alone is refused
    (``TypeError`` naming those fields), and :meth:`to_pandas` names its
    columns the same way. An estimate is NaN in a column (``None`` in
    :meth:`to_dict`) where only the certified bracket ``[low, high]`` is
    known; ``frames_sent`` is NaN only where it overflows a double.

    >>> r = transfer(size="1GB", mtu=68, ber=[1e-6, 1e-7], stack="ipv4-tcp+CRC-16/ARC",
    ...              max_weight=4, samples=0)
    >>> r.size_bytes, r.stack, r.column("frames").tolist()
    (1000000000, 'ipv4-tcp+CRC-16/ARC', [35714286, 35714286])
    >>> r.column("escapes.low").dtype
    dtype('float64')
    """

    __slots__ = ()

    @property
    def size_bytes(self) -> int:
        """Bytes transferred (TCP payload), exactly (up to 2^64, which the
        JSON writes as a string).

        >>> transfer(size="1KiB", mtu=68, ber=1e-7, stack="ipv4-tcp+CRC-16/ARC",
        ...          max_weight=4, samples=0).size_bytes
        1024
        """
        return int(self._doc["size_bytes"])

    @property
    def stack(self) -> str:
        """The stack the frames cross (``ethernet-tcp``, ``ipv4-tcp+CRC-16/ARC``, ...)."""
        return str(self._doc["stack"])

    @property
    def payload_file(self) -> Optional[str]:
        """The file whose size was used (``payload=``), else ``None``."""
        v = self._doc.get("payload_file")
        return None if v is None else str(v)

    @property
    def model(self) -> Any:
        """The document's statement of the model (see ``docs/guide/transfer.md``)."""
        return self._doc.get("model")

    @property
    def digest(self) -> Optional[str]:
        """The end-to-end CRC over each segment's data (``digest=``), by its
        catalogue name, else ``None``."""
        v = self._doc.get("digest")
        return None if v is None else str(v)


# ---------------------------------------------------------------------------
# argument lists

# options that take several values as separate arguments (`--merge a b`)
_MULTI = frozenset({"merge"})
# options given once per value (`--corruption A --corruption B`)
_REPEATED = frozenset({"corruption"})
# options whose values are counts: 1e9 is passed as 1000000000
_COUNTS = frozenset(
    {"frames", "samples", "errors", "candidates", "sample", "seed", "threads", "budget", "size"}
)


def _value(name: str, v: Any) -> str:
    # the common cases first: this runs for every option of every call
    t = type(v)
    if t is str:
        return v
    if t is int:
        return str(v)
    if t is float and name not in _COUNTS:
        return repr(v)
    if isinstance(v, Crc):
        return v.spec
    if isinstance(v, bool):
        raise InputError(f"{name}= takes a value, not {v}", "arguments")
    if isinstance(v, (str, os.PathLike)):
        return os.fspath(v)
    if isinstance(v, int) or type(v).__name__.startswith(("int", "uint")):
        return str(int(v))
    if isinstance(v, float) or type(v).__name__.startswith("float"):
        f = float(v)
        if name in _COUNTS and f.is_integer() and abs(f) < 2.0**63:
            return str(int(f))
        return repr(f)
    if isinstance(v, (list, tuple)) or type(v).__name__ == "ndarray":
        items = [_value(name, x) for x in v]
        if not items:
            raise InputError(f"{name}= is an empty list", "arguments")
        return ("/" if name == "shard" else ",").join(items)
    raise InputError(f"{name}= cannot be {type(v).__name__}", "arguments")


# option name -> flag (`max_weight` -> `--max-weight`), filled as met
_FLAGS: Dict[str, str] = {}


def _argv(command: str, positional: Sequence[Any], options: Dict[str, Any]) -> List[str]:
    argv = [command]
    for p in positional:
        argv.append(_value(command, p))
    for key, v in options.items():
        if v is None or v is False:
            continue
        flag = _FLAGS.get(key)
        if flag is None:
            flag = _FLAGS[key] = "--" + key.replace("_", "-")
        if v is True:
            argv.append(flag)
        elif key in _MULTI and isinstance(v, (list, tuple)):
            argv.append(flag)
            argv.extend(_value(key, x) for x in v)
        elif key in _REPEATED and isinstance(v, (list, tuple)):
            if not v:
                raise InputError(f"{key}= is an empty list", "arguments")
            argv.extend(f"{flag}={_value(key, x)}" for x in v)
        else:
            argv.append(f"{flag}={_value(key, v)}")
    return argv


_Progress = Union[None, bool, Callable[[str, int, int], Any]]


class _Tqdm:
    """Turns the run's progress into a tqdm bar, one bar per stage."""

    def __init__(self) -> None:
        from tqdm.auto import tqdm

        self._tqdm = tqdm
        self._bar = None
        self._stage: Optional[str] = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        if self._bar is None or stage != self._stage or done < self._bar.n:
            self.close()
            self._bar = self._tqdm(total=total or None, desc=stage, unit=" " + stage.split()[-1])
            self._stage = stage
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def run(*argv: str, progress: _Progress = None) -> Result:
    """Runs any ``alias`` command from its command line (without the program
    name and without ``--format``/``-o``) and returns its document.

    >>> run("hd", "--crc", "crc32c", "--max-bits", "200").kind
    'hd'
    """
    return _run([str(a) for a in argv], progress)


def _run(argv: List[str], progress: _Progress, cls: type = Result) -> Any:
    if progress is True:
        try:
            bar = _Tqdm()
        except ImportError:
            bar = None
        if bar is None:
            return cls(_native.run(argv, None))
        try:
            return cls(_native.run(argv, bar))
        finally:
            bar.close()
    if progress is False or progress is None:
        return cls(_native.run(argv, None))
    if not callable(progress):
        raise InputError("progress= is True, False, None or a callable", "arguments")
    return cls(_native.run(argv, progress))


_Check = Union[str, Crc]
_Num = Union[int, float]
_Nums = Union[_Num, Sequence[_Num], str]
_Path = Union[str, "os.PathLike[str]"]


# ---------------------------------------------------------------------------
# the commands


def curve(
    crc: Optional[_Check] = None,
    *,
    check: Optional[_Check] = None,
    bits: Optional[_Nums] = None,
    bytes: Optional[_Nums] = None,
    ber: Optional[_Nums] = None,
    burst: Optional[Sequence[float]] = None,
    method: Optional[str] = None,
    payload: Optional[_Path] = None,
    payload_hex: Optional[str] = None,
    frame: Optional[_Path] = None,
    frame_hex: Optional[str] = None,
    memory: Optional[str] = None,
    plot: Optional[_Path] = None,
    allow_long: bool = False,
    progress: _Progress = None,
    **options: Any,
) -> Result:
    """Exact P(undetected) and P(alias | error) against frame length for one
    check (``alias curve``).

    ``crc`` a CRC (or ``check=`` a checksum: ``internet``, ``fletcher16``,
    ``fletcher32``, ``adler32``); lengths as ``bits=`` or ``bytes=`` (values,
    or ``"START:STOP:STEP"``/``"log:START:STOP:N"`` strings; check bits
    included); ``ber=`` bit error rates; ``burst=(pg, pb, g2b, b2g)`` a
    Gilbert-Elliott channel instead; ``method=`` ``auto``, ``markov`` or
    ``dual``. Rows (``points``): ``ber``, ``bits``, ``data_bits``,
    ``p_error``, ``p_undetected``, ``p_alias_given_error``.

    >>> r = curve(CRC_16_ARC, bytes=1518, ber=[1e-5, 1e-7])
    >>> [f"{p:.3e}" for p in r.column("p_undetected")]
    ['2.449e-10', '2.761e-18']
    """
    return _run(
        _argv(
            "curve",
            [],
            dict(
                crc=crc,
                check=check,
                bits=bits,
                bytes=bytes,
                ber=ber,
                burst=burst,
                method=method,
                payload=payload,
                payload_hex=payload_hex,
                frame=frame,
                frame_hex=frame_hex,
                memory=memory,
                plot=plot,
                allow_long=allow_long,
                **options,
            ),
        ),
        progress,
    )


def hd(
    crc: _Check,
    *,
    max_hd: Optional[int] = None,
    max_bits: Optional[int] = None,
    budget: Optional[_Num] = None,
    plot: Optional[_Path] = None,
    allow_long: bool = False,
    progress: _Progress = None,
    **options: Any,
) -> Result:
    """Hamming-distance profile of a CRC, in the notation of Koopman's tables
    (``alias hd``): ``profile`` rows give each Hamming distance and the
    longest codeword (data bits) that keeps it, ``bursts`` the burst
    detection.

    >>> hd("crc16-ccitt", max_bits=200)["hd_at_least"]
    4
    """
    return _run(
        _argv(
            "hd",
            [],
            dict(
                crc=crc,
                max_hd=max_hd,
                max_bits=max_bits,
                budget=budget,
                plot=plot,
                allow_long=allow_long,
                **options,
            ),
        ),
        progress,
    )


def weights(
    crc: _Check,
    *,
    bits: Optional[int] = None,
    max_weight: Optional[int] = None,
    method: Optional[str] = None,
    dual: bool = False,
    shard: Optional[Union[str, Sequence[int]]] = None,
    out: Optional[_Path] = None,
    plot: Optional[_Path] = None,
    allow_long: bool = False,
    progress: _Progress = None,
    **options: Any,
) -> Result:
    """Weight distribution A_w of a CRC code at one length, and of its dual
    with ``dual=True`` (``alias weights``). Rows (``weights``): ``w``,
    ``count`` (counts may be big integers).

    >>> [r["count"] for r in weights("8", bits=40, max_weight=3).points][:3]
    [1, 0, 0]
    """
    return _run(
        _argv(
            "weights",
            [],
            dict(
                crc=crc,
                bits=bits,
                max_weight=max_weight,
                method=method,
                dual=dual,
                shard=shard,
                out=out,
                plot=plot,
                allow_long=allow_long,
                **options,
            ),
        ),
        progress,
    )


def compare(
    *,
    bytes: Optional[_Nums] = None,
    ber: Optional[_Nums] = None,
    checks: Optional[Union[_Check, Sequence[_Check]]] = None,
    payload: Optional[_Path] = None,
    payload_hex: Optional[str] = None,
    frame: Optional[_Path] = None,
    frame_hex: Optional[str] = None,
    plot: Optional[_Path] = None,
    allow_long: bool = False,
    progress: _Progress = None,
    **options: Any,
) -> Result:
    """Several checks side by side at the same lengths and BERs (``alias
    compare``). Rows (``points``): ``check``, ``bytes``, ``bits``, ``ber``,
    ``p_error``, ``p_undetected``, ``p_alias_given_error``.

    >>> r = compare(bytes=64, ber=1e-5, checks=["crc16", "internet"])
    >>> [p["check"] for p in r.points]
    ['CRC-16/ARC', 'Internet']
    """
    return _run(
        _argv(
            "compare",
            [],
            dict(
                bytes=bytes,
                ber=ber,
                checks=checks,
                payload=payload,
                payload_hex=payload_hex,
                frame=frame,
                frame_hex=frame_hex,
                plot=plot,
                allow_long=allow_long,
                **options,
            ),
        ),
        progress,
    )


def stack(
    stack: Optional[str] = None,
    *,
    bytes: Optional[_Nums] = None,
    ber: Optional[_Nums] = None,
    max_weight: Optional[int] = None,
    samples: Optional[_Num] = None,
    seed: Optional[int] = None,
    shard: Optional[Union[str, Sequence[int]]] = None,
    out: Optional[_Path] = None,
    checkpoint: Optional[_Path] = None,
    merge: Optional[Sequence[_Path]] = None,
    plot: Optional[_Path] = None,
    allow_long: bool = False,
    progress: _Progress = None,
    **options: Any,
) -> Result:
    """Exact joint escape of a stack of checks (default ``ethernet-tcp``:
    FCS + IPv4 + TCP) against the independence product (``alias stack``).
    Rows (``points``): ``bytes``, ``bits``, ``ber``, ``p_error``, ``joint``,
    ``independence_product``, ``ratio``, ``checks``, ``terms``, ``joint`` (an
    object: ``joint.estimate``, ``joint.low``, ``joint.high``, ``joint.method``).

    >>> r = stack("ethernet-tcp", bytes=64, ber=1e-4, max_weight=3)  # doctest: +SKIP
    >>> r.column("joint.estimate").shape  # doctest: +SKIP
    (1,)
    """
    return _run(
        _argv(
            "stack",
            [],
            dict(
                stack=stack,
                bytes=bytes,
                ber=ber,
                max_weight=max_weight,
                samples=samples,
                seed=seed,
                shard=shard,
                out=out,
                checkpoint=checkpoint,
                merge=merge,
                plot=plot,
                allow_long=allow_long,
                **options,
            ),
        ),
        progress,
    )


def transfer(
    *,
    size: Optional[Union[int, float, str]] = None,
    payload: Optional[_Path] = None,
    mtu: Optional[_Nums] = None,
    ber: Optional[_Nums] = None,
    stack: Optional[str] = None,
    hops: Optional[Union[int, Sequence[int], str]] = None,
    burst: Optional[Sequence[float]] = None,
    corruption: Optional[Union[str, Sequence[str]]] = None,
    digest: Optional[_Check] = None,
    tallies: Optional[_Path] = None,
    max_weight: Optional[int] = None,
    samples: Optional[_Num] = None,
    seed: Optional[int] = None,
    plot: Optional[_Path] = None,
    allow_long: bool = False,
    progress: _Progress = None,
    **options: Any,
) -> TransferResult:
    """Expected frames delivered corrupted (every check passed) in a transfer
    of ``size`` bytes, per MTU, BER and hop count (``alias transfer``); the
    per-frame value is :func:`stack`'s exact joint escape with its bracket.

    ``size`` bytes of TCP payload (an integer, ``1e13``, or a string with a
    unit: ``"10TB"``, ``"1TiB"``), or ``payload=`` a file whose size is used;
    ``mtu=`` IP packet lengths (68 to 9216); ``ber=`` bit error rates;
    ``stack=`` ``ethernet-tcp`` (default), ``ethernet-tcp+CRC`` or
    ``ipv4-tcp+CRC``; ``hops=`` links crossed (1 to 255, a list for several);
    ``tallies=`` a file keeping the BER-independent part between calls;
    ``max_weight``, ``samples``, ``seed`` as in :func:`stack`;
    ``corruption=`` a ``MODEL:RATE`` string or a list of them (one
    ``--corruption`` each); ``digest=`` an end-to-end CRC over each
    segment's data on top of TCP (``"crc32c"`` for an iSCSI data digest,
    ``"crc64-nvme"``, any catalogue name or :class:`Crc`), which the
    corruption entries must pass too. Returns a :class:`TransferResult`: nested fields
    are columns with a dot (``escapes.estimate``, ``escapes.low``,
    ``joint_per_frame.high``, ``p_at_least_one.estimate``).

    >>> r = transfer(size="10TB", mtu=68, ber=[1e-5, 1e-7], hops=[1, 3],
    ...              stack="ipv4-tcp+CRC-16/ARC", max_weight=4, samples=0)
    >>> r.column("hops").tolist()
    [1, 3, 1, 3]
    >>> [f"{x:.6e}" for x in r.column("escapes.estimate")]
    ['1.132188e-06', '3.396564e-06', '1.132143e-14', '3.396429e-14']
    """
    return _run(
        _argv(
            "transfer",
            [],
            dict(
                size=size,
                payload=payload,
                mtu=mtu,
                ber=ber,
                stack=stack,
                hops=hops,
                burst=burst,
                corruption=corruption,
                digest=digest,
                tallies=tallies,
                max_weight=max_weight,
                samples=samples,
                seed=seed,
                plot=plot,
                allow_long=allow_long,
                **options,
            ),
        ),
        progress,
        TransferResult,
    )


def search(
    *,
    width: Optional[int] = None,
    bits: Optional[_Nums] = None,
    bytes: Optional[_Nums] = None,
    ber: Optional[_Nums] = None,
    min_hd: Optional[int] = None,
    top: Optional[int] = None,
    objective: Optional[str] = None,
    candidates: Optional[str] = None,
    sample: Optional[int] = None,
    seed: Optional[int] = None,
    shard: Optional[Union[str, Sequence[int]]] = None,
    out: Optional[_Path] = None,
    merge: Optional[Sequence[_Path]] = None,
    rank: Optional[str] = None,
    plot: Optional[_Path] = None,
    allow_long: bool = False,
    progress: _Progress = None,
    **options: Any,
) -> Result:
    """Which generator to use: generators of one width ranked by Hamming
    distance at the lengths, then by exact P_ud (``alias search``). Rows
    (``results``): ``rank``, ``koopman``, ``full``, ``hd``, ``min_hd``,
    ``points``; the catalogue's CRCs of that width in ``catalogue``.

    >>> search(width=8, bytes=16, ber=1e-5, top=3).column("rank").tolist()
    [1, 2, 3]
    """
    return _run(
        _argv(
            "search",
            [],
            dict(
                width=width,
                bits=bits,
                bytes=bytes,
                ber=ber,
                min_hd=min_hd,
                top=top,
                objective=objective,
                candidates=candidates,
                sample=sample,
                seed=seed,
                shard=shard,
                out=out,
                merge=merge,
                rank=rank,
                plot=plot,
                allow_long=allow_long,
                **options,
            ),
        ),
        progress,
    )


def simulate(
    *,
    frames: Optional[_Num] = None,
    bytes: Optional[_Nums] = None,
    stack: Optional[str] = None,
    ber: Optional[_Nums] = None,
    burst: Optional[Sequence[float]] = None,
    errors: Optional[_Num] = None,
    payload: Optional[str] = None,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    engine: Optional[str] = None,
    shard: Optional[Union[str, Sequence[int]]] = None,
    out: Optional[_Path] = None,
    checkpoint: Optional[_Path] = None,
    resume: Optional[_Path] = None,
    checkpoint_every: Optional[str] = None,
    plot: Optional[_Path] = None,
    no_exact: bool = False,
    rare: bool = False,
    proposal: Optional[Sequence[float]] = None,
    samples: Optional[_Num] = None,
    allow_long: bool = False,
    progress: _Progress = None,
    **options: Any,
) -> Result:
    """Monte Carlo through a stack of checks, with confidence intervals
    (``alias simulate``). With a ``seed`` the counts are the binary's, for
    any ``threads``. Rows (``checks``): ``name``, ``escapes``, ``rate``,
    ``ci_low``, ``ci_high``, ``exact``, ...; the whole stack in ``r["stack"]``.

    >>> r = simulate(frames=1e4, bytes=64, ber=1e-3, seed=1, no_exact=True)
    >>> r["frames"]
    10000
    """
    return _run(
        _argv(
            "simulate",
            [],
            dict(
                frames=frames,
                bytes=bytes,
                stack=stack,
                ber=ber,
                burst=burst,
                errors=errors,
                payload=payload,
                seed=seed,
                threads=threads,
                engine=engine,
                shard=shard,
                out=out,
                checkpoint=checkpoint,
                resume=resume,
                checkpoint_every=checkpoint_every,
                plot=plot,
                no_exact=no_exact,
                rare=rare,
                proposal=proposal,
                samples=samples,
                allow_long=allow_long,
                **options,
            ),
        ),
        progress,
    )


def merge(
    files: Union[_Path, Sequence[_Path]],
    *,
    out: Optional[_Path] = None,
    plot: Optional[_Path] = None,
    no_exact: bool = False,
    allow_long: bool = False,
    progress: _Progress = None,
    **options: Any,
) -> Result:
    """Adds the shard result files of one ``simulate`` run, ``weights`` pass or
    ``stack`` run (``alias merge``); the result equals the single run's.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> parts = [os.path.join(d, f"{i}.json") for i in (1, 2)]
    >>> for i, p in enumerate(parts, 1):
    ...     _ = simulate(frames=2e4, bytes=64, ber=1e-3, seed=1, no_exact=True, shard=(i, 2), out=p)
    >>> merge(parts, no_exact=True)["frames"]
    20000
    """
    if isinstance(files, (str, os.PathLike)):
        files = [files]
    return _run(
        _argv(
            "merge",
            list(files),
            dict(out=out, plot=plot, no_exact=no_exact, allow_long=allow_long, **options),
        ),
        progress,
    )
