_HS = '''
import numpy as np

def head_similarity(per_head):
    x = np.asarray(per_head, dtype=np.float64)
    h = x.shape[-3]
    flat = np.moveaxis(x, -3, 0).reshape(h, -1)
    norms = np.linalg.norm(flat, axis=1)
    safe = np.where(norms > 0, norms, 1.0)
    unit = flat / safe[:, None]
    sim = unit @ unit.T
    sim[norms == 0, :] = 0
    sim[:, norms == 0] = 0
    return sim
'''
_AWH = '''
import dataclasses
import numpy as np
import mha

def attention_without_head(x, params, head):
    h = params.num_heads
    d_v = params.w_o.shape[0] // h
    w_o = params.w_o.copy()
    w_o[head * d_v:(head + 1) * d_v] = 0
    p = dataclasses.replace(params, w_o=w_o)
    return mha.multi_head_attention(x, x, x, p)[0]
'''
ANSWERS = [
    {"exercise": "head_similarity", "kind": "correct", "idea": "moveaxis, flatten, normalise, zero heads handled", "code": _HS},
    {"exercise": "head_similarity", "kind": "correct", "idea": "double loop with np.dot",
     "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vecs = [np.asarray(per_head[..., a, :, :], dtype=np.float64).ravel() for a in range(h)]
    out = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            na, nb = np.linalg.norm(vecs[a]), np.linalg.norm(vecs[b])
            if na > 0 and nb > 0:
                out[a, b] = np.dot(vecs[a], vecs[b]) / (na * nb)
    return out
'''},
    {"exercise": "head_similarity", "kind": "wrong", "mistake": "reshape(h, -1) without moving the heads axis first (mixes heads across the batch)",
     "teacher_says": "with leading batch axes, the heads are not the first axis: move axis -3 to the front before flattening",
     "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    flat = per_head.reshape(h, -1)
    n = np.linalg.norm(flat, axis=1, keepdims=True)
    unit = np.divide(flat, n, out=np.zeros_like(flat, dtype=float), where=n > 0)
    return unit @ unit.T
'''},
    {"exercise": "head_similarity", "kind": "wrong", "mistake": "zero head gives similarity 1 with itself (diagonal set to 1)",
     "teacher_says": "a head of zeros has similarity 0 with every head, itself included",
     "code": _HS.replace("    return sim\n", "    np.fill_diagonal(sim, 1.0)\n    return sim\n")},
    {"exercise": "head_similarity", "kind": "wrong", "mistake": "averages per-example cosine similarities instead of flattening over leading axes",
     "teacher_says": "flatten each head's blocks over all leading axes into one vector; a mean of per-example cosines is a different number",
     "code": '''
import numpy as np

def head_similarity(per_head):
    x = np.asarray(per_head, dtype=np.float64)
    h, n, f = x.shape[-3:]
    x = x.reshape(-1, h, n * f)
    nrm = np.linalg.norm(x, axis=-1, keepdims=True)
    u = np.divide(x, nrm, out=np.zeros_like(x), where=nrm > 0)
    return (u @ np.swapaxes(u, -1, -2)).mean(axis=0)
'''},
    {"exercise": "head_similarity", "kind": "wrong", "mistake": "Pearson correlation (np.corrcoef) instead of cosine: subtracts the mean",
     "teacher_says": "cosine similarity does not subtract the mean; corrcoef does (and NaNs on zero heads)",
     "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    flat = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    with np.errstate(all="ignore"):
        c = np.corrcoef(flat)
    return np.nan_to_num(c)
'''},
    {"exercise": "head_similarity", "kind": "wrong", "mistake": "uses the heads axis as -1 by habit (features)",
     "teacher_says": "heads are on axis -3, not the last axis",
     "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-1]
    flat = np.moveaxis(per_head, -1, 0).reshape(h, -1).astype(float)
    n = np.linalg.norm(flat, axis=1, keepdims=True)
    u = np.divide(flat, n, out=np.zeros_like(flat), where=n > 0)
    return u @ u.T
'''},
    {"exercise": "head_similarity", "kind": "robustness", "idea": "returns NaN for zero heads (no guard)",
     "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    flat = np.moveaxis(per_head, -3, 0).reshape(h, -1).astype(float)
    with np.errstate(all="ignore"):
        u = flat / np.linalg.norm(flat, axis=1, keepdims=True)
    return u @ u.T
'''},
    {"exercise": "gate_importance", "kind": "correct", "idea": "einsum per example then mean abs",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    g = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(g).mean(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "correct", "idea": "loop over heads, broadcasting product and sums",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    B, h = contributions.shape[:2]
    out = np.zeros(h, dtype=np.result_type(contributions, grad_out))
    for a in range(h):
        per_example = (contributions[:, a] * grad_out).reshape(B, -1).sum(axis=1)
        out[a] = np.mean(np.abs(per_example))
    return out
'''},
    {"exercise": "gate_importance", "kind": "wrong", "mistake": "abs taken before summing over positions and features",
     "teacher_says": "the gradient dL/dg_a is the sum over positions and features; take |.| of that sum, per example",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    return np.abs(contributions * grad_out[:, None]).sum(axis=(2, 3)).mean(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "wrong", "mistake": "abs after averaging over the batch (|E[dL/dg]| instead of E|dL/dg|)",
     "teacher_says": "the expectation is of the absolute value: take |.| per example, then average",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    return np.abs(np.einsum("bhnd,bnd->bh", contributions, grad_out).mean(axis=0))
'''},
    {"exercise": "gate_importance", "kind": "wrong", "mistake": "sums over the batch instead of averaging",
     "teacher_says": "I_a is an expectation over examples: average, don't sum",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    return np.abs(np.einsum("bhnd,bnd->bh", contributions, grad_out)).sum(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "wrong", "mistake": "means over positions and features too (divides by n*d)",
     "teacher_says": "the gradient with respect to a gate is a sum over positions and features, not a mean",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    return np.abs((contributions * grad_out[:, None]).mean(axis=(2, 3))).mean(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "robustness", "idea": "returns a list of floats",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    return [float(x) for x in np.abs(np.einsum("bhnd,bnd->bh", contributions, grad_out)).mean(0)]
'''},
    {"exercise": "attention_without_head", "kind": "correct", "idea": "zero the head's rows of W^O on a copy", "code": _AWH},
    {"exercise": "attention_without_head", "kind": "correct", "idea": "full output minus the head's contribution",
     "code": '''
import numpy as np
import mha

def attention_without_head(x, params, head):
    h = params.num_heads
    qh = mha.split_heads(x @ params.w_q + (0 if params.b_q is None else params.b_q), h)
    kh = mha.split_heads(x @ params.w_k + (0 if params.b_k is None else params.b_k), h)
    vh = mha.split_heads(x @ params.w_v + (0 if params.b_v is None else params.b_v), h)
    heads, _ = mha.scaled_dot_product_attention(qh, kh, vh)
    heads = heads.copy()
    heads[..., head, :, :] = 0
    out = mha.merge_heads(heads) @ params.w_o
    return out if params.b_o is None else out + params.b_o
'''},
    {"exercise": "attention_without_head", "kind": "wrong", "mistake": "zeros the head's columns of W^V but leaves b_v: the head still writes b_v W^O",
     "teacher_says": "with a value bias the head still outputs b_v through W^O; gate it at the output (rows of W^O)",
     "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    h = params.num_heads
    d_v = params.w_v.shape[1] // h
    w_v = params.w_v.copy()
    w_v[:, head * d_v:(head + 1) * d_v] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_v=w_v))[0]
'''},
    {"exercise": "attention_without_head", "kind": "wrong", "mistake": "zeros W^O's columns instead of the head's rows",
     "teacher_says": "head i's block of W^O is rows i*d_v:(i+1)*d_v",
     "code": _AWH.replace("w_o[head * d_v:(head + 1) * d_v] = 0", "w_o[:, head * d_v:(head + 1) * d_v] = 0")},
    {"exercise": "attention_without_head", "kind": "wrong", "mistake": "zeros W^Q's block: the head then attends uniformly but still writes",
     "teacher_says": "zero queries give uniform attention, not a removed head; remove the head's output",
     "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    h = params.num_heads
    d_k = params.w_q.shape[1] // h
    w_q = params.w_q.copy()
    w_q[:, head * d_k:(head + 1) * d_k] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_q=w_q))[0]
'''},
    {"exercise": "attention_without_head", "kind": "wrong", "mistake": "heads counted from 1",
     "teacher_says": "head is counted from 0",
     "code": _AWH.replace("w_o[head * d_v:(head + 1) * d_v] = 0", "w_o[(head - 1) * d_v:head * d_v] = 0")},
    {"exercise": "attention_without_head", "kind": "robustness", "idea": "modifies params.w_o in place (no copy)",
     "code": _AWH.replace("w_o = params.w_o.copy()", "w_o = params.w_o")},
]
