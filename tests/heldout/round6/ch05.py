ANSWERS = [
 # ------------------------------------------------------------------ causal_mask
 {"exercise": "causal_mask", "kind": "correct",
  "idea": "np.tril of a boolean matrix of ones with the diagonal offset n_k - n_q",
  "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)
'''},
 {"exercise": "causal_mask", "kind": "correct",
  "idea": "double loop over queries and keys, comparing each key with the query's position",
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
  "mistake": "Aligns the triangle top-left (plain np.tril, as SDPA's is_causal does), which is only right when n_q == n_k.",
  "teacher_says": "The queries are the last n_q positions: query i sits at i + n_k - n_q, so shift the diagonal, np.tril(..., k=n_k - n_q).",
  "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool))
'''},
 {"exercise": "causal_mask", "kind": "wrong",
  "mistake": "Uses a strict comparison, j < position, so no query may attend its own key (the diagonal is missing).",
  "teacher_says": "A token may attend itself: keys 0 .. i + n_k - n_q inclusive, j <= i + n_k - n_q.",
  "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols < rows + (n_k - n_q)
'''},
 {"exercise": "causal_mask", "kind": "wrong",
  "mistake": "Marks the future keys (the strict upper triangle) as True, the 'True = blocked' convention of nn.MultiheadAttention.",
  "teacher_says": "In this book True = may attend: the allowed keys are the lower triangle, diagonal included.",
  "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.triu(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q + 1)
'''},
 {"exercise": "causal_mask", "kind": "wrong",
  "mistake": "Shifts the diagonal the wrong way, by n_q - n_k, so with a KV cache (n_k > n_q) the new queries see fewer keys than they should.",
  "teacher_says": "Query i sits at position i + n_k - n_q: allow j <= i + (n_k - n_q), not i + (n_q - n_k).",
  "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols <= rows + (n_q - n_k)
'''},
 {"exercise": "causal_mask", "kind": "wrong",
  "mistake": "Puts the keys on the rows and the queries on the columns, returning the (n_k, n_q) transpose.",
  "teacher_says": "Rows are queries, columns keys: rows = np.arange(n_q)[:, None], cols = np.arange(n_k)[None, :], shape (n_q, n_k).",
  "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    keys = np.arange(n_k)[:, None]
    queries = np.arange(n_q)[None, :]
    return keys <= queries + (n_k - n_q)
'''},
 {"exercise": "causal_mask", "kind": "robustness",
  "idea": "builds the triangle with np.tril of np.ones without a dtype",
  "mistake": "Returns a float array of 0.0 and 1.0 instead of a boolean array.",
  "teacher_says": "Masks are boolean: pass dtype=bool to np.ones (or compare positions, which gives bool).",
  "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k)), n_k - n_q)
'''},

 # ------------------------------------------------------------------ padding_mask
 {"exercise": "padding_mask", "kind": "correct",
  "idea": "one comparison of an (B, 1, 1, 1) lengths array with a (n_k,) range",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths).reshape(-1, 1, 1, 1)
    return np.arange(n_k) < lengths
'''},
 {"exercise": "padding_mask", "kind": "correct",
  "idea": "preallocated False array filled row by row with slices",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    lengths = list(lengths)
    mask = np.zeros((len(lengths), 1, 1, n_k), dtype=bool)
    for b, length in enumerate(lengths):
        mask[b, 0, 0, :int(length)] = True
    return mask
'''},
 {"exercise": "padding_mask", "kind": "wrong",
  "mistake": "Uses <= instead of <, so each sequence's first pad counts as a real key.",
  "teacher_says": "A sequence of length L has real keys 0 .. L-1: j < lengths[b].",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] <= np.asarray(lengths)[:, None]
    return real[:, None, None, :]
'''},
 {"exercise": "padding_mask", "kind": "wrong",
  "mistake": "Puts the positions on the query axis, shape (B, 1, n_k, 1), which masks padded queries instead of padded keys.",
  "teacher_says": "Padding hides keys: the mask varies along the last axis, (B, 1, 1, n_k).",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]
    return real[:, None, :, None]
'''},
 {"exercise": "padding_mask", "kind": "wrong",
  "mistake": "Marks the pads as True (j >= length), the polarity of nn.MultiheadAttention's key_padding_mask.",
  "teacher_says": "In this book True = may attend, i.e. a real key: j < lengths[b].",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    pads = np.arange(n_k)[None, :] >= np.asarray(lengths)[:, None]
    return pads[:, None, None, :]
'''},
 {"exercise": "padding_mask", "kind": "wrong",
  "mistake": "Returns the (B, n_k) comparison without the two singleton axes for the heads and the queries.",
  "teacher_says": "Add the heads and queries axes, [:, None, None, :], so that the mask broadcasts over (B, h, n_q, n_k).",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    return np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]
