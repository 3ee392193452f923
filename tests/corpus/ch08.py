"""Chapter 8: head similarity, pruning a head, gate importance."""

import numpy as np
import torch

import mha
from corpus import correct, wrong

# --- head_similarity ----------------------------------------------------------------------


@correct("head_similarity")
def similarity_loop(per_head):
    heads = [np.moveaxis(per_head, -3, 0)[i].ravel() for i in range(per_head.shape[-3])]
    units = [a / max(np.linalg.norm(a), 1e-12) for a in heads]
    return np.array([[a @ b for b in units] for a in units])


@correct("head_similarity")
def similarity_like_analysis(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit = np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
    return unit @ unit.T


@wrong("head_similarity", "not_normalised")
def similarity_gram(per_head):
    vectors = np.moveaxis(per_head, -3, 0).reshape(per_head.shape[-3], -1)
    return vectors @ vectors.T


@wrong("head_similarity", "heads_axis_not_moved")
def similarity_plain_reshape(per_head):
    vectors = per_head.reshape(per_head.shape[-3], -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    return unit @ unit.T


@wrong("head_similarity", "zero_head_nan")
def similarity_unguarded(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    norms = np.sqrt((vectors**2).sum(axis=1))
    return (vectors @ vectors.T) / np.outer(norms, norms)


# --- attention_without_head ---------------------------------------------------------------


def _replace(params, **changes):
    arrays = {
        n: getattr(params, n) for n in ("w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o")
    }
    return mha.MHAParams(num_heads=params.num_heads, **(arrays | changes))


def _zeroed(a, index):
    a = a.copy()
    a[index] = 0.0
    return a


@correct("attention_without_head")
def without_head_rows_of_w_o(x, params, head):
    rows = slice(head * params.d_v, (head + 1) * params.d_v)
    return mha.multi_head_attention(x, x, x, _replace(params, w_o=_zeroed(params.w_o, rows)))[0]


@correct("attention_without_head")
def without_head_values_and_bias(x, params, head):
    cols = slice(head * params.d_v, (head + 1) * params.d_v)
    changes = {"w_v": _zeroed(params.w_v, (slice(None), cols))}
    if params.b_v is not None:
        changes["b_v"] = _zeroed(params.b_v, cols)
    return mha.multi_head_attention(x, x, x, _replace(params, **changes))[0]


@correct("attention_without_head")
def without_head_by_subtraction(x, params, head):
    out, _ = mha.multi_head_attention(x, x, x, _replace(params, b_o=None))
    rows = slice(head * params.d_v, (head + 1) * params.d_v)
    only_head = _replace(params, w_o=params.w_o - _zeroed(params.w_o, rows), b_o=None)
    out = out - mha.multi_head_attention(x, x, x, only_head)[0]
    return out if params.b_o is None else out + params.b_o


@wrong("attention_without_head", "queries_zeroed")
def without_head_queries(x, params, head):
    qk = slice(head * params.d_k, (head + 1) * params.d_k)
    changes = {"w_q": _zeroed(params.w_q, (slice(None), qk))}
    if params.b_q is not None:
        changes["b_q"] = _zeroed(params.b_q, qk)
    return mha.multi_head_attention(x, x, x, _replace(params, **changes))[0]


@wrong("attention_without_head", "columns_of_w_o")
def without_head_columns(x, params, head):
    cols = (slice(None), slice(head * params.d_v, (head + 1) * params.d_v))
    return mha.multi_head_attention(x, x, x, _replace(params, w_o=_zeroed(params.w_o, cols)))[0]


@wrong("attention_without_head", "value_bias_left")
def without_head_values_only(x, params, head):
    cols = (slice(None), slice(head * params.d_v, (head + 1) * params.d_v))
    return mha.multi_head_attention(x, x, x, _replace(params, w_v=_zeroed(params.w_v, cols)))[0]


@wrong("attention_without_head", "d_k_rows")
def without_head_d_k_rows(x, params, head):
    rows = slice(head * params.d_k, (head + 1) * params.d_k)
    return mha.multi_head_attention(x, x, x, _replace(params, w_o=_zeroed(params.w_o, rows)))[0]


# --- gate_importance ----------------------------------------------------------------------


@correct("gate_importance")
def importance_einsum(contributions, grad_out):
    grads = np.einsum("band,bnd->ba", contributions, grad_out)
    return np.mean(np.abs(grads), axis=0)


@correct("gate_importance")
def importance_with_autograd(contributions, grad_out):
    parts = torch.from_numpy(contributions)
    gate = torch.ones(parts.shape[:2], dtype=parts.dtype, requires_grad=True)  # (B, h)
    out = (gate[:, :, None, None] * parts).sum(1)  # (B, n, d_model)
    (out * torch.from_numpy(grad_out)).sum().backward()
    return gate.grad.abs().mean(0).numpy()


@correct("gate_importance")
def importance_loops(contributions, grad_out):
    batch, h = contributions.shape[:2]
    importance = np.zeros(h, dtype=contributions.dtype)
    for a in range(h):
        for b in range(batch):
            importance[a] += abs(np.sum(contributions[b, a] * grad_out[b])) / batch
    return importance


@wrong("gate_importance", "abs_after_mean")
def importance_mean_first(contributions, grad_out):
    return np.abs(np.einsum("band,bnd->ba", contributions, grad_out).mean(0))


@wrong("gate_importance", "no_abs")
def importance_signed(contributions, grad_out):
    return np.einsum("band,bnd->ba", contributions, grad_out).mean(0)


@wrong("gate_importance", "sum_over_examples")
def importance_total(contributions, grad_out):
    return np.abs(np.einsum("band,bnd->ba", contributions, grad_out)).sum(0)


@wrong("gate_importance", "abs_per_entry")
def importance_abs_everything(contributions, grad_out):
    return np.abs(contributions * grad_out[:, None]).sum(axis=(2, 3)).mean(axis=0)


@wrong("gate_importance", "abs_per_position")
def importance_per_token(contributions, grad_out):
    per_token = (contributions * grad_out[:, None]).sum(-1)  # (B, h, n)
    return np.abs(per_token).sum(-1).mean(0)
