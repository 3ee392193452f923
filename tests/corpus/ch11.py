"""Chapter 11: BERT's self-attention with mha, the padding mask from an attention_mask, the
Jensen-Shannon divergence between heads, importance by ablation."""

import math

import numpy as np

import mha
from corpus import correct, predicted, wrong

# --- bert_self_attention ------------------------------------------------------------------


def _bert(x, attention_mask, state, num_heads, *, transpose=True, mask="right", biases=True,
          output=True):  # fmt: skip
    """A reader's answer with MHAParams; the keywords change one step."""
    t = (lambda w: w.T) if transpose else (lambda w: w)
    names = ("self.query", "self.key", "self.value")
    weights = [t(state[f"{name}.weight"]) for name in names]
    bias = [state[f"{name}.bias"] if biases else None for name in names]
    w_o = t(state["output.dense.weight"]) if output else np.eye(x.shape[-1], dtype=x.dtype)
    b_o = state["output.dense.bias"] if biases and output else None
    params = mha.MHAParams(*weights, w_o, num_heads, *bias, b_o)
    allowed = {
        "right": attention_mask.astype(bool)[:, None, None, :],
        "inverted": (attention_mask == 0)[:, None, None, :],
        "none": None,
    }[mask]
    return mha.multi_head_attention(x, x, x, params, allowed)


@correct("bert_self_attention")
def bert_with_mhaparams(x, attention_mask, state, num_heads):
    return _bert(x, attention_mask, state, num_heads)


@correct("bert_self_attention")
def bert_by_einsum(x, attention_mask, state, num_heads):
    B, n, d = x.shape
    d_k = d // num_heads

    def linear(name, y):  # nn.Linear: y @ W.T + b
        return y @ state[f"{name}.weight"].T + state[f"{name}.bias"]

    def heads(y):
        return y.reshape(B, n, num_heads, d_k).transpose(0, 2, 1, 3)

    q, k, v = (heads(linear(name, x)) for name in ("self.query", "self.key", "self.value"))
    scores = np.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(d_k)
    scores = np.where(attention_mask[:, None, None, :] == 1, scores, -np.inf)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    weights = weights / weights.sum(-1, keepdims=True)
    out = (weights @ v).transpose(0, 2, 1, 3).reshape(B, n, d)
    return linear("output.dense", out), weights


@correct("bert_self_attention")
def bert_through_torch_layout(x, attention_mask, state, num_heads):
    # BERT's layout is nn.MultiheadAttention's: stack q, k, v and reuse the book's conversion
    names = ("self.query", "self.key", "self.value")
    torch_state = {
        "in_proj_weight": np.concatenate([state[f"{n}.weight"] for n in names]),
        "in_proj_bias": np.concatenate([state[f"{n}.bias"] for n in names]),
        "out_proj.weight": state["output.dense.weight"],
        "out_proj.bias": state["output.dense.bias"],
    }
    params = mha.from_torch_state_dict(torch_state, num_heads)
    mask = mha.combine_masks((attention_mask > 0)[:, None, None, :])
    return mha.multi_head_attention(x, x, x, params, mask)


@wrong("bert_self_attention", "weights_not_transposed")
def bert_weights_as_stored(x, attention_mask, state, num_heads):
    return _bert(x, attention_mask, state, num_heads, transpose=False)


