# writer B's answers, then writer F's (each file verbatim)
"""Writer B, chapter 4 (concat and the output projection): 1 correct + 3 wrong answers each."""

ANSWERS = [
    # ------------------------------------------------------------------ multi_head_attention
    {"exercise": "multi_head_attention", "kind": "correct",
     "idea": "einsum for the scores, moveaxis+reshape for split/merge, a hand-written "
             "softmax that guards all -inf rows; biases added only when present",
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
    scores = np.einsum("...id,...jd->...ij", qh, kh) / math.sqrt(qh.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    weights = (e / np.where(total > 0, total, 1.0)).astype(qh.dtype, copy=False)
    heads = weights @ vh  # (..., h, n_q, d_v)
    moved = np.moveaxis(heads, -3, -2)  # (..., n_q, h, d_v)
    concat = moved.reshape(*moved.shape[:-2], -1)
    return project(concat, params.w_o, params.b_o), weights
'''},
    {"exercise": "multi_head_attention", "kind": "wrong",
     "mistake": "Masks the scores with a large negative number (-1e9) instead of -inf, so a "
                "query whose keys are all forbidden gets uniform weights 1/n_k and the mean "
                "of the values instead of zeros.",
     "teacher_says": "A finite fill cannot tell an all-masked row from a row of equal scores: "
                     "use -inf and turn the all -inf rows into zeros explicitly.",
     "code": '''
import math

import numpy as np


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads

    def project(x, w, b):
        return x @ w if b is None else x @ w + b

    def to_heads(x):
        *lead, n, f = x.shape
        return np.swapaxes(x.reshape(*lead, n, h, f // h), -2, -3)

    qh = to_heads(project(q, params.w_q, params.b_q))
    kh = to_heads(project(k, params.w_k, params.b_k))
    vh = to_heads(project(v, params.w_v, params.b_v))
    scores = qh @ np.swapaxes(kh, -1, -2) / math.sqrt(qh.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -1e9)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = (e / e.sum(axis=-1, keepdims=True)).astype(qh.dtype)
    heads = weights @ vh
    concat = np.swapaxes(heads, -3, -2)
    concat = concat.reshape(*concat.shape[:-2], -1)
    return project(concat, params.w_o, params.b_o), weights
'''},
    {"exercise": "multi_head_attention", "kind": "wrong",
     "mistake": "Computes d_k as d_model // num_heads (from the shape of w_q's rows) instead of "
                "the per-head width of the projected queries, so the scores are scaled wrongly "
                "whenever d_k != d_model / h.",
     "teacher_says": "d_k is the width of one head's query (w_q.shape[1] // h), which need not "
                     "be d_model / h: read it from the projected heads, not from d_model.",
     "code": '''
import math

import numpy as np

import mha


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    d_model = params.w_q.shape[0]
    d_k = d_model // h

    def project(x, w, b):
        return x @ w if b is None else x @ w + b

    qh = mha.split_heads(project(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(project(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(project(v, params.w_v, params.b_v), h)
    scores = qh @ np.swapaxes(kh, -1, -2) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(scores - top)
    s = e.sum(axis=-1, keepdims=True)
    weights = (e / np.where(s > 0, s, 1.0)).astype(qh.dtype)
    concat = mha.merge_heads(weights @ vh)
    return project(concat, params.w_o, params.b_o), weights
'''},
    {"exercise": "multi_head_attention", "kind": "wrong",
     "mistake": "Concatenates the heads with a plain reshape of the (..., h, n_q, d_v) array to "
                "(..., n_q, h*d_v), without moving the heads axis next to the features first, "
                "so rows of different tokens get mixed.",
     "teacher_says": "Concat must put each token's h head vectors side by side: swap the heads "
                     "and query axes before the reshape (that is what merge_heads does).",
     "code": '''
import math

import numpy as np

import mha


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads

    def project(x, w, b):
        return x @ w if b is None else x @ w + b

    qh = mha.split_heads(project(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(project(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(project(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    *lead, _, n_q, d_v = heads.shape
    concat = heads.reshape(*lead, n_q, h * d_v)
    return project(concat, params.w_o, params.b_o), weights
'''},
    # ------------------------------------------------------------------ head_contributions
    {"exercise": "head_contributions", "kind": "correct",
     "idea": "one einsum pairing head i with the i-th row block of W^O reshaped to (h, d_v, d_model)",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(h, d_v, w_o.shape[-1])  # block i = rows i*d_v:(i+1)*d_v
    return np.einsum("...hqv,hvm->...hqm", heads, blocks)
'''},
    {"exercise": "head_contributions", "kind": "wrong",
     "mistake": "Reshapes W^O to (d_v, h, d_model) and moves the heads axis first, which gives "
                "head i the interleaved rows i, i+h, i+2h, ... instead of its contiguous block.",
     "teacher_says": "Head i owns the contiguous rows i*d_v:(i+1)*d_v, so the heads axis must be "
                     "the first (slowest) factor of the reshape: w_o.reshape(h, d_v, d_model).",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(d_v, h, w_o.shape[-1]).transpose(1, 0, 2)  # (h, d_v, d_model)
    return heads @ blocks
'''},
    {"exercise": "head_contributions", "kind": "wrong",
     "mistake": "Copies the notebook's np.stack over heads[:, i] with the default axis=0, so "
                "the heads axis ends up first, (h, B, n_q, d_model), instead of at -3; with "
                "batch axes the shape is wrong.",
     "teacher_says": "The result must be (..., h, n_q, d_model): index the heads with "
                     "heads[..., i, :, :] and stack on axis=-3.",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return np.stack(
        [heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v] for i in range(h)]
    )
'''},
    {"exercise": "head_contributions", "kind": "wrong",
     "mistake": "Takes d_v as d_model // h (from W^O's columns) instead of from the heads' last "
                "axis, so when h*d_v != d_model the row blocks are sliced at the wrong places.",
     "teacher_says": "The block height is d_v, the width of one head's output (heads.shape[-1] "
                     "or w_o.shape[0] // h), not d_model / h.",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h = heads.shape[-3]
    d_v = w_o.shape[1] // h
    parts = [heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v] for i in range(h)]
    return np.stack(parts, axis=-3)
'''},
    # ------------------------------------------------------------------ ov_matrices
    {"exercise": "ov_matrices", "kind": "correct",
     "idea": "a loop over heads slicing W^V's columns and W^O's rows with d_v, stacked",
     "code": '''
import numpy as np


def ov_matrices(params):
    h = params.num_heads
    d_v = params.w_v.shape[1] // h
    out = []
    for i in range(h):
        cols = slice(i * d_v, (i + 1) * d_v)
        out.append(params.w_v[:, cols] @ params.w_o[cols, :])
    return np.stack(out)
'''},
    {"exercise": "ov_matrices", "kind": "wrong",
     "mistake": "Uses d_k (w_q's columns per head) as the block width for W^V and W^O; the "
                "statement says d_v may differ from d_k, and then the blocks are wrong.",
     "teacher_says": "The value/output blocks are d_v wide: take it from w_v.shape[1] // h "
                     "(params.d_v), not from the queries' d_k.",
     "code": '''
import numpy as np


def ov_matrices(params):
    h = params.num_heads
    d_k = params.w_q.shape[1] // h
    return np.stack([
        params.w_v[:, i * d_k:(i + 1) * d_k] @ params.w_o[i * d_k:(i + 1) * d_k]
        for i in range(h)
    ])
'''},
    {"exercise": "ov_matrices", "kind": "wrong",
     "mistake": "Reshapes W^V straight to (h, d_model, d_v) without first splitting its "
                "columns as (d_model, h, d_v) and moving the heads axis, so each 'block' is a "
                "scramble of rows and columns of W^V.",
     "teacher_says": "Head i's value block is a set of columns: reshape to (d_model, h, d_v) and "
                     "transpose to (h, d_model, d_v); a bare reshape cuts W^V by rows.",
     "code": '''
import numpy as np


def ov_matrices(params):
    h = params.num_heads
    d_model = params.w_v.shape[0]
    d_v = params.w_v.shape[1] // h
    w_v = params.w_v.reshape(h, d_model, d_v)
    w_o = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return w_v @ w_o
'''},
    {"exercise": "ov_matrices", "kind": "wrong",
     "mistake": "Thinks in nn.Linear's (out, in) layout and multiplies the transposed blocks "
                "W_i^O^T W_i^V^T, which returns M_i transposed.",
     "teacher_says": "In the paper's layout x @ W the value projection comes first: "
                     "M_i = W_i^V W_i^O, no transposes.",
     "code": '''
import numpy as np


def ov_matrices(params):
    h = params.num_heads
    d_v = params.w_v.shape[1] // h
    mats = []
    for i in range(h):
        rows = slice(i * d_v, (i + 1) * d_v)
        mats.append(params.w_o[rows].T @ params.w_v[:, rows].T)
    return np.stack(mats)
'''},
    # ------------------------------------------------------------------ attention_layer
    {"exercise": "attention_layer", "kind": "correct",
     "idea": "the three bugs fixed: key-padding mask of length n_k on the keys axis, "
             "transpose before the concat reshape, w_o in paper layout (no .T)",
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
        real_keys = np.arange(n_k)[None, :] < np.asarray(lengths).reshape(-1, 1)  # (B, n_k)
        mask = real_keys[:, None, None, :]  # (B, 1, 1, n_k)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    concat = np.swapaxes(heads, 1, 2)  # (B, n_q, h, d_v)
    concat = concat.reshape(concat.shape[0], concat.shape[1], -1)
    return concat @ params.w_o + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "wrong",
     "mistake": "Moves the mask to the keys axis but keeps np.arange(q.shape[-2]): the mask has "
                "n_q entries instead of n_k, which fails (or is wrong) in cross-attention with "
                "n_q != n_k. Only half of the two-line bug is fixed.",
     "teacher_says": "The padded tokens are the keys, so the positions to compare with lengths "
                     "are the n_k = k.shape[-2] key positions.",
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
    {"exercise": "attention_layer", "kind": "wrong",
     "mistake": "Fixes the mask and W^O but leaves the concat as a plain reshape of "
                "(B, h, n_q, d_v) to (B, n_q, h*d_v), mixing the tokens.",
     "teacher_says": "A reshape without a transpose does not concatenate heads: swap the heads "
                     "and query axes first (or use mha.merge_heads).",
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
     "mistake": "Builds the key mask with <= instead of <, so the first pad of every padded "
                "sequence is still attended (off by one).",
     "teacher_says": "Key j is real when j < lengths[b]: position lengths[b] is already the "
                     "first pad.",
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
    concat = mha.merge_heads(heads)
    return concat @ params.w_o + params.b_o, weights
'''},
    # ------------------------------------------------------------------ mha_parameter_count
    {"exercise": "mha_parameter_count", "kind": "correct",
     "idea": "four d_model x d_model matrices plus four d_model biases",
     "code": '''
d_model = 512
mha_parameter_count = 4 * (d_model * d_model + d_model)
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong",
     "mistake": "Counts only the four weight matrices and forgets the four bias vectors.",
     "teacher_says": "The statement says biases on all four projections: add 4 * 512.",
     "code": '''
mha_parameter_count = 4 * 512 * 512
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong",
     "mistake": "Counts one head's projections (d_model x d_k) as if they were the whole "
                "layer, dividing the weight count by h.",
     "teacher_says": "Each fused matrix is d_model x (h*d_k) = 512 x 512; the per-head slices "
                     "are parts of it, and the count does not depend on h.",
     "code": '''
d_model, h = 512, 8
d_k = d_model // h
mha_parameter_count = 4 * d_model * d_k + 4 * d_model
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong",
     "mistake": "Counts W^Q, W^K, W^V and their biases but forgets the output projection W^O "
                "and b_O.",
     "teacher_says": "The layer has four projections: the output projection is learned too.",
     "code": '''
mha_parameter_count = 3 * 512 * 512 + 3 * 512
'''},
]

_WRITER_B = ANSWERS

"""Student answers for chapter 4 (concat and the output projection). Writer F."""

ANSWERS = [
    # ------------------------------------------------------------------ multi_head_attention
    {"exercise": "multi_head_attention", "kind": "correct",
     "idea": "einsum for every projection and product; a guarded softmax written by hand "
             "so that rows with no allowed key give zeros",
     "code": '''
import numpy as np


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads

    def proj(x, w, b):
        y = np.einsum("...nf,fo->...no", x, w)
        return y if b is None else y + b

    def heads_of(x):  # (..., n, h*d) -> (..., h, n, d)
        *lead, n, f = x.shape
        return np.moveaxis(x.reshape(*lead, n, h, f // h), -2, -3)

    qh = heads_of(proj(q, params.w_q, params.b_q))
    kh = heads_of(proj(k, params.w_k, params.b_k))
    vh = heads_of(proj(v, params.w_v, params.b_v))
    d_k = qh.shape[-1]
    scores = np.einsum("...qd,...kd->...qk", qh, kh) / np.sqrt(d_k).astype(qh.dtype)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    weights = (e / np.where(total > 0, total, 1)).astype(qh.dtype)
    heads = np.einsum("...qk,...kd->...qd", weights, vh)  # (..., h, n_q, d_v)
    *lead, _, n_q, d_v = heads.shape
    concat = np.moveaxis(heads, -3, -2).reshape(*lead, n_q, h * d_v)
    return proj(concat, params.w_o, params.b_o), weights
'''},
    {"exercise": "multi_head_attention", "kind": "robustness",
     "idea": "one head at a time in a Python loop, each head sliced out of the fused weights "
             "and attended with mha.scaled_dot_product_attention, then concatenated",
     "code": '''
import numpy as np
import mha


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    d_k, d_v = params.d_k, params.d_v
    outs, all_weights = [], []
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
        mask_i = None
        if mask is not None:
            m = np.asarray(mask)
            if m.ndim >= 3:
                m = np.take(m, [i if m.shape[-3] > 1 else 0], axis=-3)[..., 0, :, :]
            mask_i = m
        head, w = mha.scaled_dot_product_attention(qi, ki, vi, mask_i)
        outs.append(head)
        all_weights.append(w)
    concat = np.concatenate(outs, axis=-1)
    out = concat @ params.w_o
    if params.b_o is not None:
        out = out + params.b_o
    return out, np.stack(all_weights, axis=-3)
'''},
    {"exercise": "multi_head_attention", "kind": "wrong",
     "mistake": "Copied mha_by_hand's projections without its None test: adds params.b_q etc. "
                "unconditionally, so a layer without biases raises a TypeError.",
     "teacher_says": "The statement says the biases may be None: add each one only when it is present.",
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
     "mistake": "Masks with a large negative fill (-1e9) instead of -inf, so a query with no "
                "allowed key gets uniform weights 1/n_k and a non-zero output.",
     "teacher_says": "A fully masked row must give zero weights and a zero attention output; "
                     "a finite fill makes it average every value instead.",
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
    scores = qh @ kh.swapaxes(-1, -2) / np.sqrt(qh.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -1e9)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    weights = (e / e.sum(axis=-1, keepdims=True)).astype(qh.dtype)
    out = lin(mha.merge_heads(weights @ vh), params.w_o, params.b_o)
    return out, weights
'''},
    {"exercise": "multi_head_attention", "kind": "wrong",
     "mistake": "Splits the heads with a plain reshape to (..., h, n, d) without the transpose, "
                "so each 'head' mixes features of several tokens.",
     "teacher_says": "Reshape to (..., n, h, d) first and then swap the n and h axes; a direct "
                     "reshape scrambles tokens and features.",
     "code": '''
import numpy as np
import mha


def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(x):
        *lead, n, f = x.shape
        return x.reshape(*lead, h, n, f // h)

    qh = split(lin(q, params.w_q, params.b_q))
    kh = split(lin(k, params.w_k, params.b_k))
    vh = split(lin(v, params.w_v, params.b_v))
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return lin(mha.merge_heads(heads), params.w_o, params.b_o), weights
'''},
    # ------------------------------------------------------------------ head_contributions
    {"exercise": "head_contributions", "kind": "correct",
     "idea": "reshape W^O into its h row blocks and pair them with the heads by einsum",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(h, d_v, w_o.shape[-1])  # (h, d_v, d_model)
    return np.einsum("...hnd,hdm->...hnm", heads, blocks)
'''},
    {"exercise": "head_contributions", "kind": "robustness",
     "idea": "a Python loop over the heads slicing W^O's rows, stacked on axis -3",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    terms = []
    for i in range(h):
        block = w_o[i * d_v:(i + 1) * d_v, :].copy()
        terms.append(np.matmul(heads[..., i, :, :], block))
    return np.stack(terms, axis=-3)
'''},
    {"exercise": "head_contributions", "kind": "wrong",
     "mistake": "Reshapes W^O to (d_v, h, d_model) and moves h first, which takes every h-th "
                "row (interleaved) instead of contiguous row blocks.",
     "teacher_says": "Head i owns the contiguous rows i*d_v:(i+1)*d_v, which is a reshape to "
                     "(h, d_v, d_model), with h outermost.",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(d_v, h, w_o.shape[-1]).transpose(1, 0, 2)
    return heads @ blocks
'''},
    {"exercise": "head_contributions", "kind": "wrong",
     "mistake": "Stacks the per-head terms on axis 0, as the chapter's cell does, which puts the "
                "heads before the batch axes: (h, ..., n_q, d_model).",
     "teacher_says": "The heads axis must stay at -3, after the batch axes; np.stack(..., axis=0) "
                     "is right only without a batch.",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return np.stack(
        [heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v] for i in range(h)]
    )
'''},
    {"exercise": "head_contributions", "kind": "wrong",
     "mistake": "Computes d_v as d_model // h from W^O's columns instead of its rows, which only "
                "coincides when h*d_v = d_model.",
     "teacher_says": "d_v is the heads' last axis (or W^O's rows divided by h), not the output width divided by h.",
     "code": '''
import numpy as np


def head_contributions(heads, w_o):
    h = heads.shape[-3]
    d_model = w_o.shape[1]
    d_v = d_model // h
    blocks = np.stack([w_o[i * d_v:(i + 1) * d_v] for i in range(h)])
    return heads @ blocks
'''},
    # ------------------------------------------------------------------ ov_matrices
    {"exercise": "ov_matrices", "kind": "correct",
     "idea": "split W^V by columns and W^O by rows into (h, ., .) stacks, then one einsum",
     "code": '''
import numpy as np


def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    w_v = params.w_v.reshape(params.w_v.shape[0], h, d_v)        # (d_model, h, d_v)
    w_o = params.w_o.reshape(h, d_v, params.w_o.shape[1])        # (h, d_v, d_model)
    return np.einsum("mhd,hdn->hmn", w_v, w_o)
'''},
    {"exercise": "ov_matrices", "kind": "robustness",
     "idea": "a loop over heads with explicit slices, each product copied into a preallocated "
             "array of the weights' dtype",
     "code": '''
import numpy as np


def ov_matrices(params):
    h = params.num_heads
    d_v = params.w_v.shape[1] // h
    d_in, d_model = params.w_v.shape[0], params.w_o.shape[1]
    result = np.zeros((h, d_in, d_model), dtype=params.w_v.dtype)
    for i in range(h):
        wv_i = np.array(params.w_v[:, i * d_v:(i + 1) * d_v])
        wo_i = np.array(params.w_o[i * d_v:(i + 1) * d_v, :])
        for r in range(d_in):
            result[i, r] = wv_i[r] @ wo_i
    return result
'''},
    {"exercise": "ov_matrices", "kind": "wrong",
     "mistake": "Uses params.d_k as the block size of W^V and W^O, which is wrong when d_v differs from d_k.",
     "teacher_says": "The value and output blocks have d_v columns/rows; d_k only sizes the queries and keys.",
     "code": '''
import numpy as np


def ov_matrices(params):
    h, d = params.num_heads, params.d_k
    return np.stack([
        params.w_v[:, i * d:(i + 1) * d] @ params.w_o[i * d:(i + 1) * d]
        for i in range(h)
    ])
'''},
    {"exercise": "ov_matrices", "kind": "wrong",
     "mistake": "Reshapes W^V straight to (h, d_model, d_v), which cuts it into blocks of rows "
                "rather than taking each head's columns.",
     "teacher_says": "Head i's values come from columns of W^V: reshape to (d_model, h, d_v) and "
                     "move the heads axis first.",
     "code": '''
import numpy as np


def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    d_model = params.w_o.shape[1]
    w_v = params.w_v.reshape(h, params.w_v.shape[0], d_v)
    w_o = params.w_o.reshape(h, d_v, d_model)
    return w_v @ w_o
'''},
    {"exercise": "ov_matrices", "kind": "wrong",
     "mistake": "Multiplies the blocks in the order W_i^O^T W_i^V^T, i.e. returns the transpose "
                "of each M_i (the map a row-vector convention does not use).",
     "teacher_says": "The book writes x W, so a row x goes through W_i^V then W_i^O: M_i = W_i^V W_i^O, not its transpose.",
     "code": '''
import numpy as np


def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    blocks_v = np.moveaxis(params.w_v.reshape(params.w_v.shape[0], h, d_v), 1, 0)
    blocks_o = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return blocks_o.transpose(0, 2, 1) @ blocks_v.transpose(0, 2, 1)
'''},
    # ------------------------------------------------------------------ attention_layer
    {"exercise": "attention_layer", "kind": "correct",
     "idea": "the three bugs fixed: key mask built from n_k on the keys axis, merge with the "
             "transpose, and W^O used in paper layout",
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
        real_keys = np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]  # (B, n_k)
        mask = real_keys[:, None, None, :]  # (B, 1, 1, n_k)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    B, _, n_q, d_v = heads.shape
    concat = heads.transpose(0, 2, 1, 3).reshape(B, n_q, h * d_v)
    return concat @ params.w_o + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "robustness",
     "idea": "mask built with nested Python loops, heads concatenated one by one",
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
    concat = np.concatenate([heads[:, i] for i in range(h)], axis=-1)
    return concat @ params.w_o + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "wrong",
     "mistake": "Fixed only half of the two-line mask bug: the mask now counts n_k keys but is "
                "still placed on the queries axis, (B, 1, n_k, 1).",
     "teacher_says": "Padding hides keys: the mask's last axis must be the keys, (B, 1, 1, n_k).",
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
        mask = real[:, None, :, None]
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},
    {"exercise": "attention_layer", "kind": "wrong",
     "mistake": "Fixed the mask and W^O but kept the plain reshape of the heads to "
                "(B, n_q, h*d_v), which mixes queries.",
     "teacher_says": "Concat needs the heads axis moved after the query axis before the reshape (merge_heads).",
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
     "mistake": "Fixed the three bugs but wrote the key test as j <= length, so the first pad "
                "of every padded sequence is still attended.",
     "teacher_says": "Key j is real when j < lengths[b]; with <= one pad leaks in.",
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
    # ------------------------------------------------------------------ mha_parameter_count
    {"exercise": "mha_parameter_count", "kind": "correct",
     "idea": "four square matrices plus four bias vectors",
     "code": '''
d_model = 512
mha_parameter_count = 4 * (d_model * d_model + d_model)
'''},
    {"exercise": "mha_parameter_count", "kind": "robustness",
     "idea": "counted from an actual layer built with mha.init_params, delivered as a float",
     "code": '''
import mha

mha_parameter_count = float(mha.init_params(512, 8, bias=True).num_parameters())
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong",
     "mistake": "Counts only the four weight matrices and forgets the biases.",
     "teacher_says": "The statement says biases on all four projections: add 4 x 512.",
     "code": '''
mha_parameter_count = 4 * 512 ** 2
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong",
     "mistake": "Counts one head's matrices, d_model x d_k, instead of the fused ones "
                "d_model x h*d_k.",
     "teacher_says": "Each fused W has h*d_k = d_model columns; the count does not depend on h.",
     "code": '''
d_model, h = 512, 8
d_k = d_model // h
mha_parameter_count = 4 * d_model * d_k + 4 * d_model
'''},
    {"exercise": "mha_parameter_count", "kind": "wrong",
     "mistake": "Counts W^Q, W^K, W^V but leaves out the output projection's matrix.",
     "teacher_says": "W^O is a learned (h*d_v, d_model) matrix too.",
     "code": '''
mha_parameter_count = 3 * 512 * 512 + 4 * 512
'''},
]

_WRITER_F = ANSWERS
ANSWERS = _WRITER_B + _WRITER_F
