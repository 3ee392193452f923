ANSWERS = [
 # ------------------------------------------------------------------ causal_mask
 {"exercise": "causal_mask", "kind": "correct", "idea": "complement of the strict upper triangle shifted by n_k - n_q (np.triu)",
  "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    future = np.triu(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q + 1)
    return ~future
'''},
 {"exercise": "causal_mask", "kind": "correct", "idea": "two nested loops filling a boolean array position by position",
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
 {"exercise": "causal_mask", "kind": "wrong", "mistake": "Aligned the triangle to the top left (np.tril without offset), which is only right when n_q = n_k.",
  "teacher_says": "The n_q queries are the last n_q positions: query i sits at i + n_k - n_q, so shift the diagonal by n_k - n_q (np.tril(..., k=n_k - n_q)).",
  "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    return np.tril(np.ones((n_q, n_k), dtype=bool))
'''},
 {"exercise": "causal_mask", "kind": "wrong", "mistake": "Used a strict comparison, so a query may not attend its own position (the diagonal is False).",
  "teacher_says": "Query i may attend keys 0 .. i + n_k - n_q inclusive: use <=, the diagonal belongs to the allowed part.",
  "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols < rows + (n_k - n_q)
'''},
 {"exercise": "causal_mask", "kind": "wrong", "mistake": "Returned the mask of the future keys (True = blocked), PyTorch nn.MultiheadAttention's polarity.",
  "teacher_says": "In this book True means 'may attend': the allowed keys are j <= i + n_k - n_q.",
  "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.triu(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q + 1)
'''},
 {"exercise": "causal_mask", "kind": "wrong", "mistake": "Shifted the diagonal the wrong way (n_q - n_k instead of n_k - n_q).",
  "teacher_says": "With fewer queries than keys the queries sit later, so each may see more keys: the offset is + (n_k - n_q).",
  "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_q - n_k)
'''},
 {"exercise": "causal_mask", "kind": "wrong", "mistake": "Put the keys on the rows and the queries on the columns, so the mask is transposed (shape (n_k, n_q)).",
  "teacher_says": "Rows are queries and columns keys: rows = np.arange(n_q)[:, None], cols = np.arange(n_k)[None, :].",
  "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    keys = np.arange(n_k)[:, None]
    queries = np.arange(n_q)[None, :]
    return keys <= queries + (n_k - n_q)
'''},
 {"exercise": "causal_mask", "kind": "robustness", "idea": "np.tril of np.ones without a dtype",
  "mistake": "Right pattern, but returns a float array of 1.0 and 0.0 instead of a boolean array.",
  "teacher_says": "Give np.ones dtype=bool (or compare positions): a float mask is read as an additive bias by some functions.",
  "code": '''
import numpy as np

def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k)), k=n_k - n_q)
'''},

 # ------------------------------------------------------------------ padding_mask
 {"exercise": "padding_mask", "kind": "correct", "idea": "a loop over the sequences setting the first lengths[b] keys to True",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    lengths = list(lengths)
    mask = np.zeros((len(lengths), 1, 1, n_k), dtype=bool)
    for b, length in enumerate(lengths):
        mask[b, 0, 0, :int(length)] = True
    return mask
'''},
 {"exercise": "padding_mask", "kind": "correct", "idea": "np.greater.outer of the lengths and the positions, then np.expand_dims for the two singleton axes",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    real = np.greater.outer(np.asarray(lengths), np.arange(n_k))
    return np.expand_dims(real, axis=(1, 2))
'''},
 {"exercise": "padding_mask", "kind": "wrong", "mistake": "Off-by-one: compared with <=, so the first pad of every sequence counts as real.",
  "teacher_says": "Positions count from 0: a sequence of length L has real keys 0 .. L-1, so the test is j < L.",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] <= np.asarray(lengths)[:, None]
    return real[:, None, None, :]
'''},
 {"exercise": "padding_mask", "kind": "wrong", "mistake": "Put the positions on the queries axis, shape (B, 1, n_k, 1), which masks queries instead of keys.",
  "teacher_says": "Padding hides keys, the last axis: the shape is (B, 1, 1, n_k).",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]
    return real[:, None, :, None]
'''},
 {"exercise": "padding_mask", "kind": "wrong", "mistake": "Returned the (B, n_k) comparison without the heads and queries axes.",
  "teacher_says": "Add the two singleton axes, [:, None, None, :], so the mask broadcasts over (B, h, n_q, n_k).",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    return np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]
