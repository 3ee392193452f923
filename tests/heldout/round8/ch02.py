# writer A's answers, then writer E's (each file verbatim)
"""Writer A, chapter 02 (linear projections): 1 correct + 3 wrong answers per exercise."""

ANSWERS = [
    # ------------------------------------------------------------------ head_weight
    {"exercise": "head_weight", "kind": "correct",
     "idea": "view the columns as (h, d) with a reshape and pick head i on the middle axis",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d_in, cols = w.shape
    return w.reshape(d_in, num_heads, cols // num_heads)[:, i, :]
'''},
    {"exercise": "head_weight", "kind": "wrong",
     "mistake": "Slices a block of rows instead of columns and transposes it to get a (d_in, d)-looking matrix; the content is not head i's block (and the shape is wrong as soon as d_in != h*d).",
     "teacher_says": "With x @ W, a head's outputs come from a block of COLUMNS of W: w[:, i*d:(i+1)*d], no transpose.",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[i * d:(i + 1) * d, :].T
'''},
    {"exercise": "head_weight", "kind": "wrong",
     "mistake": "Computes the head size from the number of rows, w.shape[0] // num_heads, confusing d_in with h*d; it only works when d_in == h*d.",
     "teacher_says": "d is the number of COLUMNS divided by the number of heads; d_in (the rows) can be anything.",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[0] // num_heads
    return w[:, i * d:(i + 1) * d]
'''},
    {"exercise": "head_weight", "kind": "wrong",
     "mistake": "Counts heads from 1 as in the formula (head_1 ... head_h), so takes columns (i-1)*d : i*d: head i gets head i-1's block, and head 0 an empty slice.",
     "teacher_says": "In code heads are counted from 0: head i owns columns i*d to (i+1)*d.",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, (i - 1) * d:i * d]
'''},

    # ------------------------------------------------------------------ fuse_heads
    {"exercise": "fuse_heads", "kind": "correct",
     "idea": "stack the heads on a new middle axis, (d_in, h, d), and flatten the last two axes",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(w_heads, axis=1)          # (d_in, h, d)
    d_in, h, d = stacked.shape
    return stacked.reshape(d_in, h * d)
'''},
    {"exercise": "fuse_heads", "kind": "wrong",
     "mistake": "Concatenates along axis 0, stacking the heads' matrices one below the other: (h*d_in, d) instead of side by side.",
     "teacher_says": "The heads must sit side by side in the columns, so join along axis=1.",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.concatenate(w_heads, axis=0)
'''},
    {"exercise": "fuse_heads", "kind": "wrong",
     "mistake": "Builds the (h, d_in, d) array and reshapes it straight to (d_in, h*d): the shape is right but a reshape does not move numbers, so rows of different heads end up mixed in each row.",
     "teacher_says": "A reshape keeps row-major order; move the heads axis next to the columns first (or just concatenate along axis 1).",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.array(w_heads)                   # (h, d_in, d)
    h, d_in, d = stacked.shape
    return stacked.reshape(d_in, h * d)
'''},
    {"exercise": "fuse_heads", "kind": "wrong",
     "mistake": "Stacks the heads on the LAST axis, (d_in, d, h), before flattening, so the columns are interleaved (column c*h + i belongs to head i) instead of each head owning a contiguous block.",
     "teacher_says": "Head i must own columns i*d:(i+1)*d, so the heads axis has to come before the per-head columns when you flatten.",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(w_heads, axis=-1)          # (d_in, d, h)
    return stacked.reshape(stacked.shape[0], -1)
'''},

    # ------------------------------------------------------------------ split_in_proj
    {"exercise": "split_in_proj", "kind": "correct",
     "idea": "reshape the stacked rows into (3, d, d) and swap each block's two axes to get the paper's layout",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d_model = in_proj_weight.shape[1]
    blocks = in_proj_weight.reshape(3, d_model, d_model)   # torch (out, in) blocks
    paper = np.swapaxes(blocks, 1, 2)                        # (in, out) blocks
    return paper[0], paper[1], paper[2]
'''},
    {"exercise": "split_in_proj", "kind": "wrong",
     "mistake": "Splits the rows into the three blocks but forgets the transpose: the blocks are still in PyTorch's (out, in) layout, and because they are square, x @ w_q runs and computes x W^T.",
     "teacher_says": "nn.Linear computes x @ weight.T, so each block must be transposed to be used as x @ w.",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    w_q, w_k, w_v = np.split(in_proj_weight, 3, axis=0)
    return w_q, w_k, w_v
'''},
    {"exercise": "split_in_proj", "kind": "wrong",
     "mistake": "Cuts the matrix into three blocks of COLUMNS (axis=1) and transposes them, although PyTorch stacks W^Q, W^K, W^V vertically: the blocks have shape (d/3, 3d) (or the split raises when d is not divisible by 3).",
     "teacher_says": "in_proj_weight is (3*d_model, d_model): the three matrices are stacked along the rows, axis 0.",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    return tuple(block.T for block in np.split(in_proj_weight, 3, axis=1))
'''},
    {"exercise": "split_in_proj", "kind": "wrong",
     "mistake": "Copy-paste slip in the third line: w_v takes rows d:2d again (the keys' block) instead of rows 2d:3d.",
     "teacher_says": "Check each slice after copying a line: W^V is the last block, rows 2*d_model to 3*d_model.",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    w_q = in_proj_weight[0:d].T
    w_k = in_proj_weight[d:2 * d].T
    w_v = in_proj_weight[d:2 * d].T
    return w_q, w_k, w_v
'''},

    # ------------------------------------------------------------------ projection_parameter_count
    {"exercise": "projection_parameter_count", "kind": "correct",
     "idea": "three matrices of shape (d_model, h*d_k) with h*d_k = d_model",
     "code": '''
d_model, h = 512, 8
d_k = d_model // h
projection_parameter_count = 3 * d_model * (h * d_k)
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong",
     "mistake": "Counts one head's matrices only, (d_model, d_k) each, forgetting that the fused matrices have h*d_k columns: 3*512*64.",
     "teacher_says": "Each fused projection is (d_model, h*d_k) = (512, 512); you counted one head's block.",
     "code": '''
projection_parameter_count = 3 * 512 * 64
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong",
     "mistake": "Multiplies the full d_model x d_model count by the number of heads, as if every head had full-width matrices: 8*3*512^2.",
     "teacher_says": "With d_k = d_model/h more heads means narrower heads: the count is 3*d_model^2 whatever h is.",
     "code": '''
projection_parameter_count = 8 * 3 * 512 * 512
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong",
     "mistake": "Includes the output projection W^O as well, 4*512^2, though the question asks for W^Q, W^K and W^V only.",
     "teacher_says": "Only the three input projections are asked for; W^O is a fourth matrix.",
     "code": '''
projection_parameter_count = 4 * 512 ** 2
'''},
]

_WRITER_A = ANSWERS

"""Student answers for chapter 2 (linear projections), writer E."""

ANSWERS = [
    # ------------------------------------------------------------------ head_weight
    {"exercise": "head_weight", "kind": "correct",
     "idea": "view the columns as (h, d) with a reshape and index head i",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d_in = w.shape[0]
    return w.reshape(d_in, num_heads, -1)[:, i, :]
'''},
    {"exercise": "head_weight", "kind": "robustness",
     "idea": "builds the block entry by entry with nested Python list comprehensions "
             "(a fresh copy, slow), keeping the dtype",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    rows = [[w[r, i * d + c] for c in range(d)] for r in range(w.shape[0])]
    return np.array(rows, dtype=w.dtype).reshape(w.shape[0], d)
'''},
    {"exercise": "head_weight", "kind": "wrong",
     "mistake": "Sliced a block of rows and transposed it to 'make the shapes fit', instead of "
                "slicing the columns.",
     "teacher_says": "With x @ W, head i's outputs come from columns i*d:(i+1)*d of W; slice "
                     "the columns, w[:, i*d:(i+1)*d], never rows.",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[i * d:(i + 1) * d, :].T
'''},
    {"exercise": "head_weight", "kind": "wrong",
     "mistake": "Computed the head size from the number of rows (d_in / h) instead of the "
                "number of columns, which only works when d_in equals h*d.",
     "teacher_says": "d is the fused width divided by the heads: w.shape[1] // num_heads; "
                     "the rows are the input features and can be any number.",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[0] // num_heads
    return w[:, i * d:(i + 1) * d]
'''},
    {"exercise": "head_weight", "kind": "wrong",
     "mistake": "Reshaped the columns as (d, h) instead of (h, d), so head i gets every h-th "
                "column (i, i+h, i+2h, ...) rather than one contiguous block.",
     "teacher_says": "The heads' blocks sit side by side, so the column index is i*d + c: "
                     "split the columns into (h, d), heads first.",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w.reshape(w.shape[0], d, num_heads)[:, :, i]
'''},

    # ------------------------------------------------------------------ fuse_heads
    {"exercise": "fuse_heads", "kind": "correct",
     "idea": "stack the heads on a new middle axis (d_in, h, d) and flatten the last two",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(w_heads, axis=1)
    return stacked.reshape(stacked.shape[0], -1)
'''},
    {"exercise": "fuse_heads", "kind": "robustness",
     "idea": "Python loops copying entry by entry into a float64 zeros array (float64 even "
             "for float32 heads)",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    h = len(w_heads)
    d_in, d = w_heads[0].shape
    fused = np.zeros((d_in, h * d))
    for i, w in enumerate(w_heads):
        for r in range(d_in):
            for c in range(d):
                fused[r, i * d + c] = w[r, c]
    return fused
'''},
    {"exercise": "fuse_heads", "kind": "wrong",
     "mistake": "Concatenated along axis 0, stacking the heads one below the other: shape "
                "(h*d_in, d) instead of (d_in, h*d).",
     "teacher_says": "The heads sit side by side as blocks of columns, which is axis 1 of a "
                     "(d_in, d) matrix.",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.concatenate(w_heads)
'''},
    {"exercise": "fuse_heads", "kind": "wrong",
     "mistake": "Stacked on the last axis, giving (d_in, d, h), and flattened that: the right "
                "shape, but the heads' columns are interleaved.",
     "teacher_says": "Head i must own contiguous columns i*d:(i+1)*d, so the heads axis must "
                     "come before the per-head columns when you flatten.",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(w_heads, axis=-1)
    return stacked.reshape(stacked.shape[0], -1)
'''},
    {"exercise": "fuse_heads", "kind": "wrong",
     "mistake": "Turned the list into an (h, d_in, d) array and reshaped it straight to "
                "(d_in, h*d), which reads the numbers in the wrong order.",
     "teacher_says": "A reshape never moves numbers: bring the heads axis next to the columns "
                     "(a transpose to (d_in, h, d)) before flattening.",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    arr = np.array(w_heads)
    h, d_in, d = arr.shape
    return arr.reshape(d_in, h * d)
'''},

    # ------------------------------------------------------------------ split_in_proj
    {"exercise": "split_in_proj", "kind": "correct",
     "idea": "view the stacked rows as (3, d, d) and swap the last two axes of every block",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    blocks = in_proj_weight.reshape(3, d, d).transpose(0, 2, 1)
    return tuple(blocks)
'''},
    {"exercise": "split_in_proj", "kind": "robustness",
     "idea": "a list of three fresh arrays filled element by element with double Python "
             "loops (slow, allocates copies)",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    result = []
    for p in range(3):
        m = np.empty((d, d), dtype=in_proj_weight.dtype)
        for r in range(d):
            for c in range(d):
                m[r, c] = in_proj_weight[p * d + c, r]
        result.append(m)
    return result
'''},
    {"exercise": "split_in_proj", "kind": "wrong",
     "mistake": "Split the rows into three blocks but forgot to transpose them, so each is in "
                "PyTorch's (out, in) layout and x @ w_q computes x W^T.",
     "teacher_says": "nn.Linear computes x @ weight.T, so the paper's W^Q is the transpose of "
                     "the first block: w[0:d].T.",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    w_q, w_k, w_v = np.split(in_proj_weight, 3, axis=0)
    return w_q, w_k, w_v
'''},
    {"exercise": "split_in_proj", "kind": "wrong",
     "mistake": "Reshaped to (d, 3, d) instead of (3, d, d), so each 'matrix' takes every third "
                "row of the stack instead of one contiguous block of d rows.",
     "teacher_says": "The three weights are stacked one below the other, so the 3 is the "
                     "outermost (slowest) index: reshape to (3, d, d).",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    blocks = in_proj_weight.reshape(d, 3, d)
    return blocks[:, 0, :].T, blocks[:, 1, :].T, blocks[:, 2, :].T
'''},
    {"exercise": "split_in_proj", "kind": "wrong",
     "mistake": "Used .T on the 3-D (3, d, d) array, which reverses all three axes to (d, d, 3), "
                "instead of transposing each block.",
     "teacher_says": ".T reverses every axis; to transpose each matrix of a stack use "
                     "swapaxes(-1, -2) (or transpose each block after splitting).",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    w_q, w_k, w_v = in_proj_weight.reshape(3, d, d).T
    return w_q, w_k, w_v
'''},

    # ------------------------------------------------------------ projection_parameter_count
    {"exercise": "projection_parameter_count", "kind": "correct",
     "idea": "three matrices of shape (d_model, h*d_k) with h*d_k = d_model",
     "code": '''
d_model, h = 512, 8
d_k = d_model // h
projection_parameter_count = 3 * d_model * (h * d_k)
'''},
    {"exercise": "projection_parameter_count", "kind": "robustness",
     "idea": "counts by building the three zero matrices per head and summing their sizes; "
             "the result is a NumPy integer and the arrays are wasted allocation",
     "code": '''
import numpy as np

_d_model, _h = 512, 8
_d = _d_model // _h
projection_parameter_count = np.sum(
    [np.zeros((_d_model, _d)).size for _ in range(3 * _h)], dtype=np.int64
)
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong",
     "mistake": "Counted only one head's block per projection, 3 * 512 * 64, forgetting to "
                "multiply by the 8 heads.",
     "teacher_says": "Each fused matrix is (d_model, h*d_k) = (512, 512); you counted one "
                     "head's (512, 64) slice.",
     "code": '''
projection_parameter_count = 3 * 512 * 64
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong",
     "mistake": "Included the output projection W^O as a fourth d_model x d_model matrix.",
     "teacher_says": "The question asks for W^Q, W^K and W^V only; W^O comes in chapter 4.",
     "code": '''
projection_parameter_count = 4 * 512 * 512
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong",
     "mistake": "Thought every head has its own full d_model x d_model matrices and multiplied "
                "by h again: 3 * 8 * 512^2.",
     "teacher_says": "With d_k = d_model/h each head's matrices are d_model x d_k; the h of "
                     "them together are just d_model x d_model.",
     "code": '''
projection_parameter_count = 3 * 8 * 512 * 512
'''},
]

_WRITER_E = ANSWERS
ANSWERS = _WRITER_A + _WRITER_E
