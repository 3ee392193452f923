# writer A's answers, then writer E's (each file verbatim)
"""Student answers for chapter 2 (linear projections), writer A."""

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
        "idea": "copies the block column by column in a Python loop into a fresh array",
        "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    block = np.empty((w.shape[0], d), dtype=w.dtype)
    for c in range(d):
        for r in range(w.shape[0]):
            block[r, c] = w[r, i * d + c]
    return block
''',
    },
    {
        "exercise": "head_weight",
        "kind": "wrong",
        "mistake": "Slices a block of rows and transposes it to get the expected shape, "
        "instead of slicing a block of columns.",
        "teacher_says": "With x @ W, head i's outputs come from columns i*d:(i+1)*d of W; "
        "rows belong to input features, and a transpose only fakes the shape.",
        "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[i * d:(i + 1) * d, :].T
''',
    },
    {
        "exercise": "head_weight",
        "kind": "wrong",
        "mistake": "Computes the head width from the number of rows, d_in // num_heads, "
        "assuming d_in == h*d; it breaks as soon as the input width differs.",
        "teacher_says": "The head width is the number of columns divided by the number of "
        "heads; d_in need not equal h*d.",
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
        "mistake": "Reshapes the columns as (d, h) instead of (h, d) and picks index i on "
        "the last axis, so head i gets every h-th column (interleaved) instead of a "
        "contiguous block.",
        "teacher_says": "Head i owns the contiguous columns i*d:(i+1)*d, so the reshape of "
        "the column axis must be (h, d), heads first.",
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
        "idea": "np.hstack the list: side by side, in order",
        "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.hstack(list(w_heads))
''',
    },
    {
        "exercise": "fuse_heads",
        "kind": "robustness",
        "idea": "preallocates the fused matrix and fills each head's block in a loop",
        "code": '''
import numpy as np

def fuse_heads(w_heads):
    d_in, d = w_heads[0].shape
    fused = np.zeros((d_in, len(w_heads) * d), dtype=w_heads[0].dtype)
    for i, w in enumerate(w_heads):
        for c in range(d):
            fused[:, i * d + c] = w[:, c]
    return fused
''',
    },
    {
        "exercise": "fuse_heads",
        "kind": "wrong",
        "mistake": "Concatenates along axis 0, stacking the matrices one below the other: "
        "shape (h*d_in, d) instead of (d_in, h*d).",
        "teacher_says": "Columns are axis 1 of a (d_in, d) matrix; the heads go side by side.",
        "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.concatenate(w_heads, axis=0)
''',
    },
    {
        "exercise": "fuse_heads",
        "kind": "wrong",
        "mistake": "Stacks the heads on a new last axis and flattens, which interleaves the "
        "heads' columns (column c of every head next to each other) instead of keeping "
        "each head's block contiguous.",
        "teacher_says": "After stacking, the heads axis must come before the d axis for the "
        "flatten to give blocks: stack on axis=1, or just concatenate on axis=1.",
        "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(w_heads, axis=-1)  # (d_in, d, h)
    return stacked.reshape(stacked.shape[0], -1)
''',
    },
    {
        "exercise": "fuse_heads",
        "kind": "wrong",
        "mistake": "np.stack(w_heads) gives (h, d_in, d) and a reshape to (d_in, h*d) is "
        "applied without moving the heads axis: right shape, scrambled entries.",
        "teacher_says": "A reshape never moves numbers; move the heads axis next to d "
        "(transpose to (d_in, h, d)) before flattening, or concatenate on axis 1.",
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
        "idea": "reshape the rows into (3, d, d), swap the last two axes, unpack",
        "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    blocks = in_proj_weight.reshape(3, d, d).transpose(0, 2, 1)
    w_q, w_k, w_v = blocks
    return w_q, w_k, w_v
''',
    },
    {
        "exercise": "split_in_proj",
        "kind": "robustness",
        "idea": "returns a list (not a tuple) of three fresh contiguous copies filled "
        "entry by entry in Python loops",
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
        "mistake": "Splits the rows into three blocks but forgets to transpose them, keeping "
        "PyTorch's (out, in) layout; the shapes fit because the blocks are square.",
        "teacher_says": "nn.Linear computes x @ W.T, so each (out, in) block must be "
        "transposed to become the paper's (in, out) matrix.",
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
        "mistake": "Transposes the whole stacked matrix first, to (d, 3d), and then reshapes "
        "it into (3, d, d), which cuts the rows of the transpose instead of its column "
        "blocks.",
        "teacher_says": "After the transpose the three matrices sit side by side in column "
        "blocks; split along axis 1 (or split the rows first, then transpose each).",
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
        "mistake": "Copy-paste slip: the line for w_v repeats the slice of w_k, so the value "
        "matrix is the key matrix.",
        "teacher_says": "Check each copied line: W^V lives in the last d rows, 2d:3d.",
        "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[0] // 3
    w_q = in_proj_weight[0:d].T
    w_k = in_proj_weight[d:2 * d].T
    w_v = in_proj_weight[d:2 * d].T
    return w_q, w_k, w_v
''',
    },
    # ------------------------------------------------ projection_parameter_count
    {
        "exercise": "projection_parameter_count",
        "kind": "correct",
        "idea": "three matrices of d_model x (h * d_k) entries",
        "code": '''
d_model, h = 512, 8
d_k = d_model // h
projection_parameter_count = 3 * d_model * (h * d_k)
''',
    },
    {
        "exercise": "projection_parameter_count",
        "kind": "robustness",
        "idea": "builds a whole layer with mha.init_params and counts the entries of its "
        "arrays (allocates about a million floats for one number)",
        "code": '''
import mha

_p = mha.init_params(512, 8)
projection_parameter_count = _p.w_q.size + _p.w_k.size + _p.w_v.size
''',
    },
    {
        "exercise": "projection_parameter_count",
        "kind": "wrong",
        "mistake": "Counts only one of the three matrices, d_model**2.",
        "teacher_says": "W^Q, W^K and W^V each hold d_model * h * d_k numbers: multiply by 3.",
        "code": '''
projection_parameter_count = 512 * 512
''',
    },
    {
        "exercise": "projection_parameter_count",
        "kind": "wrong",
        "mistake": "Uses one head's width d_k = 64 for the columns instead of h * d_k = 512, "
        "counting one head's projections only.",
        "teacher_says": "The fused matrices have h * d_k columns; all 8 heads have their own "
        "d_k columns.",
        "code": '''
d_model, h = 512, 8
d_k = d_model // h
projection_parameter_count = 3 * d_model * d_k
''',
    },
    {
        "exercise": "projection_parameter_count",
        "kind": "wrong",
        "mistake": "Also counts the output projection W^O, giving 4 * d_model**2, though the "
        "question asks about W^Q, W^K and W^V only.",
        "teacher_says": "Only the three input projections are asked; W^O is chapter 4's.",
        "code": '''
projection_parameter_count = 4 * 512 * 512
''',
    },
]

_WRITER_A = ANSWERS

"""Writer E, chapter 02 (linear projections): blind student answers."""

ANSWERS = [
    # -------------------------------------------------------------- head_weight
    {"exercise": "head_weight", "kind": "correct",
     "idea": "np.split into num_heads equal column blocks and pick block i",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    return np.split(w, num_heads, axis=1)[i]
'''},
    {"exercise": "head_weight", "kind": "robustness",
     "idea": "copies head i's columns one at a time in a Python loop and stacks them with np.column_stack (a fresh copy instead of a view)",
     "code": '''
import numpy as np

def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    columns = []
    for c in range(i * d, (i + 1) * d):
        columns.append(np.array(w[:, c], copy=True))
    return np.column_stack(columns)
'''},
    {"exercise": "head_weight", "kind": "wrong",
     "mistake": "Computes the head size from the number of rows, d = w.shape[0] // num_heads, instead of the columns; it works only when d_in equals h*d.",
     "teacher_says": "d is the width of one head's block: the number of columns h*d divided by h; the rows are d_in and may be anything.",
     "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[0] // num_heads
    return w[:, i * d:(i + 1) * d]
'''},
    {"exercise": "head_weight", "kind": "wrong",
     "mistake": "Counts heads from 1, as in the formula's W_1 ... W_h, taking columns (i-1)*d to i*d: head i gets head i-1's block, and head 0 an empty slice.",
     "teacher_says": "In code the heads are counted from 0 (the statement says so): head i owns columns i*d to (i+1)*d.",
     "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, (i - 1) * d:i * d]
'''},
    {"exercise": "head_weight", "kind": "wrong",
     "mistake": "Reshapes the columns as (d, h) instead of (h, d) and picks index i of the last axis, so head i gets every h-th column (i, i+h, ...) instead of a contiguous block.",
     "teacher_says": "A reshape splits an axis with its outer part first: (d_in, h*d) -> (d_in, h, d) puts head i's contiguous block at [:, i, :].",
     "code": '''
def head_weight(w, i, num_heads):
    d_in, cols = w.shape
    return w.reshape(d_in, cols // num_heads, num_heads)[:, :, i]
'''},

    # --------------------------------------------------------------- fuse_heads
    {"exercise": "fuse_heads", "kind": "correct",
     "idea": "np.hstack of the per-head matrices, in list order",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.hstack(list(w_heads))
'''},
    {"exercise": "fuse_heads", "kind": "robustness",
     "idea": "preallocates the fused matrix and fills it one column at a time in a Python double loop",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    w_heads = [np.asarray(w) for w in w_heads]
    d_in, d = w_heads[0].shape
    fused = np.zeros((d_in, len(w_heads) * d), dtype=np.result_type(*w_heads))
    for i, w in enumerate(w_heads):
        for c in range(d):
            fused[:, i * d + c] = w[:, c]
    return fused
'''},
    {"exercise": "fuse_heads", "kind": "wrong",
     "mistake": "Concatenates along axis 0, stacking the heads' matrices one below the other: shape (h*d_in, d) instead of (d_in, h*d).",
     "teacher_says": "The heads sit side by side as column blocks, so join them along the columns, axis=1.",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    return np.concatenate(w_heads, axis=0)
'''},
    {"exercise": "fuse_heads", "kind": "wrong",
     "mistake": "Stacks on a new last axis and reshapes, (d_in, d, h) -> (d_in, h*d): the shape is right but the heads' columns are interleaved instead of forming contiguous blocks.",
     "teacher_says": "For a reshape to give contiguous blocks the head axis must come before the column axis: stack on axis=1, giving (d_in, h, d), or simply concatenate along axis 1.",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(w_heads, axis=-1)  # (d_in, d, h)
    d_in = stacked.shape[0]
    return stacked.reshape(d_in, -1)
'''},
    {"exercise": "fuse_heads", "kind": "wrong",
     "mistake": "np.stack puts the heads first, (h, d_in, d), and the reshape to (d_in, h*d) without a transpose just re-cuts the memory: right shape, scrambled content.",
     "teacher_says": "A reshape never moves numbers: move the heads axis next to the columns (transpose to (d_in, h, d)) before reshaping, or use np.concatenate(axis=1).",
     "code": '''
import numpy as np

def fuse_heads(w_heads):
    stacked = np.stack(w_heads)  # (h, d_in, d)
    h, d_in, d = stacked.shape
    return stacked.reshape(d_in, h * d)
'''},

    # ------------------------------------------------------------ split_in_proj
    {"exercise": "split_in_proj", "kind": "correct",
     "idea": "reshape the stacked rows to (3, d, d) and swap the last two axes of all three blocks at once",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    blocks = np.swapaxes(in_proj_weight.reshape(3, d, d), 1, 2)
    return blocks[0], blocks[1], blocks[2]
'''},
    {"exercise": "split_in_proj", "kind": "robustness",
     "idea": "transposes element by element in Python loops into new arrays, and returns a list instead of a tuple",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    result = []
    for block in range(3):
        w = np.empty((d, d), dtype=in_proj_weight.dtype)
        for r in range(d):
            for c in range(d):
                w[c, r] = in_proj_weight[block * d + r, c]
        result.append(w)
    return result
'''},
    {"exercise": "split_in_proj", "kind": "wrong",
     "mistake": "Splits the three row blocks correctly but returns them in PyTorch's (out, in) layout, without the transpose; the shapes are square so nothing complains.",
     "teacher_says": "nn.Linear computes x @ weight.T, so the paper-layout matrix is each block transposed: return w[0:d].T and so on.",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    w_q, w_k, w_v = np.split(in_proj_weight, 3, axis=0)
    return w_q, w_k, w_v
'''},
    {"exercise": "split_in_proj", "kind": "wrong",
     "mistake": "Splits along the columns (axis=1) instead of the rows: the stacking is vertical, so each piece has the wrong shape (and the split fails when d_model is not a multiple of 3).",
     "teacher_says": "in_proj_weight is (3*d_model, d_model): the three weights are stacked along axis 0, the rows.",
     "code": '''
import numpy as np

def split_in_proj(in_proj_weight):
    parts = np.split(in_proj_weight, 3, axis=1)
    return tuple(p.T for p in parts)
'''},
    {"exercise": "split_in_proj", "kind": "wrong",
     "mistake": "Copy-paste slip: the line for w_v was copied from the one for w_k and its slice not updated, so w_v is W^K again.",
     "teacher_says": "After copying a line, update every index in it: W^V is the last block of rows, 2*d to 3*d.",
     "code": '''
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[0] // 3
    w_q = in_proj_weight[0:d].T
    w_k = in_proj_weight[d:2 * d].T
    w_v = in_proj_weight[d:2 * d].T
    return w_q, w_k, w_v
'''},

    # ---------------------------------------------------- projection_parameter_count
    {"exercise": "projection_parameter_count", "kind": "correct",
     "idea": "three matrices of shape (d_model, h*d_k), with d_k = d_model // h",
     "code": '''
d_model, h = 512, 8
d_k = d_v = d_model // h
projection_parameter_count = d_model * h * d_k + d_model * h * d_k + d_model * h * d_v
'''},
    {"exercise": "projection_parameter_count", "kind": "robustness",
     "idea": "allocates the three weight matrices as zeros and counts their entries (megabytes allocated to obtain one integer)",
     "code": '''
import numpy as np

_d_model, _h = 512, 8
_weights = [np.zeros((_d_model, _h * (_d_model // _h))) for _ in range(3)]
projection_parameter_count = sum(w.size for w in _weights)
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong",
     "mistake": "Used one head's width d_k = 64 for the columns of each matrix instead of h*d_k = 512: counts one head's projections only.",
     "teacher_says": "The fused matrices hold every head: each is (d_model, h*d_k) = (512, 512).",
     "code": '''
projection_parameter_count = 3 * 512 * (512 // 8)
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong",
     "mistake": "Thought each of the 8 heads has its own full (d_model, d_model) matrices and multiplied by h.",
     "teacher_says": "With d_k = d_model/h more heads means narrower heads: the count is 3*d_model^2, independent of h.",
     "code": '''
projection_parameter_count = 8 * 3 * 512 * 512
'''},
    {"exercise": "projection_parameter_count", "kind": "wrong",
     "mistake": "Counted W^O too, four matrices of d_model^2, although the question asks only for W^Q, W^K and W^V.",
     "teacher_says": "Read which matrices are asked for: W^Q, W^K and W^V, three of them; W^O is chapter 4's.",
     "code": '''
projection_parameter_count = 4 * 512 * 512
'''},
]

_WRITER_E = ANSWERS
ANSWERS = _WRITER_A + _WRITER_E
