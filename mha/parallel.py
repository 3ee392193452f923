"""Heads across devices: tensor-parallel multi-head attention on ``torch.distributed``.

Heads are independent until ``W^O``, and ``Concat(head_1..head_h) W^O = sum_i head_i W_i^O``
(``W_i^O``: head i's rows of ``W^O``). So each of ``p`` processes ("ranks") holds ``h/p`` heads:
their columns of ``W_q``, ``W_k``, ``W_v`` (and biases), their rows of ``W_o``. Each computes a
partial output from the whole input, and one all-reduce (a sum over ranks) gives every rank
the layer's output; the output bias is added once, after the sum. This is the attention half
of Megatron-LM's tensor parallelism (Shoeybi et al. 2019), with its two conjugate operators:

- ``f`` on the input: identity in the forward pass; in the backward pass an all-reduce, since
  each rank's heads contribute only their part of the input's gradient;
- ``g`` on the output: an all-reduce in the forward pass; identity in the backward pass, since
  every rank already holds the whole gradient of the (replicated) output.

``torch.distributed.nn.functional.all_reduce`` is not ``g``: its backward all-reduces too,
which multiplies the gradients by ``p`` (``tests/test_parallel.py`` shows it). The rule holds
when every rank computes the same loss from the same output, as in Megatron-LM.

:func:`launch` starts ``p`` local processes that form a process group (gloo on the CPU, NCCL
with one GPU per process) and returns what a function computed on each; chapter 13 uses it
with :func:`compare_with_full`.
"""

from __future__ import annotations

import contextlib
import datetime
import multiprocessing
import pickle
import queue
import socket
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import torch
import torch.distributed as dist
from torch import Tensor, nn

from mha.masks import padding_mask
from mha.torch_mha import MultiHeadAttention

# how each parameter of the full layer is split: (per-head size, axis holding the heads)
_SPLIT = {
    "w_q": ("d_k", 1),
    "w_k": ("d_k", 1),
    "w_v": ("d_v", 1),
    "w_o": ("d_v", 0),
    "b_q": ("d_k", 0),
    "b_k": ("d_k", 0),
    "b_v": ("d_v", 0),
}


class AllReduce(NamedTuple):
    """One all-reduce a :class:`HeadParallelAttention` made (see :func:`record_all_reduces`)."""

    phase: str  # "forward" or "backward"
    what: str  # what was summed
    shape: tuple[int, ...]
    nbytes: int  # the tensor's size: what this rank contributed


_RECORDERS: list[list[AllReduce]] = []


@contextlib.contextmanager
def record_all_reduces() -> Iterator[list[AllReduce]]:
    """Collect, in order, every all-reduce the layers of this module make inside the block."""
    log: list[AllReduce] = []
    _RECORDERS.append(log)
    try:
        yield log
    finally:
        _RECORDERS.remove(log)


def _all_reduce(x: Tensor, group, phase: str, what: str) -> Tensor:
    total = x.clone(memory_format=torch.contiguous_format)
    dist.all_reduce(total, group=group)  # sum over the ranks, in place
    for log in _RECORDERS:
        log.append(AllReduce(phase, what, tuple(x.shape), total.numel() * total.element_size()))
    return total


class _EnterHeads(torch.autograd.Function):
    """Megatron's f: identity forward; all-reduce of the input's gradient backward."""

    @staticmethod
    def forward(ctx, x, group, what):
        ctx.group, ctx.what = group, what
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return _all_reduce(grad, ctx.group, "backward", ctx.what), None, None


class _SumHeads(torch.autograd.Function):
    """Megatron's g: all-reduce of the partial outputs forward; identity backward."""

    @staticmethod
    def forward(ctx, partial, group):
        return _all_reduce(partial, group, "forward", "partial outputs")

    @staticmethod
    def backward(ctx, grad):
        return grad, None


def _rank_and_size(group) -> tuple[int, int]:
    if not dist.is_available() or not dist.is_initialized():
        raise ValueError(
            f"group={group!r} needs an initialised process group, and torch.distributed has "
            "none in this process: call torch.distributed.init_process_group(...) first "
            "(or run the code through mha.parallel.launch)"
        )
    rank = dist.get_rank(group)
    if rank < 0:
        raise ValueError(
            f"group={group!r} does not include this process (global rank {dist.get_rank()})"
        )
    return rank, dist.get_world_size(group)


