ANSWERS = [
 # --------------------------------------------------------- multi_head_attention
 {"exercise": "multi_head_attention", "kind": "correct",
  "idea": "the per-head loop of the formula: column blocks of each projection, the mask broadcast to the full scores shape and sliced per head, heads concatenated",
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
    batch = np.broadcast_shapes(qp.shape[:-2], kp.shape[:-2], vp.shape[:-2])
    full = (*batch, h, qp.shape[-2], kp.shape[-2])
    m = None if mask is None else np.broadcast_to(mask, full)
    outs, weights = [], []
    for i in range(h):
        qi = qp[..., i * d_k:(i + 1) * d_k]
        ki = kp[..., i * d_k:(i + 1) * d_k]
        vi = vp[..., i * d_v:(i + 1) * d_v]
        mi = None if m is None else m[..., i, :, :]
        o, w = mha.scaled_dot_product_attention(qi, ki, vi, mi)
        outs.append(o)
        weights.append(w)
    concat = np.concatenate(outs, axis=-1)
    out = concat @ params.w_o
    if params.b_o is not None:
        out = out + params.b_o
    return out, np.stack(weights, axis=-3)
'''},
 {"exercise": "multi_head_attention", "kind": "correct",
  "idea": "fully vectorised with einsum: projections reshaped to (..., n, h, d), scores with einsum, own masked softmax, W^O reshaped to (h, d_v, d_model) and contracted over heads and features at once",
  "code": '''
import math
import numpy as np
def multi_head_attention(q, k, v, params, mask=None):
    h, d_k, d_v = params.num_heads, params.d_k, params.d_v
    qp = q @ params.w_q if params.b_q is None else q @ params.w_q + params.b_q
    kp = k @ params.w_k if params.b_k is None else k @ params.w_k + params.b_k
    vp = v @ params.w_v if params.b_v is None else v @ params.w_v + params.b_v
    qh = qp.reshape(*qp.shape[:-1], h, d_k)
    kh = kp.reshape(*kp.shape[:-1], h, d_k)
    vh = vp.reshape(*vp.shape[:-1], h, d_v)
    scores = np.einsum("...qhd,...khd->...hqk", qh, kh) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total > 0, total, 1)
    w_o = params.w_o.reshape(h, d_v, -1)
    out = np.einsum("...hqk,...khd,hdm->...qm", weights, vh, w_o)
    if params.b_o is not None:
        out = out + params.b_o
    return out, weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong",
  "mistake": "never adds the biases (written for the unbiased layer of the earlier chapters)",
  "teacher_says": "When params.b_q ... params.b_o are not None, add each to its projection (b_o after W^O).",
  "code": '''
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
  "mistake": "masks with an additive -inf mask and a plain softmax, so a query with no allowed key gets NaN instead of zeros",
  "teacher_says": "A row of -inf gives 0/0: give fully masked queries zero weights (and so a zero attention output), e.g. by using mha.scaled_dot_product_attention or guarding the max and the sum.",
  "code": '''
import math
import numpy as np
import mha
def multi_head_attention(q, k, v, params, mask=None):
    def affine(x, w, b):
        return x @ w if b is None else x @ w + b
    h = params.num_heads
    qh = mha.split_heads(affine(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(affine(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(affine(v, params.w_v, params.b_v), h)
    scores = qh @ kh.swapaxes(-1, -2) / math.sqrt(qh.shape[-1])
    if mask is not None:
        scores = scores + np.where(mask, 0.0, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    out = affine(mha.merge_heads(weights @ vh), params.w_o, params.b_o)
    return out, weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong",
  "mistake": "adds b_q, b_k and b_v but forgets b_o after the output projection",
  "teacher_says": "The output projection has its bias too: out = concat @ w_o + b_o when b_o is not None.",
  "code": '''
import mha
def multi_head_attention(q, k, v, params, mask=None):
    def affine(x, w, b):
        return x @ w if b is None else x @ w + b
    h = params.num_heads
    qh = mha.split_heads(affine(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(affine(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(affine(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong",
  "mistake": "copy-paste slip: projects the keys with w_q (and b_q) instead of w_k",
  "teacher_says": "Each input has its own projection: k @ params.w_k + params.b_k for the keys.",
  "code": '''
import mha
def multi_head_attention(q, k, v, params, mask=None):
    def affine(x, w, b):
        return x @ w if b is None else x @ w + b
    h = params.num_heads
    qh = mha.split_heads(affine(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(affine(k, params.w_q, params.b_q), h)
    vh = mha.split_heads(affine(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return affine(mha.merge_heads(heads), params.w_o, params.b_o), weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong",
  "mistake": "scales the scores by sqrt(d_model) instead of sqrt(d_k) of one head",
  "teacher_says": "Each head's dot products are d_k long: divide by sqrt(params.d_k), not by sqrt(d_model).",
  "code": '''
import numpy as np
import mha
def multi_head_attention(q, k, v, params, mask=None):
    def affine(x, w, b):
        return x @ w if b is None else x @ w + b
    h = params.num_heads
    qh = mha.split_heads(affine(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(affine(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(affine(v, params.w_v, params.b_v), h)
    scores = qh @ kh.swapaxes(-1, -2) / np.sqrt(params.d_model)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores, axis=-1)
    return affine(mha.merge_heads(weights @ vh), params.w_o, params.b_o), weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong",
  "mistake": "returns the weights averaged over the heads, like nn.MultiheadAttention's default, instead of per head",
  "teacher_says": "The exercise asks for every head's weights, shape (..., h, n_q, n_k): do not take the mean over the heads axis.",
  "code": '''
import mha
def multi_head_attention(q, k, v, params, mask=None):
    def affine(x, w, b):
        return x @ w if b is None else x @ w + b
    h = params.num_heads
    qh = mha.split_heads(affine(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(affine(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(affine(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    out = affine(mha.merge_heads(heads), params.w_o, params.b_o)
    return out, weights.mean(axis=-3)
'''},
 {"exercise": "multi_head_attention", "kind": "robustness",
  "idea": "scalar Python loops over every batch element, head, query and key",
  "mistake": "correct, but computes every score and every weighted sum in nested Python loops: orders of magnitude slower than the vectorised form on realistic sizes",
  "teacher_says": "Let NumPy do the loops: one matrix product per projection and one batched product for all heads' scores.",
  "code": '''
import math
import numpy as np
def multi_head_attention(q, k, v, params, mask=None):
    h, d_k, d_v = params.num_heads, params.d_k, params.d_v
    qp = q @ params.w_q + (0 if params.b_q is None else params.b_q)
    kp = k @ params.w_k + (0 if params.b_k is None else params.b_k)
    vp = v @ params.w_v + (0 if params.b_v is None else params.b_v)
    batch = np.broadcast_shapes(qp.shape[:-2], kp.shape[:-2], vp.shape[:-2])
    n_q, n_k = qp.shape[-2], kp.shape[-2]
    qp = np.broadcast_to(qp, (*batch, n_q, qp.shape[-1]))
    kp = np.broadcast_to(kp, (*batch, n_k, kp.shape[-1]))
    vp = np.broadcast_to(vp, (*batch, n_k, vp.shape[-1]))
    m = np.ones((*batch, h, n_q, n_k), dtype=bool)
    if mask is not None:
        m = np.broadcast_to(mask, m.shape)
    weights = np.zeros((*batch, h, n_q, n_k), dtype=qp.dtype)
    concat = np.zeros((*batch, n_q, h * d_v), dtype=qp.dtype)
    for b in np.ndindex(*batch):
        for i in range(h):
            for t in range(n_q):
                row = []
                for j in range(n_k):
                    if m[b + (i, t, j)]:
                        s = 0.0
                        for c in range(d_k):
                            s += float(qp[b + (t, i * d_k + c)]) * float(kp[b + (j, i * d_k + c)])
                        row.append(s / math.sqrt(d_k))
                    else:
                        row.append(None)
                finite = [s for s in row if s is not None]
                if not finite:
                    continue
                top = max(finite)
                ex = [0.0 if s is None else math.exp(s - top) for s in row]
                total = sum(ex)
                for j in range(n_k):
                    weights[b + (i, t, j)] = ex[j] / total
                for c in range(d_v):
                    acc = 0.0
                    for j in range(n_k):
                        acc += ex[j] / total * float(vp[b + (j, i * d_v + c)])
                    concat[b + (t, i * d_v + c)] = acc
    out = concat @ params.w_o
    if params.b_o is not None:
        out = out + params.b_o
    return out, weights
'''},
 # ---------------------------------------------------------- head_contributions
 {"exercise": "head_contributions", "kind": "correct",
  "idea": "einsum with W^O reshaped to (h, d_v, d_model)",
  "code": '''
import numpy as np
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(h, d_v, w_o.shape[-1])
    return np.einsum("...hqd,hdm->...hqm", heads, blocks)
'''},
 {"exercise": "head_contributions", "kind": "correct",
  "idea": "loop over heads with the row blocks of W^O, stacked back on axis -3",
  "code": '''
import numpy as np
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    terms = [heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v, :] for i in range(h)]
    return np.stack(terms, axis=-3)
'''},
 {"exercise": "head_contributions", "kind": "wrong",
  "mistake": "reshapes W^O as (d_v, h, d_model) and swaps, so each head gets every h-th row of W^O instead of its contiguous block",
  "teacher_says": "Head i's block is rows i*d_v:(i+1)*d_v: reshape W^O to (h, d_v, d_model) directly, heads first.",
  "code": '''
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(d_v, h, -1).transpose(1, 0, 2)
    return heads @ blocks
'''},
 {"exercise": "head_contributions", "kind": "wrong",
  "mistake": "stacks the per-head terms on axis 0, which puts the heads before the batch axes when there is a batch",
  "teacher_says": "The heads axis is -3, after the batch axes: np.stack(terms, axis=-3).",
  "code": '''
import numpy as np
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    terms = [heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v] for i in range(h)]
    return np.stack(terms, axis=0)
'''},
 {"exercise": "head_contributions", "kind": "wrong",
  "mistake": "sums the contributions over the heads and returns the layer's output instead of each head's term",
  "teacher_says": "Return the terms themselves, shape (..., h, n_q, d_model); summing them over axis -3 is what the caller may do.",
  "code": '''
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(h, d_v, -1)
    return (heads @ blocks).sum(axis=-3)
'''},
 {"exercise": "head_contributions", "kind": "wrong",
  "mistake": "uses the PyTorch (out, in) habit and reshapes W^O transposed",
  "teacher_says": "W^O is stored in the paper's layout (h*d_v, d_model): reshape w_o itself, not w_o.T.",
  "code": '''
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.T.reshape(h, d_v, -1)
    return heads @ blocks
'''},
 {"exercise": "head_contributions", "kind": "wrong",
  "mistake": "computes the full output Concat(heads) W^O and cuts its d_model features into h chunks, as if each head owned a slice of the output",
  "teacher_says": "Every head writes into all d_model output features; what is split per head is the input side: the rows of W^O.",
  "code": '''
import numpy as np
import mha
def head_contributions(heads, w_o):
    h = heads.shape[-3]
    out = mha.merge_heads(heads) @ w_o
    return np.stack(np.split(out, h, axis=-1), axis=-3)
'''},
 {"exercise": "head_contributions", "kind": "robustness",
  "idea": "returns a Python list of the per-head terms",
  "mistake": "returns a list of h arrays instead of one array with a heads axis",
  "teacher_says": "Stack the terms into one array, np.stack(terms, axis=-3), so that the result has shape (..., h, n_q, d_model).",
  "code": '''
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return [heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v] for i in range(h)]
'''},
 # ----------------------------------------------------------------- ov_matrices
 {"exercise": "ov_matrices", "kind": "correct",
  "idea": "einsum over the head-reshaped W^V and W^O",
  "code": '''
import numpy as np
def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    w_v = params.w_v.reshape(params.w_v.shape[0], h, d_v)
    w_o = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return np.einsum("mhd,hdn->hmn", w_v, w_o)
'''},
 {"exercise": "ov_matrices", "kind": "correct",
  "idea": "list comprehension over heads with explicit column and row blocks, np.array of the list",
  "code": '''
import numpy as np
def ov_matrices(params):
    d_v = params.w_v.shape[1] // params.num_heads
    return np.array([
        params.w_v[:, i * d_v:(i + 1) * d_v] @ params.w_o[i * d_v:(i + 1) * d_v, :]
        for i in range(params.num_heads)
    ])
'''},
 {"exercise": "ov_matrices", "kind": "wrong",
  "mistake": "slices the blocks with d_k instead of d_v (wrong whenever d_v differs from d_k)",
  "teacher_says": "W^V and W^O are cut in blocks of d_v: use params.d_v; d_k belongs to W^Q and W^K.",
  "code": '''
import numpy as np
def ov_matrices(params):
    d = params.d_k
    return np.stack([params.w_v[:, i * d:(i + 1) * d] @ params.w_o[i * d:(i + 1) * d]
                     for i in range(params.num_heads)])
'''},
 {"exercise": "ov_matrices", "kind": "wrong",
  "mistake": "multiplies the blocks in the wrong order, W_i^O W_i^V, which gives a (d_v, d_v) matrix",
  "teacher_says": "Head i's term is A_i X W_i^V W_i^O: first the value projection, then the output block, M_i = W_i^V @ W_i^O.",
  "code": '''
import numpy as np
def ov_matrices(params):
    d_v = params.d_v
    return np.stack([params.w_o[i * d_v:(i + 1) * d_v] @ params.w_v[:, i * d_v:(i + 1) * d_v]
                     for i in range(params.num_heads)])
'''},
 {"exercise": "ov_matrices", "kind": "wrong",
  "mistake": "computes the query-key matrices W_i^Q (W_i^K)^T (where the head reads) instead of the output-value matrices",
  "teacher_says": "The OV matrix uses the value projection and the output projection: W_i^V W_i^O, not W^Q and W^K.",
  "code": '''
import numpy as np
def ov_matrices(params):
    d_k = params.d_k
    return np.stack([params.w_q[:, i * d_k:(i + 1) * d_k] @ params.w_k[:, i * d_k:(i + 1) * d_k].T
                     for i in range(params.num_heads)])
'''},
 {"exercise": "ov_matrices", "kind": "wrong",
  "mistake": "reshapes W^V straight to (h, d_model, d_v) without moving the heads axis, so the blocks are not head i's columns",
  "teacher_says": "Reshape W^V to (d_model, h, d_v) and then move the heads axis first (transpose(1, 0, 2)); a bare reshape scrambles the columns.",
  "code": '''
def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    w_v = params.w_v.reshape(h, params.w_v.shape[0], d_v)
    w_o = params.w_o.reshape(h, d_v, -1)
    return w_v @ w_o
'''},
 {"exercise": "ov_matrices", "kind": "wrong",
  "mistake": "reshapes W^O as (d_v, h, d_model) and swaps, taking every h-th row of W^O for a head",
  "teacher_says": "Head i owns the contiguous rows i*d_v:(i+1)*d_v of W^O: reshape it to (h, d_v, d_model).",
  "code": '''
import numpy as np
def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    w_v = np.moveaxis(params.w_v.reshape(-1, h, d_v), 1, 0)
    w_o = params.w_o.reshape(d_v, h, -1).transpose(1, 0, 2)
    return w_v @ w_o
'''},
 {"exercise": "ov_matrices", "kind": "robustness",
  "idea": "preallocates the result with np.zeros and fills it",
  "mistake": "np.zeros defaults to float64, so float32 parameters give a float64 result",
  "teacher_says": "Give the buffer the parameters' dtype: np.zeros(..., dtype=params.w_v.dtype).",
  "code": '''
import numpy as np
def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    out = np.zeros((h, params.w_v.shape[0], params.w_o.shape[1]))
    for i in range(h):
        out[i] = params.w_v[:, i * d_v:(i + 1) * d_v] @ params.w_o[i * d_v:(i + 1) * d_v]
    return out
'''},
 # ------------------------------------------------------------- attention_layer
 {"exercise": "attention_layer", "kind": "correct",
  "idea": "the three bugs fixed with the package's helpers: mha.padding_mask on the keys, mha.merge_heads, W^O without .T",
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
  "idea": "own mask by comparison on the keys axis, and the output as the sum over heads of head_i W_i^O",
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
        real_keys = np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]
        mask = real_keys[:, None, None, :]
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    d_v = heads.shape[-1]
    out = sum(heads[:, i] @ params.w_o[i * d_v:(i + 1) * d_v] for i in range(h))
    return out + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "wrong",
  "mistake": "moved the mask to the keys axis but still builds it from the number of queries, q.shape[-2] (half of the two-line bug)",
  "teacher_says": "The pads are keys: compare np.arange(k.shape[-2]) with the lengths; with n_q != n_k the mask from q.shape has the wrong length.",
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
  "mistake": "fixed the mask and the merge, but kept params.w_o.T",
  "teacher_says": "This book stores W^O in the paper's layout, (h*d_v, d_model): multiply by params.w_o, not its transpose.",
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
  "mistake": "fixed the mask and W^O, but kept the reshape of the heads without the transpose back",
  "teacher_says": "Concat needs (B, n_q, h, d_v) before the reshape: use mha.merge_heads(heads) (swap axes 1 and 2, then reshape).",
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
  "mistake": "while rewriting the mask on the keys, flipped its polarity (True at the pads), so queries read only the pads",
  "teacher_says": "True means 'may attend': the real keys are j < lengths[b], so the mask is np.arange(n_k) < lengths[:, None].",
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
        pad = np.arange(k.shape[-2]) >= np.asarray(lengths)[:, None]
        mask = pad[:, None, None, :]
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "wrong",
  "mistake": "fixed the merge with the wrong transpose, (0, 2, 3, 1), which interleaves the heads' features",
  "teacher_says": "Bring the tokens next to the batch and keep (h, d_v) in that order: transpose(0, 2, 1, 3), then reshape.",
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
  "idea": "leaves debugging prints in",
  "mistake": "correct, but prints the shapes and the mask on every call (noise on stdout)",
  "teacher_says": "Remove the debugging prints before handing the function in.",
  "code": '''
import mha
def attention_layer(q, k, v, params, lengths=None):
    h = params.num_heads
    print("q", q.shape, "k", k.shape, "lengths", lengths)
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    mask = None if lengths is None else mha.padding_mask(lengths, k.shape[-2])
    print("mask", None if mask is None else mask.astype(int))
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    print("heads", heads.shape, "weights", weights.shape)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},
 # ---------------------------------------------------------- mha_parameter_count
 {"exercise": "mha_parameter_count", "kind": "correct",
  "idea": "factorised: four projections of d_model^2 weights plus d_model biases each",
  "code": '''
d_model = 512
mha_parameter_count = 4 * (d_model * d_model + d_model)
'''},
 {"exercise": "mha_parameter_count", "kind": "correct",
  "idea": "asks the package: mha.init_params(..., bias=True).num_parameters()",
  "code": '''
import mha
mha_parameter_count = mha.init_params(512, 8, bias=True).num_parameters()
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong",
  "mistake": "forgets the four biases",
  "teacher_says": "The statement has biases on all four projections: add 4 * 512.",
  "code": '''
mha_parameter_count = 4 * 512 ** 2
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong",
  "mistake": "counts only W^Q, W^K, W^V and their biases, forgetting the output projection",
  "teacher_says": "The layer also has W^O (512 x 512) and b_O (512): four projections, not three.",
  "code": '''
mha_parameter_count = 3 * 512 ** 2 + 3 * 512
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong",
  "mistake": "counts one bias vector for the whole layer instead of one per projection",
  "teacher_says": "Each of the four projections has its own bias of 512 numbers: + 4 * 512.",
  "code": '''
mha_parameter_count = 4 * 512 ** 2 + 512
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong",
  "mistake": "gives each head square d_k x d_k matrices and multiplies by h",
  "teacher_says": "A head's projections are d_model x d_k, not d_k x d_k: together the heads make four d_model x d_model matrices.",
  "code": '''
h, d_k = 8, 64
mha_parameter_count = h * (4 * d_k * d_k + 4 * d_k)
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong",
  "mistake": "multiplies the full matrices by the number of heads",
  "teacher_says": "The parameter count does not depend on h: the heads share the d_model x d_model matrices between them.",
  "code": '''
mha_parameter_count = 8 * 4 * 512 ** 2 + 4 * 512
'''},
 {"exercise": "mha_parameter_count", "kind": "robustness",
  "idea": "writes the number as formatted text",
  "mistake": "assigns the string '1,050,624' instead of a number",
  "teacher_says": "Assign the number itself, 4 * 512**2 + 4 * 512, not its printed form.",
  "code": '''
mha_parameter_count = f"{4 * 512 ** 2 + 4 * 512:,}"
'''},
]
