ANSWERS = [
 {"exercise": "head_weight", "kind": "correct", "idea": "slice columns i*d:(i+1)*d", "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, i * d:(i + 1) * d]
'''},
 {"exercise": "head_weight", "kind": "correct", "idea": "reshape to (d_in, h, d) and index head", "code": '''
import numpy as np
def head_weight(w, i, num_heads):
    d_in, hd = w.shape
    return np.asarray(w).reshape(d_in, num_heads, hd // num_heads)[:, i, :].copy()
'''},
 {"exercise": "head_weight", "kind": "wrong", "mistake": "slices rows instead of columns", "teacher_says": "head i owns columns of W, not rows: w[:, i*d:(i+1)*d]", "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[i * d:(i + 1) * d, :]
'''},
 {"exercise": "head_weight", "kind": "wrong", "mistake": "heads counted from 1 (off by one)", "teacher_says": "heads are counted from 0; your slice is the next head's block", "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    j = (i + 1) % num_heads
    return w[:, j * d:(j + 1) * d]
'''},
 {"exercise": "head_weight", "kind": "wrong", "mistake": "strided columns i::h (interleaved heads)", "teacher_says": "the heads are contiguous blocks, not every h-th column: reshape (d_in, h, d), not (d_in, d, h)", "code": '''
def head_weight(w, i, num_heads):
    return w[:, i::num_heads]
'''},
 {"exercise": "head_weight", "kind": "wrong", "mistake": "d computed from the rows (d_in // h), wrong when d_in != h*d", "teacher_says": "d is the number of columns divided by num_heads; you used the rows", "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[0] // num_heads
    return w[:, i * d:(i + 1) * d]
'''},
 {"exercise": "head_weight", "kind": "robustness", "idea": "returns a nested list", "mistake": "returns list", "teacher_says": "return a NumPy array", "code": '''
def head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, i * d:(i + 1) * d].tolist()
'''},
 {"exercise": "fuse_heads", "kind": "correct", "idea": "np.hstack", "code": '''
import numpy as np
def fuse_heads(w_heads):
    return np.hstack(list(w_heads))
'''},
 {"exercise": "fuse_heads", "kind": "correct", "idea": "stack on axis 1 then reshape", "code": '''
import numpy as np
def fuse_heads(w_heads):
    s = np.stack(w_heads, axis=1)  # (d_in, h, d)
    return s.reshape(s.shape[0], -1)
'''},
 {"exercise": "fuse_heads", "kind": "wrong", "mistake": "concatenates along axis 0 (the default axis): heads stacked as rows", "teacher_says": "your matrix is (h*d_in, d); the heads must sit side by side as columns: axis=1", "code": '''
import numpy as np
def fuse_heads(w_heads):
    return np.concatenate(w_heads, axis=0)
'''},
 {"exercise": "fuse_heads", "kind": "wrong", "mistake": "stack on last axis: (d_in, d, h) reshaped, interleaving heads", "teacher_says": "np.stack(..., axis=-1) interleaves the heads' columns; head i must own a contiguous block", "code": '''
import numpy as np
def fuse_heads(w_heads):
    s = np.stack(w_heads, axis=-1)
    return s.reshape(s.shape[0], -1)
'''},
 {"exercise": "fuse_heads", "kind": "wrong", "mistake": "heads in reverse order", "teacher_says": "head 0 must come first, in the list's order", "code": '''
import numpy as np
def fuse_heads(w_heads):
    return np.concatenate(list(w_heads)[::-1], axis=1)
'''},
 {"exercise": "fuse_heads", "kind": "wrong", "mistake": "sums the heads instead of placing them side by side", "teacher_says": "fusing puts the heads next to each other; summing loses them", "code": '''
import numpy as np
def fuse_heads(w_heads):
    return np.tile(sum(w_heads), (1, len(w_heads)))
'''},
 {"exercise": "fuse_heads", "kind": "robustness", "idea": "modifies the caller's list", "mistake": "pops from the list", "teacher_says": "do not consume the input list", "code": '''
import numpy as np
def fuse_heads(w_heads):
    out = w_heads.pop(0)
    while w_heads:
        out = np.concatenate([out, w_heads.pop(0)], axis=1)
    return out
'''},
 {"exercise": "split_in_proj", "kind": "correct", "idea": "row blocks transposed", "code": '''
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    return tuple(in_proj_weight[j * d:(j + 1) * d].T for j in range(3))
'''},
 {"exercise": "split_in_proj", "kind": "correct", "idea": "np.split on axis 0 then transpose, copies", "code": '''
import numpy as np
def split_in_proj(in_proj_weight):
    return [np.ascontiguousarray(b.T) for b in np.split(np.asarray(in_proj_weight), 3, axis=0)]
'''},
 {"exercise": "split_in_proj", "kind": "wrong", "mistake": "forgot the transpose", "teacher_says": "PyTorch stores (out, in): each block must be transposed to the book's (in, out) layout", "code": '''
import numpy as np
def split_in_proj(in_proj_weight):
    return tuple(np.split(in_proj_weight, 3, axis=0))
'''},
 {"exercise": "split_in_proj", "kind": "wrong", "mistake": "transposes first then splits the rows of the (d, 3d) matrix", "teacher_says": "after transposing, the three blocks are columns; you split rows of a (d, 3d) matrix", "code": '''
import numpy as np
def split_in_proj(in_proj_weight):
    t = in_proj_weight.T
    d = t.shape[0]
    return tuple(t.reshape(3, d, d))
'''},
 {"exercise": "split_in_proj", "kind": "wrong", "mistake": "order K, Q, V assumed", "teacher_says": "in_proj_weight stacks Q first, then K, then V", "code": '''
def split_in_proj(in_proj_weight):
    d = in_proj_weight.shape[1]
    b = [in_proj_weight[j * d:(j + 1) * d].T for j in range(3)]
    return b[1], b[0], b[2]
'''},
 {"exercise": "split_in_proj", "kind": "wrong", "mistake": "interleaved split: rows 0::3, 1::3, 2::3", "teacher_says": "the three weights are stacked in blocks of d rows, not interleaved", "code": '''
def split_in_proj(in_proj_weight):
    return tuple(in_proj_weight[j::3].T for j in range(3))
'''},
 {"exercise": "split_in_proj", "kind": "robustness", "idea": "returns torch tensors", "mistake": "converts to torch", "teacher_says": "return NumPy arrays", "code": '''
import torch
def split_in_proj(in_proj_weight):
    t = torch.as_tensor(in_proj_weight)
    return tuple(b.T for b in t.chunk(3, dim=0))
'''},
 {"exercise": "projection_parameter_count", "kind": "correct", "idea": "3*512^2", "code": '''
projection_parameter_count = 3 * 512 * 512
'''},
 {"exercise": "projection_parameter_count", "kind": "correct", "idea": "per head sum", "code": '''
h = 8; d_k = 512 // h
projection_parameter_count = sum(3 * 512 * d_k for _ in range(h))
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "one head only", "teacher_says": "that is one head's share; the 8 heads together hold 3*512^2", "code": '''
projection_parameter_count = 3 * 512 * 64
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "multiplied by h again", "teacher_says": "each matrix is (512, h*d_k) = (512, 512); do not multiply by h once more", "code": '''
projection_parameter_count = 3 * 512 * 512 * 8
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "included W^O", "teacher_says": "the question counts W^Q, W^K, W^V only", "code": '''
projection_parameter_count = 4 * 512 * 512
'''},
 {"exercise": "projection_parameter_count", "kind": "wrong", "mistake": "added biases", "teacher_says": "no biases in this count", "code": '''
projection_parameter_count = 3 * 512 * 512 + 3 * 512
'''},
]
