ANSWERS = [
 # ------------------------------------------------------------------ params_from_torch
 {"exercise": "params_from_torch", "kind": "correct",
  "idea": "reads the state_dict, splits in_proj_weight with torch.chunk and transposes each block before converting to NumPy",
  "code": '''
import numpy as np
import mha

def params_from_torch(torch_mha):
    state = torch_mha.state_dict()
    w_q, w_k, w_v = (np.array(block.T.numpy()) for block in state["in_proj_weight"].chunk(3, dim=0))
    w_o = np.array(state["out_proj.weight"].T.numpy())
    b_q = b_k = b_v = b_o = None
    if "in_proj_bias" in state:
        b_q, b_k, b_v = (np.array(b.numpy()) for b in state["in_proj_bias"].chunk(3))
        b_o = np.array(state["out_proj.bias"].numpy())
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, b_q, b_k, b_v, b_o)
'''},
 {"exercise": "params_from_torch", "kind": "correct",
  "idea": "moves everything to NumPy first, transposes the whole in_proj_weight and splits its columns with np.split",
  "code": '''
import numpy as np
import mha

def params_from_torch(torch_mha):
    w_in_t = torch_mha.in_proj_weight.detach().cpu().numpy().T  # (d, 3d): [W^Q W^K W^V]
    w_q, w_k, w_v = (np.ascontiguousarray(w) for w in np.split(w_in_t, 3, axis=1))
    w_o = np.ascontiguousarray(torch_mha.out_proj.weight.detach().cpu().numpy().T)
    biases = {}
    if torch_mha.in_proj_bias is not None:
        b_in = torch_mha.in_proj_bias.detach().cpu().numpy().copy()
        biases = dict(zip(("b_q", "b_k", "b_v"), np.split(b_in, 3)))
        biases["b_o"] = torch_mha.out_proj.bias.detach().cpu().numpy().copy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, num_heads=torch_mha.num_heads, **biases)
'''},
 {"exercise": "params_from_torch", "kind": "wrong",
  "mistake": "Copies the three blocks of in_proj_weight and out_proj.weight without transposing them out of nn.Linear's (out, in) layout.",
  "teacher_says": "nn.Linear computes x @ W.T: the paper-layout matrix is the transpose of each stored block (and of out_proj.weight).",
  "code": '''
import mha

def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy()
    d = w.shape[0] // 3
    w_o = torch_mha.out_proj.weight.detach().numpy()
    b_q = b_k = b_v = b_o = None
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().numpy()
        b_q, b_k, b_v = b[:d], b[d:2 * d], b[2 * d:]
        b_o = torch_mha.out_proj.bias.detach().numpy()
    return mha.MHAParams(w[:d], w[d:2 * d], w[2 * d:], w_o, torch_mha.num_heads, b_q, b_k, b_v, b_o)
'''},
 {"exercise": "params_from_torch", "kind": "wrong",
  "mistake": "Transposes the three input projections but forgets to transpose out_proj.weight (a mistake in one of two places).",
  "teacher_says": "out_proj is an nn.Linear too: W^O in the paper's layout is out_proj.weight.T.",
  "code": '''
import mha

def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy()
    d = w.shape[0] // 3
    w_q, w_k, w_v = w[:d].T, w[d:2 * d].T, w[2 * d:].T
    w_o = torch_mha.out_proj.weight.detach().numpy()
    b_q = b_k = b_v = b_o = None
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().numpy()
        b_q, b_k, b_v = b[:d], b[d:2 * d], b[2 * d:]
        b_o = torch_mha.out_proj.bias.detach().numpy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, b_q, b_k, b_v, b_o)
'''},
 {"exercise": "params_from_torch", "kind": "wrong",
  "mistake": "Always reads in_proj_bias and out_proj.bias, so a module built with bias=False makes it crash (None has no .detach()).",
  "teacher_says": "Check torch_mha.in_proj_bias is None first and pass None biases then.",
  "code": '''
import mha

def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy()
    d = w.shape[0] // 3
    b = torch_mha.in_proj_bias.detach().numpy()
    return mha.MHAParams(
        w[:d].T, w[d:2 * d].T, w[2 * d:].T,
        torch_mha.out_proj.weight.detach().numpy().T,
        torch_mha.num_heads,
        b[:d], b[d:2 * d], b[2 * d:],
        torch_mha.out_proj.bias.detach().numpy(),
    )
'''},
 {"exercise": "params_from_torch", "kind": "wrong",
  "mistake": "Passes the head size (head_dim = d_model / h) as num_heads, so the layer is cut into the wrong number of heads.",
  "teacher_says": "MHAParams wants the number of heads: torch_mha.num_heads, not torch_mha.head_dim.",
  "code": '''
import mha

def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy()
    d = w.shape[0] // 3
    biases = [None] * 4
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().numpy()
        biases = [b[:d], b[d:2 * d], b[2 * d:], torch_mha.out_proj.bias.detach().numpy()]
    return mha.MHAParams(
        w[:d].T, w[d:2 * d].T, w[2 * d:].T,
        torch_mha.out_proj.weight.detach().numpy().T,
        torch_mha.head_dim,
        *biases,
    )
'''},
 {"exercise": "params_from_torch", "kind": "wrong",
  "mistake": "Splits in_proj_bias into b_q, b_k, b_v but never copies out_proj.bias, leaving b_o = None.",
  "teacher_says": "The output projection has its own bias: b_o = torch_mha.out_proj.bias (when the module has biases).",
  "code": '''
import mha

def params_from_torch(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy()
    d = w.shape[0] // 3
    b_q = b_k = b_v = None
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().numpy()
        b_q, b_k, b_v = b[:d], b[d:2 * d], b[2 * d:]
    w_o = torch_mha.out_proj.weight.detach().numpy().T
    return mha.MHAParams(w[:d].T, w[d:2 * d].T, w[2 * d:].T, w_o, torch_mha.num_heads, b_q, b_k, b_v)
'''},
 {"exercise": "params_from_torch", "kind": "robustness",
  "idea": "converts every tensor to float64 'for precision' on the way to NumPy",
  "mistake": "Returns float64 arrays for a float32 module instead of keeping the module's dtype.",
  "teacher_says": "Keep the module's dtype: .detach().cpu().numpy() without .double() gives float32 arrays for a float32 module.",
  "code": '''
import mha

def params_from_torch(torch_mha):
    def arr(t):
        return t.detach().double().cpu().numpy()
    w = arr(torch_mha.in_proj_weight)
    d = w.shape[0] // 3
    biases = {}
    if torch_mha.in_proj_bias is not None:
        b = arr(torch_mha.in_proj_bias)
        biases = {"b_q": b[:d], "b_k": b[d:2 * d], "b_v": b[2 * d:], "b_o": arr(torch_mha.out_proj.bias)}
    return mha.MHAParams(
        w[:d].T, w[d:2 * d].T, w[2 * d:].T, arr(torch_mha.out_proj.weight).T,
        torch_mha.num_heads, **biases,
    )
'''},

 # ------------------------------------------------------------------ torch_key_padding_mask
 {"exercise": "torch_key_padding_mask", "kind": "correct",
  "idea": "squeeze the two singleton axes by index, then logical_not",
  "code": '''
def torch_key_padding_mask(mask):
    return mask.squeeze(2).squeeze(1).logical_not()
'''},
 {"exercise": "torch_key_padding_mask", "kind": "correct",
  "idea": "invert first with ~, then reshape to (B, n_k)",
  "code": '''
def torch_key_padding_mask(mask):
    B, n_k = mask.shape[0], mask.shape[-1]
    return (~mask).reshape(B, n_k)
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong",
  "mistake": "Drops the singleton axes but keeps the book's polarity (True = real key), whereas nn.MultiheadAttention's key_padding_mask is True at the pads.",
  "teacher_says": "nn.MultiheadAttention reads True as 'ignore this key': invert the mask with ~ as well as reshaping it.",
  "code": '''
def torch_key_padding_mask(mask):
    return mask[:, 0, 0, :]
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong",
  "mistake": "Flips the polarity but keeps the shape (B, 1, 1, n_k); key_padding_mask must be (B, n_k).",
  "teacher_says": "key_padding_mask has one row per sequence and one column per key: drop the two singleton axes, (~mask)[:, 0, 0, :].",
  "code": '''
def torch_key_padding_mask(mask):
    return ~mask
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong",
  "mistake": "Uses a bare .squeeze(), which also drops the batch axis when B = 1 (and the key axis when n_k = 1).",
  "teacher_says": "Squeeze only the axes you mean, squeeze(2).squeeze(1) or [:, 0, 0, :], so that a batch of one keeps its (1, n_k) shape.",
  "code": '''
def torch_key_padding_mask(mask):
    return ~mask.squeeze()
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong",
  "mistake": "Flips the mask arithmetically into a float tensor (1.0 at the pads); nn.MultiheadAttention treats a float mask as something added to the scores, not as a boolean mask.",
  "teacher_says": "Keep it boolean: ~mask (or logical_not), not 1 - mask.float().",
  "code": '''
def torch_key_padding_mask(mask):
    return 1.0 - mask[:, 0, 0, :].float()
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong",
  "mistake": "Indexes the wrong axes, [:, 0, :, 0], which keeps the singleton query axis and drops the keys, giving (B, 1).",
  "teacher_says": "The keys are the last axis: keep it and drop axes 1 and 2, mask[:, 0, 0, :].",
  "code": '''
import torch

def torch_key_padding_mask(mask):
    return torch.logical_not(mask)[:, 0, :, 0]
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong",
  "mistake": "Transposes the result to (n_k, B), thinking of nn.MultiheadAttention's default sequence-first layout; key_padding_mask is (B, n_k) whatever batch_first is.",
  "teacher_says": "key_padding_mask is always (batch, keys): return (~mask)[:, 0, 0, :] without the transpose.",
  "code": '''
def torch_key_padding_mask(mask):
    return (~mask[:, 0, 0, :]).T
'''},
 {"exercise": "torch_key_padding_mask", "kind": "robustness",
  "idea": "goes through NumPy to flip the mask",
  "mistake": "Returns a NumPy bool array instead of a torch tensor.",
  "teacher_says": "Stay in torch: ~mask[:, 0, 0, :] is already the bool tensor nn.MultiheadAttention needs.",
  "code": '''
import numpy as np

def torch_key_padding_mask(mask):
    return np.logical_not(mask.numpy()[:, 0, 0, :])
'''},

 # ------------------------------------------------------------------ attention_backward
 {"exercise": "attention_backward", "kind": "correct",
  "idea": "einsum for every product and the row-wise softmax backward p * (g - <g, p>)",
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
    grad_s = p * (grad_p - np.einsum("...ij,...ij->...i", grad_p, p)[..., None])
    grad_q = np.einsum("...ij,...jd->...id", grad_s, k) * scale
    grad_k = np.einsum("...ij,...id->...jd", grad_s, q) * scale
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "correct",
  "idea": "builds each row's softmax Jacobian diag(p) - p p^T explicitly and multiplies by it; scale folded into q first",
  "code": '''
import math
import numpy as np

def attention_backward(q, k, v, grad_out):
    d_k = q.shape[-1]
    q_scaled = q / math.sqrt(d_k)
    s = q_scaled @ np.swapaxes(k, -1, -2)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)  # (..., n_q, n_k)
    n_k = p.shape[-1]
    jac = p[..., :, None] * np.eye(n_k, dtype=p.dtype) - p[..., :, None] * p[..., None, :]  # (..., n_q, n_k, n_k)
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = (grad_p[..., None, :] @ jac)[..., 0, :]  # row vector times the Jacobian
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_q = (grad_s @ k) / math.sqrt(d_k)
    grad_k = np.swapaxes(grad_s, -1, -2) @ q_scaled
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong",
  "mistake": "Forgets the 1/sqrt(d_k) factor on the way back to Q and K.",
  "teacher_says": "S = QK^T / sqrt(d_k), so dL/dQ = (dL/dS) K / sqrt(d_k) and dL/dK = (dL/dS)^T Q / sqrt(d_k).",
  "code": '''
import math
import numpy as np

def attention_backward(q, k, v, grad_out):
    kt = np.swapaxes(k, -1, -2)
    s = q @ kt / math.sqrt(q.shape[-1])
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(-1, keepdims=True))
    grad_q = grad_s @ k
    grad_k = np.swapaxes(grad_s, -1, -2) @ q
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong",
  "mistake": "Back-propagates through the softmax with only the diagonal of its Jacobian, dS = P * dP, forgetting the - p p^T term.",
  "teacher_says": "The softmax Jacobian is diag(p) - p p^T: dS = p * (dP - sum(dP * p, axis=-1, keepdims=True)).",
  "code": '''
import math
import numpy as np

def attention_backward(q, k, v, grad_out):
    scale = 1 / math.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * scale
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * grad_p
    grad_q = grad_s @ k * scale
    grad_k = np.swapaxes(grad_s, -1, -2) @ q * scale
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong",
  "mistake": "Computes dL/dK as dS @ Q without transposing dS; with n_q = n_k it runs and gives the wrong gradient.",
  "teacher_says": "S = Q K^T / sqrt(d_k) depends on K through K^T: dL/dK = (dL/dS)^T Q / sqrt(d_k).",
  "code": '''
import math
import numpy as np

def attention_backward(q, k, v, grad_out):
    scale = 1 / math.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * scale
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(-1, keepdims=True))
    grad_q = grad_s @ k * scale
    grad_k = grad_s @ q * scale
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong",
  "mistake": "Applies the 1/sqrt(d_k) to the query gradient but not to the key gradient (a mistake in one of two places).",
  "teacher_says": "Q and K enter the scores symmetrically: both gradients carry the factor 1/sqrt(d_k).",
  "code": '''
import math
import numpy as np

def attention_backward(q, k, v, grad_out):
    d_k = q.shape[-1]
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(d_k)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(-1, keepdims=True))
    grad_q = grad_s @ k / math.sqrt(d_k)
    grad_k = np.swapaxes(grad_s, -1, -2) @ q
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong",
  "mistake": "In the softmax backward, takes the inner product <dP, p> over the queries axis (-2) instead of over each row's keys.",
  "teacher_says": "Each softmax is over one row: the correction term is sum over the keys, (dP * p).sum(axis=-1, keepdims=True).",
  "code": '''
