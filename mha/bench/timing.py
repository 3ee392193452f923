"""Timing helpers the chapters use: interleaved timing, FLOP counts, ready-made calls, and
the peak memory of one call.

:func:`time_interleaved` times several functions in one run, one call of each per round,
so that whatever else the machine does slows all of them alike; :func:`make_call` builds a
call of each implementation of multi-head self-attention on the same weights and inputs;
:func:`flops` counts the work of one call. The project's own benchmark, ``python -m
mha.bench`` (:mod:`mha.bench`), is built on them. :func:`peak_mib` measures the memory one
call allocates (chapters 7 and 13). Chapter 3 times the three forms of
per-head attention (:func:`per_head_forms`) on one thread with :func:`time_per_head_forms`,
and the softmax alone, the work that grows with h, with :func:`time_softmax_of_heads`.
"""

from __future__ import annotations

import functools
import statistics
import time
import tracemalloc
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

import mha
from mha import gpu
from mha.lean import kernels, threads, tiles

#: The implementations :func:`make_call` builds: on the CPU, and (where a CUDA GPU exists)
#: mha on CuPy and the torch implementations on ``cuda``.
CPU_IMPLS = ["numpy", "nn.MHA", "torch variant", "bare SDPA"]
GPU_IMPLS = ["cupy", "nn.MHA cuda", "torch variant cuda", "bare SDPA cuda"]


def attended_pairs(n: int, causal: bool = False) -> int:
    """(query, key) pairs of self-attention over ``n`` positions that are work: all ``n**2``,
    or with a causal mask the ``n (n + 1) / 2`` on and below the diagonal (a pair that is
    masked out contributes nothing, whether or not an implementation computes it)."""
    return n * (n + 1) // 2 if causal else n * n


def flops(batch: int, n: int, d_model: int, causal: bool = False) -> int:
    """Multiply-adds x 2 of self-attention: four (d_model x d_model) projections, Q K^T, P V;
    with ``causal``, Q K^T and P V only for the pairs a causal mask lets attend."""
    return 8 * batch * n * d_model**2 + 4 * batch * attended_pairs(n, causal) * d_model


def matmul_peak_numpy(side: int = 2048, rounds: int = 5) -> float:
    """GFLOP/s of NumPy's float32 ``a @ a`` for a (side, side) ``a``, the fastest of ``rounds``.

    BLAS runs with its own threads, one per core: this machine's peak for NumPy's products.
    """
    a = np.random.default_rng(0).standard_normal((side, side), dtype=np.float32)
    seconds = time_interleaved({"numpy": lambda: a @ a}, rounds, summary=min)["numpy"]
    return 2 * side**3 / seconds / 1e9


def blas_rates(shape: tuple[int, int, int, int], rounds: int = 5) -> dict[str, float]:
    """GFLOP/s of NumPy's BLAS on the products the lean path runs at ``shape`` = (B, n,
    d_model, h), every core busy: the square-matrix peak (:func:`matmul_peak_numpy`) is more
    than BLAS reaches when one side of a product is only d_k = d_model / h wide.

    Each thread of :mod:`mha.lean.threads`' pool multiplies, single-threaded, one worker
    tile's ``K Q^T`` ((n, d_k) @ (d_k, bq), :func:`mha.lean.tiles.worker_tile_shape` at the
    default memory budget), its ``P^T V`` ((bq, n) @ (n, d_k)), or one block of a
    projection's rows ((rows, d_model) @ (d_model, d_model), :func:`mha.lean.threads.block_rows`);
    the keys and values are views of a projection's columns, as a head is. Four tasks per
    thread, the fastest of ``rounds``. Keys: the products' phases of :func:`floor`.
    """
    batch, n, d_model, h = shape
    d_k, workers = d_model // h, threads.width()
    budget = mha.numpy_mha.DEFAULT_MEMORY_BUDGET["cpu"] // 4  # float32 numbers
    block_q, block_k = tiles.worker_tile_shape(n, n, budget, workers)
    rows = min(batch * n, threads.block_rows(batch * n))
    rng = np.random.default_rng(0)
    projected = rng.standard_normal((block_k, d_model), dtype=np.float32)
    heads = projected[:, :d_k]  # (block_k, d_k), a head's keys or values
    q_t = rng.standard_normal((block_q, d_k), dtype=np.float32).T  # (d_k, bq)
    p = rng.standard_normal((block_k, block_q), dtype=np.float32)  # (bk, bq), as a tile holds it
    x = rng.standard_normal((rows, d_model), dtype=np.float32)
    w = rng.standard_normal((d_model, d_model), dtype=np.float32)
    products = {
        "projections": (lambda: x @ w, 2 * rows * d_model**2),
        "QK^T products": (lambda: heads @ q_t, 2 * block_k * d_k * block_q),
        "PV products": (lambda: p.T @ heads, 2 * block_q * block_k * d_k),
    }
    tasks = [(i,) for i in range(4 * workers)]
    rates = {}
    for name, (product, product_flops) in products.items():
        run = {"numpy": functools.partial(threads.run, lambda _, f=product: f(), tasks)}
        seconds = time_interleaved(run, rounds, summary=min)["numpy"]
        rates[name] = len(tasks) * product_flops / seconds / 1e9
    return rates


