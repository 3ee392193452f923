# writer A's answers, then writer E's (each file verbatim)
"""Writer A, chapter 03 (per-head attention): 1 correct + 3 wrong answers per exercise."""

ANSWERS = [
    # ------------------------------------------------------------------ split_heads
    {"exercise": "split_heads", "kind": "correct",
     "idea": "reshape the feature axis into (h, -1) with a shape tuple, then np.moveaxis the heads axis in front of the tokens",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    grouped = x.reshape(x.shape[:-1] + (num_heads, -1))   # (..., n, h, d)
    return np.moveaxis(grouped, -2, -3)                    # (..., h, n, d)
'''},
    {"exercise": "split_heads", "kind": "wrong",
     "mistake": "Reshapes straight to (..., h, n, d) without the transpose: the shape is right, but each 'head' gets consecutive chunks of the row-major data, i.e. features of the first tokens cut into rows, not features i*d:(i+1)*d of every token.",
     "teacher_says": "Reshape to (..., n, h, d) first, then swap the n and h axes; a bare reshape never moves numbers.",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    return x.reshape(*batch, num_heads, n, features // num_heads)
'''},
    {"exercise": "split_heads", "kind": "wrong",
     "mistake": "Written for exactly one batch axis, (B, n, h*d): it unpacks three sizes and transposes (0, 2, 1, 3), so it raises for a single sequence (n, h*d) or for two leading axes.",
     "teacher_says": "The statement asks for any number of leading axes: use *batch unpacking and negative axes (swapaxes(-3, -2)).",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    batch, n, features = x.shape
    x = x.reshape(batch, n, num_heads, features // num_heads)
    return x.transpose(0, 2, 1, 3)
'''},
    {"exercise": "split_heads", "kind": "wrong",
     "mistake": "Reshapes the features into (d, h) instead of (h, d) and then moves the last axis forward: the shape is (..., h, n, d), but head i gets the strided features i, i+h, i+2h, ... instead of the block i*d:(i+1)*d.",
     "teacher_says": "Head i owns a contiguous block of d features, so the split of the last axis must be (h, d), heads first.",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    x = x.reshape(*batch, n, features // num_heads, num_heads)   # (..., n, d, h)
    return np.moveaxis(x, -1, -3)                                # (..., h, n, d)
'''},

    # ------------------------------------------------------------------ merge_heads
    {"exercise": "merge_heads", "kind": "correct",
     "idea": "move the heads axis to the front and concatenate the h (..., n, d) arrays along the features",
     "code": '''
import numpy as np

def merge_heads(x):
    per_head = np.moveaxis(x, -3, 0)            # (h, ..., n, d)
    return np.concatenate(list(per_head), axis=-1)   # (..., n, h*d)
'''},
    {"exercise": "merge_heads", "kind": "wrong",
     "mistake": "Reshapes (..., h, n, d) directly to (..., n, h*d) without swapping the heads and tokens back: the shape is right, but the tokens get interleaved.",
     "teacher_says": "Undo the split in reverse order: swap axes -3 and -2 back to (..., n, h, d), then reshape.",
     "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    return x.reshape(*batch, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "wrong",
     "mistake": "Iterates over the FIRST axis with list(x) to get the heads; without a batch it works, but with a batch axis it concatenates the sequences of the batch instead of the heads.",
     "teacher_says": "With leading batch axes the heads are at axis -3, not 0: move that axis (or swap -3 and -2) before merging.",
     "code": '''
import numpy as np

def merge_heads(x):
    return np.concatenate(list(x), axis=-1)
'''},
    {"exercise": "merge_heads", "kind": "wrong",
     "mistake": "Moves the heads axis to the very end, (..., n, d, h), before reshaping: the shape is (..., n, h*d) but the features are interleaved across heads (feature c*h + i comes from head i) instead of head blocks side by side.",
     "teacher_says": "Concat puts head i's d features in the block i*d:(i+1)*d, so the heads axis must sit just before the d axis: (..., n, h, d).",
     "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    return np.moveaxis(x, -3, -1).reshape(*batch, n, h * d)
'''},

    # ------------------------------------------------------------------ attend_heads
    {"exercise": "attend_heads", "kind": "correct",
     "idea": "all three bugs fixed: q split like k and v, scale by sqrt(d_k) of one head, softmax over the keys (last axis); the scores via einsum",
     "code": '''
import math
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)   # (..., h, n, d_k)
    k = mha.split_heads(x @ params.w_k, h)   # (..., h, n, d_k)
    v = mha.split_heads(x @ params.w_v, h)   # (..., h, n, d_v)
    scores = np.einsum("...qc,...kc->...qk", q, k) / math.sqrt(q.shape[-1])
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "wrong",
     "mistake": "Fixes the scaling and the softmax axis but leaves the query line as a bare reshape to (..., h, n, d_k): queries and keys are then cut differently, so each head's queries come from the wrong tokens and features.",
     "teacher_says": "q must be split exactly like k and v: mha.split_heads (reshape then transpose), not a bare reshape.",
     "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = (x @ params.w_q).reshape(*batch, h, n, -1)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / params.d_k**0.5
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "wrong",
     "mistake": "Fixes the split of q and the scaling but keeps the softmax over axis=-2, so each key's column sums to 1 over the queries instead of each query's row over the keys.",
     "teacher_says": "Each query's weights must sum to 1 over the keys: the softmax runs along the last axis of the scores.",
     "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / q.shape[-1] ** 0.5
    weights = mha.softmax(scores, axis=-2)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "wrong",
     "mistake": "Fixes the split of q and the softmax axis but keeps dividing the scores by sqrt(d_model), the full width, instead of sqrt(d_k), one head's width: the weights come out too flat.",
     "teacher_says": "Each head's dot products have length d_k = d_model / h, so that is what goes under the square root.",
     "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / d_model**0.5
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},

    # ------------------------------------------------------------------ split_heads_shape
    {"exercise": "split_heads_shape", "kind": "correct",
     "idea": "(batch, heads, tokens, d_model // heads)",
     "code": '''
batch, n, d_model, h = 2, 10, 768, 12
split_heads_shape = (batch, h, n, d_model // h)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong",
     "mistake": "Gives the shape after the reshape but before the transpose, (2, 10, 12, 64): the heads axis is still after the tokens.",
     "teacher_says": "split_heads moves the heads axis in front of the sequence axis: (B, h, n, d).",
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
     "mistake": "Adds the heads axis but forgets that each head only gets 768/12 features, keeping the full 768.",
     "teacher_says": "Splitting cuts the features: each of the 12 heads gets 768 / 12 = 64.",
     "code": '''
split_heads_shape = (2, 12, 10, 768)
'''},
]

_WRITER_A = ANSWERS

"""Student answers for chapter 3 (per-head attention), writer E."""

ANSWERS = [
    # ------------------------------------------------------------------ split_heads
    {"exercise": "split_heads", "kind": "correct",
     "idea": "reshape the feature axis into (h, -1), then np.moveaxis the heads axis in "
             "front of the tokens",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    grouped = x.reshape(x.shape[:-1] + (num_heads, -1))
    return np.moveaxis(grouped, -2, -3)
'''},
    {"exercise": "split_heads", "kind": "robustness",
     "idea": "slices every head's block in a Python loop and np.stack's them on a new axis "
             "(copies instead of a view)",
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
     "mistake": "Reshaped straight to (..., h, n, d) without the transpose: right shape, but "
                "each 'head' gets consecutive chunks of the row-major array, mixing tokens.",
     "teacher_says": "Reshape to (..., n, h, d) first, then swap the n and h axes: the "
                     "transpose is what keeps each token's features together.",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    return x.reshape(*batch, num_heads, n, features // num_heads)
'''},
    {"exercise": "split_heads", "kind": "wrong",
     "mistake": "Cut the features into (d, h) instead of (h, d), so head i receives features "
                "i, i+h, i+2h, ... instead of the contiguous block i*d:(i+1)*d.",
     "teacher_says": "Head i owns a contiguous block, so the head index is the slower one: "
                     "reshape the last axis into (h, d).",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    y = x.reshape(*batch, n, features // num_heads, num_heads)  # (..., n, d, h)
    return np.moveaxis(y, -1, -3)
'''},
    {"exercise": "split_heads", "kind": "wrong",
     "mistake": "Swapped axes 1 and 2 counted from the front, which is right only for a "
                "single batch axis; without a batch axis it swaps h and d instead.",
     "teacher_says": "Count the axes from the end (swapaxes(-3, -2)) so the function works "
                     "for any number of leading axes.",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    y = x.reshape(*batch, n, num_heads, features // num_heads)
    return np.swapaxes(y, 1, 2)
'''},

    # ------------------------------------------------------------------ merge_heads
    {"exercise": "merge_heads", "kind": "correct",
     "idea": "np.moveaxis the heads axis back behind the tokens, then flatten the last two",
     "code": '''
import numpy as np

def merge_heads(x):
    tokens_first = np.moveaxis(x, -3, -2)  # (..., n, h, d)
    return tokens_first.reshape(tokens_first.shape[:-2] + (-1,))
'''},
    {"exercise": "merge_heads", "kind": "robustness",
     "idea": "loops over every leading index, token and head in Python and copies each "
             "head's row into a preallocated output",
     "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    out = np.empty((*batch, n, h * d), dtype=x.dtype)
    for idx in np.ndindex(*batch):
        for t in range(n):
            for i in range(h):
                out[idx + (t, slice(i * d, (i + 1) * d))] = x[idx + (i, t)]
    return out
'''},
    {"exercise": "merge_heads", "kind": "wrong",
     "mistake": "Reshaped (..., h, n, d) straight to (..., n, h*d) without swapping the heads "
                "and tokens axes back, which interleaves tokens.",
     "teacher_says": "Undo the split in reverse order: swap the axes back to (..., n, h, d) "
                     "first, then reshape.",
     "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    return x.reshape(*batch, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "wrong",
     "mistake": "Moved the heads axis to the very end, (..., n, d, h), before flattening, so "
                "the heads' features come out interleaved instead of side by side.",
     "teacher_says": "Concat puts head 0's d features, then head 1's, ...: the heads axis "
                     "must sit before the feature axis when you flatten.",
     "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    return np.moveaxis(x, -3, -1).reshape(*batch, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "wrong",
     "mistake": "Wrote the transpose with a fixed permutation (1, 0, 2) for the unbatched case, "
                "which moves the batch axis instead of the heads axis when there is a batch.",
     "teacher_says": "Use negative axes (swapaxes(-3, -2)) so the leading batch axes are left "
                     "alone.",
     "code": '''
import numpy as np

def merge_heads(x):
    n, d = x.shape[-2], x.shape[-1]
    perm = (1, 0, 2) if x.ndim == 3 else (1, 0) + tuple(range(2, x.ndim))
    y = np.transpose(x, perm)
    return y.reshape(*x.shape[:-3], n, -1)
'''},

    # ------------------------------------------------------------------ attend_heads
    {"exercise": "attend_heads", "kind": "correct",
     "idea": "rewrote it from scratch: project once, split with reshape+moveaxis, and hand "
             "the per-head arrays to mha.scaled_dot_product_attention",
     "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads

    def per_head(w):
        y = x @ w  # (..., n, h*d)
        y = y.reshape(*y.shape[:-1], h, -1)  # (..., n, h, d)
        return np.moveaxis(y, -2, -3)  # (..., h, n, d)

    q, k, v = per_head(params.w_q), per_head(params.w_k), per_head(params.w_v)
    return mha.scaled_dot_product_attention(q, k, v)
'''},
    {"exercise": "attend_heads", "kind": "robustness",
     "idea": "gave up on batching: loops over the heads on column blocks, as in the "
             "chapter's first cell, and stacks the results",
     "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    d_k, d_v = params.d_k, params.d_v
    heads, weights = [], []
    for i in range(params.num_heads):
        q_i = x @ params.w_q[:, i * d_k:(i + 1) * d_k]
        k_i = x @ params.w_k[:, i * d_k:(i + 1) * d_k]
        v_i = x @ params.w_v[:, i * d_v:(i + 1) * d_v]
        o, a = mha.scaled_dot_product_attention(q_i, k_i, v_i)
        heads.append(o)
        weights.append(a)
    return np.stack(heads, axis=-3), np.stack(weights, axis=-3)
'''},
    {"exercise": "attend_heads", "kind": "wrong",
     "mistake": "Fixed the scale and the softmax axis but did not notice that q is split with "
                "a bare reshape while k and v use split_heads.",
     "teacher_says": "q must be split exactly like k and v: reshape alone mixes tokens "
                     "between heads, use mha.split_heads for q too.",
     "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = (x @ params.w_q).reshape(*batch, h, n, -1)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / params.d_k**0.5
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "wrong",
     "mistake": "Fixed the split of q and the scale but left the softmax over axis -2, so the "
                "weights sum to 1 over the queries instead of over the keys.",
     "teacher_says": "Each query's weights over the keys must sum to 1: the softmax runs along "
                     "the last axis.",
     "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / params.d_k**0.5
    weights = mha.softmax(scores, axis=-2)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "wrong",
     "mistake": "Replaced d_model by d_model // h for the scale, which equals d_k only when "
                "d_k = d_model / h; for a layer with another head size the weights are off.",
     "teacher_says": "Take the head size from the queries themselves (q.shape[-1] or "
                     "params.d_k) rather than deriving it from d_model.",
     "code": '''
import math
import mha

def attend_heads(x, params):
    h = params.num_heads
    d_model = x.shape[-1]
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(d_model // h)
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "wrong",
     "mistake": "Fixed the split of q and the softmax axis but kept dividing the scores by "
                "sqrt(d_model), which makes every head's weights too flat.",
     "teacher_says": "Each head's dot products are over d_k features, so divide by sqrt(d_k), "
                     "not sqrt(d_model).",
     "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / d_model**0.5
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},

    # ------------------------------------------------------------------ split_heads_shape
    {"exercise": "split_heads_shape", "kind": "correct",
     "idea": "(B, h, n, d_model / h) worked out by hand",
     "code": '''
split_heads_shape = (2, 12, 10, 768 // 12)
'''},
    {"exercise": "split_heads_shape", "kind": "robustness",
     "idea": "the right numbers as a list instead of a tuple",
     "code": '''
split_heads_shape = [2, 12, 10, 64]
'''},
    {"exercise": "split_heads_shape", "kind": "wrong",
     "mistake": "Gave the shape after the reshape only, (B, n, h, d), forgetting that the heads "
                "axis is moved before the tokens.",
     "teacher_says": "split_heads ends with the transpose: the heads axis comes before the "
                     "sequence axis.",
     "code": '''
split_heads_shape = (2, 10, 12, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong",
     "mistake": "Put the heads axis in front of the batch axis.",
     "teacher_says": "Leading (batch) axes stay first; the heads axis goes just before the "
                     "sequence axis: (B, h, n, d).",
     "code": '''
split_heads_shape = (12, 2, 10, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong",
     "mistake": "Kept the full 768 features per head instead of dividing them among the 12 "
                "heads.",
     "teacher_says": "The heads share the 768 features: each gets 768 / 12 = 64.",
     "code": '''
split_heads_shape = (2, 12, 10, 768)
'''},
]

_WRITER_E = ANSWERS
ANSWERS = _WRITER_A + _WRITER_E
