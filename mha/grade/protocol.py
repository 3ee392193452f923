"""Both sides: what crosses the sandbox's boundary, plain data as ``.npz`` archives, never a
pickle, one message at a time.

The grader (:mod:`mha.grade.sandbox`) sends the answer's process (:mod:`mha.grade.answer`) the
statements to run, then one test input at a time; the answer's process sends back progress and
what the answer did with each input (:class:`mha.checks.Outcome`). Each message is an 8-byte
big-endian length and an archive made by :func:`pack`, read back with :func:`unpack`:

- a tree of ``None``, ``bool``, ``str``, ``int``, ``float``, tuples, lists, string-keyed dicts,
  NumPy arrays of a numeric or bool dtype, ``mha.MHAParams`` / ``mha.efficient.GQAParams``,
  :class:`mha.checks.Foreign`, :class:`mha.checks.Case` and :class:`mha.checks.Outcome`;
- stored as one uncompressed ``.npz``: the member ``tree`` holds the structure as JSON (UTF-8
  bytes in a ``uint8`` array), the members ``a0``, ``a1``, ... hold the arrays.

:func:`unpack` trusts nothing: the archive must be stored (no compression), within the byte
and count limits, every member's header must match its size, arrays are loaded with
``allow_pickle=False``, and every node of the tree is checked against the list above (object
arrays, unknown tags, deep nesting, over-long strings are refused with :class:`WireError`).
"""

from __future__ import annotations

import dataclasses
import io
import json
import math
import zipfile
from typing import Any

import numpy as np

from mha.checks.core import MEASUREMENTS, PARAM_TYPES, Case, Foreign, Outcome

MAX_BYTES = 256 * 2**20  # one archive
MAX_ARRAYS = 20_000
MAX_DEPTH = 40
MAX_STRING = 100_000  # characters in any one string
_PARAMS_BY_NAME = {cls.__name__: cls for cls in PARAM_TYPES}
HEADER = 8  # bytes of a message's length


class WireError(ValueError):
    """Data that does not follow the format (from a kernel that misbehaved, or a bug)."""


def write_message(stream, tree: Any) -> None:
    """Send one message (a blocking write of its length and its archive)."""
    data = pack(tree)
    stream.write(len(data).to_bytes(HEADER, "big") + data)
    stream.flush()