def _exponentials_per_second(power: Callable[..., Any], inputs: list, rounds: int) -> float:
    """``power(x, out=y)`` of each of ``inputs`` 8 times over, on :mod:`mha.lean.threads`'
    pool, the fastest of ``rounds``: exponentials per second on every core at once."""
    outputs, repeats = [x * 0 for x in inputs], 8

    def exponentiate(i: int) -> None:
        for _ in range(repeats):
            power(inputs[i], out=outputs[i])

    call = {"numpy": lambda: threads.run(exponentiate, [(i,) for i in range(len(inputs))])}
    time.sleep(SETTLE_SECONDS)  # BLAS's threads, after a product, spin on the cores for a while
    seconds = time_interleaved(call, rounds, summary=min)["numpy"]
    return len(inputs) * repeats * len(inputs[0]) / seconds


def _exp_inputs(elements: int) -> list[np.ndarray]:
    """Eight float32 arrays of ``elements`` numbers in [-8, 0] per thread of the pool."""
    rng = np.random.default_rng(0)
    return [rng.uniform(-8.0, 0.0, elements).astype(np.float32) for _ in range(8 * threads.width())]


def exp_rate(elements: int = 2**18, rounds: int = 5, route: str | None = None) -> float:
    """Exponentials per second of NumPy on float32, on every core at once: by ``route``
    (``"exp"`` or ``"exp2"``), by default the one the lean path chose on this machine
    (:func:`mha.lean.kernels.exponential`).

    Eight tasks per thread of :mod:`mha.lean.threads`' pool (so that no thread can take all of them
    before the others start), each exponentiates its own ``elements`` numbers in [-8, 0]
    (1 MiB by default, like a tile of scores) 8 times; the fastest of ``rounds``.
    """
    power = getattr(np, route or kernels.exponential(np, np.float32).name)
    return _exponentials_per_second(power, _exp_inputs(elements), rounds)


def torch_exp_rate(elements: int = 2**18, rounds: int = 5) -> float | None:
    """Exponentials per second of ``torch.exp`` on float32, measured as :func:`exp_rate`
    measures NumPy's (the same pool, each thread's torch single-threaded: torch's own
    threads wait for each other at every call, which a busy machine makes very slow);
    None where torch is not installed."""
    torch = optional_torch()
    if torch is None:
        return None
    inputs = [torch.from_numpy(x) for x in _exp_inputs(elements)]
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _exponentials_per_second(torch.exp, inputs, rounds)
    finally:
        torch.set_num_threads(previous)


