"""The building blocks of attention, written once for any array-API library (NumPy, CuPy, ...).

:func:`softmax`, :func:`scaled_dot_product_attention`, :func:`split_heads` and
:func:`merge_heads` are the package's public blocks (re-exported as ``mha.softmax`` and so
on); :func:`project` is the linear projection ``x W + b``. Each of them takes its array
namespace from its inputs, checks its arguments, and computes with :mod:`mha._compute`
(where the additive bias and the attention dropout live too); :mod:`mha.numpy_mha` builds
multi-head attention from the same computations (checking its own arguments once),
:mod:`mha.lean` its tiled path, and :mod:`mha.efficient` grouped-query attention.
"""

from __future__ import annotations

from typing import Any

from mha import _compute, _validate
from mha._validate import Array


def softmax(x: Array, axis: int = -1) -> Array:
    """Numerically stable softmax along ``axis``.

    ``softmax(x)_i = exp(x_i - max(x)) / sum_j exp(x_j - max(x))``. Subtracting the maximum
    changes nothing mathematically and keeps ``exp`` from overflowing. A slice that is all
    ``-inf`` (a fully masked row) gives zeros, not NaN.

    Parameters
    ----------
    x : array
        Floating-point array (NumPy, CuPy or any array-API library).
    axis : int
        The axis that sums to 1.

    Returns
    -------
    array
        Same shape and dtype as ``x``; float16 inputs are computed in float32.

    Shapes
    ------
    x : (...)  ->  (...)
    """
    xp = _validate.array_namespace(x=x)
    _validate.floating("x", x, xp)
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError(f"axis must be an int, got {type(axis).__name__}")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(
            f"axis must be in [{-x.ndim}, {x.ndim}) for x of shape {x.shape}, got {axis}"
        )
    return _compute.softmax(xp, x, axis)


def scaled_dot_product_attention(
    q: Array,
    k: Array,
    v: Array,
    mask: Array | None = None,
    *,
    bias: Array | None = None,
    dropout: float = 0.0,
    rng: Any = None,
) -> tuple[Array, Array]:
    """Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k) + bias) V.

    Parameters
    ----------
    q, k, v : array
        Queries, keys and values, one floating dtype. Leading (batch) dimensions broadcast
        like ``matmul``.
    mask : bool array, optional
        True where query i may attend key j; broadcastable to ``(..., n_q, n_k)``.
        A query with no allowed key gets zero weights and a zero output.
    bias : float array or positional bias, optional
        Added to the scaled scores before the mask and the softmax (ALiBi, T5's relative
        bias, a float mask): an array broadcastable to ``(..., n_q, n_k)`` like the mask, or
        a positional bias such as :class:`mha.positions.ALiBi`, called for the positions
        (the queries at the last ``n_q`` of the ``n_k``, as :func:`mha.causal_mask` aligns
        them). **Mask and bias combine** as
        ``where(mask, scores + bias, -inf)``: the mask wins, and a ``-inf`` in the bias hides
        a key as the mask does; a row with no finite score gives zeros.
    dropout : float
        Attention dropout (training only: pass 0, the default, to evaluate): each weight is
        zeroed with probability ``dropout`` and the others divided by ``1 - dropout``,
        after the softmax, as ``nn.MultiheadAttention(dropout=p)`` does.
    rng : random generator
        Needed when ``dropout > 0``: ``numpy.random.default_rng(seed)`` (or CuPy's), so that
        a run can be repeated.

    Returns
    -------
    out : array
        The weighted sum of values.
    weights : array
        The attention weights (after dropout, when there is dropout: the ones that
        multiplied the values); without dropout each unmasked row sums to 1.

    Shapes
    ------
    q : (..., n_q, d_k);  k : (..., n_k, d_k);  v : (..., n_k, d_v)
    mask, bias : broadcastable to (..., n_q, n_k)
    out : (..., n_q, d_v);  weights : (..., n_q, n_k)
    """
    array_bias = None if callable(bias) else bias
    xp = _validate.array_namespace(q=q, k=k, v=v, mask=mask, bias=array_bias)
    for name, x in (("q", q), ("k", k), ("v", v)):
        _validate.floating(name, x, xp)
        _validate.min_ndim(name, x, 2, "(..., n, d)")
    _validate.same_dtype(xp, q=q, k=k, v=v)
    if k.shape[-1] != q.shape[-1]:
        raise ValueError(
            f"k has d_k={k.shape[-1]} but q has d_k={q.shape[-1]}; "
            "queries and keys must share d_k for the dot product"
        )
    _validate.one_value_per_key(k, v)
    batch = _validate.batch_shape(q=q.shape[:-2], k=k.shape[:-2], v=v.shape[:-2])
    scores_shape = (*batch, q.shape[-2], k.shape[-2])
    if mask is not None:
        _validate.attention_mask(mask, scores_shape, xp, "(..., n_q, n_k)")
    _validate.attention_bias(bias, scores_shape, xp, "(..., n_q, n_k)")
    dropout = _validate.dropout(dropout, rng)
    if callable(bias):  # a positional bias's shape is known once it is evaluated
        compute = _compute.compute_dtype(xp, q.dtype)
        bias = _compute.bias_scores(xp, bias, q.shape[-2], k.shape[-2], dtype=compute, like=q)
        _validate.attention_bias(bias, scores_shape, xp, "(..., n_q, n_k)")
    return _compute.attention(xp, q, k, v, mask, bias, dropout, rng)


