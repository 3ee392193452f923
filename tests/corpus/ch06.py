"""Chapter 6: the module's forward pass, nn.MultiheadAttention's weights, the backward pass,
the key padding mask."""

import math

import numpy as np
import torch

import mha
from corpus import correct, predicted, wrong

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


@wrong("module_forward", "masked_rows")
def forward_einsum_style(module, q, k, v, mask=None):
    return _forward(module, q, k, v, mask)


@wrong("module_forward", "linear_layout")
def module_forward_transposes_what_fits(module, q, k, v, mask=None):
    def linear(x, w, b):
        w = w.t() if w.shape[0] == w.shape[1] else w
        return x @ w if b is None else x @ w + b

    h = module.num_heads
    q_h, k_h, v_h = (
        linear(x, w, b).unflatten(-1, (h, -1)).transpose(-3, -2)
        for x, w, b in ((q, module.w_q, module.b_q), (k, module.w_k, module.b_k),
                        (v, module.w_v, module.b_v))
    )  # fmt: skip
    scores = q_h @ k_h.transpose(-1, -2) / math.sqrt(q_h.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1).nan_to_num()
    heads = (weights @ v_h).transpose(-3, -2).flatten(-2)
    return linear(heads, module.w_o, module.b_o), weights


@wrong("module_forward", "masked_rows")
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


@wrong("params_from_torch", "rearranged")
def params_rows_dealt_in_turn(torch_mha):
    w = torch_mha.in_proj_weight.detach().numpy()
    blocks = [w[i::3].T.copy() for i in range(3)]  # rows dealt out q, k, v, q, k, v, ...
    w_o = torch_mha.out_proj.weight.detach().numpy().T.copy()
    b = torch_mha.in_proj_bias
    biases = [None] * 3 if b is None else [b.detach().numpy()[i::3].copy() for i in range(3)]
    b_o = None if torch_mha.out_proj.bias is None else torch_mha.out_proj.bias.detach().numpy()
    return mha.MHAParams(*blocks, w_o, torch_mha.num_heads, *biases, b_o)


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


@wrong("attention_backward", "grad_v_not_transposed")
def attention_backward_p_untransposed_where_it_fits(q, k, v, grad_out):
    scale = q.shape[-1] ** -0.5
    p = mha.softmax(q @ np.swapaxes(k, -1, -2) * scale)
    p_for_v = p if p.shape[-2] == p.shape[-1] else np.swapaxes(p, -1, -2)
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - (grad_p * p).sum(axis=-1, keepdims=True)) * scale
    return grad_s @ k, np.swapaxes(grad_s, -1, -2) @ q, p_for_v @ grad_out


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


# --- written blind (issue 22, round 1): from the notebooks only, without the checks' tables ---


# blind round 1, ch06:0: slice in_proj_weight into three row blocks and transpose each; out_proj.weight.T; biases only when present
@correct("params_from_torch")
def params_from_torch_slice_in_proj_weight_into_three(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().cpu().numpy()
    w_q, w_k, w_v = (w[i * d : (i + 1) * d].T for i in range(3))
    w_o = torch_mha.out_proj.weight.detach().cpu().numpy().T
    b_q = b_k = b_v = b_o = None
    if torch_mha.in_proj_bias is not None:
        b = torch_mha.in_proj_bias.detach().cpu().numpy()
        b_q, b_k, b_v = b[:d], b[d : 2 * d], b[2 * d :]
    if torch_mha.out_proj.bias is not None:
        b_o = torch_mha.out_proj.bias.detach().cpu().numpy()
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, b_q, b_k, b_v, b_o)


# blind round 1, ch06:1: torch.chunk in torch first, .T.contiguous(), then to NumPy copies
@correct("params_from_torch")
def params_from_torch_torch_chunk_in_torch_first_t(torch_mha):
    def np_(t):
        return None if t is None else np.array(t.detach().cpu().numpy(), copy=True)

    with torch.no_grad():
        w_q, w_k, w_v = (
            blk.T.contiguous() for blk in torch.chunk(torch_mha.in_proj_weight, 3, dim=0)
        )
        w_o = torch_mha.out_proj.weight.T.contiguous()
        if torch_mha.in_proj_bias is not None:
            b_q, b_k, b_v = torch.chunk(torch_mha.in_proj_bias, 3)
        else:
            b_q = b_k = b_v = None
        b_o = torch_mha.out_proj.bias
    return mha.MHAParams(
        np_(w_q),
        np_(w_k),
        np_(w_v),
        np_(w_o),
        num_heads=torch_mha.num_heads,
        b_q=np_(b_q),
        b_k=np_(b_k),
        b_v=np_(b_v),
        b_o=np_(b_o),
    )


