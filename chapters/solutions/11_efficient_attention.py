"""Solutions to the exercises of chapter 11, efficient attention."""

import numpy as np


def repeat_kv_heads(k, num_heads):
    """(..., g, n, d) -> (..., h, n, d): query head i gets key/value head i // (h/g)."""
    group_size = num_heads // k.shape[-3]  # h/g query heads share each key/value head
    # Each head repeated group_size times in a row (0, 0, 1, 1, ...), not tiled (0, 1, 0, 1, ...).
    return np.repeat(k, group_size, axis=-3)


def gqa_kv_cache_bytes():
    """KV cache of 32 layers, 8 key/value heads of 128, 8 sequences of 4096 tokens, bfloat16."""
    layers, batch, n, num_kv_heads, d_k, bytes_per_number = 32, 8, 4096, 8, 128, 2
    # One key and one value vector (the 2) per layer, sequence, token and key/value head.
    return 2 * layers * batch * n * num_kv_heads * d_k * bytes_per_number


def head_parallel_all_reduce_bytes():
    """Bytes one device contributes to the all-reduce: its partial output, (B, n, d_model)."""
    batch, n, d_model, bytes_per_number = 8, 2048, 4096, 2
    # A device's heads times its rows of W^O give a full-width partial output; D and h cancel.
    return batch * n * d_model * bytes_per_number
