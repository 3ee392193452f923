"""mha.analysis on cases with known answers, and its argument checks."""

import math

import pytest
import torch

from mha import analysis
from mha.torch_mha import MultiHeadAttention

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix


def one_hot_rows(n, offset):
    """(n, n) weights: query i attends key max(i - offset, 0) only."""
    w = torch.zeros(n, n, dtype=torch.float64)
    w[torch.arange(n), (torch.arange(n) - offset).clamp_min(0)] = 1.0
    return w


# --- where heads look ---------------------------------------------------------------------


@pytest.mark.slow
def test_mean_distance_and_entropy_of_known_patterns():
    n = 6
    previous = one_hot_rows(n, 1)  # distance 1 except row 0 (distance 0)
    uniform = torch.full((n, n), 1.0 / n, dtype=torch.float64)
    weights = torch.stack([previous, uniform])[None].expand(3, 2, n, n)  # (B, h, n, n)
    distance = analysis.mean_attention_distance(weights)
    # uniform over n keys: mean over i, j of |i - j| = (n^2 - 1) / (3n)
    expected = torch.tensor([(n - 1) / n, (n * n - 1) / (3 * n)], dtype=torch.float64)
    torch.testing.assert_close(distance, expected)
    entropy = analysis.attention_entropy(weights)
    torch.testing.assert_close(entropy, torch.tensor([0.0, math.log(n)], dtype=torch.float64))


def test_mean_distance_aligns_queries_bottom_right():
    # 2 queries over 5 keys: query i sits at position i + 3; both attend key 0
    weights = torch.zeros(1, 2, 5)
    weights[0, :, 0] = 1.0
    assert analysis.mean_attention_distance(weights).item() == pytest.approx((3 + 4) / 2)


# --- redundancy ---------------------------------------------------------------------------


def test_identical_heads_have_similarity_one_and_orthogonal_zero():
    gen = torch.Generator().manual_seed(0)
    a = torch.rand(2, 5, 5, generator=gen)
    b = torch.zeros(2, 5, 5)
    b[..., 0] = 1.0  # only key 0
    c = torch.zeros(2, 5, 5)
    c[..., 1] = 1.0  # only key 1: disjoint from b
    per_head = torch.stack([a, 3 * a, b, c], dim=1)  # (B=2, h=4, 5, 5)
    sim = analysis.head_similarity(per_head)
    assert sim.shape == (4, 4)
    torch.testing.assert_close(sim, sim.T)
    torch.testing.assert_close(sim.diagonal(), torch.ones(4))
    assert sim[0, 1].item() == pytest.approx(1.0)  # same pattern, other scale
    assert sim[2, 3].item() == pytest.approx(0.0)
    assert 0 < sim[0, 2].item() < 1


def test_pruned_head_has_similarity_zero_not_nan():
    per_head = torch.stack([torch.ones(3, 4), torch.zeros(3, 4)])  # (h=2, 3, 4)
    sim = analysis.head_similarity(per_head)
    torch.testing.assert_close(sim, torch.tensor([[1.0, 0.0], [0.0, 0.0]]))


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_a_nan_in_one_head_stays_visible_in_its_row_and_column(bad):
    """It used to come out finite (issue 25): the norm test treated NaN as a pruned head."""
    gen = torch.Generator().manual_seed(1)
    per_head = torch.rand(2, 4, 5, 5, generator=gen)
    clean = analysis.head_similarity(per_head)
    per_head[1, 2, 3, 0] = bad  # one entry of head 2
    sim = analysis.head_similarity(per_head)
    assert torch.isnan(sim[2]).all() and torch.isnan(sim[:, 2]).all()
    others = [0, 1, 3]
    torch.testing.assert_close(sim[others][:, others], clean[others][:, others])
    assert torch.isnan(analysis.redundancy(sim))


def test_redundancy_is_the_off_diagonal_mean():
    sim = torch.tensor([[1.0, 0.2, 0.4], [0.2, 1.0, 0.6], [0.4, 0.6, 1.0]])
    assert analysis.redundancy(sim).item() == pytest.approx(0.4)


def test_redundancy_is_differentiable():
    weights = torch.rand(2, 3, 4, 4, requires_grad=True)
    analysis.redundancy(analysis.head_similarity(weights)).backward()
    assert weights.grad is not None and weights.grad.abs().sum() > 0


# --- head contributions -------------------------------------------------------------------


@pytest.fixture
def layer():
    torch.manual_seed(0)
    module = MultiHeadAttention(8, 4, bias=True).double()
    with torch.no_grad():
        module.b_o.normal_()
    return module


def test_contributions_sum_to_the_output(layer):
    x = torch.randn(2, 5, 8, dtype=torch.float64)
    parts = analysis.head_contributions(layer, x)
    assert parts.shape == (2, 4, 5, 8)
    torch.testing.assert_close(parts.sum(-3) + layer.b_o, layer(x)[0])


