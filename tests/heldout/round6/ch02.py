ANSWERS = [
 # ------------------------------------------------------------------ head_weight
 {"exercise": "head_weight", "kind": "correct",
  "idea": "np.split into num_heads equal column blocks and pick block i",
  "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    return np.split(w, num_heads, axis=1)[i]
'''},
 {"exercise": "head_weight", "kind": "correct",
  "idea": "reshape the columns into (num_heads, d) and index the head axis",
  "code": '''
def head_weight(w, i, num_heads):
    d_in, cols = w.shape
    return w.reshape(d_in, num_heads, cols // num_heads)[:, i, :]
'''},
 {"exercise": "head_weight", "kind": "wrong",
  "mistake": "Takes a block of rows and transposes it to make the shape look right, instead of taking a block of columns.",
  "teacher_says": "Head i's outputs are columns i*d:(i+1)*d of W (x @ W): slice w[:, i*d:(i+1)*d], no transpose.",
  "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[i * d:(i + 1) * d, :].T
'''},
 {"exercise": "head_weight", "kind": "wrong",
  "mistake": "Assumes the heads are interleaved and takes every num_heads-th column starting at i.",
  "teacher_says": "The fused matrix puts each head's columns side by side in one contiguous block: w[:, i*d:(i+1)*d], not a stride.",
  "code": '''
def head_weight(w, i, num_heads):
    return w[:, i::num_heads]
'''},
 {"exercise": "head_weight", "kind": "wrong",
  "mistake": "Counts heads from 1 as the paper does, so it returns the previous head's block (and an empty block for i = 0).",
  "teacher_says": "In code heads are counted from 0: head i owns columns i*d to (i+1)*d.",
  "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, (i - 1) * d:i * d]
'''},
 {"exercise": "head_weight", "kind": "wrong",
  "mistake": "Computes the head width from the number of rows (d_in) instead of the number of columns (h*d).",
  "teacher_says": "d is the number of columns divided by the number of heads, w.shape[1] // num_heads; the rows are the input features.",
  "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[0] // num_heads
    return w[:, i * d:(i + 1) * d]
'''},
 {"exercise": "head_weight", "kind": "wrong",
  "mistake": "Reshapes the whole matrix to (num_heads, d_in, d) and takes slice i, which cuts the row-major data into chunks instead of column blocks.",
  "teacher_says": "A reshape keeps row-major order: to separate column blocks reshape to (d_in, h, d) and index the middle axis, or slice the columns.",
  "code": '''
def head_weight(w, i, num_heads):
    d_in, cols = w.shape
    return w.reshape(num_heads, d_in, cols // num_heads)[i]
'''},
 {"exercise": "head_weight", "kind": "wrong",
  "mistake": "Uses an inclusive end index, as in MATLAB, and returns d + 1 columns.",
  "teacher_says": "Python slices exclude the end: w[:, i*d:(i+1)*d] already has d columns.",
  "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, i * d:(i + 1) * d + 1]
'''},
 {"exercise": "head_weight", "kind": "robustness",
  "idea": "builds the block row by row with list slicing",
  "mistake": "Returns a list of lists of Python floats instead of a NumPy array.",
  "teacher_says": "Return an array: slice the NumPy array directly (w[:, i*d:(i+1)*d]) instead of going through .tolist().",
  "code": '''
def head_weight(w, i, num_heads):
    d = len(w[0]) // num_heads
    return [row[i * d:(i + 1) * d] for row in w.tolist()]
'''},

 # ------------------------------------------------------------------ fuse_heads
 {"exercise": "fuse_heads", "kind": "correct",
  "idea": "preallocates the fused matrix and copies each head into its column block in a loop",
  "code": '''
import numpy as np

def fuse_heads(w_heads):
    d_in, d = w_heads[0].shape
    fused = np.empty((d_in, len(w_heads) * d), dtype=w_heads[0].dtype)
    for i, w in enumerate(w_heads):
        fused[:, i * d:(i + 1) * d] = w
    return fused
'''},
 {"exercise": "fuse_heads", "kind": "correct",
  "idea": "stacks the transposes vertically and transposes back",
  "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.vstack([w.T for w in w_heads]).T
'''},
 {"exercise": "fuse_heads", "kind": "wrong",
  "mistake": "Concatenates along axis 0, stacking the heads' matrices one below the other.",
  "teacher_says": "The columns are axis 1: np.concatenate(w_heads, axis=1) puts the heads side by side.",
  "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.concatenate(w_heads, axis=0)
'''},
 {"exercise": "fuse_heads", "kind": "wrong",
  "mistake": "Stacks the heads on a new last axis and flattens, which interleaves the heads' columns instead of keeping each head's block contiguous.",
  "teacher_says": "With the heads axis last, the reshape alternates heads column by column; stack on axis 1 (d_in, h, d) or concatenate along axis 1.",
  "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(w_heads, axis=-1)  # (d_in, d, h)
    return stacked.reshape(stacked.shape[0], -1)
'''},
 {"exercise": "fuse_heads", "kind": "wrong",
  "mistake": "Stacks into (h, d_in, d) and reshapes straight to (d_in, h*d) without moving the heads axis, which scrambles rows and heads.",
  "teacher_says": "A reshape does not move numbers: bring the heads axis next to the columns first, (d_in, h, d), then reshape.",
  "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(w_heads)  # (h, d_in, d)
    h, d_in, d = stacked.shape
    return stacked.reshape(d_in, h * d)
'''},
 {"exercise": "fuse_heads", "kind": "wrong",
  "mistake": "Transposes each head into (d, d_in) and concatenates along axis 1, giving a (d, h*d_in) matrix in the wrong layout.",
  "teacher_says": "The per-head matrices are already (d_in, d) in the x @ W layout: concatenate them as they are, along axis 1.",
  "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.concatenate([w.T for w in w_heads], axis=1)
'''},
 {"exercise": "fuse_heads", "kind": "wrong",
  "mistake": "Converts the list to one array of shape (h, d_in, d) and stops there.",
  "teacher_says": "The fused matrix is 2-D, (d_in, h*d): put the heads side by side along the columns, e.g. np.concatenate(w_heads, axis=1).",
  "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.array(w_heads)
'''},
 {"exercise": "fuse_heads", "kind": "robustness",
  "idea": "pops the heads off the list and concatenates them one by one",
  "mistake": "Empties the caller's list of matrices (list.pop) while building the result.",
  "teacher_says": "Do not consume the input list: iterate over it (or pass it to np.concatenate) without popping.",
  "code": '''
import numpy as np

def fuse_heads(w_heads):
    fused = w_heads.pop(0)
    while w_heads:
        fused = np.concatenate([fused, w_heads.pop(0)], axis=1)
    return fused
'''},

 # ------------------------------------------------------------------ split_in_proj
 {"exercise": "split_in_proj", "kind": "correct",
  "idea": "np.split into three row blocks and transpose each in a comprehension",
  "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    return tuple(block.T for block in np.split(in_proj_weight, 3, axis=0))
'''},
 {"exercise": "split_in_proj", "kind": "correct",
  "idea": "reshape to (3, d, d) and swap the last two axes of all three blocks at once",
  "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    blocks = in_proj_weight.reshape(3, d, d).transpose(0, 2, 1)
    return blocks[0], blocks[1], blocks[2]
'''},
 {"exercise": "split_in_proj", "kind": "wrong",
  "mistake": "Splits the three row blocks but forgets to transpose them out of nn.Linear's (out, in) layout.",
  "teacher_says": "Each block is W^T in PyTorch's layout; the book's W is its transpose: return w[0:d].T, w[d:2d].T, w[2d:].T.",
  "code": '''
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[0] // 3
    return in_proj_weight[:d], in_proj_weight[d:2 * d], in_proj_weight[2 * d:]
'''},
 {"exercise": "split_in_proj", "kind": "wrong",
  "mistake": "Assumes q, k and v are interleaved row by row and takes every third row.",
  "teacher_says": "PyTorch stacks the whole W^Q, then the whole W^K, then W^V: take contiguous blocks of d rows.",
  "code": '''
def split_in_proj(in_proj_weight):
    return tuple(in_proj_weight[i::3].T for i in range(3))
'''},
 {"exercise": "split_in_proj", "kind": "wrong",
  "mistake": "Divides the number of columns (d_model) by 3 instead of the number of rows (3 d_model), so the blocks are a third of the right size.",
  "teacher_says": "The stack has 3*d_model rows: d = in_proj_weight.shape[0] // 3 (or shape[1]).",
  "code": '''
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1] // 3
    w = in_proj_weight
    return w[:d].T, w[d:2 * d].T, w[2 * d:3 * d].T
'''},
 {"exercise": "split_in_proj", "kind": "wrong",
  "mistake": "Transposes the whole (3d, d) matrix first and then slices rows of the (d, 3d) transpose, so the blocks have the wrong shapes.",
  "teacher_says": "After the transpose the three matrices are column blocks: W.T[:, 0:d], W.T[:, d:2d], W.T[:, 2d:] (or slice rows first and transpose each).",
  "code": '''
def split_in_proj(in_proj_weight):
    wt = in_proj_weight.T
    d = wt.shape[0]
    return wt[:d], wt[d:2 * d], wt[2 * d:]
'''},
 {"exercise": "split_in_proj", "kind": "wrong",
  "mistake": "Transposes W^Q and W^V but forgets the .T on W^K (a copy-paste slip in one of three places).",
  "teacher_says": "All three blocks are in (out, in) layout: transpose each of them.",
  "code": '''
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[0] // 3
    w_q = in_proj_weight[0:d].T
    w_k = in_proj_weight[d:2 * d]
    w_v = in_proj_weight[2 * d:3 * d].T
    return w_q, w_k, w_v
'''},
 {"exercise": "split_in_proj", "kind": "robustness",
  "idea": "returns torch tensors because the weights came from a torch module",
  "mistake": "Converts the blocks to torch tensors, although the exercise asks for NumPy arrays.",
  "teacher_says": "Stay in NumPy: slice and transpose the array you were given and return the arrays.",
  "code": '''
import numpy as np
import torch

def split_in_proj(in_proj_weight):
    w = torch.from_numpy(np.ascontiguousarray(in_proj_weight))
    w_q, w_k, w_v = w.chunk(3, dim=0)
    return w_q.T, w_k.T, w_v.T
'''},

 # ------------------------------------------------------------------ projection_parameter_count
 {"exercise": "projection_parameter_count", "kind": "correct",
  "idea": "written out from d_model, h and d_k",
  "code": '''
d_model, h = 512, 8
d_k = d_v = d_model // h
projection_parameter_count = d_model * h * d_k + d_model * h * d_k + d_model * h * d_v
'''},
 {"exercise": "projection_parameter_count", "kind": "correct",
  "idea": "counts the entries of the package's initialised weights",
  "code": '''
import mha

p = mha.init_params(512, 8)
projection_parameter_count = int(p.w_q.size + p.w_k.size + p.w_v.size)
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong",
  "mistake": "Counts W^O too (four matrices instead of three).",
  "teacher_says": "The question is about W^Q, W^K and W^V only: 3 * 512 * 512.",
  "code": '''
projection_parameter_count = 4 * 512 * 512
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong",
  "mistake": "Adds three bias vectors although the question says no biases.",
  "teacher_says": "No biases here: only the 3 * 512 * 512 weights.",
  "code": '''
d_model = 512
projection_parameter_count = 3 * d_model * d_model + 3 * d_model
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong",
  "mistake": "Counts one head's three matrices (d_model x d_k) and forgets the other seven heads.",
  "teacher_says": "Each fused matrix is (d_model, h*d_k) = (512, 512): multiply by the number of heads.",
  "code": '''
d_model, h = 512, 8
d_k = d_model // h
projection_parameter_count = 3 * d_model * d_k
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong",
  "mistake": "Gives every head full-size (d_model x d_model) matrices and multiplies by h.",
  "teacher_says": "With d_k = d_model/h each head's matrices are d_model x d_k; together they are d_model x d_model per projection, whatever h is.",
  "code": '''
h, d_model = 8, 512
projection_parameter_count = h * 3 * d_model * d_model
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong",
  "mistake": "Counts only one of the three matrices.",
  "teacher_says": "W^Q, W^K and W^V are three separate matrices of 512 x 512 each.",
  "code": '''
projection_parameter_count = 512 * 512
'''},
 {"exercise": "projection_parameter_count", "kind": "robustness",
  "idea": "writes the number as a string",
  "mistake": "Assigns the string '786432' instead of an int.",
  "teacher_says": "Assign the number itself, 3 * 512 * 512, not its text.",
  "code": '''
projection_parameter_count = "786432"
'''},
]
