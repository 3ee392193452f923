ANSWERS = [
    {"exercise": "head_weight", "kind": "correct", "idea": "slice columns i*d:(i+1)*d",
     "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[-1] // num_heads
    return w[:, i * d:(i + 1) * d]
'''},
    {"exercise": "head_weight", "kind": "correct", "idea": "reshape (d_in, h, d) and index the head axis",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d_in, hd = w.shape
    return np.reshape(w, (d_in, num_heads, hd // num_heads))[:, i, :].copy()
'''},
    {"exercise": "head_weight", "kind": "wrong", "mistake": "slices rows instead of columns",
     "teacher_says": "the heads own column blocks of w (its second axis); you sliced rows",
     "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[0] // num_heads
    return w[i * d:(i + 1) * d, :]
'''},
    {"exercise": "head_weight", "kind": "wrong", "mistake": "reshape (d_in, d, h): heads interleaved, takes every h-th column",
     "teacher_says": "head i owns a contiguous block of columns; reshaping to (d_in, d, h) picks strided columns",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d_in, hd = w.shape
    return w.reshape(d_in, hd // num_heads, num_heads)[:, :, i]
'''},
    {"exercise": "head_weight", "kind": "wrong", "mistake": "heads counted from 1 (off by one)",
     "teacher_says": "heads are counted from 0: head i starts at column i*d, not (i-1)*d",
     "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, (i - 1) * d:i * d]
'''},
    {"exercise": "head_weight", "kind": "wrong", "mistake": "uses num_heads as the head size d",
     "teacher_says": "d is w.shape[1] // num_heads, not num_heads",
     "code": '''
def head_weight(w, i, num_heads):
    d = num_heads
    return w[:, i * d:(i + 1) * d]
'''},
    {"exercise": "fuse_heads", "kind": "correct", "idea": "np.concatenate along axis 1",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.concatenate(list(w_heads), axis=1)
'''},
    {"exercise": "fuse_heads", "kind": "correct", "idea": "preallocate and fill column blocks in a loop",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    d_in, d = w_heads[0].shape
    out = np.empty((d_in, len(w_heads) * d), dtype=np.result_type(*w_heads))
    for i, w in enumerate(w_heads):
        out[:, i * d:(i + 1) * d] = w
    return out
'''},
    {"exercise": "fuse_heads", "kind": "wrong", "mistake": "np.stack(...).reshape: interleaves heads' columns",
     "teacher_says": "stacking along the last axis then reshaping interleaves the columns; head i must own a contiguous block",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    s = np.stack(w_heads, axis=-1)  # (d_in, d, h)
    return s.reshape(s.shape[0], -1)
'''},
    {"exercise": "fuse_heads", "kind": "wrong", "mistake": "concatenates along axis 0 (rows): shape (h*d_in, d)",
     "teacher_says": "the heads sit side by side as columns: concatenate along axis=1",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.vstack(w_heads)
'''},
    {"exercise": "fuse_heads", "kind": "wrong", "mistake": "heads in reverse order",
     "teacher_says": "head 0 must own the first columns; you reversed the list",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.hstack(w_heads[::-1])
'''},
    {"exercise": "fuse_heads", "kind": "robustness", "idea": "returns a list of columns-blocks joined by python (list of lists)",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.concatenate(w_heads, axis=1).tolist()
'''},
    {"exercise": "split_in_proj", "kind": "correct", "idea": "np.split into 3 rows blocks and transpose",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    return tuple(b.T for b in np.split(in_proj_weight, 3, axis=0))
'''},
    {"exercise": "split_in_proj", "kind": "correct", "idea": "reshape (3, d, d) then swapaxes",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    w = np.swapaxes(in_proj_weight.reshape(3, d, d), 1, 2)
    return [np.ascontiguousarray(w[0]), np.ascontiguousarray(w[1]), np.ascontiguousarray(w[2])]
'''},
    {"exercise": "split_in_proj", "kind": "wrong", "mistake": "forgets the transpose (nn.Linear's (out, in) layout)",
     "teacher_says": "torch stores (out, in); x @ w needs (in, out): transpose each block",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    return tuple(np.split(in_proj_weight, 3, axis=0))
'''},
    {"exercise": "split_in_proj", "kind": "wrong", "mistake": "reshapes (3d, d) to (d, 3d) and splits columns: scrambles rows",
     "teacher_says": "the three matrices are stacked along the first axis (3*d_model rows); split rows, not columns",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    w = in_proj_weight.reshape(d, 3 * d)
    return w[:, :d].T, w[:, d:2 * d].T, w[:, 2 * d:].T
'''},
    {"exercise": "split_in_proj", "kind": "wrong", "mistake": "order assumed (k, q, v)",
     "teacher_says": "in_proj_weight stacks W_q, W_k, W_v in that order",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    a, b, c = np.split(in_proj_weight, 3)
    return b.T, a.T, c.T
'''},
    {"exercise": "split_in_proj", "kind": "wrong", "mistake": "reshape (d, 3, d): treats the stack as interleaved rows",
     "teacher_says": "rows 0..d-1 are W_q, d..2d-1 W_k, 2d..3d-1 W_v; reshape to (3, d, d), not (d, 3, d)",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    w = in_proj_weight.reshape(d, 3, d)
    return w[:, 0].T, w[:, 1].T, w[:, 2].T
'''},
    {"exercise": "projection_parameter_count", "kind": "correct", "idea": "3 * 512 * 512",
     "code": '''
projection_parameter_count = 3 * 512 * 512
'''},
    {"exercise": "projection_parameter_count", "kind": "correct", "idea": "per head sum: 3 * h * d_model * d_k",
     "code": '''
d_model, h = 512, 8
projection_parameter_count = sum(3 * d_model * (d_model // h) for _ in range(h))
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "counts one head only",
     "teacher_says": "each of the 8 heads has its own blocks: multiply by h (or count the fused 512x512 matrices)",
     "code": '''
projection_parameter_count = 3 * 512 * 64
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "includes W^O too (4 matrices)",
     "teacher_says": "the question asks about W^Q, W^K and W^V only; W^O is the output projection",
     "code": '''
projection_parameter_count = 4 * 512 * 512
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "multiplies by h again, thinking each head has a full d_model x d_model matrix",
     "teacher_says": "each head's block is 512x64, not 512x512: with d_k = d_model/h the total does not grow with h",
     "code": '''
projection_parameter_count = 3 * 8 * 512 * 512
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "added biases (3*512)",
     "teacher_says": "no biases in this count",
     "code": '''
projection_parameter_count = 3 * 512 * 512 + 3 * 512
'''},
]
ANSWERS.append({"exercise": "fuse_heads", "kind": "wrong", "mistake": "sums the heads' matrices (shape (d_in, d))",
     "teacher_says": "fusing puts the heads side by side: shape (d_in, h*d), not their sum",
     "code": "\nimport numpy as np\n\ndef fuse_heads(w_heads):\n    return np.sum(w_heads, axis=0)\n"})
