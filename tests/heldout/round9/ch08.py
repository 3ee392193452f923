# writer C's answers, then writer G's (each file verbatim)
ANSWERS = [
 # ---------------------------------------------------------------- head_similarity
 {"exercise": "head_similarity", "kind": "correct",
  "idea": "swapaxes heads to the front, flatten, Gram matrix divided by the outer product of norms, zeros where a norm is 0",
  "code": '''
import numpy as np

def head_similarity(per_head):
    per_head = np.asarray(per_head)
    h = per_head.shape[-3]
    flat = np.swapaxes(per_head.reshape(-1, h, per_head.shape[-2] * per_head.shape[-1]), 0, 1)
    flat = flat.reshape(h, -1)                      # (h, everything else)
    gram = flat @ flat.T
    norms = np.sqrt(np.einsum("ij,ij->i", flat, flat))
    denom = np.outer(norms, norms)
    safe = np.where(denom > 0, denom, 1)
    return np.where(denom > 0, gram / safe, 0).astype(gram.dtype)
'''},
 {"exercise": "head_similarity", "kind": "robustness",
  "idea": "double Python loop over head pairs with float64 vectors and math.sqrt; returns float64 whatever the input dtype",
  "code": '''
import math
import numpy as np

def head_similarity(per_head):
    per_head = np.asarray(per_head, dtype=np.float64)
    h = per_head.shape[-3]
    vectors = [np.take(per_head, a, axis=-3).ravel() for a in range(h)]
    sim = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            na = math.sqrt(float(vectors[a] @ vectors[a]))
            nb = math.sqrt(float(vectors[b] @ vectors[b]))
            if na == 0 or nb == 0:
                sim[a, b] = 0.0
            else:
                sim[a, b] = float(vectors[a] @ vectors[b]) / (na * nb)
    return sim
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Flattens with reshape(h, -1) without moving the heads axis to the front, so with leading batch axes each row mixes several heads.",
  "teacher_says": "reshape only regroups memory order: move axis -3 to the front first, or each 'head' vector holds pieces of other heads.",
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
  "mistake": "Divides by the raw norms, so a head that is all zeros produces 0/0 = NaN in its row and column.",
  "teacher_says": "Guard the division: a zero head must give similarity 0, never NaN.",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    return unit @ unit.T
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Computes one similarity matrix per batch element and averages them, instead of flattening each head over all leading axes into one vector.",
  "teacher_says": "The statement flattens each head over every leading axis into one vector; a mean of per-example cosines is a different number.",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h, n, f = per_head.shape[-3:]
    blocks = per_head.reshape(-1, h, n * f)           # (batch, h, n*f)
    norm = np.linalg.norm(blocks, axis=-1, keepdims=True)
    unit = blocks / np.maximum(norm, 1e-12)
    return (unit @ np.swapaxes(unit, -1, -2)).mean(axis=0)
'''},
 # ---------------------------------------------------------------- gate_importance
 {"exercise": "gate_importance", "kind": "correct",
  "idea": "broadcast-multiply, sum over (n, d), abs, mean over the batch",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    per_example = (contributions * grad_out[:, None, :, :]).sum(axis=(-2, -1))  # (B, h): dL/dg_a
    return np.abs(per_example).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "robustness",
  "idea": "explicit loops over examples and heads with np.vdot, accumulates in float64",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    B, h = contributions.shape[:2]
    total = np.zeros(h, dtype=np.float64)
    for b in range(B):
        for a in range(h):
            total[a] += abs(np.vdot(contributions[b, a].astype(np.float64),
                                    grad_out[b].astype(np.float64)))
    return total / B
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Takes the mean over the examples before the absolute value, so gradients of opposite signs cancel.",
  "teacher_says": "I_a is E|dL/dg_a|: the absolute value of each example's gradient first, then the mean.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    grads = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(grads.mean(axis=0))
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Puts the absolute value inside the sum over positions and features (sum of |grad * contribution|) instead of on the example's total derivative.",
  "teacher_says": "dL/dg_a is one signed number per example, a full dot product; take |.| of that, not of each term.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    terms = np.abs(contributions * grad_out[:, None])
    return terms.sum(axis=(2, 3)).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Averages over positions and features instead of summing them, so the importances are scaled down by n*d_model.",
  "teacher_says": "The chain rule sums over every output entry; a mean divides the derivative by n*d_model.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    per_example = (contributions * grad_out[:, np.newaxis]).mean(axis=(2, 3))
    return np.abs(per_example).mean(axis=0)
'''},
 # ---------------------------------------------------------------- attention_without_head
 {"exercise": "attention_without_head", "kind": "correct",
  "idea": "multiply W^O's rows by a repeated 0/1 head mask (a new array) and replace the field",
  "code": '''
import dataclasses
import numpy as np
import mha

def attention_without_head(x, params, head):
    h = params.num_heads
    d_v = params.w_o.shape[0] // h
    keep = np.ones(h, dtype=params.w_o.dtype)
    keep[head] = 0
    w_o = params.w_o * np.repeat(keep, d_v)[:, None]  # a new array: params untouched
    pruned = dataclasses.replace(params, w_o=w_o)
    out, _ = mha.multi_head_attention(x, x, x, pruned)
    return out
'''},
 {"exercise": "attention_without_head", "kind": "robustness",
  "idea": "deep-copies the whole params object (every weight), zeroes the rows of the copy in a Python loop, and asks for the weights it then ignores",
  "code": '''
import copy
import mha

def attention_without_head(x, params, head):
    p = copy.deepcopy(params)
    d_v = p.w_v.shape[1] // p.num_heads
    for row in range(head * d_v, (head + 1) * d_v):
        for col in range(p.w_o.shape[1]):
            p.w_o[row, col] = 0.0
    out, weights = mha.multi_head_attention(x, x, x, p, need_weights=True)
    return out
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Zeroes the head's query columns of W^Q instead of its rows of W^O; the head's softmax becomes uniform and it still adds the mean of its values.",
  "teacher_says": "Pruning removes the head's output term, rows i*d_v:(i+1)*d_v of W^O; zero queries do not silence a head.",
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
  "mistake": "Slices W^O's rows with d_k instead of d_v; right only when d_k == d_v.",
  "teacher_says": "W^O has h*d_v rows: a head's block is d_v rows long, which differs from d_k in general.",
  "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    d_k = params.w_q.shape[1] // params.num_heads
    w_o = params.w_o.copy()
    w_o[head * d_k:(head + 1) * d_k, :] = 0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))
    return out
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Also drops the output bias b_o along with the head's rows of W^O.",
  "teacher_says": "A zero head gate removes only the head's term; the output bias b_o stays.",
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

