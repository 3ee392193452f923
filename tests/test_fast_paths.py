"""The lean, fast path of ``multi_head_attention`` (need_weights=False) equals the readable one.

The lean path lives in :mod:`mha.lean.tiles` (its thread pool in :mod:`mha.lean.threads`),
the readable one in :mod:`mha.numpy_mha`.

The fast path computes the scores in tiles (blocks of queries, and blocks of keys combined
by an online softmax) and, on NumPy, runs the tiles on a thread pool. These tests force
every tiling with small memory budgets and compare with
:func:`mha.scaled_dot_product_attention`, the block the book teaches.
"""

import dataclasses
import os
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path

import array_api_compat
import numpy as np
import pytest

import mha
from mha.lean import kernels, threads, tiles

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix

XP = array_api_compat.array_namespace(np.zeros(1))


def _structured_mask(rng, n_q, n_k):
    """Rows whose first keys are all hidden, fully hidden rows, and random rows."""
    mask = rng.random((n_q, n_k)) < 0.6
    mask[0::4] = np.arange(n_k) >= n_k - 5  # only the last keys: the first blocks are all hidden
    mask[1::7] = False  # no key at all
    return mask


def _padding_for(batch, n_k):
    """Lengths 150 and 3 (and 70 without a batch), broadcastable to (*batch, h, n_q, n_k)."""
    if not batch:
        return mha.padding_mask([70], n_k)[0]  # (1, 1, n_k)
    mask = mha.padding_mask([n_k, 3], n_k)  # (2, 1, 1, n_k)
    return mask.reshape((2,) + (1,) * len(batch) + (1, n_k))  # (2, [1,] 1, 1, n_k)


# tilings of the (n_q=130, n_k=150) scores: elements per worker's tile -> (rows, key block)
TILINGS = {
    "64 x 64 tiles: keys in blocks of 64": (1, (64, 64)),
    "64 rows, keys in blocks of 100": (6400, (64, 100)),
    "query blocks of 100, whole rows of keys": (100 * 150, (100, 150)),
    "one tile": (10**6, (130, 150)),
}


@pytest.mark.parametrize(("tile_elements", "tile"), TILINGS.values(), ids=TILINGS.keys())
@pytest.mark.parametrize("batch", [(), (2,), (2, 3)])
@pytest.mark.parametrize("mask_kind", ["none", "causal", "padding", "per_head", "structured"])
@pytest.mark.parametrize(("magnitude", "shift_free"), [(0.5, True), (3.0, False)])
def test_blocked_attention_equals_the_readable_one_float64(
    rng, monkeypatch, tile_elements, tile, batch, mask_kind, magnitude, shift_free
):
    h, n_q, n_k = 3, 130, 150
    # magnitude 3: scores up to ~100, beyond the shift-free bound; the running maximum moves
    q = rng.standard_normal((*batch, h, n_q, 8)) * magnitude
    k = rng.standard_normal((*batch, h, n_k, 8)) * magnitude
    v = rng.standard_normal((*batch, h, n_k, 5))
    masks = {
        "none": None,
        "causal": mha.causal_mask(n_q, n_k),
        "padding": _padding_for(batch, n_k),
        "per_head": rng.random((h, n_q, n_k)) < 0.3,
        "structured": _structured_mask(rng, n_q, n_k),
    }
    mask = masks[mask_kind]
    expected, _ = mha.scaled_dot_product_attention(q, k, v, mask)
    seen = []
    online = tiles._online_softmax_attention

    def spy(xp, q, k, v, blocked, block_k, shift_free, bias):
        seen.append((q.shape[-2], block_k, shift_free))
        return online(xp, q, k, v, blocked, block_k, shift_free, bias)

    monkeypatch.setattr(tiles, "_online_softmax_attention", spy)
    budget = tile_elements * 8 * threads.width()  # float64
    out = tiles.attention(XP, q, k, v, mask, budget)
    assert out.shape == expected.shape
    assert out.dtype == expected.dtype
    np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-12)
    assert max(seen) == (*tile, shift_free)  # the full tiles (the threads run them in any order)


def test_scores_are_small_bounds_every_score():
    q = np.full((1, 4, 16), 0.5)  # |q_i| = 2
    k = np.full((1, 9, 16), 5.0)  # |k_j| = 20: scores are exactly 40, e**40 < 2**60
    v = np.ones((1, 9, 3))
    assert tiles._scores_are_small(XP, q, k, v)
    assert not tiles._scores_are_small(XP, q, k * 1.1, v)  # 44 > 60 ln 2 = 41.6
    assert not tiles._scores_are_small(XP, q, k, v * 2.0**60)  # outputs could overflow
    assert not tiles._scores_are_small(XP, q * np.nan, k, v)


