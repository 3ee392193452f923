_FIXED = '''
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    d_k = q.shape[-1]
    scores = q @ k.swapaxes(-1, -2) / d_k**0.5
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''
ANSWERS = [
    {"exercise": "split_heads", "kind": "correct", "idea": "reshape then swapaxes(-2,-3)",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *lead, n, hd = x.shape
    return np.swapaxes(x.reshape(*lead, n, num_heads, hd // num_heads), -2, -3)
'''},
    {"exercise": "split_heads", "kind": "correct", "idea": "stack of column slices along a new axis -3",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    d = x.shape[-1] // num_heads
    return np.stack([x[..., i * d:(i + 1) * d] for i in range(num_heads)], axis=-3)
'''},
    {"exercise": "split_heads", "kind": "wrong", "mistake": "reshape straight to (..., h, n, d) without the transpose",
     "teacher_says": "a reshape alone cuts the token rows into pieces; reshape to (..., n, h, d) and then swap the n and h axes",
     "code": '''
def split_heads(x, num_heads):
    *lead, n, hd = x.shape
    return x.reshape(*lead, num_heads, n, hd // num_heads)
'''},
    {"exercise": "split_heads", "kind": "wrong", "mistake": "transpose(0, 2, 1, 3) hard-coded: only right for exactly one batch axis",
     "teacher_says": "your transpose assumes one batch axis; use swapaxes(-2, -3) for any number of leading axes",
     "code": '''
def split_heads(x, num_heads):
    *lead, n, hd = x.shape
    y = x.reshape(*lead, n, num_heads, hd // num_heads)
    return y.transpose(0, 2, 1, 3) if y.ndim == 4 else y.swapaxes(0, 1)
'''},
    {"exercise": "split_heads", "kind": "wrong", "mistake": "reshape (n, d, h): head i takes every h-th feature",
     "teacher_says": "head i owns contiguous features i*d:(i+1)*d; reshaping to (n, d, h) interleaves them",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *lead, n, hd = x.shape
    y = x.reshape(*lead, n, hd // num_heads, num_heads)
    return np.moveaxis(y, -1, -3)
'''},
    {"exercise": "split_heads", "kind": "wrong", "mistake": "reshape to (n, d, h) and swaps the wrong axes: heads axis comes out last with strided features",
     "teacher_says": "reshape to (..., n, h, d) (heads before features) and swap the n and h axes",
     "code": '''
import numpy as np

def split_heads(x, num_heads):
    *lead, n, hd = x.shape
    return np.swapaxes(x.reshape(*lead, n, hd // num_heads, num_heads), -2, -3)
'''},
    {"exercise": "merge_heads", "kind": "correct", "idea": "swapaxes then reshape",
     "code": '''
import numpy as np

def merge_heads(x):
    *lead, h, n, d = x.shape
    return np.swapaxes(x, -2, -3).reshape(*lead, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "correct", "idea": "concatenate heads along last axis",
     "code": '''
import numpy as np

def merge_heads(x):
    return np.concatenate([x[..., i, :, :] for i in range(x.shape[-3])], axis=-1)
'''},
    {"exercise": "merge_heads", "kind": "wrong", "mistake": "reshape without swapping h and n back",
     "teacher_says": "undo the transpose first: swap the heads and tokens axes, then reshape",
     "code": '''
def merge_heads(x):
    *lead, h, n, d = x.shape
    return x.reshape(*lead, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "wrong", "mistake": "swaps the last two axes (n, d) instead of (h, n)",
     "teacher_says": "the axes to swap are heads and tokens (-3 and -2), not tokens and features",
     "code": '''
import numpy as np

def merge_heads(x):
    *lead, h, n, d = x.shape
    return np.swapaxes(x, -1, -2).reshape(*lead, n, h * d)
'''},
    {"exercise": "merge_heads", "kind": "wrong", "mistake": "sums the heads instead of concatenating",
     "teacher_says": "merging concatenates the heads' features: the result has h*d features, not d",
     "code": '''
def merge_heads(x):
    return x.sum(axis=-3)
'''},
    {"exercise": "merge_heads", "kind": "robustness", "idea": "returns a non-numpy torch tensor",
     "code": '''
import torch

def merge_heads(x):
    t = torch.as_tensor(x)
    *lead, h, n, d = t.shape
    return t.transpose(-2, -3).reshape(*lead, n, h * d)
'''},
    {"exercise": "attend_heads", "kind": "correct", "idea": "all three bugs fixed: split q, scale by d_k, softmax over keys",
     "code": _FIXED},
    {"exercise": "attend_heads", "kind": "correct", "idea": "fixed with einsum and own transpose",
     "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    def sp(y):
        return np.swapaxes(y.reshape(*batch, n, h, -1), -2, -3)
    q, k, v = sp(x @ params.w_q), sp(x @ params.w_k), sp(x @ params.w_v)
    scores = np.einsum("...id,...jd->...ij", q, k) / np.sqrt(q.shape[-1])
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
    {"exercise": "attend_heads", "kind": "wrong", "mistake": "fixed axis and scale, left q's reshape bug",
     "teacher_says": "q is still reshaped without the transpose; use split_heads as for k and v",
     "code": _FIXED.replace("q = mha.split_heads(x @ params.w_q, h)", "q = (x @ params.w_q).reshape(*batch, h, n, -1)")},
    {"exercise": "attend_heads", "kind": "wrong", "mistake": "fixed q and axis, still divides by sqrt(d_model)",
     "teacher_says": "the scale is 1/sqrt(d_k), a head's size, not sqrt(d_model)",
     "code": _FIXED.replace("/ d_k**0.5", "/ d_model**0.5")},
    {"exercise": "attend_heads", "kind": "wrong", "mistake": "fixed q and scale, softmax still over axis -2",
     "teacher_says": "the softmax runs over the keys, the last axis",
     "code": _FIXED.replace("axis=-1", "axis=-2")},
    {"exercise": "attend_heads", "kind": "wrong", "mistake": "'fixed' the scale to d_k without the square root",
     "teacher_says": "divide by sqrt(d_k), not d_k",
     "code": _FIXED.replace("/ d_k**0.5", "/ d_k")},
    {"exercise": "split_heads_shape", "kind": "correct", "idea": "(2, 12, 10, 64)",
     "code": '''
split_heads_shape = (2, 12, 10, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "correct", "idea": "computed from the numbers",
     "code": '''
split_heads_shape = (2, 12, 10, 768 // 12)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "heads after tokens: (2, 10, 12, 64)",
     "teacher_says": "split_heads puts the heads axis before the tokens: (..., h, n, d)",
     "code": '''
split_heads_shape = (2, 10, 12, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "forgot the batch axis",
     "teacher_says": "the leading batch axis of size 2 stays",
     "code": '''
split_heads_shape = (12, 10, 64)
'''},
    {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "d = 768 kept (head size not divided)",
     "teacher_says": "each head gets 768/12 = 64 features",
     "code": '''
split_heads_shape = (2, 12, 10, 768)
'''},
    {"exercise": "split_heads_shape", "kind": "robustness", "idea": "a list instead of a tuple",
     "code": '''
split_heads_shape = [2, 12, 10, 64]
'''},
]
ANSWERS.append({"exercise": "merge_heads", "kind": "wrong", "mistake": "hard-coded transpose(0, 2, 1, 3): raises without exactly one batch axis",
     "teacher_says": "use swapaxes(-2, -3) and reshape from the shape's tail, for any number of leading axes",
     "code": "\ndef merge_heads(x):\n    y = x.transpose(0, 2, 1, 3)\n    return y.reshape(x.shape[0], x.shape[2], -1)\n"})
ANSWERS.append({"exercise": "split_heads_shape", "kind": "wrong", "mistake": "divided tokens by heads instead of features", "teacher_says": "the features are split: 768/12 = 64; the 10 tokens stay",
     "code": "\nsplit_heads_shape = (2, 12, 768, 10 // 12 + 1)\n"})
