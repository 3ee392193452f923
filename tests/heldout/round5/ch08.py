ANSWERS = [
 # ------------------------------------------------------------------ head_similarity
 {"exercise": "head_similarity", "kind": "correct",
  "idea": "einsum for the norms and np.divide with where= so that zero heads stay zero",
  "code": '''
import numpy as np

def head_similarity(per_head):
    per_head = np.asarray(per_head)
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    norms = np.sqrt(np.einsum("hf,hf->h", vectors, vectors))[:, None]
    unit = np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
    return np.einsum("af,bf->ab", unit, unit)
'''},
 {"exercise": "head_similarity", "kind": "correct",
  "idea": "explicit double loop over pairs of heads with np.linalg.norm and a zero test",
  "code": '''
import numpy as np

def head_similarity(per_head):
    per_head = np.asarray(per_head)
    h = per_head.shape[-3]
    flat = [per_head[..., a, :, :].ravel() for a in range(h)]
    norms = [np.linalg.norm(f) for f in flat]
    sim = np.zeros((h, h), dtype=per_head.dtype)
    for a in range(h):
        for b in range(h):
            if norms[a] == 0 or norms[b] == 0:
                continue
            sim[a, b] = np.dot(flat[a], flat[b]) / (norms[a] * norms[b])
    return sim
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Reshapes to (h, -1) without moving the heads axis to the front, so with a leading batch axis each 'head' vector mixes several heads and examples.",
  "teacher_says": "A plain reshape(h, -1) cuts the array in memory order: with a batch axis first, row 0 is not head 0. Move the heads axis to the front with np.moveaxis(per_head, -3, 0) before flattening.",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = per_head.reshape(h, -1)
    norm = np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)
    unit = vectors / norm
    return unit @ unit.T
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Normalises along the wrong axis (axis=0), dividing each feature column by its norm over heads instead of each head by its own norm.",
  "teacher_says": "Each head's vector must be divided by its own length: take the norm over axis -1 (the flattened features), one norm per head.",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    norm = np.maximum(np.linalg.norm(vectors, axis=0, keepdims=True), 1e-12)
    unit = vectors / norm
    return unit @ unit.T
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Returns the raw dot products (a Gram matrix) without dividing by the norms.",
  "teacher_says": "A cosine similarity divides each dot product by the two vectors' lengths; the diagonal should be 1 for every non-zero head.",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    return vectors @ vectors.T
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Computes one cosine matrix per example of the batch and averages them, instead of flattening every leading axis into one vector per head.",
  "teacher_says": "The statement flattens each head's blocks over all leading axes into ONE vector; the mean of per-example cosines is a different number.",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    blocks = per_head.reshape(-1, h, per_head.shape[-2] * per_head.shape[-1])
    sims = []
    for example in blocks:
        norm = np.maximum(np.linalg.norm(example, axis=-1, keepdims=True), 1e-12)
        unit = example / norm
        sims.append(unit @ unit.T)
    return np.mean(sims, axis=0)
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Uses np.corrcoef, the Pearson correlation, which centres each vector before normalising: not a cosine.",
  "teacher_says": "Correlation subtracts each vector's mean first; cosine similarity does not. Divide the plain dot products by the norms instead.",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    return np.nan_to_num(np.corrcoef(vectors))
'''},
 {"exercise": "head_similarity", "kind": "wrong",
  "mistake": "Divides by the norms without any guard, so a head that is all zeros (a pruned head) produces NaN in its row and column.",
  "teacher_says": "The statement asks for 0, not NaN, for an all-zero head: never divide by a zero norm (np.maximum(norm, 1e-12) or a where=).",
  "code": '''
import numpy as np

def head_similarity(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    return unit @ unit.T
'''},
 {"exercise": "head_similarity", "kind": "robustness",
  "idea": "delegates to the package's torch version and returns its result",
  "mistake": "Returns a torch.Tensor instead of a NumPy array for NumPy input.",
  "teacher_says": "The exercise is for NumPy arrays: return a NumPy array (or convert with .numpy()), not a tensor.",
  "code": '''
import numpy as np
import torch
from mha import analysis

def head_similarity(per_head):
    return analysis.head_similarity(torch.from_numpy(np.ascontiguousarray(per_head)))
'''},
 # ------------------------------------------------------------------ gate_importance
 {"exercise": "gate_importance", "kind": "correct",
  "idea": "broadcast multiply and sum over positions and features, then abs and mean",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    per_example = (contributions * grad_out[:, None, :, :]).sum(axis=(-2, -1))  # (B, h)
    return np.abs(per_example).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "correct",
  "idea": "batched matrix product of flattened contributions with the flattened gradient",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    B, h = contributions.shape[:2]
    flat_c = contributions.reshape(B, h, -1)       # (B, h, n*d)
    flat_g = grad_out.reshape(B, -1, 1)            # (B, n*d, 1)
    dL_dg = (flat_c @ flat_g)[..., 0]              # (B, h)
    return np.mean(np.abs(dL_dg), axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Averages the gradient over the examples before taking the absolute value, so examples with opposite signs cancel.",
  "teacher_says": "Michel et al. take E_x |dL/dg|: the absolute value per example first, then the mean. |mean| lets positive and negative gradients cancel.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    grads = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(grads.mean(axis=0))
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Takes the absolute value of every product before summing over positions and features.",
  "teacher_says": "dL/dg_a is the sum of grad_out times the contribution; take the absolute value of that sum, not of each term.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    terms = np.abs(contributions * grad_out[:, None])
    return terms.sum(axis=(2, 3)).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Sums over the examples instead of averaging them.",
  "teacher_says": "The importance is an expectation over x: divide by the number of examples (mean, not sum).",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    grads = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(grads).sum(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Squares the gradient instead of taking its absolute value.",
  "teacher_says": "The formula uses |dL/dg_a|, not (dL/dg_a)^2: squaring changes both the scale and the ranking.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    grads = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return (grads ** 2).mean(axis=0)
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Normalises the importances to unit length, as Michel et al. do per layer when comparing, although the exercise asks for I itself.",
  "teacher_says": "Return I_a = E|dL/dg_a| unnormalised; normalising per layer is a later step for comparing layers.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    grads = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    importance = np.abs(grads).mean(axis=0)
    return importance / np.linalg.norm(importance)
'''},
 {"exercise": "gate_importance", "kind": "wrong",
  "mistake": "Sums only over positions and takes the absolute value per feature, then averages over examples and features.",
  "teacher_says": "The gate is one scalar per head: its derivative sums over positions AND features before the absolute value.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    per_feature = np.einsum("bhnd,bnd->bhd", contributions, grad_out)
    return np.abs(per_feature).mean(axis=(0, 2))
'''},
 {"exercise": "gate_importance", "kind": "robustness",
  "idea": "multiplies the gradient into the contributions in place to save memory",
  "mistake": "Right values, but the caller's contributions array is overwritten.",
  "teacher_says": "Never modify an argument in place: contributions * grad_out[:, None] makes a new array.",
  "code": '''
import numpy as np

def gate_importance(contributions, grad_out):
    contributions *= grad_out[:, None]
    return np.abs(contributions.sum(axis=(2, 3))).mean(axis=0)
'''},
 # ------------------------------------------------------------------ attention_without_head
 {"exercise": "attention_without_head", "kind": "correct",
  "idea": "build the new W^O with np.where on a row mask and dataclasses.replace",
  "code": '''
import dataclasses
import numpy as np
import mha

def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    rows = np.arange(params.w_o.shape[0]) // d_v == head  # the head's rows of W^O
    w_o = np.where(rows[:, None], np.zeros_like(params.w_o), params.w_o)
    pruned = dataclasses.replace(params, w_o=w_o)
    out, _ = mha.multi_head_attention(x, x, x, pruned)
    return out
'''},
 {"exercise": "attention_without_head", "kind": "correct",
  "idea": "subtract the head's own term head_i W^O_i from the full output",
  "code": '''
import mha

def attention_without_head(x, params, head):
    full, _ = mha.multi_head_attention(x, x, x, params)
    h = params.num_heads
    d_k = params.w_q.shape[1] // h
    d_v = params.w_v.shape[1] // h
    cols_k = slice(head * d_k, (head + 1) * d_k)
    cols_v = slice(head * d_v, (head + 1) * d_v)

    def project(w, b, cols):
        y = x @ w[:, cols]
        return y if b is None else y + b[cols]

    q = project(params.w_q, params.b_q, cols_k)
    k = project(params.w_k, params.b_k, cols_k)
    v = project(params.w_v, params.b_v, cols_v)
    head_out, _ = mha.scaled_dot_product_attention(q, k, v)
    return full - head_out @ params.w_o[cols_v]
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Zeroes the head's COLUMNS of W^O (output features) instead of its rows.",
  "teacher_says": "Head i enters through rows i*d_v:(i+1)*d_v of W^O (the rows that multiply its slice of the concatenation); zeroing columns removes output features of every head.",
  "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    w_o = params.w_o.copy()
    w_o[:, head * d_v:(head + 1) * d_v] = 0.0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))
    return out
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Zeroes the head's query projection: its scores become 0, its softmax uniform, and it still adds the average of its values.",
  "teacher_says": "Zeroing W^Q_i does not prune a head: it then attends uniformly. Remove its output instead: zero its rows of W^O.",
  "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    d_k = params.w_q.shape[1] // params.num_heads
    w_q = params.w_q.copy()
    w_q[:, head * d_k:(head + 1) * d_k] = 0.0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_q=w_q))
    return out
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Counts heads from 1, so it removes head - 1 (and for head 0 the slice wraps to nothing useful).",
  "teacher_says": "Heads are numbered from 0: head i owns rows i*d_v to (i+1)*d_v - 1.",
  "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    w_o = params.w_o.copy()
    w_o[(head - 1) * d_v:head * d_v] = 0.0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))
    return out
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Zeroes a single row of W^O (row number head) instead of the head's d_v rows.",
  "teacher_says": "Each head owns d_v consecutive rows of W^O, not one: zero rows head*d_v to (head+1)*d_v.",
  "code": '''
import dataclasses
import mha

def attention_without_head(x, params, head):
    w_o = params.w_o.copy()
    w_o[head] = 0.0
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))
    return out
'''},
 {"exercise": "attention_without_head", "kind": "wrong",
  "mistake": "Keeps only the given head and removes all the others.",
  "teacher_says": "Removing head i means its gate is 0 and every other gate 1: zero only its own rows of W^O.",
  "code": '''
import dataclasses
import numpy as np
import mha

def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    w_o = np.zeros_like(params.w_o)
    w_o[head * d_v:(head + 1) * d_v] = params.w_o[head * d_v:(head + 1) * d_v]
    out, _ = mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))
    return out
'''},
 {"exercise": "attention_without_head", "kind": "robustness",
  "idea": "zeroes the rows of params.w_o in place (the dataclass is frozen but its arrays are writable)",
  "mistake": "The output is right, but the caller's params are changed for good: the head is gone from the original layer too.",
  "teacher_says": "The statement says do not change params: copy W^O (params.w_o.copy()) and build new MHAParams with it.",
  "code": '''
import mha

def attention_without_head(x, params, head):
    d_v = params.w_o.shape[0] // params.num_heads
    params.w_o[head * d_v:(head + 1) * d_v] = 0.0
    out, _ = mha.multi_head_attention(x, x, x, params)
    return out
'''},
]
