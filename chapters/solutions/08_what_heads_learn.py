"""Solutions to the exercises of chapter 8, what heads learn."""

import numpy as np

import mha


def head_similarity(per_head):
    """(..., h, n, f) -> (h, h): cosine similarity of the heads' flattened blocks."""
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(
        h, -1
    )  # one row per head, batch included
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit = vectors / np.maximum(norms, 1e-12)  # a pruned (all-zero) head stays all zero
    return unit @ unit.T


def attention_without_head(x, params, head):
    """Self-attention of x without head `head`: its rows of W^O zeroed (on a copy)."""
    w_o = params.w_o.copy()  # never change the caller's weights
    w_o[head * params.d_v : (head + 1) * params.d_v] = (
        0.0  # head i meets rows i*d_v:(i+1)*d_v
    )
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
    gate_grads = np.einsum(
        "bnd,band->ba", grad_out, contributions
    )  # (B, h): one per example
    return np.abs(gate_grads).mean(axis=0)  # (h,): |.| per example, then the mean


def predict_broad_maps_similarity():
    """A prediction: the cosine similarity of two gently tilted maps, opposite ends."""
    # Weights are never negative, and with the first key only 1.7 times the last both
    # maps are close to uniform 1/12: their cosine is near 1 (0.94), opposite as they
    # are.
    return 0.9


def tilt_experiment():
    """TILT = 0.5: the similarity of the two maps that prefer opposite ends."""
    # The first key now weighs e^(0.5 * 11), about 245 times the last: each map sits
    # near its own end and the two share little weight, so their cosine falls to about
    # 0.03. Only peaked maps can look different; broad ones look alike, whatever they
    # prefer.
    return (0.5, 0.03)