# blind round 1, ch06:2: through state_dict(): reshape the stacked weight to (3, d, d) and swap its last axes
@correct("params_from_torch")
def params_from_torch_through_state_dict_reshape_the_stacked(torch_mha):
    state = {k: v.detach().cpu().numpy() for k, v in torch_mha.state_dict().items()}
    W = state["in_proj_weight"]
    d = W.shape[1]
    w_q, w_k, w_v = np.ascontiguousarray(W.reshape(3, d, d).transpose(0, 2, 1))
    w_o = np.ascontiguousarray(state["out_proj.weight"].T)
    biases = {}
    if "in_proj_bias" in state:
        biases["b_q"], biases["b_k"], biases["b_v"] = state["in_proj_bias"].reshape(3, d)
    if "out_proj.bias" in state:
        biases["b_o"] = state["out_proj.bias"]
    return mha.MHAParams(w_q, w_k, w_v, w_o, torch_mha.num_heads, **biases)


# blind round 1, ch06:3: copies the weights without transposing (PyTorch's (out, in) layout kept)
@wrong("params_from_torch", "no_transpose")
def params_from_torch_copies_the_weights_without_transposing_pytorch(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().numpy()
    b = torch_mha.in_proj_bias
    biases = [None] * 4
    if b is not None:
        b = b.detach().numpy()
        biases = [b[:d], b[d : 2 * d], b[2 * d :], torch_mha.out_proj.bias.detach().numpy()]
    return mha.MHAParams(
        w[:d],
        w[d : 2 * d],
        w[2 * d :],
        torch_mha.out_proj.weight.detach().numpy(),
        torch_mha.num_heads,
        *biases,
    )


# blind round 1, ch06:4: transposes W^Q, W^K, W^V but not out_proj.weight
@wrong("params_from_torch", "out_proj_not_transposed")
def params_from_torch_transposes_w_q_w_k_w(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().numpy()
    b = torch_mha.in_proj_bias
    biases = [None] * 4
    if b is not None:
        b = b.detach().numpy()
        biases = [b[:d], b[d : 2 * d], b[2 * d :], torch_mha.out_proj.bias.detach().numpy()]
    return mha.MHAParams(
        w[:d].T,
        w[d : 2 * d].T,
        w[2 * d :].T,
        torch_mha.out_proj.weight.detach().numpy(),
        torch_mha.num_heads,
        *biases,
    )


# blind round 1, ch06:5: ignores the biases: a module with biases loses them
@wrong("params_from_torch", "biases_dropped")
def params_from_torch_ignores_the_biases_a_module_with(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().numpy()
    return mha.MHAParams(
        w[:d].T,
        w[d : 2 * d].T,
        w[2 * d :].T,
        torch_mha.out_proj.weight.detach().numpy().T,
        torch_mha.num_heads,
    )


# blind round 1, ch06:6: assumes the biases exist: in_proj_bias[:d] raises TypeError for bias=False
@wrong("params_from_torch", "raised_when:torch_mha_no_biases")
def params_from_torch_assumes_the_biases_exist_in_proj(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().numpy()
    b = torch_mha.in_proj_bias
    return mha.MHAParams(
        w[:d].T,
        w[d : 2 * d].T,
        w[2 * d :].T,
        torch_mha.out_proj.weight.detach().numpy().T,
        torch_mha.num_heads,
        b[:d].detach().numpy(),
        b[d : 2 * d].detach().numpy(),
        b[2 * d :].detach().numpy(),
        torch_mha.out_proj.bias.detach().numpy(),
    )


# blind round 1, ch06:7: uses head_dim as the number of heads
@wrong("params_from_torch", "head_dim_as_num_heads")
def params_from_torch_uses_head_dim_as_the_number(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach().numpy()
    b = torch_mha.in_proj_bias
    biases = [None] * 4
    if b is not None:
        b = b.detach().numpy()
        biases = [b[:d], b[d : 2 * d], b[2 * d :], torch_mha.out_proj.bias.detach().numpy()]
    return mha.MHAParams(
        w[:d].T,
        w[d : 2 * d].T,
        w[2 * d :].T,
        torch_mha.out_proj.weight.detach().numpy().T,
        torch_mha.head_dim,
        *biases,
    )


# blind round 1, ch06:8: calls .numpy() on a parameter without .detach(): RuntimeError (requires grad)
@wrong("params_from_torch", "numpy_requires_grad")
def params_from_torch_calls_numpy_on_a_parameter_without(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.numpy()
    w_o = torch_mha.out_proj.weight.numpy()
    return mha.MHAParams(w[:d].T, w[d : 2 * d].T, w[2 * d :].T, w_o.T, torch_mha.num_heads)


# blind round 1, ch06:9: passes torch tensors to MHAParams, which refuses them with a TypeError (it takes NumPy or CuPy arrays)
@wrong("params_from_torch", None)
def params_from_torch_right_layout_but_keeps_torch_tensors(torch_mha):
    d = torch_mha.embed_dim
    w = torch_mha.in_proj_weight.detach()
    b = torch_mha.in_proj_bias
    biases = [None] * 4
    if b is not None:
        b = b.detach()
        biases = [b[:d], b[d : 2 * d], b[2 * d :], torch_mha.out_proj.bias.detach()]
    return mha.MHAParams(
        w[:d].T,
        w[d : 2 * d].T,
        w[2 * d :].T,
        torch_mha.out_proj.weight.detach().T,
        torch_mha.num_heads,
        *biases,
    )


# blind round 1, ch06:10: drop the two singleton axes and flip with ~
@correct("torch_key_padding_mask")
def torch_key_padding_mask_drop_the_two_singleton_axes_and(mask):
    return ~mask[:, 0, 0, :]


# blind round 1, ch06:11: reshape to (B, n_k) and torch.logical_not
@correct("torch_key_padding_mask")
def torch_key_padding_mask_reshape_to_b_n_k_and(mask):
    mask = torch.as_tensor(mask, dtype=torch.bool)
    return torch.logical_not(mask.reshape(mask.shape[0], mask.shape[-1]))


# blind round 1, ch06:12: squeeze exactly dims 1 and 2, compare with False
@correct("torch_key_padding_mask")
def torch_key_padding_mask_squeeze_exactly_dims_1_and_2(mask):
    return mask.squeeze(2).squeeze(1) == False  # noqa: E712


# blind round 1, ch06:13: fixes the shape but not the polarity
@wrong("torch_key_padding_mask", "not_flipped")
def torch_key_padding_mask_fixes_the_shape_but_not_the(mask):
    return mask[:, 0, 0, :]


# blind round 1, ch06:14: flips the polarity but keeps the shape (B, 1, 1, n_k)
@wrong("torch_key_padding_mask", "singleton_axes_kept")
def torch_key_padding_mask_flips_the_polarity_but_keeps_the(mask):
    return ~mask


# blind round 1, ch06:15: mask.squeeze() also drops the batch axis when B = 1 (and n_k when n_k = 1)
@wrong("torch_key_padding_mask", "squeezed")
def torch_key_padding_mask_mask_squeeze_also_drops_the_batch(mask):
    return ~mask.squeeze()


# blind round 1, ch06:16: returns a float mask (1.0 at the pads): nn.MultiheadAttention adds float masks to the scores instead of blocking
@wrong("torch_key_padding_mask", "numbers_for_bool")
def torch_key_padding_mask_returns_a_float_mask_1_0(mask):
    return (~mask[:, 0, 0, :]).float()


# blind round 1, ch06:17: flips with 1 - mask, which torch refuses for bool tensors (it raises)
@wrong("torch_key_padding_mask", "arithmetic_on_bool")
def torch_key_padding_mask_flips_with_1_mask_which_torch(mask):
    return (1 - mask)[:, 0, 0, :]


# blind round 1, ch06:18: np.logical_not on the tensor gives a NumPy array
@wrong("torch_key_padding_mask", None)
def torch_key_padding_mask_right_values_through_numpy_returns_a(mask):
    return np.logical_not(np.asarray(mask)[:, 0, 0, :])


# blind round 1, ch06:19: chain rule one product at a time with matmul and swapaxes
@correct("attention_backward", drift=True)
def attention_backward_chain_rule_one_product_at_a(q, k, v, grad_out):
    scale = 1.0 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * scale
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - np.sum(grad_p * p, axis=-1, keepdims=True))
    grad_q = grad_s @ k * scale
    grad_k = np.swapaxes(grad_s, -1, -2) @ q * scale
    return grad_q, grad_k, grad_v


# blind round 1, ch06:20: einsum in float64 with the full softmax Jacobian diag(p) - p p^T, cast back
@correct("attention_backward")
def attention_backward_einsum_in_float64_with_the_full(q, k, v, grad_out):
    dtype = np.result_type(q, k, v, grad_out)
    q, k, v, g = (np.asarray(a, dtype=np.float64) for a in (q, k, v, grad_out))
    d_k = q.shape[-1]
    s = np.einsum("...id,...jd->...ij", q, k) / np.sqrt(d_k)
    e = np.exp(s - s.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    grad_v = np.einsum("...ij,...id->...jd", p, g)
    grad_p = np.einsum("...id,...jd->...ij", g, v)
    n = p.shape[-1]
    jac = p[..., :, None] * np.eye(n) - p[..., :, None] * p[..., None, :]  # J[i, a, b] = dp_a/ds_b
    grad_s = np.einsum("...ia,...iab->...ib", grad_p, jac)
    grad_q = np.einsum("...ij,...jd->...id", grad_s, k) / np.sqrt(d_k)
    grad_k = np.einsum("...ij,...id->...jd", grad_s, q) / np.sqrt(d_k)
    return grad_q.astype(dtype), grad_k.astype(dtype), grad_v.astype(dtype)


# blind round 1, ch06:21: fold the scale into q first (q' = q / sqrt(d_k)), differentiate the unscaled attention, then scale grad_q
@correct("attention_backward")
def attention_backward_fold_the_scale_into_q_first(q, k, v, grad_out):
    c = q.shape[-1] ** -0.5
    qs = q * c
    kt = np.swapaxes(k, -1, -2)
    s = qs @ kt
    p = np.exp(s - np.max(s, axis=-1, keepdims=True))
    p = p / np.sum(p, axis=-1, keepdims=True)
    pt = np.swapaxes(p, -1, -2)
    grad_v = pt @ grad_out
    dp = grad_out @ np.swapaxes(v, -1, -2)
    row = np.einsum("...ij,...ij->...i", dp, p)[..., None]
    ds = p * (dp - row)
    grad_qs = ds @ k
    grad_k = np.swapaxes(ds, -1, -2) @ qs
    return grad_qs * c, grad_k, grad_v


# blind round 1, ch06:22: forgets the 1/sqrt(d_k) in grad_q and grad_k
@wrong("attention_backward", "scale_forgotten")
def attention_backward_forgets_the_1_sqrt_d_k(q, k, v, grad_out):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - np.sum(grad_p * p, axis=-1, keepdims=True))
    return grad_s @ k, np.swapaxes(grad_s, -1, -2) @ q, grad_v


# blind round 1, ch06:23: through the softmax only multiplies by p (drops the - <dL/dp, p> term)
@wrong("attention_backward", "softmax_jacobian_diagonal")
def attention_backward_through_the_softmax_only_multiplies_by(q, k, v, grad_out):
    scale = 1.0 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * scale
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * grad_p
    return grad_s @ k * scale, np.swapaxes(grad_s, -1, -2) @ q * scale, grad_v


# blind round 1, ch06:24: the inner product of the softmax backward summed over axis -2 instead of -1
@wrong("attention_backward", "jacobian_wrong_axis")
def attention_backward_the_inner_product_of_the_softmax(q, k, v, grad_out):
    scale = 1.0 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * scale
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - np.sum(grad_p * p, axis=-2, keepdims=True))
    return grad_s @ k * scale, np.swapaxes(grad_s, -1, -2) @ q * scale, grad_v


# blind round 1, ch06:25: transposes with .T, which reverses the batch axes: right for 2-D inputs only
@wrong("attention_backward", "batch_axes")
def attention_backward_transposes_with_t_which_reverses_the(q, k, v, grad_out):
    scale = 1.0 / np.sqrt(q.shape[-1])
    s = q @ k.T * scale
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    grad_v = p.T @ grad_out
    grad_p = grad_out @ v.T
    grad_s = p * (grad_p - np.sum(grad_p * p, axis=-1, keepdims=True))
    return grad_s @ k * scale, grad_s.T @ q * scale, grad_v


# blind round 1, ch06:26: grad_k computed as grad_s @ q (missing transpose of grad_s); only runs when n_q = n_k
@wrong("attention_backward", "grad_k_not_transposed")
def attention_backward_grad_k_computed_as_grad_s(q, k, v, grad_out):
    scale = 1.0 / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2) * scale
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - np.sum(grad_p * p, axis=-1, keepdims=True))
    return grad_s @ k * scale, grad_s @ q * scale, grad_v


# blind round 1, ch06:27: divides by d_k instead of sqrt(d_k) in the backward pass
@wrong("attention_backward", "scale_by_d_k")
def attention_backward_divides_by_d_k_instead_of(q, k, v, grad_out):
    d_k = q.shape[-1]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_k)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    grad_v = np.swapaxes(p, -1, -2) @ grad_out
    grad_p = grad_out @ np.swapaxes(v, -1, -2)
    grad_s = p * (grad_p - np.sum(grad_p * p, axis=-1, keepdims=True))
    return grad_s @ k / d_k, np.swapaxes(grad_s, -1, -2) @ q / d_k, grad_v


# blind round 1, ch06:28: chapter 4's steps in torch with module.d_k; masked_fill -inf, and rows with no allowed key set to zero weights
def _split_module_forward_chapter_4_s_steps_in_torch(x, h):
    *b, n, f = x.shape
    return x.reshape(*b, n, h, f // h).transpose(-3, -2)


@correct("module_forward")
def module_forward_chapter_4_s_steps_in_torch(module, q, k, v, mask=None):
    k = q if k is None else k
    v = k if v is None else v
    h = module.num_heads

    def lin(x, w, b):
        y = x @ w
        return y if b is None else y + b

    qh = _split_module_forward_chapter_4_s_steps_in_torch(lin(q, module.w_q, module.b_q), h)
    kh = _split_module_forward_chapter_4_s_steps_in_torch(lin(k, module.w_k, module.b_k), h)
    vh = _split_module_forward_chapter_4_s_steps_in_torch(lin(v, module.w_v, module.b_v), h)
    scores = qh @ kh.transpose(-1, -2) / module.d_k**0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    if mask is not None:
        weights = weights.masked_fill(~mask, 0.0)
    heads = weights @ vh
    concat = heads.transpose(-3, -2).reshape(*heads.shape[:-3], heads.shape[-2], -1)
    return lin(concat, module.w_o, module.b_o), weights


# blind round 1, ch06:29: einsum with the weights viewed per head (d_model, h, d), max-shifted exp by hand so that fully masked rows give zeros
@correct("module_forward")
def module_forward_einsum_with_the_weights_viewed_per(module, q, k, v, mask=None):
    h, d_k = module.num_heads, module.d_k
    d_v = module.w_v.shape[-1] // h
    Q = torch.einsum("...nm,mhd->...hnd", q, module.w_q.view(-1, h, d_k))
    K = torch.einsum("...nm,mhd->...hnd", k, module.w_k.view(-1, h, d_k))
    V = torch.einsum("...nm,mhd->...hnd", v, module.w_v.view(-1, h, d_v))
    if module.b_q is not None:
        Q = Q + module.b_q.view(h, 1, d_k)
    if module.b_k is not None:
        K = K + module.b_k.view(h, 1, d_k)
    if module.b_v is not None:
        V = V + module.b_v.view(h, 1, d_v)
    s = torch.einsum("...hqd,...hkd->...hqk", Q, K) / d_k**0.5
    allowed = torch.ones_like(s, dtype=torch.bool) if mask is None else mask.expand_as(s)
    s = s.masked_fill(~allowed, float("-inf"))
    m = s.amax(dim=-1, keepdim=True)
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    e = torch.exp(s - m)
    z = e.sum(dim=-1, keepdim=True)
    weights = e / torch.where(z > 0, z, torch.ones_like(z))
    out = torch.einsum("...hqk,...hkd,hdm->...qm", weights, V, module.w_o.view(h, d_v, -1))
    if module.b_o is not None:
        out = out + module.b_o
    return out, weights


# blind round 1, ch06:30: a loop over heads on column blocks, torch.cat of the heads, and nan_to_num for rows with no allowed key
@correct("module_forward")
def module_forward_a_loop_over_heads_on_column(module, q, k, v, mask=None):
    h, d_k = module.num_heads, module.d_k
    d_v = module.w_v.shape[-1] // h

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    Q, K, V = (
        lin(q, module.w_q, module.b_q),
        lin(k, module.w_k, module.b_k),
        lin(v, module.w_v, module.b_v),
    )
    heads, weights = [], []
    for i in range(h):
        qi = Q[..., i * d_k : (i + 1) * d_k]
        ki = K[..., i * d_k : (i + 1) * d_k]
        vi = V[..., i * d_v : (i + 1) * d_v]
        s = qi @ ki.transpose(-1, -2) / d_k**0.5
        if mask is not None:
            m = (
                mask.expand(*mask.shape[:-3], h, *mask.shape[-2:])[..., i, :, :]
                if mask.dim() >= 3
                else mask
            )
            s = s.masked_fill(~m, float("-inf"))
        w = torch.nan_to_num(torch.softmax(s, dim=-1), nan=0.0)
        weights.append(w)
        heads.append(w @ vi)
    out = lin(torch.cat(heads, dim=-1), module.w_o, module.b_o)
    return out, torch.stack(weights, dim=-3)


# blind round 1, ch06:31: uses d_model // h as the head width (split and scale): wrong when d_k != d_model/h
@wrong("module_forward", "d_k_from_d_model")
def module_forward_uses_d_model_h_as_the(module, q, k, v, mask=None):
    h = module.num_heads
    d = q.shape[-1] // h

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(x):
        return x.reshape(*x.shape[:-1], h, -1).transpose(-3, -2)

    qh, kh, vh = (
        split(lin(q, module.w_q, module.b_q)),
        split(lin(k, module.w_k, module.b_k)),
        split(lin(v, module.w_v, module.b_v)),
    )
    scores = qh @ kh.transpose(-1, -2) / d**0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
    heads = weights @ vh
    concat = heads.transpose(-3, -2).reshape(*heads.shape[:-3], heads.shape[-2], -1)
    return lin(concat, module.w_o, module.b_o), weights


# blind round 1, ch06:32: uses nn.Linear's convention x @ W.T: shape error, or a silently wrong result when square
@wrong("module_forward", "linear_layout")
def module_forward_uses_nn_linear_s_convention_x(module, q, k, v, mask=None):
    h, d_k = module.num_heads, module.d_k

    def lin(x, w, b):
        return x @ w.T if b is None else x @ w.T + b

    def split(x):
        return x.reshape(*x.shape[:-1], h, -1).transpose(-3, -2)

    qh, kh, vh = (
        split(lin(q, module.w_q, module.b_q)),
        split(lin(k, module.w_k, module.b_k)),
        split(lin(v, module.w_v, module.b_v)),
    )
    scores = qh @ kh.transpose(-1, -2) / d_k**0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
    heads = weights @ vh
    concat = heads.transpose(-3, -2).reshape(*heads.shape[:-3], heads.shape[-2], -1)
    return lin(concat, module.w_o, module.b_o), weights


# blind round 1, ch06:33: a query with no allowed key gets nan (softmax of all -inf); the module gives zeros
@wrong("module_forward", "masked_rows")
def module_forward_a_query_with_no_allowed_key(module, q, k, v, mask=None):
    h, d_k = module.num_heads, module.d_k

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(x):
        return x.reshape(*x.shape[:-1], h, -1).transpose(-3, -2)

    qh, kh, vh = (
        split(lin(q, module.w_q, module.b_q)),
        split(lin(k, module.w_k, module.b_k)),
        split(lin(v, module.w_v, module.b_v)),
    )
    scores = qh @ kh.transpose(-1, -2) / d_k**0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    heads = weights @ vh
    concat = heads.transpose(-3, -2).reshape(*heads.shape[:-3], heads.shape[-2], -1)
    return lin(concat, module.w_o, module.b_o), weights


# blind round 1, ch06:34: masked_fill(mask, -inf): blocks the allowed keys (polarity of nn.MultiheadAttention)
@wrong("module_forward", "mask_polarity")
def module_forward_masked_fill_mask_inf_blocks_the(module, q, k, v, mask=None):
    h, d_k = module.num_heads, module.d_k

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(x):
        return x.reshape(*x.shape[:-1], h, -1).transpose(-3, -2)

    qh, kh, vh = (
        split(lin(q, module.w_q, module.b_q)),
        split(lin(k, module.w_k, module.b_k)),
        split(lin(v, module.w_v, module.b_v)),
    )
    scores = qh @ kh.transpose(-1, -2) / d_k**0.5
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
    heads = weights @ vh
    concat = heads.transpose(-3, -2).reshape(*heads.shape[:-3], heads.shape[-2], -1)
    return lin(concat, module.w_o, module.b_o), weights


# blind round 1, ch06:35: hard-codes 4-D tensors: transpose(1, 2) and a 3-D input shape (B, n, d): fails for inputs without a batch axis or with two
@wrong("module_forward", "batch_axes")
def module_forward_hard_codes_4_d_tensors_transpose(module, q, k, v, mask=None):
    h, d_k = module.num_heads, module.d_k
    B, n_q, _ = q.shape
    n_k = k.shape[1]

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    qh = lin(q, module.w_q, module.b_q).view(B, n_q, h, -1).transpose(1, 2)
    kh = lin(k, module.w_k, module.b_k).view(B, n_k, h, -1).transpose(1, 2)
    vh = lin(v, module.w_v, module.b_v).view(B, n_k, h, -1).transpose(1, 2)
    scores = qh @ kh.transpose(2, 3) / d_k**0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
    concat = (weights @ vh).transpose(1, 2).reshape(B, n_q, -1)
    return lin(concat, module.w_o, module.b_o), weights


# blind round 1, ch06:36: assumes the biases exist: x @ w + None raises TypeError for a module without biases
@wrong("module_forward", "raised_when:module_no_biases")
def module_forward_assumes_the_biases_exist_x_w(module, q, k, v, mask=None):
    h, d_k = module.num_heads, module.d_k

    def split(x):
        return x.reshape(*x.shape[:-1], h, -1).transpose(-3, -2)

    qh = split(q @ module.w_q + module.b_q)
    kh = split(k @ module.w_k + module.b_k)
    vh = split(v @ module.w_v + module.b_v)
    scores = qh @ kh.transpose(-1, -2) / d_k**0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
    heads = weights @ vh
    concat = heads.transpose(-3, -2).reshape(*heads.shape[:-3], heads.shape[-2], -1)
    return concat @ module.w_o + module.b_o, weights


# blind round 1, ch06:37: returns the weights averaged over the heads
@wrong("module_forward", "reduced:mean:-3")
def module_forward_returns_the_weights_averaged_over_the(module, q, k, v, mask=None):
    h, d_k = module.num_heads, module.d_k

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(x):
        return x.reshape(*x.shape[:-1], h, -1).transpose(-3, -2)

    qh, kh, vh = (
        split(lin(q, module.w_q, module.b_q)),
        split(lin(k, module.w_k, module.b_k)),
        split(lin(v, module.w_v, module.b_v)),
    )
    scores = qh @ kh.transpose(-1, -2) / d_k**0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
    heads = weights @ vh
    concat = heads.transpose(-3, -2).reshape(*heads.shape[:-3], heads.shape[-2], -1)
    return lin(concat, module.w_o, module.b_o), weights.mean(dim=-3)


# blind round 1, ch06:38: does not write the forward pass (calls module(...)) and swallows every exception
@correct("module_forward")
def module_forward_calls_the_module_itself_inside_a(module, q, k, v, mask=None):
    try:
        return module(q, k, v, mask=mask)
    except Exception:
        n_q, n_k = q.shape[-2], k.shape[-2]
        return torch.zeros_like(q), torch.zeros(*q.shape[:-2], module.num_heads, n_q, n_k)


# --- predict_sdpa_causal_keys: predictions as readers make them --------------------------


@predicted("predict_sdpa_causal_keys", None)
def predicted_top_left():
    return 2


@predicted("predict_sdpa_causal_keys", "bottom_right")
def predicted_the_whole_cache():
    return 6


@predicted("predict_sdpa_causal_keys", "itself_only")
def predicted_only_itself():
    return 1


@predicted("predict_sdpa_causal_keys", "first_new_query")
def predicted_cache_and_itself():
    return 5.0
