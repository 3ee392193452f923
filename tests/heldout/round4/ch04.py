_SDPA = '''
import numpy as np
def _sdpa(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    m = s.max(-1, keepdims=True); m = np.where(np.isfinite(m), m, 0)
    e = np.exp(s - m); z = e.sum(-1, keepdims=True)
    w = e / np.where(z == 0, 1, z)
    return w @ v, w
def _split(x, h):
    *b, n, f = x.shape
    return np.swapaxes(x.reshape(*b, n, h, f // h), -3, -2)
def _merge(x):
    *b, h, n, d = x.shape
    return np.swapaxes(x, -3, -2).reshape(*b, n, h * d)
'''
ANSWERS = [
 {"exercise": "multi_head_attention", "kind": "correct", "idea": "own helpers, bias only when not None", "code": _SDPA + '''
def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def proj(x, w, b):
        y = x @ w
        return y if b is None else y + b
    qh = _split(proj(q, params.w_q, params.b_q), h)
    kh = _split(proj(k, params.w_k, params.b_k), h)
    vh = _split(proj(v, params.w_v, params.b_v), h)
    heads, w = _sdpa(qh, kh, vh, mask)
    return proj(_merge(heads), params.w_o, params.b_o), w
'''},
 {"exercise": "multi_head_attention", "kind": "correct", "idea": "mha helpers, sum of per-head contributions through W^O blocks", "code": '''
import numpy as np
import mha
def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    z = lambda b: 0 if b is None else b
    qh = mha.split_heads(q @ params.w_q + z(params.b_q), h)
    kh = mha.split_heads(k @ params.w_k + z(params.b_k), h)
    vh = mha.split_heads(v @ params.w_v + z(params.b_v), h)
    heads, w = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    d_v = heads.shape[-1]
    wo = params.w_o.reshape(h, d_v, -1)
    out = (heads @ wo).sum(axis=-3) + z(params.b_o)
    return out, w
'''},
 {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "uses q for keys and values too (self-attention only)", "teacher_says": "keys and values come from k and v; with cross-attention your output ignores them", "code": _SDPA + '''
def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    z = lambda b: 0 if b is None else b
    qh = _split(q @ params.w_q + z(params.b_q), h)
    kh = _split(q @ params.w_k + z(params.b_k), h)
    vh = _split(q @ params.w_v + z(params.b_v), h)
    heads, w = _sdpa(qh, kh, vh, mask)
    return _merge(heads) @ params.w_o + z(params.b_o), w
'''},
 {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "forgets the output bias b_o", "teacher_says": "add b_o after the output projection when it is present", "code": _SDPA + '''
def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    z = lambda b: 0 if b is None else b
    qh = _split(q @ params.w_q + z(params.b_q), h)
    kh = _split(k @ params.w_k + z(params.b_k), h)
    vh = _split(v @ params.w_v + z(params.b_v), h)
    heads, w = _sdpa(qh, kh, vh, mask)
    return _merge(heads) @ params.w_o, w
'''},
 {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "returns the weights averaged over heads (PyTorch habit)", "teacher_says": "return per-head weights of shape (..., h, n_q, n_k), not their mean", "code": _SDPA + '''
def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    z = lambda b: 0 if b is None else b
    qh = _split(q @ params.w_q + z(params.b_q), h)
    kh = _split(k @ params.w_k + z(params.b_k), h)
    vh = _split(v @ params.w_v + z(params.b_v), h)
    heads, w = _sdpa(qh, kh, vh, mask)
    return _merge(heads) @ params.w_o + z(params.b_o), w.mean(axis=-3)
'''},
 {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "scales by sqrt(d_model) in its own attention", "teacher_says": "each head scales by its own sqrt(d_k)", "code": '''
import numpy as np
import mha
def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    z = lambda b: 0 if b is None else b
    qh = mha.split_heads(q @ params.w_q + z(params.b_q), h)
    kh = mha.split_heads(k @ params.w_k + z(params.b_k), h)
    vh = mha.split_heads(v @ params.w_v + z(params.b_v), h)
    s = qh @ np.swapaxes(kh, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    w = mha.softmax(s)
    return mha.merge_heads(w @ vh) @ params.w_o + z(params.b_o), w
'''},
 {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "adds the input biases before the projection, (x + b) @ W, instead of after", "teacher_says": "the bias belongs to the projection's output: x @ W + b", "code": _SDPA + '''
import numpy as np
import mha
def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    z = lambda b: 0 if b is None else b
    qh = mha.split_heads((q + z(params.b_q)) @ params.w_q, h)
    kh = mha.split_heads((k + z(params.b_k)) @ params.w_k, h)
    vh = mha.split_heads((v + z(params.b_v)) @ params.w_v, h)
    heads, w = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return mha.merge_heads(heads) @ params.w_o + z(params.b_o), w
'''},
 {"exercise": "multi_head_attention", "kind": "robustness", "idea": "crashes when biases are None (x + None)", "mistake": "adds None", "teacher_says": "biases may be None; add them only when present", "code": _SDPA + '''
def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    qh = _split(q @ params.w_q + params.b_q, h)
    kh = _split(k @ params.w_k + params.b_k, h)
    vh = _split(v @ params.w_v + params.b_v, h)
    heads, w = _sdpa(qh, kh, vh, mask)
    return _merge(heads) @ params.w_o + params.b_o, w
'''},
 {"exercise": "head_contributions", "kind": "correct", "idea": "reshape W^O to (h, d_v, d_model) and matmul", "code": '''
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return heads @ w_o.reshape(h, d_v, w_o.shape[-1])
'''},
 {"exercise": "head_contributions", "kind": "correct", "idea": "einsum with a loop-free block view", "code": '''
import numpy as np
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = np.stack([w_o[i * d_v:(i + 1) * d_v] for i in range(h)])
    return np.einsum("...hnd,hdm->...hnm", heads, blocks)
'''},
 {"exercise": "head_contributions", "kind": "wrong", "mistake": "reshape W^O as (d_v, h, d_model): interleaved rows", "teacher_says": "head i's rows are the contiguous block i*d_v:(i+1)*d_v", "code": '''
import numpy as np
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return heads @ np.swapaxes(w_o.reshape(d_v, h, -1), 0, 1)
'''},
 {"exercise": "head_contributions", "kind": "wrong", "mistake": "already sums over heads and repeats", "teacher_says": "return each head's term separately; do not sum them", "code": '''
import numpy as np
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    t = (heads @ w_o.reshape(h, d_v, -1)).sum(axis=-3, keepdims=True)
    return np.repeat(t, h, axis=-3) / h
'''},
 {"exercise": "head_contributions", "kind": "wrong", "mistake": "takes column blocks of W^O instead of row blocks", "teacher_says": "W^O is (h*d_v, d_model): head i owns rows i*d_v:(i+1)*d_v, not columns", "code": '''
import numpy as np
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = np.stack([w_o[:, i * d_v:(i + 1) * d_v] for i in range(h)])
    return heads @ blocks
'''},
 {"exercise": "head_contributions", "kind": "wrong", "mistake": "multiplies every head by the full-size block of head 0 (loop index bug)", "teacher_says": "head i must use block i of W^O", "code": '''
import numpy as np
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    outs = []
    for i in range(h):
        outs.append(heads[..., i, :, :] @ w_o[0:d_v])
    return np.stack(outs, axis=-3)
'''},
 {"exercise": "head_contributions", "kind": "robustness", "idea": "returns a list of h arrays", "mistake": "list", "teacher_says": "return one array with a heads axis", "code": '''
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return [heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v] for i in range(h)]
'''},
 {"exercise": "ov_matrices", "kind": "correct", "idea": "reshape and moveaxis", "code": '''
import numpy as np
def ov_matrices(params):
    h = params.num_heads
    d_in, hdv = params.w_v.shape
    d_v = hdv // h
    wv = np.moveaxis(params.w_v.reshape(d_in, h, d_v), 1, 0)
    wo = params.w_o.reshape(h, d_v, -1)
    return wv @ wo
'''},
 {"exercise": "ov_matrices", "kind": "correct", "idea": "loop over heads", "code": '''
import numpy as np
def ov_matrices(params):
    h = params.num_heads
    d_v = params.w_v.shape[1] // h
    return np.stack([params.w_v[:, i*d_v:(i+1)*d_v] @ params.w_o[i*d_v:(i+1)*d_v] for i in range(h)])
'''},
 {"exercise": "ov_matrices", "kind": "wrong", "mistake": "d_v taken from w_q (d_k), wrong when d_v != d_k", "teacher_says": "the value size comes from w_v: d_v = w_v.shape[1] // h", "code": '''
import numpy as np
def ov_matrices(params):
    h = params.num_heads
    d = params.w_q.shape[1] // h
    return np.stack([params.w_v[:, i*d:(i+1)*d] @ params.w_o[i*d:(i+1)*d] for i in range(h)])
'''},
 {"exercise": "ov_matrices", "kind": "wrong", "mistake": "returns the transposes M_i^T (thinking of column-vector convention W^O W^V)", "teacher_says": "this book multiplies row vectors on the left, x M_i, so M_i = W_i^V W_i^O, not its transpose", "code": '''
import numpy as np
def ov_matrices(params):
    h = params.num_heads
    d_v = params.w_v.shape[1] // h
    m = np.stack([params.w_v[:, i*d_v:(i+1)*d_v] @ params.w_o[i*d_v:(i+1)*d_v] for i in range(h)])
    return m.transpose(0, 2, 1)
'''},
 {"exercise": "ov_matrices", "kind": "wrong", "mistake": "reshape W^V to (h, d_model, d_v) directly without moving axes", "teacher_says": "a bare reshape of W^V mixes rows; reshape to (d_model, h, d_v) then move the heads axis", "code": '''
def ov_matrices(params):
    h = params.num_heads
    d_in, hdv = params.w_v.shape
    d_v = hdv // h
    return params.w_v.reshape(h, d_in, d_v) @ params.w_o.reshape(h, d_v, -1)
'''},
 {"exercise": "ov_matrices", "kind": "wrong", "mistake": "uses W^Q instead of W^V (QK circuit confusion)", "teacher_says": "what a head writes uses its value projection, W^V", "code": '''
import numpy as np
def ov_matrices(params):
    h = params.num_heads
    d = params.w_v.shape[1] // h
    return np.stack([params.w_q[:, i*d:(i+1)*d] @ params.w_o[i*d:(i+1)*d] for i in range(h)])
'''},
 {"exercise": "attention_layer", "kind": "correct", "idea": "key mask on n_k, transpose before merge, w_o not transposed", "code": '''
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
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "correct", "idea": "mha.padding_mask and explicit swapaxes", "code": '''
import numpy as np
import mha
def attention_layer(q, k, v, params, lengths=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    mask = None if lengths is None else mha.padding_mask(lengths, k.shape[-2])
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    B, _, n_q, d_v = heads.shape
    concat = np.swapaxes(heads, 1, 2).reshape(B, n_q, h * d_v)
    return concat @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "wrong", "mistake": "fixed mask axes but still uses q.shape[-2] for the key count", "teacher_says": "the pads are keys: compare with np.arange(n_k), not n_q", "code": '''
import numpy as np
import mha
def attention_layer(q, k, v, params, lengths=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    mask = None
    if lengths is not None:
        real = np.arange(q.shape[-2]) < np.asarray(lengths)[:, None]
        mask = real[:, None, None, :]
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "wrong", "mistake": "fixed mask and W^O, kept the bare reshape", "teacher_says": "heads.reshape without swapping heads and tokens mixes tokens: use merge_heads", "code": '''
import numpy as np
import mha
def attention_layer(q, k, v, params, lengths=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    mask = None if lengths is None else mha.padding_mask(lengths, k.shape[-2])
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    B, _, n_q, d_v = heads.shape
    return heads.reshape(B, n_q, h * d_v) @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "wrong", "mistake": "fixed mask and merge, kept w_o.T", "teacher_says": "this book stores W^O as (h*d_v, d_model): multiply by w_o, not its transpose", "code": '''
import numpy as np
import mha
def attention_layer(q, k, v, params, lengths=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    mask = None if lengths is None else mha.padding_mask(lengths, k.shape[-2])
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o.T + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "wrong", "mistake": "mask on keys but polarity flipped (True = pad)", "teacher_says": "True means may attend: real keys must be True", "code": '''
import numpy as np
import mha
def attention_layer(q, k, v, params, lengths=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    mask = None if lengths is None else ~mha.padding_mask(lengths, k.shape[-2])
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},
 {"exercise": "mha_parameter_count", "kind": "correct", "idea": "4d^2+4d", "code": '''
mha_parameter_count = 4 * 512**2 + 4 * 512
'''},
 {"exercise": "mha_parameter_count", "kind": "correct", "idea": "sum of pieces", "code": '''
d = 512
mha_parameter_count = sum([d * d + d] * 4)
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "no biases", "teacher_says": "the question says biases on all four projections: add 4*512", "code": '''
mha_parameter_count = 4 * 512**2
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "biases per head counted as 8*64 each but added once per head too many", "teacher_says": "each bias has d_model numbers, not h*d_model", "code": '''
mha_parameter_count = 4 * 512**2 + 4 * 512 * 8
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "forgot W^O", "teacher_says": "the output projection W^O and b_O are part of the layer", "code": '''
mha_parameter_count = 3 * 512**2 + 3 * 512
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "per-head matrices d_model x d_k counted once: 4*512*64 + 4*512", "teacher_says": "each fused matrix is (512, 512), not (512, 64)", "code": '''
mha_parameter_count = 4 * 512 * 64 + 4 * 512
'''},
]