import math
import numpy as np

def attention_backward(q, k, v, grad_out):
    scale = 1 / math.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * scale
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(-2, keepdims=True))
    grad_q = grad_s @ k * scale
    grad_k = np.swapaxes(grad_s, -1, -2) @ q * scale
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong",
  "mistake": "Uses .T for every transpose, which is right for one (n, d) matrix but reverses the batch axes too as soon as there are any.",
  "teacher_says": "Transpose only the last two axes, np.swapaxes(x, -1, -2), so that the batch axes stay in place.",
  "code": '''
import math
import numpy as np

def attention_backward(q, k, v, grad_out):
    scale = 1 / math.sqrt(q.shape[-1])
    s = q @ k.T * scale
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    grad_v = p.T @ grad_out
    grad_p = grad_out @ v.T
    grad_s = p * (grad_p - (grad_p * p).sum(-1, keepdims=True))
    grad_q = grad_s @ k * scale
    grad_k = grad_s.T @ q * scale
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "robustness",
  "idea": "lets torch autograd compute the gradients",
  "mistake": "Not computed by hand: it runs torch autograd on the forward pass and returns torch tensors instead of NumPy arrays.",
  "teacher_says": "The exercise asks for the backward pass in NumPy by hand: go back through O = PV, the softmax and S = QK^T/sqrt(d_k), and return NumPy arrays.",
  "code": '''
