# writer B's answers, then writer F's (each file verbatim)
"""Writer B, chapter 4: concat and the output projection."""

ANSWERS = [
    # ------------------------------------------------------------------ multi_head_attention
    {"exercise": "multi_head_attention", "kind": "correct",
     "idea": "einsum per-head projections from reshaped weights, own guarded softmax, einsum with W^O blocks",
     "code": '''
import numpy as np

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    w_q = params.w_q.reshape(params.w_q.shape[0], h, -1)   # (d_in, h, d_k)
    w_k = params.w_k.reshape(params.w_k.shape[0], h, -1)
    w_v = params.w_v.reshape(params.w_v.shape[0], h, -1)   # (d_in, h, d_v)
    d_k = w_q.shape[-1]
    d_v = w_v.shape[-1]
    qh = np.einsum("...nd,dhe->...hne", q, w_q)
    kh = np.einsum("...nd,dhe->...hne", k, w_k)
    vh = np.einsum("...nd,dhe->...hne", v, w_v)
    if params.b_q is not None:
        qh = qh + params.b_q.reshape(h, 1, d_k)
    if params.b_k is not None:
        kh = kh + params.b_k.reshape(h, 1, d_k)
    if params.b_v is not None:
        vh = vh + params.b_v.reshape(h, 1, d_v)
    scores = np.einsum("...qe,...ke->...qk", qh, kh) / np.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(scores - top)
    s = e.sum(axis=-1, keepdims=True)
    weights = (e / np.where(s > 0, s, 1.0)).astype(q.dtype)
    heads = weights @ vh                                   # (..., h, n_q, d_v)
    w_o = params.w_o.reshape(h, d_v, -1)                   # (h, d_v, d_model)
    out = np.einsum("...hnv,hvm->...nm", heads, w_o)
    if params.b_o is not None:
        out = out + params.b_o
    return out.astype(q.dtype), weights
'''},
    {"exercise": "multi_head_attention", "kind": "robustness",
     "idea": "one head at a time in a Python loop (column slices of the fused weights), concatenated at the end",
     "code": '''
import numpy as np
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    d_k, d_v = params.d_k, params.d_v
    outs = []
    all_weights = []
    for i in range(h):
        cq = slice(i * d_k, (i + 1) * d_k)
        cv = slice(i * d_v, (i + 1) * d_v)
        qi = q @ params.w_q[:, cq]
        ki = k @ params.w_k[:, cq]
        vi = v @ params.w_v[:, cv]
        if params.b_q is not None:
            qi = qi + params.b_q[cq]
        if params.b_k is not None:
            ki = ki + params.b_k[cq]
        if params.b_v is not None:
            vi = vi + params.b_v[cv]
        m = mask
        if mask is not None:
            m = np.asarray(mask)
            if m.ndim >= 3:
                m = m[..., i if m.shape[-3] > 1 else 0, :, :]
        head_i, w_i = mha.scaled_dot_product_attention(qi, ki, vi, m)
        outs.append(head_i)
        all_weights.append(w_i)
    concat = np.concatenate(outs, axis=-1)
    out = concat @ params.w_o
    if params.b_o is not None:
        out = out + params.b_o
    return out, np.stack(all_weights, axis=-3)
'''},
    {"exercise": "multi_head_attention", "kind": "wrong",
     "mistake": "Fills the masked scores with -inf and uses a plain max-subtracted softmax, so a query whose mask row is all False gets NaN weights and a NaN output.",
     "teacher_says": "A row that is all -inf gives -inf - (-inf) = NaN: guard the max and the sum (or use mha.scaled_dot_product_attention) so that such a query gets zeros.",
     "code": '''
import numpy as np
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def lin(x, w, b):
        return x @ w if b is None else x @ w + b
    qh = mha.split_heads(lin(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(lin(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(lin(v, params.w_v, params.b_v), h)
    scores = qh @ np.swapaxes(kh, -1, -2) / np.sqrt(qh.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    out = lin(mha.merge_heads(weights @ vh), params.w_o, params.b_o)
    return out, weights
'''},
    {"exercise": "multi_head_attention", "kind": "wrong",
     "mistake": "Adds b_q, b_k, b_v when present but forgets the output bias b_o after the W^O projection.",
     "teacher_says": "The layer is Concat(heads) W^O + b_O: your output is off by b_o for every query whenever the layer has biases.",
     "code": '''
import numpy as np
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def lin(x, w, b):
        return x @ w if b is None else x @ w + b
    qh = mha.split_heads(lin(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(lin(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(lin(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    out = mha.merge_heads(heads) @ params.w_o
    return out, weights
'''},
    {"exercise": "multi_head_attention", "kind": "wrong",
     "mistake": "Copy-pasted the key projection line for the values and forgot to change the input: the values are projected from k instead of v.",
     "teacher_says": "Check each projection line: V W^V must use v; with k != v (cross-attention inputs) your output is wrong.",
     "code": '''
import numpy as np
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def lin(x, w, b):
        return x @ w if b is None else x @ w + b
    qh = mha.split_heads(lin(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(lin(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(lin(k, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    out = lin(mha.merge_heads(heads), params.w_o, params.b_o)
    return out, weights
'''},
    # ------------------------------------------------------------------ head_contributions
    {"exercise": "head_contributions", "kind": "correct",
     "idea": "reshape W^O into (h, d_v, d_model) blocks and contract with einsum",
     "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(h, d_v, w_o.shape[-1])
    return np.einsum("...hnv,hvm->...hnm", heads, blocks)
'''},
    {"exercise": "head_contributions", "kind": "robustness",
     "idea": "Python loop over heads slicing the row blocks of W^O, stacked on axis -3",
     "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h = heads.shape[-3]
    d_v = heads.shape[-1]
    terms = []
    for i in range(h):
        block = w_o[i * d_v:(i + 1) * d_v, :]
        terms.append(heads[..., i, :, :] @ block)
    return np.stack(terms, axis=-3)
'''},
    {"exercise": "head_contributions", "kind": "wrong",
     "mistake": "Splits W^O as reshape(d_v, h, d_model) and swaps the first two axes (like split_heads on columns), so head i gets rows i, i+h, i+2h, ... instead of its contiguous block.",
     "teacher_says": "Head i owns the contiguous rows i*d_v:(i+1)*d_v of W^O, which is reshape(h, d_v, d_model), not an interleaved set of rows.",
     "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(d_v, h, w_o.shape[-1]).swapaxes(0, 1)   # (h, d_v, d_model)
    return heads @ blocks
'''},
    {"exercise": "head_contributions", "kind": "wrong",
     "mistake": "Reads d_v from the wrong axis of heads (shape[-2], the number of queries) when cutting W^O into blocks.",
     "teacher_says": "heads is (..., h, n_q, d_v): d_v is the last axis; with n_q != d_v your blocks are the wrong size.",
     "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h = heads.shape[-3]
    d_v = heads.shape[-2]
    return np.stack(
        [heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v] for i in range(h)], axis=-3
    )
'''},
    {"exercise": "head_contributions", "kind": "wrong",
     "mistake": "Copies the notebook's np.stack(...) which stacks the heads on axis 0, giving (h, ..., n_q, d_model) instead of (..., h, n_q, d_model) when there are batch axes.",
     "teacher_says": "The heads axis must stay at position -3; stacking on axis 0 puts it in front of the batch axes.",
     "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h = heads.shape[-3]
    d_v = heads.shape[-1]
    return np.stack(
        [heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v] for i in range(h)]
    )
'''},
    # ------------------------------------------------------------------ ov_matrices
    {"exercise": "ov_matrices", "kind": "correct",
     "idea": "einsum of W^V split into column blocks and W^O split into row blocks",
     "code": '''
import numpy as np

def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    w_v = params.w_v.reshape(params.w_v.shape[0], h, d_v)      # (d_model, h, d_v)
    w_o = params.w_o.reshape(h, d_v, params.w_o.shape[1])      # (h, d_v, d_model)
    return np.einsum("dhv,hvm->hdm", w_v, w_o)
'''},
    {"exercise": "ov_matrices", "kind": "robustness",
     "idea": "explicit loop over heads filling a preallocated array with slice products",
     "code": '''
import numpy as np

def ov_matrices(params):
    h = params.num_heads
    d_v = params.w_v.shape[1] // h
    rows, cols = params.w_v.shape[0], params.w_o.shape[1]
    result = np.zeros((h, rows, cols), dtype=params.w_v.dtype)
    for i in range(h):
        wv_i = params.w_v[:, i * d_v:(i + 1) * d_v]
        wo_i = params.w_o[i * d_v:(i + 1) * d_v, :]
        result[i] = wv_i @ wo_i
    return result
'''},
    {"exercise": "ov_matrices", "kind": "wrong",
     "mistake": "Uses params.d_k as the per-head width when slicing W^V and W^O, which is only right when d_v equals d_k.",
     "teacher_says": "The value/output blocks are d_v wide; d_k is the query/key width and may differ.",
     "code": '''
import numpy as np

def ov_matrices(params):
    d = params.d_k
    return np.stack([
        params.w_v[:, i * d:(i + 1) * d] @ params.w_o[i * d:(i + 1) * d]
        for i in range(params.num_heads)
    ])
'''},
    {"exercise": "ov_matrices", "kind": "wrong",
     "mistake": "Reshapes W^V straight to (h, d_model, d_v) without the transpose, which mixes up rows and head columns.",
     "teacher_says": "W^V's heads live in its columns: reshape to (d_model, h, d_v) and move the heads axis first; a plain reshape to (h, d_model, d_v) scrambles the entries.",
     "code": '''
import numpy as np

def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    w_v = params.w_v.reshape(h, params.w_v.shape[0], d_v)
    w_o = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return w_v @ w_o
'''},
    {"exercise": "ov_matrices", "kind": "wrong",
     "mistake": "Slip in the einsum output indices: writes 'hmd' instead of 'hdm', so each M_i comes out transposed.",
     "teacher_says": "M_i = W_i^V W_i^O maps input features (rows) to output features (columns); your matrices are transposed.",
     "code": '''
import numpy as np

def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    w_v = params.w_v.reshape(params.w_v.shape[0], h, d_v)
    w_o = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return np.einsum("dhv,hvm->hmd", w_v, w_o)
'''},
    # ------------------------------------------------------------------ attention_layer
    {"exercise": "attention_layer", "kind": "correct",
     "idea": "all three bugs fixed: key padding from n_k on the last axis, transpose before merging, W^O without .T",
     "code": '''
import numpy as np
import mha

def attention_layer(q, k, v, params, lengths=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    mask = None
    if lengths is not None:
        n_k = k.shape[-2]
        real = np.arange(n_k)[None, :] < np.asarray(lengths).reshape(-1, 1)   # (B, n_k)
        mask = real[:, None, None, :]                                         # keys axis
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    B, _, n_q, d_v = heads.shape
    concat = np.swapaxes(heads, 1, 2).reshape(B, n_q, h * d_v)
    return concat @ params.w_o + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "robustness",
     "idea": "fixed, but the mask is built with nested Python loops and the concat with a loop over heads",
     "code": '''
import numpy as np
import mha

def attention_layer(q, k, v, params, lengths=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    mask = None
    if lengths is not None:
        B, n_k = k.shape[0], k.shape[-2]
        mask = np.zeros((B, 1, 1, n_k), dtype=bool)
        for b in range(B):
            for j in range(n_k):
                mask[b, 0, 0, j] = j < int(lengths[b])
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    concat = np.concatenate([heads[:, i] for i in range(h)], axis=-1)
    return concat @ params.w_o + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "wrong",
     "mistake": "Fixed the mask and the merge but kept params.w_o.T: the book stores W^O as (h*d_v, d_model), so no transpose is needed.",
     "teacher_says": "This book's weights are in the paper layout, x @ W; w_o.T runs only because it is square, and computes something else.",
     "code": '''
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
    return concat @ params.w_o.T + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "wrong",
     "mistake": "Fixed the mask and W^O but kept heads.reshape(B, n_q, h*d_v) without moving the heads axis back, which mixes tokens across heads.",
     "teacher_says": "A reshape of (B, h, n_q, d_v) to (B, n_q, h*d_v) without the transpose interleaves different queries: swap axes 1 and 2 first (or use mha.merge_heads).",
     "code": '''
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
    B, _, n_q, d_v = heads.shape
    concat = heads.reshape(B, n_q, h * d_v)
    return concat @ params.w_o + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "wrong",
     "mistake": "Fixed only half of the two-line mask bug: moved the mask onto the keys axis but still built it from q.shape[-2] (the number of queries) instead of the number of keys.",
     "teacher_says": "The pads are keys: the mask must have n_k = k.shape[-2] entries; with n_q != n_k yours does not even broadcast, or marks the wrong keys.",
     "code": '''
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
    concat = mha.merge_heads(heads)
    return concat @ params.w_o + params.b_o, weights
'''},
    # ------------------------------------------------------------------ mha_parameter_count
    {"exercise": "mha_parameter_count", "kind": "correct",
     "idea": "four d_model x d_model matrices plus four bias vectors",
     "code": '''
d_model = 512
mha_parameter_count = 4 * d_model * d_model + 4 * d_model
'''},
    {"exercise": "mha_parameter_count", "kind": "robustness",
     "idea": "the right count, but computed by building the layer and summing float sizes (a float, not an int)",
     "code": '''
import numpy as np
import mha

_params = mha.init_params(512, 8, bias=True)
mha_parameter_count = float(sum(
    np.size(a) for a in (_params.w_q, _params.w_k, _params.w_v, _params.w_o,
                         _params.b_q, _params.b_k, _params.b_v, _params.b_o)
))
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong",
     "mistake": "Forgot the biases and counted only the four weight matrices.",
     "teacher_says": "The statement says biases on all four projections: add 4 * 512.",
     "code": '''
mha_parameter_count = 4 * 512 ** 2
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong",
     "mistake": "Counted the per-head sizes: used d_k = 64 as the output width of each matrix and forgot that there are h heads.",
     "teacher_says": "Each fused projection is (d_model, h*d_k) = (512, 512); you counted one head's columns only.",
     "code": '''
d_model, h = 512, 8
d_k = d_model // h
mha_parameter_count = 4 * d_model * d_k + 4 * d_k
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong",
     "mistake": "Counted W^Q, W^K, W^V and their biases but forgot the output projection W^O and b_O.",
     "teacher_says": "The layer has four projections: W^O (with b_O) is the fourth.",
     "code": '''
mha_parameter_count = 3 * 512 * 512 + 3 * 512
'''},
]

