ANSWERS = [
 # ------------------------------------------------------------------ head_weight
 {"exercise": "head_weight", "kind": "correct", "idea": "np.split into num_heads equal column blocks and pick block i",
  "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    return np.split(w, num_heads, axis=1)[i]
'''},
 {"exercise": "head_weight", "kind": "correct", "idea": "reshape the columns into (num_heads, d) and index the head axis",
  "code": '''
def head_weight(w, i, num_heads):
    d_in, total = w.shape
    return w.reshape(d_in, num_heads, total // num_heads)[:, i, :]
'''},
 {"exercise": "head_weight", "kind": "wrong", "mistake": "Took a block of rows and transposed it to 'make the shapes fit' instead of taking a block of columns.",
  "teacher_says": "Head i owns columns i*d:(i+1)*d of the fused matrix: w[:, i*d:(i+1)*d]; a row block transposed has the wrong content.",
  "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[i * d:(i + 1) * d, :].T
'''},
 {"exercise": "head_weight", "kind": "wrong", "mistake": "Counted heads from 1 as in the formula, so head i gets the block of head i-1 (and head 0 an empty block).",
  "teacher_says": "In code heads are counted from 0: head i starts at column i*d, not (i-1)*d.",
  "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, (i - 1) * d:i * d]
'''},
 {"exercise": "head_weight", "kind": "wrong", "mistake": "Computed the head width from the number of rows (d_in) instead of the number of columns.",
  "teacher_says": "d is the number of columns divided by the number of heads, w.shape[1] // num_heads; d_in need not equal h*d.",
  "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[0] // num_heads
    return w[:, i * d:(i + 1) * d]
'''},
 {"exercise": "head_weight", "kind": "wrong", "mistake": "Reshaped the whole matrix to (num_heads, d_in, d) without a transpose, which cuts the row-major data into chunks of rows, not column blocks.",
  "teacher_says": "A bare reshape keeps row-major order: reshape the columns to (d_in, h, d) and index axis 1, or slice the columns.",
  "code": '''
def head_weight(w, i, num_heads):
    d_in = w.shape[0]
    d = w.shape[1] // num_heads
    return w.reshape(num_heads, d_in, d)[i]
'''},
 {"exercise": "head_weight", "kind": "wrong", "mistake": "Used true division for the head width, so the slice bounds are floats and slicing raises a TypeError.",
  "teacher_says": "Use integer division, w.shape[1] // num_heads: slice indices must be integers.",
  "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] / num_heads
    return w[:, i * d:(i + 1) * d]
'''},
 {"exercise": "head_weight", "kind": "wrong", "mistake": "Assumed the heads are interleaved and took every num_heads-th column starting at i.",
  "teacher_says": "The fused matrix puts each head's columns side by side as one contiguous block, columns i*d to (i+1)*d, not a strided selection.",
  "code": '''
def head_weight(w, i, num_heads):
    return w[:, i::num_heads]
'''},
 {"exercise": "head_weight", "kind": "robustness", "idea": "return the block as nested Python lists",
  "mistake": "Right numbers, but returns a list of lists (.tolist()) instead of a NumPy array.",
  "teacher_says": "Return the array itself (the slice); converting to lists loses the dtype and the array methods.",
  "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, i * d:(i + 1) * d].tolist()
'''},

 # ------------------------------------------------------------------ fuse_heads
 {"exercise": "fuse_heads", "kind": "correct", "idea": "stack along a new middle axis (d_in, h, d), then reshape to (d_in, h*d)",
  "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(w_heads, axis=1)
    d_in = stacked.shape[0]
    return stacked.reshape(d_in, -1)
'''},
 {"exercise": "fuse_heads", "kind": "correct", "idea": "preallocate the fused matrix and copy each head into its column block in a loop",
  "code": '''
import numpy as np

def fuse_heads(w_heads):
    d_in, d = w_heads[0].shape
    h = len(w_heads)
    fused = np.empty((d_in, h * d), dtype=np.result_type(*w_heads))
    for i, block in enumerate(w_heads):
        fused[:, i * d:(i + 1) * d] = block
    return fused
'''},
 {"exercise": "fuse_heads", "kind": "wrong", "mistake": "Concatenated along axis 0, stacking the heads' matrices one below the other.",
  "teacher_says": "Columns are axis 1: np.concatenate(w_heads, axis=1) puts the heads side by side, giving (d_in, h*d).",
  "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.concatenate(w_heads, axis=0)
'''},
 {"exercise": "fuse_heads", "kind": "wrong", "mistake": "Stacked the heads on the last axis before reshaping, which interleaves the heads' columns.",
  "teacher_says": "After np.stack(..., axis=-1) a row-major reshape puts column c of every head next to each other; stack on axis 1 or concatenate on axis 1.",
  "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(w_heads, axis=-1)
    return stacked.reshape(stacked.shape[0], -1)
'''},
 {"exercise": "fuse_heads", "kind": "wrong", "mistake": "Stacked to (h, d_in, d) and reshaped straight to (d_in, h*d), without moving the heads axis: rows of different heads get mixed.",
  "teacher_says": "A reshape does not move numbers; move the heads axis next to the columns first (transpose to (d_in, h, d)) or just concatenate on axis 1.",
  "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.array(w_heads)
    h, d_in, d = stacked.shape
    return stacked.reshape(d_in, h * d)
'''},
 {"exercise": "fuse_heads", "kind": "wrong", "mistake": "Concatenated the heads in reverse order, so head 0 ends up in the last column block.",
  "teacher_says": "Head i must own columns i*d:(i+1)*d, in the list's order: concatenate w_heads as given.",
  "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.concatenate(list(reversed(w_heads)), axis=1)
'''},
 {"exercise": "fuse_heads", "kind": "wrong", "mistake": "Turned the list into a 3-D array (h, d_in, d) and returned it without fusing.",
  "teacher_says": "The fused matrix is 2-D, (d_in, h*d): join the heads along the columns with np.concatenate(w_heads, axis=1).",
  "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.array(w_heads)
'''},
 {"exercise": "fuse_heads", "kind": "robustness", "idea": "build the result with torch.cat",
  "mistake": "Right numbers, but returns a torch tensor instead of a NumPy array.",
  "teacher_says": "Stay in NumPy here: np.concatenate(w_heads, axis=1) returns an array of the inputs' kind.",
  "code": '''
import torch

def fuse_heads(w_heads):
    return torch.cat([torch.as_tensor(w) for w in w_heads], dim=1)
'''},

 # ------------------------------------------------------------------ split_in_proj
 {"exercise": "split_in_proj", "kind": "correct", "idea": "reshape to (3, d, d) and swap the last two axes of each block",
  "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    blocks = in_proj_weight.reshape(3, d, d).transpose(0, 2, 1)
    return blocks[0], blocks[1], blocks[2]
'''},
 {"exercise": "split_in_proj", "kind": "correct", "idea": "transpose the whole stacked matrix once, then split its columns into three",
  "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    paper = in_proj_weight.T
    d = paper.shape[0]
    return [paper[:, :d], paper[:, d:2 * d], paper[:, 2 * d:]]
'''},
 {"exercise": "split_in_proj", "kind": "wrong", "mistake": "Split the rows correctly but forgot that nn.Linear stores (out, in): the blocks are returned untransposed.",
  "teacher_says": "PyTorch computes x @ W.T; to get x @ w_q in the paper's layout, transpose each block: in_proj_weight[0:d].T.",
  "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    w_q, w_k, w_v = np.split(in_proj_weight, 3, axis=0)
    return w_q, w_k, w_v
'''},
 {"exercise": "split_in_proj", "kind": "wrong", "mistake": "Assumed Q, K and V rows are interleaved and took every third row.",
  "teacher_says": "in_proj_weight stacks the three matrices as contiguous blocks: rows 0:d are W^Q, d:2d W^K, 2d:3d W^V.",
  "code": '''
def split_in_proj(in_proj_weight):
    return (in_proj_weight[0::3].T, in_proj_weight[1::3].T, in_proj_weight[2::3].T)
'''},
 {"exercise": "split_in_proj", "kind": "wrong", "mistake": "Copy-paste slip in the slice bounds: the key and value blocks are swapped.",
  "teacher_says": "The order is Q, K, V: W^K is rows d:2d and W^V rows 2d:3d.",
  "code": '''
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[0] // 3
    w_q = in_proj_weight[0:d].T
    w_k = in_proj_weight[2 * d:3 * d].T
    w_v = in_proj_weight[d:2 * d].T
    return w_q, w_k, w_v
'''},
 {"exercise": "split_in_proj", "kind": "wrong", "mistake": "Took d_model from the number of rows (3*d_model), so the first slice is the whole matrix and the other two are empty.",
  "teacher_says": "The matrix is (3*d_model, d_model): d_model is shape[1], or shape[0] // 3.",
  "code": '''
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[0]
    return (in_proj_weight[0:d].T, in_proj_weight[d:2 * d].T, in_proj_weight[2 * d:3 * d].T)
'''},
 {"exercise": "split_in_proj", "kind": "wrong", "mistake": "Transposed the stacked matrix first and then reshaped it to (3, d, d), which cuts the transposed data into the wrong blocks.",
  "teacher_says": "After .T the three matrices sit side by side in columns; a reshape reads rows. Split first, then transpose each block.",
  "code": '''
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    blocks = in_proj_weight.T.reshape(3, d, d)
    return tuple(blocks)
'''},
 {"exercise": "split_in_proj", "kind": "robustness", "idea": "return a generator expression",
  "mistake": "Right blocks, but returns a generator (parentheses around a comprehension) instead of a tuple or list: it can be read only once and has no len().",
  "teacher_says": "Wrap it in tuple(...) or return the three arrays explicitly.",
  "code": '''
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    return (in_proj_weight[j * d:(j + 1) * d].T for j in range(3))
'''},

 # ------------------------------------------------------------------ projection_parameter_count
 {"exercise": "projection_parameter_count", "kind": "correct", "idea": "spell out d_k and h*d_k, three matrices of d_model x h*d_k",
  "code": '''
d_model, h = 512, 8
d_k = d_model // h
projection_parameter_count = 3 * d_model * (h * d_k)
'''},
 {"exercise": "projection_parameter_count", "kind": "correct", "idea": "count the entries of the package's own initialised weights",
  "code": '''
import mha

p = mha.init_params(512, 8)
projection_parameter_count = p.w_q.size + p.w_k.size + p.w_v.size
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "Counted W^O as well (four matrices instead of three).",
  "teacher_says": "The question is about W^Q, W^K and W^V only: 3 * 512 * 512.",
  "code": '''
projection_parameter_count = 4 * 512 * 512
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "Counted one head's matrices (d_model x d_k each) instead of the fused ones.",
  "teacher_says": "Each of the 8 heads has its own d_model x d_k block: the fused matrix is d_model x (h*d_k) = 512 x 512.",
  "code": '''
d_model, h = 512, 8
projection_parameter_count = 3 * d_model * (d_model // h)
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "Multiplied the full-width count by the number of heads, as if every head had its own d_model x d_model matrices.",
  "teacher_says": "With d_k = d_model/h, more heads means narrower heads: h*d_k = d_model, so the count does not grow with h.",
  "code": '''
projection_parameter_count = 3 * 512 * 512 * 8
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "Added bias vectors although the exercise says no biases.",
  "teacher_says": "Read the statement: no biases, so only the three weight matrices count.",
  "code": '''
d_model = 512
projection_parameter_count = 3 * d_model * d_model + 3 * d_model
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "Counted only W^Q.",
  "teacher_says": "W^Q, W^K and W^V together: three matrices of 512 x 512.",
  "code": '''
projection_parameter_count = 512 ** 2
'''},
 {"exercise": "projection_parameter_count", "kind": "robustness", "idea": "formatted with thousands separators",
  "mistake": "Right count, but stored as the string '786,432' instead of a number.",
  "teacher_says": "Assign the integer itself; format it only when printing.",
  "code": '''
projection_parameter_count = f"{3 * 512 * 512:,}"
'''},
]
