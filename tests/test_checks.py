"""mha.checks: solutions pass, known mistakes are named, other correct styles pass, and the
check survives whatever the answer does."""

from __future__ import annotations

import importlib.util
import math
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import mha
from mha.checks import (
    _CHAPTERS,
    EXERCISES,
    FAILED,
    NOT_ATTEMPTED,
    PASSED,
    FunctionExercise,
    _merged,
    check,
)

SOLUTIONS = Path(__file__).resolve().parent.parent / "chapters" / "solutions"
SEEDS = [0, 12345]


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"solutions_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SOLUTION_MODULES = {path.stem: _load(path) for path in sorted(SOLUTIONS.glob("[0-9][0-9]_*.py"))}


def _solution(name: str):
    for module in SOLUTION_MODULES.values():
        if hasattr(module, name):
            return getattr(module, name)
    raise LookupError(f"no solution defines {name}")


# --- solutions -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", list(EXERCISES))
def test_every_solution_passes_its_check(name, seed):
    result = check(name, _solution(name), seed=seed)
    assert result.status == PASSED, str(result)
    assert result.passed and result.diagnosis is None


def test_solution_files_are_one_per_chapter_and_named_by_chapter():
    chapters = {int(stem[:2]) for stem in SOLUTION_MODULES}
    assert chapters == {exercise.chapter for exercise in EXERCISES.values()}
    for name, exercise in EXERCISES.items():
        module = next(
            m for stem, m in SOLUTION_MODULES.items() if int(stem[:2]) == exercise.chapter
        )
        assert hasattr(module, name), f"{module.__file__} lacks {name}"


def test_value_answers_may_be_given_as_numbers_or_shapes():
    assert check("score_std", 16).passed
    assert check("score_std", 15.8).passed  # an experiment's estimate is close enough
    assert check("mha_parameter_count", np.int64(1050624)).passed
    assert check("split_heads_shape", np.zeros((2, 12, 10, 64)).shape).passed
    assert check("cross_attention_weights_shape", [2, 4, 7, 11]).passed


def test_every_function_exercise_recognises_at_least_three_mistakes():
    for name, exercise in EXERCISES.items():
        if isinstance(exercise, FunctionExercise):
            assert len(exercise.mistakes) >= 3, name


def test_the_registry_is_every_chapter_module_in_chapter_order():
    package = Path(_CHAPTERS[0].__file__).parent
    on_disk = sorted(path.stem for path in package.glob("ch[0-9][0-9]_*.py"))
    assert [module.__name__.rsplit(".", 1)[1] for module in _CHAPTERS] == on_disk
    names = []
    for module in _CHAPTERS:
        chapter = int(module.__name__.rsplit(".", 1)[1][2:4])
        assert {e.chapter for e in module.EXERCISES.values()} == {chapter}, module.__name__
        names += list(module.EXERCISES)
    assert list(EXERCISES) == names


def test_a_name_registered_by_two_chapters_is_an_error():
    first = SimpleNamespace(__name__="mha.checks.ch01_a", EXERCISES={"softmax": 1, "x": 2})
    second = SimpleNamespace(__name__="mha.checks.ch02_b", EXERCISES={"softmax": 3})
    with pytest.raises(ValueError, match=r"'softmax' is registered twice: in .*ch01_a .*ch02_b"):
        _merged([first, second])
    assert _merged([first]) == {"softmax": 1, "x": 2}


# --- student-style wrong answers: each must fail with the named diagnosis -------------------


