# writer B's answers, then writer F's (each file verbatim)
"""Writer B, chapter 5 (masks): 1 correct + 3 wrong answers each."""

ANSWERS = [
    # ------------------------------------------------------------------ causal_mask
    {"exercise": "causal_mask", "kind": "correct",
     "idea": "np.tril of a boolean ones array with the diagonal offset n_k - n_q",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)
'''},
    {"exercise": "causal_mask", "kind": "wrong",
     "mistake": "Aligns the triangle top-left (plain lower triangle of the (n_q, n_k) grid), "
                "like SDPA's is_causal, so with n_q < n_k the new queries cannot see most "
                "of the cached keys.",
     "teacher_says": "The queries are the last n_q positions: query i sits at i + n_k - n_q, so "
                     "the diagonal must be shifted by n_k - n_q.",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols <= rows
'''},
    {"exercise": "causal_mask", "kind": "wrong",
     "mistake": "Uses a strict comparison j < i + n_k - n_q, which forbids each query from "
                "attending its own position (the diagonal).",
     "teacher_says": "A token may read itself: keys 0..i+n_k-n_q inclusive, so use <=.",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols < rows + (n_k - n_q)
'''},
    {"exercise": "causal_mask", "kind": "wrong",
     "mistake": "Builds the triangle with np.tri, which returns a float array of 0.0/1.0 "
                "instead of a boolean mask.",
     "teacher_says": "The masks are boolean (np.where(mask, ...) reads 1.0 and 0.0 differently "
                     "from True/False in indexing): add dtype=bool.",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    return np.tri(n_q, n_k, k=n_k - n_q)
'''},
    # ------------------------------------------------------------------ padding_mask
    {"exercise": "padding_mask", "kind": "correct",
     "idea": "compare positions to lengths reshaped as a column, then reshape to (B, 1, 1, n_k)",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths).reshape(-1, 1)  # (B, 1)
    real = np.arange(n_k) < lengths  # (B, n_k)
    return real.reshape(real.shape[0], 1, 1, n_k)
'''},
    {"exercise": "padding_mask", "kind": "wrong",
     "mistake": "Uses j <= length instead of j < length, so the first pad of every padded "
                "sequence is marked as a real key.",
     "teacher_says": "With length L the real keys are positions 0..L-1: the comparison is strict.",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths)
    mask = np.arange(n_k)[None, :] <= lengths[:, None]
    return mask[:, None, None, :]
'''},
    {"exercise": "padding_mask", "kind": "wrong",
     "mistake": "Puts the singleton axes on the wrong side, (B, 1, n_k, 1), which masks "
                "queries instead of keys.",
     "teacher_says": "Padding hides keys: the key axis is the last one, so the shape is "
                     "(B, 1, 1, n_k).",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths)
    mask = np.arange(n_k)[None, :] < lengths[:, None]
    return mask[:, None, :, None]
