# writer B's answers, then writer F's (each file verbatim)
ANSWERS = [
    # ------------------------------------------------------------------ causal_mask
    {"exercise": "causal_mask", "kind": "correct",
     "idea": "np.tri with its diagonal offset k = n_k - n_q gives the bottom-right triangle",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    return np.tri(n_q, n_k, k=n_k - n_q, dtype=bool)
'''},
    {"exercise": "causal_mask", "kind": "robustness",
     "idea": "right mask, filled entry by entry in two nested Python loops",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    mask = np.zeros((n_q, n_k), dtype=bool)
    for i in range(n_q):
        position = i + n_k - n_q
        for j in range(n_k):
            mask[i, j] = j <= position
    return mask
'''},
    {"exercise": "causal_mask", "kind": "wrong",
     "mistake": "Used the plain lower triangle np.tril(np.ones((n_q, n_k))), aligned top-left, "
                "which is the causal mask only when n_q == n_k.",
     "teacher_says": "With fewer queries than keys the queries are the last positions: shift "
                     "the diagonal by n_k - n_q.",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool))
'''},
    {"exercise": "causal_mask", "kind": "wrong",
     "mistake": "Compared with a strict inequality, j < i + n_k - n_q, so a query may not attend "
                "its own position (the diagonal is lost and query 0 sees nothing).",
     "teacher_says": "A token may read itself: the diagonal belongs to the mask, use <=.",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols < rows + (n_k - n_q)
'''},
    {"exercise": "causal_mask", "kind": "wrong",
     "mistake": "Built the mask in nn.MultiheadAttention's polarity (True = blocked, the strict "
                "upper triangle), the opposite of the book's True = may attend.",
     "teacher_says": "In this book True means may attend: the allowed keys are the lower "
                     "triangle, not the future ones.",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.triu(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q + 1)
'''},
    # ------------------------------------------------------------------ padding_mask
    {"exercise": "padding_mask", "kind": "correct",
     "idea": "np.greater.outer of lengths and key positions, then reshape to (B, 1, 1, n_k)",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths)
    real = np.greater.outer(lengths, np.arange(n_k))  # (B, n_k): length_b > j
    return real.reshape(len(lengths), 1, 1, n_k)
'''},
    {"exercise": "padding_mask", "kind": "robustness",
     "idea": "right mask, one row per sequence from a Python list of booleans, stacked",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    rows = []
    for length in list(lengths):
        rows.append([j < int(length) for j in range(n_k)])
    return np.array(rows, dtype=bool)[:, np.newaxis, np.newaxis, :]
'''},
    {"exercise": "padding_mask", "kind": "wrong",
     "mistake": "Used j <= length, which also lets every query read the first pad (off by one).",
     "teacher_says": "Positions count from 0: a sequence of length L has keys 0 .. L-1, so the "
                     "test is j < L.",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] <= np.asarray(lengths)[:, None]
    return real[:, None, None, :]
'''},
    {"exercise": "padding_mask", "kind": "wrong",
     "mistake": "Put the key positions on the queries axis, shape (B, 1, n_k, 1), which hides "
                "rows (pad queries) instead of columns (pad keys).",
     "teacher_says": "Padding hides keys, the last axis: the shape is (B, 1, 1, n_k).",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]
    return real[:, None, :, None]