import torch

def attention_backward(q, k, v, grad_out):
    tq, tk, tv = (torch.tensor(a, requires_grad=True) for a in (q, k, v))
    scores = tq @ tk.transpose(-2, -1) / tq.shape[-1] ** 0.5
    out = torch.softmax(scores, dim=-1) @ tv
    out.backward(torch.as_tensor(grad_out))
    return tq.grad, tk.grad, tv.grad
'''},

 # ------------------------------------------------------------------ module_forward
 {"exercise": "module_forward", "kind": "correct",
  "idea": "reshape/transpose in torch, masked_fill with -inf, torch.softmax, then the empty rows set to 0 with masked_fill",
  "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def project(x, w, b):
        y = x @ w
        return y if b is None else y + b

    def split(x):
        *batch, n, features = x.shape
        return x.reshape(*batch, n, h, features // h).transpose(-3, -2)

    q_h = split(project(q, module.w_q, module.b_q))
    k_h = split(project(k, module.w_k, module.b_k))
    v_h = split(project(v, module.w_v, module.b_v))
    scores = q_h @ k_h.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    if mask is not None:
        empty = ~mask.any(dim=-1, keepdim=True)
        weights = weights.masked_fill(empty, 0.0)
    heads = weights @ v_h
    *batch, _, n_q, d_v = heads.shape
    out = heads.transpose(-3, -2).reshape(*batch, n_q, h * d_v) @ module.w_o
    if module.b_o is not None:
        out = out + module.b_o
    return out, weights
'''},
 {"exercise": "module_forward", "kind": "correct",
  "idea": "unflatten/movedim and einsum, with a hand-written stable softmax that divides by 1 where a row has no allowed key",
  "code": '''
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    qp = q @ module.w_q if module.b_q is None else torch.addmm(
        module.b_q, q.reshape(-1, q.shape[-1]), module.w_q).reshape(*q.shape[:-1], -1)
    kp = k @ module.w_k if module.b_k is None else k @ module.w_k + module.b_k
    vp = v @ module.w_v if module.b_v is None else v @ module.w_v + module.b_v
    qh = qp.unflatten(-1, (h, -1))  # (..., n_q, h, d_k)
    kh = kp.unflatten(-1, (h, -1))
    vh = vp.unflatten(-1, (h, -1))
    scores = torch.einsum("...qhd,...khd->...hqk", qh, kh) * module.d_k ** -0.5
    if mask is not None:
        scores = torch.where(mask, scores, torch.full_like(scores, float("-inf")))
    top = scores.amax(dim=-1, keepdim=True)
    top = torch.where(torch.isfinite(top), top, torch.zeros_like(top))
    e = torch.exp(scores - top)
    total = e.sum(dim=-1, keepdim=True)
    weights = e / torch.where(total > 0, total, torch.ones_like(total))
    heads = torch.einsum("...hqk,...khd->...qhd", weights, vh)  # (..., n_q, h, d_v)
    out = heads.flatten(-2) @ module.w_o
    if module.b_o is not None:
        out = out + module.b_o
    return out, weights
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "Multiplies by the transposed weights (x @ w.T), the nn.Linear habit, though the module stores them in the paper's layout; it runs when the matrices are square and computes something else.",
  "teacher_says": "module.w_q is (d_model, h*d_k) in the paper's layout: x @ module.w_q, with no .T (the same for W^K, W^V, W^O).",
  "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def proj(x, w, b):
        y = x @ w.T
        return y if b is None else y + b
    def split(x):
        return x.unflatten(-1, (h, -1)).transpose(-3, -2)
    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
    merged = (weights @ vh).transpose(-3, -2).flatten(-2)
    return proj(merged, module.w_o, module.b_o), weights
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "Scales by sqrt(d_model / h) instead of sqrt(module.d_k), which differs when the module was built with another head size.",
  "teacher_says": "Use the module's own head size, math.sqrt(module.d_k); d_k need not be d_model / h.",
  "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    def split(x):
        return x.unflatten(-1, (h, -1)).transpose(-3, -2)
    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_model // h)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
    merged = (weights @ vh).transpose(-3, -2).flatten(-2)
    return proj(merged, module.w_o, module.b_o), weights
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "Fills -inf where the mask is True, i.e. reads the mask with nn.MultiheadAttention's polarity (True = blocked).",
  "teacher_says": "Here True = may attend: fill the positions where the mask is False, scores.masked_fill(~mask, -inf).",
  "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    def split(x):
        return x.unflatten(-1, (h, -1)).transpose(-3, -2)
    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
    merged = (weights @ vh).transpose(-3, -2).flatten(-2)
    return proj(merged, module.w_o, module.b_o), weights
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "Merges the heads with a reshape only, without transposing (..., h, n_q, d_v) back to (..., n_q, h, d_v), which mixes tokens.",
  "teacher_says": "Transpose the heads and token axes back before flattening: heads.transpose(-3, -2).reshape(..., n_q, h*d_v).",
  "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    def split(x):
        return x.unflatten(-1, (h, -1)).transpose(-3, -2)
    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
    heads = weights @ vh
    *batch, _, n_q, d_v = heads.shape
    merged = heads.reshape(*batch, n_q, h * d_v)
    return proj(merged, module.w_o, module.b_o), weights
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "Ignores the biases b_q, b_k, b_v, b_o: right for a module without biases, wrong with them.",
  "teacher_says": "Add each bias after its projection when it is not None.",
  "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def split(x):
        return x.unflatten(-1, (h, -1)).transpose(-3, -2)
    qh = split(q @ module.w_q)
    kh = split(k @ module.w_k)
    vh = split(v @ module.w_v)
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
    merged = (weights @ vh).transpose(-3, -2).flatten(-2)
    return merged @ module.w_o, weights
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "Uses masked_fill(-inf) and torch.softmax without handling a query that may attend no key: its row of -inf gives NaN weights and a NaN output.",
  "teacher_says": "A query with no allowed key must get zero weights and a zero attention output: zero those rows (mask.any(dim=-1, keepdim=True)) after the softmax.",
  "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    def split(x):
        return x.unflatten(-1, (h, -1)).transpose(-3, -2)
    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    merged = (weights @ vh).transpose(-3, -2).flatten(-2)
    return proj(merged, module.w_o, module.b_o), weights
'''},
 {"exercise": "module_forward", "kind": "robustness",
  "idea": "converts the results to NumPy at the end",
  "mistake": "Returns NumPy arrays (detached from the autograd graph) instead of torch tensors.",
  "teacher_says": "Return the torch tensors themselves: .detach().numpy() cuts the graph, so nothing can be trained through your forward pass.",
  "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    def split(x):
        return x.unflatten(-1, (h, -1)).transpose(-3, -2)
    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
    merged = (weights @ vh).transpose(-3, -2).flatten(-2)
    out = proj(merged, module.w_o, module.b_o)
    return out.detach().numpy(), weights.detach().numpy()
'''},
]
