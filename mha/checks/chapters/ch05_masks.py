"""Chapter 5's exercises: the causal and padding masks, a query with no key (the fully masked
row), a decoder's masks, the shape of cross-attention weights."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import mha
from mha.checks.core import Case
from mha.checks.forms import Whole
from mha.checks.inputs import F32, F64, normal, random_mask
from mha.checks.kinds import Exercise, FunctionExercise, Mistake, ShapeExercise, WrongValue
from mha.checks.predictions import Misconception, PredictionExercise
from mha.checks.properties import (
    additive_mask,
    allows_future,
    forbids_diagonal,
    top_left,
    upper_triangle,
)

# --- ch05: masks --------------------------------------------------------------------------

_FLOAT_MASK = Mistake(
    "float_mask",
    "a mask of numbers (1 and 0) where a boolean one is asked",
    "a boolean mask selects with np.where and inverts with ~; a float mask added to the scores "
    "would add 1 to the allowed ones: build it from a comparison, or .astype(bool)",
    relations=("numbers_for_bool",),
)
_ADDITIVE_MASK = Mistake(
    "additive_mask",
    "an additive mask (0 and -inf) where a boolean one is asked",
    "this book's masks are boolean, True = may attend; mha.to_additive turns one into the "
    "additive form when a library needs it",
    detect=additive_mask(),
)


def _causal_cases(rng: np.random.Generator) -> list[Case]:
    n = int(rng.integers(3, 40))  # sizes from a wide range: no table of answers can cover them
    n_q, n_k = sorted(int(x) for x in rng.choice(np.arange(2, 40), size=2, replace=False))
    sizes = [(n,), (n + 1, n + 1), (n_q, n_k), (1, n_k + 1), (n_k, n_q)]
    return [Case(f"causal_mask({', '.join(map(str, s))})", s) for s in sizes]


def _causal_variant(relation: Callable[[np.ndarray, np.ndarray], np.ndarray], *, align=True):
    def causal_mask(n_q, n_k=None):
        n_k = n_q if n_k is None else n_k
        rows = np.arange(n_q)[:, None] + (n_k - n_q if align else 0)
        return relation(np.arange(n_k)[None, :], rows)

    return causal_mask


def _offset_sign_flipped(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_q - n_k)


_CAUSAL_MISTAKES = (
    Mistake(
        "inverted",
        "an inverted mask (True on the future keys)",
        "True means 'may attend': key j is allowed when it is not in the future",
        _causal_variant(lambda cols, rows: cols > rows),
    ),
    Mistake(
        "excludes_diagonal",
        "a mask that hides the diagonal (a token may not attend itself)",
        "use <=, not <: each token may attend its own position",
        _causal_variant(lambda cols, rows: cols < rows),
        forbids_diagonal(),
    ),
    Mistake(
        "upper_triangular",
        "the upper triangle (np.triu) instead of the lower one",
        "query i may attend keys 0..i: the lower triangle, np.tril",
        _causal_variant(lambda cols, rows: cols >= rows),
        upper_triangle(),
    ),
    Mistake(
        "top_left_aligned",
        "a mask aligned top-left (np.tril(ones((n_q, n_k)))) when n_q != n_k",
        "the queries are the last n_q positions: query i sits at position i + n_k - n_q",
        _causal_variant(lambda cols, rows: cols <= rows, align=False),
        top_left(),
    ),
    Mistake(
        "offset_sign",
        "the diagonal offset with the wrong sign (np.tril(..., k=n_q - n_k))",
        "query i sits at position i + n_k - n_q: np.tril(np.ones((n_q, n_k), bool), k=n_k - n_q)",
        _offset_sign_flipped,
    ),
    Mistake(
        "ignores_n_k",
        "a square (n_q, n_q) mask that ignores n_k",
        "the mask has one column per key: shape (n_q, n_k), with n_k defaulting to n_q",
        lambda n_q, n_k=None: np.tril(np.ones((n_q, n_q), dtype=bool)),
    ),
    Mistake(
        "allows_future",
        "a mask that allows some keys after a query's position",
        "query i (at position i + n_k - n_q) may attend keys 0 .. i + n_k - n_q and no later one",
        detect=allows_future(),
    ),
    _FLOAT_MASK,
    _ADDITIVE_MASK,
)


def _padding_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for form in ("list", "int64", "int32", "one"):
        n_k = int(rng.integers(3, 30))
        size = 1 if form == "one" else int(rng.integers(2, 6))
        lengths = rng.integers(0, n_k + 1, size=size)
        lengths[rng.integers(size)] = n_k  # one sequence without padding
        if form in ("list", "one"):
            lengths = [int(n) for n in lengths]
            text = f"padding_mask({lengths}, {n_k})"
        else:
            lengths = lengths.astype(np.int32 if form == "int32" else np.int64)
            text = f"padding_mask(np.array({lengths.tolist()}, dtype={lengths.dtype}), {n_k})"
        cases.append(Case(text, (lengths, n_k)))
    n_k = int(rng.integers(4, 30))
    lengths = [int(n) for n in rng.integers(1, n_k - 2, size=3)]  # each padded by 3 or more
    cases.append(Case(f"padding_mask({lengths}, {n_k}): every sequence padded", (lengths, n_k)))
    return cases


def _padding_variant(relation: Callable, layout: str = "keys") -> Callable:
    def padding_mask(lengths, n_k):
        lengths = np.asarray(lengths)[:, None]
        mask = relation(np.arange(n_k)[None, :], lengths)  # (B, n_k)
        if layout == "keys":
            return mask[:, None, None, :]
        return mask[:, None, :, None] if layout == "queries" else mask

    return padding_mask


_PADDING_MISTAKES = (
    Mistake(
        "n_k_from_lengths",
        "the keys axis as long as the longest sequence, max(lengths), instead of n_k",
        "the mask must fit the scores' keys axis, n_k long, even when every sequence is "
        "shorter: np.arange(n_k)",
        lambda lengths, n_k: mha.padding_mask(lengths, int(np.max(lengths))),
    ),
    Mistake(
        "inverted",
        "an inverted mask (True on the padding)",
        "True means 'may attend': the real keys j < lengths[b] are True",
        _padding_variant(lambda j, length: j >= length),
    ),
    Mistake(
        "left_padding",
        "the pads at the start of each sequence (left padding), where this book puts them at "
        "the end",
        "the real tokens come first: key j is real when j < lengths[b]",
        relations=("reversed:-1",),
    ),
    Mistake(
        "off_by_one_includes_pad",
        "off by one: key j = lengths[b] (the first pad) is allowed",
        "positions 0..length-1 are real: use j < length, not j <= length",
        _padding_variant(lambda j, length: j <= length),
    ),
    Mistake(
        "off_by_one_drops_last",
        "off by one: the last real key (j = lengths[b] - 1) is hidden",
        "positions 0..length-1 are real: use j < length",
        _padding_variant(lambda j, length: j < length - 1),
    ),
    Mistake(
        "on_queries",
        "the padding applied to the queries axis, (B, 1, n_k, 1), instead of the keys",
        "padding hides keys: the mask varies along the last axis, shape (B, 1, 1, n_k)",
        _padding_variant(lambda j, length: j < length, layout="queries"),
    ),
    Mistake(
        "missing_singleton_axes",
        "a (B, n_k) mask without the heads and queries axes",
        "reshape to (B, 1, 1, n_k) so it broadcasts over (B, h, n_q, n_k); a (B, n_k) mask "
        "would line B up with n_q",
        _padding_variant(lambda j, length: j < length, layout="flat"),
    ),
    _FLOAT_MASK,
    _ADDITIVE_MASK,
)


# --- ch05: a decoder's two masks ----------------------------------------------------------


def _decoder_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for batch in (2, 3, 1, 4):
        n_t, n_s = (int(n) for n in rng.choice(np.arange(2, 9), size=2, replace=False))
        target = rng.integers(1, n_t + 1, size=batch)
        source = rng.integers(1, n_s + 1, size=batch)
        target[0], source[-1] = n_t, n_s  # one sequence without padding on each side
        if batch > 1:
            target[-1], source[0] = max(1, n_t - 2), max(1, n_s - 2)
        target_lengths = [int(n) for n in target] if batch % 2 else target
        cases.append(Case(
            f"target lengths {target.tolist()} (n_target={n_t}), source lengths {source.tolist()} "
            f"(n_source={n_s})",
            (target_lengths, source, n_t, n_s),
        ))  # fmt: skip
    return cases


def _decoder_variant(
    *,
    self_causal: bool = True,
    self_padding: str = "keys",
    cross_causal: bool = False,
    cross_lengths: str = "source",
    combine: Callable = np.logical_and,
) -> Callable:
    """A decoder's masks with one thing changed; the defaults give the right answer."""

    def decoder_masks(target_lengths, source_lengths, n_target, n_source):
        target = np.arange(n_target) < np.asarray(target_lengths)[:, None]  # (B, n_t)
        lengths = source_lengths if cross_lengths == "source" else target_lengths
        source = np.arange(n_source) < np.asarray(lengths)[:, None]  # (B, n_s)
        batch = target.shape[0]
        causal = mha.causal_mask(n_target) if self_causal else np.ones((n_target,) * 2, bool)
        if self_padding == "keys":
            self_mask = combine(causal, target[:, None, None, :])
        elif self_padding == "queries":
            self_mask = combine(causal, target[:, None, :, None])
        else:
            self_mask = np.broadcast_to(causal, (batch, 1, n_target, n_target))
        cross = source[:, None, None, :]  # (B, 1, 1, n_s)
        if cross_causal:
            cross = cross & mha.causal_mask(n_target, n_source)
        return (
            np.array(np.broadcast_to(self_mask, (batch, 1, n_target, n_target))),
            np.array(np.broadcast_to(cross, (batch, 1, n_target, n_source))),
        )

    return decoder_masks


