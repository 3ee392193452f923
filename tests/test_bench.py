"""The benchmark's verdict rule, its bookkeeping, its processes and the lean path's profile;
chapter 3's per-head forms and their timing harness.

No timing is asserted here (speed goals live in ``python -m mha.bench``): the verdict rule
is checked on synthetic ratios, the report's bookkeeping on synthetic rounds, and one run
of real fresh processes at a tiny shape checks that the pieces fit together.
"""

import json
import threading
import time

import numpy as np
import pytest

import mha
from mha.bench import classes, cli, machines, measure, profile, timing, verdict
from mha.lean import phases


def test_a_goal_is_met_only_when_the_worse_end_of_the_iqr_meets_it():
    met = verdict.spread([0.9, 0.95, 0.97, 1.2, 0.92])  # sorted: .90 .92 .95 .97 1.2
    assert (met["q1"], met["median"], met["q3"]) == pytest.approx((0.92, 0.95, 0.97))
    assert verdict.meets(met, 1.0, at_most=True)  # one slow round does not decide
    median_only = verdict.spread([0.9, 0.95, 1.05, 1.02, 0.99])  # median 0.99, q3 1.02
    assert median_only["median"] < 1.0
    assert not verdict.meets(median_only, 1.0, at_most=True)
    fractions = verdict.spread([0.7, 0.72, 0.55, 0.58, 0.75])  # median 0.70, q1 0.58
    assert not verdict.meets(fractions, 0.6, at_most=False)
    assert verdict.meets(verdict.spread([0.65, 0.7, 0.61, 0.62, 0.64]), 0.6, at_most=False)
    two = verdict.spread([1.0, 2.0])  # quartiles interpolate between the two rounds
    assert (two["q1"], two["median"], two["q3"]) == pytest.approx((1.25, 1.5, 1.75))


def test_rounds_alternate_the_order_and_every_ratio_is_taken_within_a_round():
    shapes = [(1, 1024, 64, 4), (2, 16, 8, 2)]
    times = {"numpy": [[10.0, 1.0], [20.0, 1.0], [30.0, 1.0]], "nn.MHA": [[10.0, 2.0]] * 3}
    peaks = {"numpy": [100.0, 50.0, 100.0], "nn.MHA": [100.0, 100.0, 100.0]}
    calls = []

    def fake_round(impl, shapes_, calls_, memory, causal):
        r = sum(c[0] == impl for c in calls)
        calls.append((impl, memory))
        return {
            "impl": impl,
            "peak_gflops": peaks[impl][r],
            "times_ms": times[impl][r],
            "memory_mib": [1.0, 2.0] if memory else [None, None],
        }

    report = measure.run(shapes, ["numpy", "nn.MHA"], 3, 2, True, measure_round=fake_round)
    order = [impl for impl, _ in calls]
    assert order == ["numpy", "nn.MHA", "nn.MHA", "numpy", "numpy", "nn.MHA"]
    assert [memory for _, memory in calls] == [True, True, False, False, False, False]
    big, small = report["ratios"]
    ratio = big["numpy / nn.MHA"]
    assert ratio["rounds"] == pytest.approx([1.0, 2.0, 3.0])
    assert (ratio["q1"], ratio["median"], ratio["q3"]) == pytest.approx((1.5, 2.0, 2.5))
    assert small["numpy / nn.MHA"]["rounds"] == pytest.approx([0.5] * 3)
    row = report["rows"][0]  # numpy at the first shape
    work = 8 * 1024 * 64**2 + 4 * 1024**2 * 64
    expected = [work / 0.010 / 1e9 / 100, work / 0.020 / 1e9 / 50, work / 0.030 / 1e9 / 100]
    assert row["fraction_of_peak"]["rounds"] == pytest.approx(expected)  # its own process's peak
    assert row["peak_memory_mib"] == 1.0
    lines = verdict.goals(report)
    assert all("NumPy no slower" not in line for line in lines)  # (1, 1024, ...) is no goal shape
    fraction_lines = [line for line in lines if "of the matmul peak" in line]
    assert len(fraction_lines) == 1 and "(1, 1024, 64, 4)" in fraction_lines[0]
    assert verdict.meets(row["fraction_of_peak"], 0.6, at_most=False) == (
        "-> met" in fraction_lines[0]
    )