@wrong("bert_self_attention", "input:state[output.dense.bias]=0")
def bert_self_attention_no_output_bias(x, attention_mask, state, num_heads):
    def linear(name, y):
        return y @ state[f"{name}.weight"].T

    def biased(name, y):
        return linear(name, y) + state[f"{name}.bias"]

    q, k, v = (
        mha.split_heads(biased(n, x), num_heads) for n in ("self.query", "self.key", "self.value")
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
    heads, weights = mha.scaled_dot_product_attention(q, k, v, mask)
    return linear("output.dense", mha.merge_heads(heads)), weights


@wrong("bert_self_attention", "mask_inverted")
def bert_padding_true(x, attention_mask, state, num_heads):
    return _bert(x, attention_mask, state, num_heads, mask="inverted")


@wrong("bert_self_attention", "mask_inverted")
def bert_key_padding_polarity(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        state["self.query.weight"].T, state["self.key.weight"].T, state["self.value.weight"].T,
        state["output.dense.weight"].T, num_heads, state["self.query.bias"],
        state["self.key.bias"], state["self.value.bias"], state["output.dense.bias"],
    )  # fmt: skip
    key_padding_mask = attention_mask == 0  # as nn.MultiheadAttention wants it
    return mha.multi_head_attention(x, x, x, params, key_padding_mask[:, None, None, :])


@wrong("bert_self_attention", "mask_ignored")
def bert_no_mask(x, attention_mask, state, num_heads):
    return _bert(x, attention_mask, state, num_heads, mask="none")


@wrong("bert_self_attention", "biases_forgotten")
def bert_weights_only(x, attention_mask, state, num_heads):
    return _bert(x, attention_mask, state, num_heads, biases=False)


@wrong("bert_self_attention", "no_output_projection")
def bert_heads_concatenated(x, attention_mask, state, num_heads):
    return _bert(x, attention_mask, state, num_heads, output=False)


# --- padding_mask_from_attention_mask -----------------------------------------------------


@correct("padding_mask_from_attention_mask")
def padding_compare(attention_mask):
    return (attention_mask == 1)[:, None, None, :]


@correct("padding_mask_from_attention_mask")
def padding_newaxis(attention_mask):
    return attention_mask.astype(bool)[:, np.newaxis, np.newaxis]


@correct("padding_mask_from_attention_mask")
def padding_expand_dims(attention_mask):
    return np.expand_dims(np.asarray(attention_mask) > 0, axis=(1, 2))


@wrong("padding_mask_from_attention_mask", "inverted")
def padding_true_on_pads(attention_mask):
    return (attention_mask == 0)[:, None, None, :]


@wrong("padding_mask_from_attention_mask", "inverted")
def padding_logical_not(attention_mask):
    return np.logical_not(attention_mask)[:, None, None, :]


@wrong("padding_mask_from_attention_mask", "queries_axis")
def padding_on_queries(attention_mask):
    return attention_mask.astype(bool)[:, None, :, None]


@wrong("padding_mask_from_attention_mask", "no_singleton_axes")
def padding_flat(attention_mask):
    return attention_mask > 0


@wrong("padding_mask_from_attention_mask", "lengths_assume_right_padding")
def padding_by_lengths(attention_mask):
    n = attention_mask.shape[1]
    lengths = [int(row.sum()) for row in attention_mask]
    return np.arange(n)[None, None, None, :] < np.array(lengths)[:, None, None, None]


@wrong("padding_mask_from_attention_mask", "lengths_assume_right_padding")
def padding_with_mha(attention_mask):
    return mha.padding_mask(attention_mask.sum(axis=1).astype(int), attention_mask.shape[-1])


@wrong("padding_mask_from_attention_mask", "numbers_for_bool")
def padding_ints(attention_mask):
    return attention_mask[:, None, None, :]


# --- head_js_divergence -------------------------------------------------------------------


def _rows(weights):
    """(h, queries, n_k): every query of every leading index, head by head."""
    h, n_k = weights.shape[-3], weights.shape[-1]
    return np.moveaxis(weights, -3, 0).reshape(h, -1, n_k)


def _js_loops(weights, *, log=np.log, kind="js", guard=True, half=0.5, average_first=False,
              rows=_rows):  # fmt: skip
    """A reader's loop over pairs of heads; the keywords change one step."""
    per_head = rows(weights)
    if average_first:
        per_head = per_head.mean(1, keepdims=True)
    h = per_head.shape[0]
    out = np.zeros((h, h), dtype=weights.dtype)
    with np.errstate(all="ignore"):
        for a in range(h):
            for b in range(h):
                p, q = per_head[a], per_head[b]
                if kind == "kl":
                    out[a, b] = np.nansum(p * log(p / q), axis=-1).mean()
                    continue
                m = 0.5 * (p + q)
                if guard:
                    kl_pm = np.sum(np.where(p > 0, p * log(p / m), 0.0), axis=-1)
                    kl_qm = np.sum(np.where(q > 0, q * log(q / m), 0.0), axis=-1)
                else:
                    kl_pm, kl_qm = np.sum(p * log(p / m), -1), np.sum(q * log(q / m), -1)
                out[a, b] = np.mean(half * (kl_pm + kl_qm))
    return out


@correct("head_js_divergence")
def js_pair_loops(weights):
    return _js_loops(weights)


@correct("head_js_divergence")
def js_broadcast_xlogy(weights):
    rows = _rows(weights).astype(np.float64)
    p, q = rows[:, None], rows[None, :]  # (h, 1, Q, n_k), (1, h, Q, n_k)
    m = (p + q) / 2

    def kl(a, b):  # sum of a log(a / b), with 0 log 0 = 0
        safe = np.where(a > 0, a, 1.0)
        return np.sum(a * np.log(safe / np.where(a > 0, b, 1.0)), axis=-1)

    return (0.5 * kl(p, m) + 0.5 * kl(q, m)).mean(-1).astype(weights.dtype)


@correct("head_js_divergence")
def js_entropies(weights):
    # JS(p, q) = H(m) - (H(p) + H(q)) / 2
    rows = _rows(weights)

    def entropy(a):
        return -np.sum(a * np.log(np.where(a > 0, a, 1.0)), axis=-1)

    m = (rows[:, None] + rows[None, :]) / 2
    js = entropy(m) - (entropy(rows)[:, None] + entropy(rows)[None, :]) / 2
    return js.mean(-1)


@wrong("head_js_divergence", "kl_not_js")
def js_is_kl(weights):
    return _js_loops(weights, kind="kl")


@wrong("head_js_divergence", "bits_not_nats")
def js_in_bits(weights):
    return _js_loops(weights, log=np.log2)


@wrong("head_js_divergence", "averaged_before_js")
def js_of_mean_rows(weights):
    return _js_loops(weights, average_first=True)


@wrong("head_js_divergence", "zero_log_zero_nan")
def js_unguarded(weights):
    return _js_loops(weights, guard=False)


@wrong("head_js_divergence", "sum_not_mean")
def js_without_half(weights):
    return _js_loops(weights, half=1.0)


@wrong("head_js_divergence", "heads_axis_not_moved")
def js_plain_reshape(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    return _js_loops(weights, rows=lambda w: w.reshape(h, -1, n_k))


# --- head_ablation_scores -----------------------------------------------------------------


def _ablation(evaluate, num_layers, num_heads, rule="right"):
    ones = np.ones((num_layers, num_heads))
    base = evaluate(ones)
    result = np.empty((num_layers, num_heads))
    running = ones.copy()
    for index in np.ndindex(num_layers, num_heads):
        if rule == "cumulative":
            running[index] = 0
            gate = running
        elif rule == "keep_one":
            gate = np.zeros_like(ones)
            gate[index] = 1
        else:
            gate = ones.copy()
            gate[index] = 0
        drop = base - evaluate(gate)
        result[index] = -drop if rule == "negated" else drop
    return result


@correct("head_ablation_scores")
def ablation_ndindex(evaluate, num_layers, num_heads):
    return _ablation(evaluate, num_layers, num_heads)


@correct("head_ablation_scores")
def ablation_rows_of_eye(evaluate, num_layers, num_heads):
    full = evaluate(np.ones((num_layers, num_heads)))
    gates = 1.0 - np.eye(num_layers * num_heads)  # row i: every head but head i
    scores = [full - evaluate(g.reshape(num_layers, num_heads)) for g in gates]
    return np.array(scores).reshape(num_layers, num_heads)


@wrong("head_ablation_scores", "sign_flipped")
def ablation_negated(evaluate, num_layers, num_heads):
    return _ablation(evaluate, num_layers, num_heads, "negated")


@wrong("head_ablation_scores", "gate_not_reset")
def ablation_cumulative(evaluate, num_layers, num_heads):
    return _ablation(evaluate, num_layers, num_heads, "cumulative")


@wrong("head_ablation_scores", "gate_not_reset")
def ablation_one_gate(evaluate, num_layers, num_heads):
    gate = np.ones((num_layers, num_heads))
    full = evaluate(gate)
    scores = np.zeros_like(gate)
    for layer in range(num_layers):
        for head in range(num_heads):
            gate[layer, head] = 0
            scores[layer, head] = full - evaluate(gate)
    return scores


@wrong("head_ablation_scores", "only_head_kept")
def ablation_keep_one(evaluate, num_layers, num_heads):
    return _ablation(evaluate, num_layers, num_heads, "keep_one")


@wrong("head_ablation_scores", "score_not_drop")
def ablation_scores_without(evaluate, num_layers, num_heads):
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[layer, head] = 0
            scores[layer, head] = evaluate(gate)
    return scores


# --- written blind (issue 22, round 1): from the notebooks only, without the checks' tables ---


# blind round 1, ch10:0: MHAParams with every weight transposed and the four biases; mask = attention_mask == 1 with two singleton axes
@correct("bert_self_attention")
def bert_self_attention_mhaparams_with_every_weight_transposed_and(
    x, attention_mask, state, num_heads
):
    params = mha.MHAParams(
        w_q=state["self.query.weight"].T,
        w_k=state["self.key.weight"].T,
        w_v=state["self.value.weight"].T,
        w_o=state["output.dense.weight"].T,
        num_heads=num_heads,
        b_q=state["self.query.bias"],
        b_k=state["self.key.bias"],
        b_v=state["self.value.bias"],
        b_o=state["output.dense.bias"],
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)


# blind round 1, ch10:1: a dict comprehension over the four projections, contiguous copies of the transposes, mask from astype(bool) and np.expand_dims
@correct("bert_self_attention")
def bert_self_attention_a_dict_comprehension_over_the_four(x, attention_mask, state, num_heads):
    names = {"q": "self.query", "k": "self.key", "v": "self.value", "o": "output.dense"}
    w = {
        key: np.ascontiguousarray(np.asarray(state[f"{name}.weight"]).T)
        for key, name in names.items()
    }
    b = {key: np.array(state[f"{name}.bias"], copy=True) for key, name in names.items()}
    params = mha.MHAParams(
        w["q"], w["k"], w["v"], w["o"], num_heads, b["q"], b["k"], b["v"], b["o"]
    )
    mask = np.expand_dims(np.asarray(attention_mask).astype(bool), axis=(1, 2))
    return mha.multi_head_attention(x, x, x, params, mask=mask)


# blind round 1, ch10:2: multiply by nn.Linear's weights directly (x @ W.T + b, as BERT does) and hand only the attention core to mha.scaled_dot_product_attention
@correct("bert_self_attention")
def bert_self_attention_multiply_by_nn_linear_s_weights(x, attention_mask, state, num_heads):
    def linear(inp, name):
        return inp @ state[name + ".weight"].T + state[name + ".bias"]

    q = mha.split_heads(linear(x, "self.query"), num_heads)
    k = mha.split_heads(linear(x, "self.key"), num_heads)
    v = mha.split_heads(linear(x, "self.value"), num_heads)
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
    heads, weights = mha.scaled_dot_product_attention(q, k, v, mask)
    return linear(mha.merge_heads(heads), "output.dense"), weights


# blind round 1, ch10:3: uses BERT's (out, in) weights without transposing
@wrong("bert_self_attention", "weights_not_transposed")
def bert_self_attention_uses_bert_s_out_in_weights(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        state["self.query.weight"],
        state["self.key.weight"],
        state["self.value.weight"],
        state["output.dense.weight"],
        num_heads,
        state["self.query.bias"],
        state["self.key.bias"],
        state["self.value.bias"],
        state["output.dense.bias"],
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)


# blind round 1, ch10:4: mask polarity inverted: attention_mask == 0 (True at the padding)
@wrong("bert_self_attention", "mask_inverted")
def bert_self_attention_mask_polarity_inverted_attention_mask_0(
    x, attention_mask, state, num_heads
):
    params = mha.MHAParams(
        state["self.query.weight"].T,
        state["self.key.weight"].T,
        state["self.value.weight"].T,
        state["output.dense.weight"].T,
        num_heads,
        state["self.query.bias"],
        state["self.key.bias"],
        state["self.value.bias"],
        state["output.dense.bias"],
    )
    mask = (np.asarray(attention_mask) == 0)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)


# blind round 1, ch10:5: mask with the singleton axes in the wrong place, (B, 1, n, 1): hides padded queries, not padded keys
@wrong("bert_self_attention", "mask_on_queries")
def bert_self_attention_mask_with_the_singleton_axes_in(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        state["self.query.weight"].T,
        state["self.key.weight"].T,
        state["self.value.weight"].T,
        state["output.dense.weight"].T,
        num_heads,
        state["self.query.bias"],
        state["self.key.bias"],
        state["self.value.bias"],
        state["output.dense.bias"],
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, :, None]
    return mha.multi_head_attention(x, x, x, params, mask)


# blind round 1, ch10:6: forgets the mask: padded sentences attend their padding
@wrong("bert_self_attention", "mask_ignored")
def bert_self_attention_forgets_the_mask_padded_sentences_attend(
    x, attention_mask, state, num_heads
):
    params = mha.MHAParams(
        state["self.query.weight"].T,
        state["self.key.weight"].T,
        state["self.value.weight"].T,
        state["output.dense.weight"].T,
        num_heads,
        state["self.query.bias"],
        state["self.key.bias"],
        state["self.value.bias"],
        state["output.dense.bias"],
    )
    return mha.multi_head_attention(x, x, x, params)


# blind round 1, ch10:7: leaves out the biases
@wrong("bert_self_attention", "biases_forgotten")
def bert_self_attention_leaves_out_the_biases(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        state["self.query.weight"].T,
        state["self.key.weight"].T,
        state["self.value.weight"].T,
        state["output.dense.weight"].T,
        num_heads,
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)


# blind round 1, ch10:8: transposes W^Q, W^K, W^V but not output.dense.weight
@wrong("bert_self_attention", "output_not_transposed")
def bert_self_attention_transposes_w_q_w_k_w(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        state["self.query.weight"].T,
        state["self.key.weight"].T,
        state["self.value.weight"].T,
        state["output.dense.weight"],
        num_heads,
        state["self.query.bias"],
        state["self.key.bias"],
        state["self.value.bias"],
        state["output.dense.bias"],
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)


# blind round 1, ch10:9: modifies `state` in place: a second call transposes again
@wrong("bert_self_attention", None)
def bert_self_attention_right_result_but_transposes_the_weights(
    x, attention_mask, state, num_heads
):
    for name in ("self.query", "self.key", "self.value", "output.dense"):
        state[name + ".weight"] = state[name + ".weight"].T
    params = mha.MHAParams(
        state["self.query.weight"],
        state["self.key.weight"],
        state["self.value.weight"],
        state["output.dense.weight"],
        num_heads,
        state["self.query.bias"],
        state["self.key.bias"],
        state["self.value.bias"],
        state["output.dense.bias"],
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)


# blind round 1, ch10:10: an int mask where a boolean one is expected (mha raises TypeError for it)
@wrong("bert_self_attention", None)
def bert_self_attention_passes_the_0_1_integer_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        state["self.query.weight"].T,
        state["self.key.weight"].T,
        state["self.value.weight"].T,
        state["output.dense.weight"].T,
        num_heads,
        state["self.query.bias"],
        state["self.key.bias"],
        state["self.value.bias"],
        state["output.dense.bias"],
    )
    return mha.multi_head_attention(x, x, x, params, attention_mask[:, None, None, :])


