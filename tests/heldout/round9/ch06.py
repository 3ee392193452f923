# writer B's answers, then writer F's (each file verbatim)
"""Student answers for chapter 6 (the PyTorch variant), writer B."""

ANSWERS = [
    # ------------------------------------------------------------------ params_from_torch
    {"exercise": "params_from_torch", "kind": "correct",
     "idea": "np.split the stacked in_proj blocks, transpose each block (and out_proj) to x @ W layout",
     "code": '''
import numpy as np
import mha


def params_from_torch(torch_mha):
    def arr(t):
        return None if t is None else t.detach().cpu().numpy()

    w_in = arr(torch_mha.in_proj_weight)
    w_q, w_k, w_v = (np.ascontiguousarray(block.T) for block in np.split(w_in, 3, axis=0))
    w_o = np.ascontiguousarray(arr(torch_mha.out_proj.weight).T)
    b_in = arr(torch_mha.in_proj_bias)
    if b_in is None:
        b_q = b_k = b_v = b_o = None
    else:
        b_q, b_k, b_v = (b.copy() for b in np.split(b_in, 3))
        b_o = arr(torch_mha.out_proj.bias).copy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, b_q, b_k, b_v, b_o)
'''},
    {"exercise": "params_from_torch", "kind": "robustness",
     "idea": "reads the state_dict by name and returns float64 copies of everything (the statement allows a float64 copy)",
     "code": '''
import numpy as np
import mha


def params_from_torch(torch_mha):
    state = {name: t.detach().cpu().double().numpy() for name, t in torch_mha.state_dict().items()}
    w_in = state["in_proj_weight"]
    d = w_in.shape[0] // 3
    names = ["w_q", "w_k", "w_v"]
    weights = {}
    for idx, name in enumerate(names):
        block = w_in[idx * d:(idx + 1) * d, :]
        weights[name] = np.array([[block[r, c] for r in range(block.shape[0])] for c in range(block.shape[1])])
    weights["w_o"] = state["out_proj.weight"].T.copy()
    biases = {"b_q": None, "b_k": None, "b_v": None, "b_o": None}
    if "in_proj_bias" in state:
        b_in = state["in_proj_bias"]
        biases = {"b_q": b_in[:d].copy(), "b_k": b_in[d:2 * d].copy(), "b_v": b_in[2 * d:].copy(),
                  "b_o": state["out_proj.bias"].copy()}
    return mha.MHAParams(num_heads=torch_mha.num_heads, **weights, **biases)
'''},
    {"exercise": "params_from_torch", "kind": "wrong",
     "mistake": "Copied the blocks as PyTorch stores them, without the transpose: it runs because the matrices are square, and computes something else.",
     "teacher_says": "nn.Linear stores (out, in) and computes x @ W.T; the paper layout x @ W needs each block transposed.",
     "code": '''
import numpy as np
import mha


def params_from_torch(torch_mha):
    w_in = torch_mha.in_proj_weight.detach().numpy()
    d = w_in.shape[0] // 3
    w_q, w_k, w_v = w_in[:d].copy(), w_in[d:2 * d].copy(), w_in[2 * d:].copy()
    w_o = torch_mha.out_proj.weight.detach().numpy().copy()
    if torch_mha.in_proj_bias is None:
        return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads)
    b_in = torch_mha.in_proj_bias.detach().numpy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads,
                         b_in[:d].copy(), b_in[d:2 * d].copy(), b_in[2 * d:].copy(),
                         torch_mha.out_proj.bias.detach().numpy().copy())
'''},
    {"exercise": "params_from_torch", "kind": "wrong",
     "mistake": "Transposed the three input blocks but forgot to transpose out_proj.weight.",
     "teacher_says": "out_proj is an nn.Linear too: its weight is (out, in) and needs the same .T as the input projections.",
     "code": '''
import numpy as np
import mha


def params_from_torch(torch_mha):
    w_in = torch_mha.in_proj_weight.detach().numpy()
    d = w_in.shape[1]
    w_q, w_k, w_v = (w_in[i * d:(i + 1) * d].T.copy() for i in range(3))
    w_o = torch_mha.out_proj.weight.detach().numpy().copy()
    biases = [None] * 4
    if torch_mha.in_proj_bias is not None:
        b_in = torch_mha.in_proj_bias.detach().numpy()
        biases = [b_in[i * d:(i + 1) * d].copy() for i in range(3)]
        biases.append(torch_mha.out_proj.bias.detach().numpy().copy())
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, *biases)
'''},
    {"exercise": "params_from_torch", "kind": "wrong",
     "mistake": "Slip in a copy-pasted line: W^V is taken from rows d:2d (the key block) instead of 2d:3d.",
     "teacher_says": "in_proj_weight stacks Q, K, V: the value block is the last third, rows 2d:3d.",
     "code": '''
import numpy as np
import mha


def params_from_torch(torch_mha):
    w_in = torch_mha.in_proj_weight.detach().numpy()
    d = torch_mha.embed_dim
    w_q = w_in[0:d].T.copy()
    w_k = w_in[d:2 * d].T.copy()
    w_v = w_in[d:2 * d].T.copy()
    w_o = torch_mha.out_proj.weight.detach().numpy().T.copy()
    b_q = b_k = b_v = b_o = None
    if torch_mha.in_proj_bias is not None:
        b_in = torch_mha.in_proj_bias.detach().numpy()
        b_q, b_k, b_v = b_in[0:d].copy(), b_in[d:2 * d].copy(), b_in[2 * d:].copy()
        b_o = torch_mha.out_proj.bias.detach().numpy().copy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, b_q, b_k, b_v, b_o)
'''},
    # ------------------------------------------------------------------ torch_key_padding_mask
    {"exercise": "torch_key_padding_mask", "kind": "correct",
     "idea": "flatten the singleton heads/queries axes away and negate: True = pad",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    return torch.logical_not(mask.flatten(start_dim=1))
'''},
    {"exercise": "torch_key_padding_mask", "kind": "robustness",
     "idea": "goes through Python lists element by element and builds a fresh bool tensor",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    rows = []
    for b in range(mask.shape[0]):
        rows.append([not bool(mask[b, 0, 0, j]) for j in range(mask.shape[-1])])
    return torch.tensor(rows, dtype=torch.bool, device=mask.device).reshape(mask.shape[0], mask.shape[-1])
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong",
     "mistake": "Dropped the singleton axes but forgot to flip the polarity: nn.MultiheadAttention then ignores the real keys and attends the pads.",
     "teacher_says": "key_padding_mask is True at the pads, the opposite of this book's mask: negate it with ~.",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    return mask[:, 0, 0, :]
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong",
     "mistake": "Flipped the polarity but kept the (B, 1, 1, n_k) shape; key_padding_mask must be (B, n_k).",
     "teacher_says": "nn.MultiheadAttention wants key_padding_mask of shape (B, n_k): drop the two singleton axes.",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    return ~mask
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong",
     "mistake": "Used mask.squeeze() to drop the singleton axes, which also drops the batch axis when B == 1 (and the keys axis when n_k == 1).",
     "teacher_says": "Name the axes you remove (mask[:, 0, 0, :] or squeeze(2).squeeze(1)): a bare squeeze() removes every axis of size 1.",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    return ~mask.squeeze()
'''},
    # ------------------------------------------------------------------ attention_backward
    {"exercise": "attention_backward", "kind": "correct",
     "idea": "recompute the forward pass, then go back with einsum; softmax backward as p * (g - <g, p>)",
     "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    scale = 1.0 / np.sqrt(q.shape[-1])
    s = np.einsum("...id,...jd->...ij", q, k) * scale
    s = s - s.max(axis=-1, keepdims=True)
    p = np.exp(s)
    p = p / p.sum(axis=-1, keepdims=True)
    grad_v = np.einsum("...ij,...id->...jd", p, grad_out)
    grad_p = np.einsum("...id,...jd->...ij", grad_out, v)
    grad_s = p * (grad_p - np.sum(grad_p * p, axis=-1, keepdims=True))
    grad_q = np.einsum("...ij,...jd->...id", grad_s, k) * scale
    grad_k = np.einsum("...ij,...id->...jd", grad_s, q) * scale
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "robustness",
     "idea": "loops over every batch index with np.ndindex, forms each row's full softmax Jacobian diag(p) - p p^T, all in float64",
     "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    q, k, v, g = (np.asarray(a, dtype=np.float64) for a in (q, k, v, grad_out))
    batch = q.shape[:-2]
    d_k = q.shape[-1]
    gq, gk, gv = np.zeros_like(q), np.zeros_like(k), np.zeros_like(v)
    for idx in np.ndindex(*batch):
        Q, K, V, G = q[idx], k[idx], v[idx], g[idx]
        S = Q @ K.T / np.sqrt(d_k)
        P = np.exp(S - S.max(axis=1, keepdims=True))
        P /= P.sum(axis=1, keepdims=True)
        gv[idx] = P.T @ G
        dP = G @ V.T
        dS = np.zeros_like(dP)
        for i in range(P.shape[0]):
            jac = np.diag(P[i]) - np.outer(P[i], P[i])
            dS[i] = jac @ dP[i]
        gq[idx] = dS @ K / np.sqrt(d_k)
        gk[idx] = dS.T @ Q / np.sqrt(d_k)
    return gq, gk, gv
'''},
    {"exercise": "attention_backward", "kind": "wrong",
     "mistake": "Scaled the scores by 1/sqrt(d_k) in the forward pass but forgot the same factor on the way back to Q and K.",
     "teacher_says": "S = QK^T / sqrt(d_k), so dL/dQ and dL/dK each carry that 1/sqrt(d_k) too.",
     "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    d_k = q.shape[-1]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_k)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(axis=-1, keepdims=True))
    grad_q = grad_s @ k
    grad_k = np.swapaxes(grad_s, -1, -2) @ q
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "wrong",
     "mistake": "Treated the softmax like an elementwise exp and used dS = P * dP, dropping the -<dP, p> term of its Jacobian.",
     "teacher_says": "Each weight depends on every score of its row: the softmax backward is p * (dP - sum(dP * p)).",
     "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    d_k = q.shape[-1]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_k)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * grad_p
    grad_q = grad_s @ k / np.sqrt(d_k)
    grad_k = np.swapaxes(grad_s, -1, -2) @ q / np.sqrt(d_k)
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "wrong",
     "mistake": "Used .T for every transpose, which reverses all axes, so it is only right for 2-D inputs and breaks with batch axes.",
     "teacher_says": "With batch axes, swap only the last two axes (np.swapaxes(x, -1, -2)); .T reverses the batch axes too.",
     "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    d_k = q.shape[-1]
    s = q @ k.T / np.sqrt(d_k)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    grad_v = p.T @ grad_out
    grad_p = grad_out @ v.T
    grad_s = p * (grad_p - (grad_p * p).sum(axis=-1, keepdims=True))
    grad_q = grad_s @ k / np.sqrt(d_k)
    grad_k = grad_s.T @ q / np.sqrt(d_k)
    return grad_q, grad_k, grad_v
'''},
    # ------------------------------------------------------------------ module_forward
    {"exercise": "module_forward", "kind": "correct",
     "idea": "unflatten into heads, masked_fill with -inf, softmax, and nan_to_num to turn empty rows into zeros",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def heads(x, w, b):
        y = x @ w
        if b is not None:
            y = y + b
        return y.unflatten(-1, (h, -1)).transpose(-3, -2)      # (..., h, n, d)

    qh = heads(q, module.w_q, module.b_q)
    kh = heads(k, module.w_k, module.b_k)
    vh = heads(v, module.w_v, module.b_v)
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
    concat = (weights @ vh).transpose(-3, -2).flatten(-2)         # (..., n_q, h*d_v)
    out = concat @ module.w_o
    if module.b_o is not None:
        out = out + module.b_o
    return out, weights
'''},
    {"exercise": "module_forward", "kind": "robustness",
     "idea": "one head at a time in a Python loop, computed in float64 and cast back to the input dtype, torch.cat to concatenate",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h, d_k = module.num_heads, module.d_k
    d_v = module.w_v.shape[1] // h
    dtype = q.dtype
    q64, k64, v64 = q.double(), k.double(), v.double()

    def col(w, b, sl):
        return w.double()[:, sl], None if b is None else b.double()[sl]

    outs, ws = [], []
    for i in range(h):
        sk, sv = slice(i * d_k, (i + 1) * d_k), slice(i * d_v, (i + 1) * d_v)
        wq, bq = col(module.w_q, module.b_q, sk)
        wk, bk = col(module.w_k, module.b_k, sk)
        wv, bv = col(module.w_v, module.b_v, sv)
        qi = q64 @ wq + (0 if bq is None else bq)
        ki = k64 @ wk + (0 if bk is None else bk)
        vi = v64 @ wv + (0 if bv is None else bv)
        s = qi @ ki.transpose(-1, -2) / math.sqrt(d_k)
        if mask is not None:
            m = mask
            if m.dim() >= 3:
                m = m.select(-3, i if m.shape[-3] > 1 else 0)
            s = torch.where(m, s, torch.tensor(float("-inf"), dtype=s.dtype, device=s.device))
        top = s.amax(dim=-1, keepdim=True)
        top = torch.where(torch.isfinite(top), top, torch.zeros_like(top))
        e = torch.exp(s - top)
        tot = e.sum(dim=-1, keepdim=True)
        w = e / torch.where(tot == 0, torch.ones_like(tot), tot)
        ws.append(w)
        outs.append(w @ vi)
    out = torch.cat(outs, dim=-1) @ module.w_o.double()
    if module.b_o is not None:
        out = out + module.b_o.double()
    return out.to(dtype), torch.stack(ws, dim=-3).to(dtype)
'''},
    {"exercise": "module_forward", "kind": "wrong",
     "mistake": "Divided the scores by sqrt(d_model / h), assuming d_k = d_model / h, instead of using module.d_k.",
     "teacher_says": "The statement warns d_k may differ from d_model/h: scale by sqrt(module.d_k).",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def proj(x, w, b):
        y = x @ w if b is None else x @ w + b
        *batch, n, f = y.shape
        return y.reshape(*batch, n, h, f // h).transpose(-3, -2)

    qh, kh, vh = proj(q, module.w_q, module.b_q), proj(k, module.w_k, module.b_k), proj(v, module.w_v, module.b_v)
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_model // h)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    weights = torch.where(torch.isnan(weights), torch.zeros_like(weights), weights)
    heads = weights @ vh
    *batch, _, n_q, d_v = heads.shape
    out = heads.transpose(-3, -2).reshape(*batch, n_q, h * d_v) @ module.w_o
    if module.b_o is not None:
        out = out + module.b_o
    return out, weights
'''},
    {"exercise": "module_forward", "kind": "wrong",
     "mistake": "Used nn.MultiheadAttention's polarity: masked_fill(mask, -inf) hides exactly the keys the mask allows.",
     "teacher_says": "Here True = may attend, so fill the scores where the mask is False: masked_fill(~mask, -inf).",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def proj(x, w, b):
        y = x @ w if b is None else x @ w + b
        *batch, n, f = y.shape
        return y.reshape(*batch, n, h, f // h).transpose(-3, -2)

    qh, kh, vh = proj(q, module.w_q, module.b_q), proj(k, module.w_k, module.b_k), proj(v, module.w_v, module.b_v)
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
    heads = weights @ vh
    *batch, _, n_q, d_v = heads.shape
    out = heads.transpose(-3, -2).reshape(*batch, n_q, h * d_v) @ module.w_o
    if module.b_o is not None:
        out = out + module.b_o
    return out, weights
'''},
    {"exercise": "module_forward", "kind": "wrong",
     "mistake": "Wrote the projections as nn.Linear does, x @ W.T, although the module stores its weights in the paper layout.",
     "teacher_says": "module.w_q is (d_model, h*d_k) and is used as q @ module.w_q: no .T (it only runs when the matrix is square).",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def proj(x, w, b):
        y = x @ w.T if b is None else x @ w.T + b
        *batch, n, f = y.shape
        return y.reshape(*batch, n, h, f // h).transpose(-3, -2)

    qh, kh, vh = proj(q, module.w_q, module.b_q), proj(k, module.w_k, module.b_k), proj(v, module.w_v, module.b_v)
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
    heads = weights @ vh
    *batch, _, n_q, d_v = heads.shape
    out = heads.transpose(-3, -2).reshape(*batch, n_q, h * d_v) @ module.w_o.T
    if module.b_o is not None:
        out = out + module.b_o
    return out, weights
'''},
]

_WRITER_B = ANSWERS

"""Student answers for chapter 06 (the PyTorch variant). Writer F."""

ANSWERS = [
 # ---------------------------------------------------------------- params_from_torch
 {"exercise": "params_from_torch", "kind": "correct",
  "idea": "chunk in_proj_weight into three (out, in) blocks, transpose each and out_proj.weight, keep dtype, None biases when absent",
  "code": '''
import numpy as np
import mha


def params_from_torch(torch_mha):
    def to_np(t):
        return None if t is None else t.detach().cpu().numpy().copy()

    w_q, w_k, w_v = (w.T.copy() for w in np.split(to_np(torch_mha.in_proj_weight), 3))
    w_o = to_np(torch_mha.out_proj.weight).T.copy()
    b_in = to_np(torch_mha.in_proj_bias)
    b_q = b_k = b_v = None
    if b_in is not None:
        b_q, b_k, b_v = np.split(b_in, 3)
    return mha.MHAParams(
        w_q, w_k, w_v, w_o, torch_mha.num_heads,
        b_q=b_q, b_k=b_k, b_v=b_v, b_o=to_np(torch_mha.out_proj.bias),
    )
'''},
 {"exercise": "params_from_torch", "kind": "robustness",
  "idea": "reads the weights through state_dict() and returns float64 copies (the note-worthy dtype change), with a loop over the q, k, v blocks",
  "code": '''
import numpy as np
import mha


def params_from_torch(torch_mha):
    state = {name: t.detach().cpu().double().numpy() for name, t in torch_mha.state_dict().items()}
    w_in = state["in_proj_weight"]
    d = w_in.shape[0] // 3
    blocks = []
    for i in range(3):
        blocks.append(np.array(w_in[i * d:(i + 1) * d].T, dtype=np.float64, order="C"))
    w_o = np.array(state["out_proj.weight"].T, dtype=np.float64, order="C")
    biases = [None, None, None, None]
    if "in_proj_bias" in state:
        b_in = state["in_proj_bias"]
        biases = [b_in[:d].copy(), b_in[d:2 * d].copy(), b_in[2 * d:].copy(),
                  state["out_proj.bias"].copy()]
    return mha.MHAParams(*blocks, w_o, torch_mha.num_heads, *biases)
'''},
 {"exercise": "params_from_torch", "kind": "wrong",
  "mistake": "Copies the (out, in) blocks of in_proj_weight and out_proj.weight as they are, without transposing to the paper's (in, out) layout; it runs because every block is square.",
  "teacher_says": "nn.Linear computes x @ W.T: the paper-layout w_q is the transpose of the stored block, and the same holds for out_proj.weight.",
  "code": '''
import mha


def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy()
    d = w.shape[1]
    w_q, w_k, w_v = w[:d].copy(), w[d:2 * d].copy(), w[2 * d:].copy()
    w_o = torch_mha.out_proj.weight.detach().numpy().copy()
    if torch_mha.in_proj_bias is None:
        return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads)
    b = torch_mha.in_proj_bias.detach().numpy()
    return mha.MHAParams(
        w_q, w_k, w_v, w_o, torch_mha.num_heads,
        b[:d].copy(), b[d:2 * d].copy(), b[2 * d:].copy(),
        torch_mha.out_proj.bias.detach().numpy().copy(),
    )
'''},
 {"exercise": "params_from_torch", "kind": "wrong",
  "mistake": "Transposes the three input blocks but forgets that out_proj is an nn.Linear too, and keeps out_proj.weight in (out, in) layout.",
  "teacher_says": "out_proj.weight is stored (out, in) like every nn.Linear weight: w_o is its transpose.",
  "code": '''
import numpy as np
import mha


def params_from_torch(torch_mha):
    w_q, w_k, w_v = (blk.detach().numpy().T.copy() for blk in torch_mha.in_proj_weight.chunk(3))
    w_o = torch_mha.out_proj.weight.detach().numpy().copy()
    biases = {}
    if torch_mha.in_proj_bias is not None:
        b_q, b_k, b_v = (b.detach().numpy().copy() for b in torch_mha.in_proj_bias.chunk(3))
        biases = dict(b_q=b_q, b_k=b_k, b_v=b_v, b_o=torch_mha.out_proj.bias.detach().numpy().copy())
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, **biases)
'''},
 {"exercise": "params_from_torch", "kind": "wrong",
  "mistake": "Thinks in_proj_bias holds all the biases and never reads out_proj.bias, so b_o is None (unnoticed on a fresh module, whose biases are zero).",
  "teacher_says": "The output projection's bias lives in out_proj.bias: copy it into b_o.",
  "code": '''
import numpy as np
import mha


def params_from_torch(torch_mha):
    w_in = torch_mha.in_proj_weight.detach().cpu().numpy()
    w_q, w_k, w_v = (np.ascontiguousarray(b.T) for b in np.split(w_in, 3, axis=0))
    w_o = np.ascontiguousarray(torch_mha.out_proj.weight.detach().cpu().numpy().T)
    b_q = b_k = b_v = None
    if torch_mha.in_proj_bias is not None:
        b_q, b_k, b_v = np.split(torch_mha.in_proj_bias.detach().cpu().numpy().copy(), 3)
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, b_q, b_k, b_v)
'''},
 {"exercise": "params_from_torch", "kind": "wrong",
  "mistake": "Passes torch_mha.head_dim where MHAParams wants the number of heads (the two sizes are confused; they agree only when head_dim == num_heads).",
  "teacher_says": "MHAParams takes num_heads, the h of the module: torch_mha.num_heads, not the per-head size head_dim.",
  "code": '''
import numpy as np
import mha


def params_from_torch(torch_mha):
    w_in = torch_mha.in_proj_weight.detach().numpy()
    w_q, w_k, w_v = (np.ascontiguousarray(b.T) for b in np.split(w_in, 3))
    w_o = np.ascontiguousarray(torch_mha.out_proj.weight.detach().numpy().T)
    if torch_mha.in_proj_bias is None:
        b = [None] * 4
    else:
        b = [*np.split(torch_mha.in_proj_bias.detach().numpy().copy(), 3),
             torch_mha.out_proj.bias.detach().numpy().copy()]
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.head_dim, *b)
'''},
 # ---------------------------------------------------------------- torch_key_padding_mask
 {"exercise": "torch_key_padding_mask", "kind": "correct",
  "idea": "index away the two singleton axes and take logical_not (a new tensor)",
  "code": '''