_reference_decoder_masks = _decoder_variant()


def _decoder_lengths_swapped(target_lengths, source_lengths, n_target, n_source):
    """The masks as readers build them with mha's helpers, each from the other's lengths
    (mha.padding_mask refuses a length above its n_k, as it would here)."""
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(source_lengths, n_target)
    pad = mha.padding_mask(target_lengths, n_source)
    return self_mask, np.broadcast_to(pad, (pad.shape[0], 1, n_target, n_source))


def _decoder_cross_hides_target_pads(target_lengths, source_lengths, n_target, n_source):
    self_mask, cross = _reference_decoder_masks(target_lengths, source_lengths, n_target, n_source)
    target = np.arange(n_target) < np.asarray(target_lengths)[:, None]  # (B, n_t)
    return self_mask, cross & target[:, None, :, None]


def _causal_cross_mask(evidence) -> str | None:
    """A cross-attention mask equal to the right one AND a causal mask (either alignment)."""
    telling = False
    for _, got, want in evidence.triples("cross_mask"):
        n_t, n_s = want.shape[-2:]
        rows, cols = np.arange(n_t)[:, None], np.arange(n_s)[None, :]
        causal = [cols <= rows, cols <= rows + n_s - n_t]
        if got.dtype != np.bool_ or not any(np.array_equal(got, want & c) for c in causal):
            return None
        telling = telling or not np.array_equal(got, want)
    return (
        "your cross-attention mask is the right one with a causal mask on top" if telling else None
    )


