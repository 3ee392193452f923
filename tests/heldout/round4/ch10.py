ANSWERS = [
 {"exercise": "sinusoidal", "kind": "correct", "idea": "outer product, even/odd columns", "code": '''
import numpy as np
def sinusoidal(n, d_model):
    ang = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(ang)
    pe[:, 1::2] = np.cos(ang)
    return pe
'''},
 {"exercise": "sinusoidal", "kind": "correct", "idea": "exp-log frequencies, stack and interleave", "code": '''
import math
import numpy as np
def sinusoidal(n, d_model):
    freq = np.exp(-math.log(10000.0) * np.arange(0, d_model, 2, dtype=np.float64) / d_model)
    ang = np.outer(np.arange(n, dtype=np.float64), freq)
    return np.stack([np.sin(ang), np.cos(ang)], axis=-1).reshape(n, d_model)
'''},
 {"exercise": "sinusoidal", "kind": "wrong", "mistake": "sines in the first half, cosines in the second (concatenated layout)", "teacher_says": "the book interleaves: sine in even columns, cosine in odd ones", "code": '''
import numpy as np
def sinusoidal(n, d_model):
    ang = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(ang), np.cos(ang)], axis=-1)
'''},
 {"exercise": "sinusoidal", "kind": "wrong", "mistake": "exponent uses i/d instead of 2i/d", "teacher_says": "the exponent is 2i/d_model; np.arange(d_model/2)/d_model halves it", "code": '''
import numpy as np
def sinusoidal(n, d_model):
    ang = np.arange(n)[:, None] / 10000 ** (np.arange(d_model // 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(ang); pe[:, 1::2] = np.cos(ang)
    return pe
'''},
 {"exercise": "sinusoidal", "kind": "wrong", "mistake": "positions start at 1", "teacher_says": "positions are 0..n-1", "code": '''
import numpy as np
def sinusoidal(n, d_model):
    ang = np.arange(1, n + 1)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(ang); pe[:, 1::2] = np.cos(ang)
    return pe
'''},
 {"exercise": "sinusoidal", "kind": "wrong", "mistake": "multiplies by 10000^(2i/d) instead of dividing", "teacher_says": "the angle is p / 10000^(2i/d): frequencies fall with i", "code": '''
import numpy as np
def sinusoidal(n, d_model):
    ang = np.arange(n)[:, None] * 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(ang); pe[:, 1::2] = np.cos(ang)
    return pe
'''},
 {"exercise": "sinusoidal", "kind": "robustness", "idea": "float32 output (torch habit)", "mistake": "dtype float32", "teacher_says": "return float64", "code": '''
import numpy as np
def sinusoidal(n, d_model):
    ang = (np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)).astype(np.float32)
    pe = np.zeros((n, d_model), dtype=np.float32)
    pe[:, 0::2] = np.sin(ang); pe[:, 1::2] = np.cos(ang)
    return pe
'''},
 {"exercise": "apply_rope", "kind": "correct", "idea": "rotate_half with concatenated cos/sin", "code": '''
import numpy as np
def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    ang = p[:, None] * theta
    cos = np.concatenate([np.cos(ang)] * 2, -1); sin = np.concatenate([np.sin(ang)] * 2, -1)
    rot = np.concatenate([-x[..., d // 2:], x[..., :d // 2]], -1)
    return (x * cos + rot * sin).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "correct", "idea": "explicit 2-D rotation of the two halves", "code": '''
import numpy as np
def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    h = d // 2
    p = np.arange(n, dtype=np.float64) if positions is None else np.asarray(positions, dtype=np.float64)
    ang = np.outer(p, 1.0 / 10000.0 ** (2 * np.arange(h) / d))
    c, s = np.cos(ang), np.sin(ang)
    a, b = x[..., :h].astype(np.float64), x[..., h:].astype(np.float64)
    return np.concatenate([a * c - b * s, a * s + b * c], axis=-1).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong", "mistake": "interleaved pairs (2i, 2i+1) instead of rotate-half", "teacher_says": "the book pairs feature i with i + d/2 (rotate-half), not adjacent features", "code": '''
import numpy as np
def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    ang = p[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    c, s = np.cos(ang), np.sin(ang)
    a, b = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = a * c - b * s
    out[..., 1::2] = a * s + b * c
    return out
'''},
 {"exercise": "apply_rope", "kind": "wrong", "mistake": "rotation direction reversed (sign of sin)", "teacher_says": "rotate_half is (-x2, x1): your rotation goes the other way", "code": '''
import numpy as np
def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    ang = p[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos = np.concatenate([np.cos(ang)] * 2, -1); sin = np.concatenate([np.sin(ang)] * 2, -1)
    rot = np.concatenate([x[..., d // 2:], -x[..., :d // 2]], -1)
    return (x * cos + rot * sin).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong", "mistake": "ignores the positions argument", "teacher_says": "when positions are given, rotate by those positions, not 0..n-1", "code": '''
import numpy as np
def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n)
    ang = p[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos = np.concatenate([np.cos(ang)] * 2, -1); sin = np.concatenate([np.sin(ang)] * 2, -1)
    rot = np.concatenate([-x[..., d // 2:], x[..., :d // 2]], -1)
    return (x * cos + rot * sin).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong", "mistake": "theta_i = 10000^(-i/d) (missing factor 2)", "teacher_says": "theta_i = 10000^(-2i/d)", "code": '''
import numpy as np
def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    ang = p[:, None] * 10000.0 ** (-np.arange(d // 2) / d)
    cos = np.concatenate([np.cos(ang)] * 2, -1); sin = np.concatenate([np.sin(ang)] * 2, -1)
    rot = np.concatenate([-x[..., d // 2:], x[..., :d // 2]], -1)
    return (x * cos + rot * sin).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong", "mistake": "cos/sin tiled with np.repeat (each angle twice in a row)", "teacher_says": "feature i and i + d/2 share angle i: concatenate, not repeat", "code": '''
import numpy as np
def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    ang = p[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos = np.repeat(np.cos(ang), 2, -1); sin = np.repeat(np.sin(ang), 2, -1)
    rot = np.concatenate([-x[..., d // 2:], x[..., :d // 2]], -1)
    return (x * cos + rot * sin).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "robustness", "idea": "float64 result for float32 input", "mistake": "no cast back", "teacher_says": "return x's dtype", "code": '''
import numpy as np
def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    ang = p[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos = np.concatenate([np.cos(ang)] * 2, -1); sin = np.concatenate([np.sin(ang)] * 2, -1)
    rot = np.concatenate([-x[..., d // 2:], x[..., :d // 2]], -1)
    return x * cos + rot * sin
'''},
 {"exercise": "apply_rope", "kind": "robustness", "idea": "rotates x in place", "mistake": "writes into x", "teacher_says": "do not modify the input", "code": '''
import numpy as np
def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    h = d // 2
    p = np.arange(n) if positions is None else np.asarray(positions)
    ang = p[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    c, s = np.cos(ang), np.sin(ang)
    a = x[..., :h].copy(); b = x[..., h:].copy()
    x[..., :h] = a * c - b * s
    x[..., h:] = a * s + b * c
    return x
'''},
 {"exercise": "pre_ln_block", "kind": "correct", "idea": "two residual steps", "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    y = norm1(x)
    x = x + attention(y, y, y, mask=mask)[0]
    return x + feed_forward(norm2(x))
'''},
 {"exercise": "pre_ln_block", "kind": "correct", "idea": "self-attention call with k, v omitted, torch.add", "code": '''
import torch
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    a, _ = attention(norm1(x), mask=mask)
    h = torch.add(x, a)
    return torch.add(h, feed_forward(norm2(h)))
'''},
 {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "post-LN order", "teacher_says": "pre-LN normalises the input of each sublayer, not the sum", "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x + attention(x, x, x, mask=mask)[0])
    return norm2(x + feed_forward(x))
'''},
 {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "residual adds the normalised x instead of x", "teacher_says": "the residual path carries x itself, not norm(x)", "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    y = norm1(x)
    x = y + attention(y, y, y, mask=mask)[0]
    z = norm2(x)
    return z + feed_forward(z)
'''},
 {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "FFN reads norm2 of the original x (parallel block)", "teacher_says": "the FFN reads the stream after the attention's residual", "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    y = norm1(x)
    return x + attention(y, y, y, mask=mask)[0] + feed_forward(norm2(x))
'''},
 {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "mask flipped (PyTorch habit ~mask)", "teacher_says": "the module takes True = may attend: pass the mask as it is", "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    y = norm1(x)
    x = x + attention(y, y, y, mask=None if mask is None else ~mask)[0]
    return x + feed_forward(norm2(x))
'''},
 {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "norms swapped", "teacher_says": "norm1 goes before the attention, norm2 before the feed-forward", "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    y = norm2(x)
    x = x + attention(y, y, y, mask=mask)[0]
    return x + feed_forward(norm1(x))
'''},
 {"exercise": "pre_ln_block", "kind": "robustness", "idea": "returns the (out, weights) tuple of the attention along", "mistake": "returns a tuple", "teacher_says": "return a tensor", "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    y = norm1(x)
    a, w = attention(y, y, y, mask=mask)
    x = x + a
    return x + feed_forward(norm2(x)), w
'''},
 {"exercise": "pre_ln_block", "kind": "robustness", "idea": "modifies x in place (x += ...)", "mistake": "in-place add on the input", "teacher_says": "x += changes the caller's tensor", "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    y = norm1(x)
    x += attention(y, y, y, mask=mask)[0]
    x += feed_forward(norm2(x))
    return x
'''},
 {"exercise": "induction_score", "kind": "correct", "idea": "fancy index one weight per query", "code": '''
import numpy as np
def induction_score(weights, period):
    n = weights.shape[-1]
    q = np.arange(period, n)
    return weights[..., q, q - period + 1].mean(axis=-1).astype(weights.dtype)
'''},
 {"exercise": "induction_score", "kind": "correct", "idea": "diagonal with offset", "code": '''
import numpy as np
def induction_score(weights, period):
    d = np.diagonal(weights, offset=-(period - 1), axis1=-2, axis2=-1)
    return d[..., 1:].mean(axis=-1).astype(weights.dtype)
'''},
 {"exercise": "induction_score", "kind": "wrong", "mistake": "key i - m (the earlier copy itself), not i - m + 1", "teacher_says": "an induction head attends the token after the earlier copy: key i - m + 1", "code": '''
import numpy as np
def induction_score(weights, period):
    n = weights.shape[-1]
    q = np.arange(period, n)
    return weights[..., q, q - period].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong", "mistake": "queries from m-1 (one too many)", "teacher_says": "the scored queries are i = m .. n-1", "code": '''
import numpy as np
def induction_score(weights, period):
    n = weights.shape[-1]
    q = np.arange(period - 1, n)
    return weights[..., q, q - period + 1].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong", "mistake": "rows and columns swapped", "teacher_says": "rows are queries: weights[..., query, key]", "code": '''
import numpy as np
def induction_score(weights, period):
    n = weights.shape[-1]
    q = np.arange(period, n)
    return weights[..., q - period + 1, q].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong", "mistake": "weights[..., q][..., k] picks a block, then means over two axes", "teacher_says": "chained indexing takes a block of rows and columns; index with both arrays at once", "code": '''
import numpy as np
def induction_score(weights, period):
    n = weights.shape[-1]
    q = np.arange(period, n)
    return weights[..., q, :][..., q - period + 1].mean(axis=(-2, -1))
'''},
 {"exercise": "induction_score", "kind": "robustness", "idea": "Python loop over every leading index (slow, returns float64 list-like)", "mistake": "returns a Python float for 2-D input / list", "teacher_says": "return an array of shape (...) in weights' dtype", "code": '''
import numpy as np
def induction_score(weights, period):
    n = weights.shape[-1]
    flat = weights.reshape(-1, n, n)
    out = []
    for w in flat:
        out.append(sum(float(w[i, i - period + 1]) for i in range(period, n)) / (n - period))
    return out
'''},
]
