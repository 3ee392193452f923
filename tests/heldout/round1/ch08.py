ANSWERS = [
    # head_similarity
    {"exercise": "head_similarity", "kind": "correct", "idea": "double loop over heads with np.dot and norms",
     "code": '''
import numpy as np

def head_similarity(per_head):
    x = np.asarray(per_head)
    h = x.shape[-3]
    vecs = [np.take(x, a, axis=-3).ravel().astype(np.float64) for a in range(h)]
    out = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            na, nb = np.linalg.norm(vecs[a]), np.linalg.norm(vecs[b])
            if na > 0 and nb > 0:
                out[a, b] = vecs[a] @ vecs[b] / (na * nb)
    return out
'''},
    {"exercise": "head_similarity", "kind": "correct", "idea": "einsum Gram matrix over leading, n, f axes divided by outer product of norms",
     "code": '''
import numpy as np

def head_similarity(per_head):
    x = np.moveaxis(np.asarray(per_head), -3, 0)
    h = x.shape[0]
    flat = x.reshape(h, -1)
    gram = np.einsum("ai,bi->ab", flat, flat)
    norm = np.sqrt(np.diag(gram))
    den = np.outer(norm, norm)
    return np.where(den > 0, gram / np.where(den > 0, den, 1.0), 0.0)
'''},
    {"exercise": "head_similarity", "kind": "wrong", "mistake": "flattens with reshape(h, -1) without moving the heads axis first",
     "teacher_says": "reshape(h, -1) on (B, h, n, f) mixes batch and heads; move the heads axis to the front first",
     "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    flat = per_head.reshape(h, -1)
    flat = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    return flat @ flat.T
'''},
    {"exercise": "head_similarity", "kind": "wrong", "mistake": "averages per-example cosine similarities instead of flattening over all leading axes",
     "teacher_says": "flatten each head's blocks over all leading axes into one vector, then take one cosine",
     "code": '''
import numpy as np

def head_similarity(per_head):
    x = np.asarray(per_head)
    h = x.shape[-3]
    x = x.reshape(-1, h, x.shape[-2] * x.shape[-1])
    x = x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)
    return np.mean(x @ np.swapaxes(x, -1, -2), axis=0)
'''},
    {"exercise": "head_similarity", "kind": "wrong", "mistake": "zero head: sets the diagonal to 1 anyway",
     "teacher_says": "a head that is all zeros has similarity 0 with every head, itself included",
     "code": '''
import numpy as np

def head_similarity(per_head):
    x = np.moveaxis(per_head, -3, 0)
    flat = x.reshape(x.shape[0], -1)
    flat = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    s = flat @ flat.T
    np.fill_diagonal(s, 1.0)
    return s
'''},
    {"exercise": "head_similarity", "kind": "wrong", "mistake": "dot products without normalising (not a cosine)",
     "teacher_says": "divide each vector by its norm: cosine similarity is between -1 and 1",
     "code": '''
import numpy as np

def head_similarity(per_head):
    x = np.moveaxis(per_head, -3, 0)
    flat = x.reshape(x.shape[0], -1)
    return flat @ flat.T
'''},
    {"exercise": "head_similarity", "kind": "wrong", "mistake": "zero head gives NaN (no guard on the norm)",
     "teacher_says": "never divide by a zero norm: use np.maximum(norm, 1e-12)",
     "code": '''
import numpy as np

def head_similarity(per_head):
    x = np.moveaxis(per_head, -3, 0)
    flat = x.reshape(x.shape[0], -1)
    n = np.linalg.norm(flat, axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        flat = flat / n
    return flat @ flat.T
'''},
    # gate_importance
    {"exercise": "gate_importance", "kind": "correct", "idea": "einsum then abs then mean",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    g = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(g).mean(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "correct", "idea": "broadcast multiply and sum over the last two axes",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    prod = contributions * grad_out[:, None, :, :]
    return np.mean(np.abs(prod.sum(axis=(-1, -2))), axis=0)
'''},
    {"exercise": "gate_importance", "kind": "wrong", "mistake": "absolute value before summing (sum of |products|)",
     "teacher_says": "take the absolute value of each example's derivative, after the sum over positions and features",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    return np.abs(contributions * grad_out[:, None]).sum(axis=(-1, -2)).mean(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "wrong", "mistake": "mean over examples before the absolute value",
     "teacher_says": "I_a = E|dL/dg_a|: the absolute value comes before the mean",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    return np.abs(np.einsum("bhnd,bnd->bh", contributions, grad_out).mean(axis=0))
'''},
    {"exercise": "gate_importance", "kind": "wrong", "mistake": "sums over examples instead of averaging",
     "teacher_says": "the expectation over x is a mean, not a sum",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    return np.abs(np.einsum("bhnd,bnd->bh", contributions, grad_out)).sum(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "wrong", "mistake": "normalises the importances to sum 1 (as in some papers)",
     "teacher_says": "the exercise asks for I itself, not a normalised version",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    i = np.abs(np.einsum("bhnd,bnd->bh", contributions, grad_out)).mean(axis=0)
    return i / i.sum()
'''},
    {"exercise": "gate_importance", "kind": "robustness", "idea": "python loops, returns a list",
     "mistake": "returns a Python list of floats",
     "teacher_says": "return a NumPy array of shape (h,)",
     "code": '''
def gate_importance(contributions, grad_out):
    B, h = contributions.shape[:2]
    out = []
    for a in range(h):
        tot = 0.0
        for b in range(B):
            tot += abs(float((contributions[b, a] * grad_out[b]).sum()))
        out.append(tot / B)
    return out
'''},
    # attention_without_head
    {"exercise": "attention_without_head", "kind": "correct", "idea": "copy w_o, zero its rows, dataclasses.replace",
     "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    w_o = params.w_o.copy()
    w_o[head * d_v:(head + 1) * d_v] = 0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))
    return out
'''},
    {"exercise": "attention_without_head", "kind": "correct", "idea": "multiply W^O by a 0/1 row mask built with np.repeat",
     "code": '''
import numpy as np
import mha

def attention_without_head(x, params, head):
    h = params.num_heads
    keep = np.ones(h, dtype=params.w_o.dtype)
    keep[head] = 0
    d_v = params.w_o.shape[0] // h
    w_o = params.w_o * np.repeat(keep, d_v)[:, None]
    p = mha.MHAParams(params.w_q, params.w_k, params.w_v, w_o, h,
                      b_q=params.b_q, b_k=params.b_k, b_v=params.b_v, b_o=params.b_o)
    return mha.multi_head_attention(x, x, x, p)[0]
'''},
    {"exercise": "attention_without_head", "kind": "wrong", "mistake": "zeros columns of W^O instead of rows",
     "teacher_says": "head i's term uses rows i*d_v:(i+1)*d_v of W^O; zeroing columns removes output features",
     "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    w_o = params.w_o.copy()
    w_o[:, head * d_v:(head + 1) * d_v] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))[0]
'''},
    {"exercise": "attention_without_head", "kind": "wrong", "mistake": "zeros the query head's columns of W^Q (head still contributes: uniform attention)",
     "teacher_says": "zero queries give uniform weights, not a removed head; remove its rows of W^O",
     "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    d_k = params.w_q.shape[1] // params.num_heads
    w_q = params.w_q.copy()
    w_q[:, head * d_k:(head + 1) * d_k] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_q=w_q))[0]
