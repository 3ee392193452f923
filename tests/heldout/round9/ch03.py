# writer A's answers, then writer E's (each file verbatim)
"""Student answers for chapter 3 (per-head attention), writer A."""

ANSWERS = [
    # -------------------------------------------------------------- split_heads
    {
        "exercise": "split_heads",
        "kind": "correct",
        "idea": "reshape the feature axis into (h, -1), then np.moveaxis the heads axis "
        "in front of the tokens",
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
        "idea": "a Python loop slicing each head's columns, stacked on a new axis (a copy "
        "instead of a view)",
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
        "mistake": "Reshapes straight to (..., h, n, d) without the transpose: the right "
        "shape, but each head gets consecutive chunks of the row-major array, mixing tokens.",
        "teacher_says": "Reshape to (..., n, h, d) first and then swap the n and h axes; a "
        "reshape alone never moves a number.",
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
        "mistake": "Uses transpose(1, 0, 2) for the swap, which is only right for a single "
        "sequence: with a batch axis the 4-D array cannot take a 3-axis permutation.",
        "teacher_says": "Count axes from the end (np.swapaxes(x, -3, -2)) so the function "
        "works for any number of leading axes.",
        "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    x = x.reshape(*batch, n, num_heads, features // num_heads)
    return x.transpose(1, 0, 2)
''',
    },
    {
        "exercise": "split_heads",
        "kind": "wrong",
        "mistake": "Splits the features as (d, h) instead of (h, d) and moves the last axis "
        "forward, so head i gets features i, i+h, i+2h, ... instead of the block i*d:(i+1)*d.",
        "teacher_says": "Head i owns a contiguous block of features, so the feature axis "
        "splits as (h, d), heads outermost.",
        "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    x = x.reshape(*batch, n, features // num_heads, num_heads)  # (..., n, d, h)
    return np.moveaxis(x, -1, -3)  # (..., h, n, d)
''',
    },
    # -------------------------------------------------------------- merge_heads
    {
        "exercise": "merge_heads",
        "kind": "correct",
        "idea": "iterate over the heads axis and concatenate the heads along the features",
        "code": '''
import numpy as np

def merge_heads(x):
    heads = np.moveaxis(x, -3, 0)  # (h, ..., n, d)
    return np.concatenate(list(heads), axis=-1)  # (..., n, h*d)
''',
    },
    {
        "exercise": "merge_heads",
        "kind": "robustness",
        "idea": "preallocates the output and copies every (head, token) row in nested loops",
        "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    out = np.empty((*batch, n, h * d), dtype=x.dtype)
    for i in range(h):
        for t in range(n):
            out[..., t, i * d:(i + 1) * d] = x[..., i, t, :]
    return out
''',
    },
    {
        "exercise": "merge_heads",
        "kind": "wrong",
        "mistake": "Reshapes (..., h, n, d) straight to (..., n, h*d) without swapping the "
        "heads and tokens back, interleaving tokens.",
        "teacher_says": "Undo the split in reverse: swap axes -3 and -2 first, then reshape.",
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
        "mistake": "Hard-codes transpose(1, 0, 2) and reshape(n, -1) from the unbatched "
        "example, so any leading batch axis breaks it.",
        "teacher_says": "Use negative axes (swapaxes(-3, -2)) and keep *batch in the reshape "
        "so leading axes pass through.",
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
        "mistake": "Moves the heads axis to the very end, (..., n, d, h), before flattening, "
        "which interleaves the heads' features instead of placing them side by side.",
        "teacher_says": "The heads must sit just before d, (..., n, h, d), so that head i "
        "fills features i*d:(i+1)*d.",
        "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    return np.moveaxis(x, -3, -1).reshape(*batch, n, h * d)
''',
    },
    # ------------------------------------------------------------- attend_heads
    {
        "exercise": "attend_heads",
        "kind": "correct",
        "idea": "einsum projects straight into (..., h, n, d) blocks of the fused matrices; "
        "scale by the per-head d_k and softmax over the keys",
        "code": '''
import math
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads
    def heads(w):
        return np.einsum("...nf,fhd->...hnd", x, w.reshape(w.shape[0], h, -1))
    q, k, v = heads(params.w_q), heads(params.w_k), heads(params.w_v)
    d_k = q.shape[-1]
    scores = np.einsum("...qd,...kd->...qk", q, k) / math.sqrt(d_k)
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
''',
    },
    {
        "exercise": "attend_heads",
        "kind": "robustness",
        "idea": "the literal per-head loop over column blocks (and over batch entries) with "
        "mha.scaled_dot_product_attention, stacked at the end",
        "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    h, d_k, d_v = params.num_heads, params.d_k, params.d_v
    *batch, n, _ = x.shape
    flat = x.reshape(-1, n, x.shape[-1])
    all_heads, all_weights = [], []
    for b in range(flat.shape[0]):
        heads_b, weights_b = [], []
        for i in range(h):
            q_i = flat[b] @ params.w_q[:, i * d_k:(i + 1) * d_k]
            k_i = flat[b] @ params.w_k[:, i * d_k:(i + 1) * d_k]
            v_i = flat[b] @ params.w_v[:, i * d_v:(i + 1) * d_v]
            head_i, weights_i = mha.scaled_dot_product_attention(q_i, k_i, v_i)
            heads_b.append(head_i)
            weights_b.append(weights_i)
        all_heads.append(np.stack(heads_b))
        all_weights.append(np.stack(weights_b))
    heads = np.stack(all_heads).reshape(*batch, h, n, d_v)
    weights = np.stack(all_weights).reshape(*batch, h, n, n)
    return heads, weights
''',
    },
    {
        "exercise": "attend_heads",
        "kind": "wrong",
        "mistake": "Fixes the scale and the softmax axis but not the split of q: it keeps "
        "the bare reshape to (..., h, n, d_k), which mixes tokens across heads.",
        "teacher_says": "q must be split exactly like k and v, with mha.split_heads (reshape "
        "then transpose).",
        "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = (x @ params.w_q).reshape(*batch, h, n, -1)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / np.sqrt(params.d_k)
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
''',
    },
    {
        "exercise": "attend_heads",
        "kind": "wrong",
        "mistake": "Fixes the split of q and the softmax axis, and replaces the "
        "d_model**0.5 by d_k but drops the square root: the scores are divided by d_k "
        "instead of sqrt(d_k), so every head's weights come out too flat.",
        "teacher_says": "The scale is 1/sqrt(d_k), as in chapter 1: dividing by d_k itself "
        "shrinks the scores' spread far below 1.",
        "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)  # (..., h, n, d_k)
    k = mha.split_heads(x @ params.w_k, h)  # (..., h, n, d_k)
    v = mha.split_heads(x @ params.w_v, h)  # (..., h, n, d_v)
    scores = q @ k.swapaxes(-1, -2) / params.d_k  # (..., h, n, n)
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
''',
    },
    {
        "exercise": "attend_heads",
        "kind": "wrong",
        "mistake": "Copy-paste slip while rewriting the three projection lines: v is "
        "projected with params.w_k instead of params.w_v.",
        "teacher_says": "Each of q, k, v has its own projection matrix; check the copied "
        "line for v.",
        "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_k, h)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
''',
    },
    # ------------------------------------------------------- split_heads_shape
    {
        "exercise": "split_heads_shape",
        "kind": "correct",
        "idea": "batch first, then heads, tokens, and 768 // 12 features",
        "code": '''
split_heads_shape = (2, 12, 10, 768 // 12)
''',
    },
    {
        "exercise": "split_heads_shape",
        "kind": "robustness",
        "idea": "a list instead of the tuple asked for",
        "code": '''
split_heads_shape = [2, 12, 10, 64]
''',
    },
    {
        "exercise": "split_heads_shape",
        "kind": "wrong",
        "mistake": "Leaves the tokens before the heads, the shape after the reshape but "
        "before the transpose.",
        "teacher_says": "split_heads moves the heads axis in front of the sequence axis: "
        "(B, h, n, d).",
        "code": '''
split_heads_shape = (2, 10, 12, 64)
''',
    },
    {
        "exercise": "split_heads_shape",
        "kind": "wrong",
        "mistake": "Puts the heads axis in front of the batch axis.",
        "teacher_says": "Leading (batch) axes stay in front; the heads go just before the "
        "tokens.",
        "code": '''
split_heads_shape = (12, 2, 10, 64)
''',
    },
    {
        "exercise": "split_heads_shape",
        "kind": "wrong",
        "mistake": "Keeps the full width 768 per head, forgetting that the features are "
        "divided among the heads.",
        "teacher_says": "Each head gets d_model / h = 768 / 12 = 64 features.",
        "code": '''
split_heads_shape = (2, 12, 10, 768)
''',
    },
]

