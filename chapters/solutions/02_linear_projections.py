"""Solutions to the exercises of chapter 2, linear projections."""


def head_weight(w, i, num_heads):
    """Head i's block of a fused projection ``w`` of shape (d_model, h*d): its columns."""
    d = w.shape[1] // num_heads
    return w[:, i * d : (i + 1) * d]  # (d_model, d)


def projection_parameter_count():
    """Weights in W^Q, W^K and W^V (no biases) for d_model = 512 and h = 8."""
    d_model, h = 512, 8
    d_k = d_model // h
    # Each of the three is (d_model, h * d_k) = (512, 512), whatever h is.
    return 3 * d_model * (h * d_k)
