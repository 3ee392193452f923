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
        real = np.arange(k.shape[-2]) < np.asarray(lengths)[:, None]
        mask = real[:, None, None, :]
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    concat = mha.merge_heads(heads)
    return concat @ params.w_o + params.b_o, weights
'''
ANSWERS = [
    {"exercise": "multi_head_attention", "kind": "correct", "idea": "mha helpers, optional biases", "code": _MHA},
    {"exercise": "multi_head_attention", "kind": "correct", "idea": "loop over heads with own softmax, column blocks, sum of W_o blocks",
     "code": '''
import numpy as np

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    Q = q @ params.w_q + (0 if params.b_q is None else params.b_q)
    K = k @ params.w_k + (0 if params.b_k is None else params.b_k)
    V = v @ params.w_v + (0 if params.b_v is None else params.b_v)
    dk = Q.shape[-1] // h
    dv = V.shape[-1] // h
    outs, ws = [], []
    m = None if mask is None else np.asarray(mask)
    for i in range(h):
        s = Q[..., i*dk:(i+1)*dk] @ np.swapaxes(K[..., i*dk:(i+1)*dk], -1, -2) / np.sqrt(dk)
        if m is not None:
            mi = m[..., i if m.shape[-3] > 1 else 0, :, :] if m.ndim >= 3 else m
            s = np.where(mi, s, -np.inf)
        top = s.max(-1, keepdims=True)
        top = np.where(np.isfinite(top), top, 0)
        e = np.exp(s - top)
        z = e.sum(-1, keepdims=True)
        w = np.divide(e, z, out=np.zeros_like(e), where=z > 0)
        ws.append(w)
        outs.append(w @ V[..., i*dv:(i+1)*dv])
    out = np.concatenate(outs, -1) @ params.w_o
    if params.b_o is not None:
        out = out + params.b_o
    return out, np.stack(ws, axis=-3)
'''},
    {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "bias b_o forgotten (added only the input biases)",
     "teacher_says": "the output projection has its bias too: add params.b_o when it is not None",
     "code": _MHA.replace("return proj(mha.merge_heads(heads), params.w_o, params.b_o), weights", "return mha.merge_heads(heads) @ params.w_o, weights")},
    {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "projects keys with w_q (copy-paste)",
     "teacher_says": "the keys use W^K; you projected them with W^Q",
     "code": _MHA.replace("proj(k, params.w_k, params.b_k)", "proj(k, params.w_q, params.b_q)")},
    {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "self-attention assumed: keys and values from q",
     "teacher_says": "cross-attention passes different k and v; use the arguments k and v, not q",
     "code": _MHA.replace("proj(k, params.w_k", "proj(q, params.w_k").replace("proj(v, params.w_v", "proj(q, params.w_v")},
    {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "returns weights averaged over heads (PyTorch default)",
     "teacher_says": "return the per-head weights, shape (..., h, n_q, n_k), not their mean over heads",
     "code": _MHA.replace("params.b_o), weights", "params.b_o), weights.mean(axis=-3)")},
    {"exercise": "multi_head_attention", "kind": "robustness", "idea": "treats bias None as 0 via `or`: raises on numpy arrays (ambiguous truth value)",
     "code": '''
