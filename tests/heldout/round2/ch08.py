_SIM = '''
import numpy as np

def head_similarity(per_head):
    x = np.asarray(per_head)
    h = x.shape[-3]
    flat = np.moveaxis(x, -3, 0).reshape(h, -1)
    norms = np.linalg.norm(flat, axis=1, keepdims=True)
    unit = flat / np.maximum(norms, 1e-12)
    return unit @ unit.T
'''

_WITHOUT = '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    w_o = params.w_o.copy()
    w_o[head * d_v:(head + 1) * d_v] = 0
    pruned = dataclasses.replace(params, w_o=w_o)
    return mha.multi_head_attention(x, x, x, pruned)[0]
'''

ANSWERS = [
    # ---------------- head_similarity ----------------
    {"exercise": "head_similarity", "kind": "correct", "idea": "moveaxis, flatten, divide by max(norm, 1e-12), one matrix product",
     "code": _SIM},
    {"exercise": "head_similarity", "kind": "correct", "idea": "einsum over all leading axes without flattening, zero-norm heads handled with np.where",
     "code": '''
import numpy as np

def head_similarity(per_head):
    x = np.asarray(per_head, dtype=np.float64)
    h = x.shape[-3]
    lead = "".join("abcdefg"[: x.ndim - 3])
    dots = np.einsum(f"{lead}inf,{lead}jnf->ij", x, x)
    norms = np.sqrt(np.diag(dots))
    denom = np.outer(norms, norms)
    return np.where(denom > 0, dots / np.where(denom > 0, denom, 1.0), 0.0)
'''},
    {"exercise": "head_similarity", "kind": "correct", "idea": "double loop over pairs of heads with np.vdot",
     "code": '''
import numpy as np

def head_similarity(per_head):
    x = np.moveaxis(np.asarray(per_head, dtype=np.float64), -3, 0)
    h = x.shape[0]
    vecs = [x[i].ravel() for i in range(h)]
    out = np.zeros((h, h))
    for i in range(h):
        for j in range(h):
            ni, nj = np.linalg.norm(vecs[i]), np.linalg.norm(vecs[j])
            if ni > 0 and nj > 0:
                out[i, j] = np.vdot(vecs[i], vecs[j]) / (ni * nj)
    return out
'''},
    {"exercise": "head_similarity", "kind": "wrong", "mistake": "computes a similarity per batch element and averages them, instead of flattening over all leading axes",
     "teacher_says": "flatten each head's blocks over all leading axes into one vector before the cosine; the mean of per-example cosines is a different number",
     "code": '''
import numpy as np

def head_similarity(per_head):
    x = np.asarray(per_head)
    x = x.reshape(-1, *x.shape[-3:])          # (batch, h, n, f)
    flat = x.reshape(x.shape[0], x.shape[1], -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=-1, keepdims=True), 1e-12)
    return (unit @ np.swapaxes(unit, -1, -2)).mean(axis=0)
'''},
    {"exercise": "head_similarity", "kind": "wrong", "mistake": "divides by the norm without a guard: an all-zero head gives NaN",
     "teacher_says": "a head that is all zeros has norm 0: guard the division (np.maximum(norm, 1e-12)) so its similarities are 0",
     "code": _SIM.replace("np.maximum(norms, 1e-12)", "norms")},
    {"exercise": "head_similarity", "kind": "wrong", "mistake": "sets the diagonal to 1 always, also for an all-zero head",
     "teacher_says": "an all-zero head has similarity 0 with every head, itself included",
     "code": _SIM.replace("return unit @ unit.T", "s = unit @ unit.T\n    np.fill_diagonal(s, 1.0)\n    return s")},
    {"exercise": "head_similarity", "kind": "wrong", "mistake": "moves axis 0 (the batch) instead of -3 to the front",
     "teacher_says": "the heads are on the third axis from the end: np.moveaxis(per_head, -3, 0)",
     "code": '''
import numpy as np

