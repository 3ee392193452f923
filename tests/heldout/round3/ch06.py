_PFT = '''
import numpy as np
import mha

def params_from_torch(torch_mha):
    W = torch_mha.in_proj_weight.detach().cpu().numpy()
    d = torch_mha.embed_dim
    w_q, w_k, w_v = W[:d].T, W[d:2*d].T, W[2*d:].T
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().cpu().numpy()
        b_q, b_k, b_v = b[:d], b[d:2*d], b[2*d:]
    else:
        b_q = b_k = b_v = None
    w_o = torch_mha.out_proj.weight.detach().cpu().numpy().T
    b_o = None if torch_mha.out_proj.bias is None else torch_mha.out_proj.bias.detach().cpu().numpy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, b_q, b_k, b_v, b_o)
'''
_MF = '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def lin(x, w, b):
        y = x @ w
        return y if b is None else y + b
    def split(x):
        *lead, n, f = x.shape
        return x.reshape(*lead, n, h, f // h).transpose(-2, -3)
    Q = split(lin(q, module.w_q, module.b_q))
    K = split(lin(k, module.w_k, module.b_k))
    V = split(lin(v, module.w_v, module.b_v))
    s = Q @ K.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    w = torch.softmax(s, dim=-1)
    w = torch.nan_to_num(w, nan=0.0)
    o = (w @ V).transpose(-2, -3)
    o = o.reshape(*o.shape[:-2], -1)
    return lin(o, module.w_o, module.b_o), w
'''
_BW = '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    d = q.shape[-1]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(-1, keepdims=True))
    grad_q = grad_s @ k / np.sqrt(d)
    grad_k = np.swapaxes(grad_s, -1, -2) @ q / np.sqrt(d)
    return grad_q, grad_k, grad_v
'''
ANSWERS = [
    {"exercise": "params_from_torch", "kind": "correct", "idea": "slice in_proj rows, transpose", "code": _PFT},
    {"exercise": "params_from_torch", "kind": "correct", "idea": "via state_dict and np.split, copies",
     "code": '''
import numpy as np
import mha

def params_from_torch(torch_mha):
    sd = {k: v.detach().cpu().numpy().copy() for k, v in torch_mha.state_dict().items()}
    w_q, w_k, w_v = (w.T.copy() for w in np.split(sd["in_proj_weight"], 3))
    bq = bk = bv = None
    if "in_proj_bias" in sd:
        bq, bk, bv = np.split(sd["in_proj_bias"], 3)
    return mha.MHAParams(w_q=w_q, w_k=w_k, w_v=w_v, w_o=sd["out_proj.weight"].T.copy(),
                         num_heads=torch_mha.num_heads, b_q=bq, b_k=bk, b_v=bv,
                         b_o=sd.get("out_proj.bias"))
'''},
    {"exercise": "params_from_torch", "kind": "wrong", "mistake": "w_o not transposed (out_proj.weight copied as is)",
     "teacher_says": "out_proj.weight is nn.Linear's (out, in) layout too: transpose it for W^O",
     "code": _PFT.replace("torch_mha.out_proj.weight.detach().cpu().numpy().T", "torch_mha.out_proj.weight.detach().cpu().numpy()")},
    {"exercise": "params_from_torch", "kind": "wrong", "mistake": "in_proj blocks not transposed",
     "teacher_says": "x @ w_q needs (in, out): transpose each block of in_proj_weight",
     "code": _PFT.replace("W[:d].T, W[d:2*d].T, W[2*d:].T", "W[:d], W[d:2*d], W[2*d:]")},
    {"exercise": "params_from_torch", "kind": "wrong", "mistake": "out_proj bias dropped (always None)",
     "teacher_says": "the module's out_proj has a bias when bias=True; pass it as b_o",
     "code": _PFT.replace("b_o = None if torch_mha.out_proj.bias is None else torch_mha.out_proj.bias.detach().cpu().numpy()", "b_o = None")},
    {"exercise": "params_from_torch", "kind": "wrong", "mistake": "num_heads read from the module's head_dim",
     "teacher_says": "num_heads is torch_mha.num_heads, not head_dim",
     "code": _PFT.replace("torch_mha.num_heads, b_q", "torch_mha.head_dim, b_q")},
    {"exercise": "params_from_torch", "kind": "robustness", "idea": "keeps torch tensors (no .numpy())",
     "code": '''
import mha

def params_from_torch(torch_mha):
    W = torch_mha.in_proj_weight.detach()
    d = torch_mha.embed_dim
    b = torch_mha.in_proj_bias
    b = (None, None, None) if b is None else (b.detach()[:d], b.detach()[d:2*d], b.detach()[2*d:])
    bo = torch_mha.out_proj.bias
    return mha.MHAParams(W[:d].T, W[d:2*d].T, W[2*d:].T, torch_mha.out_proj.weight.detach().T,
                         torch_mha.num_heads, *b, None if bo is None else bo.detach())
'''},
    {"exercise": "torch_key_padding_mask", "kind": "correct", "idea": "squeeze to (B, n_k) and invert",
     "code": '''
def torch_key_padding_mask(mask):
    return ~mask[:, 0, 0, :]
'''},
    {"exercise": "torch_key_padding_mask", "kind": "correct", "idea": "reshape and logical_not",
     "code": '''
import torch

def torch_key_padding_mask(mask):
    return torch.logical_not(mask.reshape(mask.shape[0], mask.shape[-1]))
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "forgets to invert polarity",
     "teacher_says": "key_padding_mask marks with True the keys to ignore: pass ~mask",
     "code": '''
def torch_key_padding_mask(mask):
    return mask[:, 0, 0, :]
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "keeps the (B, 1, 1, n_k) shape",
     "teacher_says": "key_padding_mask has shape (B, n_k)",
     "code": '''
def torch_key_padding_mask(mask):
    return ~mask
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "converts to a float additive mask with 1.0 for pads (float masks are added to scores)",
     "teacher_says": "a float key_padding_mask is added to the scores: 1.0 does not block anything; return a bool tensor",
     "code": '''
def torch_key_padding_mask(mask):
    return (~mask[:, 0, 0, :]).float()
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "squeeze() drops the batch axis when B = 1",
     "teacher_says": "squeeze() removes every size-1 axis, the batch too when B = 1; index the axes explicitly",
     "code": '''
def torch_key_padding_mask(mask):
    return ~mask.squeeze()
'''},
    {"exercise": "attention_backward", "kind": "correct", "idea": "softmax Jacobian-vector product", "code": _BW},
    {"exercise": "attention_backward", "kind": "correct", "idea": "torch autograd in float64 (a student cheating politely)",
     "code": '''
import numpy as np
import torch

def attention_backward(q, k, v, grad_out):
    Q, K, V = (torch.tensor(np.asarray(a, dtype=np.float64), requires_grad=True) for a in (q, k, v))
    out = torch.softmax(Q @ K.transpose(-1, -2) / Q.shape[-1] ** 0.5, dim=-1) @ V
    out.backward(torch.tensor(np.asarray(grad_out, dtype=np.float64)))
    dt = np.result_type(q, k, v)
    return tuple(t.grad.numpy().astype(dt) for t in (Q, K, V))
'''},
    {"exercise": "attention_backward", "kind": "wrong", "mistake": "forgets the 1/sqrt(d) factor in grad_q and grad_k",
     "teacher_says": "S = QK^T/sqrt(d_k): the chain rule brings the 1/sqrt(d_k) into dQ and dK",
     "code": _BW.replace("grad_s @ k / np.sqrt(d)", "grad_s @ k").replace("@ q / np.sqrt(d)", "@ q")},
    {"exercise": "attention_backward", "kind": "wrong", "mistake": "softmax backward without the subtraction term (diag only)",
     "teacher_says": "the softmax Jacobian is diag(p) - pp^T; you kept only diag(p)",
     "code": _BW.replace("p * (grad_p - (grad_p * p).sum(-1, keepdims=True))", "p * grad_p")},
    {"exercise": "attention_backward", "kind": "wrong", "mistake": "grad_v = P @ grad_out (no transpose)",
     "teacher_says": "dV = P^T dO",
     "code": _BW.replace("np.swapaxes(p, -1, -2) @ grad_out", "p @ grad_out")},
    {"exercise": "attention_backward", "kind": "wrong", "mistake": "grad_k = grad_s @ q (not transposed)",
     "teacher_says": "dK = dS^T Q / sqrt(d_k)",
     "code": _BW.replace("np.swapaxes(grad_s, -1, -2) @ q", "grad_s @ q")},
    {"exercise": "module_forward", "kind": "correct", "idea": "plain torch ops, nan_to_num for empty rows", "code": _MF},
    {"exercise": "module_forward", "kind": "correct", "idea": "einsum and where-based safe softmax",
     "code": '''
import torch

def module_forward(module, q, k, v, mask=None):
    h, dk = module.num_heads, module.d_k
    Q = q @ module.w_q + (0 if module.b_q is None else module.b_q)
    K = k @ module.w_k + (0 if module.b_k is None else module.b_k)
    V = v @ module.w_v + (0 if module.b_v is None else module.b_v)
    Q = Q.unflatten(-1, (h, -1)).transpose(-2, -3)
    K = K.unflatten(-1, (h, -1)).transpose(-2, -3)
    V = V.unflatten(-1, (h, -1)).transpose(-2, -3)
    s = torch.einsum("...qd,...kd->...qk", Q, K) / dk ** 0.5
    if mask is not None:
        s = torch.where(mask, s, torch.tensor(float("-inf"), dtype=s.dtype))
    m = s.amax(-1, keepdim=True)
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    e = torch.exp(s - m)
    z = e.sum(-1, keepdim=True)
    w = torch.where(z > 0, e / z.clamp_min(1e-300 if e.dtype == torch.float64 else 1e-30), torch.zeros_like(e))
    o = (w @ V).transpose(-2, -3).flatten(-2)
    out = o @ module.w_o
    if module.b_o is not None:
        out = out + module.b_o
    return out, w
'''},
    {"exercise": "module_forward", "kind": "wrong", "mistake": "scales by d_model/h instead of module.d_k",
     "teacher_says": "use module.d_k: it may differ from d_model/h",
     "code": _MF.replace("math.sqrt(module.d_k)", "math.sqrt(q.shape[-1] // h)")},
    {"exercise": "module_forward", "kind": "wrong", "mistake": "mask not inverted for masked_fill (fills allowed positions)",
     "teacher_says": "mask True = may attend; masked_fill fills where its argument is True, so pass ~mask",
     "code": _MF.replace("s.masked_fill(~mask,", "s.masked_fill(mask,")},
    {"exercise": "module_forward", "kind": "wrong", "mistake": "fully masked rows left NaN",
     "teacher_says": "a query with no allowed key must get zero weights and output, not NaN",
     "code": _MF.replace("    w = torch.nan_to_num(w, nan=0.0)\n", "")},
    {"exercise": "module_forward", "kind": "wrong", "mistake": "merge without transposing back",
     "teacher_says": "swap heads and tokens back before flattening the heads' features",
     "code": _MF.replace("o = (w @ V).transpose(-2, -3)", "o = (w @ V).reshape(*(w @ V).shape[:-3], (w @ V).shape[-2], (w @ V).shape[-3], -1)")},
    {"exercise": "module_forward", "kind": "robustness", "idea": "returns numpy arrays instead of tensors",
     "code": _MF.replace("return lin(o, module.w_o, module.b_o), w", "return lin(o, module.w_o, module.b_o).detach().numpy(), w.detach().numpy()")},
]