class HeadParallelAttention(nn.Module):
    """This rank's heads of a multi-head attention layer split over a process group.

    Build it with :meth:`from_full`. Every rank passes the same inputs and gets the whole
    layer's output. ``local`` is a :class:`mha.torch_mha.MultiHeadAttention` with this rank's
    ``h/p`` heads (no output bias); ``b_o`` is the output bias, held by every rank.

    Shapes
    ------
    local.w_q : (d_model, h*d_k/p);  local.w_k : (kdim, h*d_k/p);  local.w_v : (vdim, h*d_v/p)
    local.w_o : (h*d_v/p, d_model);  b_o : (d_model,) or None
    """

    def __init__(self, local: MultiHeadAttention, b_o: Tensor | None, num_heads: int, group):
        super().__init__()
        self.rank, self.world_size = _rank_and_size(group)
        self.group = group
        self.num_heads = num_heads
        self.local = local
        self.b_o = None if b_o is None else nn.Parameter(b_o)
        start = self.rank * local.num_heads
        self.heads = range(start, start + local.num_heads)  # this rank's heads

    def extra_repr(self) -> str:
        return f"heads {self.heads.start}..{self.heads.stop - 1} of {self.num_heads}, " + (
            f"rank {self.rank} of {self.world_size}"
        )

    @classmethod
    def from_full(cls, module: MultiHeadAttention, group=None) -> HeadParallelAttention:
        """This rank's heads of ``module`` (copies), for the default process group or ``group``."""
        if type(module) is not MultiHeadAttention:
            raise TypeError(
                f"module must be an mha.torch_mha.MultiHeadAttention, got {type(module).__name__}"
            )
        rank, world_size = _rank_and_size(group)
        h = module.num_heads
        if h % world_size:
            raise ValueError(
                f"the world size {world_size} does not divide num_heads={h}: every rank "
                "must hold the same number of heads"
            )
        local = MultiHeadAttention(
            module.d_model,
            h // world_size,
            d_k=module.d_k,
            d_v=module.d_v,
            kdim=module.kdim,
            vdim=module.vdim,
            bias=True,
            device=module.w_q.device,
            dtype=module.w_q.dtype,
        )
        local.b_o = None  # added once, after the sum
        with torch.no_grad():
            for name, (size, axis) in _SPLIT.items():
                full = getattr(module, name)
                if full is None:
                    setattr(local, name, None)
                else:
                    width = local.num_heads * getattr(module, size)
                    getattr(local, name).copy_(full.narrow(axis, rank * width, width))
        b_o = None if module.b_o is None else module.b_o.detach().clone()
        return cls(local, b_o, h, group)

    def shard_of(self, name: str, tensor: Tensor) -> Tensor:
        """This rank's part of ``tensor``, the full layer's parameter ``name`` or its gradient."""
        if name == "b_o":
            return tensor
        if name not in _SPLIT:
            raise ValueError(f"name must be one of {[*_SPLIT, 'b_o']}, got {name!r}")
        size, axis = _SPLIT[name]
        width = self.local.num_heads * getattr(self.local, size)
        return tensor.narrow(axis, self.rank * width, width)

    def named_shards(self) -> Iterator[tuple[str, nn.Parameter]]:
        """(name in the full layer, this rank's parameter) for every parameter it holds."""
        for name in [*_SPLIT, "b_o"]:
            param = self.b_o if name == "b_o" else getattr(self.local, name)
            if param is not None:
                yield name, param

    def forward(
        self,
        q: Tensor,
        k: Tensor | None = None,
        v: Tensor | None = None,
        mask: Tensor | None = None,
        *,
        need_weights: bool = False,
        is_causal: bool = False,
    ) -> tuple[Tensor, Tensor | None]:
        """The whole layer's output on every rank (one all-reduce), as ``MultiHeadAttention``.

        ``mask`` is the full layer's (True = may attend, broadcastable to (..., h, n_q, n_k));
        a mask with a head axis of size h is cut to this rank's heads. With
        ``need_weights=True`` the weights returned are those of this rank's heads only,
        (..., h/p, n_q, n_k).
        """
        k = q if k is None else k
        v = k if v is None else v
        inputs = (("q", q), ("k", k), ("v", v))
        entered: dict[int, Tensor] = {}  # one f per distinct tensor: q = k = v is one exchange
        for _, x in inputs:
            if id(x) not in entered:
                what = "gradient of " + "=".join(name for name, y in inputs if y is x)
                entered[id(x)] = _EnterHeads.apply(x, self.group, what)
        partial, weights = self.local(
            entered[id(q)],
            entered[id(k)],
            entered[id(v)],
            self._local_mask(mask),
            need_weights=need_weights,
            is_causal=is_causal,
        )  # (..., n_q, d_model): this rank's heads times its rows of W^O
        out = _SumHeads.apply(partial, self.group)
        if self.b_o is not None:
            out = out + self.b_o
        return out, weights

    def _local_mask(self, mask: Tensor | None) -> Tensor | None:
        if not isinstance(mask, Tensor) or mask.dim() < 3 or mask.shape[-3] == 1:
            return mask  # no head axis: the local module checks it
        if mask.shape[-3] != self.num_heads:
            raise ValueError(
                f"mask has shape {tuple(mask.shape)}: its head axis (-3) must be 1 or "
                f"num_heads={self.num_heads}"
            )
        return mask[..., self.heads.start : self.heads.stop, :, :]

    def to_full(self) -> MultiHeadAttention:
        """The whole layer, gathered from every rank's shards (call it on every rank)."""
        local = self.local
        full = MultiHeadAttention(
            local.d_model,
            self.num_heads,
            d_k=local.d_k,
            d_v=local.d_v,
            kdim=local.kdim,
            vdim=local.vdim,
            bias=True,
            device=local.w_q.device,
            dtype=local.w_q.dtype,
        )
        with torch.no_grad():
            for name, (_, axis) in _SPLIT.items():
                mine = getattr(local, name)
                if mine is None:
                    setattr(full, name, None)
                    continue
                pieces = [torch.empty_like(mine) for _ in range(self.world_size)]
                dist.all_gather(pieces, mine.detach().contiguous(), group=self.group)
                getattr(full, name).copy_(torch.cat(pieces, dim=axis))
            if self.b_o is None:
                full.b_o = None
            else:
                full.b_o.copy_(self.b_o)
        return full


