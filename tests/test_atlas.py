"""mha.atlas against hand-computed answers and mha.analysis; the book's annotated sentences."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mha import atlas

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix


def _maps(rng, shape):
    w = rng.random(shape)
    return w / w.sum(-1, keepdims=True)


def test_attention_on_averages_the_chosen_keys_over_the_real_queries_only():
    weights = np.array([[[0.5, 0.5, 0.0], [0.2, 0.8, 0.0], [0.9, 0.1, 0.0]]])  # (1, 3, 3)
    keys = np.zeros((1, 3, 3), dtype=bool)
    keys[0, :, 0] = True  # the first key
    real = np.array([[True, True, False]])  # the third query is padding
    assert atlas.attention_on(weights, keys, real) == pytest.approx((0.5 + 0.2) / 2)
    stacked = np.stack([weights, 1 - weights], axis=1)  # (1, 2, 3, 3): two "heads"
    np.testing.assert_allclose(atlas.attention_on(stacked, keys, real), [0.35, 0.65])


def test_distance_and_entropy_equal_mha_analysis_without_padding(rng):
    torch = pytest.importorskip("torch")
    from mha import analysis

    weights = _maps(rng, (3, 2, 4, 6, 6))  # (B, layers, h, n, n)
    real = np.ones((3, 6), dtype=bool)
    for layer in range(2):
        expected_distance = analysis.mean_attention_distance(torch.from_numpy(weights[:, layer]))
        expected_entropy = analysis.attention_entropy(torch.from_numpy(weights[:, layer]))
        np.testing.assert_allclose(
            atlas.mean_attention_distance(weights, real)[layer], expected_distance.numpy()
        )
        np.testing.assert_allclose(
            atlas.attention_entropy(weights, real)[layer], expected_entropy.numpy()
        )


def test_padded_queries_change_nothing(rng):
    weights = _maps(rng, (2, 3, 5, 5))
    real = np.array([[True] * 5, [True, True, True, False, False]])
    changed = weights.copy()
    changed[1, :, 3:] = _maps(rng, (3, 2, 5))  # other rows for the padded queries
    for statistic in (atlas.mean_attention_distance, atlas.attention_entropy):
        np.testing.assert_allclose(statistic(weights, real), statistic(changed, real))


def test_known_distances_and_entropies():
    n = 4
    previous = np.eye(n, k=-1)[None, None]  # (1, 1, n, n): query i attends to i - 1
    previous[0, 0, 0, 0] = 1.0  # the first query attends to itself
    real = np.ones((1, n), dtype=bool)
    assert atlas.mean_attention_distance(previous, real)[0] == pytest.approx(3 / 4)
    assert atlas.attention_entropy(previous, real)[0] == pytest.approx(0.0)
    uniform = np.full((1, 1, n, n), 1 / n)
    assert atlas.attention_entropy(uniform, real)[0] == pytest.approx(math.log(n))


def test_js_divergence_is_zero_for_equal_heads_and_ln2_for_disjoint_ones():
    a = np.array([[0.5, 0.5, 0.0, 0.0]] * 2)
    b = np.array([[0.0, 0.0, 0.3, 0.7]] * 2)
    weights = np.stack([a, a, b])[None]  # (1, 3 heads, 2 queries, 4 keys)
    js = atlas.js_divergence(weights)
    np.testing.assert_allclose(
        js, [[0, 0, math.log(2)], [0, 0, math.log(2)], [math.log(2)] * 2 + [0]], atol=1e-12
    )


def test_js_divergence_is_the_entropy_form_averaged_over_real_queries(rng):
    weights = _maps(rng, (2, 3, 4, 5))
    real = np.array([[True, True, False, True], [True, False, False, False]])

    def entropy(p):
        return -np.sum(np.where(p > 0, p * np.log(p), 0.0), -1)

    rows = [weights[b, :, i] for b in range(2) for i in range(4) if real[b, i]]  # each (h, n_k)
    expected = np.zeros((3, 3))
    for row in rows:
        m = (row[:, None] + row[None, :]) / 2
        expected += entropy(m) - (entropy(row)[:, None] + entropy(row)[None, :]) / 2
    np.testing.assert_allclose(atlas.js_divergence(weights, real), expected / len(rows), atol=1e-12)


def test_word_attention_sums_over_a_words_pieces_and_averages_its_rows():
    # tokens: [CLS] play ##ing ball [SEP]  -> words 0 (play ##ing) and 1 (ball)
    weights = np.array(
        [
            [0.2, 0.2, 0.2, 0.2, 0.2],
            [0.1, 0.1, 0.3, 0.4, 0.1],
            [0.0, 0.5, 0.1, 0.2, 0.2],
            [0.3, 0.3, 0.3, 0.1, 0.0],
            [0.2, 0.2, 0.2, 0.2, 0.2],
        ]
    )
    words = atlas.word_attention(weights, [None, 0, 0, 1, None])
    np.testing.assert_allclose(words, [[(0.4 + 0.6) / 2, (0.4 + 0.2) / 2], [0.6, 0.1]])


def test_relation_accuracy_and_the_offset_baseline():
    maps = [np.array([[0.1, 0.8, 0.1], [0.1, 0.1, 0.8], [0.8, 0.1, 0.1]])[None]]  # 1 head
    pairs = [(0, 0, 1), (0, 1, 2), (0, 2, 1)]  # the last one is missed (it looks at word 0)
    np.testing.assert_allclose(atlas.relation_accuracy(maps, pairs), [2 / 3])
    assert atlas.offset_baseline(pairs) == (1, 2 / 3)
    with pytest.raises(ValueError, match="pairs must hold"):
        atlas.relation_accuracy(maps, [])


def test_bad_inputs_are_named():
    weights = np.full((1, 2, 3, 3), 1 / 3)
    with pytest.raises(ValueError, match=r"real must be a boolean \(B, n_q\)"):
        atlas.attention_entropy(weights, np.ones((1, 4), dtype=bool))
    with pytest.raises(TypeError, match="weights must be a floating array"):
        atlas.attention_entropy(np.ones((1, 3, 3), dtype=int), np.ones((1, 3), dtype=bool))
    with pytest.raises(ValueError, match=r"keys must be a boolean \(B, n_q, n_k\)"):
        atlas.attention_on(weights, np.ones((3, 3), dtype=bool), np.ones((1, 3), dtype=bool))
    with pytest.raises(ValueError, match="word_ids has 2 entries but weights has 3 tokens"):
        atlas.word_attention(weights[0, 0], [0, 1])


DETERMINERS = {"the", "a", "an", "this", "that", "these", "those", "every", "each", "some", "no"}
PRONOUNS = {"he", "she", "it", "they", "them", "her", "his", "their", "him"}


def test_the_annotated_sentences_are_well_formed():
    data = atlas.relations_dataset()
    sentences = data["sentences"]
    assert len(sentences) >= 60
    assert set(data["relations"]) == {
        "det_noun", "adj_noun", "subj_verb", "verb_obj", "pron_antecedent", "related"
    }  # fmt: skip
    counts = dict.fromkeys(data["relations"], 0)
    for sentence in sentences:
        words = sentence["words"]
        assert all(word and " " not in word for word in words)
        assert set(sentence["relations"]) <= set(data["relations"])
        for relation, pairs in sentence["relations"].items():
            for source, target in pairs:
                assert 0 <= source < len(words) and 0 <= target < len(words) and source != target
                counts[relation] += 1
                if relation == "det_noun":
                    assert words[source].lower() in DETERMINERS, words[source]
                if relation == "pron_antecedent":
                    assert words[source].lower() in PRONOUNS, words[source]
                    assert words[target].lower() not in PRONOUNS
    assert min(counts.values()) >= 40, counts
