"""Diagnoses of mistake classes that no table stores (issue 22, second round): each answer
here is written for its test, in the idiom of the class, not taken from a held-out round."""

import dataclasses
import math

import numpy as np
import pytest

import mha
from mha.checks import FAILED, PASSED, check

SEEDS = range(13)


def test_a_temperature_from_the_first_row_fails_on_every_seed_as_log_of_zero():
    def first_two_of_row_0(scores, weights):
        s = np.asarray(scores).reshape(-1, np.shape(scores)[-1])[0]
        log_w = np.log(np.asarray(weights).reshape(-1, np.shape(weights)[-1])[0])
        return float((s[1] - s[0]) / (log_w[1] - log_w[0]))

    for seed in SEEDS:
        result = check("temperature_of", first_two_of_row_0, seed=seed)
        assert result.diagnosis == "log_of_zero", (seed, str(result))


def test_head_contributions_names_a_factor_of_h():
    def averaged(heads, w_o):
        h, d_v = heads.shape[-3], heads.shape[-1]
        return np.einsum("...hnd,hdm->...hnm", heads, w_o.reshape(h, d_v, -1)) / h

    assert check("head_contributions", averaged, seed=1).diagnosis == "times:1/h"


def test_a_head_index_one_too_high_that_wraps_around_is_named():
    def next_head(w, i, num_heads):
        width = w.shape[1] // num_heads
        head = (i + 1) % num_heads  # heads counted from 1, the last one wrapping to 0
        return w[:, head * width : (head + 1) * width]

    for seed in SEEDS:
        result = check("head_weight", next_head, seed=seed)
        assert result.diagnosis == "input:i+1", (seed, str(result))
        assert "wrapping around to 0" in result.feedback


def test_left_padding_is_named_and_a_mask_is_never_rearranged():
    def pads_first(lengths, n_k):
        lengths = np.asarray(lengths).reshape(-1, 1)
        return (np.arange(n_k) >= n_k - lengths)[:, None, None, :]

    result = check("padding_mask", pads_first, seed=3)
    assert result.diagnosis == "left_padding", str(result)

    def right_count_wrong_places(lengths, n_k):  # as many True as asked, in a rolled order
        mask = mha.padding_mask(lengths, n_k)
        return np.roll(mask, 1, axis=-1)

    assert check("padding_mask", right_count_wrong_places, seed=3).diagnosis != "rearranged"


def test_a_transpose_only_where_the_weight_is_square_is_the_linear_layout():
    from corpus.ch06 import module_forward_transposes_what_fits

    for seed in (2, 3):
        result = check("module_forward", module_forward_transposes_what_fits, seed=seed)
        assert result.diagnosis == "linear_layout", str(result)


def test_a_mistake_made_wherever_the_shapes_allow_it_is_named():
    def grad_v_untransposed_when_square(q, k, v, grad_out):
        c = 1 / math.sqrt(q.shape[-1])
        p = mha.softmax(q @ np.swapaxes(k, -1, -2) * c)
        square = p.shape[-1] == p.shape[-2]
        grad_v = (p if square else np.swapaxes(p, -1, -2)) @ grad_out
        grad_p = grad_out @ np.swapaxes(v, -1, -2)
        grad_s = p * (grad_p - np.sum(grad_p * p, axis=-1, keepdims=True)) * c
        return grad_s @ k, np.swapaxes(grad_s, -1, -2) @ q, grad_v

    result = check("attention_backward", grad_v_untransposed_when_square, seed=4)
    assert result.diagnosis == "grad_v_not_transposed", str(result)


def test_heads_from_axis_1_with_batch_axes_are_named_as_batch_axes():
    def heads_on_axis_1(weights):
        w = np.asarray(weights)
        axis = 1 if w.ndim > 3 else 0
        vectors = np.moveaxis(w, axis, 0).reshape(w.shape[axis], -1)
        vectors = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        sim = vectors @ vectors.T
        h = len(sim)
        return float((sim.sum() - np.trace(sim)) / (h * (h - 1)))

    result = check("diversity_penalty", heads_on_axis_1, seed=5)
    assert result.diagnosis == "batch_axes", str(result)
    assert "estimate" not in result.feedback


def test_pad_queries_hidden_in_both_decoder_masks_are_named():
    def rows_hidden(target_lengths, source_lengths, n_target, n_source):
        real_queries = mha.padding_mask(target_lengths, n_target).swapaxes(-1, -2)
        self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
        cross = mha.padding_mask(source_lengths, n_source) & real_queries
        return self_mask & real_queries, cross

    result = check("decoder_masks", rows_hidden, seed=6)
    assert result.diagnosis == "cross_hides_target_pads", str(result)