def test_tile_shape_prefers_whole_rows_of_at_most_256_queries_and_never_goes_below_64():
    assert tiles.tile_shape(4096, 4096, 2**20) == (256, 4096)
    assert tiles.tile_shape(1024, 1024, 2**20) == (256, 1024)  # at most 256 rows
    assert tiles.tile_shape(100, 50, 2**20) == (100, 50)
    assert tiles.tile_shape(4096, 8192, 8192 * 100) == (100, 8192)
    assert tiles.tile_shape(4096, 8192, 8192 * 10) == (64, 1280)  # keys in blocks
    assert tiles.tile_shape(4096, 8192, 1) == (64, 64)
    assert tiles.tile_shape(10, 5, 1) == (10, 5)


@pytest.mark.parametrize("block_k", [1, 7, 64, 150, 1000])
@pytest.mark.parametrize(("magnitude", "shift_free"), [(4.0, False), (0.5, True)])
@pytest.mark.parametrize("route", sorted(kernels.EXPONENTIALS))
def test_online_softmax_over_key_blocks_equals_one_softmax(
    rng, monkeypatch, block_k, magnitude, shift_free, route
):
    monkeypatch.setenv(kernels.EXP_VARIABLE, route)
    q = rng.standard_normal((2, 37, 8)) * magnitude
    k = rng.standard_normal((2, 150, 8)) * magnitude
    v = rng.standard_normal((2, 150, 5))
    mask = _structured_mask(rng, 37, 150)
    expected, _ = mha.scaled_dot_product_attention(q, k, v, mask)
    assert tiles._scores_are_small(XP, q / np.sqrt(8), k, v) == shift_free  # natural units
    scaled_q = q * kernels.EXPONENTIALS[route].scale / np.sqrt(8)  # in the route's base
    out = tiles._online_softmax_attention(XP, scaled_q, k, v, ~mask, block_k, shift_free)
    np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(out[:, 1::7], 0)  # fully hidden rows: zeros, not NaN


@pytest.mark.parametrize("budget", [1, 2**16, 2**40])
def test_public_function_float32_equals_to_1e_6(rng, backend, budget):
    """On NumPy, array_api_strict (the generic tiles) and CuPy every tiling; on torch the fused path."""
    params = mha.init_params(64, 4, bias=True, seed=5)
    params = dataclasses.replace(params, b_q=rng.standard_normal(16 * 4).astype(np.float32))
    x = rng.standard_normal((2, 300, 64)).astype(np.float32)
    mask = mha.combine_masks(mha.causal_mask(300), mha.padding_mask([300, 120], 300))
    expected, _ = mha.multi_head_attention(x, x, x, params, mask)
    x_b, mask_b = backend.asarray(x), backend.asarray(mask)
    out, weights = backend.multi_head_attention(
        x_b, x_b, x_b, params, mask_b, need_weights=False, memory_budget=budget
    )
    assert weights is None
    out = backend.to_numpy(out)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)


def test_cross_attention_with_broadcast_batch_and_other_kdim(rng):
    params = mha.init_params(16, 2, d_k=8, d_v=4, dtype=np.float64, seed=1)
    params = dataclasses.replace(params, w_k=rng.standard_normal((16, 16)))
    q = rng.standard_normal((3, 1, 20, 16))  # broadcasts against kv's (1, 4, ...) batch
    kv = rng.standard_normal((1, 4, 90, 16))
    mask = mha.causal_mask(20, 90)
    expected, _ = mha.multi_head_attention(q, kv, kv, params, mask)
    out, _ = mha.multi_head_attention(q, kv, kv, params, mask, need_weights=False, memory_budget=1)
    assert out.shape == (3, 4, 20, 16)
    np.testing.assert_allclose(out, expected, atol=1e-12)


