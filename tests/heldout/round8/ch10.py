# writer C's answers, then writer G's (each file verbatim)
ANSWERS = [
 # ---------------------------------------------------------------- sinusoidal
 {"exercise": "sinusoidal", "kind": "correct",
  "idea": "frequencies via exp(-log(10000) * 2i/d), angles by broadcasting, then stack (sin, cos) on a new last axis and reshape to interleave",
  "code": '''
import math
import numpy as np

def sinusoidal(n, d_model):
    two_i = np.arange(0, d_model, 2, dtype=np.float64)
    theta = np.exp(-math.log(10000.0) * two_i / d_model)      # (d/2,)
    angles = np.arange(n, dtype=np.float64)[:, None] * theta   # (n, d/2)
    pe = np.stack((np.sin(angles), np.cos(angles)), axis=-1)   # (n, d/2, 2)
    return pe.reshape(n, d_model)
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Uses the pair index i instead of 2i in the exponent (10000 ** (i / d_model)), so the frequencies fall only half as fast.",
  "teacher_says": "The exponent is 2i/d_model with i the pair index: np.arange(0, d_model, 2) / d_model, or 2 * np.arange(d_model // 2) / d_model.",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    pos = np.arange(n)[:, None]
    i = np.arange(d_model // 2)
    angles = pos / 10000 ** (i / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Concatenates all the sines then all the cosines ([sin | cos]) instead of interleaving them in even and odd columns.",
  "teacher_says": "PE[p, 2i] is the sine and PE[p, 2i+1] the cosine of the same angle: interleave (pe[:, 0::2], pe[:, 1::2]), do not put them in two halves.",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    pos = np.arange(n)[:, None]
    div = 10000 ** (np.arange(0, d_model, 2) / d_model)
    angles = pos / div
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Swaps sine and cosine: puts the cosines in the even columns and the sines in the odd ones.",
  "teacher_says": "Even columns (2i) hold sin, odd columns (2i+1) hold cos; check row p = 0, which must read 0, 1, 0, 1, ...",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.empty((n, d_model), dtype=np.float64)
    pe[:, 0::2] = np.cos(angles)
    pe[:, 1::2] = np.sin(angles)
    return pe
'''},
 # ---------------------------------------------------------------- apply_rope
 {"exercise": "apply_rope", "kind": "correct",
  "idea": "split x into its two halves and write the 2x2 rotation of each pair explicitly, angles in float64, cast back to x's dtype",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    x = np.asarray(x)
    n, d = x.shape[-2], x.shape[-1]
    half = d // 2
    p = np.arange(n, dtype=np.float64) if positions is None else np.asarray(positions, dtype=np.float64)
    theta = 10000.0 ** (-np.arange(half, dtype=np.float64) * 2 / d)   # (d/2,)
    angle = p[:, None] * theta                                           # (n, d/2)
    c, s = np.cos(angle), np.sin(angle)
    first, second = x[..., :half], x[..., half:]
    out = np.concatenate([first * c - second * s, second * c + first * s], axis=-1)
    return out.astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Pairs neighbouring features (2i, 2i+1) as in the RoFormer paper / GPT-J, instead of feature i with feature i + d/2 (rotate-half layout).",
  "teacher_says": "The exercise asks for the rotate-half layout: feature i pairs with feature i + d/2, not with its neighbour.",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    ang = p[:, None] * theta
    cos, sin = np.cos(ang), np.sin(ang)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty(x.shape, dtype=np.float64)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = odd * cos + even * sin
    return out.astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Writes rotate_half as (x2, -x1) instead of (-x2, x1): every pair is turned by -p*theta, the opposite direction.",
  "teacher_says": "rotate_half(x) = (-x[d/2:], x[:d/2]); with the sign on the other half the rotation goes backwards.",
  "code": '''
import numpy as np

def rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate([x[..., half:], -x[..., :half]], axis=-1)

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = p[:, None] * theta
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    return (x * cos + rotate_half(x) * sin).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Forgets to cast the result back: the float64 cos and sin promote a float32 input, so the output comes back as float64.",
  "teacher_says": "Return x's dtype: the angles are float64, so end with .astype(x.dtype).",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    if positions is None:
        positions = np.arange(n)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = np.asarray(positions)[:, None] * theta
    cos = np.concatenate([np.cos(angles), np.cos(angles)], axis=-1)
    sin = np.concatenate([np.sin(angles), np.sin(angles)], axis=-1)
    half = d // 2
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return x * cos + rotated * sin
'''},
 # ---------------------------------------------------------------- pre_ln_block
 {"exercise": "pre_ln_block", "kind": "correct",
  "idea": "two residual updates written as a loop over (norm, sublayer) pairs; attention's output is the first element of its tuple",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    def attend(y):
        out, _ = attention(y, mask=mask)
        return out

    for norm, sublayer in ((norm1, attend), (norm2, feed_forward)):
        x = x + sublayer(norm(x))
    return x
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Writes the post-LN block: normalises after each residual addition instead of normalising each sub-layer's input.",
  "teacher_says": "Pre-LN is x = x + sublayer(norm(x)); LN(x + sublayer(x)) is the original post-LN placement.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    attn_out, _ = attention(x, mask=mask)
    x = norm1(x + attn_out)
    x = norm2(x + feed_forward(x))
    return x
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Overwrites x with its normalised version before the residual, so the skip connection carries LN(x) instead of the untouched x.",
  "teacher_says": "The residual must add to the raw stream x; keep the normalised copy in a separate variable.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x)
    out, _ = attention(x, mask=mask)
    x = x + out
    x = norm2(x)
    x = x + feed_forward(x)
    return x
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Computes both sub-layers from the block's input (the feed-forward reads norm2 of the old x, not of x after the attention's residual).",
  "teacher_says": "The two residual steps are sequential: the feed-forward's input is the stream after the attention was added.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    attn, _ = attention(norm1(x), mask=mask)
    ffn = feed_forward(norm2(x))
    return x + attn + ffn
'''},
 # ---------------------------------------------------------------- induction_score
 {"exercise": "induction_score", "kind": "correct",
  "idea": "the targets lie on one diagonal (key - query = 1 - m): np.diagonal with that offset, drop its first entry (query m - 1), mean",
  "code": '''
import numpy as np

def induction_score(weights, period):
    stripe = np.diagonal(weights, offset=1 - period, axis1=-2, axis2=-1)  # queries m-1 .. n-1
    return stripe[..., 1:].mean(axis=-1)                                   # queries m .. n-1
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Scores the weight on key i - m (the earlier copy of the same token) instead of i - m + 1 (the token that followed it).",
  "teacher_says": "An induction head looks at the token after the earlier copy: key i - m + 1, not i - m.",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    keys = queries - period
    return weights[..., queries, keys].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Starts the queries at m - 1 instead of m (off by one), so query m - 1, which has no earlier copy, is averaged in with its weight on key 0.",
  "teacher_says": "Only queries i = m .. n-1 have an earlier copy; the range starts at period, not period - 1.",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period - 1, n)
    keys = queries - period + 1
    return weights[..., queries, keys].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Swaps the two index arrays (weights[..., keys, queries]), reading the transposed entry: query i - m + 1's weight on key i.",
  "teacher_says": "Rows are queries and columns keys: index weights[..., queries, keys], query first.",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    q = np.arange(period, n)
    k = q - period + 1
    return weights[..., k, q].mean(axis=-1)
