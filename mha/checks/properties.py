"""Property diagnoses that several exercises share.

Each function here builds a ``detect(evidence) -> str | None`` for a :class:`Mistake`: it looks
at the answer's results (and the inputs, and the reference's results) for a property that
identifies a mistake however it was written, and returns a sentence saying what it saw.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from mha.checks.compare import close, same_outcome
from mha.checks.kinds import Evidence

Detect = Callable[[Evidence], "str | None"]


# --- attention weights --------------------------------------------------------------------


def _finite_weights(evidence: Evidence, name: str, mask_at: int, masked: bool | None = None):
    """(case, answer's weights, reference's weights) with finite answers, optionally only the
    cases with (or without) a mask, the argument at index ``mask_at``."""
    for case, got, want in evidence.triples(name):
        has_mask = _mask_of(case, mask_at) is not None
        if np.all(np.isfinite(got)) and (masked is None or masked == has_mask):
            yield case, got, want


def _mask_of(case, mask_at: int) -> np.ndarray | None:
    return case.args[mask_at] if len(case.args) > mask_at else None


def normalised_over_another_axis(mask_at: int, name: str = "weights") -> Detect:
    """Weights that sum to 1 along an axis other than the keys' (the softmax's axis)."""

    def detect(evidence: Evidence) -> str | None:
        seen = []
        for _, got, _ in _finite_weights(evidence, name, mask_at, masked=False):
            if got.ndim < 2:
                continue
            if np.allclose(got.sum(axis=-1), 1, atol=1e-4):
                return None
            axes = [a for a in range(-got.ndim, -1) if np.allclose(got.sum(axis=a), 1, atol=1e-4)]
            if not axes:
                return None
            seen.append(axes[-1])
        if not seen:
            return None
        where = (
            "the queries axis (-2)"
            if seen[0] == -2
            else f"axis {seen[0] % 4 - 4} (not a query's row)"
        )
        return f"your {name} sum to 1 along {where}, not along each row (over the keys)"

    return detect


def not_probabilities(mask_at: int, name: str = "weights") -> Detect:
    """Weights with negative entries or entries above 1, and rows that do not sum to 1."""

    def detect(evidence: Evidence) -> str | None:
        found = False
        for _, got, _ in _finite_weights(evidence, name, mask_at, masked=False):
            if np.allclose(got.sum(axis=-1), 1, atol=1e-4):
                return None
            found = found or bool(np.any(got < -1e-9) or np.any(got > 1 + 1e-9))
        if found:
            return f"your {name} are not probabilities: some are negative or above 1, and the rows do not sum to 1"
        return None

    return detect


def zeroed_after_softmax(mask_at: int, name: str = "weights") -> Detect:
    """Masked weights that are 0 while the rows no longer sum to 1 (and do without a mask)."""

    def detect(evidence: Evidence) -> str | None:
        unmasked = list(_finite_weights(evidence, name, mask_at, masked=False))
        masked = list(_finite_weights(evidence, name, mask_at, masked=True))
        if not masked or any(not np.allclose(g.sum(axis=-1), 1, atol=1e-4) for _, g, _ in unmasked):
            return None
        for _, got, want in masked:
            hidden = want == 0
            if not np.allclose(got[hidden], 0, atol=1e-9):
                return None
            sums = got.sum(axis=-1)
            if np.allclose(sums, 1, atol=1e-4) or np.any(sums > 1 + 1e-6):
                return None
        return f"your {name} are 0 where the mask hides a key, but their rows no longer sum to 1"

    return detect


def inverted_mask(mask_at: int, name: str = "weights") -> Detect:
    """Weights that are non-zero only where the mask forbids, and zero where it allows."""

    def detect(evidence: Evidence) -> str | None:
        found = False
        for _, got, want in _finite_weights(evidence, name, mask_at, masked=True):
            allowed = want > 0
            if got[allowed].max(initial=0) > 1e-6 or not np.all(got[~allowed] > 0):
                return None
            found = True
        return "your weights are 0 exactly where the mask allows a key" if found else None

    return detect


def leaks_through_mask(name: str | None = "out") -> Detect:
    """An output that changes when only the values of masked keys change (a probe)."""

    def detect(evidence: Evidence) -> str | None:
        for base, probe in evidence.probes("masked_values"):
            a, b = (evidence.output(evidence.got[i], name) for i in (base, probe))
            if a is not None and b is not None and a.shape == b.shape and not close(a, b):
                return (
                    f"your {name or 'result'} changed when only the values behind the mask "
                    f"changed ({evidence.cases[probe].description})"
                )
        return None

    return detect


def raised_on_masks(mask_at: int, error_type: str, words: str) -> Detect:
    """The answer raised ``error_type`` (its message containing ``words``) only with a mask."""

    def detect(evidence: Evidence) -> str | None:
        raised = [
            case for case, got in zip(evidence.cases, evidence.got, strict=True)
            if got.error and got.error[0] == error_type and words in got.error[1]
        ]  # fmt: skip
        if raised and all(_mask_of(case, mask_at) is not None for case in raised):
            return f"your function raised {error_type} ({words}) with a mask of another shape than the scores"
        return None

    return detect


# --- the scale of the scores --------------------------------------------------------------


def _fitted_temperature(scores: np.ndarray, weights: np.ndarray, mask) -> float | None:
    """T with weights = softmax(scores / T) on the allowed entries, or None if no T fits."""
    allowed = np.ones(scores.shape, bool) if mask is None else np.broadcast_to(mask, scores.shape)
    allowed = allowed & (weights > 1e-250)
    count = allowed.sum(axis=-1, keepdims=True)
    if np.all(count < 2):
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        log_w = np.where(allowed, np.log(np.where(allowed, weights, 1.0)), 0.0)
        s = np.where(allowed, scores, 0.0)
        s_c = np.where(allowed, s - s.sum(-1, keepdims=True) / np.maximum(count, 1), 0.0)
        l_c = np.where(allowed, log_w - log_w.sum(-1, keepdims=True) / np.maximum(count, 1), 0.0)
    denominator = float(np.sum(s_c * l_c))
    if abs(denominator) < 1e-12:
        return None
    temperature = float(np.sum(s_c * s_c)) / denominator
    residual = np.max(np.abs(l_c - s_c / temperature))
    return temperature if residual < 1e-3 * max(1.0, float(np.max(np.abs(l_c)))) else None


def scaled_by(
    divisor: Callable[[tuple], float],
    right: Callable[[tuple], float],
    raw_scores: Callable[[tuple], np.ndarray],
    mask_at: int,
    name: str = "weights",
) -> Detect:
    """Weights that are the softmax of the raw scores divided by ``divisor(args)`` where the
    right divisor is ``right(args)``: the reference at another scale (a fitted temperature)."""

    def detect(evidence: Evidence) -> str | None:
        telling = 0
        for case, got, _ in evidence.triples(name):
            temperature = evidence.memo(
                ("temperature", case.description),
                lambda case=case, got=got: _fitted_temperature(
                    raw_scores(case.args), got, _mask_of(case, mask_at)
                ),
            )
            if temperature is None:
                continue
            wanted, right_one = divisor(case.args), right(case.args)
            if not math.isclose(temperature, wanted, rel_tol=2e-3):
                return None
            telling += not math.isclose(wanted, right_one, rel_tol=1e-2)
        if not telling:
            return None
        return "your weights are the softmax of the scores at another scale"

    return detect


# --- masks --------------------------------------------------------------------------------


def _masks(evidence: Evidence, name: str | None):
    """(case, answer, reference) for mask results whose shapes agree."""
    for case, got, want in zip(evidence.cases, evidence.got, evidence.want, strict=True):
        g, w = evidence.output(got, name), evidence.output(want, name)
        if g is not None and w is not None and g.shape == w.shape:
            yield case, g, w.astype(bool)


def additive_mask(name: str | None = None) -> Detect:
    """A mask of 0 (may attend) and -inf or a large negative number (may not)."""

    def detect(evidence: Evidence) -> str | None:
        pairs = list(_masks(evidence, name))
        ok = pairs and all(
            g.dtype.kind == "f" and np.all(g[w] == 0) and np.all(g[~w] <= -1e4) for _, g, w in pairs
        )
        return (
            "your mask is additive: 0 where a key is allowed, -inf where it is not" if ok else None
        )

    return detect


def _positions(shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """(query positions, key positions) of a causal mask of ``shape``, aligned bottom-right."""
    n_q, n_k = shape
    return np.arange(n_q)[:, None] + (n_k - n_q), np.arange(n_k)[None, :]


def allows_future() -> Detect:
    """A causal mask that allows everything it should and some future keys too."""

    def detect(evidence: Evidence) -> str | None:
        extra = False
        for _, got, want in _masks(evidence, None):
            if got.dtype != np.bool_ or np.any(want & ~got):
                return None
            extra = extra or bool(np.any(got & ~want))
        return "your mask lets a query attend keys after its own position" if extra else None

    return detect


def forbids_diagonal() -> Detect:
    """A causal mask that hides the query's own position and nothing else it should allow."""

    def detect(evidence: Evidence) -> str | None:
        missing = False
        for _, got, want in _masks(evidence, None):
            if got.dtype != np.bool_:
                return None
            rows, cols = _positions(want.shape)
            lost = want & ~got
            if np.any(got & ~want) or np.any(lost & (cols != rows)):
                return None
            missing = missing or bool(lost.any())
        return "your mask hides each query's own position (the diagonal)" if missing else None

    return detect