def test_the_goal_line_says_not_met_when_only_the_median_meets_it():
    ratio = verdict.spread([0.9, 0.95, 1.05, 1.02, 0.99])
    report = {"ratios": [{"shape": [1, 4096, 512, 8], **dict.fromkeys(
        [f"{a} / {b}" for a, b in verdict.RATIOS])}], "rows": []}  # fmt: skip
    report["ratios"][0]["numpy / nn.MHA"] = ratio
    (line,) = verdict.goals(report)
    assert "0.99 [" in line and "NOT met (upper quartile 1.02)" in line


@pytest.mark.slow
def test_the_benchmark_runs_each_round_in_fresh_processes(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(measure, "PEAK_SIDE", {"cpu": 64, "gpu": 64})  # passed to the processes
    path = tmp_path / "bench.json"
    argv = ["--shape", "2,64,32,4", "--rounds", "2", "--calls", "1", "--impl", "numpy"]
    report = cli.main([*argv, "--json", str(path)])
    assert json.loads(path.read_text()) == json.loads(json.dumps(report))
    (row,) = report["rows"]
    assert row["impl"] == "numpy" and len(row["ms"]["rounds"]) == 2 and min(row["ms"]["rounds"]) > 0
    assert row["peak_memory_mib"] is None or row["peak_memory_mib"] >= 0
    peaks = report["matmul_peak_gflops"]["numpy"]["rounds"]
    work = timing.flops(2, 64, 32)
    expected = [
        work / (ms / 1e3) / 1e9 / p for ms, p in zip(row["ms"]["rounds"], peaks, strict=True)
    ]
    assert row["fraction_of_peak"]["rounds"] == pytest.approx(expected)
    printed = capsys.readouterr().out
    assert "2 rounds, each implementation in a fresh process" in printed
    assert "(2, 64, 32, 4)" in printed


def test_a_failing_process_is_reported_with_its_error():
    with pytest.raises(RuntimeError, match=r"impl must be one of .* got 'no such impl'"):
        measure.measure_in_fresh_process("no such impl", [(1, 8, 8, 2)], 1, False)


def test_timed_steps_record_only_while_recording_and_sum_over_threads():
    @phases.timed("sleep")
    def nap(seconds):
        time.sleep(seconds)
        return seconds

    assert nap(0.0) == 0.0  # off: the step just runs
    with phases.recording() as totals:
        workers = [threading.Thread(target=nap, args=(0.05,)) for _ in range(2)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        with pytest.raises(RuntimeError, match="does not nest"), phases.recording():
            pass
    assert set(totals) == {"sleep"} and totals["sleep"] >= 0.1  # two threads, 0.05 s each
    recorded = dict(totals)
    nap(0.01)  # off again: nothing is added
    assert totals == recorded
    with phases.recording() as later:
        pass
    assert later == {}


def test_the_profile_accounts_for_the_whole_call_and_its_floor(monkeypatch):
    monkeypatch.setattr(profile, "matmul_peak_numpy", lambda: 100.0)  # GFLOP/s
    monkeypatch.setattr(profile, "exp_rate", lambda: 1e9)  # exponentials per second
    at_shapes = {"QK^T products": 50.0, "PV products": 80.0}  # BLAS below the peak on them
    monkeypatch.setattr(profile, "blas_rates", lambda shape: at_shapes)
    shape = (1, 1024, 32, 4)  # scores of 16 MiB: the lean path
    report = profile.profile(shape, calls=1)
    measured = report["phases_ms"]
    expected = {"projections", "QK^T products", "exp", "PV products", profile.IDLE}
    assert expected <= set(measured)
    assert sum(measured.values()) == pytest.approx(report["wall_ms"])
    products = 2 * 1024**2 * 32  # Q K^T (and P V), all heads
    assert report["floor_ms"] == pytest.approx(
        {
            "projections": 1e3 * 8 * 1024 * 32**2 / 100e9,
            "QK^T products": 1e3 * products / 100e9,
            "PV products": 1e3 * products / 100e9,
            "exp": 1e3 * 4 * 1024**2 / 1e9,
        }
    )
    assert report["blas_floor_ms"] == pytest.approx(
        report["floor_ms"]
        | {"QK^T products": 1e3 * products / 50e9, "PV products": 1e3 * products / 80e9}
    )
    text = profile.format_profile(report)
    assert "(1, 1024, 32, 4)" in text and "idle / hand-offs" in text
    blas_total = sum(report["blas_floor_ms"].values())
    assert f"took {report['wall_ms'] / blas_total:.2f}x that" in text
    small = profile.profile((1, 16, 32, 4), calls=1)  # scores fit: the readable path
    assert "not taken" in profile.format_profile(small)


def test_blas_rates_name_each_product_of_the_floor_and_count_every_task(monkeypatch):
    """One rate per product phase of the floor; each the FLOPs of every task of the pool over
    the seconds measured (here a pretend second per run of the tasks)."""
    runs = []
    monkeypatch.setattr(timing.threads, "width", lambda: 2)

    def one_second_each(calls, rounds, summary):
        (run,) = calls.values()
        run()
        runs.append(run)
        return {"numpy": 1.0}

    monkeypatch.setattr(timing, "time_interleaved", one_second_each)
    shape = (2, 256, 32, 4)
    rates = timing.blas_rates(shape)
    products = {name for name in timing.floor(shape, 1.0, 1.0) if name != "exp"}
    assert set(rates) == products and len(runs) == 3
    budget = mha.numpy_mha.DEFAULT_MEMORY_BUDGET["cpu"] // 4
    block_q, block_k = timing.tiles.worker_tile_shape(256, 256, budget, 2)
    assert (block_q, block_k) == (256, 256)  # the whole scores of a head fit one tile
    tasks = 8  # four per thread
    assert rates["QK^T products"] == pytest.approx(tasks * 2 * 256 * 8 * 256 / 1e9)
    assert rates["projections"] == pytest.approx(tasks * 2 * 64 * 32 * 32 / 1e9)  # 512 rows / 8


def test_the_profiled_call_equals_the_unprofiled_one(rng):
    params = mha.init_params(32, 4, seed=0)
    x = rng.standard_normal((1, 300, 32)).astype(np.float32)
    out, _ = mha.multi_head_attention(x, x, x, params, need_weights=False, memory_budget=1)
    with phases.recording():
        profiled, _ = mha.multi_head_attention(x, x, x, params, need_weights=False, memory_budget=1)
    np.testing.assert_array_equal(profiled, out)


def test_the_three_per_head_forms_compute_the_heads_of_split_attention(rng):
    q, k, v = (rng.standard_normal((6, 8), dtype=np.float32) for _ in range(3))
    expected, _ = mha.scaled_dot_product_attention(*(mha.split_heads(x, 4) for x in (q, k, v)))
    forms = timing.per_head_forms(q, k, v, num_heads=4)
    assert list(forms) == list(timing.PER_HEAD_FORMS)
    for form, call in forms.items():
        np.testing.assert_allclose(call(), expected, rtol=1e-5, atol=1e-6, err_msg=form)


def test_the_per_head_forms_are_timed_for_every_length_and_head_count_on_one_thread(rng):
    import torch

    threads = torch.get_num_threads()
    seconds = timing.time_per_head_forms([4, 8], [1, 2, 4], 8, rng, rounds=2)
    assert set(seconds) == set(timing.PER_HEAD_FORMS)
    for times in seconds.values():
        assert times.shape == (2, 3) and (times > 0).all()
    assert torch.get_num_threads() == threads  # given back


def test_the_softmax_of_the_heads_is_timed_for_every_length_and_head_count(rng):
    seconds = timing.time_softmax_of_heads([4, 8], [1, 2, 4], rng, rounds=2)
    assert seconds.shape == (2, 3) and (seconds > 0).all()


def test_peak_mib_is_what_the_call_allocated_on_the_cpu_or_in_a_pool():
    result, peak = timing.peak_mib(np.ones, (1024, 1024))  # 8 MiB of float64
    assert result.shape == (1024, 1024) and 8 <= peak < 9

    class Pool:  # what CuPy's memory pool reports: it grows by what a call reserves
        held = 0

        def free_all_blocks(self):
            self.held = 3 * 2**20

        def total_bytes(self):
            return self.held

    pool = Pool()

    def reserve():
        pool.held += 5 * 2**20
        return "done"

    assert timing.peak_mib(reserve, pool=pool) == ("done", 5.0)


def test_peak_mib_refuses_to_run_inside_another_trace():
    import tracemalloc

    tracemalloc.start()
    try:
        with pytest.raises(RuntimeError, match="tracemalloc"):
            timing.peak_mib(np.ones, 3)
    finally:
        tracemalloc.stop()


def test_causal_attention_counts_only_the_pairs_its_mask_lets_attend():
    batch, n, d, h = 3, 10, 8, 2
    projections = 4 * (2 * batch * n * d * d)
    pairs = n * (n + 1) // 2  # on and below the diagonal: 55 of 100
    assert timing.attended_pairs(n, causal=True) == pairs == 55
    assert timing.flops(batch, n, d, causal=True) == projections + 2 * (2 * batch * pairs * d)
    full = timing.floor((batch, n, d, h), 1.0, 1.0)
    causal = timing.floor((batch, n, d, h), 1.0, 1.0, causal=True)
    assert causal["projections"] == full["projections"]
    for part in ("QK^T products", "PV products", "exp"):
        assert causal[part] == pytest.approx(full[part] * pairs / n**2)
    assert causal["exp"] == pytest.approx(batch * h * pairs)  # one exponential per pair
    at_shapes = timing.floor((batch, n, d, h), 1.0, 1.0, product_gflops={"PV products": 0.5})
    assert at_shapes["PV products"] == pytest.approx(2 * full["PV products"])
    assert {k: v for k, v in at_shapes.items() if k != "PV products"} == {
        k: v for k, v in full.items() if k != "PV products"
    }


def test_every_implementation_reads_causal_the_same_way():
    pytest.importorskip("torch")
    shape = (2, 24, 16, 2)
    outputs = {}
    for causal in (False, True):
        for impl in timing.CPU_IMPLS:
            out = timing.make_call(impl, shape, causal=causal)()
            outputs[impl, causal] = np.asarray(out)
    for impl in timing.CPU_IMPLS[1:]:
        for causal in (False, True):  # float32 products of 16 numbers: well within 1e-5
            np.testing.assert_allclose(
                outputs[impl, causal], outputs["numpy", causal], rtol=1e-4, atol=1e-5
            )
    assert not np.allclose(outputs["numpy", True], outputs["numpy", False], atol=1e-3)
    np.testing.assert_allclose(  # the last query sees every key: causal changes nothing there
        outputs["numpy", True][:, -1], outputs["numpy", False][:, -1], rtol=1e-4, atol=1e-5
    )


def _class(name, **env):
    return machines.MachineClass(name, env)


def test_machine_classes_are_chosen_by_name_or_a_piece_of_one():
    known = [_class("as it is"), _class("1 thread"), _class("NumPy at x86-64-v2 (no AVX2)"),
             _class("OpenBLAS Sandybridge (Sandybridge)")]  # fmt: skip
    assert classes.select(known, ["all"]) == known
    assert classes.select(known, ["x86-64-V2", "as it is"]) == [known[2], known[0]]
    assert classes.select(known, ["sandybridge"]) == [known[3]]
    with pytest.raises(ValueError, match=r"--machine 'AVX-512' names 0 .* choose from"):
        classes.select(known, ["AVX-512"])
    with pytest.raises(ValueError, match=r"--machine 'a' names 4 "):
        classes.select(known, ["a"])


def _class_report(name, q3, exp_per_s, torch_exp_per_s, wall_ms):
    ratio = verdict.spread([q3 - 0.1, q3 - 0.05, q3])  # quartiles q3 - 0.075, q3 - 0.025
    ms = verdict.spread([100.0] * 3)
    bench = {
        "machine_class": {"name": name},
        "causal": False,
        "numpy_exp_route": "exp",
        "rows": [{"shape": [1, 4096, 512, 8], "impl": impl, "ms": ms, "fraction_of_peak": ms}
                 for impl in ("numpy", "nn.MHA")],
        "ratios": [{"shape": [1, 4096, 512, 8], "numpy / nn.MHA": ratio}],
    }  # fmt: skip
    profile_run = {
        "machine_class": {"name": name},
        "profiles": [{"shape": [1, 4096, 512, 8], "causal": False, "exp_route": "exp",
                      "exp_per_s": exp_per_s, "torch_exp_per_s": torch_exp_per_s,
                      "wall_ms": wall_ms, "floor_ms": {"products": 80.0, "exp": 20.0},
                      "blas_floor_ms": {"products": 90.0, "exp": 20.0},
                      "phases_ms": {"products": 87.0, "exp": 20.0, "idle": wall_ms - 107}}],
    }  # fmt: skip
    return bench, profile_run


def test_the_classes_table_holds_each_class_to_its_goal():
    """1.0 where NumPy's exponentials keep up with torch's, 1.1 elsewhere; the floor 1.15x."""
    fast_exp = _class_report("fast exp", 1.05, 2e9, 1e9, 110.0)  # q3 1.025: above 1.0
    slow_exp = _class_report("slow exp", 1.05, 0.5e9, 1e9, 120.0)  # 1.025 <= 1.1; floor 1.2x
    table = classes.markdown([fast_exp[0], slow_exp[0]], [fast_exp[1], slow_exp[1]])
    rows = {line.split(" | ")[0].strip("| "): line for line in table.splitlines()[2:4]}
    assert "<= 1.0: **NOT met**" in rows["fast exp"] and "1.02]" in rows["fast exp"]
    assert "<= 1.1: met" in rows["slow exp"]
    floors = [line for line in table.splitlines() if "G/s" in line]
    assert "1.10 (<= 1.15: met)" in floors[0] and "1.20 (<= 1.15: **NOT met**)" in floors[1]
    assert floors[0].endswith("| products +7 ms | 1.00 |")  # idle: +3 ms; 110 / (90 + 20)
    assert floors[1].endswith("| idle +13 ms | 1.09 |")  # products: +7 ms; 120 / 110
    assert classes.ratio_goal(None, 1e9) == 1.1  # no profile: the looser goal
    without = classes.markdown([fast_exp[0]])
    assert "<= 1.1: met" in without and "G/s" not in without


@pytest.mark.slow
def test_the_benchmark_runs_as_a_machine_class_in_its_own_processes(capsys, monkeypatch):
    monkeypatch.setattr(
        machines, "machine_classes", lambda: [machines.MachineClass("as it is"),
                                              _class("pretend", MHA_LEAN_EXP="exp2")]
    )  # fmt: skip
    argv = ["--profile", "--shape", "1,256,32,4", "--calls", "1", "--machine", "pretend"]
    report = cli.main(argv)
    (run,) = report["machine_classes"]
    assert run["machine_class"]["name"] == "pretend"
    assert run["machine_class"]["env"] == {"MHA_LEAN_EXP": "exp2"}
    (p,) = run["profiles"]
    assert p["exp_route"] == "exp2" and p["shape"] == [1, 256, 32, 4]  # the class's setting
    assert "=== machine class: pretend" in capsys.readouterr().out


def test_both_exponential_rates_count_every_number_and_leave_torchs_threads_as_they_were():
    torch = pytest.importorskip("torch")
    threads_before = torch.get_num_threads()
    calls = []
    real = timing.time_interleaved

    def spy(calls_, rounds, summary):
        seconds = real(calls_, rounds, summary)
        calls.append(seconds["numpy"])
        return seconds

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(timing, "time_interleaved", spy)
        rates = [timing.exp_rate(2**10, 1, route) for route in ("exp", "exp2")]
        rates.append(timing.torch_exp_rate(2**10, 1))
    assert torch.get_num_threads() == threads_before
    tasks = 8 * timing.threads.width()
    for rate, seconds in zip(rates, calls, strict=True):  # 8 passes over every task's numbers
        assert rate == pytest.approx(tasks * 8 * 2**10 / seconds)
