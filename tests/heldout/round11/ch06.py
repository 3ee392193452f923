# writer B's answers, then writer F's (each file verbatim)
"""Writer B, chapter 6: the PyTorch variant."""

ANSWERS = [
    # ------------------------------------------------------------------ params_from_torch
    {"exercise": "params_from_torch", "kind": "correct",
     "idea": "torch.chunk the stacked in_proj weight/bias into three, transpose each weight to (in, out)",
     "code": '''
import numpy as np
import torch
import mha

def params_from_torch(torch_mha):
    def to_np(t):
        return t.detach().cpu().numpy().copy()
    w_q, w_k, w_v = torch.chunk(torch_mha.in_proj_weight, 3, dim=0)
    w_o = torch_mha.out_proj.weight
    biases = [None, None, None, None]
    if torch_mha.in_proj_bias is not None:
        b_q, b_k, b_v = torch.chunk(torch_mha.in_proj_bias, 3, dim=0)
        biases = [to_np(b_q), to_np(b_k), to_np(b_v), to_np(torch_mha.out_proj.bias)]
    return mha.MHAParams(
        to_np(w_q.T), to_np(w_k.T), to_np(w_v.T), to_np(w_o.T),
        torch_mha.num_heads, *biases,
    )
'''},
    {"exercise": "params_from_torch", "kind": "robustness",
     "idea": "goes through state_dict() and NumPy slicing, and returns float64 copies whatever the module's dtype",
     "code": '''
import numpy as np
import mha

def params_from_torch(torch_mha):
    state = {name: t.detach().cpu().numpy().astype(np.float64)
             for name, t in torch_mha.state_dict().items()}
    w_in = state["in_proj_weight"]
    d = w_in.shape[0] // 3
    w_q = np.ascontiguousarray(w_in[:d].T)
    w_k = np.ascontiguousarray(w_in[d:2 * d].T)
    w_v = np.ascontiguousarray(w_in[2 * d:].T)
    w_o = np.ascontiguousarray(state["out_proj.weight"].T)
    if "in_proj_bias" in state:
        b_in = state["in_proj_bias"]
        b_q, b_k, b_v = b_in[:d].copy(), b_in[d:2 * d].copy(), b_in[2 * d:].copy()
        b_o = state["out_proj.bias"].copy()
    else:
        b_q = b_k = b_v = b_o = None
    return mha.MHAParams(w_q=w_q, w_k=w_k, w_v=w_v, w_o=w_o, num_heads=torch_mha.num_heads,
                         b_q=b_q, b_k=b_k, b_v=b_v, b_o=b_o)
'''},
    {"exercise": "params_from_torch", "kind": "wrong",
     "mistake": "Copied the (out, in) blocks of in_proj_weight and out_proj.weight as they are, without transposing them to the paper's (in, out) layout.",
     "teacher_says": "nn.Linear computes x @ W.T: the paper-layout weight is the transpose; square matrices hide the mistake from the shapes.",
     "code": '''
import numpy as np
import mha

def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy()
    d = w.shape[0] // 3
    w_q, w_k, w_v = w[:d].copy(), w[d:2 * d].copy(), w[2 * d:].copy()
    w_o = torch_mha.out_proj.weight.detach().numpy().copy()
    if torch_mha.in_proj_bias is None:
        return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads)
    b = torch_mha.in_proj_bias.detach().numpy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads,
                         b[:d].copy(), b[d:2 * d].copy(), b[2 * d:].copy(),
                         torch_mha.out_proj.bias.detach().numpy().copy())
'''},
    {"exercise": "params_from_torch", "kind": "wrong",
     "mistake": "Copy-paste slip in the bias slices: b_v is taken from in_proj_bias[d:2d], the same slice as b_k.",
     "teacher_says": "in_proj_bias is b_q, b_k, b_v one after another: b_v is the last third, [2d:3d].",
     "code": '''
import numpy as np
import mha

def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy()
    d = w.shape[0] // 3
    w_q, w_k, w_v = w[:d].T.copy(), w[d:2 * d].T.copy(), w[2 * d:].T.copy()
    w_o = torch_mha.out_proj.weight.detach().numpy().T.copy()
    if torch_mha.in_proj_bias is None:
        return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads)
    b = torch_mha.in_proj_bias.detach().numpy()
    b_q, b_k, b_v = b[:d].copy(), b[d:2 * d].copy(), b[d:2 * d].copy()
    b_o = torch_mha.out_proj.bias.detach().numpy().copy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, b_q, b_k, b_v, b_o)
'''},
    {"exercise": "params_from_torch", "kind": "wrong",
     "mistake": "Assumes the module always has biases and calls .detach() on in_proj_bias, which is None for bias=False.",
     "teacher_says": "A module built with bias=False has in_proj_bias = None: return None biases in that case instead of crashing.",
     "code": '''
import numpy as np
import mha

def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy()
    b = torch_mha.in_proj_bias.detach().numpy()
    d = w.shape[0] // 3
    return mha.MHAParams(
        w[:d].T.copy(), w[d:2 * d].T.copy(), w[2 * d:].T.copy(),
        torch_mha.out_proj.weight.detach().numpy().T.copy(),
        torch_mha.num_heads,
        b[:d].copy(), b[d:2 * d].copy(), b[2 * d:].copy(),
        torch_mha.out_proj.bias.detach().numpy().copy(),
    )
'''},
    # ------------------------------------------------------------------ torch_key_padding_mask
    {"exercise": "torch_key_padding_mask", "kind": "correct",
     "idea": "logical_not, then flatten the two singleton axes away",
     "code": '''
import torch

def torch_key_padding_mask(mask):
    return torch.logical_not(mask).flatten(start_dim=1)
'''},
    {"exercise": "torch_key_padding_mask", "kind": "robustness",
     "idea": "round trip through NumPy and a Python list of rows, rebuilt as a new bool tensor",
     "code": '''
import numpy as np
import torch

def torch_key_padding_mask(mask):
    m = mask.detach().cpu().numpy()
    rows = [[not bool(m[b, 0, 0, j]) for j in range(m.shape[-1])] for b in range(m.shape[0])]
    return torch.tensor(np.array(rows, dtype=bool).reshape(m.shape[0], m.shape[-1]),
                        dtype=torch.bool, device=mask.device)
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong",
     "mistake": "Dropped the singleton axes but forgot to flip the polarity: True still marks the real keys.",
     "teacher_says": "nn.MultiheadAttention's key_padding_mask is True at the pads: pass ~mask.",
     "code": '''
import torch

def torch_key_padding_mask(mask):
    return mask[:, 0, 0, :].clone()
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong",
     "mistake": "Used squeeze() to drop the singleton axes, which also drops the batch axis when B = 1 (and the key axis when n_k = 1).",
     "teacher_says": "Drop exactly axes 1 and 2 (mask[:, 0, 0, :]); a bare squeeze() loses the batch axis for a batch of one.",
     "code": '''
import torch

def torch_key_padding_mask(mask):
    return ~mask.squeeze()
'''},
    {"exercise": "torch_key_padding_mask", "kind": "wrong",
     "mistake": "Returned a float 0/1 mask (1 - mask.float()) instead of a bool one; nn.MultiheadAttention adds a float key_padding_mask to the scores, so the pads are not hidden.",
     "teacher_says": "Return a bool tensor: a float key_padding_mask is added to the scores, and +1 hides nothing.",
     "code": '''
import torch

def torch_key_padding_mask(mask):
    return 1.0 - mask[:, 0, 0, :].float()
'''},
    # ------------------------------------------------------------------ attention_backward
    {"exercise": "attention_backward", "kind": "correct",
     "idea": "recompute the forward pass, then chain rule with einsum, softmax vector-Jacobian product in one line",
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
    return grad_q.astype(q.dtype), grad_k.astype(k.dtype), grad_v.astype(v.dtype)
'''},
    {"exercise": "attention_backward", "kind": "robustness",
     "idea": "loop over every batch index with np.ndindex and use the full softmax Jacobian diag(p) - p p^T row by row",
     "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    batch = q.shape[:-2]
    grad_q = np.zeros_like(q)
    grad_k = np.zeros_like(k)
    grad_v = np.zeros_like(v)
    d_k = q.shape[-1]
    for idx in np.ndindex(*batch):
        Q, K, V, G = q[idx], k[idx], v[idx], grad_out[idx]
        S = Q @ K.T / np.sqrt(d_k)
        E = np.exp(S - S.max(axis=1, keepdims=True))
        P = E / E.sum(axis=1, keepdims=True)
        dV = P.T @ G
        dP = G @ V.T
        dS = np.zeros_like(P)
        for i in range(P.shape[0]):
            jac = np.diag(P[i]) - np.outer(P[i], P[i])
            dS[i] = jac @ dP[i]
        dS = dS / np.sqrt(d_k)
        grad_q[idx] = dS @ K
        grad_k[idx] = dS.T @ Q
        grad_v[idx] = dV
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "wrong",
     "mistake": "Forgot the 1/sqrt(d_k) factor on the way back: grad_q and grad_k are sqrt(d_k) times too large.",
     "teacher_says": "S = QK^T / sqrt(d_k), so dL/dQ and dL/dK carry the same 1/sqrt(d_k) factor.",
     "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(axis=-1, keepdims=True))
    grad_q = grad_s @ k
    grad_k = np.swapaxes(grad_s, -1, -2) @ q
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "wrong",
     "mistake": "Used only the diagonal of the softmax Jacobian, grad_s = p * grad_p, forgetting the - <grad_p, p> term.",
     "teacher_says": "The softmax Jacobian is diag(p) - p p^T: subtract each row's <grad_p, p> before multiplying by p.",
     "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    scale = 1 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * scale
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * grad_p
    grad_q = grad_s @ k * scale
    grad_k = np.swapaxes(grad_s, -1, -2) @ q * scale
    return grad_q, grad_k, grad_v
'''},
    {"exercise": "attention_backward", "kind": "wrong",
     "mistake": "Wrote the transposes with .T, which reverses all axes: right for one 2-D head, wrong (or an error) as soon as there are batch axes.",
     "teacher_says": "For arrays with batch axes swap only the last two axes (np.swapaxes(x, -1, -2)); .T also moves the batch axes.",
     "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    scale = 1 / np.sqrt(q.shape[-1])
    s = q @ k.T * scale
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    grad_v = p.T @ grad_out
    grad_p = grad_out @ v.T
    grad_s = p * (grad_p - (grad_p * p).sum(axis=-1, keepdims=True))
    grad_q = grad_s @ k * scale
    grad_k = grad_s.T @ q * scale
    return grad_q, grad_k, grad_v
'''},
    # ------------------------------------------------------------------ module_forward
    {"exercise": "module_forward", "kind": "correct",
     "idea": "unflatten/movedim for the heads, masked_fill with -inf, softmax then nan_to_num-free zeroing of empty rows",
     "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def proj(x, w, b):
        y = x @ w
        return y if b is None else y + b

    def split(x):
        return x.unflatten(-1, (h, -1)).movedim(-2, -3)      # (..., h, n, d)

    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
        empty = ~mask.any(dim=-1, keepdim=True)
    weights = torch.softmax(scores, dim=-1)
    if mask is not None:
        weights = weights.masked_fill(empty, 0.0)
    heads = weights @ vh                                     # (..., h, n_q, d_v)
    concat = heads.movedim(-3, -2).flatten(-2)               # (..., n_q, h*d_v)
    return proj(concat, module.w_o, module.b_o), weights
'''},
    {"exercise": "module_forward", "kind": "robustness",
     "idea": "a Python loop over heads with column slices of the weights, each head's softmax guarded by hand, then torch.cat",
     "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h, d_k = module.num_heads, module.d_k
    d_v = module.w_v.shape[1] // h
    Q = q @ module.w_q + (0 if module.b_q is None else module.b_q)
    K = k @ module.w_k + (0 if module.b_k is None else module.b_k)
    V = v @ module.w_v + (0 if module.b_v is None else module.b_v)
    head_outs, head_weights = [], []
    for i in range(h):
        qi = Q[..., i * d_k:(i + 1) * d_k]
        ki = K[..., i * d_k:(i + 1) * d_k]
        vi = V[..., i * d_v:(i + 1) * d_v]
        s = qi @ ki.transpose(-1, -2) / math.sqrt(d_k)
        if mask is not None:
            m = mask
            if m.dim() >= 3:
                m = m.select(-3, i if m.shape[-3] > 1 else 0)
            s = s.masked_fill(~m, float("-inf"))
        mx = s.amax(dim=-1, keepdim=True)
        mx = torch.where(torch.isfinite(mx), mx, torch.zeros_like(mx))
        e = torch.exp(s - mx)
        tot = e.sum(dim=-1, keepdim=True)
        w = e / torch.where(tot == 0, torch.ones_like(tot), tot)
        head_outs.append(w @ vi)
        head_weights.append(w)
    concat = torch.cat(head_outs, dim=-1)
    out = concat @ module.w_o
    if module.b_o is not None:
        out = out + module.b_o
    return out, torch.stack(head_weights, dim=-3)
'''},
    {"exercise": "module_forward", "kind": "wrong",
     "mistake": "masked_fill with -inf then a plain torch.softmax: a query whose mask row is all False gets NaN weights and a NaN output.",
     "teacher_says": "torch.softmax of a row of -inf is NaN; give such rows zero weights as the module does.",
     "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    def split(x):
        *batch, n, f = x.shape
        return x.reshape(*batch, n, h, f // h).transpose(-3, -2)
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
     "mistake": "Scaled the scores by sqrt(d_model / h) instead of sqrt(d_k): the same only when d_k = d_model / h.",
     "teacher_says": "The scale is 1/sqrt(d_k) of the head's own query/key width; the module may have d_k != d_model/h.",
     "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    def split(x):
        *batch, n, f = x.shape
        return x.reshape(*batch, n, h, f // h).transpose(-3, -2)
    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_model // h)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    if mask is not None:
        weights = weights.masked_fill(~mask.any(-1, keepdim=True), 0.0)
    heads = weights @ vh
    *batch, _, n_q, d_v = heads.shape
    concat = heads.transpose(-3, -2).reshape(*batch, n_q, h * d_v)
    return proj(concat, module.w_o, module.b_o), weights
'''},
    {"exercise": "module_forward", "kind": "wrong",
     "mistake": "Split the heads with a plain reshape to (..., h, n, d) without the transpose, so each 'head' mixes features of different tokens.",
     "teacher_says": "Reshape to (..., n, h, d) and then transpose(-3, -2): a direct reshape to (..., h, n, d) tears tokens apart.",
     "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    def split(x):
        *batch, n, f = x.shape
        return x.reshape(*batch, h, n, f // h)
    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    if mask is not None:
        weights = weights.masked_fill(~mask.any(-1, keepdim=True), 0.0)
    heads = weights @ vh
    *batch, _, n_q, d_v = heads.shape
    concat = heads.transpose(-3, -2).reshape(*batch, n_q, h * d_v)
    return proj(concat, module.w_o, module.b_o), weights
'''},
]

_WRITER_B = ANSWERS

ANSWERS = [
 # ---------------------------------------------------------------- params_from_torch
 {"exercise": "params_from_torch", "kind": "correct",
  "idea": "split in_proj_weight in three row blocks with torch.chunk, transpose each, biases only when present",
  "code": '''
import mha

def params_from_torch(torch_mha):
    def arr(t):
        return None if t is None else t.detach().cpu().numpy().copy()

    w_q, w_k, w_v = torch_mha.in_proj_weight.detach().chunk(3, dim=0)
    b = torch_mha.in_proj_bias
    b_q = b_k = b_v = None
    if b is not None:
        b_q, b_k, b_v = (arr(x) for x in b.detach().chunk(3))
    return mha.MHAParams(
        arr(w_q.T), arr(w_k.T), arr(w_v.T),
        arr(torch_mha.out_proj.weight.T),
        torch_mha.num_heads,
        b_q, b_k, b_v,
        arr(torch_mha.out_proj.bias),
    )
'''},
 {"exercise": "params_from_torch", "kind": "robustness",
  "idea": "row slices by hand, every array converted to float64 whatever the module's dtype",
  "code": '''
import numpy as np
import mha

def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    W = np.array(torch_mha.in_proj_weight.tolist(), dtype=np.float64)
    w_q = W[0:d].T.copy()
    w_k = W[d:2 * d].T.copy()
    w_v = W[2 * d:3 * d].T.copy()
    w_o = np.array(torch_mha.out_proj.weight.tolist(), dtype=np.float64).T.copy()
    if torch_mha.in_proj_bias is None:
        return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads)
    bb = np.array(torch_mha.in_proj_bias.tolist(), dtype=np.float64)
    b_o = np.array(torch_mha.out_proj.bias.tolist(), dtype=np.float64)
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads,
                         bb[:d].copy(), bb[d:2 * d].copy(), bb[2 * d:].copy(), b_o)
'''},
 {"exercise": "params_from_torch", "kind": "wrong",
  "mistake": "Copies the blocks of in_proj_weight and out_proj.weight as they are, without transposing from nn.Linear's (out, in) layout; square, so it runs.",
  "teacher_says": "nn.Linear computes x @ W.T: the paper-layout weight is the transpose of every stored block.",
  "code": '''
import mha

def params_from_torch(torch_mha):
    W = torch_mha.in_proj_weight.detach().numpy()
    d = W.shape[1]
    w_q, w_k, w_v = W[:d], W[d:2 * d], W[2 * d:]
    w_o = torch_mha.out_proj.weight.detach().numpy()
    biases = [None] * 4
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().numpy()
        biases = [b[:d], b[d:2 * d], b[2 * d:], torch_mha.out_proj.bias.detach().numpy()]
    return mha.MHAParams(w_q.copy(), w_k.copy(), w_v.copy(), w_o.copy(),
                         torch_mha.num_heads, *biases)
'''},
 {"exercise": "params_from_torch", "kind": "wrong",
  "mistake": "Transposes the three in_proj blocks but not out_proj.weight, assuming the output projection is already stored (in, out).",
  "teacher_says": "out_proj is an nn.Linear too, stored (out, in): W^O needs the .T as well.",
  "code": '''
import mha

def params_from_torch(torch_mha):
    W = torch_mha.in_proj_weight.detach().numpy()
    w_q, w_k, w_v = (block.T.copy() for block in W.reshape(3, -1, W.shape[1]))
    w_o = torch_mha.out_proj.weight.detach().numpy().copy()
    if torch_mha.in_proj_bias is None:
        return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads)
    b_q, b_k, b_v = torch_mha.in_proj_bias.detach().numpy().reshape(3, -1).copy()
    b_o = torch_mha.out_proj.bias.detach().numpy().copy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, b_q, b_k, b_v, b_o)