def _pad_query_rows_hidden(evidence) -> str | None:
    """The cross-attention mask (and perhaps the self-attention one) right except that the
    target's pad queries' rows are all False."""
    telling = False
    for case, got, want in zip(evidence.cases, evidence.got, evidence.want, strict=True):
        target_lengths, _, n_target, _ = case.args
        real = np.arange(n_target) < np.asarray(target_lengths)[:, None]  # (B, n_t)
        hidden_rows = real[:, None, :, None]
        for name in ("self_mask", "cross_mask"):
            g, w = evidence.output(got, name), evidence.output(want, name)
            if g is None or w is None or g.dtype != np.bool_ or g.shape != w.shape:
                return None
            if not np.array_equal(g, w):
                if not np.array_equal(g, w & hidden_rows):
                    return None
                telling = telling or name == "cross_mask"
    return (
        "your masks are the right ones with every row of a pad query all False" if telling else None
    )


_DECODER_MISTAKES = (
    Mistake(
        "cross_causal",
        "a causal mask on the cross-attention too",
        "the decoder may read the whole source sentence: the cross-attention mask hides only "
        "the source's pads",
        _decoder_variant(cross_causal=True),
        _causal_cross_mask,
    ),
    Mistake(
        "cross_target_lengths",
        "the cross-attention mask built from the target's lengths",
        "cross-attention's keys are the source's tokens: hide key j when j >= source_lengths[b]",
        _decoder_variant(cross_lengths="target"),
    ),
    Mistake(
        "self_no_padding",
        "the self-attention mask without the target's padding (causal only)",
        "the target has pads too: combine the causal mask with the target's padding mask (AND)",
        _decoder_variant(self_padding="none"),
    ),
    Mistake(
        "self_not_causal",
        "the self-attention mask without the causal part (padding only)",
        "a decoder's self-attention must not read later positions: AND with mha.causal_mask(n_target)",
        _decoder_variant(self_causal=False),
    ),
    Mistake(
        "padding_on_queries",
        "the target's padding applied to the queries axis instead of the keys",
        "padding hides keys: the padding part varies along the last axis, (B, 1, 1, n_target)",
        _decoder_variant(self_padding="queries"),
    ),
    Mistake(
        "lengths_swapped",
        "the target's and the source's lengths swapped between the two masks",
        "the self-attention reads the target (its keys are target tokens: target_lengths); the "
        "cross-attention reads the source (source_lengths)",
        _decoder_lengths_swapped,
        relations=("input:target_lengths<->source_lengths",),
    ),
    Mistake(
        "cross_hides_target_pads",
        "the target's pad queries hidden in the cross-attention too (their rows all False)",
        "the cross-attention mask hides only the source's pads; a pad query's row stays as it is "
        "(its output is never used)",
        _decoder_cross_hides_target_pads,
        _pad_query_rows_hidden,
    ),
    Mistake(
        "or_instead_of_and",
        "the causal and padding masks combined with OR instead of AND",
        "a key may be attended only if it is allowed by both masks: causal & padding",
        _decoder_variant(combine=np.logical_or),
    ),
)


