"""What the heads of a trained model do: statistics, redundancy, importance and pruning.

Every function takes PyTorch tensors (the trained models of the book are torch modules) and
is differentiable where that makes sense, so :func:`head_similarity` and :func:`redundancy`
also serve as a training penalty (diversity regularisation).

- *Where* a head looks: :func:`mean_attention_distance` and :func:`attention_entropy`.
- *Whether two heads do the same thing*: :func:`head_similarity` of attention maps or of
  :func:`head_contributions`, summarised by :func:`redundancy`, against a model with
  :func:`shuffled_copy`.
- *Where a head works*: its QK and OV maps (:func:`head_circuits`), of rank d_k, and how much
  the subspaces of different heads overlap (:func:`subspace_overlap`); how many heads write
  to each feature of the output (:func:`heads_per_feature`).
- *How much a head matters*: :func:`ablation_importance` (remove it, measure the drop) and
  :func:`gradient_importance` (Michel et al., 2019, "Are Sixteen Heads Really Better than
  One?"), then :func:`pruning_curve` (remove heads one after another) and
  :func:`removable_heads` (how many can go before a score falls below a threshold); two
  measures of importance compared by :func:`rank_correlation`.

Heads are pruned through a *head gate*: a tensor of shape ``(..., h)`` that multiplies each
head's output before ``W^O`` (1 keeps a head, 0 removes it), as
``mha.torch_mha.MultiHeadAttention.forward(..., head_gate=...)`` takes it; gates per token
are ``token_gates`` ``(..., n_q, h)``. The convention is stated once, in
:meth:`mha.torch_mha.MultiHeadAttention.gate_heads`.
"""

from __future__ import annotations

import copy
import operator
from collections.abc import Callable, Sequence

import numpy as np
import torch
from torch import Tensor

from mha import _validate
from mha.torch_mha import MultiHeadAttention


def _check_weights(weights: object) -> None:
    _validate.tensor("weights", weights, 3, "(..., h, n_q, n_k)")


def _check_callable(name: str, fn: object, signature: str) -> None:
    if not callable(fn):
        raise TypeError(f"{name} must be a function {signature}, got {type(fn).__name__}")


def mean_attention_distance(weights: Tensor) -> Tensor:
    """How far each head looks: the expected |query position - key position|, per head.

    For query i and key j the distance is ``|i + n_k - n_q - j|`` (query i sits at position
    ``i + n_k - n_q``, the package's bottom-right alignment; for self-attention simply
    ``|i - j|``). Each query's distances are averaged with its attention weights, then the
    queries and all leading (batch) dimensions are averaged. A head that attends to the
    previous token scores 1; a head spread evenly over n tokens scores about n/3.

    Parameters
    ----------
    weights : Tensor
        Attention weights; each row sums to 1 (a fully masked row of zeros counts as 0).

    Returns
    -------
    Tensor
        Mean attention distance of each head, in positions.

    Shapes
    ------
    weights : (..., h, n_q, n_k)  ->  (h,)
    """
    _check_weights(weights)
    n_q, n_k = weights.shape[-2:]
    query_pos = torch.arange(n_q, device=weights.device)[:, None] + (n_k - n_q)
    key_pos = torch.arange(n_k, device=weights.device)[None, :]
    distance = (query_pos - key_pos).abs().to(weights.dtype)  # (n_q, n_k)
    per_query = (weights * distance).sum(-1)  # (..., h, n_q)
    return per_query.movedim(-2, 0).reshape(weights.shape[-3], -1).mean(-1)


def attention_entropy(weights: Tensor) -> Tensor:
    """How spread out each head's attention is: ``-sum_j w_ij log w_ij`` in nats, per head.

    0 for a head that puts all its weight on one key; ``log n_k`` for a head that attends
    evenly to all ``n_k`` keys. Averaged over queries and leading (batch) dimensions.

    Shapes
    ------
    weights : (..., h, n_q, n_k)  ->  (h,)
    """
    _check_weights(weights)
    per_query = -torch.special.xlogy(weights, weights).sum(-1)  # (..., h, n_q); 0 log 0 = 0
    return per_query.movedim(-2, 0).reshape(weights.shape[-3], -1).mean(-1)


