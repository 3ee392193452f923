# writer B's answers, then writer F's (each file verbatim)
"""Writer B, chapter 6 (PyTorch): 1 correct + 3 wrong answers each."""

ANSWERS = [
    # ------------------------------------------------------------------ params_from_torch
    {"exercise": "params_from_torch", "kind": "correct",
     "idea": "split in_proj_weight into three (out, in) blocks with np.split, transpose each "
             "and out_proj.weight; biases split the same way or None",
     "code": '''
import numpy as np

import mha


def params_from_torch(torch_mha):
    def arr(t):
        return None if t is None else t.detach().cpu().numpy()

    w_q, w_k, w_v = np.split(arr(torch_mha.in_proj_weight), 3, axis=0)  # (out, in) each
    w_o = arr(torch_mha.out_proj.weight)
    b_in, b_o = arr(torch_mha.in_proj_bias), arr(torch_mha.out_proj.bias)
    b_q = b_k = b_v = None
    if b_in is not None:
        b_q, b_k, b_v = (b.copy() for b in np.split(b_in, 3))
    if b_o is not None:
        b_o = b_o.copy()
    return mha.MHAParams(
        np.ascontiguousarray(w_q.T),
        np.ascontiguousarray(w_k.T),
        np.ascontiguousarray(w_v.T),
        np.ascontiguousarray(w_o.T),
        torch_mha.num_heads,
        b_q, b_k, b_v, b_o,
    )
'''},
    {"exercise": "params_from_torch", "kind": "wrong",
     "mistake": "Copies the (out, in) blocks of in_proj_weight and out_proj.weight as they "
                "are, without transposing to the paper's (in, out) layout; it runs because "
                "the matrices are square, and computes something else.",
     "teacher_says": "nn.Linear computes x @ W.T: the paper-layout weight is the transpose of "
                     "what PyTorch stores.",
     "code": '''
import numpy as np

import mha


def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().numpy()
    b = torch_mha.in_proj_bias
    b = None if b is None else b.detach().numpy()
    b_o = torch_mha.out_proj.bias
    return mha.MHAParams(
        w_q=w[:d].copy(),
        w_k=w[d:2 * d].copy(),
        w_v=w[2 * d:].copy(),
        w_o=torch_mha.out_proj.weight.detach().numpy().copy(),
        num_heads=torch_mha.num_heads,
        b_q=None if b is None else b[:d].copy(),
        b_k=None if b is None else b[d:2 * d].copy(),
        b_v=None if b is None else b[2 * d:].copy(),
        b_o=None if b_o is None else b_o.detach().numpy().copy(),
    )
'''},
    {"exercise": "params_from_torch", "kind": "wrong",
     "mistake": "Transposes the three in_proj blocks but forgets the transpose on "
                "out_proj.weight, so W^O is loaded in the (out, in) layout.",
     "teacher_says": "out_proj is an nn.Linear too: its weight needs the same .T as the others.",
     "code": '''
import mha


def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().numpy()
    w_q, w_k, w_v = w[:d].T.copy(), w[d:2 * d].T.copy(), w[2 * d:].T.copy()
    w_o = torch_mha.out_proj.weight.detach().numpy().copy()
    biases = [None] * 4
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().numpy()
        biases[:3] = [b[:d].copy(), b[d:2 * d].copy(), b[2 * d:].copy()]
    if torch_mha.out_proj.bias is not None:
        biases[3] = torch_mha.out_proj.bias.detach().numpy().copy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, *biases)
'''},
    {"exercise": "params_from_torch", "kind": "wrong",
     "mistake": "A copy-paste slip in the bias slices: b_v is taken from in_proj_bias[d:2d] "
                "(the key bias) instead of [2d:3d].",
     "teacher_says": "in_proj_bias is b_Q, b_K, b_V one after another: the value bias is the "
                     "last third.",
     "code": '''
import mha


def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().numpy()
    w_q, w_k, w_v = w[:d].T.copy(), w[d:2 * d].T.copy(), w[2 * d:].T.copy()
    w_o = torch_mha.out_proj.weight.detach().numpy().T.copy()
    b_q = b_k = b_v = b_o = None
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().numpy()
        b_q = b[:d].copy()
        b_k = b[d:2 * d].copy()
        b_v = b[d:2 * d].copy()
    if torch_mha.out_proj.bias is not None:
        b_o = torch_mha.out_proj.bias.detach().numpy().copy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, b_q, b_k, b_v, b_o)
'''},
    # ------------------------------------------------------------------ torch_key_padding_mask
    {"exercise": "torch_key_padding_mask", "kind": "correct",
     "idea": "reshape (B, 1, 1, n_k) to (B, n_k) and logical_not (True = pad)",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    return torch.logical_not(mask.reshape(mask.shape[0], mask.shape[-1]))
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong",
     "mistake": "Drops the singleton axes but forgets to flip the polarity, so "
                "nn.MultiheadAttention blocks the real keys and attends only the pads.",
     "teacher_says": "nn.MultiheadAttention's key_padding_mask is True at the pads: negate "
                     "the book's mask.",
     "code": '''
def torch_key_padding_mask(mask):
    return mask[:, 0, 0, :]
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong",
     "mistake": "Uses a bare .squeeze(), which also drops the batch axis when B = 1 (and the "
                "key axis when n_k = 1), giving shape (n_k,) instead of (B, n_k).",
     "teacher_says": "Squeeze only the axes you mean (dims 1 and 2) or index [:, 0, 0, :]: "
                     "the result must stay (B, n_k) for every B.",
     "code": '''
def torch_key_padding_mask(mask):
    return ~mask.squeeze()
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong",
     "mistake": "Flips the polarity with arithmetic (1 - mask.int()), which returns an "
                "integer tensor instead of a bool one; nn.MultiheadAttention then treats it "
                "as an additive float-style mask rather than a boolean one.",
     "teacher_says": "Keep it boolean: use ~mask or torch.logical_not, not 1 - mask.",
     "code": '''
def torch_key_padding_mask(mask):
    return 1 - mask[:, 0, 0, :].int()
'''},
    # ------------------------------------------------------------------ attention_backward
    {"exercise": "attention_backward", "kind": "correct",
     "idea": "recompute S and P, then dV = P^T dO, dP = dO V^T, dS = P*(dP - rowsum(dP*P)), "
             "dQ = dS K / sqrt(d), dK = dS^T Q / sqrt(d), with swapaxes for batch axes",
     "code": '''
import math

import numpy as np


def attention_backward(q, k, v, grad_out):
    scale = 1.0 / math.sqrt(q.shape[-1])
    kt = np.swapaxes(k, -1, -2)
    s = (q @ kt) * scale
    s = s - s.max(axis=-1, keepdims=True)
    p = np.exp(s)
    p = p / p.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - np.sum(grad_p * p, axis=-1, keepdims=True))
    grad_q = (grad_s @ k) * scale
    grad_k = (np.swapaxes(grad_s, -1, -2) @ q) * scale
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "wrong",
     "mistake": "Forgets the 1/sqrt(d_k) factor on the way back: grad_q and grad_k are "
                "sqrt(d_k) times too large.",
     "teacher_says": "S = QK^T / sqrt(d_k), so the chain rule brings the same 1/sqrt(d_k) into "
                     "dL/dQ and dL/dK.",
     "code": '''
import math

import numpy as np


def attention_backward(q, k, v, grad_out):
    d = q.shape[-1]
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(d)
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
     "mistake": "Backpropagates through the softmax with only the diagonal of its Jacobian, "
                "dS = P * dP, leaving out the - <dP, p> term.",
     "teacher_says": "The softmax Jacobian is diag(p) - p p^T: every weight depends on every "
                     "score of its row, so subtract the row's <dP, p>.",
     "code": '''
import math

import numpy as np


def attention_backward(q, k, v, grad_out):
    scale = 1 / math.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * scale
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * grad_p
    grad_q = grad_s @ k * scale
    grad_k = np.swapaxes(grad_s, -1, -2) @ q * scale
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "wrong",
     "mistake": "Computes grad_k as dS @ Q without transposing dS: for S = Q K^T the gradient "
                "with respect to K is dS^T Q. With n_q = n_k it runs and is wrong.",
     "teacher_says": "K enters transposed, so its gradient is (dL/dS)^T Q / sqrt(d_k): check "
                     "the shapes, grad_k must be (n_k, d_k) row for key j.",
     "code": '''
import math

import numpy as np


def attention_backward(q, k, v, grad_out):
    scale = 1 / math.sqrt(q.shape[-1])
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
    # ------------------------------------------------------------------ module_forward
    {"exercise": "module_forward", "kind": "correct",
     "idea": "unflatten/transpose for the heads, torch.softmax then nan_to_num to zero the "
             "fully masked rows, flatten back and project with w_o (paper layout)",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def project(x, w, b):
        y = x @ w
        return y if b is None else y + b

    def split(x):  # (..., n, h*d) -> (..., h, n, d)
        return x.unflatten(-1, (h, x.shape[-1] // h)).transpose(-3, -2)

    qh = split(project(q, module.w_q, module.b_q))
    kh = split(project(k, module.w_k, module.b_k))
    vh = split(project(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    weights = torch.nan_to_num(weights, nan=0.0)  # a row of -inf only: zeros, not NaN
    heads = weights @ vh  # (..., h, n_q, d_v)
    concat = heads.transpose(-3, -2).flatten(-2)  # (..., n_q, h*d_v)
    return project(concat, module.w_o, module.b_o), weights
'''},
    {"exercise": "module_forward", "kind": "wrong",
     "mistake": "Uses masked_fill(-inf) and torch.softmax with no handling of fully masked "
                "rows: a query that may attend no key gets NaN weights and a NaN output.",
     "teacher_says": "The module gives such a query zero weights: zero the rows whose scores "
                     "are all -inf (the softmax of them is NaN).",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(x):
        *batch, n, f = x.shape
        return x.reshape(*batch, n, h, f // h).transpose(-3, -2)

    qh = split(lin(q, module.w_q, module.b_q))
    kh = split(lin(k, module.w_k, module.b_k))
    vh = split(lin(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    out = weights @ vh
    *batch, _, n_q, d_v = out.shape
    concat = out.transpose(-3, -2).reshape(*batch, n_q, h * d_v)
    return lin(concat, module.w_o, module.b_o), weights
'''},
    {"exercise": "module_forward", "kind": "wrong",
     "mistake": "Applies the weights in nn.Linear's style, x @ W.T, although the module stores "
                "them in the paper's layout; it fails for non-square weights and is silently "
                "wrong for square ones.",
     "teacher_says": "module.w_q is (d_model, h*d_k), used as q @ module.w_q: only nn.Linear "
                     "needs the .T.",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def lin(x, w, b):
        y = x @ w.T
        return y if b is None else y + b

    def split(x):
        *batch, n, f = x.shape
        return x.reshape(*batch, n, h, f // h).transpose(-3, -2)

    qh = split(lin(q, module.w_q, module.b_q))
    kh = split(lin(k, module.w_k, module.b_k))
    vh = split(lin(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    weights = torch.where(torch.isnan(weights), torch.zeros_like(weights), weights)
    out = weights @ vh
    *batch, _, n_q, d_v = out.shape
    concat = out.transpose(-3, -2).reshape(*batch, n_q, h * d_v)
    return lin(concat, module.w_o, module.b_o), weights
'''},
    {"exercise": "module_forward", "kind": "wrong",
     "mistake": "Returns the weights averaged over the heads, (..., n_q, n_k), as "
                "nn.MultiheadAttention does by default, instead of the per-head weights.",
     "teacher_says": "The statement asks for the per-head weights, (..., h, n_q, n_k): do not "
                     "take the mean over the heads axis.",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(x):
        *batch, n, f = x.shape
        return x.reshape(*batch, n, h, f // h).transpose(-3, -2)

    qh = split(lin(q, module.w_q, module.b_q))
    kh = split(lin(k, module.w_k, module.b_k))
    vh = split(lin(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
    out = weights @ vh
    *batch, _, n_q, d_v = out.shape
    concat = out.transpose(-3, -2).reshape(*batch, n_q, h * d_v)
    return lin(concat, module.w_o, module.b_o), weights.mean(dim=-3)
'''},
]

_WRITER_B = ANSWERS

"""Student answers for chapter 6 (PyTorch). Writer F."""

ANSWERS = [
    # ------------------------------------------------------------------ params_from_torch
    {"exercise": "params_from_torch", "kind": "correct",
     "idea": "torch.chunk the stacked in_proj weight and bias into three, transpose each "
             "(out, in) block to the paper's (in, out), and copy into NumPy",
     "code": '''
import mha
import numpy as np
import torch


def params_from_torch(torch_mha):
    def arr(t):
        return None if t is None else np.ascontiguousarray(t.detach().cpu().numpy())

    w_q, w_k, w_v = (w.T for w in torch.chunk(torch_mha.in_proj_weight, 3, dim=0))
    w_o = torch_mha.out_proj.weight.T
    if torch_mha.in_proj_bias is not None:
        b_q, b_k, b_v = torch.chunk(torch_mha.in_proj_bias, 3, dim=0)
    else:
        b_q = b_k = b_v = None
    b_o = torch_mha.out_proj.bias
    return mha.MHAParams(
        arr(w_q), arr(w_k), arr(w_v), arr(w_o), torch_mha.num_heads,
        arr(b_q), arr(b_k), arr(b_v), arr(b_o),
    )
'''},
    {"exercise": "params_from_torch", "kind": "robustness",
     "idea": "goes through the state_dict and returns float64 copies of everything "
             "(the statement lets a float64 copy pass)",
     "code": '''
import mha
import numpy as np


def params_from_torch(torch_mha):
    state = {name: t.detach().cpu().numpy().astype(np.float64)
             for name, t in torch_mha.state_dict().items()}
    d = torch_mha.embed_dim
    w = state["in_proj_weight"]
    weights = [w[i * d:(i + 1) * d, :].T.copy() for i in range(3)]
    w_o = state["out_proj.weight"].T.copy()
    if "in_proj_bias" in state:
        b = state["in_proj_bias"]
        biases = [b[i * d:(i + 1) * d].copy() for i in range(3)]
    else:
        biases = [None, None, None]
    b_o = state.get("out_proj.bias")
    return mha.MHAParams(*weights, w_o, torch_mha.num_heads, *biases, b_o)
'''},
    {"exercise": "params_from_torch", "kind": "wrong",
     "mistake": "Copies the blocks of in_proj_weight and out_proj.weight as they are, without the "
                "transpose from (out, in) to the paper's (in, out) layout.",
     "teacher_says": "nn.Linear computes x W^T: the paper-layout weight is the transpose of what PyTorch stores.",
     "code": '''
import mha
import numpy as np


def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().numpy()
    w_q, w_k, w_v = w[:d], w[d:2 * d], w[2 * d:]
    w_o = torch_mha.out_proj.weight.detach().numpy()
    biases = [None] * 4
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().numpy()
        biases = [b[:d], b[d:2 * d], b[2 * d:], torch_mha.out_proj.bias.detach().numpy()]
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, *biases)
'''},
    {"exercise": "params_from_torch", "kind": "wrong",
     "mistake": "Transposes the three in_proj blocks but forgets to transpose out_proj.weight.",
     "teacher_says": "out_proj is an nn.Linear too, stored (out, in): W^O needs the .T as well.",
     "code": '''
import mha
import numpy as np


def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().numpy()
    w_q, w_k, w_v = w[:d].T, w[d:2 * d].T, w[2 * d:].T
    w_o = torch_mha.out_proj.weight.detach().numpy()
    if torch_mha.in_proj_bias is None:
        return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads)
    b = torch_mha.in_proj_bias.detach().numpy()
    return mha.MHAParams(
        w_q, w_k, w_v, w_o, torch_mha.num_heads,
        b[:d], b[d:2 * d], b[2 * d:], torch_mha.out_proj.bias.detach().numpy(),
    )
'''},
    {"exercise": "params_from_torch", "kind": "wrong",
     "mistake": "Always reads in_proj_bias and out_proj.bias with .detach(), which raises an "
                "AttributeError for a module built with bias=False (they are None).",
     "teacher_says": "A module without biases has in_proj_bias None: return None biases in that case.",
     "code": '''
import mha
import numpy as np


def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().numpy()
    b = torch_mha.in_proj_bias.detach().numpy()
    return mha.MHAParams(
        w[:d].T, w[d:2 * d].T, w[2 * d:].T,
        torch_mha.out_proj.weight.detach().numpy().T,
        torch_mha.num_heads,
        b[:d], b[d:2 * d], b[2 * d:],
        torch_mha.out_proj.bias.detach().numpy(),
    )
'''},
    # ------------------------------------------------------------------ torch_key_padding_mask
    {"exercise": "torch_key_padding_mask", "kind": "correct",
     "idea": "flatten the two singleton axes away and take the logical not",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    return torch.logical_not(mask.flatten(1))
'''},
    {"exercise": "torch_key_padding_mask", "kind": "robustness",
     "idea": "a round trip through NumPy and Python lists, rebuilt as a new bool tensor",
     "code": '''
import numpy as np
import torch


def torch_key_padding_mask(mask):
    arr = mask.cpu().numpy()
    B, n_k = arr.shape[0], arr.shape[-1]
    rows = [[not bool(arr[b, 0, 0, j]) for j in range(n_k)] for b in range(B)]
    return torch.tensor(np.array(rows, dtype=bool).reshape(B, n_k), dtype=torch.bool)
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong",
     "mistake": "Drops the singleton axes but forgets to flip the polarity, so the real keys are marked as pads.",
     "teacher_says": "nn.MultiheadAttention's key_padding_mask is True at the pads: pass ~mask.",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    return mask[:, 0, 0, :]
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong",
     "mistake": "Flips the polarity but keeps the (B, 1, 1, n_k) shape.",
     "teacher_says": "key_padding_mask has shape (B, n_k): drop the heads and queries axes.",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    return ~mask
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong",
     "mistake": "Uses squeeze() with no axis, which also drops the batch axis when B = 1 "
                "(and the key axis when n_k = 1).",
     "teacher_says": "Squeeze only the two singleton axes you mean (dims 1 and 2), never every size-1 axis.",
     "code": '''
import torch


def torch_key_padding_mask(mask):
    return ~mask.squeeze()
'''},
    # ------------------------------------------------------------------ attention_backward
    {"exercise": "attention_backward", "kind": "correct",
     "idea": "recompute the forward pass, then go back through O = PV, the row softmax and "
             "S = QK^T / sqrt(d_k) with einsum",
     "code": '''
import math

import numpy as np


def attention_backward(q, k, v, grad_out):
    scale = 1.0 / math.sqrt(q.shape[-1])
    s = np.einsum("...id,...jd->...ij", q, k) * scale
    s = s - s.max(axis=-1, keepdims=True)
    p = np.exp(s)
    p = p / p.sum(axis=-1, keepdims=True)
    grad_v = np.einsum("...ij,...id->...jd", p, grad_out)
    grad_p = np.einsum("...id,...jd->...ij", grad_out, v)
    grad_s = p * (grad_p - (grad_p * p).sum(axis=-1, keepdims=True))
    grad_q = np.einsum("...ij,...jd->...id", grad_s, k) * scale
    grad_k = np.einsum("...ij,...id->...jd", grad_s, q) * scale
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "robustness",
     "idea": "loops over every batch index and builds each row's full softmax Jacobian "
             "diag(p) - p p^T explicitly",
     "code": '''
import math

import numpy as np


def attention_backward(q, k, v, grad_out):
    grad_q = np.zeros_like(q)
    grad_k = np.zeros_like(k)
    grad_v = np.zeros_like(v)
    d_k = q.shape[-1]
    for idx in np.ndindex(*q.shape[:-2]):
        Q, K, V, G = q[idx], k[idx], v[idx], grad_out[idx]
        S = Q @ K.T / math.sqrt(d_k)
        P = np.exp(S - S.max(axis=1, keepdims=True))
        P = P / P.sum(axis=1, keepdims=True)
        dV = P.T @ G
        dP = G @ V.T
        dS = np.zeros_like(dP)
        for i in range(P.shape[0]):
            jac = np.diag(P[i]) - np.outer(P[i], P[i])
            dS[i] = jac @ dP[i]
        dS = dS / math.sqrt(d_k)
        grad_q[idx] = dS @ K
        grad_k[idx] = dS.T @ Q
        grad_v[idx] = dV
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "wrong",
     "mistake": "Scales the scores by 1/sqrt(d_k) in the forward pass but forgets the factor in "
                "the gradients of Q and K.",
     "teacher_says": "S = QK^T / sqrt(d_k), so dL/dQ and dL/dK both carry the 1/sqrt(d_k) too.",
     "code": '''
import math

import numpy as np


def attention_backward(q, k, v, grad_out):
    s = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    grad_v = p.swapaxes(-1, -2) @ grad_out
    grad_p = grad_out @ v.swapaxes(-1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(-1, keepdims=True))
    grad_q = grad_s @ k
    grad_k = grad_s.swapaxes(-1, -2) @ q
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "wrong",
     "mistake": "Through the softmax multiplies by p element-wise only (the diagonal of the "
                "Jacobian), leaving out the - <dL/dp, p> term.",
     "teacher_says": "The softmax's Jacobian is diag(p) - p p^T: subtract each row's <dL/dp, p> before multiplying by p.",
     "code": '''
import math

import numpy as np


def attention_backward(q, k, v, grad_out):
    scale = 1 / math.sqrt(q.shape[-1])
    s = q @ k.swapaxes(-1, -2) * scale
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    grad_v = p.swapaxes(-1, -2) @ grad_out
    grad_p = grad_out @ v.swapaxes(-1, -2)
    grad_s = p * grad_p
    grad_q = grad_s @ k * scale
    grad_k = grad_s.swapaxes(-1, -2) @ q * scale
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "wrong",
     "mistake": "Uses .T for the matrix transposes, which works for one matrix but reverses "
                "every axis when there are batch axes.",
     "teacher_says": "With batch axes transpose only the last two axes (swapaxes(-1, -2)); .T flips the batch axes too.",
     "code": '''
import math

import numpy as np


def attention_backward(q, k, v, grad_out):
    scale = 1 / math.sqrt(q.shape[-1])
    s = q @ k.T * scale
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    grad_v = p.T @ grad_out
    grad_p = grad_out @ v.T
    grad_s = p * (grad_p - (grad_p * p).sum(-1, keepdims=True))
    grad_q = grad_s @ k * scale
    grad_k = grad_s.T @ q * scale
    return grad_q, grad_k, grad_v
'''},
    # ------------------------------------------------------------------ module_forward
    {"exercise": "module_forward", "kind": "correct",
     "idea": "einsum projections, unflatten into heads, softmax with a guard for rows with "
             "no allowed key, then flatten back and project",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h, d_k = module.num_heads, module.d_k

    def project(x, w, b):
        y = torch.einsum("...nf,fo->...no", x, w)
        return y if b is None else y + b

    def split(x):
        return x.unflatten(-1, (h, x.shape[-1] // h)).movedim(-2, -3)

    qh = split(project(q, module.w_q, module.b_q))
    kh = split(project(k, module.w_k, module.b_k))
    vh = split(project(v, module.w_v, module.b_v))
    scores = torch.einsum("...id,...jd->...ij", qh, kh) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    weights = torch.nan_to_num(weights, nan=0.0)
    heads = weights @ vh
    concat = heads.movedim(-3, -2).flatten(-2)
    return project(concat, module.w_o, module.b_o), weights
'''},
    {"exercise": "module_forward", "kind": "robustness",
     "idea": "one head at a time in a Python loop, each computed from sliced weights, "
             "concatenated with torch.cat and stacked afterwards",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h, d_k = module.num_heads, module.d_k
    d_v = module.w_v.shape[1] // h
    pieces, all_weights = [], []
    for i in range(h):
        ck = slice(i * d_k, (i + 1) * d_k)
        cv = slice(i * d_v, (i + 1) * d_v)
        qi = q @ module.w_q[:, ck]
        ki = k @ module.w_k[:, ck]
        vi = v @ module.w_v[:, cv]
        if module.b_q is not None:
            qi = qi + module.b_q[ck]
        if module.b_k is not None:
            ki = ki + module.b_k[ck]
        if module.b_v is not None:
            vi = vi + module.b_v[cv]
        s = qi @ ki.transpose(-1, -2) / math.sqrt(d_k)
        if mask is not None:
            m = mask
            if m.dim() >= 3:
                m = m.select(-3, i if m.shape[-3] > 1 else 0)
            s = s.masked_fill(~m, float("-inf"))
        top = s.amax(dim=-1, keepdim=True)
        top = torch.where(torch.isfinite(top), top, torch.zeros_like(top))
        e = torch.exp(s - top)
        total = e.sum(dim=-1, keepdim=True)
        w = e / torch.where(total == 0, torch.ones_like(total), total)
        pieces.append(w @ vi)
        all_weights.append(w)
    out = torch.cat(pieces, dim=-1) @ module.w_o
    if module.b_o is not None:
        out = out + module.b_o
    return out, torch.stack(all_weights, dim=-3)
'''},
    {"exercise": "module_forward", "kind": "wrong",
     "mistake": "Masks with -inf and calls torch.softmax directly, so a query that may attend "
                "no key gets NaN weights and a NaN output.",
     "teacher_says": "The module gives a fully masked row zero weights: guard the softmax for rows of -inf.",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(x):
        *batch, n, f = x.shape
        return x.reshape(*batch, n, h, f // h).transpose(-3, -2)

    qh = split(lin(q, module.w_q, module.b_q))
    kh = split(lin(k, module.w_k, module.b_k))
    vh = split(lin(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    heads = weights @ vh
    *batch, _, n_q, d_v = heads.shape
    concat = heads.transpose(-3, -2).reshape(*batch, n_q, h * d_v)
    return lin(concat, module.w_o, module.b_o), weights
'''},
    {"exercise": "module_forward", "kind": "wrong",
     "mistake": "Scales the scores by sqrt(d_model / h) instead of sqrt(d_k), which differs "
                "when the module has d_k != d_model/h.",
     "teacher_says": "The scale is the per-head key size, module.d_k, which need not be d_model / h.",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(x):
        *batch, n, f = x.shape
        return x.reshape(*batch, n, h, f // h).transpose(-3, -2)

    qh = split(lin(q, module.w_q, module.b_q))
    kh = split(lin(k, module.w_k, module.b_k))
    vh = split(lin(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_model // h)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    top = scores.amax(-1, keepdim=True)
    top = torch.where(torch.isinf(top), torch.zeros_like(top), top)
    e = (scores - top).exp()
    total = e.sum(-1, keepdim=True)
    weights = e / total.clamp_min(torch.finfo(e.dtype).tiny)
    heads = weights @ vh
    *batch, _, n_q, d_v = heads.shape
    concat = heads.transpose(-3, -2).reshape(*batch, n_q, h * d_v)
    return lin(concat, module.w_o, module.b_o), weights
'''},
    {"exercise": "module_forward", "kind": "wrong",
     "mistake": "Uses nn.MultiheadAttention's polarity: fills the scores where the mask is True, "
                "so the allowed keys are the ones hidden.",
     "teacher_says": "Here True means may attend: fill -inf where the mask is False, masked_fill(~mask, ...).",
     "code": '''
import math

import torch


def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(x):
        *batch, n, f = x.shape
        return x.reshape(*batch, n, h, f // h).transpose(-3, -2)

    qh = split(lin(q, module.w_q, module.b_q))
    kh = split(lin(k, module.w_k, module.b_k))
    vh = split(lin(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
    heads = weights @ vh
    *batch, _, n_q, d_v = heads.shape
    concat = heads.transpose(-3, -2).reshape(*batch, n_q, h * d_v)
    return lin(concat, module.w_o, module.b_o), weights
'''},
]

_WRITER_F = ANSWERS
ANSWERS = _WRITER_B + _WRITER_F