def floor(
    shape: tuple[int, int, int, int],
    peak_gflops: float,
    exps_per_second: float,
    causal: bool = False,
    product_gflops: dict[str, float] | None = None,
) -> dict[str, float]:
    """The least time (s) of one self-attention call of ``shape`` = (B, n, d_model, h).

    Each part at the rates measured on this machine: the products' FLOPs at the matmul
    peak (:func:`matmul_peak_numpy`), and the ``B h n^2`` exponentials of the softmax at
    :func:`exp_rate`; with ``causal`` only the pairs a causal mask lets attend
    (:func:`attended_pairs`). Everything else (masks, maxima, sums, copies, Python) is on top.
    ``product_gflops`` (phase -> GFLOP/s, as :func:`blas_rates` gives) replaces the peak for
    the products it names: the floor of a call whose products run as fast as BLAS runs them
    on the call's own shapes.
    """
    batch, n, d_model, h = shape
    pairs = attended_pairs(n, causal)
    work = {
        "projections": 8 * batch * n * d_model**2,
        "QK^T products": 2 * batch * pairs * d_model,
        "PV products": 2 * batch * pairs * d_model,
    }
    rates = {name: peak_gflops for name in work} | (product_gflops or {})
    return {name: w / (rates[name] * 1e9) for name, w in work.items()} | {
        "exp": batch * h * pairs / exps_per_second
    }


def optional_torch() -> ModuleType | None:
    """``torch``, or None where it is not installed."""
    try:
        import torch
    except ImportError:
        return None
    return torch


