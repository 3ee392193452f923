"""mha.book.diagrams: each diagram draws what the package computes (masks, shapes, splits, caches)."""

import subprocess
import sys

import matplotlib
import numpy as np
import pytest

import mha
from mha.book import diagrams

matplotlib.use("Agg")


pytestmark = pytest.mark.usefixtures("close_figures")


def _images(fig) -> dict[str, np.ndarray]:
    """Every drawn array of the figure by its gid (masked entries as NaN)."""
    arrays = {}
    for ax in fig.axes:
        for image in ax.images:
            arrays[image.get_gid()] = np.ma.filled(np.ma.asarray(image.get_array(), float), np.nan)
    return arrays


def _texts(fig) -> dict[str, str]:
    return {t.get_gid(): t.get_text() for ax in fig.axes for t in ax.texts if t.get_gid()}


def _all_text(fig) -> str:
    return "\n".join(t.get_text() for ax in fig.axes for t in ax.texts)


def test_import_mha_does_not_import_matplotlib():
    code = (
        "import sys, mha, mha.book.diagrams, mha.book.explorer; print('matplotlib' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_split_and_merge_heads_draws_split_heads_of_labelled_features():
    n, h, d = 4, 3, 2
    images = _images(diagrams.split_and_merge_heads(n, h, d))
    codes = np.array(
        [[head * n + token for head in range(h) for _ in range(d)] for token in range(n)]
    )
    np.testing.assert_array_equal(images["projected"], codes)  # (n, h*d): head * n + token
    split = mha.split_heads(codes, h)  # (h, n, d)
    for i in range(h):
        np.testing.assert_array_equal(images[f"split-{i}"], split[i])
        assert (images[f"split-{i}"] // n == i).all()  # one head per block ...
        assert sorted(set(images[f"split-{i}"][:, 0] % n)) == list(range(n))  # ... every token
    for t in range(n):
        assert (images[f"reshape-{t}"] % n == t).all()  # before the transpose: one token a block
    wrong = [images[f"wrong-{i}"] for i in range(h)]
    assert all(block.shape == (n, d) for block in wrong)
    assert any(len(set(block.ravel() // n)) > 1 for block in wrong)  # heads mixed in a block
    np.testing.assert_array_equal(
        mha.merge_heads(np.stack([images[f"split-{i}"] for i in range(h)])), codes
    )


def test_layer_dataflow_shows_the_shapes_the_layer_computes():
    rng = np.random.default_rng(0)
    params = mha.init_params(16, 2, d_k=3, d_v=5, seed=0)  # d_k != d_v: every shape differs
    q = rng.standard_normal((3, 4, 16), dtype=np.float32)
    kv = rng.standard_normal((3, 7, 16), dtype=np.float32)
    boxes = _texts(diagrams.layer_dataflow(q, kv, kv, params, mask=mha.causal_mask(4, 7)))
    out, weights = mha.multi_head_attention(q, kv, kv, params, mask=mha.causal_mask(4, 7))
    expected = {
        "box-Q heads": (3, 2, 4, 3),
        "box-K heads": (3, 2, 7, 3),
        "box-V heads": (3, 2, 7, 5),
        "box-weights": weights.shape,
        "box-heads": (3, 2, 4, 5),
        "box-Concat": (3, 4, 10),
        "box-output": out.shape,
    }
    for gid, shape in expected.items():
        assert boxes[gid].endswith(f"= {shape}"), (gid, boxes[gid])
    assert boxes["box-weights"].startswith("attention weights\n(B, h, n_q, n_k)")


def test_concat_output_projection_draws_the_blocks_and_their_sum():
    rng = np.random.default_rng(1)
    heads, w_o = rng.standard_normal((3, 4, 5)), rng.standard_normal((15, 6))  # h=3, d_v=5
    images = _images(diagrams.concat_output_projection(heads, w_o))
    concat = mha.merge_heads(heads)
    np.testing.assert_allclose(images["concat"], concat)
    np.testing.assert_allclose(images["w_o"], w_o)
    np.testing.assert_allclose(images["out"], concat @ w_o)
    for i in range(3):
        np.testing.assert_allclose(images[f"part-{i}"], heads[i] @ w_o[5 * i : 5 * i + 5])
    np.testing.assert_allclose(images["sum"], concat @ w_o)


def test_score_masks_colours_exactly_the_allowed_scores():
    lengths, n = [4, 2], 4
    fig = diagrams.score_masks(lengths, n)
    images = _images(fig)
    causal = np.tril(np.ones((n, n), dtype=bool))
    for b, length in enumerate(lengths):
        padding = np.broadcast_to(np.arange(n) < length, (n, n))
        np.testing.assert_array_equal(images[f"padding-{b}"], padding)
        np.testing.assert_array_equal(images[f"causal-{b}"], causal)
        np.testing.assert_array_equal(images[f"combined-{b}"], causal & padding)
    forbidden = sum((images[k] == 0).sum() for k in images)
    assert _all_text(fig).count("−∞") == forbidden


def test_kv_cache_growth_follows_the_cache_call_by_call():
    images = _images(diagrams.kv_cache_growth(prompt_len=2, new_tokens=3))
    # calls: a prefill of 2 tokens, then 1 token each; length after each call: 2, 3, 4, 5
    for c, (new, length) in enumerate([(2, 2), (1, 3), (1, 4), (1, 5)]):
        cache = images[f"cache-{c}"][0]  # 0 free, 1 cached before, 2 appended now
        assert cache.shape == (5,) and (cache > 0).sum() == length and (cache == 2).sum() == new
        np.testing.assert_array_equal(images[f"mask-{c}"], mha.causal_mask(new, length))
    np.testing.assert_array_equal(images["mask-0"], [[1, 0], [1, 1]])


@pytest.mark.parametrize(
    ("n_q", "n_k", "budget", "tile"),
    [
        (100, 300, 64 * 64, (64, 64)),
        (96, 100, 96 * 100, (96, 100)),
        (256, 512, 64 * 128, (64, 128)),
    ],
)
def test_online_softmax_tiles_uses_the_lean_paths_tiles_and_the_causal_mask(n_q, n_k, budget, tile):
    fig = diagrams.online_softmax_tiles(n_q, n_k, budget)
    order = _images(fig)["tiles"]
    allowed = mha.causal_mask(n_q, n_k)
    np.testing.assert_array_equal(np.isnan(order), ~allowed)
    np.testing.assert_array_equal(
        order[allowed], np.broadcast_to(np.arange(n_k) // tile[1], (n_q, n_k))[allowed]
    )
    assert f"tiles of {tile[0]} queries × {tile[1]} keys" in _texts(fig)["tiles-title"]
    unmasked = _images(diagrams.online_softmax_tiles(n_q, n_k, budget, causal=False))["tiles"]
    assert not np.isnan(unmasked).any()


def test_heads_across_devices_shows_the_real_slices_and_partial_outputs():
    params = mha.init_params(12, 6, seed=0)  # d_k = d_v = 2
    x = np.zeros((2, 5, 12), dtype=np.float32)
    texts = _texts(diagrams.heads_across_devices(params, 3, x))
    for device in range(3):
        box = texts[f"device-{device}"]
        first = 2 * device
        assert f"heads {first}..{first + 1}" in box
        assert f"columns {2 * first}..{2 * first + 3}: (12, 4)" in box
        assert f"rows {2 * first}..{2 * first + 3}: (4, 12)" in box
        assert "(2, 5, 12)" in box.splitlines()[-1]
    assert "(2, 5, 12)" in texts["all-reduce"]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: diagrams.concat_output_projection(np.zeros((2, 3)), np.zeros((4, 4))),
            r"\(h, n_q, d_v\)",
        ),
        (
            lambda: diagrams.concat_output_projection(np.zeros((2, 3, 4)), np.zeros((7, 4))),
            "w_o must",
        ),
        (
            lambda: diagrams.heads_across_devices(
                mha.init_params(8, 4), 3, np.zeros((1, 2, 8), np.float32)
            ),
            "must divide",
        ),
        (lambda: diagrams.split_and_merge_heads(0), "n must be"),
        (lambda: diagrams.online_softmax_tiles(4, 4, 0), "max_tile_elements"),
        (lambda: diagrams.kv_cache_growth(prompt_len=0), "prompt_len"),
        (lambda: diagrams.score_masks([6], 5), "out of range"),
    ],
)
def test_bad_input_is_rejected_with_a_message(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call()


def test_soft_lookup_draws_attention_weights_beside_the_best_key():
    keys = np.array([[1.0, 0.0, 0.5], [0.0, 2.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, -1.0]])
    values = np.array([[1.0, -2.0], [3.0, 0.0], [5.0, 1.0], [-1.0, 4.0]])
    query = np.array([0.5, 1.5, -0.5])
    images = _images(diagrams.soft_lookup(query, keys, values))
    out, weights = mha.scaled_dot_product_attention(query[None], keys, values)
    scores = keys @ query / np.sqrt(3)
    np.testing.assert_allclose(images["scores"][:, 0], scores)
    np.testing.assert_allclose(images["soft-weights"][:, 0], weights[0])
    np.testing.assert_array_equal(images["hard-weights"][:, 0], [0, 1, 0, 0])  # key 1 scores best
    np.testing.assert_allclose(images["soft-output"][0], out[0])
    np.testing.assert_array_equal(images["hard-output"][0], values[1])
    np.testing.assert_array_equal(images["keys"], keys)
    np.testing.assert_array_equal(images["values"], values)


def test_soft_lookup_names_the_argument_of_the_wrong_shape():
    with pytest.raises(ValueError, match=r"keys must have shape \(n_k, d_k\) = \(n_k, 3\)"):
        diagrams.soft_lookup(np.ones(3), np.ones((4, 2)), np.ones((4, 1)))
    with pytest.raises(ValueError, match=r"values must have shape \(n_k, d_v\) = \(4, d_v\)"):
        diagrams.soft_lookup(np.ones(3), np.ones((4, 3)), np.ones((5, 1)))
    with pytest.raises(ValueError, match=r"query must have shape \(d_k,\)"):
        diagrams.soft_lookup(np.ones((1, 3)), np.ones((4, 3)), np.ones((4, 1)))


def test_backward_graph_draws_every_node_autograd_recorded_and_each_leaf():
    torch = pytest.importorskip("torch")
    q, k, v = (torch.randn(4, 3, dtype=torch.float64, requires_grad=True) for _ in range(3))
    scores = q @ k.T / 3**0.5
    weights = torch.softmax(scores, dim=-1)
    out = weights @ v
    fig = diagrams.backward_graph(out, {"O": out, "P": weights, "S": scores, "V": v, "Q": q})
    seen, stack = [], [out.grad_fn]  # the graph, walked here independently of the drawing
    while stack:
        node = stack.pop()
        if node is not None and all(node is not other for other in seen):
            seen.append(node)
            stack += [child for child, _ in node.next_functions]
    inner = [type(node).__name__ for node in seen if not hasattr(node, "variable")]
    assert len(seen) - len(inner) == 3  # the leaves q, k, v
    drawn = _texts(fig)  # one box per node
    expected = [*inner, "Q.grad", "V.grad", "AccumulateGrad"]  # k is not named
    assert sorted(text.splitlines()[-1] for text in drawn.values()) == sorted(expected)
    boxes = set(drawn.values())
    assert {"O\nMmBackward0", "P\nSoftmaxBackward0", "leaf V\nV.grad"} <= boxes
    assert {"∂L/∂O", "∂L/∂P", "∂L/∂V", "∂L/∂S"} <= set(_all_text(fig).splitlines())
    with pytest.raises(ValueError, match="output must be a tensor computed"):
        diagrams.backward_graph(torch.ones(2), {})


def test_toy_task_draws_the_tokens_and_both_answers_of_make_batch():
    torch = pytest.importorskip("torch")
    from mha import toy

    tokens, targets = toy.make_batch(1, 8, 10, torch.Generator().manual_seed(3))
    fig = diagrams.toy_task(tokens[0], targets[0], position=2)
    images = _images(fig)
    np.testing.assert_array_equal(images["tokens"][0], tokens[0].numpy())
    np.testing.assert_array_equal(images["local"][0, 1:], tokens[0, :-1].numpy())
    assert np.isnan(images["local"][0, 0])  # position 0 has no previous token: not scored
    np.testing.assert_array_equal(images["global"][0], tokens[0].flip(0).numpy())
    arrows = {a.get_gid(): a for a in fig.axes[0].texts if a.get_gid()}
    # each arrow starts at the token its answer copies: x[1] (local), x[5] (global), for i = 2
    assert arrows["arrow-local"].xyann[0] == pytest.approx(4.5 + 1)
    assert arrows["arrow-global"].xyann[0] == pytest.approx(4.5 + 5)
    assert {arrows[k].xy[0] for k in arrows} == {4.5 + 2}
    with pytest.raises(ValueError, match=r"position must be in 1 \.\. 7"):
        diagrams.toy_task(tokens[0], targets[0], position=0)
    with pytest.raises(ValueError, match=r"targets \(n, 2\)"):
        diagrams.toy_task(tokens[0], targets[0, :, 0])


# --- chapter 10: the two blocks, the induction mechanism -------------------------------------

PRE_LN = [("norm1", ("x",)), ("attention", ("norm1",)), ("+", ("x", "attention")),
          ("norm2", ("+1",)), ("feed_forward", ("norm2",)), ("+", ("+1", "feed_forward")),
          ("output", ("+2",))]  # fmt: skip
POST_LN = [("attention", ("x",)), ("+", ("x", "attention")), ("norm1", ("+1",)),
           ("feed_forward", ("norm1",)), ("+", ("norm1", "feed_forward")), ("norm2", ("+2",)),
           ("output", ("norm2",))]  # fmt: skip


@pytest.mark.parametrize(("norm_first", "expected"), [(True, PRE_LN), (False, POST_LN)])
def test_block_steps_reads_the_formulas_of_each_block_from_its_call(norm_first, expected):
    torch = pytest.importorskip("torch")
    from mha.block import TransformerBlock

    torch.manual_seed(0)
    block = TransformerBlock(8, 2, 16, norm_first=norm_first).double()
    x = torch.randn(2, 5, 8, dtype=torch.float64)
    assert diagrams.block_steps(block, x) == expected


def test_block_steps_sees_a_block_that_forgets_a_residual():
    torch = pytest.importorskip("torch")
    from mha.block import TransformerBlock

    class NoSecondResidual(TransformerBlock):
        def forward(self, x, mask=None, **_):
            x = x + self._attend(self.norm1(x), mask, False, None)
            return self.feed_forward(self.norm2(x))

    torch.manual_seed(0)
    steps = diagrams.block_steps(NoSecondResidual(8, 2, 16), torch.randn(1, 4, 8))
    assert steps[-1] == ("output", ("feed_forward",))
    with pytest.raises(ValueError, match="no 'norm1'"):
        diagrams.block_steps(torch.nn.Linear(2, 2), torch.randn(2))


def test_pre_and_post_ln_draws_each_step_and_each_residual():
    torch = pytest.importorskip("torch")
    fig = diagrams.pre_and_post_ln(torch.randn(1, 3, 4, dtype=torch.float64))
    boxes = _texts(fig)
    for column, steps in enumerate((PRE_LN, POST_LN)):
        drawn = [boxes[f"{column}-{row}-{step}"] for row, (step, _) in enumerate(steps, 1)]
        assert drawn == [diagrams.BLOCK_PARTS.get(step, step) for step, _ in steps]
    skips = {a.get_gid() for a in fig.axes[0].texts if (a.get_gid() or "").count("skip")}
    assert skips == {"0-skip-x", "0-skip-+1", "1-skip-x", "1-skip-norm1"}


def test_induction_mechanism_finds_the_key_induction_score_reads():
    torch = pytest.importorskip("torch")
    from mha import induction

    half = 5
    tokens = induction.repeated_sequences(1, half, 50, torch.Generator().manual_seed(0))[0]
    n = 2 * half
    ideal = np.zeros((n, n))  # an induction head built from the diagram's arrows
    for query in range(half, n - 1):
        fig = diagrams.induction_mechanism(tokens, query)
        images = _images(fig)
        np.testing.assert_array_equal(images["tokens"][0], tokens.numpy())
        np.testing.assert_array_equal(images["previous"][0, 1:], tokens[:-1].numpy())
        assert np.isnan(images["previous"][0, 0])
        arrows = {a.get_gid(): a for a in fig.axes[0].texts if a.get_gid()}
        key = round(arrows["arrow-induction"].xy[0] - 1)
        assert key == query - half + 1
        assert _texts(fig)["prediction"] == f"predicts {int(tokens[query + 1])}"
        ideal[query, key] = 1.0
        plt_close(fig)
    ideal[n - 1, n - half] = 1.0  # the last query has no next token to draw
    assert induction.induction_score(ideal, half) == pytest.approx(1.0)


def test_induction_mechanism_rejects_a_query_with_nothing_to_copy():
    with pytest.raises(ValueError, match="does not occur before it"):
        diagrams.induction_mechanism(np.arange(6), 3)
    with pytest.raises(ValueError, match=r"query must be in 1 \.\. 4"):
        diagrams.induction_mechanism(np.arange(6), 5)


def plt_close(fig):
    import matplotlib.pyplot as plt

    plt.close(fig)
