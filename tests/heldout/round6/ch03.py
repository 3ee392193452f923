ANSWERS = [
 # ------------------------------------------------------------------ split_heads
 {"exercise": "split_heads", "kind": "correct",
  "idea": "reshape with -1 for the head width, then np.moveaxis to bring the heads axis before the tokens",
  "code": '''
import numpy as np

def split_heads(x, num_heads):
    y = x.reshape(*x.shape[:-1], num_heads, -1)  # (..., n, h, d)
    return np.moveaxis(y, -2, -3)                # (..., h, n, d)
'''},
 {"exercise": "split_heads", "kind": "correct",
  "idea": "np.split the features into h column blocks and np.stack them on a new axis -3",
  "code": '''
import numpy as np

def split_heads(x, num_heads):
    blocks = np.split(x, num_heads, axis=-1)  # h arrays of (..., n, d)
    return np.stack(blocks, axis=-3)
'''},
 {"exercise": "split_heads", "kind": "wrong",
  "mistake": "Reshapes straight to (..., h, n, d) without the transpose, so each 'head' receives consecutive chunks of the row-major data and mixes tokens.",
  "teacher_says": "Reshape the last axis to (h, d) first, giving (..., n, h, d), then swap the n and h axes.",
  "code": '''
def split_heads(x, num_heads):
    *batch, n, features = x.shape
    return x.reshape(*batch, num_heads, n, features // num_heads)
'''},
 {"exercise": "split_heads", "kind": "wrong",
  "mistake": "Cuts each token's features into (d, h) instead of (h, d), so head i gets the interleaved features i, i+h, i+2h, ... instead of a contiguous block.",
  "teacher_says": "Head i owns features i*d:(i+1)*d: the last axis splits as (h, d), heads outermost.",
  "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    y = x.reshape(*batch, n, features // num_heads, num_heads)  # (..., n, d, h)
    return np.moveaxis(y, -1, -3)
'''},
 {"exercise": "split_heads", "kind": "wrong",
  "mistake": "Swaps the last two axes after the reshape, giving (..., n, d, h) instead of moving the heads before the tokens.",
  "teacher_says": "The axes to swap are the token axis and the heads axis, -3 and -2, not -2 and -1.",
  "code": '''
import numpy as np

def split_heads(x, num_heads):
    *batch, n, features = x.shape
    y = x.reshape(*batch, n, num_heads, features // num_heads)
    return np.swapaxes(y, -1, -2)
'''},
 {"exercise": "split_heads", "kind": "wrong",
  "mistake": "Swaps axes 0 and 1, which is right for a single (n, h*d) sequence but swaps the batch and token axes as soon as there is a batch axis.",
  "teacher_says": "Count the axes from the end (swapaxes(-3, -2)) so the code works for any number of leading axes.",
  "code": '''
def split_heads(x, num_heads):
    *batch, n, features = x.shape
    return x.reshape(*batch, n, num_heads, features // num_heads).swapaxes(0, 1)
'''},
 {"exercise": "split_heads", "kind": "wrong",
  "mistake": "Hard-codes a batch of sequences, (B, n, h*d) with transpose(0, 2, 1, 3): it crashes for an unbatched sequence or more leading axes.",
  "teacher_says": "Use *batch, n, features = x.shape and swap axes -3 and -2, which works for any number of leading axes.",
  "code": '''
def split_heads(x, num_heads):
    B, n, features = x.shape
    return x.reshape(B, n, num_heads, features // num_heads).transpose(0, 2, 1, 3)
'''},
 {"exercise": "split_heads", "kind": "robustness",
  "idea": "reshapes by assigning to x.shape to avoid a copy",
  "mistake": "Assigns to x.shape, which changes the shape of the caller's array in place.",
  "teacher_says": "Use x.reshape(...), which returns a new view; never change the shape of an array you were given.",
  "code": '''
def split_heads(x, num_heads):
    *batch, n, features = x.shape
    x.shape = (*batch, n, num_heads, features // num_heads)
    return x.swapaxes(-3, -2)
'''},

 # ------------------------------------------------------------------ merge_heads
 {"exercise": "merge_heads", "kind": "correct",
  "idea": "concatenates the heads along the feature axis, one slice x[..., i, :, :] per head",
  "code": '''
import numpy as np

def merge_heads(x):
    h = x.shape[-3]
    return np.concatenate([x[..., i, :, :] for i in range(h)], axis=-1)
'''},
 {"exercise": "merge_heads", "kind": "correct",
  "idea": "np.moveaxis then reshape with -1",
  "code": '''
import numpy as np

def merge_heads(x):
    y = np.moveaxis(x, -3, -2)  # (..., n, h, d)
    return y.reshape(*y.shape[:-2], -1)
'''},
 {"exercise": "merge_heads", "kind": "wrong",
  "mistake": "Reshapes (..., h, n, d) to (..., n, h*d) without moving the heads axis back, which interleaves tokens.",
  "teacher_says": "Undo the split in reverse order: swap axes -3 and -2 first, then reshape.",
  "code": '''
def merge_heads(x):
    *batch, h, n, d = x.shape
    return x.reshape(*batch, n, h * d)
'''},
 {"exercise": "merge_heads", "kind": "wrong",
  "mistake": "Swaps the last two axes (n and d) instead of the heads and token axes before reshaping.",
  "teacher_says": "The heads axis must go back behind the token axis: swapaxes(-3, -2), giving (..., n, h, d), then reshape.",
  "code": '''
def merge_heads(x):
    *batch, h, n, d = x.shape
    return x.swapaxes(-1, -2).reshape(*batch, n, h * d)
'''},
 {"exercise": "merge_heads", "kind": "wrong",
  "mistake": "Concatenates the heads along the token axis, giving (..., h*n, d) instead of (..., n, h*d).",
  "teacher_says": "Concat(head_1, ..., head_h) puts the heads side by side in the features: concatenate along axis -1.",
  "code": '''
import numpy as np

def merge_heads(x):
    return np.concatenate([x[..., i, :, :] for i in range(x.shape[-3])], axis=-2)
'''},
 {"exercise": "merge_heads", "kind": "wrong",
  "mistake": "Hard-codes four axes, B, h, n, d = x.shape: crashes for one sequence (h, n, d) or extra leading axes.",
  "teacher_says": "Unpack with *batch, h, n, d = x.shape and swap axes -3 and -2 so any number of leading axes works.",
  "code": '''
def merge_heads(x):
    B, h, n, d = x.shape
    return x.transpose(0, 2, 1, 3).reshape(B, n, h * d)
'''},
 {"exercise": "merge_heads", "kind": "wrong",
  "mistake": "Stacks the heads on a new last axis before flattening, so the features come out ordered (d, h), interleaved, instead of head 1's block first.",
  "teacher_says": "The merged features must be head 0's d features, then head 1's: the heads axis goes before d, (..., n, h, d).",
  "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    y = np.stack([x[..., i, :, :] for i in range(h)], axis=-1)  # (..., n, d, h)
    return y.reshape(*batch, n, h * d)
'''},
 {"exercise": "merge_heads", "kind": "wrong",
  "mistake": "Adds the heads together instead of concatenating them.",
  "teacher_says": "Concat keeps every head's features side by side, (..., n, h*d); the sum over heads only appears after W^O.",
  "code": '''
def merge_heads(x):
    return x.sum(axis=-3)
'''},
 {"exercise": "merge_heads", "kind": "robustness",
  "idea": "prints the merged array to look at it",
  "mistake": "Prints the result and returns None.",
  "teacher_says": "Return the array; printing it does not hand it back to the caller.",
  "code": '''
import numpy as np

def merge_heads(x):
    *batch, h, n, d = x.shape
    print(np.swapaxes(x, -3, -2).reshape(*batch, n, h * d))
'''},

 # ------------------------------------------------------------------ attend_heads
 {"exercise": "attend_heads", "kind": "correct",
  "idea": "the three fixes: split q like k and v, scale by sqrt(d_k) taken from the split queries, softmax over the keys",
  "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)  # (..., h, n, d_k)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    d_k = q.shape[-1]
    scores = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
 {"exercise": "attend_heads", "kind": "correct",
  "idea": "rewritten as a loop over the heads' column blocks with mha.scaled_dot_product_attention, stacked on axis -3",
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
        out_i, w_i = mha.scaled_dot_product_attention(q_i, k_i, v_i)
        heads.append(out_i)
        weights.append(w_i)
    return np.stack(heads, axis=-3), np.stack(weights, axis=-3)
'''},
 {"exercise": "attend_heads", "kind": "wrong",
  "mistake": "Fixes the scale and the softmax axis but keeps the plain reshape of the queries, which mixes tokens across heads.",
  "teacher_says": "The queries must be split like the keys and values: mha.split_heads(x @ params.w_q, h), not a reshape to (..., h, n, -1).",
  "code": '''
import math
import mha

def attend_heads(x, params):
    h = params.num_heads
    *batch, n, d_model = x.shape
    q = (x @ params.w_q).reshape(*batch, h, n, -1)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(params.d_k)
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
 {"exercise": "attend_heads", "kind": "wrong",
  "mistake": "Fixes the split and the softmax axis but still divides by sqrt(d_model), making each head's weights too flat.",
  "teacher_says": "Each head's dot products have d_k terms: divide by sqrt(d_k) = sqrt(d_model / h), not sqrt(d_model).",
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
  "mistake": "Fixes the split and the scale but leaves the softmax over axis -2, so the weights sum to 1 over the queries.",
  "teacher_says": "Each query's weights must sum to 1 over the keys: softmax over axis=-1.",
  "code": '''
import math
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])
    weights = mha.softmax(scores, axis=-2)
    return weights @ v, weights
'''},
 {"exercise": "attend_heads", "kind": "wrong",
  "mistake": "Replaces d_model**0.5 by d_k without the square root.",
  "teacher_says": "The scale is 1/sqrt(d_k): keep the square root, only change d_model to d_k.",
  "code": '''
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / params.d_k
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
 {"exercise": "attend_heads", "kind": "wrong",
  "mistake": "Fixes the three bugs but also 'fixes' the projections by transposing the weights (x @ w.T), which runs because the matrices are square and computes other projections.",
  "teacher_says": "The book stores weights in the paper's layout: x @ params.w_q, no transpose (that is PyTorch's nn.Linear layout).",
  "code": '''
import math
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q.T, h)
    k = mha.split_heads(x @ params.w_k.T, h)
    v = mha.split_heads(x @ params.w_v.T, h)
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(params.d_k)
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
 {"exercise": "attend_heads", "kind": "wrong",
  "mistake": "Fixes the three bugs but merges the heads before returning, giving (..., n, h*d_v) instead of the per-head outputs (..., h, n, d_v).",
  "teacher_says": "The function returns every head's output separately, (..., h, n, d_v); merging is the next step (chapter 4), not this function's.",
  "code": '''
import math
import mha

def attend_heads(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(params.d_k)
    weights = mha.softmax(scores, axis=-1)
    return mha.merge_heads(weights @ v), weights
'''},
 {"exercise": "attend_heads", "kind": "robustness",
  "idea": "folds the 1/sqrt(d_k) into W^Q to save a division",
  "mistake": "Divides params.w_q in place, so the caller's weights change and every later call (or any other use of params) is wrong.",
  "teacher_says": "Never modify the parameters you are given: divide the scores (or a copy of W^Q), not params.w_q itself.",
  "code": '''
import math
import mha

def attend_heads(x, params):
    h = params.num_heads
    w_q = params.w_q
    w_q /= math.sqrt(params.d_k)  # scale folded into W^Q
    q = mha.split_heads(x @ w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    weights = mha.softmax(q @ k.swapaxes(-1, -2), axis=-1)
    return weights @ v, weights
'''},

 # ------------------------------------------------------------------ split_heads_shape
 {"exercise": "split_heads_shape", "kind": "correct",
  "idea": "named sizes, heads axis before the sequence axis",
  "code": '''
B, n, d_model, h = 2, 10, 768, 12
split_heads_shape = (B, h, n, d_model // h)
'''},
 {"exercise": "split_heads_shape", "kind": "correct",
  "idea": "reads it off a reshape and swapaxes of an empty array of the right shape",
  "code": '''
import numpy as np

x = np.empty((2, 10, 768))
split_heads_shape = tuple(x.reshape(2, 10, 12, -1).swapaxes(1, 2).shape)
'''},
 {"exercise": "split_heads_shape", "kind": "wrong",
  "mistake": "Gives the shape after the reshape but before the transpose, (B, n, h, d).",
  "teacher_says": "split_heads moves the heads axis before the sequence axis: (2, 12, 10, 64).",
  "code": '''
split_heads_shape = (2, 10, 12, 64)
'''},
 {"exercise": "split_heads_shape", "kind": "wrong",
  "mistake": "Puts the heads axis first, before the batch axis.",
  "teacher_says": "The leading (batch) axes stay in front; the heads axis goes just before the sequence axis: (2, 12, 10, 64).",
  "code": '''
split_heads_shape = (12, 2, 10, 64)
'''},
 {"exercise": "split_heads_shape", "kind": "wrong",
  "mistake": "Forgets to divide the features by the number of heads.",
  "teacher_says": "Each head gets 768 / 12 = 64 features, not all 768.",
  "code": '''
split_heads_shape = (2, 12, 10, 768)
'''},
 {"exercise": "split_heads_shape", "kind": "wrong",
  "mistake": "Swaps the last two axes, giving (B, h, d, n).",
  "teacher_says": "Inside a head the tokens are rows and the features columns: (..., h, n, d) = (2, 12, 10, 64).",
  "code": '''
split_heads_shape = (2, 12, 64, 10)
'''},
 {"exercise": "split_heads_shape", "kind": "wrong",
  "mistake": "Folds the heads into the batch axis, as some libraries do, giving (B*h, n, d).",
  "teacher_says": "split_heads keeps a separate heads axis: (2, 12, 10, 64).",
  "code": '''
split_heads_shape = (2 * 12, 10, 768 // 12)
'''},
 {"exercise": "split_heads_shape", "kind": "robustness",
  "idea": "writes the shape as a list",
  "mistake": "Assigns a list [2, 12, 10, 64] instead of a tuple.",
  "teacher_says": "Shapes are tuples: assign (2, 12, 10, 64).",
  "code": '''
split_heads_shape = [2, 12, 10, 64]
'''},
]
