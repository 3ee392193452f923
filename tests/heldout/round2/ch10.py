_ROPE = '''
import numpy as np

def apply_rope(x, positions=None):
    x = np.asarray(x)
    n, d = x.shape[-2], x.shape[-1]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-2.0 * np.arange(d // 2) / d)
    angles = p[:, None].astype(np.float64) * theta
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    half = d // 2
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)
'''

_BLOCK = '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = norm1(x)
    x = x + attention(h, h, h, mask)[0]
    x = x + feed_forward(norm2(x))
    return x
'''

_IND = '''
import numpy as np

def induction_score(weights, period):
    w = np.asarray(weights)
    n = w.shape[-1]
    queries = np.arange(period, n)
    keys = queries - period + 1
    return w[..., queries, keys].mean(axis=-1)
'''

ANSWERS = [
    # ---------------- sinusoidal ----------------
    {"exercise": "sinusoidal", "kind": "correct", "idea": "outer product of positions and frequencies, fill even/odd columns",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "correct", "idea": "double loop with math.sin / math.cos",
     "code": '''
import math
import numpy as np

def sinusoidal(n, d_model):
    pe = np.empty((n, d_model), dtype=np.float64)
    for p in range(n):
        for i in range(d_model // 2):
            a = p / 10000 ** (2 * i / d_model)
            pe[p, 2 * i] = math.sin(a)
            pe[p, 2 * i + 1] = math.cos(a)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "correct", "idea": "frequencies via exp(-log(10000) * 2i/d), stacked and interleaved with reshape",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    freq = np.exp(-np.log(10000.0) * np.arange(0, d_model, 2) / d_model)
    a = np.arange(n, dtype=np.float64)[:, None] * freq[None, :]
    return np.stack([np.sin(a), np.cos(a)], axis=-1).reshape(n, d_model)
'''},
    {"exercise": "sinusoidal", "kind": "wrong", "mistake": "exponent i/d instead of 2i/d (np.arange(d/2) / d)",
     "teacher_says": "the exponent is 2i/d_model: with arange(d/2) multiply by 2, or use arange(0, d, 2)",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(d_model // 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "wrong", "mistake": "sin and cos swapped (cos on the even columns)",
     "teacher_says": "even columns hold the sines, odd columns the cosines",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.cos(angles)
    pe[:, 1::2] = np.sin(angles)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "wrong", "mistake": "all sines in the first half and all cosines in the second (concatenated, not interleaved)",
     "teacher_says": "sine and cosine of the same frequency sit in columns 2i and 2i+1, interleaved",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)
'''},
    {"exercise": "sinusoidal", "kind": "wrong", "mistake": "positions counted from 1",
     "teacher_says": "positions are p = 0, ..., n-1: row 0 is sin(0) = 0, cos(0) = 1",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(1, n + 1)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "wrong", "mistake": "multiplies by 10000^(2i/d) instead of dividing",
     "teacher_says": "the angle is p / 10000^(2i/d): the frequencies decrease with i",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] * 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "robustness", "idea": "returns float32",
     "mistake": "builds the table in float32 (np.zeros(..., dtype=np.float32))",
     "teacher_says": "the exercise asks for float64",
     "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n, dtype=np.float32)[:, None] / np.float32(10000) ** (np.arange(0, d_model, 2, dtype=np.float32) / d_model)
    pe = np.zeros((n, d_model), dtype=np.float32)
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
    # ---------------- apply_rope ----------------
    {"exercise": "apply_rope", "kind": "correct", "idea": "cos/sin tables concatenated twice and rotate_half, cast back",
     "code": _ROPE},
    {"exercise": "apply_rope", "kind": "correct", "idea": "complex numbers: (x1 + i x2) * e^{i p theta}, real and imaginary parts",
     "code": '''
import numpy as np

def apply_rope(x, positions=None):
    x = np.asarray(x)
    n, d = x.shape[-2:]
    half = d // 2
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = np.power(10000.0, -np.arange(half) * 2.0 / d)
    z = x[..., :half].astype(np.float64) + 1j * x[..., half:].astype(np.float64)
    z = z * np.exp(1j * np.outer(p, theta))
    return np.concatenate([z.real, z.imag], axis=-1).astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "wrong", "mistake": "interleaved layout: rotates features (2i, 2i+1) together instead of (i, i + d/2)",
     "teacher_says": "in the rotate-half layout feature i pairs with feature i + d/2, not with its neighbour",
     "code": '''
import numpy as np

def apply_rope(x, positions=None):
    x = np.asarray(x)
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-2.0 * np.arange(d // 2) / d)
    a = p[:, None] * theta
    c, s = np.cos(a), np.sin(a)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = np.empty(x.shape, dtype=np.float64)
    out[..., 0::2] = x1 * c - x2 * s
    out[..., 1::2] = x1 * s + x2 * c
    return out.astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "wrong", "mistake": "rotate_half with the sign on the wrong half ((x2, -x1)): rotates by -angle",
     "teacher_says": "rotate_half(x) is (-x_{d/2:}, x_{:d/2}); with the sign on the other half the rotation runs backwards",
     "code": _ROPE.replace("rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)", "rotated = np.concatenate([x[..., half:], -x[..., :half]], axis=-1)")},
    {"exercise": "apply_rope", "kind": "wrong", "mistake": "ignores the positions argument (always 0 .. n-1)",
     "teacher_says": "when positions is given, use those positions (e.g. a decode step at position t)",
     "code": _ROPE.replace("p = np.arange(n) if positions is None else np.asarray(positions)", "p = np.arange(n)")},
    {"exercise": "apply_rope", "kind": "wrong", "mistake": "theta = 10000^(-i/d) (missing the factor 2)",
     "teacher_says": "theta_i = 10000^(-2i/d)",
     "code": _ROPE.replace("10000.0 ** (-2.0 * np.arange(d // 2) / d)", "10000.0 ** (-1.0 * np.arange(d // 2) / d)")},
    {"exercise": "apply_rope", "kind": "wrong", "mistake": "builds the (n, d) cos/sin tables with each angle repeated twice in a row (c0, c0, c1, c1, ...), the interleaved layout, while rotating halves",
     "teacher_says": "in the rotate-half layout features i and i + d/2 share angle i: the tables are [cos(angles), cos(angles)] side by side, not each angle repeated in place",
     "code": _ROPE.replace("cos = np.concatenate([np.cos(angles)] * 2, axis=-1)", "cos = np.tile(np.cos(angles), (1, 2)).reshape(n, 2, d // 2).transpose(0, 2, 1).reshape(n, d)").replace("sin = np.concatenate([np.sin(angles)] * 2, axis=-1)", "sin = np.tile(np.sin(angles), (1, 2)).reshape(n, 2, d // 2).transpose(0, 2, 1).reshape(n, d)")},
    {"exercise": "apply_rope", "kind": "robustness", "idea": "returns float64 for float32 input (no cast back)",
     "mistake": "the float64 angles promote the result",
     "teacher_says": "return x's dtype: cast with .astype(x.dtype)",
     "code": _ROPE.replace("return (x * cos + rotated * sin).astype(x.dtype)", "return x * cos + rotated * sin")},
    {"exercise": "apply_rope", "kind": "robustness", "idea": "rotates x in place",
     "mistake": "writes the result into the input array",
     "teacher_says": "do not overwrite the caller's array; return a new one",
     "code": _ROPE.replace("return (x * cos + rotated * sin).astype(x.dtype)", "x[...] = x * cos + rotated * sin\n    return x")},
    # ---------------- pre_ln_block ----------------
    {"exercise": "pre_ln_block", "kind": "correct", "idea": "two residual steps x + sublayer(norm(x))",
     "code": _BLOCK},
    {"exercise": "pre_ln_block", "kind": "correct", "idea": "named intermediate tensors, attention called with keyword mask",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    normed = norm1(x)
    attn_out, _weights = attention(normed, normed, normed, mask=mask)
    stream = x + attn_out
    return stream + feed_forward(norm2(stream))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "post-LN: normalises after each addition",
     "teacher_says": "pre-LN normalises the sublayer's input and leaves the residual path untouched: x + f(norm(x))",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x + attention(x, x, x, mask)[0])
    return norm2(x + feed_forward(x))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "the residual adds the normalised x instead of x",
     "teacher_says": "the residual is the un-normalised x: x + sublayer(norm(x)), not norm(x) + sublayer(norm(x))",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = norm1(x)
    x = h + attention(h, h, h, mask)[0]
    h = norm2(x)
    return h + feed_forward(h)
'''},
    {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "the feed-forward reads norm2 of the block's input, not of the stream after attention (the sublayers run in parallel)",
     "teacher_says": "the second step normalises the stream after the attention's residual",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = norm1(x)
    return x + attention(h, h, h, mask)[0] + feed_forward(norm2(x))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "drops the mask",
     "teacher_says": "pass the mask to the attention",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = norm1(x)
    x = x + attention(h, h, h)[0]
    return x + feed_forward(norm2(x))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "uses norm1 for both sublayers",
     "teacher_says": "each sublayer has its own LayerNorm: norm2 before the feed-forward",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = norm1(x)
    x = x + attention(h, h, h, mask)[0]
    return x + feed_forward(norm1(x))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "attention reads normalised queries but un-normalised keys and values",
     "teacher_says": "self-attention reads norm1(x) for queries, keys and values alike",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = x + attention(norm1(x), x, x, mask)[0]
    return x + feed_forward(norm2(x))
'''},
    {"exercise": "pre_ln_block", "kind": "robustness", "idea": "updates x in place with +=, breaking autograd on a leaf / changing the caller's tensor",
     "mistake": "x += ... modifies the input tensor",
     "teacher_says": "x = x + ... makes a new tensor; x += changes the caller's tensor (and fails on a leaf that requires grad)",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = norm1(x)
    x += attention(h, h, h, mask)[0]
    x += feed_forward(norm2(x))
    return x
'''},
    # ---------------- induction_score ----------------
    {"exercise": "induction_score", "kind": "correct", "idea": "fancy indexing with queries and keys = queries - period + 1",
     "code": _IND},
    {"exercise": "induction_score", "kind": "correct", "idea": "np.diagonal with offset -(period - 1), skipping its first entry",
     "code": '''
import numpy as np

def induction_score(weights, period):
    diag = np.diagonal(np.asarray(weights), offset=-(period - 1), axis1=-2, axis2=-1)
    return diag[..., 1:].mean(axis=-1)
'''},
    {"exercise": "induction_score", "kind": "wrong", "mistake": "weight on key i - m (the earlier copy of the same token) instead of the token after it",
     "teacher_says": "an induction head attends the token *after* the earlier occurrence: key i - m + 1",
     "code": _IND.replace("keys = queries - period + 1", "keys = queries - period")},
    {"exercise": "induction_score", "kind": "wrong", "mistake": "starts at query m - 1 instead of m",
     "teacher_says": "the repeat starts at i = m; query m - 1 has no earlier copy",
     "code": _IND.replace("queries = np.arange(period, n)", "queries = np.arange(period - 1, n)")},
    {"exercise": "induction_score", "kind": "wrong", "mistake": "divides the sum by n instead of the number of scored queries n - m",
     "teacher_says": "the mean is over the n - m queries i = m .. n-1",
     "code": _IND.replace("return w[..., queries, keys].mean(axis=-1)", "return w[..., queries, keys].sum(axis=-1) / n")},
    {"exercise": "induction_score", "kind": "wrong", "mistake": "rows and columns swapped: reads weights[..., keys, queries]",
     "teacher_says": "rows are queries and columns keys: weights[..., queries, keys]",
     "code": _IND.replace("w[..., queries, keys]", "w[..., keys, queries]")},
    {"exercise": "induction_score", "kind": "wrong", "mistake": "weights[..., queries][..., keys]: indexes the queries then the keys separately, giving a matrix, and means everything",
     "teacher_says": "w[..., queries, keys] pairs each query with its key; two separate indexings take every combination",
     "code": _IND.replace("return w[..., queries, keys].mean(axis=-1)", "return w[..., queries, :][..., keys].mean(axis=(-2, -1))")},
    {"exercise": "induction_score", "kind": "robustness", "idea": "returns a Python float for a batch (means over everything)",
     "mistake": "averages over the leading axes too",
     "teacher_says": "return one score per leading index, shape (...)",
     "code": _IND.replace("return w[..., queries, keys].mean(axis=-1)", "return float(w[..., queries, keys].mean())")},
]