def read_exactly(stream, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = stream.read(left)
        if not chunk:
            raise EOFError("the other side closed the channel")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_message(stream, *, max_bytes: int = MAX_BYTES) -> Any:
    """Receive one message (blocking); :class:`WireError` if it is malformed or too large."""
    size = int.from_bytes(read_exactly(stream, HEADER), "big")
    if size > max_bytes:
        raise WireError(f"a message of {size} bytes, more than the limit of {max_bytes}")
    return unpack(read_exactly(stream, size), max_bytes=max_bytes)


# --- packing ------------------------------------------------------------------------------


def pack(tree: Any) -> bytes:
    """``tree`` as the bytes of an ``.npz`` archive (see the module docstring)."""
    arrays: list[np.ndarray] = []

    def node(x: Any) -> Any:
        if x is None or isinstance(x, bool | str):
            return x
        if type(x) is int:
            return {"int": str(x)}
        if type(x) is float:
            return {"float": x.hex()}
        if type(x) is np.ndarray:
            if x.dtype.kind not in "biufc":
                raise WireError(f"cannot send an array of dtype {x.dtype}")
            arrays.append(x)
            return {"array": len(arrays) - 1}
        if type(x) is tuple:
            return {"tuple": [node(item) for item in x]}
        if type(x) is list:
            return {"list": [node(item) for item in x]}
        if type(x) is dict:
            if not all(isinstance(key, str) for key in x):
                raise WireError("dict keys must be strings")
            return {"dict": {key: node(value) for key, value in x.items()}}
        if type(x) in PARAM_TYPES:
            fields = {f.name: node(getattr(x, f.name)) for f in dataclasses.fields(x)}
            return {"params": type(x).__name__, "fields": fields}
        if type(x) is Foreign:
            return {"foreign": [x.type_name, x.text]}
        if type(x) is Case:
            return {"case": [x.description, node(x.args), x.probe_of, x.probe]}
        if type(x) is Outcome:
            return {
                "outcome": {
                    "value": node(x.value),
                    "error": None if x.error is None else list(x.error),
                    "mutated": x.mutated,
                    "measurements": {key: float(v).hex() for key, v in x.measurements.items()},
                    "not_callable": x.not_callable,
                }
            }
        raise WireError(f"cannot send a {type(x).__name__}")

    text = json.dumps(node(tree), separators=(",", ":"))
    members = {"tree": np.frombuffer(text.encode("utf-8"), dtype=np.uint8)}
    members.update((f"a{i}", a) for i, a in enumerate(arrays))
    buffer = io.BytesIO()
    np.savez(buffer, **members)
    return buffer.getvalue()


# --- unpacking ----------------------------------------------------------------------------


def _members(data: bytes, max_bytes: int) -> dict[str, np.ndarray]:
    """The archive's arrays, each checked before it is loaded."""
    if len(data) > max_bytes:
        raise WireError(f"{len(data)} bytes, more than the limit of {max_bytes}")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as error:
        raise WireError(f"not an npz archive ({error})") from None
    if len(infos) > MAX_ARRAYS + 1:
        raise WireError(f"{len(infos)} arrays, more than the limit of {MAX_ARRAYS}")
    members = {}
    for info in infos:
        name = info.filename.removesuffix(".npy")
        if not (name == "tree" or (name[:1] == "a" and name[1:].isdigit())):
            raise WireError(f"unexpected member {info.filename!r}")
        if info.compress_type != zipfile.ZIP_STORED or info.file_size > max_bytes:
            raise WireError(f"member {name!r} is compressed or too large")
        try:
            with archive.open(info) as f:
                version = np.lib.format.read_magic(f)
                read_header = {
                    (1, 0): np.lib.format.read_array_header_1_0,
                    (2, 0): np.lib.format.read_array_header_2_0,
                }[version]
                shape, _, dtype = read_header(f)
                body = info.file_size - f.tell()
                if dtype.kind not in "biufc" or math.prod(shape) * dtype.itemsize != body:
                    raise WireError(f"member {name!r} has a header that does not fit its data")
            with archive.open(info) as f:
                members[name] = np.lib.format.read_array(f, allow_pickle=False)
        except (KeyError, ValueError, OSError, EOFError, zipfile.BadZipFile) as error:
            if isinstance(error, WireError):
                raise
            raise WireError(f"member {name!r} cannot be read ({error})") from None
    if "tree" not in members:
        raise WireError("the archive has no tree")
    return members


def _text(x: Any, what: str, *, optional: bool = False) -> str | None:
    if x is None and optional:
        return None
    if not isinstance(x, str) or len(x) > MAX_STRING:
        raise WireError(f"{what} is not a string (or is too long)")
    return x


def unpack(data: bytes, *, max_bytes: int = MAX_BYTES) -> Any:
    """The tree packed by :func:`pack`; raises :class:`WireError` on anything else."""
    members = _members(data, max_bytes)
    tree = members.pop("tree")
    if tree.dtype != np.uint8 or tree.ndim != 1:
        raise WireError("the tree is not a byte string")
    try:
        raw = json.loads(tree.tobytes().decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise WireError(f"the tree is not JSON ({type(error).__name__})") from None

    def node(x: Any, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise WireError("the tree is nested too deeply")
        if x is None or isinstance(x, bool):
            return x
        if isinstance(x, str):
            return _text(x, "a string")
        if not isinstance(x, dict) or not (len(x) == 1 or set(x) == {"params", "fields"}):
            raise WireError(f"unexpected node {type(x).__name__}")
        tag = "params" if "params" in x else next(iter(x))
        value = x[tag]
        try:
            return _decode(tag, value, x, lambda y: node(y, depth + 1))
        except (TypeError, ValueError, OverflowError, AttributeError, KeyError) as error:
            if isinstance(error, WireError):
                raise
            raise WireError(f"bad {tag!r} node ({type(error).__name__}: {error})") from None

    def _decode(tag: str, value: Any, whole: dict, child) -> Any:
        if tag == "int" and isinstance(value, str) and len(value) <= 400:
            return int(value)
        if tag == "float" and isinstance(value, str) and len(value) <= 40:
            return float.fromhex(value)
        if tag == "array" and type(value) is int and f"a{value}" in members:
            return members[f"a{value}"]
        if tag in ("tuple", "list") and isinstance(value, list):
            items = [child(item) for item in value]
            return tuple(items) if tag == "tuple" else items
        if tag == "dict" and isinstance(value, dict):
            return {_text(key, "a key"): child(item) for key, item in value.items()}
        if tag == "params" and value in _PARAMS_BY_NAME and isinstance(whole.get("fields"), dict):
            fields = {_text(k, "a field"): child(v) for k, v in whole["fields"].items()}
            return _PARAMS_BY_NAME[value](**fields)
        if tag == "foreign" and isinstance(value, list) and len(value) == 2:
            return Foreign(_text(value[0], "a type name"), _text(value[1], "a text"))
        if tag == "case" and isinstance(value, list) and len(value) == 4:
            args = child(value[1])
            if not isinstance(args, tuple):
                raise WireError("a case's arguments are not a tuple")
            return Case(
                _text(value[0], "a description"),
                args,
                _text(value[2], "probe_of", optional=True),
                _text(value[3], "a probe"),
            )
        if tag == "outcome" and isinstance(value, dict):
            return _outcome(value, child)
        raise WireError(f"unexpected node {tag!r}")

    return node(raw, 0)


def _outcome(value: dict, child) -> Outcome:
    if set(value) != {"value", "error", "mutated", "measurements", "not_callable"}:
        raise WireError("an outcome has unexpected fields")
    error = value["error"]
    if error is not None:
        if not (isinstance(error, list) and len(error) == 2):
            raise WireError("an outcome's error is not (type, message)")
        error = (_text(error[0], "an error type"), _text(error[1], "an error message"))
    measurements = value["measurements"]
    if not isinstance(measurements, dict) or not set(measurements) <= set(MEASUREMENTS):
        raise WireError("an outcome has unknown measurements")
    return Outcome(
        value=child(value["value"]),
        error=error,
        mutated=_text(value["mutated"], "mutated", optional=True),
        measurements={
            key: float.fromhex(_text(v, "a measurement")) for key, v in measurements.items()
        },
        not_callable=_text(value["not_callable"], "not_callable", optional=True),
    )
