"""mha.parallel: heads split over 2 processes (gloo, CPU) agree with the single-process layer.

One launch runs every multi-process check (``_on_each_rank``) and returns measurements; the
tests below judge them. Expected values come from ``MultiHeadAttention`` in one process and
from slices written out here, never from ``mha.parallel`` itself.
"""

from __future__ import annotations

import time
import warnings

import pytest
import torch
import torch.distributed as dist
import torch.distributed.nn.functional as dist_fn

from mha.parallel import HeadParallelAttention, launch, record_all_reduces
from mha.torch_mha import MultiHeadAttention

pytestmark = pytest.mark.slow

WORLD = 2
D_MODEL, H, B, N_Q, N_K = 12, 4, 2, 5, 7


def _gap(a: torch.Tensor, b: torch.Tensor) -> float:
    return (a - b).abs().max().item()


def _slices(rank: int, d_k: int, d_v: int) -> dict[str, tuple]:
    """Index of rank's part of each full parameter: heads 2*rank, 2*rank + 1 of H = 4."""
    qk = slice(rank * (H // WORLD) * d_k, (rank + 1) * (H // WORLD) * d_k)
    v = slice(rank * (H // WORLD) * d_v, (rank + 1) * (H // WORLD) * d_v)
    return {
        "w_q": (slice(None), qk),
        "w_k": (slice(None), qk),
        "w_v": (slice(None), v),
        "w_o": (v, slice(None)),
        "b_q": (qk,),
        "b_k": (qk,),
        "b_v": (v,),
        "b_o": (slice(None),),
    }


def _self_attention(rank: int) -> dict:
    """q = k = v with a padding mask and biases: one all-reduce forward, one backward."""
    torch.manual_seed(0)
    full = MultiHeadAttention(D_MODEL, H, bias=True, dtype=torch.float64)
    x = torch.randn(B, N_Q, D_MODEL, dtype=torch.float64)
    mask = torch.ones(B, 1, 1, N_Q, dtype=torch.bool)
    mask[1, ..., 3:] = False  # the second sequence has 2 padded keys
    probe = torch.randn(B, N_Q, D_MODEL, dtype=torch.float64)
    x_full = x.clone().requires_grad_()
    out_full, _ = full(x_full, mask=mask)
    (out_full * probe).sum().backward()

    layer = HeadParallelAttention.from_full(full)
    x_mine = x.clone().requires_grad_()
    with record_all_reduces() as log:
        out, _ = layer(x_mine, mask=mask)
        (out * probe).sum().backward()
    index = _slices(rank, full.d_k, full.d_v)
    grads = {
        "b_o": layer.b_o.grad,
        **{n: getattr(layer.local, n).grad for n in index if n != "b_o"},
    }
    return {
        "out": _gap(out, out_full),
        "grad_x": _gap(x_mine.grad, x_full.grad),
        "grad_weights": {n: _gap(g, getattr(full, n).grad[index[n]]) for n, g in grads.items()},
        "log": [(e.phase, e.what, e.shape, e.nbytes) for e in log],
        "not_alone": _gap(layer.local(x, mask=mask)[0], out_full),  # one rank's heads: not it
    }


def _cross_attention(rank: int) -> dict:
    """q, k, v distinct, kdim/vdim and d_v != d_k, a per-head mask and is_causal."""
    torch.manual_seed(1)
    full = MultiHeadAttention(D_MODEL, H, d_k=2, d_v=5, kdim=6, vdim=9, dtype=torch.float64)
    q = torch.randn(B, N_Q, D_MODEL, dtype=torch.float64)
    k = torch.randn(B, N_K, 6, dtype=torch.float64)
    v = torch.randn(B, N_K, 9, dtype=torch.float64)
    mask = torch.rand(B, H, N_Q, N_K) > 0.4  # a different mask for every head
    mask[0, 2, 1] = False  # head 2 (rank 1's) has a fully masked query row: zeros, not NaN
    mask[1, :, :, 4] = False  # no head of the second sequence sees key 4
    probe = torch.randn(B, N_Q, D_MODEL, dtype=torch.float64)
    full_inputs = [t.clone().requires_grad_() for t in (q, k, v)]
    out_full, _ = full(*full_inputs, mask=mask, is_causal=True, need_weights=False)
    (out_full * probe).sum().backward()

    layer = HeadParallelAttention.from_full(full)
    mine = [t.clone().requires_grad_() for t in (q, k, v)]
    with record_all_reduces() as log:
        out, weights = layer(*mine, mask=mask, is_causal=True, need_weights=True)
        (out * probe).sum().backward()
    _, full_weights = full(q, k, v, mask=mask, is_causal=True)
    index = _slices(rank, 2, 5)
    # changing the values of keys that every head masks for every query changes nothing
    causal = torch.ones(N_Q, N_K, dtype=torch.bool).tril(N_K - N_Q)  # bottom-right aligned
    hidden = ~(mask & causal).any(1).any(1)  # (B, N_K)
    v_changed = v.clone()
    v_changed[hidden] += 100.0
    return {
        "out": _gap(out, out_full),
        "finite": bool(out.isfinite().all()),
        "weights": _gap(weights, full_weights[:, 2 * rank : 2 * rank + 2]),
        "grads_qkv": [_gap(a.grad, b.grad) for a, b in zip(mine, full_inputs, strict=True)],
        "grad_weights": {
            n: _gap(getattr(layer.local, n).grad, getattr(full, n).grad[index[n]])
            for n in ("w_q", "w_k", "w_v", "w_o")
        },
        "biases": [layer.b_o, layer.local.b_q],
        "log": [(e.phase, e.what) for e in log],
        "hidden_keys": int(hidden.sum()),
        "masked_keys_ignored": _gap(layer(q, k, v_changed, mask=mask, is_causal=True)[0], out),
    }


def _gathered(rank: int) -> dict:
    """to_full() rebuilds the layer exactly on every rank, with and without biases."""
    names = ("w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o")
    gaps = {}
    for bias in (True, False):
        torch.manual_seed(2)
        full = MultiHeadAttention(D_MODEL, H, d_v=4, vdim=7, bias=bias, dtype=torch.float64)
        back = HeadParallelAttention.from_full(full).to_full()
        gaps[bias] = {
            "shapes": all(getattr(back, n).shape == getattr(full, n).shape for n in names[:4]),
            "none": [n for n in names if getattr(back, n) is None],
            "gaps": [
                _gap(getattr(back, n), getattr(full, n))
                for n in names
                if getattr(full, n) is not None
            ],
        }
    return gaps


def _rejected(rank: int) -> dict:
    """Bad world sizes and bad arguments, on a live process group."""
    errors = {}
    cases = {
        "odd_heads": lambda: HeadParallelAttention.from_full(MultiHeadAttention(D_MODEL, 3)),
        "not_a_module": lambda: HeadParallelAttention.from_full(torch.nn.Linear(4, 4)),
        "head_axis": lambda: HeadParallelAttention.from_full(MultiHeadAttention(D_MODEL, H))(
            torch.randn(1, N_Q, D_MODEL), mask=torch.ones(1, 3, N_Q, N_Q, dtype=torch.bool)
        ),
    }
    for name, case in cases.items():
        try:
            case()
        except (TypeError, ValueError) as error:
            errors[name] = (type(error).__name__, str(error))
    return errors


def _naive_all_reduce(rank: int) -> float:
    """With torch.distributed.nn.functional.all_reduce as g, the weight gradients come out x p."""
    torch.manual_seed(3)
    full = MultiHeadAttention(D_MODEL, H, dtype=torch.float64)
    x = torch.randn(B, N_Q, D_MODEL, dtype=torch.float64)
    full(x)[0].sum().backward()
    layer = HeadParallelAttention.from_full(full)
    with warnings.catch_warnings():  # deprecated since torch 2.6 or so; still shipped
        warnings.simplefilter("ignore", FutureWarning)
        dist_fn.all_reduce(layer.local(x)[0]).sum().backward()
    index = _slices(rank, full.d_k, full.d_v)["w_q"]
    return (layer.local.w_q.grad / full.w_q.grad[index]).mean().item()


def _on_each_rank() -> dict:
    rank = dist.get_rank()
    return {
        "rank": rank,
        "self": _self_attention(rank),
        "cross": _cross_attention(rank),
        "gathered": _gathered(rank),
        "rejected": _rejected(rank),
        "naive_ratio": _naive_all_reduce(rank),
    }


@pytest.fixture(scope="module")
def ranks():
    return launch(_on_each_rank, world_size=WORLD, timeout=60)


def test_each_rank_reports(ranks):
    assert [r["rank"] for r in ranks] == list(range(WORLD))


def test_self_attention_forward_and_backward_equal_the_full_layer(ranks):
    for r in ranks:
        assert r["self"]["out"] < 1e-12
        assert r["self"]["grad_x"] < 1e-12
        assert set(r["self"]["grad_weights"]) == {
            "w_q",
            "w_k",
            "w_v",
            "w_o",
            "b_q",
            "b_k",
            "b_v",
            "b_o",
        }
        assert max(r["self"]["grad_weights"].values()) < 1e-12
        assert r["self"]["not_alone"] > 1e-3  # the exchange matters


def test_one_all_reduce_forward_and_one_backward_for_self_attention(ranks):
    size = B * N_Q * D_MODEL * 8  # float64
    for r in ranks:
        assert r["self"]["log"] == [
            ("forward", "partial outputs", (B, N_Q, D_MODEL), size),
            ("backward", "gradient of q=k=v", (B, N_Q, D_MODEL), size),
        ]


def test_cross_attention_with_per_head_mask_equals_the_full_layer(ranks):
    for r in ranks:
        cross = r["cross"]
        assert cross["finite"]
        assert cross["out"] < 1e-12
        assert cross["weights"] < 1e-12  # this rank's heads' weights, under this rank's mask
        assert max(cross["grads_qkv"]) < 1e-12
        assert max(cross["grad_weights"].values()) < 1e-12
        assert cross["biases"] == [None, None]
        assert cross["log"][0] == ("forward", "partial outputs")
        backward = sorted(what for phase, what in cross["log"] if phase == "backward")
        assert backward == ["gradient of k", "gradient of q", "gradient of v"]


def test_masked_keys_do_not_reach_the_output(ranks):
    for r in ranks:
        assert r["cross"]["hidden_keys"] > 0  # the check below has something to move
        assert r["cross"]["masked_keys_ignored"] < 1e-12


def test_to_full_reproduces_the_layer_on_every_rank(ranks):
    for r in ranks:
        with_bias, without = r["gathered"][True], r["gathered"][False]
        assert with_bias["shapes"] and without["shapes"]
        assert with_bias["none"] == []
        assert with_bias["gaps"] == [0.0] * 8  # exact copies
        assert without["none"] == ["b_q", "b_k", "b_v", "b_o"]
        assert without["gaps"] == [0.0] * 4


def test_bad_world_size_and_arguments_are_rejected(ranks):
    for r in ranks:
        errors = r["rejected"]
        kind, message = errors["odd_heads"]
        assert kind == "ValueError"
        assert "world size 2" in message and "num_heads=3" in message
        assert errors["not_a_module"][0] == "TypeError"
        assert "Linear" in errors["not_a_module"][1]
        assert errors["head_axis"][0] == "ValueError"
        assert "num_heads=4" in errors["head_axis"][1]


def test_torch_distributed_nn_all_reduce_would_double_the_gradients(ranks):
    for r in ranks:
        assert r["naive_ratio"] == pytest.approx(WORLD)


def test_no_process_group_is_a_clear_error():
    assert not dist.is_initialized()
    with pytest.raises(ValueError, match="init_process_group"):
        HeadParallelAttention.from_full(MultiHeadAttention(D_MODEL, H))


def test_launch_rejects_a_function_it_cannot_import():
    def local():
        pass

    local.__module__ = "__main__"  # as a function defined in a notebook
    with pytest.raises(TypeError, match="importable"):
        launch(local)


def _fail_on_rank_0() -> None:
    if dist.get_rank() == 0:
        raise ArithmeticError("rank 0 gives up")
    dist.barrier()  # rank 1 waits here for rank 0, which never comes


def test_a_failing_rank_stops_the_others():
    # Rank 1 would wait at its barrier until the timeout; the launch must stop it as soon as
    # rank 0 fails. The timeout is long enough that two processes importing torch on a loaded
    # machine end far before it, so only a launch that waited for it takes half of it.
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="rank 0 gives up"):
        launch(_fail_on_rank_0, timeout=600)
    assert time.monotonic() - start < 300


def test_a_hang_times_out():
    with pytest.raises(TimeoutError, match="did not finish"):
        launch(time.sleep, 60, world_size=1, timeout=1)