'''},
    {"exercise": "padding_mask", "kind": "wrong",
     "mistake": "Marked the pads as True (j >= length), the key_padding_mask polarity of "
                "nn.MultiheadAttention, instead of the real keys.",
     "teacher_says": "In this book True means may attend: the real keys are True.",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    pads = np.arange(n_k)[None, :] >= np.asarray(lengths)[:, None]
    return pads[:, None, None, :]
'''},
    # ------------------------------------------------------------------ masked_softmax
    {"exercise": "masked_softmax", "kind": "correct",
     "idea": "exponentiate only where allowed (np.where on the exp), with the row max taken "
             "over allowed scores and every division guarded",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    mask = np.broadcast_to(mask, scores.shape)
    filled = np.where(mask, scores, -np.inf)
    row_max = filled.max(axis=-1, keepdims=True)
    row_max = np.where(mask.any(axis=-1, keepdims=True), row_max, 0).astype(scores.dtype)
    e = np.where(mask, np.exp(filled - row_max), 0).astype(scores.dtype)
    denom = e.sum(axis=-1, keepdims=True)
    safe = np.where(denom > 0, denom, 1).astype(scores.dtype)
    return e / safe
'''},
    {"exercise": "masked_softmax", "kind": "robustness",
     "idea": "right weights, computed row by row in a Python loop (np.ndindex over the leading "
             "axes) in float64 and cast back to the scores' dtype at the end",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    mask = np.broadcast_to(np.asarray(mask), scores.shape)
    out = np.zeros(scores.shape, dtype=np.float64)
    for idx in np.ndindex(*scores.shape[:-1]):
        row = scores[idx].astype(np.float64)
        allowed = mask[idx]
        if not allowed.any():
            continue
        m = row[allowed].max()
        e = np.exp(row[allowed] - m)
        out[idx][allowed] = e / e.sum()
    return out.astype(scores.dtype)
'''},
    {"exercise": "masked_softmax", "kind": "wrong",
     "mistake": "Filled forbidden scores with -1e9 instead of -inf to avoid NaN; a fully masked "
                "row then gets the uniform weights 1/n_k instead of zeros.",
     "teacher_says": "A large negative fill hides the NaN but gives uniform weights to a row "
                     "with no allowed key: detect such rows and give them zeros.",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    filled = np.where(mask, scores, np.asarray(-1e9, dtype=scores.dtype))
    e = np.exp(filled - filled.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(scores.dtype)
'''},
    {"exercise": "masked_softmax", "kind": "wrong",
     "mistake": "Applied the mask after an ordinary softmax (weights * mask), so the forbidden "
                "keys are 0 but the allowed weights no longer sum to 1.",
     "teacher_says": "Mask the scores before the softmax; zeroing weights afterwards breaks the "
                     "row sums.",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return (weights * mask).astype(scores.dtype)
'''},
    {"exercise": "masked_softmax", "kind": "wrong",
     "mistake": "Guarded the row maximum of an all -inf row but not the division: such a row's "
                "sum is 0 and 0 / 0 gives NaN.",
     "teacher_says": "Both steps need a guard: divide by 1 where a row's sum is 0 so that it "
                     "keeps its zeros.",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    filled = np.where(mask, scores, -np.inf)
    m = filled.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(filled - m)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (e / e.sum(axis=-1, keepdims=True)).astype(scores.dtype)
'''},
    # ------------------------------------------------------------------ decoder_masks
    {"exercise": "decoder_masks", "kind": "correct",
     "idea": "build the causal triangle and both key-padding rows by comparisons, AND them for "
             "the self-attention mask and broadcast the source row for the cross mask",
     "code": '''
import numpy as np


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t_len = np.asarray(target_lengths).reshape(-1, 1, 1, 1)
    s_len = np.asarray(source_lengths).reshape(-1, 1, 1, 1)
    t_pos = np.arange(n_target)
    causal = t_pos[None, :] <= t_pos[:, None]  # (n_t, n_t)
    target_real = t_pos.reshape(1, 1, 1, -1) < t_len  # (B, 1, 1, n_t)
    source_real = np.arange(n_source).reshape(1, 1, 1, -1) < s_len  # (B, 1, 1, n_s)
    self_mask = causal & target_real  # (B, 1, n_t, n_t)
    B = t_len.shape[0]
    cross_mask = np.broadcast_to(source_real, (B, 1, n_target, n_source))
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "robustness",
     "idea": "right masks, filled in Python loops into fresh arrays, and returned as a list "
             "[self_mask, cross_mask] instead of a tuple",
     "code": '''
import numpy as np


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    self_mask = np.zeros((B, 1, n_target, n_target), dtype=bool)
    cross_mask = np.zeros((B, 1, n_target, n_source), dtype=bool)
    for b in range(B):
        for i in range(n_target):
            for j in range(n_target):
                self_mask[b, 0, i, j] = (j <= i) and (j < int(target_lengths[b]))
            for j in range(n_source):
                cross_mask[b, 0, i, j] = j < int(source_lengths[b])
    return [self_mask, cross_mask]
'''},
    {"exercise": "decoder_masks", "kind": "wrong",
     "mistake": "Made the cross-attention mask causal too (bottom-right causal_mask(n_t, n_s) & "
                "source padding), so target queries cannot read later source tokens.",
     "teacher_says": "Only the self-attention is causal: the whole source sentence is known, so "
                     "every target query may read every real source token.",
     "code": '''
import numpy as np
import mha


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = mha.causal_mask(n_target, n_source) & mha.padding_mask(source_lengths, n_source)
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "wrong",
     "mistake": "Also hid the target's pad queries in the self-attention mask (pad rows set to "
                "False), although the statement says a pad query is treated as a real one.",
     "teacher_says": "Padding hides keys, not queries: leave the pad queries' rows causal.",
     "code": '''
import numpy as np
import mha


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t_pad = mha.padding_mask(target_lengths, n_target)  # (B, 1, 1, n_t)
    self_mask = mha.causal_mask(n_target) & t_pad & t_pad.swapaxes(-1, -2)
    s_pad = mha.padding_mask(source_lengths, n_source)
    cross_mask = np.broadcast_to(s_pad, (len(target_lengths), 1, n_target, n_source))
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "wrong",
     "mistake": "Swapped the lengths in the cross-attention mask: built the source padding from "
                "target_lengths, so the wrong source tokens are hidden.",
     "teacher_says": "The cross-attention keys are the source tokens: their pads come from "
                     "source_lengths.",
     "code": '''
import numpy as np


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t = np.asarray(target_lengths)
    causal = np.tril(np.ones((n_target, n_target), dtype=bool))
    t_real = (np.arange(n_target) < t[:, None])[:, None, None, :]
    self_mask = causal & t_real
    s_real = (np.arange(n_source) < t[:, None])[:, None, None, :]
    cross_mask = np.broadcast_to(s_real, (len(t), 1, n_target, n_source))
    return self_mask, cross_mask
'''},
    # ------------------------------------------------------------------ cross_attention_weights_shape
    {"exercise": "cross_attention_weights_shape", "kind": "correct",
     "idea": "(B, h, n_q, n_k) with the decoder's tokens as queries",
     "code": '''
B, h, n_q, n_k = 2, 4, 7, 11
cross_attention_weights_shape = (B, h, n_q, n_k)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "robustness",
     "idea": "right sizes, given as a list instead of the tuple the statement asks for",
     "code": '''
cross_attention_weights_shape = [2, 4, 7, 11]
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong",
     "mistake": "Swapped queries and keys: the rows were taken to be the encoder tokens.",
     "teacher_says": "The queries come from the decoder: one row per decoder token, one column "
                     "per encoder token.",
     "code": '''
cross_attention_weights_shape = (2, 4, 11, 7)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong",
     "mistake": "Gave nn.MultiheadAttention's default, averaged over heads, forgetting the heads "
                "axis that mha.multi_head_attention returns.",
     "teacher_says": "mha returns the weights per head: there is a heads axis after the batch.",
     "code": '''
cross_attention_weights_shape = (2, 7, 11)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong",
     "mistake": "Used the decoder length for the keys too, as in self-attention.",
     "teacher_says": "In cross-attention the keys are the encoder's 11 tokens.",
     "code": '''
cross_attention_weights_shape = (2, 4, 7, 7)
'''},
]

