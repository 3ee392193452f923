# writer C's answers, then writer G's (each file verbatim)
ANSWERS = [
 # ---------------------------------------------------------------- head_similarity
 {"exercise": "head_similarity", "kind": "correct",
  "idea": "one flattened vector per head via transpose, Gram matrix divided by the outer product of norms, 0 where a norm is 0",
  "code": '''
import numpy as np

def head_similarity(per_head):
    per_head = np.asarray(per_head)
    h = per_head.shape[-3]
    vectors = np.swapaxes(per_head.reshape(-1, h, per_head.shape[-2] * per_head.shape[-1]), 0, 1)
    vectors = vectors.reshape(h, -1)  # (h, everything else)
    gram = vectors @ vectors.T
    norms = np.sqrt(np.einsum("ij,ij->i", vectors, vectors))
    denom = np.outer(norms, norms)
    safe = np.where(denom > 0, denom, 1.0)
    return np.where(denom > 0, gram / safe, 0.0)
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Reshapes straight to (h, -1) without moving the heads axis to the front, so with a leading batch axis each 'head' row mixes blocks of several heads and batch elements.",
  "teacher_says": "reshape reads the memory in order: with batch axes first you must move the heads axis to the front before flattening.",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vecs = per_head.reshape(h, -1)
    norm = np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
    unit = vecs / norm
    return unit @ unit.T
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Divides by the norms with no guard, so a head that is all zeros gives 0/0 = NaN in its row and column.",
  "teacher_says": "A pruned head has norm 0: guard the division (np.maximum(norm, 1e-12) or np.where) so it gets similarity 0, not NaN.",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vecs = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    unit = vecs / np.linalg.norm(vecs, axis=-1, keepdims=True)
    return unit @ unit.T
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Sets the diagonal to 1 'because a head is identical to itself', which is wrong for an all-zero head whose self-similarity must be 0.",
  "teacher_says": "Let the formula give the diagonal: an all-zero head has similarity 0 with every head, itself included.",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vecs = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    norm = np.maximum(np.linalg.norm(vecs, axis=-1, keepdims=True), 1e-12)
    sim = (vecs / norm) @ (vecs / norm).T
    np.fill_diagonal(sim, 1.0)
    return sim
'''},
 # ---------------------------------------------------------------- gate_importance
 {"exercise": "gate_importance", "kind": "correct",
  "idea": "per example and head, dL/dg_a is the inner product of grad_out with the head's contribution; abs, then mean over the batch",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    B, h = contributions.shape[:2]
    flat_c = contributions.reshape(B, h, -1)           # (B, h, n*d)
    flat_g = grad_out.reshape(B, -1, 1)                # (B, n*d, 1)
    dL_dg = (flat_c @ flat_g)[..., 0]                  # (B, h)
    return np.abs(dL_dg).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Takes the mean over the examples before the absolute value, so gradients of opposite signs from different examples cancel.",
  "teacher_says": "The importance is E|dL/dg|: take the absolute value per example first, then average.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    grads = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(grads.mean(axis=0))
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Takes the absolute value of every product grad_out * contribution before summing over positions and features, instead of the absolute value of the sum.",
  "teacher_says": "dL/dg_a is one number per example (the full sum); only that number's absolute value is taken.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    per_entry = np.abs(contributions * grad_out[:, None, :, :])
    return per_entry.sum(axis=(2, 3)).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Averages the products over positions and features instead of summing them, so every importance is divided by n * d_model.",
  "teacher_says": "The chain rule sums over every output entry: use a sum over positions and features, and a mean only over examples.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    prod = contributions * grad_out[:, None]
    return np.abs(prod.mean(axis=(-2, -1))).mean(axis=0)
'''},
 # ---------------------------------------------------------------- attention_without_head
 {"exercise": "attention_without_head", "kind": "correct",
  "idea": "multiply a copy of W^O by a 0/1 row mask (np.repeat of the head gate over d_v rows) and rebuild the params with dataclasses.replace",
  "code": '''
import dataclasses
import numpy as np
import mha

def attention_without_head(x, params, head):
    h = params.num_heads
    d_v = params.w_o.shape[0] // h
    gate = np.ones(h, dtype=params.w_o.dtype)
    gate[head] = 0
    row_gate = np.repeat(gate, d_v)[:, None]   # (h*d_v, 1)
    pruned = dataclasses.replace(params, w_o=params.w_o * row_gate)  # a new array
    out, _ = mha.multi_head_attention(x, x, x, pruned)
    return out
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Zeroes the head's columns of W^O instead of its rows, which removes some output features of every head rather than one head's term.",
  "teacher_says": "W^O is (h*d_v, d_model): head i's term uses its rows i*d_v:(i+1)*d_v, so zero rows, not columns.",
  "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    d_v = params.w_v.shape[1] // params.num_heads
    w_o = params.w_o.copy()
    w_o[:, head * d_v:(head + 1) * d_v] = 0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))
    return out
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Zeroes the rows of params.w_o in place (no copy), so the caller's weights are changed and a second call with another head has both heads removed.",
  "teacher_says": "params.w_o[...] = 0 writes into the caller's array: copy W^O first, as the statement asks.",
  "code": '''
import mha

def attention_without_head(x, params, head):
    d_v = params.w_v.shape[1] // params.num_heads
    params.w_o[head * d_v:(head + 1) * d_v] = 0.0
    out, _ = mha.multi_head_attention(x, x, x, params)
    return out
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Zeroes the head's query columns of W^Q: its scores become 0, its softmax uniform, and the head still adds the average of its values.",
  "teacher_says": "Zero queries do not prune a head; remove its output term by zeroing its rows of a copy of W^O.",
  "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    d_k = params.w_q.shape[1] // params.num_heads
    w_q = params.w_q.copy()
    w_q[:, head * d_k:(head + 1) * d_k] = 0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_q=w_q))
    return out
'''},
]

