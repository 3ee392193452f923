ANSWERS = [
 # ------------------------------------------------------------------ head_weight
 {"exercise": "head_weight", "kind": "correct",
  "idea": "np.split the columns into num_heads equal blocks and pick block i",
  "code": '''
import numpy as np
def head_weight(w, i, num_heads):
    return np.split(w, num_heads, axis=1)[i]
'''},
 {"exercise": "head_weight", "kind": "correct",
  "idea": "reshape the column axis into (h, d) and index the head axis",
  "code": '''
def head_weight(w, i, num_heads):
    d_in, total = w.shape
    return w.reshape(d_in, num_heads, total // num_heads)[:, i, :]
'''},
 {"exercise": "head_weight", "kind": "wrong",
  "mistake": "slices a block of rows and transposes it to get the right shape (right shape when d_in = h*d, wrong content)",
  "teacher_says": "Head i owns columns, not rows: w[:, i*d:(i+1)*d]. Transposing a block of rows only makes the shape fit.",
  "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[i * d:(i + 1) * d, :].T
'''},
 {"exercise": "head_weight", "kind": "wrong",
  "mistake": "takes every num_heads-th column starting at i, as if the heads were interleaved",
  "teacher_says": "The fused matrix puts head i's columns side by side, in one contiguous block: w[:, i*d:(i+1)*d], not w[:, i::num_heads].",
  "code": '''
def head_weight(w, i, num_heads):
    return w[:, i::num_heads]
'''},
 {"exercise": "head_weight", "kind": "wrong",
  "mistake": "computes the head width from the number of rows (d_in // h) instead of the number of columns",
  "teacher_says": "d is the number of columns divided by num_heads; the rows are d_in, which need not equal h*d.",
  "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[0] // num_heads
    return w[:, i * d:(i + 1) * d]
'''},
 {"exercise": "head_weight", "kind": "wrong",
  "mistake": "treats the end of the range as inclusive and stops one column early",
  "teacher_says": "Python slices exclude their end: i*d:(i+1)*d already gives exactly d columns; do not subtract 1.",
  "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, i * d:(i + 1) * d - 1]
'''},
 {"exercise": "head_weight", "kind": "wrong",
  "mistake": "reshapes the whole matrix to (h, d_in, d) and takes [i]: the right shape, but a reshape never moves numbers, so this is not head i's columns",
  "teacher_says": "Reshape only the column axis, w.reshape(d_in, h, d)[:, i], or slice the columns directly.",
  "code": '''
def head_weight(w, i, num_heads):
    d_in, total = w.shape
    return w.reshape(num_heads, d_in, total // num_heads)[i]
'''},
 {"exercise": "head_weight", "kind": "wrong",
  "mistake": "counts heads from 1 (as the formula does) although the exercise counts from 0",
  "teacher_says": "In code head 0 is the first block: columns i*d:(i+1)*d, without the -1.",
  "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, (i - 1) * d:i * d]
'''},
 {"exercise": "head_weight", "kind": "robustness",
  "idea": "converts the block to nested Python lists",
  "mistake": "returns a list of lists (tolist()) instead of a NumPy array",
  "teacher_says": "Return the array itself (a slice of w); a list has no shape or dtype and cannot be used with @.",
  "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, i * d:(i + 1) * d].tolist()
'''},
 # ------------------------------------------------------------------ fuse_heads
 {"exercise": "fuse_heads", "kind": "correct",
  "idea": "stack along a new middle axis, (d_in, h, d), then flatten the last two axes",
  "code": '''
import numpy as np
def fuse_heads(w_heads):
    stacked = np.stack(w_heads, axis=1)
    return stacked.reshape(stacked.shape[0], -1)
'''},
 {"exercise": "fuse_heads", "kind": "correct",
  "idea": "preallocate the fused matrix and copy each head into its column block in a loop",
  "code": '''
import numpy as np
def fuse_heads(w_heads):
    d_in, d = w_heads[0].shape
    fused = np.empty((d_in, len(w_heads) * d), dtype=w_heads[0].dtype)
    for i, w in enumerate(w_heads):
        fused[:, i * d:(i + 1) * d] = w
    return fused
'''},
 {"exercise": "fuse_heads", "kind": "wrong",
  "mistake": "concatenates along axis 0, stacking the heads one below the other",
  "teacher_says": "The columns are axis 1: np.concatenate(w_heads, axis=1) gives (d_in, h*d).",
  "code": '''
import numpy as np
def fuse_heads(w_heads):
    return np.concatenate(w_heads, axis=0)
'''},
 {"exercise": "fuse_heads", "kind": "wrong",
  "mistake": "stacks on the last axis and flattens, which interleaves the heads' columns",
  "teacher_says": "With np.stack(..., axis=-1) the heads vary fastest, so column j*h+i belongs to head i; stack on axis 1 (or concatenate) so that head i owns a contiguous block.",
  "code": '''
import numpy as np
def fuse_heads(w_heads):
    stacked = np.stack(w_heads, axis=-1)
    return stacked.reshape(stacked.shape[0], -1)
'''},
 {"exercise": "fuse_heads", "kind": "wrong",
  "mistake": "stacks the heads first, (h, d_in, d), then reshapes straight to (d_in, h*d) without moving the heads axis",
  "teacher_says": "A reshape does not move numbers: move the heads axis next to the columns first (np.stack(..., axis=1) or a transpose), then reshape.",
  "code": '''
import numpy as np
def fuse_heads(w_heads):
    stacked = np.stack(w_heads)
    h, d_in, d = stacked.shape
    return stacked.reshape(d_in, h * d)
'''},
 {"exercise": "fuse_heads", "kind": "wrong",
  "mistake": "builds PyTorch's (out, in) layout: transposes each head and stacks them vertically",
  "teacher_says": "This book uses the paper's layout x @ W: keep each head as (d_in, d) and put them side by side along the columns.",
  "code": '''
import numpy as np
def fuse_heads(w_heads):
    return np.concatenate([w.T for w in w_heads], axis=0)
'''},
 {"exercise": "fuse_heads", "kind": "wrong",
  "mistake": "stops after np.stack(..., axis=1) and returns the 3-D array (d_in, h, d)",
  "teacher_says": "The fused matrix is 2-D: reshape the (d_in, h, d) stack to (d_in, h*d).",
  "code": '''
import numpy as np
def fuse_heads(w_heads):
    return np.stack(w_heads, axis=1)
'''},
 {"exercise": "fuse_heads", "kind": "robustness",
  "idea": "grows the fused matrix by popping heads off the list",
  "mistake": "pops the heads off the caller's list while concatenating: the result is right but the list passed in is left empty",
  "teacher_says": "Do not consume the argument: iterate over w_heads (or concatenate it) without pop.",
  "code": '''
import numpy as np
def fuse_heads(w_heads):
    fused = w_heads.pop(0)
    while w_heads:
        fused = np.concatenate([fused, w_heads.pop(0)], axis=1)
    return fused
'''},
 # ---------------------------------------------------------------- split_in_proj
 {"exercise": "split_in_proj", "kind": "correct",
  "idea": "transpose the whole stack once, (d, 3d), and split its columns into three",
  "code": '''
import numpy as np
def split_in_proj(in_proj_weight):
    return tuple(np.split(in_proj_weight.T, 3, axis=1))
'''},
 {"exercise": "split_in_proj", "kind": "correct",
  "idea": "reshape to (3, d, d) and transpose the last two axes of each block",
  "code": '''
import numpy as np
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    blocks = in_proj_weight.reshape(3, d, d).transpose(0, 2, 1)
    w_q, w_k, w_v = blocks
    return w_q, w_k, w_v
'''},
 {"exercise": "split_in_proj", "kind": "wrong",
  "mistake": "takes the three row blocks but keeps PyTorch's (out, in) layout: no transpose",
  "teacher_says": "nn.Linear computes x @ weight.T, so the paper's W^Q is the transpose of the block: in_proj_weight[0:d].T.",
  "code": '''
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    return (in_proj_weight[:d], in_proj_weight[d:2 * d], in_proj_weight[2 * d:])
'''},
 {"exercise": "split_in_proj", "kind": "wrong",
  "mistake": "takes every third row (interleaved) instead of three contiguous blocks of rows",
  "teacher_says": "in_proj_weight stacks W^Q, W^K, W^V one below the other: rows 0:d, d:2d, 2d:3d, not rows 0::3, 1::3, 2::3.",
  "code": '''
def split_in_proj(in_proj_weight):
    w = in_proj_weight
    return w[0::3].T, w[1::3].T, w[2::3].T
'''},
 {"exercise": "split_in_proj", "kind": "wrong",
  "mistake": "divides the wrong dimension by 3 (the columns, d) to get the block size",
  "teacher_says": "in_proj_weight is (3d, d): the block size is the number of rows divided by 3, which is the number of columns.",
  "code": '''
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1] // 3
    w = in_proj_weight
    return w[:d].T, w[d:2 * d].T, w[2 * d:3 * d].T
'''},
 {"exercise": "split_in_proj", "kind": "wrong",
  "mistake": "reshapes (3d, d) to (d, 3d) to get the paper's layout, then splits the columns: a reshape is not a transpose",
  "teacher_says": "To go from (out, in) to (in, out) you need a transpose (.T), which moves the numbers; reshape keeps them in the same order.",
  "code": '''
import numpy as np
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    paper = in_proj_weight.reshape(d, 3 * d)
    return paper[:, :d], paper[:, d:2 * d], paper[:, 2 * d:]
'''},
 {"exercise": "split_in_proj", "kind": "wrong",
  "mistake": "transposes the query block but forgets to transpose the key and value blocks",
  "teacher_says": "All three blocks are in nn.Linear's (out, in) layout: transpose each of them, not only W^Q.",
  "code": '''
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    w = in_proj_weight
    return w[:d].T, w[d:2 * d], w[2 * d:]
'''},
 {"exercise": "split_in_proj", "kind": "robustness",
  "idea": "returns a generator expression",
  "mistake": "returns a generator instead of a tuple or list: it unpacks once, but cannot be indexed, has no len() and is empty the second time",
  "teacher_says": "Wrap it in tuple(...) (or use a list): the exercise asks for a tuple or list of three arrays.",
  "code": '''
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    return (in_proj_weight[j * d:(j + 1) * d].T for j in range(3))
'''},
 # ---------------------------------------------------- projection_parameter_count
 {"exercise": "projection_parameter_count", "kind": "correct",
  "idea": "writes out d_model * (h * d_k) for each of the three matrices",
  "code": '''
d_model, h = 512, 8
d_k = d_model // h
projection_parameter_count = 3 * d_model * (h * d_k)
'''},
 {"exercise": "projection_parameter_count", "kind": "correct",
  "idea": "builds the weights with mha.init_params and counts their entries",
  "code": '''
import mha
p = mha.init_params(512, 8)
projection_parameter_count = p.w_q.size + p.w_k.size + p.w_v.size
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong",
  "mistake": "counts W^O as well (four matrices instead of three)",
  "teacher_says": "The question is about W^Q, W^K and W^V only: 3 * 512^2.",
  "code": '''
projection_parameter_count = 4 * 512 * 512
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong",
  "mistake": "counts the matrices of one head only, (d_model, d_k) each",
  "teacher_says": "The fused matrices hold every head: each is (d_model, h*d_k) = (512, 512).",
  "code": '''
d_model, h = 512, 8
d_k = d_model // h
projection_parameter_count = 3 * d_model * d_k
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong",
  "mistake": "multiplies by the number of heads on top of full-width matrices, as if each head had its own d_model x d_model matrices",
  "teacher_says": "Each head's matrix is d_model x d_k with d_k = d_model / h, so the h heads together hold d_model^2 per projection, not h * d_model^2.",
  "code": '''
projection_parameter_count = 3 * 8 * 512 * 512
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong",
  "mistake": "adds three bias vectors although the exercise says there are no biases",
  "teacher_says": "Read the statement: no biases, so only the 3 * 512^2 weights count.",
  "code": '''
projection_parameter_count = 3 * 512 * 512 + 3 * 512
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong",
  "mistake": "counts a single matrix (W^Q) instead of the three",
  "teacher_says": "W^Q, W^K and W^V together: three matrices of 512 x 512.",
  "code": '''
projection_parameter_count = 512 ** 2
'''},
 {"exercise": "projection_parameter_count", "kind": "robustness",
  "idea": "a trailing comma",
  "mistake": "a trailing comma makes the answer a one-element tuple (786432,) instead of a number",
  "teacher_says": "Remove the comma at the end of the line: `x = 3 * 512 * 512,` assigns a tuple.",
  "code": '''
projection_parameter_count = 3 * 512 * 512,
'''},
]
