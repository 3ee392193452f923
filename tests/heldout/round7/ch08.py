ANSWERS = [
    # ------------------------------------------------------------------ head_similarity
    {"exercise": "head_similarity", "kind": "correct",
     "idea": "double loop over pairs of heads with np.vdot and the norms, zero heads handled by an if",
     "code": '''
import numpy as np


def head_similarity(per_head):
    per_head = np.asarray(per_head)
    h = per_head.shape[-3]
    vectors = [np.take(per_head, a, axis=-3).ravel() for a in range(h)]
    norms = [np.linalg.norm(vec) for vec in vectors]
    sim = np.zeros((h, h), dtype=np.result_type(per_head.dtype, np.float32))
    for a in range(h):
        for b in range(h):
            if norms[a] == 0 or norms[b] == 0:
                continue  # an all-zero head is similar to nothing, itself included
            sim[a, b] = np.vdot(vectors[a], vectors[b]) / (norms[a] * norms[b])
    return sim
'''},
    {"exercise": "head_similarity", "kind": "correct",
     "idea": "Gram matrix with einsum, then divide by the outer product of the norms with np.divide(where=...)",
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
     "mistake": "flattens with reshape(h, -1) without moving the heads axis first, so with leading batch axes each 'head' vector mixes several heads and sequences",
     "teacher_says": "Bring the heads axis to the front (np.moveaxis(per_head, -3, 0)) before reshape(h, -1); a plain reshape cuts the memory in the wrong places when there are batch axes.",
     "code": '''
import numpy as np


def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = per_head.reshape(h, -1)
    norms = np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    unit = vectors / norms
    return unit @ unit.T
'''},
    {"exercise": "head_similarity", "kind": "wrong",
     "mistake": "returns the raw dot products of the flattened heads, never dividing by the norms",
     "teacher_says": "A cosine similarity divides each dot product by the two vectors' norms; normalise the rows first.",
     "code": '''
import numpy as np


def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    return vectors @ vectors.T
'''},
    {"exercise": "head_similarity", "kind": "wrong",
     "mistake": "divides by the squared norms (sum of squares) instead of the norms",
     "teacher_says": "The cosine is a.b / (|a| |b|) with |a| = sqrt(sum a^2); you divided by sum a^2 without the square root.",
     "code": '''
import numpy as np


def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    sq = (vectors**2).sum(axis=1)  # the norm of each head
    sq = np.where(sq == 0, 1.0, sq)
    return (vectors @ vectors.T) / np.outer(sq, sq)
'''},
    {"exercise": "head_similarity", "kind": "wrong",
     "mistake": "computes the cosine row by row (per query, per sequence) and averages those, instead of the cosine of the whole flattened head",
     "teacher_says": "Each head is ONE vector: flatten all its blocks (every leading index and every row) before taking a single cosine per pair.",
     "code": '''
import numpy as np


def head_similarity(per_head):
    x = np.moveaxis(per_head, -3, 0)  # (h, ..., n, f)
    h = x.shape[0]
    rows = x.reshape(h, -1, x.shape[-1])  # (h, rows, f)
    norms = np.maximum(np.linalg.norm(rows, axis=-1, keepdims=True), 1e-12)
    unit = rows / norms
    per_row = np.einsum("arf,brf->abr", unit, unit)
    return per_row.mean(axis=-1)
'''},
    {"exercise": "head_similarity", "kind": "wrong",
     "mistake": "uses np.corrcoef: Pearson correlation centres each head's vector before the cosine",
     "teacher_says": "np.corrcoef subtracts each vector's mean first; the exercise wants the plain cosine of the flattened heads, without centring.",
     "code": '''
import numpy as np


def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    sim = np.corrcoef(vectors)
    return np.nan_to_num(sim)
'''},
    {"exercise": "head_similarity", "kind": "robustness",
     "idea": "delegates to the package's torch version",
     "mistake": "converts to torch and calls mha.analysis.head_similarity, so it returns a torch tensor, not a NumPy array",
     "teacher_says": "The exercise asks for a NumPy array (and for your own computation): do it with NumPy, or at least return .numpy().",
     "code": '''
import numpy as np
import torch

from mha import analysis


def head_similarity(per_head):
    return analysis.head_similarity(torch.from_numpy(np.ascontiguousarray(per_head)))
'''},
    # ------------------------------------------------------------------ gate_importance
    {"exercise": "gate_importance", "kind": "correct",
     "idea": "one einsum for dL/dg per example and head, then abs and mean over the batch",
     "code": '''
import numpy as np


def gate_importance(contributions, grad_out):
    per_example = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(per_example).mean(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "correct",
     "idea": "broadcast the gradient over the heads axis, sum the last two axes, loop-free",
     "code": '''
import numpy as np


def gate_importance(contributions, grad_out):
    products = contributions * grad_out[:, np.newaxis, :, :]  # (B, h, n, d)
    dl_dg = products.sum(axis=(-2, -1))  # (B, h)
    return np.mean(np.absolute(dl_dg), axis=0)
'''},
    {"exercise": "gate_importance", "kind": "wrong",
     "mistake": "averages the signed gradients over the batch and takes the absolute value afterwards (|E[dL/dg]| instead of E|dL/dg|)",
     "teacher_says": "Take the absolute value per example first, then the mean: gradients of opposite signs must not cancel.",
     "code": '''
import numpy as np


def gate_importance(contributions, grad_out):
    per_example = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(per_example.mean(axis=0))
'''},
    {"exercise": "gate_importance", "kind": "wrong",
     "mistake": "takes the absolute value of every product before summing over positions and features",
     "teacher_says": "dL/dg_a is the full sum over positions and features; only that sum gets an absolute value, not each of its terms.",
     "code": '''
import numpy as np


def gate_importance(contributions, grad_out):
    products = np.abs(contributions * grad_out[:, None])
    return products.sum(axis=(2, 3)).mean(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "wrong",
     "mistake": "sums over the batch instead of averaging",
     "teacher_says": "The expectation over x is a mean over the B examples: divide by B (use .mean(0)).",
     "code": '''
import numpy as np


def gate_importance(contributions, grad_out):
    per_example = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(per_example).sum(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "wrong",
     "mistake": "averages the products over positions and features instead of summing them (a mean where the chain rule needs a sum)",
     "teacher_says": "By the chain rule dL/dg is the SUM over positions and features of grad_out times the contribution; a mean divides it by n*d_model.",
     "code": '''
import numpy as np


def gate_importance(contributions, grad_out):
    per_example = (contributions * grad_out[:, None]).mean(axis=(2, 3))
    return np.abs(per_example).mean(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "wrong",
     "mistake": "squares the per-example gradient instead of taking its absolute value",
     "teacher_says": "Michel et al.'s importance is the mean of |dL/dg|, not of (dL/dg)^2.",
     "code": '''
import numpy as np


def gate_importance(contributions, grad_out):
    per_example = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return (per_example**2).mean(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "wrong",
     "mistake": "contracts the gradient against the contributions over the features only, then averages the absolute values over both the examples and the positions",
     "teacher_says": "The gate multiplies a head's whole contribution, at every position: sum over positions too before the absolute value.",
     "code": '''
import numpy as np


def gate_importance(contributions, grad_out):
    per_position = np.einsum("bhnd,bnd->bhn", contributions, grad_out)
    return np.abs(per_position).mean(axis=(0, 2))
'''},
    {"exercise": "gate_importance", "kind": "robustness",
     "idea": "right formula, computed in place to save memory",
     "mistake": "multiplies the caller's contributions array in place (contributions *= ...), destroying the input",
     "teacher_says": "Never modify the arguments: write products = contributions * grad_out[:, None] (a new array) instead of *=.",
     "code": '''
import numpy as np


def gate_importance(contributions, grad_out):
    contributions *= grad_out[:, None]  # reuse the buffer
    return np.abs(contributions.sum(axis=(2, 3))).mean(axis=0)
'''},
    # ------------------------------------------------------------------ attention_without_head
    {"exercise": "attention_without_head", "kind": "correct",
     "idea": "scale W^O's rows by a per-row gate built with np.repeat, new params with dataclasses.replace",
     "code": '''
import dataclasses

import numpy as np

import mha


def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    gate = np.ones(params.num_heads, dtype=params.w_o.dtype)
    gate[head] = 0
    row_gate = np.repeat(gate, d_v)[:, None]  # (h*d_v, 1)
    pruned = dataclasses.replace(params, w_o=params.w_o * row_gate)
    out, _ = mha.multi_head_attention(x, x, x, pruned)
    return out
'''},
    {"exercise": "attention_without_head", "kind": "correct",
     "idea": "compute the full output, then subtract the head's own term head_i W^O_i computed by hand",
     "code": '''
import numpy as np

import mha


def attention_without_head(x, params, head):
    h = params.num_heads
    full, _ = mha.multi_head_attention(x, x, x, params)

    def proj(w, b):
        y = x @ w
        return y if b is None else y + b

    q = mha.split_heads(proj(params.w_q, params.b_q), h)
    k = mha.split_heads(proj(params.w_k, params.b_k), h)
    v = mha.split_heads(proj(params.w_v, params.b_v), h)
    heads, _ = mha.scaled_dot_product_attention(q, k, v)  # (..., h, n, d_v)
    d_v = heads.shape[-1]
    term = heads[..., head, :, :] @ params.w_o[head * d_v:(head + 1) * d_v]
    return full - term
'''},
    {"exercise": "attention_without_head", "kind": "wrong",
     "mistake": "zeroes the head's query projection (columns of W^Q): the head then attends uniformly and still adds the mean of its values",
     "teacher_says": "Zero queries give uniform weights, not a removed head. Remove the head's output: zero its rows of W^O.",
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
     "teacher_says": "Head i's term uses ROWS i*d_v:(i+1)*d_v of W^O (its input side); zeroing columns removes output features of every head.",
     "code": '''
import dataclasses

import mha


def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    w_o = params.w_o.copy()
    w_o[:, head * d_v:(head + 1) * d_v] = 0.0
    new = dataclasses.replace(params, w_o=w_o)
    return mha.multi_head_attention(x, x, x, new)[0]
'''},
    {"exercise": "attention_without_head", "kind": "wrong",
     "mistake": "counts heads from 1, so it removes head `head - 1` (and nothing at all for head 0, whose slice is empty)",
     "teacher_says": "Heads are numbered from 0: head i owns rows i*d_v:(i+1)*d_v.",
     "code": '''
import dataclasses

import mha


def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    w_o = params.w_o.copy()
    w_o[(head - 1) * d_v:head * d_v] = 0.0
    new = dataclasses.replace(params, w_o=w_o)
    return mha.multi_head_attention(x, x, x, new)[0]
'''},
    {"exercise": "attention_without_head", "kind": "wrong",
     "mistake": "rebuilds MHAParams from the four weights only, so every bias (the output bias included) is dropped",
     "teacher_says": "Only the head's term goes; the biases, b_o in particular, must stay. Copy params with dataclasses.replace(params, w_o=...) to keep them.",
     "code": '''
import mha


def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    w_o = params.w_o.copy()
    w_o[head * d_v:(head + 1) * d_v] = 0.0
    new = mha.MHAParams(params.w_q, params.w_k, params.w_v, w_o, params.num_heads)
    return mha.multi_head_attention(x, x, x, new)[0]
'''},
    {"exercise": "attention_without_head", "kind": "wrong",
     "mistake": "removes the head but rescales the output by h/(h-1), as if pruning were dropout",
     "teacher_says": "A zero gate just removes the head's term; nothing is rescaled (there is no 1/(1-p) as in dropout).",
     "code": '''
import dataclasses

import mha


def attention_without_head(x, params, head):
    h = params.num_heads
    d_v = params.w_o.shape[0] // h
    w_o = params.w_o.copy()
    w_o[head * d_v:(head + 1) * d_v] = 0.0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))
    return out * h / (h - 1)
'''},
    {"exercise": "attention_without_head", "kind": "wrong",
     "mistake": "subtracts the head's term but also subtracts the output bias with it (as if b_o belonged to the head)",
     "teacher_says": "The output bias is not part of any head's term: keep it. Subtract only head_i W^O_i.",
     "code": '''
import numpy as np

import mha


def attention_without_head(x, params, head):
    h = params.num_heads
    full, _ = mha.multi_head_attention(x, x, x, params)
    b = lambda name: 0 if getattr(params, name) is None else getattr(params, name)
    q = mha.split_heads(x @ params.w_q + b("b_q"), h)
    k = mha.split_heads(x @ params.w_k + b("b_k"), h)
    v = mha.split_heads(x @ params.w_v + b("b_v"), h)
    heads, _ = mha.scaled_dot_product_attention(q, k, v)
    d_v = heads.shape[-1]
    term = heads[..., head, :, :] @ params.w_o[head * d_v:(head + 1) * d_v] + b("b_o")
    return full - term
'''},
    {"exercise": "attention_without_head", "kind": "robustness",
     "idea": "right output, but edits the caller's weights",
     "mistake": "zeroes the rows of params.w_o in place (no copy), so the caller's params are pruned for good",
     "teacher_says": "MHAParams is frozen but its arrays are writable: params.w_o[rows] = 0 changes the caller's weights. Work on params.w_o.copy().",
     "code": '''
import mha


def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    params.w_o[head * d_v:(head + 1) * d_v] = 0.0
    return mha.multi_head_attention(x, x, x, params)[0]
'''},
]
