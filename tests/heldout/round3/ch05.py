ANSWERS = [
    {"exercise": "causal_mask", "kind": "correct", "idea": "np.tril with offset k = n_k - n_q",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)
'''},
    {"exercise": "causal_mask", "kind": "correct", "idea": "broadcast comparison of aranges",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    i = np.arange(n_q)[:, None] + (n_k - n_q)
    return np.arange(n_k)[None, :] <= i
'''},
    {"exercise": "causal_mask", "kind": "wrong", "mistake": "aligned top-left (np.tril without offset)",
     "teacher_says": "for n_q != n_k the mask is aligned bottom-right: offset the diagonal by n_k - n_q",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool))
'''},
    {"exercise": "causal_mask", "kind": "wrong", "mistake": "strict inequality: a query cannot attend itself",
     "teacher_says": "query i may attend key i (its own position): use <=, not <",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.arange(n_k)[None, :] < np.arange(n_q)[:, None] + (n_k - n_q)
'''},
    {"exercise": "causal_mask", "kind": "wrong", "mistake": "upper triangle (polarity of PyTorch's triu mask)",
     "teacher_says": "True must mark allowed keys, the past: the lower triangle",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.triu(np.ones((n_q, n_k), dtype=bool), k=1 + n_k - n_q)
'''},
    {"exercise": "causal_mask", "kind": "wrong", "mistake": "offset sign flipped: n_q - n_k",
     "teacher_says": "query i sits at i + n_k - n_q; your offset n_q - n_k goes the wrong way",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_q - n_k)
'''},
    {"exercise": "causal_mask", "kind": "robustness", "idea": "returns an int 0/1 array instead of bool",
     "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=int), k=n_k - n_q)
'''},
    {"exercise": "padding_mask", "kind": "correct", "idea": "arange < lengths, reshape",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths)
    return (np.arange(n_k) < lengths[:, None])[:, None, None, :]
'''},
    {"exercise": "padding_mask", "kind": "correct", "idea": "python loop filling zeros array",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    lengths = list(lengths)
    m = np.zeros((len(lengths), 1, 1, n_k), dtype=bool)
    for b, L in enumerate(lengths):
        m[b, 0, 0, :int(L)] = True
    return m
'''},
    {"exercise": "padding_mask", "kind": "wrong", "mistake": "returns shape (B, n_k)",
     "teacher_says": "the mask needs shape (B, 1, 1, n_k) to broadcast over heads and queries",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    return np.arange(n_k) < np.asarray(lengths)[:, None]
'''},
    {"exercise": "padding_mask", "kind": "wrong", "mistake": "<= : one pad counted as real",
     "teacher_says": "key j is real when j < length; with <= the first pad is let through",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    return (np.arange(n_k) <= np.asarray(lengths)[:, None])[:, None, None, :]
'''},
    {"exercise": "padding_mask", "kind": "wrong", "mistake": "True marks pads (key_padding_mask polarity)",
     "teacher_says": "True means 'may attend', a real key; you marked the pads",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    return (np.arange(n_k) >= np.asarray(lengths)[:, None])[:, None, None, :]
'''},
    {"exercise": "padding_mask", "kind": "wrong", "mistake": "padding assumed at the start (left padding)",
     "teacher_says": "sequences are padded at the end: key j is real when j < length, the first keys",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    return (np.arange(n_k) >= n_k - np.asarray(lengths)[:, None])[:, None, None, :]
'''},
    {"exercise": "padding_mask", "kind": "robustness", "idea": "raises its own error when a length exceeds n_k / accepts only lists",
     "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    if not isinstance(lengths, list):
        raise TypeError("lengths must be a list")
    return (np.arange(n_k) < np.array(lengths)[:, None])[:, None, None, :]
'''},
    {"exercise": "masked_softmax", "kind": "correct", "idea": "max over allowed, exp times mask, safe divide",
     "code": '''
import numpy as np

def masked_softmax(scores, mask):
    mask = np.broadcast_to(mask, scores.shape)
    filled = np.where(mask, scores, -np.inf)
    m = filled.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.where(mask, np.exp(filled - m), 0)
    s = e.sum(axis=-1, keepdims=True)
    return np.where(s > 0, e / np.where(s > 0, s, 1), 0).astype(scores.dtype)
'''},
    {"exercise": "masked_softmax", "kind": "correct", "idea": "float64 loop over rows",
     "code": '''
import numpy as np

def masked_softmax(scores, mask):
    m = np.broadcast_to(mask, scores.shape).reshape(-1, scores.shape[-1])
    s = scores.reshape(-1, scores.shape[-1]).astype(np.float64)
    out = np.zeros_like(s)
    for r in range(s.shape[0]):
        if m[r].any():
            x = s[r][m[r]]
            e = np.exp(x - x.max())
            out[r][m[r]] = e / e.sum()
    return out.reshape(scores.shape).astype(scores.dtype)
'''},
    {"exercise": "masked_softmax", "kind": "wrong", "mistake": "fill -1e9: fully masked row becomes uniform",
     "teacher_says": "a row with no allowed key must be all zeros, not 1/n_k",
     "code": '''
import numpy as np

def masked_softmax(scores, mask):
    x = np.where(mask, scores, -1e9)
    e = np.exp(x - x.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)).astype(scores.dtype)
'''},
    {"exercise": "masked_softmax", "kind": "wrong", "mistake": "-inf fill with plain softmax: NaN in fully masked rows",
     "teacher_says": "a row of -inf gives 0/0 = NaN; detect rows with no allowed key and return zeros",
     "code": '''
import numpy as np

def masked_softmax(scores, mask):
    x = np.where(mask, scores, -np.inf)
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)
'''},
    {"exercise": "masked_softmax", "kind": "wrong", "mistake": "max subtracted over all keys (masked included), exp underflows if forbidden key is huge",
     "teacher_says": "subtract the max of the allowed keys only; a large forbidden score makes the allowed exps underflow to 0",
     "code": '''
import numpy as np

def masked_softmax(scores, mask):
    e = np.exp(scores - scores.max(-1, keepdims=True)) * mask
    s = e.sum(-1, keepdims=True)
    return np.divide(e, s, out=np.zeros(e.shape, dtype=scores.dtype), where=s > 0)
'''},
    {"exercise": "masked_softmax", "kind": "wrong", "mistake": "normalises over the queries axis (axis=-2)",
     "teacher_says": "weights sum to 1 over the keys of each query row: normalise along the last axis",
     "code": '''
import numpy as np

def masked_softmax(scores, mask):
    mask = np.broadcast_to(mask, scores.shape)
    x = np.where(mask, scores, -np.inf)
    m = x.max(-2, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.where(mask, np.exp(x - m), 0)
    s = e.sum(-2, keepdims=True)
    return np.divide(e, s, out=np.zeros_like(e), where=s > 0)
'''},
    {"exercise": "masked_softmax", "kind": "robustness", "idea": "writes -inf into the caller's scores in place",
     "code": '''
import numpy as np

def masked_softmax(scores, mask):
    mask = np.broadcast_to(mask, scores.shape)
    scores[~mask] = -np.inf
    m = scores.max(-1, keepdims=True)
    m[~np.isfinite(m)] = 0
    e = np.exp(scores - m)
    s = e.sum(-1, keepdims=True)
    return np.divide(e, s, out=np.zeros_like(e), where=s > 0)
'''},
    {"exercise": "masked_softmax", "kind": "robustness", "idea": "leaves NaN in fully masked rows and silences the warnings",
     "code": '''
import numpy as np

def masked_softmax(scores, mask):
    with np.errstate(all="ignore"):
        x = np.where(mask, scores, -np.inf)
        e = np.exp(x - x.max(-1, keepdims=True))
        return (e / e.sum(-1, keepdims=True)).astype(scores.dtype)
'''},
]
_DEC = '''
import numpy as np

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    tl = np.asarray(target_lengths)
    sl = np.asarray(source_lengths)
    causal = np.tril(np.ones((n_target, n_target), dtype=bool))
    t_real = np.arange(n_target)[None, :] < tl[:, None]
    s_real = np.arange(n_source)[None, :] < sl[:, None]
    self_mask = causal[None, None] & t_real[:, None, None, :]
    cross_mask = np.broadcast_to(s_real[:, None, None, :], (len(sl), 1, n_target, n_source))
    return self_mask, cross_mask
'''
ANSWERS += [
    {"exercise": "decoder_masks", "kind": "correct", "idea": "causal & target key padding; source key padding broadcast", "code": _DEC},
    {"exercise": "decoder_masks", "kind": "correct", "idea": "loops filling arrays",
     "code": '''
import numpy as np

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    s = np.zeros((B, 1, n_target, n_target), dtype=bool)
    c = np.zeros((B, 1, n_target, n_source), dtype=bool)
    for b in range(B):
        for i in range(n_target):
            for j in range(n_target):
                s[b, 0, i, j] = j <= i and j < target_lengths[b]
            c[b, 0, i, :source_lengths[b]] = True
    return s, c
'''},
    {"exercise": "decoder_masks", "kind": "wrong", "mistake": "also blanks pad queries' rows (query padding)",
     "teacher_says": "padding hides keys, not queries: a pad query's row keeps what a real query there may attend",
     "code": _DEC.replace("self_mask = causal[None, None] & t_real[:, None, None, :]", "self_mask = causal[None, None] & t_real[:, None, None, :] & t_real[:, None, :, None]")},
    {"exercise": "decoder_masks", "kind": "wrong", "mistake": "self mask forgets target padding (causal only)",
     "teacher_says": "the self-attention must also hide the target's pad keys",
     "code": _DEC.replace("self_mask = causal[None, None] & t_real[:, None, None, :]", "self_mask = np.broadcast_to(causal, (len(tl), 1, n_target, n_target))")},
    {"exercise": "decoder_masks", "kind": "wrong", "mistake": "cross mask uses target lengths",
     "teacher_says": "the cross-attention's keys are the source tokens: pad by source_lengths",
     "code": _DEC.replace("s_real = np.arange(n_source)[None, :] < sl[:, None]", "s_real = np.arange(n_source)[None, :] < tl[:, None]")},
    {"exercise": "decoder_masks", "kind": "wrong", "mistake": "cross mask made causal too",
     "teacher_says": "every target query may read every real source token: no causal mask in cross-attention",
     "code": _DEC.replace("cross_mask = np.broadcast_to(s_real[:, None, None, :], (len(sl), 1, n_target, n_source))", "cross_mask = np.tril(np.ones((n_target, n_source), dtype=bool))[None, None] & s_real[:, None, None, :]")},
    {"exercise": "cross_attention_weights_shape", "kind": "correct", "idea": "(B, h, n_q, n_k)", "code": "\ncross_attention_weights_shape = (2, 4, 7, 11)\n"},
    {"exercise": "cross_attention_weights_shape", "kind": "correct", "idea": "built from named numbers", "code": "\nB, h, n_q, n_k = 2, 4, 7, 11\ncross_attention_weights_shape = tuple([B, h, n_q, n_k])\n"},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "queries and keys swapped", "teacher_says": "rows are the decoder's 7 queries, columns the encoder's 11 keys", "code": "\ncross_attention_weights_shape = (2, 4, 11, 7)\n"},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "no heads axis (averaged)", "teacher_says": "mha.multi_head_attention returns per-head weights: (2, 4, 7, 11)", "code": "\ncross_attention_weights_shape = (2, 7, 11)\n"},
    {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "self-attention square shape over decoder", "teacher_says": "cross-attention: keys are the 11 encoder tokens", "code": "\ncross_attention_weights_shape = (2, 4, 7, 7)\n"},
]
ANSWERS.append({"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "heads axis placed after the queries", "teacher_says": "weights are (B, h, n_q, n_k)",
     "code": "\ncross_attention_weights_shape = (2, 7, 4, 11)\n"})
