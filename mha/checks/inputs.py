"""The test inputs that several chapters' exercises draw: random arrays, masks, weights.

Each function takes the exercise's ``rng`` (drawn from the check's seed) and returns NumPy
arrays, so that a :class:`mha.checks.Case` holds only wire-safe values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

F32, F64 = np.float32, np.float64


def normal(rng: np.random.Generator, shape: Sequence[int], dtype: Any, scale: float = 1.0):
    """Standard normal numbers times ``scale``, of ``shape`` and ``dtype``."""
    return (rng.standard_normal(tuple(shape)) * scale).astype(dtype)


def random_mask(rng: np.random.Generator, shape: Sequence[int]) -> np.ndarray:
    """Random boolean mask; each row keeps at least one True and one False (so an inverted
    mask never masks a whole row and mask mistakes stay distinguishable)."""
    mask = rng.random(tuple(shape)) < 0.6
    n_k = shape[-1]
    mask[..., rng.integers(n_k)] = True
    columns = np.arange(n_k)
    first_true = np.argmax(mask, axis=-1)[..., None]
    mask[(columns != first_true) & np.all(mask, axis=-1, keepdims=True)] = False
    return mask


def swap_last(x: np.ndarray) -> np.ndarray:
    """``x`` with its last two axes swapped (``k^T`` for a batch of keys)."""
    return np.swapaxes(x, -1, -2)
