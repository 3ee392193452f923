# writer B's answers, then writer F's (each file verbatim)
"""Student answers for chapter 5 (masks), writer B."""

ANSWERS = [
    # ------------------------------------------------------------------ causal_mask
    {"exercise": "causal_mask", "kind": "correct",
     "idea": "np.tri with the diagonal offset n_k - n_q gives the bottom-right aligned triangle",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    return np.tri(n_q, n_k, k=n_k - n_q, dtype=bool)
'''},
    {"exercise": "causal_mask", "kind": "robustness",
     "idea": "a nested Python loop over queries and keys, building lists of booleans",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    rows = []
    for i in range(n_q):
        pos = i + n_k - n_q
        rows.append([j <= pos for j in range(n_k)])
    return np.array(rows, dtype=bool).reshape(n_q, n_k)
'''},
    {"exercise": "causal_mask", "kind": "wrong",
     "mistake": "Used np.tril on an (n_q, n_k) block of ones, which aligns the triangle top-left: right only when n_q == n_k.",
     "teacher_says": "The queries are the last n_q positions; shift the diagonal by n_k - n_q so the triangle sits in the bottom-right corner.",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool))
'''},
    {"exercise": "causal_mask", "kind": "wrong",
     "mistake": "Compared with a strict <, so every query is forbidden from attending its own position (the diagonal).",
     "teacher_says": "Query i may attend keys 0..i + n_k - n_q inclusive: the comparison is <=, diagonal included.",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols < rows + (n_k - n_q)
'''},
    {"exercise": "causal_mask", "kind": "wrong",
     "mistake": "Built the triangle with np.tril(np.ones(...), k=...) and returned it as it is: a float array of 0.0 and 1.0, not a boolean mask.",
     "teacher_says": "Ask np.ones for dtype=bool (or compare positions): a mask of floats is not the boolean mask asked for.",
     "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k)), k=n_k - n_q)
'''},
    # ------------------------------------------------------------------ padding_mask
    {"exercise": "padding_mask", "kind": "correct",
     "idea": "np.greater.outer(lengths, positions), then two singleton axes for heads and queries",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    real = np.greater.outer(np.asarray(lengths), np.arange(n_k))  # (B, n_k)
    return real[:, np.newaxis, np.newaxis, :]
'''},
    {"exercise": "padding_mask", "kind": "robustness",
     "idea": "preallocates a (B, 1, 1, n_k) boolean array and fills each sequence's real keys in a loop",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    lengths = list(lengths)
    out = np.zeros((len(lengths), 1, 1, n_k), dtype=bool)
    for b, length in enumerate(lengths):
        for j in range(int(length)):
            out[b, 0, 0, j] = True
    return out
'''},
    {"exercise": "padding_mask", "kind": "wrong",
     "mistake": "Compared with <= instead of <, so the key at index length (the first pad) counts as real.",
     "teacher_says": "With length L the real keys are 0..L-1: use j < L.",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] <= np.asarray(lengths)[:, None]
    return real[:, None, None, :]
'''},
    {"exercise": "padding_mask", "kind": "wrong",
     "mistake": "Put the positions on the queries' axis, giving shape (B, 1, n_k, 1): it masks pad queries instead of pad keys.",
     "teacher_says": "Padding hides keys: the positions go on the last axis, shape (B, 1, 1, n_k).",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]
    return real[:, None, :, None]
'''},
    {"exercise": "padding_mask", "kind": "wrong",
     "mistake": "Indexed lengths[:, None] directly, which fails when lengths is a plain Python list, as the statement allows.",
     "teacher_says": "lengths may be a list: convert it with np.asarray before indexing it like an array.",
     "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] < lengths[:, None]
    return real[:, None, None, :]
'''},
    # ------------------------------------------------------------------ masked_softmax
    {"exercise": "masked_softmax", "kind": "correct",
     "idea": "a row maximum over the allowed entries only (np.max with where=), exp of -inf for the forbidden, safe division",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    allowed = np.broadcast_to(mask, scores.shape)
    top = np.max(scores, axis=-1, keepdims=True, where=allowed, initial=-np.inf)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(np.where(allowed, scores - top, -np.inf))
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total > 0, total, 1)
    return weights.astype(scores.dtype, copy=False)