def _torch_student(
    linear_layout=False, scale=True, mask_means_hidden=False, transpose=True, w_o=True
):
    """A reader's forward pass of mha.torch_mha.MultiHeadAttention, optionally written wrongly."""

    def forward(module, q, k, v, mask=None):
        import torch

        h = module.num_heads
        weight = (lambda w: w.T) if linear_layout else (lambda w: w)

        def heads_of(x, w, b):
            y = x @ weight(w) + (0 if b is None else b)
            if transpose:
                return y.unflatten(-1, (h, -1)).transpose(-3, -2)
            return y.reshape(*y.shape[:-2], h, y.shape[-2], -1)

        qh, kh, vh = (
            heads_of(x, w, b)
            for x, w, b in (
                (q, module.w_q, module.b_q),
                (k, module.w_k, module.b_k),
                (v, module.w_v, module.b_v),
            )
        )
        scores = torch.einsum("...qd,...kd->...qk", qh, kh)
        if scale:
            scores = scores / module.d_k**0.5
        if mask is not None:
            scores = scores.masked_fill(mask if mask_means_hidden else ~mask, float("-inf"))
        weights = scores.softmax(-1)
        out = weights @ vh
        out = (
            out.transpose(-3, -2).flatten(-2)
            if transpose
            else out.reshape(*out.shape[:-3], out.shape[-2], -1)
        )
        if w_o:
            out = out @ weight(module.w_o) + (0 if module.b_o is None else module.b_o)
        return out, weights

    return forward


def _stable_softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def softmax_unstable(x, axis=-1):
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def softmax_axis_zero(x, axis=-1):
    e = np.exp(x - x.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)


def softmax_last_axis_always(x, axis=-1):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def softmax_whole_array(x, axis=-1):
    e = np.exp(x - x.max())
    return e / e.sum()


def softmax_no_keepdims(x, axis=-1):
    e = np.exp(x - x.max(axis))
    return e / e.sum(axis)


def _attention(normalise=_stable_softmax, scale=None, mask_rule=None):
    """A student's attention where the three steps can each be written wrongly."""

    def attention(q, k, v, mask=None):
        d = q.shape[-1]
        scores = q @ k.swapaxes(-1, -2) / (math.sqrt(d) if scale is None else scale(q, v))
        if mask is not None and mask_rule is None:
            scores = np.where(mask, scores, -np.inf)
        elif mask is not None and mask_rule != "after":
            scores = mask_rule(scores, mask)
        weights = normalise(scores)
        if mask is not None and mask_rule == "after":
            weights = np.where(mask, weights, 0.0)
        return weights @ v, weights

    return attention


def _mha_student(
    split=mha.split_heads,
    merge=mha.merge_heads,
    scale=None,
    value_weight="w_v",
    output=True,
    bias=True,
    use_mask=True,
):
    def multi_head_attention(q, k, v, params, mask=None):
        h = params.num_heads

        def lin(x, w, b):
            return x @ w + b if (bias and b is not None) else x @ w

        qh = split(lin(q, params.w_q, params.b_q), h)
        kh = split(lin(k, params.w_k, params.b_k), h)
        vh = split(lin(v, getattr(params, value_weight), params.b_v), h)
        d_k = qh.shape[-1]
        divisor = math.sqrt(d_k) if scale is None else scale(q, d_k)
        scores = np.einsum("...qd,...kd->...qk", qh, kh) / divisor
        if mask is not None and use_mask:
            scores = np.where(mask, scores, -1e30)
        weights = _stable_softmax(scores)
        concat = merge(weights @ vh)
        if not output:
            return concat, weights
        return lin(concat, params.w_o, params.b_o), weights

    return multi_head_attention


