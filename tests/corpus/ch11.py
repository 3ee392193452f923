"""Chapter 11: BERT's self-attention with mha, the padding mask from an attention_mask, the
Jensen-Shannon divergence between heads, importance by ablation."""

import math

import numpy as np

import mha
from corpus import correct, wrong

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


@wrong("padding_mask_from_attention_mask", None)
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
