"""Chapter 4's exercises: multi-head attention with its output projection, its parameter count."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

import mha
from mha.checks.ch03_heads import (
    _merge_interleaved,
    _merge_no_transpose,
    _split_interleaved,
    _split_no_transpose,
)
from mha.checks.core import F32, F64, Case, _normal, _random_mask, _swap_last
from mha.checks.kinds import Exercise, FunctionExercise, Mistake, NumberExercise, WrongValue

# --- ch04: multi-head attention -----------------------------------------------------------

MHA_REFERENCES = (
    "mha.multi_head_attention", "mha.numpy_mha.multi_head_attention",
    "mha.multi_head_attention_loop", "mha.numpy_mha.multi_head_attention_loop",
    "mha.efficient.grouped_query_attention", "mha.torch_mha.MultiHeadAttention",
    "torch.nn.MultiheadAttention", "torch.nn.functional.multi_head_attention_forward",
)  # fmt: skip


def _random_params(rng, d_model: int, h: int, dtype: Any, bias: bool) -> mha.MHAParams:
    scale = 1.0 / math.sqrt(d_model)
    weights = [_normal(rng, (d_model, d_model), dtype, scale) for _ in range(4)]
    biases = [_normal(rng, (d_model,), dtype, 0.5) if bias else None for _ in range(4)]
    return mha.MHAParams(*weights, h, *biases)


def _mha_cases(rng: np.random.Generator) -> list[Case]:
    def case(text, batch, n_q, n_k, d_model, h, dtype, bias=False, mask=None):
        q = _normal(rng, (*batch, n_q, d_model), dtype)
        kv = _normal(rng, (*batch, n_k, d_model), dtype)
        v = _normal(rng, (*batch, n_k, d_model), dtype)
        params = _random_params(rng, d_model, h, dtype, bias)
        args = (q, kv, v, params) if mask is None else (q, kv, v, params, mask)
        return Case(text, args)

    return [
        case("d_model=8, h=2, n_q = n_k = 4, float64", (), 4, 4, 8, 2, F64),
        case(
            "batch (2,), d_model=8, h=2, n = 5, with mha.causal_mask(5)",
            (2,), 5, 5, 8, 2, F64, mask=mha.causal_mask(5),
        ),
        case("batch (2,), d_model=12, h=3, n_q=3, n_k=5, float32", (2,), 3, 5, 12, 3, F32),
        case("batch (2, 2), d_model=6, h=1, with biases", (2, 2), 3, 4, 6, 1, F64, bias=True),
        case("batch (2,), d_model=8, h=4, with biases", (2,), 5, 3, 8, 4, F64, bias=True),
        case(
            "batch (2,), d_model=8, h=2, n_q=4, n_k=6, with a (4, 6) mask",
            (2,), 4, 6, 8, 2, F64, mask=_random_mask(rng, (4, 6)),
        ),
        case(
            "batch (3,), d_model=12, h=3, with a (3, 1, 1, 5) padding-style mask",
            (3,), 2, 5, 12, 3, F32, mask=_random_mask(rng, (3, 1, 1, 5)),
        ),
    ]  # fmt: skip


def _mha_variant(
    *,
    split: Callable = mha.split_heads,
    merge: Callable = mha.merge_heads,
    divisor: Callable[[mha.MHAParams], float] = lambda p: math.sqrt(p.d_k),
    value_weight: str = "w_v",
    output_projection: bool = True,
    biases: bool = True,
    mask_mode: str = "before",
) -> Callable:
    """Multi-head attention with one thing changed; the defaults give the right answer."""

    def attention(q, k, v, params, mask=None):
        def project(x, w, b):
            return x @ w + b if biases and b is not None else x @ w

        h = params.num_heads
        q_heads = split(project(q, params.w_q, params.b_q), h)  # (..., h, n_q, d_k)
        k_heads = split(project(k, params.w_k, params.b_k), h)  # (..., h, n_k, d_k)
        v_heads = split(project(v, getattr(params, value_weight), params.b_v), h)
        scores = q_heads @ _swap_last(k_heads) / divisor(params)  # (..., h, n_q, n_k)
        if mask is not None and mask_mode == "before":
            scores = np.where(mask, scores, -np.inf)
        weights = mha.softmax(scores, axis=-1)
        concat = merge(weights @ v_heads)  # (..., n_q, h*d_v)
        return (project(concat, params.w_o, params.b_o) if output_projection else concat), weights

    return attention


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
        _mha_variant(split=_split_no_transpose, merge=_merge_no_transpose),
    ),
    Mistake(
        "heads_interleaved",
        "heads in the wrong order: feature j went to head j % h instead of head j // d",
        "head i owns the contiguous columns i*d_k:(i+1)*d_k of each projection",
        _mha_variant(split=_split_interleaved, merge=_merge_interleaved),
    ),
    Mistake(
        "no_scaling",
        "scores not divided by sqrt(d_k)",
        "divide each head's scores by math.sqrt(d_k), with d_k = d_model / h",
        _mha_variant(divisor=lambda p: 1.0),
    ),
    Mistake(
        "scale_by_d_model",
        "scores divided by sqrt(d_model) instead of sqrt(d_k)",
        "each head works in d_k = d_model / h dimensions: divide by math.sqrt(d_k)",
        _mha_variant(divisor=lambda p: math.sqrt(p.d_model)),
    ),
    Mistake(
        "scale_by_d_k",
        "scores divided by d_k instead of sqrt(d_k)",
        "divide by math.sqrt(d_k), the standard deviation of a d_k-term dot product",
        _mha_variant(divisor=lambda p: p.d_k),
    ),
    Mistake(
        "biases_ignored",
        "the biases b_q, b_k, b_v, b_o ignored",
        "when params.b_q (etc.) is not None, add it after the matching product",
        _mha_variant(biases=False),
    ),
    Mistake(
        "mask_ignored",
        "the mask argument ignored",
        "pass the mask on to the attention of every head (it broadcasts over the heads axis)",
        _mha_variant(mask_mode="ignored"),
    ),
)


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "multi_head_attention": FunctionExercise(
        4, mha.multi_head_attention, _mha_cases, _MHA_MISTAKES, ("out", "weights"),
        references=MHA_REFERENCES,
    ),
    "mha_parameter_count": NumberExercise(
        4,
        4 * 512 * 512 + 4 * 512,
        (
            WrongValue(4 * 512 * 512, "no_biases", "the question counts all four biases too"),
            WrongValue(3 * 512 * 512 + 3 * 512, "no_w_o", "W^O (and b_o) are parameters too"),
            WrongValue(4 * 512 * 512 + 512, "one_bias", "each of the four projections has its own bias"),
        ),
    ),
}  # fmt: skip
