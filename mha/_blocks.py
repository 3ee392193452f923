"""Building blocks shared by the readable and the lean attention paths.

Used by :mod:`mha.numpy_mha` and :mod:`mha.lean_attention`; internal, arguments already
validated.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

Array = Any


def compute_dtype(xp: ModuleType, dtype: Any) -> Any:
    """float16 (and bfloat16) inputs get their softmax computed in float32."""
    low_precision = [getattr(xp, name) for name in ("float16", "bfloat16") if hasattr(xp, name)]
    return xp.float32 if any(dtype == low for low in low_precision) else dtype


def matrix_transpose(xp: ModuleType, x: Array) -> Array:
    """Swap the last two axes."""
    axes = (*range(x.ndim - 2), x.ndim - 1, x.ndim - 2)
    return xp.permute_dims(x, axes)