def test_contributions_with_a_gate_match_the_gated_output(layer):
    x = torch.randn(2, 5, 8, dtype=torch.float64)
    gate = torch.tensor([1.0, 0.0, 0.5, 1.0], dtype=torch.float64)
    parts = analysis.head_contributions(layer, x, head_gate=gate[None, :])
    assert parts[:, 1].abs().max() == 0
    torch.testing.assert_close(parts.sum(-3) + layer.b_o, layer(x, head_gate=gate)[0])


def test_contributions_read_gates_as_forward_does_when_batch_equals_n_q(layer):
    """A (B, h) head_gate gates whole examples, also when B == n_q (it once went per token)."""
    x = torch.randn(5, 5, 8, dtype=torch.float64)  # B = n_q = 5
    gates = torch.rand(5, 4, dtype=torch.float64)
    parts = analysis.head_contributions(layer, x, head_gate=gates)
    torch.testing.assert_close(parts.sum(-3) + layer.b_o, layer(x, head_gate=gates)[0])
    by_token = analysis.head_contributions(layer, x, token_gates=gates)
    heads, _ = layer.head_outputs(x)
    torch.testing.assert_close(
        by_token.sum(-3) + layer.b_o, layer.combine_heads(heads, token_gates=gates)
    )
    assert not torch.allclose(by_token, parts)


def test_pruned_head_contributes_nothing(layer):
    x = torch.randn(2, 5, 8, dtype=torch.float64)
    gate = torch.tensor([1.0, 1.0, 0.0, 1.0], dtype=torch.float64)
    before = layer(x, head_gate=gate)[0]
    with torch.no_grad():  # scramble head 2's own weights: a pruned head must not matter
        cols = slice(2 * layer.d_k, 3 * layer.d_k)
        for w in (layer.w_q, layer.w_k, layer.w_v):
            w[:, cols] = torch.randn_like(w[:, cols])
    torch.testing.assert_close(layer(x, head_gate=gate)[0], before)


# --- importance and pruning ---------------------------------------------------------------


def quadratic_score(gate):
    """A score with known importances: head i adds value[i] * gate[i]."""
    return float((torch.tensor([0.5, 0.0, 2.0, 1.0]) * gate).sum())


def test_ablation_importance_known_answer_and_zeroed_head():
    importance = analysis.ablation_importance(quadratic_score, torch.ones(4))
    torch.testing.assert_close(importance, torch.tensor([0.5, 0.0, 2.0, 1.0], dtype=torch.float64))
    gate = torch.tensor([1.0, 1.0, 0.0, 1.0])
    assert analysis.ablation_importance(quadratic_score, gate)[2].item() == 0.0


def test_gradient_importance_known_answer():
    # per-example loss L_b = sum_i c_bi g_bi: dL_b/dg_i = c_bi, importance = mean_b |c_bi|
    c = torch.tensor([[1.0, -2.0, 0.0], [-3.0, 2.0, 0.0]])
    importance = analysis.gradient_importance(lambda g: (c * g).sum(-1), torch.ones(3), 2)
    torch.testing.assert_close(importance, torch.tensor([2.0, 2.0, 0.0]))


def test_gradient_importance_of_a_zeroed_head_in_a_real_layer_is_zero(layer):
    x = torch.randn(6, 5, 8, dtype=torch.float64)
    target = torch.randn(6, 5, 8, dtype=torch.float64)

    def per_example_loss(gate):  # gate (6, h): one row per example
        return ((layer(x, head_gate=gate)[0] - target) ** 2).mean((1, 2))

    gate = torch.tensor([1.0, 0.0, 1.0, 1.0], dtype=torch.float64)
    importance = analysis.gradient_importance(per_example_loss, gate, 6)
    assert importance.shape == (4,)
    assert importance[1].item() == 0.0
    assert (importance[[0, 2, 3]] > 0).all()


def test_pruning_curve_removes_heads_in_order():
    curve = analysis.pruning_curve(quadratic_score, torch.ones(4), [1, 0, 3, 2])
    torch.testing.assert_close(curve, torch.tensor([3.5, 3.5, 3.0, 2.0, 0.0], dtype=torch.float64))
    two_layers = analysis.pruning_curve(lambda g: float(g.sum()), torch.ones(2, 3), [5, 0])
    torch.testing.assert_close(two_layers, torch.tensor([6.0, 5.0, 4.0], dtype=torch.float64))


