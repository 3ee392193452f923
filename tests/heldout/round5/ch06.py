ANSWERS = [
 # ------------------------------------------------------------ params_from_torch
 {"exercise": "params_from_torch", "kind": "correct",
  "idea": "reads the state_dict as NumPy, transposes each row block into a contiguous copy, and picks the biases by key",
  "code": '''
import numpy as np
import mha
def params_from_torch(torch_mha):
    state = {name: t.detach().cpu().numpy() for name, t in torch_mha.state_dict().items()}
    w_in = state["in_proj_weight"]
    d = w_in.shape[1]
    w_q, w_k, w_v = (np.ascontiguousarray(w_in[j * d:(j + 1) * d].T) for j in range(3))
    w_o = np.ascontiguousarray(state["out_proj.weight"].T)
    b_q = b_k = b_v = b_o = None
    if "in_proj_bias" in state:
        b_in = state["in_proj_bias"]
        b_q, b_k, b_v = b_in[:d].copy(), b_in[d:2 * d].copy(), b_in[2 * d:].copy()
        b_o = state["out_proj.bias"].copy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, b_q, b_k, b_v, b_o)
'''},
 {"exercise": "params_from_torch", "kind": "correct",
  "idea": "transposes the whole in_proj_weight once and np.split's its columns; np.split for the stacked bias too",
  "code": '''
import numpy as np
import mha
def params_from_torch(torch_mha):
    w_in = torch_mha.in_proj_weight.detach().numpy()
    w_q, w_k, w_v = np.split(w_in.T, 3, axis=1)
    w_o = torch_mha.out_proj.weight.detach().numpy().T
    biases = {}
    if torch_mha.in_proj_bias is not None:
        b_q, b_k, b_v = np.split(torch_mha.in_proj_bias.detach().numpy(), 3)
        biases = dict(b_q=b_q, b_k=b_k, b_v=b_v, b_o=torch_mha.out_proj.bias.detach().numpy())
    return mha.MHAParams(w_q=w_q, w_k=w_k, w_v=w_v, w_o=w_o,
                         num_heads=torch_mha.num_heads, **biases)
'''},
 {"exercise": "params_from_torch", "kind": "wrong",
  "mistake": "slices the three row blocks of in_proj_weight but keeps PyTorch's (out, in) layout (no transpose)",
  "teacher_says": "nn.Linear computes x @ W.T: the paper's W^Q is in_proj_weight[0:d].T. The matrices are square, so nothing fails, but the layer is different.",
  "code": '''
import mha
def params_from_torch(torch_mha):
    w_in = torch_mha.in_proj_weight.detach().numpy()
    d = w_in.shape[1]
    w_o = torch_mha.out_proj.weight.detach().numpy().T
    b = torch_mha.in_proj_bias
    if b is None:
        b_q = b_k = b_v = b_o = None
    else:
        b = b.detach().numpy()
        b_q, b_k, b_v = b[:d], b[d:2 * d], b[2 * d:]
        b_o = torch_mha.out_proj.bias.detach().numpy()
    return mha.MHAParams(w_in[:d], w_in[d:2 * d], w_in[2 * d:], w_o, torch_mha.num_heads,
                         b_q, b_k, b_v, b_o)
'''},
 {"exercise": "params_from_torch", "kind": "wrong",
  "mistake": "transposes the three input projections but copies out_proj.weight as it is",
  "teacher_says": "out_proj is an nn.Linear too, stored (out, in): W^O = out_proj.weight.T.",
  "code": '''
import mha
def params_from_torch(torch_mha):
    w_in = torch_mha.in_proj_weight.detach().numpy()
    d = w_in.shape[1]
    w_q, w_k, w_v = w_in[:d].T, w_in[d:2 * d].T, w_in[2 * d:].T
    w_o = torch_mha.out_proj.weight.detach().numpy()
    if torch_mha.in_proj_bias is None:
        return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads)
    b = torch_mha.in_proj_bias.detach().numpy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads,
                         b[:d], b[d:2 * d], b[2 * d:], torch_mha.out_proj.bias.detach().numpy())
'''},
 {"exercise": "params_from_torch", "kind": "wrong",
  "mistake": "ignores the biases altogether, so a module with biases is converted without them",
  "teacher_says": "Copy in_proj_bias (split in three) and out_proj.bias when the module has them; only a module built with bias=False gives None.",
  "code": '''
import mha
def params_from_torch(torch_mha):
    w_in = torch_mha.in_proj_weight.detach().numpy()
    d = w_in.shape[1]
    return mha.MHAParams(w_in[:d].T, w_in[d:2 * d].T, w_in[2 * d:].T,
                         torch_mha.out_proj.weight.detach().numpy().T,
                         torch_mha.num_heads)
'''},
 {"exercise": "params_from_torch", "kind": "wrong",
  "mistake": "passes torch_mha.head_dim as the number of heads (attribute mix-up)",
  "teacher_says": "head_dim is d_k, the width of one head; the number of heads is torch_mha.num_heads.",
  "code": '''
import mha
def params_from_torch(torch_mha):
    w_in = torch_mha.in_proj_weight.detach().numpy()
    d = w_in.shape[1]
    biases = [None] * 4
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().numpy()
        biases = [b[:d], b[d:2 * d], b[2 * d:], torch_mha.out_proj.bias.detach().numpy()]
    return mha.MHAParams(w_in[:d].T, w_in[d:2 * d].T, w_in[2 * d:].T,
                         torch_mha.out_proj.weight.detach().numpy().T,
                         torch_mha.head_dim, *biases)
'''},
 {"exercise": "params_from_torch", "kind": "wrong",
  "mistake": "copies the three input biases from in_proj_bias but forgets out_proj.bias (b_o stays None)",
  "teacher_says": "The output projection has its own bias, out_proj.bias: pass it as b_o.",
  "code": '''
import mha
def params_from_torch(torch_mha):
    w_in = torch_mha.in_proj_weight.detach().numpy()
    d = w_in.shape[1]
    w_o = torch_mha.out_proj.weight.detach().numpy().T
    b_q = b_k = b_v = None
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().numpy()
        b_q, b_k, b_v = b[:d], b[d:2 * d], b[2 * d:]
    return mha.MHAParams(w_in[:d].T, w_in[d:2 * d].T, w_in[2 * d:].T, w_o,
                         torch_mha.num_heads, b_q=b_q, b_k=b_k, b_v=b_v)
'''},
 {"exercise": "params_from_torch", "kind": "robustness",
  "idea": "copies everything to float64 'to be safe'",
  "mistake": "np.array(..., dtype=np.float64) turns a float32 module into float64 parameters (values right, dtype changed)",
  "teacher_says": "Keep the module's dtype: .detach().numpy() already gives float32 arrays for a float32 module.",
  "code": '''
import numpy as np
import mha
def params_from_torch(torch_mha):
    def arr(t):
        return None if t is None else np.array(t.detach().cpu().numpy(), dtype=np.float64)
    w_in = arr(torch_mha.in_proj_weight)
    d = w_in.shape[1]
    b_in = arr(torch_mha.in_proj_bias)
    b = [None] * 3 if b_in is None else [b_in[:d], b_in[d:2 * d], b_in[2 * d:]]
    return mha.MHAParams(w_in[:d].T, w_in[d:2 * d].T, w_in[2 * d:].T,
                         arr(torch_mha.out_proj.weight).T, torch_mha.num_heads,
                         *b, arr(torch_mha.out_proj.bias))
'''},
 # ------------------------------------------------------- torch_key_padding_mask
 {"exercise": "torch_key_padding_mask", "kind": "correct",
  "idea": "torch.logical_not after squeezing the two singleton axes by index",
  "code": '''
import torch
def torch_key_padding_mask(mask):
    return torch.logical_not(mask.squeeze(2).squeeze(1))
'''},
 {"exercise": "torch_key_padding_mask", "kind": "correct",
  "idea": "compare with False and flatten everything after the batch axis",
  "code": '''
def torch_key_padding_mask(mask):
    return (mask == False).flatten(start_dim=1)  # noqa: E712
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong",
  "mistake": "drops the singleton axes but keeps this book's polarity (True = real key)",
  "teacher_says": "nn.MultiheadAttention's key_padding_mask is True at the pads: flip it with ~.",
  "code": '''
def torch_key_padding_mask(mask):
    return mask[:, 0, 0, :]
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong",
  "mistake": "flips the polarity but keeps the (B, 1, 1, n_k) shape",
  "teacher_says": "key_padding_mask has shape (B, n_k): remove the heads and queries axes, e.g. mask[:, 0, 0, :].",
  "code": '''
def torch_key_padding_mask(mask):
    return ~mask
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong",
  "mistake": "uses squeeze() without axes, which also drops the batch axis when B = 1 (and the key axis when n_k = 1)",
  "teacher_says": "Name the axes to squeeze (squeeze(2).squeeze(1) or [:, 0, 0, :]) so that the result is always (B, n_k).",
  "code": '''
def torch_key_padding_mask(mask):
    return ~mask.squeeze()
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong",
  "mistake": "flips by arithmetic, 1 - mask.float(), which gives a float mask that nn.MultiheadAttention adds to the scores instead of blocking the pads",
  "teacher_says": "Keep it boolean (~mask[:, 0, 0, :]): a float key_padding_mask is additive, so 1.0 only nudges the pads' scores up.",
  "code": '''
def torch_key_padding_mask(mask):
    return 1.0 - mask[:, 0, 0, :].float()
'''},
 {"exercise": "torch_key_padding_mask", "kind": "wrong",
  "mistake": "indexes the wrong axes, mask[:, 0, :, 0], keeping a singleton axis and only the first key",
  "teacher_says": "The keys are the last axis: keep axes 0 and 3, mask[:, 0, 0, :].",
  "code": '''
def torch_key_padding_mask(mask):
    return ~mask[:, 0, :, 0]
'''},
 {"exercise": "torch_key_padding_mask", "kind": "robustness",
  "idea": "converts to NumPy on the way",
  "mistake": "returns a NumPy bool array instead of a torch tensor (right values and shape)",
  "teacher_says": "nn.MultiheadAttention needs a tensor: stay in torch (~mask[:, 0, 0, :]) or wrap the result with torch.from_numpy.",
  "code": '''
def torch_key_padding_mask(mask):
    return ~mask.numpy()[:, 0, 0, :]
'''},
 # ------------------------------------------------------------ attention_backward
 {"exercise": "attention_backward", "kind": "correct",
  "idea": "every product's gradient written with einsum; the softmax backward as p * (dp - rowsum(dp * p))",
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
  "idea": "builds each row's full softmax Jacobian diag(p) - p p^T and multiplies by it explicitly",
  "code": '''
import numpy as np
def attention_backward(q, k, v, grad_out):
    d_k = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_k)
    e = np.exp(scores - np.max(scores, axis=-1, keepdims=True))
    p = e / np.sum(e, axis=-1, keepdims=True)
    jac = p[..., :, None] * np.eye(p.shape[-1]) - p[..., :, None] * p[..., None, :]
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = np.squeeze(grad_p[..., None, :] @ jac, axis=-2)
    grad_q = grad_s @ k / np.sqrt(d_k)
    grad_k = np.swapaxes(grad_s, -1, -2) @ q / np.sqrt(d_k)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    return grad_q, grad_k, grad_v
'''},
 {"exercise": "attention_backward", "kind": "wrong",
  "mistake": "forgets the 1/sqrt(d_k) in the gradients of q and k",
  "teacher_says": "S = Q K^T / sqrt(d_k): the chain rule brings the same factor into dL/dQ and dL/dK.",
  "code": '''
import math
import numpy as np
def attention_backward(q, k, v, grad_out):
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
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
  "mistake": "treats the softmax like an elementwise function: grad_s = p * grad_p, missing the term that couples a row's entries",
  "teacher_says": "The softmax's Jacobian is diag(p) - p p^T: subtract each row's <grad_p, p> before multiplying by p.",
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
  "mistake": "in the softmax backward, sums grad_p * p over the queries axis (-2) instead of along each row",
  "teacher_says": "Each row of P is its own softmax: the inner product <grad_p, p> is taken over the keys, axis=-1.",
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
  "mistake": "gradient of K without transposing grad_s: grad_k = grad_s @ q (only runs when n_q = n_k, and is then wrong)",
  "teacher_says": "S = Q K^T means dL/dK = (dL/dS)^T Q: transpose grad_s over its last two axes first.",
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
  "mistake": "applies the 1/sqrt(d_k) factor to grad_q but forgets it in grad_k",
  "teacher_says": "Q and K enter S symmetrically: both gradients carry the factor 1/sqrt(d_k).",
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
  "mistake": "transposes with .T, which reverses the batch axes: right for 2-D inputs, broken with batch axes",
  "teacher_says": "Use np.swapaxes(x, -1, -2) (or x.swapaxes(-1, -2)) for 'transpose' so that any number of batch axes works.",
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
  "idea": "lets torch autograd do the work",
  "mistake": "runs the forward pass in torch and returns the .grad tensors: right numbers, but torch tensors instead of NumPy arrays (and not by hand)",
  "teacher_says": "The exercise asks for NumPy arrays computed by hand; at least convert with .numpy(), and better derive each step yourself.",
  "code": '''
import math
import torch
def attention_backward(q, k, v, grad_out):
    qt, kt, vt = (torch.tensor(a, requires_grad=True) for a in (q, k, v))
    s = qt @ kt.transpose(-1, -2) / math.sqrt(q.shape[-1])
    out = torch.softmax(s, dim=-1) @ vt
    out.backward(torch.as_tensor(grad_out))
    return qt.grad, kt.grad, vt.grad
'''},
 # ---------------------------------------------------------------- module_forward
 {"exercise": "module_forward", "kind": "correct",
  "idea": "torch.einsum for the scores and the weighted sum, torch.where for the mask, zero rows handled with nan_to_num",
  "code": '''
import math
import torch
def module_forward(module, q, k, v, mask=None):
    h, d_k = module.num_heads, module.d_k
    def proj(x, w, b):
        y = x @ w
        return y if b is None else y + b
    qp = proj(q, module.w_q, module.b_q)
    kp = proj(k, module.w_k, module.b_k)
    vp = proj(v, module.w_v, module.b_v)
    qh = qp.unflatten(-1, (h, d_k)).transpose(-3, -2)
    kh = kp.unflatten(-1, (h, d_k)).transpose(-3, -2)
    vh = vp.unflatten(-1, (h, -1)).transpose(-3, -2)
    scores = torch.einsum("...qd,...kd->...qk", qh, kh) / math.sqrt(d_k)
    if mask is not None:
        scores = torch.where(mask, scores, torch.full_like(scores, float("-inf")))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
    heads = torch.einsum("...qk,...kd->...qd", weights, vh)
    concat = heads.transpose(-3, -2).flatten(-2)
    return proj(concat, module.w_o, module.b_o), weights
'''},
 {"exercise": "module_forward", "kind": "correct",
  "idea": "loop over heads on column blocks of the weights, masked softmax with a guarded max and sum, torch.cat of the heads",
  "code": '''
import math
import torch
def module_forward(module, q, k, v, mask=None):
    h, d_k, d_v = module.num_heads, module.d_k, module.d_v
    qp = q @ module.w_q + (module.b_q if module.b_q is not None else 0)
    kp = k @ module.w_k + (module.b_k if module.b_k is not None else 0)
    vp = v @ module.w_v + (module.b_v if module.b_v is not None else 0)
    if mask is not None:
        batch = torch.broadcast_shapes(qp.shape[:-2], kp.shape[:-2])
        mask = mask.expand(*batch, h, qp.shape[-2], kp.shape[-2])
    heads, weights = [], []
    for i in range(h):
        qi = qp[..., i * d_k:(i + 1) * d_k]
        ki = kp[..., i * d_k:(i + 1) * d_k]
        vi = vp[..., i * d_v:(i + 1) * d_v]
        s = qi @ ki.transpose(-1, -2) / math.sqrt(d_k)
        if mask is not None:
            s = s.masked_fill(~mask[..., i, :, :], float("-inf"))
        top = s.amax(dim=-1, keepdim=True)
        top = torch.where(torch.isinf(top), torch.zeros_like(top), top)
        e = torch.exp(s - top)
        total = e.sum(dim=-1, keepdim=True)
        w = e / torch.where(total == 0, torch.ones_like(total), total)
        heads.append(w @ vi)
        weights.append(w)
    out = torch.cat(heads, dim=-1) @ module.w_o
    if module.b_o is not None:
        out = out + module.b_o
    return out, torch.stack(weights, dim=-3)
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "nn.Linear habit: multiplies by the transposed weights (x @ w.T), which the module does not store",
  "teacher_says": "The module keeps the paper's layout: q @ module.w_q, no .T (with square weights it runs and computes something else).",
  "code": '''
import math
import torch
def module_forward(module, q, k, v, mask=None):
    def proj(x, w, b):
        y = x @ w.T
        return y if b is None else y + b
    h = module.num_heads
    def split(x):
        return x.reshape(*x.shape[:-1], h, -1).transpose(-3, -2)
    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1).nan_to_num(0.0)
    concat = (weights @ vh).transpose(-3, -2).flatten(-2)
    return proj(concat, module.w_o, module.b_o), weights
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "masked_fill(mask, -inf) fills where the mask is True, i.e. hides exactly the keys that may be attended",
  "teacher_says": "True = may attend, so fill the other positions: scores.masked_fill(~mask, float('-inf')).",
  "code": '''
import math
import torch
def module_forward(module, q, k, v, mask=None):
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    h = module.num_heads
    def split(x):
        return x.reshape(*x.shape[:-1], h, -1).transpose(-3, -2)
    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1).nan_to_num(0.0)
    concat = (weights @ vh).transpose(-3, -2).flatten(-2)
    return proj(concat, module.w_o, module.b_o), weights
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "plain torch.softmax after the -inf fill: a query that may attend no key gets NaN weights and a NaN output",
  "teacher_says": "A row of -inf has no softmax: give such rows zero weights (e.g. torch.nan_to_num, or guard the max and the sum), as the module does.",
  "code": '''
import math
import torch
def module_forward(module, q, k, v, mask=None):
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    h = module.num_heads
    def split(x):
        return x.reshape(*x.shape[:-1], h, -1).transpose(-3, -2)
    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    concat = (weights @ vh).transpose(-3, -2).flatten(-2)
    return proj(concat, module.w_o, module.b_o), weights
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "scales by sqrt(d_model / h), assuming d_k = d_model / h, which is false for modules built with another d_k",
  "teacher_says": "Use the module's own head size, math.sqrt(module.d_k): d_k need not equal d_model / h.",
  "code": '''
import math
import torch
def module_forward(module, q, k, v, mask=None):
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    h = module.num_heads
    def split(x):
        return x.reshape(*x.shape[:-1], h, -1).transpose(-3, -2)
    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-1, -2) / math.sqrt(module.d_model / h)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1).nan_to_num(0.0)
    concat = (weights @ vh).transpose(-3, -2).flatten(-2)
    return proj(concat, module.w_o, module.b_o), weights
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "uses only the weight matrices and never adds module.b_q ... module.b_o",
  "teacher_says": "Add each bias after its projection when it is not None (b_o after W^O).",
  "code": '''
import math
import torch
def module_forward(module, q, k, v, mask=None):
    h = module.num_heads
    def split(x):
        return x.reshape(*x.shape[:-1], h, -1).transpose(-3, -2)
    qh = split(q @ module.w_q)
    kh = split(k @ module.w_k)
    vh = split(v @ module.w_v)
    scores = qh @ kh.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1).nan_to_num(0.0)
    concat = (weights @ vh).transpose(-3, -2).flatten(-2)
    return concat @ module.w_o, weights
'''},
 {"exercise": "module_forward", "kind": "wrong",
  "mistake": "splits the heads with a view to (..., h, n, d) without the transpose",
  "teacher_says": "View the features as (..., n, h, d) and then transpose(-3, -2); a direct view to (..., h, n, d) mixes tokens.",
  "code": '''
import math
import torch
def module_forward(module, q, k, v, mask=None):
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    h = module.num_heads
    def split(x):
        *batch, n, f = x.shape
        return x.reshape(*batch, h, n, f // h)
    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1).nan_to_num(0.0)
    heads = weights @ vh
    concat = heads.transpose(-3, -2).flatten(-2)
    return proj(concat, module.w_o, module.b_o), weights
'''},
 {"exercise": "module_forward", "kind": "robustness",
  "idea": "returns NumPy arrays",
  "mistake": "right numbers, but detaches and converts the results to NumPy, so no gradient can flow and the caller gets arrays instead of tensors",
  "teacher_says": "Return the torch tensors themselves: the forward pass must stay in autograd's graph.",
  "code": '''
import math
import torch
def module_forward(module, q, k, v, mask=None):
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    h = module.num_heads
    def split(x):
        return x.reshape(*x.shape[:-1], h, -1).transpose(-3, -2)
    qh = split(proj(q, module.w_q, module.b_q))
    kh = split(proj(k, module.w_k, module.b_k))
    vh = split(proj(v, module.w_v, module.b_v))
    scores = qh @ kh.transpose(-1, -2) / math.sqrt(module.d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1).nan_to_num(0.0)
    concat = (weights @ vh).transpose(-3, -2).flatten(-2)
    out = proj(concat, module.w_o, module.b_o)
    return out.detach().numpy(), weights.detach().numpy()
'''},
]
