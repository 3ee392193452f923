"""The diagnosis from edits of the book's solution (mha/checks/edits.py): a mistake no table
stores is named by the step it sits in. The answers here are written for these tests, each in
an idiom of its own (not taken from a held-out round)."""

import ast
import math
import os
import sys

import numpy as np
import pytest

import mha
from mha.checks import EXERCISES, FAILED, FunctionExercise, check, edits

SEEDS = (0, 1, 2)


def _named(name, answer, kind, *words, seeds=SEEDS):
    for seed in seeds:
        result = check(name, answer, seed=seed)
        assert result.status == FAILED, (seed, str(result))
        assert result.diagnosis == f"edit:{kind}", (seed, str(result))
        for word in words:
            assert word in result.feedback, (seed, word, str(result))


def test_a_keyword_left_out_of_one_reduction_is_named_with_its_step():
    def softmax(x, axis=-1):
        z = np.exp(x - x.max(axis=axis, keepdims=True))
        return z / z.sum(axis=axis)  # keepdims only on the maximum

    _named(
        "softmax", softmax, "keyword_left_out",
        "`keepdims=True` left out of `np.sum(e, axis=axis, keepdims=True)`",
        "in `return e / np.sum(e, axis=axis, keepdims=True)`",
    )  # fmt: skip


def test_a_function_confused_with_its_opposite_is_named():
    def softmax(x, axis=-1):
        lowest = np.min(x, axis=axis, keepdims=True)
        e = np.exp(x - lowest)
        return e / e.sum(axis=axis, keepdims=True)

    _named("softmax", softmax, "other_function", "`min` where `max` belongs")


def test_one_attribute_for_another_is_named():
    def multi_head_attention(q, k, v, params, mask=None):  # the key bias added to the values
        def project(x, w, b):
            return x @ w if b is None else x @ w + b

        h = params.num_heads
        q_h = mha.split_heads(project(q, params.w_q, params.b_q), h)
        k_h = mha.split_heads(project(k, params.w_k, params.b_k), h)
        v_h = mha.split_heads(project(v, params.w_v, params.b_k), h)
        heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
        return project(mha.merge_heads(heads), params.w_o, params.b_o), weights

    _named(
        "multi_head_attention", multi_head_attention, "other_name",
        "`params.b_k` used where `params.b_v`",
    )  # fmt: skip


def test_two_names_swapped_everywhere_are_named():
    def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
        h = x + attention(norm2(x), mask=mask)[0]
        return h + feed_forward(norm1(h))

    _named("pre_ln_block", pre_ln_block, "swapped", "`norm1` and `norm2` swapped everywhere")


def test_two_values_of_a_dict_swapped_are_named():
    def params_from_torch(torch_mha):
        d = torch_mha.embed_dim
        w = torch_mha.in_proj_weight.detach().numpy()
        fields = {"w_q": w[:d].T, "w_k": w[d : 2 * d].T, "w_v": w[2 * d :].T}
        if torch_mha.in_proj_bias is not None:
            b = torch_mha.in_proj_bias.detach().numpy()
            fields.update(b_q=b[2 * d :], b_k=b[d : 2 * d], b_v=b[:d])  # q and v crossed
            fields["b_o"] = torch_mha.out_proj.bias.detach().numpy()
        w_o = torch_mha.out_proj.weight.detach().numpy().T
        return mha.MHAParams(w_o=w_o, num_heads=torch_mha.num_heads, **fields)

    _named("params_from_torch", params_from_torch, "order", "`'b_q'` and `'b_v'` swapped")


def test_a_comparison_turned_around_is_named():
    def attention_layer(q, k, v, params, lengths=None):
        h = params.num_heads
        heads = [
            mha.split_heads(x @ w + b, h)
            for x, w, b in ((q, params.w_q, params.b_q), (k, params.w_k, params.b_k),
                            (v, params.w_v, params.b_v))
        ]  # fmt: skip
        mask = None
        if lengths is not None:
            pad = np.arange(k.shape[-2])[None, :] < np.asarray(lengths)[:, None]
            mask = ~pad[:, None, None, :]  # True on the pads: the wrong way round
        out, weights = mha.scaled_dot_product_attention(*heads, mask)
        return mha.merge_heads(out) @ params.w_o + params.b_o, weights

    _named("attention_layer", attention_layer, "other_comparison", ">= np.asarray(lengths)")


def test_two_reductions_changed_together_are_named_as_two_changes():
    def softmax(x, axis=-1):
        e = np.exp(x - x.max())  # the whole array's maximum
        return e / e.sum(-1, keepdims=True)  # and always the last axis

    _named(
        "softmax", softmax, "two_reductions", "with two changes",
        "`axis=axis` left out of `np.max(x, axis=axis, keepdims=True)`",
        "`axis=-1` where `axis=axis` belongs, in `np.sum(e, axis=axis, keepdims=True)`",
    )  # fmt: skip


