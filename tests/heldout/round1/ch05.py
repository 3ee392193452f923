ANSWERS = [
    # causal_mask
    {"exercise": "causal_mask", "kind": "correct", "idea": "np.tril with offset k = n_k - n_q",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)
'''},
    {"exercise": "causal_mask", "kind": "correct", "idea": "explicit double loop",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    m = np.zeros((n_q, n_k), dtype=bool)
    for i in range(n_q):
        for j in range(n_k):
            m[i, j] = j <= i + n_k - n_q
    return m
'''},
    {"exercise": "causal_mask", "kind": "wrong", "mistake": "top-left alignment (np.tril without offset)",
     "teacher_says": "for n_q != n_k the queries are the last n_q positions: align bottom right (offset n_k - n_q)",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool))
'''},
    {"exercise": "causal_mask", "kind": "wrong", "mistake": "strict inequality: a query may not attend itself",
     "teacher_says": "key j = i + n_k - n_q (the query's own position) is allowed: use <=",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols < rows + n_k - n_q
'''},
    {"exercise": "causal_mask", "kind": "wrong", "mistake": "triu: the future instead of the past (polarity confused with PyTorch)",
     "teacher_says": "True = may attend: the past and the present, i.e. the lower triangle",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.triu(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q + 1)
'''},
    {"exercise": "causal_mask", "kind": "wrong", "mistake": "offset sign flipped: n_q - n_k",
     "teacher_says": "query i sits at position i + n_k - n_q, not i + n_q - n_k",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols <= rows + n_q - n_k
'''},
    {"exercise": "causal_mask", "kind": "robustness", "idea": "returns an int 0/1 array, not bool",
     "mistake": "np.tril(np.ones(...)) without dtype=bool: float mask",
     "teacher_says": "a mask is boolean; a float array of 0/1 used in np.where works but ~mask fails",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k)), k=n_k - n_q)
