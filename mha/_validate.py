"""Argument checks shared by every variant.

Each check raises ``TypeError`` or ``ValueError`` with a message that names the argument,
what was expected and what arrived. None of them uses ``assert``. A public function checks
its arguments here once, at the boundary, and computes with :mod:`mha._compute`.
:data:`Array` is the package's one name for "an array of NumPy, CuPy or another array-API
library".
"""

from __future__ import annotations

import functools
import operator
from types import ModuleType
from typing import Any

import array_api_compat
import numpy as np

Array = Any  # an array of NumPy, CuPy or another array-API library (no one class to name)


def _library(x: Any) -> str:
    """The library an array comes from, for error messages ("numpy", "cupy", "torch", ...)."""
    return type(x).__module__.split(".")[0]


def array_namespace(**arrays: Any) -> ModuleType:
    """The array namespace shared by the named arrays (``None`` values are skipped).

    Raises ``TypeError`` naming the argument that is not an array, or the two arguments
    whose libraries differ.
    """
    present = [x for x in arrays.values() if x is not None]
    if present and all(type(x) is np.ndarray for x in present):  # the common case, fast
        return _numpy_namespace()
    first_name = first = None
    for name, x in arrays.items():
        if x is None:
            continue
        if not array_api_compat.is_array_api_obj(x):
            raise TypeError(
                f"{name} must be an array (NumPy, CuPy or another array-API library), "
                f"got {type(x).__name__}"
            )
        if array_api_compat.is_torch_array(x):
            raise TypeError(
                f"{name} is a torch.Tensor; this function takes NumPy or CuPy arrays "
                "(use mha.torch_mha.MultiHeadAttention for tensors)"
            )
        if first is None:
            first_name, first = name, x
        elif _library(x) != _library(first):
            raise TypeError(
                f"{name} comes from {_library(x)} but {first_name} comes from "
                f"{_library(first)}; move all arrays to one library (e.g. mha.gpu.to_device)"
            )
    if first is None:
        raise TypeError(f"expected at least one array among {', '.join(arrays)}, got only None")
    return array_api_compat.array_namespace(*present)


@functools.cache
def _numpy_namespace() -> ModuleType:
    return array_api_compat.array_namespace(np.empty(0))


def tensor(name: str, x: Any, ndim: int, shape_hint: str) -> None:
    """Raise unless ``x`` is a floating-point ``torch.Tensor`` with at least ``ndim`` dimensions.

    For the torch modules; it needs no ``import torch`` (``import mha`` stays light).
    """
    if not array_api_compat.is_torch_array(x):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(x).__name__}")
    if x.is_nested:
        raise TypeError(
            f"{name} is a nested tensor, which this package does not take: pad it "
            f"({name}.to_padded_tensor(0.0)) and pass a padding mask (mha.padding_mask)"
        )
    if not x.is_floating_point():
        raise TypeError(f"{name} must be a floating-point tensor, got dtype {x.dtype}")
    min_ndim(name, x, ndim, shape_hint)


def token_ids(tokens: Any) -> None:
    """Raise unless ``tokens`` is an int64 ``torch.Tensor`` of shape ``(B, n)`` (no torch
    import: the toy models' embeddings call it)."""
    if (
        not array_api_compat.is_torch_array(tokens)
        or str(tokens.dtype) != "torch.int64"
        or (tokens.ndim != 2)
    ):
        raise ValueError(
            "tokens must be an int64 tensor of shape (B, n), got "
            f"{getattr(tokens, 'dtype', type(tokens).__name__)} "
            f"{tuple(getattr(tokens, 'shape', ()))}"
        )


def floating(name: str, x: Any, xp: ModuleType) -> None:
    """Raise ``TypeError`` unless ``x`` has a real floating-point dtype."""
    if not xp.isdtype(x.dtype, "real floating"):
        raise TypeError(f"{name} must be a floating-point array, got dtype {x.dtype}")


def boolean(name: str, x: Any, xp: Any) -> None:
    """Raise ``TypeError`` unless ``x`` is a boolean array (``xp``: its namespace, or ``torch``)."""
    if x.dtype != xp.bool:
        raise TypeError(
            f"{name} must be a boolean array (True = may attend), got dtype {x.dtype}; "
            "convert an additive float mask with `mask == 0`"
        )


def same_dtype(xp: ModuleType, **arrays: Any) -> None:
    """Raise ``TypeError`` unless all named arrays (``None`` skipped) share one dtype."""
    items = [(n, a) for n, a in arrays.items() if a is not None]
    name0, a0 = items[0]
    for name, a in items[1:]:
        if a.dtype != a0.dtype:
            raise TypeError(
                f"{name} has dtype {a.dtype} but {name0} has dtype {a0.dtype}; "
                "cast them to one floating dtype"
            )