# --- running it: processes, and chapter 13's experiment ------------------------------------


def launch(
    fn: Callable[..., Any],
    *args: Any,
    world_size: int = 2,
    backend: str = "gloo",
    timeout: float = 60.0,
) -> list[Any]:
    """Run ``fn(*args)`` in ``world_size`` new local processes that form a process group.

    Returns the results by rank. ``fn`` must be importable by name (defined in a module, not
    in a notebook), since each process imports it afresh. Each process uses one CPU thread;
    with ``backend="nccl"``, rank r uses GPU r. After ``timeout`` seconds (collectives time out
    at the same limit) the processes are killed and ``TimeoutError`` is raised; an exception in
    any rank stops all of them and is raised as ``RuntimeError`` with that rank's traceback.
    """
    if getattr(fn, "__module__", "__main__") == "__main__":
        raise TypeError(
            f"fn must be importable from a module, got {getattr(fn, '__qualname__', fn)!r} "
            "defined in __main__ (a notebook or script): new processes cannot find it there"
        )
    if not isinstance(world_size, int) or world_size < 1:
        raise ValueError(f"world_size must be a positive int, got {world_size!r}")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))  # a free port for the rendezvous
        address = f"tcp://127.0.0.1:{s.getsockname()[1]}"
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    setup = (world_size, backend, address, timeout, fn, args, results)
    processes = [
        context.Process(target=_run_rank, args=(rank, *setup), daemon=True)
        for rank in range(world_size)
    ]
    for process in processes:
        process.start()
    outcomes: dict[int, tuple[bool, Any]] = {}  # rank -> (ok, pickled result or traceback)
    stop = time.monotonic() + timeout
    try:
        while len(outcomes) < world_size and time.monotonic() < stop:
            try:
                rank, ok, payload = results.get(timeout=0.2)
            except queue.Empty:
                for rank, process in enumerate(processes):
                    if rank not in outcomes and process.exitcode not in (None, 0):
                        outcomes[rank] = (False, f"exited with code {process.exitcode}")
                        stop = min(stop, time.monotonic() + 1.0)
                continue
            outcomes[rank] = (ok, payload)
            if not ok:  # give the others a second to report, then stop them: they may be
                stop = min(stop, time.monotonic() + 1.0)  # waiting for the failed rank
    finally:
        for process in processes:
            process.join(timeout=1.0 if len(outcomes) == world_size else 0.0)
            if process.is_alive():
                process.kill()
                process.join()
    failures = [(rank, text) for rank, (ok, text) in sorted(outcomes.items()) if not ok]
    if failures:
        raise RuntimeError("\n".join(f"rank {r} of {world_size} failed:\n{t}" for r, t in failures))
    if len(outcomes) < world_size:
        missing = sorted(set(range(world_size)) - set(outcomes))
        raise TimeoutError(f"ranks {missing} did not finish within timeout={timeout} s")
    return [pickle.loads(outcomes[rank][1]) for rank in range(world_size)]