# blind round 1, ch10:11: (attention_mask == 1)[:, None, None, :]
@correct("padding_mask_from_attention_mask")
def padding_mask_from_attention_mask_attention_mask_1_none_none(attention_mask):
    return (np.asarray(attention_mask) == 1)[:, None, None, :]


# blind round 1, ch10:12: astype(bool) and a reshape to (B, 1, 1, n)
@correct("padding_mask_from_attention_mask")
def padding_mask_from_attention_mask_astype_bool_and_a_reshape_to(attention_mask):
    m = np.asarray(attention_mask).astype(bool)
    return m.reshape(m.shape[0], 1, 1, m.shape[1])


# blind round 1, ch10:13: np.not_equal with 0 and np.expand_dims on axes 1 and 2
@correct("padding_mask_from_attention_mask")
def padding_mask_from_attention_mask_np_not_equal_with_0_and(attention_mask):
    return np.expand_dims(np.not_equal(attention_mask, 0), axis=(1, 2))


# blind round 1, ch10:14: counts the ones as lengths and builds a right-padding mask: wrong for left padding
@wrong("padding_mask_from_attention_mask", "lengths_assume_right_padding")
def padding_mask_from_attention_mask_counts_the_ones_as_lengths_and(attention_mask):
    am = np.asarray(attention_mask)
    return mha.padding_mask(am.sum(axis=1), am.shape[1])


