ANSWERS = [
 # ----------------------------------------------------------------- causal_mask
 {"exercise": "causal_mask", "kind": "correct",
  "idea": "np.tril on a boolean block of ones, with the diagonal offset k = n_k - n_q",
  "code": '''
import numpy as np
def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)
'''},
 {"exercise": "causal_mask", "kind": "correct",
  "idea": "explicit loops: fill each query row up to its position in the full sequence",
  "code": '''
import numpy as np
def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    mask = np.zeros((n_q, n_k), dtype=bool)
    for i in range(n_q):
        position = i + n_k - n_q
        for j in range(n_k):
            if j <= position:
                mask[i, j] = True
    return mask
'''},
 {"exercise": "causal_mask", "kind": "wrong",
  "mistake": "aligns the triangle top-left (plain np.tril), which is only right when n_q == n_k",
  "teacher_says": "The queries are the last n_q positions: shift the diagonal by n_k - n_q (np.tril(..., k=n_k - n_q)).",
  "code": '''
import numpy as np
def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool))
'''},
 {"exercise": "causal_mask", "kind": "wrong",
  "mistake": "uses a strict comparison, so a query may not attend its own position (diagonal excluded)",
  "teacher_says": "Query i may attend keys 0 .. i + n_k - n_q inclusive: use <=, the diagonal is allowed.",
  "code": '''
import numpy as np
def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols < rows + (n_k - n_q)
'''},
 {"exercise": "causal_mask", "kind": "wrong",
  "mistake": "shifts the triangle the wrong way, by n_q - n_k instead of n_k - n_q",
  "teacher_says": "Query i sits at position i + n_k - n_q (it is later than i when there are more keys than queries).",
  "code": '''
import numpy as np
def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols <= rows + (n_q - n_k)
'''},
 {"exercise": "causal_mask", "kind": "wrong",
  "mistake": "builds PyTorch nn.MultiheadAttention's polarity: True on the future keys that are blocked",
  "teacher_says": "This book's masks are True where the query may attend: the lower (bottom-right aligned) triangle, not its complement.",
  "code": '''
import numpy as np
def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.triu(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q + 1)
'''},
 {"exercise": "causal_mask", "kind": "wrong",
  "mistake": "creates the array with shape (n_k, n_q): the two sizes swapped",
  "teacher_says": "One row per query, one column per key: shape (n_q, n_k).",
  "code": '''
import numpy as np
def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_k, n_q), dtype=bool), k=n_k - n_q)
'''},
 {"exercise": "causal_mask", "kind": "robustness",
  "idea": "np.tril of np.ones without a dtype",
  "mistake": "returns a float64 array of 0.0 and 1.0 instead of a boolean mask (right pattern)",
  "teacher_says": "Masks are boolean: np.ones(..., dtype=bool), or compare indices; a float mask of 1.0/0.0 behaves differently with ~ and as an additive mask.",
  "code": '''
import numpy as np
def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k)), k=n_k - n_q)
'''},
 # ---------------------------------------------------------------- padding_mask
 {"exercise": "padding_mask", "kind": "correct",
  "idea": "compare positions with the lengths as a column, then reshape to (B, 1, 1, n_k)",
  "code": '''
import numpy as np
def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths).reshape(-1, 1)
    real = np.arange(n_k) < lengths
    return real.reshape(len(lengths), 1, 1, n_k)
'''},
 {"exercise": "padding_mask", "kind": "correct",
  "idea": "start from all False and set the first lengths[b] keys of each sequence to True in a loop",
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
  "mistake": "off by one: j <= length also marks the first pad as real",
  "teacher_says": "A sequence of length L has real keys 0 .. L-1: use j < lengths[b].",
  "code": '''
import numpy as np
def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] <= np.asarray(lengths)[:, None]
    return real[:, None, None, :]
'''},
 {"exercise": "padding_mask", "kind": "wrong",
  "mistake": "returns the (B, n_k) comparison without the heads and queries axes",
  "teacher_says": "Add the two singleton axes, [:, None, None, :], so that the mask broadcasts against (B, h, n_q, n_k).",
  "code": '''
import numpy as np
def padding_mask(lengths, n_k):
    return np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]
'''},
 {"exercise": "padding_mask", "kind": "wrong",
  "mistake": "puts the key axis in the queries' place, shape (B, 1, n_k, 1), which masks pad queries instead of pad keys",
  "teacher_says": "Padding hides keys: the positions go on the last axis, [:, None, None, :].",
  "code": '''
import numpy as np
def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]
    return real[:, None, :, None]
'''},
 {"exercise": "padding_mask", "kind": "wrong",
  "mistake": "marks the pads with True (True = padding, as in nn.MultiheadAttention's key_padding_mask)",
  "teacher_says": "In this book True means 'may attend': True where j < lengths[b], the real keys.",
  "code": '''
import numpy as np
def padding_mask(lengths, n_k):
    pad = np.arange(n_k)[None, :] >= np.asarray(lengths)[:, None]
    return pad[:, None, None, :]
'''},
 {"exercise": "padding_mask", "kind": "wrong",
  "mistake": "broadcasts the comparison the other way round, getting (n_k, B), and reshapes it to (B, 1, 1, n_k) instead of transposing",
  "teacher_says": "Put the lengths on the rows (lengths[:, None]) and the positions on the columns; a reshape does not turn (n_k, B) into (B, n_k).",
  "code": '''
import numpy as np
def padding_mask(lengths, n_k):
    lengths = np.asarray(lengths)
    real = np.arange(n_k)[:, None] < lengths[None, :]
    return real.reshape(len(lengths), 1, 1, n_k)
'''},
 {"exercise": "padding_mask", "kind": "wrong",
  "mistake": "adds only one singleton axis, (B, 1, n_k): against (B, h, n_q, n_k) the batch axis then lines up with the queries axis",
  "teacher_says": "Broadcasting aligns axes from the right: the mask needs both singleton axes, (B, 1, 1, n_k).",
  "code": '''
import numpy as np
def padding_mask(lengths, n_k):
    real = np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]
    return real[:, None, :]
'''},
 {"exercise": "padding_mask", "kind": "robustness",
  "idea": "written with torch",
  "mistake": "returns a torch bool tensor instead of a NumPy array (right values and shape)",
  "teacher_says": "The NumPy layer expects NumPy masks: build it with np.arange, or call .numpy() on the result.",
  "code": '''
import torch
def padding_mask(lengths, n_k):
    lengths = torch.as_tensor(lengths)
    return (torch.arange(n_k)[None, :] < lengths[:, None])[:, None, None, :]
'''},
 # -------------------------------------------------------------- masked_softmax
 {"exercise": "masked_softmax", "kind": "correct",
  "idea": "let the -inf rows become NaN under np.errstate, then replace NaN by 0 with np.nan_to_num",
  "code": '''
import numpy as np
def masked_softmax(scores, mask):
    s = np.where(mask, scores, -np.inf)
    with np.errstate(invalid="ignore"):
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        w = e / e.sum(axis=-1, keepdims=True)
    return np.nan_to_num(w, nan=0.0).astype(scores.dtype, copy=False)
'''},
 {"exercise": "masked_softmax", "kind": "correct",
  "idea": "max over the allowed scores only (np.max with where= and initial=), exponentials zeroed outside the mask, division guarded with np.divide(where=)",
  "code": '''
import numpy as np
def masked_softmax(scores, mask):
    mask = np.broadcast_to(mask, np.broadcast_shapes(np.shape(mask), scores.shape))
    scores = np.broadcast_to(scores, mask.shape)
    top = np.max(scores, axis=-1, keepdims=True, where=mask, initial=-np.inf)
    top = np.where(np.isfinite(top), top, 0).astype(scores.dtype)
    e = np.exp(np.where(mask, scores - top, -np.inf))
    total = e.sum(axis=-1, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "fills forbidden scores with -1e9: a row whose keys are all forbidden gets uniform weights 1/n_k instead of zeros",
  "teacher_says": "With a finite fill value the all-forbidden row is a softmax of equal numbers; detect rows with no allowed key and return zeros for them.",
  "code": '''
import numpy as np
def masked_softmax(scores, mask):
    s = np.where(mask, scores, -1e9)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "fills with -inf and runs the plain stable softmax: rows with no allowed key become NaN",
  "teacher_says": "-inf - (-inf) is NaN: where a row's maximum is -inf subtract 0 instead, and divide by 1 where the sum is 0.",
  "code": '''
import numpy as np
def masked_softmax(scores, mask):
    s = np.where(mask, scores, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "takes the softmax of all scores and zeroes the forbidden weights afterwards, without renormalising",
  "teacher_says": "Mask before the softmax: the allowed weights must sum to 1 among themselves, which multiplying by the mask afterwards does not give.",
  "code": '''
import numpy as np
def masked_softmax(scores, mask):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w * mask
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "reads the mask as True = forbidden and puts -inf where the mask is True",
  "teacher_says": "True means 'may attend': keep the scores where mask is True, np.where(mask, scores, -np.inf).",
  "code": '''
import numpy as np
def masked_softmax(scores, mask):
    s = np.where(mask, -np.inf, scores)
    top = s.max(axis=-1, keepdims=True)
    top = np.where(np.isneginf(top), 0, top)
    e = np.exp(s - top)
    total = e.sum(axis=-1, keepdims=True)
    return e / np.where(total == 0, 1, total)
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "normalises over axis -2 (the queries) instead of each query's row",
  "teacher_says": "Each query row sums to 1: reduce over the keys, axis=-1, for both the max and the sum.",
  "code": '''
import numpy as np
def masked_softmax(scores, mask):
    s = np.where(mask, scores, -np.inf)
    top = s.max(axis=-2, keepdims=True)
    top = np.where(np.isneginf(top), 0, top)
    e = np.exp(s - top)
    total = e.sum(axis=-2, keepdims=True)
    return e / np.where(total == 0, 1, total)
'''},
 {"exercise": "masked_softmax", "kind": "wrong",
  "mistake": "sets the forbidden scores to 0 instead of -inf, so forbidden keys still get weight exp(0 - max)",
  "teacher_says": "A score of 0 is an ordinary score, not 'forbidden': use -inf so that its exponential is exactly 0.",
  "code": '''
import numpy as np
def masked_softmax(scores, mask):
    s = np.where(mask, scores, 0.0)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''},
 {"exercise": "masked_softmax", "kind": "robustness",
  "idea": "writes -inf into the scores with np.copyto",
  "mistake": "overwrites the caller's scores array in place (np.copyto(scores, -np.inf, where=~mask)); the weights are right but the input is changed, which the exercise forbids",
  "teacher_says": "Leave the inputs unchanged: np.where(mask, scores, -np.inf) builds a new array.",
  "code": '''
import numpy as np
def masked_softmax(scores, mask):
    np.copyto(scores, -np.inf, where=~np.asarray(mask, dtype=bool))
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isneginf(top), 0, top)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    return e / np.where(total == 0, 1, total)
'''},
 # --------------------------------------------------------------- decoder_masks
 {"exercise": "decoder_masks", "kind": "correct",
  "idea": "built from mha.causal_mask and mha.padding_mask; the cross mask repeated along the queries axis with np.repeat (its own array, not a view)",
  "code": '''
import numpy as np
import mha
def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = np.repeat(mha.padding_mask(source_lengths, n_source), n_target, axis=2)
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "correct",
  "idea": "index comparisons written out with broadcasting, and an AND with a (1, 1, n_t, 1) block of True to give the cross mask its queries axis",
  "code": '''
import numpy as np
def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    t_len = np.asarray(target_lengths)[:, None, None, None]
    s_len = np.asarray(source_lengths)[:, None, None, None]
    i = np.arange(n_target)[None, None, :, None]
    j = np.arange(n_target)[None, None, None, :]
    self_mask = (j <= i) & (j < t_len)
    s = np.arange(n_source)[None, None, None, :]
    cross_mask = (s < s_len) & np.ones((1, 1, n_target, 1), dtype=bool)
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong",
  "mistake": "makes the cross-attention causal too (a bottom-right causal mask over the source)",
  "teacher_says": "Only the decoder's self-attention is causal; the encoder's output is all there, so every target query may read every real source token.",
  "code": '''
import numpy as np
import mha
def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = mha.causal_mask(n_target, n_source) & mha.padding_mask(source_lengths, n_source)
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong",
  "mistake": "swaps the lengths: pads the target with source_lengths and the source with target_lengths",
  "teacher_says": "Each mask hides the pads of its own keys: target keys in self-attention (target_lengths), source keys in cross-attention (source_lengths).",
  "code": '''
import numpy as np
import mha
def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    target_real = np.arange(n_target)[None, :] < np.asarray(source_lengths)[:, None]
    source_real = np.arange(n_source)[None, :] < np.asarray(target_lengths)[:, None]
    self_mask = mha.causal_mask(n_target) & target_real[:, None, None, :]
    cross_mask = np.broadcast_to(source_real[:, None, None, :], (len(target_lengths), 1, n_target, n_source))
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong",
  "mistake": "blanks the pad queries' rows as well as the pad keys in the self-attention mask",
  "teacher_says": "Padding hides keys, not queries: a pad query keeps what a real query at its position may attend (the statement says its rows are not blanked).",
  "code": '''
import numpy as np
import mha
def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    keys = mha.padding_mask(target_lengths, n_target)
    queries = np.swapaxes(keys, -1, -2)
    self_mask = mha.causal_mask(n_target) & keys & queries
    cross = mha.padding_mask(source_lengths, n_source)
    cross_mask = np.broadcast_to(cross, (cross.shape[0], 1, n_target, n_source))
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong",
  "mistake": "returns the cross mask as the bare padding mask, shape (B, 1, 1, n_s), without its queries axis",
  "teacher_says": "The exercise asks for shape (B, 1, n_t, n_s): broadcast the padding mask over the target queries (np.broadcast_to).",
  "code": '''
import mha
def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = mha.padding_mask(source_lengths, n_source)
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong",
  "mistake": "forgets the target padding in the self-attention mask (only causal, broadcast over the batch)",
  "teacher_says": "With padding at the end the causal mask happens to keep real queries off the pads, but a pad query still reads the pads before it, and the statement says no query may read a pad key: AND the causal mask with the target padding mask.",
  "code": '''
import numpy as np
import mha
def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    B = len(target_lengths)
    self_mask = np.broadcast_to(mha.causal_mask(n_target), (B, 1, n_target, n_target))
    cross = mha.padding_mask(source_lengths, n_source)
    cross_mask = np.broadcast_to(cross, (B, 1, n_target, n_source))
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "wrong",
  "mistake": "combines the causal and the padding mask with OR instead of AND",
  "teacher_says": "A key must be allowed by both rules: not in the future AND not a pad, so combine with &.",
  "code": '''
import numpy as np
import mha
def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) | mha.padding_mask(target_lengths, n_target)
    cross = mha.padding_mask(source_lengths, n_source)
    cross_mask = np.broadcast_to(cross, (cross.shape[0], 1, n_target, n_source))
    return self_mask, cross_mask
'''},
 {"exercise": "decoder_masks", "kind": "robustness",
  "idea": "returns a list",
  "mistake": "returns [self_mask, cross_mask] as a list instead of a tuple (right masks)",
  "teacher_says": "Return a tuple, (self_mask, cross_mask), as the statement says.",
  "code": '''
import numpy as np
import mha
def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross = mha.padding_mask(source_lengths, n_source)
    cross_mask = np.broadcast_to(cross, (cross.shape[0], 1, n_target, n_source))
    return [self_mask, cross_mask]
'''},
 # ------------------------------------------------ cross_attention_weights_shape
 {"exercise": "cross_attention_weights_shape", "kind": "correct",
  "idea": "named sizes in the order (batch, heads, queries, keys)",
  "code": '''
batch, heads, n_queries, n_keys = 2, 4, 7, 11
cross_attention_weights_shape = (batch, heads, n_queries, n_keys)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "correct",
  "idea": "runs mha.multi_head_attention on random inputs of those sizes and reads the weights' shape",
  "code": '''
import numpy as np
import mha
rng = np.random.default_rng(0)
params = mha.init_params(8, 4)
target = rng.normal(size=(2, 7, 8)).astype(np.float32)
source = rng.normal(size=(2, 11, 8)).astype(np.float32)
_, weights = mha.multi_head_attention(target, source, source, params)
cross_attention_weights_shape = tuple(weights.shape)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong",
  "mistake": "swaps the queries and keys axes",
  "teacher_says": "A row per query (the 7 decoder tokens) and a column per key (the 11 encoder tokens): (2, 4, 7, 11).",
  "code": '''
cross_attention_weights_shape = (2, 4, 11, 7)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong",
  "mistake": "drops the heads axis, as nn.MultiheadAttention's averaged weights would have it",
  "teacher_says": "mha.multi_head_attention returns every head's weights: (batch, heads, n_q, n_k).",
  "code": '''
cross_attention_weights_shape = (2, 7, 11)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong",
  "mistake": "uses the decoder length for both axes, as in self-attention",
  "teacher_says": "In cross-attention the keys come from the encoder: n_k = 11, not 7.",
  "code": '''
cross_attention_weights_shape = (2, 4, 7, 7)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong",
  "mistake": "puts the heads axis after the queries axis",
  "teacher_says": "The heads axis comes right after the batch axis: (B, h, n_q, n_k).",
  "code": '''
cross_attention_weights_shape = (2, 7, 4, 11)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "wrong",
  "mistake": "folds the heads into the batch, (B*h, n_q, n_k)",
  "teacher_says": "This book keeps the batch and heads axes apart: (2, 4, 7, 11).",
  "code": '''
cross_attention_weights_shape = (2 * 4, 7, 11)
'''},
 {"exercise": "cross_attention_weights_shape", "kind": "robustness",
  "idea": "stores the shape as a NumPy array",
  "mistake": "assigns np.array([2, 4, 7, 11]) instead of a tuple (comparing it with a tuple gives an array, not a bool)",
  "teacher_says": "Assign a tuple of ints: (2, 4, 7, 11).",
  "code": '''
import numpy as np
cross_attention_weights_shape = np.array([2, 4, 7, 11])
'''},
]
