# writer A's answers, then writer E's (each file verbatim)
"""Writer A, chapter 02 (linear projections): blind student answers."""

ANSWERS = [
    # -------------------------------------------------------------- head_weight
    {"exercise": "head_weight", "kind": "correct",
     "idea": "np.split the columns into num_heads equal blocks and pick block i",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    return np.split(w, num_heads, axis=1)[i]
'''},
    {"exercise": "head_weight", "kind": "robustness",
     "idea": "collects head i's columns one at a time in a Python loop and glues them back "
             "with np.column_stack (a fresh copy)",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    columns = []
    for c in range(w.shape[1]):
        if c // d == i:
            columns.append(w[:, c].copy())
    return np.column_stack(columns).astype(w.dtype)
'''},
    {"exercise": "head_weight", "kind": "wrong",
     "mistake": "Computes the head size from the number of rows, d = d_in // num_heads, "
                "instead of from the number of columns; right only when d_in == h * d.",
     "teacher_says": "Head i's block is a block of columns, so its width is the number of "
                     "columns divided by the number of heads: w.shape[1] // num_heads.",
     "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[0] // num_heads
    return w[:, i * d:(i + 1) * d]
'''},
    {"exercise": "head_weight", "kind": "wrong",
     "mistake": "Assumes the heads' columns are interleaved and takes every num_heads-th "
                "column starting at i: right shape, wrong columns.",
     "teacher_says": "In the fused matrix each head owns a contiguous block, columns i*d to "
                     "(i+1)*d, not a strided set.",
     "code": '''
def head_weight(w, i, num_heads):
    return w[:, i::num_heads]
'''},
    {"exercise": "head_weight", "kind": "wrong",
     "mistake": "Counts heads from 1 as in the formula (W_1 ... W_h), so slices columns "
                "(i-1)*d to i*d: returns the previous head, and an empty block for i = 0.",
     "teacher_says": "The statement counts heads from 0 in code: head i owns columns i*d to "
                     "(i+1)*d.",
     "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, (i - 1) * d:i * d]
'''},
    # --------------------------------------------------------------- fuse_heads
    {"exercise": "fuse_heads", "kind": "correct",
     "idea": "stack the heads on a new middle axis, (d_in, h, d), then flatten the last two "
             "axes so that head i occupies columns i*d:(i+1)*d",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(list(w_heads), axis=1)  # (d_in, h, d)
    d_in, h, d = stacked.shape
    return stacked.reshape(d_in, h * d)
'''},
    {"exercise": "fuse_heads", "kind": "robustness",
     "idea": "allocates a float64 zero matrix and copies every entry in three nested Python "
             "loops (float64 even for float32 heads)",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    h = len(w_heads)
    d_in, d = np.shape(w_heads[0])
    fused = np.zeros((d_in, h * d))
    for i in range(h):
        for r in range(d_in):
            for c in range(d):
                fused[r, i * d + c] = w_heads[i][r, c]
    return fused
'''},
    {"exercise": "fuse_heads", "kind": "wrong",
     "mistake": "Concatenates along axis 0, stacking the heads' matrices one below the other: "
                "shape (h * d_in, d) instead of (d_in, h * d).",
     "teacher_says": "The heads sit side by side, so join them along the columns, axis=1.",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.concatenate(w_heads, axis=0)
'''},
    {"exercise": "fuse_heads", "kind": "wrong",
     "mistake": "Builds the (h, d_in, d) array and reshapes it straight to (d_in, h * d) "
                "without moving the heads axis: right shape, but rows of different heads "
                "are cut and mixed.",
     "teacher_says": "A reshape never moves numbers; bring the heads axis next to the columns "
                     "(transpose to (d_in, h, d)) before flattening.",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    w = np.array(w_heads)  # (h, d_in, d)
    h, d_in, d = w.shape
    return w.reshape(d_in, h * d)
'''},
    {"exercise": "fuse_heads", "kind": "wrong",
     "mistake": "Grows the fused matrix in a loop but puts each new head in front of the "
                "previous ones, so the heads end up in reverse order.",
     "teacher_says": "Append each head to the right, [fused, w], so head i lands in columns "
                     "i*d:(i+1)*d in the list's order.",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    fused = w_heads[0]
    for w in w_heads[1:]:
        fused = np.concatenate([w, fused], axis=1)
    return fused
'''},
    # ------------------------------------------------------------ split_in_proj
    {"exercise": "split_in_proj", "kind": "correct",
     "idea": "reshape the (3d, d) stack to (3, d, d), swap the last two axes of every block, "
             "unpack into a tuple",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    blocks = np.asarray(in_proj_weight).reshape(3, d, d).transpose(0, 2, 1)
    return blocks[0], blocks[1], blocks[2]
'''},
    {"exercise": "split_in_proj", "kind": "robustness",
     "idea": "copies every entry into new arrays with nested Python loops, transposing by "
             "index, and returns a list instead of a tuple",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    out = []
    for block in range(3):
        w = np.empty((d, d), dtype=in_proj_weight.dtype)
        for r in range(d):
            for c in range(d):
                w[c, r] = in_proj_weight[block * d + r, c]
        out.append(w)
    return out
'''},
    {"exercise": "split_in_proj", "kind": "wrong",
     "mistake": "Splits the three blocks of rows correctly but forgets to transpose them, "
                "keeping PyTorch's (out, in) layout; the matrices are square so nothing fails.",
     "teacher_says": "nn.Linear computes x @ weight.T, so the paper's W^Q is the transpose of "
                     "PyTorch's block: add .T to each block.",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    w_q, w_k, w_v = np.split(in_proj_weight, 3, axis=0)
    return w_q, w_k, w_v
'''},
    {"exercise": "split_in_proj", "kind": "wrong",
     "mistake": "Thinks the rows of Q, K and V are interleaved and takes every third row "
                "(rows 0, 3, 6, ... for Q) before transposing.",
     "teacher_says": "in_proj_weight stacks W^Q, W^K, W^V one below the other: Q is the first "
                     "d_model rows as one contiguous block.",
     "code": '''
def split_in_proj(in_proj_weight):
    w = in_proj_weight
    return w[0::3].T, w[1::3].T, w[2::3].T
'''},
    {"exercise": "split_in_proj", "kind": "wrong",
     "mistake": "Copy-paste slip: the line for w_v keeps the K rows d:2d, so w_v is a copy "
                "of w_k.",
     "teacher_says": "Check each of the three slices: V is the last block, rows 2d:3d.",
     "code": '''
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[0] // 3
    w_q = in_proj_weight[0:d].T
    w_k = in_proj_weight[d:2 * d].T
    w_v = in_proj_weight[d:2 * d].T
    return (w_q, w_k, w_v)
'''},
    # ---------------------------------------------- projection_parameter_count
    {"exercise": "projection_parameter_count", "kind": "correct",
     "idea": "three matrices of shape (d_model, h * d_k) with h * d_k = 512",
     "code": '''
d_model, h = 512, 8
d_k = d_model // h
projection_parameter_count = 3 * d_model * (h * d_k)
'''},
    {"exercise": "projection_parameter_count", "kind": "robustness",
     "idea": "allocates the three zero matrices per head and adds up their sizes (a NumPy "
             "integer, many throwaway arrays)",
     "code": '''
import numpy as np

projection_parameter_count = sum(
    np.zeros((512, 512 // 8)).size for _matrix in ("q", "k", "v") for _head in range(8)
)
projection_parameter_count = np.int64(projection_parameter_count)
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong",
     "mistake": "Counts only one head's matrices, 3 * d_model * d_k, forgetting that there "
                "are h heads.",
     "teacher_says": "The fused matrices have h * d_k columns each; count all the heads.",
     "code": '''
projection_parameter_count = 3 * 512 * (512 // 8)
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong",
     "mistake": "Multiplies by the number of heads on top of full d_model x d_model matrices, "
                "as if each head had its own full-width projections.",
     "teacher_says": "With d_k = d_model / h each head's block is d_model x 64; together the h "
                     "blocks make one d_model x d_model matrix, not h of them.",
     "code": '''
projection_parameter_count = 8 * 3 * 512 * 512
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong",
     "mistake": "Includes the output projection W^O as well, 4 * d_model^2, though the "
                "question asks only for W^Q, W^K and W^V.",
     "teacher_says": "Count only the three input projections; W^O is the next chapter's.",
     "code": '''
projection_parameter_count = 4 * 512 ** 2
'''},
]

_WRITER_A = ANSWERS

"""Writer E, chapter 02 (linear projections): blind student answers."""

ANSWERS = [
    # -------------------------------------------------------------- head_weight
    {"exercise": "head_weight", "kind": "correct",
     "idea": "reshape the columns into (h, d) and index the head axis",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d_in, total = w.shape
    return w.reshape(d_in, num_heads, total // num_heads)[:, i, :]
'''},
    {"exercise": "head_weight", "kind": "robustness",
     "idea": "collects the head's columns one by one in a Python loop and stacks them into a new array",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    columns = []
    for c in range(w.shape[1]):
        if c // d == i:
            columns.append(w[:, c].copy())
    return np.stack(columns, axis=1)
'''},
    {"exercise": "head_weight", "kind": "wrong",
     "mistake": "Slices a block of rows and transposes it to 'fix' the shape, instead of slicing columns.",
     "teacher_says": "With x @ w, head i's outputs come from columns i*d:(i+1)*d; rows index the input features.",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[i * d:(i + 1) * d, :].T
'''},
    {"exercise": "head_weight", "kind": "wrong",
     "mistake": "Computes the head width from the number of rows, d = d_in // h, which is only "
                "right when d_in == h*d (the statement says it need not be).",
     "teacher_says": "The heads share the columns, so d is the number of columns divided by num_heads.",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[0] // num_heads
    return w[:, i * d:(i + 1) * d]
'''},
    {"exercise": "head_weight", "kind": "wrong",
     "mistake": "Counts heads from 1 as in the formula W_i, so head i gets the block of head i-1 "
                "(and head 0 an empty slice).",
     "teacher_says": "In code heads are counted from 0: head i owns columns i*d to (i+1)*d.",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, (i - 1) * d:i * d]
'''},

    # --------------------------------------------------------------- fuse_heads
    {"exercise": "fuse_heads", "kind": "correct",
     "idea": "stack on a new heads axis in the middle, (d_in, h, d), then flatten the last two axes",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(list(w_heads), axis=1)  # (d_in, h, d)
    return stacked.reshape(stacked.shape[0], -1)
'''},
    {"exercise": "fuse_heads", "kind": "robustness",
     "idea": "preallocates the fused matrix and copies every entry with three nested Python loops",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    h = len(w_heads)
    d_in, d = w_heads[0].shape
    fused = np.empty((d_in, h * d), dtype=w_heads[0].dtype)
    for head in range(h):
        for r in range(d_in):
            for c in range(d):
                fused[r, head * d + c] = w_heads[head][r, c]
    return fused
'''},
    {"exercise": "fuse_heads", "kind": "wrong",
     "mistake": "Concatenates along axis 0, stacking the heads' matrices vertically into "
                "(h*d_in, d) instead of side by side.",
     "teacher_says": "The heads must sit side by side in the columns: join along axis 1.",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.concatenate(w_heads, axis=0)
'''},
    {"exercise": "fuse_heads", "kind": "wrong",
     "mistake": "Stacks the heads on a new last axis, (d_in, d, h), before reshaping: the shape is "
                "right but the columns of the heads are interleaved.",
     "teacher_says": "A reshape keeps row-major order, so the heads axis must come before the per-head axis: (d_in, h, d).",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(w_heads, axis=-1)  # (d_in, d, h)
    return stacked.reshape(stacked.shape[0], -1)
'''},
    {"exercise": "fuse_heads", "kind": "wrong",
     "mistake": "Builds the fused matrix in a loop that prepends each head, "
                "np.concatenate([w, fused], axis=1), so the heads end up in reverse order.",
     "teacher_says": "Append each block to the right (or concatenate the list at once) so head i lands in columns i*d:(i+1)*d.",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    fused = w_heads[0]
    for w in w_heads[1:]:
        fused = np.concatenate([w, fused], axis=1)
    return fused
'''},

    # ------------------------------------------------------------ split_in_proj
    {"exercise": "split_in_proj", "kind": "correct",
     "idea": "reshape the stacked rows into (3, d, d), swap each block's two axes, unpack into a tuple",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    w = np.asarray(in_proj_weight)
    d = w.shape[1]
    blocks = w.reshape(3, d, d).transpose(0, 2, 1)
    return blocks[0], blocks[1], blocks[2]
'''},
    {"exercise": "split_in_proj", "kind": "robustness",
     "idea": "transposes every block entry by entry in Python loops into fresh arrays, returned as a list",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    result = []
    for part in range(3):
        block = np.zeros((d, d), dtype=in_proj_weight.dtype)
        for out_f in range(d):
            for in_f in range(d):
                block[in_f, out_f] = in_proj_weight[part * d + out_f, in_f]
        result.append(block)
    return result
'''},
    {"exercise": "split_in_proj", "kind": "wrong",
     "mistake": "Cuts the three blocks of rows correctly but forgets the transpose, returning "
                "PyTorch's (out, in) layout; it runs because the blocks are square.",
     "teacher_says": "nn.Linear computes x @ weight.T, so each block must be transposed to be used as x @ w.",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    w_q = in_proj_weight[0:d]
    w_k = in_proj_weight[d:2 * d]
    w_v = in_proj_weight[2 * d:3 * d]
    return w_q, w_k, w_v
'''},
    {"exercise": "split_in_proj", "kind": "wrong",
     "mistake": "Transposes the whole stacked matrix first and then reshapes the (d, 3d) result "
                "into three (d, d) blocks: the order of operations mixes rows of different blocks.",
     "teacher_says": "Cut the three row blocks first, then transpose each one; reshaping a transposed array regroups the numbers.",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    blocks = in_proj_weight.T.reshape(3, d, d)
    return tuple(blocks)
'''},
    {"exercise": "split_in_proj", "kind": "wrong",
     "mistake": "Thinks the three weights sit side by side and splits along the columns, then "
                "transposes each piece; the shapes are wrong (or np.split raises).",
     "teacher_says": "in_proj_weight stacks W^Q, W^K, W^V one below the other: split the rows (axis 0).",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    w_q, w_k, w_v = np.split(in_proj_weight, 3, axis=1)
    return w_q.T, w_k.T, w_v.T
'''},

    # ------------------------------------------------ projection_parameter_count
    {"exercise": "projection_parameter_count", "kind": "correct",
     "idea": "three matrices of d_model x (h * d_k)",
     "code": '''
d_model, h = 512, 8
d_k = d_model // h
projection_parameter_count = 3 * d_model * (h * d_k)
'''},
    {"exercise": "projection_parameter_count", "kind": "robustness",
     "idea": "the right count as a float from a sum over heads in a loop",
     "code": '''
projection_parameter_count = 0.0
for _head in range(8):
    projection_parameter_count += 3 * 512 * (512 / 8)
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong",
     "mistake": "Counts only one of the three matrices, d_model * d_model.",
     "teacher_says": "W^Q, W^K and W^V each hold d_model * h * d_k numbers: multiply by three.",
     "code": '''
projection_parameter_count = 512 * 512
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong",
     "mistake": "Uses one head's width d_k = 64 as the number of columns, forgetting that the fused "
                "matrix has h * d_k columns.",
     "teacher_says": "Each fused matrix is (d_model, h*d_k): all eight heads' blocks count.",
     "code": '''
projection_parameter_count = 3 * 512 * (512 // 8)
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong",
     "mistake": "Adds the output projection W^O as a fourth d_model x d_model matrix, which the "
                "question does not ask about.",
     "teacher_says": "Only W^Q, W^K and W^V are asked for; W^O is the next chapter's.",
     "code": '''
projection_parameter_count = 4 * 512 * 512
'''},
]

_WRITER_E = ANSWERS
ANSWERS = _WRITER_A + _WRITER_E
