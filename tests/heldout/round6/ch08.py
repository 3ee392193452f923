ANSWERS = [
 # ------------------------------------------------------------------ head_similarity
 {"exercise": "head_similarity", "kind": "correct",
  "idea": "double loop over pairs of heads with np.vdot and explicit zero-norm tests",
  "code": '''
import numpy as np


def head_similarity(per_head):
    per_head = np.asarray(per_head)
    h = per_head.shape[-3]
    vectors = [np.take(per_head, i, axis=-3).ravel() for i in range(h)]
    norms = [np.sqrt(np.vdot(v, v)) for v in vectors]
    sim = np.zeros((h, h), dtype=per_head.dtype)
    for i in range(h):
        for j in range(h):
            if norms[i] == 0 or norms[j] == 0:
                sim[i, j] = 0.0
            else:
                sim[i, j] = np.vdot(vectors[i], vectors[j]) / (norms[i] * norms[j])
    return sim
'''},
 {"exercise": "head_similarity", "kind": "correct",
  "idea": "Gram matrix with einsum, then divided by the outer product of the norms with np.divide(where=...)",
  "code": '''
import numpy as np


def head_similarity(per_head):
    x = np.asarray(per_head)
    h = x.shape[-3]
    flat = np.swapaxes(x.reshape(-1, h, x.shape[-2] * x.shape[-1]), 0, 1).reshape(h, -1)
    gram = np.einsum("if,jf->ij", flat, flat)
    norms = np.sqrt(np.diag(gram))
    denom = np.outer(norms, norms)
    return np.divide(gram, denom, out=np.zeros_like(gram), where=denom > 0)
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "flattens with reshape(h, -1) without first moving the heads axis to the front, so with leading batch axes each 'head' vector mixes several heads and batch elements",
  "teacher_says": "reshape(h, -1) only groups by head when heads are the first axis. Move the heads axis (-3) to the front with np.moveaxis before flattening.",
  "code": '''
import numpy as np


def head_similarity(per_head):
    h = per_head.shape[-3]
    flat = per_head.reshape(h, -1)
    norm = np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    unit = flat / norm
    return unit @ unit.T
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "normalises each feature column across heads instead of each head's vector",
  "teacher_says": "The cosine divides by the norm of each head's whole vector: take the norm along the flattened axis (axis=1), one norm per head.",
  "code": '''
import numpy as np


def head_similarity(per_head):
    h = per_head.shape[-3]
    flat = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    norm = np.maximum(np.linalg.norm(flat, axis=0, keepdims=True), 1e-12)
    unit = flat / norm
    return unit @ unit.T
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "uses the Pearson correlation (np.corrcoef), which subtracts each head's mean, instead of the cosine similarity",
  "teacher_says": "The cosine similarity does not centre the vectors. For attention weights (all positive) the two differ a lot; compute u.v / (|u| |v|) directly.",
  "code": '''
import numpy as np


def head_similarity(per_head):
    h = per_head.shape[-3]
    flat = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    sim = np.corrcoef(flat)
    return np.nan_to_num(sim)
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "computes one similarity matrix per batch element and averages them, instead of flattening each head over all leading axes",
  "teacher_says": "Each head is ONE vector made of all its blocks over the leading axes; averaging per-example cosines is a different quantity.",
  "code": '''
import numpy as np


def head_similarity(per_head):
    h, n, f = per_head.shape[-3:]
    blocks = per_head.reshape(-1, h, n * f)  # (batch, h, n*f)
    norms = np.maximum(np.linalg.norm(blocks, axis=-1, keepdims=True), 1e-12)
    unit = blocks / norms
    return (unit @ np.swapaxes(unit, -1, -2)).mean(axis=0)
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "divides the dot products by the product of the squared norms (forgets the square root)",
  "teacher_says": "cos = u.v / (|u| |v|), with |u| = sqrt(u.u); the diagonal of your matrix should be 1 for every non-zero head.",
  "code": '''
import numpy as np


def head_similarity(per_head):
    h = per_head.shape[-3]
    flat = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    dots = flat @ flat.T
    sq = np.diag(dots)
    denom = np.outer(sq, sq)
    return np.where(denom > 0, dots / np.where(denom > 0, denom, 1), 0.0)
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "multiplies the normalised matrix the wrong way round (unit.T @ unit), giving a (features x features) matrix instead of (h, h)",
  "teacher_says": "With one row per head, the matrix of all pairwise dot products is unit @ unit.T, of shape (h, h).",
  "code": '''
import numpy as np


def head_similarity(per_head):
    h = per_head.shape[-3]
    flat = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    return unit.T @ unit
'''},
 {"exercise": "head_similarity", "kind": "robustness",
  "idea": "converts to torch and calls the package's analysis.head_similarity",
  "mistake": "returns a torch tensor instead of a NumPy array (and leans on the package function the exercise asks to write)",
  "teacher_says": "The exercise asks for NumPy in and NumPy out; write the computation with NumPy and return an ndarray.",
  "code": '''
import torch

from mha import analysis


def head_similarity(per_head):
    return analysis.head_similarity(torch.as_tensor(per_head))
'''},
 # ------------------------------------------------------------------ gate_importance
 {"exercise": "gate_importance", "kind": "correct",
  "idea": "explicit loops over examples and heads with np.sum of the elementwise product",
  "code": '''
import numpy as np


def gate_importance(contributions, grad_out):
    B, h = contributions.shape[:2]
    importance = np.zeros(h, dtype=np.result_type(contributions, grad_out))
    for a in range(h):
        total = 0.0
        for b in range(B):
            total += abs(np.sum(grad_out[b] * contributions[b, a]))
        importance[a] = total / B
    return importance
'''},
 {"exercise": "gate_importance", "kind": "correct",
  "idea": "batched matrix product: contributions flattened to (B, h, n*d) times grad flattened to (B, n*d, 1)",
  "code": '''
import numpy as np


def gate_importance(contributions, grad_out):
    B, h = contributions.shape[:2]
    c = contributions.reshape(B, h, -1)
    g = grad_out.reshape(B, -1, 1)
    per_example = (c @ g)[..., 0]  # (B, h): dL(x)/dg_a
    return np.mean(np.abs(per_example), axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "takes the absolute value after averaging over the examples, so gains and losses of different examples cancel",
  "teacher_says": "Michel et al. take |dL(x)/dg_a| per example and THEN the mean: abs first, mean second.",
  "code": '''
import numpy as np


def gate_importance(contributions, grad_out):
    per_example = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(per_example.mean(axis=0))
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "takes the absolute value of every product before summing over positions and features",
  "teacher_says": "dL/dg_a is the SUM of grad_out * contribution over positions and features; only that sum's absolute value is taken.",
  "code": '''
import numpy as np


def gate_importance(contributions, grad_out):
    products = np.abs(contributions * grad_out[:, None])
    return products.sum(axis=(2, 3)).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "sums over the examples instead of averaging (the expectation E_x is a mean)",
  "teacher_says": "I_a is an expectation over examples: divide by the number of examples (take the mean, not the sum).",
  "code": '''
import numpy as np


def gate_importance(contributions, grad_out):
    per_example = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(per_example).sum(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "forgets the absolute value altogether: returns the mean signed derivative",
  "teacher_says": "The importance is the mean of |dL/dg_a|; without the absolute value positive and negative examples cancel and scores can be negative.",
  "code": '''
import numpy as np


def gate_importance(contributions, grad_out):
    dl_dg = (contributions * grad_out[:, np.newaxis, :, :]).sum(axis=(-1, -2))
    return dl_dg.mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "squares the per-example derivative (a Fisher-style score) instead of taking its absolute value",
  "teacher_says": "The formula is E|dL/dg|, not E[(dL/dg)^2]: use np.abs.",
  "code": '''
import numpy as np


def gate_importance(contributions, grad_out):
    dl_dg = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return (dl_dg ** 2).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "multiplies contributions (B, h, n, d) by grad_out (B, n, d) without inserting a heads axis, so broadcasting aligns the batch with the heads (an error, or silently wrong when B == h)",
  "teacher_says": "grad_out has no heads axis: insert one (grad_out[:, None]) so that it broadcasts over the heads, not over the batch.",
  "code": '''
import numpy as np


def gate_importance(contributions, grad_out):
    products = contributions * grad_out  # (B, h, n, d) * (B, n, d)
    return np.abs(products.sum(axis=(-2, -1))).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "robustness",
  "idea": "right formula, but computed in place in the caller's contributions array",
  "mistake": "multiplies the input array in place (contributions *= ...), so the caller's contributions are overwritten",
  "teacher_says": "Never modify the arguments: compute the product into a new array (contributions * grad_out[:, None]).",
  "code": '''
import numpy as np


def gate_importance(contributions, grad_out):
    contributions *= grad_out[:, None]
    return np.abs(contributions.sum(axis=(2, 3))).mean(axis=0)
'''},
 # ------------------------------------------------------------------ attention_without_head
 {"exercise": "attention_without_head", "kind": "correct",
  "idea": "a layer of h-1 heads: delete the head's columns of W^Q, W^K, W^V (and biases) and its rows of W^O",
  "code": '''
import numpy as np

import mha


def attention_without_head(x, params, head):
    h = params.num_heads
    d_k = params.w_q.shape[1] // h
    d_v = params.w_o.shape[0] // h
    if h == 1:  # no head left: only the output bias remains
        out = np.zeros(x.shape[:-1] + (params.w_o.shape[1],), dtype=x.dtype)
        return out if params.b_o is None else out + params.b_o
    qk_cols = np.arange(head * d_k, (head + 1) * d_k)
    v_cols = np.arange(head * d_v, (head + 1) * d_v)

    def drop(a, cols, axis):
        return None if a is None else np.delete(a, cols, axis=axis)

    smaller = mha.MHAParams(
        w_q=drop(params.w_q, qk_cols, 1), w_k=drop(params.w_k, qk_cols, 1),
        w_v=drop(params.w_v, v_cols, 1), w_o=drop(params.w_o, v_cols, 0),
        num_heads=h - 1,
        b_q=drop(params.b_q, qk_cols, 0), b_k=drop(params.b_k, qk_cols, 0),
        b_v=drop(params.b_v, v_cols, 0), b_o=params.b_o,
    )
    out, _ = mha.multi_head_attention(x, x, x, smaller)
    return out
'''},
 {"exercise": "attention_without_head", "kind": "correct",
  "idea": "full output minus the head's own term head_i W^O_i, the head computed by hand",
  "code": '''
import mha


def attention_without_head(x, params, head):
    h = params.num_heads
    d_k = params.w_q.shape[1] // h
    d_v = params.w_o.shape[0] // h
    full, _ = mha.multi_head_attention(x, x, x, params)
    qs, vs = slice(head * d_k, (head + 1) * d_k), slice(head * d_v, (head + 1) * d_v)
    q = x @ params.w_q[:, qs]
    k = x @ params.w_k[:, qs]
    v = x @ params.w_v[:, vs]
    if params.b_q is not None:
        q = q + params.b_q[qs]
    if params.b_k is not None:
        k = k + params.b_k[qs]
    if params.b_v is not None:
        v = v + params.b_v[vs]
    head_out, _ = mha.scaled_dot_product_attention(q, k, v)
    return full - head_out @ params.w_o[vs]
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "zeroes the head's columns of W^Q, which only makes its attention uniform: the head still adds the average of its values",
  "teacher_says": "Zero queries give equal scores, not a silent head. Remove the head's OUTPUT: zero its rows of W^O.",
  "code": '''
import dataclasses

import mha


def attention_without_head(x, params, head):
    d_k = params.w_q.shape[1] // params.num_heads
    w_q = params.w_q.copy()
    w_q[:, head * d_k:(head + 1) * d_k] = 0.0
    new = dataclasses.replace(params, w_q=w_q)
    return mha.multi_head_attention(x, x, x, new)[0]
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "zeroes columns of W^O (output features) instead of the head's rows",
  "teacher_says": "W^O is (h*d_v, d_model): head i enters through ROWS i*d_v:(i+1)*d_v. Zeroing columns removes output features of every head.",
  "code": '''
import dataclasses

import mha


def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    w_o = params.w_o.copy()
    w_o[:, head * d_v:(head + 1) * d_v] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))[0]
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "treats head as counted from 1, so it removes the previous head (and removes nothing at all for head 0)",
  "teacher_says": "Heads are numbered from 0: head i owns rows i*d_v:(i+1)*d_v.",
  "code": '''
import dataclasses

import mha


def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    w_o = params.w_o.copy()
    w_o[(head - 1) * d_v:head * d_v] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))[0]
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "rebuilds MHAParams from the four weight matrices only, silently dropping all the biases (the output bias must stay)",
  "teacher_says": "Pass the biases on too (dataclasses.replace(params, w_o=...) keeps them); only the head's term of the output should go.",
  "code": '''
import mha


def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    w_o = params.w_o.copy()
    w_o[head * d_v:(head + 1) * d_v, :] = 0.0
    pruned = mha.MHAParams(params.w_q, params.w_k, params.w_v, w_o, params.num_heads)
    out, _ = mha.multi_head_attention(x, x, x, pruned)
    return out
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "zeroes the head's value projection W^V but keeps its value bias, so the head still writes b_v W^O_i into the output",
  "teacher_says": "With a value bias, zero values are not zero: the head outputs b_v. Remove the term at W^O (its rows), which is where the head's output enters.",
  "code": '''
import dataclasses

import mha


def attention_without_head(x, params, head):
    d_v = params.w_v.shape[1] // params.num_heads
    w_v = params.w_v.copy()
    w_v[:, head * d_v:(head + 1) * d_v] = 0.0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_v=w_v))[0]
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "removes the head but rescales the remaining heads by h/(h-1), as dropout would",
  "teacher_says": "A zero head_gate only removes the head's term; nothing else is rescaled. Leave the other rows of W^O as they are.",
  "code": '''
import dataclasses

import mha


def attention_without_head(x, params, head):
    h = params.num_heads
    d_v = params.w_o.shape[0] // h
    w_o = params.w_o.copy() * (h / (h - 1))  # keep the output's scale
    w_o[head * d_v:(head + 1) * d_v] = 0.0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))[0]
'''},
 {"exercise": "attention_without_head", "kind": "robustness",
  "idea": "zeroes the head's rows of W^O directly in params.w_o (no copy), then restores nothing",
  "mistake": "modifies the caller's params in place: the returned output is right, but the layer passed in has lost its head for good",
  "teacher_says": "MHAParams' arrays are writable; work on params.w_o.copy() and build new params with dataclasses.replace.",
  "code": '''
import mha


def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    params.w_o[head * d_v:(head + 1) * d_v] = 0.0
    out, _ = mha.multi_head_attention(x, x, x, params)
    return out
'''},
]
