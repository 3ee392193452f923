# writer A's answers, then writer E's (each file verbatim)
"""Writer A, chapter 03 (per-head attention): blind student answers."""

ANSWERS = [
    # -------------------------------------------------------------- split_heads
    {"exercise": "split_heads", "kind": "correct",
     "idea": "reshape the feature axis to (h, d), then np.moveaxis the heads axis in front "
             "of the tokens",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    lead = x.shape[:-1]
    grouped = x.reshape(*lead, num_heads, x.shape[-1] // num_heads)  # (..., n, h, d)
    return np.moveaxis(grouped, -2, -3)  # (..., h, n, d)
'''},
    {"exercise": "split_heads", "kind": "robustness",
     "idea": "allocates the output and fills it head by head from column slices in a Python "
             "loop (a contiguous copy rather than a view)",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    d = features // num_heads
    out = np.empty((*batch, num_heads, n, d), dtype=x.dtype)
    for i in range(num_heads):
        out[..., i, :, :] = x[..., :, i * d:(i + 1) * d]
    return out
'''},
    {"exercise": "split_heads", "kind": "wrong",
     "mistake": "Reshapes straight to (..., h, n, d) without the transpose: the shape is "
                "right but each 'head' receives consecutive chunks of tokens' features.",
     "teacher_says": "Reshape to (..., n, h, d) first, then swap the n and h axes; a reshape "
                     "alone never moves numbers between tokens and heads.",
     "code": '''
def split_heads(x, num_heads):
    *batch, n, features = x.shape
    return x.reshape(*batch, num_heads, n, features // num_heads)
'''},
    {"exercise": "split_heads", "kind": "wrong",
     "mistake": "Hard-codes a 4-D transpose (0, 2, 1, 3) as in PyTorch code with one batch "
                "axis: fails for an unbatched (n, h*d) input or for two batch axes.",
     "teacher_says": "Swap the axes counted from the end, np.swapaxes(x, -3, -2), so any "
                     "number of leading axes works.",
     "code": '''
def split_heads(x, num_heads):
    *batch, n, features = x.shape
    x = x.reshape(*batch, n, num_heads, features // num_heads)
    return x.transpose(0, 2, 1, 3)
'''},
    {"exercise": "split_heads", "kind": "wrong",
     "mistake": "Swaps the order of the two sizes in the reshape, (n, d, h) instead of "
                "(n, h, d), so head i gets the strided features i, i+h, i+2h, ...",
     "teacher_says": "Head i owns the contiguous features i*d:(i+1)*d, so in row-major order "
                     "the heads axis must come before the within-head axis: (n, h, d).",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    x = x.reshape(*batch, n, features // num_heads, num_heads)  # (..., n, d, h)
    return np.moveaxis(x, -1, -3)  # (..., h, n, d)
'''},
    # -------------------------------------------------------------- merge_heads
    {"exercise": "merge_heads", "kind": "correct",
     "idea": "np.moveaxis the heads axis back behind the tokens, then flatten the last two "
             "axes",
     "code": '''
import numpy as np

def merge_heads(x):
    h, n, d = x.shape[-3:]
    tokens_first = np.moveaxis(x, -3, -2)  # (..., n, h, d)
    return tokens_first.reshape(*x.shape[:-3], n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "robustness",
     "idea": "allocates the output and copies each head's block into its columns in a Python "
             "loop",
     "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    out = np.zeros((*batch, n, h * d), dtype=x.dtype)
    for i in range(h):
        out[..., :, i * d:(i + 1) * d] = x[..., i, :, :]
    return out
'''},
    {"exercise": "merge_heads", "kind": "wrong",
     "mistake": "Reshapes (..., h, n, d) straight to (..., n, h*d) without swapping the heads "
                "and tokens axes back: right shape, tokens interleaved.",
     "teacher_says": "Undo the split in reverse order: swap back to (..., n, h, d) first, then "
                     "reshape.",
     "code": '''
def merge_heads(x):
    *batch, h, n, d = x.shape
    return x.reshape(*batch, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "wrong",
     "mistake": "Transposes the last two axes (the matrix-transpose habit) instead of the heads "
                "and tokens axes, then reshapes: the shape works out but the numbers are "
                "scrambled.",
     "teacher_says": "The axes to swap are the heads and the tokens, -3 and -2, not the tokens "
                     "and the features.",
     "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    return np.swapaxes(x, -1, -2).reshape(*batch, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "wrong",
     "mistake": "Unpacks exactly four axes, b, h, n, d = x.shape, so it fails on an unbatched "
                "(h, n, d) input and on extra batch axes.",
     "teacher_says": "Use *batch, h, n, d = x.shape (and axes counted from the end) so any "
                     "number of leading axes works.",
     "code": '''
def merge_heads(x):
    b, h, n, d = x.shape
    return x.transpose(0, 2, 1, 3).reshape(b, n, h * d)
'''},
    # ------------------------------------------------------------- attend_heads
    {"exercise": "attend_heads", "kind": "correct",
     "idea": "own batched version: split every projection with a reshape + moveaxis, einsum "
             "for the scores scaled by sqrt(d_k), softmax over the keys",
     "code": '''
import math
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads

    def heads(w):
        p = x @ w  # (..., n, h*d)
        p = p.reshape(*p.shape[:-1], h, p.shape[-1] // h)  # (..., n, h, d)
        return np.moveaxis(p, -2, -3)  # (..., h, n, d)

    q, k, v = heads(params.w_q), heads(params.w_k), heads(params.w_v)
    scores = np.einsum("...qc,...kc->...qk", q, k) / math.sqrt(q.shape[-1])
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "robustness",
     "idea": "abandons the batched form: a Python loop over the heads calling "
             "mha.scaled_dot_product_attention on the column blocks, stacked at the end",
     "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    h, d_k, d_v = params.num_heads, params.d_k, params.d_v
    outs, maps = [], []
    for i in range(h):
        q_i = x @ params.w_q[:, i * d_k:(i + 1) * d_k]
        k_i = x @ params.w_k[:, i * d_k:(i + 1) * d_k]
        v_i = x @ params.w_v[:, i * d_v:(i + 1) * d_v]
        out_i, w_i = mha.scaled_dot_product_attention(q_i, k_i, v_i)
        outs.append(out_i)
        maps.append(w_i)
    return np.stack(outs, axis=-3), np.stack(maps, axis=-3)
'''},
    {"exercise": "attend_heads", "kind": "wrong",
     "mistake": "Fixes the split of q and the softmax axis but leaves the scaling by "
                "sqrt(d_model): the weights are too flat by a factor sqrt(h) in temperature.",
     "teacher_says": "Each head's dot products have length d_k = d_model / h, so divide by "
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
     "mistake": "Fixes the scale and the softmax axis but keeps q's plain reshape to "
                "(..., h, n, d_k), which mixes tokens into the wrong heads (only k and v are "
                "split properly).",
     "teacher_says": "Split q exactly like k and v, with mha.split_heads (reshape then "
                     "transpose); a bare reshape has the right shape and the wrong content.",
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
     "mistake": "Fixes all three bugs but, rewriting the q line from the k line, projects the "
                "keys with w_q (copy-paste slip), so queries and keys are the same.",
     "teacher_says": "Each of q, k, v has its own projection: the keys use params.w_k.",
     "code": '''
import math
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)  # (..., h, n, d_k)
    k = mha.split_heads(x @ params.w_q, h)  # (..., h, n, d_k)
    v = mha.split_heads(x @ params.w_v, h)  # (..., h, n, d_v)
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(params.d_k)  # (..., h, n, n)
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
    # ------------------------------------------------------- split_heads_shape
    {"exercise": "split_heads_shape", "kind": "correct",
     "idea": "batch first, then the 12 heads, then the 10 tokens, then 768 / 12 = 64",
     "code": '''
split_heads_shape = (2, 12, 10, 768 // 12)
'''},
    {"exercise": "split_heads_shape", "kind": "robustness",
     "idea": "the right sizes, given as a list instead of a tuple",
     "code": '''
split_heads_shape = [2, 12, 10, 64]
'''},
    {"exercise": "split_heads_shape", "kind": "wrong",
     "mistake": "Forgets the transpose: gives the shape after the reshape only, heads after "
                "the tokens.",
     "teacher_says": "split_heads moves the heads axis in front of the sequence axis: "
                     "(batch, h, n, d).",
     "code": '''
split_heads_shape = (2, 10, 12, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong",
     "mistake": "Puts the heads axis in front of the batch axis, as if heads were the "
                "outermost batch.",
     "teacher_says": "Only the sequence axis and the heads axis swap; the batch axis stays "
                     "first.",
     "code": '''
split_heads_shape = (12, 2, 10, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong",
     "mistake": "Keeps the full width 768 per head instead of dividing it among the 12 heads.",
     "teacher_says": "Each head gets d_model / h = 768 / 12 = 64 features; the total stays "
                     "768.",
     "code": '''
split_heads_shape = (2, 12, 10, 768)
'''},
]

_WRITER_A = ANSWERS

"""Writer E, chapter 03 (per-head attention): blind student answers."""

ANSWERS = [
    # -------------------------------------------------------------- split_heads
    {"exercise": "split_heads", "kind": "correct",
     "idea": "reshape the last axis to (h, -1) with a shape tuple, then np.moveaxis the heads axis before the tokens",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    grouped = x.reshape(x.shape[:-1] + (num_heads, -1))  # (..., n, h, d)
    return np.moveaxis(grouped, -2, -3)                  # (..., h, n, d)
'''},
    {"exercise": "split_heads", "kind": "robustness",
     "idea": "a Python loop over the heads slicing each block of features, then np.stack on axis -3 (copies)",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    d = x.shape[-1] // num_heads
    pieces = []
    for i in range(num_heads):
        pieces.append(np.array(x[..., i * d:(i + 1) * d]))
    return np.stack(pieces, axis=-3)
'''},
    {"exercise": "split_heads", "kind": "wrong",
     "mistake": "Reshapes straight to (..., h, n, d) without the transpose: the shape is right, "
                "but each 'head' holds consecutive chunks of whole tokens.",
     "teacher_says": "A reshape never moves numbers: reshape to (..., n, h, d) first, then swap the n and h axes.",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    return x.reshape(*batch, num_heads, n, features // num_heads)
'''},
    {"exercise": "split_heads", "kind": "wrong",
     "mistake": "Cuts each token's features into (d, h) instead of (h, d) before moving the heads "
                "axis, so head i gets features i, i+h, i+2h, ... instead of the block i*d:(i+1)*d.",
     "teacher_says": "Head i owns a contiguous block, so the heads axis must be the slower one: reshape to (..., n, h, d).",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    y = x.reshape(*batch, n, features // num_heads, num_heads)  # (..., n, d, h)
    return np.moveaxis(y, -1, -3)                                 # (..., h, n, d)
'''},
    {"exercise": "split_heads", "kind": "wrong",
     "mistake": "Swaps the hard-coded axes 0 and 1, which are (n, h) only without a batch axis; "
                "with leading axes it swaps the batch with the tokens.",
     "teacher_says": "Count axes from the end (-3 and -2) so that any number of leading axes works.",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    y = x.reshape(*batch, n, num_heads, features // num_heads)
    return np.swapaxes(y, 0, 1)
'''},

    # -------------------------------------------------------------- merge_heads
    {"exercise": "merge_heads", "kind": "correct",
     "idea": "np.moveaxis the heads axis back behind the tokens, then flatten the last two axes with -1",
     "code": '''
import numpy as np

def merge_heads(x):
    tokens_first = np.moveaxis(x, -3, -2)  # (..., n, h, d)
    return tokens_first.reshape(tokens_first.shape[:-2] + (-1,))
'''},
    {"exercise": "merge_heads", "kind": "robustness",
     "idea": "Concat(head_1, ..., head_h) literally: a Python list of the heads concatenated on the last axis",
     "code": '''
import numpy as np

def merge_heads(x):
    heads = [x[..., i, :, :] for i in range(x.shape[-3])]
    return np.concatenate(heads, axis=-1)
'''},
    {"exercise": "merge_heads", "kind": "wrong",
     "mistake": "Reshapes (..., h, n, d) straight to (..., n, h*d) without transposing back, "
                "which interleaves tokens.",
     "teacher_says": "Undo the split in reverse order: swap the heads and tokens axes back first, then reshape.",
     "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    return x.reshape(*batch, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "wrong",
     "mistake": "Swaps the last two axes (the K-transpose habit, swapaxes(-1, -2)) instead of the "
                "heads and tokens axes, then reshapes to the right shape.",
     "teacher_says": "The axes to swap back are heads and tokens, -3 and -2; swapping -1 and -2 scrambles the features.",
     "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    return np.swapaxes(x, -1, -2).reshape(*batch, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "wrong",
     "mistake": "Unpacks exactly three axes and transposes (1, 0, 2): it works for a single "
                "sequence but raises as soon as there is a batch axis.",
     "teacher_says": "Write it for any number of leading axes: unpack with *batch and swap axes -3 and -2.",
     "code": '''
import numpy as np

def merge_heads(x):
    h, n, d = x.shape
    return x.transpose(1, 0, 2).reshape(n, h * d)
'''},

    # ------------------------------------------------------------- attend_heads
    {"exercise": "attend_heads", "kind": "correct",
     "idea": "projections split with reshape + moveaxis, einsum for scores and output, "
             "d_k read from w_q's columns, stable softmax over the keys",
     "code": '''
import numpy as np

def attend_heads(x, params):
    h = params.num_heads

    def per_head(y):
        y = y.reshape(y.shape[:-1] + (h, -1))
        return np.moveaxis(y, -2, -3)

    q = per_head(x @ params.w_q)
    k = per_head(x @ params.w_k)
    v = per_head(x @ params.w_v)
    d_k = q.shape[-1]
    scores = np.einsum("...id,...jd->...ij", q, k) / np.sqrt(d_k).astype(q.dtype)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    weights = e / e.sum(axis=-1, keepdims=True)
    heads = np.einsum("...ij,...jd->...id", weights, v)
    return heads, weights
'''},
    {"exercise": "attend_heads", "kind": "robustness",
     "idea": "a Python loop over the heads calling mha.scaled_dot_product_attention on the column "
             "blocks, stacked on axis -3 at the end",
     "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads
    d_k = params.w_q.shape[1] // h
    d_v = params.w_v.shape[1] // h
    heads, weights = [], []
    for i in range(h):
        q_i = x @ params.w_q[:, i * d_k:(i + 1) * d_k]
        k_i = x @ params.w_k[:, i * d_k:(i + 1) * d_k]
        v_i = x @ params.w_v[:, i * d_v:(i + 1) * d_v]
        out_i, w_i = mha.scaled_dot_product_attention(q_i, k_i, v_i)
        heads.append(out_i)
        weights.append(w_i)
    return np.stack(heads, axis=-3), np.stack(weights, axis=-3)
'''},
    {"exercise": "attend_heads", "kind": "wrong",
     "mistake": "Fixed the scale and the softmax axis but left the query line as a bare reshape "
                "to (..., h, n, d_k) without the transpose, so the queries mix tokens.",
     "teacher_says": "q must be split exactly as k and v are: mha.split_heads, not a plain reshape.",
     "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = (x @ params.w_q).reshape(*batch, h, n, -1)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / q.shape[-1] ** 0.5
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "wrong",
     "mistake": "Fixed the split and the softmax axis, and 'fixed' the scale as sqrt(d_model // h): "
                "that is d_k only when h*d_k = d_model, not for layers whose heads have another width.",
     "teacher_says": "Read d_k from the projected queries (q.shape[-1]) rather than assuming d_k = d_model / h.",
     "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    d_k = d_model // h
    scores = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "wrong",
     "mistake": "Fixed the split and the scale but kept the softmax over axis -2, so each key's "
                "column sums to 1 instead of each query's row.",
     "teacher_says": "Each query's weights over the keys must sum to 1: softmax over the last axis.",
     "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / np.sqrt(q.shape[-1])
    weights = mha.softmax(scores, axis=-2)
    return weights @ v, weights
'''},

    # -------------------------------------------------------- split_heads_shape
    {"exercise": "split_heads_shape", "kind": "correct",
     "idea": "batch, heads, tokens, features per head",
     "code": '''
split_heads_shape = (2, 12, 10, 768 // 12)
'''},
    {"exercise": "split_heads_shape", "kind": "robustness",
     "idea": "a list instead of the tuple asked for",
     "code": '''
split_heads_shape = [2, 12, 10, 64]
'''},
    {"exercise": "split_heads_shape", "kind": "wrong",
     "mistake": "Forgets that the heads axis moves before the tokens: gives the shape after the "
                "reshape only, (2, 10, 12, 64).",
     "teacher_says": "split_heads ends with the transpose: heads come before the sequence axis.",
     "code": '''
split_heads_shape = (2, 10, 12, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong",
     "mistake": "Puts the heads axis in front of the batch axis, (12, 2, 10, 64).",
     "teacher_says": "Leading batch axes stay in front; the heads axis goes just before the tokens.",
     "code": '''
split_heads_shape = (12, 2, 10, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong",
     "mistake": "Keeps the full d_model = 768 as each head's width instead of 768 / 12.",
     "teacher_says": "The heads share the 768 features: each gets 768 / 12 = 64.",
     "code": '''
split_heads_shape = (2, 12, 10, 768)
'''},
]

_WRITER_E = ANSWERS
ANSWERS = _WRITER_A + _WRITER_E