import numpy as np
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    qh = mha.split_heads(q @ params.w_q + (params.b_q or 0), h)
    kh = mha.split_heads(k @ params.w_k + (params.b_k or 0), h)
    vh = mha.split_heads(v @ params.w_v + (params.b_v or 0), h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return mha.merge_heads(heads) @ params.w_o + (params.b_o or 0), weights
'''},
    {"exercise": "head_contributions", "kind": "correct", "idea": "reshape w_o to (h, d_v, d_model), matmul broadcast",
     "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return heads @ w_o.reshape(h, d_v, -1)
'''},
    {"exercise": "head_contributions", "kind": "correct", "idea": "einsum over row blocks",
     "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h = heads.shape[-3]
    blocks = np.stack(np.split(w_o, h, axis=0))
    return np.einsum("...hnd,hdm->...hnm", heads, blocks)
'''},
    {"exercise": "head_contributions", "kind": "wrong", "mistake": "returns the sum over heads (the layer's output before bias), not each head's term",
     "teacher_says": "keep the heads axis: return one term per head, shape (..., h, n_q, d_model)",
     "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return np.einsum("...hnd,hdm->...nm", heads, w_o.reshape(h, d_v, -1))
'''},
    {"exercise": "head_contributions", "kind": "wrong", "mistake": "reshape w_o to (d_v, h, d_model): row blocks strided",
     "teacher_says": "rows of W^O are grouped by head first: reshape to (h, d_v, d_model)",
     "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return heads @ np.swapaxes(w_o.reshape(d_v, h, -1), 0, 1)
'''},
    {"exercise": "head_contributions", "kind": "wrong", "mistake": "divides by h to make the 'mean' contribution",
     "teacher_says": "the terms must sum to the output: do not divide by h",
     "code": '''
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return heads @ w_o.reshape(h, d_v, -1) / h
'''},
    {"exercise": "head_contributions", "kind": "wrong", "mistake": "uses W_o's first row block for every head",
     "teacher_says": "each head has its own block of W^O; you used block 0 for all",
     "code": '''
def head_contributions(heads, w_o):
    d_v = heads.shape[-1]
    return heads @ w_o[:d_v]
'''},
    {"exercise": "ov_matrices", "kind": "correct", "idea": "column blocks of w_v times row blocks of w_o, d_v from w_v",
     "code": '''
import numpy as np

def ov_matrices(params):
    h = params.num_heads
    d_v = params.w_v.shape[1] // h
    return np.stack([params.w_v[:, i*d_v:(i+1)*d_v] @ params.w_o[i*d_v:(i+1)*d_v] for i in range(h)])
'''},
    {"exercise": "ov_matrices", "kind": "correct", "idea": "einsum on reshaped blocks",
     "code": '''
import numpy as np

def ov_matrices(params):
    h = params.num_heads
    d_model = params.w_v.shape[0]
    wv = params.w_v.reshape(d_model, h, -1)
    wo = params.w_o.reshape(h, -1, params.w_o.shape[1])
    return np.einsum("mhd,hdn->hmn", wv, wo)
'''},
    {"exercise": "ov_matrices", "kind": "wrong", "mistake": "head size taken from w_q (d_k), wrong when d_v != d_k",
     "teacher_says": "the blocks of W^V and W^O have width d_v; d_k can differ",
     "code": '''
import numpy as np

def ov_matrices(params):
    h = params.num_heads
    d = params.w_q.shape[1] // h
    return np.stack([params.w_v[:, i*d:(i+1)*d] @ params.w_o[i*d:(i+1)*d] for i in range(h)])
'''},
    {"exercise": "ov_matrices", "kind": "wrong", "mistake": "order reversed: W_o block @ W_v block",
     "teacher_says": "M_i = W_i^V W_i^O (d_model x d_v times d_v x d_model); the other order is d_v x d_v",
     "code": '''
import numpy as np

def ov_matrices(params):
    h = params.num_heads
    d = params.w_v.shape[1] // h
    return np.stack([(params.w_o[i*d:(i+1)*d] @ params.w_v[:, i*d:(i+1)*d]) for i in range(h)])
'''},
    {"exercise": "ov_matrices", "kind": "wrong", "mistake": "uses W_o's column blocks (transposed view)",
     "teacher_says": "head i's part of W^O is a block of rows",
     "code": '''
import numpy as np

def ov_matrices(params):
    h = params.num_heads
    d = params.w_v.shape[1] // h
    wo = params.w_o.T
    return np.stack([params.w_v[:, i*d:(i+1)*d] @ wo[i*d:(i+1)*d] for i in range(h)])
'''},
    {"exercise": "ov_matrices", "kind": "wrong", "mistake": "interleaved head split of w_v (reshape (d_model, d_v, h))",
     "teacher_says": "head i owns contiguous columns of W^V",
     "code": '''
import numpy as np

def ov_matrices(params):
    h = params.num_heads
    d_model = params.w_v.shape[0]
    wv = params.w_v.reshape(d_model, -1, h)
    wo = params.w_o.reshape(h, -1, params.w_o.shape[1])
    return np.einsum("mdh,hdn->hmn", wv, wo)
'''},
    {"exercise": "attention_layer", "kind": "correct", "idea": "all bugs fixed: n_k, mask over keys, merge_heads, w_o untransposed", "code": _LAYER},
    {"exercise": "attention_layer", "kind": "correct", "idea": "fixed with mha.padding_mask",
     "code": _LAYER.replace('''        real = np.arange(k.shape[-2]) < np.asarray(lengths)[:, None]
        mask = real[:, None, None, :]''', '''        mask = mha.padding_mask(lengths, k.shape[-2])''')},
    {"exercise": "attention_layer", "kind": "wrong", "mistake": "mask still built over q's length (n_q instead of n_k)",
     "teacher_says": "the padding is on the keys: use k.shape[-2], the number of keys",
     "code": _LAYER.replace("np.arange(k.shape[-2])", "np.arange(q.shape[-2])")},
    {"exercise": "attention_layer", "kind": "wrong", "mistake": "mask placed on the queries axis",
     "teacher_says": "padding hides keys: the mask's last axis must be the keys, shape (B, 1, 1, n_k)",
     "code": _LAYER.replace("real[:, None, None, :]", "real[:, None, :, None]")},
    {"exercise": "attention_layer", "kind": "wrong", "mistake": "concat still a plain reshape (no transpose)",
     "teacher_says": "heads are (B, h, n_q, d_v): swap h and n_q before reshaping (merge_heads)",
     "code": _LAYER.replace("concat = mha.merge_heads(heads)", "concat = heads.reshape(heads.shape[0], heads.shape[2], -1)")},
    {"exercise": "attention_layer", "kind": "wrong", "mistake": "kept w_o.T",
     "teacher_says": "in the paper's layout the output is concat @ W^O, without a transpose",
     "code": _LAYER.replace("concat @ params.w_o", "concat @ params.w_o.T")},
    {"exercise": "mha_parameter_count", "kind": "correct", "idea": "4 d^2 + 4 d",
     "code": '''
mha_parameter_count = 4 * 512 * 512 + 4 * 512
'''},
    {"exercise": "mha_parameter_count", "kind": "correct", "idea": "by matrices and biases per head",
     "code": '''
d, h = 512, 8
dk = d // h
mha_parameter_count = h * (3 * (d * dk + dk)) + (h * dk * d + d)
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "forgot biases",
     "teacher_says": "the four projections have biases: add 4*512",
     "code": '''
mha_parameter_count = 4 * 512 * 512
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "bias of per-head size only (64 each)",
     "teacher_says": "each bias has d_model = 512 entries (h*d_k for Q, K, V; d_model for O)",
     "code": '''
mha_parameter_count = 4 * 512 * 512 + 4 * 64
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "forgot W^O (3 matrices)",
     "teacher_says": "the layer has four projections, W^O included",
     "code": '''
mha_parameter_count = 3 * 512 * 512 + 3 * 512
'''},
    {"exercise": "mha_parameter_count", "kind": "robustness", "idea": "float from scientific notation",
     "code": '''
mha_parameter_count = 1.050624e6
'''},
]
ANSWERS.append({"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "counted per-head W^O blocks as 512x512 each (h copies)", "teacher_says": "W^O is one (h*d_v, d_model) = 512x512 matrix",
     "code": "\nmha_parameter_count = 3 * 512 * 512 + 8 * 512 * 512 + 4 * 512\n"})
