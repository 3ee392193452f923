"""The GPU variants agree with NumPy: ``mha`` on CuPy arrays, and the torch variant on CUDA.

Every test here is marked ``gpu``; ``conftest.py`` skips them, with the reason, where no
CUDA GPU is usable (no CuPy, no driver, no device). The package's functions on CuPy arrays
are tested by the ``backend`` fixture's ``cupy`` runs in the other files (also marked
``gpu``: ``pytest -m gpu tests`` runs them all); this file holds what is GPU-only.
"""

import dataclasses

import numpy as np
import pytest

import mha
from mha import gpu

pytestmark = pytest.mark.gpu


def _cupy():
    if not gpu.gpu_available():
        pytest.skip(gpu.backend_summary())
    return gpu.array_module()


def _cuda_torch():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch.cuda is not available")
    return torch


def _inputs(rng, dtype=np.float32, batch=2, n_q=48, n_k=80, d_model=64, h=4):
    params = mha.init_params(d_model, h, bias=True, dtype=dtype, seed=7)
    params = dataclasses.replace(params, b_q=rng.standard_normal(h * (d_model // h)).astype(dtype))
    q = rng.standard_normal((batch, n_q, d_model)).astype(dtype)
    kv = rng.standard_normal((batch, n_k, d_model)).astype(dtype)
    mask = mha.combine_masks(mha.causal_mask(n_q, n_k), mha.padding_mask([n_k, 20], n_k))
    return params, q, kv, mask


def test_params_round_trip_through_the_device(rng):
    _cupy()
    params = mha.init_params(16, 2, bias=True, seed=3)
    back = gpu.to_host(gpu.to_device(params))
    for name in ("w_q", "w_k", "w_v", "w_o", "b_q", "b_o"):
        np.testing.assert_array_equal(getattr(back, name), getattr(params, name))


@pytest.mark.parametrize("need_weights", [True, False])
def test_torch_variant_on_cuda_equals_numpy(rng, need_weights):
    torch = _cuda_torch()
    from mha.torch_mha import MultiHeadAttention

    params, q, kv, mask = _inputs(rng, np.float32)
    expected, expected_w = mha.multi_head_attention(q, kv, kv, params, mask)
    module = MultiHeadAttention.from_params(params, device="cuda")
    t_q, t_kv, t_mask = (torch.from_numpy(a).cuda() for a in (q, kv, mask))
    with torch.no_grad():
        out, weights = module(t_q, t_kv, t_kv, t_mask, need_weights=need_weights)
    assert out.device.type == "cuda"
    # TF32 matmuls may be on: compare at a float32-with-TF32 tolerance
    np.testing.assert_allclose(out.cpu().numpy(), expected, atol=2e-3)
    if need_weights:
        np.testing.assert_allclose(weights.cpu().numpy(), expected_w, atol=2e-3)


def test_torch_variant_and_nn_multihead_attention_agree_on_cuda(rng):
    torch = _cuda_torch()
    from mha.torch_mha import MultiHeadAttention

    params, q, _, _ = _inputs(rng, np.float32)
    module = MultiHeadAttention.from_params(params, device="cuda")
    reference = module.to_torch()
    x = torch.from_numpy(q).cuda()
    causal = torch.from_numpy(mha.causal_mask(q.shape[1])).cuda()
    with torch.no_grad():
        ours, _ = module(x, is_causal=True, need_weights=False)
        theirs, _ = reference(x, x, x, attn_mask=~causal, need_weights=False)
    torch.testing.assert_close(ours, theirs, atol=2e-3, rtol=2e-3)


def test_benchmark_runs_the_gpu_implementations():
    from mha.bench import measure, timing

    impls = [i for i in measure.available_impls() if i in timing.GPU_IMPLS]
    assert impls, "a GPU is present, so the benchmark must offer a GPU implementation"
    report = measure.run([(2, 128, 64, 4)], impls, rounds=1, memory=True)
    assert {row["impl"] for row in report["rows"]} == set(impls)
    assert all(row["ms"]["median"] > 0 for row in report["rows"])


def test_the_lean_path_reaches_longer_sequences_on_the_gpu():
    _cupy()
    from mha.bench import measure

    largest = measure.gpu_largest_n(d_model=64, h=2, start=1024, max_n=4096)
    assert largest["lean"] == 4096 and largest["lean: stopped by"] == "max_n"
    assert 0 < largest["with weights"] <= largest["lean"]
