"""Solutions to chapter 12's exercises: grouped-query attention and the KV cache."""

import numpy as np

import mha


def repeat_kv_heads(k, num_heads):
    """(..., g, n, d) -> (..., h, n, d): query head i gets key/value head i // (h/g)."""
    group_size = num_heads // k.shape[-3]  # h/g query heads share each key/value head
    # each head group_size times in a row (0, 0, 1, 1, ...), not tiled (0, 1, 0, 1, ...)
    return np.repeat(k, group_size, axis=-3)


def gqa_kv_cache_bytes():
    """KV cache: 32 layers, 8 key/value heads of 128, 8 sequences of 4096, bfloat16."""
    layers, batch, n, num_kv_heads, d_k, bytes_per_number = 32, 8, 4096, 8, 128, 2
    # one key and one value vector (the 2) per layer, sequence, token, key/value head
    return 2 * layers * batch * n * num_kv_heads * d_k * bytes_per_number


def grouped_query_attention(q, k, v, params, mask=None):
    """GQA: h query heads, g key/value heads; query head i reads kv head i // (h/g)."""
    h, g = params.num_heads, params.num_kv_heads
    q_heads = mha.split_heads(q @ params.w_q, h)  # (..., h, n_q, d_k)
    k_heads = repeat_kv_heads(
        mha.split_heads(k @ params.w_k, g), h
    )  # (..., h, n_k, d_k)
    v_heads = repeat_kv_heads(
        mha.split_heads(v @ params.w_v, g), h
    )  # (..., h, n_k, d_v)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o, weights


def decode_one_token(x_t, params, cache_k, cache_v):
    """One decoding step: out (..., 1, d_model), and the caches with the new token."""
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(
        x_t @ params.w_q, h
    )  # (..., h, 1, d_k): only the new token's query
    cache_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    cache_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    # the new token is the last position: it may attend every key, its own too; no mask
    heads, _ = mha.scaled_dot_product_attention(
        q, repeat_kv_heads(cache_k, h), repeat_kv_heads(cache_v, h)
    )  # (..., h, 1, d_v)
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v


def predict_cache_saving():
    """A prediction: how many times fewer FLOPs 8192 tokens take with the cache."""
    # Without the cache, step t redoes t tokens: 1 + 2 + ... + n = n^2/2 token-steps
    # against n with it, a factor of n/2 = 4096. The attention part grows faster still
    # (n^3/3 against n^2), so the count comes out a little above: about 4500.
    return 4096


def kv_heads_experiment():
    """KV_HEADS = 1 (multi-query attention): the sequences that fit in 40 GiB."""
    # One sequence's cache is 2 x 80 layers x 4096 tokens x 1 head x 128 x 2 bytes =
    # 0.156 GiB, so 40 GiB holds 256 sequences, eight times as many as at g = 8 (32) and
    # 64 times as many as multi-head attention (4). The price: all 64 query heads read
    # one key/value head, which costs quality; GQA keeps most of the saving and most of
    # the quality.
    return (1, 256)
