ANSWERS = [
 # ------------------------------------------------------------------ multi_head_attention
 {"exercise": "multi_head_attention", "kind": "correct",
  "idea": "a loop over the heads' column blocks; the mask is broadcast to (..., h, n_q, n_k) and indexed per head",
  "code": '''
import numpy as np
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h, d_k, d_v = params.num_heads, params.d_k, params.d_v

    def proj(x, w, b):
        y = x @ w
        return y if b is None else y + b

    qp = proj(q, params.w_q, params.b_q)
    kp = proj(k, params.w_k, params.b_k)
    vp = proj(v, params.w_v, params.b_v)
    batch = np.broadcast_shapes(qp.shape[:-2], kp.shape[:-2])
    full = (*batch, h, qp.shape[-2], kp.shape[-2])
    if mask is not None:
        mask = np.broadcast_to(mask, full)
    heads, weights = [], []
    for i in range(h):
        m = None if mask is None else mask[..., i, :, :]
        out_i, w_i = mha.scaled_dot_product_attention(
            qp[..., i * d_k:(i + 1) * d_k],
            kp[..., i * d_k:(i + 1) * d_k],
            vp[..., i * d_v:(i + 1) * d_v],
            m,
        )
        heads.append(out_i)
        weights.append(w_i)
    concat = np.concatenate(heads, axis=-1)  # (..., n_q, h*d_v)
    out = concat @ params.w_o
    if params.b_o is not None:
        out = out + params.b_o
    return out, np.stack(weights, axis=-3)
'''},
 {"exercise": "multi_head_attention", "kind": "correct",
  "idea": "einsum throughout with a hand-written masked softmax (zero rows where the mask has no True)",
  "code": '''
import math
import numpy as np

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    zero = np.zeros((), dtype=params.w_q.dtype)
    b_q = zero if params.b_q is None else params.b_q
    b_k = zero if params.b_k is None else params.b_k
    b_v = zero if params.b_v is None else params.b_v
    b_o = zero if params.b_o is None else params.b_o
    qh = (q @ params.w_q + b_q).reshape(*q.shape[:-1], h, -1)  # (..., n_q, h, d_k)
    kh = (k @ params.w_k + b_k).reshape(*k.shape[:-1], h, -1)
    vh = (v @ params.w_v + b_v).reshape(*v.shape[:-1], h, -1)
    scores = np.einsum("...qhd,...khd->...hqk", qh, kh) / math.sqrt(qh.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = np.max(scores, axis=-1, keepdims=True)
    top = np.where(np.isneginf(top), 0, top)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total == 0, 1, total)
    heads = np.einsum("...hqk,...khd->...qhd", weights, vh)  # (..., n_q, h, d_v)
    concat = heads.reshape(*heads.shape[:-2], -1)
    return concat @ params.w_o + b_o, weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong",
  "mistake": "Leaves out the biases altogether: right for a layer without biases, wrong as soon as b_q ... b_o are present.",
  "teacher_says": "Add each bias after its projection when it is not None (b_q, b_k, b_v, and b_o after W^O).",
  "code": '''
import math
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = mha.split_heads(k @ params.w_k, h)
    vh = mha.split_heads(v @ params.w_v, h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong",
  "mistake": "Adds b_q, b_k and b_v when present but forgets the output bias b_o.",
  "teacher_says": "There are four biases: add b_o after the output projection too (when it is not None).",
  "code": '''
import mha

def affine(x, w, b):
    return x @ w if b is None else x @ w + b

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    qh = mha.split_heads(affine(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(affine(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(affine(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong",
  "mistake": "Inserts a heads axis into the mask (mask[..., None, :, :]) although the given mask already broadcasts to (..., h, n_q, n_k); with a padding mask (B, 1, 1, n_k) this adds a batch-like axis and breaks the shapes.",
  "teacher_says": "The mask is given broadcastable to the scores (..., h, n_q, n_k): pass it as it is; broadcasting supplies the heads axis.",
  "code": '''
import mha

def affine(x, w, b):
    return x @ w if b is None else x @ w + b

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    qh = mha.split_heads(affine(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(affine(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(affine(v, params.w_v, params.b_v), h)
    if mask is not None:
        mask = mask[..., None, :, :]  # add the heads axis
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return affine(mha.merge_heads(heads), params.w_o, params.b_o), weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong",
  "mistake": "Scales each head's scores by sqrt(d_model) instead of sqrt(d_k).",
  "teacher_says": "Each head's dot products have d_k = d_model/h terms: divide by sqrt(d_k).",
  "code": '''
import math
import numpy as np
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def affine(x, w, b):
        return x @ w if b is None else x @ w + b
    qh = mha.split_heads(affine(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(affine(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(affine(v, params.w_v, params.b_v), h)
    scores = qh @ kh.swapaxes(-1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores, axis=-1)
    out = affine(mha.merge_heads(weights @ vh), params.w_o, params.b_o)
    return out, weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong",
  "mistake": "Multiplies by params.w_o.T out of PyTorch habit; it runs because W^O is square and computes a different output projection.",
  "teacher_says": "The book stores W^O in the paper's layout, (h*d_v, d_model): concat @ params.w_o, no transpose.",
  "code": '''
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def affine(x, w, b):
        return x @ w if b is None else x @ w + b
    qh = mha.split_heads(affine(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(affine(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(affine(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return affine(mha.merge_heads(heads), params.w_o.T, params.b_o), weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong",
  "mistake": "Returns the weights averaged over the heads, (..., n_q, n_k), as nn.MultiheadAttention does by default.",
  "teacher_says": "Return every head's weights, shape (..., h, n_q, n_k); do not average over the heads axis.",
  "code": '''
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def affine(x, w, b):
        return x @ w if b is None else x @ w + b
    qh = mha.split_heads(affine(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(affine(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(affine(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    out = affine(mha.merge_heads(heads), params.w_o, params.b_o)
    return out, weights.mean(axis=-3)
'''},
 {"exercise": "multi_head_attention", "kind": "robustness",
  "idea": "validates its input shapes itself",
  "mistake": "Raises its own ValueError for anything that is not a batch (B, n, d_model), rejecting a single unbatched sequence or extra leading axes that the exercise allows.",
  "teacher_says": "Accept any number of leading axes (..., n, d_model); split_heads and @ already broadcast over them.",
  "code": '''
import mha

def multi_head_attention(q, k, v, params, mask=None):
    for name, x in (("q", q), ("k", k), ("v", v)):
        if x.ndim != 3:
            raise ValueError(f"{name} must be (B, n, d_model), got shape {x.shape}")
    h = params.num_heads
    def affine(x, w, b):
        return x @ w if b is None else x @ w + b
    qh = mha.split_heads(affine(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(affine(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(affine(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return affine(mha.merge_heads(heads), params.w_o, params.b_o), weights
'''},

 # ------------------------------------------------------------------ head_contributions
 {"exercise": "head_contributions", "kind": "correct",
  "idea": "einsum against W^O reshaped to (h, d_v, d_model)",
  "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(h, d_v, w_o.shape[-1])
    return np.einsum("...hnd,hdm->...hnm", heads, blocks)
'''},
 {"exercise": "head_contributions", "kind": "correct",
  "idea": "a loop over the heads, each times its row block of W^O, stacked on axis -3",
  "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    terms = [heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v, :] for i in range(h)]
    return np.stack(terms, axis=-3)
'''},
 {"exercise": "head_contributions", "kind": "wrong",
  "mistake": "Reshapes W^O as (d_v, h, d_model) and moves h first, which gives each head every h-th row (interleaved) instead of its contiguous block of rows.",
  "teacher_says": "Head i's block is rows i*d_v:(i+1)*d_v: reshape W^O to (h, d_v, d_model) directly.",
  "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = np.moveaxis(w_o.reshape(d_v, h, -1), 1, 0)  # (h, d_v, d_model)
    return heads @ blocks
'''},
 {"exercise": "head_contributions", "kind": "wrong",
  "mistake": "Stacks the per-head terms on axis 0, as the chapter's demo did, giving (h, ..., n_q, d_model) instead of (..., h, n_q, d_model) when there is a batch axis.",
  "teacher_says": "The heads axis must stay at position -3, where it is in the input: np.stack(..., axis=-3).",
  "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return np.stack(
        [heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v] for i in range(h)]
    )
'''},
 {"exercise": "head_contributions", "kind": "wrong",
  "mistake": "Sums the contributions over the heads, returning Concat(heads) W^O instead of each head's term.",
  "teacher_says": "Return each head's term separately, shape (..., h, n_q, d_model); the caller sums them if it wants the output.",
  "code": '''
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return (heads @ w_o.reshape(h, d_v, -1)).sum(axis=-3)
'''},
 {"exercise": "head_contributions", "kind": "wrong",
  "mistake": "Merges the heads, applies W^O and splits the output features back into heads, which cuts the d_model output into pieces instead of computing each head's full-width term.",
  "teacher_says": "Head i's term is head_i @ W_i^O, a full (n_q, d_model) array: multiply each head by its row block of W^O, do not split the output's features.",
  "code": '''
import mha

def head_contributions(heads, w_o):
    h = heads.shape[-3]
    return mha.split_heads(mha.merge_heads(heads) @ w_o, h)
'''},
 {"exercise": "head_contributions", "kind": "wrong",
  "mistake": "Takes the number of heads from heads.shape[0], which is the batch size as soon as there is a batch axis.",
  "teacher_says": "The heads axis is -3 (heads is (..., h, n_q, d_v)): h = heads.shape[-3].",
  "code": '''
def head_contributions(heads, w_o):
    h = heads.shape[0]
    d_v = w_o.shape[0] // h
    return heads @ w_o.reshape(h, d_v, w_o.shape[1])
'''},
 {"exercise": "head_contributions", "kind": "robustness",
  "idea": "pure Python loops over every batch entry, head and query",
  "mistake": "Correct but extremely slow: one small vector-matrix product per (batch entry, head, query) in Python loops.",
  "teacher_says": "Let NumPy do the loops: heads @ w_o.reshape(h, d_v, d_model) computes every term in one call.",
  "code": '''
import numpy as np

def head_contributions(heads, w_o):
    *batch, h, n_q, d_v = heads.shape
    out = np.zeros((*batch, h, n_q, w_o.shape[1]), dtype=np.result_type(heads, w_o))
    for idx in np.ndindex(*batch):
        for i in range(h):
            for t in range(n_q):
                for c in range(d_v):
                    out[idx + (i, t)] += heads[idx + (i, t, c)] * w_o[i * d_v + c]
    return out
'''},

 # ------------------------------------------------------------------ ov_matrices
 {"exercise": "ov_matrices", "kind": "correct",
  "idea": "a loop over the heads with d_v from params, stacked with np.stack",
  "code": '''
import numpy as np

def ov_matrices(params):
    d_v = params.d_v
    mats = []
    for i in range(params.num_heads):
        rows = slice(i * d_v, (i + 1) * d_v)
        mats.append(params.w_v[:, rows] @ params.w_o[rows, :])
    return np.stack(mats)
'''},
 {"exercise": "ov_matrices", "kind": "correct",
  "idea": "one einsum over the reshaped W^V (d_model, h, d_v) and W^O (h, d_v, d_model)",
  "code": '''
import numpy as np

def ov_matrices(params):
    h = params.num_heads
    w_v = params.w_v.reshape(params.w_v.shape[0], h, -1)
    w_o = params.w_o.reshape(h, -1, params.w_o.shape[1])
    return np.einsum("mhd,hdn->hmn", w_v, w_o)
'''},
 {"exercise": "ov_matrices", "kind": "wrong",
  "mistake": "Cuts the blocks with d_k instead of d_v, which is wrong whenever the value heads have another width than the query/key heads.",
  "teacher_says": "W^V and W^O are cut in blocks of d_v (params.d_v); d_k belongs to W^Q and W^K.",
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
  "mistake": "Reshapes W^V straight to (h, d_model, d_v) without moving an axis, so the 'blocks' are chunks of rows, not head i's columns.",
  "teacher_says": "Head i's block of W^V is its columns: reshape to (d_model, h, d_v) and move the heads axis first.",
  "code": '''
def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    w_v = params.w_v.reshape(h, params.w_v.shape[0], d_v)
    w_o = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return w_v @ w_o
'''},
 {"exercise": "ov_matrices", "kind": "wrong",
  "mistake": "Multiplies the blocks in the wrong order, W_i^O W_i^V, giving (d_v, d_v) matrices.",
  "teacher_says": "Head i's term is A_i X W_i^V W_i^O: W^V's block comes first, then W^O's, giving (d_model, d_model).",
  "code": '''
import numpy as np

def ov_matrices(params):
    d_v = params.d_v
    return np.stack([
        params.w_o[i * d_v:(i + 1) * d_v] @ params.w_v[:, i * d_v:(i + 1) * d_v]
        for i in range(params.num_heads)
    ])
'''},
 {"exercise": "ov_matrices", "kind": "wrong",
  "mistake": "Confuses the OV matrix with the QK matrix and returns W_i^Q (W_i^K)^T, which says where a head reads, not what it writes.",
  "teacher_says": "What a head writes is W_i^V W_i^O (values then output); W^Q and W^K only shape the weights A_i.",
  "code": '''
import numpy as np

def ov_matrices(params):
    d_k = params.d_k
    return np.stack([
        params.w_q[:, i * d_k:(i + 1) * d_k] @ params.w_k[:, i * d_k:(i + 1) * d_k].T
        for i in range(params.num_heads)
    ])
'''},
 {"exercise": "ov_matrices", "kind": "wrong",
  "mistake": "Cuts W^V correctly but reshapes W^O as (d_v, h, d_model) and moves h first, pairing each head with interleaved rows of W^O (a mistake in one of the two factors).",
  "teacher_says": "Head i's rows of W^O are contiguous, i*d_v:(i+1)*d_v: reshape W^O to (h, d_v, d_model) directly.",
  "code": '''
import numpy as np

def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    w_v = np.moveaxis(params.w_v.reshape(-1, h, d_v), 1, 0)             # (h, d_model, d_v)
    w_o = np.moveaxis(params.w_o.reshape(d_v, h, -1), 1, 0)             # (h, d_v, d_model)
    return w_v @ w_o
'''},
 {"exercise": "ov_matrices", "kind": "robustness",
  "idea": "returns the per-head matrices as a Python list",
  "mistake": "Returns a list of h (d_model, d_model) arrays instead of one (h, d_model, d_model) array.",
  "teacher_says": "Stack them: np.stack(mats) gives the array of shape (h, d_model, d_model) asked for.",
  "code": '''
def ov_matrices(params):
    d_v = params.d_v
    return [
        params.w_v[:, i * d_v:(i + 1) * d_v] @ params.w_o[i * d_v:(i + 1) * d_v, :]
        for i in range(params.num_heads)
    ]
'''},

 # ------------------------------------------------------------------ attention_layer
 {"exercise": "attention_layer", "kind": "correct",
  "idea": "the three fixes with the package's helpers: mha.padding_mask over the keys, mha.merge_heads, W^O without transpose",
  "code": '''
import mha

def attention_layer(q, k, v, params, lengths=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    mask = None if lengths is None else mha.padding_mask(lengths, k.shape[-2])
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "correct",
  "idea": "the fixes by hand: n_k from k, the mask on the keys axis with np.newaxis, transpose(0, 2, 1, 3) before the reshape",
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
        real = np.arange(n_k)[np.newaxis, :] < np.asarray(lengths)[:, np.newaxis]  # (B, n_k)
        mask = real[:, np.newaxis, np.newaxis, :]  # (B, 1, 1, n_k)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    B, _, n_q, d_v = heads.shape
    concat = heads.transpose(0, 2, 1, 3).reshape(B, n_q, h * d_v)
    return concat @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "wrong",
  "mistake": "Fixes only half of the two-line mask bug: counts the positions over the keys (n_k) but still puts the mask on the query axis, (B, 1, n_k, 1).",
  "teacher_says": "Padding hides keys: the mask must vary along the last axis of the scores, real[:, None, None, :].",
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
  "mistake": "Fixes the mask and W^O but keeps the reshape of the heads without the transpose, which mixes tokens in the concatenation.",
  "teacher_says": "Concat needs the heads axis moved back behind the tokens before the reshape: mha.merge_heads(heads) or heads.transpose(0, 2, 1, 3).reshape(...).",
  "code": '''
import mha

def attention_layer(q, k, v, params, lengths=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    mask = None if lengths is None else mha.padding_mask(lengths, k.shape[-2])
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    B, _, n_q, d_v = heads.shape
    concat = heads.reshape(B, n_q, h * d_v)
    return concat @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "wrong",
  "mistake": "Fixes the mask and the concatenation but keeps params.w_o.T.",
  "teacher_says": "The book stores W^O in the paper's layout (h*d_v, d_model): multiply by params.w_o, without the transpose.",
  "code": '''
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
 {"exercise": "attention_layer", "kind": "wrong",
  "mistake": "Rewrites the mask with the opposite polarity (True at the pads, >= lengths), so the queries attend only the pads.",
  "teacher_says": "In this book True = may attend: the real keys are j < lengths[b], np.arange(n_k) < lengths[:, None].",
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
        pads = np.arange(k.shape[-2]) >= np.asarray(lengths)[:, None]
        mask = pads[:, None, None, :]
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "wrong",
  "mistake": "Builds the key mask with <= lengths, an off-by-one that lets every query attend the first pad.",
  "teacher_says": "Sequence b has keys 0 .. lengths[b] - 1: the comparison is j < lengths[b], strictly.",
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
  "mistake": "Adds a transpose before the reshape but the wrong one, (0, 2, 3, 1), which puts the features before the heads and scrambles the concatenation.",
  "teacher_says": "Only the heads and token axes swap: (B, h, n_q, d_v) -> (B, n_q, h, d_v) is transpose(0, 2, 1, 3).",
  "code": '''
import mha

def attention_layer(q, k, v, params, lengths=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    mask = None if lengths is None else mha.padding_mask(lengths, k.shape[-2])
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    B, _, n_q, d_v = heads.shape
    concat = heads.transpose(0, 2, 3, 1).reshape(B, n_q, h * d_v)
    return concat @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "robustness",
  "idea": "zeroes the padded keys and values first, 'to be safe'",
  "mistake": "Writes zeros into the caller's k and v arrays at the pad positions (in place) before attending; the result is right but the inputs are changed.",
  "teacher_says": "The mask already keeps the pads out; never write into the arrays you are given (and zeroing pads is not needed).",
  "code": '''
import mha

def attention_layer(q, k, v, params, lengths=None):
    h = params.num_heads
    mask = None
    if lengths is not None:
        for b, length in enumerate(lengths):
            k[b, length:] = 0.0
            v[b, length:] = 0.0
        mask = mha.padding_mask(lengths, k.shape[-2])
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},

 # ------------------------------------------------------------------ mha_parameter_count
 {"exercise": "mha_parameter_count", "kind": "correct",
  "idea": "asks the package for the parameter count of such a layer",
  "code": '''
import mha

mha_parameter_count = mha.init_params(512, 8, bias=True).num_parameters()
'''},
 {"exercise": "mha_parameter_count", "kind": "correct",
  "idea": "factored: four projections of (d_model + 1) * d_model numbers each",
  "code": '''
d_model = 512
mha_parameter_count = 4 * (d_model + 1) * d_model
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong",
  "mistake": "Counts the four weight matrices but forgets the biases.",
  "teacher_says": "The layer has biases on all four projections: add 4 * 512.",
  "code": '''
mha_parameter_count = 4 * 512 ** 2
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong",
  "mistake": "Counts only W^Q, W^K, W^V and their biases, forgetting the output projection.",
  "teacher_says": "W^O and b_O are learned parameters of the layer too: four matrices and four biases.",
  "code": '''
d_model = 512
mha_parameter_count = 3 * d_model * d_model + 3 * d_model
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong",
  "mistake": "Adds a single bias vector instead of one per projection.",
  "teacher_says": "Each of the four projections has its own bias of d_model numbers: + 4 * 512.",
  "code": '''
d_model = 512
mha_parameter_count = 4 * d_model * d_model + d_model
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong",
  "mistake": "Gives the biases the width of one head (d_k = 64) instead of d_model.",
  "teacher_says": "The biases belong to the fused projections: b_q, b_k, b_v and b_o each have h*d_k = d_model = 512 entries.",
  "code": '''
d_model, h = 512, 8
d_k = d_model // h
mha_parameter_count = 4 * d_model * d_model + 4 * d_k
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong",
  "mistake": "Thinks each head's matrices are d_k x d_k, so it counts 8 heads of four 64 x 64 matrices plus the biases.",
  "teacher_says": "Each head's projection maps d_model = 512 inputs to d_k = 64: the fused matrices are 512 x 512, not 8 blocks of 64 x 64.",
  "code": '''
d_model, h = 512, 8
d_k = d_model // h
mha_parameter_count = h * 4 * d_k * d_k + 4 * d_model
'''},
 {"exercise": "mha_parameter_count", "kind": "robustness",
  "idea": "counts the parameters of a torch module",
  "mistake": "Assigns a 0-d torch tensor (the sum of the numels as a tensor) instead of a Python int.",
  "teacher_says": "Assign a plain int: sum(p.numel() for p in m.parameters()) is already an int, or call .item().",
  "code": '''
import torch

m = torch.nn.MultiheadAttention(512, 8, bias=True)
mha_parameter_count = torch.stack([torch.tensor(p.numel()) for p in m.parameters()]).sum()
'''},
]
