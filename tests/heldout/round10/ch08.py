# writer C's answers, then writer G's (each file verbatim)
"""Writer C, chapter 08 (What heads learn): student answers."""

ANSWERS = [
 # ---------------------------------------------------------------- head_similarity
 {"exercise": "head_similarity", "kind": "correct",
  "idea": "swapaxes heads first, flatten, unit rows via np.divide(where=norm > 0), one einsum",
  "code": '''
import numpy as np

def head_similarity(per_head):
    per_head = np.asarray(per_head)
    h = per_head.shape[-3]
    rows = np.swapaxes(per_head.reshape((-1,) + per_head.shape[-3:]), 0, 1).reshape(h, -1)
    norms = np.sqrt(np.einsum("if,if->i", rows, rows))[:, None]
    unit = np.divide(rows, norms, out=np.zeros_like(rows), where=norms > 0)
    return np.einsum("if,jf->ij", unit, unit)
'''},
 {"exercise": "head_similarity", "kind": "robustness",
  "idea": "double Python loop over head pairs in float64, one cosine at a time",
  "code": '''
import numpy as np

def head_similarity(per_head):
    per_head = np.asarray(per_head, dtype=np.float64)
    h = per_head.shape[-3]
    vectors = [per_head[..., a, :, :].ravel() for a in range(h)]
    result = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            na = np.sqrt(np.sum(vectors[a] ** 2))
            nb = np.sqrt(np.sum(vectors[b] ** 2))
            if na == 0 or nb == 0:
                result[a, b] = 0.0
            else:
                result[a, b] = np.sum(vectors[a] * vectors[b]) / (na * nb)
    return result
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Divides by the norms directly, so a head that is all zeros gives NaN instead of 0.",
  "teacher_says": "Guard the division: an all-zero head must have similarity 0, never 0/0.",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    unit = vectors / np.linalg.norm(vectors, axis=-1, keepdims=True)
    return unit @ unit.T
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Reshapes to (h, -1) without moving the heads axis to the front, so with batch axes the rows mix heads and examples.",
  "teacher_says": "reshape reads the array in memory order: bring the heads axis first (np.moveaxis(per_head, -3, 0)) before flattening.",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = per_head.reshape(h, -1)
    norm = np.linalg.norm(vectors, axis=-1, keepdims=True)
    unit = vectors / np.maximum(norm, 1e-12)
    return unit @ unit.T
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Forgets axis= in np.linalg.norm, so every head is divided by the norm of the whole matrix instead of its own.",
  "teacher_says": "Each row needs its own norm: np.linalg.norm(vectors, axis=-1, keepdims=True).",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    norm = np.linalg.norm(vectors)
    unit = vectors / np.maximum(norm, 1e-12)
    return unit @ unit.T
'''},

 # ---------------------------------------------------------------- gate_importance
 {"exercise": "gate_importance", "kind": "correct",
  "idea": "dL/dg_a per example as a tensordot-like einsum, then |.| and the mean over examples",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    per_example = np.einsum("bhnd,bnd->bh", contributions, grad_out)  # dL/dg_a for each x
    return np.abs(per_example).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "robustness",
  "idea": "Python loops over examples and heads, each derivative summed in float64",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    B, h = contributions.shape[0], contributions.shape[1]
    importance = np.zeros(h, dtype=np.float64)
    for b in range(B):
        for a in range(h):
            d = np.sum(contributions[b, a].astype(np.float64) * grad_out[b].astype(np.float64))
            importance[a] += abs(d) / B
    return importance
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Averages the derivatives over the examples first and takes the absolute value afterwards, so opposite signs cancel.",
  "teacher_says": "The importance is E|dL/dg|: take the absolute value of each example's derivative before averaging.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    per_example = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(per_example.mean(axis=0))
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Takes the absolute value of every product before summing over positions and features, instead of the absolute value of the sum.",
  "teacher_says": "dL/dg_a is the sum over positions and features of grad_out times the contribution; the absolute value applies to that sum.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    products = np.abs(contributions * grad_out[:, None, :, :])
    return products.sum(axis=(2, 3)).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Sums the absolute derivatives over the examples instead of averaging them.",
  "teacher_says": "I_a is an expectation over examples: divide by B (take the mean), or the scores grow with the batch.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    per_example = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(per_example).sum(axis=0)
'''},

 # ---------------------------------------------------------------- attention_without_head
 {"exercise": "attention_without_head", "kind": "correct",
  "idea": "multiplies W^O by a 0/1 row mask (a new array) and builds new params with dataclasses.replace",
  "code": '''
import dataclasses

import numpy as np

import mha

def attention_without_head(x, params, head):
    d_v = params.d_v
    keep = np.ones(params.w_o.shape[0], dtype=params.w_o.dtype)
    keep[head * d_v:(head + 1) * d_v] = 0
    pruned = dataclasses.replace(params, w_o=params.w_o * keep[:, None])
    out, _ = mha.multi_head_attention(x, x, x, pruned)
    return out
'''},
 {"exercise": "attention_without_head", "kind": "robustness",
  "idea": "deep-copies the whole MHAParams, zeroes W^O's rows one at a time in a loop, asks for the weights it does not need",
  "code": '''
import copy

import mha

def attention_without_head(x, params, head):
    new_params = copy.deepcopy(params)
    for row in range(head * params.d_v, (head + 1) * params.d_v):
        for col in range(new_params.w_o.shape[1]):
            new_params.w_o[row, col] = 0.0
    out, weights = mha.multi_head_attention(x, x, x, new_params, None, need_weights=True)
    return out
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Zeroes the head's query columns of W^Q instead of its rows of W^O: the head attends uniformly but still adds the mean of its values.",
  "teacher_says": "Zero queries give a uniform softmax, not a silent head; remove its term of the output, rows i*d_v:(i+1)*d_v of W^O.",
  "code": '''
import dataclasses

import mha

def attention_without_head(x, params, head):
    w_q = params.w_q.copy()
    w_q[:, head * params.d_k:(head + 1) * params.d_k] = 0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_q=w_q))
    return out
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Zeroes columns of W^O instead of rows, confusing the paper layout (h*d_v, d_model) with PyTorch's transposed one.",
  "teacher_says": "In the paper layout W^O is (h*d_v, d_model): head i owns its rows, and zeroing columns removes output features of every head.",
  "code": '''
import dataclasses

import mha

def attention_without_head(x, params, head):
    w_o = params.w_o.copy()
    w_o[:, head * params.d_v:(head + 1) * params.d_v] = 0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))
    return out
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Slices W^O's rows with d_k instead of d_v, which only coincides when the two head sizes are equal.",
  "teacher_says": "W^O's rows hold the heads' values: head i owns rows i*d_v:(i+1)*d_v, whatever d_k is.",
  "code": '''
import dataclasses

import mha

def attention_without_head(x, params, head):
    d_k = params.w_q.shape[1] // params.num_heads
    w_o = params.w_o.copy()
    w_o[head * d_k:(head + 1) * d_k] = 0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))
    return out
'''},
]

