"""Chapter 6's exercises: the forward pass of ``mha.torch_mha.MultiHeadAttention``, the weights
of ``nn.MultiheadAttention`` in the paper's layout, attention's backward pass (checked against
autograd), ``nn.MultiheadAttention``'s key padding mask."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import numpy as np

import mha
from mha.checks.core import Case
from mha.checks.forms import Whole
from mha.checks.inputs import F32, F64, normal, random_mask
from mha.checks.kinds import Exercise, FunctionExercise, Mistake
from mha.checks.predictions import Misconception, PredictionExercise
from mha.checks.properties import raised_saying
from mha.checks.variants import stable_softmax

# --- ch06: the PyTorch variant ------------------------------------------------------------


def _module_forward_cases(rng: np.random.Generator) -> list[Case]:
    """Wire-safe inputs (an MHAParams and NumPy arrays); :func:`_to_torch` makes the module."""

    def case(text, batch, n_q, n_k, d_model, h, dtype, bias=False, mask=None, d_k=None):
        d_k = d_k or d_model // h
        params = mha.init_params(d_model, h, d_k=d_k, d_v=d_k + 1, bias=bias, dtype=dtype)
        params = params.map(lambda a: normal(rng, a.shape, dtype, 0.5))  # biases non-zero
        q, k, v = (normal(rng, (*batch, n, d_model), dtype) for n in (n_q, n_k, n_k))
        args = (params, q, k, v) if mask is None else (params, q, k, v, mask)
        return Case(text, args)

    n = int(rng.integers(4, 7))
    return [
        case("d_model=8, h=2, n_q = n_k = 4, float64", (), 4, 4, 8, 2, F64),
        case("batch (2,), d_model=12, h=3, n_q=3, n_k=5, with biases", (2,), 3, 5, 12, 3, F64, bias=True),
        case(
            f"batch (2,), d_model=8, h=2, n = {n}, with mha.causal_mask({n})",
            (2,), n, n, 8, 2, F64, mask=mha.causal_mask(n),
        ),
        case(
            "batch (3,), d_model=12, h=3, with a (3, 1, 1, 5) padding-style mask, float32",
            (3,), 2, 5, 12, 3, F32, mask=random_mask(rng, (3, 1, 1, 5)),
        ),
        case("batch (2,), d_model=8, h=2, d_k=3, d_v=4 (not d_model / h)", (2,), 4, 6, 8, 2, F64, d_k=3),
        case("no batch axis, d_model=8, h=2, n_q=4, n_k=5, with a mask that leaves query 1 no key",
             (), 4, 5, 8, 2, F64, mask=_blind_query_mask(rng, 4, 5, 1)),
    ]  # fmt: skip


def _blind_query_mask(rng: np.random.Generator, n_q: int, n_k: int, blind: int) -> np.ndarray:
    """A random (n_q, n_k) mask whose query ``blind`` may attend no key."""
    mask = random_mask(rng, (n_q, n_k))
    mask[blind] = False
    return mask


def _to_torch(args: tuple) -> tuple:
    """The answer's arguments: an MHAParams becomes the module, arrays become tensors (sharing
    memory, so that a change in place is seen)."""
    import torch

    from mha.torch_mha import MultiHeadAttention

    def convert(x):
        if isinstance(x, mha.MHAParams):
            return MultiHeadAttention.from_params(x)
        return torch.from_numpy(x) if isinstance(x, np.ndarray) else x

    return tuple(convert(a) for a in args)


def _reference_module_forward(module, q, k, v, mask=None):
    """``MultiHeadAttention.forward`` returning the weights: what the exercise asks for."""
    return module(q, k, v, mask, need_weights=True)


def _module_forward_variant(
    *,
    layout: str = "paper",
    divide: bool = True,
    scale_from_d_model: bool = False,
    polarity: str = "may_attend",
    transpose: bool = True,
    output_projection: bool = True,
    biases: bool = True,
) -> Callable:
    """The module's forward pass with one thing changed; the defaults give the right answer."""

    def forward(module, q, k, v, mask=None):
        import torch

        def project(x, w, b):
            y = x @ (w.T if layout == "linear" else w)
            return y if b is None or not biases else y + b

        def split(x):  # (..., n, h*d) -> (..., h, n, d)
            *batch, n, features = x.shape
            d = features // module.num_heads
            if transpose:
                return x.reshape(*batch, n, module.num_heads, d).transpose(-3, -2)
            return x.reshape(*batch, module.num_heads, n, d)

        q_heads = split(project(q, module.w_q, module.b_q))
        k_heads = split(project(k, module.w_k, module.b_k))
        v_heads = split(project(v, module.w_v, module.b_v))
        scores = q_heads @ k_heads.transpose(-2, -1)
        if divide:
            d_k = q.shape[-1] // module.num_heads if scale_from_d_model else module.d_k
            scores = scores / math.sqrt(d_k)
        if mask is not None:
            hidden = ~mask if polarity == "may_attend" else mask
            scores = scores.masked_fill(hidden, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        heads = weights @ v_heads  # (..., h, n_q, d_v)
        *batch, h, n_q, d_v = heads.shape
        if transpose:
            concat = heads.transpose(-3, -2).reshape(*batch, n_q, h * d_v)
        else:
            concat = heads.reshape(*batch, n_q, h * d_v)
        if not output_projection:
            return concat, weights
        return project(concat, module.w_o, module.b_o), weights

    return forward


_MODULE_FORWARD_MISTAKES = (
    Mistake(
        "linear_layout",
        "the weights used as nn.Linear stores them, x @ W.T, instead of the paper's x @ W",
        "this module keeps the paper's layout: w_q is (d_model, h*d_k), so compute q @ module.w_q",
        _module_forward_variant(layout="linear"),
        relations=("input:module.*.T",),
    ),
    Mistake(
        "no_scaling",
        "scores not divided by sqrt(d_k)",
        "divide the scores by math.sqrt(module.d_k)",
        _module_forward_variant(divide=False),
    ),
    Mistake(
        "mask_polarity",
        "the mask read as nn.MultiheadAttention reads it (True = may not attend)",
        "in this book True means may attend: fill the scores with -inf where the mask is False (~mask)",
        _module_forward_variant(polarity="hidden"),
        relations=("input:~mask",),
    ),
    Mistake(
        "d_k_from_d_model",
        "the scale from d_model // h, which is not the module's d_k when h * d_k != d_model",
        "divide by math.sqrt(module.d_k): the heads' size need not be d_model / h",
        _module_forward_variant(scale_from_d_model=True),
    ),
    Mistake(
        "reshape_without_transpose",
        "heads split (and merged) by a reshape without a transpose, which mixes tokens",
        "reshape to (..., n, h, d) and swap the n and h axes (.transpose(-3, -2)), and back",
        _module_forward_variant(transpose=False),
    ),
    Mistake(
        "no_output_projection",
        "Concat(heads) returned without the output projection W^O",
        "finish with concat @ module.w_o (plus module.b_o when it is not None)",
        _module_forward_variant(output_projection=False),
    ),
    Mistake(
        "biases_ignored",
        "the biases b_q, b_k, b_v, b_o ignored",
        "when module.b_q (etc.) is not None, add it after the matching product",
        _module_forward_variant(biases=False),
    ),
)


# --- ch06: nn.MultiheadAttention's weights in the paper's layout -------------------------


def _params_from_torch_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for d_model, h, bias, dtype in [
        (4, 2, False, F64),
        (6, 3, True, F64),
        (8, 2, True, F32),
        (6, 1, False, F64),
    ]:
        d_model = d_model + h * int(rng.integers(0, 2))
        params = mha.init_params(d_model, h, bias=bias, dtype=dtype)
        params = params.map(lambda a, dtype=dtype: normal(rng, a.shape, dtype))  # all distinct
        text = f"nn.MultiheadAttention({d_model}, {h}, bias={bias}), {np.dtype(dtype)}"
        cases.append(Case(text, (params,)))
    return cases  # fmt: skip


def _to_torch_module(args: tuple) -> tuple:
    """The answer's argument: an nn.MultiheadAttention(batch_first=True) holding the params."""
    from mha.torch_mha import MultiHeadAttention

    (params,) = args
    return (MultiHeadAttention.from_params(params).to_torch(),)


def _params_from_torch_variant(
    *, transpose: tuple[str, ...] = ("in", "out"), order=(0, 1, 2), biases: bool = True,
    split=None, heads: str = "num_heads",
):  # fmt: skip
    """The conversion with one thing changed; the defaults give the right answer."""

    def params_from_torch(torch_mha):
        state = {name: t.detach().cpu().numpy() for name, t in torch_mha.state_dict().items()}
        d = torch_mha.embed_dim
        w = state["in_proj_weight"]  # (3 d, d): W_q, W_k, W_v stacked, each (out, in)
        if split == "columns":  # as readers cut it, with torch's chunk: 2 pieces when d = 4
            chunks = torch_mha.in_proj_weight.detach().chunk(3, dim=1)
            blocks = [chunks[i].numpy() for i in range(3)]
        else:
            blocks = [w[i * d : (i + 1) * d] for i in range(3)]
        blocks = [blocks[i].T if "in" in transpose else blocks[i] for i in order]
        w_o = state["out_proj.weight"].T if "out" in transpose else state["out_proj.weight"]
        b = {}
        if biases and "in_proj_bias" in state:
            b_in = state["in_proj_bias"]
            b = {
                "b_q": b_in[:d],
                "b_k": b_in[d : 2 * d],
                "b_v": b_in[2 * d :],
                "b_o": state["out_proj.bias"],
            }
        return mha.MHAParams(*blocks, w_o, getattr(torch_mha, heads), **b)

    return params_from_torch


_PARAMS_FROM_TORCH_MISTAKES = (
    Mistake(
        "no_transpose",
        "the weights kept in PyTorch's (out, in) layout, without the transposes",
        "nn.Linear and nn.MultiheadAttention compute x @ W.T: the paper's W is the transpose of "
        "each block, and of out_proj.weight",
        _params_from_torch_variant(transpose=()),
    ),
    Mistake(
        "out_proj_not_transposed",
        "W^O taken from out_proj.weight without the transpose (the input projections are right)",
        "out_proj.weight is (out, in) = (d_model, h*d_v): the paper's W^O is its transpose",
        _params_from_torch_variant(transpose=("in",)),
    ),
    Mistake(
        "in_proj_not_transposed",
        "the blocks of in_proj_weight without the transpose (W^O is right)",
        "each block of in_proj_weight is (out, in): transpose it to the paper's (in, out)",
        _params_from_torch_variant(transpose=("out",)),
    ),
    Mistake(
        "split_columns",
        "in_proj_weight cut into three blocks of columns instead of rows",
        "in_proj_weight stacks W_q, W_k, W_v vertically: rows 0:d, d:2d, 2d:3d",
        _params_from_torch_variant(split="columns"),
    ),
    Mistake(
        "order",
        "the blocks of in_proj_weight in another order (PyTorch stacks queries, keys, values)",
        "in_proj_weight is [W_q; W_k; W_v] from top to bottom",
        _params_from_torch_variant(order=(1, 0, 2)),
    ),
    Mistake(
        "head_dim_as_num_heads",
        "the module's head_dim passed as the number of heads",
        "MHAParams takes num_heads, the module's torch_mha.num_heads (head_dim is d_model / h)",
        _params_from_torch_variant(heads="head_dim"),
    ),
    Mistake(
        "numpy_requires_grad",
        ".numpy() on a parameter that requires grad, which torch refuses",
        "detach first: torch_mha.in_proj_weight.detach().numpy()",
        detect=raised_saying(
            "RuntimeError",
            "requires grad",
            seen="torch refused .numpy() on a parameter that requires grad",
        ),
    ),
    Mistake(
        "biases_dropped",
        "the biases left out",
        "when the module has biases, in_proj_bias holds b_q, b_k, b_v (in that order) and "
        "out_proj.bias holds b_o",
        _params_from_torch_variant(biases=False),
    ),
)

_reference_params_from_torch = _params_from_torch_variant()


# --- ch06: attention's backward pass ------------------------------------------------------


def _backward_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    n_q, n_k, d_k, d_v = (int(n) for n in rng.choice(np.arange(2, 8), size=4, replace=False))
    for batch, dtype in [((), F64), ((2,), F64), ((2, 3), F32), ((), F32)]:
        q, k = (normal(rng, (*batch, n, d_k), dtype) for n in (n_q, n_k))
        v = normal(rng, (*batch, n_k, d_v), dtype)
        grad_out = normal(rng, (*batch, n_q, d_v), dtype)
        cases.append(
            Case(f"q {q.shape}, k {k.shape}, v {v.shape}, {np.dtype(dtype)}", (q, k, v, grad_out))
        )
    n = int(rng.integers(2, 6))
    square = [normal(rng, (2, n, n), F64) for _ in range(4)]
    cases.append(Case(f"q, k, v and grad_out all of shape (2, {n}, {n})", tuple(square)))
    return cases  # fmt: skip


def _reference_attention_backward(q, k, v, grad_out):
    """The gradients of sum(out * grad_out) with respect to q, k, v, from torch's autograd."""
    import torch

    q_t, k_t, v_t = (torch.from_numpy(a).requires_grad_() for a in (q, k, v))
    scores = q_t @ k_t.transpose(-2, -1) / math.sqrt(q.shape[-1])
    out = torch.softmax(scores, dim=-1) @ v_t
    out.backward(torch.from_numpy(grad_out))
    return q_t.grad.numpy(), k_t.grad.numpy(), v_t.grad.numpy()


def _backward_variant(
    *,
    jacobian: str = "full",
    scale: bool = True,
    transpose_dv: bool = True,
    transpose_dk: bool = True,
):
    """The backward pass by hand with one thing changed; the defaults give the right answer."""

    def attention_backward(q, k, v, grad_out):
        d = math.sqrt(q.shape[-1])
        p = stable_softmax(q @ np.swapaxes(k, -1, -2) / d)  # (..., n_q, n_k)
        grad_v = np.swapaxes(p, -1, -2) @ grad_out if transpose_dv else p @ grad_out
        grad_p = grad_out @ np.swapaxes(v, -1, -2)  # (..., n_q, n_k)
        if jacobian == "full":
            grad_s = p * (grad_p - np.sum(grad_p * p, axis=-1, keepdims=True))
        elif jacobian == "diagonal":
            grad_s = p * grad_p
        else:  # the row sum over the wrong axis
            grad_s = p * (grad_p - np.sum(grad_p * p, axis=-2, keepdims=True))
        grad_s = grad_s / d if scale else grad_s
        grad_q = grad_s @ k
        grad_k = np.swapaxes(grad_s, -1, -2) @ q if transpose_dk else grad_s @ q
        return grad_q, grad_k, grad_v

    return attention_backward


_BACKWARD_MISTAKES = (
    Mistake(
        "softmax_jacobian_diagonal",
        "the softmax's gradient taken as p * grad_p, without the term that couples each row",
        "the softmax's Jacobian is diag(p) - p p^T: grad_s = p * (grad_p - sum(grad_p * p, "
        "axis=-1, keepdims=True))",
        _backward_variant(jacobian="diagonal"),
    ),
    Mistake(
        "jacobian_wrong_axis",
        "the softmax's gradient with its row sum taken over the queries axis",
        "each row's softmax couples that row only: sum over axis=-1 (the keys)",
        _backward_variant(jacobian="wrong_axis"),
    ),
    Mistake(
        "scale_forgotten",
        "the gradients of q and k without the factor 1/sqrt(d_k)",
        "the scores are q k^T / sqrt(d_k), so grad_q and grad_k carry the factor 1/sqrt(d_k) too",
        _backward_variant(scale=False),
    ),
    Mistake(
        "scale_by_d_k",
        "the gradients of q and k divided by d_k instead of sqrt(d_k)",
        "the scores are q k^T / sqrt(d_k): the chain rule brings 1/sqrt(d_k), not 1/d_k",
        relations=("times:1/sqrt(d_k)",),
    ),
    Mistake(
        "grad_v_not_transposed",
        "grad_v computed as p @ grad_out instead of p^T @ grad_out",
        "out = p @ v, so grad_v = p^T @ grad_out: shape (..., n_k, d_v), like v",
        _backward_variant(transpose_dv=False),
    ),
    Mistake(
        "grad_k_not_transposed",
        "grad_k computed as grad_s @ q instead of grad_s^T @ q",
        "scores = q @ k^T, so grad_k = grad_s^T @ q: shape (..., n_k, d_k), like k",
        _backward_variant(transpose_dk=False),
    ),
)


# --- ch06: nn.MultiheadAttention's key padding mask ----------------------------------------


def _key_padding_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for batch in (2, 3, 1):
        n_k = int(rng.integers(3, 8))
        lengths = rng.integers(1, n_k + 1, size=batch)
        mask = mha.padding_mask(lengths, n_k)
        cases.append(
            Case(f"mask = mha.padding_mask({lengths.tolist()}, {n_k}), as a tensor", (mask,))
        )
    return cases


def _tensors_of(args: tuple) -> tuple:
    import torch

    return tuple(torch.from_numpy(a) if isinstance(a, np.ndarray) else a for a in args)


def _reference_torch_key_padding_mask(mask):
    return ~mask[:, 0, 0, :]  # (B, n_k): True marks a pad, which nn.MultiheadAttention skips


def _additive_key_padding(mask):
    import torch

    pad = ~mask[:, 0, 0, :]  # (B, n_k)
    return torch.zeros(pad.shape, dtype=torch.float64).masked_fill(pad, float("-inf"))


_KEY_PADDING_MISTAKES = (
    Mistake(
        "arithmetic_on_bool",
        "1 - mask (or -mask) on a bool tensor, which torch refuses",
        "invert a bool tensor with ~mask (or mask.logical_not())",
        detect=raised_saying(
            ("NotImplementedError", "RuntimeError"),
            "bool tensor",
            "invert a mask",
            seen="torch refused arithmetic on a bool tensor",
        ),
    ),
    Mistake(
        "not_flipped",
        "the mask passed on with this book's polarity (True = may attend)",
        "nn.MultiheadAttention's key_padding_mask marks the keys to *skip*: flip it with ~mask",
        lambda mask: mask[:, 0, 0, :],
    ),
    Mistake(
        "singleton_axes_kept",
        "the (B, 1, 1, n_k) shape kept",
        "key_padding_mask has shape (B, n_k): drop the heads and queries axes, mask[:, 0, 0, :]",
        lambda mask: ~mask,
    ),
    Mistake(
        "additive",
        "an additive float mask (0 and -inf) instead of a boolean one",
        "pass a bool tensor: True where the key is a pad",
        lambda mask: _additive_key_padding(mask),
    ),
)


# --- ch06: SDPA's is_causal with n_q != n_k (a prediction) -------------------------------

NEW_TOKENS, CACHED_KEYS = 2, 6  # the chapter's decoding step: 2 new queries, 6 keys


@functools.cache
def sdpa_causal_keys() -> int:
    """The keys the last of ``NEW_TOKENS`` queries reads in ``F.scaled_dot_product_attention``
    with ``is_causal=True`` and ``CACHED_KEYS`` keys: its weights, read through values that
    are the identity (the chapter's cell does the same)."""
    import torch
    import torch.nn.functional as F

    draws = torch.Generator().manual_seed(0)
    q = torch.randn(1, NEW_TOKENS, 128, generator=draws)
    k = torch.randn(1, CACHED_KEYS, 128, generator=draws)
    weights = F.scaled_dot_product_attention(q, k, torch.eye(CACHED_KEYS)[None], is_causal=True)
    return int((weights[0, -1] > 0).sum())


def _why_sdpa_causal(count: int) -> str:
    return (
        f"SDPA's is_causal builds its lower triangle from the top-left corner, "
        f"torch.ones({NEW_TOKENS}, {CACHED_KEYS}).tril(): query i may attend keys 0..i, so the "
        f"last new query reads {count} of the {CACHED_KEYS} keys. When decoding, the new queries "
        f"are the last positions: the mask a KV cache needs is aligned bottom-right, "
        f"mha.causal_mask({NEW_TOKENS}, {CACHED_KEYS}), which lets the last query read every key."
    )


_SDPA_CAUSAL_MISCONCEPTIONS = (
    Misconception(
        "bottom_right",
        CACHED_KEYS,
        "That is the bottom-right mask the KV cache needs (and what this module passes); "
        "SDPA's own is_causal aligns its triangle top-left.",
    ),
    Misconception(
        "itself_only",
        1,
        "A causal mask lets a query read itself and everything before it, not only itself.",
    ),
    Misconception(
        "first_new_query",
        CACHED_KEYS - NEW_TOKENS + 1,
        "That is what the first new query reads under the bottom-right mask; top-left, query i "
        "reads keys 0..i whatever n_k is.",
    ),
)


# --- the registry -------------------------------------------------------------------------
# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "module_forward": FunctionExercise(
        _reference_module_forward, _module_forward_cases, _MODULE_FORWARD_MISTAKES, ("out", "weights"),
        tensors=True, prepare=_to_torch, axes={"weights": ("heads", "queries", "keys")},
        other_references=("mha.torch_mha.MultiHeadAttention.forward", "mha.torch_mha.MultiHeadAttention.head_outputs",
                    "mha.torch_mha.MultiHeadAttention.combine_heads", "mha.numpy_mha.multi_head_attention",
                    "torch.nn.MultiheadAttention", "torch.nn.functional.multi_head_attention_forward",
                    "torch.nn.functional.scaled_dot_product_attention"),
    ),
    "params_from_torch": FunctionExercise(
        _reference_params_from_torch, _params_from_torch_cases, _PARAMS_FROM_TORCH_MISTAKES,
        tensors=True, prepare=_to_torch_module,
        other_references=("mha.params.from_torch_state_dict", "mha.torch_mha.MultiHeadAttention.from_torch"),
    ),
    "attention_backward": FunctionExercise(
        _reference_attention_backward, _backward_cases, _BACKWARD_MISTAKES, ("grad_q", "grad_k", "grad_v"),
        quantities=lambda args: {"d_k": args[0].shape[-1], "n_q": args[0].shape[-2], "n_k": args[1].shape[-2]},
        other_references=("torch.autograd.grad",
                    "torch.autograd.backward", "torch.Tensor.backward", "torch.func.vjp", "torch.func.grad"),
    ),
    "predict_sdpa_causal_keys": PredictionExercise(
        f"how many of the {CACHED_KEYS} keys the last of {NEW_TOKENS} new queries reads with SDPA's is_causal=True",
        Whole(0, CACHED_KEYS), sdpa_causal_keys, _why_sdpa_causal, _SDPA_CAUSAL_MISCONCEPTIONS,
    ),
    "torch_key_padding_mask": FunctionExercise(
        _reference_torch_key_padding_mask, _key_padding_cases, _KEY_PADDING_MISTAKES,
        tensors=True, prepare=_tensors_of,
        ),
}  # fmt: skip