def split_heads(x: Array, num_heads: int) -> Array:
    """Split the feature axis into heads and move the heads axis before the sequence axis.

    Head i owns features ``i*d : (i+1)*d``. A plain reshape to ``(..., h, n, d)`` would be
    wrong: the transpose is what keeps each token's features together.

    Shapes
    ------
    x : (..., n, h*d)  ->  (..., h, n, d)
    """
    xp = _validate.array_namespace(x=x)
    _validate.min_ndim("x", x, 2, "(..., n, h*d)")
    num_heads = _validate.positive_int("num_heads", num_heads)
    if x.shape[-1] % num_heads:
        raise ValueError(f"num_heads={num_heads} does not divide x's last dimension {x.shape[-1]}")
    return _compute.split_heads(xp, x, num_heads)


def merge_heads(x: Array) -> Array:
    """Concat(head_1, ..., head_h): the inverse of :func:`split_heads`.

    Shapes
    ------
    x : (..., h, n, d)  ->  (..., n, h*d)
    """
    xp = _validate.array_namespace(x=x)
    _validate.min_ndim("x", x, 3, "(..., h, n, d)")
    return _compute.merge_heads(xp, x)


def project(x: Array, w: Array, b: Array | None = None) -> Array:
    """The linear projection ``x @ w + b``, as one 2-D matrix product over all leading axes.

    One product, not one per batch entry (which is what NumPy's ``matmul`` runs for a 3-D
    ``x``): the same numbers, several times faster for small batches of short sequences.

    Shapes
    ------
    x : (..., n, f_in);  w : (f_in, f_out);  b : (f_out,) or None  ->  (..., n, f_out)
    """
    xp = _validate.array_namespace(x=x, w=w, b=b)
    _validate.min_ndim("x", x, 1, "(..., f_in)")
    if w.ndim != 2 or w.shape[0] != x.shape[-1]:
        raise ValueError(
            f"w must be (f_in, f_out) = ({x.shape[-1]}, ...) for x with {x.shape[-1]} "
            f"features, got shape {tuple(w.shape)}"
        )
    if b is not None and tuple(b.shape) != (w.shape[1],):
        raise ValueError(f"b must have shape ({w.shape[1]},), got {tuple(b.shape)}")
    return _compute.project(xp, x, w, b)
