"""Solutions to the exercises of chapter 7, attention on the GPU."""


def attention_weights_bytes():
    """Bytes of one layer's attention weights: B=4, h=16, n=8192, float16."""
    batch, heads, n, bytes_per_number = 4, 16, 8192, 2
    # One (n, n) matrix of weights per sequence and head: n queries times n keys.
    return batch * heads * n * n * bytes_per_number
