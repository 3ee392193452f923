"""Chapter 6: the module's forward pass, nn.MultiheadAttention's weights, the backward pass,
the key padding mask."""

import math

import numpy as np
import torch

import mha
from corpus import correct, wrong

# --- module_forward -----------------------------------------------------------------------


def _forward(module, q, k, v, mask, *, layout=lambda w: w, scale=True, flip=True, transpose=True,
             w_o=True, bias=True):  # fmt: skip
    """A reader's forward pass in torch; the keywords change one step."""
    h = module.num_heads

    def project(x, w, b):
        y = x @ layout(w)
        return y + b if (bias and b is not None) else y

    def split(x):
        if transpose:
            return x.unflatten(-1, (h, -1)).transpose(-3, -2)
        return x.reshape(*x.shape[:-2], h, x.shape[-2], -1)

    qh, kh, vh = (split(project(x, w, b)) for x, w, b in
                  ((q, module.w_q, module.b_q), (k, module.w_k, module.b_k), (v, module.w_v, module.b_v)))  # fmt: skip
    scores = torch.einsum("...qd,...kd->...qk", qh, kh)
    if scale:
        scores = scores / module.d_k**0.5
    if mask is not None:
        scores = scores.masked_fill(~mask if flip else mask, float("-inf"))
    weights = scores.softmax(-1)
    out = weights @ vh
    out = (
        out.transpose(-3, -2).flatten(-2)
        if transpose
        else out.reshape(*out.shape[:-3], out.shape[-2], -1)
    )
    if w_o:
        out = project(out, module.w_o, module.b_o)
    return out, weights


@correct("module_forward")
def forward_einsum_style(module, q, k, v, mask=None):
    return _forward(module, q, k, v, mask)


@correct("module_forward")
def forward_with_torch_functions(module, q, k, v, mask=None):
    h, d_k = module.num_heads, module.d_k
    q_ = torch.matmul(q, module.w_q)
    k_ = torch.matmul(k, module.w_k)
    v_ = torch.matmul(v, module.w_v)
    if module.b_q is not None:
        q_, k_, v_ = q_ + module.b_q, k_ + module.b_k, v_ + module.b_v
    q_ = q_.view(*q.shape[:-1], h, d_k).transpose(-2, -3)
    k_ = k_.view(*k.shape[:-1], h, d_k).transpose(-2, -3)
    v_ = v_.view(*v.shape[:-1], h, -1).transpose(-2, -3)
    scores = torch.matmul(q_, k_.transpose(-1, -2)) / math.sqrt(d_k)
    if mask is not None:
        scores = torch.where(mask, scores, torch.tensor(float("-inf"), dtype=scores.dtype))
    attn = torch.nn.functional.softmax(scores, dim=-1)
    x = torch.matmul(attn, v_).transpose(-2, -3).contiguous().view(*q.shape[:-1], -1)
    x = torch.matmul(x, module.w_o)
    if module.b_o is not None:
        x = x + module.b_o
    return x, attn


@wrong("module_forward", "linear_layout")
def forward_like_nn_linear(module, q, k, v, mask=None):
    return _forward(module, q, k, v, mask, layout=lambda w: w.T)


@wrong("module_forward", "no_scaling")
def forward_unscaled(module, q, k, v, mask=None):
    return _forward(module, q, k, v, mask, scale=False)


@wrong("module_forward", "mask_polarity")
def forward_torch_polarity(module, q, k, v, mask=None):
    return _forward(module, q, k, v, mask, flip=False)


@wrong("module_forward", "reshape_without_transpose")
def forward_view_only(module, q, k, v, mask=None):
    return _forward(module, q, k, v, mask, transpose=False)


@wrong("module_forward", "no_output_projection")
def forward_without_w_o(module, q, k, v, mask=None):
    return _forward(module, q, k, v, mask, w_o=False)


@wrong("module_forward", "biases_ignored")
def forward_without_biases(module, q, k, v, mask=None):
    return _forward(module, q, k, v, mask, bias=False)


# --- params_from_torch --------------------------------------------------------------------


@correct("params_from_torch")
def params_from_state_dict(torch_mha):
    state = {name: t.detach().numpy() for name, t in torch_mha.state_dict().items()}
    d = torch_mha.embed_dim
    w = state["in_proj_weight"]
    biases = {}
    if "in_proj_bias" in state:
        b = state["in_proj_bias"]
        biases = dict(b_q=b[:d], b_k=b[d : 2 * d], b_v=b[2 * d :], b_o=state["out_proj.bias"])
    return mha.MHAParams(w[:d].T, w[d : 2 * d].T, w[2 * d :].T, state["out_proj.weight"].T,
                         torch_mha.num_heads, **biases)  # fmt: skip


@correct("params_from_torch")
def params_from_chunks(torch_mha):
    with torch.no_grad():
        w_q, w_k, w_v = torch_mha.in_proj_weight.chunk(3, dim=0)
        params = dict(w_q=w_q.T.numpy(), w_k=w_k.T.numpy(), w_v=w_v.T.numpy(),
                      w_o=torch_mha.out_proj.weight.T.numpy(), num_heads=torch_mha.num_heads)  # fmt: skip
        if torch_mha.in_proj_bias is not None:
            b_q, b_k, b_v = torch_mha.in_proj_bias.chunk(3)
            params.update(
                b_q=b_q.numpy(),
                b_k=b_k.numpy(),
                b_v=b_v.numpy(),
                b_o=torch_mha.out_proj.bias.numpy(),
            )
    return mha.MHAParams(**params)


