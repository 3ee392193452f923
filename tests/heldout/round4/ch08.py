ANSWERS = [
 {"exercise": "head_similarity", "kind": "correct", "idea": "moveaxis, flatten, normalise with floor", "code": '''
import numpy as np
def head_similarity(per_head):
    x = np.asarray(per_head)
    h = x.shape[-3]
    v = np.moveaxis(x, -3, 0).reshape(h, -1)
    u = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    return u @ u.T
'''},
 {"exercise": "head_similarity", "kind": "correct", "idea": "double loop with float64 dot products", "code": '''
import math
import numpy as np
def head_similarity(per_head):
    x = np.asarray(per_head, dtype=np.float64)
    h = x.shape[-3]
    vs = [np.take(x, i, axis=-3).ravel() for i in range(h)]
    ns = [math.sqrt(float(v @ v)) for v in vs]
    out = np.zeros((h, h))
    for i in range(h):
        for j in range(h):
            if ns[i] > 0 and ns[j] > 0:
                out[i, j] = float(vs[i] @ vs[j]) / (ns[i] * ns[j])
    return out.astype(np.asarray(per_head).dtype) if np.asarray(per_head).dtype.kind == "f" else out
'''},
 {"exercise": "head_similarity", "kind": "wrong", "mistake": "reshape(h, -1) without moving the heads axis (batch first)", "teacher_says": "with a batch axis, reshape(h, -1) mixes examples and heads: move the heads axis to the front first", "code": '''
import numpy as np
def head_similarity(per_head):
    h = per_head.shape[-3]
    v = per_head.reshape(h, -1)
    u = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    return u @ u.T
'''},
 {"exercise": "head_similarity", "kind": "wrong", "mistake": "mean of per-example cosines instead of one cosine of flattened vectors", "teacher_says": "flatten each head over all leading axes into one vector, then one cosine", "code": '''
import numpy as np
def head_similarity(per_head):
    x = np.asarray(per_head)
    h, n, f = x.shape[-3:]
    x = x.reshape(-1, h, n * f)
    u = x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)
    return (u @ np.swapaxes(u, -1, -2)).mean(axis=0)
'''},
 {"exercise": "head_similarity", "kind": "wrong", "mistake": "Pearson correlation (centred) instead of cosine", "teacher_says": "cosine similarity does not subtract the mean", "code": '''
import numpy as np
def head_similarity(per_head):
    x = np.asarray(per_head)
    h = x.shape[-3]
    v = np.moveaxis(x, -3, 0).reshape(h, -1)
    v = v - v.mean(axis=1, keepdims=True)
    u = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    return u @ u.T
'''},
 {"exercise": "head_similarity", "kind": "wrong", "mistake": "diagonal forced to 1 (zero head gets 1 with itself)", "teacher_says": "an all-zero head has similarity 0 even with itself", "code": '''
import numpy as np
def head_similarity(per_head):
    x = np.asarray(per_head)
    h = x.shape[-3]
    v = np.moveaxis(x, -3, 0).reshape(h, -1)
    u = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    s = u @ u.T
    np.fill_diagonal(s, 1.0)
    return s
'''},
 {"exercise": "head_similarity", "kind": "wrong", "mistake": "divides each dot product by the squared norm of the row head only (projection coefficient, not cosine)", "teacher_says": "the cosine divides by the product of the two norms, |a||b|; yours is not even symmetric", "code": '''
import numpy as np
def head_similarity(per_head):
    x = np.asarray(per_head)
    h = x.shape[-3]
    v = np.moveaxis(x, -3, 0).reshape(h, -1)
    n2 = np.maximum((v * v).sum(1), 1e-12)
    return (v @ v.T) / n2[:, None]
'''},
 {"exercise": "head_similarity", "kind": "robustness", "idea": "NaN for an all-zero head", "mistake": "divides by a zero norm", "teacher_says": "guard the zero norm", "code": '''
import numpy as np
def head_similarity(per_head):
    h = per_head.shape[-3]
    v = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    u = v / np.linalg.norm(v, axis=1, keepdims=True)
    return u @ u.T
'''},
 {"exercise": "gate_importance", "kind": "correct", "idea": "einsum then abs then mean over batch", "code": '''
import numpy as np
def gate_importance(contributions, grad_out):
    g = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(g).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "correct", "idea": "broadcast multiply and sum", "code": '''
import numpy as np
def gate_importance(contributions, grad_out):
    g = (contributions * grad_out[:, None, :, :]).sum(axis=(-2, -1))
    return np.mean(np.abs(g), axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong", "mistake": "abs after the mean over examples", "teacher_says": "take |dL/dg| per example, then average; you averaged then took abs", "code": '''
import numpy as np
def gate_importance(contributions, grad_out):
    g = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(g.mean(axis=0))
'''},
 {"exercise": "gate_importance", "kind": "wrong", "mistake": "abs elementwise before summing over positions and features", "teacher_says": "the derivative is the sum; take the absolute value of the sum, not of each term", "code": '''
import numpy as np
def gate_importance(contributions, grad_out):
    return np.abs(contributions * grad_out[:, None]).sum(axis=(-2, -1)).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong", "mistake": "sums over the batch instead of averaging", "teacher_says": "I is an expectation: mean over examples", "code": '''
import numpy as np
def gate_importance(contributions, grad_out):
    g = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(g).sum(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong", "mistake": "uses the norm of each head's contribution (ignores the gradient sign / direction)", "teacher_says": "importance is the gradient w.r.t. the gate: contributions dotted with grad_out", "code": '''
import numpy as np
def gate_importance(contributions, grad_out):
    return (np.linalg.norm(contributions, axis=(-2, -1)) * np.linalg.norm(grad_out, axis=(-2, -1))[:, None]).mean(0)
'''},
 {"exercise": "gate_importance", "kind": "robustness", "idea": "returns (B, h) instead of (h,)", "mistake": "no mean over examples", "teacher_says": "return one number per head", "code": '''
import numpy as np
def gate_importance(contributions, grad_out):
    return np.abs(np.einsum("bhnd,bnd->bh", contributions, grad_out))
'''},
 {"exercise": "attention_without_head", "kind": "correct", "idea": "zero rows of a copy of W^O, dataclasses.replace", "code": '''
import dataclasses
import numpy as np
import mha
def attention_without_head(x, params, head):
    d_v = params.w_v.shape[1] // params.num_heads
    w_o = params.w_o.copy()
    w_o[head * d_v:(head + 1) * d_v] = 0
    p = dataclasses.replace(params, w_o=w_o)
    return mha.multi_head_attention(x, x, x, p)[0]
'''},
 {"exercise": "attention_without_head", "kind": "correct", "idea": "full output minus that head's contribution", "code": '''
import numpy as np
import mha
def attention_without_head(x, params, head):
    h = params.num_heads
    out, _ = mha.multi_head_attention(x, x, x, params)
    v = x @ params.w_v
    if params.b_v is not None:
        v = v + params.b_v
    q = x @ params.w_q + (0 if params.b_q is None else params.b_q)
    k = x @ params.w_k + (0 if params.b_k is None else params.b_k)
    heads, _ = mha.scaled_dot_product_attention(mha.split_heads(q, h), mha.split_heads(k, h), mha.split_heads(v, h))
    d_v = heads.shape[-1]
    return out - heads[..., head, :, :] @ params.w_o[head * d_v:(head + 1) * d_v]
'''},
 {"exercise": "attention_without_head", "kind": "wrong", "mistake": "zeroes the head's query columns (uniform attention, not removal)", "teacher_says": "zero queries give uniform weights, the head still writes; zero its rows of W^O", "code": '''
import dataclasses
import mha
def attention_without_head(x, params, head):
    d_k = params.w_q.shape[1] // params.num_heads
    w_q = params.w_q.copy(); w_q[:, head * d_k:(head + 1) * d_k] = 0
    b_q = None if params.b_q is None else params.b_q.copy()
    if b_q is not None:
        b_q[head * d_k:(head + 1) * d_k] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_q=w_q, b_q=b_q))[0]
'''},
 {"exercise": "attention_without_head", "kind": "wrong", "mistake": "zeroes columns of W^O instead of rows", "teacher_says": "head i's block of W^O is rows i*d_v:(i+1)*d_v", "code": '''
import dataclasses
import mha
def attention_without_head(x, params, head):
    d_v = params.w_v.shape[1] // params.num_heads
    w_o = params.w_o.copy(); w_o[:, head * d_v:(head + 1) * d_v] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))[0]
