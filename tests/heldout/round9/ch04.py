# writer B's answers, then writer F's (each file verbatim)
"""Student answers for chapter 4 (concat and the output projection), writer B."""

ANSWERS = [
    # ------------------------------------------------------------------ multi_head_attention
    {"exercise": "multi_head_attention", "kind": "correct",
     "idea": "per-head projections with einsum on reshaped weights, then mha's attention (zeros for empty rows)",
     "code": '''
import numpy as np
import mha


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads

    def heads_of(x, w, b):
        w3 = w.reshape(w.shape[0], h, -1)                      # (f_in, h, d)
        y = np.einsum("...nf,fhd->...hnd", x, w3)             # (..., h, n, d)
        if b is not None:
            y = y + b.reshape(h, 1, -1)
        return y

    qh = heads_of(q, params.w_q, params.b_q)
    kh = heads_of(k, params.w_k, params.b_k)
    vh = heads_of(v, params.w_v, params.b_v)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)  # (..., h, n_q, d_v)
    w_o3 = params.w_o.reshape(h, -1, params.w_o.shape[1])      # (h, d_v, d_model)
    out = np.einsum("...hnd,hdm->...nm", heads, w_o3)
    if params.b_o is not None:
        out = out + params.b_o
    return out, weights
'''},
    {"exercise": "multi_head_attention", "kind": "robustness",
     "idea": "one head at a time in a Python loop, everything in float64 (float64 out for float32 in), own masked softmax",
     "code": '''
import numpy as np


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    d_k, d_v = params.d_k, params.d_v
    q64, k64, v64 = (np.asarray(a, dtype=np.float64) for a in (q, k, v))

    def lin(x, w, b, cols):
        y = x @ np.asarray(w, dtype=np.float64)[:, cols]
        if b is not None:
            y = y + np.asarray(b, dtype=np.float64)[cols]
        return y

    outs, all_weights = [], []
    for i in range(h):
        cq = slice(i * d_k, (i + 1) * d_k)
        cv = slice(i * d_v, (i + 1) * d_v)
        qi, ki, vi = lin(q64, params.w_q, params.b_q, cq), lin(k64, params.w_k, params.b_k, cq), lin(v64, params.w_v, params.b_v, cv)
        scores = qi @ np.swapaxes(ki, -1, -2) / np.sqrt(d_k)
        if mask is not None:
            m = np.asarray(mask)
            if m.ndim >= 3:
                m = m[..., i if m.shape[-3] > 1 else 0, :, :]
            scores = np.where(m, scores, -np.inf)
        top = scores.max(axis=-1, keepdims=True)
        top = np.where(np.isfinite(top), top, 0.0)
        e = np.exp(scores - top)
        total = e.sum(axis=-1, keepdims=True)
        total[total == 0] = 1.0
        w_i = e / total
        all_weights.append(w_i)
        outs.append(w_i @ vi)
    concat = np.concatenate(outs, axis=-1)
    out = concat @ np.asarray(params.w_o, dtype=np.float64)
    if params.b_o is not None:
        out = out + np.asarray(params.b_o, dtype=np.float64)
    return out, np.stack(all_weights, axis=-3)
'''},
    {"exercise": "multi_head_attention", "kind": "wrong",
     "mistake": "Masks with -inf and then uses a plain stable softmax, so a query whose keys are all masked gets NaN weights and a NaN output.",
     "teacher_says": "Run your softmax on a row that is all -inf: the statement asks for zeros there, not NaN.",
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
        scores = np.where(mask, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    weights = e / e.sum(axis=-1, keepdims=True)
    out = proj(mha.merge_heads(weights @ vh), params.w_o, params.b_o)
    return out, weights
'''},
    {"exercise": "multi_head_attention", "kind": "wrong",
     "mistake": "Copy-pasted the query projection line for the keys and forgot to change w_q to w_k.",
     "teacher_says": "Check each projection line against its weight: the keys must be projected with W^K, not W^Q.",
     "code": '''
import numpy as np
import mha


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads

    def proj(x, w, b):
        return x @ w if b is None else x @ w + b

    qh = mha.split_heads(proj(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(proj(k, params.w_q, params.b_k), h)
    vh = mha.split_heads(proj(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return proj(mha.merge_heads(heads), params.w_o, params.b_o), weights
'''},
    {"exercise": "multi_head_attention", "kind": "wrong",
     "mistake": "Scales the scores by sqrt(d_model), the width of the inputs, instead of sqrt(d_k), the width of one head.",
     "teacher_says": "The scores of one head are dot products of d_k-wide vectors, so divide by sqrt(d_k), not sqrt(d_model).",
     "code": '''
import numpy as np
import mha


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    d_model = q.shape[-1]

    def proj(x, w, b):
        return x @ w if b is None else x @ w + b

    qh = mha.split_heads(proj(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(proj(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(proj(v, params.w_v, params.b_v), h)
    scores = qh @ np.swapaxes(kh, -1, -2) / np.sqrt(d_model)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores, axis=-1)
    return proj(mha.merge_heads(weights @ vh), params.w_o, params.b_o), weights
'''},
    # ------------------------------------------------------------------ head_contributions
    {"exercise": "head_contributions", "kind": "correct",
     "idea": "reshape W^O into (h, d_v, d_model) blocks and let einsum pair head i with block i",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(h, d_v, w_o.shape[-1])
    return np.einsum("...hnd,hdm->...hnm", heads, blocks)
'''},
    {"exercise": "head_contributions", "kind": "robustness",
     "idea": "preallocates the result and fills it head by head with row slices of W^O in a Python loop",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h, n_q, d_v = heads.shape[-3:]
    d_model = w_o.shape[1]
    result = np.zeros(heads.shape[:-3] + (h, n_q, d_model), dtype=np.result_type(heads, w_o))
    for i in range(h):
        block = w_o[i * d_v:(i + 1) * d_v, :]
        result[..., i, :, :] = heads[..., i, :, :] @ block
    return result
'''},
    {"exercise": "head_contributions", "kind": "wrong",
     "mistake": "Reshaped W^O to (d_v, h, d_model) and took [:, i], which gives head i every h-th row instead of its contiguous block.",
     "teacher_says": "Head i owns the contiguous rows i*d_v:(i+1)*d_v, which is what reshape(h, d_v, d_model) gives; (d_v, h, d_model) interleaves them.",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(d_v, h, w_o.shape[-1]).transpose(1, 0, 2)  # (h, d_v, d_model)
    return heads @ blocks
'''},
    {"exercise": "head_contributions", "kind": "wrong",
     "mistake": "Stacked the per-head terms on axis 0, as the chapter's cell does, so with batch axes the heads axis comes first instead of at -3.",
     "teacher_says": "The result must be (..., h, n_q, d_model): stack on axis -3, not 0, or the batch axes end up behind the heads.",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return np.stack(
        [heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v] for i in range(h)], axis=0
    )
'''},
    {"exercise": "head_contributions", "kind": "wrong",
     "mistake": "Computed d_v as d_model // h from W^O's columns, which is only right when h*d_v equals d_model.",
     "teacher_says": "d_v is the heads' last axis (or w_o.shape[0] // h); d_model // h is a different number when d_v != d_model/h.",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h = heads.shape[-3]
    d_v = w_o.shape[1] // h
    out = [heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v] for i in range(h)]
    return np.stack(out, axis=-3)
'''},
    # ------------------------------------------------------------------ ov_matrices
    {"exercise": "ov_matrices", "kind": "correct",
     "idea": "one einsum over W^V viewed as (d_in, h, d_v) and W^O viewed as (h, d_v, d_model)",
     "code": '''
import numpy as np


def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    w_v = params.w_v.reshape(params.w_v.shape[0], h, d_v)
    w_o = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return np.einsum("mhv,hvn->hmn", w_v, w_o)
'''},
    {"exercise": "ov_matrices", "kind": "robustness",
     "idea": "a Python loop over heads with column/row slices, returned as a float64 array for float32 weights",
     "code": '''
import numpy as np


def ov_matrices(params):
    d_v = params.w_v.shape[1] // params.num_heads
    mats = []
    for i in range(params.num_heads):
        cols = slice(i * d_v, (i + 1) * d_v)
        mats.append(np.array(params.w_v[:, cols], dtype=np.float64) @ np.array(params.w_o[cols, :], dtype=np.float64))
    return np.array(mats)
'''},
    {"exercise": "ov_matrices", "kind": "wrong",
     "mistake": "Sliced the heads with params.d_k instead of params.d_v, which is only right when the two sizes agree.",
     "teacher_says": "The value and output blocks are d_v wide; d_k is the query/key size and may differ.",
     "code": '''
import numpy as np


def ov_matrices(params):
    d = params.d_k
    return np.stack([
        params.w_v[:, i * d:(i + 1) * d] @ params.w_o[i * d:(i + 1) * d, :]
        for i in range(params.num_heads)
    ])
'''},
    {"exercise": "ov_matrices", "kind": "wrong",
     "mistake": "Reshaped W^V straight to (h, d_model, d_v) without moving the heads axis, so each 'head block' is a band of rows, not head i's columns.",
     "teacher_says": "Head i's columns are the middle axis of reshape(d_model, h, d_v); move that axis first instead of reshaping to (h, d_model, d_v).",
     "code": '''
import numpy as np


def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    w_v = params.w_v.reshape(h, params.w_v.shape[0], d_v)
    w_o = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return w_v @ w_o
'''},
    {"exercise": "ov_matrices", "kind": "wrong",
     "mistake": "Returned the transpose of each M_i (W_i^O^T W_i^V^T), thinking of PyTorch's (out, in) layout.",
     "teacher_says": "With x @ W (row vectors), the head writes x A W_i^V W_i^O, so M_i = W_i^V W_i^O, not its transpose.",
     "code": '''
import numpy as np


def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    return np.stack([
        params.w_o[i * d_v:(i + 1) * d_v].T @ params.w_v[:, i * d_v:(i + 1) * d_v].T
        for i in range(h)
    ])
'''},
    # ------------------------------------------------------------------ attention_layer
    {"exercise": "attention_layer", "kind": "correct",
     "idea": "mask on the keys' axis built from n_k, merge with transpose-then-reshape, W^O without .T",
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
        real = np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]   # (B, n_k)
        mask = real[:, None, None, :]                                   # (B, 1, 1, n_k)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    B, _, n_q, d_v = heads.shape
    concat = np.swapaxes(heads, 1, 2).reshape(B, n_q, h * d_v)
    return concat @ params.w_o + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "robustness",
     "idea": "builds the padding mask with a double Python loop and concatenates the heads one by one",
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
    out = concat @ params.w_o + params.b_o
    return out, weights
'''},
    {"exercise": "attention_layer", "kind": "wrong",
     "mistake": "Fixed all three bugs but wrote the padding comparison with <=, so the first pad key of each padded sequence is still attended.",
     "teacher_says": "Key j is real when j < length; with <= the key at index length, a pad, is let in.",
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
    {"exercise": "attention_layer", "kind": "wrong",
     "mistake": "Fixed the mask and the merge but kept params.w_o.T, which runs because W^O is square and computes something else.",
     "teacher_says": "This book stores W^O as (h*d_v, d_model) and computes concat @ w_o; the .T belongs to PyTorch's layout.",
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
    return mha.merge_heads(heads) @ params.w_o.T + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "wrong",
     "mistake": "Moved the mask to the keys' axis but still built it from q.shape[-2], half of the two-line bug: it breaks as soon as n_q != n_k.",
     "teacher_says": "The pads are keys, so the positions to compare with the lengths are the n_k key positions, k.shape[-2].",
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
    # ------------------------------------------------------------------ mha_parameter_count
    {"exercise": "mha_parameter_count", "kind": "correct",
     "idea": "four d_model x d_model matrices plus four d_model biases, written out",
     "code": '''
d_model = 512
mha_parameter_count = 4 * d_model * d_model + 4 * d_model
'''},
    {"exercise": "mha_parameter_count", "kind": "robustness",
     "idea": "the right count, delivered as a float",
     "code": '''
mha_parameter_count = float(4 * 512 ** 2 + 4 * 512)
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong",
     "mistake": "Counted the four weight matrices but forgot the biases.",
     "teacher_says": "The statement says biases on all four projections: add 4 * d_model.",
     "code": '''
mha_parameter_count = 4 * 512 * 512
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong",
     "mistake": "Counted only W^Q, W^K, W^V and their biases, forgetting the output projection W^O and b_O.",
     "teacher_says": "The layer has four projections: the output projection W^O (and b_O) counts too.",
     "code": '''
mha_parameter_count = 3 * 512 * 512 + 3 * 512
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong",
     "mistake": "Multiplied by the number of heads, as if every head had its own full d_model x d_model matrices.",
     "teacher_says": "Each head has d_model x d_k slices, so the h heads together fill one d_model x d_model matrix: the count does not depend on h.",
     "code": '''
h = 8
mha_parameter_count = h * (4 * 512 * 512 + 4 * 512)
'''},
]

_WRITER_B = ANSWERS

"""Student answers for chapter 04 (concat and output projection). Writer F."""

ANSWERS = [
 # ---------------------------------------------------------------- multi_head_attention
 {"exercise": "multi_head_attention", "kind": "correct",
  "idea": "own split/merge with moveaxis, einsum scores, a guarded softmax that zeroes rows with no allowed key",
  "code": '''
import math
import numpy as np


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads

    def project(x, w, b):
        y = x @ w
        return y if b is None else y + b

    def to_heads(x):  # (..., n, h*d) -> (..., h, n, d)
        *lead, n, f = x.shape
        return np.moveaxis(x.reshape(*lead, n, h, f // h), -2, -3)

    qh = to_heads(project(q, params.w_q, params.b_q))
    kh = to_heads(project(k, params.w_k, params.b_k))
    vh = to_heads(project(v, params.w_v, params.b_v))
    scores = np.einsum("...qd,...kd->...qk", qh, kh) / math.sqrt(qh.shape[-1])
    if mask is not None:
        scores = np.where(np.asarray(mask, dtype=bool), scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total > 0, total, 1)
    o = weights @ vh  # (..., h, n_q, d_v)
    o = np.moveaxis(o, -3, -2)
    concat = o.reshape(*o.shape[:-2], -1)  # (..., n_q, h*d_v)
    return project(concat, params.w_o, params.b_o), weights
'''},
 {"exercise": "multi_head_attention", "kind": "robustness",
  "idea": "one head at a time in a Python loop, everything promoted to float64 (float64 out for float32 in)",
  "code": '''
import numpy as np
import mha


def multi_head_attention(q, k, v, params, mask=None):
    h, d_k, d_v = params.num_heads, params.d_k, params.d_v
    f = lambda a: None if a is None else np.asarray(a, dtype=np.float64)
    q, k, v = f(q), f(k), f(v)
    heads, weights = [], []
    for i in range(h):
        qc = slice(i * d_k, (i + 1) * d_k)
        vc = slice(i * d_v, (i + 1) * d_v)
        qi = q @ f(params.w_q)[:, qc]
        ki = k @ f(params.w_k)[:, qc]
        vi = v @ f(params.w_v)[:, vc]
        if params.b_q is not None:
            qi = qi + f(params.b_q)[qc]
        if params.b_k is not None:
            ki = ki + f(params.b_k)[qc]
        if params.b_v is not None:
            vi = vi + f(params.b_v)[vc]
        m = None
        if mask is not None:
            m = np.asarray(mask, dtype=bool)
            if m.ndim >= 3:
                m = m[..., i if m.shape[-3] > 1 else 0, :, :]
        out_i, w_i = mha.scaled_dot_product_attention(qi, ki, vi, m)
        heads.append(out_i)
        weights.append(w_i)
    concat = np.concatenate(heads, axis=-1)
    out = concat @ f(params.w_o)
    if params.b_o is not None:
        out = out + f(params.b_o)
    return out, np.stack(weights, axis=-3)
'''},
 {"exercise": "multi_head_attention", "kind": "wrong",
  "mistake": "Masks by filling forbidden scores with -1e9 and a plain softmax: a query that may attend no key gets uniform weights 1/n_k and an average of the values, not zeros.",
  "teacher_says": "Try a mask row with no True: the statement wants zero weights there, so fill with -inf and guard the max and the sum.",
  "code": '''
import math
import numpy as np
import mha


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    qh = mha.split_heads(lin(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(lin(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(lin(v, params.w_v, params.b_v), h)
    scores = qh @ kh.swapaxes(-1, -2) / math.sqrt(qh.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, np.asarray(-1e9, dtype=scores.dtype))
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    weights = e / e.sum(axis=-1, keepdims=True)
    concat = mha.merge_heads(weights @ vh)
    return lin(concat, params.w_o, params.b_o), weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong",
  "mistake": "Splits the heads with a plain reshape to (..., h, n, d) and no transpose, so a 'head' mixes features of several tokens.",
  "teacher_says": "A reshape only regroups memory in order: reshape to (..., n, h, d) first and then move the heads axis in front of the sequence axis.",
  "code": '''
import math
import numpy as np
import mha


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads

    def heads(x, w, b):
        y = x @ w if b is None else x @ w + b
        *lead, n, f = y.shape
        return y.reshape(*lead, h, n, f // h)

    qh = heads(q, params.w_q, params.b_q)
    kh = heads(k, params.w_k, params.b_k)
    vh = heads(v, params.w_v, params.b_v)
    o, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    *lead, _, n_q, _ = o.shape
    concat = np.swapaxes(o, -3, -2).reshape(*lead, n_q, -1)
    out = concat @ params.w_o
    if params.b_o is not None:
        out = out + params.b_o
    return out, weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong",
  "mistake": "Scales the scores by sqrt of the fused width w_q.shape[1] = h*d_k (what they thought was 'd_k') instead of sqrt(d_k).",
  "teacher_says": "The scale is the square root of one head's key size, d_k = w_q.shape[1] / h, not the width of all heads together.",
  "code": '''
import numpy as np
import mha


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    d_k = params.w_q.shape[1]

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    qh = mha.split_heads(lin(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(lin(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(lin(v, params.w_v, params.b_v), h)
    scores = qh @ np.swapaxes(kh, -1, -2) / np.float32(np.sqrt(d_k))
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores.astype(qh.dtype), axis=-1)
    concat = mha.merge_heads(weights @ vh)
    return lin(concat, params.w_o, params.b_o), weights
'''},
 # ---------------------------------------------------------------- head_contributions
 {"exercise": "head_contributions", "kind": "correct",
  "idea": "reshape W^O into its h row blocks and pair them with the heads axis in one einsum",
  "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(h, d_v, w_o.shape[-1])  # (h, d_v, d_model)
    return np.einsum("...hqv,hvm->...hqm", heads, blocks)
'''},
 {"exercise": "head_contributions", "kind": "robustness",
  "idea": "for each head, zero every other head's features of the concat and multiply by the whole W^O (h full-size products and copies)",
  "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    concat = np.concatenate([heads[..., i, :, :] for i in range(h)], axis=-1)
    terms = []
    for i in range(h):
        only_i = np.zeros_like(concat)
        only_i[..., i * d_v:(i + 1) * d_v] = concat[..., i * d_v:(i + 1) * d_v]
        terms.append(only_i @ w_o)
    return np.stack(terms, axis=-3)
'''},
 {"exercise": "head_contributions", "kind": "wrong",
  "mistake": "Copies the chapter's cell and stacks the per-head terms on axis 0, giving (h, ..., n_q, d_model): the heads axis ends up in front of the batch axes.",
  "teacher_says": "The statement puts the heads axis at -3, after any batch axes: stack on axis=-3 (and index heads with [..., i, :, :]).",
  "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return np.stack(
        [heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v] for i in range(h)]
    )
'''},
 {"exercise": "head_contributions", "kind": "wrong",
  "mistake": "Gets the block size from W^O's columns, d_v = d_model / h, which is only the heads' width when d_v = d_model / h.",
  "teacher_says": "d_v is the heads' last axis (or w_o.shape[0] / h); d_model / h is another size that happens to equal it by default.",
  "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h = heads.shape[-3]
    d_v = w_o.shape[1] // h
    out = []
    for i in range(h):
        out.append(heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v, :])
    return np.stack(out, axis=-3)
'''},
 {"exercise": "head_contributions", "kind": "wrong",
  "mistake": "Splits W^O's rows the way split_heads splits columns of a token, reshaping to (d_v, h, d_model) and moving h first: head i gets every h-th row instead of a contiguous block.",
  "teacher_says": "Head i owns the contiguous rows i*d_v:(i+1)*d_v, so reshape W^O to (h, d_v, d_model) directly, with no transpose.",
  "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = np.swapaxes(w_o.reshape(d_v, h, -1), 0, 1)  # (h, d_v, d_model)
    return heads @ blocks
'''},
 # ---------------------------------------------------------------- ov_matrices
 {"exercise": "ov_matrices", "kind": "correct",
  "idea": "W^V as (d_model, h, d_v) and W^O as (h, d_v, d_model), contracted per head with einsum",
  "code": '''
import numpy as np


def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    w_v = params.w_v.reshape(params.w_v.shape[0], h, d_v)
    w_o = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return np.einsum("mhv,hvn->hmn", w_v, w_o)
'''},
 {"exercise": "ov_matrices", "kind": "robustness",
  "idea": "each M_i built as a sum of d_v outer products (column of W_i^V times row of W_i^O) in Python loops",
  "code": '''
import numpy as np


def ov_matrices(params):
    h = params.num_heads
    d_v = params.w_v.shape[1] // h
    w_v, w_o = params.w_v, params.w_o
    result = np.zeros((h, w_v.shape[0], w_o.shape[1]), dtype=w_v.dtype)
    for i in range(h):
        for j in range(d_v):
            col = i * d_v + j
            result[i] += np.outer(w_v[:, col], w_o[col, :])
    return result
'''},
 {"exercise": "ov_matrices", "kind": "wrong",
  "mistake": "Uses params.d_k as the per-head block size of W^V and W^O; the statement says d_v may differ from d_k.",
  "teacher_says": "The value and output blocks are d_v wide: use params.d_v (or w_v.shape[1] // h), d_k belongs to the queries and keys.",
  "code": '''
import numpy as np


def ov_matrices(params):
    h, d = params.num_heads, params.d_k
    mats = []
    for i in range(h):
        mats.append(params.w_v[:, i * d:(i + 1) * d] @ params.w_o[i * d:(i + 1) * d, :])
    return np.stack(mats)
'''},
 {"exercise": "ov_matrices", "kind": "wrong",
  "mistake": "Reshapes W^V straight to (h, d_model, d_v) without first splitting its columns, so each 'block' is a slab of rows, not head i's columns.",
  "teacher_says": "Head i's value weights are columns i*d_v:(i+1)*d_v: reshape to (d_model, h, d_v) and then move the heads axis first.",
  "code": '''
import numpy as np


def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    w_v = params.w_v.reshape(h, params.w_v.shape[0], d_v)
    w_o = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return w_v @ w_o
'''},
 {"exercise": "ov_matrices", "kind": "wrong",
  "mistake": "Thinks in nn.Linear's (out, in) layout and multiplies W_i^O^T W_i^V^T, which is M_i transposed.",
  "teacher_says": "This book stores x @ W layouts: the map is x -> x W_i^V W_i^O, so M_i = W_i^V @ W_i^O with no transposes.",
  "code": '''
import numpy as np


def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    v_blocks = np.stack([params.w_v[:, i * d_v:(i + 1) * d_v] for i in range(h)])
    o_blocks = np.stack([params.w_o[i * d_v:(i + 1) * d_v] for i in range(h)])
    return o_blocks.swapaxes(-1, -2) @ v_blocks.swapaxes(-1, -2)
'''},
 # ---------------------------------------------------------------- attention_layer
 {"exercise": "attention_layer", "kind": "correct",
  "idea": "the three fixes: mask over the n_k keys on the last axis, merge_heads for the concat, W^O without .T",
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
        mask = (np.arange(n_k) < np.asarray(lengths)[:, None])[:, None, None, :]
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "robustness",
  "idea": "builds the full dense (B, h, n_q, n_k) mask with loops and concatenates the heads from a list",
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
        B, n_q, n_k = q.shape[0], q.shape[-2], k.shape[-2]
        mask = np.zeros((B, h, n_q, n_k), dtype=bool)
        for b in range(B):
            for j in range(n_k):
                if j < int(lengths[b]):
                    mask[b, :, :, j] = True
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    concat = np.concatenate([heads[:, i] for i in range(h)], axis=-1)
    return concat @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "wrong",
  "mistake": "Fixes the concat and W^O but builds the padding mask the PyTorch way, True at the pads (j >= length), so every query reads only the pads.",
  "teacher_says": "This book's masks say True = may attend: keep j < lengths[b]; only nn.MultiheadAttention wants True at the pads.",
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
        pads = np.arange(k.shape[-2]) >= np.asarray(lengths)[:, None]  # (B, n_k)
        mask = pads[:, None, None, :]
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "wrong",
  "mistake": "Fixes the mask and W^O but 'fixes' the concat by swapping the last two axes (n_q and d_v) instead of the heads and query axes before the reshape.",
  "teacher_says": "Concat needs (B, n_q, h, d_v) before the reshape: swap axes 1 and 2 (heads and queries), not the last two.",
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
    concat = heads.swapaxes(-1, -2).reshape(B, n_q, h * d_v)
    return concat @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "wrong",
  "mistake": "Fixes the mask and the concat but keeps params.w_o.T (the nn.Linear habit); it runs because W^O is square when h*d_v = d_model.",
  "teacher_says": "This book stores W^O as (h*d_v, d_model) and computes concat @ W^O: the .T is one of the bugs.",
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
 # ---------------------------------------------------------------- mha_parameter_count
 {"exercise": "mha_parameter_count", "kind": "correct",
  "idea": "four d_model x d_model matrices plus four d_model biases",
  "code": '''
d_model = 512
mha_parameter_count = 4 * d_model * d_model + 4 * d_model
'''},
 {"exercise": "mha_parameter_count", "kind": "robustness",
  "idea": "the right count, but as a float written in scientific notation",
  "code": '''
mha_parameter_count = 1.050624e6
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong",
  "mistake": "Counts the four weight matrices and forgets the four bias vectors.",
  "teacher_says": "The statement says biases on all four projections: add 4 * 512.",
  "code": '''
mha_parameter_count = 4 * 512 ** 2
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong",
  "mistake": "Believes every head has its own full d_model x d_model W^Q, W^K, W^V, W^O, and multiplies the weights by h = 8.",
  "teacher_says": "Each head owns only d_k = 64 columns of the fused matrices: the total is 4 d_model^2 + 4 d_model whatever h is.",
  "code": '''
mha_parameter_count = 8 * 4 * 512 * 512 + 4 * 512
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong",
  "mistake": "Counts only the three input projections W^Q, W^K, W^V (and their biases), forgetting W^O and b_O.",
  "teacher_says": "The output projection is part of the layer too: four matrices and four biases.",
  "code": '''
mha_parameter_count = 3 * 512 * 512 + 3 * 512
'''},
]

_WRITER_F = ANSWERS
ANSWERS = _WRITER_B + _WRITER_F