# --- ch05: a query with no key (the fully masked row) ------------------------------------


def _reference_masked_softmax(scores, mask):
    return mha.softmax(np.where(mask, scores, np.asarray(-np.inf, dtype=scores.dtype)))


def _left_padded_causal(lengths, n: int) -> np.ndarray:
    """(B, 1, n, n): causal AND key j real when j >= n - lengths[b] (pads first), so the
    queries before a sequence's first real token may attend no key."""
    real = np.arange(n)[None, :] >= n - np.asarray(lengths)[:, None]  # (B, n)
    return mha.causal_mask(n) & real[:, None, None, :]


def _masked_softmax_cases(rng: np.random.Generator) -> list[Case]:
    n_q, n_k = (int(x) for x in rng.integers(3, 9, size=2))
    n, heads = int(rng.integers(4, 8)), int(rng.integers(2, 4))
    blind = random_mask(rng, (n_q, n_k))
    blind[int(rng.integers(n_q))] = False  # a query that may attend no key
    lengths = [n, int(rng.integers(1, n - 1))]
    padding = rng.integers(1, n_k + 1, size=(3, 1, 1))
    padding[int(rng.integers(3))] = 0  # a sequence with no real key at all
    pads = np.arange(n_k) < padding  # (3, 1, n_k)
    large = 800.0 + np.abs(normal(rng, (n_q, n_k), F64, 100.0))
    return [
        Case(f"scores ({n_q}, {n_k}), float64, a mask that leaves one query no key",
             (normal(rng, (n_q, n_k), F64, 3.0), blind)),
        Case(f"scores (2, {heads}, {n}, {n}), float32, causal AND left padding (lengths "
             f"{lengths}): the queries on pads may attend no key",
             (normal(rng, (2, heads, n, n), F32, 3.0), _left_padded_causal(lengths, n))),
        Case(f"scores (3, {n_q}, {n_k}), float64, a (3, 1, {n_k}) padding mask with lengths "
             f"{padding.ravel().tolist()}",
             (normal(rng, (3, n_q, n_k), F64, 3.0), pads)),
        Case(f"scores (3, {n_q}, {n_k}), float32, a ({n_q}, {n_k}) mask, every query with a key",
             (normal(rng, (3, n_q, n_k), F32, 3.0), random_mask(rng, (n_q, n_k)))),
        Case(f"scores ({n_q}, {n_k}) all above 800 (exp overflows), one query without a key",
             (large, blind.copy())),
        Case(f"scores ({n_q}, {n_k}) whose masked entries are some 800 above the allowed ones "
             "(a shift by the maximum over every key underflows the allowed ones)",
             _masked_far_above(rng, n_q, n_k, 800.0)),
        Case(f"scores ({n_q}, {n_k}) whose masked entries are some 725 above the allowed ones "
             "(exp of a masked score overflows)",
             _masked_far_above(rng, n_q, n_k, 725.0)),
    ]  # fmt: skip