_WRITER_B = ANSWERS

ANSWERS = [
    # ------------------------------------------------------------------ causal_mask
    {"exercise": "causal_mask", "kind": "correct",
     "idea": "np.tri with the diagonal offset n_k - n_q",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    return np.tri(n_q, n_k, k=n_k - n_q, dtype=bool)
'''},
    {"exercise": "causal_mask", "kind": "robustness",
     "idea": "nested Python loops filling a list of lists, converted to a bool array",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = []
    for i in range(n_q):
        position = i + n_k - n_q
        row = []
        for j in range(n_k):
            row.append(j <= position)
        rows.append(row)
    return np.array(rows, dtype=bool).reshape(n_q, n_k)
'''},
    {"exercise": "causal_mask", "kind": "wrong",
     "mistake": "Uses np.tril on an (n_q, n_k) block of ones, which aligns the triangle top-left: wrong as soon as n_q != n_k.",
     "teacher_says": "With a KV cache the queries are the last n_q positions: shift the diagonal by n_k - n_q (np.tril's k argument).",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    return np.tril(np.ones((n_q, n_k), dtype=bool))
'''},
    {"exercise": "causal_mask", "kind": "wrong",
     "mistake": "Uses a strict comparison j < i + n_k - n_q, so each query may not attend its own position (the diagonal is missing, and query 0 gets no key at all).",
     "teacher_says": "Query i may attend keys 0 .. i + n_k - n_q inclusive: the comparison is <=.",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols < rows + (n_k - n_q)
'''},
    {"exercise": "causal_mask", "kind": "wrong",
     "mistake": "Gets the offset's sign wrong (n_q - n_k instead of n_k - n_q), so with a cache the new queries see too few keys.",
     "teacher_says": "Query i sits at position i + n_k - n_q (the last query at n_k - 1): check your formula on n_q = 1.",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols <= rows + (n_q - n_k)
'''},
    # ------------------------------------------------------------------ padding_mask
    {"exercise": "padding_mask", "kind": "correct",
     "idea": "broadcast comparison, then reshape to (B, 1, 1, n_k)",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths).reshape(-1)
    real = np.arange(n_k)[None, :] < lengths[:, None]
    return real.reshape(lengths.shape[0], 1, 1, n_k)
'''},
    {"exercise": "padding_mask", "kind": "robustness",
     "idea": "a Python loop over the sequences and the positions filling a preallocated bool array",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    lengths = list(lengths)
    mask = np.zeros((len(lengths), 1, 1, n_k), dtype=bool)
    for b, length in enumerate(lengths):
        for j in range(n_k):
            if j < length:
                mask[b, 0, 0, j] = True
    return mask
'''},
    {"exercise": "padding_mask", "kind": "wrong",
     "mistake": "Off by one: uses j <= length, so the first pad of each sequence counts as real.",
     "teacher_says": "A sequence of length L has real positions 0 .. L-1: the test is j < L.",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths)
    return (np.arange(n_k)[None, :] <= lengths[:, None])[:, None, None, :]
'''},
    {"exercise": "padding_mask", "kind": "wrong",
     "mistake": "Puts the key positions on the query axis, shape (B, 1, n_k, 1): this hides pad queries instead of pad keys.",
     "teacher_says": "Padding hides keys, the last axis of the scores: the result must be (B, 1, 1, n_k).",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths)
    real = np.arange(n_k)[None, :] < lengths[:, None]
    return real[:, None, :, None]
'''},
    {"exercise": "padding_mask", "kind": "wrong",
     "mistake": "Builds the comparison as (n_k, B) (positions down, sequences across) and then reshapes it to (B, 1, 1, n_k), which scrambles sequences and positions instead of transposing.",
     "teacher_says": "A reshape does not transpose: build the comparison as (B, n_k) with the lengths on the rows, or transpose before reshaping.",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths)
    real = np.arange(n_k)[:, None] < lengths[None, :]
    return real.reshape(len(lengths), 1, 1, n_k)
'''},
    # ------------------------------------------------------------------ masked_softmax
    {"exercise": "masked_softmax", "kind": "correct",
     "idea": "np.where to -inf, a max that is 0 on empty rows, and a denominator that is 1 on empty rows",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    allowed = np.broadcast_to(mask, scores.shape)
    s = np.where(allowed, scores, -np.inf)
    m = np.max(s, axis=-1, keepdims=True)
    m = np.where(np.isneginf(m), 0, m)
    e = np.exp(s - m)
    z = e.sum(axis=-1, keepdims=True)
    z = np.where(z == 0, 1, z)
    return (e / z).astype(scores.dtype, copy=False)
'''},
    {"exercise": "masked_softmax", "kind": "robustness",
     "idea": "row by row in a Python loop over np.ndindex, with math.exp on the allowed entries only",
     "code": '''
import math

import numpy as np


def masked_softmax(scores, mask):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(np.asarray(mask), scores.shape)
    out = np.zeros_like(scores)
    for idx in np.ndindex(*scores.shape[:-1]):
        row = scores[idx]
        keep = allowed[idx]
        values = [float(row[j]) for j in range(row.shape[0]) if keep[j]]
        if not values:
            continue
        top = max(values)
        exps = [math.exp(x - top) if keep[j] else 0.0 for j, x in enumerate(row.tolist())]
        total = sum(exps)
        out[idx] = [x / total for x in exps]
    return out
'''},
    {"exercise": "masked_softmax", "kind": "wrong",
     "mistake": "Fills forbidden scores with -1e9 instead of -inf, so a fully masked row gets the uniform weights 1/n_k instead of zeros.",
     "teacher_says": "A finite fill makes an all-masked row look like a row of equal scores; detect rows with no allowed key and give them zeros.",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    s = np.where(mask, scores, -1e9).astype(scores.dtype)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''},
    {"exercise": "masked_softmax", "kind": "wrong",
     "mistake": "Writes -inf into the caller's scores array in place (scores[~mask] = -inf); the weights are right but the input is changed.",
     "teacher_says": "The statement asks to leave the inputs unchanged: use np.where, or copy before writing.",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    forbidden = ~np.broadcast_to(mask, scores.shape)
    scores[forbidden] = -np.inf
    m = scores.max(axis=-1, keepdims=True)
    m[~np.isfinite(m)] = 0
    e = np.exp(scores - m)
    total = e.sum(axis=-1, keepdims=True)
    total[total == 0] = 1
    return e / total
'''},
    {"exercise": "masked_softmax", "kind": "wrong",
     "mistake": "Guards the row maximum against -inf but forgets the denominator: a fully masked row computes 0/0 and comes out NaN.",
     "teacher_says": "Both steps need a guard on empty rows: the max (so exp gives 0, not NaN) and the sum (so 0 is divided by 1).",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    s = np.where(mask, scores, -np.inf)
    m = s.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(s - m)
    with np.errstate(invalid="ignore"):
        return (e / e.sum(axis=-1, keepdims=True)).astype(scores.dtype)
'''},
    # ------------------------------------------------------------------ decoder_masks
    {"exercise": "decoder_masks", "kind": "correct",
     "idea": "causal AND target padding for the self mask; source padding broadcast to n_t rows for the cross mask",
     "code": '''
import numpy as np


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t_len = np.asarray(target_lengths).reshape(-1, 1, 1, 1)
    s_len = np.asarray(source_lengths).reshape(-1, 1, 1, 1)
    B = t_len.shape[0]
    qpos = np.arange(n_target).reshape(1, 1, -1, 1)
    tkey = np.arange(n_target).reshape(1, 1, 1, -1)
    skey = np.arange(n_source).reshape(1, 1, 1, -1)
    self_mask = (tkey <= qpos) & (tkey < t_len)
    cross_mask = np.broadcast_to(skey < s_len, (B, 1, n_target, n_source))
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "robustness",
     "idea": "triple Python loops filling two fresh bool arrays element by element",
     "code": '''
import numpy as np


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t_len = [int(x) for x in target_lengths]
    s_len = [int(x) for x in source_lengths]
    B = len(t_len)
    self_mask = np.zeros((B, 1, n_target, n_target), dtype=bool)
    cross_mask = np.zeros((B, 1, n_target, n_source), dtype=bool)
    for b in range(B):
        for i in range(n_target):
            for j in range(n_target):
                self_mask[b, 0, i, j] = (j <= i) and (j < t_len[b])
            for j in range(n_source):
                cross_mask[b, 0, i, j] = j < s_len[b]
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "wrong",
     "mistake": "Makes the cross-attention mask causal too (bottom-right causal_mask(n_t, n_s) AND source padding), so target queries cannot read later source tokens.",
     "teacher_says": "Only the self-attention reads the future of the target; the source sentence is entirely known, so cross-attention is not causal.",
     "code": '''
import numpy as np
import mha


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = mha.causal_mask(n_target, n_source) & mha.padding_mask(
        source_lengths, n_source
    )
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "wrong",
     "mistake": "Blanks the pad queries' rows too (ANDs the target padding on the query axis as well), although the statement says a pad query is treated like a real one.",
     "teacher_says": "Padding hides keys, not queries: leave the pad queries' rows as the causal mask gives them.",
     "code": '''
import numpy as np


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t = np.arange(n_target)[None, :] < np.asarray(target_lengths)[:, None]  # (B, n_t)
    s = np.arange(n_source)[None, :] < np.asarray(source_lengths)[:, None]  # (B, n_s)
    causal = np.tril(np.ones((n_target, n_target), dtype=bool))
    self_mask = causal & t[:, None, None, :] & t[:, None, :, None]
    cross_mask = s[:, None, None, :] & t[:, None, :, None]
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "wrong",
     "mistake": "Copy-pasted the padding line for the cross mask and kept target_lengths: the source keys are hidden according to the target's lengths.",
     "teacher_says": "The cross-attention's keys are the source tokens: their padding comes from source_lengths.",
     "code": '''
import numpy as np


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    causal = np.tril(np.ones((n_target, n_target), dtype=bool))
    self_pad = (np.arange(n_target) < np.asarray(target_lengths)[:, None])[:, None, None, :]
    cross_pad = (np.arange(n_source) < np.asarray(target_lengths)[:, None])[:, None, None, :]
    self_mask = causal & self_pad
    cross_mask = np.broadcast_to(cross_pad, (B, 1, n_target, n_source))
    return self_mask, cross_mask
'''},
    # ------------------------------------------------------------------ cross_attention_weights_shape
    {"exercise": "cross_attention_weights_shape", "kind": "correct",
     "idea": "(B, h, n_q, n_k)",
     "code": '''
B, h, n_q, n_k = 2, 4, 7, 11
cross_attention_weights_shape = (B, h, n_q, n_k)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "robustness",
     "idea": "the right numbers as a list instead of a tuple",
     "code": '''
cross_attention_weights_shape = [2, 4, 7, 11]
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong",
     "mistake": "Swaps the query and key axes: a row per key and a column per query.",
     "teacher_says": "The weights have a row per query (the 7 decoder tokens) and a column per key (the 11 encoder tokens).",
     "code": '''
cross_attention_weights_shape = (2, 4, 11, 7)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong",
     "mistake": "Leaves out the heads axis, as if the weights were averaged over heads as nn.MultiheadAttention does by default.",
     "teacher_says": "mha.multi_head_attention returns one weight matrix per head: (B, h, n_q, n_k).",
     "code": '''
cross_attention_weights_shape = (2, 7, 11)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong",
     "mistake": "Uses the decoder length for the keys too, as in self-attention.",
     "teacher_says": "In cross-attention the keys are the encoder's 11 tokens, so n_k = 11, not 7.",
     "code": '''
cross_attention_weights_shape = (2, 4, 7, 7)
'''},
]

_WRITER_F = ANSWERS
ANSWERS = _WRITER_B + _WRITER_F