def head_similarity(per_head: Tensor) -> Tensor:
    """Cosine similarity between every pair of heads: 1 = the same pattern up to scale.

    Each head's slice ``per_head[..., i, :, :]`` (over all leading dimensions) is flattened
    to one vector; entry (i, j) is the cosine of the angle between the vectors of heads i
    and j. Pass attention weights to compare *where* heads look (weights are non-negative,
    so the result lies in [0, 1] and two broad, nearly uniform maps already score high), or
    :func:`head_contributions` to compare *what* they add to the output (in [-1, 1]).
    A head that is all zeros (pruned) has similarity 0 with every head, itself included. A
    head with a NaN (or an infinity) in it gets NaN in its row and column, so that the fault
    stays visible; the other heads' entries are unchanged.

    Parameters
    ----------
    per_head : Tensor
        One ``(n, features)`` block per head, heads on the third axis from the end.

    Returns
    -------
    Tensor
        Symmetric similarity matrix.

    Shapes
    ------
    per_head : (..., h, n, f)  ->  (h, h)
    """
    _validate.tensor("per_head", per_head, 3, "(..., h, n, f)")
    h = per_head.shape[-3]
    vectors = per_head.movedim(-3, 0).reshape(h, -1)  # (h, everything else)
    norm = vectors.norm(dim=-1, keepdim=True)  # (h, 1)
    nonzero = norm != 0  # a NaN norm counts as nonzero: NaN stays NaN
    # an all-zero head: unit vector 0 with gradient 0 (dividing by a clamped norm instead
    # would give it a gradient of 1/clamp, ~1e12)
    unit = torch.where(nonzero, vectors / torch.where(nonzero, norm, 1.0), 0.0)
    return unit @ unit.T


def redundancy(similarity: Tensor) -> Tensor:
    """The mean similarity between *distinct* heads (the off-diagonal mean), a scalar.

    Applied to :func:`head_similarity` this is the number the book reports as redundancy;
    as a differentiable penalty added to the loss it is a diversity regulariser.

    Shapes
    ------
    similarity : (h, h) with h >= 2  ->  ()
    """
    _validate.tensor("similarity", similarity, 2, "(h, h)")
    h = similarity.shape[-1]
    if similarity.shape != (h, h) or h < 2:
        raise ValueError(
            f"similarity must be a square (h, h) matrix with h >= 2, got shape {tuple(similarity.shape)}"
        )
    off_diagonal = ~torch.eye(h, dtype=torch.bool, device=similarity.device)
    return similarity[off_diagonal].mean()


def shuffled_copy(module: torch.nn.Module, seed: int) -> torch.nn.Module:
    """A copy of ``module`` whose every parameter is permuted at random within its own tensor.

    The baseline for a redundancy measured on a trained model: the same architecture, the
    same values and scales in each weight and bias, no learned structure. (Untrained weights
    are another baseline, but their scale is the initialiser's, not the trained model's.)
    ``module`` is not changed; the permutations come from ``seed``.
    """
    if not isinstance(module, torch.nn.Module):
        raise TypeError(f"module must be a torch.nn.Module, got {type(module).__name__}")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be an integer >= 0, got {seed!r}")
    shuffled = copy.deepcopy(module)
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for parameter in shuffled.parameters():
            order = torch.randperm(parameter.numel(), generator=generator).to(parameter.device)
            parameter.copy_(parameter.flatten()[order].view_as(parameter))
    return shuffled