'''},
    # padding_mask
    {"exercise": "padding_mask", "kind": "correct", "idea": "loop over sequences",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    lengths = list(np.asarray(lengths).reshape(-1))
    m = np.zeros((len(lengths), 1, 1, n_k), dtype=bool)
    for b, L in enumerate(lengths):
        m[b, 0, 0, :int(L)] = True
    return m
'''},
    {"exercise": "padding_mask", "kind": "correct", "idea": "np.less with reshape",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    L = np.asarray(lengths).reshape(-1, 1, 1, 1)
    return np.less(np.arange(n_k).reshape(1, 1, 1, n_k), L)
'''},
    {"exercise": "padding_mask", "kind": "wrong", "mistake": "returns shape (B, n_k)",
     "teacher_says": "your mask has shape (B, n_k); it needs (B, 1, 1, n_k) to broadcast over heads and queries",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    return np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]
'''},
    {"exercise": "padding_mask", "kind": "wrong", "mistake": "<= instead of <: one pad too many is real",
     "teacher_says": "key j is real when j < length; with <= the first pad is attended",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    return (np.arange(n_k)[None, :] <= np.asarray(lengths)[:, None])[:, None, None, :]
'''},
    {"exercise": "padding_mask", "kind": "wrong", "mistake": "axes added in the wrong place: (B, n_k, 1, 1)",
     "teacher_says": "the key axis must be last: (B, 1, 1, n_k)",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    return (np.arange(n_k)[None, :] < np.asarray(lengths)[:, None])[:, :, None, None]
'''},
    {"exercise": "padding_mask", "kind": "wrong", "mistake": "pads assumed at the start (left padding)",
     "teacher_says": "sequences are padded at the end: the first lengths[b] keys are real",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    L = np.asarray(lengths)[:, None]
    return (np.arange(n_k)[None, :] >= n_k - L)[:, None, None, :]
'''},
    {"exercise": "padding_mask", "kind": "robustness", "idea": "fails on a plain python list (calls lengths[:, None] directly)",
     "mistake": "indexes a list with [:, None]",
     "teacher_says": "lengths may be a list: convert with np.asarray first",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    return (np.arange(n_k)[None, :] < lengths[:, None])[:, None, None, :]
'''},
    # decoder_masks
    {"exercise": "decoder_masks", "kind": "correct", "idea": "mha.causal_mask & mha.padding_mask, broadcast_to for cross",
     "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross = np.broadcast_to(mha.padding_mask(source_lengths, n_source), (B, 1, n_target, n_source))
    return self_mask, cross
'''},
    {"exercise": "decoder_masks", "kind": "correct", "idea": "pure broadcasting comparisons, materialised with .copy",
     "code": '''
import numpy as np

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    tl = np.asarray(target_lengths).reshape(-1, 1, 1, 1)
    sl = np.asarray(source_lengths).reshape(-1, 1, 1, 1)
    i = np.arange(n_target).reshape(1, 1, -1, 1)
    j = np.arange(n_target).reshape(1, 1, 1, -1)
    self_mask = (j <= i) & (j < tl)
    js = np.arange(n_source).reshape(1, 1, 1, -1)
    cross = (js < sl) & np.ones((1, 1, n_target, 1), dtype=bool)
    return self_mask, cross
'''},
    {"exercise": "decoder_masks", "kind": "wrong", "mistake": "makes the cross-attention causal too",
     "teacher_says": "only the self-attention is causal; every target query may read every real source token",
     "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross = mha.causal_mask(n_target, n_source) & mha.padding_mask(source_lengths, n_source)
    return self_mask, cross
'''},
    {"exercise": "decoder_masks", "kind": "wrong", "mistake": "cross mask uses the target lengths",
     "teacher_says": "the cross-attention's keys are source tokens: pad by source_lengths",
     "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross = np.broadcast_to(mha.padding_mask(target_lengths, n_source), (B, 1, n_target, n_source))
    return self_mask, cross
'''},
    {"exercise": "decoder_masks", "kind": "wrong", "mistake": "self mask forgets the target padding (causal only)",
     "teacher_says": "no query may read the target's pads: AND the causal mask with the target padding mask",
     "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    self_mask = np.broadcast_to(mha.causal_mask(n_target), (B, 1, n_target, n_target))
    cross = np.broadcast_to(mha.padding_mask(source_lengths, n_source), (B, 1, n_target, n_source))
    return self_mask, cross
'''},
    {"exercise": "decoder_masks", "kind": "wrong", "mistake": "also masks pad queries (rows), so pad queries' rows are all False",
     "teacher_says": "the padding is on the keys; masking the pad queries' rows as well is not asked (and makes them fully masked)",
     "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    tp = mha.padding_mask(target_lengths, n_target)
    rows = np.swapaxes(tp, -1, -2)
    self_mask = mha.causal_mask(n_target) & tp & rows
    cross = mha.padding_mask(source_lengths, n_source) & rows
    return self_mask, cross
'''},
    {"exercise": "decoder_masks", "kind": "robustness", "idea": "cross mask left at shape (B, 1, 1, n_s) (not broadcast)",
     "mistake": "returns the cross mask unbroadcast, shape (B,1,1,n_s)",
     "teacher_says": "the exercise asks for shape (B, 1, n_t, n_s): use np.broadcast_to",
     "code": '''
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    return self_mask, mha.padding_mask(source_lengths, n_source)
'''},
    # cross_attention_weights_shape
    {"exercise": "cross_attention_weights_shape", "kind": "correct", "idea": "literal",
     "code": '''
cross_attention_weights_shape = (2, 4, 7, 11)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "correct", "idea": "run mha.multi_head_attention on zeros and read the shape",
     "code": '''
import numpy as np
import mha
_p = mha.init_params(8, 4)
_, _w = mha.multi_head_attention(np.zeros((2, 7, 8), np.float32), np.zeros((2, 11, 8), np.float32), np.zeros((2, 11, 8), np.float32), _p)
cross_attention_weights_shape = tuple(int(s) for s in _w.shape)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "keys and queries swapped",
     "teacher_says": "one row per query (7 decoder tokens), one column per key (11 encoder tokens)",
     "code": '''
cross_attention_weights_shape = (2, 4, 11, 7)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "heads axis forgotten",
     "teacher_says": "there is one matrix per head: (B, h, n_q, n_k)",
     "code": '''
cross_attention_weights_shape = (2, 7, 11)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "heads after the query axis",
     "teacher_says": "the heads axis comes right after the batch axis",
     "code": '''
cross_attention_weights_shape = (2, 7, 4, 11)
'''},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "gives the output's shape (B, n_q, d) instead of the weights'",
     "teacher_says": "that is the shape of the output; the weights are (B, h, n_q, n_k)",
     "code": '''
cross_attention_weights_shape = (2, 7, 4 * 11)
'''},
]