def upper_triangle() -> Detect:
    """A causal mask that is an upper triangle: True at and after a diagonal, False before."""

    def detect(evidence: Evidence) -> str | None:
        found = False
        for _, got, want in _masks(evidence, None):
            n_q, n_k = want.shape
            rows, cols = np.arange(n_q)[:, None], np.arange(n_k)[None, :]
            offsets = range(-n_q, n_k + 1)
            if got.dtype != np.bool_ or not any(
                np.array_equal(got, cols >= rows + c) for c in offsets
            ):
                return None
            found = found or not np.array_equal(got, want)
        return (
            "your mask is an upper triangle: it allows the keys after a query, not before"
            if found
            else None
        )

    return detect


def top_left() -> Detect:
    """A causal mask aligned top-left (query i may attend keys 0..i) where n_q != n_k."""

    def detect(evidence: Evidence) -> str | None:
        telling = False
        for _, got, want in _masks(evidence, None):
            n_q, n_k = want.shape
            tril = np.arange(n_k)[None, :] <= np.arange(n_q)[:, None]
            if got.dtype != np.bool_ or not np.array_equal(got, tril):
                return None
            telling = telling or n_q != n_k
        return (
            "your mask is aligned top-left: query i may attend keys 0..i whatever n_k"
            if telling
            else None
        )

    return detect