'''},
    {"exercise": "attention_without_head", "kind": "wrong", "mistake": "also zeros b_o (removes the bias with the head)",
     "teacher_says": "the output bias is not part of any head: keep b_O",
     "code": '''
import dataclasses
import numpy as np
import mha

def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    w_o = params.w_o.copy()
    w_o[head * d_v:(head + 1) * d_v] = 0
    b_o = None if params.b_o is None else np.zeros_like(params.b_o)
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o, b_o=b_o))[0]
'''},
    {"exercise": "attention_without_head", "kind": "wrong", "mistake": "head counted from 1 (off by one)",
     "teacher_says": "heads are numbered from 0",
     "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    w_o = params.w_o.copy()
    w_o[(head - 1) * d_v:head * d_v] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))[0]
'''},
    {"exercise": "attention_without_head", "kind": "robustness", "idea": "zeros the rows in params.w_o in place (no copy)",
     "mistake": "modifies the caller's params",
     "teacher_says": "work on a copy: params.w_o[rows] = 0 changes the caller's weights",
     "code": '''
import mha

def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    params.w_o[head * d_v:(head + 1) * d_v] = 0
    return mha.multi_head_attention(x, x, x, params)[0]
'''},
    {"exercise": "attention_without_head", "kind": "robustness", "idea": "returns the (out, weights) tuple",
     "mistake": "returns the tuple from multi_head_attention instead of the output",
     "teacher_says": "return only the output array",
     "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    w_o = params.w_o.copy()
    w_o[head * d_v:(head + 1) * d_v] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))
'''},
]
