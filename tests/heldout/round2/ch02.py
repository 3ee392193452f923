ANSWERS = [
    # ---------------- head_weight ----------------
    {"exercise": "head_weight", "kind": "correct", "idea": "column slice with d = columns // num_heads",
     "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, i * d:(i + 1) * d]
'''},
    {"exercise": "head_weight", "kind": "correct", "idea": "np.split along axis 1 and pick block i",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    return np.split(w, num_heads, axis=1)[i]
'''},
    {"exercise": "head_weight", "kind": "correct", "idea": "reshape to (d_in, h, d) and index the heads axis",
     "code": '''
def head_weight(w, i, num_heads):
    d_in, width = w.shape
    return w.reshape(d_in, num_heads, width // num_heads)[:, i, :]
'''},
    {"exercise": "head_weight", "kind": "wrong", "mistake": "takes d from the number of rows (d_in // h) instead of the columns: wrong when h*d != d_in",
     "teacher_says": "d is the number of columns divided by the number of heads; d_in is the input width and can differ",
     "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[0] // num_heads
    return w[:, i * d:(i + 1) * d]
'''},
    {"exercise": "head_weight", "kind": "wrong", "mistake": "counts heads from 1: returns head i-1's block (and the last block for i = 0)",
     "teacher_says": "heads are counted from 0: head i owns columns i*d to (i+1)*d",
     "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, (i - 1) * d:i * d] if i > 0 else w[:, -d:]
'''},
    {"exercise": "head_weight", "kind": "wrong", "mistake": "takes every h-th column (interleaved heads) instead of a contiguous block",
     "teacher_says": "head i's columns are contiguous, i*d to (i+1)*d; w[:, i::h] picks columns from every head",
     "code": '''
def head_weight(w, i, num_heads):
    return w[:, i::num_heads]
'''},
    {"exercise": "head_weight", "kind": "wrong", "mistake": "reshapes to (d_in, d, h) instead of (d_in, h, d): the same interleaving as a strided slice",
     "teacher_says": "the fused columns are head-major: reshape the last axis as (h, d), not (d, h)",
     "code": '''
def head_weight(w, i, num_heads):
    d_in, width = w.shape
    return w.reshape(d_in, width // num_heads, num_heads)[:, :, i]
'''},
    {"exercise": "head_weight", "kind": "wrong", "mistake": "slices rows and transposes to get the expected shape",
     "teacher_says": "a head's block is a block of columns, w[:, i*d:(i+1)*d]; rows transposed have the right shape only when d_in = h*d and the wrong content",
     "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[i * d:(i + 1) * d, :].T
'''},
    {"exercise": "head_weight", "kind": "robustness", "idea": "returns a torch tensor for a NumPy input",
     "mistake": "converts the block to a torch tensor",
     "teacher_says": "return a NumPy array like the input, not a torch tensor",
     "code": '''
import torch

def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return torch.from_numpy(w[:, i * d:(i + 1) * d].copy())
'''},
    # ---------------- fuse_heads ----------------
    {"exercise": "fuse_heads", "kind": "correct", "idea": "np.hstack",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.hstack(list(w_heads))
'''},
    {"exercise": "fuse_heads", "kind": "correct", "idea": "stack to (d_in, h, d) and reshape, head-major",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(w_heads, axis=1)  # (d_in, h, d)
    return stacked.reshape(stacked.shape[0], -1)
'''},
    {"exercise": "fuse_heads", "kind": "correct", "idea": "fill a preallocated array block by block in a loop",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    d_in, d = w_heads[0].shape
    out = np.empty((d_in, len(w_heads) * d), dtype=w_heads[0].dtype)
    for i, w in enumerate(w_heads):
        out[:, i * d:(i + 1) * d] = w
    return out
'''},
    {"exercise": "fuse_heads", "kind": "wrong", "mistake": "concatenates along axis 0 (rows): shape (h*d_in, d)",
     "teacher_says": "the heads sit side by side as columns: concatenate along axis 1",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.concatenate(w_heads, axis=0)
'''},
    {"exercise": "fuse_heads", "kind": "wrong", "mistake": "np.array(w_heads).reshape(d_in, -1): a reshape of (h, d_in, d) without moving the heads axis mixes rows",
     "teacher_says": "(h, d_in, d) reshaped to (d_in, h*d) reads the numbers in memory order, which puts head 0's rows side by side; move the heads axis first or concatenate along axis 1",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    a = np.array(w_heads)
    return a.reshape(a.shape[1], -1)
'''},
    {"exercise": "fuse_heads", "kind": "wrong", "mistake": "stacks on the last axis (d_in, d, h) before reshaping: columns interleaved across heads",
     "teacher_says": "head i must own columns i*d:(i+1)*d; stacking on the last axis interleaves the heads' columns",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    a = np.stack(w_heads, axis=-1)
    return a.reshape(a.shape[0], -1)
'''},
    {"exercise": "fuse_heads", "kind": "wrong", "mistake": "concatenates in reverse order (last head first)",
     "teacher_says": "keep the list's order: head 0 in the first columns",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.concatenate(w_heads[::-1], axis=1)
'''},
    {"exercise": "fuse_heads", "kind": "wrong", "mistake": "adds the heads' matrices instead of placing them side by side",
     "teacher_says": "fusing puts the blocks next to each other (shape (d_in, h*d)); a sum mixes them into one (d_in, d) matrix",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.sum(w_heads, axis=0)
'''},
    {"exercise": "fuse_heads", "kind": "robustness", "idea": "prints the fused matrix instead of returning it",
     "mistake": "prints and returns None",
     "teacher_says": "return the fused matrix; printing it gives the caller None",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    print(np.concatenate(w_heads, axis=1))
'''},
    # ---------------- split_in_proj ----------------
    {"exercise": "split_in_proj", "kind": "correct", "idea": "np.split into three row blocks, transpose each",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    w_q, w_k, w_v = np.split(in_proj_weight, 3, axis=0)
    return w_q.T, w_k.T, w_v.T
'''},
    {"exercise": "split_in_proj", "kind": "correct", "idea": "transpose the whole matrix first, then take column blocks",
     "code": '''
def split_in_proj(in_proj_weight):
    wt = in_proj_weight.T  # (d, 3d)
    d = wt.shape[0]
    return wt[:, :d].copy(), wt[:, d:2 * d].copy(), wt[:, 2 * d:].copy()
'''},
    {"exercise": "split_in_proj", "kind": "correct", "idea": "reshape to (3, d, d) and swap the last two axes",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    blocks = np.swapaxes(in_proj_weight.reshape(3, d, d), -1, -2)
    return blocks[0], blocks[1], blocks[2]
'''},
    {"exercise": "split_in_proj", "kind": "wrong", "mistake": "splits the rows but forgets the transpose (keeps PyTorch's (out, in) layout)",
     "teacher_says": "nn.Linear computes x @ weight.T: each block must be transposed to give the paper's x @ W",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    w_q, w_k, w_v = np.split(in_proj_weight, 3, axis=0)
    return w_q, w_k, w_v
'''},
    {"exercise": "split_in_proj", "kind": "wrong", "mistake": "transposes the whole matrix, then reshapes it to (3, d, d): the reshape mixes the three matrices",
     "teacher_says": "after the transpose the three matrices are column blocks; a reshape reads rows and mixes them; slice columns instead",
     "code": '''
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    blocks = in_proj_weight.T.reshape(3, d, d)
    return blocks[0], blocks[1], blocks[2]
'''},
    {"exercise": "split_in_proj", "kind": "wrong", "mistake": "assumes the order is (q, v, k)",
     "teacher_says": "in_proj_weight stacks W^Q, W^K, W^V in that order",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    w_q, w_v, w_k = np.split(in_proj_weight, 3, axis=0)
    return w_q.T, w_k.T, w_v.T
'''},
    {"exercise": "split_in_proj", "kind": "wrong", "mistake": "reshapes to (d, 3, d), as if the three matrices were interleaved row by row",
     "teacher_says": "the matrices are stacked one below the other: rows 0:d are W^Q, then W^K, then W^V; reshape as (3, d, d)",
     "code": '''
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    blocks = in_proj_weight.reshape(d, 3, d)
    return blocks[:, 0].T, blocks[:, 1].T, blocks[:, 2].T
'''},
    {"exercise": "split_in_proj", "kind": "wrong", "mistake": "splits along the columns (axis 1) and transposes: shapes (d/3... ) only fit if you guess, content wrong",
     "teacher_says": "the stacking is vertical, along axis 0 (shape (3d, d)); splitting columns cuts every matrix",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    sq = in_proj_weight.reshape(d, 3 * d)
    w_q, w_k, w_v = np.split(sq, 3, axis=1)
    return w_q.T, w_k.T, w_v.T
'''},
    {"exercise": "split_in_proj", "kind": "robustness", "idea": "returns torch tensors",
     "mistake": "converts the blocks to torch tensors",
     "teacher_says": "the input is a NumPy array and the book's layout is NumPy: return NumPy arrays",
     "code": '''
import numpy as np
import torch

def split_in_proj(in_proj_weight):
    return tuple(torch.from_numpy(np.ascontiguousarray(b.T)) for b in np.split(in_proj_weight, 3, axis=0))
'''},
    # ---------------- projection_parameter_count ----------------
    {"exercise": "projection_parameter_count", "kind": "correct", "idea": "3 * d_model**2",
     "code": '''
projection_parameter_count = 3 * 512 ** 2
'''},
    {"exercise": "projection_parameter_count", "kind": "correct", "idea": "three matrices of shape (d_model, h * d_k), d_k = 64",
     "code": '''
d_model, h = 512, 8
d_k = d_model // h
projection_parameter_count = 3 * d_model * (h * d_k)
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "counts W^O too (4 matrices)",
     "teacher_says": "the question is about W^Q, W^K and W^V only: 3 * 512**2",
     "code": '''
projection_parameter_count = 4 * 512 * 512
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "counts one head's projections only (d_k = 64 columns)",
     "teacher_says": "there are 8 heads; the fused matrices have h*d_k = 512 columns",
     "code": '''
projection_parameter_count = 3 * 512 * 64
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "multiplies by the number of heads as if each head had full-width matrices",
     "teacher_says": "each head has d_k = d_model/h columns; more heads do not mean more weights",
     "code": '''
projection_parameter_count = 3 * 512 * 512 * 8
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "adds biases although the question says no biases",
     "teacher_says": "no biases here: just the three weight matrices",
     "code": '''
projection_parameter_count = 3 * 512 * 512 + 3 * 512
'''},
    {"exercise": "projection_parameter_count", "kind": "robustness", "idea": "a float from 3 * 512**2 / 1",
     "mistake": "assigns a float (786432.0) where a whole number is expected",
     "teacher_says": "a parameter count is a whole number: use integer arithmetic",
     "code": '''
projection_parameter_count = 3 * 512 * (512 / 8) * 8
'''},
]

ANSWERS += [
    {"exercise": "predict_projection_parameters", "kind": "correct", "idea": "3 * d_model**2, independent of h",
     "code": "predict_projection_parameters = 3 * 64 ** 2\n"},
    {"exercise": "predict_projection_parameters", "kind": "correct", "idea": "3 matrices of (64, 16 * 4) written out",
     "code": "predict_projection_parameters = 3 * 64 * (16 * (64 // 16))\n"},
    {"exercise": "predict_projection_parameters", "kind": "wrong", "mistake": "thinks each head has full-size matrices (16 times more)",
     "teacher_says": "with d_k = d_model / h the fused matrices stay (64, 64): more heads, narrower heads",
     "code": "predict_projection_parameters = 16 * 3 * 64 ** 2\n"},
    {"exercise": "predict_projection_parameters", "kind": "wrong", "mistake": "counts one head's share only (d_k = 4 columns)",
     "teacher_says": "the question counts all heads together: 16 heads of 4 columns make 64 columns",
     "code": "predict_projection_parameters = 3 * 64 * 4\n"},
    {"exercise": "predict_projection_parameters", "kind": "wrong", "mistake": "includes W^O",
     "teacher_says": "the count is of W^Q, W^K and W^V only",
     "code": "predict_projection_parameters = 4 * 64 ** 2\n"},
    {"exercise": "predict_projection_parameters", "kind": "wrong", "mistake": "thinks the count falls as 1/h (12288 / 16)",
     "teacher_says": "the heads get narrower but there are more of them: the total stays 12288",
     "code": "predict_projection_parameters = 12288 // 16\n"},
]
