"""Chapter 7's GPU branches, executed on the CPU (``MHA_BOOK_FAKE_GPU=1``).

Where no GPU exists, nbval runs chapter 7's CPU branches only; the cells and sizes that
a GPU takes would otherwise first run on a reader's GPU. With ``MHA_BOOK_FAKE_GPU=1`` the
chapter swaps in :mod:`mha.book.fake_gpu` (NumPy arrays and CPU tensors standing in for CuPy and
CUDA, small sizes) and takes every GPU branch. This test runs it so, top to bottom.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mha.bench import timing
from mha.book import fake_gpu

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")

CHAPTERS = Path(__file__).resolve().parent.parent / "chapters"
CHAPTER_7 = CHAPTERS / "07_gpu.ipynb"


def _outputs(nb) -> str:
    return "\n".join(
        out.get("text", "") for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
    )


@pytest.mark.slow
def test_chapter_7_runs_its_gpu_branches_on_the_cpu(monkeypatch):
    monkeypatch.setenv(fake_gpu.ENV_VAR, "1")
    nb = nbformat.read(CHAPTER_7, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(CHAPTERS)}}
    )
    client.execute()  # raises CellExecutionError on any failing cell or assert
    printed = _outputs(nb)
    assert "CuPy on a GPU: True" in printed  # the GPU branches were taken
    assert "torch variant, CUDA" in printed and "mha on CuPy, GPU" in printed
    assert "the call returned after" in printed  # the asynchronous-call cell's GPU branch


def test_the_flag_is_off_unless_set_to_1(monkeypatch):
    monkeypatch.delenv(fake_gpu.ENV_VAR, raising=False)
    assert not fake_gpu.enabled()
    monkeypatch.setenv(fake_gpu.ENV_VAR, "0")
    assert not fake_gpu.enabled()
    monkeypatch.setenv(fake_gpu.ENV_VAR, "1")
    assert fake_gpu.enabled()


def test_the_fake_device_copies_and_computes_like_numpy():
    import mha

    params = mha.init_params(16, 2, seed=0)
    x = np.random.default_rng(0).standard_normal((1, 5, 16)).astype(np.float32)
    x_dev, params_dev = fake_gpu.gpu.to_device(x), fake_gpu.gpu.to_device(params)
    assert x_dev is not x and np.array_equal(x_dev, x)
    assert params_dev.w_q is not params.w_q
    out, _ = mha.multi_head_attention(x_dev, x_dev, x_dev, params_dev)
    np.testing.assert_array_equal(
        fake_gpu.gpu.to_host(out), mha.multi_head_attention(x, x, x, params)[0]
    )
    assert fake_gpu.cupy.float32 is np.float32


def test_the_fake_memory_pool_measures_the_peak_of_a_call():
    pool = fake_gpu.cupy.get_default_memory_pool()
    pool.free_all_blocks()
    before = pool.total_bytes()
    np.ones(2**20, dtype=np.float64)  # 8 MiB, freed at once
    assert pool.total_bytes() - before >= 8 * 2**20


def test_fake_gpu_timing_runs_the_cpu_counterparts():
    shape = (1, 16, 32, 4)
    calls = {impl: fake_gpu.make_call(impl, shape) for impl in ("cupy", "torch variant cuda")}
    expected = timing.make_call("numpy", shape)()
    np.testing.assert_allclose(calls["cupy"](), expected, atol=1e-5)
    np.testing.assert_allclose(calls["torch variant cuda"]().numpy(), expected, atol=1e-5)
    times = fake_gpu.time_interleaved(calls, rounds=1)
    assert list(times) == list(calls) and all(t > 0 for t in times.values())