def head_similarity(per_head):
    x = np.asarray(per_head)
    h = x.shape[-3]
    flat = x.reshape(h, -1) if x.ndim == 3 else x.reshape(x.shape[0], -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    return unit @ unit.T
'''},
    {"exercise": "head_similarity", "kind": "wrong", "mistake": "Pearson correlation (subtracts each head's mean) instead of cosine similarity",
     "teacher_says": "cosine similarity does not centre the vectors; np.corrcoef subtracts the means",
     "code": '''
import numpy as np

def head_similarity(per_head):
    x = np.asarray(per_head)
    h = x.shape[-3]
    flat = np.moveaxis(x, -3, 0).reshape(h, -1)
    with np.errstate(invalid="ignore", divide="ignore"):
        c = np.corrcoef(flat)
    return np.nan_to_num(c)
'''},
    {"exercise": "head_similarity", "kind": "wrong", "mistake": "normalises by the norm of the whole array instead of each head's own norm",
     "teacher_says": "each head's vector is divided by its own norm; one global norm gives dot products, not cosines",
     "code": '''
import numpy as np

def head_similarity(per_head):
    x = np.asarray(per_head)
    h = x.shape[-3]
    flat = np.moveaxis(x, -3, 0).reshape(h, -1)
    flat = flat / max(np.linalg.norm(flat), 1e-12)
    return flat @ flat.T
'''},
    {"exercise": "head_similarity", "kind": "robustness", "idea": "uses the torch version mha.analysis.head_similarity and returns a tensor",
     "mistake": "returns a torch tensor for NumPy input",
     "teacher_says": "the exercise asks for NumPy: return a NumPy array",
     "code": '''
import torch
import mha.analysis

def head_similarity(per_head):
    return mha.analysis.head_similarity(torch.as_tensor(per_head))
'''},
    # ---------------- gate_importance ----------------
    {"exercise": "gate_importance", "kind": "correct", "idea": "einsum over positions and features, abs, mean over examples",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    g = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(g).mean(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "correct", "idea": "broadcast product with grad_out[:, None], sum over the last two axes",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    per_example = (contributions * grad_out[:, None, :, :]).sum(axis=(-2, -1))  # (B, h)
    return np.mean(np.abs(per_example), axis=0)
'''},
    {"exercise": "gate_importance", "kind": "wrong", "mistake": "takes the absolute value of each product before summing",
     "teacher_says": "the derivative is the sum over positions and features; take the absolute value of that sum, per example",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    return np.abs(contributions * grad_out[:, None]).sum(axis=(-2, -1)).mean(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "wrong", "mistake": "averages the signed gradients over examples, then takes the absolute value",
     "teacher_says": "I_a = E|dL/dg_a|: the absolute value comes before the mean over examples",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    return np.abs(np.einsum("bhnd,bnd->bh", contributions, grad_out).mean(axis=0))
'''},
    {"exercise": "gate_importance", "kind": "wrong", "mistake": "sums over the examples instead of averaging",
     "teacher_says": "the expectation over x is a mean: divide by B",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    return np.abs(np.einsum("bhnd,bnd->bh", contributions, grad_out)).sum(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "wrong", "mistake": "normalises the importances to sum to 1 (as Michel et al. do per layer), which the exercise does not ask",
     "teacher_says": "return I itself; the normalisation across heads is a separate step",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    imp = np.abs(np.einsum("bhnd,bnd->bh", contributions, grad_out)).mean(axis=0)
    return imp / imp.sum()
'''},
    {"exercise": "gate_importance", "kind": "wrong", "mistake": "averages over positions and features instead of summing (divides by n * d_model)",
     "teacher_says": "the chain rule sums over positions and features; a mean divides every importance by n * d_model",
     "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    return np.abs((contributions * grad_out[:, None]).mean(axis=(-2, -1))).mean(axis=0)
'''},
    {"exercise": "gate_importance", "kind": "robustness", "idea": "slow Python loops over every element",
     "mistake": "four nested Python loops: correct but very slow",
     "teacher_says": "use np.einsum or broadcasting; element-by-element loops are thousands of times slower",
     "code": '''
def gate_importance(contributions, grad_out):
    B, h, n, d = contributions.shape
    out = [0.0] * h
    for a in range(h):
        for b in range(B):
            s = 0.0
            for t in range(n):
                for f in range(d):
                    s += float(contributions[b, a, t, f]) * float(grad_out[b, t, f])
            out[a] += abs(s) / B
    return out
'''},
    # ---------------- attention_without_head ----------------
    {"exercise": "attention_without_head", "kind": "correct", "idea": "zero rows of a copy of W^O, dataclasses.replace, mha.multi_head_attention",
     "code": _WITHOUT},
    {"exercise": "attention_without_head", "kind": "correct", "idea": "subtract the removed head's contribution from the full output",
     "code": '''
import numpy as np
import mha

def attention_without_head(x, params, head):
    out, _ = mha.multi_head_attention(x, x, x, params)
    h = params.num_heads
    def proj(w, b):
        return x @ w if b is None else x @ w + b
    qh = mha.split_heads(proj(params.w_q, params.b_q), h)
    kh = mha.split_heads(proj(params.w_k, params.b_k), h)
    vh = mha.split_heads(proj(params.w_v, params.b_v), h)
    heads, _ = mha.scaled_dot_product_attention(qh, kh, vh)
    d_v = vh.shape[-1]
    return out - heads[..., head, :, :] @ params.w_o[head * d_v:(head + 1) * d_v]
'''},
    {"exercise": "attention_without_head", "kind": "wrong", "mistake": "zeroes columns of W^O instead of rows",
     "teacher_says": "head i's block of W^O is rows i*d_v:(i+1)*d_v; columns are output features",
     "code": _WITHOUT.replace("w_o[head * d_v:(head + 1) * d_v] = 0", "w_o[:, head * d_v:(head + 1) * d_v] = 0")},
    {"exercise": "attention_without_head", "kind": "wrong", "mistake": "zeroes head i's columns of W^V instead: with a value bias the head still writes A @ b_v",
     "teacher_says": "zeroing W^V leaves the bias b_v, which the weights average into a constant; remove the head's term by zeroing its rows of W^O",
     "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    d_v = params.w_v.shape[1] // params.num_heads
    w_v = params.w_v.copy()
    w_v[:, head * d_v:(head + 1) * d_v] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_v=w_v))[0]
'''},
    {"exercise": "attention_without_head", "kind": "wrong", "mistake": "zeroes the head's columns of W^Q: the head attends uniformly instead of disappearing",
     "teacher_says": "zero queries give equal scores, so the head averages all values; it is still there",
     "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    d_k = params.w_q.shape[1] // params.num_heads
    w_q = params.w_q.copy()
    w_q[:, head * d_k:(head + 1) * d_k] = 0
    b_q = None if params.b_q is None else params.b_q.copy()
    if b_q is not None:
        b_q[head * d_k:(head + 1) * d_k] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_q=w_q, b_q=b_q))[0]