'''},
 {"exercise": "params_from_torch", "kind": "wrong",
  "mistake": "Always reads in_proj_bias and out_proj.bias, so a module built with bias=False (where they are None) raises AttributeError.",
  "teacher_says": "The statement allows modules without biases: check for None and pass None biases then.",
  "code": '''
import mha

def params_from_torch(torch_mha):
    W = torch_mha.in_proj_weight.detach().numpy()
    d = W.shape[1]
    b = torch_mha.in_proj_bias.detach().numpy()
    return mha.MHAParams(
        W[:d].T.copy(), W[d:2 * d].T.copy(), W[2 * d:].T.copy(),
        torch_mha.out_proj.weight.detach().numpy().T.copy(),
        torch_mha.num_heads,
        b[:d].copy(), b[d:2 * d].copy(), b[2 * d:].copy(),
        torch_mha.out_proj.bias.detach().numpy().copy(),
    )
'''},
 # ---------------------------------------------------------------- torch_key_padding_mask
 {"exercise": "torch_key_padding_mask", "kind": "correct",
  "idea": "flatten the two singleton axes with a reshape and negate with logical_not",
  "code": '''
import torch

def torch_key_padding_mask(mask):
    B, n_k = mask.shape[0], mask.shape[-1]
    return torch.logical_not(mask.reshape(B, n_k))