import torch


def torch_key_padding_mask(mask):
    return torch.logical_not(mask[:, 0, 0, :])
'''},
 {"exercise": "torch_key_padding_mask", "kind": "robustness",
  "idea": "Python loops over batch and keys into nested lists, rebuilt as a bool tensor",
  "code": '''
import torch


def torch_key_padding_mask(mask):
    B, n_k = mask.shape[0], mask.shape[-1]
    rows = []
    for b in range(B):
        rows.append([not bool(mask[b, 0, 0, j]) for j in range(n_k)])
    return torch.tensor(rows, dtype=torch.bool, device=mask.device).reshape(B, n_k)
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong",
  "mistake": "Drops the singleton axes but forgets to flip the polarity: nn.MultiheadAttention then hides the real keys and attends the pads.",
  "teacher_says": "key_padding_mask is True at the pads, the opposite of this book's mask: negate it with ~.",
  "code": '''
import torch


def torch_key_padding_mask(mask):
    return mask[:, 0, 0, :].clone()
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong",
  "mistake": "Uses mask.squeeze() to drop the singleton axes, which also drops the batch axis when B == 1 (or the key axis when n_k == 1).",
  "teacher_says": "squeeze() removes every size-1 axis: name the ones to drop (mask[:, 0, 0, :] or squeeze(1).squeeze(1)).",
  "code": '''
