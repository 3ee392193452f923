ANSWERS = [
    # ---------------- causal_mask ----------------
    {"exercise": "causal_mask", "kind": "correct", "idea": "np.tril of ones with offset k = n_k - n_q",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)
'''},
    {"exercise": "causal_mask", "kind": "correct", "idea": "broadcast comparison of positions with np.less_equal",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.less_equal(np.arange(n_k)[None, :], np.arange(n_q)[:, None] + (n_k - n_q))
'''},
    {"exercise": "causal_mask", "kind": "correct", "idea": "explicit double loop filling a boolean array",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    m = np.zeros((n_q, n_k), dtype=bool)
    for i in range(n_q):
        for j in range(n_k):
            m[i, j] = j <= i + n_k - n_q
    return m
'''},
    {"exercise": "causal_mask", "kind": "wrong", "mistake": "aligns top-left (np.tril without offset): wrong when n_q != n_k",
     "teacher_says": "with n_q != n_k the queries are the last n_q positions: shift the diagonal by n_k - n_q",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool))
'''},
    {"exercise": "causal_mask", "kind": "wrong", "mistake": "strict inequality: a query may not attend itself",
     "teacher_says": "query i may attend key i + n_k - n_q too: use <=, not <",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.arange(n_k)[None, :] < np.arange(n_q)[:, None] + n_k - n_q
'''},
    {"exercise": "causal_mask", "kind": "wrong", "mistake": "the offset has the wrong sign (n_q - n_k)",
     "teacher_says": "query i sits at position i + n_k - n_q; you shifted the other way",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_q - n_k)
'''},
    {"exercise": "causal_mask", "kind": "wrong", "mistake": "upper triangle (np.triu): each query sees its future, not its past",
     "teacher_says": "True must be where key j <= query position: the lower triangle",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.triu(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)
'''},
    {"exercise": "causal_mask", "kind": "wrong", "mistake": "returns the mask of forbidden positions (PyTorch's polarity)",
     "teacher_says": "in this book True means may attend; you returned True where attention is forbidden",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.arange(n_k)[None, :] > np.arange(n_q)[:, None] + n_k - n_q
'''},
    {"exercise": "causal_mask", "kind": "robustness", "idea": "returns a float 0/1 array (np.tril of np.ones)",
     "mistake": "returns float64 ones and zeros instead of booleans",
     "teacher_says": "a mask must be boolean: np.where(mask, ...) treats 0.0/1.0 as booleans, but ~mask and & do not work on floats",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k)), k=n_k - n_q)
'''},
    {"exercise": "causal_mask", "kind": "robustness", "idea": "required n_k argument (no default)",
     "mistake": "signature causal_mask(n_q, n_k) without the default",
     "teacher_says": "n_k defaults to n_q: causal_mask(5) must work",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k):
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)
'''},
    # ---------------- padding_mask ----------------
    {"exercise": "padding_mask", "kind": "correct", "idea": "broadcast comparison with np.less, then reshape to (B, 1, 1, n_k)",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths)
    return np.less(np.arange(n_k), lengths[:, None]).reshape(len(lengths), 1, 1, n_k)
'''},
    {"exercise": "padding_mask", "kind": "correct", "idea": "loop over the sequences, setting the first lengths[b] keys True",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    lengths = list(lengths)
    m = np.zeros((len(lengths), 1, 1, n_k), dtype=bool)
    for b, n in enumerate(lengths):
        m[b, 0, 0, :int(n)] = True
    return m
'''},
    {"exercise": "padding_mask", "kind": "wrong", "mistake": "returns shape (B, n_k): no heads and queries axes",
     "teacher_says": "the mask must be (B, 1, 1, n_k) to broadcast over heads and queries; (B, n_k) broadcasts the batch against the queries",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    return np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]
