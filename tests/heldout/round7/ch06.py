ANSWERS = [
 # ------------------------------------------------------------------ params_from_torch
 {"exercise": "params_from_torch", "kind": "correct", "idea": "slice in_proj_weight's rows by embed_dim and transpose each block; biases only when present",
  "code": '''
import mha

def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    w_in = torch_mha.in_proj_weight.detach().cpu().numpy()
    w_q, w_k, w_v = w_in[:d].T, w_in[d:2 * d].T, w_in[2 * d:].T
    w_o = torch_mha.out_proj.weight.detach().cpu().numpy().T
    b_q = b_k = b_v = b_o = None
    if torch_mha.in_proj_bias is not None:
        b_in = torch_mha.in_proj_bias.detach().cpu().numpy()
        b_q, b_k, b_v = b_in[:d], b_in[d:2 * d], b_in[2 * d:]
        b_o = torch_mha.out_proj.bias.detach().cpu().numpy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, b_q, b_k, b_v, b_o)
'''},
 {"exercise": "params_from_torch", "kind": "correct", "idea": "from the state_dict with torch.chunk, transposed in torch and made contiguous before .numpy()",
  "code": '''
import torch
import mha

def params_from_torch(torch_mha):
    state = torch_mha.state_dict()
    blocks = torch.chunk(state["in_proj_weight"], 3, dim=0)
    w_q, w_k, w_v = (b.t().contiguous().numpy() for b in blocks)
    w_o = state["out_proj.weight"].t().contiguous().numpy()
    biases = {}
    if state.get("in_proj_bias") is not None:
        b_q, b_k, b_v = (b.clone().numpy() for b in torch.chunk(state["in_proj_bias"], 3))
        biases = dict(b_q=b_q, b_k=b_k, b_v=b_v, b_o=state["out_proj.bias"].clone().numpy())
    return mha.MHAParams(w_q=w_q, w_k=w_k, w_v=w_v, w_o=w_o, num_heads=torch_mha.num_heads, **biases)
'''},
 {"exercise": "params_from_torch", "kind": "wrong", "mistake": "Copied the blocks in PyTorch's (out, in) layout without transposing any of them.",
  "teacher_says": "nn.Linear computes x @ W.T: every block of in_proj_weight and out_proj.weight must be transposed to the paper's x @ W layout.",
  "code": '''
import mha

def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().numpy()
    w_o = torch_mha.out_proj.weight.detach().numpy()
    b_q = b_k = b_v = b_o = None
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().numpy()
        b_q, b_k, b_v = b[:d], b[d:2 * d], b[2 * d:]
        b_o = torch_mha.out_proj.bias.detach().numpy()
    return mha.MHAParams(w[:d], w[d:2 * d], w[2 * d:], w_o, torch_mha.num_heads, b_q, b_k, b_v, b_o)
'''},
 {"exercise": "params_from_torch", "kind": "wrong", "mistake": "Transposed the three input blocks but forgot to transpose out_proj.weight.",
  "teacher_says": "out_proj is an nn.Linear too, stored (out, in): W^O = out_proj.weight.T.",
  "code": '''
import mha

def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().numpy()
    w_o = torch_mha.out_proj.weight.detach().numpy()
    b_q = b_k = b_v = b_o = None
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().numpy()
        b_q, b_k, b_v = b[:d], b[d:2 * d], b[2 * d:]
        b_o = torch_mha.out_proj.bias.detach().numpy()
    return mha.MHAParams(w[:d].T, w[d:2 * d].T, w[2 * d:].T, w_o, torch_mha.num_heads, b_q, b_k, b_v, b_o)
'''},
 {"exercise": "params_from_torch", "kind": "wrong", "mistake": "Always reads the biases: a module built with bias=False has in_proj_bias = None and the call fails.",
  "teacher_says": "Check torch_mha.in_proj_bias is not None before reading it, and return None biases otherwise.",
  "code": '''
import mha

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
 {"exercise": "params_from_torch", "kind": "wrong", "mistake": "Passed the module's head_dim where MHAParams expects the number of heads.",
  "teacher_says": "num_heads is torch_mha.num_heads; head_dim is d_model / num_heads, the width of one head.",
  "code": '''
import mha

def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().numpy()
    biases = [None] * 4
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().numpy()
        biases = [b[:d], b[d:2 * d], b[2 * d:], torch_mha.out_proj.bias.detach().numpy()]
    return mha.MHAParams(w[:d].T, w[d:2 * d].T, w[2 * d:].T,
                         torch_mha.out_proj.weight.detach().numpy().T,
                         torch_mha.head_dim, *biases)
'''},
 {"exercise": "params_from_torch", "kind": "wrong", "mistake": "Split in_proj_bias as if b_q, b_k, b_v were interleaved (every third entry).",
  "teacher_says": "in_proj_bias holds b_Q, b_K, b_V one after another: [:d], [d:2d], [2d:].",
  "code": '''
import mha

def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().numpy()
    b_q = b_k = b_v = b_o = None
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().numpy()
        b_q, b_k, b_v = b[0::3], b[1::3], b[2::3]
        b_o = torch_mha.out_proj.bias.detach().numpy()
    return mha.MHAParams(w[:d].T, w[d:2 * d].T, w[2 * d:].T,
                         torch_mha.out_proj.weight.detach().numpy().T,
                         torch_mha.num_heads, b_q, b_k, b_v, b_o)
'''},
 {"exercise": "params_from_torch", "kind": "robustness", "idea": "converts everything to float64 'to be safe'",
  "mistake": "Right weights, but every array is cast to float64 with .double(), so a float32 module gives float64 params.",
  "teacher_says": "Keep the module's dtype: .detach().numpy() without a cast.",
  "code": '''
import mha

def params_from_torch(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().double().numpy()
    biases = [None] * 4
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().double().numpy()
        biases = [b[:d], b[d:2 * d], b[2 * d:], torch_mha.out_proj.bias.detach().double().numpy()]
    return mha.MHAParams(w[:d].T, w[d:2 * d].T, w[2 * d:].T,
                         torch_mha.out_proj.weight.detach().double().numpy().T,
                         torch_mha.num_heads, *biases)
'''},

 # ------------------------------------------------------------------ torch_key_padding_mask
 {"exercise": "torch_key_padding_mask", "kind": "correct", "idea": "flatten the singleton axes away, then logical_not",
  "code": '''
import torch

def torch_key_padding_mask(mask):
    return torch.logical_not(mask.flatten(1))
'''},
 {"exercise": "torch_key_padding_mask", "kind": "correct", "idea": "compare with False, then squeeze axis 1 twice",
  "code": '''
def torch_key_padding_mask(mask):
    return (mask == False).squeeze(1).squeeze(1)  # noqa: E712
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "Dropped the singleton axes but kept the book's polarity (True = real key).",
  "teacher_says": "nn.MultiheadAttention's key_padding_mask is True at the pads: flip it with ~.",
  "code": '''
def torch_key_padding_mask(mask):
    return mask[:, 0, 0, :]
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "Flipped the polarity but kept the (B, 1, 1, n_k) shape.",
  "teacher_says": "key_padding_mask has shape (B, n_k): drop the two singleton axes, mask[:, 0, 0, :].",
  "code": '''
def torch_key_padding_mask(mask):
    return ~mask
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "Returned a float 0/1 mask; nn.MultiheadAttention adds a float key_padding_mask to the scores instead of blocking keys.",
  "teacher_says": "Return a bool tensor; a float mask is an additive bias (0 or -inf), and 1.0 at the pads blocks nothing.",
  "code": '''
def torch_key_padding_mask(mask):
    return (~mask[:, 0, 0, :]).float()
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "Flipped the boolean mask with 1 - mask, which torch does not allow for bool tensors.",
  "teacher_says": "Use ~mask or torch.logical_not(mask) on a bool tensor; subtraction is not defined for bool.",
  "code": '''
def torch_key_padding_mask(mask):
    return (1 - mask)[:, 0, 0, :]
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "Indexed the batch axis instead of the singleton axes: only the first sequence's mask is returned, shape (1, n_k).",
  "teacher_says": "Keep every sequence: index the two singleton axes, mask[:, 0, 0, :].",
  "code": '''
def torch_key_padding_mask(mask):
    return ~mask[0, 0]
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong", "mistake": "Transposed the result to (n_k, B), mixing it up with nn.MultiheadAttention's sequence-first inputs.",
  "teacher_says": "key_padding_mask is (B, n_k) whatever batch_first is: no transpose.",
  "code": '''
def torch_key_padding_mask(mask):
    return (~mask[:, 0, 0, :]).T
'''},
 {"exercise": "torch_key_padding_mask", "kind": "robustness", "idea": "goes through NumPy and mha.flip_polarity",
  "mistake": "Right values, but returns a NumPy array instead of a torch tensor.",
  "teacher_says": "nn.MultiheadAttention needs a tensor: stay in torch (~mask[:, 0, 0, :]) or wrap the result with torch.from_numpy.",
  "code": '''
import mha

def torch_key_padding_mask(mask):
    return mha.flip_polarity(mask.numpy())[:, 0, 0, :]
'''},

 # ------------------------------------------------------------------ attention_backward
 {"exercise": "attention_backward", "kind": "correct", "idea": "einsum for every product of the forward and backward passes",
  "code": '''
import math
import numpy as np

def attention_backward(q, k, v, grad_out):
    scale = 1.0 / math.sqrt(q.shape[-1])
    s = np.einsum("...qd,...kd->...qk", q, k) * scale
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    grad_v = np.einsum("...qk,...qv->...kv", p, grad_out)
    grad_p = np.einsum("...qv,...kv->...qk", grad_out, v)
    grad_s = p * (grad_p - np.einsum("...qk,...qk->...q", grad_p, p)[..., None])
    grad_q = np.einsum("...qk,...kd->...qd", grad_s, k) * scale
    grad_k = np.einsum("...qk,...qd->...kd", grad_s, q) * scale
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "correct", "idea": "builds each row's softmax Jacobian diag(p) - p p^T explicitly and multiplies it",
  "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    d_k = q.shape[-1]
    kt = np.swapaxes(k, -1, -2)
    s = q @ kt / np.sqrt(d_k)
    e = np.exp(s - np.max(s, axis=-1, keepdims=True))
    p = e / np.sum(e, axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    n_k = p.shape[-1]
    jac = p[..., :, None] * np.eye(n_k) - p[..., :, None] * p[..., None, :]
    grad_s = (np.swapaxes(jac, -1, -2) @ grad_p[..., :, None])[..., 0]
    grad_q = grad_s @ k / np.sqrt(d_k)
    grad_k = np.swapaxes(grad_s, -1, -2) @ q / np.sqrt(d_k)
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong", "mistake": "Forgot the 1/sqrt(d_k) of the scores in the gradients of Q and K.",
  "teacher_says": "S = Q K^T / sqrt(d_k), so dL/dQ = dL/dS K / sqrt(d_k) and dL/dK = dL/dS^T Q / sqrt(d_k).",
  "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(-1, keepdims=True))
    grad_q = grad_s @ k
    grad_k = np.swapaxes(grad_s, -1, -2) @ q
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong", "mistake": "Passed the gradient straight through the softmax, as if it were the identity.",
  "teacher_says": "The softmax has a Jacobian: dL/dS = P * (dL/dP - sum(dL/dP * P, axis=-1)).",
  "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    d = q.shape[-1]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_s = grad_out @ np.swapaxes(v, -1, -2)
    grad_q = grad_s @ k / np.sqrt(d)
    grad_k = np.swapaxes(grad_s, -1, -2) @ q / np.sqrt(d)
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong", "mistake": "Used only the diagonal of the softmax Jacobian, p(1 - p), and dropped the -p_i p_j terms.",
  "teacher_says": "Every score affects every weight of its row: the Jacobian is diag(p) - p p^T, not just its diagonal.",
  "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    d = q.shape[-1]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (1 - p) * grad_p
    grad_q = grad_s @ k / np.sqrt(d)
    grad_k = np.swapaxes(grad_s, -1, -2) @ q / np.sqrt(d)
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong", "mistake": "In the softmax backward, summed grad_p * p over the queries axis (-2) instead of each row.",
  "teacher_says": "The softmax runs along each row, so the inner product <dL/dp, p> is a sum over axis -1 (keepdims=True).",
  "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    d = q.shape[-1]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(-2, keepdims=True))
    grad_q = grad_s @ k / np.sqrt(d)
    grad_k = np.swapaxes(grad_s, -1, -2) @ q / np.sqrt(d)
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong", "mistake": "Forgot to transpose dL/dS for the keys' gradient (grad_k = grad_s @ q), which only has a valid shape when n_q = n_k.",
  "teacher_says": "For S = Q K^T, dL/dK = (dL/dS)^T Q: swap the last two axes of grad_s first.",
  "code": '''
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
    grad_k = grad_s @ q / np.sqrt(d)
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong", "mistake": "Used .T for the transposes, which reverses the batch axes too: right for 2-D inputs, broken with batch axes.",
  "teacher_says": "Use np.swapaxes(x, -1, -2) so that only the last two axes are transposed whatever the batch axes.",
  "code": '''
import numpy as np

def attention_backward(q, k, v, grad_out):
    d = q.shape[-1]
    s = q @ k.T / np.sqrt(d)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    grad_v = p.T @ grad_out
    grad_p = grad_out @ v.T
    grad_s = p * (grad_p - (grad_p * p).sum(-1, keepdims=True))
    grad_q = grad_s @ k / np.sqrt(d)
    grad_k = grad_s.T @ q / np.sqrt(d)
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "robustness", "idea": "lets torch.autograd do the work",
  "mistake": "Right gradients, but computed with torch autograd and returned as torch tensors instead of NumPy arrays (and not by hand).",
  "teacher_says": "The exercise asks for NumPy arrays computed by hand; at least convert with .numpy() before returning.",
  "code": '''
import torch

def attention_backward(q, k, v, grad_out):
    qt, kt, vt = (torch.tensor(a, requires_grad=True) for a in (q, k, v))
    s = qt @ kt.transpose(-1, -2) / qt.shape[-1] ** 0.5
    out = torch.softmax(s, dim=-1) @ vt
    out.backward(torch.as_tensor(grad_out))
    return qt.grad, kt.grad, vt.grad
'''},

 # ------------------------------------------------------------------ module_forward
 {"exercise": "module_forward", "kind": "correct", "idea": "einsum with the weights viewed per head, torch.softmax then nan_to_num for rows with no key",
  "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads

    def heads(x, w, b):
        y = x @ w
        if b is not None:
            y = y + b
        *lead, n, f = y.shape
        return y.reshape(*lead, n, h, f // h).transpose(-3, -2)

    qh = heads(q, module.w_q, module.b_q)
    kh = heads(k, module.w_k, module.b_k)
    vh = heads(v, module.w_v, module.b_v)
    scores = torch.einsum("...hqd,...hkd->...hqk", qh, kh) / math.sqrt(module.d_k)
    if mask is not None:
        scores = torch.where(mask, scores, torch.tensor(float("-inf"), dtype=scores.dtype))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
    out_heads = weights @ vh
    merged = out_heads.transpose(-3, -2).flatten(-2)
    out = merged @ module.w_o
    if module.b_o is not None:
        out = out + module.b_o
    return out, weights
'''},
 {"exercise": "module_forward", "kind": "correct", "idea": "F.linear with the transposed paper weights, heads split with tensor.split + stack, hand-written stable softmax guarding empty rows, heads merged with torch.cat",
  "code": '''
import torch
import torch.nn.functional as F

def module_forward(module, q, k, v, mask=None):
    h, d_k = module.num_heads, module.d_k
    Q = F.linear(q, module.w_q.T, module.b_q)
    K = F.linear(k, module.w_k.T, module.b_k)
    V = F.linear(v, module.w_v.T, module.b_v)
    d_v = V.shape[-1] // h
    Qh = torch.stack(Q.split(d_k, dim=-1), dim=-3)
    Kh = torch.stack(K.split(d_k, dim=-1), dim=-3)
    Vh = torch.stack(V.split(d_v, dim=-1), dim=-3)
    s = Qh @ Kh.transpose(-1, -2) * d_k ** -0.5
    if mask is not None:
        s = torch.where(mask, s, torch.full_like(s, float("-inf")))
    m = s.amax(dim=-1, keepdim=True)
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    e = torch.exp(s - m)
    z = e.sum(dim=-1, keepdim=True)
    w = e / torch.where(z > 0, z, torch.ones_like(z))
    heads = w @ Vh
    merged = torch.cat(heads.unbind(dim=-3), dim=-1)
    return F.linear(merged, module.w_o.T, module.b_o), w
'''},
 {"exercise": "module_forward", "kind": "wrong", "mistake": "Multiplied by the transposed weights (x @ w.T), the nn.Linear habit, although the module stores them in the paper's layout.",
  "teacher_says": "module.w_q is (d_model, h*d_k) in the paper's layout: the projection is q @ module.w_q, no .T.",
  "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def proj(x, w, b):
        y = x @ w.T
        return y if b is None else y + b
    def split(x):
        *lead, n, f = x.shape
        return x.reshape(*lead, n, h, f // h).transpose(-3, -2)
    Q, K, V = split(proj(q, module.w_q, module.b_q)), split(proj(k, module.w_k, module.b_k)), split(proj(v, module.w_v, module.b_v))
    scores = Q @ K.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
    heads = weights @ V
    merged = heads.transpose(-3, -2).reshape(*heads.shape[:-3], heads.shape[-2], -1)
    return proj(merged, module.w_o, module.b_o), weights
'''},
 {"exercise": "module_forward", "kind": "wrong", "mistake": "Scaled by sqrt(d_model / h) instead of sqrt(module.d_k), which differs when the head size is not d_model / h.",
  "teacher_says": "Use the module's own head size: divide by math.sqrt(module.d_k).",
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
    Q, K, V = split(proj(q, module.w_q, module.b_q)), split(proj(k, module.w_k, module.b_k)), split(proj(v, module.w_v, module.b_v))
    scores = Q @ K.transpose(-2, -1) / math.sqrt(module.d_model / h)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
    heads = weights @ V
    merged = heads.transpose(-3, -2).reshape(*heads.shape[:-3], heads.shape[-2], -1)
    return proj(merged, module.w_o, module.b_o), weights
'''},
 {"exercise": "module_forward", "kind": "wrong", "mistake": "Filled -inf where the mask is True, nn.MultiheadAttention's polarity, so each query attends only the forbidden keys.",
  "teacher_says": "Here True = may attend: masked_fill(~mask, -inf) hides the False positions.",
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
    Q, K, V = split(proj(q, module.w_q, module.b_q)), split(proj(k, module.w_k, module.b_k)), split(proj(v, module.w_v, module.b_v))
    scores = Q @ K.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
    heads = weights @ V
    merged = heads.transpose(-3, -2).reshape(*heads.shape[:-3], heads.shape[-2], -1)
    return proj(merged, module.w_o, module.b_o), weights
'''},
 {"exercise": "module_forward", "kind": "wrong", "mistake": "Returned the weights averaged over the heads, as nn.MultiheadAttention does by default.",
  "teacher_says": "The exercise asks for the per-head weights, (..., h, n_q, n_k): do not take the mean over the heads axis.",
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
    Q, K, V = split(proj(q, module.w_q, module.b_q)), split(proj(k, module.w_k, module.b_k)), split(proj(v, module.w_v, module.b_v))
    scores = Q @ K.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
    heads = weights @ V
    merged = heads.transpose(-3, -2).reshape(*heads.shape[:-3], heads.shape[-2], -1)
    return proj(merged, module.w_o, module.b_o), weights.mean(dim=-3)
'''},
 {"exercise": "module_forward", "kind": "wrong", "mistake": "Added the biases unconditionally: a module without biases (b_q is None) raises a TypeError.",
  "teacher_says": "Each bias may be None: add it only when it is present.",
  "code": '''
import math
import torch

def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def split(x):
        *lead, n, f = x.shape
        return x.reshape(*lead, n, h, f // h).transpose(-3, -2)
    Q = split(q @ module.w_q + module.b_q)
    K = split(k @ module.w_k + module.b_k)
    V = split(v @ module.w_v + module.b_v)
    scores = Q @ K.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
    heads = weights @ V
    merged = heads.transpose(-3, -2).reshape(*heads.shape[:-3], heads.shape[-2], -1)
    return merged @ module.w_o + module.b_o, weights
'''},
 {"exercise": "module_forward", "kind": "wrong", "mistake": "Merged the heads with a reshape of (..., h, n_q, d_v) straight to (..., n_q, h*d_v), without transposing back.",
  "teacher_says": "Transpose the heads and tokens axes back (.transpose(-3, -2)) before the reshape, or the tokens get mixed.",
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
    Q, K, V = split(proj(q, module.w_q, module.b_q)), split(proj(k, module.w_k, module.b_k)), split(proj(v, module.w_v, module.b_v))
    scores = Q @ K.transpose(-2, -1) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
    heads = weights @ V
    merged = heads.reshape(*heads.shape[:-3], heads.shape[-2], -1)
    return proj(merged, module.w_o, module.b_o), weights
'''},
 {"exercise": "module_forward", "kind": "robustness", "idea": "goes back to the NumPy layer through to_params",
  "mistake": "Right numbers, but computed with NumPy (module.to_params() and mha.multi_head_attention) and returned as NumPy arrays: no torch tensors, no gradient.",
  "teacher_says": "Stay in torch so that autograd and devices work: the same steps with torch operations on the module's parameters.",
  "code": '''
import mha

def module_forward(module, q, k, v, mask=None):
    params = module.to_params()
    np_mask = None if mask is None else mask.cpu().numpy()
    return mha.multi_head_attention(
        q.detach().cpu().numpy(), k.detach().cpu().numpy(), v.detach().cpu().numpy(), params, mask=np_mask
    )
'''},
]
