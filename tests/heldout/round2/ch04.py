_MHA = '''
import numpy as np
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def proj(x, w, b):
        y = x @ w
        return y if b is None else y + b
    qh = mha.split_heads(proj(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(proj(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(proj(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return proj(mha.merge_heads(heads), params.w_o, params.b_o), weights
'''

_LAYER = '''
import numpy as np
import mha

def attention_layer(q, k, v, params, lengths=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    mask = None
    if lengths is not None:
        real = np.arange(k.shape[-2]) < np.asarray(lengths)[:, None]  # (B, n_k)
        mask = real[:, None, None, :]
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    concat = mha.merge_heads(heads)
    return concat @ params.w_o + params.b_o, weights
'''

ANSWERS = [
    # ---------------- multi_head_attention ----------------
    {"exercise": "multi_head_attention", "kind": "correct", "idea": "project with optional biases, mha.split_heads, mha.scaled_dot_product_attention, merge, W^O",
     "code": _MHA},
    {"exercise": "multi_head_attention", "kind": "correct", "idea": "own einsum version with per-head weight tensors and an own masked softmax, no mha helpers",
     "code": '''
import numpy as np

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    d_model_q = params.w_q.shape[0]
    d_k = params.w_q.shape[1] // h
    d_v = params.w_v.shape[1] // h
    wq = params.w_q.reshape(params.w_q.shape[0], h, d_k)
    wk = params.w_k.reshape(params.w_k.shape[0], h, d_k)
    wv = params.w_v.reshape(params.w_v.shape[0], h, d_v)
    qh = np.einsum("...nm,mhd->...hnd", q, wq)
    kh = np.einsum("...nm,mhd->...hnd", k, wk)
    vh = np.einsum("...nm,mhd->...hnd", v, wv)
    if params.b_q is not None:
        qh = qh + params.b_q.reshape(h, 1, d_k)
    if params.b_k is not None:
        kh = kh + params.b_k.reshape(h, 1, d_k)
    if params.b_v is not None:
        vh = vh + params.b_v.reshape(h, 1, d_v)
    scores = np.einsum("...hqd,...hkd->...hqk", qh, kh) / np.sqrt(d_k)
    if mask is not None:
        allowed = np.broadcast_to(mask, scores.shape)
    else:
        allowed = np.ones(scores.shape, dtype=bool)
    scores = np.where(allowed, scores, -np.inf)
    row_max = scores.max(axis=-1, keepdims=True)
    row_max = np.where(np.isfinite(row_max), row_max, 0)
    e = np.exp(scores - row_max)
    total = e.sum(axis=-1, keepdims=True)
    weights = (e / np.where(total > 0, total, 1)).astype(q.dtype)
    heads = weights @ vh
    out = np.einsum("...hnd,hdm->...nm", heads, params.w_o.reshape(h, d_v, -1))
    if params.b_o is not None:
        out = out + params.b_o
    return out, weights
'''},
    {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "forgets the output bias b_o",
     "teacher_says": "after W^O add b_o when it is not None",
     "code": _MHA.replace("return proj(mha.merge_heads(heads), params.w_o, params.b_o), weights", "return mha.merge_heads(heads) @ params.w_o, weights")},
    {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "projects the keys from q (writes self-attention): wrong for cross-attention, raises when n_q != n_k",
     "teacher_says": "keys come from k, values from v; only self-attention has q = k = v",
     "code": _MHA.replace("kh = mha.split_heads(proj(k, params.w_k", "kh = mha.split_heads(proj(q, params.w_k")},
    {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "adds the biases only when all four are present (`if params.b_q is not None`), dropping the others when one is missing",
     "teacher_says": "each bias may be None on its own: test each one separately",
     "code": '''
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    has_bias = all(b is not None for b in (params.b_q, params.b_k, params.b_v, params.b_o))
    qp, kp, vp = q @ params.w_q, k @ params.w_k, v @ params.w_v
    if has_bias:
        qp, kp, vp = qp + params.b_q, kp + params.b_k, vp + params.b_v
    heads, weights = mha.scaled_dot_product_attention(
        mha.split_heads(qp, h), mha.split_heads(kp, h), mha.split_heads(vp, h), mask)
    out = mha.merge_heads(heads) @ params.w_o
    if has_bias:
        out = out + params.b_o
    return out, weights
'''},
    {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "scales by sqrt(d_model) by computing the scores itself with the model width",
     "teacher_says": "each head scales by 1/sqrt(d_k); d_model is h times too large",
     "code": '''
import numpy as np
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    qh = mha.split_heads(proj(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(proj(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(proj(v, params.w_v, params.b_v), h)
    scores = qh @ np.swapaxes(kh, -1, -2) / np.sqrt(params.w_o.shape[1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = scores.max(-1, keepdims=True)
    e = np.exp(scores - np.where(np.isfinite(m), m, 0))
    s = e.sum(-1, keepdims=True)
    weights = e / np.where(s > 0, s, 1)
    return proj(mha.merge_heads(weights @ vh), params.w_o, params.b_o), weights
'''},
    {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "merges with a bare reshape after the attention (no transpose back)",
     "teacher_says": "(..., h, n_q, d_v) must be transposed to (..., n_q, h, d_v) before the reshape; use merge_heads",
     "code": _MHA.replace("proj(mha.merge_heads(heads), params.w_o, params.b_o)", "proj(heads.reshape(*heads.shape[:-3], heads.shape[-2], -1), params.w_o, params.b_o)")},
    {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "returns the weights averaged over heads, like PyTorch's default",
     "teacher_says": "return each head's weights, shape (..., h, n_q, n_k), not their mean",
     "code": _MHA.replace("params.b_o), weights", "params.b_o), weights.mean(axis=-3)")},
    {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "treats the boolean mask as an additive mask: adds it to the scores (True becomes +1) instead of giving the forbidden scores -inf",
     "teacher_says": "the book's masks are boolean, True = may attend: use np.where(mask, scores, -np.inf); adding a boolean mask just shifts the allowed scores by 1",
     "code": '''
import numpy as np
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    qh = mha.split_heads(proj(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(proj(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(proj(v, params.w_v, params.b_v), h)
    scores = qh @ np.swapaxes(kh, -1, -2) / np.sqrt(qh.shape[-1])
    if mask is not None:
        scores = scores + mask
    weights = mha.softmax(scores, axis=-1)
    return proj(mha.merge_heads(weights @ vh), params.w_o, params.b_o), weights
'''},
    {"exercise": "multi_head_attention", "kind": "robustness", "idea": "catches every exception and returns zeros",
     "mistake": "wraps everything in try/except and returns arrays of zeros on any error",
     "teacher_says": "do not hide errors: a bare except turns a bug into a silent zero output",
     "code": '''
import numpy as np
import mha

def multi_head_attention(q, k, v, params, mask=None):
    try:
        h = params.num_heads
        qh = mha.split_heads(q @ params.w_q + params.b_q, h)
        kh = mha.split_heads(k @ params.w_k + params.b_k, h)
        vh = mha.split_heads(v @ params.w_v + params.b_v, h)
        heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
        return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
    except Exception:
        n_q, n_k = q.shape[-2], k.shape[-2]
        return np.zeros(q.shape[:-1] + (params.w_o.shape[1],), q.dtype), np.zeros(q.shape[:-2] + (params.num_heads, n_q, n_k), q.dtype)
'''},
    # ---------------- head_contributions ----------------
    {"exercise": "head_contributions", "kind": "correct", "idea": "reshape W^O to (h, d_v, d_model) and broadcast @",
     "code": '''
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return heads @ w_o.reshape(h, d_v, w_o.shape[-1])
'''},
    {"exercise": "head_contributions", "kind": "correct", "idea": "einsum over the per-head blocks",
     "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return np.einsum("...hqd,hdm->...hqm", heads, w_o.reshape(h, d_v, -1))
'''},
    {"exercise": "head_contributions", "kind": "correct", "idea": "loop over heads with row slices of W^O, stacked on axis -3",
     "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return np.stack([heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v] for i in range(h)], axis=-3)
'''},
    {"exercise": "head_contributions", "kind": "wrong", "mistake": "reshapes W^O as (d_v, h, d_model) and moves the axis: interleaved rows",
     "teacher_says": "head i's block is rows i*d_v:(i+1)*d_v, so W^O reshapes as (h, d_v, d_model)",
     "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return heads @ np.moveaxis(w_o.reshape(d_v, h, -1), 1, 0)
'''},
    {"exercise": "head_contributions", "kind": "wrong", "mistake": "takes h from heads.shape[0] (the batch axis for batched input)",
     "teacher_says": "the heads axis is -3, not 0: with a batch, shape[0] is the batch size",
     "code": '''
def head_contributions(heads, w_o):
    h = heads.shape[0]
    d_v = w_o.shape[0] // h
    return heads @ w_o.reshape(h, d_v, -1)
'''},
    {"exercise": "head_contributions", "kind": "wrong", "mistake": "sums the contributions over heads (returns the layer output without b_o)",
     "teacher_says": "keep the heads axis: return each head's term, shape (..., h, n_q, d_model)",
     "code": '''
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return (heads @ w_o.reshape(h, d_v, -1)).sum(axis=-3)
'''},
    {"exercise": "head_contributions", "kind": "wrong", "mistake": "transposes W^O before the reshape, as if it were stored (out, in) like nn.Linear's weight",
     "teacher_says": "in this book's layout W^O is (h*d_v, d_model) and head i's block is rows i*d_v:(i+1)*d_v; no transpose",
     "code": '''
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return heads @ w_o.T.reshape(h, d_v, -1)
'''},
    {"exercise": "head_contributions", "kind": "wrong", "mistake": "divides each contribution by h, thinking the heads are averaged",
     "teacher_says": "the output is the sum of the terms, not their mean: do not divide by h",
     "code": '''
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return heads @ w_o.reshape(h, d_v, -1) / h
'''},
    # ---------------- ov_matrices ----------------
    {"exercise": "ov_matrices", "kind": "correct", "idea": "reshape W^V to (d_model, h, d_v), move heads first, @ with W^O reshaped (h, d_v, d_model)",
     "code": '''
import numpy as np

def ov_matrices(params):
    h = params.num_heads
    d_v = params.w_v.shape[1] // h
    wv = np.moveaxis(params.w_v.reshape(params.w_v.shape[0], h, d_v), 1, 0)
    wo = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return wv @ wo
'''},
    {"exercise": "ov_matrices", "kind": "correct", "idea": "loop over heads with column and row slices",
     "code": '''
import numpy as np

def ov_matrices(params):
    h = params.num_heads
    d_v = params.w_v.shape[1] // h
    return np.stack([params.w_v[:, i * d_v:(i + 1) * d_v] @ params.w_o[i * d_v:(i + 1) * d_v, :] for i in range(h)])
'''},
    {"exercise": "ov_matrices", "kind": "wrong", "mistake": "uses d_k (from W^Q) to cut the blocks: wrong when d_v != d_k",
     "teacher_says": "the value blocks are d_v wide: take d_v from w_v.shape[1] // h, not from W^Q",
     "code": '''
import numpy as np

def ov_matrices(params):
    h = params.num_heads
    d = params.w_q.shape[1] // h
    return np.stack([params.w_v[:, i * d:(i + 1) * d] @ params.w_o[i * d:(i + 1) * d, :] for i in range(h)])
'''},
    {"exercise": "ov_matrices", "kind": "wrong", "mistake": "reshapes W^V straight to (h, d_model, d_v) without moving the axis",
     "teacher_says": "W^V's heads are column blocks: reshape to (d_model, h, d_v) and then move the heads axis first",
     "code": '''
def ov_matrices(params):
    h = params.num_heads
    d_v = params.w_v.shape[1] // h
    return params.w_v.reshape(h, params.w_v.shape[0], d_v) @ params.w_o.reshape(h, d_v, -1)
'''},
    {"exercise": "ov_matrices", "kind": "wrong", "mistake": "uses W^Q's blocks instead of W^V's (QK and OV circuits confused)",
     "teacher_says": "what a head writes is W_i^V W_i^O; W^Q belongs to where it reads",
     "code": '''
import numpy as np

def ov_matrices(params):
    h = params.num_heads
    d = params.w_q.shape[1] // h
    d_v = params.w_v.shape[1] // h
    return np.stack([params.w_q[:, i * d:(i + 1) * d][:, :d_v] @ params.w_o[i * d_v:(i + 1) * d_v] for i in range(h)])
'''},
    {"exercise": "ov_matrices", "kind": "wrong", "mistake": "multiplies the full matrices once and cuts diagonal blocks of the wrong product (W^O W^V order)",
     "teacher_says": "M_i = W_i^V W_i^O, of shape (d_model, d_model); W_i^O W_i^V is (d_v, d_v)",
     "code": '''
import numpy as np

def ov_matrices(params):
    h = params.num_heads
    d_v = params.w_v.shape[1] // h
    return np.stack([params.w_o[i * d_v:(i + 1) * d_v, :] @ params.w_v[:, i * d_v:(i + 1) * d_v] for i in range(h)])
'''},
    {"exercise": "ov_matrices", "kind": "wrong", "mistake": "returns the full W^V W^O for every head (the sum over heads, repeated h times)",
     "teacher_says": "each head uses only its own columns of W^V and rows of W^O",
     "code": '''
import numpy as np

def ov_matrices(params):
    full = params.w_v @ params.w_o
    return np.stack([full] * params.num_heads)
'''},
    # ---------------- attention_layer ----------------
    {"exercise": "attention_layer", "kind": "correct", "idea": "the three fixes: padding on the keys (n_k, axis -1), merge_heads instead of a bare reshape, W^O without .T",
     "code": _LAYER},
    {"exercise": "attention_layer", "kind": "correct", "idea": "rewritten with mha.padding_mask and mha.multi_head_attention",
     "code": '''
import mha

def attention_layer(q, k, v, params, lengths=None):
    mask = None if lengths is None else mha.padding_mask(lengths, k.shape[-2])
    return mha.multi_head_attention(q, k, v, params, mask)
'''},
    {"exercise": "attention_layer", "kind": "wrong", "mistake": "fixes the reshape and W^O but leaves the mask on the queries axis",
     "teacher_says": "pads are keys: the mask must be (B, 1, 1, n_k), built from n_k, not (B, 1, n, 1)",
     "code": _LAYER.replace("np.arange(k.shape[-2])", "np.arange(q.shape[-2])").replace("real[:, None, None, :]", "real[:, None, :, None]")},
    {"exercise": "attention_layer", "kind": "wrong", "mistake": "puts the mask on the key axis but builds it from n_q (q.shape[-2]): raises or is wrong when n_q != n_k",
     "teacher_says": "the mask has one entry per key: use k.shape[-2]",
     "code": _LAYER.replace("np.arange(k.shape[-2])", "np.arange(q.shape[-2])")},
    {"exercise": "attention_layer", "kind": "wrong", "mistake": "fixes the mask and W^O but keeps the bare reshape of the heads",
     "teacher_says": "heads of shape (B, h, n_q, d_v) need a transpose before the reshape: use merge_heads",
     "code": _LAYER.replace("concat = mha.merge_heads(heads)", "concat = heads.reshape(heads.shape[0], heads.shape[2], -1)")},
    {"exercise": "attention_layer", "kind": "wrong", "mistake": "fixes the mask and the merge but keeps W^O transposed",
     "teacher_says": "this book stores W^O as (h*d_v, d_model) and computes concat @ w_o, no .T",
     "code": _LAYER.replace("concat @ params.w_o +", "concat @ params.w_o.T +")},
    {"exercise": "attention_layer", "kind": "wrong", "mistake": "the padding test uses <= (one pad too many is kept)",
     "teacher_says": "key j is real when j < lengths[b], strictly",
     "code": _LAYER.replace("np.arange(k.shape[-2]) < np.asarray(lengths)", "np.arange(k.shape[-2]) <= np.asarray(lengths)")},
    # ---------------- mha_parameter_count ----------------
    {"exercise": "mha_parameter_count", "kind": "correct", "idea": "4 d^2 + 4 d",
     "code": '''
mha_parameter_count = 4 * 512 ** 2 + 4 * 512
'''},
    {"exercise": "mha_parameter_count", "kind": "correct", "idea": "counted matrix by matrix with the head sizes",
     "code": '''
_d, _h = 512, 8
_dk = _d // _h
mha_parameter_count = 3 * (_d * _h * _dk + _h * _dk) + (_h * _dk * _d + _d)
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "forgets the biases",
     "teacher_says": "all four projections have a bias of d_model numbers: add 4 * 512",
     "code": '''
mha_parameter_count = 4 * 512 ** 2
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "forgets W^O and its bias",
     "teacher_says": "the output projection W^O (and b_O) is part of the layer too",
     "code": '''
mha_parameter_count = 3 * 512 ** 2 + 3 * 512
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "counts biases per head of size d_k only (4 * 64)",
     "teacher_says": "each bias covers the whole fused projection: 512 numbers, not d_k = 64",
     "code": '''
mha_parameter_count = 4 * 512 ** 2 + 4 * 64
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "multiplies the weights by h",
     "teacher_says": "the four fused matrices are d_model x d_model whatever h is",
     "code": '''
mha_parameter_count = 8 * (4 * 512 ** 2) + 4 * 512
'''},
    {"exercise": "mha_parameter_count", "kind": "robustness", "idea": "a NumPy integer built from the shapes of init_params",
     "mistake": "counts with np.prod on float shapes, giving a float",
     "teacher_says": "a count is a Python int; float arithmetic is not needed",
     "code": '''
import numpy as np
mha_parameter_count = float(np.prod([512.0, 512.0]) * 4 + 4 * 512)
'''},
]

ANSWERS += [
    {"exercise": "predict_head_write_rank", "kind": "correct", "idea": "rank of (64, d_v) @ (d_v, 32) is at most d_v = 8",
     "code": "predict_head_write_rank = 8\n"},
    {"exercise": "predict_head_write_rank", "kind": "correct", "idea": "min of the inner dimension and the outer ones, computed",
     "code": "predict_head_write_rank = min(64, 32 // 4, 32)\n"},
    {"exercise": "predict_head_write_rank", "kind": "wrong", "mistake": "the output width d_model = 32",
     "teacher_says": "the product passes through d_v = 8 dimensions: its rank is at most 8",
     "code": "predict_head_write_rank = 32\n"},
    {"exercise": "predict_head_write_rank", "kind": "wrong", "mistake": "the number of queries, 64",
     "teacher_says": "a (64, 32) array has rank at most 32, and this one factors through d_v = 8",
     "code": "predict_head_write_rank = 64\n"},
    {"exercise": "predict_head_write_rank", "kind": "wrong", "mistake": "the number of heads, 4",
     "teacher_says": "the rank is set by d_v, the head's width, not by the number of heads",
     "code": "predict_head_write_rank = 4\n"},
    {"exercise": "predict_head_write_rank", "kind": "wrong", "mistake": "1, thinking a head writes a single direction",
     "teacher_says": "a head writes in a d_v-dimensional subspace: up to 8 directions",
     "code": "predict_head_write_rank = 1\n"},
]
