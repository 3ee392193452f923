"""Where a token is: sinusoidal position encodings and rotary position embeddings (RoPE).

Attention by itself is blind to order (permute the tokens and the output is permuted the same
way), so a Transformer adds positions. Two fixed, parameter-free ways, for NumPy, CuPy and
PyTorch arrays alike (the array namespace comes from the input, as everywhere in ``mha``):

- :func:`sinusoidal`, the encoding of "Attention Is All You Need" (Vaswani et al., 2017),
  *added* to the token embeddings once, before the first layer::

      PE[p, 2i] = sin(p / base^(2i/d)),   PE[p, 2i+1] = cos(p / base^(2i/d))

- :func:`apply_rope`, rotary position embeddings (Su et al., 2021), applied to the queries
  and keys of every attention layer: each pair of features is rotated by an angle
  proportional to the position, so a query-key dot product depends only on their offset.
  The pairs are ``(x[i], x[i + d/2])`` (the "rotate-half" layout of GPT-NeoX and Llama), not
  neighbours ``(x[2i], x[2i+1])`` as in the paper and GPT-J.

Both use the frequencies ``theta_i = base^(-2i/d)``, ``i = 0 .. d/2 - 1``: the first pair turns
by 1 radian per position, the last by nearly ``1/base``.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import array_api_compat
import numpy as np

from mha import _validate
from mha._compute import compute_dtype
from mha._validate import Array


def _namespace(name: str, x: Any) -> ModuleType:
    if not array_api_compat.is_array_api_obj(x):
        raise TypeError(
            f"{name} must be an array (NumPy, CuPy, torch or another array-API library), "
            f"got {type(x).__name__}"
        )
    return array_api_compat.array_namespace(x)


def _even(name: str, d: int) -> None:
    if d % 2:
        raise ValueError(f"{name} must be even (features are rotated or encoded in pairs), got {d}")


def _base(base: Any) -> float:
    if isinstance(base, bool) or not isinstance(base, int | float) or not base > 1:
        raise ValueError(f"base must be a number greater than 1, got {base!r}")
    return float(base)


def _frequencies(xp: ModuleType, d: int, base: float, dtype: Any, device: Any) -> Array:
    """``theta_i = base^(-2i/d)`` for ``i = 0 .. d/2 - 1``, shape ``(d/2,)``."""
    exponents = xp.arange(0, d, 2, dtype=dtype, device=device) / d  # 2i/d
    return xp.exp(exponents * -math.log(base))


def sinusoidal(n: int, d_model: int, *, base: float = 10000.0, like: Array | None = None) -> Array:
    """The sinusoidal position encoding of "Attention Is All You Need".

    Row ``p`` encodes position ``p``; columns alternate ``sin`` and ``cos`` of
    ``p * theta_i`` with ``theta_i = base^(-2i/d_model)``::

        PE[p, 2i] = sin(p * theta_i),   PE[p, 2i+1] = cos(p * theta_i)

    Parameters
    ----------
    n : int
        Number of positions (0 .. n-1).
    d_model : int
        Width of the encoding; even.
    base : float
        10000 in the paper.
    like : array, optional
        The result takes this array's library, floating dtype and device (pass the token
        embeddings it will be added to). NumPy float64 when omitted.

    Shapes
    ------
    returns : (n, d_model)
    """
    n = _validate.positive_int("n", n)
    d_model = _validate.positive_int("d_model", d_model)
    _even("d_model", d_model)
    base = _base(base)
    if like is None:
        xp, dtype, device = array_api_compat.array_namespace(np.empty(0)), np.float64, None
    else:
        xp = _namespace("like", like)
        _validate.floating("like", like, xp)
        dtype, device = like.dtype, array_api_compat.device(like)
    compute = compute_dtype(xp, dtype)
    angles = xp.reshape(xp.arange(n, dtype=compute, device=device), (n, 1)) * _frequencies(
        xp, d_model, base, compute, device
    )  # (n, d_model/2): p * theta_i
    pairs = xp.stack([xp.sin(angles), xp.cos(angles)], axis=-1)  # (n, d_model/2, 2)
    return xp.astype(xp.reshape(pairs, (n, d_model)), dtype, copy=False)


def rotate_half(x: Array) -> Array:
    """``(x1, x2) -> (-x2, x1)`` on the two halves of the last axis: a quarter turn per pair.

    Shapes
    ------
    x : (..., d)  ->  (..., d)
    """
    xp = _namespace("x", x)
    half = x.shape[-1] // 2
    return xp.concat([-x[..., half:], x[..., :half]], axis=-1)


def apply_rope(x: Array, positions: Array | None = None, *, base: float = 10000.0) -> Array:
    """Rotary position embedding, rotate-half layout (GPT-NeoX, Llama).

    Feature ``i`` and feature ``i + d/2`` form a pair that is rotated by the angle
    ``p * theta_i``, ``theta_i = base^(-2i/d)``, where ``p`` is the token's position::

        out[..., i]       = x[..., i] cos(p theta_i) - x[..., i + d/2] sin(p theta_i)
        out[..., i + d/2] = x[..., i + d/2] cos(p theta_i) + x[..., i] sin(p theta_i)

    Apply it to the queries and the keys of each head (never to the values); then
    ``apply_rope(q, [m]) . apply_rope(k, [n])`` depends on ``m - n`` only.

    Parameters
    ----------
    x : array
        Floating queries or keys, e.g. ``(B, h, n, d_k)``; the last axis (d) must be even.
    positions : array or sequence of numbers, optional
        The position of each of the n tokens; ``0 .. n-1`` by default. Shape ``(n,)``, or any
        shape ending in n that broadcasts against ``x.shape[:-1]`` (positions per sequence).
        A KV cache's new token at position 10 gets ``positions=[10]``.
    base : float
        10000 as in RoFormer and Llama 2 (Llama 3 uses 500000).

    Returns
    -------
    array
        Same library, shape, dtype and device as ``x`` (angles in float32 for 16-bit inputs).

    Shapes
    ------
    x : (..., n, d);  positions : (n,) or broadcastable to (..., n)  ->  (..., n, d)
    """
    xp = _namespace("x", x)
    _validate.floating("x", x, xp)
    _validate.min_ndim("x", x, 2, "(..., n, d)")
    *lead, n, d = x.shape
    _even("x's last dimension d", d)
    base = _base(base)
    device = array_api_compat.device(x)
    compute = compute_dtype(xp, x.dtype)
    if positions is None:
        p = xp.arange(n, dtype=compute, device=device)
    else:
        try:
            p = xp.asarray(positions, device=device)
        except (TypeError, ValueError, RuntimeError) as error:
            raise TypeError(
                "positions must be an array or a sequence of numbers, got "
                f"{type(positions).__name__}: {error}"
            ) from None
        if not xp.isdtype(p.dtype, ("integral", "real floating")):
            raise TypeError(f"positions must hold integers or floats, got dtype {p.dtype}")
        p_shape, batch = tuple(p.shape), (*lead, n)
        fits = len(p_shape) <= len(batch) and all(
            a in (1, b) for a, b in zip(reversed(p_shape), reversed(batch), strict=False)
        )
        if not p_shape or p_shape[-1] != n or not fits:
            raise ValueError(
                f"positions must have shape (n,) = ({n},), or a shape ending in n that "
                f"broadcasts to x's {batch} without growing it, got shape {p_shape}"
            )
        p = xp.astype(p, compute)
    theta = _frequencies(xp, d, base, compute, device)  # (d/2,)
    angles = xp.expand_dims(p, axis=-1) * theta  # (..., n, d/2): p * theta_i
    cos = xp.concat([xp.cos(angles)] * 2, axis=-1)  # (..., n, d): theta_i at i and i + d/2
    sin = xp.concat([xp.sin(angles)] * 2, axis=-1)
    x_c = xp.astype(x, compute, copy=False)
    return xp.astype(x_c * cos + rotate_half(x_c) * sin, x.dtype, copy=False)
