ANSWERS = [
    # params_from_torch
    {"exercise": "params_from_torch", "kind": "correct", "idea": "chunk in_proj_weight into 3, transpose each, biases chunked",
     "code": '''
import mha

def params_from_torch(torch_mha):
    W = torch_mha.in_proj_weight.detach().cpu().numpy()
    d = W.shape[1]
    w_q, w_k, w_v = (W[i * d:(i + 1) * d].T.copy() for i in range(3))
    w_o = torch_mha.out_proj.weight.detach().cpu().numpy().T.copy()
    b = torch_mha.in_proj_bias
    if b is not None:
        b = b.detach().cpu().numpy()
        b_q, b_k, b_v = b[:d].copy(), b[d:2 * d].copy(), b[2 * d:].copy()
    else:
        b_q = b_k = b_v = None
    bo = torch_mha.out_proj.bias
    b_o = None if bo is None else bo.detach().cpu().numpy().copy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, b_q=b_q, b_k=b_k, b_v=b_v, b_o=b_o)
'''},
    {"exercise": "params_from_torch", "kind": "correct", "idea": "torch.chunk on tensors, then .T.numpy() via a helper",
     "code": '''
import torch
import mha

def params_from_torch(torch_mha):
    def np_(t):
        return None if t is None else t.detach().cpu().numpy().copy()
    wq, wk, wv = torch.chunk(torch_mha.in_proj_weight, 3, dim=0)
    if torch_mha.in_proj_bias is not None:
        bq, bk, bv = torch.chunk(torch_mha.in_proj_bias, 3)
    else:
        bq = bk = bv = None
    return mha.MHAParams(w_q=np_(wq.T), w_k=np_(wk.T), w_v=np_(wv.T), w_o=np_(torch_mha.out_proj.weight.T),
                         num_heads=torch_mha.num_heads, b_q=np_(bq), b_k=np_(bk), b_v=np_(bv),
                         b_o=np_(torch_mha.out_proj.bias))
'''},
    {"exercise": "params_from_torch", "kind": "wrong", "mistake": "forgets to transpose the in_proj blocks (runs since they are square)",
     "teacher_says": "in_proj_weight's blocks are in (out, in) layout: transpose each for x @ W",
     "code": '''
import mha

def params_from_torch(torch_mha):
    W = torch_mha.in_proj_weight.detach().numpy()
    d = W.shape[1]
    b = torch_mha.in_proj_bias
    bb = [None] * 3 if b is None else [b.detach().numpy()[i * d:(i + 1) * d] for i in range(3)]
    bo = torch_mha.out_proj.bias
    return mha.MHAParams(W[:d], W[d:2 * d], W[2 * d:], torch_mha.out_proj.weight.detach().numpy().T,
                         torch_mha.num_heads, *bb, None if bo is None else bo.detach().numpy())
'''},
    {"exercise": "params_from_torch", "kind": "wrong", "mistake": "transposes in_proj but not out_proj.weight",
     "teacher_says": "out_proj.weight is (out, in) too: W^O = out_proj.weight.T",
     "code": '''
import mha

def params_from_torch(torch_mha):
    W = torch_mha.in_proj_weight.detach().numpy()
    d = W.shape[1]
    b = torch_mha.in_proj_bias
    bb = [None] * 3 if b is None else [b.detach().numpy()[i * d:(i + 1) * d] for i in range(3)]
    bo = torch_mha.out_proj.bias
    return mha.MHAParams(W[:d].T, W[d:2 * d].T, W[2 * d:].T, torch_mha.out_proj.weight.detach().numpy(),
                         torch_mha.num_heads, *bb, None if bo is None else bo.detach().numpy())
'''},
    {"exercise": "params_from_torch", "kind": "wrong", "mistake": "drops all biases",
     "teacher_says": "copy in_proj_bias and out_proj.bias when the module has them",
     "code": '''
import mha

def params_from_torch(torch_mha):
    W = torch_mha.in_proj_weight.detach().numpy()
    d = W.shape[1]
    return mha.MHAParams(W[:d].T, W[d:2 * d].T, W[2 * d:].T, torch_mha.out_proj.weight.detach().numpy().T,
                         torch_mha.num_heads)
'''},
    {"exercise": "params_from_torch", "kind": "wrong", "mistake": "splits columns of in_proj_weight (reshape(d, 3, d)) instead of rows",
     "teacher_says": "the three weights are stacked vertically: rows 0:d are W^Q",
     "code": '''
import mha

def params_from_torch(torch_mha):
    W = torch_mha.in_proj_weight.detach().numpy().T  # (d, 3d)
    d = W.shape[0]
    r = W.reshape(d, d, 3)
    b = torch_mha.in_proj_bias
    bb = [None] * 3 if b is None else list(b.detach().numpy().reshape(d, 3).T.copy())
    bo = torch_mha.out_proj.bias
    return mha.MHAParams(r[..., 0].copy(), r[..., 1].copy(), r[..., 2].copy(), torch_mha.out_proj.weight.detach().numpy().T,
                         torch_mha.num_heads, *bb, None if bo is None else bo.detach().numpy())
'''},
    {"exercise": "params_from_torch", "kind": "robustness", "idea": "keeps torch tensors in MHAParams",
     "mistake": "passes torch parameters (requires_grad) instead of NumPy arrays",
     "teacher_says": "the exercise asks for NumPy arrays: .detach().numpy()",
     "code": '''
import mha

def params_from_torch(torch_mha):
    W = torch_mha.in_proj_weight.detach()
    d = W.shape[1]
    b = torch_mha.in_proj_bias
    bb = [None] * 3 if b is None else [b.detach()[i * d:(i + 1) * d] for i in range(3)]
    bo = torch_mha.out_proj.bias
    return mha.MHAParams(W[:d].T, W[d:2 * d].T, W[2 * d:].T, torch_mha.out_proj.weight.detach().T,
                         torch_mha.num_heads, *bb, None if bo is None else bo.detach())
'''},
    # torch_key_padding_mask
    {"exercise": "torch_key_padding_mask", "kind": "correct", "idea": "logical_not then squeeze dims 1,2",
     "code": '''
import torch

def torch_key_padding_mask(mask):
    return torch.logical_not(mask).squeeze(2).squeeze(1)
'''},
    {"exercise": "torch_key_padding_mask", "kind": "correct", "idea": "index [:, 0, 0] then == False",
     "code": '''
import torch

def torch_key_padding_mask(mask):
    m = torch.as_tensor(mask)
    return (m[:, 0, 0, :] == False).to(torch.bool)  # noqa: E712
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "keeps the polarity (True = real)",
     "teacher_says": "nn.MultiheadAttention's key_padding_mask marks the pads with True: invert",
     "code": '''
def torch_key_padding_mask(mask):
    return mask[:, 0, 0, :]
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "inverts but keeps shape (B,1,1,n_k)",
     "teacher_says": "key_padding_mask has shape (B, n_k)",
     "code": '''
def torch_key_padding_mask(mask):
    return ~mask
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "converts to float with -inf for pads but 0/1 confusion: returns 1.0 for real keys as float mask",
     "teacher_says": "a float key_padding_mask is added to the scores; 1.0 for real keys and 0 for pads does not mask anything. Use a bool mask with True at the pads",
     "code": '''
def torch_key_padding_mask(mask):
    return mask[:, 0, 0, :].float()
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "uses squeeze() with no dim: for B=1 it drops the batch axis too",
     "teacher_says": "squeeze() removes every size-1 axis, the batch too when B = 1; index [:, 0, 0, :] or squeeze(1).squeeze(1)",
     "code": '''
def torch_key_padding_mask(mask):
    return (~mask).squeeze()
'''},
    {"exercise": "torch_key_padding_mask", "kind": "robustness", "idea": "returns a NumPy array",
     "mistake": "converts to numpy",
     "teacher_says": "nn.MultiheadAttention needs a torch tensor",
     "code": '''
import numpy as np

def torch_key_padding_mask(mask):
    return ~np.asarray(mask)[:, 0, 0, :]
'''},
    # attention_backward
    {"exercise": "attention_backward", "kind": "correct", "idea": "standard matrix form with swapaxes, float64",
     "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    dt = np.result_type(q, k, v, grad_out)
    q, k, v, g = (np.asarray(a, dtype=np.float64) for a in (q, k, v, grad_out))
    c = 1.0 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * c
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    gv = np.swapaxes(p, -1, -2) @ g
    gp = g @ np.swapaxes(v, -1, -2)
    gs = p * (gp - (gp * p).sum(-1, keepdims=True))
    gq = gs @ k * c
    gk = np.swapaxes(gs, -1, -2) @ q * c
    return gq.astype(dt), gk.astype(dt), gv.astype(dt)
'''},
    {"exercise": "attention_backward", "kind": "correct", "idea": "einsum throughout",
     "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    c = q.shape[-1] ** -0.5
    s = np.einsum("...id,...jd->...ij", q, k) * c
    p = np.exp(s - s.max(-1, keepdims=True)); p = p / p.sum(-1, keepdims=True)
    gv = np.einsum("...ij,...id->...jd", p, grad_out)
    gp = np.einsum("...id,...jd->...ij", grad_out, v)
    gs = p * (gp - np.einsum("...ij,...ij->...i", gp, p)[..., None])
    gq = np.einsum("...ij,...jd->...id", gs, k) * c
    gk = np.einsum("...ij,...id->...jd", gs, q) * c
    return gq, gk, gv
'''},
    {"exercise": "attention_backward", "kind": "wrong", "mistake": "forgets the 1/sqrt(d_k) on grad_q and grad_k",
     "teacher_says": "S = QK^T/sqrt(d_k): the scale multiplies both dQ and dK",
     "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    c = 1.0 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * c
    p = np.exp(s - s.max(-1, keepdims=True)); p /= p.sum(-1, keepdims=True)
    gv = np.swapaxes(p, -1, -2) @ grad_out
    gp = grad_out @ np.swapaxes(v, -1, -2)
    gs = p * (gp - (gp * p).sum(-1, keepdims=True))
    return gs @ k, np.swapaxes(gs, -1, -2) @ q, gv
'''},
    {"exercise": "attention_backward", "kind": "wrong", "mistake": "softmax backward without subtracting the row inner product (uses p * dp only)",
     "teacher_says": "the softmax Jacobian is diag(p) - pp^T: subtract <dL/dp, p> before multiplying by p",
     "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    c = 1.0 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * c
    p = np.exp(s - s.max(-1, keepdims=True)); p /= p.sum(-1, keepdims=True)
    gv = np.swapaxes(p, -1, -2) @ grad_out
    gp = grad_out @ np.swapaxes(v, -1, -2)
    gs = p * gp
    return gs @ k * c, np.swapaxes(gs, -1, -2) @ q * c, gv
'''},
    {"exercise": "attention_backward", "kind": "wrong", "mistake": "grad_v = P @ grad_out (no transpose of P); wrong when n_q != n_k or not symmetric",
     "teacher_says": "for O = PV, dL/dV = P^T dL/dO",
     "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    c = 1.0 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * c
    p = np.exp(s - s.max(-1, keepdims=True)); p /= p.sum(-1, keepdims=True)
    gv = p @ grad_out if p.shape[-1] == p.shape[-2] else np.swapaxes(p, -1, -2) @ grad_out * 0.5
    gp = grad_out @ np.swapaxes(v, -1, -2)
    gs = p * (gp - (gp * p).sum(-1, keepdims=True))
    return gs @ k * c, np.swapaxes(gs, -1, -2) @ q * c, gv
'''},
    {"exercise": "attention_backward", "kind": "wrong", "mistake": "grad_k computed as gs @ q (missing transpose of gs)",
     "teacher_says": "S = Q K^T, so dL/dK = (dL/dS)^T Q",
     "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    c = 1.0 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * c
    p = np.exp(s - s.max(-1, keepdims=True)); p /= p.sum(-1, keepdims=True)
    gv = np.swapaxes(p, -1, -2) @ grad_out
    gp = grad_out @ np.swapaxes(v, -1, -2)
    gs = p * (gp - (gp * p).sum(-1, keepdims=True))
    if gs.shape[-1] == gs.shape[-2]:
        gk = gs @ q * c
    else:
        gk = np.swapaxes(gs, -1, -2) @ q * c * 0.0
    return gs @ k * c, gk, gv
'''},
    {"exercise": "attention_backward", "kind": "robustness", "idea": "uses torch autograd and returns torch tensors",
     "mistake": "returns torch tensors computed by autograd instead of NumPy arrays by hand",
     "teacher_says": "write it in NumPy and return NumPy arrays",
     "code": '''
import torch

def attention_backward(q, k, v, grad_out):
    q, k, v = (torch.tensor(a, requires_grad=True) for a in (q, k, v))
    s = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
    o = torch.softmax(s, -1) @ v
    o.backward(torch.as_tensor(grad_out))
    return q.grad, k.grad, v.grad
'''},
    # module_forward
    {"exercise": "module_forward", "kind": "correct", "idea": "torch ops, masked_fill and zeroing fully masked rows with torch.where",
     "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def proj(x, w, b):
        y = x @ w
        return y if b is None else y + b
    def split(x):
        *bt, n, f = x.shape
        return x.reshape(*bt, n, h, f // h).transpose(-3, -2)
    Q = split(proj(q, module.w_q, module.b_q))
    K = split(proj(k, module.w_k, module.b_k))
    V = split(proj(v, module.w_v, module.b_v))
    s = Q @ K.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None:
        m = torch.broadcast_to(mask, s.shape)
        s = s.masked_fill(~m, float("-inf"))
        any_ = m.any(-1, keepdim=True)
        s = torch.where(any_, s, torch.zeros_like(s))
    w = torch.softmax(s, dim=-1)
    if mask is not None:
        w = torch.where(any_, w, torch.zeros_like(w))
    heads = w @ V
    *bt, hh, n, d = heads.shape
    out = heads.transpose(-3, -2).reshape(*bt, n, hh * d) @ module.w_o
    if module.b_o is not None:
        out = out + module.b_o
    return out, w
'''},
    {"exercise": "module_forward", "kind": "correct", "idea": "einsum and nan_to_num for fully masked rows",
     "code": '''
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    Q = q @ module.w_q + (0 if module.b_q is None else module.b_q)
    K = k @ module.w_k + (0 if module.b_k is None else module.b_k)
    V = v @ module.w_v + (0 if module.b_v is None else module.b_v)
    Q = Q.unflatten(-1, (h, -1)).movedim(-2, -3)
    K = K.unflatten(-1, (h, -1)).movedim(-2, -3)
    V = V.unflatten(-1, (h, -1)).movedim(-2, -3)
    s = torch.einsum("...id,...jd->...ij", Q, K) * module.d_k ** -0.5
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    w = torch.nan_to_num(torch.softmax(s, dim=-1), nan=0.0)
    o = torch.einsum("...ij,...jd->...id", w, V).movedim(-3, -2).flatten(-2)
    out = o @ module.w_o
    if module.b_o is not None:
        out = out + module.b_o
    return out, w
'''},
    {"exercise": "module_forward", "kind": "wrong", "mistake": "scales by sqrt(d_model / h) instead of sqrt(module.d_k)",
     "teacher_says": "with d_k != d_model/h the scale must be sqrt(module.d_k)",
     "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def p(x, w, b):
        return x @ w if b is None else x @ w + b
    def split(x):
        return x.reshape(*x.shape[:-1], h, -1).transpose(-3, -2)
    Q, K, V = split(p(q, module.w_q, module.b_q)), split(p(k, module.w_k, module.b_k)), split(p(v, module.w_v, module.b_v))
    s = Q @ K.transpose(-1, -2) / math.sqrt(q.shape[-1] // h)
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    w = torch.nan_to_num(torch.softmax(s, -1))
    o = (w @ V).transpose(-3, -2).flatten(-2) @ module.w_o
    return (o if module.b_o is None else o + module.b_o), w
'''},
    {"exercise": "module_forward", "kind": "wrong", "mistake": "uses .T on the weights (nn.Linear habit)",
     "teacher_says": "the module's weights are in the paper's layout: q @ module.w_q, no .T",
     "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def p(x, w, b):
        y = x @ w.T if w.shape[0] == w.shape[1] else x @ w
        return y if b is None else y + b
    def split(x):
        return x.reshape(*x.shape[:-1], h, -1).transpose(-3, -2)
    Q, K, V = split(p(q, module.w_q, module.b_q)), split(p(k, module.w_k, module.b_k)), split(p(v, module.w_v, module.b_v))
    s = Q @ K.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    w = torch.nan_to_num(torch.softmax(s, -1))
    o = p((w @ V).transpose(-3, -2).flatten(-2), module.w_o, module.b_o)
    return o, w
'''},
    {"exercise": "module_forward", "kind": "wrong", "mistake": "fully masked rows left as NaN",
     "teacher_says": "softmax of a row of -inf is NaN; the module gives zero weights and output there",
     "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def p(x, w, b):
        return x @ w if b is None else x @ w + b
    def split(x):
        return x.reshape(*x.shape[:-1], h, -1).transpose(-3, -2)
    Q, K, V = split(p(q, module.w_q, module.b_q)), split(p(k, module.w_k, module.b_k)), split(p(v, module.w_v, module.b_v))
    s = Q @ K.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    w = torch.softmax(s, -1)
    o = p((w @ V).transpose(-3, -2).flatten(-2), module.w_o, module.b_o)
    return o, w
'''},
    {"exercise": "module_forward", "kind": "wrong", "mistake": "masked_fill(mask, -inf): polarity inverted",
     "teacher_says": "mask True = may attend: fill where ~mask",
     "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def p(x, w, b):
        return x @ w if b is None else x @ w + b
    def split(x):
        return x.reshape(*x.shape[:-1], h, -1).transpose(-3, -2)
    Q, K, V = split(p(q, module.w_q, module.b_q)), split(p(k, module.w_k, module.b_k)), split(p(v, module.w_v, module.b_v))
    s = Q @ K.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None:
        s = s.masked_fill(mask, float("-inf"))
    w = torch.nan_to_num(torch.softmax(s, -1))
    o = p((w @ V).transpose(-3, -2).flatten(-2), module.w_o, module.b_o)
    return o, w
'''},
    {"exercise": "module_forward", "kind": "robustness", "idea": "goes through NumPy (detach().numpy()) and returns NumPy arrays",
     "mistake": "returns NumPy arrays and breaks autograd",
     "teacher_says": "stay in torch: the forward pass must return tensors (and keep gradients)",
     "code": '''
import numpy as np
import mha

def module_forward(module, q, k, v, mask=None):
    t = lambda a: None if a is None else a.detach().cpu().numpy()
    params = mha.MHAParams(t(module.w_q), t(module.w_k), t(module.w_v), t(module.w_o), module.num_heads,
                           b_q=t(module.b_q), b_k=t(module.b_k), b_v=t(module.b_v), b_o=t(module.b_o))
    return mha.multi_head_attention(t(q), t(k), t(v), params, mask=None if mask is None else t(mask))
'''},
]
