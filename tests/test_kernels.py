"""The lean path's kernels chosen by the machine (:mod:`mha.lean.kernels`): each choice forced,
the results compared within an error bound; the rules that choose them, on synthetic input.
"""

from dataclasses import replace

import array_api_strict
import numpy as np
import pytest

import mha
from mha.lean import kernels, tiles
from mha.positions import ALiBi

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix


def _error_bound(x, params, dtype, bias_max=0.0):
    """How far a float ``dtype`` computation of attention's output may be from another.

    A score ``q_i . k_j / sqrt(d_k)`` is off by at most ``~d_k eps |q_i| |k_j| / sqrt(d_k)``
    (``S eps d_k`` for ``S`` the largest ``|q_i| |k_j| / sqrt(d_k)``), which moves each weight
    by that factor and the output by as much times ``max |v|`` (a bias of at most ``bias_max``
    adds ``bias_max eps``); the powers, their sum and the
    weighted sum add a few ``eps`` each (with room for two computations, and the float64
    reference's own). Row norms of the whole projections bound the heads' norms.
    """
    w = {name: getattr(params, name).astype(np.float64) for name in ("w_q", "w_k", "w_v")}
    x64 = x.astype(np.float64)
    q, k, v = (x64 @ w[name] for name in ("w_q", "w_k", "w_v"))
    d_k = q.shape[-1] // params.num_heads
    s = np.linalg.norm(q, axis=-1).max() * np.linalg.norm(k, axis=-1).max() / np.sqrt(d_k)
    eps = np.finfo(dtype).eps
    v_out = np.abs(v).max() * np.abs(params.w_o.astype(np.float64)).sum(axis=0).max()
    return 4 * eps * (d_k * s + bias_max + 16) * v_out


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("magnitude", [0.3, 4.0])  # shift-free, and scores far beyond the bound
@pytest.mark.parametrize("bias_kind", [None, "array", "alibi"])
def test_both_exponentials_give_the_readable_paths_output(
    rng, monkeypatch, dtype, magnitude, bias_kind
):
    """exp and exp2 are two routes to the same powers (a bias goes into the route's base
    too): each within the error bound of float rounding (:func:`_error_bound`) of the
    readable path, computed in float64."""
    params = mha.init_params(32, 4, dtype=dtype, seed=3)
    x = (rng.standard_normal((2, 200, 32)) * magnitude).astype(dtype)
    mask = mha.combine_masks(mha.causal_mask(200), mha.padding_mask([200, 90], 200))
    biases = {None: None, "array": rng.standard_normal((4, 200, 200)) * 3, "alibi": ALiBi(4)}
    bias = biases[bias_kind]
    slopes_times_distance = 200.0  # ALiBi: slopes at most 1, |j - i| < 200
    bias_max = {None: 0.0, "array": np.abs(biases["array"]).max(), "alibi": slopes_times_distance}
    bias_max = bias_max[bias_kind]
    weights = {f: getattr(params, f).astype(np.float64) for f in ("w_q", "w_k", "w_v", "w_o")}
    x64 = x.astype(np.float64)
    params64 = replace(params, **weights)
    expected, _ = mha.multi_head_attention(x64, x64, x64, params64, mask, bias=bias)
    bias = bias.astype(dtype) if bias_kind == "array" else bias
    bound = _error_bound(x, params, dtype, bias_max)
    chosen, taken = kernels.exponential, []

    def spy(xp, dt):
        taken.append(chosen(xp, dt).name)
        return chosen(xp, dt)

    monkeypatch.setattr(kernels, "exponential", spy)
    for route in sorted(kernels.EXPONENTIALS):
        monkeypatch.setenv(kernels.EXP_VARIABLE, route)
        taken.clear()
        out, _ = mha.multi_head_attention(
            x, x, x, params, mask, need_weights=False, memory_budget=1, bias=bias
        )
        assert set(taken) == {route}  # the forced route is the one taken, everywhere
        assert out.dtype == dtype
        assert np.abs(out - expected).max() <= bound, (route, np.abs(out - expected).max(), bound)


def test_the_measurement_keeps_the_faster_exponential(monkeypatch):
    monkeypatch.delenv(kernels.EXP_VARIABLE, raising=False)
    for faster, slower in (("exp", "exp2"), ("exp2", "exp")):
        seconds = {getattr(np, faster): 1.0, getattr(np, slower): 2.0}
        monkeypatch.setattr(kernels, "_seconds", lambda ufunc, x, out, s=seconds: s[ufunc])
        kernels.measured_exponential.cache_clear()
        try:
            assert kernels.exponential(np, np.float32).name == faster
        finally:
            kernels.measured_exponential.cache_clear()  # the next call measures this machine