def test_the_lean_path_is_chosen_only_when_the_scores_exceed_the_budget(rng, monkeypatch):
    calls = []
    blocked = tiles.attention

    def spy(*args):
        calls.append(args[5])  # memory_budget
        return blocked(*args)

    monkeypatch.setattr(tiles, "attention", spy)
    params = mha.init_params(32, 4, seed=0)
    x = rng.standard_normal((2, 16, 32)).astype(np.float32)
    scores_bytes = 2 * 4 * 16 * 16 * 4  # (B, h, n, n) float32
    mha.multi_head_attention(x, x, x, params, need_weights=False, memory_budget=scores_bytes)
    assert calls == []
    mha.multi_head_attention(x, x, x, params, need_weights=False, memory_budget=scores_bytes - 1)
    assert calls == [scores_bytes - 1]
    mha.multi_head_attention(x, x, x, params, need_weights=True, memory_budget=1)
    assert len(calls) == 1  # weights requested: the full scores are needed anyway
    default = mha.numpy_mha.DEFAULT_MEMORY_BUDGET["cpu"]
    n = int((default / (4 * 4)) ** 0.5)  # (1, h=4, n, n) float32 scores just under the default
    for size, chosen in ((n, False), (n + 1, True)):
        x = rng.standard_normal((1, size, 32)).astype(np.float32)
        calls.clear()
        mha.multi_head_attention(x, x, x, params, need_weights=False)
        assert calls == ([default] if chosen else [])


def test_lean_path_peak_memory_is_a_fraction_of_the_weights_path(rng):
    params = mha.init_params(64, 4, seed=0)
    x = rng.standard_normal((1, 1024, 64)).astype(np.float32)
    budget = 2**20
    peaks = {}
    for need_weights in (True, False):
        tracemalloc.start()
        mha.multi_head_attention(x, x, x, params, need_weights=need_weights, memory_budget=budget)
        peaks[need_weights] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    scores_bytes = 4 * 1024 * 1024 * 4
    assert peaks[True] >= scores_bytes  # the weights path holds all (h, n, n) scores
    assert peaks[False] < peaks[True] / 8
    assert peaks[False] < budget + 12 * x.nbytes  # the tiles, plus q/k/v-sized arrays


def test_blas_thread_count_is_restored_after_the_threaded_path(rng):
    threadpoolctl = pytest.importorskip("threadpoolctl")
    before = [info["num_threads"] for info in threadpoolctl.threadpool_info()]
    params = mha.init_params(32, 4, seed=0)
    x = rng.standard_normal((2, 256, 32)).astype(np.float32)
    mha.multi_head_attention(x, x, x, params, need_weights=False, memory_budget=1)
    assert [info["num_threads"] for info in threadpoolctl.threadpool_info()] == before


def test_float16_takes_the_generic_path_and_stays_close(rng):
    params = mha.init_params(32, 4, seed=0, dtype=np.float16)
    x = rng.standard_normal((2, 100, 32)).astype(np.float16)
    expected, _ = mha.multi_head_attention(x, x, x, params, mha.causal_mask(100))
    out, _ = mha.multi_head_attention(
        x, x, x, params, mha.causal_mask(100), need_weights=False, memory_budget=1
    )
    assert out.dtype == np.float16
    np.testing.assert_allclose(out.astype(np.float32), expected.astype(np.float32), atol=2e-3)


@pytest.mark.parametrize(
    ("budget", "error", "message"),
    [
        (0, ValueError, "memory_budget must be a positive integer, got 0"),
        (1.5, TypeError, "memory_budget must be a positive integer, got float 1.5"),
        (True, TypeError, "memory_budget must be a positive integer, got bool"),
    ],
)
def test_bad_memory_budget_is_refused(budget, error, message):
    params = mha.init_params(8, 2)
    x = np.zeros((3, 8), np.float32)
    with pytest.raises(error, match=message):
        mha.multi_head_attention(x, x, x, params, need_weights=False, memory_budget=budget)


def test_benchmark_flop_count_matches_the_products():
    from mha.bench import timing

    batch, n, d = 3, 10, 8
    projections = 4 * (2 * batch * n * d * d)  # q, k, v and output: (B n, d) @ (d, d)
    attention = 2 * (2 * batch * n * n * d)  # Q K^T and P V, all heads: h * d_k = d
    assert timing.flops(batch, n, d) == projections + attention


def _assert_product_close(got, x, w, b=None):
    """``got`` equals ``x @ w (+ b)`` within the rounding error bound of a product.

    A length-K dot product in floating point is off from the exact value by at most
    ``K eps (|x| @ |w|)`` elementwise (to first order; ``eps`` the dtype's unit roundoff), and so
    is any other blocking or kernel of it (BLAS, SIMD width, the order of the sums): two of
    them differ by at most twice that. The bound holds on every CPU, not just this one's.
    """
    dtype = np.result_type(x, w)
    exact = x.astype(np.float64) @ w.astype(np.float64) + (0.0 if b is None else b)
    size = np.abs(x.astype(np.float64)) @ np.abs(w.astype(np.float64))
    bound = 2 * x.shape[-1] * np.finfo(dtype).eps * size
    if dtype == np.float64:  # the float64 reference itself is off by as much again
        bound = 2 * bound
    assert np.all(np.abs(got - exact) <= bound + np.finfo(dtype).tiny)


