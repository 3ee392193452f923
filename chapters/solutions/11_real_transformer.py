"""Solutions to the exercises of chapter 11, the heads of a real Transformer."""

import numpy as np

import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    """One BERT layer's self-attention (before residual and LayerNorm) with mha."""
    params = mha.MHAParams(
        w_q=state[
            "self.query.weight"
        ].T,  # nn.Linear stores (out, in): transpose to x @ W
        w_k=state["self.key.weight"].T,
        w_v=state["self.value.weight"].T,
        w_o=state["output.dense.weight"].T,  # output.dense is W^O
        num_heads=num_heads,
        b_q=state["self.query.bias"],
        b_k=state["self.key.bias"],
        b_v=state["self.value.bias"],
        b_o=state["output.dense.bias"],
    )
    mask = (attention_mask == 1)[:, None, None, :]  # (B, 1, 1, n): True = a real key
    return mha.multi_head_attention(x, x, x, params, mask)


def padding_mask_from_attention_mask(attention_mask):
    """(B, n) of 1 (real) and 0 (padding) -> bool (B, 1, 1, n), True = may attend."""
    return (np.asarray(attention_mask) == 1)[:, None, None, :]


def head_js_divergence(weights):
    """(..., h, n_q, n_k) -> (h, h): Jensen-Shannon divergence (nats), query mean."""
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k)  # (h, queries, n_k)
    p, q = rows[:, None], rows[None, :]  # (h, 1, queries, n_k) and (1, h, queries, n_k)
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        kl_p = np.where(p > 0, p * np.log(p / m), 0.0).sum(-1)  # 0 log 0 = 0
        kl_q = np.where(q > 0, q * np.log(q / m), 0.0).sum(-1)
    return ((kl_p + kl_q) / 2).mean(-1)  # (h, h)


def head_ablation_scores(evaluate, num_layers, num_heads):
    """(num_layers, num_heads): how much evaluate(gate) drops without each head."""
    full = evaluate(np.ones((num_layers, num_heads)))
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.ones((num_layers, num_heads))  # a fresh gate for every head
            gate[layer, head] = 0.0
            scores[layer, head] = full - evaluate(gate)
    return scores


def predict_sink_previous_divergence():
    """A prediction: JS (nats), a sink against a previous-token head, 8 word queries."""
    # Each query's two rows are one-hot: on different keys JS is ln 2, on the same key
    # 0. The first word's previous token is [CLS], where the sink looks as well: 0
    # there, and ln 2 at the other seven word queries. The mean is 7/8 ln 2.
    return 7 / 8 * np.log(2)


def heads_per_feature(contributions):
    """(..., h, n, d) -> (d,): the participation ratio of the heads' variances."""
    x = np.asarray(contributions, dtype=np.float64)
    h, d_model = x.shape[-3], x.shape[-1]
    flat = np.moveaxis(x, -3, 0).reshape(h, -1, d_model)  # (h, tokens, d_model)
    spread = flat.var(
        axis=1
    )  # (h, d_model): what each head says, its constant left out
    return spread.sum(0) ** 2 / (spread**2).sum(0)  # 1 (one head) to h (all alike)