'''},
    {"exercise": "padding_mask", "kind": "wrong",
     "mistake": "Marks the pads with True (j >= length), the nn.MultiheadAttention polarity, "
                "instead of the real keys.",
     "teacher_says": "In this book True means may attend: the real keys are True, the pads False.",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths)
    pads = np.arange(n_k)[None, :] >= lengths[:, None]
    return pads[:, None, None, :]
'''},
    # ------------------------------------------------------------------ masked_softmax
    {"exercise": "masked_softmax", "kind": "correct",
     "idea": "-inf fill, row max replaced by 0 where not finite, exp zeroed outside the mask, "
             "division by the row sum where it is positive",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    allowed = np.broadcast_to(mask, scores.shape)
    filled = np.where(allowed, scores, -np.inf)
    top = filled.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.where(allowed, np.exp(filled - top), 0)
    total = e.sum(axis=-1, keepdims=True)
    safe = np.where(total > 0, total, 1)
    return (e / safe).astype(scores.dtype, copy=False)
'''},
    {"exercise": "masked_softmax", "kind": "wrong",
     "mistake": "Fills the forbidden scores with -1e9 instead of -inf; a fully masked row "
                "then gets uniform weights 1/n_k instead of zeros.",
     "teacher_says": "The statement asks for zeros in a row with no allowed key: detect those "
                     "rows (no True along the last axis) rather than relying on a big negative.",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    filled = np.where(mask, scores, -1e9)
    e = np.exp(filled - filled.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(scores.dtype)
'''},
    {"exercise": "masked_softmax", "kind": "wrong",
     "mistake": "Guards the division against a zero row sum but subtracts the raw row max, "
                "which is -inf in a fully masked row: -inf - (-inf) = NaN, so those rows "
                "come out NaN.",
     "teacher_says": "Replace a non-finite row max by 0 before subtracting it; the NaN appears "
                     "before the division ever happens.",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    filled = np.where(mask, scores, -np.inf)
    with np.errstate(invalid="ignore"):
        e = np.exp(filled - filled.max(axis=-1, keepdims=True))
    total = e.sum(axis=-1, keepdims=True)
    total = np.where(total == 0, 1, total)
    return (e / total).astype(scores.dtype)
'''},
    {"exercise": "masked_softmax", "kind": "wrong",
     "mistake": "Normalises by the sum over axis -2 (the queries) instead of axis -1 (the "
                "keys), so the query rows do not sum to 1.",
     "teacher_says": "Each query's weights are a distribution over the keys: reduce over the "
                     "last axis.",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    filled = np.where(mask, scores, -np.inf)
    top = filled.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(filled - top)
    total = e.sum(axis=-2, keepdims=True)
    return (e / np.where(total > 0, total, 1)).astype(scores.dtype)
'''},
    # ------------------------------------------------------------------ decoder_masks
    {"exercise": "decoder_masks", "kind": "correct",
     "idea": "self = causal triangle AND target key padding (broadcast to (B,1,n_t,n_t)); "
             "cross = source key padding broadcast to (B,1,n_t,n_s), no causality",
     "code": '''
import numpy as np


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t_len = np.asarray(target_lengths).reshape(-1, 1, 1, 1)
    s_len = np.asarray(source_lengths).reshape(-1, 1, 1, 1)
    q_pos = np.arange(n_target).reshape(1, 1, -1, 1)
    t_key = np.arange(n_target).reshape(1, 1, 1, -1)
    s_key = np.arange(n_source).reshape(1, 1, 1, -1)
    self_mask = (t_key <= q_pos) & (t_key < t_len)  # (B, 1, n_t, n_t)
    cross = s_key < s_len  # (B, 1, 1, n_s)
    cross_mask = np.broadcast_to(cross, (cross.shape[0], 1, n_target, n_source))
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "wrong",
     "mistake": "Makes the cross-attention mask causal too (a bottom-right causal_mask(n_t, n_s) "
                "AND the source padding), so early target queries cannot read the later "
                "source tokens.",
     "teacher_says": "Only the decoder's self-attention is causal: the whole source sentence "
                     "is known, so every target query may read every real source token.",
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
     "mistake": "Builds the self-attention padding from source_lengths instead of "
                "target_lengths (the two length arguments swapped in one line).",
     "teacher_says": "The self-attention's keys are target tokens, so their pads come from the "
                     "target lengths.",
     "code": '''
import numpy as np


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    rows = np.arange(n_target)[:, None]
    cols = np.arange(n_target)[None, :]
    causal = cols <= rows
    t_keys = np.arange(n_target) < np.asarray(source_lengths)[:, None]
    s_keys = np.arange(n_source) < np.asarray(source_lengths)[:, None]
    self_mask = causal & t_keys[:, None, None, :]
    B = s_keys.shape[0]
    cross_mask = np.broadcast_to(s_keys[:, None, None, :], (B, 1, n_target, n_source))
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "wrong",
     "mistake": "Also blanks the rows of the target's pad queries in the self-attention mask "
                "(padding on queries AND keys), which the statement says not to do.",
     "teacher_says": "Padding hides keys, not queries: a pad query keeps its causal row.",
     "code": '''
import numpy as np


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t_real = np.arange(n_target) < np.asarray(target_lengths)[:, None]  # (B, n_t)
    s_real = np.arange(n_source) < np.asarray(source_lengths)[:, None]  # (B, n_s)
    causal = np.tril(np.ones((n_target, n_target), dtype=bool))
    self_mask = causal & t_real[:, None, None, :] & t_real[:, None, :, None]
    cross_mask = np.broadcast_to(
        s_real[:, None, None, :], (s_real.shape[0], 1, n_target, n_source)
    )
    return self_mask, cross_mask
'''},
    # ------------------------------------------------------------------ cross_attention_weights_shape
    {"exercise": "cross_attention_weights_shape", "kind": "correct",
     "idea": "(B, h, n_q, n_k) with the decoder's 7 queries and the encoder's 11 keys",
     "code": '''
B, h, n_q, n_k = 2, 4, 7, 11
cross_attention_weights_shape = (B, h, n_q, n_k)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong",
     "mistake": "Swaps the two sequence lengths: rows per encoder token and columns per "
                "decoder token.",
     "teacher_says": "In cross-attention the queries are the decoder's tokens: one row per "
                     "query (7), one column per key (11).",
     "code": '''
cross_attention_weights_shape = (2, 4, 11, 7)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong",
     "mistake": "Leaves out the heads axis, as if the weights were averaged over heads like "
                "nn.MultiheadAttention's default.",
     "teacher_says": "mha.multi_head_attention returns per-head weights: (B, h, n_q, n_k).",
     "code": '''
cross_attention_weights_shape = (2, 7, 11)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong",
     "mistake": "Puts the heads axis after the queries, (B, n_q, h, n_k), the layout of the "
                "projected features before split_heads transposes them.",
     "teacher_says": "The heads axis comes before the query axis: (..., h, n_q, n_k).",
     "code": '''
cross_attention_weights_shape = (2, 7, 4, 11)
'''},
]

_WRITER_B = ANSWERS

"""Student answers for chapter 5 (masks). Writer F."""

ANSWERS = [
    # ------------------------------------------------------------------ causal_mask
    {"exercise": "causal_mask", "kind": "correct",
     "idea": "np.tril with the diagonal offset n_k - n_q",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)
'''},
    {"exercise": "causal_mask", "kind": "robustness",
     "idea": "nested list comprehension over every (query, key) pair, turned into a bool array",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    offset = n_k - n_q
    rows = [[j <= i + offset for j in range(n_k)] for i in range(n_q)]
    return np.array(rows, dtype=bool).reshape(n_q, n_k)
'''},
    {"exercise": "causal_mask", "kind": "wrong",
     "mistake": "Uses a plain lower triangle, aligned top-left, so with n_q != n_k the queries "
                "do not sit at the last positions.",
     "teacher_says": "With a KV cache the queries are the last n_q positions: shift the triangle "
                     "by n_k - n_q (bottom-right).",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool))
'''},
    {"exercise": "causal_mask", "kind": "wrong",
     "mistake": "Uses a strict comparison, so a query may not attend its own position (diagonal excluded).",
     "teacher_says": "Query i may attend keys 0..i inclusive: the diagonal belongs to the mask, use <=.",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols < rows + (n_k - n_q)
'''},
    {"exercise": "causal_mask", "kind": "wrong",
     "mistake": "Shifts the triangle by n_q - n_k instead of n_k - n_q (offset sign flipped).",
     "teacher_says": "Query i sits at position i + n_k - n_q; check with n_q=1, which must see every key.",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols <= rows + (n_q - n_k)
'''},
    # ------------------------------------------------------------------ padding_mask
    {"exercise": "padding_mask", "kind": "correct",
     "idea": "compare positions with lengths by broadcasting, then reshape to (B, 1, 1, n_k)",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths).reshape(-1)
    real = np.arange(n_k) < lengths[:, np.newaxis]  # (B, n_k)
    return real.reshape(len(lengths), 1, 1, n_k)
