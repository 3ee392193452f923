# writer C's answers, then writer G's (each file verbatim)
ANSWERS = [
 # ---------------------------------------------------------------- sinusoidal
 {"exercise": "sinusoidal", "kind": "correct",
  "idea": "one angle per column (column j uses frequency index j // 2), then np.where picks sin for even columns, cos for odd",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    col = np.arange(d_model)
    freq = 10000.0 ** (-(2 * (col // 2)) / d_model)          # (d_model,)
    angle = np.arange(n, dtype=np.float64)[:, None] * freq    # (n, d_model)
    return np.where(col % 2 == 0, np.sin(angle), np.cos(angle))
'''},
 {"exercise": "sinusoidal", "kind": "robustness",
  "idea": "fills the table entry by entry in a double Python loop with math.sin and math.cos",
  "code": '''
import math
import numpy as np

def sinusoidal(n, d_model):
    pe = np.zeros((n, d_model), dtype=np.float64)
    for p in range(n):
        for i in range(d_model // 2):
            angle = p / 10000 ** (2 * i / d_model)
            pe[p, 2 * i] = math.sin(angle)
            pe[p, 2 * i + 1] = math.cos(angle)
    return pe
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Uses i / d_model in the exponent instead of 2i / d_model, so the frequencies fall only half as fast.",
  "teacher_says": "The exponent is 2i/d_model: np.arange(0, d_model, 2) / d_model, not np.arange(d_model // 2) / d_model.",
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
  "mistake": "Puts all the sines in the first half and all the cosines in the second (concatenates) instead of interleaving even and odd columns.",
  "teacher_says": "PE[p, 2i] is the sine and PE[p, 2i+1] the cosine: fill columns 0::2 and 1::2, not two halves.",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Numbers the positions from 1 to n instead of 0 to n-1.",
  "teacher_says": "The first row encodes position 0 (sines 0, cosines 1): use np.arange(n).",
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
  "idea": "split into the two halves and write the 2-D rotation of each pair explicitly, in float64, cast back",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    half = d // 2
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-2.0 * np.arange(half) / d)
    angle = p.astype(np.float64)[:, None] * theta          # (n, d/2)
    c, s = np.cos(angle), np.sin(angle)
    a, b = x[..., :half].astype(np.float64), x[..., half:].astype(np.float64)
    out = np.concatenate([a * c - b * s, b * c + a * s], axis=-1)
    return out.astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "robustness",
  "idea": "rotates one pair (i, i + d/2) at a time in a Python loop, writing into a float64 copy",
  "code": '''
import math
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    pos = list(range(n)) if positions is None else [int(p) for p in positions]
    src = np.array(x, dtype=np.float64)
    out = src.copy()
    for t in range(n):
        for i in range(d // 2):
            ang = pos[t] * 10000.0 ** (-2 * i / d)
            c, s = math.cos(ang), math.sin(ang)
            u, v = src[..., t, i], src[..., t, i + d // 2]
            out[..., t, i] = u * c - v * s
            out[..., t, i + d // 2] = v * c + u * s
    return out.astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Writes rotate_half as (x2, -x1) instead of (-x2, x1), so every pair turns by -p*theta (the opposite direction).",
  "teacher_says": "rotate_half(x) is (-x[d/2:], x[:d/2]); the other sign rotates backwards.",
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
  "mistake": "Always uses positions 0..n-1 and never reads the positions argument, so a shifted or cached token gets the wrong angle.",
  "teacher_says": "When positions is given, the angles are positions[:, None] * theta, not arange(n).",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = p[:, None] * theta
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rotated = np.concatenate([-x[..., d // 2:], x[..., :d // 2]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Forgets to cast the result back: the float64 angles promote a float32 x, so the output is float64.",
  "teacher_says": "Return x's dtype: finish with .astype(x.dtype).",
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
  "idea": "a loop over the two (norm, sublayer) pairs, each adding its output to the residual stream",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    def attend(y):
        return attention(y, mask=mask)[0]
    stream = x
    for norm, sublayer in ((norm1, attend), (norm2, feed_forward)):
        stream = stream + sublayer(norm(stream))
    return stream
'''},
 {"exercise": "pre_ln_block", "kind": "robustness",
  "idea": "passes y three times as q, k, v, keeps the unused weights, and clones every intermediate tensor",
  "code": '''
import torch

def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    y = norm1(x.clone())
    attended, _weights = attention(y, y, y, mask=mask, need_weights=True)
    h = torch.add(x.clone(), attended.clone())
    z = norm2(h.clone())
    return torch.add(h, feed_forward(z).clone())
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Copies the first residual line for the second and forgets to update it: the feed-forward reads norm2(x) of the block's input instead of the stream after attention.",
  "teacher_says": "The second sublayer must see the stream after the first residual step: feed_forward(norm2(h)).",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = x + attention(norm1(x), mask=mask)[0]
    return h + feed_forward(norm2(x))
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Calls the attention without passing the mask on, so masked keys are attended.",
  "teacher_says": "Pass mask=mask to the attention: the block must respect the mask it is given.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    out, _ = attention(norm1(x))
    x = x + out
    return x + feed_forward(norm2(x))
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Uses norm1 before both sublayers (norm2 is never used), so the feed-forward sees the wrong LayerNorm's scale and shift.",
  "teacher_says": "Each sublayer has its own LayerNorm: norm1 before the attention, norm2 before the feed-forward.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = x + attention(norm1(x), mask=mask)[0]
    x = x + feed_forward(norm1(x))
    return x
'''},
 # ---------------------------------------------------------------- induction_score
 {"exercise": "induction_score", "kind": "correct",
  "idea": "np.diagonal with offset -(m-1) gives w[i, i-m+1] for i >= m-1; drop the first, average",
  "code": '''
import numpy as np

def induction_score(weights, period):
    stripe = np.diagonal(weights, offset=-(period - 1), axis1=-2, axis2=-1)  # i = m-1 .. n-1
    return stripe[..., 1:].mean(axis=-1).astype(weights.dtype)
'''},
 {"exercise": "induction_score", "kind": "robustness",
  "idea": "Python loop over the scored queries, summing one column slice at a time in float64",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    total = np.zeros(weights.shape[:-2], dtype=np.float64)
    for i in range(period, n):
        total = total + weights[..., i, i - period + 1]
    return np.asarray(total / (n - period), dtype=weights.dtype)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Reads the weight on key i - m (the earlier copy of the token itself) instead of i - m + 1 (the token after it).",
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
  "mistake": "Starts the queries at m - 1 instead of m, so one query with no earlier copy (scored on key 0) enters the mean.",
  "teacher_says": "Only queries i = m .. n-1 have an earlier copy: np.arange(period, n).",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period - 1, n)
    keys = queries - period + 1
    return weights[..., queries, keys].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Averages with .mean() over everything, so a batch of heads gets one number instead of one score per leading index.",
  "teacher_says": "Average over the queries only (axis=-1) to keep the shape (...).",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    keys = queries - period + 1
    return weights[..., queries, keys].mean()
'''},
]

_WRITER_C = ANSWERS

"""Writer G, chapter 10 (The Transformer): student answers."""

ANSWERS = [
    # ------------------------------------------------------------------ sinusoidal
    {"exercise": "sinusoidal", "kind": "correct",
     "idea": "frequencies as exp(-log(10000) * 2i/d), sin and cos stacked on a new last axis and reshaped to interleave them",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    freqs = np.exp(-np.log(10000.0) * np.arange(0, d_model, 2) / d_model)  # (d_model/2,)
    angles = np.outer(np.arange(n, dtype=np.float64), freqs)  # (n, d_model/2)
    return np.stack((np.sin(angles), np.cos(angles)), axis=-1).reshape(n, d_model)
'''},
    {"exercise": "sinusoidal", "kind": "robustness",
     "idea": "fills a nested Python list entry by entry with math.sin and math.cos, then converts it to a float64 array",
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
     "mistake": "Puts all the sines in the first half of the columns and all the cosines in the second half, instead of alternating them.",
     "teacher_says": "Column 2i holds sin and column 2i+1 holds cos of the same angle: interleave them (pe[:, 0::2] and pe[:, 1::2]), do not concatenate.",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    pos = np.arange(n)[:, None]
    div = 10000 ** (np.arange(0, d_model, 2) / d_model)
    angles = pos / div
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)
'''},
    {"exercise": "sinusoidal", "kind": "wrong",
     "mistake": "Reads the exponent 2i/d_model with i running over the pairs but forgets the factor 2 (uses i/d_model), so the frequencies fall only half as fast.",
     "teacher_says": "With i counting pairs (0 .. d/2 - 1) the exponent is 2i/d_model: np.arange(0, d_model, 2) / d_model, not np.arange(d_model // 2) / d_model.",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    pe = np.zeros((n, d_model))
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(d_model // 2) / d_model)
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "wrong",
     "mistake": "Uses each column's own index as the exponent (10000^(j/d_model) for column j), so an odd column 2i+1 gets a different frequency from its sine partner 2i.",
     "teacher_says": "Columns 2i and 2i+1 share the angle p / 10000^(2i/d_model): the exponent comes from the pair index, not the column index.",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(d_model) / d_model)  # (n, d_model)
    pe = np.empty((n, d_model))
    pe[:, 0::2] = np.sin(angles[:, 0::2])
    pe[:, 1::2] = np.cos(angles[:, 1::2])
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "wrong",
     "mistake": "Numbers the positions from 1 to n instead of from 0 to n-1.",
     "teacher_says": "p runs over 0, ..., n-1: row 0 is sin(0) = 0 and cos(0) = 1.",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    p = np.arange(1, n + 1)[:, None]
    angles = p / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
    # ------------------------------------------------------------------ apply_rope
    {"exercise": "apply_rope", "kind": "correct",
     "idea": "split into the two halves, rotate each pair with the 2-D rotation formulas, concatenate, cast back",
     "code": '''
import numpy as np

def apply_rope(x, positions=None):
    *_, n, d = x.shape
    half = d // 2
    p = np.arange(n, dtype=np.float64) if positions is None else np.asarray(positions, dtype=np.float64)
    theta = 10000.0 ** (-np.arange(half, dtype=np.float64) * 2 / d)  # (d/2,)
    angle = p[:, None] * theta  # (n, d/2)
    c, s = np.cos(angle), np.sin(angle)
    x1, x2 = x[..., :half], x[..., half:]
    out = np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=-1)
    return out.astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "robustness",
     "idea": "rotates one pair of features at a time in a Python loop over i < d/2, with float64 copies, cast back at the end",
     "code": '''
import math

import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    if positions is None:
        positions = list(range(n))
    positions = np.array(positions, dtype=np.float64)
    work = x.astype(np.float64)  # a float64 copy of everything
    out = work.copy()
    for i in range(d // 2):
        theta = 10000.0 ** (-2.0 * i / d)
        cos = np.array([math.cos(p * theta) for p in positions])  # (n,)
        sin = np.array([math.sin(p * theta) for p in positions])
        a, b = work[..., i], work[..., i + d // 2]  # (..., n)
        out[..., i] = a * cos - b * sin
        out[..., i + d // 2] = b * cos + a * sin
    return out.astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "wrong",
     "mistake": "Repeats each angle twice in place (np.repeat, the interleaved GPT-J layout) instead of tiling the d/2 angles twice, so feature i no longer shares its angle with feature i + d/2.",
     "teacher_says": "In the rotate-half layout feature i and feature i + d/2 share angle i: concatenate [cos, cos], do not repeat each entry.",
     "code": '''
import numpy as np

def rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = p[:, None] * theta
    cos = np.repeat(np.cos(angles), 2, axis=-1)
    sin = np.repeat(np.sin(angles), 2, axis=-1)
    return (x * cos + rotate_half(x) * sin).astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "wrong",
     "mistake": "Gets the sign of rotate_half backwards, (x2, -x1) instead of (-x2, x1), which rotates every pair by minus the angle.",
     "teacher_says": "out_i = x_i cos - x_{i+d/2} sin: the minus sign goes on the second half, rotate_half(x) = (-x2, x1).",
     "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = p[:, None] * theta
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rotated = np.concatenate([x[..., d // 2:], -x[..., : d // 2]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "wrong",
     "mistake": "Forgets to cast the result back: the float64 angles promote a float32 input, so the function returns float64.",
     "teacher_says": "The statement asks for x's dtype: the cos/sin are float64, so end with .astype(x.dtype).",
     "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = p[:, None] * theta
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rotated = np.concatenate([-x[..., d // 2:], x[..., : d // 2]], axis=-1)
    return x * cos + rotated * sin
'''},
    {"exercise": "apply_rope", "kind": "wrong",
     "mistake": "Computes theta_i = 10000^(-i/d), dropping the factor 2 in the exponent, so the frequencies decay only half as fast.",
     "teacher_says": "theta_i = 10000^(-2i/d) for i < d/2: with i counting pairs the exponent needs the 2.",
     "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(d // 2) / d)
    angles = p[:, None] * theta
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rotated = np.concatenate([-x[..., d // 2:], x[..., : d // 2]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)
'''},
    # ------------------------------------------------------------------ pre_ln_block
    {"exercise": "pre_ln_block", "kind": "correct",
     "idea": "a loop over the two (norm, sublayer) pairs, each adding its result to the stream",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    def attend(y):
        out, _weights = attention(y, mask=mask)
        return out

    for norm, sublayer in ((norm1, attend), (norm2, feed_forward)):
        x = x + sublayer(norm(x))
    return x
'''},
    {"exercise": "pre_ln_block", "kind": "robustness",
     "idea": "passes q, k and v explicitly, asks for the attention weights it then throws away, and keeps every intermediate tensor",
     "code": '''
import torch

def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    normed_1 = norm1(x.clone())
    attn_out, attn_weights = attention(normed_1, normed_1, normed_1, mask=mask, need_weights=True)
    after_attention = torch.add(x, attn_out)
    normed_2 = norm2(after_attention.clone())
    ff_out = feed_forward(normed_2)
    result = torch.add(after_attention, ff_out)
    del attn_weights
    return result
'''},
    {"exercise": "pre_ln_block", "kind": "wrong",
     "mistake": "Writes the post-LN block of the 2017 paper: normalises after each residual addition instead of before each sublayer.",
     "teacher_says": "Pre-LN normalises the sublayer's input and adds to the un-normalised stream: x = x + sublayer(norm(x)).",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x + attention(x, mask=mask)[0])
    return norm2(x + feed_forward(x))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong",
     "mistake": "Feeds the feed-forward network with norm2 of the block's input x instead of the stream after the attention step (a stale variable).",
     "teacher_says": "The second residual step reads the stream that already holds the attention's output: norm2 of x + attention(...), not of the original x.",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = x + attention(norm1(x), mask=mask)[0]
    return h + feed_forward(norm2(x))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong",
     "mistake": "Lets the residual connection start from the normalised stream: the norm's output replaces x before the addition.",
     "teacher_says": "The skip connection carries x itself; only the sublayer's input is normalised.",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    y = norm1(x)
    y = y + attention(y, mask=mask)[0]
    z = norm2(y)
    return z + feed_forward(z)
'''},
    {"exercise": "pre_ln_block", "kind": "wrong",
     "mistake": "Does not pass the mask on to the attention (calls attention(y) only), so masked keys are attended to.",
     "teacher_says": "The mask must reach the attention: call attention(norm1(x), mask=mask).",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = x + attention(norm1(x))[0]
    x = x + feed_forward(norm2(x))
    return x
'''},
    # ------------------------------------------------------------------ induction_score
    {"exercise": "induction_score", "kind": "correct",
     "idea": "the wanted entries lie on the diagonal with offset 1 - m: np.diagonal, drop its first entry (query m - 1), mean",
     "code": '''
import numpy as np

def induction_score(weights, period):
    # entries (i, i - period + 1): the diagonal of offset 1 - period, rows period-1 .. n-1
    stripe = np.diagonal(weights, offset=1 - period, axis1=-2, axis2=-1)
    return stripe[..., 1:].mean(axis=-1).astype(weights.dtype)
'''},
    {"exercise": "induction_score", "kind": "robustness",
     "idea": "a Python loop over the scored queries that adds one float64 column slice at a time, cast back at the end",
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
     "mistake": "Looks at key i - m, the earlier copy of the current token itself, instead of the token after it (i - m + 1).",
     "teacher_says": "An induction head attends to the token that followed the previous occurrence: key i - m + 1, not i - m.",
     "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    return weights[..., queries, queries - period].mean(axis=-1)
'''},
    {"exercise": "induction_score", "kind": "wrong",
     "mistake": "Starts the queries at m - 1 (off by one), so the unscored query m - 1, whose key is 0, enters the mean.",
     "teacher_says": "Only queries i = m .. n-1 have an earlier copy; query m - 1 must not be averaged in.",
     "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period - 1, n)
    keys = queries - period + 1
    return weights[..., queries, keys].mean(axis=-1)
'''},
    {"exercise": "induction_score", "kind": "wrong",
     "mistake": "Swaps the two index arrays (rows are queries, columns keys), so it reads the weight of query i - m + 1 on key i.",
     "teacher_says": "Row = query, column = key: index weights[..., queries, keys], in that order.",
     "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    keys = queries - period + 1
    return weights[..., keys, queries].mean(axis=-1)
'''},
    {"exercise": "induction_score", "kind": "wrong",
     "mistake": "Sums the picked weights and divides by n, the number of all queries, instead of by the n - m scored ones.",
     "teacher_says": "The mean runs over the queries i = m .. n-1 only: divide by n - m (or just call .mean on the picked weights).",
     "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    picked = weights[..., queries, queries - period + 1]
    return picked.sum(axis=-1) / n
'''},
]

_WRITER_G = ANSWERS
ANSWERS = _WRITER_C + _WRITER_G
