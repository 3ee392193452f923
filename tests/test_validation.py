"""Bad input raises TypeError/ValueError naming the argument, what was expected and what arrived."""

import re

import numpy as np
import pytest
import torch

import mha
from mha.torch_mha import MultiHeadAttention

rng = np.random.default_rng(0)
X = rng.standard_normal((2, 4, 8)).astype(np.float32)  # (B, n, d_model)
Q = rng.standard_normal((2, 4, 6)).astype(np.float32)
K = rng.standard_normal((2, 5, 6)).astype(np.float32)
V = rng.standard_normal((2, 5, 3)).astype(np.float32)
P = mha.init_params(8, 2)
M = MultiHeadAttention(8, 2)
T = torch.from_numpy(X)
sdpa = mha.scaled_dot_product_attention

BAD_CALLS = {
    "k d_k differs from q": (lambda: sdpa(Q, K[..., :4], V), ValueError, "k", "d_k=4"),
    "v length differs from k": (lambda: sdpa(Q, K, V[:, :3]), ValueError, "v", "n_k=3"),
    "q of rank 1": (lambda: sdpa(Q[0, 0], K, V), ValueError, "q", "at least 2"),
    "integer q": (lambda: sdpa(Q.astype(np.int64), K, V), TypeError, "q", "int64"),
    "q as a list": (lambda: sdpa(Q.tolist(), K, V), TypeError, "q", "list"),
    "k of another dtype": (lambda: sdpa(Q, K.astype(np.float64), V), TypeError, "k", "float64"),
    "k from torch, q from numpy": (
        lambda: sdpa(Q, torch.from_numpy(K), V),
        TypeError,
        "k",
        "torch",
    ),
    "float mask": (lambda: sdpa(Q, K, V, np.ones((4, 5))), TypeError, "mask", "float64"),
    "mask that does not broadcast": (
        lambda: sdpa(Q, K, V, np.ones((4, 4), bool)),
        ValueError,
        "mask",
        "(4, 4)",
    ),
    "mask that would grow the batch": (
        lambda: sdpa(Q, K, V, np.ones((3, 2, 4, 5), bool)),
        ValueError,
        "mask",
        "(3, 2, 4, 5)",
    ),
    "batch dims that disagree": (
        lambda: sdpa(Q, K[:1].repeat(3, 0), V[:1].repeat(3, 0)),
        ValueError,
        "k",
        "(3,)",
    ),
    "num_heads does not divide": (lambda: mha.split_heads(X, 3), ValueError, "num_heads", "3"),
    "num_heads zero": (lambda: mha.split_heads(X, 0), ValueError, "num_heads", "0"),
    "num_heads not an int": (lambda: mha.split_heads(X, 2.5), TypeError, "num_heads", "2.5"),
    "merge_heads of a 2-D array": (lambda: mha.merge_heads(X[0]), ValueError, "x", "(4, 8)"),
    "softmax axis out of range": (lambda: mha.softmax(X, axis=3), ValueError, "axis", "3"),
    "init_params heads do not divide": (
        lambda: mha.init_params(10, 3),
        ValueError,
        "num_heads",
        "d_model=10",
    ),
    "init_params negative d_model": (lambda: mha.init_params(-8, 2), ValueError, "d_model", "-8"),
    "init_params integer dtype": (
        lambda: mha.init_params(8, 2, dtype=np.int32),
        TypeError,
        "dtype",
        "int32",
    ),
    "MHAParams w_o of the wrong size": (
        lambda: mha.MHAParams(P.w_q, P.w_k, P.w_v, P.w_o[:4], 2),
        ValueError,
        "w_o",
        "4 rows",
    ),
    "MHAParams bias of the wrong size": (
        lambda: mha.MHAParams(P.w_q, P.w_k, P.w_v, P.w_o, 2, b_q=np.zeros(3, np.float32)),
        ValueError,
        "b_q",
        "(3,)",
    ),
    "params of the wrong type": (
        lambda: mha.multi_head_attention(X, X, X, {"w_q": P.w_q}),
        TypeError,
        "params",
        "dict",
    ),
    "q with the wrong feature size": (
        lambda: mha.multi_head_attention(X[..., :6], X, X, P),
        ValueError,
        "q",
        "6 features",
    ),
    "params of another dtype than q": (
        lambda: mha.multi_head_attention(
            X.astype(np.float64), X.astype(np.float64), X.astype(np.float64), P
        ),
        TypeError,
        "params",
        "float32",
    ),
    "mask with the wrong number of heads": (
        lambda: mha.multi_head_attention(X, X, X, P, np.ones((3, 4, 4), bool)),
        ValueError,
        "mask",
        "(3, 4, 4)",
    ),
    "causal_mask with n_q = 0": (lambda: mha.causal_mask(0), ValueError, "n_q", "0"),
    "padding length above n_k": (
        lambda: mha.padding_mask([2, 7], 5),
        ValueError,
        "lengths[1]",
        "7",
    ),
    "negative padding length": (lambda: mha.padding_mask([-1], 5), ValueError, "lengths[0]", "-1"),
    "float padding lengths": (lambda: mha.padding_mask([2.5], 5), TypeError, "lengths", "float64"),
    "padding lengths of rank 2": (
        lambda: mha.padding_mask([[2]], 5),
        ValueError,
        "lengths",
        "(1, 1)",
    ),
    "combine a float mask": (
        lambda: mha.combine_masks(np.ones((2, 2), bool), np.ones((2, 2))),
        TypeError,
        "masks[1]",
        "float64",
    ),
    "torch module given numpy": (lambda: M(X), TypeError, "q", "ndarray"),
    "torch module float mask": (lambda: M(T, mask=torch.ones(4, 4)), TypeError, "mask", "float32"),
    "torch module mask shape": (
        lambda: M(T, mask=torch.ones(3, 4, 4, dtype=torch.bool)),
        ValueError,
        "mask",
        "(3, 4, 4)",
    ),
    "torch module head_gate size": (
        lambda: M(T, head_gate=torch.ones(3)),
        ValueError,
        "head_gate",
        "(3,)",
    ),
    "torch module wrong kdim": (lambda: M(T, T[..., :6]), ValueError, "k", "6 features"),
    "torch module bad impl": (lambda: M(T, impl="flash"), ValueError, "impl", "flash"),
    "numpy function given torch": (lambda: mha.softmax(T), TypeError, "x", "torch_mha"),
}


@pytest.mark.parametrize("case", list(BAD_CALLS))
def test_bad_call_names_the_argument_and_what_arrived(case):
    call, error, argument, arrived = BAD_CALLS[case]
    with pytest.raises(error) as info:
        call()
    message = str(info.value)
    assert re.search(rf"(^|[^\w.]){re.escape(argument)}($|[^\w])", message), message
    assert arrived in message, message


def test_mixing_strict_and_numpy_arrays_is_refused():
    strict = pytest.importorskip("array_api_strict")
    with pytest.raises(TypeError, match="k comes from array_api_strict but q comes from numpy"):
        mha.scaled_dot_product_attention(Q, strict.asarray(K), V)