def _masked_far_above(rng: np.random.Generator, n_q: int, n_k: int, offset: float) -> tuple:
    """Float64 scores whose masked entries are ``offset`` (within 6) above the allowed ones,
    each query with an allowed key and a masked one. At 800 a shift by the maximum over every
    key underflows the allowed exps to 0; at 725 it leaves them tiny but nonzero (exp(-731)
    is a subnormal) while exp of a masked score, shifted by the allowed maximum, overflows."""
    mask = random_mask(rng, (n_q, n_k))
    mask[:, 0], mask[:, -1] = True, False
    scores = normal(rng, (n_q, n_k), F64, 1.0).clip(-3, 3) + np.where(mask, 0.0, offset)
    return scores, mask


def _masked_softmax_variant(
    fill: float = -np.inf,
    *,
    inverted: bool = False,
    guarded: bool = True,
    after: bool = False,
    peak_of_every_key: bool = False,
    exp_of_masked: bool = False,
    axis: int = -1,
) -> Callable:
    """The weights with one thing changed; the defaults give the right answer."""

    def masked_softmax(scores, mask):
        allowed = ~mask if inverted else mask
        if after:  # the mask applied to the weights, not to the scores
            e = np.exp(scores - scores.max(axis=-1, keepdims=True))
            return e / e.sum(axis=-1, keepdims=True) * allowed
        masked = np.where(allowed, scores, fill)
        peak = (scores if peak_of_every_key else masked).max(axis=axis, keepdims=True)
        if guarded:
            peak = np.where(np.isfinite(peak), peak, 0)
        with np.errstate(invalid="ignore", over="ignore"):
            e = np.exp(scores - peak) * allowed if exp_of_masked else np.exp(masked - peak)
            total = e.sum(axis=axis, keepdims=True)
            return (e / np.where(guarded & (total == 0), 1, total)).astype(scores.dtype)

    return masked_softmax


