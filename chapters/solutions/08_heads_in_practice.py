"""Solutions to the exercises of chapter 8, heads in practice."""

import numpy as np

import mha


def head_similarity(per_head):
    """(..., h, n, f) -> (h, h): cosine similarity of the heads' flattened blocks."""
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)  # one row per head, batch included
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit = vectors / np.maximum(norms, 1e-12)  # a pruned (all-zero) head stays all zero
    return unit @ unit.T


def attention_without_head(x, params, head):
    """Self-attention of x with head `head` removed: its rows of W^O set to zero (on a copy)."""
    w_o = params.w_o.copy()  # never change the caller's weights
    w_o[head * params.d_v : (head + 1) * params.d_v] = 0.0  # head i meets rows i*d_v:(i+1)*d_v
    pruned = mha.MHAParams(
        params.w_q, params.w_k, params.w_v, w_o, params.num_heads,
        params.b_q, params.b_k, params.b_v, params.b_o,
    )  # fmt: skip
    out, _ = mha.multi_head_attention(x, x, x, pruned)
    return out


def gate_importance(contributions, grad_out):
    """Michel et al.'s importance of each head: the mean over examples of |dL/dg_a|.

    The output is sum_a g_a * contribution_a, so dL/dg_a = <grad_out, contribution_a>.
    """
    gate_grads = np.einsum("bnd,band->ba", grad_out, contributions)  # (B, h): one per example
    return np.abs(gate_grads).mean(axis=0)  # (h,): |.| per example, then the mean


def diversity_penalty(weights):
    """The redundancy of (..., h, n, n) attention maps: mean cosine similarity of distinct heads."""
    similarity = head_similarity(weights)  # (h, h), ones on the diagonal
    h = similarity.shape[0]
    return float(similarity[~np.eye(h, dtype=bool)].mean())  # off the diagonal only


def moh_gates(scores, top_k):
    """Mixture-of-Head gates: h * softmax(scores) on each token's top_k heads, 0 elsewhere."""
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)  # over all h heads, not renormalised
    kth_largest = np.sort(scores, axis=-1)[..., -top_k, None]  # (..., n, 1)
    return h * probs * (scores >= kth_largest)
