# writer A's answers, then writer E's (each file verbatim)
"""Student answers for chapter 2 (linear projections), writer A."""

ANSWERS = [
    # --------------------------------------------------------------- head_weight
    {"exercise": "head_weight", "kind": "correct",
     "idea": "np.split into num_heads equal column blocks and pick block i",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    return np.split(w, num_heads, axis=1)[i]
'''},
    {"exercise": "head_weight", "kind": "robustness",
     "idea": "copies the block column by column in a Python loop (a new array, not a view)",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    columns = []
    for c in range(i * d, i * d + d):
        columns.append(w[:, c].copy())
    return np.stack(columns, axis=1)
'''},
    {"exercise": "head_weight", "kind": "wrong",
     "mistake": "Sliced a block of rows and transposed it 'to make the shapes fit': "
                "`w[i*d:(i+1)*d].T`, which has the right shape only when d_in = h*d and "
                "never the right content.",
     "teacher_says": "With x @ W the heads own columns of W: slice `w[:, i*d:(i+1)*d]`, "
                     "no transpose.",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[i * d:(i + 1) * d, :].T
'''},
    {"exercise": "head_weight", "kind": "wrong",
     "mistake": "Counted heads from 1, as in the paper's W_1 ... W_h: head i gets columns "
                "(i-1)*d : i*d, so head 0 is empty and every other head is shifted by one.",
     "teacher_says": "The exercise counts heads from 0: head i owns columns i*d to (i+1)*d.",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, (i - 1) * d:i * d]
'''},
    {"exercise": "head_weight", "kind": "wrong",
     "mistake": "Computed the head width from the number of rows, `w.shape[0] // num_heads`, "
                "which is only right when d_in happens to equal h*d.",
     "teacher_says": "The heads split the columns, so d = w.shape[1] // num_heads; d_in "
                     "need not equal h*d.",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[0] // num_heads
    return w[:, i * d:(i + 1) * d]
'''},

    # ---------------------------------------------------------------- fuse_heads
    {"exercise": "fuse_heads", "kind": "correct",
     "idea": "stack the heads on a middle axis, (d_in, h, d), and flatten the last two axes",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(list(w_heads), axis=1)  # (d_in, h, d)
    return stacked.reshape(stacked.shape[0], -1)  # (d_in, h*d)
'''},
    {"exercise": "fuse_heads", "kind": "robustness",
     "idea": "preallocates the fused matrix and copies it entry by entry in nested "
             "Python loops",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    w_heads = [np.asarray(w) for w in w_heads]
    d_in, d = w_heads[0].shape
    fused = np.zeros((d_in, len(w_heads) * d), dtype=np.result_type(*w_heads))
    for i, w in enumerate(w_heads):
        for r in range(d_in):
            for c in range(d):
                fused[r, i * d + c] = w[r, c]
    return fused
'''},
    {"exercise": "fuse_heads", "kind": "wrong",
     "mistake": "Concatenated along axis 0, stacking the heads' matrices one below the "
                "other: shape (h*d_in, d) instead of (d_in, h*d).",
     "teacher_says": "The heads sit side by side as column blocks: concatenate along axis 1.",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.concatenate(w_heads, axis=0)
'''},
    {"exercise": "fuse_heads", "kind": "wrong",
     "mistake": "Made an (h, d_in, d) array and reshaped it straight to (d_in, h*d) "
                "without moving the heads axis: right shape, but the numbers are cut "
                "across rows and heads.",
     "teacher_says": "A reshape never moves numbers: bring the heads axis next to the "
                     "columns (transpose to (d_in, h, d)) before flattening.",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.array(w_heads)  # (h, d_in, d)
    return stacked.reshape(stacked.shape[1], -1)
'''},
    {"exercise": "fuse_heads", "kind": "wrong",
     "mistake": "Started the result with the first head and then looped over all heads, "
                "so head 0's block appears twice and the matrix is (d_in, (h+1)*d).",
     "teacher_says": "Either start from an empty result or loop over w_heads[1:]; check "
                     "the shape of what you return.",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    fused = w_heads[0]
    for w in w_heads:
        fused = np.hstack([fused, w])
    return fused
'''},

    # ------------------------------------------------------------- split_in_proj
    {"exercise": "split_in_proj", "kind": "correct",
     "idea": "reshape to (3, d, d) blocks of rows, then transpose each block's two axes",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d_model = in_proj_weight.shape[1]
    blocks = in_proj_weight.reshape(3, d_model, d_model).transpose(0, 2, 1)
    return tuple(blocks)
'''},
    {"exercise": "split_in_proj", "kind": "robustness",
     "idea": "builds each matrix entry by entry with Python loops and returns a list "
             "(allowed) of new arrays in the input's dtype",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    result = []
    for block in range(3):
        rows = []
        for r in range(d):  # row r of the paper-layout matrix = column r of the block
            rows.append([in_proj_weight[block * d + c, r] for c in range(d)])
        result.append(np.array(rows, dtype=in_proj_weight.dtype))
    return result
'''},
    {"exercise": "split_in_proj", "kind": "wrong",
     "mistake": "Split the rows into the three blocks but forgot the transpose, so each "
                "matrix is in PyTorch's (out, in) layout: x @ w_q computes x W^T.",
     "teacher_says": "nn.Linear computes x @ weight.T, so the paper's W^Q is the "
                     "transpose of the block: add `.T`.",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    w_q, w_k, w_v = np.split(in_proj_weight, 3, axis=0)
    return w_q, w_k, w_v
'''},
    {"exercise": "split_in_proj", "kind": "wrong",
     "mistake": "Took d from the number of rows (3*d_model) instead of the columns, so "
                "the first slice is the whole matrix and the other two are empty.",
     "teacher_says": "in_proj_weight is (3*d_model, d_model): d_model is shape[1] "
                     "(or shape[0] // 3).",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[0]
    w_q = in_proj_weight[0:d].T
    w_k = in_proj_weight[d:2 * d].T
    w_v = in_proj_weight[2 * d:3 * d].T
    return w_q, w_k, w_v
'''},
    {"exercise": "split_in_proj", "kind": "wrong",
     "mistake": "Copy-pasted the W^K line for W^V and did not update the slice, so w_v "
                "is a copy of w_k.",
     "teacher_says": "W^V is the last block of rows, 2*d:3*d; check that the three "
                     "matrices differ.",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    w_q = in_proj_weight[0:d].T
    w_k = in_proj_weight[d:2 * d].T
    w_v = in_proj_weight[d:2 * d].T
    return w_q, w_k, w_v
'''},

    # ------------------------------------------------ projection_parameter_count
    {"exercise": "projection_parameter_count", "kind": "correct",
     "idea": "three (d_model, h*d_k) matrices with h*d_k = d_model",
     "code": '''
d_model, h = 512, 8
d_k = d_model // h
projection_parameter_count = 3 * d_model * (h * d_k)
'''},
    {"exercise": "projection_parameter_count", "kind": "robustness",
     "idea": "builds the actual layer with mha.init_params and counts the entries of its "
             "three matrices (allocates the whole layer to count it)",
     "code": '''
import mha

_layer = mha.init_params(512, 8)
projection_parameter_count = _layer.w_q.size + _layer.w_k.size + _layer.w_v.size
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong",
     "mistake": "Counted only one projection matrix, d_model^2, forgetting W^K and W^V.",
     "teacher_says": "There are three matrices, W^Q, W^K and W^V, each d_model x d_model here.",
     "code": '''
projection_parameter_count = 512 * 512
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong",
     "mistake": "Used the per-head width d_k = 64 as each matrix's number of columns, "
                "counting one head's projections instead of the fused ones.",
     "teacher_says": "The fused matrices have h*d_k = 512 columns; 3*512*64 is one head.",
     "code": '''
projection_parameter_count = 3 * 512 * (512 // 8)
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong",
     "mistake": "Multiplied the full 3*d_model^2 by the number of heads, as if every head "
                "had full-width matrices.",
     "teacher_says": "With d_k = d_model/h the heads share the d_model columns: more heads "
                     "means narrower heads, not more weights.",
     "code": '''
projection_parameter_count = 8 * 3 * 512 * 512
'''},
]

_WRITER_A = ANSWERS

"""Writer E, chapter 02 (linear projections): blind student answers."""

ANSWERS = [
    # -------------------------------------------------------------- head_weight
    {
        "exercise": "head_weight",
        "kind": "correct",
        "idea": "np.split the columns into num_heads equal blocks and pick block i",
        "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    return np.split(w, num_heads, axis=1)[i]
''',
    },
    {
        "exercise": "head_weight",
        "kind": "robustness",
        "idea": "gathers the block one column at a time in a Python loop and stacks the columns "
        "into a fresh copy",
        "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    columns = []
    for c in range(i * d, (i + 1) * d):
        columns.append(np.array(w[:, c], copy=True))
    return np.stack(columns, axis=1)
''',
    },
    {
        "exercise": "head_weight",
        "kind": "wrong",
        "mistake": "Computes the head width from the rows, d = d_in // num_heads, as if the "
        "fused matrix were square (d_in = h*d); any other d_in gives blocks of the wrong width.",
        "teacher_says": "d is the number of columns divided by the number of heads, "
        "w.shape[1] // num_heads; d_in need not equal h*d.",
        "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[0] // num_heads
    return w[:, i * d:(i + 1) * d]
''',
    },
    {
        "exercise": "head_weight",
        "kind": "wrong",
        "mistake": "Counts heads from 1 as in the formulas (W_1 ... W_h), taking columns "
        "(i-1)d : i d: head i gets head i-1's block, and head 0 an empty array.",
        "teacher_says": "In code the heads are counted from 0: head i owns columns i*d to "
        "(i+1)*d.",
        "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, (i - 1) * d:i * d]
''',
    },
    {
        "exercise": "head_weight",
        "kind": "wrong",
        "mistake": "Reshapes the columns as (d, h) instead of (h, d), so head i gets every h-th "
        "column (i, i+h, i+2h, ...) instead of a contiguous block.",
        "teacher_says": "Head i's columns are contiguous, i*d to (i+1)*d; a reshape of the "
        "column axis must be (h, d), head first, to keep them together.",
        "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d_in, cols = w.shape
    return w.reshape(d_in, cols // num_heads, num_heads)[:, :, i]
''',
    },
    # --------------------------------------------------------------- fuse_heads
    {
        "exercise": "fuse_heads",
        "kind": "correct",
        "idea": "stack the heads on a middle axis (d_in, h, d) and flatten the last two axes",
        "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(list(w_heads), axis=1)  # (d_in, h, d)
    return stacked.reshape(stacked.shape[0], -1)  # (d_in, h*d)
''',
    },
    {
        "exercise": "fuse_heads",
        "kind": "robustness",
        "idea": "preallocates the result and copies every entry with nested Python loops",
        "code": '''
import numpy as np

def fuse_heads(w_heads):
    w_heads = list(w_heads)
    d_in, d = w_heads[0].shape
    fused = np.zeros((d_in, len(w_heads) * d), dtype=w_heads[0].dtype)
    for i, block in enumerate(w_heads):
        for r in range(d_in):
            for c in range(d):
                fused[r, i * d + c] = block[r, c]
    return fused
''',
    },
    {
        "exercise": "fuse_heads",
        "kind": "wrong",
        "mistake": "Concatenates along axis 0, stacking the blocks one below the other: shape "
        "(h*d_in, d) instead of (d_in, h*d).",
        "teacher_says": "The heads sit side by side as column blocks, so join along the column "
        "axis, axis=1.",
        "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.concatenate(w_heads, axis=0)
''',
    },
    {
        "exercise": "fuse_heads",
        "kind": "wrong",
        "mistake": "Stacks the heads on a new last axis, (d_in, d, h), before flattening: the "
        "shape is right but the heads' columns are interleaved.",
        "teacher_says": "Flattening (d_in, d, h) puts head 0's column 0, head 1's column 0, ... "
        "next to each other; the heads axis must come before the width axis, (d_in, h, d).",
        "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(w_heads, axis=-1)
    return stacked.reshape(stacked.shape[0], -1)
''',
    },
    {
        "exercise": "fuse_heads",
        "kind": "wrong",
        "mistake": "Stacks to (h, d_in, d) and reshapes straight to (d_in, h*d) without moving "
        "the heads axis: right shape, rows of different heads cut and glued together.",
        "teacher_says": "A reshape never moves numbers: first bring the heads axis next to the "
        "width axis (transpose to (d_in, h, d)), then reshape.",
        "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(w_heads)  # (h, d_in, d)
    h, d_in, d = stacked.shape
    return stacked.reshape(d_in, h * d)
''',
    },
    # ------------------------------------------------------------ split_in_proj
    {
        "exercise": "split_in_proj",
        "kind": "correct",
        "idea": "view the (3d, d) matrix as (3, d, d) and swap the last two axes of each block",
        "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    blocks = np.asarray(in_proj_weight).reshape(3, d, d).transpose(0, 2, 1)
    return blocks[0], blocks[1], blocks[2]
''',
    },
    {
        "exercise": "split_in_proj",
        "kind": "robustness",
        "idea": "builds each transposed block entry by entry with Python loops and returns a list",
        "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    result = []
    for part in range(3):
        w = np.empty((d, d), dtype=in_proj_weight.dtype)
        for out_feature in range(d):
            for in_feature in range(d):
                w[in_feature, out_feature] = in_proj_weight[part * d + out_feature, in_feature]
        result.append(w)
    return result
''',
    },
    {
        "exercise": "split_in_proj",
        "kind": "wrong",
        "mistake": "Splits the rows into three blocks but forgets that nn.Linear stores "
        "(out, in): the blocks are returned untransposed, which runs (they are square) and "
        "computes x W^T.",
        "teacher_says": "PyTorch computes x @ weight.T, so each block must be transposed to be "
        "used as x @ w in the book's layout.",
        "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    w_q, w_k, w_v = np.split(in_proj_weight, 3, axis=0)
    return w_q, w_k, w_v
''',
    },
    {
        "exercise": "split_in_proj",
        "kind": "wrong",
        "mistake": "Transposes the whole (3d, d) matrix first and then reshapes it to (3, d, d): "
        "the reshape cuts each row of the transpose across the three blocks, so the content is "
        "scrambled.",
        "teacher_says": "After the transpose the three matrices are column blocks of a (d, 3d) "
        "array; a reshape to (3, d, d) reads it row by row and mixes them. Split first, then "
        "transpose each block.",
        "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    w_q, w_k, w_v = in_proj_weight.T.reshape(3, d, d)
    return w_q, w_k, w_v
''',
    },
    {
        "exercise": "split_in_proj",
        "kind": "wrong",
        "mistake": "A copy-paste slip: the .T is on the query and key blocks but missing on the "
        "value block.",
        "teacher_says": "All three blocks are in PyTorch's (out, in) layout; W^V needs the "
        "transpose as much as W^Q and W^K.",
        "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[0] // 3
    w_q = in_proj_weight[0:d].T
    w_k = in_proj_weight[d:2 * d].T
    w_v = in_proj_weight[2 * d:3 * d]
    return (w_q, w_k, w_v)
''',
    },
    # ------------------------------------------------ projection_parameter_count
    {
        "exercise": "projection_parameter_count",
        "kind": "correct",
        "idea": "three (d_model, h*d_k) matrices, h*d_k = d_model",
        "code": '''
d_model, h = 512, 8
d_k = d_v = d_model // h
projection_parameter_count = d_model * h * d_k + d_model * h * d_k + d_model * h * d_v
''',
    },
    {
        "exercise": "projection_parameter_count",
        "kind": "robustness",
        "idea": "allocates the three fused matrices with NumPy just to count their entries",
        "code": '''
import numpy as np

d_model, h = 512, 8
d_k = d_model // h
matrices = [np.zeros((d_model, h * d_k)) for _ in ("q", "k", "v")]
projection_parameter_count = sum(m.size for m in matrices)
''',
    },
    {
        "exercise": "projection_parameter_count",
        "kind": "wrong",
        "mistake": "Counts one head's matrices only, 3 * d_model * d_k, forgetting the factor h.",
        "teacher_says": "Each fused matrix is (d_model, h*d_k): all h heads' blocks, not one.",
        "code": '''
d_model, h = 512, 8
d_k = d_model // h
projection_parameter_count = 3 * d_model * d_k
''',
    },
    {
        "exercise": "projection_parameter_count",
        "kind": "wrong",
        "mistake": "Gives every head a full (d_model, d_model) matrix, counting h times too many.",
        "teacher_says": "With d_k = d_model/h each head's block is d_model/h wide, so the heads "
        "together hold d_model^2 per projection, whatever h is.",
        "code": '''
d_model, h = 512, 8
projection_parameter_count = 3 * h * d_model * d_model
''',
    },
    {
        "exercise": "projection_parameter_count",
        "kind": "wrong",
        "mistake": "Counts W^O too (4 d_model^2), although the question asks for W^Q, W^K and "
        "W^V only.",
        "teacher_says": "Only the three input projections are asked: 3 * 512^2, not 4.",
        "code": '''
d_model = 512
projection_parameter_count = 4 * d_model ** 2
''',
    },
]

_WRITER_E = ANSWERS
ANSWERS = _WRITER_A + _WRITER_E