'''},
    {"exercise": "padding_mask", "kind": "wrong", "mistake": "puts the keys on the queries axis: (B, 1, n_k, 1)",
     "teacher_says": "the pads are keys, the last axis: index with [:, None, None, :]",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    return (np.arange(n_k)[None, :] < np.asarray(lengths)[:, None])[:, None, :, None]
'''},
    {"exercise": "padding_mask", "kind": "wrong", "mistake": "uses <= : key number lengths[b], the first pad, counts as real",
     "teacher_says": "key j is real when j < lengths[b]; with <= one pad leaks in",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    return (np.arange(n_k)[None, :] <= np.asarray(lengths)[:, None])[:, None, None, :]
'''},
    {"exercise": "padding_mask", "kind": "wrong", "mistake": "assumes padding at the start: the real keys are the last lengths[b]",
     "teacher_says": "sequences are padded at the end: the real keys are 0 .. lengths[b]-1",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    return (np.arange(n_k)[None, :] >= n_k - np.asarray(lengths)[:, None])[:, None, None, :]
'''},
    {"exercise": "padding_mask", "kind": "wrong", "mistake": "True marks the pads (key_padding_mask polarity)",
     "teacher_says": "True means may attend, i.e. a real key; you marked the pads",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    return (np.arange(n_k)[None, :] >= np.asarray(lengths)[:, None])[:, None, None, :]
'''},
    {"exercise": "padding_mask", "kind": "wrong", "mistake": "uses np.max(lengths) instead of n_k for the key axis",
     "teacher_says": "the mask has n_k columns; the longest sequence may be shorter than n_k",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths)
    return (np.arange(lengths.max())[None, :] < lengths[:, None])[:, None, None, :]
'''},
    {"exercise": "padding_mask", "kind": "robustness", "idea": "int8 mask",
     "mistake": "returns an int8 array of 0 and 1",
     "teacher_says": "return a boolean array",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    return (np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]).astype(np.int8)[:, None, None, :]