def _on_empty_rows(evidence, kind: str) -> str | None:
    """Right on every row that allows a key, and NaN (``kind="nan"``) or uniform weights 1/n_k
    (``"uniform"``) on every row that allows none, with at least one such row."""
    seen = False
    for case, got, want in evidence.triples():
        empty = ~np.broadcast_to(case.args[1], want.shape).any(axis=-1)  # (..., n_q)
        if not np.allclose(got[~empty], want[~empty], rtol=1e-4, atol=1e-6):
            return None
        rows = got[empty]
        if kind == "nan" and not np.isnan(rows).all():
            return None
        if kind == "uniform" and not np.allclose(rows, 1 / want.shape[-1], atol=1e-6):
            return None
        seen = seen or bool(empty.any())
    if not seen:
        return None
    found = "NaN" if kind == "nan" else "the uniform weights 1/n_k"
    return f"your weights are right on every row that allows a key, and {found} on the rows that allow none"


def _rows_kept_only_when_every_key_is_allowed(scores, mask):
    weights = _reference_masked_softmax(scores, mask)
    every_key = np.broadcast_to(mask, weights.shape).all(axis=-1, keepdims=True)
    return np.where(every_key, weights, 0).astype(weights.dtype)


_MASKED_SOFTMAX_MISTAKES = (
    Mistake(
        "over_queries",
        "the softmax over the queries axis (-2) instead of the keys",
        "each query distributes its weight over the keys: normalise along the last axis",
        _masked_softmax_variant(axis=-2),
    ),
    # before exp_of_masked: only a subnormal exp(-731) tells the two apart at 725, and a CPU
    # whose exp flushes it to 0 gives both the same results (then the first is named)
    Mistake(
        "peak_of_every_key",
        "the maximum subtracted is that of every key, the masked ones included",
        "subtract the maximum of the allowed scores only: a masked score far above them makes "
        "every allowed exp underflow to 0",
        _masked_softmax_variant(peak_of_every_key=True),
    ),
    Mistake(
        "exp_of_masked",
        "exp taken of the masked scores too, then multiplied by the mask (exp of a masked score "
        "far above the allowed ones is inf, and inf * 0 is NaN)",
        "put -inf in the masked scores before the exponential (np.where), so that they give "
        "exactly 0 whatever their value",
        _masked_softmax_variant(exp_of_masked=True),
    ),
    Mistake(
        "nan_rows",
        "NaN on a query row whose keys are all masked (-inf everywhere: exp(-inf - (-inf)))",
        "a row of -inf has maximum -inf, and -inf - (-inf) is NaN: subtract 0 where a row's "
        "maximum is not finite, and divide by 1 where a row's sum is 0, or zero the rows "
        "that have no allowed key, np.where(mask.any(axis=-1, keepdims=True), weights, 0)",
        _masked_softmax_variant(guarded=False),
        lambda evidence: _on_empty_rows(evidence, "nan"),
    ),
    Mistake(
        "uniform_rows",
        "uniform weights 1/n_k on a query row whose keys are all masked (a -1e9 fill)",
        "with -1e9 in place of -inf a row that allows no key has n_k equal scores, and its "
        "softmax is 1/n_k everywhere: the query reads every pad; give such rows zeros",
        _masked_softmax_variant(-1e9),
        lambda evidence: _on_empty_rows(evidence, "uniform"),
    ),
    Mistake(
        "masked_after_softmax",
        "the mask applied to the weights after the softmax (the rows no longer sum to 1)",
        "mask the scores before the softmax (forbidden ones become -inf), so that the allowed "
        "weights share the whole 1",
        _masked_softmax_variant(after=True),
    ),
    Mistake(
        "zero_fill",
        "forbidden scores set to 0 instead of -inf (a forbidden key still gets weight)",
        "exp(0) = 1: a score of 0 is an ordinary score; use -np.inf, whose exp is exactly 0",
        _masked_softmax_variant(0.0),
    ),
    Mistake(
        "inverted",
        "an inverted mask (the forbidden keys attended, the allowed ones hidden)",
        "True means 'may attend': keep the scores where the mask is True",
        _masked_softmax_variant(inverted=True),
    ),
    Mistake(
        "all_for_any",
        "every row with a forbidden key zeroed: the rows kept were found with mask.all(axis=-1), "
        "where a row needs only one allowed key, mask.any(axis=-1)",
        "a row is zeroed only when it allows no key at all: np.where(mask.any(axis=-1, "
        "keepdims=True), weights, 0)",
        _rows_kept_only_when_every_key_is_allowed,
    ),
)


