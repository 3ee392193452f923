# writer B's answers, then writer F's (each file verbatim)
"""Writer B, chapter 5: masks."""

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
     "idea": "nested Python loops over queries and keys building a list of lists, converted at the end",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = []
    for i in range(n_q):
        position = i + n_k - n_q
        rows.append([j <= position for j in range(n_k)])
    return np.array(rows, dtype=bool).reshape(n_q, n_k)
'''},
    {"exercise": "causal_mask", "kind": "wrong",
     "mistake": "Uses np.tril of a (n_q, n_k) block, which aligns the triangle top-left: right only when n_q == n_k.",
     "teacher_says": "With a KV cache the queries are the last n_q positions: shift the diagonal by n_k - n_q (bottom-right alignment).",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    return np.tril(np.ones((n_q, n_k), dtype=bool))
'''},
    {"exercise": "causal_mask", "kind": "wrong",
     "mistake": "Wrote a strict comparison j < i + n_k - n_q, so every query is kept from attending itself (the diagonal is dropped).",
     "teacher_says": "A token may read its own position: the condition is j <= i + n_k - n_q, diagonal included.",
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
     "mistake": "Forgot the default: n_k=None is never replaced by n_q, so causal_mask(n) fails.",
     "teacher_says": "The statement says n_k defaults to n_q: handle n_k is None before using it.",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols <= rows + (n_k - n_q)
'''},
    # ------------------------------------------------------------------ padding_mask
    {"exercise": "padding_mask", "kind": "correct",
     "idea": "compare lengths (as a column) with the key positions, then reshape to (B, 1, 1, n_k)",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths).reshape(-1, 1)
    real = lengths > np.arange(n_k)
    return real.reshape(len(lengths), 1, 1, n_k)
'''},
    {"exercise": "padding_mask", "kind": "robustness",
     "idea": "preallocated False array, a Python loop that sets the first lengths[b] keys to True",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    lengths = list(lengths)
    mask = np.zeros((len(lengths), 1, 1, n_k), dtype=bool)
    for b, length in enumerate(lengths):
        for j in range(int(length)):
            mask[b, 0, 0, j] = True
    return mask
'''},
    {"exercise": "padding_mask", "kind": "wrong",
     "mistake": "Off by one: used j <= lengths[b], so the first pad of every padded sequence counts as real.",
     "teacher_says": "Positions count from 0: a sequence of length L has real keys 0..L-1, so the test is j < L.",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] <= np.asarray(lengths)[:, None]
    return real[:, None, None, :]
'''},
    {"exercise": "padding_mask", "kind": "wrong",
     "mistake": "Put the singleton axes in the wrong place, (B, 1, n_k, 1): the mask now hides query rows instead of key columns.",
     "teacher_says": "Padding hides keys: the key axis is the last one, shape (B, 1, 1, n_k).",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]
    return real[:, None, :, None]
