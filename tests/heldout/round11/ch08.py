# writer C's answers, then writer G's (each file verbatim)
ANSWERS = [
 # ---------------------------------------------------------------- head_similarity
 {"exercise": "head_similarity", "kind": "correct",
  "idea": "flatten heads with moveaxis, Gram matrix by einsum, divide by the outer product of norms where nonzero",
  "code": '''
import numpy as np

def head_similarity(per_head):
    per_head = np.asarray(per_head)
    h = per_head.shape[-3]
    flat = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    gram = np.einsum("if,jf->ij", flat, flat)
    norms = np.sqrt(np.diag(gram))
    denom = np.outer(norms, norms)
    safe = np.where(denom > 0, denom, 1)
    return np.where(denom > 0, gram / safe, 0).astype(gram.dtype)
'''},
 {"exercise": "head_similarity", "kind": "robustness",
  "idea": "double Python loop over head pairs with math.sqrt, result in float64 whatever the input dtype",
  "code": '''
import math
import numpy as np

def head_similarity(per_head):
    per_head = np.asarray(per_head, dtype=np.float64)
    h = per_head.shape[-3]
    vectors = [per_head[..., i, :, :].ravel() for i in range(h)]
    out = np.zeros((h, h))
    for i in range(h):
        for j in range(h):
            ni = math.sqrt(float(vectors[i] @ vectors[i]))
            nj = math.sqrt(float(vectors[j] @ vectors[j]))
            if ni == 0.0 or nj == 0.0:
                out[i, j] = 0.0
            else:
                out[i, j] = float(vectors[i] @ vectors[j]) / (ni * nj)
    return out
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Reshapes to (h, -1) without first moving the heads axis to the front, so with a batch axis each 'head' row mixes blocks of several heads.",
  "teacher_says": "reshape only regroups memory in order: move the heads axis (-3) to the front before flattening.",
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
  "mistake": "Divides by the norms without guarding against zero, so an all-zero head gives NaN instead of 0.",
  "teacher_says": "A pruned head has norm 0: clamp the norm (or use np.where) so its similarities come out 0, not NaN.",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    flat = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    unit = flat / np.linalg.norm(flat, axis=-1, keepdims=True)
    return unit @ unit.T
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Subtracts each head's mean before normalising (a Pearson correlation rather than a cosine), so broad maps no longer score near 1.",
  "teacher_says": "The exercise asks for the cosine of the raw vectors; centring them computes a correlation, a different measure.",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    flat = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    flat = flat - flat.mean(axis=1, keepdims=True)
    norm = np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    unit = flat / norm
    return unit @ unit.T
'''},
 # ---------------------------------------------------------------- gate_importance
 {"exercise": "gate_importance", "kind": "correct",
  "idea": "dL/dg_a as a batched dot product of flattened contribution and gradient, then |.| and mean over examples",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    B, h = contributions.shape[:2]
    c = contributions.reshape(B, h, -1)
    g = grad_out.reshape(B, -1, 1)
    d_gate = (c @ g)[..., 0]          # (B, h): dL/dg_a per example
    return np.abs(d_gate).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "robustness",
  "idea": "explicit Python loops over examples and heads, float64 accumulation",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    B, h = contributions.shape[:2]
    out = np.zeros(h)
    for b in range(B):
        for a in range(h):
            out[a] += abs(float(np.sum(contributions[b, a].astype(np.float64)
                                       * grad_out[b].astype(np.float64))))
    return out / B
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Takes the mean over the examples before the absolute value, so gradients of opposite signs cancel.",
  "teacher_says": "I_a is the expectation of |dL/dg_a|: take the absolute value per example, then average.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    d_gate = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(d_gate.mean(axis=0))
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Takes the absolute value of every product before summing over positions and features, instead of the absolute value of the sum.",
  "teacher_says": "The chain rule gives one signed number per example and head (the sum); only that derivative is made absolute.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    products = np.abs(contributions * grad_out[:, None])
    return products.sum(axis=(2, 3)).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Averages over positions and features instead of summing them, so every importance is n*d_model times too small.",
  "teacher_says": "The derivative of the loss is a sum over every output entry the gate touches, not an average.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    d_gate = (contributions * grad_out[:, None]).mean(axis=(2, 3))
    return np.abs(d_gate).mean(axis=0)
'''},
 # ---------------------------------------------------------------- attention_without_head
 {"exercise": "attention_without_head", "kind": "correct",
  "idea": "multiply W^O by a per-row keep vector (new array), dataclasses.replace, call the package",
  "code": '''
import dataclasses
import numpy as np
import mha

def attention_without_head(x, params, head):
    keep = np.ones(params.num_heads, dtype=params.w_o.dtype)
    keep[head] = 0
    rows = np.repeat(keep, params.d_v)[:, None]      # (h*d_v, 1)
    pruned = dataclasses.replace(params, w_o=params.w_o * rows)
    out, _ = mha.multi_head_attention(x, x, x, pruned)
    return out
'''},
 {"exercise": "attention_without_head", "kind": "robustness",
  "idea": "deep-copies every array of params, then zeroes the head's rows one row at a time in a Python loop",
  "code": '''
import numpy as np
import mha

def attention_without_head(x, params, head):
    copied = params.map(lambda a: np.array(a, copy=True))
    d_v = copied.w_v.shape[1] // copied.num_heads
    for row in range(head * d_v, (head + 1) * d_v):
        for col in range(copied.w_o.shape[1]):
            copied.w_o[row, col] = 0.0
    return mha.multi_head_attention(x, x, x, copied, None, need_weights=True)[0]
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Zeroes the head's rows of params.w_o in place (no copy), so the caller's weights lose the head for good.",
  "teacher_says": "MHAParams is frozen but its arrays are not: copy w_o before you write zeros into it.",
  "code": '''
import mha

def attention_without_head(x, params, head):
    d_v = params.d_v
    params.w_o[head * d_v:(head + 1) * d_v] = 0.0
    out, _ = mha.multi_head_attention(x, x, x, params)
    return out
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Slices the rows of W^O with d_k instead of d_v, which removes the wrong rows when d_k != d_v.",
  "teacher_says": "W^O has h*d_v rows: head i owns rows i*d_v to (i+1)*d_v.",
  "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    d_k = params.d_k
    w_o = params.w_o.copy()
    w_o[head * d_k:(head + 1) * d_k] = 0.0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))
    return out
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Zeroes the head's query columns of W^Q instead of its rows of W^O: the head then attends uniformly and still adds the mean of its values.",
  "teacher_says": "Zero queries give uniform weights, not a silent head: remove the head's term of the output, its rows of W^O.",
  "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    d_k = params.d_k
    w_q = params.w_q.copy()
    w_q[:, head * d_k:(head + 1) * d_k] = 0.0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_q=w_q))
    return out
'''},
]