'''},
 {"exercise": "padding_mask", "kind": "wrong",
  "mistake": "Broadcasts the comparison the other way round, (n_k, B), and then reshapes it to (B, 1, 1, n_k), which scrambles the entries.",
  "teacher_says": "Lengths go on the rows and positions on the columns: np.arange(n_k)[None, :] < lengths[:, None] is already (B, n_k); a reshape cannot fix a transposed array.",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths)
    real = np.arange(n_k)[:, None] < lengths[None, :]  # (n_k, B)
    return real.reshape(len(lengths), 1, 1, n_k)
'''},
 {"exercise": "padding_mask", "kind": "wrong",
  "mistake": "Puts the pads at the start of each sequence (left padding), marking the last lengths[b] positions as real.",
  "teacher_says": "The sequences are padded at the end: the real keys are the first lengths[b], j < lengths[b].",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] >= n_k - np.asarray(lengths)[:, None]
    return real[:, None, None, :]
'''},
 {"exercise": "padding_mask", "kind": "robustness",
  "idea": "indexes lengths as an array without converting it",
  "mistake": "Uses lengths[:, None] directly, which raises a TypeError when lengths is a Python list (allowed by the exercise).",
  "teacher_says": "Convert first with np.asarray(lengths), so that lists and tuples work as well as arrays.",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    return (np.arange(n_k) < lengths[:, None])[:, None, None, :]
'''},

 # ------------------------------------------------------------------ masked_softmax
 {"exercise": "masked_softmax", "kind": "correct",
  "idea": "the plain masked softmax under np.errstate, then np.nan_to_num turns the 0/0 of empty rows into zeros",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    filled = np.where(mask, scores, -np.inf)
    with np.errstate(invalid="ignore"):
        e = np.exp(filled - filled.max(axis=-1, keepdims=True))
        weights = e / e.sum(axis=-1, keepdims=True)
    return np.nan_to_num(weights, nan=0.0).astype(scores.dtype, copy=False)
'''},
 {"exercise": "masked_softmax", "kind": "correct",
  "idea": "ufuncs with where=: a max over the allowed keys (initial=-inf), exp and divide only where allowed, zeros elsewhere",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    allowed = np.broadcast_to(mask, scores.shape)
    row_max = np.max(scores, axis=-1, keepdims=True, where=allowed, initial=-np.inf)
    row_max = np.where(np.isfinite(row_max), row_max, 0)
    e = np.zeros_like(scores)
    np.exp(scores - row_max, out=e, where=allowed)
    total = e.sum(axis=-1, keepdims=True)
    out = np.zeros_like(scores)
    np.divide(e, total, out=out, where=allowed & (total > 0))
    return out
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "Fills the forbidden scores with -1e9, so a row with no allowed key gets uniform weights 1/n_k instead of zeros.",
  "teacher_says": "Rows with no allowed key must be all zeros: use -inf (or check mask.any(axis=-1)) and zero those rows explicitly.",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    filled = np.where(mask, scores, -1e9)
    e = np.exp(filled - filled.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(scores.dtype)
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "Handles the empty case with a single global test (if not mask.any()), so a batch that mixes empty and non-empty rows still gets NaN in the empty rows.",
  "teacher_says": "Test each query row: mask.any(axis=-1, keepdims=True), and zero (or guard) those rows, not the whole array.",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    if not np.any(mask):
        return np.zeros_like(scores)
    filled = np.where(mask, scores, -np.inf)
    e = np.exp(filled - filled.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "Takes the plain softmax of all the scores and multiplies by the mask afterwards, so the allowed weights no longer sum to 1.",
  "teacher_says": "Mask the scores before the softmax (forbidden -> -inf); zeroing the weights after it leaves rows that do not sum to 1.",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) * mask
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "Reads the mask as True = forbidden and puts -inf where the mask is True.",
  "teacher_says": "True = may attend: keep the scores where mask is True, np.where(mask, scores, -np.inf).",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    filled = np.where(mask, -np.inf, scores)
    m = filled.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(filled - m)
    s = e.sum(axis=-1, keepdims=True)
    return e / np.where(s == 0, 1, s)
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "Normalises over axis -2 (the queries) instead of over the keys.",
  "teacher_says": "Each query row must sum to 1 over its keys: reduce over axis=-1.",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    filled = np.where(mask, scores, -np.inf)
    m = filled.max(axis=-2, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(filled - m)
    s = e.sum(axis=-2, keepdims=True)
    return e / np.where(s == 0, 1, s)
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "Leaves the forbidden keys out of the denominator but not out of the numerator, so they still get a non-zero weight.",
  "teacher_says": "Apply the mask in both places: the forbidden keys' exponentials must be 0 in the numerator as well as in the sum.",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    allowed = np.where(mask, scores, -np.inf)
    m = allowed.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(scores - m)
    total = (e * mask).sum(axis=-1, keepdims=True)
    return e / np.where(total == 0, 1, total)
'''},
 {"exercise": "masked_softmax", "kind": "robustness",
  "idea": "writes -inf into the forbidden scores in place",
  "mistake": "Modifies the caller's scores array (scores[...] = np.where(...)), which the exercise forbids.",
  "teacher_says": "Work on a new array (filled = np.where(mask, scores, -np.inf)) and leave scores unchanged.",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    scores[...] = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(scores - m)
    s = e.sum(axis=-1, keepdims=True)
    return e / np.where(s == 0, 1, s)
'''},

 # ------------------------------------------------------------------ decoder_masks
 {"exercise": "decoder_masks", "kind": "correct",
  "idea": "the package's causal_mask and padding_mask combined with np.logical_and, the cross mask broadcast with np.broadcast_to",
  "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    self_mask = np.logical_and(mha.causal_mask(n_target), mha.padding_mask(target_lengths, n_target))
    cross_mask = np.broadcast_to(mha.padding_mask(source_lengths, n_source), (B, 1, n_target, n_source))
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "correct",
  "idea": "explicit position comparisons with 4-D aranges; the cross mask materialised with np.repeat along the query axis",
  "code": '''
import numpy as np

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t_len = np.asarray(target_lengths).reshape(-1, 1, 1, 1)
    s_len = np.asarray(source_lengths).reshape(-1, 1, 1, 1)
    i = np.arange(n_target).reshape(1, 1, -1, 1)   # query positions
    j = np.arange(n_target).reshape(1, 1, 1, -1)   # target key positions
    self_mask = (j <= i) & (j < t_len)              # (B, 1, n_t, n_t)
    s = np.arange(n_source).reshape(1, 1, 1, -1)
    cross_mask = np.repeat(s < s_len, n_target, axis=2)  # (B, 1, n_t, n_s)
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong",
  "mistake": "Makes the cross-attention mask causal too (bottom-right aligned causal mask over the source), so early target tokens cannot read the later source words.",
  "teacher_says": "Only the self-attention is causal: the encoder's output is known in full, so every target query may read every real source token.",
  "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = mha.causal_mask(n_target, n_source) & mha.padding_mask(source_lengths, n_source)
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong",
  "mistake": "Also blanks the pad queries' rows in the self-attention mask, although the exercise says a pad query is treated as a real one at its position.",
  "teacher_says": "Padding hides keys, not queries: combine the causal mask with the key padding mask only, (B, 1, 1, n_t).",
  "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    pad_keys = mha.padding_mask(target_lengths, n_target)    # (B, 1, 1, n_t)
    pad_queries = pad_keys.swapaxes(-1, -2)                  # (B, 1, n_t, 1)
    self_mask = mha.causal_mask(n_target) & pad_keys & pad_queries
    B = len(source_lengths)
    cross_mask = np.broadcast_to(mha.padding_mask(source_lengths, n_source), (B, 1, n_target, n_source))
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong",
  "mistake": "Swaps the lengths: the self-attention mask pads with the source lengths and the cross-attention mask with the target lengths.",
  "teacher_says": "Each mask hides the pads of its keys: the target's pads in self-attention, the source's pads in cross-attention.",
  "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    src = np.asarray(source_lengths)[:, None, None, None]
    tgt = np.asarray(target_lengths)[:, None, None, None]
    self_mask = mha.causal_mask(n_target) & (np.arange(n_target) < src)
    cross_mask = np.broadcast_to(np.arange(n_source) < tgt, (B, 1, n_target, n_source))
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong",
  "mistake": "Returns the cross-attention padding mask as it is, (B, 1, 1, n_s), without giving it the query axis of size n_t.",
  "teacher_says": "The cross mask must have shape (B, 1, n_t, n_s): np.broadcast_to(padding, (B, 1, n_target, n_source)).",
  "code": '''
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = mha.padding_mask(source_lengths, n_source)
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong",
  "mistake": "Forgets the target's padding in the self-attention mask and only broadcasts the causal mask to (B, 1, n_t, n_t).",
  "teacher_says": "Self-attention reads the target's own tokens, some of which are pads: AND the causal mask with the target's key padding mask.",
  "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    self_mask = np.broadcast_to(mha.causal_mask(n_target), (B, 1, n_target, n_target))
    cross_mask = np.broadcast_to(mha.padding_mask(source_lengths, n_source), (B, 1, n_target, n_source))
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong",
  "mistake": "Combines the causal and padding masks with OR instead of AND, so a query may read a key that is allowed by either of them (future real tokens, past pads).",
  "teacher_says": "A key must pass every mask: combine them with & (logical AND).",
  "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    self_mask = mha.causal_mask(n_target) | mha.padding_mask(target_lengths, n_target)
    cross_mask = np.broadcast_to(mha.padding_mask(source_lengths, n_source), (B, 1, n_target, n_source))
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "robustness",
  "idea": "returns the masks as torch tensors, ready for the PyTorch module",
  "mistake": "Returns torch bool tensors instead of NumPy arrays.",
  "teacher_says": "The exercise works in NumPy: return the NumPy arrays and convert to torch where you call a torch module.",
  "code": '''
import numpy as np
import torch
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = np.broadcast_to(mha.padding_mask(source_lengths, n_source), (B, 1, n_target, n_source))
    return torch.from_numpy(self_mask), torch.from_numpy(cross_mask.copy())
'''},

 # ------------------------------------------------------------------ cross_attention_weights_shape
 {"exercise": "cross_attention_weights_shape", "kind": "correct",
  "idea": "named sizes: (B, h, n_q, n_k)",
  "code": '''
B, h, n_q, n_k = 2, 4, 7, 11
cross_attention_weights_shape = (B, h, n_q, n_k)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "correct",
  "idea": "runs mha.multi_head_attention on zeros of the right shapes and reads the shape",
  "code": '''
import numpy as np
import mha

params = mha.init_params(16, 4)
decoder = np.zeros((2, 7, 16), dtype=np.float32)
encoder = np.zeros((2, 11, 16), dtype=np.float32)
_, w = mha.multi_head_attention(decoder, encoder, encoder, params)
cross_attention_weights_shape = tuple(w.shape)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong",
  "mistake": "Swaps the query and key counts: one row per encoder token.",
  "teacher_says": "The queries come from the decoder (7 rows) and the keys from the encoder (11 columns): (2, 4, 7, 11).",
  "code": '''
cross_attention_weights_shape = (2, 4, 11, 7)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong",
  "mistake": "Drops the heads axis, as if the weights were averaged over the heads like nn.MultiheadAttention's default.",
  "teacher_says": "mha.multi_head_attention returns every head's weights: (B, h, n_q, n_k) = (2, 4, 7, 11).",
  "code": '''
cross_attention_weights_shape = (2, 7, 11)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong",
  "mistake": "Uses the decoder length for the keys too, as in self-attention.",
  "teacher_says": "In cross-attention the keys are the encoder's 11 tokens: (2, 4, 7, 11).",
  "code": '''
cross_attention_weights_shape = (2, 4, 7, 7)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong",
  "mistake": "Puts the heads axis before the batch axis.",
  "teacher_says": "The batch axis stays first and the heads follow it: (2, 4, 7, 11).",
  "code": '''
cross_attention_weights_shape = (4, 2, 7, 11)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong",
  "mistake": "Puts the heads axis after the query axis, (B, n_q, h, n_k).",
  "teacher_says": "The heads axis comes before the query and key axes: (B, h, n_q, n_k).",
  "code": '''
cross_attention_weights_shape = (2, 7, 4, 11)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "robustness",
  "idea": "stores the shape as a NumPy array",
  "mistake": "Assigns np.array([2, 4, 7, 11]) instead of a tuple of ints.",
  "teacher_says": "Assign a tuple, (2, 4, 7, 11); an array compares element-wise, not as one value.",
  "code": '''
import numpy as np

cross_attention_weights_shape = np.array([2, 4, 7, 11])
'''},
]
