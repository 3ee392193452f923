"""``glue`` for the chapters: the book's prose quotes numbers that the code computed.

Where the website is built, this is myst-nb's ``glue``: the value is stored with the cell's
output, and ``{glue:text}`name:.2f``` in the markdown prints it. Elsewhere (Colab, a plain
Jupyter) myst-nb is usually not installed and nothing reads glued values, so ``glue`` does
nothing there, instead of failing on the import.

:func:`over_seeds` writes one result per seed the way the prose quotes it, the mean and the
range.

NumPy scalars are glued as Python numbers: myst-nb formats a value by reading back its
``repr``, and NumPy 2 writes ``np.float64(0.5)`` there, which no format spec accepts.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def glue(name: str, value: Any, display: bool = False) -> None:
    """Store ``value`` under ``name`` for ``{glue:text}`name``` in the markdown.

    ``display=True`` also shows the value in the notebook (myst-nb's default is to show
    it; the book's prose quotes it instead, so here the default is not to).
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty str, got {name!r}")
    if isinstance(value, np.generic) or (isinstance(value, np.ndarray) and value.ndim == 0):
        value = value.item()
    try:
        from myst_nb import glue as myst_glue
    except ImportError:  # no book being built here: nothing would read the value
        return
    myst_glue(name, value, display=display)


def over_seeds(values: Any, fmt: str = ".2f") -> str:
    """One value per seed (model) as ``"mean (lowest to highest)"``, each formatted by ``fmt``.

    Shapes
    ------
    values : (S,) numbers, S >= 1  ->  a str such as ``"0.97 (0.95 to 0.99)"``
    """
    array = np.asarray(values, dtype=float)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"values must be one number per seed, shape (S,), got shape {array.shape}")
    return f"{array.mean():{fmt}} ({array.min():{fmt}} to {array.max():{fmt}})"