def head_contributions(
    module: MultiHeadAttention,
    q: Tensor,
    k: Tensor | None = None,
    v: Tensor | None = None,
    mask: Tensor | None = None,
    *,
    head_gate: Tensor | None = None,
    token_gates: Tensor | None = None,
) -> Tensor:
    """What each head adds to the output: ``g_i head_i W_i^O``, ``W_i^O`` head i's rows of W^O.

    The output of multi-head attention is the sum of these contributions (plus ``b_o``):
    ``Concat(head_1..head_h) W^O = sum_i head_i W^O[i*d_v:(i+1)*d_v]``. Unlike the raw
    ``head_i`` (each in its own d_v coordinates) they live in one space, so they can be
    compared across heads with :func:`head_similarity`.

    Parameters
    ----------
    module : MultiHeadAttention
        The attention layer (a :class:`mha.moh.MixtureOfHeadAttention` too: pass its
        routing weights ``module.route(q)`` as ``token_gates``).
    q, k, v, mask : Tensor
        As ``module.forward`` (self-attention when ``k`` and ``v`` are omitted).
    head_gate, token_gates : Tensor, optional
        Gates multiplied into the contributions, as ``module.combine_heads`` takes them:
        ``head_gate`` one per head and example ``(..., h)``, ``token_gates`` one per head
        and query token ``(..., n_q, h)``.

    Returns
    -------
    Tensor
        ``contributions.sum(-3) + b_o`` equals ``module.combine_heads(heads, ...)``, the
        module's output with those gates.

    Shapes
    ------
    q : (..., n_q, d_model);  head_gate : broadcastable to (..., h)
    token_gates : broadcastable to (..., n_q, h);  returns : (..., h, n_q, d_model)
    """
    if not isinstance(module, MultiHeadAttention):
        raise TypeError(
            f"module must be an mha.torch_mha.MultiHeadAttention, got {type(module).__name__}"
        )
    heads, _ = module.head_outputs(q, k, v, mask)  # (..., h, n_q, d_v)
    heads = module.gate_heads(heads, head_gate=head_gate, token_gates=token_gates)
    w_o_per_head = module.w_o.view(module.num_heads, module.d_v, module.d_model)  # (h, d_v, d)
    return heads @ w_o_per_head  # (..., h, n_q, d_model)


def head_circuits(module: MultiHeadAttention) -> tuple[Tensor, Tensor]:
    """Each head's QK map ``W_i^Q (W_i^K)^T`` and OV map ``W_i^V W_i^O`` (Elhage et al., 2021).

    Head i's score of query token x and key token y is ``x W_i^Q (W_i^K)^T y^T / sqrt(d_k)``
    (biases aside), and what it writes for a key it attends to is ``y W_i^V W_i^O``: two
    d_model x d_model matrices of rank at most d_k and d_v, whatever d_model is. Head i
    reads queries and keys in the row and column spaces of its QK map, and writes into the
    row space of its OV map (the span of its rows of W^O); :func:`subspace_overlap` compares
    those spaces between heads.

    Shapes
    ------
    returns : qk (h, d_model, kdim), ov (h, vdim, d_model)
    """
    if not isinstance(module, MultiHeadAttention):
        raise TypeError(
            f"module must be an mha.torch_mha.MultiHeadAttention, got {type(module).__name__}"
        )
    h, d_k, d_v = module.num_heads, module.d_k, module.d_v
    w_q = module.w_q.detach().view(-1, h, d_k).transpose(0, 1)  # (h, d_model, d_k)
    w_k = module.w_k.detach().view(-1, h, d_k).transpose(0, 1)  # (h, kdim, d_k)
    w_v = module.w_v.detach().view(-1, h, d_v).transpose(0, 1)  # (h, vdim, d_v)
    w_o = module.w_o.detach().view(h, d_v, module.d_model)  # (h, d_v, d_model)
    return w_q @ w_k.transpose(-1, -2), w_v @ w_o