# blind round 1, ch10:15: polarity inverted: True at the padding (attention_mask == 0)
@wrong("padding_mask_from_attention_mask", "inverted")
def padding_mask_from_attention_mask_polarity_inverted_true_at_the_padding(attention_mask):
    return (np.asarray(attention_mask) == 0)[:, None, None, :]


# blind round 1, ch10:16: returns (B, n) without the singleton axes
@wrong("padding_mask_from_attention_mask", "no_singleton_axes")
def padding_mask_from_attention_mask_returns_b_n_without_the_singleton(attention_mask):
    return np.asarray(attention_mask) == 1


# blind round 1, ch10:17: shape (B, 1, n, 1): masks queries instead of keys
@wrong("padding_mask_from_attention_mask", "queries_axis")
def padding_mask_from_attention_mask_shape_b_1_n_1_masks(attention_mask):
    return (np.asarray(attention_mask) == 1)[:, None, :, None]


# blind round 1, ch10:18: finds the first 0 with argmin as the length: a sentence without padding gets length 0 (argmin of all ones is 0), and left padding is wrong
@wrong("padding_mask_from_attention_mask", "argmin_length")
def padding_mask_from_attention_mask_finds_the_first_0_with_argmin(attention_mask):
    am = np.asarray(attention_mask)
    lengths = am.argmin(axis=1)
    return (np.arange(am.shape[1])[None, :] < lengths[:, None])[:, None, None, :]


