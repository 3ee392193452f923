ANSWERS = [
    # multi_head_attention
    {"exercise": "multi_head_attention", "kind": "correct", "idea": "own softmax and split/merge with einsum, zero rows for fully masked queries",
     "code": '''
import numpy as np

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def proj(x, w, b):
        y = x @ w
        return y if b is None else y + b
    def split(x):
        *bt, n, f = x.shape
        return np.swapaxes(x.reshape(*bt, n, h, f // h), -3, -2)
    Q = split(proj(q, params.w_q, params.b_q))
    K = split(proj(k, params.w_k, params.b_k))
    V = split(proj(v, params.w_v, params.b_v))
    s = np.einsum("...id,...jd->...ij", Q, K) / np.sqrt(Q.shape[-1])
    if mask is not None:
        m = np.broadcast_to(mask, s.shape)
        s = np.where(m, s, -np.inf)
        ok = m.any(-1, keepdims=True)
        s = np.where(ok, s, 0.0)
    e = np.exp(s - s.max(-1, keepdims=True))
    w = e / e.sum(-1, keepdims=True)
    if mask is not None:
        w = np.where(ok, w, 0.0)
    heads = w @ V
    *bt, hh, n, d = heads.shape
    concat = np.swapaxes(heads, -3, -2).reshape(*bt, n, hh * d)
    out = concat @ params.w_o
    if params.b_o is not None:
        out = out + params.b_o
    return out, w
'''},
    {"exercise": "multi_head_attention", "kind": "correct", "idea": "uses mha building blocks, biases via a helper loop",
     "code": '''
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    parts = []
    for x, w, b in ((q, params.w_q, params.b_q), (k, params.w_k, params.b_k), (v, params.w_v, params.b_v)):
        y = x @ w
        if b is not None:
            y = y + b
        parts.append(mha.split_heads(y, h))
    heads, weights = mha.scaled_dot_product_attention(*parts, mask=mask)
    out = mha.merge_heads(heads) @ params.w_o
    if params.b_o is not None:
        out = out + params.b_o
    return out, weights
'''},
    {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "crashes or silently drops biases: adds biases only when b_q is present and ignores b_o",
     "teacher_says": "add b_O to the output too when it is present",
     "code": '''
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    Q, K, V = q @ params.w_q, k @ params.w_k, v @ params.w_v
    if params.b_q is not None:
        Q, K, V = Q + params.b_q, K + params.b_k, V + params.b_v
    heads, weights = mha.scaled_dot_product_attention(mha.split_heads(Q, h), mha.split_heads(K, h), mha.split_heads(V, h), mask=mask)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
    {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "uses q for keys and values too (self-attention only): wrong for cross-attention",
     "teacher_says": "project k and v from the k and v arguments; in cross-attention they differ from q",
     "code": '''
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def p(x, w, b):
        return x @ w if b is None else x @ w + b
    Q = mha.split_heads(p(q, params.w_q, params.b_q), h)
    K = mha.split_heads(p(q, params.w_k, params.b_k), h)
    V = mha.split_heads(p(q, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(Q, K, V, mask=mask)
    out = mha.merge_heads(heads) @ params.w_o
    return (out if params.b_o is None else out + params.b_o), weights
'''},
    {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "returns the weights averaged over heads",
     "teacher_says": "return the per-head weights, shape (..., h, n_q, n_k), not their mean",
     "code": '''
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def p(x, w, b):
        return x @ w if b is None else x @ w + b
    Q = mha.split_heads(p(q, params.w_q, params.b_q), h)
    K = mha.split_heads(p(k, params.w_k, params.b_k), h)
    V = mha.split_heads(p(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(Q, K, V, mask=mask)
    out = mha.merge_heads(heads) @ params.w_o
    return (out if params.b_o is None else out + params.b_o), weights.mean(axis=-3)
'''},
    {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "mask given an extra heads axis in front (mask[None]): misaligns with batch axes",
     "teacher_says": "the mask already broadcasts over the heads axis; adding an axis in front shifts the batch axes",
     "code": '''
import numpy as np
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def p(x, w, b):
        return x @ w if b is None else x @ w + b
    Q = mha.split_heads(p(q, params.w_q, params.b_q), h)
    K = mha.split_heads(p(k, params.w_k, params.b_k), h)
    V = mha.split_heads(p(v, params.w_v, params.b_v), h)
    if mask is not None:
        mask = np.asarray(mask)
        if mask.ndim >= 3:
            mask = np.expand_dims(mask, -3)
    heads, weights = mha.scaled_dot_product_attention(Q, K, V, mask=mask)
    out = mha.merge_heads(heads) @ params.w_o
    return (out if params.b_o is None else out + params.b_o), weights
'''},
    {"exercise": "multi_head_attention", "kind": "robustness", "idea": "catches every exception and returns zeros",
     "mistake": "try/except Exception returning zeros hides errors",
     "teacher_says": "don't swallow exceptions: an error hidden as zeros is a wrong answer you can't see",
     "code": '''
import numpy as np
import mha

def multi_head_attention(q, k, v, params, mask=None):
    try:
        h = params.num_heads
        Q = mha.split_heads(q @ params.w_q + params.b_q, h)
        K = mha.split_heads(k @ params.w_k + params.b_k, h)
        V = mha.split_heads(v @ params.w_v + params.b_v, h)
        heads, weights = mha.scaled_dot_product_attention(Q, K, V, mask=mask)
        return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
    except Exception:
        n_q, n_k = q.shape[-2], k.shape[-2]
        return np.zeros(q.shape[:-1] + (params.w_o.shape[1],)), np.zeros(q.shape[:-2] + (params.num_heads, n_q, n_k))
'''},
    # head_contributions
    {"exercise": "head_contributions", "kind": "correct", "idea": "einsum with reshaped W^O",
     "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return np.einsum("...hnd,hdm->...hnm", heads, w_o.reshape(h, d_v, -1))
'''},
    {"exercise": "head_contributions", "kind": "correct", "idea": "loop over heads with row blocks, stack on axis -3",
     "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return np.stack([heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v] for i in range(h)], axis=-3)
'''},
    {"exercise": "head_contributions", "kind": "wrong", "mistake": "takes column blocks of W^O instead of row blocks (only runs when d_model = h*d_v)",
     "teacher_says": "W_i^O is rows i*d_v:(i+1)*d_v of W^O, the ones that multiply head i's features",
     "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = np.stack([w_o[:, i * d_v:(i + 1) * d_v].T for i in range(h)])
    return heads @ blocks
'''},
    {"exercise": "head_contributions", "kind": "wrong", "mistake": "reshape W^O as (d_v, h, d_model) then transpose: interleaved rows",
     "teacher_says": "reshape W^O to (h, d_v, d_model): head i owns contiguous rows",
     "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(d_v, h, -1).transpose(1, 0, 2)
    return heads @ blocks
'''},
    {"exercise": "head_contributions", "kind": "wrong", "mistake": "sums over heads (returns the full output instead of per-head terms)",
     "teacher_says": "return each head's term separately, keeping the heads axis",
     "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return (heads @ w_o.reshape(h, d_v, -1)).sum(axis=-3)
'''},
    {"exercise": "head_contributions", "kind": "wrong", "mistake": "divides each term by h (thinks heads are averaged)",
     "teacher_says": "the heads' terms add up to the output, they are not averaged: no 1/h",
     "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return heads @ w_o.reshape(h, d_v, -1) / h
'''},
    # attention_layer
    {"exercise": "attention_layer", "kind": "correct", "idea": "all three fixed: pass the mask, merge_heads, w_o without .T",
     "code": '''
import mha

def attention_layer(q, k, v, params, mask=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    concat = mha.merge_heads(heads)
    return concat @ params.w_o + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "correct", "idea": "fix with swapaxes before the reshape",
     "code": '''
import numpy as np
import mha

def attention_layer(q, k, v, params, mask=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask=mask)
    *batch, _, n_q, d_v = heads.shape
    concat = np.swapaxes(heads, -3, -2).reshape(*batch, n_q, h * d_v)
    return concat @ params.w_o + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "wrong", "mistake": "fixed mask and reshape, kept w_o.T",
     "teacher_says": "this book stores W^O as (h*d_v, d_model): concat @ w_o, no transpose",
     "code": '''
import mha

def attention_layer(q, k, v, params, mask=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask=mask)
    return mha.merge_heads(heads) @ params.w_o.T + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "wrong", "mistake": "fixed w_o and reshape, mask still not passed",
     "teacher_says": "the mask argument never reaches the attention",
     "code": '''
import mha

def attention_layer(q, k, v, params, mask=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "wrong", "mistake": "fixed mask and w_o, kept the reshape without transpose",
     "teacher_says": "reshaping (..., h, n, d) straight to (..., n, h*d) mixes tokens; swap h and n first",
     "code": '''
import mha

def attention_layer(q, k, v, params, mask=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask=mask)
    *batch, _, n_q, d_v = heads.shape
    return heads.reshape(*batch, n_q, h * d_v) @ params.w_o + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "wrong", "mistake": "'fixes' the mask by inverting it (~mask) as for PyTorch",
     "teacher_says": "in this book True = may attend; do not invert the mask",
     "code": '''
import numpy as np
import mha

def attention_layer(q, k, v, params, mask=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    m = None if mask is None else ~np.asarray(mask)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask=m)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},
    # mha_parameter_count
    {"exercise": "mha_parameter_count", "kind": "correct", "idea": "4 d^2 + 4 d",
     "code": '''
_d = 512
mha_parameter_count = 4 * _d * _d + 4 * _d
'''},
    {"exercise": "mha_parameter_count", "kind": "correct", "idea": "per projection (d_in*d_out + d_out), summed",
     "code": '''
mha_parameter_count = sum(512 * 512 + 512 for _ in range(4))
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "forgot the biases",
     "teacher_says": "biases on all four projections add 4*512",
     "code": '''
mha_parameter_count = 4 * 512 * 512
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "biases counted per head of size d_k only (4*64)",
     "teacher_says": "each bias has d_model = 512 numbers (h*d_k), not d_k",
     "code": '''
mha_parameter_count = 4 * 512 * 512 + 4 * 64
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "counted only three projections (forgot W^O)",
     "teacher_says": "the output projection W^O and b_O count too",
     "code": '''
mha_parameter_count = 3 * 512 * 512 + 3 * 512
'''},
    {"exercise": "mha_parameter_count", "kind": "robustness", "idea": "a float instead of an int",
     "mistake": "computes with / giving a float 1050624.0",
     "teacher_says": "a count is an integer: use // or int",
     "code": '''
_d, _h = 512, 8
_dk = _d / _h
mha_parameter_count = 4 * _d * _h * _dk + 4 * _h * _dk
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "counts per-head weights times h twice: 4 * h * d_model * d_model + biases",
     "teacher_says": "the fused (512, 512) matrices already hold all 8 heads",
     "code": '''
mha_parameter_count = 4 * 8 * 512 * 512 + 4 * 512
'''},
]
