"""The package against the `alias` binary: the same documents, errors and
counts; numpy columns; the GIL released while computing; Ctrl-C."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import aliasing

# keys of measured times, which differ from run to run
_TIMING = re.compile(r"second|elapsed|wall|duration")


def untimed(doc):
    """The document without its timing fields."""
    if isinstance(doc, dict):
        return {k: untimed(v) for k, v in doc.items() if not _TIMING.search(k)}
    if isinstance(doc, list):
        return [untimed(v) for v in doc]
    return doc


# (the Python call, the same request on the command line)
CASES = [
    (lambda: aliasing.curve("16", bits=[512, 1024], ber=1e-5), ["curve", "--crc", "16", "--bits", "512,1024", "--ber", "1e-5"]),
    (lambda: aliasing.curve(aliasing.CRC_24_OPENPGP, bytes=1518, ber=[1e-5, 1e-7]), ["curve", "--crc", "CRC-24/OPENPGP", "--bytes", "1518", "--ber", "1e-5,1e-7"]),
    (lambda: aliasing.curve("crc16-ccitt", bits="512:1024:256", ber=[1e-4, 0.0, 1.0], method="markov"), ["curve", "--crc", "crc16-ccitt", "--bits", "512:1024:256", "--ber", "1e-4,0,1", "--method", "markov"]),
    (lambda: aliasing.curve(check="internet", bytes=[20, 64], ber=1e-6), ["curve", "--check", "internet", "--bytes", "20,64", "--ber", "1e-6"]),
    (lambda: aliasing.curve("8", bits=64, burst=(1e-6, 0.1, 1e-4, 0.1)), ["curve", "--crc", "8", "--bits", "64", "--burst", "1e-6,0.1,1e-4,0.1"]),
    (lambda: aliasing.hd("crc16-ccitt", max_bits=300), ["hd", "--crc", "crc16-ccitt", "--max-bits", "300"]),
    (lambda: aliasing.weights("8", bits=40, max_weight=4), ["weights", "--crc", "8", "--bits", "40", "--max-weight", "4"]),
    (lambda: aliasing.weights("k:0x8E", bits=40, dual=True), ["weights", "--crc", "k:0x8E", "--bits", "40", "--dual"]),
    (lambda: aliasing.compare(bytes=[64, 128], ber=1e-5, checks=["crc16", aliasing.CRC_16_KERMIT, "internet", "fletcher16"]), ["compare", "--bytes", "64,128", "--ber", "1e-5", "--checks", "crc16,CRC-16/KERMIT,internet,fletcher16"]),
    (lambda: aliasing.search(width=8, bytes=16, ber=[1e-5, 1e-7], top=3), ["search", "--width", "8", "--bytes", "16", "--ber", "1e-5,1e-7", "--top", "3"]),
    (lambda: aliasing.simulate(frames=2e4, bytes=64, ber=1e-3, seed=3, no_exact=True), ["simulate", "--frames", "20000", "--bytes", "64", "--ber", "1e-3", "--seed", "3", "--no-exact"]),
]


@pytest.mark.parametrize("call,argv", CASES, ids=[" ".join(a[:3]) for _, a in CASES])
def test_same_document_as_the_binary(cli, call, argv):
    r = call()
    want = cli.json(*argv)
    assert untimed(r.to_dict()) == untimed(want)
    assert r.kind == want["kind"]
    assert json.loads(r.to_json()) == r.to_dict()
    if "method" in want:
        assert r.method == want["method"]


@pytest.fixture(scope="module")
def stack_pair(cli):
    """One `stack` request, from both sides: a 16-bit FCS (a CRC-32's takes
    15 s in the test build), a point with an estimate and one with only its
    bracket."""
    argv = ["stack", "--stack", "ipv4-tcp+CRC-16/ARC", "--bytes", "64", "--ber", "1e-4,0.3", "--max-weight", "3"]
    r = aliasing.stack("ipv4-tcp+CRC-16/ARC", bytes=64, ber=[1e-4, 0.3], max_weight=3)
    return r, cli.json(*argv)


def test_stack_same_document_as_the_binary(stack_pair):
    r, want = stack_pair
    assert untimed(r.to_dict()) == untimed(want)
    assert r.kind == "stack"


def test_run_takes_any_command_line(cli):
    argv = ["hd", "--crc", "crc32c", "--max-bits", "200"]
    assert untimed(aliasing.run(*argv).to_dict()) == untimed(cli.json(*argv))


def test_scalars_and_one_element_lists_agree():
    a = aliasing.curve("16", bytes=1518, ber=1e-5).to_dict()
    b = aliasing.curve("16", bytes=[1518], ber=[1e-5]).to_dict()
    c = aliasing.curve(aliasing.Crc("16"), bytes=np.array([1518]), ber=np.float64(1e-5)).to_dict()
    assert a == b == c


@pytest.mark.parametrize("threads", [0, 1, 2, 3, 5])
def test_simulate_with_a_seed_gives_the_binarys_counts(cli, threads):
    argv = ["simulate", "--frames", "30000", "--bytes", "64", "--ber", "2e-3", "--seed", "7", "--no-exact"]
    want = cli.json(*argv, "--threads", "1")
    r = aliasing.simulate(frames=30000, bytes=64, ber=2e-3, seed=7, no_exact=True, threads=threads)
    got = r.to_dict()
    assert got["frames_with_error"] == want["frames_with_error"] > 0
    assert got["bit_errors"] == want["bit_errors"]
    assert [c["escapes"] for c in got["checks"]] == [c["escapes"] for c in want["checks"]]
    assert got["stack"]["escapes"] == want["stack"]["escapes"]


def test_merge_of_shards_equals_the_binarys(cli, tmp_path):
    parts = [str(tmp_path / f"{i}.json") for i in (1, 2)]
    for i, p in enumerate(parts, 1):
        aliasing.simulate(frames=20000, bytes=64, ber=1e-3, seed=5, no_exact=True, shard=(i, 2), out=p)
    got = aliasing.merge(parts, no_exact=True)
    want = cli.json("merge", *parts, "--no-exact")
    assert untimed(got.to_dict()) == untimed(want)
    whole = cli.json("simulate", "--frames", "20000", "--bytes", "64", "--ber", "1e-3", "--seed", "5", "--no-exact")
    assert got["stack"] == whole["stack"]


# --- transfer ------------------------------------------------------------

# small (each call a few hundredths of a second in the test build): a 16-bit
# FCS under IPv4 and TCP, 68-byte packets (IPv4's smallest MTU: 70-byte
# frames, 28-byte segments), weights up to 4, no draws
TRANSFER = dict(stack="ipv4-tcp+CRC-16/ARC", max_weight=4, samples=0)
TRANSFER_ARGV = ["--stack", "ipv4-tcp+CRC-16/ARC", "--max-weight", "4", "--samples", "0"]


@pytest.fixture(scope="module")
def transfer_pair(cli):
    """One `transfer` request from both sides: two BERs, two hop counts."""
    r = aliasing.transfer(size="10TB", mtu=68, ber=[1e-5, 1e-7], hops=[1, 3], **TRANSFER)
    argv = ["transfer", "--size", "10TB", "--mtu", "68", "--ber", "1e-5,1e-7", "--hops", "1,3", *TRANSFER_ARGV]
    return r, cli.json(*argv)


def test_transfer_same_document_as_the_binary(transfer_pair):
    r, want = transfer_pair
    assert untimed(r.to_dict()) == untimed(want)
    assert isinstance(r, aliasing.TransferResult) and r.kind == "transfer"
    assert r.size_bytes == want["size_bytes"] == 10**13
    assert r.stack == want["stack"] == "ipv4-tcp+CRC-16/ARC"
    assert r.payload_file is None and r.model == want["model"]


def test_transfer_scalars_numbers_and_files(cli, tmp_path):
    # a float size is a count, a scalar a one-element list
    a = aliasing.transfer(size=1e9, mtu=[68], ber=1e-7, hops=1, **TRANSFER).to_dict()
    b = aliasing.transfer(size="1GB", mtu=68, ber=[1e-7], **TRANSFER).to_dict()
    assert a == b
    f = tmp_path / "data.bin"
    f.write_bytes(b"x" * 5000)
    t = tmp_path / "tallies.json"
    r = aliasing.transfer(payload=f, mtu=68, ber=1e-6, tallies=t, **TRANSFER)
    assert r.size_bytes == 5000 and r.payload_file == str(f)
    assert t.exists()
    want = cli.json("transfer", "--payload", str(f), "--mtu", "68", "--ber", "1e-6", *TRANSFER_ARGV)
    assert untimed(r.to_dict()) == untimed(want)
    # from the kept tallies: the same document
    again = aliasing.transfer(payload=f, mtu=68, ber=1e-6, tallies=t, **TRANSFER)
    assert again.to_dict() == r.to_dict()


def test_transfer_columns(transfer_pair):
    r, want = transfer_pair
    pts = want["points"]
    assert r.column("hops").dtype == np.int64 and r.column("hops").tolist() == [1, 3, 1, 3]
    assert r.column("frames").tolist() == [p["frames"] for p in pts]
    for name in ("escapes", "joint_per_frame", "p_at_least_one"):
        for part in ("estimate", "low", "high"):
            col = r.column(f"{name}.{part}")
            assert col.dtype == np.float64
            assert col.tolist() == [p[name][part] for p in pts]
        with pytest.raises(TypeError, match=rf"`{name}\.low`"):
            r.column(name)
    low, est, high = (r.column(f"escapes.{k}") for k in ("low", "estimate", "high"))
    assert np.all(low > 0) and np.all(low <= est) and np.all(est <= high)
    # the model's relations, from the columns: escapes = frames sent x joint;
    # 3 hops = 3 x the 1-hop joint x (1-p)^(2n), n the frame's bits
    sent, joint = r.column("frames_sent"), r.column("joint_per_frame.estimate")
    np.testing.assert_allclose(est, sent * joint, rtol=1e-12)
    n = 8 * r.column("frame_bytes")
    ber = r.column("ber")
    np.testing.assert_allclose(joint[1::2], 3 * joint[0::2] * (1 - ber[0::2]) ** (2 * n[0::2]), rtol=1e-9)
    pd = pytest.importorskip("pandas")
    df = r.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 4
    assert {"escapes.estimate", "escapes.low", "joint_per_frame.method"} <= set(df.columns)


def test_transfer_corruption_is_a_repeated_option():
    argv = aliasing._argv("transfer", [], dict(size="1GB", corruption=["a:1e-3", "b:2e-3"], mtu=1500))
    assert argv == ["transfer", "--size=1GB", "--corruption=a:1e-3", "--corruption=b:2e-3", "--mtu=1500"]
    assert aliasing._argv("transfer", [], dict(corruption="a:1e-3")) == ["transfer", "--corruption=a:1e-3"]
    with pytest.raises(aliasing.InputError):
        aliasing._argv("transfer", [], dict(corruption=[]))


def test_transfer_corruption_and_digest_same_document_as_the_binary(cli, tmp_path):
    """`corruption=` (one `--corruption` each) and `digest=` over a payload
    file's data: the binary's document, entries and total included."""
    f = tmp_path / "data.bin"
    f.write_bytes(bytes(300) + bytes(range(256)) * 4)
    models = ["word:1e-6", "splice:8:1e-4", "bits:1e-3"]
    argv = ["transfer", "--payload", str(f), "--mtu", "68", "--ber", "1e-7", *TRANSFER_ARGV]
    for m in models:
        argv += ["--corruption", m]
    r = aliasing.transfer(payload=f, mtu=68, ber=1e-7, corruption=models, **TRANSFER)
    assert untimed(r.to_dict()) == untimed(cli.json(*argv))
    entries = r.points[0]["corruption"]
    assert [e["model"] for e in entries] == ["word", "splice:8", "bits:1e-3"]
    # the leading zero words: the TCP checksum can miss a word error there
    assert entries[0]["p_miss"] > 0
    total = r.column("total_escapes.estimate")[0]
    assert total == r.column("escapes.estimate")[0] + sum(e["escapes"] for e in entries)
    d = aliasing.transfer(payload=f, mtu=68, ber=1e-7, corruption=models, digest="crc32c", **TRANSFER)
    assert untimed(d.to_dict()) == untimed(cli.json(*argv, "--digest", "crc32c"))
    assert d["digest"] == d.digest == "CRC-32/ISCSI" and r.digest is None
    dw = d.points[0]["corruption"]
    # CRC-32C detects every word error: exact 0; the others bounded
    assert dw[0]["p_miss"] == 0 and dw[0]["method"].startswith("exact")
    assert all(x["p_miss"] <= e["p_miss"] for x, e in zip(dw, entries))


# --- errors --------------------------------------------------------------


@pytest.mark.parametrize(
    "call,argv,reason",
    [
        (lambda: aliasing.curve("crc33", bits=512), ["curve", "--crc", "crc33", "--bits", "512"], "unknown_name"),
        (lambda: aliasing.curve("k:0xZZ", bits=512), ["curve", "--crc", "k:0xZZ", "--bits", "512"], "bad_polynomial"),
        (lambda: aliasing.curve("16", bits=8), ["curve", "--crc", "16", "--bits", "8"], "bad_length"),
        (lambda: aliasing.curve("16", bits=512, ber=1.5), ["curve", "--crc", "16", "--bits", "512", "--ber", "1.5"], None),
        (lambda: aliasing.curve("16", bits=512, ber="x"), ["curve", "--crc", "16", "--bits", "512", "--ber", "x"], None),
        (lambda: aliasing.stack("ethernet-nope", bytes=64), ["stack", "--stack", "ethernet-nope", "--bytes", "64"], None),
        (lambda: aliasing.hd("16", max_hd="many"), ["hd", "--crc", "16", "--max-hd", "many"], "arguments"),
        (lambda: aliasing.curve("16", bitz=512), ["curve", "--crc", "16", "--bitz", "512"], "arguments"),
        (lambda: aliasing.simulate(frames=0, bytes=64), ["simulate", "--frames", "0", "--bytes", "64"], None),
        (lambda: aliasing.transfer(size="10XB", mtu=1500, ber=1e-7), ["transfer", "--size", "10XB", "--mtu", "1500", "--ber", "1e-7"], None),
        (lambda: aliasing.transfer(size="1GB", mtu=40, ber=1e-7), ["transfer", "--size", "1GB", "--mtu", "40", "--ber", "1e-7"], None),
        (lambda: aliasing.transfer(size="1GB", mtu=1500, ber=0.7), ["transfer", "--size", "1GB", "--mtu", "1500", "--ber", "0.7"], None),
        (lambda: aliasing.transfer(size="1GB", mtu=1500, ber=1e-7, hops=0), ["transfer", "--size", "1GB", "--mtu", "1500", "--ber", "1e-7", "--hops", "0"], None),
        (lambda: aliasing.transfer(size="1GB", mtu=1500, ber=1e-7, burst=(1e-6, 0.1, 1e-4, 0.1)), ["transfer", "--size", "1GB", "--mtu", "1500", "--ber", "1e-7", "--burst", "1e-6,0.1,1e-4,0.1"], None),
        (lambda: aliasing.transfer(mtu=1500, ber=1e-7), ["transfer", "--mtu", "1500", "--ber", "1e-7"], "arguments"),
        (lambda: aliasing.transfer(size="1GB", mtu=1500, ber=1e-7, corruption="word:2"), ["transfer", "--size", "1GB", "--mtu", "1500", "--ber", "1e-7", "--corruption", "word:2"], None),
        (lambda: aliasing.transfer(size="1GB", mtu=1500, ber=1e-7, corruption="word:1e-6", digest="crc99"), ["transfer", "--size", "1GB", "--mtu", "1500", "--ber", "1e-7", "--corruption", "word:1e-6", "--digest", "crc99"], None),
    ],
)
def test_bad_input_raises_input_error_with_the_binarys_message(cli, call, argv, reason):
    with pytest.raises(aliasing.InputError) as info:
        call()
    e = info.value
    assert isinstance(e, ValueError) and isinstance(e, aliasing.Error)
    message = cli.error(*argv)
    assert str(e) == message
    assert "\n" not in str(e)
    if reason is not None:
        assert e.reason == reason


def test_the_memory_limit_is_not_bad_input():
    with pytest.raises(aliasing.AliasError) as info:
        aliasing.curve("32", bits=100, ber=1e-5, method="markov", memory="1M")
    assert info.value.reason == "too_big"
    assert isinstance(info.value, RuntimeError) and not isinstance(info.value, ValueError)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
def test_an_output_path_that_cannot_be_written_is_refused_before_work(cli, tmp_path):
    # output paths are checked when the arguments are read: bad input, the
    # CLI's message
    with pytest.raises(aliasing.InputError) as info:
        aliasing.curve("16", bits=512, ber=1e-5, plot="/proc/nope.svg")
    assert isinstance(info.value, ValueError)
    assert str(info.value) == cli.error("curve", "--crc", "16", "--bits", "512", "--ber", "1e-5", "--plot", "/proc/nope.svg")
    with pytest.raises(aliasing.InputError):
        aliasing.weights("8", bits=40, dual=True, shard=(1, 2), out="/proc/nope.json")


def test_format_and_output_are_refused():
    with pytest.raises(aliasing.InputError, match="--format"):
        aliasing.run("curve", "--crc", "16", "--format", "csv")
    with pytest.raises(aliasing.InputError, match="--output"):
        aliasing.run("curve", "--crc", "16", "-o", "x.txt")


def test_python_values_that_are_not_options_are_refused():
    with pytest.raises(aliasing.InputError) as info:
        aliasing.curve("16", bits=[])
    assert info.value.reason == "arguments"
    with pytest.raises(aliasing.InputError):
        aliasing.curve("16", bits={"a": 1})
    with pytest.raises(aliasing.InputError):
        aliasing.Crc(16)


def test_exception_classes():
    assert issubclass(aliasing.InputError, ValueError)
    assert issubclass(aliasing.AliasError, RuntimeError)
    assert issubclass(aliasing.FileError, OSError)
    assert issubclass(aliasing.FileError, aliasing.AliasError)
    e = aliasing.FileError("cannot write x", "io")
    assert str(e) == "cannot write x" and e.reason == "io"


# --- checks as values ----------------------------------------------------


def test_catalogue_constants(cli):
    names = {c.name for c in aliasing.CATALOGUE.values()}
    assert len(aliasing.CATALOGUE) >= 100
    assert aliasing.CRC_32_ISO_HDLC.name == "CRC-32/ISO-HDLC"
    assert aliasing.CRC_32_ISO_HDLC.koopman == "0x82608EDB"
    assert aliasing.CRC_32_ISCSI.check == 0xE3069283
    for const, c in aliasing.CATALOGUE.items():
        assert const == re.sub(r"[^A-Z0-9]", "_", c.name.upper())
        assert getattr(aliasing, const) is c
    assert "CRC-16/IBM-3740" in names
    # the binary names the same CRC
    doc = cli.json("curve", "--crc", "CRC-16/KERMIT", "--bits", "512", "--ber", "1e-5")
    assert doc["check"]["full"] == aliasing.CRC_16_KERMIT.full


@pytest.mark.parametrize("spec", ["k:0x82608EDB", "0x104C11DB7", "32:0x04C11DB7", "r32:0xEDB88320", "crc32", "ethernet", "CRC-32/ISO-HDLC"])
def test_every_notation_names_the_same_crc32(spec):
    c = aliasing.Crc(spec)
    assert (c.width, c.full, c.koopman) == (32, "0x104C11DB7", "0x82608EDB")
    assert str(c) == spec


@pytest.mark.parametrize("spec", ["k:0xC002", "0x18005", "16:0x8005", "r16:0xA001", "CRC-16/ARC"])
def test_every_notation_names_the_same_generator(cli, spec):
    c = aliasing.Crc(spec)
    assert (c.width, c.full, c.koopman) == (16, "0x18005", "0xC002")
    assert str(c) == spec and aliasing.Crc(c).spec == spec
    a = aliasing.curve(c, bytes=64, ber=1e-5).to_dict()
    b = aliasing.curve(spec, bytes=64, ber=1e-5).to_dict()
    assert a == b
    assert untimed(a) == untimed(cli.json("curve", "--crc", spec, "--bytes", "64", "--ber", "1e-5"))


def test_crc_values():
    a, b = aliasing.Crc("crc32"), aliasing.Crc("CRC-32/ISO-HDLC")
    assert a == b and hash(a) == hash(b)
    assert aliasing.Crc("16").name == "primitive-16"
    assert aliasing.Crc("k:0x8E") != aliasing.Crc("k:0x97")
    assert repr(a) == "Crc('crc32')"
    with pytest.raises(AttributeError):
        a.width = 3  # type: ignore[misc]
    with pytest.raises(aliasing.InputError) as info:
        aliasing.Crc("crc33")
    assert "did you mean" in str(info.value) and info.value.reason == "unknown_name"


COMMANDS = ["curve", "hd", "weights", "compare", "stack", "search", "simulate", "transfer", "merge"]

# keywords the binary of this tree does not have yet (none now: add a
# command's new keyword here only until its option lands in the binary)
NOT_IN_THE_BINARY_YET: dict = {}


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_of_the_binary_is_a_keyword(cli, command):
    """Each option of `alias COMMAND` (but --format/--output, which the
    package does not take) is a keyword argument of the function."""
    import inspect

    help_text = cli.run(command, "--help").stdout
    options = {o.replace("-", "_") for o in re.findall(r"^\s+(?:-\w, )?--([a-z][a-z0-9-]*)", help_text, re.M)}
    options -= {"help", "format", "output", "version"}
    assert {"allow_long"} < options
    params = inspect.signature(getattr(aliasing, command)).parameters
    keywords = {n for n, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY or p.default is not inspect.Parameter.empty}
    positional = {n for n, p in params.items() if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD}
    assert options == (keywords | positional) - {"progress", "files"} - NOT_IN_THE_BINARY_YET.get(command, set())


def test_stubs_have_the_signatures():
    import ast
    import inspect

    stub = ast.parse((Path(aliasing.__file__).parent / "__init__.pyi").read_text())
    defs = {f.name: f for f in stub.body if isinstance(f, ast.FunctionDef)}
    for name in COMMANDS + ["run"]:
        f = defs[name]
        got = [a.arg for a in f.args.posonlyargs + f.args.args]
        if f.args.vararg:
            got.append(f.args.vararg.arg)
        got += [a.arg for a in f.args.kwonlyargs]
        if f.args.kwarg:
            got.append(f.args.kwarg.arg)
        assert got == list(inspect.signature(getattr(aliasing, name)).parameters), name


def test_stubs_list_every_constant():
    stub = (Path(aliasing.__file__).parent / "__init__.pyi").read_text()
    listed = set(re.findall(r"^(CRC_\w+): Crc$", stub, re.M))
    assert listed == set(aliasing.CATALOGUE)


# --- numpy, pandas, html, plot -------------------------------------------


def test_columns_are_numpy_arrays():
    r = aliasing.curve("16", bits=[512, 1024, 2048], ber=[1e-5, 1e-7])
    bits = r.column("bits")
    assert bits.dtype == np.int64 and bits.tolist() == [p["bits"] for p in r.points]
    pud = r.column("p_undetected")
    assert pud.dtype == np.float64 and pud.tolist() == [p["p_undetected"] for p in r.points]
    assert np.all(pud > 0)
    ber = r.column("ber")
    assert ber.dtype == np.float64 and sorted(set(ber.tolist())) == [1e-7, 1e-5]
    with pytest.raises(KeyError):
        r.column("nope")


def test_null_is_nan_and_nested_fields():
    r = aliasing.simulate(frames=2e4, bytes=64, ber=1e-3, seed=1, no_exact=True)
    exact = r.column("exact")
    assert exact.dtype == np.float64 and all(math.isnan(x) for x in exact)
    assert r.column("escapes").dtype == np.int64

def test_nested_fields(stack_pair):
    s, want = stack_pair
    est = s.column("joint.estimate")
    assert np.isnan(est).any() and not np.isnan(est).all()
    # no estimate (the bracket alone) is null in JSON, NaN in the column
    expected = [np.nan if p["joint"]["estimate"] is None else p["joint"]["estimate"] for p in want["points"]]
    assert est.dtype == np.float64
    np.testing.assert_array_equal(est, np.array(expected, dtype=np.float64))
    with pytest.raises(TypeError):
        s.column("joint")


def test_tiny_probabilities_survive(cli):
    r = aliasing.curve("16", bits=512, ber=1e-30)
    p = r.column("p_undetected")[0]
    assert 0 < p < 1e-100 and math.isfinite(p)
    assert p == cli.json("curve", "--crc", "16", "--bits", "512", "--ber", "1e-30")["points"][0]["p_undetected"]


def test_pandas(stack_pair):
    pd = pytest.importorskip("pandas")
    df = aliasing.curve("16", bits=[512, 1024], ber=[1e-5, 1e-6]).to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 4
    assert df["bits"].dtype == np.int64
    nested = stack_pair[0].to_pandas()
    assert "joint.estimate" in nested.columns


def test_html():
    h = aliasing.curve("16", bits=[512, 1024], ber=1e-5)._repr_html_()
    assert h.count("<tr>") == 3 and "p_undetected" in h and "primitive-16" in h


def test_plot_is_the_binarys(cli, tmp_path):
    r = aliasing.curve("16", bits=[512, 1024, 2048], ber=[1e-5, 1e-6])
    r.plot(tmp_path / "py.svg")
    src = tmp_path / "doc.json"
    src.write_text(r.to_json())
    cli.run("plot", str(src), "-o", str(tmp_path / "cli.svg"))
    got = (tmp_path / "py.svg").read_bytes()
    assert got.startswith(b"<svg") and got == (tmp_path / "cli.svg").read_bytes()
    with pytest.raises(aliasing.InputError, match=r"\.svg or \.png"):
        r.plot(tmp_path / "x.gif")


# --- progress, threads, Ctrl-C -------------------------------------------

# long enough to need cancelling: reports progress every chunk of frames
LONG = dict(frames=1e13, bytes=64, ber=1e-3, seed=1, no_exact=True, allow_long=True)


def test_progress_callback():
    seen = []
    aliasing.simulate(frames=3e5, bytes=64, ber=1e-3, seed=1, no_exact=True, threads=1, progress=lambda s, d, t: seen.append((s, d, t)))
    assert seen, "no progress reported"
    stage, done, total = seen[-1]
    assert done == total > 0
    assert all(d <= t for _, d, t in seen)


def test_a_tqdm_bar_when_asked(capsys):
    tqdm = pytest.importorskip("tqdm")
    r = aliasing.simulate(frames=3e5, bytes=64, ber=1e-3, seed=1, no_exact=True, threads=1, progress=True)
    assert r["frames"] == 300000
    err = capsys.readouterr().err
    # the bar's last state: every frame done
    assert "300000/300000" in err.replace(",", ""), err[-500:]
    assert tqdm.__version__


def test_a_raising_callback_stops_the_run():
    class Stop(Exception):
        pass

    def cb(stage, done, total):
        raise Stop

    t = time.monotonic()
    with pytest.raises(Stop):
        aliasing.simulate(**LONG, progress=cb)
    assert time.monotonic() - t < 10


def test_another_thread_runs_while_a_computation_holds_no_gil():
    started, stop = threading.Event(), threading.Event()
    outcome = {}

    class Stop(Exception):
        pass

    def cb(stage, done, total):
        started.set()
        if stop.is_set():
            raise Stop

    def work():
        try:
            aliasing.simulate(**LONG, progress=cb)
            outcome["r"] = "finished"
        except Stop:
            outcome["r"] = "stopped"

    th = threading.Thread(target=work)
    th.start()
    assert started.wait(60), "the computation reported no progress"
    # pure-Python work on this thread while the other is computing
    n, end = 0, time.monotonic() + 0.5
    while time.monotonic() < end:
        n += 1
    assert th.is_alive()
    stop.set()
    t = time.monotonic()
    th.join(30)
    assert not th.is_alive() and outcome["r"] == "stopped"
    assert time.monotonic() - t < 5
    # the callback takes the GIL for microseconds every 50 ms: this thread
    # ran nearly the whole time (a held GIL would have left it ~0 steps)
    assert n > 100_000, n


def test_ctrl_c_stops_a_long_computation_within_a_second():
    script = (
        "import aliasing, os, signal, threading, time\n"
        # Ctrl-C as at an interactive prompt: a process started in the
        # background by a non-interactive shell (as CI may start the test
        # command) inherits SIGINT ignored, and Python then installs no
        # handler, so the signal would be dropped before it reached alias
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "t = {}\n"
        "def hit():\n"
        "    t['sent'] = time.monotonic()\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "threading.Timer(1.0, hit).start()\n"
        "try:\n"
        f"    aliasing.simulate(**{LONG!r})\n"
        "    print('finished')\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', time.monotonic() - t['sent'])\n"
    )
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    word, _, secs = p.stdout.strip().partition(" ")
    assert word == "interrupted", p.stdout + p.stderr
    assert float(secs) < 1.0, secs
    assert p.stderr == ""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_is_refused_not_left_waiting():
    # the thread pool does not survive fork(): a run in the child would wait
    # forever; it is refused at once, and the parent goes on
    script = (
        "import aliasing, os\n"
        "a = aliasing.curve('16', bits=512, ber=1e-5).to_dict()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    try:\n"
        "        aliasing.curve('16', bits=512, ber=1e-5)\n"
        "        os._exit(3)\n"
        "    except RuntimeError as e:\n"
        "        os._exit(7 if 'fork' in str(e) else 4)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "print(os.waitstatus_to_exitcode(status), aliasing.curve('16', bits=512, ber=1e-5).to_dict() == a)\n"
    )
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["7", "True"], p.stdout + p.stderr


# --- overhead ------------------------------------------------------------


def test_overhead_of_a_small_request(capsys):
    """One point of `curve` for a 16-bit CRC: the package's time above the
    library's own call (target: 50 microseconds or less)."""
    args = ("16", 512, 1e-5)
    aliasing.curve(args[0], bits=args[1], ber=args[2])
    # interleaved single calls; the fastest of each is the least disturbed
    # by other processes (the machine may be shared)
    best_py, best_lib = math.inf, math.inf
    for _ in range(300):
        t = time.perf_counter()
        aliasing.curve(args[0], bits=args[1], ber=args[2])
        best_py = min(best_py, time.perf_counter() - t)
        best_lib = min(best_lib, aliasing._native.library_curve_seconds(*args, 1))
    over = (best_py - best_lib) * 1e6
    with capsys.disabled():
        print(f"\n[overhead] curve 1 point, 16-bit CRC: package {best_py * 1e6:.1f} us, "
              f"library {best_lib * 1e6:.1f} us, overhead {over:.1f} us")
    # The target is for a release build (pip install): this one has the CLI
    # crate unoptimised (the test profile's), and test machines are shared.
    # The bound catches a call that waits (a poll interval is 50 ms).
    assert over < 10_000
