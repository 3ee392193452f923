"""`import mha` stays light, and the GPU helpers fall back to NumPy with one clear sentence."""

import subprocess
import sys

import numpy as np
import pytest

from mha import gpu


def test_import_mha_loads_no_heavy_library():
    code = (
        "import sys, mha, mha.numpy_mha, mha.lean.tiles, mha.lean.threads, mha.bench.timing; "
        "print(sorted(m for m in ('torch', 'cupy', 'matplotlib') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]", result.stdout


@pytest.mark.skipif(gpu.gpu_available(), reason="a GPU is present")
def test_without_a_gpu_the_fallback_is_numpy_and_says_so_once():
    summary = gpu.backend_summary()
    assert summary.startswith("No GPU:") and summary.endswith("using NumPy on the CPU.")
    assert "\n" not in summary
    reasons = ("CuPy is not installed", "is installed but CUDA failed", "found no CUDA device")
    assert sum(reason in summary for reason in reasons) == 1, summary  # says why, once
    assert gpu.backend_summary() is summary  # probed once, not on every call
    assert gpu.array_module() is np
    with pytest.raises(RuntimeError, match=r"array_module\(\)"):
        gpu.to_device(np.zeros(2))
    np.testing.assert_array_equal(gpu.to_host(np.arange(3)), np.arange(3))