def min_ndim(name: str, x: Any, ndim: int, shape_hint: str) -> None:
    """Raise ``ValueError`` unless ``x`` has at least ``ndim`` dimensions."""
    if x.ndim < ndim:
        raise ValueError(
            f"{name} must have at least {ndim} dimensions {shape_hint}, got shape {tuple(x.shape)}"
        )


def positive_int(name: str, value: Any) -> int:
    """``value`` as an ``int``; ``TypeError`` if it is not an integer, ``ValueError`` if < 1."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a positive integer, got bool {value!r}")
    try:
        as_int = operator.index(value)
    except TypeError:
        raise TypeError(
            f"{name} must be a positive integer, got {type(value).__name__} {value!r}"
        ) from None
    if as_int < 1:
        raise ValueError(f"{name} must be a positive integer, got {as_int}")
    return as_int


def features(name: str, x: Any, w: Any, w_name: str) -> None:
    """Raise ``ValueError`` unless ``x``'s last dimension is the number of rows of ``w``."""
    if x.shape[-1] != w.shape[0]:
        raise ValueError(
            f"{name} has {x.shape[-1]} features but params.{w_name} expects "
            f"{w.shape[0]} (shape {tuple(w.shape)})"
        )


def attention_inputs(
    q: Any, k: Any, v: Any, params: Any, mask: Any, bias: Any = None
) -> ModuleType:
    """Check an attention layer's inputs against ``params``; return their array namespace.

    ``params`` has weights ``w_q``, ``w_k``, ``w_v`` (rows = input features) and
    ``num_heads`` (an ``mha.MHAParams`` or ``mha.efficient.GQAParams``, type already
    checked). ``q``, ``k``, ``v`` are floating arrays of ``params``' library and dtype, at
    least 2-D, with the features the weights expect; ``v`` has one row per key; the batch
    shapes broadcast; ``mask`` (optional) is boolean and ``bias`` (optional) a floating array
    or a positional bias (:func:`attention_bias`), both broadcasting to
    ``(..., num_heads, n_q, n_k)``.
    """
    array_bias = None if callable(bias) else bias
    xp = array_namespace(q=q, k=k, v=v, mask=mask, bias=array_bias, params=params.w_q)
    for name, x in (("q", q), ("k", k), ("v", v)):
        floating(name, x, xp)
        min_ndim(name, x, 2, "(..., n, features)")
    same_dtype(xp, q=q, k=k, v=v, params=params.w_q)
    features("q", q, params.w_q, "w_q")
    features("k", k, params.w_k, "w_k")
    features("v", v, params.w_v, "w_v")
    one_value_per_key(k, v)
    batch = batch_shape(q=q.shape[:-2], k=k.shape[:-2], v=v.shape[:-2])
    scores = (*batch, params.num_heads, q.shape[-2], k.shape[-2])
    if mask is not None:
        attention_mask(mask, scores, xp, "(..., h, n_q, n_k)")
    attention_bias(bias, scores, xp, "(..., h, n_q, n_k)", params.num_heads)
    return xp


def head_sizes(
    d_model: Any, num_heads: Any, d_k: Any = None, d_v: Any = None
) -> tuple[int, int, int, int]:
    """Checked ``(d_model, num_heads, d_k, d_v)``; ``d_k``/``d_v`` default to ``d_model // h``."""
    d_model = positive_int("d_model", d_model)
    num_heads = positive_int("num_heads", num_heads)
    if (d_k is None or d_v is None) and d_model % num_heads:
        raise ValueError(
            f"num_heads={num_heads} does not divide d_model={d_model}; "
            "choose another num_heads or pass d_k and d_v"
        )
    d_k = d_model // num_heads if d_k is None else positive_int("d_k", d_k)
    d_v = d_model // num_heads if d_v is None else positive_int("d_v", d_v)
    return d_model, num_heads, d_k, d_v


def batch_shape(**shapes: tuple[int, ...]) -> tuple[int, ...]:
    """Broadcast leading (batch) shapes; ``ValueError`` naming the two that disagree.

    Like ``matmul``, a dimension of size 1 broadcasts; any other mismatch is an error.
    """
    result: tuple[int, ...] = ()
    owner: dict[int, str] = {}
    for name, shape in shapes.items():
        ndim = max(len(result), len(shape))
        padded_result = (1,) * (ndim - len(result)) + result
        padded = (1,) * (ndim - len(shape)) + tuple(shape)
        merged = []
        for axis, (a, b) in enumerate(zip(padded_result, padded, strict=True)):
            if a != b and a != 1 and b != 1:
                other = owner.get(axis - ndim, "another argument")
                raise ValueError(
                    f"{name} has leading (batch) shape {tuple(shape)} that does not "
                    f"broadcast with {other}'s {tuple(padded_result)}"
                )
            if b != 1:
                owner[axis - ndim] = name
            merged.append(max(a, b))
        result = tuple(merged)
    return result


