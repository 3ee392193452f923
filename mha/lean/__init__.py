"""The memory-lean, tiled path of :func:`mha.multi_head_attention` (machinery, not taught API).

One entry, :func:`multi_head_attention`: the output of a layer whose ``(..., h, n_q, n_k)``
scores are computed in tiles that fit a memory budget, combined by an online softmax
(:mod:`mha.lean.tiles`); on NumPy the tiles run on a thread pool (:mod:`mha.lean.threads`)
whose steps :mod:`mha.lean.phases` can time. :func:`tile_shape` is the tiling itself, for
the book's diagram of it.
"""

from mha.lean.tiles import multi_head_attention, tile_shape

__all__ = ["multi_head_attention", "tile_shape"]
