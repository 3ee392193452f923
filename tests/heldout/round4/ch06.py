_MF = '''
import math
import torch
def _proj(x, w, b):
    y = x @ w
    return y if b is None else y + b
def _split(x, h):
    *b, n, f = x.shape
    return x.reshape(*b, n, h, f // h).transpose(-3, -2)
'''
ANSWERS = [
 {"exercise": "params_from_torch", "kind": "correct", "idea": "split in_proj rows, transpose, biases or None", "code": '''
import mha
def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().cpu().numpy()
    d = w.shape[1]
    wq, wk, wv = (w[i*d:(i+1)*d].T.copy() for i in range(3))
    wo = torch_mha.out_proj.weight.detach().cpu().numpy().T.copy()
    b = torch_mha.in_proj_bias
    if b is None:
        bq = bk = bv = bo = None
    else:
        bb = b.detach().cpu().numpy()
        bq, bk, bv = bb[:d].copy(), bb[d:2*d].copy(), bb[2*d:].copy()
        bo = torch_mha.out_proj.bias.detach().cpu().numpy().copy()
    return mha.MHAParams(wq, wk, wv, wo, num_heads=torch_mha.num_heads, b_q=bq, b_k=bk, b_v=bv, b_o=bo)
'''},
 {"exercise": "params_from_torch", "kind": "correct", "idea": "torch.chunk then numpy", "code": '''
import mha
import torch
def params_from_torch(torch_mha):
    with torch.no_grad():
        ws = [t.T.contiguous().numpy() for t in torch_mha.in_proj_weight.chunk(3, dim=0)]
        wo = torch_mha.out_proj.weight.T.contiguous().numpy()
        if torch_mha.in_proj_bias is not None:
            bs = [t.clone().numpy() for t in torch_mha.in_proj_bias.chunk(3)]
            bo = torch_mha.out_proj.bias.clone().numpy()
        else:
            bs, bo = [None] * 3, None
    return mha.MHAParams(*ws, wo, torch_mha.num_heads, *bs, bo)
'''},
 {"exercise": "params_from_torch", "kind": "wrong", "mistake": "no transposes (PyTorch layout kept)", "teacher_says": "nn.Linear stores (out, in): transpose each block and out_proj.weight", "code": '''
import mha
def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy(); d = w.shape[1]
    wq, wk, wv = w[:d].copy(), w[d:2*d].copy(), w[2*d:].copy()
    wo = torch_mha.out_proj.weight.detach().numpy().copy()
    b = torch_mha.in_proj_bias
    if b is None:
        return mha.MHAParams(wq, wk, wv, wo, torch_mha.num_heads)
    bb = b.detach().numpy()
    return mha.MHAParams(wq, wk, wv, wo, torch_mha.num_heads, bb[:d].copy(), bb[d:2*d].copy(), bb[2*d:].copy(), torch_mha.out_proj.bias.detach().numpy().copy())
'''},
 {"exercise": "params_from_torch", "kind": "wrong", "mistake": "transposes in_proj but forgets out_proj.weight", "teacher_says": "out_proj.weight is (out, in) too: transpose it", "code": '''
import mha
def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy(); d = w.shape[1]
    wq, wk, wv = w[:d].T.copy(), w[d:2*d].T.copy(), w[2*d:].T.copy()
    wo = torch_mha.out_proj.weight.detach().numpy().copy()
    b = torch_mha.in_proj_bias
    if b is None:
        return mha.MHAParams(wq, wk, wv, wo, torch_mha.num_heads)
    bb = b.detach().numpy()
    return mha.MHAParams(wq, wk, wv, wo, torch_mha.num_heads, bb[:d].copy(), bb[d:2*d].copy(), bb[2*d:].copy(), torch_mha.out_proj.bias.detach().numpy().copy())
'''},
 {"exercise": "params_from_torch", "kind": "wrong", "mistake": "transposes the whole in_proj_weight then splits rows", "teacher_says": "split the (3d, d) matrix into row blocks first, then transpose each", "code": '''
import mha
def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy().T; d = w.shape[0]
    wq, wk, wv = w.reshape(3, d, d)
    wo = torch_mha.out_proj.weight.detach().numpy().T.copy()
    b = torch_mha.in_proj_bias
    if b is None:
        return mha.MHAParams(wq.copy(), wk.copy(), wv.copy(), wo, torch_mha.num_heads)
    bb = b.detach().numpy()
    return mha.MHAParams(wq.copy(), wk.copy(), wv.copy(), wo, torch_mha.num_heads, bb[:d].copy(), bb[d:2*d].copy(), bb[2*d:].copy(), torch_mha.out_proj.bias.detach().numpy().copy())
'''},
 {"exercise": "params_from_torch", "kind": "wrong", "mistake": "biases of Q and V swapped (thought order V, K, Q)", "teacher_says": "in_proj_bias holds b_Q, b_K, b_V in that order", "code": '''
import mha
def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy(); d = w.shape[1]
    wq, wk, wv = w[:d].T.copy(), w[d:2*d].T.copy(), w[2*d:].T.copy()
    wo = torch_mha.out_proj.weight.detach().numpy().T.copy()
    b = torch_mha.in_proj_bias
    if b is None:
        return mha.MHAParams(wq, wk, wv, wo, torch_mha.num_heads)
    bb = b.detach().numpy()
    return mha.MHAParams(wq, wk, wv, wo, torch_mha.num_heads, bb[2*d:].copy(), bb[d:2*d].copy(), bb[:d].copy(), torch_mha.out_proj.bias.detach().numpy().copy())
'''},
 {"exercise": "params_from_torch", "kind": "robustness", "idea": "zero biases instead of None when the module has none", "mistake": "b = zeros", "teacher_says": "when the module has no bias, the params' biases must be None", "code": '''
import numpy as np
import mha
def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy(); d = w.shape[1]
    wq, wk, wv = w[:d].T.copy(), w[d:2*d].T.copy(), w[2*d:].T.copy()
    wo = torch_mha.out_proj.weight.detach().numpy().T.copy()
    b = torch_mha.in_proj_bias
    bb = np.zeros(3 * d, w.dtype) if b is None else b.detach().numpy()
    bo = np.zeros(d, w.dtype) if torch_mha.out_proj.bias is None else torch_mha.out_proj.bias.detach().numpy()
    return mha.MHAParams(wq, wk, wv, wo, torch_mha.num_heads, bb[:d].copy(), bb[d:2*d].copy(), bb[2*d:].copy(), bo.copy())
'''},
 {"exercise": "torch_key_padding_mask", "kind": "correct", "idea": "invert and squeeze to (B, n_k)", "code": '''
def torch_key_padding_mask(mask):
    return ~mask[:, 0, 0, :]
'''},
 {"exercise": "torch_key_padding_mask", "kind": "correct", "idea": "logical_not then reshape", "code": '''
import torch
def torch_key_padding_mask(mask):
    return torch.logical_not(mask).reshape(mask.shape[0], mask.shape[-1])
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "squeezed but not inverted", "teacher_says": "nn.MultiheadAttention marks True = ignore: invert the mask", "code": '''
def torch_key_padding_mask(mask):
    return mask[:, 0, 0, :]
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "inverted but kept 4-D shape", "teacher_says": "key_padding_mask has shape (B, n_k)", "code": '''
def torch_key_padding_mask(mask):
    return ~mask
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "squeeze() drops B when B == 1", "teacher_says": "mask.squeeze() removes the batch axis when B = 1; index the singleton axes explicitly", "code": '''
def torch_key_padding_mask(mask):
    return ~mask.squeeze()
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "float additive mask with -inf where real (polarity confusion)", "teacher_says": "a float mask is added to the scores: -inf must go on the pads, and a bool mask is simpler", "code": '''
import torch
def torch_key_padding_mask(mask):
    m = mask[:, 0, 0, :]
    return torch.zeros(m.shape).masked_fill(m, float("-inf"))
'''},
 {"exercise": "torch_key_padding_mask", "kind": "robustness", "idea": "returns a numpy array", "mistake": "numpy", "teacher_says": "return a bool tensor", "code": '''
def torch_key_padding_mask(mask):
    return ~(mask[:, 0, 0, :].numpy())
'''},
 {"exercise": "attention_backward", "kind": "correct", "idea": "chain rule step by step", "code": '''
import numpy as np
def attention_backward(q, k, v, grad_out):
    c = 1 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * c
    e = np.exp(s - s.max(-1, keepdims=True)); p = e / e.sum(-1, keepdims=True)
    dv = np.swapaxes(p, -1, -2) @ grad_out
    dp = grad_out @ np.swapaxes(v, -1, -2)
    ds = p * (dp - (dp * p).sum(-1, keepdims=True))
    dq = ds @ k * c
    dk = np.swapaxes(ds, -1, -2) @ q * c
    return dq, dk, dv
'''},
 {"exercise": "attention_backward", "kind": "correct", "idea": "einsum, float64 internally, cast back", "code": '''
import numpy as np
def attention_backward(q, k, v, grad_out):
    dt = np.result_type(q, k, v, grad_out)
    q, k, v, g = (np.asarray(a, np.float64) for a in (q, k, v, grad_out))
    c = q.shape[-1] ** -0.5
    s = np.einsum("...id,...jd->...ij", q, k) * c
    s -= s.max(-1, keepdims=True)
    p = np.exp(s); p /= p.sum(-1, keepdims=True)
    dv = np.einsum("...ij,...id->...jd", p, g)
    dp = np.einsum("...id,...jd->...ij", g, v)
    o = np.einsum("...ij,...jd->...id", p, v)
    ds = p * (dp - np.einsum("...id,...id->...i", g, o)[..., None])
    dq = np.einsum("...ij,...jd->...id", ds, k) * c
    dk = np.einsum("...ij,...id->...jd", ds, q) * c
    return dq.astype(dt), dk.astype(dt), dv.astype(dt)
'''},
 {"exercise": "attention_backward", "kind": "wrong", "mistake": "forgets the 1/sqrt(d_k) in the backward of the scores", "teacher_says": "the scores are scaled: grad_q and grad_k carry the factor 1/sqrt(d_k)", "code": '''
import numpy as np
def attention_backward(q, k, v, grad_out):
    c = 1 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * c
    e = np.exp(s - s.max(-1, keepdims=True)); p = e / e.sum(-1, keepdims=True)
    dv = np.swapaxes(p, -1, -2) @ grad_out
    dp = grad_out @ np.swapaxes(v, -1, -2)
    ds = p * (dp - (dp * p).sum(-1, keepdims=True))
    return ds @ k, np.swapaxes(ds, -1, -2) @ q, dv
'''},
 {"exercise": "attention_backward", "kind": "wrong", "mistake": "softmax backward as elementwise p(1-p)", "teacher_says": "the softmax Jacobian is diag(p) - pp^T, not its diagonal only", "code": '''
import numpy as np
def attention_backward(q, k, v, grad_out):
    c = 1 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * c
    e = np.exp(s - s.max(-1, keepdims=True)); p = e / e.sum(-1, keepdims=True)
    dv = np.swapaxes(p, -1, -2) @ grad_out
    dp = grad_out @ np.swapaxes(v, -1, -2)
    ds = dp * p * (1 - p)
    return ds @ k * c, np.swapaxes(ds, -1, -2) @ q * c, dv
'''},
 {"exercise": "attention_backward", "kind": "wrong", "mistake": "grad_v = P @ grad_out (forgot transpose of P)", "teacher_says": "dL/dV = P^T dL/dO", "code": '''
import numpy as np
def attention_backward(q, k, v, grad_out):
    c = 1 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * c
    e = np.exp(s - s.max(-1, keepdims=True)); p = e / e.sum(-1, keepdims=True)
    dv = p @ grad_out
    dp = grad_out @ np.swapaxes(v, -1, -2)
    ds = p * (dp - (dp * p).sum(-1, keepdims=True))
    return ds @ k * c, np.swapaxes(ds, -1, -2) @ q * c, dv
'''},
 {"exercise": "attention_backward", "kind": "wrong", "mistake": "grad_k computed as ds @ q (missing transpose of ds)", "teacher_says": "for S = Q K^T, dL/dK = (dL/dS)^T Q", "code": '''
import numpy as np
def attention_backward(q, k, v, grad_out):
    c = 1 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * c
    e = np.exp(s - s.max(-1, keepdims=True)); p = e / e.sum(-1, keepdims=True)
    dv = np.swapaxes(p, -1, -2) @ grad_out
    dp = grad_out @ np.swapaxes(v, -1, -2)
    ds = p * (dp - (dp * p).sum(-1, keepdims=True))
    return ds @ k * c, ds @ q * c, dv
'''},
 {"exercise": "attention_backward", "kind": "robustness", "idea": "uses torch autograd and returns torch tensors", "mistake": "torch output, not NumPy", "teacher_says": "write it in NumPy and return NumPy arrays", "code": '''
import torch
def attention_backward(q, k, v, grad_out):
    q, k, v = (torch.tensor(a, requires_grad=True) for a in (q, k, v))
    s = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
    o = torch.softmax(s, -1) @ v
    o.backward(torch.as_tensor(grad_out))
    return q.grad, k.grad, v.grad
'''},
 {"exercise": "module_forward", "kind": "correct", "idea": "chapter 4 in torch with zero rows for fully masked", "code": _MF + '''
def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    qh = _split(_proj(q, module.w_q, module.b_q), h)
    kh = _split(_proj(k, module.w_k, module.b_k), h)
    vh = _split(_proj(v, module.w_v, module.b_v), h)
    s = qh @ kh.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    w = torch.softmax(s, dim=-1)
    w = torch.nan_to_num(w, nan=0.0)
    heads = w @ vh
    *b, hh, n, d = heads.shape
    out = _proj(heads.transpose(-3, -2).reshape(*b, n, hh * d), module.w_o, module.b_o)
    return out, w
'''},
 {"exercise": "module_forward", "kind": "correct", "idea": "einsum and explicit any-guard", "code": _MF + '''
def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    qh = _split(_proj(q, module.w_q, module.b_q), h)
    kh = _split(_proj(k, module.w_k, module.b_k), h)
    vh = _split(_proj(v, module.w_v, module.b_v), h)
    s = torch.einsum("...qd,...kd->...qk", qh, kh) / qh.shape[-1] ** 0.5
    if mask is not None:
        mask = torch.broadcast_to(mask, s.shape)
        s = torch.where(mask, s, torch.tensor(float("-inf"), dtype=s.dtype))
        any_ = mask.any(-1, keepdim=True)
        s = torch.where(any_, s, torch.zeros((), dtype=s.dtype))
        w = torch.softmax(s, -1) * any_
    else:
        w = torch.softmax(s, -1)
    heads = torch.einsum("...qk,...kd->...qd", w, vh)
    wo = module.w_o.reshape(h, heads.shape[-1], -1)
    out = torch.einsum("...hqd,hdm->...qm", heads, wo)
    if module.b_o is not None:
        out = out + module.b_o
    return out, w
'''},
 {"exercise": "module_forward", "kind": "wrong", "mistake": "scales by sqrt(d_model/h) instead of module.d_k", "teacher_says": "use module.d_k: it may differ from d_model/h", "code": _MF + '''
def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    qh = _split(_proj(q, module.w_q, module.b_q), h)
    kh = _split(_proj(k, module.w_k, module.b_k), h)
    vh = _split(_proj(v, module.w_v, module.b_v), h)
    s = qh @ kh.transpose(-1, -2) / math.sqrt(module.w_o.shape[1] // h)
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    w = torch.nan_to_num(torch.softmax(s, dim=-1))
    heads = w @ vh
    *b, hh, n, d = heads.shape
    return _proj(heads.transpose(-3, -2).reshape(*b, n, hh * d), module.w_o, module.b_o), w
'''},
 {"exercise": "module_forward", "kind": "wrong", "mistake": "uses nn.Linear habit: x @ w.T", "teacher_says": "the module stores the paper's layout: q @ module.w_q, no .T", "code": _MF + '''
import math
import torch
def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def proj(x, w, b):
        y = x @ w.T
        return y if b is None else y + b
    def split(x):
        *b, n, f = x.shape
        return x.reshape(*b, n, h, f // h).transpose(-3, -2)
    qh, kh, vh = split(proj(q, module.w_q, module.b_q)), split(proj(k, module.w_k, module.b_k)), split(proj(v, module.w_v, module.b_v))
    s = qh @ kh.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    w = torch.nan_to_num(torch.softmax(s, dim=-1))
    heads = w @ vh
    *b, hh, n, d = heads.shape
    return proj(heads.transpose(-3, -2).reshape(*b, n, hh * d), module.w_o, module.b_o), w
'''},
 {"exercise": "module_forward", "kind": "wrong", "mistake": "masked_fill(mask, -inf): PyTorch polarity", "teacher_says": "here True = may attend: fill where ~mask", "code": _MF + '''
def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    qh = _split(_proj(q, module.w_q, module.b_q), h)
    kh = _split(_proj(k, module.w_k, module.b_k), h)
    vh = _split(_proj(v, module.w_v, module.b_v), h)
    s = qh @ kh.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None:
        s = s.masked_fill(mask, float("-inf"))
    w = torch.nan_to_num(torch.softmax(s, dim=-1))
    heads = w @ vh
    *b, hh, n, d = heads.shape
    return _proj(heads.transpose(-3, -2).reshape(*b, n, hh * d), module.w_o, module.b_o), w
'''},
 {"exercise": "module_forward", "kind": "wrong", "mistake": "uses q for k and v (self-attention assumption)", "teacher_says": "keys and values come from k and v", "code": _MF + '''
def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    qh = _split(_proj(q, module.w_q, module.b_q), h)
    kh = _split(_proj(q, module.w_k, module.b_k), h)
    vh = _split(_proj(q, module.w_v, module.b_v), h)
    s = qh @ kh.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None and mask.shape[-1] == s.shape[-1]:
        s = s.masked_fill(~mask, float("-inf"))
    w = torch.nan_to_num(torch.softmax(s, dim=-1))
    heads = w @ vh
    *b, hh, n, d = heads.shape
    return _proj(heads.transpose(-3, -2).reshape(*b, n, hh * d), module.w_o, module.b_o), w
'''},
 {"exercise": "module_forward", "kind": "robustness", "idea": "calls module(...) itself instead of writing the forward", "mistake": "delegates to module.forward", "teacher_says": "the exercise is to write the forward pass from the parameters", "code": '''
def module_forward(module, q, k, v, mask=None):
    return module(q, k, v, mask=mask)
'''},
 {"exercise": "module_forward", "kind": "robustness", "idea": "NaN for fully masked rows", "mistake": "no guard", "teacher_says": "a query with no key must get zero weights, not NaN", "code": _MF + '''
def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    qh = _split(_proj(q, module.w_q, module.b_q), h)
    kh = _split(_proj(k, module.w_k, module.b_k), h)
    vh = _split(_proj(v, module.w_v, module.b_v), h)
    s = qh @ kh.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    w = torch.softmax(s, dim=-1)
    heads = w @ vh
    *b, hh, n, d = heads.shape
    return _proj(heads.transpose(-3, -2).reshape(*b, n, hh * d), module.w_o, module.b_o), w
'''},
]
