"""Solutions to the exercises of chapter 6, the PyTorch variant."""

import math

import torch


def module_forward(module, q, k, v, mask=None):
    """MultiHead(q, k, v) with ``module``'s weights (paper layout): (out, weights)."""
    h = module.num_heads

    def project(x, w, b):
        return x @ w if b is None else x @ w + b  # paper layout: x @ W, not x @ W.T

    def split_heads(x):  # (..., n, h*d) -> (..., h, n, d)
        *batch, n, features = x.shape
        return x.reshape(*batch, n, h, features // h).transpose(-3, -2)

    q_heads = split_heads(project(q, module.w_q, module.b_q))  # (..., h, n_q, d_k)
    k_heads = split_heads(project(k, module.w_k, module.b_k))  # (..., h, n_k, d_k)
    v_heads = split_heads(project(v, module.w_v, module.b_v))  # (..., h, n_k, d_v)
    scores = (
        q_heads @ k_heads.transpose(-2, -1) / math.sqrt(module.d_k)
    )  # (..., h, n_q, n_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))  # True = may attend
    weights = torch.softmax(scores, dim=-1)
    if (
        mask is not None
    ):  # a query that may attend no key gets zeros (its row would be NaN)
        weights = weights.masked_fill(~mask.any(dim=-1, keepdim=True), 0.0)
    heads = weights @ v_heads  # (..., h, n_q, d_v)
    *batch, _, n_q, d_v = heads.shape
    concat = heads.transpose(-3, -2).reshape(*batch, n_q, h * d_v)  # (..., n_q, h*d_v)
    return project(concat, module.w_o, module.b_o), weights


def params_from_torch(torch_mha):
    """An nn.MultiheadAttention's weights as an mha.MHAParams, in the paper's layout."""
    import mha

    d = torch_mha.embed_dim
    w = (
        torch_mha.in_proj_weight.detach().numpy()
    )  # (3 d, d): W_q, W_k, W_v stacked, (out, in)
    w_q, w_k, w_v = (w[i * d : (i + 1) * d].T for i in range(3))  # transposed: x @ w
    w_o = torch_mha.out_proj.weight.detach().numpy().T
    biases = {}
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().numpy()
        biases = {"b_q": b[:d], "b_k": b[d : 2 * d], "b_v": b[2 * d :]}
        biases["b_o"] = torch_mha.out_proj.bias.detach().numpy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, **biases)


def attention_backward(q, k, v, grad_out):
    """(grad_q, grad_k, grad_v) of sum(out * grad_out), out = softmax(q k^T/√d_k) v."""
    import numpy as np

    scale = 1 / math.sqrt(q.shape[-1])
    scores = q @ np.swapaxes(k, -1, -2) * scale  # (..., n_q, n_k)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)  # the weights
    grad_v = np.swapaxes(p, -1, -2) @ grad_out  # out = p v  ->  (..., n_k, d_v)
    grad_p = grad_out @ np.swapaxes(v, -1, -2)  # (..., n_q, n_k)
    # Each row's softmax has Jacobian diag(p) - p p^T:
    grad_s = p * (grad_p - np.sum(grad_p * p, axis=-1, keepdims=True))
    grad_q = grad_s @ k * scale  # scores = q k^T * scale
    grad_k = np.swapaxes(grad_s, -1, -2) @ q * scale
    return grad_q, grad_k, grad_v


def torch_key_padding_mask(mask):
    """mha.padding_mask's (B, 1, 1, n_k) tensor (True = real key) as torch's
    key_padding_mask: (B, n_k), True = a pad to skip."""
    return ~mask[:, 0, 0, :]


def predict_sdpa_causal_keys():
    """A prediction: the keys the last of 2 new queries reads, is_causal, 6 keys."""
    # is_causal builds the lower triangle from the top-left corner, like
    # torch.ones(2, 6).tril(): query i reads keys 0..i, so the last new query reads
    # 2 keys, not the 6 that the bottom-right mask of a KV cache allows.
    return 2
