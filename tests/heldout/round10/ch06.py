# writer B's answers, then writer F's (each file verbatim)
ANSWERS = [
    # ------------------------------------------------------------------ params_from_torch
    {"exercise": "params_from_torch", "kind": "correct",
     "idea": "torch.chunk the stacked (3d, d) weight and bias into three, transpose each block "
             "(and out_proj.weight) to (in, out), and copy to NumPy",
     "code": '''
import numpy as np
import mha


def params_from_torch(torch_mha):
    def arr(t):
        return np.ascontiguousarray(t.detach().cpu().numpy())

    w_q, w_k, w_v = (arr(w.T) for w in torch_mha.in_proj_weight.chunk(3, dim=0))
    w_o = arr(torch_mha.out_proj.weight.T)
    biases = {}
    if torch_mha.in_proj_bias is not None:
        b_q, b_k, b_v = (arr(b) for b in torch_mha.in_proj_bias.chunk(3))
        biases = dict(b_q=b_q, b_k=b_k, b_v=b_v, b_o=arr(torch_mha.out_proj.bias))
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, **biases)
'''},
    {"exercise": "params_from_torch", "kind": "robustness",
     "idea": "right weights, but every array is converted to a float64 copy (.double()) "
             "whatever the module's dtype",
     "code": '''
import mha


def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    w_in = torch_mha.in_proj_weight.detach().double()
    w_q = w_in[:d].T.numpy().copy()
    w_k = w_in[d:2 * d].T.numpy().copy()
    w_v = w_in[2 * d:].T.numpy().copy()
    w_o = torch_mha.out_proj.weight.detach().double().T.numpy().copy()
    if torch_mha.in_proj_bias is None:
        return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads)
    b_in = torch_mha.in_proj_bias.detach().double().numpy().copy()
    b_o = torch_mha.out_proj.bias.detach().double().numpy().copy()
    return mha.MHAParams(
        w_q, w_k, w_v, w_o, torch_mha.num_heads, b_in[:d], b_in[d:2 * d], b_in[2 * d:], b_o
    )
'''},
    {"exercise": "params_from_torch", "kind": "wrong",
     "mistake": "Copied the blocks of in_proj_weight and out_proj.weight as they are, without "
                "transposing from nn.Linear's (out, in) layout; it runs because they are square.",
     "teacher_says": "nn.Linear computes x @ W.T: transpose every block to get the paper's "
                     "(in, out) layout.",
     "code": '''
import mha


def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().numpy()
    w_o = torch_mha.out_proj.weight.detach().numpy()
    biases = ()
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().numpy()
        biases = (b[:d], b[d:2 * d], b[2 * d:], torch_mha.out_proj.bias.detach().numpy())
    return mha.MHAParams(w[:d], w[d:2 * d], w[2 * d:], w_o, torch_mha.num_heads, *biases)
'''},
    {"exercise": "params_from_torch", "kind": "wrong",
     "mistake": "Always read the biases, so a module built with bias=False (in_proj_bias is None) "
                "raises an AttributeError on None.detach().",
     "teacher_says": "The module may have no biases: check in_proj_bias for None and leave the "
                     "biases None then.",
     "code": '''
import mha


def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().numpy()
    b = torch_mha.in_proj_bias.detach().numpy()
    return mha.MHAParams(
        w[:d].T.copy(), w[d:2 * d].T.copy(), w[2 * d:].T.copy(),
        torch_mha.out_proj.weight.detach().numpy().T.copy(),
        torch_mha.num_heads,
        b[:d].copy(), b[d:2 * d].copy(), b[2 * d:].copy(),
        torch_mha.out_proj.bias.detach().numpy().copy(),
    )
'''},
    {"exercise": "params_from_torch", "kind": "wrong",
     "mistake": "Passed torch_mha.head_dim as the number of heads (confusing the two sizes); "
                "it is accepted whenever head_dim divides d_model and splits the heads wrongly.",
     "teacher_says": "The number of heads is torch_mha.num_heads; head_dim is d_model / h.",
     "code": '''
import numpy as np
import mha


def params_from_torch(torch_mha):
    w_q, w_k, w_v = (np.ascontiguousarray(w.detach().numpy().T)
                     for w in torch_mha.in_proj_weight.chunk(3))
    w_o = np.ascontiguousarray(torch_mha.out_proj.weight.detach().numpy().T)
    if torch_mha.in_proj_bias is None:
        b = [None] * 4
    else:
        b = [x.detach().numpy().copy() for x in torch_mha.in_proj_bias.chunk(3)]
        b.append(torch_mha.out_proj.bias.detach().numpy().copy())
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.head_dim, *b)
'''},
    # ------------------------------------------------------------------ torch_key_padding_mask
    {"exercise": "torch_key_padding_mask", "kind": "correct",
     "idea": "flatten the two singleton axes away and take the logical not",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    return torch.logical_not(mask.flatten(1, 3))  # (B, n_k), True = pad
'''},
    {"exercise": "torch_key_padding_mask", "kind": "robustness",
     "idea": "right mask, rebuilt entry by entry from Python booleans with torch.tensor",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    B, n_k = mask.shape[0], mask.shape[-1]
    rows = []
    for b in range(B):
        rows.append([not bool(mask[b, 0, 0, j]) for j in range(n_k)])
    return torch.tensor(rows, dtype=torch.bool).reshape(B, n_k)
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong",
     "mistake": "Dropped the singleton axes but did not flip the polarity, so "
                "nn.MultiheadAttention hides the real keys and attends the pads.",
     "teacher_says": "key_padding_mask is True at the pads: pass ~mask.",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    return mask[:, 0, 0, :].clone()
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong",
     "mistake": "Flipped the polarity but kept the book's (B, 1, 1, n_k) shape, which "
                "nn.MultiheadAttention rejects for key_padding_mask.",
     "teacher_says": "key_padding_mask has shape (B, n_k): drop the heads and queries axes.",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    return ~mask
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong",
     "mistake": "Used mask.squeeze() to drop the singleton axes, which also drops the batch "
                "axis when B = 1 and returns shape (n_k,).",
     "teacher_says": "Name the axes you squeeze (1 and 2): squeeze() removes every axis of size 1.",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    return ~mask.squeeze()
'''},
    # ------------------------------------------------------------------ attention_backward
    {"exercise": "attention_backward", "kind": "correct",
     "idea": "recompute the forward pass, then go back with einsums; the softmax step as "
             "P * (dP - rowsum(dP * P))",
     "code": '''
import math

import numpy as np


def attention_backward(q, k, v, grad_out):
    scale = 1.0 / math.sqrt(q.shape[-1])  # a Python float keeps float32 inputs float32
    s = np.einsum("...id,...jd->...ij", q, k) * scale
    s = s - s.max(axis=-1, keepdims=True)
    p = np.exp(s)
    p = p / p.sum(axis=-1, keepdims=True)
    grad_v = np.einsum("...ij,...id->...jd", p, grad_out)
    grad_p = np.einsum("...id,...jd->...ij", grad_out, v)
    grad_s = p * (grad_p - np.einsum("...ij,...ij->...i", grad_p, p)[..., None])
    grad_q = np.einsum("...ij,...jd->...id", grad_s, k) * scale
    grad_k = np.einsum("...ij,...id->...jd", grad_s, q) * scale
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "robustness",
     "idea": "right gradients, computed in float64 (upcast inputs) with the full softmax "
             "Jacobian diag(p) - p p^T built for every row; returned in float64",
     "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    q, k, v, g = (np.asarray(a, dtype=np.float64) for a in (q, k, v, grad_out))
    d_k = q.shape[-1]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_k)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ g
    grad_p = g @ np.swapaxes(v, -1, -2)
    jac = p[..., :, None] * np.eye(p.shape[-1]) - p[..., :, None] * p[..., None, :]
    grad_s = (jac @ grad_p[..., :, None])[..., 0]  # Jacobian is symmetric
    grad_q = grad_s @ k / np.sqrt(d_k)
    grad_k = np.swapaxes(grad_s, -1, -2) @ q / np.sqrt(d_k)
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "wrong",
     "mistake": "Forgot the 1/sqrt(d_k) factor on the way back from the scores to Q and K.",
     "teacher_says": "S = QK^T / sqrt(d_k), so dQ and dK each carry the factor 1/sqrt(d_k).",
     "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s - s.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(-1, keepdims=True))
    grad_q = grad_s @ k
    grad_k = np.swapaxes(grad_s, -1, -2) @ q
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "wrong",
     "mistake": "Went through the softmax as if it were elementwise, grad_s = p * grad_p, "
                "leaving out the term that subtracts <grad_p, p>.",
     "teacher_says": "Each weight depends on every score of its row: use the Jacobian "
                     "diag(p) - p p^T, which subtracts the row's inner product.",
     "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    d_k = q.shape[-1]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_k)
    e = np.exp(s - s.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * grad_p
    grad_q = grad_s @ k / np.sqrt(d_k)
    grad_k = np.swapaxes(grad_s, -1, -2) @ q / np.sqrt(d_k)
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "wrong",
     "mistake": "Transposed with .T, which reverses every axis: right for one (n, d) matrix, "
                "wrong (or a shape error) as soon as there are batch axes.",
     "teacher_says": "With batch axes transpose only the last two: np.swapaxes(x, -1, -2).",
     "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    d_k = q.shape[-1]
    s = q @ k.T / np.sqrt(d_k)
    e = np.exp(s - s.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    grad_v = p.T @ grad_out
    grad_p = grad_out @ v.T
    grad_s = p * (grad_p - (grad_p * p).sum(-1, keepdims=True))
    grad_q = grad_s @ k / np.sqrt(d_k)
    grad_k = grad_s.T @ q / np.sqrt(d_k)
    return grad_q, grad_k, grad_v
'''},
    # ------------------------------------------------------------------ module_forward
    {"exercise": "module_forward", "kind": "correct",
     "idea": "unflatten the projected features into (h, d) and transpose, masked_fill with "
             "-inf and a softmax whose all -inf rows are turned into zeros with nan_to_num",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def project(x, w, b):
        y = x @ w
        return y if b is None else y + b

    def split(y):
        return y.unflatten(-1, (h, -1)).transpose(-3, -2)  # (..., h, n, d)

    qh = split(project(q, module.w_q, module.b_q))
    kh = split(project(k, module.w_k, module.b_k))
    vh = split(project(v, module.w_v, module.b_v))
    scores = (qh @ kh.transpose(-1, -2)) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    if mask is not None:
        weights = torch.nan_to_num(weights, nan=0.0)
    heads = weights @ vh  # (..., h, n_q, d_v)
    concat = heads.transpose(-3, -2).flatten(-2)  # (..., n_q, h*d_v)
    return project(concat, module.w_o, module.b_o), weights
'''},
    {"exercise": "module_forward", "kind": "robustness",
     "idea": "right numbers, one head at a time in a Python loop with column slices of the "
             "weights, concatenated with torch.cat and the weights stacked at the end",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h, d_k, d_v = module.num_heads, module.d_k, module.d_v
    outs, all_weights = [], []
    for i in range(h):
        cq = slice(i * d_k, (i + 1) * d_k)
        cv = slice(i * d_v, (i + 1) * d_v)
        q_i = q @ module.w_q[:, cq]
        k_i = k @ module.w_k[:, cq]
        v_i = v @ module.w_v[:, cv]
        if module.b_q is not None:
            q_i = q_i + module.b_q[cq]
        if module.b_k is not None:
            k_i = k_i + module.b_k[cq]
        if module.b_v is not None:
            v_i = v_i + module.b_v[cv]
        s = q_i @ k_i.transpose(-1, -2) / math.sqrt(d_k)
        if mask is not None:
            m = mask
            if m.dim() >= 3:
                m = m[..., i if m.shape[-3] > 1 else 0, :, :]
            s = s.masked_fill(~m, float("-inf"))
        row_max = s.amax(dim=-1, keepdim=True)
        row_max = torch.where(torch.isinf(row_max), torch.zeros_like(row_max), row_max)
        e = torch.exp(s - row_max)
        tot = e.sum(dim=-1, keepdim=True)
        w = e / torch.where(tot == 0, torch.ones_like(tot), tot)
        all_weights.append(w)
        outs.append(w @ v_i)
    out = torch.cat(outs, dim=-1) @ module.w_o
    if module.b_o is not None:
        out = out + module.b_o
    return out, torch.stack(all_weights, dim=-3)
'''},
    {"exercise": "module_forward", "kind": "wrong",
     "mistake": "Used the weights in nn.Linear's layout, x @ w.T, although the module stores "
                "them in the paper's layout; it runs for square weights and is wrong.",
     "teacher_says": "module.w_q is (d_model, h*d_k), the paper's layout: q @ module.w_q, no .T.",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def lin(x, w, b):
        y = x @ w.T
        return y if b is None else y + b

    def split(y):
        *batch, n, f = y.shape
        return y.reshape(*batch, n, h, f // h).transpose(-3, -2)

    qh = split(lin(q, module.w_q, module.b_q))
    kh = split(lin(k, module.w_k, module.b_k))
    vh = split(lin(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
    heads = weights @ vh
    *batch, _, n_q, d_v = heads.shape
    concat = heads.transpose(-3, -2).reshape(*batch, n_q, h * d_v)
    return lin(concat, module.w_o, module.b_o), weights
'''},
    {"exercise": "module_forward", "kind": "wrong",
     "mistake": "Followed the recipe (masked_fill with -inf, then torch.softmax) but did not "
                "handle a query with no allowed key: its weights and output are NaN.",
     "teacher_says": "The softmax of a row of -inf is NaN: give such rows zero weights, as the "
                     "module does.",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def proj(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(y):
        *batch, n, f = y.shape
        return y.reshape(*batch, n, h, f // h).transpose(-3, -2)

    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    heads = weights @ vh
    *batch, _, n_q, d_v = heads.shape
    concat = heads.transpose(-3, -2).reshape(*batch, n_q, h * d_v)
    return proj(concat, module.w_o, module.b_o), weights
'''},
    {"exercise": "module_forward", "kind": "wrong",
     "mistake": "Scaled the scores by sqrt(d_model / h), assuming d_k = d_model / h, which is "
                "wrong for a module built with another d_k.",
     "teacher_says": "Use the module's own d_k (module.d_k) for the scale; d_k need not be "
                     "d_model / h.",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def proj(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(y):
        *batch, n, f = y.shape
        return y.reshape(*batch, n, h, f // h).transpose(-3, -2)

    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_model // h)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    if mask is not None:
        weights = weights.masked_fill(~mask.any(dim=-1, keepdim=True), 0.0)
    heads = weights @ vh
    *batch, _, n_q, d_v = heads.shape
    concat = heads.transpose(-3, -2).reshape(*batch, n_q, h * d_v)
    return proj(concat, module.w_o, module.b_o), weights
'''},
]

_WRITER_B = ANSWERS

ANSWERS = [
    # ------------------------------------------------------------------ params_from_torch
    {"exercise": "params_from_torch", "kind": "correct",
     "idea": "torch.chunk the stacked in_proj weight and bias, transpose each block, copy to NumPy",
     "code": '''
import numpy as np
import torch
import mha


def params_from_torch(torch_mha):
    def arr(t):
        return None if t is None else np.ascontiguousarray(t.detach().cpu().numpy())

    with torch.no_grad():
        wq, wk, wv = torch.chunk(torch_mha.in_proj_weight, 3, dim=0)
        wo = torch_mha.out_proj.weight
        if torch_mha.in_proj_bias is not None:
            bq, bk, bv = torch.chunk(torch_mha.in_proj_bias, 3, dim=0)
        else:
            bq = bk = bv = None
        bo = torch_mha.out_proj.bias
    return mha.MHAParams(
        arr(wq.T), arr(wk.T), arr(wv.T), arr(wo.T), torch_mha.num_heads,
        arr(bq), arr(bk), arr(bv), arr(bo),
    )
'''},
    {"exercise": "params_from_torch", "kind": "robustness",
     "idea": "row slices by explicit index arithmetic, every array copied to float64 whatever the module's dtype",
     "code": '''
import numpy as np
import mha


def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    W = np.array(torch_mha.in_proj_weight.detach().tolist(), dtype=np.float64)
    blocks = [W[i * d:(i + 1) * d, :].T.copy() for i in range(3)]
    w_o = np.array(torch_mha.out_proj.weight.detach().tolist(), dtype=np.float64).T.copy()
    biases = [None, None, None, None]
    if torch_mha.in_proj_bias is not None:
        b = np.array(torch_mha.in_proj_bias.detach().tolist(), dtype=np.float64)
        biases[0:3] = [b[i * d:(i + 1) * d].copy() for i in range(3)]
    if torch_mha.out_proj.bias is not None:
        biases[3] = np.array(torch_mha.out_proj.bias.detach().tolist(), dtype=np.float64)
    return mha.MHAParams(*blocks, w_o, torch_mha.num_heads, *biases)
'''},
    {"exercise": "params_from_torch", "kind": "wrong",
     "mistake": "Transposes the three in_proj blocks but forgets that out_proj.weight is in nn.Linear's (out, in) layout too, and keeps it untransposed (it runs, being square).",
     "teacher_says": "out_proj is an nn.Linear like the others: its weight needs the same .T to become W^O.",
     "code": '''
import numpy as np
import mha


def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    W = torch_mha.in_proj_weight.detach().numpy()
    w_q, w_k, w_v = W[:d].T, W[d:2 * d].T, W[2 * d:].T
    w_o = torch_mha.out_proj.weight.detach().numpy()
    b = torch_mha.in_proj_bias
    if b is None:
        b_q = b_k = b_v = b_o = None
    else:
        b = b.detach().numpy()
        b_q, b_k, b_v = b[:d], b[d:2 * d], b[2 * d:]
        b_o = torch_mha.out_proj.bias.detach().numpy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, b_q, b_k, b_v, b_o)
'''},
    {"exercise": "params_from_torch", "kind": "wrong",
     "mistake": "Copy-pasted the slice line and left W^V reading the key block (rows d:2d) instead of rows 2d:3d.",
     "teacher_says": "in_proj_weight stacks Q, K, V in that order: W^V is the third block, rows 2d:3d.",
     "code": '''
import numpy as np
import mha


def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    W = torch_mha.in_proj_weight.detach().numpy()
    w_q = W[0:d].T
    w_k = W[d:2 * d].T
    w_v = W[d:2 * d].T
    w_o = torch_mha.out_proj.weight.detach().numpy().T
    if torch_mha.in_proj_bias is None:
        return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads)
    b = torch_mha.in_proj_bias.detach().numpy()
    return mha.MHAParams(
        w_q, w_k, w_v, w_o, torch_mha.num_heads,
        b[0:d], b[d:2 * d], b[2 * d:3 * d], torch_mha.out_proj.bias.detach().numpy(),
    )
'''},
    {"exercise": "params_from_torch", "kind": "wrong",
     "mistake": "Converts the weights correctly but never reads the biases, so a module with biases comes back without them.",
     "teacher_says": "nn.MultiheadAttention has biases by default: in_proj_bias holds b_Q, b_K, b_V and out_proj.bias holds b_O.",
     "code": '''
import numpy as np
import mha


def params_from_torch(torch_mha):
    W = torch_mha.in_proj_weight.detach().numpy()
    w_q, w_k, w_v = (block.T for block in np.split(W, 3, axis=0))
    w_o = torch_mha.out_proj.weight.detach().numpy().T
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads)
'''},
    # ------------------------------------------------------------------ torch_key_padding_mask
    {"exercise": "torch_key_padding_mask", "kind": "correct",
     "idea": "flatten the two singleton axes with reshape, then logical_not",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    return torch.logical_not(mask.reshape(mask.shape[0], mask.shape[-1]))
'''},
    {"exercise": "torch_key_padding_mask", "kind": "robustness",
     "idea": "nested Python loops over sequences and keys, rebuilt with torch.tensor",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    B, n_k = mask.shape[0], mask.shape[-1]
    rows = []
    for b in range(B):
        rows.append([not bool(mask[b, 0, 0, j]) for j in range(n_k)])
    return torch.tensor(rows, dtype=torch.bool).reshape(B, n_k)
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong",
     "mistake": "Drops the singleton axes but forgets to flip the polarity: nn.MultiheadAttention then blocks the real keys and attends only the pads.",
     "teacher_says": "key_padding_mask is True at the pads (may NOT attend), the opposite of the book's mask: negate it with ~.",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    return mask[:, 0, 0, :].clone()
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong",
     "mistake": "Uses mask.squeeze(), which also drops the batch axis when B = 1 (and the key axis when n_k = 1), giving shape (n_k,) instead of (B, n_k).",
     "teacher_says": "Name the axes you remove: squeeze(1).squeeze(1) or mask[:, 0, 0, :]; a bare squeeze() breaks on a batch of one.",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    return ~mask.squeeze()
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong",
     "mistake": "Flips the mask arithmetically with 1 - mask.int(), returning an int tensor where nn.MultiheadAttention needs a bool one.",
     "teacher_says": "Keep it boolean: ~mask or torch.logical_not; nn.MultiheadAttention rejects (or misreads) integer padding masks.",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    return (1 - mask.int())[:, 0, 0, :]
'''},
    # ------------------------------------------------------------------ attention_backward
    {"exercise": "attention_backward", "kind": "correct",
     "idea": "forward again, then einsum for each product and the row-softmax rule ds = p * (dp - <dp, p>)",
     "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    scale = 1.0 / np.sqrt(q.shape[-1])
    s = np.einsum("...id,...jd->...ij", q, k) * scale
    s = s - s.max(axis=-1, keepdims=True)
    p = np.exp(s)
    p /= p.sum(axis=-1, keepdims=True)
    grad_v = np.einsum("...ij,...id->...jd", p, grad_out)
    grad_p = np.einsum("...id,...jd->...ij", grad_out, v)
    grad_s = p * (grad_p - np.sum(grad_p * p, axis=-1, keepdims=True))
    grad_q = np.einsum("...ij,...jd->...id", grad_s, k) * scale
    grad_k = np.einsum("...ij,...id->...jd", grad_s, q) * scale
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "robustness",
     "idea": "a Python loop over every batch index, with the full softmax Jacobian diag(p) - p p^T built for every query row",
     "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    q, k, v, grad_out = (np.asarray(a) for a in (q, k, v, grad_out))
    grad_q = np.zeros_like(q)
    grad_k = np.zeros_like(k)
    grad_v = np.zeros_like(v)
    d_k = q.shape[-1]
    for idx in np.ndindex(*q.shape[:-2]):
        Q, K, V, G = q[idx], k[idx], v[idx], grad_out[idx]
        S = Q @ K.T / np.sqrt(d_k)
        P = np.empty_like(S)
        for i in range(S.shape[0]):
            e = np.exp(S[i] - S[i].max())
            P[i] = e / e.sum()
        dV = P.T @ G
        dP = G @ V.T
        dS = np.empty_like(dP)
        for i in range(P.shape[0]):
            jac = np.diag(P[i]) - np.outer(P[i], P[i])
            dS[i] = jac @ dP[i]
        grad_q[idx] = dS @ K / np.sqrt(d_k)
        grad_k[idx] = dS.T @ Q / np.sqrt(d_k)
        grad_v[idx] = dV
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "wrong",
     "mistake": "Scales by 1/sqrt(d_v) (the width of v and grad_out) instead of 1/sqrt(d_k), in the forward recomputation and the gradients; right only when d_k == d_v.",
     "teacher_says": "The scale belongs to the scores Q K^T, whose dot products run over d_k = q.shape[-1].",
     "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    c = 1.0 / np.sqrt(v.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * c
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(axis=-1, keepdims=True))
    grad_q = grad_s @ k * c
    grad_k = np.swapaxes(grad_s, -1, -2) @ q * c
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "wrong",
     "mistake": "In the softmax step sums grad_p * p over axis -2 (the queries) instead of -1 (each row's keys).",
     "teacher_says": "The softmax runs along each query's row, so the inner product <dL/dp, p> is over the last axis.",
     "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    c = 1.0 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * c
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(axis=-2, keepdims=True))
    grad_q = grad_s @ k * c
    grad_k = np.swapaxes(grad_s, -1, -2) @ q * c
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "wrong",
     "mistake": "Computes grad_k as grad_s @ q, forgetting to transpose grad_s: wrong values, and the wrong shape (n_q, d_k) when n_q != n_k.",
     "teacher_says": "S = Q K^T, so dL/dK = (dL/dS)^T Q: one row per key, which needs the transpose of grad_s.",
     "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    c = 1.0 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * c
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(axis=-1, keepdims=True))
    grad_q = grad_s @ k * c
    grad_k = grad_s @ q * c
    return grad_q, grad_k, grad_v
'''},
    # ------------------------------------------------------------------ module_forward
    {"exercise": "module_forward", "kind": "correct",
     "idea": "unflatten/transpose into heads, torch.where for the mask, softmax on rows made safe and then multiplied by a has-any-key flag",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def proj(x, w, b):
        y = torch.matmul(x, w)
        return y if b is None else y + b

    def split(x):
        return x.unflatten(-1, (h, x.shape[-1] // h)).transpose(-3, -2)

    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = torch.matmul(qh, kh.transpose(-1, -2)) / math.sqrt(module.d_k)
    if mask is not None:
        scores = torch.where(mask, scores, torch.full_like(scores, float("-inf")))
    any_key = torch.isfinite(scores).any(dim=-1, keepdim=True)
    safe = torch.where(any_key, scores, torch.zeros_like(scores))
    weights = torch.softmax(safe, dim=-1) * any_key
    heads = torch.matmul(weights, vh)
    concat = heads.transpose(-3, -2).flatten(-2)
    return proj(concat, module.w_o, module.b_o), weights
'''},
    {"exercise": "module_forward", "kind": "robustness",
     "idea": "one head at a time in a Python loop over column slices, torch.cat / torch.stack at the end",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h, d_k, d_v = module.num_heads, module.d_k, module.d_v
    outs, ws = [], []
    for i in range(h):
        cq = slice(i * d_k, (i + 1) * d_k)
        cv = slice(i * d_v, (i + 1) * d_v)
        qi = q @ module.w_q[:, cq]
        ki = k @ module.w_k[:, cq]
        vi = v @ module.w_v[:, cv]
        if module.b_q is not None:
            qi = qi + module.b_q[cq]
        if module.b_k is not None:
            ki = ki + module.b_k[cq]
        if module.b_v is not None:
            vi = vi + module.b_v[cv]
        s = qi @ ki.transpose(-1, -2) / math.sqrt(d_k)
        if mask is not None:
            m = mask
            if m.dim() >= 3:
                m = m.select(-3, 0 if m.shape[-3] == 1 else i)
            s = s.masked_fill(~m, float("-inf"))
        row_max = s.amax(dim=-1, keepdim=True)
        row_max = torch.where(torch.isinf(row_max), torch.zeros_like(row_max), row_max)
        e = torch.exp(s - row_max)
        total = e.sum(dim=-1, keepdim=True)
        w = e / torch.where(total == 0, torch.ones_like(total), total)
        outs.append(w @ vi)
        ws.append(w)
    out = torch.cat(outs, dim=-1) @ module.w_o
    if module.b_o is not None:
        out = out + module.b_o
    return out, torch.stack(ws, dim=-3)
'''},
    {"exercise": "module_forward", "kind": "wrong",
     "mistake": "Scales the scores by sqrt(d_model / h) instead of sqrt(module.d_k): the same in the default layer, wrong when d_k != d_model/h.",
     "teacher_says": "Use the per-head key size the module actually has, module.d_k; d_model/h is only its default.",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def proj(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(x):
        *lead, n, f = x.shape
        return x.reshape(*lead, n, h, f // h).transpose(-3, -2)

    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_model // h)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    row_max = scores.amax(-1, keepdim=True)
    row_max = torch.where(torch.isfinite(row_max), row_max, torch.zeros_like(row_max))
    e = torch.exp(scores - row_max)
    total = e.sum(-1, keepdim=True)
    weights = e / torch.where(total == 0, torch.ones_like(total), total)
    heads = weights @ vh
    *lead, _, n_q, d_v = heads.shape
    concat = heads.transpose(-3, -2).reshape(*lead, n_q, h * d_v)
    return proj(concat, module.w_o, module.b_o), weights
'''},
    {"exercise": "module_forward", "kind": "wrong",
     "mistake": "Uses masked_fill(~mask, -inf) and a plain torch.softmax, so a query that may attend no key gets NaN weights and a NaN output instead of zeros.",
     "teacher_says": "The softmax of a row of -inf is NaN: detect rows with no allowed key and give them zero weights, as the module does.",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def proj(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(x):
        *lead, n, f = x.shape
        return x.reshape(*lead, n, h, f // h).transpose(-3, -2)

    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    heads = weights @ vh
    *lead, _, n_q, d_v = heads.shape
    concat = heads.transpose(-3, -2).reshape(*lead, n_q, h * d_v)
    return proj(concat, module.w_o, module.b_o), weights
'''},
    {"exercise": "module_forward", "kind": "wrong",
     "mistake": "Uses nn.MultiheadAttention's polarity: masked_fill(mask, -inf) hides the keys the mask allows and keeps the forbidden ones.",
     "teacher_says": "Here True = may attend: fill where the mask is False, masked_fill(~mask, -inf).",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def proj(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(x):
        *lead, n, f = x.shape
        return x.reshape(*lead, n, h, f // h).transpose(-3, -2)

    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    row_max = scores.amax(-1, keepdim=True)
    row_max = torch.where(torch.isfinite(row_max), row_max, torch.zeros_like(row_max))
    e = torch.exp(scores - row_max)
    total = e.sum(-1, keepdim=True)
    weights = e / torch.where(total == 0, torch.ones_like(total), total)
    heads = weights @ vh
    *lead, _, n_q, d_v = heads.shape
    concat = heads.transpose(-3, -2).reshape(*lead, n_q, h * d_v)
    return proj(concat, module.w_o, module.b_o), weights
'''},
]

_WRITER_F = ANSWERS
ANSWERS = _WRITER_B + _WRITER_F