def test_a_dropped_term_is_named_as_dropped_not_as_a_comparison_never_true():
    def head_js_divergence(weights):
        h, n_k = weights.shape[-3], weights.shape[-1]
        rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k)
        a, b = rows[:, None], rows[None, :]
        middle = (a + b) / 2
        with np.errstate(divide="ignore", invalid="ignore"):
            one_side = np.where(a > 0, a * np.log(a / middle), 0.0).sum(-1)
        return (one_side / 2).mean(-1)  # the other KL term forgotten

    _named(
        "head_js_divergence", head_js_divergence, "operand_left_out",
        "`kl_p` without adding `kl_q`",
    )  # fmt: skip


def test_a_package_step_done_its_usual_wrong_way_is_named_in_the_solution_that_calls_it():
    def grouped_query_attention(q, k, v, params, mask=None):
        h, g = params.num_heads, params.num_kv_heads
        qh = mha.split_heads(q @ params.w_q, h)
        kh, vh = (np.repeat(mha.split_heads(x @ w, g), h // g, axis=-3)
                  for x, w in ((k, params.w_k), (v, params.w_v)))  # fmt: skip
        weights = mha.softmax(qh @ np.swapaxes(kh, -1, -2) / math.sqrt(qh.shape[-1]))
        if mask is not None:
            weights = weights * mask  # hidden keys zeroed after the softmax
        return mha.merge_heads(weights @ vh) @ params.w_o, weights

    _named(
        "grouped_query_attention", grouped_query_attention, "wrong_step",
        "the mask applied after the softmax, in the step `mha.scaled_dot_product_attention(",
    )  # fmt: skip


def test_a_loop_that_stops_one_early_is_named():
    def head_ablation_scores(evaluate, num_layers, num_heads):
        everything = evaluate(np.ones((num_layers, num_heads)))
        out = np.zeros((num_layers, num_heads))
        for layer in range(num_layers):
            for head in range(num_heads - 1):  # each layer's last head never removed
                gate = np.ones((num_layers, num_heads))
                gate[layer, head] = 0
                out[layer, head] = everything - evaluate(gate)
        return out

    _named("head_ablation_scores", head_ablation_scores, "off_by_one", "the loop stops one early")


def _online_softmax(*, fill: float = -np.inf, keys_from_zero: bool = False):
    """An online-softmax attention written as a reader might, with one slip or none."""

    def online_softmax_attention(q, k, v, block_size, causal=False):
        n_q, n_k = q.shape[-2], k.shape[-2]
        scale = 1 / math.sqrt(q.shape[-1])
        top = np.full((*q.shape[:-1], 1), -np.inf)
        total = np.zeros((*q.shape[:-1], 1))
        acc = np.zeros((*q.shape[:-1], v.shape[-1]))
        sees_up_to = (np.arange(n_q) + n_k - n_q)[:, None]
        for lo in range(0, n_k, block_size):
            kb, vb = k[..., lo : lo + block_size, :], v[..., lo : lo + block_size, :]
            s = np.einsum("...qd,...kd->...qk", q, kb) * scale
            if causal:
                positions = np.arange(kb.shape[-2]) + (0 if keys_from_zero else lo)
                s = np.where(positions <= sees_up_to, s, fill)
            m = np.maximum(top, s.max(-1, keepdims=True))
            safe = np.where(np.isinf(m), 0.0, m)
            w = np.exp(s - safe)
            fix = np.exp(top - safe)
            total, acc, top = total * fix + w.sum(-1, keepdims=True), acc * fix + w @ vb, m
        return np.where(total > 0, acc / np.where(total > 0, total, 1), 0.0)

    return online_softmax_attention


def test_the_online_softmax_of_these_tests_is_right_without_a_slip():
    assert check("online_softmax_attention", _online_softmax(), seed=0).passed


def test_positions_counted_from_0_in_each_block_are_named():
    _named(
        "online_softmax_attention", _online_softmax(keys_from_zero=True), "off_by_one",
        "(counted from 0, not from the start)",
    )  # fmt: skip


def test_zero_for_minus_infinity_is_named():
    _named(
        "online_softmax_attention", _online_softmax(fill=0.0), "other_number",
        "`0.0` where `-np.inf` belongs",
    )  # fmt: skip


def test_one_part_of_the_state_keys_read_for_another_is_named():
    def bert_self_attention(x, attention_mask, state, num_heads):
        def weight(part):
            return state[f"self.{part}.weight"].T, state[f"self.{part}.bias"]

        (w_q, b_q), (w_k, b_k), (w_v, b_v) = weight("value"), weight("key"), weight("value")
        params = mha.MHAParams(w_q, w_k, w_v, state["output.dense.weight"].T, num_heads,
                               b_q, b_k, b_v, state["output.dense.bias"])  # fmt: skip
        mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
        return mha.multi_head_attention(x, x, x, params, mask)

    _named("bert_self_attention", bert_self_attention, "other_name", "`value` read for `query`")


def test_a_square_for_an_absolute_value_is_named():
    def gate_importance(contributions, grad_out):
        grads = (contributions * grad_out[:, None]).sum(axis=(-2, -1))  # (B, h)
        return np.mean(grads * grads, axis=0)

    _named("gate_importance", gate_importance, "other_function", "`square` where `abs` belongs")


def test_an_edit_that_explains_all_but_one_input_names_nothing_of_its_own():
    def softmax(x, axis=-1):
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        total = np.sum(e, axis=axis, keepdims=x.ndim != 2)  # keepdims lost on matrices only
        return e / total

    for seed in SEEDS:
        result = check("softmax", softmax, seed=seed)
        assert result.status == FAILED
        assert result.diagnosis is None or not result.diagnosis.startswith("edit:"), str(result)


def test_an_answer_that_only_raises_is_never_named_by_an_edit():
    def softmax(x, axis=-1):
        raise ValueError(f"operands could not be broadcast together with shapes {x.shape}")

    for seed in SEEDS:
        result = check("softmax", softmax, seed=seed)
        assert result.status == FAILED
        assert not (result.diagnosis or "").startswith("edit:"), str(result)


FUNCTIONS = [n for n, e in EXERCISES.items() if isinstance(e, FunctionExercise)]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_every_function_exercise_has_edits_of_its_solution(name):
    made = edits.edits(EXERCISES[name])
    assert len(made) >= 5, f"{name}: {len(made)} edits"
    assert all(e.function is not None and e.where and e.what for e in made)


def test_making_the_edits_leaves_the_solution_as_it_was():
    path = edits.solution_file(1)
    tree, _ = edits._solutions(path)
    before = ast.dump(tree)
    edits._MADE.clear()
    assert edits.edits(EXERCISES["scaled_dot_product_attention"])
    assert ast.dump(tree) == before


def test_the_edits_are_the_same_each_time_they_are_made():
    exercise = EXERCISES["multi_head_attention"]
    first = [(e.kind, e.what, e.where) for e in edits.edits(exercise)]
    edits._MADE.clear()
    assert [(e.kind, e.what, e.where) for e in edits.edits(exercise)] == first


def test_reading_the_kinds_keeps_a_tracer_already_in_place():
    def tracer(frame, event, arg):
        return None

    before = sys.gettrace()
    sys.settrace(tracer)
    try:
        edits._MADE.clear()
        edits.edits(EXERCISES["head_weight"])
        assert sys.gettrace() is tracer
    finally:
        sys.settrace(before)


def test_without_the_solutions_there_are_no_edits_and_checks_still_answer(monkeypatch, tmp_path):
    monkeypatch.setattr(edits, "SOLUTION_FOLDERS", (tmp_path,))
    monkeypatch.setattr(edits, "_MADE", {})

    def softmax(x, axis=-1):
        z = np.exp(x - x.max(axis=axis, keepdims=True))
        return z / z.sum(axis=axis)

    assert edits.edits(EXERCISES["softmax"]) == ()
    result = check("softmax", softmax, seed=0)
    assert result.status == FAILED and not (result.diagnosis or "").startswith("edit:")
    assert check("softmax", mha.softmax, seed=0).passed


@pytest.mark.slow
def test_an_installed_copy_carries_the_solutions_and_names_by_edits(tmp_path):
    """A wheel (what Colab's pip and the website's in-page Python install) has no chapters/:
    setup.py puts the solutions into mha/checks/solutions/, where the edit search finds them
    and from where a grader's view of the package leaves their code out."""
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root / "_ext"))
    try:
        from pyodide_exercises.assets import build_mha_wheel
    finally:
        sys.path.remove(str(root / "_ext"))
    wheel = build_mha_wheel(tmp_path / "wheel")
    target = tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target"]
    subprocess.run([*pip, str(target), str(wheel)], check=True)
    script = (
        "import numpy as np\n"
        "from mha.checks import check, edits\n"
        "print(edits.solution_file(1))\n"
        "def softmax(x, axis=-1):\n"
        "    z = np.exp(x - x.max(axis=axis, keepdims=True))\n"
        "    return z / z.sum(axis=axis)\n"
        "print(check('softmax', softmax, seed=0).diagnosis)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    shown = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert shown.returncode == 0, shown.stderr
    found, diagnosis = shown.stdout.split()
    assert Path(found).is_relative_to(target / "mha" / "checks" / "solutions"), found
    assert diagnosis == "edit:keyword_left_out"

    from mha.grade.view import ViewBuilder  # and a grader's sandbox sees none of their code

    exercise = EXERCISES["softmax"]
    view = ViewBuilder(target / "mha").build("softmax", exercise.references, None, tmp_path)
    seen = (view / "checks" / "solutions" / Path(found).name).read_text()
    assert "np.max" not in seen and "not available while 'softmax' is graded" in seen


def test_solutions_that_cannot_load_here_give_no_edits(monkeypatch, tmp_path):
    (tmp_path / "01_needs_a_missing_module.py").write_text(
        "import a_module_that_is_not_installed\n\ndef softmax(x, axis=-1):\n    return x\n"
    )
    monkeypatch.setattr(edits, "SOLUTION_FOLDERS", (tmp_path,))
    monkeypatch.setattr(edits, "_MADE", {})
    monkeypatch.setattr(edits, "_SOLUTIONS", {})
    assert edits.edits(EXERCISES["softmax"]) == ()
    assert check("softmax", lambda x, axis=-1: x, seed=0).status == FAILED