def test_pruning_curve_follows_the_documented_recipe_for_a_2d_gate():
    importance = torch.tensor([[0.3, 0.1, 0.2], [0.6, 0.5, 0.4]])  # (layers, h)
    seen = []
    order = importance.flatten().argsort()  # the docstring's recipe
    analysis.pruning_curve(lambda g: seen.append(g) or 0.0, torch.ones(2, 3), order)
    assert [int((g == 0).sum()) for g in seen] == [0, 1, 2, 3, 4, 5, 6]  # each kept intact
    assert seen[1][0, 1] == 0 and seen[1].sum() == 5  # the least important head went first
    with pytest.raises(ValueError, match=r"importance.flatten\(\).argsort\(\)"):
        analysis.pruning_curve(quadratic_score, torch.ones(2, 3), importance.argsort())


def test_head_similarity_has_a_bounded_gradient_at_a_pruned_head():
    per_head = torch.stack([torch.randn(3, 4), torch.zeros(3, 4), torch.randn(3, 4)])
    per_head.requires_grad_()
    analysis.redundancy(analysis.head_similarity(per_head)).backward()
    assert torch.isfinite(per_head.grad).all()
    assert per_head.grad[1].abs().max() == 0  # no push on a head that is all zeros
    assert per_head.grad[0].abs().max() > 0


def test_removable_heads_counts_exactly_with_a_stride():
    calls = []

    def score(gate):  # 1 per head kept, out of 10: drops below 6.5 after the fourth removal
        calls.append(int((gate == 0).sum()))
        return float(gate.sum())

    for stride in (1, 3, 4):
        calls.clear()
        count, curve = analysis.removable_heads(
            score, torch.ones(10), range(10), 6.5, stride=stride
        )
        assert count == 3  # 7 kept: 7.0; 6 kept: 6.0 < 6.5
        assert curve[0] == 10 and torch.isnan(curve[1:]).sum() == (
            0 if stride == 1 else 10 - 10 // stride
        )
        computed = int((~torch.isnan(curve)).sum())
        assert all(c % stride == 0 for c in calls[:computed])  # the curve, every stride-th
        assert len(calls) - computed < stride  # then only the points skipped before the drop
    count, _ = analysis.removable_heads(score, torch.ones(10), range(10), -1.0, stride=3)
    assert count == 10  # never below
    with pytest.raises(ValueError, match="no head removed"):
        analysis.removable_heads(score, torch.ones(10), range(10), 11.0)


def test_rank_correlation_is_spearmans_with_ties_sharing_their_mean_rank():
    scipy_stats = pytest.importorskip("scipy.stats")
    assert analysis.rank_correlation([0.1, 0.5, 0.3], [1, 3, 2]) == pytest.approx(1.0)
    assert analysis.rank_correlation(torch.tensor([3.0, 2, 1]), [1, 2, 3]) == pytest.approx(-1.0)
    tied, other = [0.2, 0.2, 0.9, 0.4, 0.4], [1.0, 3.0, 2.0, 5.0, 4.0]
    expected = scipy_stats.spearmanr(tied, other).statistic
    assert analysis.rank_correlation(tied, other) == pytest.approx(expected)
    layers = torch.tensor([[0.3, 0.1], [0.2, 0.4]])  # (layers, h): every head once
    assert analysis.rank_correlation(layers, layers.flatten()) == pytest.approx(1.0)


