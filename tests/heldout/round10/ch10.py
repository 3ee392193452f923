# writer C's answers, then writer G's (each file verbatim)
"""Writer C, chapter 10 (The Transformer): student answers."""

ANSWERS = [
 # ---------------------------------------------------------------- sinusoidal
 {"exercise": "sinusoidal", "kind": "correct",
  "idea": "angles from exp(-log(10000) * 2i/d), sines and cosines stacked on a last axis of 2 and reshaped to interleave",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    inv_freq = np.exp(-np.log(10000.0) * np.arange(0, d_model, 2) / d_model)
    angles = np.outer(np.arange(n, dtype=np.float64), inv_freq)        # (n, d/2)
    return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(n, d_model)
'''},
 {"exercise": "sinusoidal", "kind": "robustness",
  "idea": "fills a list of lists with math.sin / math.cos one entry at a time, then converts",
  "code": '''
import math

import numpy as np

def sinusoidal(n, d_model):
    table = []
    for p in range(n):
        row = []
        for i in range(d_model // 2):
            angle = p / 10000 ** (2 * i / d_model)
            row.append(math.sin(angle))
            row.append(math.cos(angle))
        table.append(row)
    return np.array(table, dtype=np.float64).reshape(n, d_model)
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Uses the exponent i/d_model instead of 2i/d_model, so the frequencies fall twice as slowly.",
  "teacher_says": "Column pair i uses 10000^(2i/d_model): take np.arange(0, d_model, 2) / d_model, not np.arange(d_model // 2) / d_model.",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    pos = np.arange(n)[:, None]
    div = 10000 ** (np.arange(d_model // 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(pos / div)
    pe[:, 1::2] = np.cos(pos / div)
    return pe
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Puts all the sines in the first half of the columns and all the cosines in the second, instead of alternating them.",
  "teacher_says": "PE[p, 2i] is a sine and PE[p, 2i+1] a cosine: fill the even and odd columns, do not concatenate halves.",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    pos = np.arange(n)[:, None]
    div = 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(pos / div), np.cos(pos / div)], axis=1)
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Numbers the positions from 1 to n instead of from 0 to n-1.",
  "teacher_says": "The first row encodes position 0 (sines 0, cosines 1): use np.arange(n).",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    pos = np.arange(1, n + 1)[:, None]
    div = 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.empty((n, d_model))
    pe[:, 0::2] = np.sin(pos / div)
    pe[:, 1::2] = np.cos(pos / div)
    return pe
'''},

 # ---------------------------------------------------------------- apply_rope
 {"exercise": "apply_rope", "kind": "correct",
  "idea": "rotates the two halves explicitly as a 2-D rotation, angles in float64, cast back to x's dtype",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    half = d // 2
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-2.0 * np.arange(half) / d)
    angles = p.astype(np.float64)[:, None] * theta          # (n, d/2)
    c, s = np.cos(angles), np.sin(angles)
    x1, x2 = x[..., :half], x[..., half:]
    first = x1 * c - x2 * s
    second = x2 * c + x1 * s
    return np.concatenate([first, second], axis=-1).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "robustness",
  "idea": "a Python loop over the d/2 feature pairs, each rotated with its own angle in float64, written into a new array",
  "code": '''
import math

import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    pos = list(range(n)) if positions is None else [int(p) for p in np.asarray(positions).tolist()]
    pos = np.array(pos, dtype=np.float64)
    xd = np.asarray(x, dtype=np.float64)
    out = np.empty_like(xd)
    for i in range(d // 2):
        theta = math.pow(10000.0, -2.0 * i / d)
        c = np.cos(pos * theta)[:, None][..., 0]
        s = np.sin(pos * theta)[:, None][..., 0]
        a, b = xd[..., i], xd[..., i + d // 2]
        out[..., i] = a * c - b * s
        out[..., i + d // 2] = b * c + a * s
    return out.astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Rotates neighbouring features (2i, 2i+1) together, the interleaved layout of the RoFormer paper, instead of i and i + d/2.",
  "teacher_says": "The exercise asks for the rotate-half layout: feature i is paired with feature i + d/2.",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = p[:, None] * theta
    c, s = np.cos(angles), np.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = even * c - odd * s
    out[..., 1::2] = odd * c + even * s
    return out
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Writes rotate_half as (x2, -x1) instead of (-x2, x1), so every pair turns by minus the angle.",
  "teacher_says": "rotate_half(x) = (-x[d/2:], x[:d/2]); with the signs swapped the rotation goes the other way.",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = p[:, None] * theta
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rotated = np.concatenate([x[..., d // 2:], -x[..., :d // 2]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Forgets to cast the result back: the float64 angles turn a float32 input into a float64 output.",
  "teacher_says": "Return x's dtype: the cos and sin are float64, so cast the result with .astype(x.dtype).",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = p[:, None] * theta
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rotated = np.concatenate([-x[..., d // 2:], x[..., :d // 2]], axis=-1)
    return x * cos + rotated * sin
'''},

 # ---------------------------------------------------------------- pre_ln_block
 {"exercise": "pre_ln_block", "kind": "correct",
  "idea": "two named residual updates, the attention's weights discarded by tuple unpacking",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    attended, _ = attention(norm1(x), mask=mask)
    stream = x + attended
    return stream + feed_forward(norm2(stream))
'''},
 {"exercise": "pre_ln_block", "kind": "robustness",
  "idea": "clones the stream, passes q, k and v explicitly and asks for the (unused) weights; allocates more than needed",
  "code": '''
import torch

def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    residual = x.clone()
    y = norm1(residual)
    result = attention(y, y, y, mask=mask, need_weights=True)
    attn_out = result[0]
    residual = torch.add(residual, attn_out)
    z = norm2(residual.clone())
    ff_out = feed_forward(z)
    return torch.add(residual, ff_out)
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Writes the post-LN block: normalises after each residual addition instead of before each sublayer.",
  "teacher_says": "Pre-LN normalises the sublayer's input and leaves the residual path untouched: x = x + sublayer(norm(x)).",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x + attention(x, mask=mask)[0])
    return norm2(x + feed_forward(x))
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Overwrites x with its normalised version, so the residual adds the normalised stream instead of the raw one.",
  "teacher_says": "Keep the raw x for the residual: only the sublayer's input is normalised.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x)
    x = x + attention(x, mask=mask)[0]
    x = norm2(x)
    return x + feed_forward(x)
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Feeds the feed-forward network the block's input rather than the stream after the attention's residual (a parallel block).",
  "teacher_says": "The two steps are sequential: the feed-forward network reads norm2 of x after the attention has been added.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    attended = attention(norm1(x), mask=mask)[0]
    return x + attended + feed_forward(norm2(x))
'''},

 # ---------------------------------------------------------------- induction_score
 {"exercise": "induction_score", "kind": "correct",
  "idea": "the stripe w[i, i - m + 1] is the diagonal at offset -(m - 1); drop its first entry (query m - 1) and average",
  "code": '''
import numpy as np

def induction_score(weights, period):
    stripe = np.diagonal(weights, offset=-(period - 1), axis1=-2, axis2=-1)  # queries m-1 .. n-1
    return stripe[..., 1:].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "robustness",
  "idea": "Python loop over the scored queries, accumulating in float64, cast back to the weights' dtype",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    total = np.zeros(weights.shape[:-2], dtype=np.float64)
    count = 0
    for i in range(period, n):
        total = total + weights[..., i, i - period + 1].astype(np.float64)
        count += 1
    return np.asarray(total / count).astype(weights.dtype)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Scores the weight on key i - m, the earlier copy of the token itself, instead of the token that followed it.",
  "teacher_says": "An induction head looks at the token after the earlier copy: key i - m + 1, not i - m.",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    return weights[..., queries, queries - period].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Starts the scored queries at m - 1 instead of m, including a query that has no earlier copy.",
  "teacher_says": "Only queries i >= m have an earlier copy; start at period, not period - 1.",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period - 1, n)
    return weights[..., queries, queries - period + 1].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Swaps the two index arrays, reading row i - m + 1 and column i (a key attending to a later query) instead of row i and column i - m + 1.",
  "teacher_says": "Rows are queries and columns keys: index weights[..., queries, keys].",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    keys = queries - period + 1
    return weights[..., keys, queries].mean(axis=-1)
'''},
]

_WRITER_C = ANSWERS

ANSWERS = [
 # ------------------------------------------------------------------ sinusoidal
 {"exercise": "sinusoidal", "kind": "correct",
  "idea": "frequencies via exp(-log(10000) 2i/d), sin and cos stacked on a new last axis then reshaped to interleave them",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    theta = np.exp(-np.log(10000.0) * np.arange(0, d_model, 2) / d_model)  # (d/2,)
    angles = np.arange(n, dtype=np.float64)[:, None] * theta[None, :]      # (n, d/2)
    return np.stack((np.sin(angles), np.cos(angles)), axis=-1).reshape(n, d_model)
'''},
 {"exercise": "sinusoidal", "kind": "robustness",
  "idea": "fills the table entry by entry with math.sin and math.cos in nested Python loops",
  "code": '''
import math
import numpy as np

def sinusoidal(n, d_model):
    rows = []
    for p in range(n):
        row = []
        for i in range(d_model // 2):
            angle = p / 10000 ** (2 * i / d_model)
            row.append(math.sin(angle))
            row.append(math.cos(angle))
        rows.append(row)
    return np.array(rows, dtype=np.float64).reshape(n, d_model)
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Puts all the sines in the first half of the columns and all the cosines in the second half (the concatenated layout of some libraries) instead of interleaving them.",
  "teacher_says": "The statement puts sin at even columns 2i and cos at odd columns 2i+1: interleave, do not concatenate.",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Uses the exponent i/d_model instead of 2i/d_model (divides np.arange(d_model // 2) by d_model), so the frequencies fall only half as fast.",
  "teacher_says": "The exponent is 2i/d_model: use np.arange(0, d_model, 2) / d_model, or 2 * np.arange(d_model // 2) / d_model.",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    i = np.arange(d_model // 2)
    angles = np.arange(n)[:, None] / 10000 ** (i / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Numbers the positions from 1 to n instead of from 0 to n-1 (an off-by-one in np.arange).",
  "teacher_says": "Row p encodes position p = 0, ..., n-1: row 0 must be sin 0 = 0 and cos 0 = 1.",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    positions = np.arange(1, n + 1)[:, None]
    angles = positions / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.empty((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
 # ------------------------------------------------------------------ apply_rope
 {"exercise": "apply_rope", "kind": "correct",
  "idea": "split the last axis into halves and write the 2-D rotation of each pair explicitly",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    half = d // 2
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(half) * 2.0 / d)
    angle = p.astype(np.float64)[:, None] * theta          # (n, d/2)
    c, s = np.cos(angle), np.sin(angle)
    x1, x2 = x[..., :half], x[..., half:]
    out = np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=-1)
    return out.astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "robustness",
  "idea": "rotates one feature pair at a time in a Python loop, in float64, and allocates a fresh output it casts back",
  "code": '''
import math
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    if positions is None:
        positions = list(range(n))
    positions = [float(p) for p in np.asarray(positions).tolist()]
    x64 = np.array(x, dtype=np.float64)
    out = np.zeros_like(x64)
    for i in range(d // 2):
        theta = 10000.0 ** (-2.0 * i / d)
        cos = np.array([math.cos(p * theta) for p in positions])
        sin = np.array([math.sin(p * theta) for p in positions])
        a, b = x64[..., i], x64[..., i + d // 2]
        out[..., i] = a * cos - b * sin
        out[..., i + d // 2] = b * cos + a * sin
    return out.astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Rotates adjacent features (0, 1), (2, 3), ... together, the interleaved layout of the RoFormer paper and GPT-J, instead of feature i with feature i + d/2.",
  "teacher_says": "The statement asks for the rotate-half layout: feature i pairs with feature i + d/2, not with i + 1.",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = p[:, None] * theta
    cos, sin = np.cos(angles), np.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = odd * cos + even * sin
    return out
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Writes rotate_half as (x2, -x1) instead of (-x2, x1): every pair is rotated by -p theta, the wrong direction.",
  "teacher_says": "rotate_half(x) = (-x[d/2:], x[:d/2]); with the sign swapped the rotation runs backwards.",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    angles = p[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rotated = np.concatenate([x[..., d // 2:], -x[..., :d // 2]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Forgets to cast back: the angles are float64, so a float32 input comes back as float64.",
  "teacher_says": "Return x's dtype: cast the result with .astype(x.dtype) after computing in float64.",
  "code": '''
import numpy as np

def rotate_half(x):
    h = x.shape[-1] // 2
    return np.concatenate([-x[..., h:], x[..., :h]], axis=-1)

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    angles = p[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    return x * cos + rotate_half(x) * sin
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Accepts positions but then builds the angles from np.arange(n) anyway (a copy-pasted line), so given positions are ignored.",
  "teacher_says": "Use the positions you were given: a KV cache's token at position 10 must be rotated by 10 theta, not 0.",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    if positions is None:
        positions = np.arange(n)
    angles = np.arange(n)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rotated = np.concatenate([-x[..., d // 2:], x[..., :d // 2]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)
'''},
 # ------------------------------------------------------------------ pre_ln_block
 {"exercise": "pre_ln_block", "kind": "correct",
  "idea": "a loop over the two (norm, sub-layer) pairs, each a residual step",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    def attend(y):
        return attention(y, mask=mask)[0]

    for norm, sublayer in ((norm1, attend), (norm2, feed_forward)):
        x = x + sublayer(norm(x))
    return x
'''},
 {"exercise": "pre_ln_block", "kind": "robustness",
  "idea": "passes q, k, v explicitly as clones, asks for the weights it throws away, and keeps every intermediate",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    normed = norm1(x.clone())
    attended, _weights = attention(normed, normed.clone(), normed.clone(), mask=mask,
                                   need_weights=True)
    after_attention = x.clone() + attended
    normed2 = norm2(after_attention)
    ffn_out = feed_forward(normed2)
    result = after_attention + ffn_out
    return result
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Writes the post-LN block of the original Transformer: the LayerNorm after each residual addition.",
  "teacher_says": "Pre-LN normalises the sub-layer's input, x + MHA(LN1(x)), and leaves the residual stream unnormalised.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x + attention(x, mask=mask)[0])
    return norm2(x + feed_forward(x))
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Adds the residual to the normalised input instead of to x: h = LN1(x); x = h + MHA(h).",
  "teacher_says": "The residual carries the raw x around the sub-layer: x + MHA(LN1(x)), not LN1(x) + MHA(LN1(x)).",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = norm1(x)
    x = h + attention(h, mask=mask)[0]
    h = norm2(x)
    return h + feed_forward(h)
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Copy-pasted the first residual line and kept norm1 in the feed-forward step, so norm2 is never used.",
  "teacher_says": "Each sub-layer has its own LayerNorm: the feed-forward step reads norm2(x).",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = x + attention(norm1(x), mask=mask)[0]
    x = x + feed_forward(norm1(x))
    return x
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Does not pass the mask on to the attention, so padded or future keys are attended.",
  "teacher_says": "Pass mask=mask to the attention: the block must attend only where the mask allows.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    out, _ = attention(norm1(x))
    x = x + out
    return x + feed_forward(norm2(x))
'''},
 # ------------------------------------------------------------------ induction_score
 {"exercise": "induction_score", "kind": "correct",
  "idea": "the stripe is a diagonal: np.diagonal with offset -(m-1), dropping its first entry (query m-1)",
  "code": '''
import numpy as np

def induction_score(weights, period):
    stripe = np.diagonal(weights, offset=-(period - 1), axis1=-2, axis2=-1)  # queries m-1 .. n-1
    return stripe[..., 1:].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "robustness",
  "idea": "Python loop over the scored queries, accumulated in float64 and cast back to the weights' dtype",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    total = np.zeros(weights.shape[:-2], dtype=np.float64)
    count = 0
    for i in range(period, n):
        total = total + weights[..., i, i - period + 1].astype(np.float64)
        count += 1
    return np.asarray(total / count).astype(weights.dtype)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Scores the weight on key i - m, the earlier copy of the current token, instead of the token after it, i - m + 1.",
  "teacher_says": "An induction head attends to the token that followed the earlier copy: key i - m + 1.",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    keys = queries - period
    return weights[..., queries, keys].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Starts the queries at m - 1 instead of m (off by one), so query m-1, which has no earlier copy, is averaged in with key 0.",
  "teacher_says": "Only queries i = m, ..., n-1 have an earlier copy; query m-1 must not be scored.",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period - 1, n)
    keys = queries - period + 1
    return weights[..., queries, keys].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Swaps the two index arrays (weights[..., keys, queries]): reads the weight of query i - m + 1 on key i, above the diagonal.",
  "teacher_says": "Rows are queries and columns keys: the entry is weights[..., i, i - m + 1].",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    keys = queries - period + 1
    return weights[..., keys, queries].mean(axis=-1)
'''},
]

_WRITER_G = ANSWERS
ANSWERS = _WRITER_C + _WRITER_G
