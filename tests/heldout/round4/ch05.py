ANSWERS = [
 {"exercise": "causal_mask", "kind": "correct", "idea": "broadcast comparison with offset", "code": '''
import numpy as np
def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    return np.arange(n_k)[None, :] <= np.arange(n_q)[:, None] + (n_k - n_q)
'''},
 {"exercise": "causal_mask", "kind": "correct", "idea": "np.tril with k offset", "code": '''
import numpy as np
def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)
'''},
 {"exercise": "causal_mask", "kind": "wrong", "mistake": "top-left aligned (no offset)", "teacher_says": "with n_q != n_k the queries are the last n_q positions: add n_k - n_q", "code": '''
import numpy as np
def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool))
'''},
 {"exercise": "causal_mask", "kind": "wrong", "mistake": "strict inequality: query cannot attend itself", "teacher_says": "query i may attend key i too: use <=", "code": '''
import numpy as np
def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.arange(n_k)[None, :] < np.arange(n_q)[:, None] + (n_k - n_q)
'''},
 {"exercise": "causal_mask", "kind": "wrong", "mistake": "upper triangle (future allowed, past forbidden)", "teacher_says": "True should be the lower triangle: keys at or before the query", "code": '''
import numpy as np
def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.triu(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)
'''},
 {"exercise": "causal_mask", "kind": "wrong", "mistake": "offset sign flipped (n_q - n_k)", "teacher_says": "query i sits at i + n_k - n_q; you shifted the other way", "code": '''
import numpy as np
def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_q - n_k)
'''},
 {"exercise": "causal_mask", "kind": "robustness", "idea": "returns an int 0/1 array instead of bool", "mistake": "dtype int", "teacher_says": "a mask is boolean", "code": '''
import numpy as np
def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=int), k=n_k - n_q)
'''},
 {"exercise": "causal_mask", "kind": "robustness", "idea": "returns a torch tensor", "mistake": "torch.tril", "teacher_says": "return a NumPy array", "code": '''
import torch
def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return torch.ones(n_q, n_k, dtype=torch.bool).tril(n_k - n_q)
'''},
 {"exercise": "padding_mask", "kind": "correct", "idea": "broadcast comparison then new axes", "code": '''
import numpy as np
def padding_mask(lengths, n_k):
    return (np.arange(n_k)[None, :] < np.asarray(lengths)[:, None])[:, None, None, :]
'''},
 {"exercise": "padding_mask", "kind": "correct", "idea": "loop filling a zeros array", "code": '''
import numpy as np
def padding_mask(lengths, n_k):
    lengths = list(lengths)
    m = np.zeros((len(lengths), 1, 1, n_k), dtype=bool)
    for b, L in enumerate(lengths):
        m[b, 0, 0, :int(L)] = True
    return m
'''},
 {"exercise": "padding_mask", "kind": "wrong", "mistake": "shape (B, n_k)", "teacher_says": "your mask has shape (B, n_k); it needs (B, 1, 1, n_k)", "code": '''
import numpy as np
def padding_mask(lengths, n_k):
    return np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]
'''},
 {"exercise": "padding_mask", "kind": "wrong", "mistake": "<= : one pad too many allowed", "teacher_says": "key j is real when j < length, not <=", "code": '''
import numpy as np
def padding_mask(lengths, n_k):
    return (np.arange(n_k)[None, :] <= np.asarray(lengths)[:, None])[:, None, None, :]
'''},
 {"exercise": "padding_mask", "kind": "wrong", "mistake": "padding assumed at the start (left padding)", "teacher_says": "the sequences are padded at the end: the first lengths[b] keys are real", "code": '''
import numpy as np
def padding_mask(lengths, n_k):
    return (np.arange(n_k)[None, :] >= n_k - np.asarray(lengths)[:, None])[:, None, None, :]
'''},
 {"exercise": "padding_mask", "kind": "wrong", "mistake": "queries axis instead of keys: (B, 1, n_k, 1)", "teacher_says": "padding hides keys, the last axis: (B, 1, 1, n_k)", "code": '''
import numpy as np
def padding_mask(lengths, n_k):
    return (np.arange(n_k)[None, :] < np.asarray(lengths)[:, None])[:, None, :, None]
'''},
 {"exercise": "padding_mask", "kind": "robustness", "idea": "fails on a plain Python list (uses lengths[:, None])", "mistake": "no np.asarray", "teacher_says": "lengths may be a list: convert it with np.asarray", "code": '''
import numpy as np
def padding_mask(lengths, n_k):
    return (np.arange(n_k)[None, :] < lengths[:, None])[:, None, None, :]
'''},
 {"exercise": "masked_softmax", "kind": "correct", "idea": "where -inf, finite max, safe division", "code": '''
import numpy as np
def masked_softmax(scores, mask):
    s = np.where(mask, scores, -np.inf)
    m = s.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(s - m)
    z = e.sum(axis=-1, keepdims=True)
    return (e / np.where(z > 0, z, 1)).astype(np.asarray(scores).dtype)
'''},
 {"exercise": "masked_softmax", "kind": "correct", "idea": "multiply exp by mask, max over allowed entries", "code": '''
import numpy as np
def masked_softmax(scores, mask):
    scores = np.asarray(scores)
    mk = np.broadcast_to(mask, scores.shape)
    lo = np.finfo(scores.dtype).min
    m = np.max(np.where(mk, scores, lo), axis=-1, keepdims=True)
    e = np.where(mk, np.exp(np.where(mk, scores - m, 0)), 0)
    z = e.sum(-1, keepdims=True)
    out = np.divide(e, z, out=np.zeros_like(e), where=z > 0)
    return out.astype(scores.dtype)
'''},
 {"exercise": "masked_softmax", "kind": "wrong", "mistake": "fills with -1e9: fully masked rows become uniform", "teacher_says": "a row with no allowed key must be all zeros, not 1/n_k", "code": '''
import numpy as np
def masked_softmax(scores, mask):
    s = np.where(mask, scores, -1e9)
    e = np.exp(s - s.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)).astype(np.asarray(scores).dtype)
'''},
 {"exercise": "masked_softmax", "kind": "wrong", "mistake": "softmax over all keys then zero the forbidden ones (no renormalisation)", "teacher_says": "the allowed weights must sum to 1: mask before the softmax, not after", "code": '''
import numpy as np
def masked_softmax(scores, mask):
    s = np.asarray(scores)
    e = np.exp(s - s.max(-1, keepdims=True))
    w = e / e.sum(-1, keepdims=True)
    return np.where(mask, w, 0).astype(s.dtype)
'''},
 {"exercise": "masked_softmax", "kind": "wrong", "mistake": "max taken over the unmasked scores: a big forbidden score underflows the allowed ones to 0", "teacher_says": "subtract the max of the allowed scores; a large forbidden score makes exp underflow and rows become 0", "code": '''
import numpy as np
def masked_softmax(scores, mask):
    s = np.asarray(scores)
    e = np.exp(s - s.max(-1, keepdims=True)) * mask
    z = e.sum(-1, keepdims=True)
    return (e / np.where(z > 0, z, 1)).astype(s.dtype)
'''},
 {"exercise": "masked_softmax", "kind": "wrong", "mistake": "nan_to_num after softmax: fully masked rows ok, but also mask polarity read as True = blocked", "teacher_says": "True means may attend", "code": '''
import numpy as np
def masked_softmax(scores, mask):
    s = np.where(mask, -np.inf, scores)
    with np.errstate(invalid="ignore"):
        e = np.exp(s - s.max(-1, keepdims=True))
        w = e / e.sum(-1, keepdims=True)
    return np.nan_to_num(w).astype(np.asarray(scores).dtype)
'''},
 {"exercise": "masked_softmax", "kind": "robustness", "idea": "writes -inf into the caller's scores in place", "mistake": "scores[~mask] = -inf", "teacher_says": "leave the inputs unchanged", "code": '''
import numpy as np
def masked_softmax(scores, mask):
    mk = np.broadcast_to(mask, scores.shape)
    scores[~mk] = -np.inf
    m = scores.max(-1, keepdims=True); m = np.where(np.isfinite(m), m, 0)
    e = np.exp(scores - m); z = e.sum(-1, keepdims=True)
    return e / np.where(z > 0, z, 1)
'''},
 {"exercise": "masked_softmax", "kind": "robustness", "idea": "NaN rows for fully masked queries", "mistake": "no guard", "teacher_says": "a fully masked row must be zeros, not NaN", "code": '''
import numpy as np
def masked_softmax(scores, mask):
    s = np.where(mask, scores, -np.inf)
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)
'''},
 {"exercise": "decoder_masks", "kind": "correct", "idea": "causal & target padding; source padding broadcast", "code": '''
import numpy as np
def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    tl = np.asarray(target_lengths); sl = np.asarray(source_lengths)
    causal = np.tril(np.ones((n_target, n_target), dtype=bool))
    tpad = (np.arange(n_target)[None, :] < tl[:, None])[:, None, None, :]
    spad = (np.arange(n_source)[None, :] < sl[:, None])[:, None, None, :]
    self_mask = causal & tpad
    cross = np.broadcast_to(spad, (len(tl), 1, n_target, n_source))
    return self_mask, cross
'''},
 {"exercise": "decoder_masks", "kind": "correct", "idea": "mha.causal_mask, mha.padding_mask, explicit loop-free copy", "code": '''
import numpy as np
import mha
def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross = mha.padding_mask(source_lengths, n_source) & np.ones((1, 1, n_target, 1), dtype=bool)
    return self_mask, cross
'''},
 {"exercise": "decoder_masks", "kind": "wrong", "mistake": "cross-attention made causal too", "teacher_says": "cross-attention reads the whole source: it is not causal", "code": '''
import numpy as np
import mha
def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross = mha.causal_mask(n_target, n_source) & mha.padding_mask(source_lengths, n_source)
    return self_mask, cross
'''},
 {"exercise": "decoder_masks", "kind": "wrong", "mistake": "pads the queries too (blanks pad query rows)", "teacher_says": "padding hides keys, not queries: pad queries keep their rows", "code": '''
import numpy as np
import mha
def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    tq = (np.arange(n_target)[None, :] < np.asarray(target_lengths)[:, None])[:, None, :, None]
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target) & tq
    cross = mha.padding_mask(source_lengths, n_source) & tq
    return self_mask, cross
'''},
 {"exercise": "decoder_masks", "kind": "wrong", "mistake": "cross mask uses target lengths", "teacher_says": "the cross-attention keys are source tokens: use source_lengths", "code": '''
import numpy as np
import mha
def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross = np.broadcast_to(mha.padding_mask(target_lengths, n_source), (len(target_lengths), 1, n_target, n_source))
    return self_mask, cross
'''},
 {"exercise": "decoder_masks", "kind": "wrong", "mistake": "self mask forgets target padding", "teacher_says": "no query may read a target pad: combine causal with the target padding mask", "code": '''
import numpy as np
import mha
def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    self_mask = np.broadcast_to(mha.causal_mask(n_target), (B, 1, n_target, n_target))
    cross = np.broadcast_to(mha.padding_mask(source_lengths, n_source), (B, 1, n_target, n_source))
    return self_mask, cross
'''},
 {"exercise": "decoder_masks", "kind": "robustness", "idea": "cross mask left at (B,1,1,n_s), not expanded", "mistake": "shape not (B,1,n_t,n_s)", "teacher_says": "return the cross mask with its full shape (B, 1, n_t, n_s)", "code": '''
import mha
def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    return self_mask, mha.padding_mask(source_lengths, n_source)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "correct", "idea": "literal", "code": '''
cross_attention_weights_shape = (2, 4, 7, 11)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "correct", "idea": "named", "code": '''
B, h, n_q, n_k = 2, 4, 7, 11
cross_attention_weights_shape = (B, h, n_q, n_k)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "queries and keys swapped", "teacher_says": "rows are the 7 decoder queries, columns the 11 encoder keys", "code": '''
cross_attention_weights_shape = (2, 4, 11, 7)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "heads averaged (PyTorch)", "teacher_says": "mha returns one matrix per head", "code": '''
cross_attention_weights_shape = (2, 7, 11)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "self-attention shape", "teacher_says": "cross-attention keys are the 11 encoder tokens", "code": '''
cross_attention_weights_shape = (2, 4, 7, 7)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "heads after queries", "teacher_says": "the heads axis comes before queries", "code": '''
cross_attention_weights_shape = (2, 7, 4, 11)
'''},
 {"exercise": "causal_mask", "kind": "wrong", "mistake": "rows and columns swapped: returns shape (n_k, n_q)",
  "teacher_says": "rows are queries and columns keys: the mask is (n_q, n_k)",
  "code": '''
import numpy as np
def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.arange(n_q)[None, :] + (n_k - n_q) >= np.arange(n_k)[:, None]
'''},
 {"exercise": "masked_softmax", "kind": "wrong", "mistake": "normalises over the queries axis (-2) by habit",
  "teacher_says": "each query row sums to 1 over its keys: the last axis",
  "code": '''
import numpy as np
def masked_softmax(scores, mask):
    s = np.where(mask, scores, -np.inf)
    m = s.max(axis=-2, keepdims=True); m = np.where(np.isfinite(m), m, 0)
    e = np.exp(s - m); z = e.sum(axis=-2, keepdims=True)
    return (e / np.where(z > 0, z, 1)).astype(np.asarray(scores).dtype)
'''},
]