def subspace_overlap(maps: Tensor, rank: int) -> Tensor:
    """How much the heads' subspaces overlap: the mean squared cosine of their principal angles.

    For each head, the span of the top ``rank`` right singular vectors of its map (for an
    OV map, the directions of d_model it writes into; for a QK map's transpose, the
    directions its queries read) is an orthonormal basis U_a, ``(d, rank)``. Entry (a, b)
    is ``||U_a^T U_b||_F^2 / rank``: 1 for the same subspace, 0 for orthogonal ones, and
    ``rank / d`` on average for random subspaces of a d-dimensional space.

    Shapes
    ------
    maps : (h, m, d), each of rank >= ``rank``  ->  (h, h)
    """
    _validate.tensor("maps", maps, 3, "(h, m, d)")
    rank = _validate.positive_int("rank", rank)
    if rank > min(maps.shape[-2:]):
        raise ValueError(f"rank must be at most min(m, d) = {min(maps.shape[-2:])}, got {rank}")
    _, _, vh = torch.linalg.svd(maps.detach().double(), full_matrices=False)  # (h, k, d)
    bases = vh[:, :rank].transpose(-1, -2)  # (h, d, rank): orthonormal columns
    cosines = bases.transpose(-1, -2)[:, None] @ bases[None]  # (h, h, rank, rank)
    return (cosines**2).sum((-1, -2)) / rank


def heads_per_feature(contributions: Tensor) -> Tensor:
    """How many heads write to each feature of the attention's output, on data.

    For feature j, ``s_a`` is the variance of head a's contribution to it over all tokens
    (what the head says, not the constant it adds); the count is the participation ratio
    ``(sum_a s_a)^2 / sum_a s_a^2``: 1 when one head alone varies feature j (the plain
    concatenation, W^O = I, gives 1 for every feature), h when all heads vary it equally.

    Shapes
    ------
    contributions : (..., h, n, d_model), as :func:`head_contributions` returns them
    returns : (d_model,), each from 1 to h
    """
    _validate.tensor("contributions", contributions, 3, "(..., h, n, d_model)")
    per_head = contributions.detach().double().movedim(-3, 0)  # (h, ..., n, d_model)
    flat = per_head.reshape(per_head.shape[0], -1, per_head.shape[-1])  # (h, tokens, d)
    if flat.shape[1] < 2:
        raise ValueError("contributions must hold at least two tokens to have a variance")
    spread = flat.var(dim=1)  # (h, d_model)
    total = spread.sum(0)
    if bool((total == 0).any()):
        raise ValueError("some feature does not vary at all: no head writes to it")
    return total**2 / (spread**2).sum(0)


def _check_gate(head_gate: object) -> None:
    _validate.tensor("head_gate", head_gate, 1, "(..., h)")


def ablation_importance(evaluate: Callable[[Tensor], float], head_gate: Tensor) -> Tensor:
    """Importance of each head by ablation: the score lost when that head alone is removed.

    ``importance[i] = evaluate(head_gate) - evaluate(head_gate with entry i set to 0)``.
    A head that is already gated to 0 has importance exactly 0; a negative value means the
    model does *better* without the head.

    Parameters
    ----------
    evaluate : callable
        ``evaluate(gate) -> float``: the model's score (accuracy, or minus the loss) with
        the heads gated by ``gate``; higher is better.
    head_gate : Tensor
        The gate to start from, usually ``torch.ones(h)`` (or ``(layers, h)``).

    Returns
    -------
    Tensor
        One importance per gate entry, float64, on the CPU.

    Shapes
    ------
    head_gate : (..., h)  ->  importance : (..., h)
    """
    _check_callable("evaluate", evaluate, "evaluate(gate) -> float")
    _check_gate(head_gate)
    gate = head_gate.detach()
    with torch.no_grad():
        base = float(evaluate(gate.clone()))
        importance = torch.zeros(gate.numel(), dtype=torch.float64)
        for i in range(gate.numel()):
            ablated = gate.flatten().clone()
            ablated[i] = 0.0
            importance[i] = base - float(evaluate(ablated.view_as(gate)))
    return importance.view(gate.shape)


