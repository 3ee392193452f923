"""The weights of one multi-head attention layer, and their conversion to PyTorch's layout.

Paper layout, ``x @ W``: ``w_q`` is ``(d_model, h*d_k)`` and head i owns its columns
``i*d_k:(i+1)*d_k``; ``w_o`` is ``(h*d_v, d_model)``. PyTorch's ``nn.Linear`` and
``nn.MultiheadAttention`` store the transpose, ``(out_features, in_features)``, and compute
``x @ W.T``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import array_api_compat
import numpy as np

from mha import _validate
from mha._validate import Array


class LayerWeights:
    """What the weight containers (:class:`MHAParams`, :class:`mha.efficient.GQAParams`) share.

    Fields ``w_q``, ``w_k``, ``w_v``, ``w_o``, optional ``b_q`` .. ``b_o`` in paper layout, and
    ``num_heads``; the sizes follow from their shapes.
    """

    @staticmethod
    def array_names() -> tuple[str, ...]:
        return ("w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o")

    @property
    def d_model(self) -> int:
        """The output's width (the columns of ``w_o``)."""
        return self.w_o.shape[1]

    @property
    def d_k(self) -> int:
        return self.w_q.shape[1] // self.num_heads

    @property
    def qdim(self) -> int:
        return self.w_q.shape[0]

    @property
    def kdim(self) -> int:
        return self.w_k.shape[0]

    @property
    def vdim(self) -> int:
        return self.w_v.shape[0]

    @property
    def has_bias(self) -> bool:
        return any(getattr(self, name) is not None for name in ("b_q", "b_k", "b_v", "b_o"))

    def num_parameters(self) -> int:
        """How many numbers the layer learns (weights and biases)."""
        arrays = (getattr(self, name) for name in self.array_names())
        return sum(math.prod(a.shape) for a in arrays if a is not None)


@dataclass(frozen=True, eq=False)
class MHAParams(LayerWeights):
    """Weights (and optional biases) of a multi-head attention layer, paper layout.

    Frozen, and checked when built: the arrays come from one library, share one floating
    dtype, and have shapes that fit ``num_heads``. To change a field, build new params with
    ``dataclasses.replace(params, b_o=...)``, which checks again; ``params.b_o = ...``
    raises ``dataclasses.FrozenInstanceError``. (The arrays themselves stay writable:
    ``params.w_o[rows] = 0`` changes the weights in place.) Equality is identity.

    Shapes
    ------
    w_q : (qdim, h*d_k);  w_k : (kdim, h*d_k);  w_v : (vdim, h*d_v);  w_o : (h*d_v, d_model)
    b_q, b_k : (h*d_k,);  b_v : (h*d_v,);  b_o : (d_model,)   (each optional)
    d_model is the output's width; qdim, kdim and vdim equal it unless queries, keys or
    values come with other feature sizes (a layer may take d_in features and give d_out).
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
        for name, size in (("b_q", hd_k), ("b_k", hd_k), ("b_v", hd_v), ("b_o", self.d_model)):
            b = arrays[name]
            if b is not None and tuple(b.shape) != (size,):
                raise ValueError(f"{name} must have shape ({size},), got {tuple(b.shape)}")

    @property
    def d_v(self) -> int:
        return self.w_v.shape[1] // self.num_heads

    def map(self, fn) -> MHAParams:
        """A new MHAParams with ``fn`` applied to every array (e.g. a dtype or device change)."""
        arrays = {name: getattr(self, name) for name in self.array_names()}
        return replace(self, **{name: None if x is None else fn(x) for name, x in arrays.items()})


def init_params(
    d_model: int,
    num_heads: int,
    *,
    d_k: int | None = None,
    d_v: int | None = None,
    qdim: int | None = None,
    kdim: int | None = None,
    vdim: int | None = None,
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
        Model (embedding) size: the output's width.
    num_heads : int
        h. Unless ``d_k``/``d_v`` are given it must divide ``d_model``.
    d_k, d_v : int, optional
        Per-head query/key and value sizes; default ``d_model // num_heads``.
    qdim, kdim, vdim : int, optional
        Features of the queries, keys and values when they differ from ``d_model``.
    bias : bool
        Add zero-initialised biases ``b_q, b_k, b_v, b_o``.
    seed : int
        Seed of ``numpy.random.default_rng``; equal seeds give equal weights.
    dtype : NumPy floating dtype
        float32 by default.

    Shapes
    ------
    w_q : (qdim, h*d_k);  w_k : (kdim, h*d_k);  w_v : (vdim, h*d_v);  w_o : (h*d_v, d_model)
    """
    d_model, num_heads, d_k, d_v = _validate.head_sizes(d_model, num_heads, d_k, d_v)
    qdim, kdim, vdim = (
        d_model if size is None else _validate.positive_int(name, size)
        for name, size in (("qdim", qdim), ("kdim", kdim), ("vdim", vdim))
    )
    if not np.issubdtype(np.dtype(dtype), np.floating):
        raise TypeError(f"dtype must be a floating dtype, got {np.dtype(dtype)}")
    rng = np.random.default_rng(seed)

    def glorot(fan_in: int, fan_out: int) -> np.ndarray:
        limit = np.sqrt(6.0 / (fan_in + fan_out))
        return rng.uniform(-limit, limit, size=(fan_in, fan_out)).astype(dtype)

    h = num_heads
    w_q, w_k, w_v = glorot(qdim, h * d_k), glorot(kdim, h * d_k), glorot(vdim, h * d_v)
    w_o = glorot(h * d_v, d_model)
    biases = {}
    if bias:
        sizes = {"b_q": h * d_k, "b_k": h * d_k, "b_v": h * d_v, "b_o": d_model}
        biases = {name: np.zeros(size, dtype=dtype) for name, size in sizes.items()}
    return MHAParams(w_q, w_k, w_v, w_o, num_heads, **biases)


