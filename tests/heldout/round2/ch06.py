_FWD = '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h, d_k = module.num_heads, module.d_k
    def proj(x, w, b):
        y = x @ w
        return y if b is None else y + b
    def split(x):
        *batch, n, f = x.shape
        return x.reshape(*batch, n, h, f // h).transpose(-3, -2)
    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-1, -2) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    if mask is not None:
        weights = torch.nan_to_num(weights, nan=0.0)
    heads = weights @ vh
    *batch, _, n_q, d_v = heads.shape
    concat = heads.transpose(-3, -2).reshape(*batch, n_q, h * d_v)
    return proj(concat, module.w_o, module.b_o), weights
'''

_BWD = '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    scale = 1.0 / np.sqrt(q.shape[-1])
    kt = np.swapaxes(k, -1, -2)
    s = q @ kt * scale
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(-1, keepdims=True))
    grad_q = grad_s @ k * scale
    grad_k = np.swapaxes(grad_s, -1, -2) @ q * scale
    return grad_q, grad_k, grad_v
'''

ANSWERS = [
    # ---------------- params_from_torch ----------------
    {"exercise": "params_from_torch", "kind": "correct", "idea": "chunk in_proj_weight in three row blocks, transpose; biases chunked when present",
     "code": '''
import mha

def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().cpu().numpy()
    d = w.shape[1]
    w_q, w_k, w_v = (w[i * d:(i + 1) * d].T.copy() for i in range(3))
    w_o = torch_mha.out_proj.weight.detach().cpu().numpy().T.copy()
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().cpu().numpy()
        b_q, b_k, b_v = b[:d].copy(), b[d:2 * d].copy(), b[2 * d:].copy()
    else:
        b_q = b_k = b_v = None
    b_o = None if torch_mha.out_proj.bias is None else torch_mha.out_proj.bias.detach().cpu().numpy().copy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, b_q, b_k, b_v, b_o)
'''},
    {"exercise": "params_from_torch", "kind": "correct", "idea": "torch.chunk on the parameters then .T.numpy(), keyword arguments",
     "code": '''
import numpy as np
import torch
import mha

def params_from_torch(torch_mha):
    with torch.no_grad():
        wq, wk, wv = (np.ascontiguousarray(t.T.numpy()) for t in torch.chunk(torch_mha.in_proj_weight, 3, dim=0))
        wo = np.ascontiguousarray(torch_mha.out_proj.weight.T.numpy())
        biases = {}
        if torch_mha.in_proj_bias is not None:
            bq, bk, bv = (t.numpy().copy() for t in torch.chunk(torch_mha.in_proj_bias, 3))
            biases = dict(b_q=bq, b_k=bk, b_v=bv)
        if torch_mha.out_proj.bias is not None:
            biases["b_o"] = torch_mha.out_proj.bias.numpy().copy()
    return mha.MHAParams(w_q=wq, w_k=wk, w_v=wv, w_o=wo, num_heads=torch_mha.num_heads, **biases)
'''},
    {"exercise": "params_from_torch", "kind": "wrong", "mistake": "does not transpose W^Q, W^K, W^V (keeps the (out, in) layout); W^O transposed",
     "teacher_says": "every nn.Linear-style weight must be transposed to the paper's layout, the in_proj blocks too",
     "code": '''
import mha

def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy()
    d = w.shape[1]
    b = None if torch_mha.in_proj_bias is None else torch_mha.in_proj_bias.detach().numpy()
    bq, bk, bv = (None, None, None) if b is None else (b[:d], b[d:2 * d], b[2 * d:])
    bo = None if torch_mha.out_proj.bias is None else torch_mha.out_proj.bias.detach().numpy()
    return mha.MHAParams(w[:d].copy(), w[d:2 * d].copy(), w[2 * d:].copy(),
                         torch_mha.out_proj.weight.detach().numpy().T.copy(), torch_mha.num_heads, bq, bk, bv, bo)
'''},
    {"exercise": "params_from_torch", "kind": "wrong", "mistake": "forgets to transpose out_proj.weight",
     "teacher_says": "out_proj.weight is (out, in) as well: W^O = out_proj.weight.T",
     "code": '''
import mha

def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy()
    d = w.shape[1]
    b = None if torch_mha.in_proj_bias is None else torch_mha.in_proj_bias.detach().numpy()
    bq, bk, bv = (None, None, None) if b is None else (b[:d], b[d:2 * d], b[2 * d:])
    bo = None if torch_mha.out_proj.bias is None else torch_mha.out_proj.bias.detach().numpy()
    return mha.MHAParams(w[:d].T.copy(), w[d:2 * d].T.copy(), w[2 * d:].T.copy(),
                         torch_mha.out_proj.weight.detach().numpy().copy(), torch_mha.num_heads, bq, bk, bv, bo)
'''},
    {"exercise": "params_from_torch", "kind": "wrong", "mistake": "assumes the module has biases: fails (AttributeError on None) for bias=False",
     "teacher_says": "with bias=False in_proj_bias is None; test for it and pass None",
     "code": '''
import mha

def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy()
    d = w.shape[1]
    b = torch_mha.in_proj_bias.detach().numpy()
    return mha.MHAParams(w[:d].T.copy(), w[d:2 * d].T.copy(), w[2 * d:].T.copy(),
                         torch_mha.out_proj.weight.detach().numpy().T.copy(), torch_mha.num_heads,
                         b[:d].copy(), b[d:2 * d].copy(), b[2 * d:].copy(), torch_mha.out_proj.bias.detach().numpy().copy())
'''},
    {"exercise": "params_from_torch", "kind": "wrong", "mistake": "drops the biases always",
     "teacher_says": "when the module has biases they are part of what it computes: copy in_proj_bias and out_proj.bias",
     "code": '''
import mha

def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy()
    d = w.shape[1]
    return mha.MHAParams(w[:d].T.copy(), w[d:2 * d].T.copy(), w[2 * d:].T.copy(),
                         torch_mha.out_proj.weight.detach().numpy().T.copy(), torch_mha.num_heads)
'''},
    {"exercise": "params_from_torch", "kind": "wrong", "mistake": "passes head_dim as num_heads",
     "teacher_says": "num_heads is torch_mha.num_heads; head_dim is d_k",
     "code": '''
import mha

def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy()
    d = w.shape[1]
    b = None if torch_mha.in_proj_bias is None else torch_mha.in_proj_bias.detach().numpy()
    bq, bk, bv = (None, None, None) if b is None else (b[:d].copy(), b[d:2 * d].copy(), b[2 * d:].copy())
    bo = None if torch_mha.out_proj.bias is None else torch_mha.out_proj.bias.detach().numpy().copy()
    return mha.MHAParams(w[:d].T.copy(), w[d:2 * d].T.copy(), w[2 * d:].T.copy(),
                         torch_mha.out_proj.weight.detach().numpy().T.copy(), torch_mha.head_dim, bq, bk, bv, bo)
'''},
    {"exercise": "params_from_torch", "kind": "wrong", "mistake": "splits the in_proj_bias as if interleaved (b[0::3], b[1::3], b[2::3])",
     "teacher_says": "in_proj_bias is b_Q, b_K, b_V one after another: slice blocks of d",
     "code": '''
import mha

def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy()
    d = w.shape[1]
    b = None if torch_mha.in_proj_bias is None else torch_mha.in_proj_bias.detach().numpy()
    bq, bk, bv = (None, None, None) if b is None else (b[0::3].copy(), b[1::3].copy(), b[2::3].copy())
    bo = None if torch_mha.out_proj.bias is None else torch_mha.out_proj.bias.detach().numpy().copy()
    return mha.MHAParams(w[:d].T.copy(), w[d:2 * d].T.copy(), w[2 * d:].T.copy(),
                         torch_mha.out_proj.weight.detach().numpy().T.copy(), torch_mha.num_heads, bq, bk, bv, bo)
'''},
    {"exercise": "params_from_torch", "kind": "robustness", "idea": "returns a dict of arrays instead of MHAParams",
     "mistake": "returns a plain dict",
     "teacher_says": "return an mha.MHAParams, which MultiHeadAttention.from_params accepts",
     "code": '''
def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy()
    d = w.shape[1]
    return {"w_q": w[:d].T, "w_k": w[d:2 * d].T, "w_v": w[2 * d:].T,
            "w_o": torch_mha.out_proj.weight.detach().numpy().T, "num_heads": torch_mha.num_heads}
'''},
    # ---------------- torch_key_padding_mask ----------------
    {"exercise": "torch_key_padding_mask", "kind": "correct", "idea": "index the singleton axes away and invert with ~",
     "code": '''
def torch_key_padding_mask(mask):
    return ~mask[:, 0, 0, :]
'''},
    {"exercise": "torch_key_padding_mask", "kind": "correct", "idea": "reshape to (B, n_k) and logical_not",
     "code": '''
import torch

def torch_key_padding_mask(mask):
    return torch.logical_not(mask.reshape(mask.shape[0], mask.shape[-1]))
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "keeps the book's polarity (True = real key)",
     "teacher_says": "nn.MultiheadAttention's key_padding_mask is True where a key is ignored: invert the mask",
     "code": '''
def torch_key_padding_mask(mask):
    return mask[:, 0, 0, :]
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "uses .squeeze(): with a batch of 1 (or n_k = 1) it squeezes those axes too",
     "teacher_says": "squeeze() drops every axis of size 1, the batch too when B = 1; remove only axes 1 and 2",
     "code": '''
def torch_key_padding_mask(mask):
    return ~mask.squeeze()
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "inverts but keeps shape (B, 1, 1, n_k)",
     "teacher_says": "key_padding_mask has shape (B, n_k)",
     "code": '''
def torch_key_padding_mask(mask):
    return ~mask
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "builds an int tensor 1 - mask (0/1 integers, not bool)",
     "teacher_says": "return a bool tensor; integers are not a valid key_padding_mask",
     "code": '''
def torch_key_padding_mask(mask):
    return 1 - mask[:, 0, 0, :].int()
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "converts to an additive float mask with -inf where real keys are (polarity reversed in the float form)",
     "teacher_says": "an additive mask puts -inf on the pads, 0 on the real keys; yours hides the real keys",
     "code": '''
import torch

def torch_key_padding_mask(mask):
    m = mask[:, 0, 0, :]
    return torch.zeros(m.shape).masked_fill(m, float("-inf"))
'''},
    {"exercise": "torch_key_padding_mask", "kind": "robustness", "idea": "returns a NumPy array",
     "mistake": "converts the result to NumPy",
     "teacher_says": "nn.MultiheadAttention needs a torch tensor",
     "code": '''
def torch_key_padding_mask(mask):
    return (~mask[:, 0, 0, :]).numpy()
'''},
    # ---------------- attention_backward ----------------
    {"exercise": "attention_backward", "kind": "correct", "idea": "products backwards with swapaxes, softmax backward p*(g - <g,p>)",
     "code": _BWD},
    {"exercise": "attention_backward", "kind": "correct", "idea": "einsum in float64 with the scale folded into the scores' gradient, cast back",
     "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    dt = np.result_type(q, k, v, grad_out)
    q, k, v, g = (np.asarray(a, np.float64) for a in (q, k, v, grad_out))
    c = 1.0 / np.sqrt(q.shape[-1])
    s = np.einsum("...id,...jd->...ij", q, k) * c
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    dv = np.einsum("...ij,...id->...jd", p, g)
    dp = np.einsum("...id,...jd->...ij", g, v)
    ds = p * (dp - np.einsum("...ij,...ij->...i", dp, p)[..., None]) * c
    dq = np.einsum("...ij,...jd->...id", ds, k)
    dk = np.einsum("...ij,...id->...jd", ds, q)
    return dq.astype(dt), dk.astype(dt), dv.astype(dt)
'''},
    {"exercise": "attention_backward", "kind": "wrong", "mistake": "forgets the 1/sqrt(d_k) in grad_q and grad_k",
     "teacher_says": "S = QK^T / sqrt(d_k): the chain rule brings the same factor into grad_q and grad_k",
     "code": _BWD.replace("grad_q = grad_s @ k * scale", "grad_q = grad_s @ k").replace("grad_k = np.swapaxes(grad_s, -1, -2) @ q * scale", "grad_k = np.swapaxes(grad_s, -1, -2) @ q")},
    {"exercise": "attention_backward", "kind": "wrong", "mistake": "softmax backward only multiplies by p (drops the - <grad_p, p> term)",
     "teacher_says": "the softmax Jacobian is diag(p) - pp^T: subtract each row's <grad_p, p> before multiplying by p",
     "code": _BWD.replace("grad_s = p * (grad_p - (grad_p * p).sum(-1, keepdims=True))", "grad_s = p * grad_p")},
    {"exercise": "attention_backward", "kind": "wrong", "mistake": "grad_v = P @ grad_out without transposing P (right shape only when n_q = n_k)",
     "teacher_says": "for O = PV, dL/dV = P^T dL/dO",
     "code": _BWD.replace("grad_v = np.swapaxes(p, -1, -2) @ grad_out", "grad_v = p @ grad_out")},
    {"exercise": "attention_backward", "kind": "wrong", "mistake": "the row sum <grad_p, p> is taken over the queries axis (-2)",
     "teacher_says": "the softmax normalises each row, so the inner product is over the keys axis (-1)",
     "code": _BWD.replace("(grad_p * p).sum(-1, keepdims=True)", "(grad_p * p).sum(-2, keepdims=True)")},
    {"exercise": "attention_backward", "kind": "wrong", "mistake": "grad_k computed as grad_s @ q (no transpose of grad_s): raises when n_q != n_k, wrong when they are equal",
     "teacher_says": "S = Q K^T gives dL/dK = (dL/dS)^T Q; without the transpose you get a (n_q, d) array of the wrong content",
     "code": _BWD.replace("grad_k = np.swapaxes(grad_s, -1, -2) @ q * scale", "grad_k = np.swapaxes(grad_s @ q, -1, -2).swapaxes(-1, -2) * scale")},
    {"exercise": "attention_backward", "kind": "wrong", "mistake": "returns the gradients in the order (grad_v, grad_k, grad_q)",
     "teacher_says": "return (grad_q, grad_k, grad_v)",
     "code": _BWD.replace("return grad_q, grad_k, grad_v", "return grad_v, grad_k, grad_q")},
    {"exercise": "attention_backward", "kind": "robustness", "idea": "uses torch autograd and returns torch tensors",
     "mistake": "returns torch tensors (autograd instead of the NumPy computation)",
     "teacher_says": "the exercise asks for NumPy arrays computed by hand",
     "code": '''
import torch

def attention_backward(q, k, v, grad_out):
    q, k, v = (torch.tensor(a, requires_grad=True) for a in (q, k, v))
    o = torch.softmax(q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5, dim=-1) @ v
    o.backward(torch.tensor(grad_out))
    return q.grad, k.grad, v.grad
'''},
    # ---------------- module_forward ----------------
    {"exercise": "module_forward", "kind": "correct", "idea": "torch ops with masked_fill and nan_to_num for fully masked rows",
     "code": _FWD},
    {"exercise": "module_forward", "kind": "correct", "idea": "uses torch.where and a manual stable softmax that keeps empty rows at zero, unflatten/flatten for heads",
     "code": '''
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    qh = proj(q, module.w_q, module.b_q).unflatten(-1, (h, -1)).transpose(-3, -2)
    kh = proj(k, module.w_k, module.b_k).unflatten(-1, (h, -1)).transpose(-3, -2)
    vh = proj(v, module.w_v, module.b_v).unflatten(-1, (h, -1)).transpose(-3, -2)
    scores = torch.matmul(qh, kh.transpose(-1, -2)) * module.d_k ** -0.5
    if mask is not None:
        scores = torch.where(mask, scores, torch.tensor(float("-inf"), dtype=scores.dtype))
    m = scores.amax(dim=-1, keepdim=True)
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    e = torch.exp(scores - m)
    z = e.sum(dim=-1, keepdim=True)
    weights = e / torch.where(z > 0, z, torch.ones_like(z))
    out = (weights @ vh).transpose(-3, -2).flatten(-2)
    return proj(out, module.w_o, module.b_o), weights
'''},
    {"exercise": "module_forward", "kind": "wrong", "mistake": "scales by sqrt(d_model / h) instead of module.d_k (differs when d_k != d_model/h)",
     "teacher_says": "the module's head size is module.d_k, which need not be d_model / h",
     "code": _FWD.replace("/ math.sqrt(d_k)", "/ math.sqrt(q.shape[-1] / h)")},
    {"exercise": "module_forward", "kind": "wrong", "mistake": "no handling of a fully masked row: NaN weights and output",
     "teacher_says": "softmax of a row of -inf is NaN; the module gives such a query zero weights",
     "code": _FWD.replace("        weights = torch.nan_to_num(weights, nan=0.0)\n", "        pass\n")},
    {"exercise": "module_forward", "kind": "wrong", "mistake": "uses nn.Linear's convention x @ w.T",
     "teacher_says": "the module's weights are in the paper's layout: q @ module.w_q, no .T",
     "code": _FWD.replace("y = x @ w\n", "y = x @ w.T if w.shape[0] == w.shape[1] else x @ w\n")},
    {"exercise": "module_forward", "kind": "wrong", "mistake": "masked_fill(mask, -inf): hides the allowed keys (PyTorch's polarity)",
     "teacher_says": "mask is True where attention is allowed: fill where ~mask",
     "code": _FWD.replace("scores.masked_fill(~mask,", "scores.masked_fill(mask,")},
    {"exercise": "module_forward", "kind": "wrong", "mistake": "splits the heads with the head size d_k where the values have d_v (reshape with module.d_k for every projection)",
     "teacher_says": "values are split into heads of d_v features; use -1 or f // h for each projection",
     "code": _FWD.replace("return x.reshape(*batch, n, h, f // h).transpose(-3, -2)", "return x.reshape(*batch, n, -1, module.d_k).transpose(-3, -2)")},
    {"exercise": "module_forward", "kind": "wrong", "mistake": "returns the weights averaged over heads",
     "teacher_says": "return the per-head weights, shape (..., h, n_q, n_k)",
     "code": _FWD.replace("return proj(concat, module.w_o, module.b_o), weights", "return proj(concat, module.w_o, module.b_o), weights.mean(dim=-3)")},
    {"exercise": "module_forward", "kind": "robustness", "idea": "converts to NumPy, uses mha.multi_head_attention, returns NumPy arrays",
     "mistake": "returns NumPy arrays instead of torch tensors (and breaks autograd)",
     "teacher_says": "the forward pass must stay in torch, returning tensors",
     "code": '''
import numpy as np
import mha

def module_forward(module, q, k, v, mask=None):
    f = lambda t: None if t is None else t.detach().numpy()
    p = mha.MHAParams(f(module.w_q), f(module.w_k), f(module.w_v), f(module.w_o), module.num_heads,
                      f(module.b_q), f(module.b_k), f(module.b_v), f(module.b_o))
    return mha.multi_head_attention(f(q), f(k), f(v), p, None if mask is None else mask.numpy())
'''},
]
