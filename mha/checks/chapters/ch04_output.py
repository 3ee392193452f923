"""Chapter 4's exercises: multi-head attention with its output projection, each head's
contribution to the output, finding the bugs in a layer, the parameter count."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np

import mha
from mha.checks.core import Case
from mha.checks.forms import Whole
from mha.checks.inputs import F32, F64, normal, random_mask, swap_last
from mha.checks.kinds import (
    Exercise,
    FunctionExercise,
    Mistake,
    NumberExercise,
    WrongValue,
)
from mha.checks.predictions import Misconception, PredictionExercise
from mha.checks.properties import (
    equals_one_of,
    leaks_through_mask,
    normalised_over_another_axis,
    raised_when,
    scaled_by,
    zeroed_after_softmax,
)
from mha.checks.relations import Alternative, Term
from mha.checks.variants import (
    bug_mistakes,
    merge_interleaved,
    merge_no_transpose,
    split_interleaved,
    split_no_transpose,
)

# --- ch04: multi-head attention -----------------------------------------------------------

MHA_REFERENCES = (
    "mha.numpy_mha.multi_head_attention", "mha.numpy_mha.multi_head_attention_loop",
    "mha.lean.tiles.multi_head_attention", "mha.efficient.grouped_query_attention",
    "mha.torch_mha.MultiHeadAttention", "torch.nn.MultiheadAttention",
    "torch.nn.functional.multi_head_attention_forward",
)  # fmt: skip


def _random_params(
    rng,
    d_model: int,
    h: int,
    dtype: Any,
    bias: bool,
    d_k: int | None = None,
    d_v: int | None = None,
):
    d_k = d_model // h if d_k is None else d_k
    d_v = d_k if d_v is None else d_v
    shapes = [(d_model, h * d_k)] * 2 + [(d_model, h * d_v), (h * d_v, d_model)]
    weights = [normal(rng, shape, dtype, 1.5 / math.sqrt(d_model)) for shape in shapes]
    sizes = [h * d_k] * 2 + [h * d_v, d_model]
    biases = [normal(rng, (size,), dtype, 0.5) if bias else None for size in sizes]
    return mha.MHAParams(*weights, h, *biases)


def _with_padded_values_changed(rng, case: Case, text: str) -> Case:
    """A probe: the same case with new values (rows of v) for the keys its mask hides from all."""
    q, k, v, params, mask = case.args
    hidden = ~np.broadcast_to(mask, (*q.shape[:-2], params.num_heads, q.shape[-2], k.shape[-2]))
    hidden = hidden.all(axis=(-3, -2))  # (..., n_k): hidden from every head and query
    v = v + np.where(hidden[..., None], normal(rng, v.shape, v.dtype, 10.0), 0).astype(v.dtype)
    return Case(text, (q, k, v, params, mask), probe_of=case.description, probe="masked_values")


def _mha_cases(rng: np.random.Generator) -> list[Case]:
    def case(text, batch, n_q, n_k, d_model, h, dtype, bias=False, mask=None, d_k=None, d_v=None):
        q = normal(rng, (*batch, n_q, d_model), dtype)
        kv = normal(rng, (*batch, n_k, d_model), dtype)
        v = normal(rng, (*batch, n_k, d_model), dtype)
        params = _random_params(rng, d_model, h, dtype, bias, d_k, d_v)
        args = (q, kv, v, params) if mask is None else (q, kv, v, params, mask)
        return Case(text, args)

    n, n_q, n_k = (int(x) for x in rng.choice(np.arange(2, 8), size=3, replace=False))
    lengths = rng.integers(1, n_k, size=3)
    padding = (np.arange(n_k) < lengths[:, None])[:, None, None, :]  # (3, 1, 1, n_k)
    padded = case(
        f"batch (3,), d_model=12, h=3, n_q={n_q}, n_k={n_k}, with biases and a (3, 1, 1, {n_k}) "
        "padding mask",
        (3,), n_q, n_k, 12, 3, F32, bias=True, mask=padding,
    )  # fmt: skip
    return [
        case(f"d_model=8, h=2, n_q = n_k = {n}, float64", (), n, n, 8, 2, F64),
        case(
            f"batch (2,), d_model=8, h=2, n = {n}, with mha.causal_mask({n})",
            (2,), n, n, 8, 2, F64, mask=mha.causal_mask(n),
        ),
        case(f"batch (2,), d_model=12, h=3, n_q={n_q}, n_k={n_k}, float32", (2,), n_q, n_k, 12, 3, F32),
        case(f"batch (2, 2), d_model=6, h=1, n_q={n_q}, n_k={n_k}, with biases", (2, 2), n_q, n_k, 6, 1, F64, bias=True),
        case(f"batch (2,), d_model=8, h=4, n_q={n_k}, n_k={n_q}, with biases", (2,), n_k, n_q, 8, 4, F64, bias=True),
        case(
            f"batch (2,), d_model=8, h=2, n_q={n_q}, n_k={n_k}, with a ({n_q}, {n_k}) mask",
            (2,), n_q, n_k, 8, 2, F64, mask=random_mask(rng, (n_q, n_k)),
        ),
        case(f"d_model=8, h=2, d_k = d_v = 3 (h*d_k != d_model), n = {n}", (), n, n, 8, 2, F64, d_k=3),
        case(f"d_model=8, h=2, d_k=3, d_v=5, n_q={n_q}, n_k={n_k}, with biases", (), n_q, n_k, 8, 2, F64, bias=True, d_k=3, d_v=5),
        case(
            f"batch (2,), d_model=8, h=2, n_q={n_q}, n_k={n_k}, with a mask that leaves one query no key",
            (2,), n_q, n_k, 8, 2, F64, mask=_with_a_blind_query(rng, random_mask(rng, (n_q, n_k))),
        ),
        padded,
        _with_padded_values_changed(rng, padded, "the same padding-mask input with other values behind the mask"),
        _with_some_biases(case(f"batch (2,), d_model=8, h=2, n = {n}, biases", (2,), n, n, 8, 2, F64, bias=True)),
    ]  # fmt: skip


def _with_some_biases(case: Case) -> Case:
    """The case with only b_q and b_v: each bias is added on its own when it is not None."""
    q, k, v, params = case.args
    params = dataclasses.replace(params, b_k=None, b_o=None)
    return Case(
        case.description.replace("biases", "b_q and b_v only (b_k, b_o None)"), (q, k, v, params)
    )


def _with_a_blind_query(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """The mask with one query row all False: a query that may attend no key."""
    mask = mask.copy()
    mask[..., int(rng.integers(mask.shape[-2])), :] = False
    return mask


def _mha_variant(
    *,
    split: Callable = mha.split_heads,
    merge: Callable = mha.merge_heads,
    divisor: Callable[[mha.MHAParams], float] = lambda p: math.sqrt(p.d_k),
    value_weight: str = "w_v",
    output_projection: bool = True,
    biases: tuple[str, ...] = ("b_q", "b_k", "b_v", "b_o"),
    transposed: tuple[str, ...] = (),
    mask_mode: str = "before",
    softmax_axis: int = -1,
) -> Callable:
    """Multi-head attention with some things changed; the defaults give the right answer.

    ``transposed`` weights are used as ``x @ w.T``; only ``biases`` are added."""

    def attention(q, k, v, params, mask=None):
        def project(x, name, bias):
            w = getattr(params, name)
            y = x @ (w.T if name in transposed else w)
            b = getattr(params, bias)
            return y + b if bias in biases and b is not None else y

        h = params.num_heads
        q_heads = split(project(q, "w_q", "b_q"), h)  # (..., h, n_q, d_k)
        k_heads = split(project(k, "w_k", "b_k"), h)  # (..., h, n_k, d_k)
        v_heads = split(project(v, value_weight, "b_v"), h)  # (..., h, n_k, d_v)
        scores = q_heads @ swap_last(k_heads) / divisor(params)  # (..., h, n_q, n_k)
        if mask is not None and mask_mode == "before":
            scores = np.where(mask, scores, -np.inf)
        weights = mha.softmax(scores, axis=softmax_axis)
        if mask is not None and mask_mode == "after":
            weights = weights * mask
        concat = merge(weights @ v_heads)  # (..., n_q, h*d_v)
        if not output_projection:
            return concat, weights
        return project(concat, "w_o", "b_o"), weights

    return attention


def _raw_scores(args: tuple) -> np.ndarray:
    """q_i k_i^T of every head, unscaled: (..., h, n_q, n_k)."""
    q, k, _, params = args[:4]

    def heads(x, w, b):
        return mha.split_heads(x @ w if b is None else x @ w + b, params.num_heads)

    return heads(q, params.w_q, params.b_q) @ swap_last(heads(k, params.w_k, params.b_k))


def _mha_scale(divisor: Callable[[mha.MHAParams], float]):
    return scaled_by(lambda a: divisor(a[3]), lambda a: math.sqrt(a[3].d_k), _raw_scores, mask_at=4)


def _with_params(change: Callable[[mha.MHAParams], mha.MHAParams]) -> Callable:
    """The reference on changed parameters (a mistake made on the weights, however written)."""

    def attention(q, k, v, params, mask=None):
        return mha.multi_head_attention(q, k, v, change(params), mask)

    return attention


def _transposed(name: str) -> Callable:
    return _with_params(lambda p: dataclasses.replace(p, **{name: getattr(p, name).T}))


def _without(bias: str) -> Callable:
    return _with_params(lambda p: dataclasses.replace(p, **{bias: None}))


def _biases_before_projection(q, k, v, params, mask=None):
    """(x + b) @ W: the input biases added to the inputs before their projections."""

    def heads(x, w, b):
        return mha.split_heads(x @ w if b is None else (x + b) @ w, params.num_heads)

    q_heads, k_heads, v_heads = (
        heads(x, w, b)
        for x, w, b in ((q, params.w_q, params.b_q), (k, params.w_k, params.b_k), (v, params.w_v, params.b_v))
    )  # fmt: skip
    out, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    out = mha.merge_heads(out) @ params.w_o
    return (out if params.b_o is None else out + params.b_o), weights


_ONE_TRANSPOSED = {name: _transposed(name) for name in ("w_q", "w_k", "w_v", "w_o")}
_ONE_BIAS_DROPPED = {name: _without(name) for name in ("b_q", "b_k", "b_v", "b_o")}


def _split_wrong_for(which: str) -> Callable:
    """The layer with only ``which`` (queries, keys or values) split by a bare reshape."""

    def attention(q, k, v, params, mask=None):
        def project(x, w, b):
            return x @ w if b is None else x @ w + b

        h = params.num_heads
        split = {name: split_no_transpose if name == which else mha.split_heads for name in "qkv"}
        q_heads = split["q"](project(q, params.w_q, params.b_q), h)
        k_heads = split["k"](project(k, params.w_k, params.b_k), h)
        v_heads = split["v"](project(v, params.w_v, params.b_v), h)
        heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
        return project(mha.merge_heads(heads), params.w_o, params.b_o), weights

    return attention


_ONE_SPLIT_WRONG = {
    f"the {name}": _split_wrong_for(name[0]) for name in ("queries", "keys", "values")
}

_MHA_MISTAKES = (
    Mistake(
        "no_output_projection",
        "Concat(heads) returned without the output projection W^O",
        "multiply the concatenated heads by params.w_o (and add params.b_o if it is not None)",
        _mha_variant(output_projection=False),
    ),
    Mistake(
        "w_k_for_values",
        "the values projected with W^K instead of W^V",
        "V_i = V W_i^V: use params.w_v (and params.b_v) for the values",
        _mha_variant(value_weight="w_k"),
    ),
    Mistake(
        "reshape_without_transpose",
        "heads split (and merged) by a reshape without a transpose, which mixes tokens",
        "split with reshape to (..., n, h, d) and a swap of the n and h axes (mha.split_heads)",
        _mha_variant(split=split_no_transpose, merge=merge_no_transpose),
    ),
    Mistake(
        "split_without_transpose",
        "heads split by a reshape without a transpose (the merge is right), which mixes tokens",
        "split: reshape to (..., n, h, d), then swap the n and h axes",
        _mha_variant(split=split_no_transpose),
        equals_one_of(
            _ONE_SPLIT_WRONG, "your result is the layer with {name} split by a bare reshape"
        ),
    ),
    Mistake(
        "merge_without_transpose",
        "heads merged by a reshape without a transpose (the split is right), which mixes tokens",
        "merge: swap the h and n axes back first, then reshape to (..., n_q, h*d_v)",
        _mha_variant(merge=merge_no_transpose),
    ),
    Mistake(
        "heads_interleaved",
        "heads in the wrong order: feature j went to head j % h instead of head j // d",
        "head i owns the contiguous columns i*d_k:(i+1)*d_k of each projection",
        _mha_variant(split=split_interleaved, merge=merge_interleaved),
    ),
    Mistake(
        "no_scaling",
        "scores not divided by sqrt(d_k)",
        "divide each head's scores by math.sqrt(d_k), with d_k = d_model / h",
        _mha_variant(divisor=lambda p: 1.0),
        _mha_scale(lambda p: 1.0),
    ),
    Mistake(
        "scale_by_d_model",
        "scores divided by sqrt(d_model) instead of sqrt(d_k)",
        "each head works in d_k = d_model / h dimensions: divide by math.sqrt(d_k)",
        _mha_variant(divisor=lambda p: math.sqrt(p.d_model)),
        _mha_scale(lambda p: math.sqrt(p.d_model)),
    ),
    Mistake(
        "scale_by_d_k",
        "scores divided by d_k instead of sqrt(d_k)",
        "divide by math.sqrt(d_k), the standard deviation of a d_k-term dot product",
        _mha_variant(divisor=lambda p: p.d_k),
        _mha_scale(lambda p: p.d_k),
    ),
    Mistake(
        "softmax_wrong_axis",
        "the softmax over the queries axis (-2) instead of the keys axis (-1)",
        "each query's weights over the keys must sum to 1: softmax over axis -1",
        _mha_variant(softmax_axis=-2),
        normalised_over_another_axis(mask_at=4),
    ),
    Mistake(
        "biases_ignored",
        "the biases b_q, b_k, b_v, b_o ignored",
        "when params.b_q (etc.) is not None, add it after the matching product",
        _mha_variant(biases=()),
    ),
    Mistake(
        "bias_before_projection",
        "the input biases added before the projections, (x + b) W, instead of after",
        "a projection is x W + b: multiply first, then add the bias (it has h*d_k entries, one "
        "per output feature, not one per input feature)",
        _biases_before_projection,
    ),
    Mistake(
        "output_bias_ignored",
        "the output bias b_o ignored (the other three are added)",
        "add params.b_o after the product with W^O when it is not None",
        _mha_variant(biases=("b_q", "b_k", "b_v")),
    ),
    Mistake(
        "w_o_transposed",
        "W^O used transposed (concat @ w_o.T), as nn.Linear stores it",
        "this book's weights are in the paper's layout: concat @ params.w_o",
        _mha_variant(transposed=("w_o",)),
        relations=("input:params.w_o.T",),
    ),
    Mistake(
        "weights_transposed",
        "every weight used transposed (x @ w.T), as nn.Linear stores it",
        "this book's weights are in the paper's layout, x @ W: no .T",
        _mha_variant(transposed=("w_q", "w_k", "w_v", "w_o")),
    ),
    Mistake(
        "projection_transposed",
        "one projection used transposed (x @ w.T), as nn.Linear stores it",
        "this book's weights are in the paper's layout, x @ W: no .T",
        detect=equals_one_of(_ONE_TRANSPOSED, "your result is the layer with {name} transposed"),
        relations=("input:params.w_?.T",),
    ),
    Mistake(
        "bias_dropped",
        "one of the biases left out",
        "add each bias after its product when it is not None: b_q, b_k, b_v and b_o",
        detect=equals_one_of(_ONE_BIAS_DROPPED, "your result is the layer without {name}"),
        relations=("input:params.b_?=None",),
    ),
    Mistake(
        "bias_none_not_handled",
        "a bias added even when it is None",
        "params.b_q (etc.) may be None: add it only when it is not, "
        "e.g. x @ w if b is None else x @ w + b",
        detect=raised_when(
            lambda args: any(
                b is None for b in (args[3].b_q, args[3].b_k, args[3].b_v, args[3].b_o)
            ),
            "TypeError",
            "NoneType",
            "your function raised TypeError on every layer with a bias missing, and only there",
        ),
    ),
    Mistake(
        "mask_after_softmax",
        "the mask applied after the softmax (rows no longer sum to 1)",
        "mask the scores before the softmax: np.where(mask, scores, -np.inf)",
        _mha_variant(mask_mode="after"),
        zeroed_after_softmax(mask_at=4),
    ),
    Mistake(
        "mask_ignored",
        "the mask argument ignored",
        "pass the mask on to the attention of every head (it broadcasts over the heads axis)",
        _mha_variant(mask_mode="ignored"),
    ),
    Mistake(
        "mask_leak",
        "a mask that does not stop hidden keys: their values still reach the output",
        "a hidden key must get weight exactly 0: give its score -inf before the softmax",
        detect=leaks_through_mask("out"),
    ),
)


# --- ch04: each head's contribution -------------------------------------------------------


def _contributions_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for batch, h, n, d_v, d_model, dtype in [
        ((), 2, 3, 2, 4, F64),
        ((2,), 3, 4, 2, 6, F64),
        ((2,), 4, 2, 3, 5, F32),
        ((2, 2), 3, 3, 4, 8, F64),  # h differs from the batch sizes
        ((), 3, 2, 2, 5, F64),
    ]:
        n = n + int(rng.integers(0, 3))
        heads = normal(rng, (*batch, h, n, d_v), dtype)
        w_o = normal(rng, (h * d_v, d_model), dtype)
        cases.append(Case(f"heads of shape {heads.shape}, w_o of shape {w_o.shape}", (heads, w_o)))
    return cases  # fmt: skip


def _reference_head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    w_o_per_head = w_o.reshape(h, d_v, w_o.shape[-1])  # (h, d_v, d_model): head i's rows
    return heads @ w_o_per_head  # (..., h, n_q, d_model)


def _contributions_variant(rows: Callable[[np.ndarray, int, int], np.ndarray]):
    def head_contributions(heads, w_o):
        h = heads.shape[-3]
        return np.stack([heads[..., i, :, :] @ rows(w_o, i, h) for i in range(h)], axis=-3)

    return head_contributions


_CONTRIBUTIONS_MISTAKES = (
    Mistake(
        "interleaved_rows",
        "every h-th row of W^O (w_o[i::h]) instead of head i's block of d_v rows",
        "head i's features sit at positions i*d_v:(i+1)*d_v of the concatenation: rows "
        "i*d_v:(i+1)*d_v of W^O",
        _contributions_variant(lambda w, i, h: w[i::h]),
    ),
    Mistake(
        "heads_reversed",
        "head i paired with the rows of head h-1-i",
        "head 0 meets rows 0:d_v of W^O, head 1 the next d_v rows, ...",
        _contributions_variant(
            lambda w, i, h: w[(h - 1 - i) * (w.shape[0] // h) :][: w.shape[0] // h]
        ),
    ),
    Mistake(
        "w_o_transposed",
        "row blocks of W^O's transpose",
        "W^O is (h*d_v, d_model): head i's block is w_o[i*d_v:(i+1)*d_v], no transpose",
        _contributions_variant(lambda w, i, h: w.T[i * (w.shape[0] // h) :][: w.shape[0] // h]),
    ),
    Mistake(
        "output_split",
        "the layer's output Concat(heads) W^O cut into h slices of features instead of one "
        "term per head",
        "head i's term is head_i @ W^O_i, with W^O_i the rows i*d_v:(i+1)*d_v of W^O: each term "
        "has all d_model features",
        lambda heads, w_o: mha.split_heads(mha.merge_heads(heads) @ w_o, heads.shape[-3]),
    ),
    Mistake(
        "summed",
        "the contributions added up (the layer's output) instead of kept per head",
        "keep one (n_q, d_model) block per head: shape (..., h, n_q, d_model); their sum is "
        "Concat(heads) W^O",
        lambda heads, w_o: _reference_head_contributions(heads, w_o).sum(axis=-3),
        equals_one_of(
            {
                "repeated": lambda heads, w_o: np.repeat(
                    _reference_head_contributions(heads, w_o).sum(axis=-3, keepdims=True),
                    heads.shape[-3],
                    axis=-3,
                ),
                "averaged": lambda heads, w_o: np.repeat(
                    _reference_head_contributions(heads, w_o).mean(axis=-3, keepdims=True),
                    heads.shape[-3],
                    axis=-3,
                ),
            },
            "every head's block of your result is the contributions' {name} sum",
        ),
    ),
    Mistake(
        "first_block_for_every_head",
        "W^O's first block of rows (head 0's) for every head",
        "head i meets its own rows of W^O, i*d_v:(i+1)*d_v; a loop that slices w_o[0:d_v] (or "
        "forgets the loop index) gives every head head 0's block",
        _contributions_variant(lambda w, i, h: w[: w.shape[0] // h]),
    ),
)


# --- ch04: what each head writes, W_i^V W_i^O ---------------------------------------------


def _ov_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for d_model, h, d_k, d_v, dtype in [
        (8, 2, 4, 4, F64), (12, 3, 4, 4, F32), (6, 3, 2, 5, F64), (10, 2, 3, 2, F64), (4, 1, 4, 4, F64),
    ]:  # fmt: skip
        w_q, w_k = (normal(rng, (d_model, h * d_k), dtype) for _ in range(2))
        w_v = normal(rng, (d_model, h * d_v), dtype)
        w_o = normal(rng, (h * d_v, d_model), dtype)
        params = mha.MHAParams(w_q, w_k, w_v, w_o, h)
        cases.append(
            Case(f"d_model={d_model}, h={h}, d_k={d_k}, d_v={d_v}, {np.dtype(dtype)}", (params,))
        )
    return cases


def _ov_variant(*, columns=lambda p, i: slice(i * p.d_v, (i + 1) * p.d_v), pair=lambda i, h: i,
                transposed: bool = False, rows=None, product=None):  # fmt: skip
    """W_i^V W_i^O with one thing changed; the defaults give the right answer. ``rows``:
    W^O's rows of head i where they differ from W^V's ``columns``; ``product(w_v_block,
    w_o, rows)``: another product of the two."""

    def ov_matrices(params):
        h = params.num_heads
        blocks = []
        for i in range(h):
            j = pair(i, h)
            w_v_block = params.w_v[:, columns(params, i)]
            o_rows = (rows or columns)(params, j)
            m = (
                w_v_block @ params.w_o[o_rows]
                if product is None
                else product(w_v_block, params.w_o, o_rows)
            )
            blocks.append(m.T if transposed else m)
        return np.stack(blocks)  # (h, d_model, d_model)

    return ov_matrices


def _reference_ov_matrices(params):
    h, d_v, d_model = params.num_heads, params.d_v, params.d_model
    w_v = params.w_v.reshape(d_model, h, d_v).swapaxes(0, 1)  # (h, d_model, d_v)
    return w_v @ params.w_o.reshape(h, d_v, d_model)  # (h, d_model, d_model)


def _ov_with_w_q(params):
    """W^Q's blocks of d_v columns where W^V's belong."""
    d_v = params.d_v
    blocks = [params.w_q[:, i * d_v : (i + 1) * d_v] for i in range(params.num_heads)]
    return np.stack([b @ params.w_o[i * d_v : (i + 1) * d_v] for i, b in enumerate(blocks)])


_OV_MISTAKES = (
    Mistake(
        "not_per_head",
        "the whole W^V W^O, the same for every head",
        "head i uses only its own d_v columns of W^V and its own d_v rows of W^O",
        lambda params: np.stack([params.w_v @ params.w_o] * params.num_heads),
    ),
    Mistake(
        "interleaved",
        "every h-th column of W^V and row of W^O instead of head i's block",
        "head i owns columns i*d_v:(i+1)*d_v of W^V and the same rows of W^O",
        _ov_variant(columns=lambda p, i: slice(i, None, p.num_heads)),
    ),
    Mistake(
        "transposed",
        "(W_i^V W_i^O) transposed",
        "the head computes head_i W_i^O = A_i X W_i^V W_i^O: W^V's block first, then W^O's",
        _ov_variant(transposed=True),
    ),
    Mistake(
        "heads_reversed",
        "head i's block of W^V paired with the rows of W^O of head h-1-i",
        "head i's columns of W^V and rows of W^O sit at the same offset, i*d_v",
        _ov_variant(pair=lambda i, h: h - 1 - i),
    ),
    Mistake(
        "w_v_interleaved",
        "every h-th column of W^V for head i, but W^O's rows in blocks",
        "head i's values are W^V's contiguous columns i*d_v:(i+1)*d_v, like its rows of W^O",
        _ov_variant(
            columns=lambda p, i: slice(i, None, p.num_heads),
            rows=lambda p, i: slice(i * p.d_v, (i + 1) * p.d_v),
        ),
    ),
    Mistake(
        "w_o_first",
        "W^O's block times W^V's block (a (d_v, d_v) product) instead of W_i^V W_i^O",
        "the head computes A_i X W_i^V W_i^O: X meets W^V first, so W_i^V (d_model, d_v) comes "
        "first and the product is (d_model, d_model)",
        _ov_variant(product=lambda w_v_block, w_o, rows: w_o[rows] @ w_v_block),
    ),
    Mistake(
        "w_o_columns",
        "W^O's columns (as if it were stored (d_model, h*d_v)) instead of its rows",
        "this book stores W^O as (h*d_v, d_model): head i's part is the block of rows "
        "i*d_v:(i+1)*d_v",
        _ov_variant(product=lambda w_v_block, w_o, rows: w_v_block @ w_o[:, rows].T),
        relations=("input:params.w_o.T",),
    ),
    Mistake(
        "w_v_reshaped_without_moving_axes",
        "W^V reshaped straight to (h, d_model, d_v), which cuts its rows into heads instead of "
        "its columns",
        "head i owns W^V's columns i*d_v:(i+1)*d_v: reshape to (d_model, h, d_v), then move the "
        "heads axis to the front (np.swapaxes(..., 0, 1)); a reshape alone keeps the numbers' order",
        lambda params: (
            params.w_v.reshape(params.num_heads, params.d_model, params.d_v)
            @ params.w_o.reshape(params.num_heads, params.d_v, params.d_model)
        ),
    ),
    Mistake(
        "qk_circuit",
        "W_i^Q (W_i^K)^T, where head i reads (the query-key circuit), instead of W_i^V W_i^O, "
        "what it writes",
        "what a head writes comes from the values: W_i^V (W^V's columns i*d_v:(i+1)*d_v) times "
        "W_i^O (W^O's rows i*d_v:(i+1)*d_v)",
        lambda params: np.stack(
            [
                params.w_q[:, i * params.d_k : (i + 1) * params.d_k]
                @ params.w_k[:, i * params.d_k : (i + 1) * params.d_k].T
                for i in range(params.num_heads)
            ]
        ),
    ),
    Mistake(
        "w_q_for_w_v",
        "W^Q's columns where W^V's belong (the query-key circuit for the output-value one)",
        "what a head writes comes from the values: W_i^V W_i^O; W^Q and W^K only decide where it "
        "looks",
        _ov_with_w_q,
        relations=("input:params.w_v=w_q",),
    ),
    Mistake(
        "d_k_blocks",
        "blocks of d_k instead of d_v (they differ here)",
        "the values, and so W^V's columns and W^O's rows, come in blocks of d_v = params.d_v",
        _ov_variant(columns=lambda p, i: slice(i * p.d_k, (i + 1) * p.d_k)),
    ),
)


# --- ch04: the rank of what one head writes (a prediction) --------------------------------


def head_write_rank() -> int:
    """The section's experiment: the rank of what head 0 of the chapter's layer adds to the
    output of 64 random queries, a (64, d_model) array."""
    params = mha.init_params(32, 4, seed=1)
    x = np.random.default_rng(0).standard_normal((64, 32))
    heads, _ = mha.scaled_dot_product_attention(
        *(mha.split_heads(x @ w, 4) for w in (params.w_q, params.w_k, params.w_v))
    )  # (h, 64, d_v)
    return int(np.linalg.matrix_rank(heads[0] @ params.w_o[: params.d_v]))


def _why_rank(rank: int) -> str:
    return (
        f"What head i adds is head_i W_i^O, a (64, {rank}) array times a ({rank}, 32) one: "
        f"everything the head writes passes through its d_v = {rank} values, so it lies in a "
        f"subspace of {rank} dimensions of the 32-wide output, whatever the queries. The 4 "
        "heads' subspaces together span all 32; W^O places each head's."
    )


# --- ch04: find the bugs in a layer -------------------------------------------------------

_LAYER_BUGS = {
    "padding_on_queries": "the padding mask built over the queries (their count and their axis), "
    "not over the keys",
    "merge_without_transpose": "the heads merged by a reshape without the transpose",
    "w_o_transposed": "W^O used transposed (concat @ w_o.T)",
}


def _layer_variant(
    bugs: frozenset[str] = frozenset(), *, merge: Callable | None = None, padding: str = "keys"
):
    """Cross-attention whose keys are padded: ``lengths[b]`` real keys in sequence ``b``; the
    ``bugs`` of the code as given, another ``merge``, or the padding bug half fixed
    (``padding``: "counted_from_queries", n_q positions on the keys axis, or "queries_axis",
    n_k positions on the queries axis)."""
    if merge is None:
        merge = merge_no_transpose if "merge_without_transpose" in bugs else mha.merge_heads
    attention = _mha_variant(
        merge=merge,
        transposed=("w_o",) if "w_o_transposed" in bugs else (),
    )

    def attention_layer(q, k, v, params, lengths=None):
        if lengths is None:
            return attention(q, k, v, params)
        counted = q if "padding_on_queries" in bugs or padding == "counted_from_queries" else k
        real = np.arange(counted.shape[-2]) < np.asarray(lengths)[:, None]  # (B, n)
        if "padding_on_queries" in bugs or padding == "queries_axis":
            return attention(q, k, v, params, real[:, None, :, None])
        return attention(q, k, v, params, real[:, None, None, :])

    return attention_layer


def _layer_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for batch, n_q, n_k, d_model, h, dtype, padded in [
        (2, 4, 6, 8, 2, F64, True), (3, 5, 3, 12, 3, F64, True),
        (2, 3, 7, 8, 4, F32, True), (2, 3, 3, 6, 2, F64, False),
    ]:  # fmt: skip
        n_q, n_k = n_q + int(rng.integers(0, 2)), n_k + int(rng.integers(0, 2))
        q = normal(rng, (batch, n_q, d_model), dtype)
        kv = normal(rng, (batch, n_k, d_model), dtype)
        params = _random_params(rng, d_model, h, dtype, bias=True)
        text = f"q {q.shape}, k = v {kv.shape}, h={h}"
        if not padded:
            cases.append(Case(text + ", no padding", (q, kv, kv, params)))
            continue
        lengths = rng.integers(1, n_k + 1, size=batch)
        lengths[0] = max(1, min(n_q, n_k) - 1)  # fewer real keys than queries
        listed = [int(n) for n in lengths]
        cases.append(Case(text + f", lengths {listed}", (q, kv, kv, params, listed)))
    n = 5  # as many queries as keys: a padding mask on the wrong axis broadcasts here
    q, kv = normal(rng, (2, n, 8), F64), normal(rng, (2, n, 8), F64)
    params = _random_params(rng, 8, 2, F64, bias=True)
    cases.append(Case(f"q {q.shape}, k = v {kv.shape} (n_q = n_k), h=2, lengths [2, 4]",
                      (q, kv, kv, params, [2, 4])))  # fmt: skip
    return cases


def _merge_last_two_swapped(x):
    return np.swapaxes(x, -1, -2).reshape(*x.shape[:-3], x.shape[-2], -1)


_reference_attention_layer = _layer_variant()
_LAYER_MISTAKES = (
    *bug_mistakes(_LAYER_BUGS, _layer_variant),
    Mistake(
        "lengths_ignored",
        "the lengths ignored: the pads are attended like real keys",
        "build the padding mask from lengths over the keys, (B, 1, 1, n_k), and pass it on",
        lambda q, k, v, params, lengths=None: _reference_attention_layer(q, k, v, params),
    ),
    Mistake(
        "padding_counted_from_queries",
        "the padding bug half fixed: the mask is on the keys axis but still n_q long",
        "the pads are keys: build the mask from k's length, np.arange(k.shape[-2]) < lengths",
        _layer_variant(padding="counted_from_queries"),
    ),
    Mistake(
        "padding_on_queries_axis",
        "the padding bug half fixed: the mask is n_k long but still on the queries axis",
        "the pads are keys, the last axis of the scores: the mask is real[:, None, None, :], "
        "shape (B, 1, 1, n_k)",
        _layer_variant(padding="queries_axis"),
    ),
    Mistake(
        "merge_wrong_axes",
        "the merge fixed by swapping the last two axes (n, d) instead of the heads and sequence axes",
        "to merge, swap the h and n axes back, np.swapaxes(heads, -3, -2), then reshape to (..., n_q, h*d_v)",
        _layer_variant(merge=_merge_last_two_swapped),
    ),
)


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "multi_head_attention": FunctionExercise(
        mha.multi_head_attention, _mha_cases, _MHA_MISTAKES, ("out", "weights"), other_references=MHA_REFERENCES,
        axes={"out": ("queries", "features"), "weights": ("heads", "queries", "keys")},
    ),
    "head_contributions": FunctionExercise(
        _reference_head_contributions, _contributions_cases, _CONTRIBUTIONS_MISTAKES,
        other_references=("mha.analysis.head_contributions",),
        quantities=lambda args: {"h": args[0].shape[-3], "n_q": args[0].shape[-2],
                                 "d_v": args[0].shape[-1], "d_model": args[1].shape[-1]},
        axes={"result": ("heads", "queries", "features")},
    ),
    "ov_matrices": FunctionExercise(
        _reference_ov_matrices, _ov_cases, _OV_MISTAKES,
    ),
    "predict_head_write_rank": PredictionExercise(
        "the rank of what head 0 adds to the output of 64 queries, a (64, 32) array",
        Whole(0, 32), head_write_rank, _why_rank,
        (
            Misconception("full_rank", 32, "A (64, 32) array can have rank 32, but not this one: it passes through d_v = 8 numbers."),
            Misconception("heads", 4, "4 is the number of heads; each head alone writes a subspace of d_v dimensions."),
            Misconception("one_direction", 1, "A head writes a whole subspace, not one direction: its d_v values each have a row of W^O."),
        ),
    ),
    "attention_layer": FunctionExercise(
        _reference_attention_layer, _layer_cases, _LAYER_MISTAKES, ("out", "weights"),
        other_references=MHA_REFERENCES,
        given=_layer_variant(frozenset(_LAYER_BUGS)),
    ),
    "mha_parameter_count": NumberExercise(
        4 * 512 * 512 + 4 * 512,
        (
            WrongValue(4 * 512 * 512, "no_biases", "the question counts all four biases too", same_as=("term:biases:missing",)),
            WrongValue(3 * 512 * 512 + 3 * 512, "no_w_o", "W^O (and b_o) are parameters too"),
            WrongValue(4 * 512 * 512 + 512, "one_bias", "each of the four projections has its own bias", same_as=("term:biases:without:projections",)),
        ),
        terms=(
            Term("weights", "the four weight matrices", 1, ("projections", "d_model", "h*d_k")),
            Term("biases", "the four biases", 1, ("projections", "bias_size")),
        ),
        values=(("projections", 4), ("d_model", 512), ("h*d_k", 512), ("bias_size", 512), ("h", 8)),
        alternatives=(Alternative("bias_size", "d_k", 64, "biases of one head's width (d_k = 64)"),),
    ),
}  # fmt: skip