def test_a_std_of_1_names_both_readings_and_neither_as_certain():
    result = check("score_std", 1.0)
    assert result.diagnosis == "std_one"
    assert "one product" in result.feedback and "after dividing" in result.feedback


def test_an_output_computed_without_one_input_is_named():
    from mha.pretrained import from_bert_state_dict

    def no_output_bias(x, attention_mask, state, num_heads):
        params = dataclasses.replace(from_bert_state_dict(state, num_heads), b_o=None)
        mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
        return mha.multi_head_attention(x, x, x, params, mask)

    result = check("bert_self_attention", no_output_bias, seed=7)
    assert result.diagnosis == "input:state[output.dense.bias]=0", str(result)


def test_outputs_holding_each_other_s_numbers_are_rearranged():
    def every_third_column(torch_mha):
        w = torch_mha.in_proj_weight.detach().numpy().T  # (d, 3d)
        d = w.shape[0]
        blocks = [w[:, i::3].copy() for i in range(3)]
        b = torch_mha.in_proj_bias
        biases = [None] * 3 if b is None else [x.copy() for x in b.detach().numpy().reshape(3, d)]
        bo = torch_mha.out_proj.bias
        return mha.MHAParams(*blocks, torch_mha.out_proj.weight.detach().numpy().T.copy(),
                             torch_mha.num_heads, *biases,
                             None if bo is None else bo.detach().numpy().copy())  # fmt: skip

    result = check("params_from_torch", every_third_column, seed=8)
    assert result.diagnosis == "rearranged", str(result)


