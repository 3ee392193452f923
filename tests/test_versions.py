"""An older PyTorch than the book needs is refused at import, with both versions named."""

import subprocess
import sys

import pytest

pytest.importorskip("torch")

from mha.torch_mha import check_torch_version


@pytest.mark.parametrize(
    "version", ["2.5.0", "2.5.1+cu121", "2.6.0a0+git1234", "2.13.0+cpu", "3.0"]
)
def test_new_enough_versions_pass(version):
    check_torch_version(version)


@pytest.mark.parametrize("version", ["2.4.1", "2.1.0+cu118", "1.13.1", "nightly"])
def test_older_versions_are_refused_with_both_versions_named(version):
    with pytest.raises(ImportError) as error:
        check_torch_version(version)
    message = str(error.value)
    assert f"torch {version} is installed" in message
    assert "PyTorch 2.5 or later" in message and "torch>=2.5" in message


@pytest.mark.slow
def test_importing_the_torch_variant_under_an_old_torch_fails_clearly():
    code = "import torch; torch.__version__ = '2.4.1'; import mha.torch_mha"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode != 0
    assert "ImportError" in result.stderr and "torch 2.4.1 is installed" in result.stderr