'''},
    {"exercise": "padding_mask", "kind": "robustness", "idea": "fails for a plain Python list of lengths (uses lengths.shape)",
     "mistake": "assumes lengths is an array: a list raises AttributeError",
     "teacher_says": "lengths may be any sequence: convert it with np.asarray first",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    B = lengths.shape[0]
    return (np.arange(n_k)[None, :] < lengths[:, None]).reshape(B, 1, 1, n_k)
'''},
    # ---------------- decoder_masks ----------------
    {"exercise": "decoder_masks", "kind": "correct", "idea": "mha.causal_mask & mha.padding_mask for self, broadcast_to the source padding for cross",
     "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = np.broadcast_to(mha.padding_mask(source_lengths, n_source), (B, 1, n_target, n_source))
    return np.asarray(self_mask, dtype=bool), cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "correct", "idea": "built from arange comparisons without mha, copies (not views)",
     "code": '''
import numpy as np

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t = np.asarray(target_lengths)[:, None, None, None]
    s = np.asarray(source_lengths)[:, None, None, None]
    i = np.arange(n_target)[:, None]
    j_t = np.arange(n_target)[None, :]
    j_s = np.arange(n_source)[None, :]
    self_mask = (j_t <= i) & (j_t < t)              # (B, 1, n_t, n_t)
    cross_mask = (j_s < s) & np.ones((n_target, 1), dtype=bool)  # (B, 1, n_t, n_s)
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "wrong", "mistake": "makes the cross-attention causal too (bottom-right aligned)",
     "teacher_says": "only the self-attention is causal: every target query may read every real source token",
     "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = mha.causal_mask(n_target, n_source) & mha.padding_mask(source_lengths, n_source)
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "wrong", "mistake": "forgets the target padding in the self-attention mask (causal only)",
     "teacher_says": "no query may read the target's pads: AND the causal mask with the target's padding mask",
     "code": '''
import numpy as np

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    self_mask = np.broadcast_to(np.tril(np.ones((n_target, n_target), dtype=bool)), (B, 1, n_target, n_target))
    src = np.arange(n_source) < np.asarray(source_lengths)[:, None]
    cross_mask = np.broadcast_to(src[:, None, None, :], (B, 1, n_target, n_source))
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "wrong", "mistake": "also masks the target's pad queries in the cross mask (rows of pads all False)",
     "teacher_says": "the cross mask hides source pads only; every target query, pads included, may read the real source tokens",
     "code": '''
import numpy as np

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    tgt = np.arange(n_target) < np.asarray(target_lengths)[:, None]
    src = np.arange(n_source) < np.asarray(source_lengths)[:, None]
    causal = np.tril(np.ones((n_target, n_target), dtype=bool))
    self_mask = causal & tgt[:, None, None, :]
    cross_mask = tgt[:, None, :, None] & src[:, None, None, :]
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "wrong", "mistake": "the cross mask is left as (B, 1, 1, n_s) instead of (B, 1, n_t, n_s)",
     "teacher_says": "the exercise asks for the cross mask's full shape (B, 1, n_t, n_s): use np.broadcast_to",
     "code": '''
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    return self_mask, mha.padding_mask(source_lengths, n_source)
'''},
    {"exercise": "decoder_masks", "kind": "wrong", "mistake": "swaps the lengths: the cross mask uses the target lengths and the self mask the source lengths",
     "teacher_says": "self-attention reads the target, so its pads come from target_lengths; cross-attention reads the source",
     "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(np.minimum(source_lengths, n_target), n_target)
    cross_mask = np.broadcast_to(mha.padding_mask(np.minimum(target_lengths, n_source), n_source), (B, 1, n_target, n_source))
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "wrong", "mistake": "combines causal and padding with | instead of &",
     "teacher_says": "a key may be attended when it is in the past AND real: combine with &",
     "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    self_mask = mha.causal_mask(n_target) | mha.padding_mask(target_lengths, n_target)
    cross_mask = np.broadcast_to(mha.padding_mask(source_lengths, n_source), (B, 1, n_target, n_source))
    return self_mask, cross_mask
'''},
    {"exercise": "decoder_masks", "kind": "robustness", "idea": "returns a dict instead of a pair",
     "mistake": "returns {'self': ..., 'cross': ...}",
     "teacher_says": "return the pair (self_mask, cross_mask)",
     "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = np.broadcast_to(mha.padding_mask(source_lengths, n_source), (B, 1, n_target, n_source))
    return {"self": self_mask, "cross": cross_mask}
'''},
    # ---------------- cross_attention_weights_shape ----------------
    {"exercise": "cross_attention_weights_shape", "kind": "correct", "idea": "(B, h, n_q, n_k) literal",
     "code": '''
cross_attention_weights_shape = (2, 4, 7, 11)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "correct", "idea": "measured with mha.multi_head_attention on random inputs",
     "code": '''
import numpy as np
import mha
_p = mha.init_params(8, 4)
_x = np.zeros((2, 7, 8), np.float32)
_m = np.zeros((2, 11, 8), np.float32)
cross_attention_weights_shape = tuple(int(s) for s in mha.multi_head_attention(_x, _m, _m, _p)[1].shape)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "keys on the rows: (2, 4, 11, 7)",
     "teacher_says": "rows are queries (the decoder's 7 tokens), columns keys (the encoder's 11)",
     "code": '''
cross_attention_weights_shape = (2, 4, 11, 7)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "the weights averaged over heads: (2, 7, 11)",
     "teacher_says": "mha returns every head's weights: a heads axis of size 4",
     "code": '''
cross_attention_weights_shape = (2, 7, 11)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "heads after the queries: (2, 7, 4, 11)",
     "teacher_says": "the heads axis comes before the queries: (B, h, n_q, n_k)",
     "code": '''
cross_attention_weights_shape = (2, 7, 4, 11)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "self-attention shape (2, 4, 7, 7)",
     "teacher_says": "in cross-attention the keys are the encoder's 11 tokens",
     "code": '''
cross_attention_weights_shape = (2, 4, 7, 7)
'''},
]