def gradient_importance(
    per_example_loss: Callable[[Tensor], Tensor], head_gate: Tensor, num_examples: int
) -> Tensor:
    """Importance of each head from one backward pass (Michel et al., 2019).

    ``I_i = mean over examples x of | g_i * dL(x)/dg_i |`` where ``g`` is the head gate.
    At ``g = 1`` this is Michel et al.'s ``E_x |dL(x)/dg_i|``; the factor ``g_i`` makes it
    the first-order (Taylor) estimate of how much the loss of example x changes when head i
    is removed, so a head already gated to 0 has importance exactly 0. The absolute value is
    taken per example before averaging: gains on some examples do not cancel losses on
    others.

    Parameters
    ----------
    per_example_loss : callable
        ``per_example_loss(gate) -> losses``: called once with a gate of shape
        ``(num_examples, *head_gate.shape)`` (row b gates example b; a module's
        ``head_gate`` argument broadcasts it) and returning one loss per example.
    head_gate : Tensor
        The gate at which to take the gradient, usually ``torch.ones(h)``.
    num_examples : int
        The batch size the loss function evaluates.

    Returns
    -------
    Tensor
        One importance per gate entry (detached).

    Shapes
    ------
    head_gate : (..., h);  gate passed to the loss : (num_examples, ..., h)
    losses : (num_examples,);  importance : (..., h)
    """
    _check_callable("per_example_loss", per_example_loss, "per_example_loss(gate) -> losses")
    _check_gate(head_gate)
    num_examples = _validate.positive_int("num_examples", num_examples)
    gate = head_gate.detach().expand(num_examples, *head_gate.shape).clone().requires_grad_()
    losses = per_example_loss(gate)
    if not isinstance(losses, Tensor) or losses.shape != (num_examples,):
        got = tuple(losses.shape) if isinstance(losses, Tensor) else type(losses).__name__
        raise ValueError(
            f"per_example_loss must return one loss per example, shape ({num_examples},); got {got}"
        )
    grad = None
    if losses.requires_grad:
        (grad,) = torch.autograd.grad(losses.sum(), gate, allow_unused=True)
    if grad is None:
        raise ValueError(
            "per_example_loss returned losses that do not depend on its gate argument: pass "
            "the gate to the model (e.g. model(x, head_gate=gate)) and do not detach it or "
            "compute the loss under torch.no_grad()"
        )
    return (gate * grad).abs().mean(0).detach()


def pruning_curve(
    evaluate: Callable[[Tensor], float], head_gate: Tensor, order: Sequence[int]
) -> Tensor:
    """Scores while heads are removed one after another, in ``order``.

    Entry m is the score with the first m heads of ``order`` gated to 0 (entry 0: none
    removed). Pruning the least important heads first
    (``order = importance.flatten().argsort()``) should keep the score up longer than a
    random order.

    Parameters
    ----------
    evaluate : callable
        ``evaluate(gate) -> float``, as in :func:`ablation_importance`.
    head_gate : Tensor
        The gate to start from, usually ``torch.ones(h)``.
    order : sequence of int
        Distinct indices into ``head_gate.flatten()``: the heads in the order they go
        (a 1-D sequence or tensor of integers).

    Returns
    -------
    Tensor
        float64 scores; the number of heads kept after entry m is ``head_gate.numel() - m``.

    Shapes
    ------
    head_gate : (..., h);  order : (m,) with m <= head_gate.numel()  ->  (m + 1,)
    """
    _check_callable("evaluate", evaluate, "evaluate(gate) -> float")
    _check_gate(head_gate)
    order = _check_order(order, head_gate.numel())
    gate = head_gate.detach().flatten().clone()
    with torch.no_grad():  # evaluate gets a fresh copy each time: it may keep or change it
        scores = [float(evaluate(gate.clone().view_as(head_gate)))]
        for i in order:
            gate[i] = 0.0
            scores.append(float(evaluate(gate.clone().view_as(head_gate))))
    return torch.tensor(scores, dtype=torch.float64)