_WRITER_B = ANSWERS

ANSWERS = [
 # ---------------------------------------------------------------- multi_head_attention
 {"exercise": "multi_head_attention", "kind": "correct",
  "idea": "einsum projections per head with reshaped weights, own masked softmax with zero rows",
  "code": '''
import math
import numpy as np

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    d_k, d_v = params.d_k, params.d_v

    def proj(x, w, b):
        y = x @ w
        if b is not None:
            y = y + b
        return y

    def heads(y, d):
        y = y.reshape(*y.shape[:-1], h, d)
        return np.moveaxis(y, -2, -3)          # (..., h, n, d)

    qh = heads(proj(q, params.w_q, params.b_q), d_k)
    kh = heads(proj(k, params.w_k, params.b_k), d_k)
    vh = heads(proj(v, params.w_v, params.b_v), d_v)
    scores = np.einsum("...qd,...kd->...qk", qh, kh) / math.sqrt(d_k)
    if mask is not None:
        mask = np.broadcast_to(mask, scores.shape)
        scores = np.where(mask, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(scores - top)
    s = e.sum(axis=-1, keepdims=True)
    weights = (e / np.where(s == 0, 1, s)).astype(scores.dtype)
    att = weights @ vh                           # (..., h, n_q, d_v)
    concat = np.moveaxis(att, -3, -2)
    concat = concat.reshape(*concat.shape[:-2], h * d_v)
    return proj(concat, params.w_o, params.b_o), weights
'''},
 {"exercise": "multi_head_attention", "kind": "robustness",
  "idea": "one head at a time in a Python loop over column slices (the paper's form), then concatenate",
  "code": '''
import numpy as np
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h, d_k, d_v = params.num_heads, params.d_k, params.d_v
    outs, ws = [], []
    for i in range(h):
        cq, cv = slice(i * d_k, (i + 1) * d_k), slice(i * d_v, (i + 1) * d_v)
        qi = q @ params.w_q[:, cq]
        ki = k @ params.w_k[:, cq]
        vi = v @ params.w_v[:, cv]
        if params.b_q is not None:
            qi = qi + params.b_q[cq]
        if params.b_k is not None:
            ki = ki + params.b_k[cq]
        if params.b_v is not None:
            vi = vi + params.b_v[cv]
        mi = None
        if mask is not None:
            m = np.asarray(mask)
            if m.ndim >= 3:
                m = m[..., i if m.shape[-3] > 1 else 0, :, :]
            mi = m
        oi, wi = mha.scaled_dot_product_attention(qi, ki, vi, mi)
        outs.append(oi)
        ws.append(wi)
    concat = np.concatenate(outs, axis=-1)
    out = concat @ params.w_o
    if params.b_o is not None:
        out = out + params.b_o
    return out, np.stack(ws, axis=-3)
'''},
 {"exercise": "multi_head_attention", "kind": "wrong",
  "mistake": "Scales the scores by sqrt(d_model) instead of sqrt(d_k): reads the d_k in the formula as the model width.",
  "teacher_says": "d_k is the size of one head's queries and keys, d_model/h here, not d_model: divide by the square root of the last axis of the per-head queries.",
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
    d_model = q.shape[-1]
    scores = qh @ kh.swapaxes(-1, -2) / np.sqrt(d_model)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    e = np.exp(scores - np.where(np.isfinite(top), top, 0))
    tot = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(tot == 0, 1, tot)
    out = proj(mha.merge_heads(weights @ vh), params.w_o, params.b_o)
    return out, weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong",
  "mistake": "Masks with -inf and calls a plain stable softmax, so a query with no allowed key gets NaN weights and a NaN output instead of zeros.",
  "teacher_says": "A fully masked row is all -inf, and -inf - (-inf) is NaN: treat such rows separately so they get zero weights, as the statement asks.",
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
    scores = qh @ kh.swapaxes(-1, -2) / np.sqrt(qh.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    with np.errstate(invalid="ignore"):
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
        weights = e / e.sum(axis=-1, keepdims=True)
    out = proj(mha.merge_heads(weights @ vh), params.w_o, params.b_o)
    return out, weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong",
  "mistake": "Splits the heads with a plain reshape to (..., h, n, d) instead of reshape-then-transpose, so each 'head' gets a mix of several tokens' features.",
  "teacher_says": "Reshape to (..., n, h, d) first and then swap the n and h axes: a direct reshape to (..., h, n, d) cuts the token axis, not the feature axis.",
  "code": '''
import numpy as np
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    def split(x):
        *batch, n, f = x.shape
        return x.reshape(*batch, h, n, f // h)
    qh = split(proj(q, params.w_q, params.b_q))
    kh = split(proj(k, params.w_k, params.b_k))
    vh = split(proj(v, params.w_v, params.b_v))
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    out = proj(mha.merge_heads(heads), params.w_o, params.b_o)
    return out, weights
'''},
 # ---------------------------------------------------------------- head_contributions
 {"exercise": "head_contributions", "kind": "correct",
  "idea": "einsum of the heads with W^O reshaped to (h, d_v, d_model)",
  "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(h, d_v, w_o.shape[-1])
    return np.einsum("...hnd,hdm->...hnm", heads, blocks)
'''},
 {"exercise": "head_contributions", "kind": "robustness",
  "idea": "Python loop over heads slicing rows of W^O, stacked back on axis -3 (slow, allocates a list)",
  "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    terms = []
    for i in range(h):
        block = w_o[i * d_v:(i + 1) * d_v, :]
        terms.append(heads[..., i, :, :] @ block)
    return np.stack(terms, axis=-3)
'''},
 {"exercise": "head_contributions", "kind": "wrong",
  "mistake": "Reshapes W^O to (d_v, h, d_model) and moves the heads axis first, so head i gets the interleaved rows i, i+h, i+2h, ... instead of the contiguous block i*d_v:(i+1)*d_v.",
  "teacher_says": "Head i owns a contiguous block of d_v rows, so the heads axis must be the outer one in the reshape: (h, d_v, d_model).",
  "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(d_v, h, w_o.shape[-1]).transpose(1, 0, 2)
    return heads @ blocks
'''},
 {"exercise": "head_contributions", "kind": "wrong",
  "mistake": "Stacks the per-head terms on axis 0, so with batch axes the result is (h, ..., n_q, d_model) instead of (..., h, n_q, d_model).",
  "teacher_says": "The heads axis is axis -3, after the batch axes: stack on axis=-3, and test with a batched input.",
  "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return np.stack(
        [heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v] for i in range(h)], axis=0
    )
'''},
 {"exercise": "head_contributions", "kind": "wrong",
  "mistake": "Takes the block size as d_model // h instead of d_v (the heads' last axis), which only works when d_v = d_model/h.",
  "teacher_says": "W^O has h*d_v rows: the block size is the heads' d_v, which need not equal d_model/h.",
  "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h = heads.shape[-3]
    d_model = w_o.shape[1]
    d = d_model // h
    return heads @ w_o.reshape(h, d, d_model)
'''},
 # ---------------------------------------------------------------- ov_matrices
 {"exercise": "ov_matrices", "kind": "correct",
  "idea": "W^V reshaped to (vdim, h, d_v), heads first, batched @ with W^O reshaped to (h, d_v, d_model)",
  "code": '''
import numpy as np

def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    wv = np.moveaxis(params.w_v.reshape(params.w_v.shape[0], h, d_v), 1, 0)
    wo = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return wv @ wo
'''},
 {"exercise": "ov_matrices", "kind": "robustness",
  "idea": "loop over heads accumulating in float64, returned as float64 even for float32 weights",
  "code": '''
import numpy as np

def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    w_v = np.asarray(params.w_v, dtype=np.float64)
    w_o = np.asarray(params.w_o, dtype=np.float64)
    out = np.zeros((h, w_v.shape[0], w_o.shape[1]))
    for i in range(h):
        for j in range(d_v):
            c = i * d_v + j
            out[i] += np.outer(w_v[:, c], w_o[c, :])
    return out
'''},
 {"exercise": "ov_matrices", "kind": "wrong",
  "mistake": "Slices W^V's columns and W^O's rows with params.d_k instead of params.d_v, which is wrong as soon as d_v differs from d_k.",
  "teacher_says": "The value and output blocks have width d_v, not d_k; the statement warns they may differ.",
  "code": '''
import numpy as np

def ov_matrices(params):
    h, d = params.num_heads, params.d_k
    return np.stack([
        params.w_v[:, i * d:(i + 1) * d] @ params.w_o[i * d:(i + 1) * d, :]
        for i in range(h)
    ])
'''},
 {"exercise": "ov_matrices", "kind": "wrong",
  "mistake": "Reshapes W^V straight to (h, d_model, d_v) without the transpose, so the 'blocks' of W^V are chunks of rows, not head i's columns.",
  "teacher_says": "Head i's columns of W^V come out of reshape(d_model, h, d_v) followed by moving the heads axis first; a direct reshape cuts rows.",
  "code": '''
import numpy as np

def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    wv = params.w_v.reshape(h, params.w_v.shape[0], d_v)
    wo = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return wv @ wo
'''},
 {"exercise": "ov_matrices", "kind": "wrong",
  "mistake": "Returns the transposes (W_i^O)^T (W_i^V)^T, thinking in PyTorch's (out, in) layout, so the layer's output is not sum_i A_i X M_i.",
  "teacher_says": "In the paper's x @ W layout the product is W_i^V W_i^O, read from left to right as the data flows; do not transpose.",
  "code": '''
import numpy as np

def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    mats = []
    for i in range(h):
        wv_i = params.w_v[:, i * d_v:(i + 1) * d_v]
        wo_i = params.w_o[i * d_v:(i + 1) * d_v, :]
        mats.append(wo_i.T @ wv_i.T)
    return np.stack(mats)
'''},
 # ---------------------------------------------------------------- attention_layer
 {"exercise": "attention_layer", "kind": "correct",
  "idea": "the three fixes: key-axis padding mask of length n_k, merge_heads (transpose) and w_o without .T",
  "code": '''
import numpy as np
import mha

def attention_layer(q, k, v, params, lengths=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    mask = None
    if lengths is not None:
        n_k = k.shape[-2]
        mask = (np.arange(n_k)[None, :] < np.asarray(lengths)[:, None])[:, None, None, :]
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    concat = mha.merge_heads(heads)
    return concat @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "robustness",
  "idea": "one sequence at a time in a Python loop, slicing off the pads instead of masking, then stacking",
  "code": '''
import numpy as np
import mha

def attention_layer(q, k, v, params, lengths=None):
    B, n_k = q.shape[0], k.shape[-2]
    outs, ws = [], []
    for b in range(B):
        L = n_k if lengths is None else int(lengths[b])
        mask = np.zeros((1, 1, n_k), dtype=bool)
        mask[..., :L] = True
        out_b, w_b = mha.multi_head_attention(q[b], k[b], v[b], params, mask=mask)
        outs.append(out_b)
        ws.append(w_b)
    return np.stack(outs), np.stack(ws)
'''},
 {"exercise": "attention_layer", "kind": "wrong",
  "mistake": "Fixes the reshape and the W^O transpose, moves the mask to the key axis, but keeps np.arange(q.shape[-2]): the mask has n_q entries instead of n_k.",
  "teacher_says": "The pads are keys: the mask needs one entry per key, np.arange(k.shape[-2]); it only looked right because you tested with n_q = n_k.",
  "code": '''
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
 {"exercise": "attention_layer", "kind": "wrong",
  "mistake": "Fixes the mask and the W^O transpose but keeps heads.reshape(B, n_q, h*d_v) without the transpose, so Concat mixes tokens.",
  "teacher_says": "Concat needs the heads axis moved next to the features before the reshape (merge_heads): (B, h, n_q, d_v) -> (B, n_q, h, d_v) -> (B, n_q, h*d_v).",
  "code": '''
import numpy as np
import mha

def attention_layer(q, k, v, params, lengths=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    mask = None
    if lengths is not None:
        mask = mha.padding_mask(lengths, k.shape[-2])
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    B, _, n_q, d_v = heads.shape
    concat = heads.reshape(B, n_q, h * d_v)
    return concat @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "wrong",
  "mistake": "Fixes the three bugs but writes the padding test as j <= lengths[b], letting every query read the first pad (off by one).",
  "teacher_says": "Positions count from 0, so a sequence of length L has real keys 0..L-1: the test is j < L.",
  "code": '''
import numpy as np
import mha

def attention_layer(q, k, v, params, lengths=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    mask = None
    if lengths is not None:
        real = np.arange(k.shape[-2]) <= np.asarray(lengths)[:, None]
        mask = real[:, None, None, :]
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},
 # ---------------------------------------------------------------- mha_parameter_count
 {"exercise": "mha_parameter_count", "kind": "correct",
  "idea": "four square matrices plus four bias vectors, computed",
  "code": '''
d_model = 512
mha_parameter_count = 4 * d_model * d_model + 4 * d_model
'''},
 {"exercise": "mha_parameter_count", "kind": "robustness",
  "idea": "the right count as a float from a per-head sum",
  "code": '''
d_model, h = 512, 8
d_k = d_v = d_model / h
per_head = d_model * d_k + d_model * d_k + d_model * d_v + d_v * d_model
mha_parameter_count = h * per_head + 4.0 * d_model
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong",
  "mistake": "Counts only the four weight matrices and forgets the biases.",
  "teacher_says": "The statement says biases on all four projections: add 4*d_model.",
  "code": '''
mha_parameter_count = 4 * 512 ** 2
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong",
  "mistake": "Counts one head's matrices, d_model x d_k each, instead of the fused d_model x d_model ones (forgets the factor h).",
  "teacher_says": "Each of the h heads has its own d_model x d_k slice, so the fused matrices are d_model x h*d_k = d_model x d_model.",
  "code": '''
d_model, h = 512, 8
d_k = d_model // h
mha_parameter_count = 4 * d_model * d_k + 4 * d_model
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong",
  "mistake": "Counts only W^Q, W^K, W^V and their biases, forgetting the output projection W^O and b_O.",
  "teacher_says": "The layer has four projections: the output projection W^O is part of it.",
  "code": '''
mha_parameter_count = 3 * 512 * 512 + 3 * 512
'''},
]

_WRITER_F = ANSWERS
ANSWERS = _WRITER_B + _WRITER_F