_WRITER_A = ANSWERS

"""Writer E, chapter 03 (per-head attention): blind student answers."""

ANSWERS = [
    # -------------------------------------------------------------- split_heads
    {"exercise": "split_heads", "kind": "correct",
     "idea": "reshape the feature axis to (h, -1), then np.moveaxis the heads axis in front of the tokens",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    grouped = x.reshape(x.shape[:-1] + (num_heads, -1))  # (..., n, h, d)
    return np.moveaxis(grouped, -2, -3)  # (..., h, n, d)
'''},
    {"exercise": "split_heads", "kind": "robustness",
     "idea": "slices each head's features in a Python loop and np.stack's the copies on a new axis -3",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    d = x.shape[-1] // num_heads
    pieces = []
    for i in range(num_heads):
        pieces.append(x[..., i * d:(i + 1) * d].copy())
    return np.stack(pieces, axis=-3)
'''},
    {"exercise": "split_heads", "kind": "wrong",
     "mistake": "Reshapes straight to (..., h, n, d) without the transpose: right shape, but each 'head' receives consecutive chunks of the row-major data, mixing tokens.",
     "teacher_says": "Reshape only the feature axis into (h, d), giving (..., n, h, d), and then swap the n and h axes.",
     "code": '''
def split_heads(x, num_heads):
    *batch, n, features = x.shape
    return x.reshape(*batch, num_heads, n, features // num_heads)
'''},
    {"exercise": "split_heads", "kind": "wrong",
     "mistake": "Wrote it for a single sequence, x.reshape(n, h, d).transpose(1, 0, 2), taking n from shape[0]: with a batch axis the reshape fails.",
     "teacher_says": "The statement asks for any number of leading axes: take n and the features from the end of the shape (*batch, n, f = x.shape) and swap axes -3 and -2.",
     "code": '''
def split_heads(x, num_heads):
    n = x.shape[0]
    d = x.shape[-1] // num_heads
    return x.reshape(n, num_heads, d).transpose(1, 0, 2)
'''},
    {"exercise": "split_heads", "kind": "wrong",
     "mistake": "Splits the feature axis as (d, h) instead of (h, d) and then moves the last axis forward: the shape is right but head i gets features i, i+h, i+2h, ... instead of the block i*d:(i+1)*d.",
     "teacher_says": "Head i owns a contiguous block of features, so the heads are the outer part of the split: reshape to (..., n, h, d).",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    y = x.reshape(*batch, n, features // num_heads, num_heads)  # (..., n, d, h)
    return np.moveaxis(y, -1, -3)  # (..., h, n, d)
'''},

    # -------------------------------------------------------------- merge_heads
    {"exercise": "merge_heads", "kind": "correct",
     "idea": "np.moveaxis the heads axis back behind the tokens, then flatten the last two axes",
     "code": '''
import numpy as np

def merge_heads(x):
    y = np.moveaxis(x, -3, -2)  # (..., n, h, d)
    return y.reshape(y.shape[:-2] + (-1,))
'''},
    {"exercise": "merge_heads", "kind": "robustness",
     "idea": "Concat written literally: a Python list of every head's (..., n, d) slice, copied, then np.concatenate along the features",
     "code": '''
import numpy as np

def merge_heads(x):
    heads = [np.array(x[..., i, :, :], copy=True) for i in range(x.shape[-3])]
    return np.concatenate(heads, axis=-1)
'''},
    {"exercise": "merge_heads", "kind": "wrong",
     "mistake": "Reshapes (..., h, n, d) straight to (..., n, h*d) without transposing back: it interleaves the tokens, so merge_heads(split_heads(x)) is not x.",
     "teacher_says": "Undo the split in reverse order: swap the h and n axes back first, then reshape.",
     "code": '''
def merge_heads(x):
    *batch, h, n, d = x.shape
    return x.reshape(*batch, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "wrong",
     "mistake": "Unpacks h, n, d = x.shape, which only works for a single (h, n, d) array; with a batch axis it raises.",
     "teacher_says": "Unpack from the end, *batch, h, n, d = x.shape, and use axes counted from the end (-3, -2) so any number of leading axes works.",
     "code": '''
def merge_heads(x):
    h, n, d = x.shape
    return x.transpose(1, 0, 2).reshape(n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "wrong",
     "mistake": "Moves the heads axis to the very end, (..., n, d, h), instead of just behind the tokens: after the reshape the features come out interleaved (d-major) instead of head after head.",
     "teacher_says": "Concat puts head 0's d features, then head 1's, ...: the axis order before the reshape must be (..., n, h, d).",
     "code": '''
import numpy as np

def merge_heads(x):
    y = np.moveaxis(x, -3, -1)  # (..., n, d, h)
    return y.reshape(*y.shape[:-2], -1)
'''},

    # ------------------------------------------------------------- attend_heads
    {"exercise": "attend_heads", "kind": "correct",
     "idea": "rewritten with einsum on (..., n, h, d) views: no explicit split, scale by the per-head d_k, softmax over the keys",
     "code": '''
import math
import numpy as np

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, _ = x.shape
    q = (x @ params.w_q).reshape(*batch, n, h, -1)  # (..., n, h, d_k)
    k = (x @ params.w_k).reshape(*batch, n, h, -1)  # (..., n, h, d_k)
    v = (x @ params.w_v).reshape(*batch, n, h, -1)  # (..., n, h, d_v)
    d_k = q.shape[-1]
    scores = np.einsum("...ihc,...jhc->...hij", q, k) / math.sqrt(d_k)  # (..., h, n, n)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    weights = e / e.sum(axis=-1, keepdims=True)
    heads = np.einsum("...hij,...jhc->...hic", weights, v)  # (..., h, n, d_v)
    return heads, weights
'''},
    {"exercise": "attend_heads", "kind": "robustness",
     "idea": "no batching at all: a Python loop over heads calling mha.scaled_dot_product_attention on the column blocks, results stacked on axis -3",
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
        head_i, weights_i = mha.scaled_dot_product_attention(q_i, k_i, v_i)
        heads.append(head_i)
        weights.append(weights_i)
    return np.stack(heads, axis=-3), np.stack(weights, axis=-3)
'''},
    {"exercise": "attend_heads", "kind": "wrong",
     "mistake": "Fixed the scaling and the softmax axis but did not see the bug in the query line: q is still a plain reshape to (..., h, n, d_k) while k and v use split_heads, so the queries mix tokens.",
     "teacher_says": "q, k and v must be split the same way: use mha.split_heads for the queries too.",
     "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = (x @ params.w_q).reshape(*batch, h, n, -1)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    d_k = q.shape[-1]
    scores = q @ k.swapaxes(-1, -2) / d_k**0.5
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "wrong",
     "mistake": "Replaced the scaling by sqrt(d_model / h), assuming d_k = d_model/h; right for the usual layer, wrong whenever the heads' width d_k is chosen independently of d_model.",
     "teacher_says": "Scale by the real per-head width, params.d_k (the columns of w_q divided by h), not by a formula that assumes d_k = d_model/h.",
     "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / (d_model / h) ** 0.5
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "wrong",
     "mistake": "Fixed the query split and the scaling but left the softmax over axis -2, so each key's column sums to 1 instead of each query's row.",
     "teacher_says": "Each query's weights over the keys must sum to 1: the softmax runs over the last axis, the keys.",
     "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / params.d_k ** 0.5
    weights = mha.softmax(scores, axis=-2)
    return weights @ v, weights
'''},

    # -------------------------------------------------------- split_heads_shape
    {"exercise": "split_heads_shape", "kind": "correct",
     "idea": "(batch, heads, tokens, d_model // heads)",
     "code": '''
split_heads_shape = (2, 12, 10, 768 // 12)
'''},
    {"exercise": "split_heads_shape", "kind": "robustness",
     "idea": "the right numbers as a list instead of the tuple asked for",
     "code": '''
split_heads_shape = [2, 12, 10, 64]
'''},
    {"exercise": "split_heads_shape", "kind": "wrong",
     "mistake": "Forgot that the heads axis moves in front of the tokens: gave the shape after the reshape only, (B, n, h, d).",
     "teacher_says": "split_heads transposes too: the heads axis comes before the sequence axis, (2, 12, 10, 64).",
     "code": '''
split_heads_shape = (2, 10, 12, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong",
     "mistake": "Put the heads axis in front of everything, before the batch axis.",
     "teacher_says": "The leading (batch) axes stay where they are; only the sequence and heads axes trade places.",
     "code": '''
split_heads_shape = (12, 2, 10, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong",
     "mistake": "Answered PyTorch's internal layout, batch and heads merged into one axis of B*h = 24, instead of the book's split_heads shape.",
     "teacher_says": "The book's split_heads keeps batch and heads as separate axes: (..., h, n, d).",
     "code": '''
split_heads_shape = (24, 10, 64)
'''},
]

_WRITER_E = ANSWERS
ANSWERS = _WRITER_A + _WRITER_E