def broadcasts(shape: tuple[int, ...], target: tuple[int, ...]) -> bool:
    """Whether ``shape`` broadcasts to ``target`` without growing it (each dim 1 or equal)."""
    return len(shape) <= len(target) and all(
        s in (1, t) for s, t in zip(reversed(shape), reversed(target), strict=False)
    )


def one_value_per_key(k: Any, v: Any) -> None:
    """Raise ``ValueError`` unless ``v`` has one row per key (``n_k``, the second to last axis)."""
    if v.shape[-2] != k.shape[-2]:
        raise ValueError(
            f"v has n_k={v.shape[-2]} rows but k has n_k={k.shape[-2]}; each key needs one value"
        )


def attention_mask(mask: Any, expected: tuple[int, ...], xp: Any, layout: str) -> None:
    """Raise unless ``mask`` is boolean and broadcasts to ``expected`` without growing it.

    The one check of an attention mask, for every variant: ``xp`` is the mask's namespace (or
    ``torch``), ``layout`` names the scores' axes, e.g. ``"(..., h, n_q, n_k)"``.
    """
    boolean("mask", mask, xp)
    fits_scores("mask", mask, expected, layout)


def fits_scores(name: str, x: Any, expected: tuple[int, ...], layout: str) -> None:
    """Raise ``ValueError`` unless ``x`` (a mask or a bias) broadcasts to the scores' shape
    ``expected`` without growing it; ``layout`` names the scores' axes."""
    shape = tuple(x.shape)
    if not broadcasts(shape, expected):
        raise ValueError(
            f"{name} has shape {shape}, which does not broadcast to the attention scores' "
            f"shape {expected} {layout}; each {name} dimension must be 1 or match"
        )


def attention_bias(
    bias: Any, expected: tuple[int, ...], xp: Any, layout: str, num_heads: Any = None
) -> None:
    """Raise unless ``bias`` is None, a floating array that broadcasts to ``expected``
    without growing it, or a positional bias (callable) for ``num_heads`` heads.

    The one check of an attention bias, for every variant: ``xp`` is the bias's namespace
    (or ``torch``), ``layout`` names the scores' axes, as in :func:`attention_mask`.

    A positional bias (such as :class:`mha.positions.ALiBi`) is called with positions
    and returns the scores' bias; its ``num_heads``, when it has one, must match.
    """
    if bias is None:
        return
    if callable(bias):
        heads = getattr(bias, "num_heads", None)
        if num_heads is not None and heads is not None and heads != num_heads:
            raise ValueError(
                f"bias is a positional bias for num_heads={heads} but the layer has "
                f"num_heads={num_heads}"
            )
        return
    floating("bias", bias, xp)
    fits_scores("bias", bias, expected, layout)


def probability(name: str, p: Any) -> float:
    """``p`` as a float in [0, 1) (a dropout rate); ``ValueError`` naming ``name`` otherwise."""
    if isinstance(p, bool) or not isinstance(p, int | float) or not 0 <= p < 1:
        raise ValueError(f"{name} must be a probability in [0, 1), got {p!r}")
    return float(p)


def dropout(p: Any, rng: Any) -> float:
    """Checked attention dropout: ``p`` in [0, 1), and a random generator when ``p > 0``."""
    p = probability("dropout", p)
    if p > 0 and not callable(getattr(rng, "random", None)):
        raise TypeError(
            f"dropout={p} needs rng, a random generator such as numpy.random.default_rng(seed) "
            f"(seeded, so that a run can be repeated), got {type(rng).__name__}"
        )
    return p


def rope(value: Any, d_k: int) -> None:
    """Raise unless ``value`` is None or an :class:`mha.positions.RoPE` for heads of ``d_k``."""
    from mha.positions import RoPE

    if value is None:
        return
    if not isinstance(value, RoPE):
        raise TypeError(
            f"rope must be an mha.positions.RoPE (e.g. RoPE(base=10000.0)) or None, "
            f"got {type(value).__name__}"
        )
    if d_k % 2:
        raise ValueError(f"rope rotates pairs of features, but the heads have an odd d_k={d_k}")
