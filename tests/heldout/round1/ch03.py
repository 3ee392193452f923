ANSWERS = [
    # split_heads
    {"exercise": "split_heads", "kind": "correct", "idea": "reshape then np.moveaxis",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, f = x.shape
    return np.moveaxis(x.reshape(*batch, n, num_heads, f // num_heads), -2, -3)
'''},
    {"exercise": "split_heads", "kind": "correct", "idea": "stack of column slices along a new axis -3",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    d = x.shape[-1] // num_heads
    return np.stack([x[..., i * d:(i + 1) * d] for i in range(num_heads)], axis=-3)
'''},
    {"exercise": "split_heads", "kind": "wrong", "mistake": "reshape straight to (..., h, n, d) without the transpose",
     "teacher_says": "a reshape alone mixes tokens across heads; reshape to (..., n, h, d) then swap n and h",
     "code": '''
def split_heads(x, num_heads):
    *batch, n, f = x.shape
    return x.reshape(*batch, num_heads, n, f // num_heads)
'''},
    {"exercise": "split_heads", "kind": "wrong", "mistake": "reshape the last axis into (d, h) instead of (h, d): head i gets every h-th feature",
     "teacher_says": "head i owns the contiguous features i*d:(i+1)*d; reshape the last axis into (h, d), not (d, h)",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, f = x.shape
    y = x.reshape(*batch, n, f // num_heads, num_heads)
    return np.moveaxis(y, -1, -3)
'''},
    {"exercise": "split_heads", "kind": "wrong", "mistake": "uses transpose(0, 2, 1, 3): assumes exactly one batch axis",
     "teacher_says": "write it for any number of leading axes, e.g. swap axes -3 and -2",
     "code": '''
def split_heads(x, num_heads):
    b, n, f = x.shape[0], x.shape[-2], x.shape[-1]
    return x.reshape(b, n, num_heads, f // num_heads).transpose(0, 2, 1, 3)
'''},
    {"exercise": "split_heads", "kind": "wrong", "mistake": "swaps the wrong axes (-4, -2) / puts the head axis first",
     "teacher_says": "the heads axis goes just before the sequence axis: (..., h, n, d)",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, f = x.shape
    y = x.reshape(*batch, n, num_heads, f // num_heads)
    return np.moveaxis(y, -2, 0)
'''},
    # merge_heads
    {"exercise": "merge_heads", "kind": "correct", "idea": "concatenate the heads along the feature axis",
     "code": '''
import numpy as np

def merge_heads(x):
    h = x.shape[-3]
    return np.concatenate([x[..., i, :, :] for i in range(h)], axis=-1)
'''},
    {"exercise": "merge_heads", "kind": "correct", "idea": "einsum-free: moveaxis then reshape",
     "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    return np.moveaxis(x, -3, -2).reshape(*batch, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "wrong", "mistake": "reshape without swapping back",
     "teacher_says": "swap h and n back before reshaping, or the tokens get mixed",
     "code": '''
def merge_heads(x):
    *batch, h, n, d = x.shape
    return x.reshape(*batch, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "wrong", "mistake": "after the swap reshapes as (d, h) order by transposing the last two first",
     "teacher_says": "the feature axis must be head-major: head 0's d features, then head 1's",
     "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    y = np.moveaxis(x, -3, -1)  # (..., n, d, h)
    return y.reshape(*batch, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "wrong", "mistake": "sums the heads instead of concatenating",
     "teacher_says": "merge concatenates the heads' features (h*d wide), it does not add them",
     "code": '''
def merge_heads(x):
    return x.sum(axis=-3)
'''},
    {"exercise": "merge_heads", "kind": "robustness", "idea": "prints the result instead of returning it",
     "mistake": "print instead of return",
     "teacher_says": "return the array; printing it gives None to the caller",
     "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    print(np.swapaxes(x, -3, -2).reshape(*batch, n, h * d))
'''},
    # attend_heads
    {"exercise": "attend_heads", "kind": "correct", "idea": "all three bugs fixed: split q with split_heads, scale by sqrt(d_k), softmax over last axis",
     "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    d_k = q.shape[-1]
    scores = q @ k.swapaxes(-1, -2) / d_k**0.5
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "correct", "idea": "loop over heads calling mha.scaled_dot_product_attention and stack",
     "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads
    dk = params.w_q.shape[1] // h
    dv = params.w_v.shape[1] // h
    Q, K, V = x @ params.w_q, x @ params.w_k, x @ params.w_v
    outs, ws = [], []
    for i in range(h):
        o, w = mha.scaled_dot_product_attention(Q[..., i*dk:(i+1)*dk], K[..., i*dk:(i+1)*dk], V[..., i*dv:(i+1)*dv])
        outs.append(o); ws.append(w)
    return np.stack(outs, axis=-3), np.stack(ws, axis=-3)
'''},
    {"exercise": "attend_heads", "kind": "wrong", "mistake": "fixed the split and the axis but still scales by sqrt(d_model)",
     "teacher_says": "the scale is sqrt(d_k), the per-head size, not sqrt(d_model)",
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
    {"exercise": "attend_heads", "kind": "wrong", "mistake": "fixed scale and axis but left q reshaped without transpose",
     "teacher_says": "q must be split like k and v (split_heads); a bare reshape mixes tokens across heads",
     "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = (x @ params.w_q).reshape(*batch, h, n, -1)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / q.shape[-1]**0.5
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "wrong", "mistake": "fixed split and scale but softmax still over axis -2",
     "teacher_says": "each query's weights (a row) must sum to 1: softmax over the last axis",
     "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / q.shape[-1]**0.5
    weights = mha.softmax(scores, axis=-2)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "wrong", "mistake": "uses d_k = d_model // h from x (wrong when h*d_k != d_model) -- and also transposes weights",
     "teacher_says": "d_k is the projection's per-head width (q.shape[-1]); d_model/h is only equal when h*d_k = d_model",
     "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    d_model = x.shape[-1]
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / (d_model // h) ** 0.5
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
    # split_heads_shape
    {"exercise": "split_heads_shape", "kind": "correct", "idea": "literal tuple",
     "code": '''
split_heads_shape = (2, 12, 10, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "correct", "idea": "computed from the sizes",
     "code": '''
_b, _n, _d, _h = 2, 10, 768, 12
split_heads_shape = (_b, _h, _n, _d // _h)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "heads after the sequence axis",
     "teacher_says": "the heads axis goes before the sequence axis",
     "code": '''
split_heads_shape = (2, 10, 12, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "keeps the full 768 features per head",
     "teacher_says": "each head gets 768/12 = 64 features",
     "code": '''
split_heads_shape = (2, 12, 10, 768)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "forgot the batch axis",
     "teacher_says": "the batch axis of 2 stays in front",
     "code": '''
split_heads_shape = (12, 10, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "robustness", "idea": "a list instead of a tuple",
     "mistake": "assigns a list [2, 12, 10, 64]",
     "teacher_says": "a shape is a tuple; compare with x.shape",
     "code": '''
split_heads_shape = [2, 12, 10, 64]
'''},
    {"exercise": "merge_heads", "kind": "wrong", "mistake": "swaps axes -2 and -1 (d and n) instead of -3 and -2 before the reshape",
     "teacher_says": "the axes to swap back are heads (-3) and tokens (-2)",
     "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    return np.swapaxes(x, -2, -1).reshape(*batch, n, h * d)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "divides the sequence length by the heads instead of the features",
     "teacher_says": "the heads split the 768 features, not the 10 tokens",
     "code": '''
split_heads_shape = (2, 12, 10 // 12, 768)
'''},
]
