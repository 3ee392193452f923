"""Where a token is: sinusoidal position encodings, rotary position embeddings (RoPE), ALiBi.

Attention by itself is blind to order (permute the tokens and the output is permuted the same
way), so a Transformer adds positions. Fixed, parameter-free ways, for NumPy, CuPy and
PyTorch arrays alike (the array namespace comes from the input, as everywhere in ``mha``):

- :func:`sinusoidal`, the encoding of "Attention Is All You Need" (Vaswani et al., 2017),
  *added* to the token embeddings once, before the first layer::

      PE[p, 2i] = sin(p / base^(2i/d)),   PE[p, 2i+1] = cos(p / base^(2i/d))

- :func:`apply_rope`, rotary position embeddings (Su et al., 2021), applied to the queries
  and keys of every attention layer: each pair of features is rotated by an angle
  proportional to the position, so a query-key dot product depends only on their offset.
  The pairs are ``(x[i], x[i + d/2])`` (the "rotate-half" layout of GPT-NeoX and Llama), not
  neighbours ``(x[2i], x[2i+1])`` as in the paper and GPT-J. :class:`RoPE` is the same
  rotation as an option of the attention functions (``rope=RoPE(base=500000.0)``), with
  Llama 3's frequency scaling (:class:`Llama3Scaling`) if asked for;
- :class:`ALiBi`, attention with linear biases (Press et al., 2022): no change to the
  queries and keys, but a bias ``m_h (j - i)`` added to the score of query i and key j, one
  slope ``m_h`` per head (``bias=ALiBi(num_heads)`` in the attention functions).

Both rotary and sinusoidal codes use the frequencies ``theta_i = base^(-2i/d)``,
``i = 0 .. d/2 - 1``: the first pair turns by 1 radian per position, the last by nearly
``1/base``. Their angles ``p * theta_i`` are computed in float64 and only then cast to the
input's dtype: a float32 ``theta_i`` one ulp off, multiplied by a position of 40000, turns
a pair by a visible error (``tests/test_positions.py`` measures it against float64).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
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


def _positive_number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ValueError(f"{name} must be a positive number, got {value!r}")
    return float(value)


def _wide_dtype(xp: ModuleType) -> Any:
    """float64 where the library has it (the angles' dtype), else float32."""
    return getattr(xp, "float64", xp.float32)


@dataclass(frozen=True)
class Llama3Scaling:
    """Llama 3.1's RoPE frequency scaling, for contexts longer than the model was trained on.

    With wavelength ``w_i = 2 pi / theta_i`` and the training context ``L``
    (``original_max_position``): frequencies whose wavelength is shorter than
    ``L / high_freq_factor`` stay as they are; those longer than ``L / low_freq_factor``
    are divided by ``factor``; in between they are interpolated, with weight
    ``s = (L / w_i - low_freq_factor) / (high_freq_factor - low_freq_factor)``::

        theta_i' = (1 - s) theta_i / factor + s theta_i

    The defaults are Llama 3.1's (``rope_scaling`` of its Hugging Face config).
    """

    factor: float = 8.0
    low_freq_factor: float = 1.0
    high_freq_factor: float = 4.0
    original_max_position: int = 8192

    def __post_init__(self) -> None:
        _positive_number("factor", self.factor)
        low = _positive_number("low_freq_factor", self.low_freq_factor)
        high = _positive_number("high_freq_factor", self.high_freq_factor)
        if not high > low:
            raise ValueError(f"high_freq_factor={high} must be greater than low_freq_factor={low}")
        _validate.positive_int("original_max_position", self.original_max_position)

    def apply(self, xp: ModuleType, theta: Array) -> Array:
        """The scaled frequencies, in ``theta``'s dtype.

        Shapes
        ------
        theta : (d/2,)  ->  (d/2,)
        """
        context = float(self.original_max_position)
        wavelength = 2 * math.pi / theta
        slow = theta / self.factor
        smooth = (context / wavelength - self.low_freq_factor) / (
            self.high_freq_factor - self.low_freq_factor
        )
        between = (1 - smooth) * slow + smooth * theta
        scaled = xp.where(wavelength > context / self.low_freq_factor, slow, between)
        return xp.where(wavelength < context / self.high_freq_factor, theta, scaled)


def frequencies(
    d: int,
    *,
    base: float = 10000.0,
    scaling: Llama3Scaling | None = None,
    xp: ModuleType | None = None,
    device: Any = None,
) -> Array:
    """``theta_i = base^(-2i/d)`` for ``i = 0 .. d/2 - 1``, in float64, scaled if asked.

    Parameters
    ----------
    d : int
        The width of the rotated (or encoded) vectors; even.
    base : float
        10000 in the Transformer paper, RoFormer and Llama 2; 500000 in Llama 3.
    scaling : Llama3Scaling, optional
        Llama 3.1's frequency scaling.
    xp, device : array namespace and device, optional
        Where to build the result (NumPy by default).

    Shapes
    ------
    returns : (d/2,), float64 (float32 where the library has no float64)
    """
    d = _validate.positive_int("d", d)
    _even("d", d)
    base = _base(base)
    if scaling is not None and not isinstance(scaling, Llama3Scaling):
        raise TypeError(
            f"scaling must be an mha.positions.Llama3Scaling or None, got {type(scaling).__name__}"
        )
    xp = array_api_compat.array_namespace(np.empty(0)) if xp is None else xp
    wide = _wide_dtype(xp)
    exponents = xp.arange(0, d, 2, dtype=wide, device=device) / d  # 2i/d
    theta = xp.exp(exponents * -math.log(base))
    return theta if scaling is None else scaling.apply(xp, theta)


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
    if like is None:
        xp, dtype, device = array_api_compat.array_namespace(np.empty(0)), np.float64, None
    else:
        xp = _namespace("like", like)
        _validate.floating("like", like, xp)
        dtype, device = like.dtype, array_api_compat.device(like)
    theta = frequencies(d_model, base=base, xp=xp, device=device)  # (d_model/2,), float64
    angles = xp.reshape(xp.arange(n, dtype=theta.dtype, device=device), (n, 1)) * theta
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


def _positions(xp: ModuleType, positions: Any, batch: tuple[int, ...], device: Any) -> Array:
    """``positions`` as an array of ``xp`` that broadcasts to ``batch = (..., n)``."""
    try:
        p = xp.asarray(positions, device=device)
    except (TypeError, ValueError, RuntimeError) as error:
        raise TypeError(
            "positions must be an array or a sequence of numbers, got "
            f"{type(positions).__name__}: {error}"
        ) from None
    if not xp.isdtype(p.dtype, ("integral", "real floating")):
        raise TypeError(f"positions must hold integers or floats, got dtype {p.dtype}")
    p_shape, n = tuple(p.shape), batch[-1]
    if not p_shape or p_shape[-1] != n or not _validate.broadcasts(p_shape, batch):
        raise ValueError(
            f"positions must have shape (n,) = ({n},), or a shape ending in n that "
            f"broadcasts to x's {batch} without growing it, got shape {p_shape}"
        )
    return p


def apply_rope(
    x: Array,
    positions: Array | None = None,
    *,
    base: float = 10000.0,
    scaling: Llama3Scaling | None = None,
) -> Array:
    """Rotary position embedding, rotate-half layout (GPT-NeoX, Llama).

    Feature ``i`` and feature ``i + d/2`` form a pair that is rotated by the angle
    ``p * theta_i``, ``theta_i = base^(-2i/d)``, where ``p`` is the token's position::

        out[..., i]       = x[..., i] cos(p theta_i) - x[..., i + d/2] sin(p theta_i)
        out[..., i + d/2] = x[..., i + d/2] cos(p theta_i) + x[..., i] sin(p theta_i)

    Apply it to the queries and the keys of each head (never to the values); then
    ``apply_rope(q, [m]) . apply_rope(k, [n])`` depends on ``m - n`` only. The angles, their
    cosines and sines are computed in float64 (where the library has it) and then cast.

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
    scaling : Llama3Scaling, optional
        Llama 3.1's frequency scaling (:func:`frequencies`).

    Returns
    -------
    array
        Same library, shape, dtype and device as ``x`` (16-bit inputs rotate in float32).

    Shapes
    ------
    x : (..., n, d);  positions : (n,) or broadcastable to (..., n)  ->  (..., n, d)
    """
    xp = _namespace("x", x)
    _validate.floating("x", x, xp)
    _validate.min_ndim("x", x, 2, "(..., n, d)")
    *lead, n, d = x.shape
    _even("x's last dimension d", d)
    device = array_api_compat.device(x)
    theta = frequencies(d, base=base, scaling=scaling, xp=xp, device=device)  # (d/2,), float64
    if positions is None:
        p = xp.arange(n, dtype=theta.dtype, device=device)
    else:
        p = xp.astype(_positions(xp, positions, (*lead, n), device), theta.dtype)
    angles = xp.expand_dims(p, axis=-1) * theta  # (..., n, d/2): p * theta_i
    compute = compute_dtype(xp, x.dtype)
    cos = xp.astype(xp.concat([xp.cos(angles)] * 2, axis=-1), compute)  # theta_i at i, i + d/2
    sin = xp.astype(xp.concat([xp.sin(angles)] * 2, axis=-1), compute)  # (..., n, d)
    x_c = xp.astype(x, compute, copy=False)
    return xp.astype(x_c * cos + rotate_half(x_c) * sin, x.dtype, copy=False)


@dataclass(frozen=True, eq=False)
class RoPE:
    """Rotary position embeddings as an option of the attention functions: ``rope=RoPE()``.

    The attention functions (:func:`mha.multi_head_attention`, the loop, the lean path,
    :func:`mha.efficient.grouped_query_attention`, :func:`mha.efficient.decode_step`, the
    torch module) rotate every head's queries and keys with :func:`apply_rope` after the
    projections, before the scores. ``d_k`` must be even.

    Parameters
    ----------
    base : float
        10000 (RoFormer, Llama 2) or 500000 (Llama 3).
    scaling : Llama3Scaling, optional
        Llama 3.1's frequency scaling.
    positions : array or sequence of numbers, optional
        The position of each *key*, shape ``(n_k,)`` or ``(..., n_k)`` with the inputs'
        batch shape (one row per sequence, e.g. after left padding). The queries take the
        positions of the last ``n_q`` keys, as :func:`mha.causal_mask` aligns them (in
        self-attention, the same positions). By default ``0 .. n_k - 1``.
        :func:`mha.efficient.decode_step` takes them from its cache instead.
    """

    base: float = 10000.0
    scaling: Llama3Scaling | None = None
    positions: Array | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "base", _base(self.base))
        if self.scaling is not None and not isinstance(self.scaling, Llama3Scaling):
            raise TypeError(
                "scaling must be an mha.positions.Llama3Scaling or None, "
                f"got {type(self.scaling).__name__}"
            )

    def rotate(self, x: Array, positions: Array | None = None) -> Array:
        """:func:`apply_rope` with this base and scaling.

        Shapes
        ------
        x : (..., n, d);  positions : (n,) or broadcastable to (..., n)  ->  (..., n, d)
        """
        return apply_rope(x, positions, base=self.base, scaling=self.scaling)

    def rotate_heads(self, q: Array, k: Array, *, start: int = 0) -> tuple[Array, Array]:
        """Every head's queries and keys, rotated to their positions.

        Keys sit at :attr:`positions` (default ``start .. start + n_k - 1``), queries at the
        positions of the last ``n_q`` keys (bottom-right, like :func:`mha.causal_mask`).
        Positions given per sequence, ``(..., n_k)``, get the heads axis added.

        Shapes
        ------
        q : (..., h, n_q, d);  k : (..., g, n_k, d)  ->  the same shapes
        """
        xp = _namespace("q", q)
        n_q, n_k = q.shape[-2], k.shape[-2]
        device = array_api_compat.device(q)
        if self.positions is None:
            k_positions = xp.arange(start, start + n_k, device=device)
            q_positions = xp.arange(start + n_k - n_q, start + n_k, device=device)
        else:
            if n_q > n_k:
                raise ValueError(
                    f"rope.positions gives the positions of the {n_k} keys, and the {n_q} "
                    "queries take the last n_q of them; there are more queries than keys"
                )
            batch = _validate.batch_shape(q=q.shape[:-3], k=k.shape[:-3])
            k_positions = _positions(xp, self.positions, (*batch, n_k), device)
            if k_positions.ndim >= 2:  # (..., n_k) -> (..., 1, n_k): one row for all heads
                k_positions = xp.expand_dims(k_positions, axis=-2)
                k = xp.broadcast_to(k, (*batch, *k.shape[-3:]))
            q_positions = k_positions[..., n_k - n_q :]
        return self.rotate(q, q_positions), self.rotate(k, k_positions)