'''},
]

_WRITER_C = ANSWERS

ANSWERS = [
 # ---------------------------------------------------------------- sinusoidal
 {"exercise": "sinusoidal", "kind": "correct",
  "idea": "each pair as the complex number e^{i p theta}; its imaginary and real parts interleaved by stacking on a last axis",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    theta = np.power(10000.0, -np.arange(d_model // 2) * 2.0 / d_model)
    phase = np.exp(1j * np.multiply.outer(np.arange(n, dtype=np.float64), theta))
    return np.stack([phase.imag, phase.real], axis=-1).reshape(n, d_model)
'''},
 {"exercise": "sinusoidal", "kind": "robustness",
  "idea": "a nested list filled entry by entry with math.sin and math.cos, converted to a float64 array at the end",
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
  "mistake": "Puts all the sines in the first half of the columns and all the cosines in the second half, instead of alternating them.",
  "teacher_says": "Column 2i is the sine and column 2i+1 the cosine of the same angle: interleave, do not concatenate.",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Uses the pair index i in the exponent instead of 2i, so the frequencies fall only half as fast.",
  "teacher_says": "The exponent is 2i/d_model: use np.arange(0, d_model, 2) / d_model, not np.arange(d_model // 2) / d_model.",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(d_model // 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Numbers the positions from 1 instead of 0.",
  "teacher_says": "Positions are p = 0, ..., n-1: the first row is sin(0) = 0 and cos(0) = 1.",
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
 # ---------------------------------------------------------------- apply_rope
 {"exercise": "apply_rope", "kind": "correct",
  "idea": "rotate the two halves explicitly (x1 cos - x2 sin, x2 cos + x1 sin) with float64 angles, concatenate, cast back",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    half = d // 2
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-2.0 * np.arange(half) / d)
    angle = p.astype(np.float64)[:, None] * theta  # (n, d/2)
    c, s = np.cos(angle), np.sin(angle)
    first, second = x[..., :half], x[..., half:]
    rotated = np.concatenate([first * c - second * s, second * c + first * s], axis=-1)
    return rotated.astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "robustness",
  "idea": "loops over the d/2 feature pairs, builds an explicit 2x2 rotation per pair and position with einsum, all in float64, cast at the end",
  "code": '''
import math

import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    pos = list(range(n)) if positions is None else [int(v) for v in np.asarray(positions)]
    work = np.array(x, dtype=np.float64, copy=True)
    out = np.empty_like(work)
    for i in range(d // 2):
        theta = 10000.0 ** (-2 * i / d)
        rot = np.array([[[math.cos(p * theta), -math.sin(p * theta)],
                         [math.sin(p * theta), math.cos(p * theta)]] for p in pos])  # (n, 2, 2)
        pair = np.stack([work[..., i], work[..., i + d // 2]], axis=-1)  # (..., n, 2)
        turned = np.einsum("nab,...nb->...na", rot, pair)
        out[..., i] = turned[..., 0]
        out[..., i + d // 2] = turned[..., 1]
    return out.astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Pairs neighbouring features (2i, 2i+1), the RoFormer/GPT-J layout, instead of i and i + d/2.",
  "teacher_says": "The exercise asks for the rotate-half layout: feature i turns with feature i + d/2.",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = p[:, None] * theta
    c, s = np.cos(angles), np.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty(x.shape, dtype=np.float64)
    out[..., 0::2] = even * c - odd * s
    out[..., 1::2] = odd * c + even * s
    return out.astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Writes rotate_half as (x2, -x1) instead of (-x2, x1): every pair turns by minus the angle.",
  "teacher_says": "rotate_half(x) = (-x[d/2:], x[:d/2]); the sign on the other half turns the rotation backwards.",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = p[:, None] * theta
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rotated = np.concatenate([x[..., d // 2:], -x[..., :d // 2]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Does not cast back: the float64 angles turn a float32 input into a float64 result.",
  "teacher_says": "Return x's dtype: the angles are float64, so finish with .astype(x.dtype).",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
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
  "idea": "two residual updates written as a loop over (norm, sublayer) pairs",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    def attend(y):
        out, _ = attention(y, mask=mask)
        return out

    stream = x
    for norm, sublayer in ((norm1, attend), (norm2, feed_forward)):
        stream = stream + sublayer(norm(stream))
    return stream
'''},
 {"exercise": "pre_ln_block", "kind": "robustness",
  "idea": "passes q, k and v explicitly, asks for the weights and keeps them, clones every intermediate and adds with torch.stack(...).sum(0)",
  "code": '''
import torch

def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    y = norm1(x.clone())
    attended, kept_weights = attention(y.clone(), y.clone(), y.clone(), mask=mask, need_weights=True)
    h = torch.stack([x.clone(), attended.clone()]).sum(0)
    z = norm2(h.clone())
    return torch.stack([h, feed_forward(z).clone()]).sum(0)
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Writes the post-LN block: normalises after each residual addition instead of before each sub-layer.",
  "teacher_says": "Pre-LN is x + sublayer(norm(x)); norm(x + sublayer(x)) is the 2017 post-LN block.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x + attention(x, mask=mask)[0])
    return norm2(x + feed_forward(x))
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Overwrites x with its normalised version, so the residual adds norm1(x) instead of the untouched stream.",
  "teacher_says": "The residual path must carry x itself: keep x and add the sub-layer's output of norm(x) to it.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x)
    x = x + attention(x, mask=mask)[0]
    y = norm2(x)
    return x + feed_forward(y)
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Feeds the feed-forward network the normalised block input x instead of the stream after the attention step (a stale variable).",
  "teacher_says": "The second residual step starts from the updated stream: feed_forward(norm2(h)) with h = x + attention(...).",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = x + attention(norm1(x), mask=mask)[0]
    return h + feed_forward(norm2(x))
'''},
 # ---------------------------------------------------------------- induction_score
 {"exercise": "induction_score", "kind": "correct",
  "idea": "np.diagonal at offset -(m-1) gives the entries (i, i-m+1) for i >= m-1; drop the first one and average",
  "code": '''
import numpy as np

def induction_score(weights, period):
    stripe = np.diagonal(weights, offset=-(period - 1), axis1=-2, axis2=-1)  # i = m-1 .. n-1
    return stripe[..., 1:].mean(axis=-1).astype(weights.dtype)
'''},
 {"exercise": "induction_score", "kind": "robustness",
  "idea": "loops over every leading index and every scored query with float64 Python sums, fills an array of the leading shape",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    lead = weights.shape[:-2]
    out = np.zeros(lead, dtype=np.float64)
    for index in np.ndindex(*lead):
        total = 0.0
        for i in range(period, n):
            total += float(weights[index + (i, i - period + 1)])
        out[index] = total / (n - period)
    return np.asarray(out, dtype=weights.dtype)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Scores the weight on the earlier copy itself (key i - m) instead of on the token after it (key i - m + 1).",
  "teacher_says": "An induction head looks at the token that followed the earlier copy: key i - m + 1.",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    keys = queries - period
    return weights[..., queries, keys].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Starts the queries at m - 1, one too early: query m - 1 has no earlier copy but is averaged in.",
  "teacher_says": "Only queries i = m, ..., n-1 have an earlier copy; np.arange(period, n), not np.arange(period - 1, n).",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period - 1, n)
    keys = queries - period + 1
    return weights[..., queries, keys].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Swaps the index arrays, reading row i - m + 1, column i: the weight of an early query on a later key.",
  "teacher_says": "Rows are queries and columns keys: weights[..., queries, keys], in that order.",
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