def test_the_measured_choice_is_kept_for_the_process(monkeypatch):
    monkeypatch.delenv(kernels.EXP_VARIABLE, raising=False)
    first = kernels.exponential(np, np.float32)
    monkeypatch.setattr(kernels, "_seconds", lambda *args: pytest.fail("measured again"))
    assert kernels.exponential(np, np.dtype(np.float32)) is first
    assert first in kernels.EXPONENTIALS.values()


def test_a_forced_exponential_must_be_known_and_other_libraries_take_exp(monkeypatch):
    monkeypatch.setenv(kernels.EXP_VARIABLE, "expm1")
    with pytest.raises(ValueError, match=r"MHA_LEAN_EXP must be one of \['exp', 'exp2'\].*'expm1'"):
        kernels.exponential(np, np.float32)
    monkeypatch.delenv(kernels.EXP_VARIABLE)
    assert kernels.exponential(array_api_strict, array_api_strict.float32).name == "exp"


@pytest.mark.parametrize("route", sorted(kernels.EXPONENTIALS))
def test_each_exponential_is_e_to_the_score(route):
    s = np.linspace(-30.0, 0.0, 301)
    power = kernels.EXPONENTIALS[route]
    np.testing.assert_allclose(power(np, power.scale * s), np.exp(s), rtol=1e-13)


def _cache_dir(tmp_path, levels):
    for i, (level, kind, size, shared) in enumerate(levels):
        index = tmp_path / f"index{i}"
        index.mkdir(parents=True)
        for name, value in (("level", level), ("type", kind), ("size", size)):
            (index / name).write_text(f"{value}\n")
        (index / "shared_cpu_list").write_text(f"{shared}\n")
    return tmp_path


def test_tiles_are_a_quarter_of_the_last_level_cache_per_core(tmp_path):
    epyc = _cache_dir(
        tmp_path / "epyc",
        [(1, "Data", "32K", "0"), (1, "Instruction", "32K", "0"), (2, "Unified", "512K", "0"),
         (3, "Unified", "32768K", "0-1")],
    )  # fmt: skip
    assert kernels.last_level_cache_per_core(epyc) == 16 * 2**20
    assert kernels.tile_elements_for(16 * 2**20) == 2**20  # 4 MiB of float32: this machine's
    server = _cache_dir(
        tmp_path / "server", [(2, "Unified", "2M", "0"), (3, "Unified", "30M", "0-11,24-35")]
    )
    assert kernels.last_level_cache_per_core(server) == 30 * 2**20 // 24
    assert kernels.tile_elements_for(30 * 2**20 // 24) == 2**16  # 1.25 MiB per core: the least
    assert kernels.tile_elements_for(6 * 2**20) == 2**18  # 384 Ki numbers, rounded down
    assert kernels.tile_elements_for(2**30) == 2**20  # never above the largest
    assert kernels.last_level_cache_per_core(tmp_path / "none") == 0  # not Linux, no sysfs
    assert kernels.tile_elements_for(0) == kernels.MAX_TILE_ELEMENTS


@pytest.mark.parametrize("elements", [2**12, 2**16, 2**20])
def test_every_tile_size_gives_the_same_output(rng, monkeypatch, elements):
    params = mha.init_params(32, 4, seed=4)
    n = 1100  # scores of 19 MiB: the lean path, with room for the largest tile on 2 workers
    x = rng.standard_normal((1, n, 32)).astype(np.float32)
    mask = mha.causal_mask(n)
    expected, _ = mha.multi_head_attention(x, x, x, params, mask)
    seen = []
    online = tiles._online_softmax_attention

    def spy(xp, q, *args):
        seen.append(q.shape[-2])
        return online(xp, q, *args)

    monkeypatch.setattr(kernels, "tile_elements", lambda: elements)
    monkeypatch.setattr(tiles, "_online_softmax_attention", spy)
    budget = 4 * n * n * 4 - 1  # just under the (1, h, n, n) float32 scores
    out, _ = mha.multi_head_attention(
        x, x, x, params, mask, need_weights=False, memory_budget=budget
    )
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    assert max(seen) == tiles.tile_shape(n, n, elements)[0]  # the forced size was used