import torch


def torch_key_padding_mask(mask):
    return ~mask.squeeze()
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong",
  "mistake": "Flips with the in-place logical_not_(), which overwrites the caller's mask with the opposite polarity.",
  "teacher_says": "Methods ending in _ change the tensor itself: use ~mask or torch.logical_not(mask), which leave the input alone.",
  "code": '''
import torch


def torch_key_padding_mask(mask):
    return mask.logical_not_()[:, 0, 0, :]
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong",
  "mistake": "Returns a float 0/1 tensor (1.0 at the pads): nn.MultiheadAttention adds a float mask to the scores, so the pads only lose 1 instead of being hidden.",
  "teacher_says": "Give a bool tensor; a float key_padding_mask is additive and would need -inf, not 1.",
  "code": '''
import torch


def torch_key_padding_mask(mask):
    return 1.0 - mask[:, 0, 0, :].float()
'''},
 # ---------------------------------------------------------------- attention_backward
 {"exercise": "attention_backward", "kind": "correct",
  "idea": "recompute P, then back through O = PV, the row softmax and S = QK^T / sqrt(d_k) with einsum",
  "code": '''
import math
import numpy as np


def attention_backward(q, k, v, grad_out):
    scale = 1.0 / math.sqrt(q.shape[-1])
    s = np.einsum("...id,...jd->...ij", q, k) * scale
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    grad_v = np.einsum("...ij,...io->...jo", p, grad_out)
    grad_p = np.einsum("...io,...jo->...ij", grad_out, v)
    grad_s = p * (grad_p - np.sum(grad_p * p, axis=-1, keepdims=True))
    grad_q = np.einsum("...ij,...jd->...id", grad_s, k) * scale
    grad_k = np.einsum("...ij,...id->...jd", grad_s, q) * scale
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "robustness",
  "idea": "builds every row's full softmax Jacobian diag(p) - p p^T explicitly, in float64, one row at a time",
  "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    q64, k64, v64, g64 = (np.asarray(a, dtype=np.float64) for a in (q, k, v, grad_out))
    d_k = q64.shape[-1]
    s = q64 @ np.swapaxes(k64, -1, -2) / np.sqrt(d_k)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ g64
    grad_p = g64 @ np.swapaxes(v64, -1, -2)
    grad_s = np.empty_like(grad_p)
    for idx in np.ndindex(*p.shape[:-1]):
        row = p[idx]
        jac = np.diag(row) - np.outer(row, row)
        grad_s[idx] = jac @ grad_p[idx]
    grad_q = grad_s @ k64 / np.sqrt(d_k)
    grad_k = np.swapaxes(grad_s, -1, -2) @ q64 / np.sqrt(d_k)
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong",
  "mistake": "Forgets the 1/sqrt(d_k) factor in the gradients of Q and K (it is used in the forward pass only).",
  "teacher_says": "S = QK^T / sqrt(d_k), so the chain rule carries the same 1/sqrt(d_k) into dL/dQ and dL/dK.",
  "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    kt = np.swapaxes(k, -1, -2)
    s = q @ kt / np.sqrt(q.shape[-1])
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(axis=-1, keepdims=True))
    grad_q = grad_s @ k
    grad_k = np.swapaxes(grad_s, -1, -2) @ q
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong",
  "mistake": "Backpropagates through the softmax as if it were elementwise (dS = P * dP), dropping the -<dP, p> term of the Jacobian.",
  "teacher_says": "Each softmax output depends on the whole row: dS = p * (dP - sum(dP * p)), the diag(p) - p p^T Jacobian.",
  "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    scale = 1 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * scale
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_s = p * (grad_out @ np.swapaxes(v, -1, -2))
    grad_q = grad_s @ k * scale
    grad_k = np.swapaxes(grad_s, -1, -2) @ q * scale
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong",
  "mistake": "Gets dL/dK from dS @ Q without transposing dS: the shapes fit when n_q = n_k, and the result is wrong.",
  "teacher_says": "For S = Q K^T the key gradient is dS^T Q (shape (n_k, d_k)); write the shapes next to each product.",
  "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    scale = 1 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * scale
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(axis=-1, keepdims=True))
    grad_q = grad_s @ k * scale
    grad_k = grad_s @ q * scale
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong",
  "mistake": "Transposes with .T, which reverses every axis: right for one (n, d) matrix, wrong (or a shape error) as soon as there are batch axes.",
  "teacher_says": "With batch axes transpose only the last two: np.swapaxes(x, -1, -2) (x.mT), not x.T.",
  "code": '''
import numpy as np


def attention_backward(q, k, v, grad_out):
    scale = 1 / np.sqrt(q.shape[-1])
    s = q @ k.T * scale
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    grad_v = p.T @ grad_out
    grad_p = grad_out @ v.T
    grad_s = p * (grad_p - (grad_p * p).sum(axis=-1, keepdims=True))
    grad_q = grad_s @ k * scale
    grad_k = grad_s.T @ q * scale
    return grad_q, grad_k, grad_v
'''},
 # ---------------------------------------------------------------- module_forward
 {"exercise": "module_forward", "kind": "correct",
  "idea": "unflatten/flatten for the heads, torch.softmax, then nan_to_num to give rows with no allowed key zeros",
  "code": '''
import math
import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def project(x, w, b):
        y = torch.matmul(x, w)
        return y if b is None else y + b

    def split(x):  # (..., n, h*d) -> (..., h, n, d)
        return x.unflatten(-1, (h, -1)).transpose(-3, -2)

    qh = split(project(q, module.w_q, module.b_q))
    kh = split(project(k, module.w_k, module.b_k))
    vh = split(project(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
    heads = weights @ vh  # (..., h, n_q, d_v)
    concat = heads.transpose(-3, -2).flatten(-2)
    return project(concat, module.w_o, module.b_o), weights
'''},
 {"exercise": "module_forward", "kind": "robustness",
  "idea": "a Python loop over the heads with column slices of the weights, heads concatenated with torch.cat and weights stacked",
  "code": '''
import math
import torch


def module_forward(module, q, k, v, mask=None):
    h, d_k, d_v = module.num_heads, module.d_k, module.d_v
    heads, weights = [], []
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
        s = qi @ ki.transpose(-2, -1) / math.sqrt(d_k)
        if mask is not None:
            m = mask
            if m.dim() >= 3:
                m = m.select(-3, i if m.shape[-3] > 1 else 0)
            s = s.masked_fill(~m, float("-inf"))
        w = torch.softmax(s, dim=-1)
        w = torch.where(torch.isnan(w), torch.zeros_like(w), w)
        heads.append(w @ vi)
        weights.append(w)
    out = torch.cat(heads, dim=-1) @ module.w_o
    if module.b_o is not None:
        out = out + module.b_o
    return out, torch.stack(weights, dim=-3)
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "Uses the nn.Linear habit x @ W.T for every projection; it runs when the weights are square and computes something else.",
  "teacher_says": "The module stores the paper's layout (in, out): q @ module.w_q, no .T.",
  "code": '''
import math
import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def lin(x, w, b):
        return x @ w.T if b is None else x @ w.T + b

    def split(x):
        *lead, n, f = x.shape
        return x.reshape(*lead, n, h, f // h).transpose(-3, -2)

    qh, kh, vh = split(lin(q, module.w_q, module.b_q)), split(lin(k, module.w_k, module.b_k)), split(lin(v, module.w_v, module.b_v))
    s = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    w = torch.softmax(s, dim=-1).nan_to_num(0.0)
    o = (w @ vh).transpose(-3, -2)
    o = o.reshape(*o.shape[:-2], -1)
    return lin(o, module.w_o, module.b_o), w
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "Masks with -inf and calls torch.softmax but never handles a query with no allowed key: its weights and output are NaN instead of zeros.",
  "teacher_says": "The module gives such a query zero weights; after the softmax replace its NaN row by zeros (or guard the max and the sum).",
  "code": '''
import math
import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    qh = lin(q, module.w_q, module.b_q).unflatten(-1, (h, -1)).transpose(-3, -2)
    kh = lin(k, module.w_k, module.b_k).unflatten(-1, (h, -1)).transpose(-3, -2)
    vh = lin(v, module.w_v, module.b_v).unflatten(-1, (h, -1)).transpose(-3, -2)
    s = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    w = torch.softmax(s, dim=-1)
    o = (w @ vh).transpose(-3, -2).flatten(-2)
    return lin(o, module.w_o, module.b_o), w
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "Scales by sqrt(d_model / h) instead of sqrt(module.d_k), the same only when d_k = d_model / h.",
  "teacher_says": "The scale is the per-head key size the module was built with: math.sqrt(module.d_k).",
  "code": '''
import math
import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(x):
        return x.unflatten(-1, (h, -1)).transpose(-3, -2)

    qh, kh, vh = (split(lin(x, w, b)) for x, w, b in (
        (q, module.w_q, module.b_q), (k, module.w_k, module.b_k), (v, module.w_v, module.b_v)))
    s = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_model // h)
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    w = torch.nan_to_num(torch.softmax(s, dim=-1))
    o = (w @ vh).transpose(-3, -2).flatten(-2)
    return lin(o, module.w_o, module.b_o), w
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "Reads the mask with nn.MultiheadAttention's polarity and fills -inf where the mask is True.",
  "teacher_says": "Here True = may attend: fill the positions where the mask is False, masked_fill(~mask, -inf).",
  "code": '''
import math
import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(x):
        return x.unflatten(-1, (h, -1)).transpose(-3, -2)

    qh = split(lin(q, module.w_q, module.b_q))
    kh = split(lin(k, module.w_k, module.b_k))
    vh = split(lin(v, module.w_v, module.b_v))
    s = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        s = s.masked_fill(mask, float("-inf"))
    w = torch.nan_to_num(torch.softmax(s, dim=-1), nan=0.0)
    o = (w @ vh).transpose(-3, -2).flatten(-2)
    return lin(o, module.w_o, module.b_o), w
'''},
]

_WRITER_F = ANSWERS
ANSWERS = _WRITER_B + _WRITER_F