def split_reshape_only(x, num_heads):
    *batch, n, f = x.shape
    return x.reshape(*batch, num_heads, n, f // num_heads)


def split_no_swap(x, num_heads):
    *batch, n, f = x.shape
    return x.reshape(*batch, n, num_heads, f // num_heads)


def split_every_hth_feature(x, num_heads):
    return np.stack([x[..., i::num_heads] for i in range(num_heads)], axis=-3)


def merge_reshape_only(x):
    *batch, h, n, d = x.shape
    return x.reshape(*batch, n, h * d)


def merge_interleaved(x):
    *batch, h, n, d = x.shape
    return np.stack([x[..., i, :, :] for i in range(h)], axis=-1).reshape(*batch, n, h * d)


def merge_on_sequence(x):
    return np.concatenate([x[..., i, :, :] for i in range(x.shape[-3])], axis=-2)


def merge_summed(x):
    return x.sum(axis=-3)


def _ones(n_q, n_k):
    return np.ones((n_q, n_k), dtype=bool)


def padding_drops_last(lengths, n_k):
    mask = np.zeros((len(lengths), 1, 1, n_k), dtype=bool)
    for b, length in enumerate(lengths):
        mask[b, 0, 0, : max(length - 1, 0)] = True
    return mask


def similarity_gram(per_head):
    vectors = np.moveaxis(per_head, -3, 0).reshape(per_head.shape[-3], -1)
    return vectors @ vectors.T


def similarity_plain_reshape(per_head):
    vectors = per_head.reshape(per_head.shape[-3], -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    return unit @ unit.T


def similarity_unguarded(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    norms = np.sqrt((vectors**2).sum(axis=1))
    with np.errstate(divide="ignore", invalid="ignore"):
        return (vectors @ vectors.T) / np.outer(norms, norms)


def similarity_loop(per_head):
    heads = [np.moveaxis(per_head, -3, 0)[i].ravel() for i in range(per_head.shape[-3])]
    units = [a / max(np.linalg.norm(a), 1e-12) for a in heads]
    return np.array([[a @ b for b in units] for a in units])


def _pruned(params, **changes):
    """A copy of params with some arrays replaced by versions with a block of zeros."""
    arrays = {
        n: getattr(params, n) for n in ("w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o")
    }
    return mha.MHAParams(num_heads=params.num_heads, **(arrays | changes))


def _zero(a, index):
    a = a.copy()
    a[index] = 0.0
    return a


def without_head_queries(x, params, head):
    qk = slice(head * params.d_k, (head + 1) * params.d_k)
    changes = {"w_q": _zero(params.w_q, (slice(None), qk))}
    if params.b_q is not None:
        changes["b_q"] = _zero(params.b_q, qk)
    return mha.multi_head_attention(x, x, x, _pruned(params, **changes))[0]


def without_head_w_o_columns(x, params, head):
    cols = (slice(None), slice(head * params.d_v, (head + 1) * params.d_v))
    return mha.multi_head_attention(x, x, x, _pruned(params, w_o=_zero(params.w_o, cols)))[0]


def without_head_values(x, params, head, *, bias_too=False):
    cols = slice(head * params.d_v, (head + 1) * params.d_v)
    changes = {"w_v": _zero(params.w_v, (slice(None), cols))}
    if bias_too and params.b_v is not None:
        changes["b_v"] = _zero(params.b_v, cols)
    return mha.multi_head_attention(x, x, x, _pruned(params, **changes))[0]


def without_head_d_k_rows(x, params, head):
    rows = slice(head * params.d_k, (head + 1) * params.d_k)
    return mha.multi_head_attention(x, x, x, _pruned(params, w_o=_zero(params.w_o, rows)))[0]


def without_head_by_loop(x, params, head):
    """Sum of the other heads' contributions head_i W^O_i, plus b_o."""
    out, _ = mha.multi_head_attention(x, x, x, _pruned(params, b_o=None))
    rows = slice(head * params.d_v, (head + 1) * params.d_v)
    only_head = _pruned(params, w_o=params.w_o - _zero(params.w_o, rows), b_o=None)
    out = out - mha.multi_head_attention(x, x, x, only_head)[0]
    return out if params.b_o is None else out + params.b_o


WRONG_ANSWERS = [
    ("softmax", "unstable_softmax", softmax_unstable),
    ("softmax", "wrong_axis", softmax_axis_zero),
    ("softmax", "ignores_axis", softmax_last_axis_always),
    ("softmax", "whole_array", softmax_whole_array),
    ("softmax", "missing_keepdims", softmax_no_keepdims),
    ("scaled_dot_product_attention", "no_scaling", _attention(scale=lambda q, v: 1)),
    ("scaled_dot_product_attention", "scale_by_d_k", _attention(scale=lambda q, v: q.shape[-1])),
    # np.sqrt gives a float64 scalar: the dtype is wrong too, and the diagnosis still holds
    (
        "scaled_dot_product_attention",
        "scale_by_d_v",
        _attention(scale=lambda q, v: np.sqrt(v.shape[-1])),
    ),
    (
        "scaled_dot_product_attention",
        "softmax_wrong_axis",
        _attention(normalise=lambda s: _stable_softmax(s, axis=-2)),
    ),
    (
        "scaled_dot_product_attention",
        "softmax_whole_matrix",
        _attention(
            normalise=lambda s: np.exp(s - s.max(axis=(-2, -1), keepdims=True))
            / np.exp(s - s.max(axis=(-2, -1), keepdims=True)).sum(axis=(-2, -1), keepdims=True)
        ),
    ),
    ("scaled_dot_product_attention", "unstable_softmax", _attention(normalise=softmax_unstable)),
    ("scaled_dot_product_attention", "mask_after_softmax", _attention(mask_rule="after")),
    ("scaled_dot_product_attention", "mask_ignored", _attention(mask_rule=lambda s, m: s)),
    (
        "scaled_dot_product_attention",
        "mask_inverted",
        _attention(mask_rule=lambda s, m: np.where(m, -1e9, s)),
    ),
    ("scaled_dot_product_attention", "mask_multiplied", _attention(mask_rule=lambda s, m: s * m)),
    ("head_weight", "rows_not_columns", lambda w, i, h: w[i * (w.shape[1] // h) :][: w.shape[1] // h]),
    ("head_weight", "d_from_rows", lambda w, i, h: w[:, i * (w.shape[0] // h) : (i + 1) * (w.shape[0] // h)]),
    ("head_weight", "interleaved_columns", lambda w, i, h: w[:, i::h]),
    ("head_weight", "one_based", lambda w, i, h: w[:, (i - 1) * (w.shape[1] // h) : i * (w.shape[1] // h)]),
    ("split_heads", "reshape_without_transpose", split_reshape_only),
    ("split_heads", "heads_axis_not_moved", split_no_swap),
    ("split_heads", "heads_interleaved", split_every_hth_feature),
    ("merge_heads", "reshape_without_transpose", merge_reshape_only),
    ("merge_heads", "heads_interleaved", merge_interleaved),
    ("merge_heads", "concat_on_sequence_axis", merge_on_sequence),
    ("merge_heads", "heads_summed", merge_summed),
    ("multi_head_attention", "no_output_projection", _mha_student(output=False)),
    ("multi_head_attention", "w_k_for_values", _mha_student(value_weight="w_k")),
    (
        "multi_head_attention",
        "reshape_without_transpose",
        _mha_student(split=split_reshape_only, merge=merge_reshape_only),
    ),
    (
        "multi_head_attention",
        "heads_interleaved",
        _mha_student(split=split_every_hth_feature, merge=merge_interleaved),
    ),
    ("multi_head_attention", "no_scaling", _mha_student(scale=lambda q, d_k: 1.0)),
    ("multi_head_attention", "scale_by_d_model", _mha_student(scale=lambda q, d_k: math.sqrt(q.shape[-1]))),
    ("multi_head_attention", "scale_by_d_k", _mha_student(scale=lambda q, d_k: d_k)),
    ("multi_head_attention", "biases_ignored", _mha_student(bias=False)),
    ("multi_head_attention", "mask_ignored", _mha_student(use_mask=False)),
    ("module_forward", "linear_layout", _torch_student(linear_layout=True)),
    ("module_forward", "no_scaling", _torch_student(scale=False)),
    ("module_forward", "mask_polarity", _torch_student(mask_means_hidden=True)),
    ("module_forward", "reshape_without_transpose", _torch_student(transpose=False)),
    ("module_forward", "no_output_projection", _torch_student(w_o=False)),
    ("causal_mask", "inverted", lambda n_q, n_k=None: np.triu(_ones(n_q, n_k or n_q), k=(n_k or n_q) - n_q + 1)),
    ("causal_mask", "excludes_diagonal", lambda n_q, n_k=None: np.tril(_ones(n_q, n_k or n_q), k=(n_k or n_q) - n_q - 1)),
    ("causal_mask", "upper_triangular", lambda n_q, n_k=None: np.triu(_ones(n_q, n_k or n_q), k=(n_k or n_q) - n_q)),
    ("causal_mask", "top_left_aligned", lambda n_q, n_k=None: np.tril(_ones(n_q, n_k or n_q))),
    ("causal_mask", "ignores_n_k", lambda n_q, n_k=None: np.tril(_ones(n_q, n_q))),
    ("padding_mask", "inverted", lambda lengths, n_k: (np.arange(n_k) >= np.asarray(lengths)[:, None])[:, None, None]),
    ("padding_mask", "off_by_one_includes_pad", lambda lengths, n_k: (np.arange(n_k) <= np.asarray(lengths)[:, None])[:, None, None]),
    ("padding_mask", "off_by_one_drops_last", padding_drops_last),
    ("padding_mask", "on_queries", lambda lengths, n_k: (np.arange(n_k) < np.asarray(lengths)[:, None])[:, None, :, None]),
    ("padding_mask", "missing_singleton_axes", lambda lengths, n_k: np.arange(n_k) < np.asarray(lengths)[:, None]),
    ("repeat_kv_heads", "tiled", lambda k, num_heads: np.tile(k, (num_heads // k.shape[-3], 1, 1))),
    ("repeat_kv_heads", "sequence_axis", lambda k, num_heads: k.repeat(num_heads // k.shape[-3], axis=-2)),
    ("repeat_kv_heads", "repeated_h_times", lambda k, num_heads: np.concatenate([np.repeat(k[..., [j], :, :], num_heads, axis=-3) for j in range(k.shape[-3])], axis=-3)),
    ("head_similarity", "not_normalised", similarity_gram),
    ("head_similarity", "heads_axis_not_moved", similarity_plain_reshape),
    ("head_similarity", "zero_head_nan", similarity_unguarded),
    ("attention_without_head", "queries_zeroed", without_head_queries),
    ("attention_without_head", "columns_of_w_o", without_head_w_o_columns),
    ("attention_without_head", "value_bias_left", without_head_values),
    ("attention_without_head", "d_k_rows", without_head_d_k_rows),
]  # fmt: skip

WRONG_VALUES = [
    ("score_std", "variance", 256),
    ("score_std", "after_scaling", 1.0),
    ("score_std", "mean", 0),
    ("projection_parameter_count", "one_matrix", 262144),
    ("projection_parameter_count", "one_head", 98304),
    ("projection_parameter_count", "with_w_o", 1048576),
    ("projection_parameter_count", "with_biases", 787968),
    ("split_heads_shape", "heads_after_sequence", (2, 10, 12, 64)),
    ("split_heads_shape", "heads_before_batch", (12, 2, 10, 64)),
    ("split_heads_shape", "d_not_divided", (2, 12, 10, 768)),
    ("mha_parameter_count", "no_biases", 1048576),
    ("mha_parameter_count", "no_w_o", 787968),
    ("mha_parameter_count", "one_bias", 1049088),
    ("cross_attention_weights_shape", "keys_by_queries", (2, 4, 11, 7)),
    ("cross_attention_weights_shape", "no_heads_axis", (2, 7, 11)),
    ("cross_attention_weights_shape", "square", (2, 4, 7, 7)),
    ("attention_weights_bytes", "float32", 17179869184),
    ("attention_weights_bytes", "one_head", 536870912),
    ("attention_weights_bytes", "one_sequence", 2147483648),
    ("attention_weights_bytes", "linear_in_n", 1048576),
    ("gqa_kv_cache_bytes", "keys_only", 2147483648),
    ("gqa_kv_cache_bytes", "query_heads", 17179869184),
    ("gqa_kv_cache_bytes", "one_layer", 134217728),
    ("gqa_kv_cache_bytes", "one_sequence", 536870912),
    ("head_parallel_all_reduce_bytes", "split_output", 33554432),
    ("head_parallel_all_reduce_bytes", "numbers_not_bytes", 67108864),
    ("head_parallel_all_reduce_bytes", "float32", 268435456),
    ("head_parallel_all_reduce_bytes", "all_devices", 536870912),
]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("name", "mistake", "answer"), WRONG_ANSWERS, ids=[f"{n}-{m}" for n, m, _ in WRONG_ANSWERS]
)
def test_a_known_mistake_fails_with_its_diagnosis(name, mistake, answer, seed):
    result = check(name, answer, seed=seed)
    assert result.status == FAILED
    assert result.diagnosis == mistake, str(result)
    assert result.hint and "looks like" in result.feedback


@pytest.mark.parametrize(
    ("name", "mistake", "value"), WRONG_VALUES, ids=[f"{n}-{m}" for n, m, _ in WRONG_VALUES]
)
def test_a_known_wrong_value_is_named(name, mistake, value):
    result = check(name, value)
    assert result.status == FAILED
    assert result.diagnosis == mistake
    assert result.hint


def test_every_registered_mistake_has_a_wrong_answer_in_the_tests():
    registered = {
        (name, mistake.id)
        for name, exercise in EXERCISES.items()
        if isinstance(exercise, FunctionExercise)
        for mistake in exercise.mistakes
    }
    registered |= {
        (name, wrong.id)
        for name, exercise in EXERCISES.items()
        if not isinstance(exercise, FunctionExercise)
        for wrong in exercise.wrong_values
    }
    tested = {(n, m) for n, m, _ in WRONG_ANSWERS} | {(n, m) for n, m, _ in WRONG_VALUES}
    for path in Path(__file__).parent.glob("test_checks_ch[0-9][0-9].py"):  # a chapter's own file
        tested |= {(n, m) for n, m, _ in _load(path).WRONG_ANSWERS}
    assert registered == tested


def test_an_unrecognised_wrong_answer_fails_without_a_diagnosis():
    def scaled_twice(q, k, v, mask=None):
        out, weights = mha.scaled_dot_product_attention(q / 3.0, k, v, mask)
        return out, weights

    result = check("scaled_dot_product_attention", scaled_twice, seed=0)
    assert result.status == FAILED and result.diagnosis is None
    assert "wrong values" in result.feedback
    assert check("score_std", 17.5).diagnosis is None
    assert check("split_heads_shape", (1, 2, 3)).status == FAILED


# --- other correct styles pass -------------------------------------------------------------


def softmax_logsumexp(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    log_total = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return np.exp(x - log_total)


def sdpa_einsum(q, k, v, mask=None):
    scores = np.einsum("...qd,...kd->...qk", q, k) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores + np.where(mask, 0.0, -1e9).astype(q.dtype)
    weights = softmax_logsumexp(scores)
    return np.einsum("...qk,...kd->...qd", weights, v), weights


def sdpa_mask_after_then_renormalise(q, k, v, mask=None):
    weights = _stable_softmax(q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1]))
    if mask is not None:
        weights = weights * mask
        weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ v, weights


def split_heads_loop(x, num_heads):
    d = x.shape[-1] // num_heads
    return np.stack([x[..., i * d : (i + 1) * d] for i in range(num_heads)], axis=-3)


def merge_heads_concatenate(x):
    return np.concatenate([x[..., i, :, :] for i in range(x.shape[-3])], axis=-1)


def mha_per_head_loop(q, k, v, params, mask=None):
    d_k, h = params.d_k, params.num_heads
    heads, weights = [], []
    for i in range(h):
        cols = slice(i * d_k, (i + 1) * d_k)

        def lin(x, w, b, cols=cols):
            return x @ w[:, cols] + (0 if b is None else b[cols])

        head_mask = (
            None
            if mask is None or mask.ndim < 3
            else mask[..., 0 if mask.shape[-3] == 1 else i, :, :]
        )
        head, weight = sdpa_einsum(
            lin(q, params.w_q, params.b_q),
            lin(k, params.w_k, params.b_k),
            lin(v, params.w_v, params.b_v),
            mask if head_mask is None else head_mask,
        )
        heads.append(head)
        weights.append(weight)
    out = np.concatenate(heads, axis=-1) @ params.w_o
    return (out if params.b_o is None else out + params.b_o), np.stack(weights, axis=-3)


def causal_mask_loops(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    mask = np.zeros((n_q, n_k), dtype=bool)
    for i in range(n_q):
        for j in range(n_k):
            mask[i, j] = j <= i + n_k - n_q
    return mask


def padding_mask_loop(lengths, n_k):
    rows = [[j < length for j in range(n_k)] for length in lengths]
    return np.array(rows, dtype=bool).reshape(len(rows), 1, 1, n_k)


ALTERNATIVES = [
    ("softmax", softmax_logsumexp),
    ("scaled_dot_product_attention", sdpa_einsum),
    ("scaled_dot_product_attention", sdpa_mask_after_then_renormalise),
    ("split_heads", split_heads_loop),
    ("merge_heads", merge_heads_concatenate),
    ("multi_head_attention", mha_per_head_loop),
    ("multi_head_attention", mha.multi_head_attention_loop),
    ("module_forward", _torch_student()),
    ("module_forward", lambda module, q, k, v, mask=None: module(q, k, v, mask, impl="readable")),
    ("causal_mask", causal_mask_loops),
    ("causal_mask", lambda n_q, n_k=None: np.tril(_ones(n_q, n_k or n_q), k=(n_k or n_q) - n_q)),
    ("padding_mask", padding_mask_loop),
    ("repeat_kv_heads", lambda k, num_heads: k[..., np.arange(num_heads) // (num_heads // k.shape[-3]), :, :]),
    ("repeat_kv_heads", lambda k, h: np.broadcast_to(k[..., None, :, :], (*k.shape[:-2], h // k.shape[-3], *k.shape[-2:])).reshape(*k.shape[:-3], h, *k.shape[-2:])),
    ("head_similarity", similarity_loop),
    ("attention_without_head", lambda x, params, head: without_head_values(x, params, head, bias_too=True)),
    ("attention_without_head", without_head_by_loop),
]  # fmt: skip


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("name", "answer"), ALTERNATIVES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(ALTERNATIVES)]
)
def test_correct_answers_in_other_styles_pass(name, answer, seed):
    result = check(name, answer, seed=seed)
    assert result.passed, str(result)


# --- the check survives the answer ---------------------------------------------------------


def test_untouched_stubs_are_not_attempted_and_do_not_raise():
    def stub(x, axis=-1):
        raise NotImplementedError

    def empty(q, k, v, mask=None): ...

    assert check("softmax", stub).status == NOT_ATTEMPTED
    assert check("scaled_dot_product_attention", empty).status == NOT_ATTEMPTED
    assert check("softmax", ...).status == NOT_ATTEMPTED
    assert check("score_std", None).status == NOT_ATTEMPTED
    assert check("split_heads_shape", lambda: ...).status == NOT_ATTEMPTED
    assert not check("softmax", stub).passed


def test_an_exception_becomes_feedback_with_its_type_and_message():
    def broken(x, axis=-1):
        raise ValueError("my own message")

    result = check("softmax", broken)
    assert result.status == FAILED
    assert "ValueError" in result.feedback and "my own message" in result.feedback


def test_a_partly_written_function_that_raises_not_implemented_later_fails():
    def no_masks_yet(q, k, v, mask=None):
        if mask is not None:
            raise NotImplementedError("masks")
        return mha.scaled_dot_product_attention(q, k, v)

    result = check("scaled_dot_product_attention", no_masks_yet, seed=0)
    assert result.status == FAILED and "NotImplementedError" in result.feedback
    assert "mask" in result.feedback


def test_sys_exit_inside_the_answer_is_caught():
    def quits(x, axis=-1):
        sys.exit(3)

    result = check("softmax", quits)
    assert result.status == FAILED and "SystemExit" in result.feedback


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (lambda x, axis=-1: x.tolist(), "NumPy array"),
        (lambda q, k, v, mask=None: mha.scaled_dot_product_attention(q, k, v, mask)[0], "tuple"),
        (42, "expected a function"),
    ],
)
def test_a_wrong_return_type_or_arity_is_named(answer, words):
    name = "softmax" if words != "tuple" else "scaled_dot_product_attention"
    result = check(name, answer)
    assert result.status == FAILED and words in result.feedback


def test_a_value_exercise_rejects_a_non_number():
    assert "expected a number" in check("score_std", "16").feedback
    assert "expected a shape" in check("split_heads_shape", "(2, 12, 10, 64)").feedback
    assert check("score_std", True).status == FAILED


def test_nan_output_is_reported_as_nan():
    result = check("softmax", lambda x, axis=-1: np.full_like(x, np.nan))
    assert result.status == FAILED and "NaN" in result.feedback


def test_float64_promotion_of_float32_inputs_is_a_dtype_failure_with_a_hint():
    def promotes(q, k, v, mask=None):
        scores = q @ k.swapaxes(-1, -2) / np.sqrt(np.float64(q.shape[-1]))
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
        weights = _stable_softmax(scores)
        return weights @ v, weights

    result = check("scaled_dot_product_attention", promotes, seed=0)
    assert result.status == FAILED
    assert "dtype float64, expected float32" in result.feedback
    assert "math.sqrt" in result.hint


def test_a_mask_of_the_wrong_dtype_is_named():
    result = check(
        "causal_mask",
        lambda n_q, n_k=None: np.tril(np.ones((n_q, n_k or n_q)), k=(n_k or n_q) - n_q),
    )
    assert result.status == FAILED and "expected bool" in result.feedback


@pytest.mark.parametrize(
    ("name", "answer", "argument"),
    [
        ("softmax", "in_place_softmax", "x"),
        ("scaled_dot_product_attention", "in_place_sdpa", "q"),
        ("multi_head_attention", "in_place_mha", "params.w_q"),
    ],
)
def test_mutating_an_input_fails_and_names_the_argument(name, answer, argument):
    def in_place_softmax(x, axis=-1):
        x -= x.max(axis=axis, keepdims=True)
        np.exp(x, out=x)
        x /= x.sum(axis=axis, keepdims=True)
        return x

    def in_place_sdpa(q, k, v, mask=None):
        q /= math.sqrt(q.shape[-1])
        return sdpa_einsum(q * math.sqrt(q.shape[-1]), k, v, mask)

    def in_place_mha(q, k, v, params, mask=None):
        result = mha.multi_head_attention(q, k, v, params, mask)
        params.w_q[...] = 0
        return result

    result = check(name, locals()[answer], seed=0)
    assert result.status == FAILED
    assert f"changed its argument {argument} in place" in result.feedback


def test_an_endless_loop_is_stopped_by_the_time_limit():
    def spins(x, axis=-1):
        while True:
            pass

    start = time.monotonic()
    result = check("softmax", spins, time_limit=0.5)
    assert time.monotonic() - start < 5
    assert result.status == FAILED and result.diagnosis == "time_limit"
    assert "0.5 s" in result.feedback


def test_the_time_limit_also_holds_off_the_main_thread():
    release = threading.Event()

    def waits(x, axis=-1):
        release.wait(30)
        return _stable_softmax(x, axis)

    results = []
    worker = threading.Thread(
        target=lambda: results.append(check("softmax", waits, time_limit=0.3))
    )
    worker.start()
    worker.join(10)
    release.set()
    assert results and results[0].diagnosis == "time_limit"


def test_the_alarm_handler_and_an_outer_timer_are_restored_after_a_check():
    import signal

    def outer_handler(signum, frame):
        raise AssertionError("the outer alarm fired during the test")

    before = signal.signal(signal.SIGALRM, outer_handler)
    signal.setitimer(signal.ITIMER_REAL, 100.0)
    try:
        check("softmax", _stable_softmax)
        assert signal.getsignal(signal.SIGALRM) is outer_handler
        assert 90 < signal.getitimer(signal.ITIMER_REAL)[0] <= 100  # still pending
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def test_an_unknown_exercise_name_lists_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown exercise 'sofmax'.*softmax"):
        check("sofmax", _stable_softmax)


def test_a_bad_time_limit_is_rejected():
    with pytest.raises(ValueError, match="time_limit"):
        check("softmax", _stable_softmax, time_limit=0)


# --- how results look --------------------------------------------------------------------


def test_results_show_as_coloured_html_and_as_text():
    passed = check("softmax", _stable_softmax)
    failed = check("softmax", softmax_whole_array)
    assert "#1e7e34" in passed._repr_html_() and "passed" in passed._repr_html_()
    assert "Hint:" in failed._repr_html_() and "#c0392b" in failed._repr_html_()
    assert str(passed).startswith("[PASS] softmax")
    assert str(failed).startswith("[FAIL] softmax") and "Hint:" in str(failed)
    escaped = check("softmax", lambda x, axis=-1: (_ for _ in ()).throw(ValueError("<b>")))
    assert "<b>" not in escaped._repr_html_().split("</b>", 1)[1]


def test_the_seed_is_recorded_and_repeats_the_run():
    first = check("softmax", softmax_whole_array)
    again = check("softmax", softmax_whole_array, seed=first.seed)
    assert first.feedback == again.feedback
    assert first.to_dict()["passed"] is False and first.to_dict()["seed"] == first.seed