def check_nn_compatible(layer: Any) -> None:
    """Raise ``ValueError`` unless ``nn.MultiheadAttention`` can hold ``layer``'s weights.

    ``layer`` is an :class:`MHAParams` or the torch module (anything with ``d_model``,
    ``num_heads``, ``d_k``, ``d_v``, ``qdim`` and the four biases): ``nn.MultiheadAttention``
    needs ``d_k = d_v = d_model / h``, queries of ``d_model`` features, and all four biases
    or none.
    """
    if layer.d_k * layer.num_heads != layer.d_model or layer.d_v != layer.d_k:
        raise ValueError(
            f"the layer has d_k={layer.d_k}, d_v={layer.d_v}, h={layer.num_heads}, "
            f"d_model={layer.d_model}; nn.MultiheadAttention needs d_k = d_v = d_model / h"
        )
    if layer.qdim != layer.d_model:
        raise ValueError(
            f"the layer has qdim={layer.qdim} query features but d_model={layer.d_model} "
            "output features; nn.MultiheadAttention needs them equal (its embed_dim)"
        )
    present = [getattr(layer, name) is not None for name in ("b_q", "b_k", "b_v", "b_o")]
    if any(present) and not all(present):
        raise ValueError(
            "the layer has some biases but not all; nn.MultiheadAttention has all four or none"
        )