_WRITER_C = ANSWERS

ANSWERS = [
 # ------------------------------------------------------------------ head_similarity
 {"exercise": "head_similarity", "kind": "correct",
  "idea": "Gram matrix with einsum, divided by the outer product of the norms where both are nonzero",
  "code": '''
import numpy as np

def head_similarity(per_head):
    a = np.asarray(per_head)
    h = a.shape[-3]
    flat = np.swapaxes(a.reshape(-1, h, a.shape[-2] * a.shape[-1]), 0, 1).reshape(h, -1)
    gram = np.einsum("if,jf->ij", flat, flat)
    norms = np.sqrt(np.einsum("if,if->i", flat, flat))
    denom = np.outer(norms, norms)
    out = np.zeros_like(gram)
    np.divide(gram, denom, out=out, where=denom > 0)
    return out
'''},
 {"exercise": "head_similarity", "kind": "robustness",
  "idea": "double Python loop over the pairs of heads, in float64, with math.sqrt",
  "code": '''
import math
import numpy as np

def head_similarity(per_head):
    per_head = np.asarray(per_head, dtype=np.float64)
    h = per_head.shape[-3]
    vectors = [per_head[..., a, :, :].ravel() for a in range(h)]
    sim = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            na = math.sqrt(float(np.dot(vectors[a], vectors[a])))
            nb = math.sqrt(float(np.dot(vectors[b], vectors[b])))
            if na == 0.0 or nb == 0.0:
                sim[a, b] = 0.0
            else:
                sim[a, b] = float(np.dot(vectors[a], vectors[b])) / (na * nb)
    return sim
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Divides by the norms without any guard, so a head that is all zeros gives NaN in its row and column.",
  "teacher_says": "A pruned head has norm 0: the statement asks for similarity 0 there, so never divide by a zero norm.",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    return unit @ unit.T
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Reshapes to (h, -1) without first moving the heads axis to the front, so with leading batch axes each 'head' vector mixes blocks of several heads.",
  "teacher_says": "reshape reads the array in memory order: bring the heads axis to the front (np.moveaxis) before flattening.",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = per_head.reshape(h, -1)
    norm = np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)
    unit = vectors / norm
    return unit @ unit.T
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Centres each head's vector before the cosine (a Pearson correlation, as np.corrcoef would give), not the plain cosine similarity.",
  "teacher_says": "The chapter's similarity is the cosine of the raw vectors; subtracting the mean changes it (two uniform maps would no longer be similar).",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    vectors = vectors - vectors.mean(axis=1, keepdims=True)
    norm = np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)
    unit = vectors / norm
    return unit @ unit.T
'''},
 # ------------------------------------------------------------------ gate_importance
 {"exercise": "gate_importance", "kind": "correct",
  "idea": "per-example gradient as a broadcast product summed over (n, d), then |.| and the mean over the batch",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    per_example = (contributions * grad_out[:, np.newaxis]).sum(axis=(-2, -1))  # (B, h)
    return np.abs(per_example).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "robustness",
  "idea": "Python loops over examples and heads, accumulating a list of float64 values",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    B, h = contributions.shape[0], contributions.shape[1]
    importance = []
    for a in range(h):
        total = 0.0
        for b in range(B):
            dL_dg = float(np.vdot(grad_out[b].astype(np.float64),
                                  contributions[b, a].astype(np.float64)))
            total += abs(dL_dg)
        importance.append(total / B)
    return np.array(importance)
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Averages the gradient over the examples first and takes the absolute value afterwards, so gains on some examples cancel losses on others.",
  "teacher_says": "Michel et al. take |dL(x)/dg_a| per example, then the expectation: the absolute value goes inside the mean.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    grads = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(grads.mean(axis=0))
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Takes the absolute value of each product grad_out * contribution before summing over positions and features, instead of the absolute value of the sum.",
  "teacher_says": "dL/dg_a is one number per example (the full dot product); only that number gets the absolute value.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    products = np.abs(contributions * grad_out[:, None, :, :])
    return products.sum(axis=(2, 3)).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Averages over positions and features instead of summing them: the chain rule's sum becomes a mean, scaling every importance by 1/(n d_model).",
  "teacher_says": "The derivative of the loss with respect to g_a is a sum over every output entry, not an average.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    per_example = (contributions * grad_out[:, None]).mean(axis=(2, 3))
    return np.abs(per_example).mean(axis=0)
'''},
 # ------------------------------------------------------------------ attention_without_head
 {"exercise": "attention_without_head", "kind": "correct",
  "idea": "multiply W^O by a 0/1 row mask (a new array) and rebuild the params with dataclasses.replace",
  "code": '''
import dataclasses
import numpy as np
import mha

def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    keep = np.ones((params.w_o.shape[0], 1), dtype=params.w_o.dtype)
    keep[head * d_v:(head + 1) * d_v] = 0
    pruned = dataclasses.replace(params, w_o=params.w_o * keep)  # a new array
    out, _ = mha.multi_head_attention(x, x, x, pruned)
    return out
'''},
 {"exercise": "attention_without_head", "kind": "robustness",
  "idea": "copies every weight array into brand-new MHAParams, zeroes the head's rows in a Python loop, and asks for the weights it never uses",
  "code": '''
import numpy as np
import mha

def attention_without_head(x, params, head):
    copies = {}
    for name in ("w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o"):
        value = getattr(params, name)
        copies[name] = None if value is None else np.array(value, copy=True)
    d_v = copies["w_o"].shape[0] // params.num_heads
    for row in range(head * d_v, (head + 1) * d_v):
        for col in range(copies["w_o"].shape[1]):
            copies["w_o"][row, col] = 0.0
    new_params = mha.MHAParams(num_heads=params.num_heads, **copies)
    result = mha.multi_head_attention(x, x, x, new_params, need_weights=True)
    return result[0]
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Zeroes the head's rows of params.w_o in place (MHAParams is frozen, but its arrays are writable), so the caller's weights are changed for good.",
  "teacher_says": "Work on a copy of W^O: after your call the caller's params must still hold every head.",
  "code": '''
import mha

def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    params.w_o[head * d_v:(head + 1) * d_v] = 0.0
    return mha.multi_head_attention(x, x, x, params)[0]
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Zeroes the head's query columns of W^Q instead of its output: the head's scores become uniform and it still adds the mean of its values.",
  "teacher_says": "Zeroing queries does not prune a head (see What goes wrong); remove its term of the output, the rows of W^O.",
  "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    d_k = params.w_q.shape[1] // params.num_heads
    w_q = params.w_q.copy()
    w_q[:, head * d_k:(head + 1) * d_k] = 0.0
    b_q = None if params.b_q is None else params.b_q.copy()
    if b_q is not None:
        b_q[head * d_k:(head + 1) * d_k] = 0.0
    new = dataclasses.replace(params, w_q=w_q, b_q=b_q)
    return mha.multi_head_attention(x, x, x, new)[0]
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Zeroes columns head*d_v:(head+1)*d_v of a copy of W^O instead of its rows (transposed the layout): that removes output features, not the head.",
  "teacher_says": "In the paper layout W^O is (h d_v, d_model): head i owns the rows i d_v:(i+1) d_v.",
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
]

_WRITER_G = ANSWERS
ANSWERS = _WRITER_C + _WRITER_G