# --- heads --------------------------------------------------------------------------------


def keeps_flat_order() -> Detect:
    """A result that holds the input's numbers in their original order: a bare reshape."""

    def detect(evidence: Evidence) -> str | None:
        found = False
        for case, got, want in _results(evidence):
            x = case.args[0]
            if got.size != x.size or not np.array_equal(
                got.reshape(-1), np.asarray(x, got.dtype).reshape(-1)
            ):
                return None
            found = found or not np.array_equal(got, want)
        return "your result holds the input's numbers in their original order" if found else None

    return detect


def _results(evidence: Evidence):
    """(case, answer, reference) while the answer returned arrays (it stops at the first not)."""
    for case, got, want in zip(evidence.cases, evidence.got, evidence.want, strict=True):
        g, w = evidence.output(got), evidence.output(want)
        if g is None or w is None:
            return
        yield case, g, w


# --- errors -------------------------------------------------------------------------------


def raised_when(
    predicate: Callable[[tuple], bool], error_type: str, words: str, seen: str
) -> Detect:
    """The answer raised ``error_type`` (message containing ``words``) exactly on the cases
    whose arguments satisfy ``predicate``, and returned values elsewhere."""

    def detect(evidence: Evidence) -> str | None:
        for case, got in zip(evidence.cases, evidence.got, strict=True):
            raised = got.error is not None and got.error[0] == error_type and words in got.error[1]
            if raised != predicate(case.args):
                return None
        return seen

    return detect


# --- variants ------------------------------------------------------------------------------


def equals_one_of(family: dict[str, Callable], seen: str) -> Detect:
    """The answer equals, wherever it returned, one of a family of variants (each written as
    readers write the mistake); ``seen`` may name the member with ``{name}``."""

    def detect(evidence: Evidence) -> str | None:
        for name, variant in family.items():
            if evidence.agrees_where_returned(variant):
                return seen.format(name=name)
        return None

    return detect


def raised_saying(error_type: str | tuple[str, ...], *words: str, seen: str) -> Detect:
    """The answer raised ``error_type`` (or one of several: torch's versions differ) with a
    message holding all of ``words`` (an error that names the mistake itself, e.g. torch's
    "use tensor.detach().numpy() instead")."""
    types = (error_type,) if isinstance(error_type, str) else error_type

    def detect(evidence: Evidence) -> str | None:
        for got in evidence.got:
            if got.error and got.error[0] in types and all(w in got.error[1] for w in words):
                return seen
        return None

    return detect


# --- probes -------------------------------------------------------------------------------


def changes_under(probe: str, seen: str) -> Detect:
    """A result that changes between a case and its probe, where the reference's does not."""

    def detect(evidence: Evidence) -> str | None:
        for base, other in evidence.probes(probe):
            a, b = (evidence.output(evidence.got[i]) for i in (base, other))
            if a is not None and b is not None and a.shape == b.shape and not close(a, b):
                return seen
        return None

    return detect


def wrong_only_under(probe: str, seen: str) -> Detect:
    """Right on a case and wrong on its probe: the answer misses the edge the probe tests,
    whatever else it gets wrong."""

    def detect(evidence: Evidence) -> str | None:
        for base, other in evidence.probes(probe):
            right = same_outcome(evidence.got[base], evidence.want[base])
            if right and not same_outcome(evidence.got[other], evidence.want[other]):
                return seen
        return None

    return detect


def overwritten_by_next_call() -> Detect:
    """Results that change when the function is called again (measured with
    ``measure=("second_call",)``): views of a buffer that each call refills."""

    def detect(evidence: Evidence) -> str | None:
        for case, got in zip(evidence.cases, evidence.got, strict=True):
            if got.measurements.get("second_call"):
                return (
                    f"the arrays it returned for {case.description} changed when it was called "
                    "again on other inputs of the same shapes"
                )
        return None

    return detect