def torch_layout(arrays: Mapping[str, Array | None]) -> dict[str, Array]:
    """Paper-layout weights as an ``nn.MultiheadAttention`` ``state_dict`` (any array library).

    ``arrays`` maps ``w_q``, ``w_k``, ``w_v``, ``w_o`` and ``b_q`` .. ``b_o`` (None where
    absent) to NumPy arrays or torch tensors; the result holds the same library's arrays,
    transposed to ``(out, in)``. ``nn.MultiheadAttention`` fuses the three input projections
    into ``in_proj_weight`` ``(3*d_model, d_model)`` when keys and values have ``d_model``
    features, and keeps ``q_proj_weight``/``k_proj_weight``/``v_proj_weight`` otherwise.
    """
    xp = array_api_compat.array_namespace(arrays["w_q"])
    w_q, w_k, w_v, w_o = (xp.matrix_transpose(arrays[n]) for n in ("w_q", "w_k", "w_v", "w_o"))
    d_model = w_o.shape[0]
    if w_k.shape[1] == w_v.shape[1] == w_q.shape[1] == d_model:
        state = {"in_proj_weight": xp.concat([w_q, w_k, w_v], axis=0)}
    else:
        state = {"q_proj_weight": w_q, "k_proj_weight": w_k, "v_proj_weight": w_v}
    state["out_proj.weight"] = w_o
    if arrays["b_q"] is not None:
        state["in_proj_bias"] = xp.concat([arrays[n] for n in ("b_q", "b_k", "b_v")])
        state["out_proj.bias"] = arrays["b_o"]
    return state


def paper_layout(state: Mapping[str, Array]) -> dict[str, Array | None]:
    """The inverse of :func:`torch_layout`: ``w_q`` .. ``w_o`` and ``b_q`` .. ``b_o``.

    Arrays of any library (NumPy, torch), views where the library makes them; biases are
    None when ``state`` has none.
    """
    if "in_proj_weight" in state:
        w_in = state["in_proj_weight"]
        d = w_in.shape[0] // 3
        w_q, w_k, w_v = w_in[:d], w_in[d : 2 * d], w_in[2 * d :]
    elif all(f"{p}_proj_weight" in state for p in "qkv"):
        w_q, w_k, w_v = (state[f"{p}_proj_weight"] for p in "qkv")
    else:
        raise ValueError(
            "state must hold in_proj_weight or q_proj_weight/k_proj_weight/v_proj_weight, "
            f"got keys {sorted(state)}"
        )
    if "out_proj.weight" not in state:
        raise ValueError(f"state must hold out_proj.weight, got keys {sorted(state)}")
    xp = array_api_compat.array_namespace(w_q)
    arrays = {
        name: xp.matrix_transpose(w)
        for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v), ("w_o", state["out_proj.weight"]))
    }
    b_in = state.get("in_proj_bias")
    if b_in is None:
        return {**arrays, "b_q": None, "b_k": None, "b_v": None, "b_o": None}
    hd_k = arrays["w_q"].shape[1]
    biases = {"b_q": b_in[:hd_k], "b_k": b_in[hd_k : 2 * hd_k], "b_v": b_in[2 * hd_k :]}
    return {**arrays, **biases, "b_o": state["out_proj.bias"]}


def to_torch_state_dict(params: MHAParams) -> dict[str, np.ndarray]:
    """The ``state_dict`` of an equivalent ``torch.nn.MultiheadAttention``, as NumPy arrays.

    :func:`torch_layout` of the weights, after :func:`check_nn_compatible`.
    """
    check_nn_compatible(params)
    arrays = {name: getattr(params, name) for name in MHAParams.array_names()}
    state = torch_layout({n: None if a is None else np.asarray(a) for n, a in arrays.items()})
    return {name: np.ascontiguousarray(a) for name, a in state.items()}


def from_torch_state_dict(state: Mapping[str, Array], num_heads: int) -> MHAParams:
    """MHAParams from an ``nn.MultiheadAttention`` ``state_dict`` (NumPy arrays, paper layout).

    The inverse of :func:`to_torch_state_dict`. Tensors must be moved to NumPy first
    (``t.detach().cpu().numpy()``); :meth:`mha.torch_mha.MultiHeadAttention.from_torch`
    converts tensors without NumPy (so bfloat16 works).
    """
    arrays = paper_layout({name: np.asarray(a) for name, a in state.items()})
    return MHAParams(
        num_heads=num_heads,
        **{name: None if a is None else np.array(a, order="C") for name, a in arrays.items()},
    )