_WRITER_C = ANSWERS

"""Writer G, chapter 08 (What heads learn): student answers."""

ANSWERS = [
    # ------------------------------------------------------------------ head_similarity
    {"exercise": "head_similarity", "kind": "correct",
     "idea": "swap the heads to the front, flatten, Gram matrix divided by the outer product of the norms, zeros where a norm is 0",
     "code": '''
import numpy as np

def head_similarity(per_head):
    per_head = np.asarray(per_head)
    h = per_head.shape[-3]
    flat = np.swapaxes(per_head.reshape(-1, h, per_head.shape[-2] * per_head.shape[-1]), 0, 1)
    flat = flat.reshape(h, -1)  # (h, all leading axes * n * f)
    gram = flat @ flat.T
    norms = np.sqrt(np.diagonal(gram).copy())
    denom = np.outer(norms, norms)
    safe = np.where(denom > 0, denom, 1.0)
    return np.where(denom > 0, gram / safe, 0.0)
'''},
    {"exercise": "head_similarity", "kind": "robustness",
     "idea": "two Python loops over the pairs of heads, each cosine from np.vdot in float64",
     "code": '''
import numpy as np

def head_similarity(per_head):
    per_head = np.asarray(per_head, dtype=np.float64)
    h = per_head.shape[-3]
    vectors = [per_head[..., a, :, :].ravel() for a in range(h)]
    sim = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            na = np.sqrt(np.vdot(vectors[a], vectors[a]))
            nb = np.sqrt(np.vdot(vectors[b], vectors[b]))
            if na == 0 or nb == 0:
                sim[a, b] = 0.0
            else:
                sim[a, b] = np.vdot(vectors[a], vectors[b]) / (na * nb)
    return sim
'''},
    {"exercise": "head_similarity", "kind": "wrong",
     "mistake": "Flattens with per_head.reshape(h, -1) without first moving the heads axis to the front, so with leading batch axes each 'head' vector mixes several heads and sequences.",
     "teacher_says": "reshape reads the array in memory order: with a batch axis in front, bring the heads axis to the front (np.moveaxis(per_head, -3, 0)) before flattening.",
     "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = per_head.reshape(h, -1)
    norm = np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    unit = vectors / norm
    return unit @ unit.T
'''},
    {"exercise": "head_similarity", "kind": "wrong",
     "mistake": "Divides by the norms without any guard, so a head that is all zeros gives 0/0 = NaN in its row and column.",
     "teacher_says": "The statement asks for similarity 0 for an all-zero head: never divide by a zero norm (clamp it or use np.where).",
     "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    return unit @ unit.T
'''},
    {"exercise": "head_similarity", "kind": "wrong",
     "mistake": "Sets the diagonal to 1 afterwards ('a head is always identical to itself'), which gives an all-zero head a self-similarity of 1.",
     "teacher_says": "The statement says an all-zero head has similarity 0 with every head, itself included; the diagonal is not always 1.",
     "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    np.fill_diagonal(sim, 1.0)
    return sim
'''},
    {"exercise": "head_similarity", "kind": "wrong",
     "mistake": "Normalises along the wrong axis: takes the norm over the heads (axis 0) for each feature instead of over each head's vector.",
     "teacher_says": "A cosine divides each head's vector by its own length: the norm runs over axis 1 (everything but the head), keepdims so that it divides row by row.",
     "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    norm = np.maximum(np.linalg.norm(vectors, axis=0, keepdims=True), 1e-12)
    unit = vectors / norm
    return unit @ unit.T
'''},
    # ------------------------------------------------------------------ gate_importance
    {"exercise": "gate_importance", "kind": "correct",
     "idea": "dL/dg_a per example as an elementwise product summed over positions and features, then |.| and the batch mean",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    # d out / d g_a = head_a W^O_a, so dL/dg_a = <grad_out, contribution_a> for each example
    per_example = (contributions * grad_out[:, None, :, :]).sum(axis=(-2, -1))  # (B, h)
    return np.abs(per_example).mean(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "robustness",
     "idea": "explicit loops over examples and heads with np.dot of the flattened arrays, accumulated in float64",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    B, h = contributions.shape[0], contributions.shape[1]
    importance = np.zeros(h, dtype=np.float64)
    for b in range(B):
        g = grad_out[b].astype(np.float64).ravel()
        for a in range(h):
            c = contributions[b, a].astype(np.float64).ravel()
            importance[a] += abs(np.dot(g, c))
    return importance / B
'''},
    {"exercise": "gate_importance", "kind": "wrong",
     "mistake": "Averages the gradient over the examples first and takes the absolute value afterwards (|E[dL/dg]| instead of E|dL/dg|), so gradients of opposite signs cancel.",
     "teacher_says": "The absolute value sits inside the expectation: take |dL(x)/dg_a| for each example, then the mean.",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    grads = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(grads.mean(axis=0))
'''},
    {"exercise": "gate_importance", "kind": "wrong",
     "mistake": "Takes the absolute value of every product grad_out * contribution before summing over positions and features, instead of the absolute value of the sum.",
     "teacher_says": "dL/dg_a is the sum of the products (the chain rule); only that total, one number per example and head, gets the absolute value.",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    products = np.abs(contributions * grad_out[:, None])
    return products.sum(axis=(2, 3)).mean(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "wrong",
     "mistake": "Averages over positions and features instead of summing them, so the gradient is divided by n * d_model.",
     "teacher_says": "The chain rule sums the contributions of every output entry; only the examples are averaged.",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    grads = (contributions * grad_out[:, None, :, :]).mean(axis=(-2, -1))
    return np.abs(grads).mean(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "wrong",
     "mistake": "Sums over the examples instead of taking their mean (the expectation E_x).",
     "teacher_says": "I_a is an expectation over the examples: divide by B (take the mean), or the importances grow with the batch size.",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    grads = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(grads).sum(axis=0)
'''},
    # ------------------------------------------------------------------ attention_without_head
    {"exercise": "attention_without_head", "kind": "correct",
     "idea": "multiply W^O by a 0/1 row mask (a new array, params untouched) and rebuild the params with dataclasses.replace",
     "code": '''
import dataclasses

import numpy as np

import mha

def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    keep_head = np.arange(params.num_heads) != head
    keep_rows = np.repeat(keep_head, d_v).astype(params.w_o.dtype)[:, None]
    pruned = dataclasses.replace(params, w_o=params.w_o * keep_rows)
    out, _ = mha.multi_head_attention(x, x, x, pruned)
    return out
'''},
    {"exercise": "attention_without_head", "kind": "robustness",
     "idea": "deep-copies the whole params (every weight and bias) and zeroes the rows in the copy; also computes the unused weights",
     "code": '''
import copy

import mha

def attention_without_head(x, params, head):
    clone = copy.deepcopy(params)
    d_v = clone.d_v
    for row in range(head * d_v, (head + 1) * d_v):
        clone.w_o[row, :] = 0
    output, _weights = mha.multi_head_attention(x, x, x, clone, need_weights=True)
    return output
'''},
    {"exercise": "attention_without_head", "kind": "wrong",
     "mistake": "Zeroes the head's columns of W^O instead of its rows (a transpose slip in the paper layout).",
     "teacher_says": "In the paper layout W^O is (h*d_v, d_model): head i owns rows i*d_v:(i+1)*d_v; columns are output features.",
     "code": '''
import dataclasses

import mha

def attention_without_head(x, params, head):
    d_v = params.d_v
    w_o = params.w_o.copy()
    w_o[:, head * d_v:(head + 1) * d_v] = 0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))
    return out
'''},
    {"exercise": "attention_without_head", "kind": "wrong",
     "mistake": "Zeroes the head's query projection, believing that a head with no queries does nothing; its softmax becomes uniform and it still adds the mean of its values.",
     "teacher_says": "Zeroing W^Q_i makes the head attend uniformly, not vanish: remove its output term, the rows of W^O.",
     "code": '''
import dataclasses

import mha

def attention_without_head(x, params, head):
    d_k = params.d_k
    w_q = params.w_q.copy()
    w_q[:, head * d_k:(head + 1) * d_k] = 0
    if params.b_q is not None:
        b_q = params.b_q.copy()
        b_q[head * d_k:(head + 1) * d_k] = 0
        params = dataclasses.replace(params, b_q=b_q)
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_q=w_q))
    return out
'''},
    {"exercise": "attention_without_head", "kind": "wrong",
     "mistake": "Slices the rows of W^O with d_k instead of d_v, which removes the wrong rows when the value size differs from the key size.",
     "teacher_says": "W^O's rows are the concatenated values: each head owns d_v of them, and d_v need not equal d_k.",
     "code": '''
import dataclasses

import mha

def attention_without_head(x, params, head):
    d_k = params.d_k
    w_o = params.w_o.copy()
    w_o[head * d_k:(head + 1) * d_k] = 0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))
    return out
'''},
    {"exercise": "attention_without_head", "kind": "wrong",
     "mistake": "Zeroes the rows of params.w_o in place, without a copy: the output is right but the caller's weights lose the head for good.",
     "teacher_says": "The arrays inside MHAParams are writable even though the dataclass is frozen: copy w_o before changing it.",
     "code": '''
import mha

def attention_without_head(x, params, head):
    d_v = params.d_v
    params.w_o[head * d_v:(head + 1) * d_v] = 0.0
    out, _ = mha.multi_head_attention(x, x, x, params)
    return out
'''},
]

_WRITER_G = ANSWERS
ANSWERS = _WRITER_C + _WRITER_G
