ANSWERS = [
 # ------------------------------------------------------------------ multi_head_attention
 {"exercise": "multi_head_attention", "kind": "correct", "idea": "the package's blocks, biases added through a small helper that skips None",
  "code": '''
import mha

def multi_head_attention(q, k, v, params, mask=None):
    def linear(x, w, b):
        y = x @ w
        if b is not None:
            y = y + b
        return y

    h = params.num_heads
    q_h = mha.split_heads(linear(q, params.w_q, params.b_q), h)
    k_h = mha.split_heads(linear(k, params.w_k, params.b_k), h)
    v_h = mha.split_heads(linear(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    out = linear(mha.merge_heads(heads), params.w_o, params.b_o)
    return out, weights
'''},
 {"exercise": "multi_head_attention", "kind": "correct", "idea": "a loop over the heads on column blocks, einsum scores, own masked softmax, concatenate the heads",
  "code": '''
import math
import numpy as np

def multi_head_attention(q, k, v, params, mask=None):
    h, d_k, d_v = params.num_heads, params.d_k, params.d_v
    Q = q @ params.w_q if params.b_q is None else q @ params.w_q + params.b_q
    K = k @ params.w_k if params.b_k is None else k @ params.w_k + params.b_k
    V = v @ params.w_v if params.b_v is None else v @ params.w_v + params.b_v
    n_q, n_k = Q.shape[-2], K.shape[-2]
    if mask is not None:
        batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2])
        full = np.broadcast_shapes(batch + (h, n_q, n_k), np.shape(mask))
        mask = np.broadcast_to(mask, full)
    heads, weights = [], []
    for i in range(h):
        qi = Q[..., i * d_k:(i + 1) * d_k]
        ki = K[..., i * d_k:(i + 1) * d_k]
        vi = V[..., i * d_v:(i + 1) * d_v]
        s = np.einsum("...qd,...kd->...qk", qi, ki) / math.sqrt(d_k)
        if mask is not None:
            s = np.where(mask[..., i, :, :], s, -np.inf)
        top = s.max(axis=-1, keepdims=True)
        top = np.where(np.isinf(top), 0, top)
        e = np.exp(s - top)
        z = e.sum(axis=-1, keepdims=True)
        w = e / np.where(z > 0, z, 1)
        weights.append(w)
        heads.append(w @ vi)
    concat = np.concatenate(heads, axis=-1)
    out = concat @ params.w_o
    if params.b_o is not None:
        out = out + params.b_o
    return out, np.stack(weights, axis=-3)
'''},
 {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "Copied mha_by_hand's projections with the biases always added: a layer without biases (b_q = None) raises a TypeError.",
  "teacher_says": "Biases may be None: add each one only when it is present (x @ w if b is None else x @ w + b).",
  "code": '''
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    q_h = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_h = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_h = mha.split_heads(v @ params.w_v + params.b_v, h)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "Forgot the output projection: returns the concatenated heads (plus b_o), which has the right shape when h*d_v = d_model.",
  "teacher_says": "MultiHead = Concat(heads) W^O (+ b_O): multiply the merged heads by params.w_o before adding b_o.",
  "code": '''
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def lin(x, w, b):
        return x @ w if b is None else x @ w + b
    q_h = mha.split_heads(lin(q, params.w_q, params.b_q), h)
    k_h = mha.split_heads(lin(k, params.w_k, params.b_k), h)
    v_h = mha.split_heads(lin(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    concat = mha.merge_heads(heads)
    out = concat if params.b_o is None else concat + params.b_o
    return out, weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "Wrote self-attention: keys and values are projected from q, so the k and v arguments are ignored.",
  "teacher_says": "In cross-attention the keys come from k and the values from v: project k with W^K and v with W^V.",
  "code": '''
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def lin(x, w, b):
        return x @ w if b is None else x @ w + b
    q_h = mha.split_heads(lin(q, params.w_q, params.b_q), h)
    k_h = mha.split_heads(lin(q, params.w_k, params.b_k), h)
    v_h = mha.split_heads(lin(q, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    return lin(mha.merge_heads(heads), params.w_o, params.b_o), weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "Added the output bias before the output projection, (concat + b_o) @ W^O, instead of after it.",
  "teacher_says": "The output layer is concat @ W^O + b_O: the bias is added to the projected output.",
  "code": '''
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def lin(x, w, b):
        return x @ w if b is None else x @ w + b
    q_h = mha.split_heads(lin(q, params.w_q, params.b_q), h)
    k_h = mha.split_heads(lin(k, params.w_k, params.b_k), h)
    v_h = mha.split_heads(lin(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    concat = mha.merge_heads(heads)
    if params.b_o is not None:
        concat = concat + params.b_o
    return concat @ params.w_o, weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "Merged the heads with a plain reshape to (..., n_q, h*d_v), without moving the heads axis back after the tokens.",
  "teacher_says": "Concat is transpose-then-reshape: swapaxes(-3, -2) before the reshape, or mha.merge_heads.",
  "code": '''
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def lin(x, w, b):
        return x @ w if b is None else x @ w + b
    q_h = mha.split_heads(lin(q, params.w_q, params.b_q), h)
    k_h = mha.split_heads(lin(k, params.w_k, params.b_k), h)
    v_h = mha.split_heads(lin(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    *batch, _, n_q, d_v = heads.shape
    concat = heads.reshape(*batch, n_q, h * d_v)
    return lin(concat, params.w_o, params.b_o), weights
'''},
 {"exercise": "multi_head_attention", "kind": "wrong", "mistake": "Copy-paste slip: the value projection adds the key bias b_k instead of b_v.",
  "teacher_says": "Each projection has its own bias: V = v @ W^V + b_V.",
  "code": '''
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    def lin(x, w, b):
        return x @ w if b is None else x @ w + b
    q_h = mha.split_heads(lin(q, params.w_q, params.b_q), h)
    k_h = mha.split_heads(lin(k, params.w_k, params.b_k), h)
    v_h = mha.split_heads(lin(v, params.w_v, params.b_k), h)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    return lin(mha.merge_heads(heads), params.w_o, params.b_o), weights
'''},
 {"exercise": "multi_head_attention", "kind": "robustness", "idea": "fold the 1/sqrt(d_k) into W^Q in place to save a division",
  "mistake": "Scales params.w_q (and b_q) in place with np.multiply(..., out=params.w_q), so the caller's weights change and every further call gives a different, wrong result.",
  "teacher_says": "Never modify the parameters you are given; scale the scores (or a copy of the queries) instead.",
  "code": '''
import math
import numpy as np
import mha

def multi_head_attention(q, k, v, params, mask=None):
    h = params.num_heads
    scale = 1.0 / math.sqrt(params.d_k)
    np.multiply(params.w_q, scale, out=params.w_q)
    if params.b_q is not None:
        np.multiply(params.b_q, scale, out=params.b_q)
    def lin(x, w, b):
        return x @ w if b is None else x @ w + b
    q_h = mha.split_heads(lin(q, params.w_q, params.b_q), h)
    k_h = mha.split_heads(lin(k, params.w_k, params.b_k), h)
    v_h = mha.split_heads(lin(v, params.w_v, params.b_v), h)
    scores = q_h @ k_h.swapaxes(-1, -2)
    if mask is not None:
        scores = mha.to_additive(mask, scores.dtype) + scores
    weights = mha.softmax(scores, axis=-1)
    if mask is not None:
        weights = weights * mask.any(axis=-1, keepdims=True)
    heads = weights @ v_h
    return lin(mha.merge_heads(heads), params.w_o, params.b_o), weights
'''},

 # ------------------------------------------------------------------ head_contributions
 {"exercise": "head_contributions", "kind": "correct", "idea": "einsum pairing the heads axis with W^O reshaped to (h, d_v, d_model)",
  "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(h, d_v, w_o.shape[-1])
    return np.einsum("...hnv,hvm->...hnm", heads, blocks)
'''},
 {"exercise": "head_contributions", "kind": "correct", "idea": "loop over the heads with row slices of W^O, stacked on axis -3",
  "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    terms = [heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v, :] for i in range(h)]
    return np.stack(terms, axis=-3)
'''},
 {"exercise": "head_contributions", "kind": "wrong", "mistake": "Reshaped W^O as (d_v, h, d_model) and moved the heads first, so each head gets every h-th row instead of its contiguous block.",
  "teacher_says": "Head i's block is rows i*d_v:(i+1)*d_v: reshape W^O to (h, d_v, d_model) directly, heads first.",
  "code": '''
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(d_v, h, -1).swapaxes(0, 1)
    return heads @ blocks
'''},
 {"exercise": "head_contributions", "kind": "wrong", "mistake": "Summed the per-head terms over the heads axis, returning the layer's output instead of each head's contribution.",
  "teacher_says": "Keep the heads axis: return the (..., h, n_q, d_model) terms; their sum is the output, not what is asked.",
  "code": '''
def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return (heads @ w_o.reshape(h, d_v, -1)).sum(axis=-3)
'''},
 {"exercise": "head_contributions", "kind": "wrong", "mistake": "Took column blocks of W^O and transposed them to make the product fit, instead of row blocks.",
  "teacher_says": "In Concat(heads) W^O, head i meets rows i*d_v:(i+1)*d_v of W^O; a transposed column block has the right shape only when h*d_v = d_model, and the wrong numbers.",
  "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    out = []
    for i in range(h):
        block = w_o[:, i * d_v:(i + 1) * d_v].T
        out.append(heads[..., i, :, :] @ block)
    return np.stack(out, axis=-3)
'''},
 {"exercise": "head_contributions", "kind": "wrong", "mistake": "Stacked the per-head terms on axis 0, so with a batch the heads axis ends up in front of the batch axis.",
  "teacher_says": "The heads axis belongs at -3, after the batch axes: np.stack(terms, axis=-3).",
  "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return np.stack([heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v] for i in range(h)])
'''},
 {"exercise": "head_contributions", "kind": "wrong", "mistake": "Computed the full output and split its features into heads, instead of splitting W^O's rows.",
  "teacher_says": "A head's contribution is head_i @ W_i^O, d_model wide; cutting the output's features into h pieces does not separate the heads.",
  "code": '''
import mha

def head_contributions(heads, w_o):
    h = heads.shape[-3]
    out = mha.merge_heads(heads) @ w_o
    return mha.split_heads(out, h)
'''},
 {"exercise": "head_contributions", "kind": "robustness", "idea": "fill a preallocated np.zeros array in a loop",
  "mistake": "Right numbers, but the result array is created with np.zeros' default float64, so float32 inputs give a float64 result.",
  "teacher_says": "Give the buffer the inputs' dtype (np.zeros(..., dtype=heads.dtype)) or build the result with @ / np.stack.",
  "code": '''
import numpy as np

def head_contributions(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    result = np.zeros(heads.shape[:-1] + (w_o.shape[1],))
    for i in range(h):
        result[..., i, :, :] = heads[..., i, :, :] @ w_o[i * d_v:(i + 1) * d_v]
    return result
'''},

 # ------------------------------------------------------------------ ov_matrices
 {"exercise": "ov_matrices", "kind": "correct", "idea": "loop over the heads: column block of W^V times row block of W^O",
  "code": '''
import numpy as np

def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    return np.stack([
        params.w_v[:, i * d_v:(i + 1) * d_v] @ params.w_o[i * d_v:(i + 1) * d_v, :]
        for i in range(h)
    ])
'''},
 {"exercise": "ov_matrices", "kind": "correct", "idea": "reshape both matrices and contract with einsum",
  "code": '''
import numpy as np

def ov_matrices(params):
    h = params.num_heads
    d_v = params.w_v.shape[1] // h
    wv = params.w_v.reshape(params.w_v.shape[0], h, d_v)
    wo = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return np.einsum("mhv,hvn->hmn", wv, wo)
'''},
 {"exercise": "ov_matrices", "kind": "wrong", "mistake": "Used the query/key head size d_k to cut the value blocks, which only works when d_v = d_k.",
  "teacher_says": "W^V and W^O are cut in blocks of d_v = params.d_v (w_v.shape[1] // h), which may differ from d_k.",
  "code": '''
import numpy as np

def ov_matrices(params):
    h, d = params.num_heads, params.d_k
    return np.stack([
        params.w_v[:, i * d:(i + 1) * d] @ params.w_o[i * d:(i + 1) * d, :]
        for i in range(h)
    ])
'''},
 {"exercise": "ov_matrices", "kind": "wrong", "mistake": "Took a block of rows of W^V (transposed to fit) instead of a block of columns.",
  "teacher_says": "Head i's values use columns i*d_v:(i+1)*d_v of W^V (it multiplies from the right, x W^V).",
  "code": '''
import numpy as np

def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    return np.stack([
        params.w_v[i * d_v:(i + 1) * d_v, :].T @ params.w_o[i * d_v:(i + 1) * d_v, :]
        for i in range(h)
    ])
'''},
 {"exercise": "ov_matrices", "kind": "wrong", "mistake": "Multiplied the blocks in the other order (W_i^O transposed times W_i^V transposed), which gives the transpose of M_i.",
  "teacher_says": "The head reads x, multiplies by W_i^V then by W_i^O: M_i = W_i^V W_i^O, not its transpose.",
  "code": '''
import numpy as np

def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    mats = []
    for i in range(h):
        wv = params.w_v[:, i * d_v:(i + 1) * d_v]
        wo = params.w_o[i * d_v:(i + 1) * d_v, :]
        mats.append(wo.T @ wv.T)
    return np.array(mats)
'''},
 {"exercise": "ov_matrices", "kind": "wrong", "mistake": "Reshaped W^V straight to (h, d_model, d_v) without moving the heads axis, which cuts rows of W^V instead of its column blocks.",
  "teacher_says": "Reshape W^V to (d_model, h, d_v) and move the heads axis first (transpose(1, 0, 2)); a bare reshape to (h, d_model, d_v) mixes the data.",
  "code": '''
def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    wv = params.w_v.reshape(h, params.w_v.shape[0], d_v)
    wo = params.w_o.reshape(h, d_v, params.w_o.shape[1])
    return wv @ wo
'''},
 {"exercise": "ov_matrices", "kind": "wrong", "mistake": "Cut W^O into strided rows (every h-th row) by reshaping it as (d_v, h, d_model).",
  "teacher_says": "Head i owns the contiguous rows i*d_v:(i+1)*d_v of W^O: reshape to (h, d_v, d_model).",
  "code": '''
import numpy as np

def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    wv = np.moveaxis(params.w_v.reshape(-1, h, d_v), 1, 0)
    wo = np.moveaxis(params.w_o.reshape(d_v, h, -1), 1, 0)
    return wv @ wo
'''},
 {"exercise": "ov_matrices", "kind": "wrong", "mistake": "Copy-paste slip: used W^Q's column blocks instead of W^V's.",
  "teacher_says": "What a head writes comes from its values: M_i = W_i^V W_i^O, with W^V, not W^Q.",
  "code": '''
import numpy as np

def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    return np.stack([
        params.w_q[:, i * d_v:(i + 1) * d_v] @ params.w_o[i * d_v:(i + 1) * d_v, :]
        for i in range(h)
    ])
'''},
 {"exercise": "ov_matrices", "kind": "robustness", "idea": "return the per-head matrices as a list",
  "mistake": "Right matrices, but returns a Python list of h arrays instead of one (h, d_model, d_model) array.",
  "teacher_says": "Stack them (np.stack) so the result is one array with the heads on axis 0.",
  "code": '''
def ov_matrices(params):
    h, d_v = params.num_heads, params.d_v
    return [params.w_v[:, i * d_v:(i + 1) * d_v] @ params.w_o[i * d_v:(i + 1) * d_v] for i in range(h)]
'''},

 # ------------------------------------------------------------------ attention_layer
 {"exercise": "attention_layer", "kind": "correct", "idea": "the minimal fix: key positions from k on the keys axis, mha.merge_heads, W^O without .T",
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
    return concat @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "correct", "idea": "mha.padding_mask for the keys, an explicit transpose(0, 2, 1, 3) before the reshape",
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
    concat = heads.transpose(0, 2, 1, 3).reshape(B, n_q, h * d_v)
    return concat @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "wrong", "mistake": "Fixed the mask and the merge but kept params.w_o.T, PyTorch's habit, although this book stores W^O as (h*d_v, d_model).",
  "teacher_says": "In the paper's layout the output is concat @ W^O; .T is for nn.Linear's (out, in) weights.",
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
 {"exercise": "attention_layer", "kind": "wrong", "mistake": "Fixed only half of the two-line mask bug: the mask now sits on the keys axis but its positions still come from the queries' length n_q.",
  "teacher_says": "The pads are keys: count positions up to n_k = k.shape[-2] and put them on the last axis; both lines must change.",
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
 {"exercise": "attention_layer", "kind": "wrong", "mistake": "Fixed the mask and W^O but kept the reshape without transpose when concatenating the heads.",
  "teacher_says": "A reshape of (B, h, n_q, d_v) to (B, n_q, h*d_v) mixes tokens: use mha.merge_heads (transpose, then reshape).",
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
 {"exercise": "attention_layer", "kind": "wrong", "mistake": "While fixing the mask, flipped its polarity (True at the pads), so queries read only the padding keys.",
  "teacher_says": "The book's masks say True = may attend: real keys are j < lengths[b], and the mask must be True there.",
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
 {"exercise": "attention_layer", "kind": "wrong", "mistake": "Rewrote the mask with <= lengths, an off-by-one that lets every query read the first pad.",
  "teacher_says": "Positions count from 0: key j is real when j < lengths[b], so the first pad (j = lengths[b]) must be False.",
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
        real = np.arange(n_k)[None, :] <= np.asarray(lengths)[:, None]
        mask = real[:, None, None, :]
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "wrong", "mistake": "Fixed the mask and W^O but 'fixed' the merge by swapping the last two axes instead of the heads and tokens axes.",
  "teacher_says": "Merge needs (B, n_q, h, d_v) before the reshape: swap axes 1 and 2 (the heads and the tokens), not the last two.",
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
    concat = heads.swapaxes(-1, -2).reshape(B, n_q, h * d_v)
    return concat @ params.w_o + params.b_o, weights
'''},
 {"exercise": "attention_layer", "kind": "robustness", "idea": "insists on lengths and raises its own error when they are missing",
  "mistake": "Correct with lengths, but raises its own ValueError when lengths is None, which the statement allows (nothing padded).",
  "teacher_says": "lengths=None means no padding: skip the mask instead of refusing the call.",
  "code": '''
import numpy as np
import mha

def attention_layer(q, k, v, params, lengths=None):
    if lengths is None:
        raise ValueError("attention_layer needs the real lengths of the key sequences")
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    mask = mha.padding_mask(lengths, k.shape[-2])
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
'''},

 # ------------------------------------------------------------------ mha_parameter_count
 {"exercise": "mha_parameter_count", "kind": "correct", "idea": "per-head sums: four matrices of d_model x h*d_k plus four biases of h*d_k",
  "code": '''
d_model, h = 512, 8
d_k = d_model // h
weights = 4 * d_model * (h * d_k)
biases = 3 * (h * d_k) + d_model
mha_parameter_count = weights + biases
'''},
 {"exercise": "mha_parameter_count", "kind": "correct", "idea": "ask the package's own parameters",
  "code": '''
import mha

mha_parameter_count = mha.init_params(512, 8, bias=True).num_parameters()
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "Counted the four weight matrices but left out the biases.",
  "teacher_says": "The layer has biases on all four projections: add 4 * 512 to 4 * 512^2.",
  "code": '''
mha_parameter_count = 4 * 512 ** 2
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "Counted only the input projections W^Q, W^K, W^V and their biases, forgetting W^O and b_O.",
  "teacher_says": "The output projection is part of the layer: four matrices and four biases.",
  "code": '''
d = 512
mha_parameter_count = 3 * d * d + 3 * d
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "Multiplied the weight count by the number of heads.",
  "teacher_says": "The fused matrices already hold every head: each is 512 x 512 whatever h is.",
  "code": '''
mha_parameter_count = 8 * 4 * 512 * 512 + 4 * 512
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "Counted a single bias vector for the whole layer instead of one per projection.",
  "teacher_says": "Each of the four projections has its own bias of d_model numbers: 4 * 512.",
  "code": '''
mha_parameter_count = 4 * 512 * 512 + 512
'''},
 {"exercise": "mha_parameter_count", "kind": "wrong", "mistake": "Gave each bias the size of one head (d_k = 64) instead of d_model.",
  "teacher_says": "A bias has one entry per output feature of its projection: h*d_k = 512, not 64.",
  "code": '''
d_model, h = 512, 8
mha_parameter_count = 4 * d_model ** 2 + 4 * (d_model // h)
'''},
 {"exercise": "mha_parameter_count", "kind": "robustness", "idea": "the count wrapped in a one-element list",
  "mistake": "Right count, but assigned as a one-element list instead of a number.",
  "teacher_says": "Assign the number itself, without brackets.",
  "code": '''
mha_parameter_count = [4 * 512 * 512 + 4 * 512]
'''},
]
