ANSWERS = [
 # ------------------------------------------------------------------ split_heads
 {"exercise": "split_heads", "kind": "correct",
  "idea": "cut the feature axis into h pieces with np.split and stack them on a new axis -3",
  "code": '''
import numpy as np
def split_heads(x, num_heads):
    return np.stack(np.split(x, num_heads, axis=-1), axis=-3)
'''},
 {"exercise": "split_heads", "kind": "correct",
  "idea": "transpose the last two axes first, reshape the feature axis into (h, d), transpose back (swap, reshape, swap)",
  "code": '''
import numpy as np
def split_heads(x, num_heads):
    *batch, n, features = x.shape
    xt = np.swapaxes(x, -1, -2)
    xt = xt.reshape(*batch, num_heads, features // num_heads, n)
    return np.swapaxes(xt, -1, -2)
'''},
 {"exercise": "split_heads", "kind": "wrong",
  "mistake": "reshapes straight to (..., h, n, d) without the transpose, which mixes tokens",
  "teacher_says": "Reshape the last axis to (h, d), giving (..., n, h, d), and then swap the n and h axes; a bare reshape has the right shape and the wrong content.",
  "code": '''
def split_heads(x, num_heads):
    *batch, n, features = x.shape
    return x.reshape(*batch, num_heads, n, features // num_heads)
'''},
 {"exercise": "split_heads", "kind": "wrong",
  "mistake": "reshapes the features as (d, h) instead of (h, d), so each head gets every h-th feature (interleaved) instead of a contiguous block",
  "teacher_says": "Head i owns features i*d:(i+1)*d: the heads axis must come first in the reshape, (..., n, h, d).",
  "code": '''
import numpy as np
def split_heads(x, num_heads):
    *batch, n, features = x.shape
    y = x.reshape(*batch, n, features // num_heads, num_heads)
    return np.moveaxis(y, -1, -3)
'''},
 {"exercise": "split_heads", "kind": "wrong",
  "mistake": "hard-codes a 4-D transpose (0, 2, 1, 3), so it works for a (B, n, h*d) batch only, not for a single sequence or extra leading axes",
  "teacher_says": "Use negative axes, np.swapaxes(x, -3, -2), so that any number of leading axes works.",
  "code": '''
def split_heads(x, num_heads):
    *batch, n, features = x.shape
    y = x.reshape(*batch, n, num_heads, features // num_heads)
    return y.transpose(0, 2, 1, 3)
'''},
 {"exercise": "split_heads", "kind": "wrong",
  "mistake": "passes num_heads where the head width belongs in the reshape, so the axes come out as (..., d, n, h)",
  "teacher_says": "The reshape is (..., n, num_heads, features // num_heads): the number of heads first, then each head's width.",
  "code": '''
import numpy as np
def split_heads(x, num_heads):
    *batch, n, features = x.shape
    y = x.reshape(*batch, n, -1, num_heads)
    return np.swapaxes(y, -3, -2)
'''},
 {"exercise": "split_heads", "kind": "wrong",
  "mistake": "stops after the reshape and returns (..., n, h, d): the heads axis is never moved in front of the tokens",
  "teacher_says": "The attention needs the heads as a batch axis: swap the n and h axes, np.swapaxes(y, -3, -2).",
  "code": '''
def split_heads(x, num_heads):
    *batch, n, features = x.shape
    return x.reshape(*batch, n, num_heads, features // num_heads)
'''},
 {"exercise": "split_heads", "kind": "robustness",
  "idea": "reshapes by assigning to .shape",
  "mistake": "assigns x.shape = ..., which reshapes the caller's array in place (its shape is changed after the call)",
  "teacher_says": "Use x.reshape(...), which returns a new view; assigning to x.shape modifies the array the caller passed in.",
  "code": '''
import numpy as np
def split_heads(x, num_heads):
    *batch, n, features = x.shape
    x.shape = (*batch, n, num_heads, features // num_heads)
    return np.swapaxes(x, -3, -2)
'''},
 # ------------------------------------------------------------------ merge_heads
 {"exercise": "merge_heads", "kind": "correct",
  "idea": "unstack the heads axis and concatenate the heads along the feature axis, in order",
  "code": '''
import numpy as np
def merge_heads(x):
    heads = [x[..., i, :, :] for i in range(x.shape[-3])]
    return np.concatenate(heads, axis=-1)
'''},
 {"exercise": "merge_heads", "kind": "correct",
  "idea": "np.moveaxis the heads axis behind the tokens, then reshape with -1",
  "code": '''
import numpy as np
def merge_heads(x):
    y = np.moveaxis(x, -3, -2)
    return y.reshape(*y.shape[:-2], -1)
'''},
 {"exercise": "merge_heads", "kind": "wrong",
  "mistake": "reshapes (..., h, n, d) straight to (..., n, h*d) without swapping the axes back",
  "teacher_says": "Undo the split in reverse order: swap the h and n axes first (np.swapaxes(x, -3, -2)), then reshape.",
  "code": '''
def merge_heads(x):
    *batch, h, n, d = x.shape
    return x.reshape(*batch, n, h * d)
'''},
 {"exercise": "merge_heads", "kind": "wrong",
  "mistake": "swaps the last two axes (n and d) instead of the heads and tokens axes before reshaping",
  "teacher_says": "The axes to swap are -3 (heads) and -2 (tokens); swapping -2 and -1 transposes each head's matrix instead.",
  "code": '''
import numpy as np
def merge_heads(x):
    *batch, h, n, d = x.shape
    return np.swapaxes(x, -1, -2).reshape(*batch, n, h * d)
'''},
 {"exercise": "merge_heads", "kind": "wrong",
  "mistake": "moves the heads axis to the end, (..., n, d, h), so the merged features are interleaved across heads",
  "teacher_says": "Concat puts head 1's d features first, then head 2's: the order before the reshape must be (..., n, h, d).",
  "code": '''
import numpy as np
def merge_heads(x):
    *batch, h, n, d = x.shape
    return np.moveaxis(x, -3, -1).reshape(*batch, n, h * d)
'''},
 {"exercise": "merge_heads", "kind": "wrong",
  "mistake": "hard-codes a 4-D transpose, so it fails for (h, n, d) inputs and is wrong with more leading axes",
  "teacher_says": "Use negative axes (swapaxes(-3, -2)) and *batch so that any number of leading axes works.",
  "code": '''
def merge_heads(x):
    return x.transpose(0, 2, 1, 3).reshape(x.shape[0], x.shape[2], -1)
'''},
 {"exercise": "merge_heads", "kind": "wrong",
  "mistake": "np.concatenate(x, axis=-1) iterates over the first axis: right for (h, n, d), but with a batch axis it concatenates sequences instead of heads",
  "teacher_says": "Iterating an array walks its first axis, which is the batch when there is one: split on the heads axis -3 explicitly, or swap and reshape.",
  "code": '''
import numpy as np
def merge_heads(x):
    return np.concatenate(x, axis=-1)
'''},
 {"exercise": "merge_heads", "kind": "robustness",
  "idea": "prints the result instead of returning it",
  "mistake": "prints the merged array and returns None",
  "teacher_says": "A function the rest of the code calls must return its result: replace print(...) with return.",
  "code": '''
import numpy as np
def merge_heads(x):
    *batch, h, n, d = x.shape
    merged = np.swapaxes(x, -3, -2).reshape(*batch, n, h * d)
    print(merged)
'''},
 # ---------------------------------------------------------------- attend_heads
 {"exercise": "attend_heads", "kind": "correct",
  "idea": "all three bugs fixed, with einsum for the scores and the weighted sum",
  "code": '''
import math
import numpy as np
import mha
def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = np.einsum("...qd,...kd->...qk", q, k) / math.sqrt(q.shape[-1])
    weights = mha.softmax(scores, axis=-1)
    return np.einsum("...qk,...kd->...qd", weights, v), weights
'''},
 {"exercise": "attend_heads", "kind": "correct",
  "idea": "rewritten as the loop over heads on column blocks, stacked on axis -3",
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
        o, w = mha.scaled_dot_product_attention(q_i, k_i, v_i)
        heads.append(o)
        weights.append(w)
    return np.stack(heads, axis=-3), np.stack(weights, axis=-3)
'''},
 {"exercise": "attend_heads", "kind": "wrong",
  "mistake": "fixed the split of q and the softmax axis, but still scales by sqrt(d_model)",
  "teacher_says": "Each head's queries and keys are d_k wide: divide by sqrt(d_k) (q.shape[-1]), not sqrt(d_model).",
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
 {"exercise": "attend_heads", "kind": "wrong",
  "mistake": "fixed the split and the scale, but kept the softmax over axis -2",
  "teacher_says": "Each query's weights (a row) must sum to 1: the softmax is over the keys, axis=-1.",
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
  "mistake": "fixed the scale and the softmax axis, but kept the bare reshape of the queries",
  "teacher_says": "q must be split like k and v: mha.split_heads(x @ params.w_q, h); the reshape without a transpose mixes tokens.",
  "code": '''
import mha
def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = (x @ params.w_q).reshape(*batch, h, n, -1)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / params.d_k ** 0.5
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
 {"exercise": "attend_heads", "kind": "wrong",
  "mistake": "made q, k and v consistent by reshaping all three without the transpose (the wrong one of the two ways), and fixed the scale and the axis",
  "teacher_says": "The inconsistency is real, but the reshape is the bug: split all three with split_heads (reshape to (..., n, h, d), then swap axes).",
  "code": '''
import mha
def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = (x @ params.w_q).reshape(*batch, h, n, -1)
    k = (x @ params.w_k).reshape(*batch, h, n, -1)
    v = (x @ params.w_v).reshape(*batch, h, n, -1)
    scores = q @ k.swapaxes(-1, -2) / q.shape[-1] ** 0.5
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
 {"exercise": "attend_heads", "kind": "wrong",
  "mistake": "replaced sqrt(d_model) by d_model / h, i.e. divides by d_k instead of sqrt(d_k)",
  "teacher_says": "d_model / h is d_k itself; the scale is its square root, (d_model / h) ** 0.5.",
  "code": '''
import mha
def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / (d_model / h)
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
 {"exercise": "attend_heads", "kind": "robustness",
  "idea": "casts the input to float64 'for precision'",
  "mistake": "converts x to float64 first, so float32 parameters give float64 heads and weights",
  "teacher_says": "Keep the dtype of the inputs: drop the astype, or cast the results back to x.dtype.",
  "code": '''
import numpy as np
import mha
def attend_heads(x, params):
    x = x.astype(np.float64)
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q.astype(np.float64), h)
    k = mha.split_heads(x @ params.w_k.astype(np.float64), h)
    v = mha.split_heads(x @ params.w_v.astype(np.float64), h)
    scores = q @ k.swapaxes(-1, -2) / np.sqrt(q.shape[-1])
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
 # ------------------------------------------------------------ split_heads_shape
 {"exercise": "split_heads_shape", "kind": "correct",
  "idea": "computes the head width with integer division inside the tuple",
  "code": '''
B, n, d_model, h = 2, 10, 768, 12
split_heads_shape = (B, h, n, d_model // h)
'''},
 {"exercise": "split_heads_shape", "kind": "correct",
  "idea": "does the reshape and swap on an empty array and reads the shape",
  "code": '''
import numpy as np
split_heads_shape = tuple(np.empty((2, 10, 768)).reshape(2, 10, 12, -1).swapaxes(1, 2).shape)
'''},
 {"exercise": "split_heads_shape", "kind": "wrong",
  "mistake": "forgets the transpose: gives the shape after the reshape only, (B, n, h, d)",
  "teacher_says": "split_heads moves the heads axis in front of the tokens: (2, 12, 10, 64).",
  "code": '''
split_heads_shape = (2, 10, 12, 64)
'''},
 {"exercise": "split_heads_shape", "kind": "wrong",
  "mistake": "puts the heads axis before the batch axis",
  "teacher_says": "The batch stays the first axis; the heads axis goes just before the sequence axis: (2, 12, 10, 64).",
  "code": '''
split_heads_shape = (12, 2, 10, 64)
'''},
 {"exercise": "split_heads_shape", "kind": "wrong",
  "mistake": "keeps the full feature width per head instead of dividing it by the number of heads",
  "teacher_says": "Each of the 12 heads gets 768 / 12 = 64 features, not 768.",
  "code": '''
split_heads_shape = (2, 12, 10, 768)
'''},
 {"exercise": "split_heads_shape", "kind": "wrong",
  "mistake": "folds the heads into the batch axis (B*h, n, d), as some PyTorch internals do",
  "teacher_says": "This book's split_heads keeps a separate heads axis: (B, h, n, d) = (2, 12, 10, 64).",
  "code": '''
split_heads_shape = (2 * 12, 10, 768 // 12)
'''},
 {"exercise": "split_heads_shape", "kind": "wrong",
  "mistake": "swaps the sequence and head-width axes at the end, (B, h, d, n)",
  "teacher_says": "Each head is a (n, d) matrix, one row per token: (2, 12, 10, 64).",
  "code": '''
split_heads_shape = (2, 12, 64, 10)
'''},
 {"exercise": "split_heads_shape", "kind": "robustness",
  "idea": "a list instead of a tuple",
  "mistake": "assigns a list [2, 12, 10, 64] where a tuple is asked for (a list never equals a shape tuple)",
  "teacher_says": "Use parentheses: shapes are tuples, and [2, 12, 10, 64] == (2, 12, 10, 64) is False in Python.",
  "code": '''
split_heads_shape = [2, 12, 10, 64]
'''},
]