_WRITER_C = ANSWERS

"""Writer G, chapter 08 (what heads learn): head_similarity, gate_importance,
attention_without_head."""

ANSWERS = [
    # ------------------------------------------------------------------ head_similarity
    {"exercise": "head_similarity", "kind": "correct",
     "idea": "swapaxes heads to the front, flatten, unit rows with np.divide(where=...) so zero heads stay 0",
     "code": '''
import numpy as np

def head_similarity(per_head):
    per_head = np.asarray(per_head)
    h = per_head.shape[-3]
    flat = np.swapaxes(per_head, 0, -3).reshape(h, -1) if per_head.ndim > 3 else per_head.reshape(h, -1)
    lengths = np.sqrt(np.einsum("if,if->i", flat, flat))[:, None]
    unit = np.divide(flat, lengths, out=np.zeros_like(flat), where=lengths > 0)
    return unit @ unit.T
'''},
    {"exercise": "head_similarity", "kind": "robustness",
     "idea": "double Python loop over pairs of heads, each cosine from np.dot of float64 copies",
     "code": '''
import numpy as np

def head_similarity(per_head):
    per_head = np.asarray(per_head)
    h = per_head.shape[-3]
    vectors = [np.asarray(per_head[..., a, :, :], dtype=np.float64).ravel() for a in range(h)]
    sim = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            na, nb = np.linalg.norm(vectors[a]), np.linalg.norm(vectors[b])
            if na == 0 or nb == 0:
                sim[a, b] = 0.0
            else:
                sim[a, b] = np.dot(vectors[a], vectors[b]) / (na * nb)
    return sim
'''},
    {"exercise": "head_similarity", "kind": "wrong",
     "mistake": "Reshapes to (h, -1) without moving the heads axis to the front, so with batch axes each 'head' vector mixes blocks of several heads and sequences.",
     "teacher_says": "With leading batch axes the heads are not the first axis: move axis -3 to the front before flattening.",
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
     "mistake": "Divides by the norms without guarding against 0, so a pruned (all-zero) head gives NaN instead of 0.",
     "teacher_says": "The statement wants 0 for an all-zero head: never divide by a norm of 0 (clamp it or use a where).",
     "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    return unit @ unit.T
'''},
    {"exercise": "head_similarity", "kind": "wrong",
     "mistake": "Takes the norms along the wrong axis (axis=0, over the heads), so the rows are not unit vectors and the result is not a cosine.",
     "teacher_says": "Each head's vector is a row of the (h, -1) matrix: its norm is along axis 1; check that the diagonal is 1.",
     "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    norms = np.maximum(np.linalg.norm(vectors, axis=0, keepdims=True), 1e-12)
    unit = vectors / norms
    return unit @ unit.T
'''},
    # ------------------------------------------------------------------ gate_importance
    {"exercise": "gate_importance", "kind": "correct",
     "idea": "broadcast grad_out over the heads axis, sum over positions and features, abs, mean over the batch",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    per_example = (contributions * grad_out[:, None, :, :]).sum(axis=(-2, -1))  # (B, h): dL/dg_a
    return np.abs(per_example).mean(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "robustness",
     "idea": "explicit loops over examples and heads with np.vdot, accumulating the mean by hand",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    B, h = contributions.shape[:2]
    total = np.zeros(h, dtype=np.result_type(contributions, grad_out))
    for b in range(B):
        for a in range(h):
            total[a] += abs(np.vdot(grad_out[b], contributions[b, a]))
    return total / B
'''},
    {"exercise": "gate_importance", "kind": "wrong",
     "mistake": "Takes the absolute value of every product before summing, instead of the absolute value of the derivative.",
     "teacher_says": "dL/dg_a is the sum of grad_out times the contribution; only that sum goes into |.|, terms of opposite sign must cancel first.",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    return np.abs(np.einsum("bhnd,bnd->bhnd", contributions, grad_out)).sum(axis=(-2, -1)).mean(0)
'''},
    {"exercise": "gate_importance", "kind": "wrong",
     "mistake": "Averages the gradient over the examples before the absolute value: |E[dL/dg]| instead of E[|dL/dg|].",
     "teacher_says": "Michel et al. take the expectation of the absolute value: abs per example, then the mean.",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    grads = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(grads.mean(axis=0))
'''},
    {"exercise": "gate_importance", "kind": "wrong",
     "mistake": "Sums over the examples instead of averaging, so the importances are B times too large.",
     "teacher_says": "I_a is an expectation over x: divide by the number of examples (mean, not sum).",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    grads = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(grads).sum(axis=0)
'''},
    # ------------------------------------------------------------------ attention_without_head
    {"exercise": "attention_without_head", "kind": "correct",
     "idea": "multiply W^O by a per-row keep vector (0 on the head's d_v rows) and build new params with dataclasses.replace",
     "code": '''
import dataclasses
import numpy as np
import mha

def attention_without_head(x, params, head):
    keep = np.ones(params.num_heads, dtype=params.w_o.dtype)
    keep[head] = 0
    row_keep = np.repeat(keep, params.d_v)[:, None]  # (h*d_v, 1)
    pruned = dataclasses.replace(params, w_o=params.w_o * row_keep)
    out, _ = mha.multi_head_attention(x, x, x, pruned)
    return out
'''},
    {"exercise": "attention_without_head", "kind": "robustness",
     "idea": "deep-copies the whole params (every weight and bias), zeroes the rows of the copy in place, and asks for the weights it throws away",
     "code": '''
import copy
import mha

def attention_without_head(x, params, head):
    clone = copy.deepcopy(params)
    d_v = clone.w_v.shape[1] // clone.num_heads
    for row in range(head * d_v, (head + 1) * d_v):
        clone.w_o[row, :] = 0.0
    out, _weights = mha.multi_head_attention(x, x, x, clone, need_weights=True)
    return out
'''},
    {"exercise": "attention_without_head", "kind": "wrong",
     "mistake": "Slices the rows of W^O with d_k instead of d_v, which only works when the two are equal.",
     "teacher_says": "W^O's rows follow the values: head i owns rows i*d_v:(i+1)*d_v, and d_v may differ from d_k.",
     "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    w_o = params.w_o.copy()
    d_k = params.d_k
    w_o[head * d_k:(head + 1) * d_k] = 0.0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))
    return out
'''},
    {"exercise": "attention_without_head", "kind": "wrong",
     "mistake": "Zeroes the head's columns of W^Q, thinking that a head without queries is gone; its weights become uniform and it still adds the mean of its values.",
     "teacher_says": "Pruning removes the head's output term: zero its rows of W^O, not its queries.",
     "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    w_q = params.w_q.copy()
    d_k = params.d_k
    w_q[:, head * d_k:(head + 1) * d_k] = 0.0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_q=w_q))
    return out
'''},
    {"exercise": "attention_without_head", "kind": "wrong",
     "mistake": "Zeroes the rows in params.w_o itself (MHAParams is frozen, but its arrays are writable), so the caller's weights are changed and a second call removes two heads.",
     "teacher_says": "Work on a copy of W^O: the statement says not to change params, and in-place edits leak into every later call.",
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