'''},
    {"exercise": "padding_mask", "kind": "robustness",
     "idea": "fills a zeros array element by element in Python loops",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    lengths = list(lengths)
    out = np.zeros((len(lengths), 1, 1, n_k), dtype=bool)
    for b, length in enumerate(lengths):
        for j in range(n_k):
            if j < length:
                out[b, 0, 0, j] = True
    return out
'''},
    {"exercise": "padding_mask", "kind": "wrong",
     "mistake": "Writes j <= lengths[b], so the first pad of each padded sequence counts as real.",
     "teacher_says": "Positions 0..length-1 are real: the test is j < length.",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths)
    return (np.arange(n_k)[None, :] <= lengths[:, None])[:, None, None, :]
'''},
    {"exercise": "padding_mask", "kind": "wrong",
     "mistake": "Puts the positions on the queries axis, shape (B, 1, n_k, 1), which masks "
                "padded queries instead of padded keys.",
     "teacher_says": "Padding hides keys: the mask's last axis is the keys axis, (B, 1, 1, n_k).",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths)
    return (np.arange(n_k)[None, :] < lengths[:, None])[:, None, :, None]
'''},
    {"exercise": "padding_mask", "kind": "wrong",
     "mistake": "Marks the pads with True (nn.MultiheadAttention's polarity) instead of the real keys.",
     "teacher_says": "In this book True means may attend: the real tokens are True, the pads False.",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths)
    pads = np.arange(n_k)[None, :] >= lengths[:, None]
    return pads[:, None, None, :]