def _params(
    torch_mha, *, transpose_in=True, transpose_out=True, dim=0, order=(0, 1, 2), biases=True
):
    with torch.no_grad():
        blocks = torch_mha.in_proj_weight.chunk(3, dim=dim)
        blocks = [(blocks[i].T if transpose_in else blocks[i]).numpy() for i in order]
        w_o = torch_mha.out_proj.weight
        w_o = (w_o.T if transpose_out else w_o).numpy()
        extra = {}
        if biases and torch_mha.in_proj_bias is not None:
            b_q, b_k, b_v = (b.numpy() for b in torch_mha.in_proj_bias.chunk(3))
            extra = dict(b_q=b_q, b_k=b_k, b_v=b_v, b_o=torch_mha.out_proj.bias.numpy())
    return mha.MHAParams(*blocks, w_o, torch_mha.num_heads, **extra)


@wrong("params_from_torch", "no_transpose")
def params_copied_as_they_are(torch_mha):
    return _params(torch_mha, transpose_in=False, transpose_out=False)


@wrong("params_from_torch", "out_proj_not_transposed")
def params_out_proj_as_is(torch_mha):
    return _params(torch_mha, transpose_out=False)


@wrong("params_from_torch", "in_proj_not_transposed")
def params_in_proj_as_is(torch_mha):
    return _params(torch_mha, transpose_in=False)


@wrong("params_from_torch", "split_columns")
def params_chunked_by_columns(torch_mha):
    return _params(torch_mha, dim=1)


@wrong("params_from_torch", "order")
def params_k_q_v(torch_mha):
    return _params(torch_mha, order=(1, 0, 2))


@wrong("params_from_torch", "biases_dropped")
def params_weights_only(torch_mha):
    return _params(torch_mha, biases=False)


# --- attention_backward -------------------------------------------------------------------


def _weights(q, k):
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


@correct("attention_backward")
def backward_einsum(q, k, v, grad_out):
    p = _weights(q, k)
    d_v = np.einsum("...qk,...qd->...kd", p, grad_out)
    d_p = np.einsum("...qd,...kd->...qk", grad_out, v)
    d_s = p * (d_p - (d_p * p).sum(-1, keepdims=True)) / math.sqrt(q.shape[-1])
    return np.einsum("...qk,...kd->...qd", d_s, k), np.einsum("...qk,...qd->...kd", d_s, q), d_v


@correct("attention_backward")
def backward_jacobian_per_row(q, k, v, grad_out):
    p = _weights(q, k)
    d_p = grad_out @ np.swapaxes(v, -1, -2)
    d_s = np.empty_like(p)
    for index in np.ndindex(p.shape[:-1]):
        row = p[index]
        jacobian = np.diag(row) - np.outer(row, row)
        d_s[index] = jacobian @ d_p[index]
    d_s = d_s / math.sqrt(q.shape[-1])
    return d_s @ k, np.swapaxes(d_s, -1, -2) @ q, np.swapaxes(p, -1, -2) @ grad_out


def _backward(q, k, v, grad_out, *, coupled=True, axis=-1, scaled=True, dv_t=True, dk_t=True):
    p = _weights(q, k)
    d_v = (np.swapaxes(p, -1, -2) if dv_t else p) @ grad_out
    d_p = grad_out @ np.swapaxes(v, -1, -2)
    d_s = p * (d_p - (d_p * p).sum(axis, keepdims=True)) if coupled else p * d_p
    if scaled:
        d_s = d_s / np.sqrt(q.shape[-1]).astype(q.dtype)
    return d_s @ k, (np.swapaxes(d_s, -1, -2) if dk_t else d_s) @ q, d_v


@wrong("attention_backward", "softmax_jacobian_diagonal")
def backward_elementwise_softmax(q, k, v, grad_out):
    return _backward(q, k, v, grad_out, coupled=False)


@wrong("attention_backward", "jacobian_wrong_axis")
def backward_sum_over_queries(q, k, v, grad_out):
    return _backward(q, k, v, grad_out, axis=-2)


@wrong("attention_backward", "scale_forgotten")
def backward_no_scale(q, k, v, grad_out):
    return _backward(q, k, v, grad_out, scaled=False)


@wrong("attention_backward", "grad_v_not_transposed")
def backward_dv_untransposed(q, k, v, grad_out):
    return _backward(q, k, v, grad_out, dv_t=False)


@wrong("attention_backward", "grad_k_not_transposed")
def backward_dk_untransposed(q, k, v, grad_out):
    return _backward(q, k, v, grad_out, dk_t=False)


# --- torch_key_padding_mask ---------------------------------------------------------------


@correct("torch_key_padding_mask")
def key_padding_squeeze(mask):
    return mask.squeeze(1).squeeze(1).logical_not()


@correct("torch_key_padding_mask")
def key_padding_reshape(mask):
    return (mask == 0).reshape(mask.shape[0], -1)


@wrong("torch_key_padding_mask", "not_flipped")
def key_padding_same_polarity(mask):
    return mask[:, 0, 0, :]


@wrong("torch_key_padding_mask", "singleton_axes_kept")
def key_padding_flip_only(mask):
    return ~mask


@wrong("torch_key_padding_mask", "additive")
def key_padding_float(mask):
    pad = ~mask[:, 0, 0]
    return torch.zeros(pad.shape).masked_fill(pad, float("-inf"))