@pytest.mark.parametrize("rows", [1, 7, 300])
def test_threaded_projection_equals_one_product(rng, rows):
    x = rng.standard_normal((rows, 48)).astype(np.float32)
    w = rng.standard_normal((48, 20)).astype(np.float32)
    _assert_product_close(threads.matmul(x, w), x, w)
    buffer = np.full(rows * 20, np.nan, dtype=np.float32)
    into = threads.matmul(x, w, out=buffer)
    assert np.shares_memory(into, buffer)
    _assert_product_close(into, x, w)
    x3 = rng.standard_normal((2, 3, 48))
    b = rng.standard_normal(20)
    _assert_product_close(tiles._project_on_threads(x3, w.astype(np.float64), b), x3, w, b)


def test_thread_pool_runs_every_task_and_raises_the_first_error():
    done = []
    threads.run(lambda i: done.append(i), [(i,) for i in range(10)])
    assert sorted(done) == list(range(10))

    def fail(i):
        if i == 3:
            raise ValueError("task 3 failed")

    with pytest.raises(ValueError, match="task 3 failed"):
        threads.run(fail, [(i,) for i in range(6)])


def _blas_threads() -> list[int]:
    return [lib.num_threads for lib in threads._numpy_blas().lib_controllers]


def _threads_of_one_lean_call(rng, monkeypatch, meet: int = 1) -> set[int]:
    """The threads that ran tiles in one lean call (of several tiles). With ``meet=2`` the
    first tiles wait (10 s at most) until two threads run one each, so that a busy machine,
    where the caller could take every tile before a helper starts, cannot hide a helper."""
    seen = set()
    online = tiles._online_softmax_attention
    barrier = threading.Barrier(meet, timeout=10)

    def spy(*args):
        if threading.get_ident() not in seen and len(seen) < meet:
            seen.add(threading.get_ident())
            barrier.wait()  # BrokenBarrierError (the test fails) if no other thread comes
        seen.add(threading.get_ident())
        return online(*args)

    monkeypatch.setattr(tiles, "_online_softmax_attention", spy)
    params = mha.init_params(32, 4, seed=0)
    x = rng.standard_normal((2, 256, 32)).astype(np.float32)
    mha.multi_head_attention(x, x, x, params, need_weights=False, memory_budget=1)
    return seen


@pytest.mark.skipif(threads.cpu_count() < 2, reason="needs two cores")
def test_the_pool_is_as_wide_as_the_callers_blas_limit(rng, monkeypatch):
    from threadpoolctl import threadpool_limits

    before = _blas_threads()
    assert threads.width() == min(threads.cpu_count(), *before)
    if min(before) < 2:  # the caller already allows BLAS one thread (the matrix's "1 thread")
        assert _threads_of_one_lean_call(rng, monkeypatch) == {threading.get_ident()}
        return
    assert len(_threads_of_one_lean_call(rng, monkeypatch, meet=2)) > 1
    with threadpool_limits(limits=1, user_api="blas"):
        assert threads.width() == 1
        assert _threads_of_one_lean_call(rng, monkeypatch) == {threading.get_ident()}
        assert _blas_threads() == [1] * len(before)
    assert _blas_threads() == before  # the caller's setting, as it was


def test_the_pool_puts_the_callers_blas_setting_back(rng, monkeypatch):
    before = _blas_threads()
    during = []
    monkeypatch.setattr(
        tiles,
        "_copy",
        lambda into, tile: (during.append(_blas_threads()), into.__setitem__(..., tile)),
    )
    params = mha.init_params(32, 4, seed=0)
    x = rng.standard_normal((1, 256, 32)).astype(np.float32)
    expected, _ = mha.multi_head_attention(x, x, x, params)
    out, _ = mha.multi_head_attention(x, x, x, params, need_weights=False, memory_budget=1)
    np.testing.assert_allclose(out, expected, atol=1e-5)
    if threads.width() > 1:
        assert during and all(counts == [1] * len(before) for counts in during)  # tiles: 1 each
    assert _blas_threads() == before


def test_the_pool_takes_the_environments_thread_count():
    code = "from mha.lean import threads; print(threads.width())"
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"