def make_call(
    impl: str, shape: tuple[int, int, int, int], seed: int = 0, causal: bool = False
) -> Callable[[], Any]:
    """A zero-argument function that runs ``impl`` once on fixed random inputs of ``shape``,
    with a causal mask if ``causal`` (each implementation's own way of asking for one).

    All implementations get the same weights (``mha.init_params(seed=seed)``) and inputs:
    ``numpy`` is :func:`mha.multi_head_attention` with ``need_weights=False``, ``nn.MHA``
    ``torch.nn.MultiheadAttention``, ``torch variant`` :class:`mha.torch_mha.MultiHeadAttention`,
    ``bare SDPA`` one ``x @ W_qkv``, ``F.scaled_dot_product_attention`` and ``@ W_o``; a name
    ending in `` cuda`` runs on the GPU, ``cupy`` is mha on CuPy arrays (see
    :data:`CPU_IMPLS`, :data:`GPU_IMPLS`). PyTorch runs under ``torch.inference_mode()``.
    """
    if impl not in CPU_IMPLS + GPU_IMPLS:
        raise ValueError(f"impl must be one of {CPU_IMPLS + GPU_IMPLS}, got {impl!r}")
    batch, n, d_model, h = shape
    params = mha.init_params(d_model, h, seed=seed)
    x = np.random.default_rng(seed).standard_normal((batch, n, d_model), dtype=np.float32)
    mask = mha.causal_mask(n) if causal else None  # (n, n), True = may attend
    if impl in ("numpy", "cupy"):
        if impl == "cupy":
            x, params = gpu.to_device(x), gpu.to_device(params)
            mask = None if mask is None else gpu.to_device(mask)

        def call():
            return mha.multi_head_attention(x, x, x, params, mask, need_weights=False)[0]

        return call
    torch = optional_torch()
    import torch.nn.functional as F

    from mha.torch_mha import MultiHeadAttention

    device = "cuda" if impl.endswith("cuda") else "cpu"
    x_t = torch.from_numpy(x).to(device)
    variant = MultiHeadAttention.from_params(params, device=device)
    module = variant.to_torch()
    w_qkv = torch.cat([variant.w_q, variant.w_k, variant.w_v], dim=1).detach()
    w_o = variant.w_o.detach()

    def bare_sdpa():
        q, k, v = (x_t @ w_qkv).view(batch, n, 3, h, d_model // h).permute(2, 0, 3, 1, 4)
        heads = F.scaled_dot_product_attention(q, k, v, is_causal=causal)  # (B, h, n, d_k)
        return heads.transpose(1, 2).reshape(batch, n, d_model) @ w_o

    hidden = None if mask is None else torch.from_numpy(~mask).to(device)  # True = may not
    forward = {
        "torch variant": lambda: variant(x_t, need_weights=False, is_causal=causal)[0],
        "nn.MHA": lambda: module(
            x_t, x_t, x_t, attn_mask=hidden, need_weights=False, is_causal=causal
        )[0],
        "bare SDPA": bare_sdpa,
    }[impl.removesuffix(" cuda")]

    def call():
        with torch.inference_mode():
            return forward()

    return call


def _synchronize(impl: str) -> None:
    if impl == "cupy":
        gpu.synchronize()
    elif impl.endswith("cuda"):
        optional_torch().cuda.synchronize()


#: Pause (s) before a call whose library differs from the previous call's: after a NumPy
#: call OpenBLAS's threads keep spinning for ~0.1 s and slow down whatever runs next.
SETTLE_SECONDS = 0.2


def _library(impl: str) -> str:
    """Which library's threads an implementation uses: numpy, cupy or torch."""
    return impl if impl in ("numpy", "cupy") else "torch"


def time_interleaved(
    calls: dict[str, Callable[[], Any]], rounds: int, summary: Callable = statistics.median
) -> dict[str, float]:
    """Seconds per call of each function (``summary`` of the rounds: the median by default).

    One warm-up call each, then ``rounds`` rounds of one call each, so that a slow moment of
    the machine slows every function alike. Between functions of different libraries it
    pauses :data:`SETTLE_SECONDS` and makes one untimed call, so that neither the other
    library's spinning threads nor this library's sleeping ones are timed. The names of
    ``calls`` say where a function runs, as :func:`make_call`'s ``impl``: ``"numpy"``,
    ``"cupy"`` (synchronised before each clock read), a name ending in ``"cuda"`` (torch,
    synchronised), anything else (torch on the CPU).
    """
    times: dict[str, list[float]] = {name: [] for name in calls}
    for name, call in calls.items():
        call()
        _synchronize(name)
    previous = None
    for _ in range(rounds):
        for name, call in calls.items():
            if previous is not None and _library(name) != _library(previous):
                time.sleep(SETTLE_SECONDS)
                call()  # wakes this library's threads up again (not timed)
                _synchronize(name)
            previous = name
            _synchronize(name)
            start = time.perf_counter()
            call()
            _synchronize(name)
            times[name].append(time.perf_counter() - start)
    return {name: summary(ts) for name, ts in times.items()}


def peak_mib(call: Callable[..., Any], *args: Any, pool: Any = None) -> tuple[Any, float]:
    """``call(*args)`` and the largest memory, in MiB, allocated while it ran.

    On the CPU (``pool`` None) ``tracemalloc`` traces it (NumPy reports its allocations to
    it); with a CuPy memory pool (``cupy.get_default_memory_pool()``) it is what the pool had
    to reserve beyond what it held, freed first, the GPU synchronised before reading.

    Returns
    -------
    (result, peak MiB)
    """
    if pool is not None:
        pool.free_all_blocks()
        before = pool.total_bytes()
        result = call(*args)
        gpu.synchronize()
        return result, (pool.total_bytes() - before) / 2**20
    if tracemalloc.is_tracing():
        raise RuntimeError("peak_mib needs tracemalloc for itself: call tracemalloc.stop() first")
    tracemalloc.start()
    try:
        result = call(*args)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return result, peak / 2**20


# --- chapter 3: the loop over heads, the batched form, the fused kernel -----------------------

PER_HEAD_FORMS = ("loop", "batched", "fused")


def per_head_forms(q: np.ndarray, k: np.ndarray, v: np.ndarray, num_heads: int) -> dict:
    """The heads of self-attention three ways, as zero-argument calls that return them.

    ``"loop"``: one :func:`mha.scaled_dot_product_attention` per head on its columns, as the
    paper writes it; ``"batched"``: one call on the split ``(h, n, d_k)`` arrays; ``"fused"``:
    torch's ``F.scaled_dot_product_attention`` on the same arrays, returned as NumPy.

    Shapes
    ------
    q, k, v : (n, h*d_k)  ->  each call returns (h, n, d_k)
    """
    torch = optional_torch()
    if torch is None:
        raise ImportError("per_head_forms needs PyTorch for its fused form: pip install torch")
    import torch.nn.functional as F

    d = q.shape[-1] // num_heads
    heads = [mha.split_heads(x, num_heads) for x in (q, k, v)]  # (h, n, d_k) each
    tensors = [torch.from_numpy(np.ascontiguousarray(x)) for x in heads]

    def loop():
        columns = [slice(i * d, (i + 1) * d) for i in range(num_heads)]
        return np.stack([mha.scaled_dot_product_attention(q[:, c], k[:, c], v[:, c])[0]
                         for c in columns])  # fmt: skip

    def fused():
        with torch.inference_mode():
            return F.scaled_dot_product_attention(*tensors).numpy()

    return {"loop": loop, "batched": lambda: mha.scaled_dot_product_attention(*heads)[0],
            "fused": fused}  # fmt: skip


def time_per_head_forms(
    lengths: list[int],
    head_counts: list[int],
    d_model: int,
    rng: np.random.Generator,
    rounds: int = 5,
) -> dict[str, np.ndarray]:
    """Seconds per call of each of :func:`per_head_forms`, on one thread (NumPy's BLAS and
    torch), the fastest of ``rounds`` after a warm-up, for every sequence length and number of
    heads (equal FLOPs at every h); float32 inputs from ``rng``, one ``(q, k, v)`` per length.
    Raises ``RuntimeError`` if the forms do not give the same heads.

    Shapes
    ------
    returns : {form: (len(lengths), len(head_counts))}
    """
    from threadpoolctl import threadpool_limits

    torch = optional_torch()
    seconds = {form: np.zeros((len(lengths), len(head_counts))) for form in PER_HEAD_FORMS}
    torch_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with threadpool_limits(1):
            for a, n in enumerate(lengths):
                q, k, v = (rng.standard_normal((n, d_model), dtype=np.float32) for _ in range(3))
                for b, h in enumerate(head_counts):
                    forms = per_head_forms(q, k, v, h)
                    outputs = {form: call() for form, call in forms.items()}
                    for form, out in outputs.items():  # the three forms compute the same heads
                        if not np.allclose(out, outputs["loop"], rtol=1e-4, atol=1e-5):
                            raise RuntimeError(f"the {form} heads differ from the loop's at "
                                               f"n={n}, h={h}")  # fmt: skip
                    for form, call in forms.items():
                        library = "torch" if form == "fused" else "numpy"
                        fastest = time_interleaved({library: call}, rounds, summary=min)
                        seconds[form][a, b] = fastest[library]
    finally:
        torch.set_num_threads(torch_threads)
    return seconds


def time_softmax_of_heads(
    lengths: list[int], head_counts: list[int], rng: np.random.Generator, rounds: int = 5
) -> np.ndarray:
    """Seconds of :func:`mha.softmax` alone on the ``(h, n, n)`` float32 scores that the
    batched form of :func:`per_head_forms` holds: the ``h n^2`` numbers that grow with ``h``
    while the products' FLOPs stay the same. One thread, the fastest of ``rounds`` after a
    warm-up, for every sequence length and number of heads.

    Shapes
    ------
    returns : (len(lengths), len(head_counts))
    """
    from threadpoolctl import threadpool_limits

    seconds = np.zeros((len(lengths), len(head_counts)))
    with threadpool_limits(1):
        for a, n in enumerate(lengths):
            for b, h in enumerate(head_counts):
                scores = rng.standard_normal((h, n, n), dtype=np.float32)  # (h, n, n)
                call = functools.partial(mha.softmax, scores)
                seconds[a, b] = time_interleaved({"numpy": call}, rounds, summary=min)["numpy"]
    return seconds
