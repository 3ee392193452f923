# writer C's answers, then writer G's (each file verbatim)
ANSWERS = [
 # ---------------------------------------------------------------- sinusoidal
 {"exercise": "sinusoidal", "kind": "correct",
  "idea": "angles via np.outer with exp/log frequencies, then stack (sin, cos) on a new last axis and reshape to interleave",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    freq = np.exp(-np.log(10000.0) * np.arange(0, d_model, 2) / d_model)  # (d/2,)
    angles = np.outer(np.arange(n, dtype=np.float64), freq)              # (n, d/2)
    return np.stack((np.sin(angles), np.cos(angles)), axis=-1).reshape(n, d_model)
'''},
 {"exercise": "sinusoidal", "kind": "robustness",
  "idea": "fills the table entry by entry with math.sin / math.cos in a double loop",
  "code": '''
import math
import numpy as np

def sinusoidal(n, d_model):
    pe = np.empty((n, d_model), dtype=np.float64)
    for p in range(n):
        for i in range(d_model // 2):
            angle = p / 10000 ** (2 * i / d_model)
            pe[p, 2 * i] = math.sin(angle)
            pe[p, 2 * i + 1] = math.cos(angle)
    return pe
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Puts the cosines in the even columns and the sines in the odd ones.",
  "teacher_says": "PE[p, 2i] is the sine and PE[p, 2i+1] the cosine: check which slice gets which.",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.cos(angles)
    pe[:, 1::2] = np.sin(angles)
    return pe
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Uses exponent i/d_model instead of 2i/d_model (np.arange(d_model // 2) / d_model), so the frequencies fall only half as fast.",
  "teacher_says": "The exponent is 2i/d_model: with i counting pairs, use np.arange(0, d_model, 2) / d_model.",
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
  "mistake": "Concatenates all sines then all cosines (halves) instead of interleaving them column by column.",
  "teacher_says": "The paper's layout alternates sin and cos: even columns sines, odd columns cosines, not two halves.",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)
'''},
 # ---------------------------------------------------------------- apply_rope
 {"exercise": "apply_rope", "kind": "correct",
  "idea": "split the two halves and write the 2-D rotation out explicitly, angles in float64, cast back",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    half = d // 2
    p = np.arange(n, dtype=np.float64) if positions is None else np.asarray(positions, dtype=np.float64)
    theta = 10000.0 ** (-np.arange(half, dtype=np.float64) * 2 / d)
    ang = p[:, None] * theta                      # (n, d/2)
    c, s = np.cos(ang), np.sin(ang)
    x1, x2 = x[..., :half], x[..., half:]
    out = np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=-1)
    return out.astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "robustness",
  "idea": "rotates each (i, i + d/2) pair with an explicit 2x2 rotation matrix in a Python loop over positions and pairs",
  "code": '''
import math
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    half = d // 2
    pos = list(range(n)) if positions is None else [int(p) for p in positions]
    out = np.array(x, dtype=np.float64, copy=True)
    for t in range(n):
        for i in range(half):
            a = pos[t] * 10000.0 ** (-2.0 * i / d)
            rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
            pair = np.stack([x[..., t, i], x[..., t, i + half]], axis=-1).astype(np.float64)
            new = pair @ rot.T
            out[..., t, i] = new[..., 0]
            out[..., t, i + half] = new[..., 1]
    return out.astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Rotates adjacent features (2i, 2i+1) together, the interleaved layout, instead of feature i with feature i + d/2.",
  "teacher_says": "The rotate-half layout pairs feature i with feature i + d/2; adjacent pairs are the other (GPT-J) convention.",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    ang = p[:, None] * theta
    c, s = np.cos(ang), np.sin(ang)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty(x.shape, dtype=np.float64)
    out[..., 0::2] = even * c - odd * s
    out[..., 1::2] = odd * c + even * s
    return out.astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Writes rotate_half as (x2, -x1) instead of (-x2, x1), so every pair turns by -p*theta.",
  "teacher_says": "rotate_half(x) = (-x[d/2:], x[:d/2]); the sign on the wrong half rotates the other way.",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    angles = p[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rotated = np.concatenate([x[..., d // 2:], -x[..., : d // 2]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Ignores the positions argument and always uses 0 .. n-1.",
  "teacher_says": "When positions are given (a KV cache's new token, say), the angles must use them, not the index in x.",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n)
    angles = p[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rotated = np.concatenate([-x[..., d // 2:], x[..., : d // 2]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)
'''},
 # ---------------------------------------------------------------- pre_ln_block
 {"exercise": "pre_ln_block", "kind": "correct",
  "idea": "two residual updates written with named intermediate results",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    attended = attention(norm1(x), mask=mask)[0]
    stream = x + attended
    return stream + feed_forward(norm2(stream))
'''},
 {"exercise": "pre_ln_block", "kind": "robustness",
  "idea": "passes q, k and v explicitly, asks for the weights it discards, and clones the stream before each update",
  "code": '''
import torch

def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    residual = x.clone()
    y = norm1(x)
    out, _weights = attention(y, y, y, mask=mask, need_weights=True)
    residual = torch.add(residual.clone(), out)
    z = norm2(residual)
    return torch.add(residual.clone(), feed_forward(z))
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Writes the post-LN block: normalises after each residual addition instead of before the sublayer.",
  "teacher_says": "Pre-LN normalises the sublayer's input, x + sublayer(norm(x)); norm(x + sublayer(x)) is post-LN.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x + attention(x, mask=mask)[0])
    return norm2(x + feed_forward(x))
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Overwrites x with its normalised version and adds the residual to that, so the stream loses its un-normalised part.",
  "teacher_says": "The residual adds to the raw stream x, not to norm1(x): keep x and only feed norm1(x) to the sublayer.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x)
    x = x + attention(x, mask=mask)[0]
    x = norm2(x)
    return x + feed_forward(x)
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "The second residual adds the feed-forward output to the block's input x instead of the stream after attention, so the attention's output is lost.",
  "teacher_says": "The two residual steps chain: the feed-forward residual starts from x + attention, not from the original x.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = x + attention(norm1(x), mask=mask)[0]
    return x + feed_forward(norm2(h))
'''},
 # ---------------------------------------------------------------- induction_score
 {"exercise": "induction_score", "kind": "correct",
  "idea": "the stripe is a diagonal: np.diagonal with offset -(m-1), skipping its first entry (query m-1)",
  "code": '''
import numpy as np

def induction_score(weights, period):
    stripe = np.diagonal(weights, offset=-(period - 1), axis1=-2, axis2=-1)  # queries m-1 .. n-1
    return stripe[..., 1:].mean(axis=-1, dtype=weights.dtype)
'''},
 {"exercise": "induction_score", "kind": "robustness",
  "idea": "loops over every leading index and every scored query with Python floats, then rebuilds an array in the weights' dtype",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    lead = weights.shape[:-2]
    flat = weights.reshape(-1, n, n)
    scores = []
    for w in flat:
        total = 0.0
        for i in range(period, n):
            total += float(w[i, i - period + 1])
        scores.append(total / (n - period))
    return np.asarray(scores, dtype=weights.dtype).reshape(lead)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Scores the weight on key i - m, the earlier copy of the query's own token, rather than the token after it.",
  "teacher_says": "An induction head looks at the token that followed the earlier copy: key i - m + 1, not i - m.",
  "code": '''
import numpy as np

def induction_score(weights, period):
    queries = np.arange(period, weights.shape[-1])
    keys = queries - period
    return weights[..., queries, keys].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Starts the scored queries at m - 1 instead of m (off by one), so one query without an earlier copy is averaged in.",
  "teacher_says": "Only queries i >= m have an earlier copy; start the range at period.",
  "code": '''
import numpy as np

def induction_score(weights, period):
    queries = np.arange(period - 1, weights.shape[-1])
    keys = queries - period + 1
    return weights[..., queries, keys].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Divides the sum of the stripe by n instead of by the n - m scored queries, so a perfect induction head scores (n - m)/n.",
  "teacher_says": "The mean is over the n - m scored queries: divide by that count, or use .mean on the picked weights.",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    return weights[..., queries, queries - period + 1].sum(axis=-1) / n
'''},
]

_WRITER_C = ANSWERS

"""Writer G, chapter 10 (MHA inside the Transformer): sinusoidal, apply_rope, pre_ln_block,
induction_score."""

ANSWERS = [
    # ------------------------------------------------------------------ sinusoidal
    {"exercise": "sinusoidal", "kind": "correct",
     "idea": "angles by broadcasting, then sin and cos stacked on a new last axis and reshaped so they interleave",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    pairs = np.arange(d_model // 2, dtype=np.float64)
    theta = np.power(10000.0, -2.0 * pairs / d_model)  # (d_model/2,)
    angles = np.arange(n, dtype=np.float64)[:, None] * theta[None, :]  # (n, d_model/2)
    return np.stack((np.sin(angles), np.cos(angles)), axis=-1).reshape(n, d_model)
'''},
    {"exercise": "sinusoidal", "kind": "robustness",
     "idea": "fills a list of lists entry by entry with math.sin / math.cos, then converts to a float64 array",
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
     "mistake": "Puts the cosines in the even columns and the sines in the odd ones.",
     "teacher_says": "PE[p, 2i] is the sine and PE[p, 2i+1] the cosine: check row 1 of a d_model = 4 table by hand.",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.cos(angles)
    pe[:, 1::2] = np.sin(angles)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "wrong",
     "mistake": "Uses the pair index i in the exponent instead of 2i, so the frequencies fall only half as fast (10000^(-i/d_model)).",
     "teacher_says": "The exponent is 2i/d_model: with np.arange(d_model // 2) multiply by 2, or use np.arange(0, d_model, 2).",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(d_model // 2) / d_model)
    pe = np.empty((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "wrong",
     "mistake": "Concatenates all the sines and then all the cosines ([sin | cos]) instead of interleaving them column by column.",
     "teacher_says": "The columns alternate: sin in column 2i, cos in column 2i+1; the half-and-half layout is RoPE's rotate-half, not this table.",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)
'''},
    # ------------------------------------------------------------------ apply_rope
    {"exercise": "apply_rope", "kind": "correct",
     "idea": "split x into halves and apply the 2x2 rotation explicitly per pair, in float64, then cast back",
     "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    half = d // 2
    p = np.arange(n, dtype=np.float64) if positions is None else np.asarray(positions, dtype=np.float64)
    theta = 10000.0 ** (-np.arange(0, d, 2, dtype=np.float64) / d)  # (d/2,)
    angle = p[..., :, None] * theta  # (n, d/2)
    c, s = np.cos(angle), np.sin(angle)
    first, second = x[..., :half].astype(np.float64), x[..., half:].astype(np.float64)
    out = np.concatenate([first * c - second * s, second * c + first * s], axis=-1)
    return out.astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "robustness",
     "idea": "loops over the d/2 pairs and over the positions, rotating one pair of columns at a time on a copy",
     "code": '''
import math
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    half = d // 2
    if positions is None:
        positions = list(range(n))
    out = np.array(x, dtype=np.float64, copy=True)
    src = np.array(x, dtype=np.float64, copy=True)
    for i in range(half):
        theta = 10000.0 ** (-2.0 * i / d)
        for t in range(n):
            a = float(positions[t]) * theta
            c, s = math.cos(a), math.sin(a)
            u, v = src[..., t, i], src[..., t, i + half]
            out[..., t, i] = u * c - v * s
            out[..., t, i + half] = v * c + u * s
    return out.astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "wrong",
     "mistake": "Writes rotate_half as (x2, -x1) instead of (-x2, x1): every pair turns by minus the angle.",
     "teacher_says": "rotate_half(q) = (-q_{d/2:}, q_{:d/2}); with the other sign the rotation runs backwards and no longer matches the reference layout.",
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
     "mistake": "Pairs neighbouring features (2i, 2i+1), as the RoFormer paper does, instead of the rotate-half layout (i, i + d/2).",
     "teacher_says": "The exercise asks for rotate-half: feature i turns with feature i + d/2; the interleaved layout gives other scores.",
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
     "mistake": "Widens the (n, d/2) cosines and sines with np.repeat, which gives (c0, c0, c1, c1, ...) instead of (c0, c1, ..., c0, c1, ...): feature i and i + d/2 no longer share an angle.",
     "teacher_says": "Feature i and feature i + d/2 share angle i: tile the table twice along the last axis (concatenate), do not repeat each column.",
     "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = p[:, None] * theta
    cos = np.repeat(np.cos(angles), 2, axis=-1)
    sin = np.repeat(np.sin(angles), 2, axis=-1)
    rotated = np.concatenate([-x[..., d // 2:], x[..., :d // 2]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)
'''},
    # ------------------------------------------------------------------ pre_ln_block
    {"exercise": "pre_ln_block", "kind": "correct",
     "idea": "two residual updates written as a small loop over (norm, sublayer) pairs",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    def attend(y):
        return attention(y, mask=mask)[0]

    for norm, sublayer in ((norm1, attend), (norm2, feed_forward)):
        x = x + sublayer(norm(x))
    return x
'''},
    {"exercise": "pre_ln_block", "kind": "robustness",
     "idea": "clones the stream at every step and passes the normalised input three times (q, k, v) explicitly",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    stream = x.clone()
    normed = norm1(stream.clone())
    attended, _weights = attention(normed, normed.clone(), normed.clone(), mask=mask)
    stream = stream.clone() + attended
    normed2 = norm2(stream.clone())
    result = stream.clone() + feed_forward(normed2)
    return result.clone()
'''},
    {"exercise": "pre_ln_block", "kind": "wrong",
     "mistake": "Writes the post-LN block: the norms are applied after each residual addition instead of to the sub-layers' inputs.",
     "teacher_says": "Pre-LN normalises the input of each sub-layer and leaves the residual path untouched: x + sublayer(norm(x)).",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x + attention(x, mask=mask)[0])
    return norm2(x + feed_forward(x))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong",
     "mistake": "Overwrites x with its normalised version, so the residual adds the attention to norm1(x) instead of to x.",
     "teacher_says": "The residual carries the un-normalised x: keep norm(x) in a separate variable.",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x)
    x = x + attention(x, mask=mask)[0]
    x = norm2(x)
    return x + feed_forward(x)
'''},
    {"exercise": "pre_ln_block", "kind": "wrong",
     "mistake": "Forgets norm2: the feed-forward network reads the raw stream instead of its normalised version.",
     "teacher_says": "Both sub-layers get a normalised input in pre-LN; the second one uses norm2.",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = x + attention(norm1(x), mask=mask)[0]
    return h + feed_forward(h)
'''},
    # ------------------------------------------------------------------ induction_score
    {"exercise": "induction_score", "kind": "correct",
     "idea": "np.diagonal with offset -(m-1) is the stripe w[i, i-m+1]; drop its first entry (query m-1) and average",
     "code": '''
import numpy as np

def induction_score(weights, period):
    stripe = np.diagonal(weights, offset=-(period - 1), axis1=-2, axis2=-1)  # queries m-1 .. n-1
    return stripe[..., 1:].mean(axis=-1)
'''},
    {"exercise": "induction_score", "kind": "robustness",
     "idea": "loops over every leading index and every scored query, summing in Python floats, then builds the result array",
     "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    result = np.zeros(weights.shape[:-2], dtype=weights.dtype)
    for index in np.ndindex(*weights.shape[:-2]):
        total = 0.0
        count = 0
        for i in range(period, n):
            total += float(weights[index + (i, i - period + 1)])
            count += 1
        result[index] = total / count
    return result
'''},
    {"exercise": "induction_score", "kind": "wrong",
     "mistake": "Reads the weight on key i - m, the earlier copy of the token itself, instead of key i - m + 1, the token that followed it.",
     "teacher_says": "An induction head attends to the token after the earlier occurrence: key i - m + 1.",
     "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    return weights[..., queries, queries - period].mean(axis=-1)
'''},
    {"exercise": "induction_score", "kind": "wrong",
     "mistake": "Starts the queries at m - 1 instead of m, so query m - 1 (which has no earlier copy) is scored on key 0.",
     "teacher_says": "Only queries i = m .. n-1 have an earlier copy; np.arange(period, n), not np.arange(period - 1, n).",
     "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period - 1, n)
    return weights[..., queries, queries - period + 1].mean(axis=-1)
'''},
    {"exercise": "induction_score", "kind": "wrong",
     "mistake": "Sums the stripe and divides by n, the number of all queries, instead of the n - m scored ones.",
     "teacher_says": "The mean is over the n - m queries that are scored: a perfect induction head must score 1.",
     "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    return weights[..., queries, queries - period + 1].sum(axis=-1) / n
'''},
]

_WRITER_G = ANSWERS
ANSWERS = _WRITER_C + _WRITER_G