def alibi_slopes(num_heads: int) -> tuple[float, ...]:
    """ALiBi's slope for each head: a geometric sequence (Press et al., 2022).

    For h a power of 2 the slopes are ``2^(-8/h), 2^(-16/h), ..., 2^(-8)``. Otherwise the
    slopes of the largest power of 2 below h come first, then every other slope of twice
    that power, as the paper's code and BLOOM do.
    """
    h = _validate.positive_int("num_heads", num_heads)
    power = 2 ** math.floor(math.log2(h))
    slopes = [2.0 ** (-8.0 * (i + 1) / power) for i in range(power)]
    extra = [2.0 ** (-8.0 * (i + 1) / (2 * power)) for i in range(0, 2 * (h - power), 2)]
    return tuple(slopes + extra)


@dataclass(frozen=True)
class ALiBi:
    """Attention with linear biases: ``bias[h, i, j] = m_h (j - i)``, a bias, not a rotation.

    Pass it as ``bias=ALiBi(num_heads)`` to the attention functions: query i and key j (at
    the positions :func:`mha.causal_mask` gives them: queries are the last ``n_q`` of the
    ``n_k`` positions) get ``m_h (j - i)`` added to their scaled score, so each head looks
    less far back the larger its slope ``m_h`` (:func:`alibi_slopes`). Use it with a causal
    mask: without one, future keys get a positive bias (as in BLOOM's implementation,
    ``m_h j``, which differs from this one by a constant per row, to which the softmax is
    blind).

    It is a **positional bias**, a function of positions that the attention functions call
    for the keys and queries they need, so that the lean path never holds all of it:
    ``bias(q_positions, k_positions, head=None)`` with float arrays of positions
    ``(n_q',)`` and ``(n_k',)`` returns ``(h, n_q', n_k')``, or ``(n_q', n_k')`` for one
    ``head``. Any object with that call and a ``num_heads`` attribute can stand in its place
    (T5's bucketed relative bias, for instance).
    """

    num_heads: int

    def __post_init__(self) -> None:
        _validate.positive_int("num_heads", self.num_heads)

    @property
    def slopes(self) -> tuple[float, ...]:
        return alibi_slopes(self.num_heads)

    def __call__(self, q_positions: Array, k_positions: Array, head: int | None = None) -> Array:
        """``m_h (j - i)`` for the given query and key positions.

        Shapes
        ------
        q_positions : (n_q,);  k_positions : (n_k,)
        returns : (h, n_q, n_k), or (n_q, n_k) for one head
        """
        xp = _namespace("q_positions", q_positions)
        offsets = xp.reshape(k_positions, (1, -1)) - xp.reshape(q_positions, (-1, 1))  # j - i
        if head is not None:
            return self.slopes[head] * offsets
        slopes = xp.asarray(
            self.slopes, dtype=offsets.dtype, device=array_api_compat.device(offsets)
        )
        return xp.reshape(slopes, (-1, 1, 1)) * offsets