'''},
 {"exercise": "torch_key_padding_mask", "kind": "robustness",
  "idea": "Python loops over sequences and keys, building a new bool tensor from lists",
  "code": '''
import torch

def torch_key_padding_mask(mask):
    rows = []
    for b in range(mask.shape[0]):
        rows.append([not bool(mask[b, 0, 0, j]) for j in range(mask.shape[-1])])
    return torch.tensor(rows, dtype=torch.bool).reshape(mask.shape[0], mask.shape[-1])
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong",
  "mistake": "Drops the singleton axes but does not flip the polarity, so nn.MultiheadAttention hides the real keys and attends the pads.",
  "teacher_says": "nn.MultiheadAttention's key_padding_mask is True at the pads, the opposite of this book's mask: negate it.",
  "code": '''
import torch

def torch_key_padding_mask(mask):
    return mask[:, 0, 0, :].clone()
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong",
  "mistake": "Flips the polarity but keeps the (B, 1, 1, n_k) shape; nn.MultiheadAttention expects (B, n_k).",
  "teacher_says": "key_padding_mask has shape (B, n_k): drop the heads and queries axes.",
  "code": '''
import torch

def torch_key_padding_mask(mask):
    return ~mask
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong",
  "mistake": "Builds the flipped mask as a float tensor (1.0 at the pads), which nn.MultiheadAttention reads as an additive bias, not as a boolean mask.",
  "teacher_says": "Return a bool tensor: a float key_padding_mask is added to the scores, so the pads get +1 instead of being hidden.",
  "code": '''
import torch

def torch_key_padding_mask(mask):
    return 1.0 - mask[:, 0, 0, :].float()
'''},
 # ---------------------------------------------------------------- attention_backward
 {"exercise": "attention_backward", "kind": "correct",
  "idea": "forward once, then back through O = PV, the row softmax and S = QK^T/sqrt(d_k) with einsum",
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
    inner = np.sum(grad_p * p, axis=-1, keepdims=True)
    grad_s = p * (grad_p - inner) * scale
    grad_q = np.einsum("...ij,...jd->...id", grad_s, k)
    grad_k = np.einsum("...ij,...id->...jd", grad_s, q)
    return grad_q.astype(q.dtype), grad_k.astype(k.dtype), grad_v.astype(v.dtype)
'''},
 {"exercise": "attention_backward", "kind": "robustness",
  "idea": "builds each row's full softmax Jacobian diag(p) - p p^T explicitly (allocates (..., n_q, n_k, n_k))",
  "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    d_k = q.shape[-1]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_k)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    n_k = p.shape[-1]
    jac = p[..., :, None] * np.eye(n_k, dtype=p.dtype) - p[..., :, None] * p[..., None, :]
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = (jac @ grad_p[..., :, :, None])[..., 0]   # J_row @ dL/dp_row, row by row
    grad_scores = grad_s / np.sqrt(d_k)
    grad_q = grad_scores @ k
    grad_k = np.swapaxes(grad_scores, -1, -2) @ q
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong",
  "mistake": "Forgets the 1/sqrt(d_k) on the way back: it is in the forward pass but grad_q and grad_k are computed from dL/dS as if S = QK^T.",
  "teacher_says": "S = QK^T / sqrt(d_k), so dL/d(QK^T) = dL/dS / sqrt(d_k): the scale appears in grad_q and grad_k too.",
  "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(axis=-1, keepdims=True))
    grad_q = grad_s @ k
    grad_k = np.swapaxes(grad_s, -1, -2) @ q
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong",
  "mistake": "In the softmax backward step sums <dL/dp, p> over axis -2 (the queries) instead of over each row's keys.",
  "teacher_says": "Each query row has its own softmax, so the inner product <dL/dp, p> runs over the keys of that row: axis -1.",
  "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    scale = 1 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * scale
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(axis=-2, keepdims=True)) * scale
    grad_q = grad_s @ k
    grad_k = np.swapaxes(grad_s, -1, -2) @ q
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong",
  "mistake": "Writes grad_v = p.T @ grad_out with .T, which reverses every axis: right for 2-D inputs, wrong (or an error) with batch axes.",
  "teacher_says": "With batch axes transpose only the last two axes (swapaxes(-1, -2)); .T also moves the batch axes.",
  "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    scale = 1 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * scale
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    grad_v = p.T @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(axis=-1, keepdims=True)) * scale
    grad_q = grad_s @ k
    grad_k = np.swapaxes(grad_s, -1, -2) @ q
    return grad_q, grad_k, grad_v
'''},
 # ---------------------------------------------------------------- module_forward
 {"exercise": "module_forward", "kind": "correct",
  "idea": "view/transpose split, einsum scores, masked_fill with -inf and a softmax that zeroes empty rows",
  "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h, d_k = module.num_heads, module.d_k

    def lin(x, w, b):
        y = torch.matmul(x, w)
        return y if b is None else y + b

    def split(y):
        return y.unflatten(-1, (h, y.shape[-1] // h)).transpose(-3, -2)

    qh = split(lin(q, module.w_q, module.b_q))
    kh = split(lin(k, module.w_k, module.b_k))
    vh = split(lin(v, module.w_v, module.b_v))
    scores = torch.einsum("...id,...jd->...ij", qh, kh) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    empty = torch.isneginf(scores).all(dim=-1, keepdim=True)
    scores = scores.masked_fill(empty, 0.0)
    weights = torch.softmax(scores, dim=-1).masked_fill(empty, 0.0)
    heads = weights @ vh
    concat = heads.transpose(-3, -2).flatten(-2)
    return lin(concat, module.w_o, module.b_o), weights
'''},
 {"exercise": "module_forward", "kind": "robustness",
  "idea": "one head at a time in a Python loop over column slices, computed in float64 and cast back",
  "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h, d_k = module.num_heads, module.d_k
    d_v = module.w_v.shape[1] // h
    dt = q.dtype
    q64, k64, v64 = q.double(), k.double(), v.double()
    outs, ws = [], []
    for i in range(h):
        cq, cv = slice(i * d_k, (i + 1) * d_k), slice(i * d_v, (i + 1) * d_v)
        qi = q64 @ module.w_q[:, cq].double()
        ki = k64 @ module.w_k[:, cq].double()
        vi = v64 @ module.w_v[:, cv].double()
        if module.b_q is not None:
            qi = qi + module.b_q[cq].double()
        if module.b_k is not None:
            ki = ki + module.b_k[cq].double()
        if module.b_v is not None:
            vi = vi + module.b_v[cv].double()
        s = qi @ ki.transpose(-1, -2) / math.sqrt(d_k)
        if mask is not None:
            m = mask
            if m.dim() >= 3:
                m = m.select(-3, i if m.shape[-3] > 1 else 0)
            s = s.masked_fill(~m, float("-inf"))
        rmax = s.amax(dim=-1, keepdim=True)
        rmax = torch.where(torch.isfinite(rmax), rmax, torch.zeros_like(rmax))
        e = torch.exp(s - rmax)
        tot = e.sum(dim=-1, keepdim=True)
        w = e / torch.where(tot == 0, torch.ones_like(tot), tot)
        outs.append(w @ vi)
        ws.append(w)
    out = torch.cat(outs, dim=-1) @ module.w_o.double()
    if module.b_o is not None:
        out = out + module.b_o.double()
    return out.to(dt), torch.stack(ws, dim=-3).to(dt)
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "Projects with module.w_q.T etc. out of nn.Linear habit; it runs when the weights are square and computes something else (and fails when d_k != d_model/h).",
  "teacher_says": "The module stores the paper's layout, (d_model, h*d_k): project with x @ w, no .T.",
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
    s = qh @ kh.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    empty = ~torch.isfinite(s).any(dim=-1, keepdim=True)
    w = torch.softmax(s.masked_fill(empty, 0.0), dim=-1).masked_fill(empty, 0.0)
    heads = (w @ vh).transpose(-3, -2)
    concat = heads.reshape(*heads.shape[:-2], -1)
    return lin(concat, module.w_o, module.b_o), w
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "Uses masked_fill(-inf) and torch.softmax directly, so a query whose mask row has no True gets NaN weights and a NaN output instead of zeros.",
  "teacher_says": "The softmax of a row of -inf is NaN: find rows with no allowed key and give them zero weights, as the module does.",
  "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def lin(x, w, b):
        return x @ w if b is None else x @ w + b
    def split(y):
        *batch, n, f = y.shape
        return y.reshape(*batch, n, h, f // h).transpose(-3, -2)
    qh = split(lin(q, module.w_q, module.b_q))
    kh = split(lin(k, module.w_k, module.b_k))
    vh = split(lin(v, module.w_v, module.b_v))
    s = qh @ kh.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    w = torch.softmax(s, dim=-1)
    heads = (w @ vh).transpose(-3, -2)
    concat = heads.reshape(*heads.shape[:-2], -1)
    return lin(concat, module.w_o, module.b_o), w
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "Scales the scores by sqrt(d_model / num_heads) instead of sqrt(module.d_k), which is wrong whenever d_k != d_model/h.",
  "teacher_says": "The scale is the per-head key size d_k itself; it equals d_model/h only by default, and the module lets them differ.",
  "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def lin(x, w, b):
        return x @ w if b is None else x @ w + b
    def split(y):
        *batch, n, f = y.shape
        return y.reshape(*batch, n, h, f // h).transpose(-3, -2)
    qh = split(lin(q, module.w_q, module.b_q))
    kh = split(lin(k, module.w_k, module.b_k))
    vh = split(lin(v, module.w_v, module.b_v))
    s = qh @ kh.transpose(-1, -2) / math.sqrt(module.d_model / h)
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    empty = ~torch.isfinite(s).any(dim=-1, keepdim=True)
    w = torch.softmax(s.masked_fill(empty, 0.0), dim=-1).masked_fill(empty, 0.0)
    heads = (w @ vh).transpose(-3, -2)
    concat = heads.reshape(*heads.shape[:-2], -1)
    return lin(concat, module.w_o, module.b_o), w
'''},
]

_WRITER_F = ANSWERS
ANSWERS = _WRITER_B + _WRITER_F