'''},
    {"exercise": "masked_softmax", "kind": "robustness",
     "idea": "flattens to rows and loops over them in Python, computing in float64, then casts back",
     "code": '''
import math

import numpy as np


def masked_softmax(scores, mask):
    allowed = np.broadcast_to(mask, scores.shape).reshape(-1, scores.shape[-1])
    flat = np.array(scores, dtype=np.float64).reshape(-1, scores.shape[-1])
    out = np.zeros_like(flat)
    for r in range(flat.shape[0]):
        keys = [j for j in range(flat.shape[1]) if allowed[r, j]]
        if not keys:
            continue
        top = max(flat[r, j] for j in keys)
        exps = {j: math.exp(flat[r, j] - top) for j in keys}
        total = sum(exps.values())
        for j, e in exps.items():
            out[r, j] = e / total
    return out.reshape(scores.shape).astype(scores.dtype)
'''},
    {"exercise": "masked_softmax", "kind": "wrong",
     "mistake": "Filled forbidden scores with -1e9 instead of -inf, so a fully masked row gets uniform weights 1/n_k instead of zeros.",
     "teacher_says": "A large negative number is not -inf when the whole row has it: treat rows with no allowed key separately so they get zeros.",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    s = np.where(mask, scores, -1e9).astype(scores.dtype)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''},
    {"exercise": "masked_softmax", "kind": "wrong",
     "mistake": "Wrote -inf into the caller's scores array in place (np.copyto with where=) before the softmax, so the input is changed.",
     "teacher_says": "The statement says leave the inputs unchanged: build a new array with np.where instead of writing into scores.",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    np.copyto(scores, -np.inf, where=~np.asarray(mask, dtype=bool))
    top = scores.max(axis=-1, keepdims=True)
    top[~np.isfinite(top)] = 0
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    total[total == 0] = 1
    return e / total
'''},
    {"exercise": "masked_softmax", "kind": "wrong",
     "mistake": "Converted the scores to float64 'for stability' and never converted back, so float32 scores give float64 weights.",
     "teacher_says": "The weights must have the scores' dtype: cast the result back with .astype(scores.dtype).",
     "code": '''
import numpy as np


def masked_softmax(scores, mask):
    s = np.where(mask, scores.astype(np.float64), -np.inf)
    top = s.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(s - top)
    total = e.sum(axis=-1, keepdims=True)
    return e / np.where(total == 0, 1.0, total)
'''},
    # ------------------------------------------------------------------ decoder_masks
    {"exercise": "decoder_masks", "kind": "correct",
     "idea": "position comparisons with broadcasting: causal & target-real for self-attention, source-real broadcast over queries for cross",
     "code": '''
import numpy as np


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t_len = np.asarray(target_lengths).reshape(-1, 1, 1, 1)
    s_len = np.asarray(source_lengths).reshape(-1, 1, 1, 1)
    i = np.arange(n_target).reshape(1, 1, -1, 1)   # query positions
    j = np.arange(n_target).reshape(1, 1, 1, -1)   # target key positions
    self_mask = (j <= i) & (j < t_len)              # (B, 1, n_t, n_t)
    s = np.arange(n_source).reshape(1, 1, 1, -1)
    cross = s < s_len                               # (B, 1, 1, n_s)
    cross_mask = np.broadcast_to(cross, (cross.shape[0], 1, n_target, n_source))
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "robustness",
     "idea": "fills both masks element by element in Python loops, and returns them as a list instead of a tuple",
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
    return [self_mask, cross_mask]
'''},
    {"exercise": "decoder_masks", "kind": "wrong",
     "mistake": "Made the cross-attention mask causal too (causal_mask(n_t, n_s) & source padding), so target queries cannot read later source words.",
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
     "mistake": "Also blanked the rows of the target's pad queries in the self-attention mask (padding on both axes), which the statement says not to do.",
     "teacher_says": "Padding hides keys, not queries: a pad query keeps its causal row, so do not AND in the padding on the query axis.",
     "code": '''
import numpy as np
import mha


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    pad_t = mha.padding_mask(target_lengths, n_target)          # (B, 1, 1, n_t)
    self_mask = mha.causal_mask(n_target) & pad_t & pad_t.swapaxes(-1, -2)
    pad_s = mha.padding_mask(source_lengths, n_source)
    cross_mask = np.broadcast_to(pad_s, (pad_s.shape[0], 1, n_target, n_source))
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "wrong",
     "mistake": "Copy-pasted the target line for the cross mask and left target_lengths in it: the source keys are masked with the target's lengths.",
     "teacher_says": "The cross-attention keys are the source's tokens, so their padding comes from source_lengths.",
     "code": '''
import numpy as np


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t = np.asarray(target_lengths)[:, None]
    pad_t = (np.arange(n_target)[None, :] < t)[:, None, None, :]
    causal = np.arange(n_target)[None, :] <= np.arange(n_target)[:, None]
    self_mask = causal & pad_t
    pad_s = (np.arange(n_source)[None, :] < t)[:, None, None, :]
    cross_mask = np.broadcast_to(pad_s, (pad_s.shape[0], 1, n_target, n_source))
    return self_mask, cross_mask
'''},
    # ------------------------------------------------------------------ cross_attention_weights_shape
    {"exercise": "cross_attention_weights_shape", "kind": "correct",
     "idea": "(B, h, n_q, n_k) with the decoder's 7 tokens as queries and the encoder's 11 as keys",
     "code": '''
B, h, n_q, n_k = 2, 4, 7, 11
cross_attention_weights_shape = (B, h, n_q, n_k)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "robustness",
     "idea": "the right shape as a list instead of a tuple",
     "code": '''
cross_attention_weights_shape = [2, 4, 7, 11]
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong",
     "mistake": "Swapped queries and keys: put the encoder's 11 tokens on the rows and the decoder's 7 on the columns.",
     "teacher_says": "The queries come from the decoder: one row per decoder token (7), one column per encoder key (11).",
     "code": '''
cross_attention_weights_shape = (2, 4, 11, 7)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong",
     "mistake": "Left out the heads axis, as nn.MultiheadAttention's default averaged weights would have it.",
     "teacher_says": "mha.multi_head_attention returns per-head weights: there is a heads axis of size 4.",
     "code": '''
cross_attention_weights_shape = (2, 7, 11)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong",
     "mistake": "Put the heads axis after the queries, (B, n_q, h, n_k), the layout before the heads are split out.",
     "teacher_says": "The heads axis comes right after the batch: (B, h, n_q, n_k).",
     "code": '''
cross_attention_weights_shape = (2, 7, 4, 11)
'''},
]

_WRITER_B = ANSWERS

"""Student answers for chapter 05 (masks). Writer F."""

ANSWERS = [
 # ---------------------------------------------------------------- causal_mask
 {"exercise": "causal_mask", "kind": "correct",
  "idea": "np.tri with the diagonal offset n_k - n_q gives the bottom-right triangle directly",
  "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    return np.tri(n_q, n_k, k=n_k - n_q, dtype=bool)
'''},
 {"exercise": "causal_mask", "kind": "robustness",
  "idea": "nested Python loops over a list of lists, converted to a bool array at the end",
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
  "mistake": "Uses np.tril on an (n_q, n_k) array, which aligns the triangle top-left (SDPA's is_causal), wrong when n_q != n_k.",
  "teacher_says": "With n_q < n_k the queries are the last positions: shift the diagonal by n_k - n_q (np.tril(..., k=n_k - n_q)).",
  "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool))
'''},
 {"exercise": "causal_mask", "kind": "wrong",
  "mistake": "Compares with a strict <, so a query may not attend its own position (the diagonal is masked, and query 0 gets no key).",
  "teacher_says": "Query i may attend keys 0..i + n_k - n_q inclusive: the comparison is <=.",
  "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols < rows + (n_k - n_q)
'''},
 {"exercise": "causal_mask", "kind": "wrong",
  "mistake": "Builds the PyTorch nn.MultiheadAttention mask, True above the diagonal (= may not attend), the opposite polarity.",
  "teacher_says": "This book's masks are True = may attend: the allowed keys are the lower triangle, not the strict upper one.",
  "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.triu(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q + 1)
'''},
 {"exercise": "causal_mask", "kind": "wrong",
  "mistake": "Right triangle, but np.tri's default dtype is float64: the mask is 0./1. floats, not booleans (and ~mask or np.where(mask, ...) then misbehave).",
  "teacher_says": "The statement asks for a boolean array: pass dtype=bool (or compare positions, which gives bools).",
  "code": '''
import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tri(n_q, n_k, k=n_k - n_q)
'''},
 # ---------------------------------------------------------------- padding_mask
 {"exercise": "padding_mask", "kind": "correct",
  "idea": "reshape the lengths to (B, 1, 1, 1) and compare with arange(n_k) by broadcasting",
  "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths).reshape(-1, 1, 1, 1)
    return np.arange(n_k) < lengths
'''},
 {"exercise": "padding_mask", "kind": "robustness",
  "idea": "a zero bool array filled sequence by sequence in a Python loop",
  "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    lengths = list(lengths)
    mask = np.zeros((len(lengths), 1, 1, n_k), dtype=bool)
    for b, length in enumerate(lengths):
        for j in range(n_k):
            mask[b, 0, 0, j] = j < length
    return mask
'''},
 {"exercise": "padding_mask", "kind": "wrong",
  "mistake": "Uses <= instead of <, so the first pad of every sequence counts as a real key (off by one).",
  "teacher_says": "Positions are counted from 0: a sequence of length L has real keys 0..L-1, so j < L.",
  "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] <= np.asarray(lengths)[:, None]
    return real[:, None, None, :]
'''},
 {"exercise": "padding_mask", "kind": "wrong",
  "mistake": "Returns the (B, n_k) mask, PyTorch's key_padding_mask shape, without the heads and queries axes; against (B, h, n_q, n_k) scores it broadcasts wrongly or fails.",
  "teacher_says": "Add the two singleton axes ([:, None, None, :]) so the mask broadcasts over heads and queries.",
  "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    return np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]
'''},
 {"exercise": "padding_mask", "kind": "wrong",
  "mistake": "Marks the pads with True (j >= length), the nn.MultiheadAttention key_padding_mask convention.",
  "teacher_says": "Here True means a real key that may be attended: j < lengths[b].",
  "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    pads = np.arange(n_k)[None, :] >= np.asarray(lengths)[:, None]
    return pads[:, None, None, :]
'''},
 {"exercise": "padding_mask", "kind": "wrong",
  "mistake": "Puts the key axis on the queries axis, shape (B, 1, n_k, 1): it masks padded queries and lets every real query read the pads.",
  "teacher_says": "Padding hides keys, the last axis: the mask is (B, 1, 1, n_k).",
  "code": '''
import numpy as np


def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]
    return real[:, None, :, None]
'''},
 # ---------------------------------------------------------------- masked_softmax
 {"exercise": "masked_softmax", "kind": "correct",
  "idea": "row max taken only over allowed keys (max with where=/initial=), forbidden exponent set to -inf, guarded division",
  "code": '''
import numpy as np


def masked_softmax(scores, mask):
    mask = np.broadcast_to(np.asarray(mask, dtype=bool), scores.shape)
    top = np.max(scores, axis=-1, keepdims=True, where=mask, initial=-np.inf)
    top = np.where(np.isfinite(top), top, 0).astype(scores.dtype)
    e = np.exp(np.where(mask, scores - top, -np.inf))
    total = e.sum(axis=-1, keepdims=True)
    return (e / np.where(total > 0, total, 1)).astype(scores.dtype, copy=False)
'''},
 {"exercise": "masked_softmax", "kind": "robustness",
  "idea": "row by row with np.ndindex and Python lists of the allowed positions (slow, same numbers)",
  "code": '''
import numpy as np


def masked_softmax(scores, mask):
    full_mask = np.broadcast_to(np.asarray(mask, dtype=bool), scores.shape)
    out = np.zeros_like(scores)
    for idx in np.ndindex(*scores.shape[:-1]):
        row = scores[idx]
        allowed = [j for j in range(row.shape[0]) if full_mask[idx][j]]
        if not allowed:
            continue
        vals = row[allowed]
        e = np.exp(vals - vals.max())
        out[idx + (allowed,)] = e / e.sum()
    return out
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "Fills forbidden scores with -1e9 instead of -inf: no NaN, but a row with no allowed key gets uniform weights 1/n_k.",
  "teacher_says": "A fully masked row must get zeros: detect rows with no True in the mask and zero them, a finite fill cannot do it.",
  "code": '''
import numpy as np


def masked_softmax(scores, mask):
    s = np.where(mask, scores, -1e9).astype(scores.dtype)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "Takes the plain softmax of all the scores and then multiplies by the mask: forbidden keys get 0 but the allowed weights no longer sum to 1.",
  "teacher_says": "Mask the scores before the softmax, so the allowed keys share the whole weight of 1.",
  "code": '''
import numpy as np


def masked_softmax(scores, mask):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    return p * mask
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "Writes -inf into the forbidden scores in place (the masked_fill_ habit from PyTorch): the weights are right, but the caller's scores array is overwritten.",
  "teacher_says": "The statement says leave the inputs unchanged: use np.where, which makes a new array, instead of assigning into scores.",
  "code": '''
import numpy as np


def masked_softmax(scores, mask):
    np.copyto(scores, -np.inf, where=~np.asarray(mask, dtype=bool))
    top = scores.max(axis=-1, keepdims=True)
    top[~np.isfinite(top)] = 0
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    total[total == 0] = 1
    return e / total
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "Reads the mask with PyTorch nn.MultiheadAttention's polarity, putting -inf where the mask is True.",
  "teacher_says": "True means may attend: keep the scores where mask is True, np.where(mask, scores, -inf).",
  "code": '''
import numpy as np


def masked_softmax(scores, mask):
    s = np.where(mask, -np.inf, scores)
    top = s.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(s - top)
    total = e.sum(axis=-1, keepdims=True)
    return (e / np.where(total == 0, 1, total)).astype(scores.dtype)
'''},
 # ---------------------------------------------------------------- decoder_masks
 {"exercise": "decoder_masks", "kind": "correct",
  "idea": "position comparisons: target keys j <= i and j < target length; source keys j < source length, broadcast over the target queries",
  "code": '''
import numpy as np


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t_len = np.asarray(target_lengths).reshape(-1, 1, 1, 1)
    s_len = np.asarray(source_lengths).reshape(-1, 1, 1, 1)
    i = np.arange(n_target).reshape(1, 1, -1, 1)  # query positions
    j_t = np.arange(n_target).reshape(1, 1, 1, -1)  # target key positions
    j_s = np.arange(n_source).reshape(1, 1, 1, -1)  # source key positions
    self_mask = (j_t <= i) & (j_t < t_len)
    cross_mask = np.broadcast_to(j_s < s_len, (s_len.shape[0], 1, n_target, n_source))
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "robustness",
  "idea": "fills two dense bool arrays element by element in four nested loops",
  "code": '''
import numpy as np


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    target_lengths = [int(t) for t in target_lengths]
    source_lengths = [int(s) for s in source_lengths]
    B = len(target_lengths)
    self_mask = np.zeros((B, 1, n_target, n_target), dtype=bool)
    cross_mask = np.zeros((B, 1, n_target, n_source), dtype=bool)
    for b in range(B):
        for i in range(n_target):
            for j in range(n_target):
                self_mask[b, 0, i, j] = j <= i and j < target_lengths[b]
            for j in range(n_source):
                cross_mask[b, 0, i, j] = j < source_lengths[b]
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong",
  "mistake": "Makes the cross-attention mask causal too (causal_mask(n_t, n_s) & source padding), as if a target word could only read source words up to its own position.",
  "teacher_says": "Only the self-attention reads the target's own future; the whole source sentence is known, so cross-attention is not causal.",
  "code": '''
import numpy as np
import mha


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = mha.causal_mask(n_target, n_source) & mha.padding_mask(source_lengths, n_source)
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong",
  "mistake": "Also blanks the rows of the target's pad queries (padding applied to queries as well as keys), which the statement says not to do.",
  "teacher_says": "Padding hides keys only: a pad query keeps its causal row, so drop the query-side padding.",
  "code": '''
import numpy as np
import mha


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    key_pad = mha.padding_mask(target_lengths, n_target)  # (B, 1, 1, n_t)
    query_pad = key_pad.swapaxes(-1, -2)  # (B, 1, n_t, 1)
    self_mask = mha.causal_mask(n_target) & key_pad & query_pad
    src_pad = mha.padding_mask(source_lengths, n_source)
    cross_mask = np.broadcast_to(src_pad, (src_pad.shape[0], 1, n_target, n_source))
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong",
  "mistake": "Mixes up the two length arrays: the self-attention keys are padded with the source lengths and the cross-attention keys with the target lengths.",
  "teacher_says": "Ask whose tokens the keys are: the target's in self-attention, the source's in cross-attention.",
  "code": '''
import numpy as np


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    src = np.asarray(source_lengths)[:, None]
    tgt = np.asarray(target_lengths)[:, None]
    causal = np.tril(np.ones((n_target, n_target), dtype=bool))
    self_mask = causal & (np.arange(n_target) < src)[:, None, None, :]
    cross = (np.arange(n_source) < tgt)[:, None, None, :]
    cross_mask = np.broadcast_to(cross, (cross.shape[0], 1, n_target, n_source))
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong",
  "mistake": "Returns the source padding mask as it is, shape (B, 1, 1, n_s), for the cross-attention mask instead of the required (B, 1, n_t, n_s).",
  "teacher_says": "It broadcasts inside attention, but the statement asks for (B, 1, n_t, n_s): np.broadcast_to it.",
  "code": '''
import numpy as np
import mha


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.combine_masks(
        mha.causal_mask(n_target), mha.padding_mask(target_lengths, n_target)
    )
    cross_mask = mha.padding_mask(source_lengths, n_source)
    return self_mask, cross_mask
'''},
 # ---------------------------------------------------------------- cross_attention_weights_shape
 {"exercise": "cross_attention_weights_shape", "kind": "correct",
  "idea": "(batch, heads, target queries, source keys)",
  "code": '''
cross_attention_weights_shape = (2, 4, 7, 11)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "robustness",
  "idea": "the right numbers as a list instead of a tuple",
  "code": '''
cross_attention_weights_shape = [2, 4, 7, 11]
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong",
  "mistake": "Swaps the query and key axes: one row per encoder token.",
  "teacher_says": "The decoder's tokens are the queries (rows), the encoder's the keys (columns): (2, 4, 7, 11).",
  "code": '''
cross_attention_weights_shape = (2, 4, 11, 7)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong",
  "mistake": "Gives nn.MultiheadAttention's default, weights averaged over heads, (B, n_q, n_k).",
  "teacher_says": "mha.multi_head_attention returns one matrix per head: keep the heads axis.",
  "code": '''
cross_attention_weights_shape = (2, 7, 11)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong",
  "mistake": "Thinks of self-attention and uses the decoder length for the keys too.",
  "teacher_says": "In cross-attention the keys come from the encoder: 11 columns.",
  "code": '''
cross_attention_weights_shape = (2, 4, 7, 7)
'''},
]

_WRITER_F = ANSWERS
ANSWERS = _WRITER_B + _WRITER_F