'''},
 {"exercise": "padding_mask", "kind": "wrong", "mistake": "Marked the pads as True (>= lengths) instead of the real keys.",
  "teacher_says": "True = may attend: the real keys, j < lengths[b], must be True.",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    pads = np.arange(n_k)[None, :] >= np.asarray(lengths)[:, None]
    return pads[:, None, None, :]
'''},
 {"exercise": "padding_mask", "kind": "wrong", "mistake": "Built the comparison as (n_k, B) and reshaped it to (B, 1, 1, n_k) instead of transposing, scrambling the sequences.",
  "teacher_says": "A reshape does not transpose: compare as np.arange(n_k)[None, :] < lengths[:, None] to get (B, n_k) directly.",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths)
    real = np.arange(n_k)[:, None] < lengths[None, :]
    return real.reshape(len(lengths), 1, 1, n_k)
'''},
 {"exercise": "padding_mask", "kind": "wrong", "mistake": "Indexed the lengths with [:, None] without converting them to an array first, which fails for a plain list of lengths.",
  "teacher_says": "lengths may be a Python list: wrap it in np.asarray(lengths) before indexing with [:, None].",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] < lengths[:, None]
    return real[:, None, None, :]
'''},
 {"exercise": "padding_mask", "kind": "robustness", "idea": "validates the lengths with its own error",
  "mistake": "Correct masks, but raises its own ValueError for a sequence of length 0, which is a valid (fully padded) length.",
  "teacher_says": "A length of 0 is allowed (0 <= length <= n_k): it gives a row of False, no error.",
  "code": '''
import numpy as np

def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths)
    if (lengths <= 0).any() or (lengths > n_k).any():
        raise ValueError("every length must be between 1 and n_k")
    real = np.arange(n_k)[None, :] < lengths[:, None]
    return real[:, None, None, :]
'''},

 # ------------------------------------------------------------------ masked_softmax
 {"exercise": "masked_softmax", "kind": "correct", "idea": "maximum over the allowed scores only, exponentials zeroed by the mask, np.divide with where= and a zero-filled out=",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    allowed = np.broadcast_to(mask, scores.shape)
    filled = np.where(allowed, scores, -np.inf)
    top = np.max(filled, axis=-1, keepdims=True)
    top = np.where(np.isneginf(top), 0, top)
    e = np.where(allowed, np.exp(np.where(allowed, scores, top) - top), 0)
    total = np.sum(e, axis=-1, keepdims=True)
    out = np.zeros_like(e)
    np.divide(e, total, out=out, where=total > 0)
    return out.astype(scores.dtype, copy=False)
'''},
 {"exercise": "masked_softmax", "kind": "correct", "idea": "softmax on a -inf fill with the all-masked rows replaced by zeros first, then the rows without any allowed key zeroed again",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    mask = np.broadcast_to(mask, scores.shape)
    has_key = np.any(mask, axis=-1, keepdims=True)
    z = np.where(mask, scores, -np.inf)
    z = np.where(has_key, z, 0)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    w = e / e.sum(axis=-1, keepdims=True)
    return np.where(has_key, w, 0).astype(scores.dtype)
'''},
 {"exercise": "masked_softmax", "kind": "wrong", "mistake": "Filled forbidden scores with -1e9: a row with no allowed key gets uniform weights 1/n_k instead of zeros.",
  "teacher_says": "A finite fill makes an all-forbidden row uniform; detect rows with no True in the mask and give them zeros.",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    z = np.where(mask, scores, -1e9)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(scores.dtype)
'''},
 {"exercise": "masked_softmax", "kind": "wrong", "mistake": "Filled with -inf and ran the plain stable softmax: a fully masked row becomes -inf - (-inf) = NaN.",
  "teacher_says": "Subtract the row maximum only where it is finite (0 otherwise) and divide only where the sum is positive, so empty rows stay 0.",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    z = np.where(mask, scores, -np.inf)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''},
 {"exercise": "masked_softmax", "kind": "wrong", "mistake": "Read the mask as True = forbidden, so the weights go to exactly the keys that must get 0.",
  "teacher_says": "True means 'may attend' in this book: keep the scores where mask is True.",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    z = np.where(mask, -np.inf, scores)
    top = z.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(z - top)
    s = e.sum(axis=-1, keepdims=True)
    return e / np.where(s > 0, s, 1)
'''},
 {"exercise": "masked_softmax", "kind": "wrong", "mistake": "Used mask.all(axis=-1) to find the rows that may attend, so every row with at least one forbidden key is zeroed.",
  "teacher_says": "A row may attend something when it has at least one True: mask.any(axis=-1), not all.",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    mask = np.broadcast_to(mask, scores.shape)
    valid = mask.all(axis=-1, keepdims=True)
    z = np.where(mask, scores, -np.inf)
    z = np.where(valid, z, 0.0)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return np.where(valid, w, 0.0).astype(scores.dtype)
'''},
 {"exercise": "masked_softmax", "kind": "wrong", "mistake": "Normalised over axis -2 (the queries) instead of the keys.",
  "teacher_says": "Each query row's allowed weights must sum to 1: reduce over axis=-1.",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    z = np.where(mask, scores, -np.inf)
    top = z.max(axis=-2, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(z - top)
    s = e.sum(axis=-2, keepdims=True)
    return e / np.where(s > 0, s, 1)
'''},
 {"exercise": "masked_softmax", "kind": "wrong", "mistake": "Zeroed the forbidden exponentials in the numerator but summed all of them in the denominator.",
  "teacher_says": "Mask before summing: the denominator must add up only the allowed exponentials, otherwise the row does not sum to 1.",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    total = e.sum(axis=-1, keepdims=True)
    return (e * mask) / total
'''},
 {"exercise": "masked_softmax", "kind": "robustness", "idea": "writes -inf into the scores array itself",
  "mistake": "Right weights, but fills the forbidden scores with -inf in the caller's array (np.copyto with where=), which the statement forbids.",
  "teacher_says": "Leave the inputs unchanged: build a new array with np.where instead of writing into scores.",
  "code": '''
import numpy as np

def masked_softmax(scores, mask):
    np.copyto(scores, -np.inf, where=~np.broadcast_to(mask, scores.shape))
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(scores - top)
    s = e.sum(axis=-1, keepdims=True)
    return e / np.where(s > 0, s, 1)
'''},

 # ------------------------------------------------------------------ decoder_masks
 {"exercise": "decoder_masks", "kind": "correct", "idea": "the package's causal_mask, padding_mask and combine_masks, with np.broadcast_to for the cross mask",
  "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.combine_masks(mha.causal_mask(n_target), mha.padding_mask(target_lengths, n_target))
    source_pad = mha.padding_mask(source_lengths, n_source)
    cross_mask = np.broadcast_to(source_pad, (source_pad.shape[0], 1, n_target, n_source))
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "correct", "idea": "from scratch with 4-D position comparisons; the cross mask gets its query axis by AND with an all-True column",
  "code": '''
import numpy as np

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t_len = np.asarray(target_lengths).reshape(-1, 1, 1, 1)
    s_len = np.asarray(source_lengths).reshape(-1, 1, 1, 1)
    query_pos = np.arange(n_target).reshape(1, 1, n_target, 1)
    key_pos = np.arange(n_target).reshape(1, 1, 1, n_target)
    self_mask = (key_pos <= query_pos) & (key_pos < t_len)
    source_pos = np.arange(n_source).reshape(1, 1, 1, n_source)
    cross_mask = (source_pos < s_len) & np.ones((1, 1, n_target, 1), dtype=bool)
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong", "mistake": "Made the cross-attention mask causal as well, so target query i only reads the first source tokens.",
  "teacher_says": "Only the self-attention is causal; in cross-attention every target query may read every real source token.",
  "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = mha.causal_mask(n_target, n_source) & mha.padding_mask(source_lengths, n_source)
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong", "mistake": "Self-attention mask is causal only: the target's pad keys are not hidden.",
  "teacher_says": "The self-attention mask needs causal AND target padding (a query must not read a pad key).",
  "code": '''
import numpy as np
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    self_mask = np.broadcast_to(mha.causal_mask(n_target), (B, 1, n_target, n_target))
    source_pad = mha.padding_mask(source_lengths, n_source)
    cross_mask = np.broadcast_to(source_pad, (B, 1, n_target, n_source))
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong", "mistake": "Also blanked the pad queries' rows in both masks, which the statement says not to do.",
  "teacher_says": "Padding hides keys, not queries: a pad query keeps the row a real query at its position would have.",
  "code": '''
import numpy as np

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t = np.asarray(target_lengths)
    s = np.asarray(source_lengths)
    t_real = np.arange(n_target)[None, :] < t[:, None]
    s_real = np.arange(n_source)[None, :] < s[:, None]
    causal = np.tril(np.ones((n_target, n_target), dtype=bool))
    self_mask = causal & t_real[:, None, None, :] & t_real[:, None, :, None]
    cross_mask = s_real[:, None, None, :] & t_real[:, None, :, None]
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong", "mistake": "Mixed up the two length arrays: the cross-attention mask hides source keys using the target lengths.",
  "teacher_says": "Cross-attention keys are the source's tokens: pad them with source_lengths.",
  "code": '''
import numpy as np

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t = np.asarray(target_lengths)
    causal = np.arange(n_target)[None, :] <= np.arange(n_target)[:, None]
    self_mask = causal[None, None] & (np.arange(n_target) < t[:, None])[:, None, None, :]
    cross_real = np.arange(n_source)[None, :] < t[:, None]
    cross_mask = np.broadcast_to(cross_real[:, None, None, :], (len(t), 1, n_target, n_source))
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong", "mistake": "Returned the cross-attention mask as the bare padding mask, shape (B, 1, 1, n_s), without the target query axis.",
  "teacher_says": "The statement asks for shape (B, 1, n_t, n_s): np.broadcast_to the padding mask to it.",
  "code": '''
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = mha.padding_mask(source_lengths, n_source)
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong", "mistake": "Copy-paste slip: the self-attention mask pads the target keys with the source lengths.",
  "teacher_says": "The self-attention's keys are target tokens: use target_lengths there and source_lengths only for the cross mask.",
  "code": '''
import numpy as np

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    src = np.asarray(source_lengths)
    causal = np.tril(np.ones((n_target, n_target), dtype=bool))
    target_keys = (np.arange(n_target)[None, :] < src[:, None])[:, None, None, :]
    self_mask = causal & target_keys
    source_keys = (np.arange(n_source)[None, :] < src[:, None])[:, None, None, :]
    cross_mask = np.broadcast_to(source_keys, (len(src), 1, n_target, n_source))
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "robustness", "idea": "returns torch tensors, ready for the PyTorch model",
  "mistake": "Right masks, but returned as torch bool tensors instead of NumPy arrays.",
  "teacher_says": "The exercise works in NumPy: return NumPy arrays and convert at the PyTorch boundary.",
  "code": '''
import numpy as np
import torch
import mha

def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    source_pad = mha.padding_mask(source_lengths, n_source)
    cross_mask = np.broadcast_to(source_pad, (source_pad.shape[0], 1, n_target, n_source)).copy()
    return torch.from_numpy(self_mask), torch.from_numpy(cross_mask)
'''},

 # ------------------------------------------------------------------ cross_attention_weights_shape
 {"exercise": "cross_attention_weights_shape", "kind": "correct", "idea": "named sizes (B, h, n_q, n_k)",
  "code": '''
B, h, n_q, n_k = 2, 4, 7, 11
cross_attention_weights_shape = (B, h, n_q, n_k)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "correct", "idea": "run mha.multi_head_attention on zeros of the right sizes and read the shape",
  "code": '''
import numpy as np
import mha

_params = mha.init_params(16, 4)
_decoder = np.zeros((2, 7, 16), dtype=np.float32)
_encoder = np.zeros((2, 11, 16), dtype=np.float32)
cross_attention_weights_shape = mha.multi_head_attention(_decoder, _encoder, _encoder, _params)[1].shape
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "Swapped queries and keys: one row per encoder token.",
  "teacher_says": "The queries are the decoder's 7 tokens (rows) and the keys the encoder's 11 (columns): (2, 4, 7, 11).",
  "code": '''
cross_attention_weights_shape = (2, 4, 11, 7)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "Gave the head-averaged shape that nn.MultiheadAttention returns by default.",
  "teacher_says": "mha.multi_head_attention returns one matrix per head: (B, h, n_q, n_k).",
  "code": '''
cross_attention_weights_shape = (2, 7, 11)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "Answered with the self-attention shape, as if the keys were the decoder's tokens.",
  "teacher_says": "In cross-attention the keys come from the encoder: n_k = 11.",
  "code": '''
cross_attention_weights_shape = (2, 4, 7, 7)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "Put the heads axis after the queries axis.",
  "teacher_says": "The heads axis comes before the queries: (B, h, n_q, n_k).",
  "code": '''
cross_attention_weights_shape = (2, 7, 4, 11)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong", "mistake": "Put the heads axis in front of the batch axis.",
  "teacher_says": "Batch first, then heads: (2, 4, 7, 11).",
  "code": '''
cross_attention_weights_shape = (4, 2, 7, 11)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "robustness", "idea": "a NumPy array of the sizes",
  "mistake": "Right sizes, but stored as a NumPy integer array instead of a tuple.",
  "teacher_says": "A shape is a tuple of ints: (2, 4, 7, 11).",
  "code": '''
import numpy as np

cross_attention_weights_shape = np.array([2, 4, 7, 11])
'''},
]
