"""Solutions to the exercises of chapter 6, the PyTorch variant."""

import math

import torch


def module_forward(module, q, k, v, mask=None):
    """MultiHead(q, k, v) with the weights of ``module`` (paper layout): (out, weights)."""
    h = module.num_heads

    def project(x, w, b):
        return x @ w if b is None else x @ w + b  # paper layout: x @ W, not x @ W.T

    def split_heads(x):  # (..., n, h*d) -> (..., h, n, d)
        *batch, n, features = x.shape
        return x.reshape(*batch, n, h, features // h).transpose(-3, -2)

    q_heads = split_heads(project(q, module.w_q, module.b_q))  # (..., h, n_q, d_k)
    k_heads = split_heads(project(k, module.w_k, module.b_k))  # (..., h, n_k, d_k)
    v_heads = split_heads(project(v, module.w_v, module.b_v))  # (..., h, n_k, d_v)
    scores = q_heads @ k_heads.transpose(-2, -1) / math.sqrt(module.d_k)  # (..., h, n_q, n_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))  # True = may attend
    weights = torch.softmax(scores, dim=-1)
    heads = weights @ v_heads  # (..., h, n_q, d_v)
    *batch, _, n_q, d_v = heads.shape
    concat = heads.transpose(-3, -2).reshape(*batch, n_q, h * d_v)  # (..., n_q, h*d_v)
    return project(concat, module.w_o, module.b_o), weights
