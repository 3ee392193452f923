"""`import mha` stays light, and the GPU helpers fall back to NumPy with one clear sentence."""

import subprocess
import sys

import numpy as np
import pytest

from mha import cupy_mha


def test_import_mha_loads_no_heavy_library():
    code = (
        "import sys, mha, mha.numpy_mha, mha.lean_attention, mha.threads, mha.timing; "
        "print(sorted(m for m in ('torch', 'cupy', 'matplotlib') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]", result.stdout


@pytest.mark.skipif(cupy_mha.gpu_available(), reason="a GPU is present")
def test_without_a_gpu_the_fallback_is_numpy_and_says_so_once():
    summary = cupy_mha.backend_summary()
    assert summary.startswith("No GPU:") and summary.endswith("using NumPy on the CPU.")
    assert "\n" not in summary
    reasons = ("CuPy is not installed", "is installed but CUDA failed", "found no CUDA device")
    assert sum(reason in summary for reason in reasons) == 1, summary  # says why, once
    assert cupy_mha.backend_summary() is summary  # probed once, not on every call
    assert cupy_mha.array_module() is np
    with pytest.raises(RuntimeError, match=r"array_module\(\)"):
        cupy_mha.to_device(np.zeros(2))
    np.testing.assert_array_equal(cupy_mha.to_host(np.arange(3)), np.arange(3))