# blind round 1, ch10:19: broadcast every pair of heads (h, h, ...), KL terms with np.where for 0 ln 0, mean over queries and leading axes
@correct("head_js_divergence", drift=True)
def head_js_divergence_broadcast_every_pair_of_heads_h(weights):
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)  # (h, ..., n_q, n_k)
    h = w.shape[0]
    w = w.reshape(h, -1, w.shape[-1])  # (h, rows, n_k)
    p = w[:, None]
    q = w[None, :]
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        kl_p = np.where(p > 0, p * np.log(p / m), 0.0).sum(-1)
        kl_q = np.where(q > 0, q * np.log(q / m), 0.0).sum(-1)
    return (0.5 * (kl_p + kl_q)).mean(axis=-1)


# blind round 1, ch10:20: entropy form JS = H(m) - (H(p) + H(q)) / 2, loop over pairs, symmetric fill
def _entropy_head_js_divergence_entropy_form_js_h_m_h(p):
    with np.errstate(divide="ignore", invalid="ignore"):
        return -np.where(p > 0, p * np.log(p), 0.0).sum(-1)


@correct("head_js_divergence", drift=True)
def head_js_divergence_entropy_form_js_h_m_h(weights):
    w = np.asarray(weights, dtype=np.float64)
    h = w.shape[-3]
    rows = [w[..., a, :, :].reshape(-1, w.shape[-1]) for a in range(h)]
    out = np.zeros((h, h))
    for a in range(h):
        for b in range(a + 1, h):
            m = (rows[a] + rows[b]) / 2
            js = (
                _entropy_head_js_divergence_entropy_form_js_h_m_h(m)
                - (
                    _entropy_head_js_divergence_entropy_form_js_h_m_h(rows[a])
                    + _entropy_head_js_divergence_entropy_form_js_h_m_h(rows[b])
                )
                / 2
            )
            out[a, b] = out[b, a] = js.mean()
    return out


