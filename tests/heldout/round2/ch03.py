_FIXED = '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / q.shape[-1] ** 0.5
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''

ANSWERS = [
    # ---------------- split_heads ----------------
    {"exercise": "split_heads", "kind": "correct", "idea": "reshape to (..., n, h, d), then np.moveaxis the heads axis before the tokens",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, f = x.shape
    return np.moveaxis(x.reshape(*batch, n, num_heads, f // num_heads), -2, -3)
'''},
    {"exercise": "split_heads", "kind": "correct", "idea": "stack the column blocks of each head along a new axis -3",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    d = x.shape[-1] // num_heads
    return np.stack([x[..., i * d:(i + 1) * d] for i in range(num_heads)], axis=-3)
'''},
    {"exercise": "split_heads", "kind": "correct", "idea": "np.split on the last axis, then np.stack",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    return np.stack(np.split(x, num_heads, axis=-1), axis=-3)
'''},
    {"exercise": "split_heads", "kind": "wrong", "mistake": "reshapes the features as (d, h) instead of (h, d): each head gets every h-th feature",
     "teacher_says": "head i holds features i*d:(i+1)*d, a contiguous block: reshape the last axis to (h, d), not (d, h)",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, f = x.shape
    y = x.reshape(*batch, n, f // num_heads, num_heads)   # (..., n, d, h)
    return np.moveaxis(y, -1, -3)                         # (..., h, n, d)
'''},
    {"exercise": "split_heads", "kind": "wrong", "mistake": "flattens all leading axes into one: a (B1, B2, n, f) input comes back as (B1*B2, h, n, d)",
     "teacher_says": "keep every leading axis: reshape with *batch, not -1",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    n, f = x.shape[-2:]
    y = x.reshape(-1, n, num_heads, f // num_heads).swapaxes(1, 2)
    return y if x.ndim != 2 else y[0]
'''},
    {"exercise": "split_heads", "kind": "wrong", "mistake": "swaps the wrong axes after the reshape (tokens with features): shape (..., n, d, h)",
     "teacher_says": "after reshaping to (..., n, h, d) swap axes -3 and -2 (tokens and heads), not -2 and -1",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, f = x.shape
    return np.swapaxes(x.reshape(*batch, n, num_heads, f // num_heads), -2, -1)
'''},
    {"exercise": "split_heads", "kind": "wrong", "mistake": "uses .transpose with fixed axes (1, 0, 2): right for a 2-D input only, for a batch it moves the batch axis",
     "teacher_says": "with leading batch axes, transpose(1, 0, 2) is not the heads/tokens swap; use np.swapaxes(x, -3, -2)",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, f = x.shape
    y = x.reshape(*batch, n, num_heads, f // num_heads)
    if y.ndim == 3:
        return y.transpose(1, 0, 2)
    return y.transpose(1, 0, *range(2, y.ndim))
'''},
    {"exercise": "split_heads", "kind": "wrong", "mistake": "takes num_heads as the head size d (reshape to (n, -1, num_heads))",
     "teacher_says": "num_heads is h, the number of heads; each head gets f // h features",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, f = x.shape
    return np.swapaxes(x.reshape(*batch, n, -1, num_heads), -3, -2)
'''},
    {"exercise": "split_heads", "kind": "robustness", "idea": "converts to torch and returns a tensor",
     "mistake": "returns a torch tensor for NumPy input",
     "teacher_says": "return a NumPy array for NumPy input",
     "code": '''
import torch

def split_heads(x, num_heads):
    t = torch.as_tensor(x)
    *batch, n, f = t.shape
    return t.reshape(*batch, n, num_heads, f // num_heads).transpose(-3, -2)
'''},
    # ---------------- merge_heads ----------------
    {"exercise": "merge_heads", "kind": "correct", "idea": "moveaxis heads after tokens, reshape",
     "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    return np.moveaxis(x, -3, -2).reshape(*batch, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "correct", "idea": "concatenate the heads along the feature axis",
     "code": '''
import numpy as np

def merge_heads(x):
    return np.concatenate([x[..., i, :, :] for i in range(x.shape[-3])], axis=-1)
'''},
    {"exercise": "merge_heads", "kind": "wrong", "mistake": "reshapes without swapping back: tokens interleaved",
     "teacher_says": "(..., h, n, d) must become (..., n, h, d) before the reshape, or the tokens get mixed",
     "code": '''
def merge_heads(x):
    *batch, h, n, d = x.shape
    return x.reshape(*batch, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "wrong", "mistake": "swaps heads with the features axis (-3, -1) and reshapes: features of one head interleaved with the others",
     "teacher_says": "swap the heads and tokens axes (-3 and -2), then reshape",
     "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    y = np.swapaxes(x, -3, -1)   # (..., d, n, h)
    return np.swapaxes(y, -3, -2).reshape(*batch, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "wrong", "mistake": "averages the heads instead of concatenating them: width d instead of h*d",
     "teacher_says": "Concat keeps every head's features side by side: shape (..., n, h*d)",
     "code": '''
def merge_heads(x):
    return x.mean(axis=-3)
'''},
    {"exercise": "merge_heads", "kind": "wrong", "mistake": "concatenates the heads in reverse order",
     "teacher_says": "head 0 comes first in the merged features",
     "code": '''
import numpy as np

def merge_heads(x):
    return np.concatenate([x[..., i, :, :] for i in reversed(range(x.shape[-3]))], axis=-1)
'''},
    {"exercise": "merge_heads", "kind": "wrong", "mistake": "concatenates the heads along the tokens axis: shape (..., h*n, d)",
     "teacher_says": "the heads' features go side by side on the last axis; along -2 you get h*n tokens",
     "code": '''
import numpy as np

def merge_heads(x):
    return np.concatenate([x[..., i, :, :] for i in range(x.shape[-3])], axis=-2)
'''},
    {"exercise": "merge_heads", "kind": "robustness", "idea": "returns a list of per-head arrays",
     "mistake": "returns a Python list instead of one array",
     "teacher_says": "return one array of shape (..., n, h*d)",
     "code": '''
def merge_heads(x):
    return [x[..., i, :, :] for i in range(x.shape[-3])]
'''},
    # ---------------- attend_heads ----------------
    {"exercise": "attend_heads", "kind": "correct", "idea": "the three fixes: split q with split_heads, scale by sqrt(d_k), softmax over the last axis",
     "code": _FIXED},
    {"exercise": "attend_heads", "kind": "correct", "idea": "rewritten as a loop over heads with mha.scaled_dot_product_attention on column blocks, stacked",
     "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads
    d_k = params.w_q.shape[1] // h
    d_v = params.w_v.shape[1] // h
    outs, ws = [], []
    for i in range(h):
        qi = x @ params.w_q[:, i * d_k:(i + 1) * d_k]
        ki = x @ params.w_k[:, i * d_k:(i + 1) * d_k]
        vi = x @ params.w_v[:, i * d_v:(i + 1) * d_v]
        o, w = mha.scaled_dot_product_attention(qi, ki, vi)
        outs.append(o)
        ws.append(w)
    return np.stack(outs, axis=-3), np.stack(ws, axis=-3)
'''},
    {"exercise": "attend_heads", "kind": "wrong", "mistake": "fixes the scale and the softmax axis but leaves the reshape without transpose for q",
     "teacher_says": "q is still cut with a bare reshape, which mixes tokens; split it like k and v with split_heads",
     "code": _FIXED.replace("q = mha.split_heads(x @ params.w_q, h)", "q = (x @ params.w_q).reshape(*x.shape[:-2], h, x.shape[-2], -1)")},
    {"exercise": "attend_heads", "kind": "wrong", "mistake": "fixes the split and the axis but keeps the scale 1/sqrt(d_model)",
     "teacher_says": "each head's scores are scaled by 1/sqrt(d_k), the head size, not 1/sqrt(d_model)",
     "code": _FIXED.replace("q.shape[-1] ** 0.5", "x.shape[-1] ** 0.5")},
    {"exercise": "attend_heads", "kind": "wrong", "mistake": "fixes the split and the scale but keeps the softmax over axis -2 (over queries)",
     "teacher_says": "each query's weights must sum to 1 over the keys: softmax over axis -1",
     "code": _FIXED.replace("axis=-1", "axis=-2")},
    {"exercise": "attend_heads", "kind": "wrong", "mistake": "\"fixes\" the scale to 1/sqrt(h) (confusing the number of heads with the head size)",
     "teacher_says": "the scale is 1/sqrt(d_k) with d_k = d_model / h, not 1/sqrt(h)",
     "code": _FIXED.replace("q.shape[-1] ** 0.5", "h ** 0.5")},
    {"exercise": "attend_heads", "kind": "wrong", "mistake": "while fixing the q line, copy-pastes it and projects the values with w_k",
     "teacher_says": "the values come from x @ params.w_v; with w_k the heads average the keys instead",
     "code": _FIXED.replace("v = mha.split_heads(x @ params.w_v, h)", "v = mha.split_heads(x @ params.w_k, h)")},
    {"exercise": "attend_heads", "kind": "robustness", "idea": "returns only the heads, not the pair (heads, weights)",
     "mistake": "returns heads alone",
     "teacher_says": "return the pair (heads, weights)",
     "code": _FIXED.replace("return weights @ v, weights", "return weights @ v")},
    # ---------------- split_heads_shape ----------------
    {"exercise": "split_heads_shape", "kind": "correct", "idea": "tuple literal",
     "code": '''
split_heads_shape = (2, 12, 10, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "correct", "idea": "computed with integer division",
     "code": '''
_B, _n, _d_model, _h = 2, 10, 768, 12
split_heads_shape = (_B, _h, _n, _d_model // _h)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "heads after the tokens: (2, 10, 12, 64)",
     "teacher_says": "split_heads puts the heads axis before the sequence axis: (2, 12, 10, 64)",
     "code": '''
split_heads_shape = (2, 10, 12, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "heads in front of the batch: (12, 2, 10, 64)",
     "teacher_says": "the leading batch axis stays first; the heads go just before the tokens",
     "code": '''
split_heads_shape = (12, 2, 10, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "keeps the full width per head: (2, 12, 10, 768)",
     "teacher_says": "each head gets 768 / 12 = 64 features",
     "code": '''
split_heads_shape = (2, 12, 10, 768)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "merges batch and heads: (24, 10, 64)",
     "teacher_says": "split_heads keeps the batch axis and adds a heads axis: 4 axes",
     "code": '''
split_heads_shape = (24, 10, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "robustness", "idea": "a tuple with a float: 768 / 12",
     "mistake": "uses / so the last entry is 64.0",
     "teacher_says": "shapes are ints: 768 // 12",
     "code": '''
split_heads_shape = (2, 12, 10, 768 / 12)
'''},
    {"exercise": "split_heads_shape", "kind": "robustness", "idea": "a list instead of a tuple",
     "mistake": "assigns [2, 12, 10, 64]",
     "teacher_says": "assign a tuple, like array.shape",
     "code": '''
split_heads_shape = [2, 12, 10, 64]
'''},
]

ANSWERS += [
    {"exercise": "predict_unsplit_rows", "kind": "correct", "idea": "row-major reading: 24 labels of token 0, then token 1's, cut in rows of 6",
     "code": "predict_unsplit_rows = [0, 0, 0, 0, 1, 1]\n"},
    {"exercise": "predict_unsplit_rows", "kind": "correct", "idea": "computed from the flat index: row r of head 0 starts at element 6 r, which belongs to token 6 r // 24",
     "code": "predict_unsplit_rows = [(6 * r) // 24 for r in range(6)]\n"},
    {"exercise": "predict_unsplit_rows", "kind": "wrong", "mistake": "answers what the transpose gives",
     "teacher_says": "a reshape without the transpose reads the numbers in memory order: head 0's rows come from tokens 0 and 1 only",
     "code": "predict_unsplit_rows = [0, 1, 2, 3, 4, 5]\n"},
    {"exercise": "predict_unsplit_rows", "kind": "wrong", "mistake": "thinks head 0 holds token 0 only",
     "teacher_says": "head 0 gets 36 numbers and token 0 has only 24: the last two rows come from token 1",
     "code": "predict_unsplit_rows = [0, 0, 0, 0, 0, 0]\n"},
    {"exercise": "predict_unsplit_rows", "kind": "wrong", "mistake": "cuts token 0's labels into rows of d_k = 6 but counts 3 rows per token (confuses 24 with 18)",
     "teacher_says": "each token has h * d_k = 24 labels, i.e. 4 rows of 6",
     "code": "predict_unsplit_rows = [0, 0, 0, 1, 1, 1]\n"},
    {"exercise": "predict_unsplit_rows", "kind": "wrong", "mistake": "thinks the reshape takes every h-th token",
     "teacher_says": "a reshape never skips: it reads the numbers in order",
     "code": "predict_unsplit_rows = [0, 4, 8, 12, 16, 20]\n"},
]
