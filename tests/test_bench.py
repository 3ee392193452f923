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
from mha.bench import cli, measure, profile, timing, verdict
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

    def fake_round(impl, shapes_, calls_, memory):
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
    text = profile.format_profile(report)
    assert "(1, 1024, 32, 4)" in text and "idle / hand-offs" in text
    small = profile.profile((1, 16, 32, 4), calls=1)  # scores fit: the readable path
    assert "not taken" in profile.format_profile(small)


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