'''},
    {"exercise": "attention_without_head", "kind": "wrong", "mistake": "counts heads from 1 (removes head + 1)",
     "teacher_says": "heads are numbered from 0",
     "code": _WITHOUT.replace("w_o[head * d_v:(head + 1) * d_v] = 0", "w_o[(head + 1) * d_v:(head + 2) * d_v] = 0")},
    {"exercise": "attention_without_head", "kind": "wrong", "mistake": "rescales the remaining heads by h / (h - 1) as if it were dropout",
     "teacher_says": "a zero gate removes the head's term and nothing else: no rescaling",
     "code": _WITHOUT.replace("w_o[head * d_v:(head + 1) * d_v] = 0", "w_o[head * d_v:(head + 1) * d_v] = 0\n    w_o *= params.num_heads / (params.num_heads - 1)")},
    {"exercise": "attention_without_head", "kind": "robustness", "idea": "zeroes the rows of params.w_o in place (no copy)",
     "mistake": "modifies the caller's params",
     "teacher_says": "params.w_o[rows] = 0 changes the caller's weights; copy W^O first",
     "code": '''
import mha

def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    params.w_o[head * d_v:(head + 1) * d_v] = 0
    return mha.multi_head_attention(x, x, x, params)[0]
'''},
    {"exercise": "attention_without_head", "kind": "robustness", "idea": "returns (out, weights) instead of the output alone",
     "mistake": "returns the pair from mha.multi_head_attention",
     "teacher_says": "return only the output, shape (..., n, d_model)",
     "code": _WITHOUT.replace("return mha.multi_head_attention(x, x, x, pruned)[0]", "return mha.multi_head_attention(x, x, x, pruned)")},
]
