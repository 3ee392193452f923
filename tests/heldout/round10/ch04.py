# writer B's answers, then writer F's (each file verbatim)
ANSWERS = [
    # ------------------------------------------------------------------ multi_head_attention
    {"exercise": "multi_head_attention", "kind": "correct",
     "idea": "einsum projections per head with a (d_in, h, d) view of each weight, a guarded "
             "softmax written out, and W^O applied as an einsum over (h, d_v)",
     "code": '''
import numpy as np


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads

    def heads_of(x, w, b):
        y = x @ w
        if b is not None:
            y = y + b
        *lead, n, f = y.shape
        return np.moveaxis(y.reshape(*lead, n, h, f // h), -2, -3)  # (..., h, n, d)

    qh = heads_of(q, params.w_q, params.b_q)
    kh = heads_of(k, params.w_k, params.b_k)
    vh = heads_of(v, params.w_v, params.b_v)
    d_k = qh.shape[-1]
    scores = np.einsum("...qd,...kd->...qk", qh, kh) / np.sqrt(d_k).astype(qh.dtype)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total > 0, total, 1)
    heads = weights @ vh  # (..., h, n_q, d_v)
    w_o = params.w_o.reshape(h, heads.shape[-1], -1)  # (h, d_v, d_model)
    out = np.einsum("...hqd,hdm->...qm", heads, w_o)
    if params.b_o is not None:
        out = out + params.b_o
    return out, weights
'''},
    {"exercise": "multi_head_attention", "kind": "robustness",
     "idea": "right numbers, but one head at a time in a Python loop with column slices of "
             "the weights and mha.scaled_dot_product_attention per head, concatenated at the end",
     "code": '''
import numpy as np
import mha


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    d_k, d_v = params.d_k, params.d_v
    heads, weights = [], []
    for i in range(h):
        cq = slice(i * d_k, (i + 1) * d_k)
        cv = slice(i * d_v, (i + 1) * d_v)
        q_i = q @ params.w_q[:, cq]
        k_i = k @ params.w_k[:, cq]
        v_i = v @ params.w_v[:, cv]
        if params.b_q is not None:
            q_i = q_i + params.b_q[cq]
        if params.b_k is not None:
            k_i = k_i + params.b_k[cq]
        if params.b_v is not None:
            v_i = v_i + params.b_v[cv]
        m_i = None
        if mask is not None:
            m = np.asarray(mask)
            if m.ndim >= 3:
                m_i = m[..., i if m.shape[-3] > 1 else 0, :, :]
            else:
                m_i = m
        head_i, w_i = mha.scaled_dot_product_attention(q_i, k_i, v_i, m_i)
        heads.append(head_i)
        weights.append(w_i)
    concat = np.concatenate(heads, axis=-1)
    out = concat @ params.w_o
    if params.b_o is not None:
        out = out + params.b_o
    return out, np.stack(weights, axis=-3)
'''},
    {"exercise": "multi_head_attention", "kind": "wrong",
     "mistake": "Copied mha_by_hand's projection `x @ w + b` without checking for a missing "
                "bias, so a layer with b_q = None (the default of init_params) raises a TypeError.",
     "teacher_says": "Biases may be None: add each one only when it is present.",
     "code": '''
import numpy as np
import mha


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    qh = mha.split_heads(q @ params.w_q + params.b_q, h)
    kh = mha.split_heads(k @ params.w_k + params.b_k, h)
    vh = mha.split_heads(v @ params.w_v + params.b_v, h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},
    {"exercise": "multi_head_attention", "kind": "wrong",
     "mistake": "Masked the scores with -inf and used a plain stable softmax, so a query with "
                "no allowed key gets NaN weights and a NaN output instead of zeros and b_o.",
     "teacher_says": "Run your softmax on a row that is all -inf: guard the max and the sum so "
                     "such a row gives zeros.",
     "code": '''
import numpy as np
import mha


def _proj(x, w, b):
    return x @ w if b is None else x @ w + b


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    qh = mha.split_heads(_proj(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(_proj(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(_proj(v, params.w_v, params.b_v), h)
    scores = qh @ np.swapaxes(kh, -1, -2) / np.sqrt(qh.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    with np.errstate(invalid="ignore"):
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
        weights = e / e.sum(axis=-1, keepdims=True)
    out = _proj(mha.merge_heads(weights @ vh), params.w_o, params.b_o)
    return out, weights
'''},
    {"exercise": "multi_head_attention", "kind": "wrong",
     "mistake": "Scaled the scores by sqrt(d_model) (the width of the input) instead of "
                "sqrt(d_k), the width of one head's queries, so the weights are too flat.",
     "teacher_says": "The scale is the square root of the per-head key size d_k, not of d_model.",
     "code": '''
import numpy as np
import mha


def _proj(x, w, b):
    return x @ w if b is None else x @ w + b


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    qh = mha.split_heads(_proj(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(_proj(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(_proj(v, params.w_v, params.b_v), h)
    d_model = q.shape[-1]
    scores = qh @ np.swapaxes(kh, -1, -2) / np.sqrt(d_model)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = np.max(scores, axis=-1, keepdims=True)
    top = np.where(np.isneginf(top), 0.0, top)
    e = np.exp(scores - top)
    s = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(s == 0, 1.0, s)
    weights = weights.astype(qh.dtype)
    out = _proj(mha.merge_heads(weights @ vh), params.w_o, params.b_o)
    return out, weights
'''},
    # ------------------------------------------------------------------ head_contributions
    {"exercise": "head_contributions", "kind": "correct",
     "idea": "view W^O as (h, d_v, d_model) and let matmul broadcast head i against block i",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(h, d_v, w_o.shape[-1])  # (h, d_v, d_model)
    return np.matmul(heads, blocks)  # (..., h, n_q, d_model)
'''},
    {"exercise": "head_contributions", "kind": "robustness",
     "idea": "right numbers, but a Python loop over the heads with explicit row slices of "
             "W^O, stacked back on axis -3",
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
     "mistake": "Copied the chapter's cell and stacked the per-head terms on axis 0, so with a "
                "batch axis the result is (h, B, n_q, d_model) instead of (B, h, n_q, d_model).",
     "teacher_says": "The heads axis is axis -3 of the input; put it back at -3, not in front "
                     "of the batch axes.",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h = heads.shape[-3]
    d_v = heads.shape[-1]
    return np.stack(
        [heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v] for i in range(h)]
    )
'''},
    {"exercise": "head_contributions", "kind": "wrong",
     "mistake": "Reshaped W^O to (d_v, h, d_model) and moved the heads axis first, which "
                "gives each head every h-th row (interleaved) instead of its contiguous block.",
     "teacher_says": "Head i owns rows i*d_v to (i+1)*d_v: the heads index is the slow one, "
                     "so reshape straight to (h, d_v, d_model).",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(d_v, h, -1).transpose(1, 0, 2)  # (h, d_v, d_model)
    return heads @ blocks
'''},
    {"exercise": "head_contributions", "kind": "wrong",
     "mistake": "Took d_v as d_model // h from W^O's column count instead of from the heads "
                "(or W^O's rows), which is wrong as soon as h*d_v != d_model.",
     "teacher_says": "d_v is the heads' last axis (W^O has h*d_v rows), not d_model / h.",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h = heads.shape[-3]
    d_model = w_o.shape[1]
    d_v = d_model // h
    out = []
    for i in range(h):
        out.append(heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v])
    return np.stack(out, axis=-3)
'''},
    # ------------------------------------------------------------------ ov_matrices
    {"exercise": "ov_matrices", "kind": "correct",
     "idea": "one einsum over a (vdim, h, d_v) view of W^V and an (h, d_v, d_model) view of W^O",
     "code": '''
import numpy as np


def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    w_v = params.w_v.reshape(params.w_v.shape[0], h, d_v)
    w_o = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return np.einsum("mhd,hdn->hmn", w_v, w_o)
'''},
    {"exercise": "ov_matrices", "kind": "robustness",
     "idea": "right numbers, but a loop over heads that accumulates each M_i entry by entry "
             "in float64 (a sum of outer products), returned as float64",
     "code": '''
import numpy as np


def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    w_v = np.asarray(params.w_v, dtype=np.float64)
    w_o = np.asarray(params.w_o, dtype=np.float64)
    result = np.zeros((h, w_v.shape[0], w_o.shape[1]), dtype=np.float64)
    for i in range(h):
        for j in range(i * d_v, (i + 1) * d_v):
            result[i] += np.outer(w_v[:, j], w_o[j, :])
    return result
'''},
    {"exercise": "ov_matrices", "kind": "wrong",
     "mistake": "Sliced the heads' blocks with d_k instead of d_v, which only agrees when the "
                "two sizes are equal.",
     "teacher_says": "W^V and W^O are cut in blocks of d_v, the value size, which may differ "
                     "from d_k.",
     "code": '''
import numpy as np


def ov_matrices(params):
    h, d = params.num_heads, params.d_k
    return np.stack(
        [params.w_v[:, i * d:(i + 1) * d] @ params.w_o[i * d:(i + 1) * d] for i in range(h)]
    )
'''},
    {"exercise": "ov_matrices", "kind": "wrong",
     "mistake": "Reshaped W^V straight to (h, d_model, d_v) without a transpose, which cuts "
                "its rows into groups instead of taking each head's columns.",
     "teacher_says": "Head i owns columns of W^V: reshape to (d_model, h, d_v) and then move "
                     "the heads axis first.",
     "code": '''
import numpy as np


def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    w_v = params.w_v.reshape(h, params.w_v.shape[0], d_v)
    w_o = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return w_v @ w_o
'''},
    {"exercise": "ov_matrices", "kind": "wrong",
     "mistake": "Wrote the product in the column-vector convention, (W_i^O)^T (W_i^V)^T, "
                "which is the transpose of M_i for the book's x @ W layout.",
     "teacher_says": "The book multiplies row vectors from the left (x W), so M_i = W_i^V W_i^O "
                     "without transposes.",
     "code": '''
import numpy as np


def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    mats = []
    for i in range(h):
        cols = slice(i * d_v, (i + 1) * d_v)
        mats.append(params.w_o[cols].T @ params.w_v[:, cols].T)
    return np.array(mats)
'''},
    # ------------------------------------------------------------------ attention_layer
    {"exercise": "attention_layer", "kind": "correct",
     "idea": "the three fixes: a key mask built from n_k with the keys on the last axis, "
             "merge_heads instead of a bare reshape, and W^O without .T",
     "code": '''
import numpy as np
import mha


def attention_layer(q, k, v, params, lengths=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)  # (B, h, n_q, d_k)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)  # (B, h, n_k, d_k)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)  # (B, h, n_k, d_v)
    mask = None
    if lengths is not None:
        n_k = k.shape[-2]
        real_keys = np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]  # (B, n_k)
        mask = real_keys[:, None, None, :]  # (B, 1, 1, n_k)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    concat = mha.merge_heads(heads)  # (B, n_q, h*d_v)
    return concat @ params.w_o + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "robustness",
     "idea": "right numbers, but the padding mask is built key by key in Python loops and the "
             "heads are concatenated one by one with np.concatenate",
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
                if j < int(lengths[b]):
                    mask[b, 0, 0, j] = True
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    concat = np.concatenate([heads[:, i] for i in range(h)], axis=-1)
    return concat @ params.w_o + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "wrong",
     "mistake": "Fixed the reshape and the W^O transpose and changed q.shape to k.shape, but "
                "left the mask on the queries axis, (B, 1, n, 1): real queries still read the pads.",
     "teacher_says": "Pads are keys: the mask must be (B, 1, 1, n_k), hiding columns of the "
                     "scores, not rows.",
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
        real = np.arange(k.shape[-2]) < np.asarray(lengths)[:, None]  # (B, n_k)
        mask = real[:, None, :, None]
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    concat = mha.merge_heads(heads)
    return concat @ params.w_o + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "wrong",
     "mistake": "Fixed the mask and W^O but kept the bare reshape of (B, h, n_q, d_v) to "
                "(B, n_q, h*d_v), which mixes tokens and heads instead of concatenating the heads.",
     "teacher_says": "Move the heads axis next to the features (transpose) before reshaping, "
                     "or use merge_heads.",
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
     "mistake": "Fixed the mask and the concatenation but kept `params.w_o.T`, thinking the book "
                "stores W^O like nn.Linear; it runs because W^O is square, and it is wrong.",
     "teacher_says": "The book stores every weight in the paper's (in, out) layout: x @ W, no "
                     "transpose.",
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
    # ------------------------------------------------------------------ mha_parameter_count
    {"exercise": "mha_parameter_count", "kind": "correct",
     "idea": "four d_model x d_model matrices plus four d_model biases",
     "code": '''
d_model = 512
mha_parameter_count = 4 * (d_model * d_model + d_model)
'''},
    {"exercise": "mha_parameter_count", "kind": "robustness",
     "idea": "right number, delivered as a float from a per-head sum",
     "code": '''
d_model, h = 512, 8
d_k = d_model / h
mha_parameter_count = sum(3 * d_model * d_k for _ in range(h)) + h * d_k * d_model + 4 * d_model
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong",
     "mistake": "Counted the four weight matrices and forgot the four biases.",
     "teacher_says": "The statement says biases on all four projections: add 4 * d_model.",
     "code": '''
mha_parameter_count = 4 * 512 * 512
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong",
     "mistake": "Counted only W^Q, W^K, W^V and their biases, forgetting the output projection.",
     "teacher_says": "The layer has four projections: W^O and b_O count too.",
     "code": '''
mha_parameter_count = 3 * 512 * 512 + 3 * 512
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong",
     "mistake": "Counted the matrices of one head only, (d_model, d_k) each, and per-head biases, "
                "forgetting to multiply by h.",
     "teacher_says": "The fused matrices cover all h heads: h * d_k = d_model columns each.",
     "code": '''
d_model, h = 512, 8
d_k = d_model // h
mha_parameter_count = 4 * d_model * d_k + 4 * d_k
'''},
]

_WRITER_B = ANSWERS

ANSWERS = [
    # ------------------------------------------------------------------ multi_head_attention
    {"exercise": "multi_head_attention", "kind": "correct",
     "idea": "einsum for the per-head products, own reshapes for split/merge, own guarded softmax",
     "code": '''
import math

import numpy as np


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads

    def proj(x, w, b):
        y = x @ w
        return y if b is None else y + b

    def split(x):  # (..., n, h*d) -> (..., h, n, d)
        *lead, n, f = x.shape
        return np.moveaxis(x.reshape(*lead, n, h, f // h), -2, -3)

    qh = split(proj(q, params.w_q, params.b_q))
    kh = split(proj(k, params.w_k, params.b_k))
    vh = split(proj(v, params.w_v, params.b_v))
    d_k = qh.shape[-1]
    scores = np.einsum("...qd,...kd->...qk", qh, kh) / math.sqrt(d_k)
    if mask is not None:
        allowed = np.broadcast_to(mask, scores.shape)
        scores = np.where(allowed, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    weights = (e / np.where(total > 0, total, 1.0)).astype(qh.dtype)
    heads = np.einsum("...qk,...kd->...qd", weights, vh)
    *lead, _, n_q, d_v = heads.shape
    concat = np.moveaxis(heads, -3, -2).reshape(*lead, n_q, h * d_v)
    return proj(concat, params.w_o, params.b_o), weights
'''},
    {"exercise": "multi_head_attention", "kind": "robustness",
     "idea": "one head at a time in a Python loop over column slices, with mha.scaled_dot_product_attention per head, then np.concatenate and np.stack",
     "code": '''
import math

import numpy as np
import mha


def multi_head_attention(q, k, v, params, mask=None):
    h, d_k, d_v = params.num_heads, params.d_k, params.d_v
    head_outs, head_weights = [], []
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
        mi = None
        if mask is not None:
            m = np.asarray(mask)
            if m.ndim >= 3:
                m = np.take(m, [0 if m.shape[-3] == 1 else i], axis=-3)[..., 0, :, :]
            mi = m
        oi, wi = mha.scaled_dot_product_attention(qi, ki, vi, mi)
        head_outs.append(oi)
        head_weights.append(wi)
    concat = np.concatenate(head_outs, axis=-1)
    out = concat @ params.w_o
    if params.b_o is not None:
        out = out + params.b_o
    return out, np.stack(head_weights, axis=-3)
'''},
    {"exercise": "multi_head_attention", "kind": "wrong",
     "mistake": "Scales the scores by sqrt(d_v) (the size of the head outputs) instead of sqrt(d_k); the same only when d_k == d_v.",
     "teacher_says": "The 1/sqrt(d_k) comes from the dot product of a query and a key, which have d_k entries: use the width of q_heads, not of v_heads.",
     "code": '''
import math

import numpy as np
import mha


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads

    def proj(x, w, b):
        return x @ w if b is None else x @ w + b

    qh = mha.split_heads(proj(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(proj(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(proj(v, params.w_v, params.b_v), h)
    scores = qh @ np.swapaxes(kh, -1, -2) / math.sqrt(params.d_v)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores, axis=-1)
    out = proj(mha.merge_heads(weights @ vh), params.w_o, params.b_o)
    return out, weights
'''},
    {"exercise": "multi_head_attention", "kind": "wrong",
     "mistake": "Masks with a large negative fill (-1e9) instead of -inf, so a query that may attend no key gets uniform weights 1/n_k and the mean of the values instead of zeros.",
     "teacher_says": "A finite fill cannot tell a fully masked row from an ordinary one; put -inf and give all-masked rows zero weights explicitly.",
     "code": '''
import math

import numpy as np
import mha


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads

    def proj(x, w, b):
        return x @ w if b is None else x @ w + b

    qh = mha.split_heads(proj(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(proj(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(proj(v, params.w_v, params.b_v), h)
    scores = qh @ np.swapaxes(kh, -1, -2) / math.sqrt(qh.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, np.asarray(-1e9, dtype=scores.dtype))
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    weights = e / e.sum(axis=-1, keepdims=True)
    out = proj(mha.merge_heads(weights @ vh), params.w_o, params.b_o)
    return out, weights
'''},
    {"exercise": "multi_head_attention", "kind": "wrong",
     "mistake": "Splits the heads with a plain reshape to (..., h, n, d) without the transpose, so each 'head' mixes features of different tokens.",
     "teacher_says": "Reshape to (..., n, h, d) first and then swap the n and h axes; a reshape alone never moves data between tokens correctly.",
     "code": '''
import math

import numpy as np
import mha


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads

    def proj(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(x):
        *lead, n, f = x.shape
        return x.reshape(*lead, h, n, f // h)

    qh = split(proj(q, params.w_q, params.b_q))
    kh = split(proj(k, params.w_k, params.b_k))
    vh = split(proj(v, params.w_v, params.b_v))
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    out = proj(mha.merge_heads(heads), params.w_o, params.b_o)
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
    return np.einsum("...hqv,hvm->...hqm", heads, blocks)
'''},
    {"exercise": "head_contributions", "kind": "robustness",
     "idea": "Python loop over heads with explicit row slices, stacked on axis -3",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h = heads.shape[-3]
    d_v = heads.shape[-1]
    terms = []
    for i in range(h):
        head_i = heads[..., i, :, :]
        block_i = w_o[i * d_v:(i + 1) * d_v, :]
        terms.append(head_i @ block_i)
    return np.stack(terms, axis=-3)
'''},
    {"exercise": "head_contributions", "kind": "wrong",
     "mistake": "Reshapes W^O to (d_v, h, d_model) and swaps the first two axes, so head i gets every h-th row (interleaved) instead of its contiguous block of rows.",
     "teacher_says": "Head i owns rows i*d_v:(i+1)*d_v, a contiguous block: reshape straight to (h, d_v, d_model).",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(d_v, h, w_o.shape[-1]).transpose(1, 0, 2)
    return heads @ blocks
'''},
    {"exercise": "head_contributions", "kind": "wrong",
     "mistake": "Loops over the heads and stacks the terms on axis 0, so with batch axes the heads axis lands in front of the batch: (h, ..., n_q, d_model) instead of (..., h, n_q, d_model).",
     "teacher_says": "np.stack(..., axis=0) puts the new axis first; the heads axis belongs just before n_q, so stack on axis=-3.",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h = heads.shape[-3]
    d_v = heads.shape[-1]
    return np.stack(
        [heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v] for i in range(h)]
    )
'''},
    {"exercise": "head_contributions", "kind": "wrong",
     "mistake": "Takes d_v as d_model // h (the columns of W^O) instead of the rows of W^O divided by h, which is only right when h*d_v == d_model.",
     "teacher_says": "d_v is the width of each head's output (heads.shape[-1], or w_o.shape[0] // h); d_model has nothing to do with how W^O's rows split.",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h = heads.shape[-3]
    d_model = w_o.shape[1]
    d_v = d_model // h
    out = []
    for i in range(h):
        out.append(heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v])
    return np.stack(out, axis=-3)
'''},
    # ------------------------------------------------------------------ ov_matrices
    {"exercise": "ov_matrices", "kind": "correct",
     "idea": "W^V as (d_in, h, d_v) and W^O as (h, d_v, d_model), one einsum",
     "code": '''
import numpy as np


def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    wv = params.w_v.reshape(params.w_v.shape[0], h, d_v)
    wo = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return np.einsum("dhv,hvm->hdm", wv, wo)
'''},
    {"exercise": "ov_matrices", "kind": "robustness",
     "idea": "Python loop over heads, computed in float64 (a float32 layer gives float64 matrices)",
     "code": '''
import numpy as np


def ov_matrices(params):
    h = params.num_heads
    d_v = params.w_v.shape[1] // h
    w_v = np.asarray(params.w_v, dtype=np.float64)
    w_o = np.asarray(params.w_o, dtype=np.float64)
    result = []
    for i in range(h):
        cols = slice(i * d_v, (i + 1) * d_v)
        result.append(w_v[:, cols] @ w_o[cols, :])
    return np.array(result)
'''},
    {"exercise": "ov_matrices", "kind": "wrong",
     "mistake": "Slices the blocks with d_k instead of d_v; identical when d_k == d_v, wrong (or a shape error) otherwise.",
     "teacher_says": "The value projection and W^O are cut in blocks of d_v; d_k only concerns queries and keys.",
     "code": '''
import numpy as np


def ov_matrices(params):
    h, d = params.num_heads, params.d_k
    return np.stack(
        [params.w_v[:, i * d:(i + 1) * d] @ params.w_o[i * d:(i + 1) * d] for i in range(h)]
    )
'''},
    {"exercise": "ov_matrices", "kind": "wrong",
     "mistake": "Reshapes W^V straight to (h, d_model, d_v) without first splitting its columns and moving the heads axis, so the blocks are not head i's columns.",
     "teacher_says": "Head i's value weights are columns, not rows: reshape to (d_model, h, d_v), then move the heads axis first.",
     "code": '''
import numpy as np


def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    wv = params.w_v.reshape(h, params.w_v.shape[0], d_v)
    wo = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return wv @ wo
'''},
    {"exercise": "ov_matrices", "kind": "wrong",
     "mistake": "Gets the einsum output indices the wrong way round and returns the transposes M_i^T = (W_i^V W_i^O)^T; same shape, wrong matrices.",
     "teacher_says": "M_i maps an input row vector (d_model) to an output row vector, so its rows index the input features: 'dhv,hvm->hdm', not '->hmd'.",
     "code": '''
import numpy as np


def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    wv = params.w_v.reshape(params.w_v.shape[0], h, d_v)
    wo = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return np.einsum("dhv,hvm->hmd", wv, wo)
'''},
    # ------------------------------------------------------------------ attention_layer
    {"exercise": "attention_layer", "kind": "correct",
     "idea": "all three bugs fixed: key-axis padding mask of n_k positions, merge_heads (transpose then reshape), w_o without .T",
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
        mask = (np.arange(n_k) < np.asarray(lengths).reshape(-1, 1))[:, None, None, :]
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "robustness",
     "idea": "padding mask built key by key in nested Python loops, heads concatenated in a loop",
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
        rows = []
        for b in range(B):
            rows.append([j < int(lengths[b]) for j in range(n_k)])
        mask = np.array(rows, dtype=bool).reshape(B, 1, 1, n_k)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    concat = np.concatenate([heads[:, i, :, :] for i in range(h)], axis=-1)
    return concat @ params.w_o + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "wrong",
     "mistake": "Moved the padding mask to the key axis but still builds it from q.shape[-2] (n_q positions), so it only works when n_q == n_k and fails to broadcast otherwise.",
     "teacher_says": "The pads are keys: the mask needs one entry per key, np.arange(k.shape[-2]).",
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
     "mistake": "Fixed the mask and the merge but kept params.w_o.T: the book stores W^O as (h*d_v, d_model) already, so the transpose computes something else (it runs because W^O is square).",
     "teacher_says": "Only PyTorch's (out, in) layout needs a transpose; in this book's layout it is concat @ w_o.",
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
    return mha.merge_heads(heads) @ params.w_o.T + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "wrong",
     "mistake": "Fixed the mask and the transpose of W^O but kept heads.reshape(B, n_q, h*d_v) without moving the heads axis, which mixes tokens.",
     "teacher_says": "Concat needs (B, n_q, h, d_v) first: swap the heads and query axes before the reshape (that is mha.merge_heads).",
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
    # ------------------------------------------------------------------ mha_parameter_count
    {"exercise": "mha_parameter_count", "kind": "correct",
     "idea": "four square weights plus four bias vectors",
     "code": '''
d_model = 512
mha_parameter_count = 4 * d_model * d_model + 4 * d_model
'''},
    {"exercise": "mha_parameter_count", "kind": "robustness",
     "idea": "the right count as a float, computed per head and summed",
     "code": '''
d_model, h = 512, 8
d_k = d_v = d_model // h
per_head = d_model * d_k + d_model * d_k + d_model * d_v + d_v * d_model
mha_parameter_count = float(h * per_head + 4 * d_model)
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong",
     "mistake": "Counts only the four weight matrices and forgets the biases the statement includes.",
     "teacher_says": "The statement says biases on all four projections: add 4 * 512.",
     "code": '''
mha_parameter_count = 4 * 512**2
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong",
     "mistake": "Counts W^Q, W^K, W^V and their biases but forgets the output projection W^O and b_O.",
     "teacher_says": "The layer has four projections: W^O (h*d_v x d_model) and b_O are learned too.",
     "code": '''
mha_parameter_count = 3 * 512 * 512 + 3 * 512
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong",
     "mistake": "Counts one head's matrices (d_model x d_k) and forgets to multiply by the 8 heads.",
     "teacher_says": "Each of the h heads has its own d_model x d_k slices; together they make full d_model x d_model matrices.",
     "code": '''
d_model, h = 512, 8
d_k = d_model // h
mha_parameter_count = 4 * d_model * d_k + 4 * d_model
'''},
]

_WRITER_F = ANSWERS
ANSWERS = _WRITER_B + _WRITER_F