# blind round 1, ch10:21: scipy.special.rel_entr (which defines 0 ln 0 = 0) for both KL terms
@correct("head_js_divergence", drift=True)
def head_js_divergence_scipy_special_rel_entr_which_defines(weights):
    from scipy.special import rel_entr  # here, not at the top: Pyodide has no SciPy

    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h = w.shape[0]
    w = w.reshape(h, -1, w.shape[-1])
    out = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            m = 0.5 * (w[a] + w[b])
            out[a, b] = (0.5 * rel_entr(w[a], m).sum(-1) + 0.5 * rel_entr(w[b], m).sum(-1)).mean()
    return out


# blind round 1, ch10:22: uses log2: the divergence in bits (between 0 and 1) instead of nats
@wrong("head_js_divergence", "bits_not_nats")
def head_js_divergence_uses_log2_the_divergence_in_bits(weights):
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h = w.shape[0]
    w = w.reshape(h, -1, w.shape[-1])
    p, q = w[:, None], w[None, :]
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        kl_p = np.where(p > 0, p * np.log2(p / m), 0.0).sum(-1)
        kl_q = np.where(q > 0, q * np.log2(q / m), 0.0).sum(-1)
    return (0.5 * (kl_p + kl_q)).mean(axis=-1)


# blind round 1, ch10:23: no 0 ln 0 guard: rows with exact zeros give nan
@wrong("head_js_divergence", "zero_log_zero_nan")
def head_js_divergence_no_0_ln_0_guard_rows(weights):
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h = w.shape[0]
    w = w.reshape(h, -1, w.shape[-1])
    p, q = w[:, None], w[None, :]
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        js = 0.5 * (p * np.log(p / m)).sum(-1) + 0.5 * (q * np.log(q / m)).sum(-1)
    return js.mean(axis=-1)


# blind round 1, ch10:24: forgets the factors 1/2: KL(p||m) + KL(q||m), twice the divergence
@wrong("head_js_divergence", "sum_not_mean")
def head_js_divergence_forgets_the_factors_1_2_kl(weights):
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h = w.shape[0]
    w = w.reshape(h, -1, w.shape[-1])
    p, q = w[:, None], w[None, :]
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        kl_p = np.where(p > 0, p * np.log(p / m), 0.0).sum(-1)
        kl_q = np.where(q > 0, q * np.log(q / m), 0.0).sum(-1)
    return (kl_p + kl_q).mean(axis=-1)