_WRITER_C = ANSWERS

ANSWERS = [
 # ---------------------------------------------------------------- head_similarity
 {"exercise": "head_similarity", "kind": "correct",
  "idea": "Gram matrix of the heads with one tensordot over all other axes, then divide by the outer product of the norms where it is nonzero",
  "code": '''
import numpy as np

def head_similarity(per_head):
    per_head = np.asarray(per_head)
    stacked = np.moveaxis(per_head, -3, 0)  # heads first
    others = list(range(1, stacked.ndim))
    gram = np.tensordot(stacked, stacked, axes=(others, others))  # (h, h) dot products
    norms = np.sqrt(np.diag(gram))
    denominator = np.outer(norms, norms)
    out = np.zeros_like(gram)
    np.divide(gram, denominator, out=out, where=denominator > 0)
    return out
'''},
 {"exercise": "head_similarity", "kind": "robustness",
  "idea": "double Python loop over pairs of heads with np.vdot on flattened float64 copies, filled into a matrix and cast back to the input dtype",
  "code": '''
import numpy as np

def head_similarity(per_head):
    per_head = np.asarray(per_head)
    h = per_head.shape[-3]
    heads = [np.ascontiguousarray(per_head[..., a, :, :]).ravel().astype(np.float64)
             for a in range(h)]
    sim = np.zeros((h, h), dtype=np.float64)
    for a in range(h):
        for b in range(h):
            na = np.sqrt(np.vdot(heads[a], heads[a]))
            nb = np.sqrt(np.vdot(heads[b], heads[b]))
            if na == 0 or nb == 0:
                sim[a, b] = 0.0
            else:
                sim[a, b] = np.vdot(heads[a], heads[b]) / (na * nb)
    return sim.astype(per_head.dtype)
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Reshapes to (h, -1) without moving the heads axis to the front, so with a batch axis the vectors mix heads of different sequences.",
  "teacher_says": "With leading batch axes the heads are not the first axis: np.moveaxis(per_head, -3, 0) before the reshape.",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = per_head.reshape(h, -1)
    norm = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit = vectors / np.maximum(norm, 1e-12)
    return unit @ unit.T
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Divides by the norms without guarding against zero, so a pruned (all-zero) head gives NaN instead of 0.",
  "teacher_says": "A head of zeros has norm 0: clamp the norm (or use where=) so its row and column are 0, not NaN.",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    unit = vectors / np.linalg.norm(vectors, axis=-1, keepdims=True)
    return unit @ unit.T
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Normalises with the norm of the whole (h, m) matrix instead of each head's own norm, so the result is not a cosine (the diagonal is not 1).",
  "teacher_says": "Each row needs its own norm: np.linalg.norm(vectors, axis=-1, keepdims=True).",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    unit = vectors / max(np.linalg.norm(vectors), 1e-12)
    return unit @ unit.T
'''},
 # ---------------------------------------------------------------- gate_importance
 {"exercise": "gate_importance", "kind": "correct",
  "idea": "per-example gate gradient as a broadcast product summed over positions and features, then |.| and the mean over the batch",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    per_example = (contributions * grad_out[:, None, :, :]).sum(axis=(-1, -2))  # (B, h)
    return np.abs(per_example).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "robustness",
  "idea": "explicit loops over examples and heads with np.vdot, accumulated in float64 and cast back",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    B, h = contributions.shape[:2]
    total = np.zeros(h, dtype=np.float64)
    for b in range(B):
        for a in range(h):
            d_gate = np.vdot(contributions[b, a].astype(np.float64).ravel(),
                             grad_out[b].astype(np.float64).ravel())
            total[a] += abs(d_gate)
    return (total / B).astype(np.result_type(contributions, grad_out))
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Averages the gradient over the examples first and takes the absolute value after, so gains and losses on different examples cancel.",
  "teacher_says": "Michel et al. take |dL(x)/dg| per example, then the expectation: the absolute value goes inside the mean.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    grads = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(grads.mean(axis=0))
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Takes the absolute value of every product before summing over positions and features, instead of the absolute value of the gradient.",
  "teacher_says": "dL/dg_a is the full sum of grad_out times the contribution; only that sum is made absolute.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    products = np.abs(contributions * grad_out[:, None])
    return products.sum(axis=(2, 3)).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Sums over the examples instead of averaging, so the importance grows with the batch size.",
  "teacher_says": "The expectation over x is a mean: divide by the number of examples.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    grads = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(grads).sum(axis=0)
'''},
 # ---------------------------------------------------------------- attention_without_head
 {"exercise": "attention_without_head", "kind": "correct",
  "idea": "multiply a copy of W^O by a 0/1 row mask built from the head index, dataclasses.replace, call multi_head_attention",
  "code": '''
import dataclasses

import numpy as np
import mha

def attention_without_head(x, params, head):
    h = params.num_heads
    d_v = params.w_o.shape[0] // h
    keep = np.repeat(np.arange(h) != head, d_v).astype(params.w_o.dtype)  # (h*d_v,)
    pruned = dataclasses.replace(params, w_o=params.w_o * keep[:, None])  # a new array
    out, _ = mha.multi_head_attention(x, x, x, pruned)
    return out
'''},
 {"exercise": "attention_without_head", "kind": "robustness",
  "idea": "deep-copies the whole MHAParams and zeroes the head's rows of W^O one row at a time in a Python loop",
  "code": '''
import copy

import mha

def attention_without_head(x, params, head):
    local = copy.deepcopy(params)
    d_v = local.w_v.shape[1] // local.num_heads
    for row in range(local.w_o.shape[0]):
        if row // d_v == head:
            local.w_o[row, :] = 0
    result = mha.multi_head_attention(x, x, x, local, None, need_weights=True)
    return result[0].copy()
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Zeroes the head's columns of W^Q instead of its rows of W^O: the head attends uniformly and still adds the mean of its values.",
  "teacher_says": "Zero queries give uniform weights, not a removed head: remove its term of the output, rows of W^O.",
  "code": '''
import dataclasses

import mha

def attention_without_head(x, params, head):
    d_k = params.w_q.shape[1] // params.num_heads
    w_q = params.w_q.copy()
    w_q[:, head * d_k:(head + 1) * d_k] = 0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_q=w_q))
    return out
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Zeroes a block of columns of W^O instead of rows: it removes output features, not a head.",
  "teacher_says": "W^O is (h*d_v, d_model): a head's term uses rows head*d_v:(head+1)*d_v; columns are output features.",
  "code": '''
import dataclasses

import mha

def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    w_o = params.w_o.copy()
    w_o[:, head * d_v:(head + 1) * d_v] = 0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))
    return out
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Removes the output bias together with the head's rows of W^O, though the bias is not part of any head.",
  "teacher_says": "A zero head gate removes only head_i W^O_i; the output bias b_o stays.",
  "code": '''
import dataclasses

import mha

def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    w_o = params.w_o.copy()
    w_o[head * d_v:(head + 1) * d_v] = 0
    pruned = dataclasses.replace(params, w_o=w_o, b_o=None)
    out, _ = mha.multi_head_attention(x, x, x, pruned)
    return out
'''},
]

_WRITER_G = ANSWERS
ANSWERS = _WRITER_C + _WRITER_G
