"""Measuring what the heads of a real model do, on padded batches of sentences (chapter 11).

NumPy only. Attention weights come as ``(B, ..., n_q, n_k)``: a batch of B sentences first,
then any axes for layers and heads, e.g. ``np.stack(outputs.attentions, axis=1)`` of a
transformers model, ``(B, layers, h, n, n)``. Padded positions are described by a boolean
``(B, n)`` array, True = a real token (a tokenizer's ``attention_mask``); padded *queries*
are left out of every average (their rows are not looked at by the model's output either).

- Where heads look: :func:`attention_on` (the mass on chosen keys: the previous token, [CLS],
  punctuation, ...), :func:`mean_attention_distance` and :func:`attention_entropy` (as
  ``mha.analysis``, with the padding left out).
- What heads relate: :func:`word_attention` (token maps to word maps, after Clark et al.,
  2019, "What does BERT look at?") and :func:`relation_accuracy`.
- Whether heads are redundant: :func:`js_divergence` between every pair of heads.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mha._validate import Array


def _check(weights: Array, real: Array) -> tuple[np.ndarray, np.ndarray]:
    weights, real = np.asarray(weights), np.asarray(real)
    if weights.ndim < 3 or not np.issubdtype(weights.dtype, np.floating):
        raise TypeError(
            f"weights must be a floating array (B, ..., n_q, n_k), got {weights.dtype} "
            f"of shape {weights.shape}"
        )
    if real.dtype != np.bool_ or real.shape != (weights.shape[0], weights.shape[-2]):
        raise ValueError(
            f"real must be a boolean (B, n_q) = {(weights.shape[0], weights.shape[-2])} array "
            f"(True = a real token), got {real.dtype} of shape {real.shape}"
        )
    return weights, real


def _per_query_mean(per_query: np.ndarray, real: np.ndarray) -> np.ndarray:
    """Mean over the real queries of every sentence: (B, ..., n_q) -> (...)."""
    weight = real.reshape(real.shape[0], *([1] * (per_query.ndim - 2)), real.shape[1])
    return (per_query * weight).sum(axis=(0, -1)) / weight.sum()


def attention_on(weights: Array, keys: Array, real: Array) -> np.ndarray:
    """How much attention each head puts on the chosen keys, averaged over the real queries.

    Parameters
    ----------
    weights : array
        Attention weights, rows summing to 1.
    keys : bool array
        ``keys[b, i, j]``: key j counts for query i of sentence b (e.g. ``j == i - 1``).
    real : bool array
        The queries to average over (real tokens; leave out [CLS] and [SEP] if you like).

    Shapes
    ------
    weights : (B, ..., n_q, n_k);  keys : (B, n_q, n_k);  real : (B, n_q)  ->  (...)
    """
    weights, real = _check(weights, real)
    keys = np.asarray(keys)
    if keys.dtype != np.bool_ or keys.shape != (weights.shape[0], *weights.shape[-2:]):
        raise ValueError(
            f"keys must be a boolean (B, n_q, n_k) array, got {keys.dtype} of shape {keys.shape}"
        )
    selector = keys.reshape(keys.shape[0], *([1] * (weights.ndim - 3)), *keys.shape[1:])
    return _per_query_mean((weights * selector).sum(-1), real)


def mean_attention_distance(weights: Array, real: Array) -> np.ndarray:
    """Expected ``|i - j|`` under each head's attention, averaged over the real queries.

    ``mha.analysis.mean_attention_distance`` for a padded batch (self-attention, n_q = n_k).

    Shapes
    ------
    weights : (B, ..., n, n);  real : (B, n)  ->  (...)
    """
    weights, real = _check(weights, real)
    positions = np.arange(weights.shape[-1])
    distance = np.abs(positions[:, None] - positions[None, :])  # (n, n)
    return _per_query_mean((weights * distance).sum(-1), real)


def attention_entropy(weights: Array, real: Array) -> np.ndarray:
    """``-sum_j w_ij ln w_ij`` (nats) per head, averaged over the real queries.

    ``mha.analysis.attention_entropy`` for a padded batch: 0 for a head that looks at one
    token, ``ln m`` for one spread evenly over m tokens.

    Shapes
    ------
    weights : (B, ..., n_q, n_k);  real : (B, n_q)  ->  (...)
    """
    weights, real = _check(weights, real)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(weights > 0, -weights * np.log(weights), 0.0)
    return _per_query_mean(terms.sum(-1), real)


def js_divergence(weights: Array, real: Array | None = None) -> np.ndarray:
    """Jensen-Shannon divergence between every pair of heads, averaged over the queries.

    For heads a and b and one query with attention rows p and q (``m = (p + q) / 2``)::

        JS(p, q) = (KL(p || m) + KL(q || m)) / 2,   in nats, between 0 and ln 2.

    0 means the two heads attend identically; ln 2 that they never look at the same key.
    Unlike the cosine of two maps, two *different* broad maps are not similar by this
    measure: JS compares the distributions, not their overlap as vectors.

    Shapes
    ------
    weights : (B, H, n_q, n_k) with H heads (layers flattened into it);  real : (B, n_q)
    returns : (H, H), symmetric, zero diagonal
    """
    weights = np.asarray(weights)
    if weights.ndim != 4:
        raise ValueError(f"weights must have shape (B, H, n_q, n_k), got {weights.shape}")
    if real is None:
        real = np.ones((weights.shape[0], weights.shape[2]), dtype=bool)
    weights, real = _check(weights, real)
    rows = np.moveaxis(weights, 1, 0)[:, real]  # (H, queries, n_k): the real queries' rows
    with np.errstate(divide="ignore", invalid="ignore"):
        plogp = np.where(rows > 0, rows * np.log(rows), 0.0).sum(-1)  # (H, queries)
        result = np.empty((rows.shape[0], rows.shape[0]))
        for a in range(rows.shape[0]):
            m = (rows[a] + rows) / 2  # (H, queries, n_k)
            mlogm = np.where(m > 0, m * np.log(m), 0.0).sum(-1)  # (H, queries)
            # KL(p||m) + KL(q||m) = sum p log p + sum q log q - 2 sum m log m
            result[a] = ((plogp[a] + plogp) / 2 - mlogm).mean(-1)
    return np.maximum((result + result.T) / 2, 0.0)


def word_attention(weights: Array, word_ids: Sequence[int | None]) -> np.ndarray:
    """Token-to-token attention as word-to-word attention (Clark et al., 2019).

    A word split into several word pieces *receives* the sum of their attention and *gives*
    the mean of their rows, so each row still sums to at most 1 (special tokens, whose
    ``word_ids`` entry is None, belong to no word: what goes to them is dropped).

    Parameters
    ----------
    weights : array
        One sentence's attention maps over its n tokens (no padding).
    word_ids : sequence of int or None
        The word of each token, as ``tokenizer(words, is_split_into_words=True).word_ids()``.

    Shapes
    ------
    weights : (..., n, n)  ->  (..., W, W) with W the number of words
    """
    weights = np.asarray(weights)
    if len(word_ids) != weights.shape[-1]:
        raise ValueError(
            f"word_ids has {len(word_ids)} entries but weights has {weights.shape[-1]} tokens"
        )
    num_words = 1 + max(w for w in word_ids if w is not None)
    tokens_of = np.zeros((weights.shape[-1], num_words))  # (n, W): token t is part of word w
    for token, word in enumerate(word_ids):
        if word is not None:
            tokens_of[token, word] = 1.0
    to_words = weights @ tokens_of  # (..., n, W): summed over each word's pieces
    return (tokens_of / tokens_of.sum(0)).T @ to_words  # (..., W, W): mean over pieces


def relation_accuracy(
    word_maps: Sequence[Array], pairs: Sequence[tuple[int, int, int]]
) -> np.ndarray:
    """How often each head's most-attended word is the related word.

    Parameters
    ----------
    word_maps : sequence of arrays
        One :func:`word_attention` result per sentence, ``(..., W_s, W_s)``.
    pairs : sequence of (sentence, from_word, to_word)
        The relation's instances: the word that attends, and the word it should attend to.

    Returns
    -------
    The fraction of pairs whose ``argmax`` over words (the word itself excluded) is
    ``to_word``, per head: shape ``(...)``.
    """
    if not pairs:
        raise ValueError("pairs must hold at least one (sentence, from_word, to_word)")
    hits = 0.0
    for sentence, source, target in pairs:
        row = np.array(word_maps[sentence][..., source, :], dtype=float)  # (..., W)
        row[..., source] = -np.inf  # a word pointing at itself is not a relation
        hits = hits + (row.argmax(-1) == target)
    return hits / len(pairs)


def offset_baseline(pairs: Sequence[tuple[int, int, int]]) -> tuple[int, float]:
    """The best positional guess for a relation: always "the word ``offset`` places away".

    Returns the most common ``to_word - from_word`` among the pairs and the fraction of pairs
    it gets right (Clark et al.'s fixed-offset baseline, with the best offset chosen on the
    same pairs, so it is an upper bound for any fixed offset).
    """
    if not pairs:
        raise ValueError("pairs must hold at least one (sentence, from_word, to_word)")
    offsets = np.array([target - source for _, source, target in pairs])
    values, counts = np.unique(offsets, return_counts=True)
    best = int(np.argmax(counts))
    return int(values[best]), float(counts[best] / len(offsets))


def relations_dataset() -> dict:
    """The book's annotated sentences (``mha/data/relations.json``, written for chapter 11).

    A dict with ``"description"``, ``"relations"`` (what each relation means) and
    ``"sentences"``: each a dict with ``"words"`` (punctuation is a word of its own) and
    ``"relations"``, mapping a relation's name to its ``[from_word, to_word]`` index pairs.
    """
    import json
    from importlib import resources

    return json.loads(resources.files("mha").joinpath("data/relations.json").read_text("utf-8"))
