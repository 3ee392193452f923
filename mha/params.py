"""The weights of one multi-head attention layer, and their conversion to PyTorch's layout.

Paper layout, ``x @ W``: ``w_q`` is ``(d_model, h*d_k)`` and head i owns its columns
``i*d_k:(i+1)*d_k``; ``w_o`` is ``(h*d_v, d_model)``. PyTorch's ``nn.Linear`` and
``nn.MultiheadAttention`` store the transpose, ``(out_features, in_features)``, and compute
``x @ W.T``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from mha import _validate
from mha._validate import Array


@dataclass(frozen=True, eq=False)
class MHAParams:
    """Weights (and optional biases) of a multi-head attention layer, paper layout.

    Frozen, and checked when built: the arrays come from one library, share one floating
    dtype, and have shapes that fit ``num_heads``. To change a field, build new params with
    ``dataclasses.replace(params, b_o=...)``, which checks again; ``params.b_o = ...``
    raises ``dataclasses.FrozenInstanceError``. (The arrays themselves stay writable:
    ``params.w_o[rows] = 0`` changes the weights in place.) Equality is identity.

    Shapes
    ------
    w_q : (d_model, h*d_k);  w_k : (kdim, h*d_k);  w_v : (vdim, h*d_v);  w_o : (h*d_v, d_model)
    b_q, b_k : (h*d_k,);  b_v : (h*d_v,);  b_o : (d_model,)   (each optional)
    kdim and vdim equal d_model unless keys/values come with other feature sizes.
    """

    w_q: Array
    w_k: Array
    w_v: Array
    w_o: Array
    num_heads: int
    b_q: Array | None = None
    b_k: Array | None = None
    b_v: Array | None = None
    b_o: Array | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "num_heads", _validate.positive_int("num_heads", self.num_heads))
        arrays = {name: getattr(self, name) for name in self.array_names()}
        xp = _validate.array_namespace(**arrays)
        for name, x in arrays.items():
            if x is not None:
                _validate.floating(name, x, xp)
        _validate.same_dtype(xp, **arrays)
        for name in ("w_q", "w_k", "w_v", "w_o"):
            if arrays[name].ndim != 2:
                raise ValueError(f"{name} must be 2-D, got shape {tuple(arrays[name].shape)}")
        h = self.num_heads
        hd_k, hd_v = self.w_q.shape[1], self.w_v.shape[1]
        if self.w_k.shape[1] != hd_k:
            raise ValueError(
                f"w_k has {self.w_k.shape[1]} columns but w_q has {hd_k}; "
                "queries and keys must share h*d_k"
            )
        for name, cols in (("w_q", hd_k), ("w_v", hd_v)):
            if cols % h:
                raise ValueError(f"num_heads={h} does not divide the {cols} columns of {name}")
        if self.w_o.shape[0] != hd_v:
            raise ValueError(f"w_o has {self.w_o.shape[0]} rows but must have h*d_v={hd_v}")
        if self.w_q.shape[0] != self.w_o.shape[1]:
            raise ValueError(
                f"w_q has {self.w_q.shape[0]} rows but w_o has {self.w_o.shape[1]} columns; "
                "both must be d_model"
            )
        for name, size in (("b_q", hd_k), ("b_k", hd_k), ("b_v", hd_v), ("b_o", self.d_model)):
            b = arrays[name]
            if b is not None and tuple(b.shape) != (size,):
                raise ValueError(f"{name} must have shape ({size},), got {tuple(b.shape)}")

    @staticmethod
    def array_names() -> tuple[str, ...]:
        return ("w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o")

    @property
    def d_model(self) -> int:
        return self.w_o.shape[1]

    @property
    def d_k(self) -> int:
        return self.w_q.shape[1] // self.num_heads

    @property
    def d_v(self) -> int:
        return self.w_v.shape[1] // self.num_heads

    @property
    def kdim(self) -> int:
        return self.w_k.shape[0]

    @property
    def vdim(self) -> int:
        return self.w_v.shape[0]

    @property
    def has_bias(self) -> bool:
        return any(getattr(self, name) is not None for name in ("b_q", "b_k", "b_v", "b_o"))

    def map(self, fn) -> MHAParams:
        """A new MHAParams with ``fn`` applied to every array (e.g. a dtype or device change)."""
        arrays = {name: getattr(self, name) for name in self.array_names()}
        return replace(self, **{name: None if x is None else fn(x) for name, x in arrays.items()})

    def num_parameters(self) -> int:
        """How many numbers the layer learns (weights and biases)."""
        return sum(
            int(np.prod(getattr(self, n).shape))
            for n in self.array_names()
            if getattr(self, n) is not None
        )


def init_params(
    d_model: int,
    num_heads: int,
    *,
    d_k: int | None = None,
    d_v: int | None = None,
    bias: bool = False,
    seed: int = 0,
    dtype: Any = np.float32,
) -> MHAParams:
    """Seeded Glorot/Xavier-uniform weights; biases (if ``bias``) start at zero.

    Each weight ``W`` of shape ``(fan_in, fan_out)`` is drawn from
    ``U(-a, a)`` with ``a = sqrt(6 / (fan_in + fan_out))``.

    Parameters
    ----------
    d_model : int
        Model (embedding) size.
    num_heads : int
        h. Unless ``d_k``/``d_v`` are given it must divide ``d_model``.
    d_k, d_v : int, optional
        Per-head query/key and value sizes; default ``d_model // num_heads``.
    bias : bool
        Add zero-initialised biases ``b_q, b_k, b_v, b_o``.
    seed : int
        Seed of ``numpy.random.default_rng``; equal seeds give equal weights.
    dtype : NumPy floating dtype
        float32 by default.

    Shapes
    ------
    w_q, w_k : (d_model, h*d_k);  w_v : (d_model, h*d_v);  w_o : (h*d_v, d_model)
    """
    d_model, num_heads, d_k, d_v = _validate.head_sizes(d_model, num_heads, d_k, d_v)
    if not np.issubdtype(np.dtype(dtype), np.floating):
        raise TypeError(f"dtype must be a floating dtype, got {np.dtype(dtype)}")
    rng = np.random.default_rng(seed)

    def glorot(fan_in: int, fan_out: int) -> np.ndarray:
        limit = np.sqrt(6.0 / (fan_in + fan_out))
        return rng.uniform(-limit, limit, size=(fan_in, fan_out)).astype(dtype)

    h = num_heads
    w_q, w_k, w_v = glorot(d_model, h * d_k), glorot(d_model, h * d_k), glorot(d_model, h * d_v)
    w_o = glorot(h * d_v, d_model)
    biases = {}
    if bias:
        sizes = {"b_q": h * d_k, "b_k": h * d_k, "b_v": h * d_v, "b_o": d_model}
        biases = {name: np.zeros(size, dtype=dtype) for name, size in sizes.items()}
    return MHAParams(w_q, w_k, w_v, w_o, num_heads, **biases)


def to_torch_state_dict(params: MHAParams) -> dict[str, np.ndarray]:
    """The ``state_dict`` of an equivalent ``torch.nn.MultiheadAttention``, as NumPy arrays.

    ``nn.MultiheadAttention`` fuses the three input projections into ``in_proj_weight``
    ``(3*d_model, d_model)`` when keys and values have ``d_model`` features, and keeps
    ``q_proj_weight``/``k_proj_weight``/``v_proj_weight`` otherwise. It needs
    ``d_k = d_v = d_model / h`` and either all four biases or none.
    """
    if params.d_k * params.num_heads != params.d_model or params.d_v != params.d_k:
        raise ValueError(
            f"params has d_k={params.d_k}, d_v={params.d_v}, h={params.num_heads}, d_model={params.d_model}; nn.MultiheadAttention needs "
            "d_k = d_v = d_model / h"
        )
    biases = [params.b_q, params.b_k, params.b_v, params.b_o]
    if any(b is None for b in biases) and params.has_bias:
        raise ValueError(
            "params has some biases but not all; nn.MultiheadAttention has all four or none"
        )
    w_q, w_k, w_v, w_o = (np.asarray(w) for w in (params.w_q, params.w_k, params.w_v, params.w_o))
    if params.kdim == params.vdim == params.d_model:
        state = {"in_proj_weight": np.concatenate([w_q.T, w_k.T, w_v.T], axis=0)}
    else:
        state = {"q_proj_weight": w_q.T, "k_proj_weight": w_k.T, "v_proj_weight": w_v.T}
    state["out_proj.weight"] = w_o.T
    if params.has_bias:
        state["in_proj_bias"] = np.concatenate([np.asarray(b) for b in biases[:3]])
        state["out_proj.bias"] = np.asarray(params.b_o)
    return {name: np.ascontiguousarray(a) for name, a in state.items()}


def from_torch_state_dict(state: Mapping[str, Array], num_heads: int) -> MHAParams:
    """MHAParams from an ``nn.MultiheadAttention`` ``state_dict`` (NumPy arrays, paper layout).

    The inverse of :func:`to_torch_state_dict`. Tensors must be moved to NumPy first
    (``t.detach().cpu().numpy()``); :meth:`mha.torch_mha.MultiHeadAttention.from_torch`
    does that.
    """
    state = {name: np.asarray(a) for name, a in state.items()}
    if "in_proj_weight" in state:
        w_q, w_k, w_v = np.split(state["in_proj_weight"], 3, axis=0)
    elif all(f"{p}_proj_weight" in state for p in "qkv"):
        w_q, w_k, w_v = (state[f"{p}_proj_weight"] for p in "qkv")
    else:
        raise ValueError(
            "state must hold in_proj_weight or q_proj_weight/k_proj_weight/v_proj_weight, "
            f"got keys {sorted(state)}"
        )
    if "out_proj.weight" not in state:
        raise ValueError(f"state must hold out_proj.weight, got keys {sorted(state)}")
    biases = {}
    if state.get("in_proj_bias") is not None:
        b_q, b_k, b_v = np.split(state["in_proj_bias"], 3)
        biases = {"b_q": b_q, "b_k": b_k, "b_v": b_v, "b_o": state["out_proj.bias"]}
    return MHAParams(
        np.ascontiguousarray(w_q.T),
        np.ascontiguousarray(w_k.T),
        np.ascontiguousarray(w_v.T),
        np.ascontiguousarray(state["out_proj.weight"].T),
        num_heads,
        **{name: b.copy() for name, b in biases.items()},
    )
