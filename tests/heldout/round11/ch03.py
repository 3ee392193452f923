# writer A's answers, then writer E's (each file verbatim)
"""Student answers for chapter 3 (per-head attention), writer A."""

ANSWERS = [
    # --------------------------------------------------------------- split_heads
    {"exercise": "split_heads", "kind": "correct",
     "idea": "reshape the feature axis to (h, d) with -1, then np.moveaxis the heads axis "
             "in front of the tokens",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    grouped = x.reshape(x.shape[:-1] + (num_heads, -1))  # (..., n, h, d)
    return np.moveaxis(grouped, -2, -3)  # (..., h, n, d)
'''},
    {"exercise": "split_heads", "kind": "robustness",
     "idea": "slices each head's column block in a Python loop, copies it, and stacks the "
             "copies on a new heads axis (a fresh array instead of a view)",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    d = x.shape[-1] // num_heads
    pieces = []
    for i in range(num_heads):
        pieces.append(np.array(x[..., i * d:(i + 1) * d], copy=True))
    return np.stack(pieces, axis=-3)
'''},
    {"exercise": "split_heads", "kind": "wrong",
     "mistake": "Reshaped straight to (..., h, n, d) without the transpose: the right shape, "
                "but each head gets consecutive chunks of the row-major data, mixing tokens.",
     "teacher_says": "Reshape to (..., n, h, d) first, then swap the n and h axes; a bare "
                     "reshape never moves numbers.",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    return x.reshape(*batch, num_heads, n, features // num_heads)
'''},
    {"exercise": "split_heads", "kind": "wrong",
     "mistake": "Wrote the transpose for one sequence only, `transpose(1, 0, 2)`: it works "
                "for a 2-D input but fails as soon as there is a batch axis.",
     "teacher_says": "Name the axes from the end (`np.swapaxes(x, -3, -2)`) so any number "
                     "of leading axes works.",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    n, features = x.shape[-2:]
    grouped = x.reshape(*x.shape[:-2], n, num_heads, features // num_heads)
    return grouped.transpose(1, 0, 2)
'''},
    {"exercise": "split_heads", "kind": "wrong",
     "mistake": "Cut the features as (d, h) instead of (h, d) and moved the last axis to "
                "the front: the shape is right but head i gets every h-th feature "
                "(i, i+h, ...) instead of the block i*d:(i+1)*d.",
     "teacher_says": "Head i owns a contiguous block, so the heads axis must come first in "
                     "the reshape: (..., n, h, d).",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    grouped = x.reshape(*batch, n, features // num_heads, num_heads)  # (..., n, d, h)
    return np.moveaxis(grouped, -1, -3)  # (..., h, n, d)
'''},

    # --------------------------------------------------------------- merge_heads
    {"exercise": "merge_heads", "kind": "correct",
     "idea": "np.moveaxis the heads axis back behind the tokens, then flatten the last two "
             "axes",
     "code": '''
import numpy as np

def merge_heads(x):
    tokens_first = np.moveaxis(x, -3, -2)  # (..., n, h, d)
    return tokens_first.reshape(tokens_first.shape[:-2] + (-1,))
'''},
    {"exercise": "merge_heads", "kind": "robustness",
     "idea": "preallocates the output and copies each head's block into its columns in a "
             "Python loop",
     "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    out = np.empty((*batch, n, h * d), dtype=x.dtype)
    for i in range(h):
        out[..., :, i * d:(i + 1) * d] = x[..., i, :, :]
    return out
'''},
    {"exercise": "merge_heads", "kind": "wrong",
     "mistake": "Reshaped (..., h, n, d) straight to (..., n, h*d) without transposing "
                "back, which interleaves tokens and heads.",
     "teacher_says": "Undo the split in reverse order: swap h and n back first, then "
                     "reshape.",
     "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    return x.reshape(*batch, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "wrong",
     "mistake": "Swapped the last two axes (n and d) instead of h and n: the sizes still "
                "multiply out for the reshape, but the content is scrambled.",
     "teacher_says": "The axes to swap back are the heads and the tokens, -3 and -2, "
                     "not -2 and -1.",
     "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    return np.swapaxes(x, -2, -1).reshape(*batch, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "wrong",
     "mistake": "Hard-coded the axes for a single sequence, `x.transpose(1, 0, 2)` and "
                "`reshape(n, -1)`: a batch axis makes it fail.",
     "teacher_says": "Count the axes from the end so that leading batch axes pass "
                     "through untouched.",
     "code": '''
import numpy as np

def merge_heads(x):
    h, n, d = x.shape[-3:]
    return x.transpose(1, 0, 2).reshape(n, h * d)
'''},

    # -------------------------------------------------------------- attend_heads
    {"exercise": "attend_heads", "kind": "correct",
     "idea": "split all three projections the same way, scale by sqrt(params.d_k), "
             "softmax over the keys axis; scores written with einsum",
     "code": '''
import math
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)  # (..., h, n, d_k)
    k = mha.split_heads(x @ params.w_k, h)  # (..., h, n, d_k)
    v = mha.split_heads(x @ params.w_v, h)  # (..., h, n, d_v)
    scores = np.einsum("...qc,...kc->...qk", q, k) / math.sqrt(params.d_k)
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "robustness",
     "idea": "a Python loop over the heads, each in float64 with mha.scaled_dot_product_"
             "attention on the column blocks, stacked and cast back to x's dtype",
     "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    h, d_k, d_v = params.num_heads, params.d_k, params.d_v
    x64 = x.astype(np.float64)
    heads, weights = [], []
    for i in range(h):
        q_i = x64 @ params.w_q[:, i * d_k:(i + 1) * d_k].astype(np.float64)
        k_i = x64 @ params.w_k[:, i * d_k:(i + 1) * d_k].astype(np.float64)
        v_i = x64 @ params.w_v[:, i * d_v:(i + 1) * d_v].astype(np.float64)
        head_i, weights_i = mha.scaled_dot_product_attention(q_i, k_i, v_i)
        heads.append(head_i)
        weights.append(weights_i)
    return (np.stack(heads, axis=-3).astype(x.dtype),
            np.stack(weights, axis=-3).astype(x.dtype))
'''},
    {"exercise": "attend_heads", "kind": "wrong",
     "mistake": "Fixed the scaling and the softmax axis but missed that q is cut with a bare "
                "reshape while k and v go through split_heads.",
     "teacher_says": "q, k and v must be split the same way: use mha.split_heads for q too.",
     "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = (x @ params.w_q).reshape(*batch, h, n, -1)  # (..., h, n, d_k)
    k = mha.split_heads(x @ params.w_k, h)  # (..., h, n, d_k)
    v = mha.split_heads(x @ params.w_v, h)  # (..., h, n, d_v)
    scores = q @ k.swapaxes(-1, -2) / params.d_k**0.5  # (..., h, n, n)
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "wrong",
     "mistake": "Fixed the split of q and the softmax axis but kept the division by "
                "sqrt(d_model) instead of sqrt(d_k).",
     "teacher_says": "Each head's scores are dot products of d_k-wide vectors: divide by "
                     "sqrt(d_k), not sqrt(d_model).",
     "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = mha.split_heads(x @ params.w_q, h)  # (..., h, n, d_k)
    k = mha.split_heads(x @ params.w_k, h)  # (..., h, n, d_k)
    v = mha.split_heads(x @ params.w_v, h)  # (..., h, n, d_v)
    scores = q @ k.swapaxes(-1, -2) / d_model**0.5  # (..., h, n, n)
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "wrong",
     "mistake": "Fixed the split and the scaling but left the softmax over axis -2, so each "
                "key's column sums to 1 instead of each query's row.",
     "teacher_says": "Each query's weights over the keys must sum to 1: softmax over the "
                     "last axis.",
     "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = mha.split_heads(x @ params.w_q, h)  # (..., h, n, d_k)
    k = mha.split_heads(x @ params.w_k, h)  # (..., h, n, d_k)
    v = mha.split_heads(x @ params.w_v, h)  # (..., h, n, d_v)
    scores = q @ k.swapaxes(-1, -2) / params.d_k**0.5  # (..., h, n, n)
    weights = mha.softmax(scores, axis=-2)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "wrong",
     "mistake": "Fixed all three lines but computed d_k as d_model // h, which is only the "
                "head width when d_k = d_model / h; the layer may have other head sizes.",
     "teacher_says": "Take d_k from the weights (params.d_k, or q.shape[-1]), not from "
                     "d_model.",
     "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    d_k = d_model // h
    q = mha.split_heads(x @ params.w_q, h)  # (..., h, n, d_k)
    k = mha.split_heads(x @ params.w_k, h)  # (..., h, n, d_k)
    v = mha.split_heads(x @ params.w_v, h)  # (..., h, n, d_v)
    scores = q @ k.swapaxes(-1, -2) / d_k**0.5  # (..., h, n, n)
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},

    # --------------------------------------------------------- split_heads_shape
    {"exercise": "split_heads_shape", "kind": "correct",
     "idea": "(batch, heads, tokens, d_model // heads) written out from the sizes",
     "code": '''
batch, n, d_model, h = 2, 10, 768, 12
split_heads_shape = (batch, h, n, d_model // h)
'''},
    {"exercise": "split_heads_shape", "kind": "robustness",
     "idea": "the right sizes, but as a list instead of the tuple asked for",
     "code": '''
split_heads_shape = [2, 12, 10, 64]
'''},
    {"exercise": "split_heads_shape", "kind": "wrong",
     "mistake": "Forgot the transpose in their head: put the heads axis after the tokens, "
                "(2, 10, 12, 64).",
     "teacher_says": "split_heads moves the heads axis before the sequence axis: "
                     "(B, h, n, d).",
     "code": '''
split_heads_shape = (2, 10, 12, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong",
     "mistake": "Kept the full d_model as each head's width instead of dividing it by the "
                "number of heads.",
     "teacher_says": "The 768 features are shared out: each head gets 768 / 12 = 64.",
     "code": '''
split_heads_shape = (2, 12, 10, 768)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong",
     "mistake": "Put the heads axis in front of the batch axis, (12, 2, 10, 64).",
     "teacher_says": "Leading batch axes stay where they are; the heads axis goes just "
                     "before the tokens.",
     "code": '''
split_heads_shape = (12, 2, 10, 64)
'''},
]

_WRITER_A = ANSWERS

"""Writer E, chapter 03 (per-head attention): blind student answers."""

ANSWERS = [
    # -------------------------------------------------------------- split_heads
    {
        "exercise": "split_heads",
        "kind": "correct",
        "idea": "reshape the feature axis to (h, -1), then np.moveaxis the heads axis in front "
        "of the tokens",
        "code": '''
import numpy as np

def split_heads(x, num_heads):
    grouped = x.reshape(x.shape[:-1] + (num_heads, -1))  # (..., n, h, d)
    return np.moveaxis(grouped, -2, -3)  # (..., h, n, d)
''',
    },
    {
        "exercise": "split_heads",
        "kind": "robustness",
        "idea": "slices each head's columns in a Python loop, copies them, and stacks the "
        "copies on a new axis before the tokens",
        "code": '''
import numpy as np

def split_heads(x, num_heads):
    d = x.shape[-1] // num_heads
    pieces = []
    for i in range(num_heads):
        pieces.append(np.array(x[..., i * d:(i + 1) * d], copy=True))
    return np.stack(pieces, axis=-3)
''',
    },
    {
        "exercise": "split_heads",
        "kind": "wrong",
        "mistake": "Reshapes straight to (..., h, n, d) without the transpose: the shape is "
        "right, but each 'head' receives consecutive chunks of a few tokens' features.",
        "teacher_says": "A reshape only re-cuts the row-major order; reshape to (..., n, h, d) "
        "first and then swap the n and h axes.",
        "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    return x.reshape(*batch, num_heads, n, features // num_heads)
''',
    },
    {
        "exercise": "split_heads",
        "kind": "wrong",
        "mistake": "Writes it for one sequence, (n, h*d), with a hard-coded transpose(1, 0, 2): "
        "any leading batch axis makes the reshape fail.",
        "teacher_says": "The function must work for any number of leading axes: take them from "
        "x.shape[:-2] and swap only axes -3 and -2.",
        "code": '''
import numpy as np

def split_heads(x, num_heads):
    n, features = x.shape[-2], x.shape[-1]
    return x.reshape(n, num_heads, features // num_heads).transpose(1, 0, 2)
''',
    },
    {
        "exercise": "split_heads",
        "kind": "wrong",
        "mistake": "Cuts the feature axis as (d, h) instead of (h, d) and moves the last axis "
        "forward: right shape, but head i gets features i, i+h, i+2h, ... instead of "
        "i*d:(i+1)*d.",
        "teacher_says": "Head i owns a contiguous block of d features, so the feature axis "
        "splits as (h, d), heads first.",
        "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    y = x.reshape(*batch, n, features // num_heads, num_heads)  # (..., n, d, h)
    return np.moveaxis(y, -1, -3)  # (..., h, n, d)
''',
    },
    # -------------------------------------------------------------- merge_heads
    {
        "exercise": "merge_heads",
        "kind": "correct",
        "idea": "np.moveaxis the heads axis behind the tokens, then flatten the last two axes",
        "code": '''
import numpy as np

def merge_heads(x):
    tokens_first = np.moveaxis(x, -3, -2)  # (..., n, h, d)
    return tokens_first.reshape(tokens_first.shape[:-2] + (-1,))  # (..., n, h*d)
''',
    },
    {
        "exercise": "merge_heads",
        "kind": "robustness",
        "idea": "fills a preallocated (..., n, h*d) array head by head and token by token in "
        "Python loops",
        "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    out = np.zeros((*batch, n, h * d), dtype=x.dtype)
    for i in range(h):
        for t in range(n):
            out[..., t, i * d:(i + 1) * d] = x[..., i, t, :]
    return out
''',
    },
    {
        "exercise": "merge_heads",
        "kind": "wrong",
        "mistake": "Reshapes (..., h, n, d) straight to (..., n, h*d) without transposing back: "
        "tokens and heads are interleaved.",
        "teacher_says": "Undo the split in reverse order: swap the heads and tokens axes back to "
        "(..., n, h, d) first, then reshape.",
        "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    return x.reshape(*batch, n, h * d)
''',
    },
    {
        "exercise": "merge_heads",
        "kind": "wrong",
        "mistake": "Hard-codes the axes of a single (h, n, d) array with transpose(1, 0, 2), "
        "so a batch axis in front makes it fail.",
        "teacher_says": "Count the axes from the end (-3 and -2) so that any number of leading "
        "batch axes passes through untouched.",
        "code": '''
import numpy as np

def merge_heads(x):
    h, n, d = x.shape[-3:]
    return x.transpose(1, 0, 2).reshape(n, h * d)
''',
    },
    {
        "exercise": "merge_heads",
        "kind": "wrong",
        "mistake": "Concatenates the heads along the tokens axis instead of the feature axis: "
        "the result is (..., h*n, d), the heads' rows one after another.",
        "teacher_says": "Concat(head_1, ..., head_h) joins each token's head outputs side by "
        "side, along the features (axis -1), not along the tokens.",
        "code": '''
import numpy as np

def merge_heads(x):
    heads = [x[..., i, :, :] for i in range(x.shape[-3])]
    return np.concatenate(heads, axis=-2)
''',
    },
    # ------------------------------------------------------------- attend_heads
    {
        "exercise": "attend_heads",
        "kind": "correct",
        "idea": "all three bugs fixed: every projection split with a reshape + moveaxis, the "
        "scale is sqrt(d_k) of the split queries, and the softmax runs over the keys (last "
        "axis); products written with einsum",
        "code": '''
import math
import numpy as np

def attend_heads(x, params):
    h = params.num_heads

    def by_head(w):
        y = x @ w  # (..., n, h*d)
        return np.moveaxis(y.reshape(y.shape[:-1] + (h, -1)), -2, -3)  # (..., h, n, d)

    q, k, v = by_head(params.w_q), by_head(params.w_k), by_head(params.w_v)
    scores = np.einsum("...id,...jd->...ij", q, k) / math.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    heads = np.einsum("...ij,...jd->...id", weights, v)
    return heads, weights
''',
    },
    {
        "exercise": "attend_heads",
        "kind": "robustness",
        "idea": "gives up on the batched form: a Python loop over heads calling "
        "mha.scaled_dot_product_attention on the column blocks, stacked afterwards",
        "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    h, d_k, d_v = params.num_heads, params.d_k, params.d_v
    heads, weights = [], []
    for i in range(h):
        q_i = x @ params.w_q[:, i * d_k:(i + 1) * d_k]
        k_i = x @ params.w_k[:, i * d_k:(i + 1) * d_k]
        v_i = x @ params.w_v[:, i * d_v:(i + 1) * d_v]
        head_i, weights_i = mha.scaled_dot_product_attention(q_i, k_i, v_i)
        heads.append(head_i)
        weights.append(weights_i)
    return np.stack(heads, axis=-3), np.stack(weights, axis=-3)
''',
    },
    {
        "exercise": "attend_heads",
        "kind": "wrong",
        "mistake": "Fixes the split and the softmax axis but replaces d_model**0.5 by "
        "sqrt(d_model / h), assuming d_k = d_model/h: wrong whenever the heads have another "
        "width.",
        "teacher_says": "d_k is the width of the split queries (q.shape[-1] or params.d_k), "
        "which need not be d_model/h; use it directly.",
        "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = mha.split_heads(x @ params.w_q, h)  # (..., h, n, d_k)
    k = mha.split_heads(x @ params.w_k, h)  # (..., h, n, d_k)
    v = mha.split_heads(x @ params.w_v, h)  # (..., h, n, d_v)
    scores = q @ k.swapaxes(-1, -2) / (d_model / h) ** 0.5  # (..., h, n, n)
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
''',
    },
    {
        "exercise": "attend_heads",
        "kind": "wrong",
        "mistake": "Fixes the queries' split and the scale but keeps the softmax over axis -2, "
        "so each key's column sums to 1 instead of each query's row.",
        "teacher_says": "The weights of one query are a row of the scores, over the keys: the "
        "softmax must run along the last axis.",
        "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)  # (..., h, n, d_k)
    k = mha.split_heads(x @ params.w_k, h)  # (..., h, n, d_k)
    v = mha.split_heads(x @ params.w_v, h)  # (..., h, n, d_v)
    scores = q @ k.swapaxes(-1, -2) / params.d_k ** 0.5  # (..., h, n, n)
    weights = mha.softmax(scores, axis=-2)
    return weights @ v, weights
''',
    },
    {
        "exercise": "attend_heads",
        "kind": "wrong",
        "mistake": "Fixes the scale and the softmax axis but does not see the queries' bug: "
        "they are still cut with a plain reshape to (..., h, n, -1), without the transpose.",
        "teacher_says": "q, k and v must be split the same way; the plain reshape gives q the "
        "right shape but mixes tokens, so use mha.split_heads for q as well.",
        "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = (x @ params.w_q).reshape(*batch, h, n, -1)  # (..., h, n, d_k)
    k = mha.split_heads(x @ params.w_k, h)  # (..., h, n, d_k)
    v = mha.split_heads(x @ params.w_v, h)  # (..., h, n, d_v)
    scores = q @ k.swapaxes(-1, -2) / params.d_k ** 0.5  # (..., h, n, n)
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
''',
    },
    # -------------------------------------------------------- split_heads_shape
    {
        "exercise": "split_heads_shape",
        "kind": "correct",
        "idea": "batch, heads, tokens, features per head",
        "code": '''
batch, n, d_model, h = 2, 10, 768, 12
split_heads_shape = (batch, h, n, d_model // h)
''',
    },
    {
        "exercise": "split_heads_shape",
        "kind": "robustness",
        "idea": "a tuple of NumPy int64 values computed with array arithmetic instead of "
        "Python ints",
        "code": '''
import numpy as np

split_heads_shape = tuple(np.array([2, 12, 10, 768]) // np.array([1, 1, 1, 12]))
''',
    },
    {
        "exercise": "split_heads_shape",
        "kind": "wrong",
        "mistake": "Forgets the transpose: keeps the tokens before the heads, (2, 10, 12, 64).",
        "teacher_says": "split_heads moves the heads axis in front of the sequence axis: "
        "(batch, h, n, d).",
        "code": '''
split_heads_shape = (2, 10, 12, 64)
''',
    },
    {
        "exercise": "split_heads_shape",
        "kind": "wrong",
        "mistake": "Does not divide the features among the heads: gives every head all 768 "
        "features.",
        "teacher_says": "The 768 features are shared out, 768 / 12 = 64 per head.",
        "code": '''
split_heads_shape = (2, 12, 10, 768)
''',
    },
    {
        "exercise": "split_heads_shape",
        "kind": "wrong",
        "mistake": "Puts the heads axis first, in front of the batch axis: (12, 2, 10, 64).",
        "teacher_says": "The batch axis stays in front; the heads axis goes between the batch "
        "and the sequence axes.",
        "code": '''
split_heads_shape = (12, 2, 10, 64)
''',
    },
]

_WRITER_E = ANSWERS
ANSWERS = _WRITER_A + _WRITER_E