@pytest.mark.parametrize("seed", SEEDS)
def test_two_slips_that_give_the_same_count_are_not_named_as_one(seed):
    def n_k_for_n_q(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
        column = batch * heads * n_k * bytes_per_number
        return max(1, min(n_k, budget_bytes // column))

    result = check("key_block_size", n_k_for_n_q, seed=seed)
    assert result.diagnosis in ("input:n_k_for_n_q", None), str(result)


# --- robustness: never a pass ---------------------------------------------------------------


def test_a_list_of_the_outputs_passes_as_the_statement_allows():
    def as_list(in_proj_weight):
        d = in_proj_weight.shape[1]
        return [in_proj_weight[i * d : (i + 1) * d].T.copy() for i in range(3)]

    assert check("split_in_proj", as_list, seed=0).status == PASSED


def test_a_float_count_fails_in_every_count_exercise():
    assert check("mha_parameter_count", 1050624.0).diagnosis == "integer_as_float"
    assert check("projection_parameter_count", 786432.0).diagnosis == "integer_as_float"
    assert check("mha_parameter_count", 1050624).status == PASSED
    assert check("score_std", 16.0).status == PASSED  # an estimate, not a count


def test_a_softmax_without_the_maximum_overflows_in_moh_gates():
    def unstable(scores, top_k):
        e = np.exp(scores)
        probs = e / e.sum(-1, keepdims=True)
        kth = np.sort(scores, axis=-1)[..., -top_k, None]
        return np.where(scores >= kth, scores.shape[-1] * probs, 0.0)

    result = check("moh_gates", unstable, seed=9)
    assert result.status == FAILED and result.diagnosis == "overflow", str(result)


def _decode(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    cache_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    cache_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    heads, _ = mha.scaled_dot_product_attention(
        mha.split_heads(x_t @ params.w_q, h),
        np.repeat(cache_k, h // g, axis=-3),
        np.repeat(cache_v, h // g, axis=-3),
    )
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v


def test_results_that_the_next_call_overwrites_fail():
    buffers = {}

    def shared(x_t, params, cache_k, cache_v):
        out, new_k, new_v = _decode(x_t, params, cache_k, cache_v)
        k = buffers.setdefault(("k", new_k.shape), np.empty_like(new_k))
        v = buffers.setdefault(("v", new_v.shape), np.empty_like(new_v))
        k[...], v[...] = new_k, new_v
        return out, k, v

    result = check("decode_one_token", shared, seed=10)
    assert result.status == FAILED and result.diagnosis == "shared_buffer", str(result)
    assert check("decode_one_token", _decode, seed=10).status == PASSED


# --- numbers and shapes ---------------------------------------------------------------------


def test_a_decimal_thousand_for_1024_is_named_and_a_count_is_no_estimate():
    from mha.checks import EXERCISES

    right = EXERCISES["gqa_kv_cache_bytes"].expected
    result = check("gqa_kv_cache_bytes", round(right * 1000 / 1024))
    assert result.diagnosis == "times:1000/1024", str(result)
    near = check("gqa_kv_cache_bytes", right + 12345)
    assert near.diagnosis != "approximate" and "estimate" not in near.feedback


def test_a_shape_without_one_axis_names_the_axis():
    result = check("cross_attention_weights_shape", (2, 4, 11))
    assert result.diagnosis == "missing_axis:2" and "of size 7" in result.feedback
    assert check("cross_attention_weights_shape", (4, 7, 11)).diagnosis == "missing_axis:0"


def test_values_divided_by_their_sum_are_named_normalised():
    def shares(contributions, grad_out):
        gates = np.einsum("bhnd,bnd->bh", contributions, grad_out)  # dL/dg_a per example
        importance = np.abs(gates).mean(axis=0)
        return importance / importance.sum()

    result = check("gate_importance", shares, seed=11)
    assert result.diagnosis == "normalised:all", str(result)


def test_zeros_where_the_computation_failed_are_named():
    def zeros_on_failure(q, k, v, params, mask=None):
        try:
            return mha.multi_head_attention(
                q, k, v, dataclasses.replace(params, b_q=params.b_q + 0), mask
            )
        except TypeError:  # b_q is None: the inputs without biases
            n_q, n_k = q.shape[-2], k.shape[-2]
            out = np.zeros((*q.shape[:-1], params.w_o.shape[1]), dtype=q.dtype)
            return out, np.zeros((*q.shape[:-2], params.num_heads, n_q, n_k), dtype=q.dtype)

    result = check("multi_head_attention", zeros_on_failure, seed=12)
    assert result.diagnosis == "zeros", str(result)


def test_the_operation_along_the_other_axis_of_a_matrix_is_named():
    def block_of_rows(w, i, num_heads):
        size = w.shape[0] // num_heads
        return np.take(w, np.arange(i * size, (i + 1) * size), axis=0)

    result = check("head_weight", block_of_rows, seed=13)
    assert result.diagnosis == "rows_not_columns", str(result)


def test_a_softmax_shifted_by_the_minimum_fails_on_a_wide_row():
    def shifted_by_minimum(x, axis=-1):
        e = np.exp(x - np.min(x, axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)

    for seed in SEEDS:
        result = check("softmax", shifted_by_minimum, seed=seed)
        assert result.status == FAILED and "minimum" in str(result), (seed, str(result))


def test_a_padding_mask_as_wide_as_the_longest_sequence_fails_with_its_shape_and_is_named():
    def longest_wide(lengths, n_k):
        lengths = np.asarray(lengths)
        mask = np.arange(lengths.max()) < lengths[:, None]  # (B, max(lengths))
        return mask[:, None, None, :]

    for seed in SEEDS:
        result = check("padding_mask", longest_wide, seed=seed)
        assert result.status == FAILED and result.diagnosis == "n_k_from_lengths", (
            seed,
            str(result),
        )
        assert "expected (" in str(result), (seed, str(result))


def test_biases_added_only_when_all_four_are_given_fail_on_some_biases():
    def all_or_none(q, k, v, params, mask=None):
        biases = (params.b_q, params.b_k, params.b_v, params.b_o)
        if any(b is None for b in biases):
            params = dataclasses.replace(params, b_q=None, b_k=None, b_v=None, b_o=None)
        return mha.multi_head_attention(q, k, v, params, mask)

    for seed in SEEDS:
        result = check("multi_head_attention", all_or_none, seed=seed)
        assert result.status == FAILED and "b_k, b_o None" in str(result), (seed, str(result))


def test_a_number_computed_in_low_precision_is_named_as_precision():
    exact = 1 / (1 + math.exp(16))
    float16 = float(np.float16(math.exp(-16)))  # e^-16 kept as a float16: 6% off
    assert float16 != exact
    result = check("saturated_weight", float16)
    assert result.diagnosis == "precision:float16", str(result)
    assert check("mha_parameter_count", 1050624.0 * 1.001).diagnosis != "precision:float16"


def test_a_guarded_online_softmax_with_one_mistake_is_named():
    def no_rescale(q, k, v, block_size, causal=False):
        q = q / math.sqrt(q.shape[-1])
        n_q, n_k = q.shape[-2], k.shape[-2]
        m = np.full((*q.shape[:-1], 1), -np.inf)
        total = np.zeros_like(m)
        out = np.zeros((*q.shape[:-1], v.shape[-1]))
        for start in range(0, n_k, block_size):
            s = q @ np.swapaxes(k[..., start : start + block_size, :], -1, -2)
            if causal:
                keys = np.arange(start, min(start + block_size, n_k))
                s = np.where(keys <= np.arange(n_q)[:, None] + n_k - n_q, s, -np.inf)
            new = np.maximum(m, s.max(-1, keepdims=True))
            safe = np.where(np.isfinite(new), new, 0.0)  # the guard for a query with no key
            p = np.exp(s - safe)
            total = total * np.exp(m - safe) + p.sum(-1, keepdims=True)
            out = out + p @ v[..., start : start + block_size, :]  # the output never rescaled
            m = new
        ok = total > 0
        return np.where(ok, out / np.where(ok, total, 1.0), 0.0).astype(q.dtype)

    for seed in range(3):
        result = check("online_softmax_attention", no_rescale, seed=seed)
        assert result.diagnosis == "no_rescale_output", (seed, str(result))


def test_a_factor_that_a_declared_quantity_explains_is_named_as_that_factor():
    n, d_model, bytes_per_number = 2048, 4096, 2  # the statement's layer, batch 8 forgotten
    forgot_the_batch = n * d_model * bytes_per_number  # 1/8 of the answer, not "bits"
    result = check("head_parallel_all_reduce_bytes", forgot_the_batch)
    assert result.diagnosis == "missing:batch", str(result)


def test_a_function_a_few_percent_off_everywhere_is_no_estimate():
    def five_percent_high(scores, weights):
        kept = weights > 0
        count = kept.sum(axis=-1, keepdims=True)
        s = np.where(kept, scores, 0.0)
        s = np.where(kept, s - s.sum(-1, keepdims=True) / count, 0.0)
        ell = np.where(kept, np.log(np.where(kept, weights, 1.0)), 0.0)
        ell = np.where(kept, ell - ell.sum(-1, keepdims=True) / count, 0.0)
        return float((s * s).sum() / (s * ell).sum()) ** 1.03  # a few percent off

    result = check("temperature_of", five_percent_high, seed=0)
    assert result.diagnosis == "nearly_right", str(result)
    assert "estimate" not in result.feedback, result.feedback


def test_the_number_of_heads_used_as_the_head_size_is_never_read_as_batch_axes():
    def heads_of_size_h(x, num_heads):
        *batch, n, features = x.shape
        x = x.reshape(*batch, n, features // num_heads, num_heads)  # (..., n, d, h): swapped
        return np.swapaxes(x, -3, -2)

    for seed in SEEDS:
        result = check("split_heads", heads_of_size_h, seed=seed)
        assert result.status == FAILED and result.diagnosis != "batch_axes", (seed, str(result))


def test_heads_counted_from_1_that_wrap_around_to_the_last_head_are_named():
    def head_from_one(w, i, num_heads):
        return np.split(w, num_heads, axis=1)[i - 1]  # head 0 is [-1]: the last block

    for seed in SEEDS:
        result = check("head_weight", head_from_one, seed=seed)
        assert result.diagnosis == "one_based", (seed, str(result))


def test_a_repeat_along_axis_0_is_axes_counted_from_the_front():
    def along_axis_0(k, num_heads):
        group = num_heads // k.shape[-3]
        return np.take(k, np.arange(k.shape[0] * group) // group, axis=0)

    for seed in SEEDS:
        result = check("repeat_kv_heads", along_axis_0, seed=seed)
        assert result.diagnosis == "batch_axes", (seed, str(result))


def test_gates_for_one_head_more_than_top_k_are_named_even_where_top_k_is_h():
    def down_to_the_next_score(scores, top_k):
        h = scores.shape[-1]
        p = np.exp(scores - scores.max(-1, keepdims=True))
        p = h * p / p.sum(-1, keepdims=True)
        next_score = -np.sort(-scores, axis=-1)[..., top_k]  # index h raises at top_k = h
        return p * (scores >= next_score[..., None])

    for seed in SEEDS:
        result = check("moh_gates", down_to_the_next_score, seed=seed)
        assert result.diagnosis == "keeps_k_plus_1", (seed, str(result))


def test_a_factor_of_a_term_counted_as_another_is_named():
    def n_and_d_swapped_in_the_scores(batch, n, d_model):
        return 8 * batch * n * d_model**2 + 4 * batch * n * d_model**2  # n d^2 for n^2 d

    result = check("attention_flops", n_and_d_swapped_in_the_scores, seed=0)
    assert result.diagnosis == "term:attention:n->d_model", str(result)


def test_lengths_off_by_one_are_named_as_lengths_plus_one():
    def one_pad_attended(q, k, v, params, lengths=None):
        if lengths is None:
            return mha.multi_head_attention(q, k, v, params)
        keep = np.arange(k.shape[-2])[None, :] <= np.asarray(lengths)[:, None]  # (B, n_k)
        return mha.multi_head_attention(q, k, v, params, mask=keep[:, None, None, :])

    result = check("attention_layer", one_pad_attended, seed=0)
    assert result.diagnosis == "input:lengths+1", str(result)


def test_the_two_length_lists_swapped_between_the_masks_are_named():
    def swapped(target_lengths, source_lengths, n_target, n_source):
        B = len(target_lengths)
        self_mask = np.zeros((B, 1, n_target, n_target), dtype=bool)
        cross_mask = np.zeros((B, 1, n_target, n_source), dtype=bool)
        for b in range(B):
            for i in range(n_target):
                self_mask[b, 0, i, : min(i + 1, source_lengths[b])] = True
                cross_mask[b, 0, i, : target_lengths[b]] = True
        return self_mask, cross_mask

    for seed in SEEDS:
        result = check("decoder_masks", swapped, seed=seed)
        assert result.diagnosis == "lengths_swapped", (seed, str(result))


def test_a_sum_over_every_query_row_where_the_mean_is_asked_is_named():
    def summed_over_queries(weights):
        p = np.asarray(weights, dtype=np.float64)
        p = p.reshape(-1, *p.shape[-3:])  # (batch, h, n_q, n_k)
        m = (p[:, :, None] + p[:, None, :]) / 2

        def kl(a):  # summed over the batch, the queries and the keys
            with np.errstate(divide="ignore", invalid="ignore"):
                return np.where(a > 0, a * np.log(a / m), 0.0).sum(axis=(0, -2, -1))

        return (kl(p[:, :, None]) + kl(p[:, None, :])) / 2

    result = check("head_js_divergence", summed_over_queries, seed=0)
    assert result.diagnosis == "times:query_rows", str(result)
    assert "a sum where a mean belongs" in result.feedback, result.feedback


def test_a_softmax_normalised_by_another_quantity_is_named_as_rows_scaled():
    def divided_by_the_norm(x, axis=-1):
        e = np.exp(x - x.max(axis=axis, keepdims=True))
        return e / np.linalg.norm(e, axis=axis, keepdims=True)

    for seed in (0, 1):
        result = check("softmax", divided_by_the_norm, seed=seed)
        assert result.diagnosis == "scaled_rows", (seed, str(result))


def test_rows_zeroed_are_not_read_as_rows_scaled():
    def first_row_of_each_slice_zeroed(x, axis=-1):
        weights = mha.softmax(x, axis=axis)
        keep = np.ones(weights.shape[-2:] if weights.ndim > 1 else weights.shape, dtype=bool)
        if weights.ndim > 1:
            keep[0] = False
        return np.where(keep, weights, 0.0)

    for seed in (0, 1):
        result = check("softmax", first_row_of_each_slice_zeroed, seed=seed)
        assert not result.passed and result.diagnosis != "scaled_rows", (seed, str(result))


def test_a_whole_number_in_a_larger_unit_is_named_with_the_unit():
    in_gigabytes = (4 * 16 * 8192**2 * 2) // 10**9  # 8, also exactly 8 GiB: both are told
    result = check("attention_weights_bytes", in_gigabytes)
    assert result.diagnosis == "times:2^-30", str(result)  # the exact explanation first
    assert "rounded to a whole number" in result.feedback and "gigabytes" in result.feedback
    rounded_up = -(-(4 * 16 * 8192**2 * 2) // 10**9)  # 9: gigabytes only
    result = check("attention_weights_bytes", rounded_up)
    assert result.diagnosis == "times:1e-9" and "cannot tell" not in result.feedback, str(result)


def test_a_single_number_off_by_a_simple_factor_is_never_read_as_a_swapped_factor():
    from mha.checks import EXERCISES

    quarter = EXERCISES["gqa_kv_cache_bytes"].expected / 4  # the group size divided once more
    result = check("gqa_kv_cache_bytes", int(quarter))
    assert result.diagnosis == "times:1/4", str(result)


def test_a_copy_pasted_projection_is_named_as_one_weight_for_another():
    def values_through_w_k(q, k, v, params, mask=None):
        p = dataclasses.replace(params, w_v=params.w_k, b_v=params.b_k)  # the slip, as data
        return mha.multi_head_attention(q, k, v, p, mask)

    result = check("multi_head_attention", values_through_w_k, seed=0)
    assert result.diagnosis.startswith("input:params.w_v"), str(result)
    assert "params.w_k" in result.feedback, result.feedback


def test_a_masked_score_far_above_the_allowed_ones_is_tested_and_named():
    def shift_by_every_key(scores, mask):
        e = np.exp(scores - scores.max(axis=-1, keepdims=True)) * mask
        total = e.sum(axis=-1, keepdims=True)
        return np.divide(e, total, out=np.zeros_like(e), where=total > 0)

    for seed in SEEDS:
        result = check("masked_softmax", shift_by_every_key, seed=seed)
        assert result.diagnosis == "peak_of_every_key", (seed, str(result))


def test_a_float32_result_where_float64_is_asked_is_not_said_to_follow_the_inputs():
    def in_float32(contributions):
        x = np.asarray(contributions, dtype=np.float32)
        h, d_model = x.shape[-3], x.shape[-1]
        s = np.moveaxis(x, -3, 0).reshape(h, -1, d_model).var(axis=1)
        return s.sum(0) ** 2 / (s**2).sum(0)

    result = check("heads_per_feature", in_float32, seed=0)
    assert result.status == FAILED and "float32" in result.feedback, str(result)
    assert "like the inputs" not in result.feedback and "inputs are float64" not in str(result)


def test_an_answer_that_empties_its_argument_list_is_told_so_and_the_check_does_not_crash():
    def fuse_by_popping(w_heads):
        fused = []
        while w_heads:
            fused.append(w_heads.pop())
        return np.concatenate(fused[::-1], axis=1)

    result = check("fuse_heads", fuse_by_popping, seed=0)
    assert result.status == FAILED and "taken out of its list" in result.feedback, str(result)


def test_zero_biases_for_a_module_without_biases_are_told_so_and_the_check_does_not_crash():
    def zeros_for_none(torch_mha):
        state = {k: t.detach().numpy() for k, t in torch_mha.state_dict().items()}
        p = mha.params.from_torch_state_dict(state, torch_mha.num_heads)
        zeros = np.zeros(p.d_model, dtype=p.w_q.dtype)
        fill = {b: zeros.copy() for b in ("b_q", "b_k", "b_v", "b_o") if getattr(p, b) is None}
        return dataclasses.replace(p, **fill)

    result = check("params_from_torch", zeros_for_none, seed=0)
    assert result.status == FAILED and "expected None" in result.feedback, str(result)


def test_a_unit_conversion_is_never_named_where_no_memory_is_measured():
    from mha.checks import EXERCISES

    result = check("score_std", 128)  # d_k / 2: the variance halved, no bits or bytes
    assert result.status == FAILED and "bits" not in result.feedback, str(result)
    assert result.diagnosis is None or not result.diagnosis.startswith("times:"), str(result)
    in_bits = 8 * int(EXERCISES["attention_weights_bytes"].expected)
    assert check("attention_weights_bytes", in_bits).diagnosis == "times:8"


def test_a_division_by_zero_on_one_input_is_not_read_as_an_exponential_overflow():
    def head_size_from_w_k(q, k, v, params, mask=None):
        h, g = params.num_heads, params.num_kv_heads
        d_k = params.w_k.shape[1] // h  # 0 where g * d_k < h (multi-query, h = 8)
        q_heads = mha.split_heads(q @ params.w_q, h)
        k_heads, v_heads = (
            np.repeat(mha.split_heads(x @ w, g), h // g, axis=-3)
            for x, w in ((k, params.w_k), (v, params.w_v))
        )
        with np.errstate(divide="ignore", invalid="ignore"):
            scores = q_heads @ np.swapaxes(k_heads, -1, -2) / np.sqrt(d_k)
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
        weights = mha.softmax(scores, axis=-1)
        return mha.merge_heads(weights @ v_heads) @ params.w_o, weights

    for seed in SEEDS:
        result = check("grouped_query_attention", head_size_from_w_k, seed=seed)
        assert result.status == FAILED and result.diagnosis != "overflow", (seed, str(result))
