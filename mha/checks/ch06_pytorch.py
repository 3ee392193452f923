"""Chapter 6's exercise: the forward pass of the PyTorch module ``mha.torch_mha.MultiHeadAttention``."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

import mha
from mha.checks.core import F32, F64, Case, _normal, _random_mask
from mha.checks.kinds import Exercise, FunctionExercise, Mistake

# --- ch06: the PyTorch variant ------------------------------------------------------------


def _module_forward_cases(rng: np.random.Generator) -> list[Case]:
    """Wire-safe inputs (an MHAParams and NumPy arrays); :func:`_to_torch` makes the module."""

    def case(text, batch, n_q, n_k, d_model, h, dtype, bias=False, mask=None, d_k=None):
        d_k = d_k or d_model // h
        params = mha.init_params(d_model, h, d_k=d_k, d_v=d_k + 1, bias=bias, dtype=dtype)
        params = params.map(lambda a: _normal(rng, a.shape, dtype, 0.5))  # biases non-zero
        q, k, v = (_normal(rng, (*batch, n, d_model), dtype) for n in (n_q, n_k, n_k))
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
            (3,), 2, 5, 12, 3, F32, mask=_random_mask(rng, (3, 1, 1, 5)),
        ),
        case("batch (2,), d_model=8, h=2, d_k=3, d_v=4 (not d_model / h)", (2,), 4, 6, 8, 2, F64, d_k=3),
    ]  # fmt: skip


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
    polarity: str = "may_attend",
    transpose: bool = True,
    output_projection: bool = True,
) -> Callable:
    """The module's forward pass with one thing changed; the defaults give the right answer."""

    def forward(module, q, k, v, mask=None):
        import torch

        def project(x, w, b):
            y = x @ (w.T if layout == "linear" else w)
            return y if b is None else y + b

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
            scores = scores / math.sqrt(module.d_k)
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
)


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "module_forward": FunctionExercise(
        6, _reference_module_forward, _module_forward_cases, _MODULE_FORWARD_MISTAKES, ("out", "weights"),
        tensors=True, prepare=_to_torch,
        references=("mha.checks.ch06_pytorch._reference_module_forward",
                    "mha.torch_mha.MultiHeadAttention.forward", "mha.torch_mha.MultiHeadAttention._attention_readable",
                    "mha.torch_mha.MultiHeadAttention._attention_fused", "mha.multi_head_attention",
                    "torch.nn.MultiheadAttention", "torch.nn.functional.multi_head_attention_forward",
                    "torch.nn.functional.scaled_dot_product_attention"),
    ),
}  # fmt: skip
