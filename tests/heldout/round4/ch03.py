ANSWERS = [
 {"exercise": "split_heads", "kind": "correct", "idea": "reshape then swapaxes", "code": '''
import numpy as np
def split_heads(x, num_heads):
    *batch, n, f = x.shape
    return np.swapaxes(x.reshape(*batch, n, num_heads, f // num_heads), -3, -2)
'''},
 {"exercise": "split_heads", "kind": "correct", "idea": "stack of column slices along a new axis -3", "code": '''
import numpy as np
def split_heads(x, num_heads):
    d = x.shape[-1] // num_heads
    return np.stack([x[..., i * d:(i + 1) * d] for i in range(num_heads)], axis=-3)
'''},
 {"exercise": "split_heads", "kind": "wrong", "mistake": "bare reshape, no transpose", "teacher_says": "reshape alone mixes tokens into heads; reshape to (n, h, d) then swap n and h", "code": '''
def split_heads(x, num_heads):
    *batch, n, f = x.shape
    return x.reshape(*batch, num_heads, n, f // num_heads)
'''},
 {"exercise": "split_heads", "kind": "wrong", "mistake": "reshape (n, d, h) then moves axis: heads interleaved", "teacher_says": "the h*d features are grouped head-major: reshape to (h, d), not (d, h)", "code": '''
import numpy as np
def split_heads(x, num_heads):
    *batch, n, f = x.shape
    y = x.reshape(*batch, n, f // num_heads, num_heads)
    return np.moveaxis(y, -1, -3)
'''},
 {"exercise": "split_heads", "kind": "wrong", "mistake": "transpose with fixed axes (0,2,1,3): only works for exactly one batch axis", "teacher_says": "the function must work for any number of leading axes; use swapaxes(-3, -2)", "code": '''
import numpy as np
def split_heads(x, num_heads):
    *batch, n, f = x.shape
    y = x.reshape(*batch, n, num_heads, f // num_heads)
    if y.ndim == 4:
        return y.transpose(0, 2, 1, 3)
    return y.reshape(*batch, num_heads, n, f // num_heads)
'''},
 {"exercise": "split_heads", "kind": "wrong", "mistake": "num_heads used as d (per-head size)", "teacher_says": "the second argument is the number of heads; you made groups of num_heads features", "code": '''
import numpy as np
def split_heads(x, num_heads):
    *batch, n, f = x.shape
    return np.swapaxes(x.reshape(*batch, n, f // num_heads, num_heads), -3, -2)
'''},
 {"exercise": "split_heads", "kind": "robustness", "idea": "returns a list of per-head arrays", "mistake": "list not array", "teacher_says": "return one array of shape (..., h, n, d)", "code": '''
def split_heads(x, num_heads):
    d = x.shape[-1] // num_heads
    return [x[..., i * d:(i + 1) * d] for i in range(num_heads)]
'''},
 {"exercise": "merge_heads", "kind": "correct", "idea": "swapaxes then reshape", "code": '''
import numpy as np
def merge_heads(x):
    *batch, h, n, d = x.shape
    return np.swapaxes(x, -3, -2).reshape(*batch, n, h * d)
'''},
 {"exercise": "merge_heads", "kind": "correct", "idea": "concatenate heads along last axis", "code": '''
import numpy as np
def merge_heads(x):
    return np.concatenate([x[..., i, :, :] for i in range(x.shape[-3])], axis=-1)
'''},
 {"exercise": "merge_heads", "kind": "wrong", "mistake": "reshape without swapping back", "teacher_says": "you must swap heads and tokens back before the reshape", "code": '''
def merge_heads(x):
    *batch, h, n, d = x.shape
    return x.reshape(*batch, n, h * d)
'''},
 {"exercise": "merge_heads", "kind": "wrong", "mistake": "swaps (-2, -1) instead of (-3, -2)", "teacher_says": "the axes to swap are heads and tokens, not tokens and features", "code": '''
import numpy as np
def merge_heads(x):
    *batch, h, n, d = x.shape
    return np.swapaxes(x, -2, -1).reshape(*batch, n, h * d)
'''},
 {"exercise": "merge_heads", "kind": "wrong", "mistake": "heads summed (mean of heads tiled) instead of concatenated", "teacher_says": "merging concatenates the heads, it does not add them", "code": '''
import numpy as np
def merge_heads(x):
    h = x.shape[-3]
    return np.concatenate([x.sum(axis=-3)] * h, axis=-1)
'''},
 {"exercise": "merge_heads", "kind": "wrong", "mistake": "d-major order: moves heads axis last, features interleaved", "teacher_says": "head 0's features come first: order (n, h, d), not (n, d, h)", "code": '''
import numpy as np
def merge_heads(x):
    *batch, h, n, d = x.shape
    return np.moveaxis(x, -3, -1).reshape(*batch, n, h * d)
'''},
 {"exercise": "merge_heads", "kind": "robustness", "idea": "returns a torch tensor", "mistake": "torch output", "teacher_says": "return a NumPy array", "code": '''
import numpy as np, torch
def merge_heads(x):
    *batch, h, n, d = x.shape
    return torch.from_numpy(np.ascontiguousarray(np.swapaxes(x, -3, -2))).reshape(*batch, n, h * d)
'''},
 {"exercise": "attend_heads", "kind": "correct", "idea": "all three bugs fixed", "code": '''
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
 {"exercise": "attend_heads", "kind": "correct", "idea": "loop over heads with mha.scaled_dot_product_attention", "code": '''
import numpy as np
import mha
def attend_heads(x, params):
    h = params.num_heads
    dk = params.w_q.shape[1] // h; dv = params.w_v.shape[1] // h
    outs, ws = [], []
    for i in range(h):
        q = x @ params.w_q[:, i*dk:(i+1)*dk]
        k = x @ params.w_k[:, i*dk:(i+1)*dk]
        v = x @ params.w_v[:, i*dv:(i+1)*dv]
        o, w = mha.scaled_dot_product_attention(q, k, v)
        outs.append(o); ws.append(w)
    return np.stack(outs, axis=-3), np.stack(ws, axis=-3)
'''},
 {"exercise": "attend_heads", "kind": "wrong", "mistake": "fixed the split and the axis, kept d_model scaling", "teacher_says": "scale by sqrt(d_k), the per-head size, not sqrt(d_model)", "code": '''
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
 {"exercise": "attend_heads", "kind": "wrong", "mistake": "fixed scaling and axis, kept the bare reshape of q", "teacher_says": "q is reshaped without the transpose, so tokens are mixed; split it like k and v", "code": '''
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
 {"exercise": "attend_heads", "kind": "wrong", "mistake": "fixed split and scale, softmax still over axis -2", "teacher_says": "each query's weights sum to 1 over the keys, the last axis", "code": '''
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
 {"exercise": "attend_heads", "kind": "wrong", "mistake": "d_k taken from v's per-head size (d_v), wrong when d_v != d_k", "teacher_says": "the scale uses d_k, the queries' per-head size; d_v may differ", "code": '''
import mha
def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / v.shape[-1]**0.5
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
 {"exercise": "attend_heads", "kind": "robustness", "idea": "prints the result and returns None", "mistake": "prints instead of returning", "teacher_says": "return (heads, weights), do not print them", "code": '''
import mha
def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    weights = mha.softmax(q @ k.swapaxes(-1, -2) / q.shape[-1]**0.5, axis=-1)
    print(weights @ v, weights)
'''},
 {"exercise": "split_heads_shape", "kind": "correct", "idea": "literal tuple", "code": '''
split_heads_shape = (2, 12, 10, 64)
'''},
 {"exercise": "split_heads_shape", "kind": "correct", "idea": "computed", "code": '''
split_heads_shape = (2, 12, 10, 768 // 12)
'''},
 {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "heads after tokens", "teacher_says": "the heads axis goes before the sequence axis", "code": '''
split_heads_shape = (2, 10, 12, 64)
'''},
 {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "per-head size not divided", "teacher_says": "each head gets 768/12 = 64 features", "code": '''
split_heads_shape = (2, 12, 10, 768)
'''},
 {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "batch dropped", "teacher_says": "the batch axis stays in front", "code": '''
split_heads_shape = (12, 10, 64)
'''},
 {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "batch folded into heads (PyTorch's internal layout)", "teacher_says": "this book keeps batch and heads as separate axes", "code": '''
split_heads_shape = (24, 10, 64)
'''},
 {"exercise": "split_heads_shape", "kind": "robustness", "idea": "a list instead of a tuple", "mistake": "list", "teacher_says": "assign a tuple", "code": '''
split_heads_shape = [2, 12, 10, 64]
'''},
 {"exercise": "split_heads", "kind": "wrong", "mistake": "uses .transpose() with no axes after the reshape: reverses every axis",
  "teacher_says": "x.transpose() reverses all axes (d, h, n, ...); swap only the tokens and heads axes",
  "code": '''
def split_heads(x, num_heads):
    *batch, n, f = x.shape
    return x.reshape(*batch, n, num_heads, f // num_heads).transpose()
'''},
]