# --- argument checks ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: analysis.mean_attention_distance(torch.ones(4, 4)), ValueError, "weights"),
        (lambda: analysis.attention_entropy([[[1.0]]]), TypeError, "weights"),
        (
            lambda: analysis.head_similarity(torch.ones(2, 3, dtype=torch.int64)),
            TypeError,
            "per_head",
        ),
        (lambda: analysis.redundancy(torch.ones(2, 3)), ValueError, "similarity"),
        (lambda: analysis.redundancy(torch.ones(1, 1)), ValueError, "h >= 2"),
        (
            lambda: analysis.pruning_curve(quadratic_score, torch.ones(4), [0, 0]),
            ValueError,
            "order",
        ),
        (lambda: analysis.pruning_curve(quadratic_score, torch.ones(4), [4]), ValueError, "order"),
        (lambda: analysis.ablation_importance(quadratic_score, 1.0), TypeError, "head_gate"),
        (
            lambda: analysis.gradient_importance(lambda g: g.sum(), torch.ones(3), 2),
            ValueError,
            "per_example_loss",
        ),
        (
            lambda: analysis.gradient_importance(lambda g: g.sum(-1), torch.ones(3), 0),
            ValueError,
            "num_examples",
        ),
        (
            lambda: analysis.head_contributions(torch.nn.Linear(2, 2), torch.ones(1, 2)),
            TypeError,
            "module",
        ),
        (
            lambda: analysis.head_contributions(
                MultiHeadAttention(8, 4), torch.ones(1, 3, 8), token_gates=torch.ones(1, 3)
            ),
            ValueError,
            "token_gates",
        ),
        (
            lambda: analysis.head_contributions(
                MultiHeadAttention(8, 4), torch.ones(2, 3, 8), head_gate=torch.ones(3, 4)
            ),
            ValueError,
            "head_gate",
        ),
        (lambda: analysis.ablation_importance(0.5, torch.ones(4)), TypeError, "evaluate"),
        (lambda: analysis.pruning_curve("acc", torch.ones(4), [0]), TypeError, "evaluate"),
        (
            lambda: analysis.gradient_importance(None, torch.ones(3), 2),
            TypeError,
            "per_example_loss",
        ),
        (
            lambda: analysis.gradient_importance(
                lambda g: torch.ones(2, requires_grad=True), torch.ones(3), 2
            ),
            ValueError,
            "do not depend on its gate",
        ),
        (
            lambda: analysis.gradient_importance(lambda g: torch.ones(2), torch.ones(3), 2),
            ValueError,
            "do not depend on its gate",
        ),
        (
            lambda: analysis.pruning_curve(quadratic_score, torch.ones(4), [0.0, 1.5]),
            TypeError,
            "integer head indices",
        ),
        (lambda: analysis.rank_correlation([1, 1, 1], [1, 2, 3]), ValueError, "a must hold"),
        (
            lambda: analysis.removable_heads(quadratic_score, torch.ones(4), [0], 0.0, stride=0),
            ValueError,
            "stride",
        ),
        (lambda: analysis.rank_correlation([1, 2], [3]), ValueError, "b must hold"),
        (lambda: analysis.rank_correlation([1, 2, 3], [1, 2]), ValueError, "as many values"),
    ],
)
def test_bad_arguments_are_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_shuffled_weights_permutes_each_parameter_within_itself():
    from mha.analysis import shuffled_copy

    torch.manual_seed(0)
    layer = MultiHeadAttention(8, 2)
    before = {name: p.detach().clone() for name, p in layer.named_parameters()}
    shuffled = shuffled_copy(layer, seed=3)
    for name, p in layer.named_parameters():
        assert torch.equal(p, before[name])  # the original is untouched
    for name, p in shuffled.named_parameters():
        assert torch.equal(p.flatten().sort().values, before[name].flatten().sort().values)
    assert not torch.equal(shuffled.w_q, layer.w_q)
    again = shuffled_copy(layer, seed=3)
    assert all(
        torch.equal(a, b) for a, b in zip(again.parameters(), shuffled.parameters(), strict=True)
    )
    with pytest.raises(TypeError, match=r"module must be a torch\.nn\.Module"):
        shuffled_copy(layer.w_q, seed=0)
    with pytest.raises(ValueError, match="seed must be an integer >= 0"):
        shuffled_copy(layer, seed=-1)


def test_head_circuits_give_each_heads_scores_and_what_it_writes():
    torch.manual_seed(0)
    layer = MultiHeadAttention(12, 3, dtype=torch.float64)
    qk, ov = analysis.head_circuits(layer)
    assert qk.shape == ov.shape == (3, 12, 12)
    assert (torch.linalg.matrix_rank(qk) == 4).all() and (torch.linalg.matrix_rank(ov) == 4).all()
    x = torch.randn(2, 5, 12, dtype=torch.float64)
    _, weights = layer(x)  # (2, 3, 5, 5)
    scores = x[:, None] @ qk @ x[:, None].transpose(-1, -2) / math.sqrt(layer.d_k)
    torch.testing.assert_close(weights, torch.softmax(scores, -1))
    # head i's contribution is its weighted sum of y W_i^V W_i^O over the keys y
    contributions = analysis.head_contributions(layer, x)  # (2, 3, 5, 12)
    torch.testing.assert_close(contributions, weights @ (x[:, None] @ ov))
    with pytest.raises(TypeError, match=r"module must be an mha\.torch_mha\.MultiHeadAttention"):
        analysis.head_circuits(torch.nn.Linear(2, 2))


def test_subspace_overlap_is_one_for_a_shared_space_and_zero_for_orthogonal_ones():
    eye = torch.eye(6, dtype=torch.float64)
    maps = torch.stack([eye[:2], 3 * eye[:2].flip(0), eye[2:4], eye[[0, 2]]])  # (4, 2, 6)
    overlap = analysis.subspace_overlap(maps, 2)
    expected = torch.tensor(
        [[1, 1, 0, 0.5], [1, 1, 0, 0.5], [0, 0, 1, 0.5], [0.5, 0.5, 0.5, 1]], dtype=torch.float64
    )
    torch.testing.assert_close(overlap, expected)
    random = analysis.subspace_overlap(torch.randn(40, 4, 64, dtype=torch.float64), 4)
    off_diagonal = random[~torch.eye(40, dtype=torch.bool)]
    assert abs(off_diagonal.mean().item() - 4 / 64) < 0.01  # rank / d for random subspaces
    with pytest.raises(ValueError, match="rank must be at most"):
        analysis.subspace_overlap(maps, 3)
