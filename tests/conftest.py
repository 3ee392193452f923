"""Shared fixtures; tests marked ``gpu`` skip, with the reason, where no GPU exists."""

import numpy as np
import pytest


def _gpu_reason() -> str | None:
    """None when a CUDA GPU is usable through CuPy or torch, else why not."""
    from mha.cupy_mha import backend_summary, gpu_available

    if gpu_available():
        return None
    try:
        import torch

        if torch.cuda.is_available():
            return None
    except ImportError:
        pass
    return backend_summary()


def pytest_collection_modifyitems(config, items):
    gpu_items = [item for item in items if "gpu" in item.keywords]
    if not gpu_items:
        return
    reason = _gpu_reason()
    if reason is not None:
        for item in gpu_items:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


def pytest_terminal_summary(terminalreporter):
    """Print what tests recorded as a ``summary`` property (e.g. the checks' named-right rate)."""
    for outcome in ("passed", "failed"):
        for report in terminalreporter.stats.get(outcome, []):
            for name, value in getattr(report, "user_properties", ()):
                if name == "summary":
                    terminalreporter.write_line(value)
