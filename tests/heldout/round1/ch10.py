ANSWERS = [
    # sinusoidal
    {"exercise": "sinusoidal", "kind": "correct", "idea": "double loop with math.sin / math.cos",
     "code": '''
import math
import numpy as np

def sinusoidal(n, d_model):
    pe = np.zeros((n, d_model), dtype=np.float64)
    for p in range(n):
        for i in range(d_model // 2):
            a = p / 10000 ** (2 * i / d_model)
            pe[p, 2 * i] = math.sin(a)
            pe[p, 2 * i + 1] = math.cos(a)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "correct", "idea": "exp/log frequencies and stack-then-reshape interleaving",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    freq = np.exp(-np.log(10000.0) * np.arange(0, d_model, 2) / d_model)
    ang = np.arange(n, dtype=np.float64)[:, None] * freq[None, :]
    return np.stack([np.sin(ang), np.cos(ang)], axis=-1).reshape(n, d_model)
'''},
    {"exercise": "sinusoidal", "kind": "wrong", "mistake": "concatenates sines then cosines (halves) instead of interleaving",
     "teacher_says": "sines go to the even columns and cosines to the odd ones, interleaved, not in two halves",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    ang = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(ang), np.cos(ang)], axis=-1)
'''},
    {"exercise": "sinusoidal", "kind": "wrong", "mistake": "exponent uses i/d instead of 2i/d (arange(d/2)/d)",
     "teacher_says": "the exponent is 2i/d_model: use np.arange(0, d_model, 2) / d_model",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    ang = np.arange(n)[:, None] / 10000 ** (np.arange(d_model // 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(ang)
    pe[:, 1::2] = np.cos(ang)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "wrong", "mistake": "multiplies by 10000**(2i/d) instead of dividing",
     "teacher_says": "the angle is p / 10000^(2i/d_model): the frequencies decrease",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    ang = np.arange(n)[:, None] * 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(ang)
    pe[:, 1::2] = np.cos(ang)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "wrong", "mistake": "positions start at 1",
     "teacher_says": "positions are 0, ..., n-1",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    ang = np.arange(1, n + 1)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(ang)
    pe[:, 1::2] = np.cos(ang)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "robustness", "idea": "float32 output",
     "mistake": "returns float32 though float64 is asked",
     "teacher_says": "the exercise asks for float64",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    ang = np.arange(n, dtype=np.float32)[:, None] / np.float32(10000) ** (np.arange(0, d_model, 2, dtype=np.float32) / d_model)
    pe = np.zeros((n, d_model), dtype=np.float32)
    pe[:, 0::2] = np.sin(ang)
    pe[:, 1::2] = np.cos(ang)
    return pe
'''},
    # apply_rope
    {"exercise": "apply_rope", "kind": "correct", "idea": "rotate the two halves explicitly: (x1 cos - x2 sin, x2 cos + x1 sin)",
     "code": '''
import numpy as np

def apply_rope(x, positions=None):
    x = np.asarray(x)
    n, d = x.shape[-2], x.shape[-1]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-2.0 * np.arange(d // 2) / d)
    ang = p.astype(np.float64)[:, None] * theta
    c, s = np.cos(ang), np.sin(ang)
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    out = np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=-1)
    return out.astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "correct", "idea": "complex multiplication of x1 + i x2 by e^{i p theta}",
     "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = np.power(10000.0, -np.arange(0, d, 2) / d)
    z = (x[..., : d // 2].astype(np.float64) + 1j * x[..., d // 2:]) * np.exp(1j * p[:, None] * theta)
    return np.concatenate([z.real, z.imag], axis=-1).astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "wrong", "mistake": "interleaved (GPT-J) pairs (2i, 2i+1) instead of rotate-half",
     "teacher_says": "this is the rotate-half layout: feature i pairs with feature i + d/2, not with i + 1",
     "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    p = np.arange(n) if positions is None else np.asarray(positions)
    ang = p[:, None] * 10000.0 ** (-2.0 * np.arange(d // 2) / d)
    c, s = np.cos(ang), np.sin(ang)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = np.empty(x.shape, dtype=np.float64)
    out[..., 0::2] = x1 * c - x2 * s
    out[..., 1::2] = x2 * c + x1 * s
    return out.astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "wrong", "mistake": "rotate_half sign flipped: (x2, -x1) (rotates the other way)",
     "teacher_says": "rotate_half(x) = (-x[d/2:], x[:d/2]); the other sign rotates by -angle",
     "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    p = np.arange(n) if positions is None else np.asarray(positions)
    ang = p[:, None] * 10000.0 ** (-2.0 * np.arange(d // 2) / d)
    cos = np.concatenate([np.cos(ang)] * 2, -1)
    sin = np.concatenate([np.sin(ang)] * 2, -1)
    rot = np.concatenate([x[..., d // 2:], -x[..., : d // 2]], -1)
    return (x * cos + rot * sin).astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "wrong", "mistake": "ignores the positions argument",
     "teacher_says": "when positions is given, use it instead of 0..n-1 (e.g. a token at position t in a cache)",
     "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    p = np.arange(n)
    ang = p[:, None] * 10000.0 ** (-2.0 * np.arange(d // 2) / d)
    cos = np.concatenate([np.cos(ang)] * 2, -1)
    sin = np.concatenate([np.sin(ang)] * 2, -1)
    rot = np.concatenate([-x[..., d // 2:], x[..., : d // 2]], -1)
    return (x * cos + rot * sin).astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "wrong", "mistake": "theta uses i/d instead of 2i/d",
     "teacher_says": "theta_i = 10000^(-2i/d)",
     "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    p = np.arange(n) if positions is None else np.asarray(positions)
    ang = p[:, None] * 10000.0 ** (-np.arange(d // 2) / d)
    cos = np.concatenate([np.cos(ang)] * 2, -1)
    sin = np.concatenate([np.sin(ang)] * 2, -1)
    rot = np.concatenate([-x[..., d // 2:], x[..., : d // 2]], -1)
    return (x * cos + rot * sin).astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "robustness", "idea": "forgets to cast back: float32 input returns float64",
     "mistake": "no .astype(x.dtype)",
     "teacher_says": "return x's dtype: the float64 angles promote a float32 input",
     "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    p = np.arange(n) if positions is None else np.asarray(positions)
    ang = p[:, None] * 10000.0 ** (-2.0 * np.arange(d // 2) / d)
    cos = np.concatenate([np.cos(ang)] * 2, -1)
    sin = np.concatenate([np.sin(ang)] * 2, -1)
    rot = np.concatenate([-x[..., d // 2:], x[..., : d // 2]], -1)
    return x * cos + rot * sin
'''},
    # pre_ln_block
    {"exercise": "pre_ln_block", "kind": "correct", "idea": "two residual steps with named temporaries",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    y = norm1(x)
    a, _ = attention(y, y, y, mask=mask)
    x = x + a
    return x + feed_forward(norm2(x))
'''},
    {"exercise": "pre_ln_block", "kind": "correct", "idea": "self-attention call with q only (k, v default to q), indexing [0]",
     "code": '''
import torch

def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = x + attention(norm1(x), mask=mask)[0]
    out = h + feed_forward(norm2(h))
    return out
'''},
    {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "post-LN: norm after the residual",
     "teacher_says": "pre-LN normalises the sublayer's input, x + sublayer(norm(x)); you wrote norm(x + sublayer(x))",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x + attention(x, x, x, mask=mask)[0])
    return norm2(x + feed_forward(x))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "residual adds the normalised x instead of x",
     "teacher_says": "the residual stream is x itself: x + sublayer(norm(x)), not norm(x) + ...",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    y = norm1(x)
    x = y + attention(y, y, y, mask=mask)[0]
    z = norm2(x)
    return z + feed_forward(z)
'''},
    {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "drops the mask",
     "teacher_says": "pass the mask through to the attention",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    y = norm1(x)
    x = x + attention(y, y, y)[0]
    return x + feed_forward(norm2(x))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "feed-forward applied to norm2 of the original x (parallel block)",
     "teacher_says": "the second step reads the stream after the attention's residual, not the block's input",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    y = norm1(x)
    a = attention(y, y, y, mask=mask)[0]
    return x + a + feed_forward(norm2(x))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "uses norm1 for both sublayers",
     "teacher_says": "each sublayer has its own LayerNorm: norm2 before the feed-forward",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    y = norm1(x)
    x = x + attention(y, y, y, mask=mask)[0]
    return x + feed_forward(norm1(x))
'''},
    {"exercise": "pre_ln_block", "kind": "robustness", "idea": "adds the (out, weights) tuple element wrongly: in-place += on x",
     "mistake": "x += ... modifies the caller's tensor in place (and fails under autograd for leaf tensors)",
     "teacher_says": "don't update x in place: x = x + ... builds a new tensor",
     "code": '''
import torch

def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    with torch.no_grad():
        y = norm1(x)
        x += attention(y, y, y, mask=mask)[0]
        x += feed_forward(norm2(x))
    return x
'''},
    # induction_score
    {"exercise": "induction_score", "kind": "correct", "idea": "np.diagonal with offset -(period - 1)",
     "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    diag = np.diagonal(weights, offset=-(period - 1), axis1=-2, axis2=-1)  # entries (i, i - m + 1), i = m-1..n-1
    return diag[..., 1:].mean(axis=-1) if n > period else np.full(weights.shape[:-2], np.nan)
'''},
    {"exercise": "induction_score", "kind": "correct", "idea": "loop over the queries and sum",
     "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    tot = np.zeros(weights.shape[:-2], dtype=np.float64)
    for i in range(period, n):
        tot = tot + weights[..., i, i - period + 1]
    return tot / (n - period)
'''},
    {"exercise": "induction_score", "kind": "wrong", "mistake": "looks at key i - m (the previous occurrence) instead of i - m + 1 (the token after it)",
     "teacher_says": "an induction head attends the token *after* the earlier occurrence: key i - m + 1",
     "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    q = np.arange(period, n)
    return weights[..., q, q - period].mean(axis=-1)
'''},
    {"exercise": "induction_score", "kind": "wrong", "mistake": "queries start at 0 (uses wrapping negative key indices)",
     "teacher_says": "average over queries i = m .. n-1 only: earlier queries have no repeat",
     "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    q = np.arange(n)
    return weights[..., q, q - period + 1].mean(axis=-1)
'''},
    {"exercise": "induction_score", "kind": "wrong", "mistake": "rows and columns swapped (weights[..., keys, queries])",
     "teacher_says": "rows are queries and columns keys: weights[..., queries, keys]",
     "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    q = np.arange(period, n)
    return weights[..., q - period + 1, q].mean(axis=-1)
'''},
    {"exercise": "induction_score", "kind": "wrong", "mistake": "divides the sum by n instead of the number of queries n - m",
     "teacher_says": "it is the mean over the n - m queries; dividing by n makes a perfect head score below 1",
     "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    q = np.arange(period, n)
    return weights[..., q, q - period + 1].sum(axis=-1) / n
'''},
]
