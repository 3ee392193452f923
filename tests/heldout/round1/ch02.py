ANSWERS = [
    # head_weight
    {"exercise": "head_weight", "kind": "correct", "idea": "reshape to (d_in, h, d) and index the head axis",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d_in, hd = w.shape
    return w.reshape(d_in, num_heads, hd // num_heads)[:, i, :]
'''},
    {"exercise": "head_weight", "kind": "correct", "idea": "np.split into num_heads column blocks",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    return np.split(w, num_heads, axis=1)[i].copy()
'''},
    {"exercise": "head_weight", "kind": "wrong", "mistake": "slices rows instead of columns",
     "teacher_says": "head i owns columns i*d:(i+1)*d of w, not rows",
     "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[0] // num_heads
    return w[i * d:(i + 1) * d, :]
'''},
    {"exercise": "head_weight", "kind": "wrong", "mistake": "interleaved columns w[:, i::h]",
     "teacher_says": "the heads own contiguous column blocks, not every h-th column",
     "code": '''
def head_weight(w, i, num_heads):
    return w[:, i::num_heads]
'''},
    {"exercise": "head_weight", "kind": "wrong", "mistake": "off by one: treats heads as counted from 1",
     "teacher_says": "heads are counted from 0: head i starts at column i*d",
     "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, (i - 1) * d:i * d]
'''},
    {"exercise": "head_weight", "kind": "wrong", "mistake": "uses num_heads as the block width d",
     "teacher_says": "d is the number of columns divided by num_heads, not num_heads itself",
     "code": '''
def head_weight(w, i, num_heads):
    d = num_heads
    return w[:, i * d:(i + 1) * d]
'''},
    {"exercise": "head_weight", "kind": "robustness", "idea": "returns a python list of lists",
     "mistake": "returns w[...].tolist()",
     "teacher_says": "return a NumPy array, not nested lists",
     "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, i * d:(i + 1) * d].tolist()
'''},
    # fuse_heads
    {"exercise": "fuse_heads", "kind": "correct", "idea": "np.hstack",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.hstack(list(w_heads))
'''},
    {"exercise": "fuse_heads", "kind": "correct", "idea": "stack on axis 1 then reshape (d_in, h, d) -> (d_in, h*d)",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    st = np.stack(w_heads, axis=1)
    return st.reshape(st.shape[0], -1)
'''},
    {"exercise": "fuse_heads", "kind": "wrong", "mistake": "concatenates along axis 0 (rows)",
     "teacher_says": "the columns of a (d_in, d) matrix are axis 1; axis 0 stacks them vertically into (h*d_in, d)",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.concatenate(w_heads, axis=0)
'''},
    {"exercise": "fuse_heads", "kind": "wrong", "mistake": "np.stack(axis=-1).reshape: interleaves the heads' columns",
     "teacher_says": "stacking on the last axis and reshaping puts head columns interleaved (column c of every head side by side); head i must own a contiguous block",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    st = np.stack(w_heads, axis=-1)
    return st.reshape(st.shape[0], -1)
'''},
    {"exercise": "fuse_heads", "kind": "wrong", "mistake": "sums the heads' matrices instead of joining them",
     "teacher_says": "fusing puts the heads side by side; summing gives a (d_in, d) matrix",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.sum(w_heads, axis=0)
'''},
    {"exercise": "fuse_heads", "kind": "wrong", "mistake": "reverses the head order",
     "teacher_says": "head 0 must own the first columns",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.concatenate(list(w_heads)[::-1], axis=1)
'''},
    # split_in_proj
    {"exercise": "split_in_proj", "kind": "correct", "idea": "transpose the whole thing, then split columns",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    w = np.asarray(in_proj_weight).T
    d = w.shape[0]
    return w[:, :d], w[:, d:2 * d], w[:, 2 * d:]
'''},
    {"exercise": "split_in_proj", "kind": "correct", "idea": "np.split rows into 3 then .T each",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    a, b, c = np.split(np.asarray(in_proj_weight), 3, axis=0)
    return a.T.copy(), b.T.copy(), c.T.copy()
'''},
    {"exercise": "split_in_proj", "kind": "wrong", "mistake": "forgets the transpose (PyTorch's (out, in) layout)",
     "teacher_says": "nn.Linear computes x @ weight.T: each block has to be transposed into the book's layout",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    w = np.asarray(in_proj_weight)
    d = w.shape[1]
    return w[:d], w[d:2 * d], w[2 * d:]
'''},
    {"exercise": "split_in_proj", "kind": "wrong", "mistake": "splits along columns instead of rows: blocks are (3d, d/3)...; uses reshape(d, 3, d) interleaving",
     "teacher_says": "the three weights are stacked one below the other: split the rows into three blocks of d",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    w = np.asarray(in_proj_weight)
    d = w.shape[1]
    r = w.reshape(d, 3, d)
    return r[:, 0, :].T, r[:, 1, :].T, r[:, 2, :].T
'''},
    {"exercise": "split_in_proj", "kind": "wrong", "mistake": "returns in order (k, q, v)",
     "teacher_says": "rows 0:d are W^Q, then W^K, then W^V; keep that order",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    w = np.asarray(in_proj_weight)
    d = w.shape[1]
    return w[d:2 * d].T, w[:d].T, w[2 * d:].T
'''},
    {"exercise": "split_in_proj", "kind": "robustness", "idea": "returns a list of three instead of a tuple, and torch tensors if given torch",
     "mistake": "returns a list [w_q, w_k, w_v] of torch tensors when given a tensor",
     "teacher_says": "return a tuple of NumPy arrays",
     "code": '''
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    return [in_proj_weight[i * d:(i + 1) * d].T for i in range(3)]
'''},
    # projection_parameter_count
    {"exercise": "projection_parameter_count", "kind": "correct", "idea": "3 * d_model * h * d_k",
     "code": '''
d_model, h = 512, 8
d_k = d_model // h
projection_parameter_count = 3 * d_model * h * d_k
'''},
    {"exercise": "projection_parameter_count", "kind": "correct", "idea": "literal",
     "code": '''
projection_parameter_count = 786432
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "counts one head's width only: 3*512*64",
     "teacher_says": "each matrix is (d_model, h*d_k) = (512, 512), not (512, 64)",
     "code": '''
projection_parameter_count = 3 * 512 * 64
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "includes W^O too (four matrices)",
     "teacher_says": "only W^Q, W^K, W^V: three matrices",
     "code": '''
projection_parameter_count = 4 * 512 * 512
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "multiplies by h once more: 3*512*512*8",
     "teacher_says": "the fused matrix already holds all heads; do not multiply by h again",
     "code": '''
projection_parameter_count = 3 * 512 * 512 * 8
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "adds biases although the question says no biases",
     "teacher_says": "no biases here",
     "code": '''
projection_parameter_count = 3 * (512 * 512 + 512)
'''},
    {"exercise": "split_in_proj", "kind": "wrong", "mistake": "transposes the whole (3d, d) matrix first and then takes its first d rows (mixes the three weights)",
     "teacher_says": "after the transpose the three weights sit side by side in columns, not rows: split the rows first, then transpose each block",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    wt = np.asarray(in_proj_weight).T  # (d, 3d)
    d = wt.shape[0]
    sq = wt.reshape(3 * d, d)  # back to (3d, d) rows, "as in the hint"
    return sq[:d], sq[d:2 * d], sq[2 * d:]
'''},
]