'''},
    # ------------------------------------------------------------------ masked_softmax
    {"exercise": "masked_softmax", "kind": "correct",
     "idea": "subtract the max over the allowed keys only (0 if none), exponentiate, zero the "
             "forbidden keys, divide by a guarded sum",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    mask = np.broadcast_to(mask, scores.shape)
    any_allowed = mask.any(axis=-1, keepdims=True)
    allowed_max = np.max(np.where(mask, scores, -np.inf), axis=-1, keepdims=True)
    shift = np.where(any_allowed, allowed_max, 0).astype(scores.dtype)
    e = np.where(mask, np.exp(np.where(mask, scores - shift, 0)), 0).astype(scores.dtype)
    denom = e.sum(axis=-1, keepdims=True)
    denom = np.where(denom > 0, denom, 1).astype(scores.dtype)
    return e / denom
'''},
    {"exercise": "masked_softmax", "kind": "robustness",
     "idea": "row by row in Python over np.ndindex, computing each row in float64 and casting back",
     "code": '''
import math

import numpy as np


def masked_softmax(scores, mask):
    mask = np.broadcast_to(mask, scores.shape)
    out = np.zeros(scores.shape, dtype=scores.dtype)
    for idx in np.ndindex(*scores.shape[:-1]):
        row = [float(s) for s in scores[idx]]
        allowed = [bool(m) for m in mask[idx]]
        if not any(allowed):
            continue
        top = max(s for s, a in zip(row, allowed) if a)
        e = [math.exp(s - top) if a else 0.0 for s, a in zip(row, allowed)]
        total = sum(e)
        out[idx] = np.array([x / total for x in e], dtype=np.float64)
    return out
'''},
    {"exercise": "masked_softmax", "kind": "wrong",
     "mistake": "Fills forbidden scores with -1e9 instead of -inf, so a row with no allowed key "
                "gets uniform weights 1/n_k.",
     "teacher_says": "The statement asks for zeros in a fully masked row, which a finite fill can never give.",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    s = np.where(mask, scores, -1e9)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return (e / e.sum(axis=-1, keepdims=True)).astype(scores.dtype)
'''},
    {"exercise": "masked_softmax", "kind": "wrong",
     "mistake": "Fills with -inf and runs the plain stable softmax: a fully masked row computes "
                "-inf - (-inf) and becomes NaN.",
     "teacher_says": "Guard the rows that have no allowed key: subtract 0 instead of -inf and "
                     "divide by 1 instead of 0.",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    s = np.where(mask, scores, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''},
    {"exercise": "masked_softmax", "kind": "wrong",
     "mistake": "Writes -inf into the caller's scores array in place before the softmax, so the "
                "input is changed (and a broadcast mask of another shape fails).",
     "teacher_says": "Leave the inputs unchanged: build the masked scores with np.where in a new array.",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    scores[~np.broadcast_to(mask, scores.shape)] = -np.inf
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    return e / np.where(total > 0, total, 1)
'''},
    # ------------------------------------------------------------------ decoder_masks
    {"exercise": "decoder_masks", "kind": "correct",
     "idea": "mha's causal and padding masks ANDed for the decoder's self-attention; the "
             "source padding mask broadcast over the target queries for cross-attention",
     "code": '''
import numpy as np
import mha


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    tgt_pad = mha.padding_mask(np.asarray(target_lengths), n_target)   # (B, 1, 1, n_t)
    src_pad = mha.padding_mask(np.asarray(source_lengths), n_source)   # (B, 1, 1, n_s)
    self_mask = mha.causal_mask(n_target) & tgt_pad                    # (B, 1, n_t, n_t)
    B = src_pad.shape[0]
    cross_mask = np.broadcast_to(src_pad, (B, 1, n_target, n_source))
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "robustness",
     "idea": "fills both full-size masks element by element in four nested loops",
     "code": '''
import numpy as np


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    tl = [int(x) for x in target_lengths]
    sl = [int(x) for x in source_lengths]
    B = len(tl)
    self_mask = np.zeros((B, 1, n_target, n_target), dtype=bool)
    cross_mask = np.zeros((B, 1, n_target, n_source), dtype=bool)
    for b in range(B):
        for i in range(n_target):
            for j in range(n_target):
                self_mask[b, 0, i, j] = (j <= i) and (j < tl[b])
            for j in range(n_source):
                cross_mask[b, 0, i, j] = j < sl[b]
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "wrong",
     "mistake": "Makes the cross-attention causal too (a bottom-right causal mask of shape "
                "(n_t, n_s) ANDed with the source padding).",
     "teacher_says": "Only the self-attention is causal: every target query may read every real source token.",
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
     "mistake": "Also blanks the pad queries' rows of the self-attention mask (pads on both axes), "
                "which the statement says not to do.",
     "teacher_says": "Padding hides keys, not queries: a pad query keeps its causal row.",
     "code": '''
import numpy as np
import mha


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    tgt = mha.padding_mask(target_lengths, n_target)               # (B, 1, 1, n_t)
    self_mask = mha.causal_mask(n_target) & tgt & tgt.swapaxes(-1, -2)
    src = mha.padding_mask(source_lengths, n_source)
    cross_mask = np.broadcast_to(src, (src.shape[0], 1, n_target, n_source))
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "wrong",
     "mistake": "Mixed up the two lengths: the self-attention's padding uses the source lengths "
                "and the cross-attention's uses the target lengths.",
     "teacher_says": "The keys of self-attention are target tokens, those of cross-attention "
                     "source tokens: each padding mask uses its own keys' lengths.",
     "code": '''
import numpy as np


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t = np.asarray(source_lengths)
    s = np.asarray(target_lengths)
    causal = np.tril(np.ones((n_target, n_target), dtype=bool))
    self_pad = (np.arange(n_target) < t[:, None])[:, None, None, :]
    cross_pad = (np.arange(n_source) < s[:, None])[:, None, None, :]
    self_mask = causal & self_pad
    cross_mask = np.broadcast_to(cross_pad, (len(s), 1, n_target, n_source))
    return self_mask, cross_mask
'''},
    # ------------------------------------------------------------------ cross_attention_weights_shape
    {"exercise": "cross_attention_weights_shape", "kind": "correct",
     "idea": "(batch, heads, n_q, n_k) written from the named sizes",
     "code": '''
batch, heads, n_q, n_k = 2, 4, 7, 11
cross_attention_weights_shape = (batch, heads, n_q, n_k)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "robustness",
     "idea": "the right numbers, but as a list instead of a tuple",
     "code": '''
cross_attention_weights_shape = [2, 4, 7, 11]
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong",
     "mistake": "Swaps the query and key axes: one row per encoder token.",
     "teacher_says": "The rows are the queries (the 7 decoder tokens), the columns the 11 keys.",
     "code": '''
cross_attention_weights_shape = (2, 4, 11, 7)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong",
     "mistake": "Gives the head-averaged shape that nn.MultiheadAttention returns by default.",
     "teacher_says": "mha.multi_head_attention returns the weights per head, with a heads axis.",
     "code": '''
cross_attention_weights_shape = (2, 7, 11)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong",
     "mistake": "Puts the heads axis after the queries, like the projected (B, n, h, d) layout before the transpose.",
     "teacher_says": "The heads axis comes before the query and key axes: (..., h, n_q, n_k).",
     "code": '''
cross_attention_weights_shape = (2, 7, 4, 11)
'''},
]

_WRITER_F = ANSWERS
ANSWERS = _WRITER_B + _WRITER_F