'''},
    {"exercise": "padding_mask", "kind": "wrong",
     "mistake": "Reversed the polarity (True at the pads, PyTorch nn.MultiheadAttention style).",
     "teacher_says": "This book's masks are True = may attend: the real keys must be True, the pads False.",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    pads = np.arange(n_k)[None, :] >= np.asarray(lengths)[:, None]
    return pads[:, None, None, :]
'''},
    # ------------------------------------------------------------------ masked_softmax
    {"exercise": "masked_softmax", "kind": "correct",
     "idea": "exponentiate only where allowed (np.exp with where=), row max over allowed scores, guarded division",
     "code": '''
import numpy as np

def masked_softmax(scores, mask):
    mask = np.broadcast_to(mask, scores.shape)
    filled = np.where(mask, scores, -np.inf)
    row_max = filled.max(axis=-1, keepdims=True)
    row_max = np.where(np.isneginf(row_max), 0, row_max)
    e = np.zeros_like(scores)
    np.exp(filled - row_max, out=e, where=mask)
    total = e.sum(axis=-1, keepdims=True)
    safe = np.where(total > 0, total, 1)
    return (e / safe).astype(scores.dtype)
'''},
    {"exercise": "masked_softmax", "kind": "robustness",
     "idea": "loop over every row with np.ndindex and do the softmax on the allowed entries only",
     "code": '''
import numpy as np

def masked_softmax(scores, mask):
    mask = np.broadcast_to(mask, scores.shape)
    out = np.zeros(scores.shape, dtype=scores.dtype)
    for idx in np.ndindex(*scores.shape[:-1]):
        row = scores[idx]
        allowed = mask[idx]
        if not allowed.any():
            continue
        vals = row[allowed]
        e = np.exp(vals - vals.max())
        out[idx + (allowed,)] = e / e.sum()
    return out
'''},
    {"exercise": "masked_softmax", "kind": "wrong",
     "mistake": "Filled the forbidden scores with -1e9 instead of -inf: fine for rows with an allowed key, but a fully masked row becomes uniform 1/n_k.",
     "teacher_says": "With every key at -1e9 the softmax is uniform; the statement asks for zeros on a row with no allowed key.",
     "code": '''
import numpy as np

def masked_softmax(scores, mask):
    filled = np.where(mask, scores, -1e9).astype(scores.dtype)
    e = np.exp(filled - filled.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''},
    {"exercise": "masked_softmax", "kind": "wrong",
     "mistake": "Normalised over axis -2 (the queries) instead of axis -1 (the keys), with the same guards for empty rows.",
     "teacher_says": "Each query's weights over the keys sum to 1: the softmax runs along the last axis.",
     "code": '''
import numpy as np

def masked_softmax(scores, mask):
    filled = np.where(mask, scores, -np.inf)
    m = filled.max(axis=-2, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(filled - m)
    s = e.sum(axis=-2, keepdims=True)
    return (e / np.where(s == 0, 1.0, s)).astype(scores.dtype)
'''},
    {"exercise": "masked_softmax", "kind": "wrong",
     "mistake": "Applied the mask after the softmax (weights * mask) without renormalising: forbidden keys are 0, but the allowed weights no longer sum to 1.",
     "teacher_says": "Mask the scores before the softmax; multiplying the weights by the mask leaves rows that sum to less than 1.",
     "code": '''
import numpy as np

def masked_softmax(scores, mask):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return (weights * mask).astype(scores.dtype)
'''},
    # ------------------------------------------------------------------ decoder_masks
    {"exercise": "decoder_masks", "kind": "correct",
     "idea": "pieces built by comparisons: causal & target key padding; source key padding broadcast over the target queries",
     "code": '''
import numpy as np

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t_len = np.asarray(target_lengths).reshape(-1, 1, 1, 1)
    s_len = np.asarray(source_lengths).reshape(-1, 1, 1, 1)
    i = np.arange(n_target).reshape(1, 1, -1, 1)      # query positions
    j_t = np.arange(n_target).reshape(1, 1, 1, -1)    # target key positions
    j_s = np.arange(n_source).reshape(1, 1, 1, -1)    # source key positions
    self_mask = (j_t <= i) & (j_t < t_len)
    cross_mask = np.broadcast_to(j_s < s_len, (s_len.shape[0], 1, n_target, n_source))
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "robustness",
     "idea": "both masks filled element by element in quadruple Python loops",
     "code": '''
import numpy as np

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t = [int(x) for x in target_lengths]
    s = [int(x) for x in source_lengths]
    B = len(t)
    self_mask = np.zeros((B, 1, n_target, n_target), dtype=bool)
    cross_mask = np.zeros((B, 1, n_target, n_source), dtype=bool)
    for b in range(B):
        for i in range(n_target):
            for j in range(n_target):
                self_mask[b, 0, i, j] = (j <= i) and (j < t[b])
            for j in range(n_source):
                cross_mask[b, 0, i, j] = j < s[b]
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "wrong",
     "mistake": "Made the cross-attention mask causal as well (causal_mask(n_target, n_source) & source padding).",
     "teacher_says": "Only the self-attention is causal; cross-attention may read every real source token, the whole source is known.",
     "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = mha.causal_mask(n_target, n_source) & mha.padding_mask(source_lengths, n_source)
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "wrong",
     "mistake": "Copy-paste slip: the self-attention padding uses source_lengths instead of target_lengths.",
     "teacher_says": "The self-attention keys are the target's tokens: their pads come from target_lengths.",
     "code": '''
import numpy as np

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    causal = np.tril(np.ones((n_target, n_target), dtype=bool))
    tgt_pad = (np.arange(n_target) < np.asarray(source_lengths)[:, None])[:, None, None, :]
    src_pad = (np.arange(n_source) < np.asarray(source_lengths)[:, None])[:, None, None, :]
    self_mask = causal & tgt_pad
    cross_mask = np.broadcast_to(src_pad, (src_pad.shape[0], 1, n_target, n_source))
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "wrong",
     "mistake": "Also blanked the pad queries' rows (ANDed with the padding mask transposed onto the query axis) in both masks.",
     "teacher_says": "Padding hides keys, not queries: the statement asks for a pad query's row to be the one a real query at that position would get.",
     "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    tgt = mha.padding_mask(target_lengths, n_target)          # (B, 1, 1, n_t)
    src = mha.padding_mask(source_lengths, n_source)          # (B, 1, 1, n_s)
    tgt_rows = np.swapaxes(tgt, -1, -2)                       # (B, 1, n_t, 1)
    self_mask = mha.causal_mask(n_target) & tgt & tgt_rows
    cross_mask = src & tgt_rows
    return self_mask, cross_mask
'''},
    # ------------------------------------------------------------------ cross_attention_weights_shape
    {"exercise": "cross_attention_weights_shape", "kind": "correct",
     "idea": "(B, h, n_q, n_k) written out",
     "code": '''
cross_attention_weights_shape = (2, 4, 7, 11)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "robustness",
     "idea": "a list instead of a tuple, obtained by running the layer",
     "code": '''
import numpy as np
import mha

_p = mha.init_params(8, 4)
_w = mha.multi_head_attention(np.zeros((2, 7, 8), np.float32), np.zeros((2, 11, 8), np.float32),
                              np.zeros((2, 11, 8), np.float32), _p)[1]
cross_attention_weights_shape = list(_w.shape)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong",
     "mistake": "Swapped the queries and keys axes: one row per encoder token.",
     "teacher_says": "The weights have a row per query (the 7 decoder tokens) and a column per key (the 11 encoder tokens).",
     "code": '''
cross_attention_weights_shape = (2, 4, 11, 7)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong",
     "mistake": "Forgot the heads axis (thinking of nn.MultiheadAttention's averaged weights).",
     "teacher_says": "mha.multi_head_attention returns per-head weights: (B, h, n_q, n_k).",
     "code": '''
cross_attention_weights_shape = (2, 7, 11)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong",
     "mistake": "Used the decoder length for both axes, as in self-attention.",
     "teacher_says": "In cross-attention the keys are the encoder's 11 tokens, so n_k = 11.",
     "code": '''
cross_attention_weights_shape = (2, 4, 7, 7)
'''},
]

_WRITER_B = ANSWERS

ANSWERS = [
 # ---------------------------------------------------------------- causal_mask
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
  "idea": "nested Python loops filling a boolean array one entry at a time",
  "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    out = np.zeros((n_q, n_k), dtype=bool)
    for i in range(n_q):
        pos = i + n_k - n_q
        for j in range(n_k):
            if j <= pos:
                out[i, j] = True
    return out
'''},
 {"exercise": "causal_mask", "kind": "wrong",
  "mistake": "Uses np.tril on an (n_q, n_k) block, which aligns the triangle top-left: with a KV cache the new queries see almost none of the cached keys.",
  "teacher_says": "The n_q queries are the last n_q positions, so the triangle must be shifted by n_k - n_q: query i may attend keys up to i + n_k - n_q.",
  "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool))
'''},
 {"exercise": "causal_mask", "kind": "wrong",
  "mistake": "Uses a strict comparison j < i + n_k - n_q, so a query may not attend its own position (the diagonal is dropped).",
  "teacher_says": "Query i may attend keys 0 .. i + n_k - n_q inclusive: the comparison is <=, the diagonal included.",
  "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols < rows + (n_k - n_q)
'''},
 {"exercise": "causal_mask", "kind": "wrong",
  "mistake": "Writes the offset as n_q - n_k instead of n_k - n_q, shifting the triangle the wrong way when n_q != n_k.",
  "teacher_says": "Query i sits at position i + n_k - n_q (later, not earlier, since the queries are the last ones): check with n_q = 1, which must see all n_k keys.",
  "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols <= rows + (n_q - n_k)
'''},
 # ---------------------------------------------------------------- padding_mask
 {"exercise": "padding_mask", "kind": "correct",
  "idea": "compare the lengths, already shaped (B,1,1,1), with the positions",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths).reshape(-1, 1, 1, 1)
    return np.arange(n_k) < lengths
'''},
 {"exercise": "padding_mask", "kind": "robustness",
  "idea": "builds nested Python lists of booleans and converts at the end",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    rows = []
    for length in list(lengths):
        rows.append([[[j < int(length) for j in range(n_k)]]])
    return np.array(rows, dtype=bool).reshape(len(rows), 1, 1, n_k)
'''},
 {"exercise": "padding_mask", "kind": "wrong",
  "mistake": "Puts the positions on the query axis, shape (B, 1, n_k, 1), so the pads' rows are blanked and the real queries still read the pads.",
  "teacher_says": "Padding hides keys, the last axis: the shape is (B, 1, 1, n_k).",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]
    return real[:, None, :, None]
'''},
 {"exercise": "padding_mask", "kind": "wrong",
  "mistake": "Uses j <= lengths[b], so the first pad of every sequence counts as a real key (off by one).",
  "teacher_says": "Positions start at 0: a length-L sequence has real keys 0..L-1, so the test is j < L.",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] <= np.asarray(lengths)[:, None]
    return real[:, None, None, :]
'''},
 {"exercise": "padding_mask", "kind": "wrong",
  "mistake": "Marks the pads with True (PyTorch's key_padding_mask polarity) instead of the real keys.",
  "teacher_says": "This book's masks are True = may attend: True at the real keys, j < length.",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    pads = np.arange(n_k)[None, :] >= np.asarray(lengths)[:, None]
    return pads[:, None, None, :]
'''},
 # ---------------------------------------------------------------- masked_softmax
 {"exercise": "masked_softmax", "kind": "correct",
  "idea": "fill with -inf, safe row max, and divide only where the row sum is positive",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    mask = np.broadcast_to(mask, scores.shape)
    filled = np.where(mask, scores, -np.inf)
    row_max = np.max(filled, axis=-1, keepdims=True)
    row_max[~np.isfinite(row_max)] = 0
    e = np.exp(filled - row_max)
    total = e.sum(axis=-1, keepdims=True)
    out = np.divide(e, total, out=np.zeros_like(e), where=total > 0)
    return out.astype(scores.dtype, copy=False)
'''},
 {"exercise": "masked_softmax", "kind": "robustness",
  "idea": "loops over every query row with np.ndindex, softmaxing only the allowed entries",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    mask = np.broadcast_to(mask, scores.shape)
    out = np.zeros_like(scores)
    for idx in np.ndindex(*scores.shape[:-1]):
        allowed = mask[idx]
        if not allowed.any():
            continue
        row = scores[idx][allowed].astype(np.float64)
        e = np.exp(row - row.max())
        out[idx + (allowed,)] = e / e.sum()
    return out
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "Fills the forbidden scores with -1e9 instead of -inf: finite, so no NaN, but a fully masked row gets uniform weights 1/n_k instead of zeros.",
  "teacher_says": "A large negative number is not -inf: when every key in a row is filled with it, the softmax spreads 1/n_k over them; detect rows with no allowed key and give them zeros.",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    filled = np.where(mask, scores, -1e9).astype(scores.dtype)
    e = np.exp(filled - filled.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "Normalises by the sum over axis -2 (over the queries) instead of axis -1 (over the keys), so the rows do not sum to 1.",
  "teacher_says": "The softmax runs over the keys of each query row: every reduction (max and sum) is over the last axis.",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    mask = np.broadcast_to(mask, scores.shape)
    filled = np.where(mask, scores, -np.inf)
    m = filled.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(filled - m)
    total = e.sum(axis=-2, keepdims=True)
    out = np.where(total > 0, e / np.where(total > 0, total, 1), 0)
    return out.astype(scores.dtype)
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "Writes -inf into the caller's scores array in place (np.copyto with where=) to save a copy; the weights are right but the input is changed.",
  "teacher_says": "The statement asks to leave the inputs unchanged: np.where returns a new array, use it instead of writing into scores.",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    mask = np.broadcast_to(mask, scores.shape)
    np.copyto(scores, -np.inf, where=~mask)
    m = scores.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(scores - m)
    total = e.sum(axis=-1, keepdims=True)
    return (e / np.where(total > 0, total, 1)).astype(scores.dtype)
'''},
 # ---------------------------------------------------------------- decoder_masks
 {"exercise": "decoder_masks", "kind": "correct",
  "idea": "target padding AND bottom-right causal for self-attention; source padding broadcast over the queries for cross-attention",
  "code": '''
import numpy as np

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t = np.asarray(target_lengths).reshape(-1, 1, 1, 1)
    s = np.asarray(source_lengths).reshape(-1, 1, 1, 1)
    pos_t = np.arange(n_target)
    causal = pos_t[None, :] <= pos_t[:, None]          # (n_t, n_t)
    self_mask = causal & (pos_t < t)                     # (B, 1, n_t, n_t)
    cross = np.arange(n_source) < s                      # (B, 1, 1, n_s)
    cross_mask = np.broadcast_to(cross, (cross.shape[0], 1, n_target, n_source))
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "robustness",
  "idea": "fills both masks entry by entry in Python loops, as arrays of their own",
  "code": '''
import numpy as np

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    tl, sl = list(target_lengths), list(source_lengths)
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
  "mistake": "Makes the cross-attention mask causal as well (causal_mask(n_t, n_s) AND source padding), so target queries cannot read later source tokens.",
  "teacher_says": "Only the self-attention is causal: the whole source sentence is known, so every target query may read every real source token.",
  "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = mha.causal_mask(n_target, n_source) & mha.padding_mask(source_lengths, n_source)
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong",
  "mistake": "Also hides the target's pad queries (ANDs the padding on the query axis too), blanking the pad rows of both masks.",
  "teacher_says": "Padding hides keys, not queries: the statement asks a pad query to be treated like a real one at its position.",
  "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t_keys = mha.padding_mask(target_lengths, n_target)     # (B,1,1,n_t)
    t_queries = t_keys.swapaxes(-1, -2)                       # (B,1,n_t,1)
    self_mask = mha.causal_mask(n_target) & t_keys & t_queries
    cross_mask = mha.padding_mask(source_lengths, n_source) & t_queries
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong",
  "mistake": "Swaps the two length arguments: the self-attention mask hides keys after source_lengths[b] and the cross-attention mask after target_lengths[b].",
  "teacher_says": "The self-attention's keys are target tokens, so their padding comes from target_lengths; the cross-attention's keys are source tokens.",
  "code": '''
import numpy as np

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    tl = np.asarray(source_lengths)[:, None, None, None]
    sl = np.asarray(target_lengths)[:, None, None, None]
    i = np.arange(n_target)
    self_mask = (i[None, :] <= i[:, None]) & (i < np.minimum(tl, n_target))
    cross = np.arange(n_source) < sl
    cross_mask = np.broadcast_to(cross, (cross.shape[0], 1, n_target, n_source))
    return self_mask, cross_mask
'''},
 # ---------------------------------------------------------------- cross_attention_weights_shape
 {"exercise": "cross_attention_weights_shape", "kind": "correct",
  "idea": "(B, h, n_q, n_k) with the decoder's tokens as queries",
  "code": '''
B, h, n_q, n_k = 2, 4, 7, 11
cross_attention_weights_shape = (B, h, n_q, n_k)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "robustness",
  "idea": "the right sizes as a list instead of a tuple",
  "code": '''
cross_attention_weights_shape = [2, 4, 7, 11]
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong",
  "mistake": "Swaps the query and key axes: a row per encoder token and a column per decoder token.",
  "teacher_says": "The decoder's tokens are the queries (rows) and the encoder's the keys (columns): (B, h, n_q, n_k) = (2, 4, 7, 11).",
  "code": '''
cross_attention_weights_shape = (2, 4, 11, 7)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong",
  "mistake": "Gives the head-averaged shape that nn.MultiheadAttention returns by default, dropping the heads axis.",
  "teacher_says": "mha.multi_head_attention returns the weights per head: there is a heads axis of size 4.",
  "code": '''
cross_attention_weights_shape = (2, 7, 11)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong",
  "mistake": "Uses the decoder length for both the queries and the keys, as in self-attention.",
  "teacher_says": "In cross-attention the keys are the encoder's 11 tokens, not the decoder's 7.",
  "code": '''
cross_attention_weights_shape = (2, 4, 7, 7)
'''},
]

_WRITER_F = ANSWERS
ANSWERS = _WRITER_B + _WRITER_F