def _run_rank(rank, world_size, backend, address, timeout, fn, args, results) -> None:
    """One process of :func:`launch`: join the group, run ``fn``, send back its result."""
    try:
        torch.set_num_threads(1)
        if backend == "nccl":
            torch.cuda.set_device(rank)
        dist.init_process_group(
            backend,
            init_method=address,
            rank=rank,
            world_size=world_size,
            timeout=datetime.timedelta(seconds=timeout),
        )
        outcome = (rank, True, pickle.dumps(fn(*args)))  # plain pickle: tensors go as copies
    except BaseException:
        outcome = (rank, False, traceback.format_exc())
    results.put(outcome)  # before the group closes, so that the first failure arrives first
    if dist.is_initialized():
        dist.destroy_process_group()


def bytes_written() -> int | None:
    """Bytes this process has passed to ``write``-like system calls so far, sockets included.

    Linux's ``wchar`` in ``/proc/self/io``; ``None`` where that file does not exist.
    """
    path = Path("/proc/self/io")
    if not path.exists():
        return None
    fields = dict(line.split(": ") for line in path.read_text().splitlines())
    return int(fields["wchar"])


def compare_with_full(d_model=64, num_heads=8, batch=2, n=16, seed=0) -> dict[str, Any]:
    """One rank's part of chapter 13's experiment: run it with ``launch(compare_with_full)``.

    Every rank builds the same layer and input (same seed) and computes the whole layer by
    itself, as the reference; then its heads of the layer, exchanging with the other ranks.
    Returns the largest differences, the all-reduces made and the bytes this rank wrote.
    """
    torch.manual_seed(seed)  # the same layer, input and loss on every rank
    full = MultiHeadAttention(d_model, num_heads, bias=True, dtype=torch.float64)
    x = torch.randn(batch, n, d_model, dtype=torch.float64)
    lengths = [n] + [n // 2] * (batch - 1)  # the later sequences end in padding
    mask = torch.from_numpy(padding_mask(np.array(lengths), n))  # (B, 1, 1, n)
    probe = torch.randn(batch, n, d_model, dtype=torch.float64)  # loss = sum(out * probe)

    x_full = x.clone().requires_grad_()
    out_full, _ = full(x_full, mask=mask, need_weights=False)
    (out_full * probe).sum().backward()

    layer = HeadParallelAttention.from_full(full)  # this rank's heads
    x_mine = x.clone().requires_grad_()
    dist.barrier()  # from here on, only this layer talks
    with record_all_reduces() as log:
        start = bytes_written()
        out, _ = layer(x_mine, mask=mask)
        middle = bytes_written()
        (out * probe).sum().backward()
        end = bytes_written()
    weight_gaps = [
        (param.grad - layer.shard_of(name, getattr(full, name).grad)).abs().max().item()
        for name, param in layer.named_shards()
    ]
    return {
        "heads": list(layer.heads),
        "out": (out - out_full).abs().max().item(),
        "grad_x": (x_mine.grad - x_full.grad).abs().max().item(),
        "grad_weights": max(weight_gaps),
        "all_reduces": [tuple(entry) for entry in log],
        "written": None if start is None else {"forward": middle - start, "backward": end - middle},
    }
