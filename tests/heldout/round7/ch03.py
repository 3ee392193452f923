ANSWERS = [
 # ------------------------------------------------------------------ split_heads
 {"exercise": "split_heads", "kind": "correct", "idea": "slice each head's feature block and stack the blocks on a new axis -3",
  "code": '''
import numpy as np

def split_heads(x, num_heads):
    d = x.shape[-1] // num_heads
    return np.stack([x[..., i * d:(i + 1) * d] for i in range(num_heads)], axis=-3)
'''},
 {"exercise": "split_heads", "kind": "correct", "idea": "reshape, then np.moveaxis of the heads axis from -2 to -3",
  "code": '''
import numpy as np

def split_heads(x, num_heads):
    lead = x.shape[:-1]
    return np.moveaxis(x.reshape(lead + (num_heads, -1)), -2, -3)
'''},
 {"exercise": "split_heads", "kind": "wrong", "mistake": "Reshaped straight to (..., h, n, d) without the transpose, which has the right shape and mixes tokens.",
  "teacher_says": "Reshape the last axis into (h, d) first, giving (..., n, h, d), then swap the n and h axes; a direct reshape reads the data in the wrong order.",
  "code": '''
def split_heads(x, num_heads):
    *batch, n, features = x.shape
    return x.reshape(*batch, num_heads, n, features // num_heads)
'''},
 {"exercise": "split_heads", "kind": "wrong", "mistake": "Thought the heads are interleaved and took every num_heads-th feature for each head.",
  "teacher_says": "Head i owns the contiguous features i*d:(i+1)*d, not features i, i+h, i+2h, ...",
  "code": '''
import numpy as np

def split_heads(x, num_heads):
    return np.stack([x[..., i::num_heads] for i in range(num_heads)], axis=-3)
'''},
 {"exercise": "split_heads", "kind": "wrong", "mistake": "Moved the heads axis to the very front (axis 0) instead of just before the sequence axis: fine without a batch, wrong with one.",
  "teacher_says": "The heads axis goes right before n, at -3: np.moveaxis(..., -2, -3) or swapaxes(-3, -2), so that batch axes stay in front.",
  "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    y = x.reshape(*batch, n, num_heads, features // num_heads)
    return np.moveaxis(y, -2, 0)
'''},
 {"exercise": "split_heads", "kind": "wrong", "mistake": "Swapped num_heads and the head width in the reshape, cutting the features into d groups of h.",
  "teacher_says": "The last axis becomes (h, d) with h first: reshape(*batch, n, num_heads, features // num_heads).",
  "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    y = x.reshape(*batch, n, features // num_heads, num_heads)
    return np.swapaxes(y, -3, -2)
'''},
 {"exercise": "split_heads", "kind": "wrong", "mistake": "Wrote it for a single sequence (n, h*d) only: the leading batch axes are dropped and batched inputs fail.",
  "teacher_says": "Keep the leading axes: *batch, n, features = x.shape, and swap axes -3 and -2, not 0 and 1.",
  "code": '''
def split_heads(x, num_heads):
    n, features = x.shape[-2:]
    return x.reshape(n, num_heads, features // num_heads).swapaxes(0, 1)
'''},
 {"exercise": "split_heads", "kind": "robustness", "idea": "return a list with one array per head",
  "mistake": "Right blocks, but returns a Python list of h arrays instead of one (..., h, n, d) array.",
  "teacher_says": "Stack the blocks (np.stack(..., axis=-3)) so the heads become an axis that @ can broadcast over.",
  "code": '''
def split_heads(x, num_heads):
    d = x.shape[-1] // num_heads
    return [x[..., i * d:(i + 1) * d] for i in range(num_heads)]
'''},

 # ------------------------------------------------------------------ merge_heads
 {"exercise": "merge_heads", "kind": "correct", "idea": "concatenate the heads' outputs along the feature axis",
  "code": '''
import numpy as np

def merge_heads(x):
    h = x.shape[-3]
    return np.concatenate([x[..., i, :, :] for i in range(h)], axis=-1)
'''},
 {"exercise": "merge_heads", "kind": "correct", "idea": "np.moveaxis of the heads axis after the tokens, then reshape with the shape spelled out",
  "code": '''
import numpy as np

def merge_heads(x):
    h, n, d = x.shape[-3:]
    y = np.moveaxis(x, -3, -2)
    return y.reshape(x.shape[:-3] + (n, h * d))
'''},
 {"exercise": "merge_heads", "kind": "wrong", "mistake": "Reshaped (..., h, n, d) straight to (..., n, h*d) without swapping the axes back, which interleaves tokens.",
  "teacher_says": "Undo the split in reverse order: swapaxes(-3, -2) to (..., n, h, d) first, then reshape.",
  "code": '''
def merge_heads(x):
    *batch, h, n, d = x.shape
    return x.reshape(*batch, n, h * d)
'''},
 {"exercise": "merge_heads", "kind": "wrong", "mistake": "Moved the heads axis to the end, (..., n, d, h), before reshaping: each token's features come out interleaved across heads.",
  "teacher_says": "The heads axis must sit just before d, (..., n, h, d), so that head i's features are the contiguous block i*d:(i+1)*d.",
  "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    return np.moveaxis(x, -3, -1).reshape(*batch, n, h * d)
'''},
 {"exercise": "merge_heads", "kind": "wrong", "mistake": "Concatenated the heads along the token axis instead of the feature axis, giving (..., h*n, d).",
  "teacher_says": "Concat(head_1, ..., head_h) joins the heads side by side in the features: axis=-1.",
  "code": '''
import numpy as np

def merge_heads(x):
    return np.concatenate([x[..., i, :, :] for i in range(x.shape[-3])], axis=-2)
'''},
 {"exercise": "merge_heads", "kind": "wrong", "mistake": "Swapped axes 0 and 1, which is right for a single (h, n, d) array but swaps batch and heads when there is a batch.",
  "teacher_says": "Count axes from the end, swapaxes(-3, -2), so that leading batch axes are left alone.",
  "code": '''
def merge_heads(x):
    *batch, h, n, d = x.shape
    return x.swapaxes(0, 1).reshape(*batch, n, h * d)
'''},
 {"exercise": "merge_heads", "kind": "wrong", "mistake": "Added the heads' outputs together instead of concatenating them.",
  "teacher_says": "Merging is a concatenation: the result has h*d features per token. Summing happens only after W^O, not here.",
  "code": '''
def merge_heads(x):
    return x.sum(axis=-3)
'''},
 {"exercise": "merge_heads", "kind": "robustness", "idea": "prints the merged array at the end of the function",
  "mistake": "Computes the right array but prints it instead of returning it, so the function returns None.",
  "teacher_says": "End with return merged; print is for looking, not for passing a result on.",
  "code": '''
def merge_heads(x):
    *batch, h, n, d = x.shape
    merged = x.swapaxes(-3, -2).reshape(*batch, n, h * d)
    print(merged)
'''},

 # ------------------------------------------------------------------ attend_heads
 {"exercise": "attend_heads", "kind": "correct", "idea": "the three fixes in place: split q like k and v, scale by sqrt(d_k) from q's last axis, softmax over the keys",
  "code": '''
import math
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
 {"exercise": "attend_heads", "kind": "correct", "idea": "own split with reshape + swapaxes, then hand the per-head arrays to mha.scaled_dot_product_attention",
  "code": '''
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads

    def split(y):
        *lead, n, f = y.shape
        return np.swapaxes(y.reshape(*lead, n, h, f // h), -3, -2)

    q, k, v = (split(x @ w) for w in (params.w_q, params.w_k, params.w_v))
    heads, weights = mha.scaled_dot_product_attention(q, k, v)
    return heads, weights
'''},
 {"exercise": "attend_heads", "kind": "wrong", "mistake": "Fixed the scale and the softmax axis but kept the queries' reshape without transpose.",
  "teacher_says": "The queries must be split like the keys and values: mha.split_heads(x @ params.w_q, h); a bare reshape mixes tokens.",
  "code": '''
import math
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = (x @ params.w_q).reshape(*batch, h, n, -1)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
 {"exercise": "attend_heads", "kind": "wrong", "mistake": "Fixed the split and the softmax axis but kept the scale 1/sqrt(d_model) instead of 1/sqrt(d_k).",
  "teacher_says": "Each head's dot products have d_k terms: divide by sqrt(d_k) = sqrt(q.shape[-1]), not sqrt(d_model).",
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
 {"exercise": "attend_heads", "kind": "wrong", "mistake": "Fixed the split and the scale but left the softmax over axis -2 (the queries).",
  "teacher_says": "Each query's weights over the keys must sum to 1: softmax along axis=-1.",
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
 {"exercise": "attend_heads", "kind": "wrong", "mistake": "Replaced d_model by d_k in the scale but dropped the square root (divides by d_k).",
  "teacher_says": "The scaled dot product divides by sqrt(d_k), not d_k: d_k**0.5.",
  "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / q.shape[-1]
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
 {"exercise": "attend_heads", "kind": "wrong", "mistake": "Made the keys consistent with the buggy queries (both reshaped without transpose) instead of fixing the queries.",
  "teacher_says": "Consistency is not correctness: q, k and v must all be split with the transpose, as mha.split_heads does.",
  "code": '''
import math
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = (x @ params.w_q).reshape(*batch, h, n, -1)
    k = (x @ params.w_k).reshape(*batch, h, n, -1)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
 {"exercise": "attend_heads", "kind": "robustness", "idea": "casts to float64 'for precision'",
  "mistake": "Right numbers, but casts the projections to float64, so float32 inputs give float64 heads and weights.",
  "teacher_says": "Keep the inputs' dtype; float32 is the layer's precision, and returning float64 doubles memory downstream.",
  "code": '''
import math
import numpy as np
import mha

def attend_heads(x, params):
    h = params.num_heads
    x64 = x.astype(np.float64)
    q = mha.split_heads(x64 @ params.w_q.astype(np.float64), h)
    k = mha.split_heads(x64 @ params.w_k.astype(np.float64), h)
    v = mha.split_heads(x64 @ params.w_v.astype(np.float64), h)
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},

 # ------------------------------------------------------------------ split_heads_shape
 {"exercise": "split_heads_shape", "kind": "correct", "idea": "named sizes, d computed with integer division",
  "code": '''
batch, n, d_model, h = 2, 10, 768, 12
split_heads_shape = (batch, h, n, d_model // h)
'''},
 {"exercise": "split_heads_shape", "kind": "correct", "idea": "shape of an empty array after a reshape and swapaxes",
  "code": '''
import numpy as np

split_heads_shape = np.empty((2, 10, 768)).reshape(2, 10, 12, 64).swapaxes(1, 2).shape
'''},
 {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "Gave the shape after the reshape but before the transpose.",
  "teacher_says": "split_heads moves the heads axis before the sequence axis: (2, 12, 10, 64).",
  "code": '''
split_heads_shape = (2, 10, 12, 64)
'''},
 {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "Forgot that each head gets only d_model / h features.",
  "teacher_says": "The 768 features are shared out over 12 heads: 64 each.",
  "code": '''
split_heads_shape = (2, 12, 10, 768)
'''},
 {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "Put the heads axis in front of the batch axis.",
  "teacher_says": "The heads axis goes just before the sequence axis; batch axes stay first: (2, 12, 10, 64).",
  "code": '''
split_heads_shape = (12, 2, 10, 64)
'''},
 {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "Merged batch and heads into one axis, as some PyTorch internals do.",
  "teacher_says": "split_heads keeps the batch and the heads as separate axes: (2, 12, 10, 64).",
  "code": '''
split_heads_shape = (2 * 12, 10, 768 // 12)
'''},
 {"exercise": "split_heads_shape", "kind": "wrong", "mistake": "Swapped the sequence and feature axes at the end.",
  "teacher_says": "Each head is (n, d) like the input: tokens, then features, so (2, 12, 10, 64).",
  "code": '''
split_heads_shape = (2, 12, 64, 10)
'''},
 {"exercise": "split_heads_shape", "kind": "robustness", "idea": "a list instead of a tuple",
  "mistake": "Right sizes, but a list [2, 12, 10, 64] instead of a tuple.",
  "teacher_says": "Shapes are tuples in NumPy: write (2, 12, 10, 64).",
  "code": '''
split_heads_shape = [2, 12, 10, 64]
'''},
]