# --- ch05: the mask passed to nn.MultiheadAttention unflipped (a prediction) -------------

POLARITY_N = 5  # the chapter's sequence length


def queries_without_key(n: int = POLARITY_N) -> int:
    """The queries that chapter 5's causal mask, read as True = blocked, leaves no key: the
    count the polarity cell measures."""
    return int(mha.causal_mask(n).all(axis=-1).sum())


def _why_unflipped(count: int) -> str:
    return (
        f"Read as True = blocked, the causal mask blocks each query's past and itself and leaves "
        f"it the keys after it; the last query has none after it, so {count} query is left "
        "without any key (its row is fully masked: NaN or zeros, depending on the path), and "
        "every other query gets a finite output that is wrong. Nothing raises: the shapes fit."
    )


_UNFLIPPED_MISCONCEPTIONS = (
    Misconception(
        "none",
        0,
        "No error is raised, but the mask is read the other way round: "
        "the causal mask's True entries become the blocked ones.",
    ),
    Misconception(
        "all",
        POLARITY_N,
        "Not every query loses its keys: with True = blocked each "
        "keeps the keys after it, and only the last has none.",
    ),
    Misconception(
        "all_but_one",
        POLARITY_N - 1,
        "That would be every query but one left "
        "without a key; in fact only one is, the last: each other query keeps the "
        "keys after it.",
    ),
)


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "causal_mask": FunctionExercise(
        mha.causal_mask, _causal_cases, _CAUSAL_MISTAKES,
        other_references=("mha.torch_mha._causal",
                    "torch.nn.Transformer.generate_square_subsequent_mask"),
    ),
    "padding_mask": FunctionExercise(
        mha.padding_mask, _padding_cases, _PADDING_MISTAKES, axes={"result": ("keys",)},
    ),
    "masked_softmax": FunctionExercise(
        _reference_masked_softmax, _masked_softmax_cases, _MASKED_SOFTMAX_MISTAKES,
        other_references=("mha._compute.softmax",),
    ),
    "decoder_masks": FunctionExercise(
        _reference_decoder_masks, _decoder_cases, _DECODER_MISTAKES, ("self_mask", "cross_mask"),
        ),
    "predict_unflipped_queries": PredictionExercise(
        f"how many of the {POLARITY_N} queries the unflipped causal mask leaves without any key",
        Whole(0, POLARITY_N), queries_without_key, _why_unflipped, _UNFLIPPED_MISCONCEPTIONS,
    ),
    "cross_attention_weights_shape": ShapeExercise(
        (2, 4, 7, 11),
        (
            WrongValue((2, 4, 11, 7), "keys_by_queries", "rows are queries, columns are keys: (..., h, n_q, n_k)"),
            WrongValue((2, 7, 11), "no_heads_axis", "mha.multi_head_attention returns one weight matrix per head: (..., h, n_q, n_k)"),
            WrongValue((2, 4, 7, 7), "square", "cross-attention has n_q = 7 queries but n_k = 11 keys"),
            WrongValue((2, 4, 11, 11), "square", "cross-attention has n_q = 7 queries but n_k = 11 keys"),
            WrongValue((8, 7, 11), "heads_in_batch", "mha.multi_head_attention keeps the batch and heads axes apart: (batch, h, n_q, n_k), not (batch * h, n_q, n_k)"),
        ),
    ),
}  # fmt: skip
