"""Benchmark: multi-head self-attention, side by side, as ratios (``python -m mha.bench``).

Times the forward pass of multi-head self-attention with ``need_weights=False`` in float32:

- ``numpy``: :func:`mha.multi_head_attention` (the lean, threaded path for large scores);
- ``nn.MHA``: ``torch.nn.MultiheadAttention(batch_first=True)``;
- ``torch variant``: :class:`mha.torch_mha.MultiHeadAttention`;
- ``bare SDPA``: one fused ``x @ W_qkv``, ``F.scaled_dot_product_attention``, ``@ W_o``;

and, where a CUDA GPU exists, ``cupy`` (:func:`mha.multi_head_attention` on CuPy arrays)
and the torch implementations on ``cuda``. PyTorch runs under ``torch.inference_mode()``
(NumPy keeps no autograd graph either); GPU timings synchronise before the clock is read.

**The verdict survives noise.** A run is ``--rounds`` rounds (5 by default). In every round
each implementation runs in a fresh Python process of its own, and the order alternates
(A B C D, then D C B A, ...), so that neither a process's history (caches, threads left
spinning, the allocator's state) nor a slow moment of the shared machine favours one of
them. A process measures its device's float32 matmul peak (the fastest of five square
products with NumPy and torch, or CuPy and torch on a GPU, before and after its timings,
the best of both), then for each shape makes one warm-up call and ``--calls`` timed calls
and keeps their median. A round gives each pair of implementations one time ratio, and
each implementation one fraction of the peak measured in its own process, counting
``8 B n d^2`` FLOPs for the four projections and ``4 B n^2 d`` for ``Q K^T`` and ``P V``.
Over the rounds the report gives the median and the interquartile range (IQR, the middle
half of the rounds). A goal counts as met only when the worse end of the IQR meets it: the
upper quartile of a ratio that must be at most 1, the lower quartile of a fraction of the
peak that must be at least 60% (:func:`mha.bench.verdict.meets`).

Peak memory is how far one call raises the peak resident set size above the memory in use
before it (see :func:`mha.bench.measure.peak_memory_mib`, measured in the first round); ``--lean-memory``
adds the B=1, n=8192, d_model=512, h=8 comparison of NumPy's weights-returning and lean
paths, traced with ``tracemalloc``. ``--profile`` prints instead where the lean path's time
goes, phase by phase, against the floor that the products and the exponentials set
(:mod:`mha.bench.profile`). ``--causal`` gives every call a causal mask and counts only the
products of the pairs it lets attend; ``--machine NAME`` runs it all as another machine class
computes, in processes of the class's own (:mod:`mha.bench.classes`).

The table goes to stdout; ``--json PATH`` writes everything (``bench-results/`` is ignored
by git). The package is the project's own benchmark and its goals: :mod:`mha.bench.measure`
measures (fresh processes, rounds, peaks, memory), :mod:`mha.bench.verdict` judges (the
spread, the ratios, the goals, the table), :mod:`mha.bench.profile` profiles, :mod:`mha.bench.classes` runs the
machine classes, and :mod:`mha.bench.cli` is the command line. The timing helpers it is built on, which the
chapters use too, are in :mod:`mha.bench.timing`.
"""