'''},
 {"exercise": "attention_without_head", "kind": "wrong", "mistake": "zeroes W^V block but not b_v (value bias still written)", "teacher_says": "with a value bias the head still writes b_v W^O_i; zero the rows of W^O instead", "code": '''
import dataclasses
import mha
def attention_without_head(x, params, head):
    d_v = params.w_v.shape[1] // params.num_heads
    w_v = params.w_v.copy(); w_v[:, head * d_v:(head + 1) * d_v] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_v=w_v))[0]
'''},
 {"exercise": "attention_without_head", "kind": "wrong", "mistake": "heads counted from 1", "teacher_says": "head numbers start at 0", "code": '''
import dataclasses
import mha
def attention_without_head(x, params, head):
    d_v = params.w_v.shape[1] // params.num_heads
    i = head - 1
    w_o = params.w_o.copy(); w_o[i * d_v:(i + 1) * d_v] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))[0]
'''},
 {"exercise": "attention_without_head", "kind": "wrong", "mistake": "also removes b_o", "teacher_says": "the output bias belongs to no head: keep it", "code": '''
import dataclasses
import mha
def attention_without_head(x, params, head):
    d_v = params.w_v.shape[1] // params.num_heads
    w_o = params.w_o.copy(); w_o[head * d_v:(head + 1) * d_v] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o, b_o=None))[0]
'''},
 {"exercise": "attention_without_head", "kind": "robustness", "idea": "zeroes params.w_o in place", "mistake": "modifies the caller's params", "teacher_says": "work on a copy of W^O", "code": '''
import mha
def attention_without_head(x, params, head):
    d_v = params.w_v.shape[1] // params.num_heads
    params.w_o[head * d_v:(head + 1) * d_v] = 0
    return mha.multi_head_attention(x, x, x, params)[0]
'''},
 {"exercise": "attention_without_head", "kind": "robustness", "idea": "returns (out, weights) tuple", "mistake": "returns the pair", "teacher_says": "return only the output", "code": '''
import dataclasses
import mha
def attention_without_head(x, params, head):
    d_v = params.w_v.shape[1] // params.num_heads
    w_o = params.w_o.copy(); w_o[head * d_v:(head + 1) * d_v] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))
'''},
]