def removable_heads(
    evaluate: Callable[[Tensor], float],
    head_gate: Tensor,
    order: Sequence[int],
    threshold: float,
    *,
    stride: int = 1,
) -> tuple[int, Tensor]:
    """How many heads can go, in ``order``, before the score first falls below ``threshold``.

    The pruning curve (:func:`pruning_curve`) is computed only every ``stride``-th removal,
    to save evaluations (NaN between); then the points skipped just before the first computed
    one below ``threshold`` are evaluated, so the count is exact unless the score dips below
    and comes back above between two computed points.

    Parameters
    ----------
    evaluate : callable
        ``evaluate(gate) -> float``, as in :func:`ablation_importance`; higher is better.
    head_gate, order : Tensor, sequence of int
        As in :func:`pruning_curve` (all of the heads, usually).
    threshold : float
        The lowest score allowed.
    stride : int
        Compute the curve at every ``stride``-th number of heads removed.

    Returns
    -------
    (int, Tensor)
        The largest m such that removing the first m heads of ``order``, and every prefix
        before it, keeps the score at or above ``threshold`` (``len(order)`` if it never falls
        below); and the curve, float64 with NaN where it was not computed.

    Shapes
    ------
    head_gate : (..., h);  order : (m,)  ->  (count, curve of shape (m + 1,))
    """
    _check_callable("evaluate", evaluate, "evaluate(gate) -> float")
    _check_gate(head_gate)
    order = _check_order(order, head_gate.numel())
    stride = _validate.positive_int("stride", stride)

    def every_stride(gate: Tensor) -> float:
        removed_now = int((gate == 0).sum() - (head_gate == 0).sum())
        return float(evaluate(gate)) if removed_now % stride == 0 else float("nan")

    curve = pruning_curve(every_stride, head_gate, order)
    below = torch.nonzero(curve < threshold).flatten()  # NaN compares False
    if len(below) == 0:
        return len(order), curve
    first_below = int(below[0])
    if first_below == 0:
        raise ValueError(
            f"threshold must be reached with no head removed: the score is {float(curve[0])}, "
            f"below threshold={threshold}"
        )
    gate = head_gate.detach().flatten().clone()
    with torch.no_grad():
        for m in range(max(first_below - stride + 1, 1), first_below):  # the points skipped
            gate[order[:m]] = 0.0
            if float(evaluate(gate.clone().view_as(head_gate))) < threshold:
                return m - 1, curve
    return first_below - 1, curve


def _check_order(order: object, size: int) -> list[int]:
    """``order`` as a list of distinct ints in ``[0, size)``, or a ``TypeError``/``ValueError``."""
    if getattr(order, "ndim", 1) != 1:
        raise ValueError(
            "order must be 1-D, indices into head_gate.flatten() (for an importance of "
            f"several axes use importance.flatten().argsort()), got shape {tuple(order.shape)}"
        )
    items = list(order)
    try:
        indices = [operator.index(i) for i in items]
    except TypeError:
        raise TypeError(f"order must hold integer head indices, got {items!r}") from None
    if len(set(indices)) != len(indices) or any(not 0 <= i < size for i in indices):
        raise ValueError(f"order must hold distinct head indices in [0, {size}), got {indices}")
    return indices


def rank_correlation(a: Tensor | np.ndarray, b: Tensor | np.ndarray) -> float:
    """Spearman's rank correlation of two measures of the same heads: 1 when they order the
    heads alike, -1 when in reverse. Tied values share their mean rank.

    Both are flattened (an importance of shape ``(layers, h)`` counts every head once); they
    may be tensors on the CPU or NumPy arrays.

    Shapes
    ------
    a, b : (...) with the same number of entries, at least 2  ->  a float
    """
    ranked = []
    for name, values in (("a", a), ("b", b)):
        flat = np.asarray(values, dtype=np.float64).ravel()
        if flat.size < 2 or np.ptp(flat) == 0:
            raise ValueError(
                f"{name} must hold at least 2 values that are not all equal (else no order to "
                f"compare), got {flat.size} value(s) from {flat.min(initial=0.0)} to "
                f"{flat.max(initial=0.0)}"
            )
        ranks = np.empty(flat.size)
        ranks[np.argsort(flat, kind="stable")] = np.arange(flat.size)
        for value in np.unique(flat):
            ranks[flat == value] = ranks[flat == value].mean()
        ranked.append(ranks)
    if ranked[0].size != ranked[1].size:
        raise ValueError(
            f"a and b must hold as many values, got {ranked[0].size} and {ranked[1].size}"
        )
    return float(np.corrcoef(*ranked)[0, 1])