# blind round 1, ch10:25: symmetrised KL between p and q directly, (KL(p||q) + KL(q||p)) / 2: infinite when a key has weight 0 in one head only
@wrong("head_js_divergence", "symmetric_kl")
def head_js_divergence_symmetrised_kl_between_p_and_q(weights):
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h = w.shape[0]
    w = w.reshape(h, -1, w.shape[-1])
    p, q = w[:, None], w[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        kl_pq = np.where(p > 0, p * np.log(p / q), 0.0).sum(-1)
        kl_qp = np.where(q > 0, q * np.log(q / p), 0.0).sum(-1)
    return (0.5 * (kl_pq + kl_qp)).mean(axis=-1)


# blind round 1, ch10:26: scipy.spatial.distance.jensenshannon returns the JS *distance* (the square root of the divergence)
@wrong("head_js_divergence", "js_distance")
def head_js_divergence_scipy_spatial_distance_jensenshannon_returns_the(weights):
    from scipy.spatial.distance import jensenshannon  # here: Pyodide has no SciPy

    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h = w.shape[0]
    w = w.reshape(h, -1, w.shape[-1])
    out = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            out[a, b] = np.mean(jensenshannon(w[a], w[b], axis=-1))
    return out


# blind round 1, ch10:27: averages over the keys instead of summing inside each KL
@wrong("head_js_divergence", "times:1/n_k")
def head_js_divergence_averages_over_the_keys_instead_of(weights):
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h = w.shape[0]
    w = w.reshape(h, -1, w.shape[-1])
    p, q = w[:, None], w[None, :]
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = 0.5 * np.where(p > 0, p * np.log(p / m), 0.0) + 0.5 * np.where(
            q > 0, q * np.log(q / m), 0.0
        )
    return terms.mean(axis=(-2, -1))


# blind round 1, ch10:28: assumes 4-D input and takes heads from axis 1: wrong for (h, n_q, n_k) or two leading axes
@wrong("head_js_divergence", "batch_axes")
def head_js_divergence_assumes_4_d_input_and_takes(weights):
    w = np.asarray(weights, dtype=np.float64)
    h = w.shape[1]
    out = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            p, q = w[:, a], w[:, b]
            m = (p + q) / 2
            with np.errstate(divide="ignore", invalid="ignore"):
                js = 0.5 * np.where(p > 0, p * np.log(p / m), 0).sum(-1) + 0.5 * np.where(
                    q > 0, q * np.log(q / m), 0
                ).sum(-1)
            out[a, b] = js.mean()
    return out


# blind round 1, ch10:29: base = evaluate(ones); for each head a fresh gate with one 0
@correct("head_ablation_scores")
def head_ablation_scores_base_evaluate_ones_for_each_head(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    scores = np.zeros((num_layers, num_heads), dtype=np.float64)
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[layer, head] = 0.0
            scores[layer, head] = base - evaluate(gate)
    return scores


# blind round 1, ch10:30: np.ndindex over the gate's shape, each gate a copy of the all-ones gate
@correct("head_ablation_scores")
def head_ablation_scores_np_ndindex_over_the_gate_s(evaluate, num_layers, num_heads):
    ones = np.ones((num_layers, num_heads), dtype=np.float64)
    base = float(evaluate(ones.copy()))
    out = np.empty_like(ones)
    for idx in np.ndindex(ones.shape):
        gate = ones.copy()
        gate[idx] = 0
        out[idx] = base - float(evaluate(gate))
    return out


# blind round 1, ch10:31: the gates as rows of 1 - identity over the flattened heads, reshaped back
@correct("head_ablation_scores")
def head_ablation_scores_the_gates_as_rows_of_1(evaluate, num_layers, num_heads):
    total = num_layers * num_heads
    base = evaluate(np.ones((num_layers, num_heads)))
    gates = 1.0 - np.eye(total)
    drops = [base - evaluate(g.reshape(num_layers, num_heads).copy()) for g in gates]
    return np.asarray(drops, dtype=np.float64).reshape(num_layers, num_heads)


# blind round 1, ch10:32: reuses one gate without resetting it: heads are removed cumulatively
@wrong("head_ablation_scores", "gate_not_reset")
def head_ablation_scores_reuses_one_gate_without_resetting_it(evaluate, num_layers, num_heads):
    gate = np.ones((num_layers, num_heads))
    base = evaluate(gate.copy())
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate[layer, head] = 0.0
            scores[layer, head] = base - evaluate(gate.copy())
    return scores


# blind round 1, ch10:33: sign flipped: evaluate(gate) - base (a rise instead of a drop)
@wrong("head_ablation_scores", "sign_flipped")
def head_ablation_scores_sign_flipped_evaluate_gate_base_a(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[layer, head] = 0.0
            scores[layer, head] = evaluate(gate) - base
    return scores


# blind round 1, ch10:34: keeps only the one head (gate of zeros with a single 1) instead of removing it
@wrong("head_ablation_scores", "only_head_kept")
def head_ablation_scores_keeps_only_the_one_head_gate(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.zeros((num_layers, num_heads))
            gate[layer, head] = 1.0
            scores[layer, head] = base - evaluate(gate)
    return scores


# blind round 1, ch10:35: builds the gate as (num_heads, num_layers) and indexes it [head, layer]
@wrong("head_ablation_scores", "gate_transposed")
def head_ablation_scores_builds_the_gate_as_num_heads(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_heads, num_layers)))
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.ones((num_heads, num_layers))
            gate[head, layer] = 0.0
            scores[layer, head] = base - evaluate(gate)
    return scores


# blind round 1, ch10:36: returns the relative drop (base - s) / base
@wrong("head_ablation_scores", "relative_drop")
def head_ablation_scores_returns_the_relative_drop_base_s(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[layer, head] = 0.0
            scores[layer, head] = (base - evaluate(gate)) / base
    return scores


# blind round 1, ch10:37: passes one mutable array to every call and mutates it after the call
@correct("head_ablation_scores")
def head_ablation_scores_right_drops_but_hands_evaluate_the(evaluate, num_layers, num_heads):
    gate = np.ones((num_layers, num_heads))
    base = evaluate(gate)
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate[layer, head] = 0.0
            scores[layer, head] = base - evaluate(gate)
            gate[layer, head] = 1.0
    return scores


# --- predict_sink_previous_divergence: predictions as readers make them -----------------------


@predicted("predict_sink_previous_divergence", None)
def predicted_seven_eighths_of_ln_2():
    return 0.61


@predicted("predict_sink_previous_divergence", "always_apart")
def predicted_ln_2():
    return 0.693


@predicted("predict_sink_previous_divergence", "in_bits")
def predicted_one_bit():
    return 1


@predicted("predict_sink_previous_divergence", "half")
def predicted_halfway():
    return 0.5


# --- heads_per_feature ----------------------------------------------------------------------


@correct("heads_per_feature")
def heads_per_feature_moveaxis(contributions):
    h, d = contributions.shape[-3], contributions.shape[-1]
    flat = np.moveaxis(contributions, -3, 0).reshape(h, -1, d).astype(np.float64)
    s = flat.var(axis=1)
    return s.sum(0) ** 2 / (s**2).sum(0)


@correct("heads_per_feature")
def heads_per_feature_loop_over_heads(contributions):
    x = np.asarray(contributions, dtype=np.float64)
    variances = []
    for a in range(x.shape[-3]):
        rows = x[..., a, :, :].reshape(-1, x.shape[-1])  # (tokens, d)
        centred = rows - rows.mean(axis=0)
        variances.append((centred**2).mean(axis=0))
    s = np.stack(variances)
    return np.sum(s, axis=0) ** 2 / np.sum(s * s, axis=0)


@wrong("heads_per_feature", "second_moment")
def heads_per_feature_mean_square(contributions):
    h, d = contributions.shape[-3], contributions.shape[-1]
    flat = np.moveaxis(contributions, -3, 0).reshape(h, -1, d).astype(np.float64)
    energy = (flat**2).mean(axis=1)  # the size of what each head writes
    return energy.sum(0) ** 2 / (energy**2).sum(0)


@wrong("heads_per_feature", "standard_deviation")
def heads_per_feature_std(contributions):
    h, d = contributions.shape[-3], contributions.shape[-1]
    s = np.moveaxis(contributions, -3, 0).reshape(h, -1, d).astype(np.float64).std(1)
    return s.sum(0) ** 2 / (s**2).sum(0)


@wrong("heads_per_feature", "share_of_largest")
def heads_per_feature_over_the_largest(contributions):
    h, d = contributions.shape[-3], contributions.shape[-1]
    s = np.moveaxis(contributions, -3, 0).reshape(h, -1, d).astype(np.float64).var(1)
    return s.sum(0) / s.max(0)


@wrong("heads_per_feature", "heads_axis_not_moved")
def heads_per_feature_reshape_only(contributions):
    h, d = contributions.shape[-3], contributions.shape[-1]
    s = contributions.reshape(h, -1, d).astype(np.float64).var(1)
    return s.sum(0) ** 2 / (s**2).sum(0)


# recurring in the held-out rounds (development data)
@wrong("bert_self_attention", "mask_from_lengths")
def bert_mask_from_the_count_of_real_tokens(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        state["self.query.weight"].T, state["self.key.weight"].T, state["self.value.weight"].T,
        state["output.dense.weight"].T, num_heads, state["self.query.bias"],
        state["self.key.bias"], state["self.value.bias"], state["output.dense.bias"],
    )  # fmt: skip
    real_tokens = np.count_nonzero(attention_mask, axis=1)
    mask = mha.padding_mask(real_tokens, x.shape[1])
    return mha.multi_head_attention(x, x, x, params, mask)


@wrong("heads_per_feature", "per_example")
def heads_per_feature_variances_per_sentence(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    variances = c.reshape(-1, h, c.shape[-2], d).var(axis=2).mean(axis=0)  # (h, d)
    return variances.sum(axis=0) ** 2 / np.square(variances).sum(axis=0)