def test_the_pool_limits_only_numpys_own_blas():
    own = [Path(lib.filepath).resolve() for lib in threads._numpy_blas().lib_controllers]
    package = Path(np.__file__).resolve().parent
    assert own, "threadpoolctl sees NumPy's BLAS"
    assert all(path.parent.name == "numpy.libs" or package in path.parents for path in own)


class _OnDevice:
    """A number that lives on a 'device': reading it on the host counts as a synchronisation."""

    reads = 0

    def __init__(self, value):
        self.value = np.asarray(value)

    def _wrap(op):
        def method(self, other):
            other = other.value if isinstance(other, _OnDevice) else other
            return _OnDevice(op(self.value, other))

        return method

    __mul__ = _wrap(np.multiply)
    __rmul__ = _wrap(np.multiply)
    __le__ = _wrap(np.less_equal)
    __neg__ = lambda self: _OnDevice(-self.value)  # noqa: E731

    def __bool__(self):
        _OnDevice.reads += 1
        return bool(self.value)

    __float__ = __bool__


class _DeviceNamespace:
    """NumPy whose reductions return :class:`_OnDevice` numbers, as a GPU library's do."""

    def __getattr__(self, name):
        function = getattr(np, name)

        def on_device(*args, **kwargs):
            args = [a.value if isinstance(a, _OnDevice) else a for a in args]
            return _OnDevice(function(*args, **kwargs))

        return on_device

    def vecdot(self, a, b):
        return _OnDevice(np.sum(a * b, axis=-1))


def test_the_score_bound_reads_the_device_once(rng):
    q = rng.standard_normal((2, 8, 4))
    for k, small in ((q, True), (q * 100.0, False)):
        _OnDevice.reads = 0
        assert tiles._scores_are_small(_DeviceNamespace(), q, k, q) is small
        assert _OnDevice.reads == 1


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs os.fork")
def test_a_forked_child_gets_a_working_thread_pool(rng):
    import multiprocessing

    params = mha.init_params(32, 4, seed=0)
    x = rng.standard_normal((1, 256, 32)).astype(np.float32)
    expected, _ = mha.multi_head_attention(x, x, x, params, need_weights=False, memory_budget=1)
    context = multiprocessing.get_context("fork")
    with context.Pool(1) as pool:  # the parent's pool exists; the child must not wait on it
        result = pool.apply_async(_lean_attention, (x, params))
        out = result.get(timeout=30)
    np.testing.assert_allclose(out, expected, atol=1e-6)


def _lean_attention(x, params):
    return mha.multi_head_attention(x, x, x, params, need_weights=False, memory_budget=1)[0]


def test_a_tile_leaves_out_the_keys_that_every_one_of_its_rows_masks(rng, monkeypatch):
    """Causal: the tile of rows [r0, r1) needs keys [0, r1) only; padding: the keys up to the
    sequence's length; a tile whose rows may attend nothing keeps one (masked) key. The tiles
    with the most keys run first (a thread is never left alone with the longest one)."""
    q = rng.standard_normal((2, 300, 8))
    kv = rng.standard_normal((2, 300, 8))
    key_counts = []
    online = tiles._online_softmax_attention

    def spy(xp, q, k, *args):
        key_counts.append((q.shape[-2], k.shape[-2]))
        return online(xp, q, k, *args)

    monkeypatch.setattr(tiles, "_online_softmax_attention", spy)
    monkeypatch.setattr(threads, "width", lambda: 1)  # the tiles in order
    budget = 64 * 300 * 8  # 64 query rows against every key (float64)
    hidden_tail = np.ones((300, 300), bool)
    hidden_tail[:64] = False  # the first 64 queries may attend nothing
    causal = [(64, 64), (64, 128), (64, 192), (64, 256), (44, 300)]
    whole = [(64, 300)] * 4 + [(44, 300)]
    masks = {  # mask -> (query rows, keys) of each tile, batch entry 0 then 1
        "causal": (mha.causal_mask(300), causal * 2),
        "padding": (mha.padding_mask([120, 300], 300)[:, 0], [(64, 120)] * 4 + [(44, 120)] + whole),
        "nothing to attend": (hidden_tail, [(64, 1), *whole[1:]] * 2),
    }  # fmt: skip
    for mask, expected_counts in masks.values():
        expected, _ = mha.scaled_dot_product_attention(q, kv, kv, mask)
        key_counts.clear()
        out = tiles.attention(XP, q, kv, kv, mask, budget)
        np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-12)
        assert sorted(key_counts) == sorted(expected_counts)
        assert key_counts == sorted(key_counts, key=lambda counts: -counts[1])
