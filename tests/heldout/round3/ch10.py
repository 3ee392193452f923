_SIN = '''
import numpy as np

def sinusoidal(n, d_model):
    p = np.arange(n, dtype=np.float64)[:, None]
    i = np.arange(d_model // 2, dtype=np.float64)[None, :]
    angle = p / 10000 ** (2 * i / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''
_ROPE = '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    pos = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-2 * np.arange(d // 2) / d)
    ang = pos[:, None].astype(np.float64) * theta[None, :]
    c, s = np.cos(ang), np.sin(ang)
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    out = np.concatenate([x1 * c - x2 * s, x1 * s + x2 * c], axis=-1)
    return out.astype(x.dtype)
'''
_PLN = '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = norm1(x)
    x = x + attention(h, h, h, mask)[0]
    return x + feed_forward(norm2(x))
'''
_IND = '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    i = np.arange(period, n)
    return weights[..., i, i - period + 1].mean(axis=-1).astype(weights.dtype)
'''
ANSWERS = [
    {"exercise": "sinusoidal", "kind": "correct", "idea": "vectorised, even/odd column slices", "code": _SIN},
    {"exercise": "sinusoidal", "kind": "correct", "idea": "double loop with math",
     "code": '''
import math
import numpy as np

def sinusoidal(n, d_model):
    pe = np.empty((n, d_model), dtype=np.float64)
    for p in range(n):
        for i in range(d_model // 2):
            a = p / math.pow(10000, 2 * i / d_model)
            pe[p, 2 * i] = math.sin(a)
            pe[p, 2 * i + 1] = math.cos(a)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "wrong", "mistake": "exponent i/d_model (forgot the 2, uses column index j=2i wrongly as i)",
     "teacher_says": "the exponent is 2i/d_model where 2i is the even column index; you used i/d_model",
     "code": _SIN.replace("10000 ** (2 * i / d_model)", "10000 ** (i / d_model)")},
    {"exercise": "sinusoidal", "kind": "wrong", "mistake": "sin half and cos half concatenated instead of interleaved",
     "teacher_says": "sin goes to even columns and cos to odd ones (interleaved), not two halves",
     "code": _SIN.replace("pe[:, 0::2] = np.sin(angle)\n    pe[:, 1::2] = np.cos(angle)", "pe[:, : d_model // 2] = np.sin(angle)\n    pe[:, d_model // 2:] = np.cos(angle)")},
    {"exercise": "sinusoidal", "kind": "wrong", "mistake": "positions start at 1",
     "teacher_says": "positions run p = 0 .. n-1",
     "code": _SIN.replace("np.arange(n, dtype=np.float64)", "np.arange(1, n + 1, dtype=np.float64)")},
    {"exercise": "sinusoidal", "kind": "wrong", "mistake": "multiplies p by 10000^(2i/d) instead of dividing",
     "teacher_says": "the angle is p / 10000^(2i/d_model)",
     "code": _SIN.replace("p / 10000 ** (2 * i / d_model)", "p * 10000 ** (2 * i / d_model)")},
    {"exercise": "sinusoidal", "kind": "wrong", "mistake": "float32 output",
     "teacher_says": "return float64",
     "code": _SIN.replace("return pe", "return pe.astype(np.float32)")},
    {"exercise": "sinusoidal", "kind": "robustness", "idea": "returns a torch tensor",
     "code": _SIN.replace("import numpy as np", "import numpy as np\nimport torch").replace("return pe", "return torch.from_numpy(pe)")},
    {"exercise": "apply_rope", "kind": "correct", "idea": "rotate-half with concatenation", "code": _ROPE},
    {"exercise": "apply_rope", "kind": "correct", "idea": "complex numbers pairing i and i+d/2",
     "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    half = d // 2
    pos = np.arange(n) if positions is None else np.asarray(positions)
    theta = np.power(10000.0, -np.arange(half) * 2.0 / d)
    rot = np.exp(1j * np.outer(pos, theta))
    z = (x[..., :half] + 1j * x[..., half:]) * rot
    return np.concatenate([z.real, z.imag], axis=-1).astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "wrong", "mistake": "interleaved pairs (2i, 2i+1) instead of rotate-half (i, i+d/2)",
     "teacher_says": "this book's layout pairs feature i with feature i + d/2, not neighbours",
     "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    pos = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-2 * np.arange(d // 2) / d)
    a = pos[:, None] * theta
    c, s = np.cos(a), np.sin(a)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = x1 * c - x2 * s
    out[..., 1::2] = x1 * s + x2 * c
    return out
'''},
    {"exercise": "apply_rope", "kind": "wrong", "mistake": "rotation direction flipped (sign of sin)",
     "teacher_says": "rotate by +p*theta: x1 cos - x2 sin, x1 sin + x2 cos",
     "code": _ROPE.replace("[x1 * c - x2 * s, x1 * s + x2 * c]", "[x1 * c + x2 * s, -x1 * s + x2 * c]")},
    {"exercise": "apply_rope", "kind": "wrong", "mistake": "ignores the positions argument",
     "teacher_says": "when positions are given (e.g. a decoding step at position t), rotate by those, not by 0..n-1",
     "code": _ROPE.replace("pos = np.arange(n) if positions is None else np.asarray(positions)", "pos = np.arange(n)")},
    {"exercise": "apply_rope", "kind": "wrong", "mistake": "theta uses d/2 in the exponent denominator (10000^(-2i/(d/2)))",
     "teacher_says": "theta_i = 10000^(-2i/d), with d the full head size",
     "code": _ROPE.replace("10000.0 ** (-2 * np.arange(d // 2) / d)", "10000.0 ** (-2 * np.arange(d // 2) / (d // 2))")},
    {"exercise": "apply_rope", "kind": "wrong", "mistake": "returns float64 for float32 input",
     "teacher_says": "return x's dtype",
     "code": _ROPE.replace("return out.astype(x.dtype)", "return out")},
    {"exercise": "pre_ln_block", "kind": "correct", "idea": "two residuals around normalised sublayers", "code": _PLN},
    {"exercise": "pre_ln_block", "kind": "correct", "idea": "keyword call with mask=, named intermediates",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    normed = norm1(x)
    attn_out, _ = attention(normed, normed, normed, mask=mask)
    stream = x + attn_out
    return stream + feed_forward(norm2(stream))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "post-LN: norm after the residual",
     "teacher_says": "pre-LN normalises the sublayer's input, and the residual adds the un-normalised x",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x + attention(x, x, x, mask)[0])
    return norm2(x + feed_forward(x))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "residual adds the normalised input instead of x",
     "teacher_says": "the residual stream is x itself, not norm1(x)",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = norm1(x)
    h = h + attention(h, h, h, mask)[0]
    return h + feed_forward(norm2(h))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "feed-forward reads norm2 of the block input x, not of the stream after attention",
     "teacher_says": "the second sublayer reads the stream after the attention's residual",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = norm1(x)
    return x + attention(h, h, h, mask)[0] + feed_forward(norm2(x))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "mask dropped (not passed to attention)",
     "teacher_says": "pass the mask to the attention",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = norm1(x)
    x = x + attention(h, h, h)[0]
    return x + feed_forward(norm2(x))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong", "mistake": "norm1 used for both sublayers",
     "teacher_says": "each sublayer has its own LayerNorm: norm2 before the feed-forward",
     "code": _PLN.replace("feed_forward(norm2(x))", "feed_forward(norm1(x))")},
    {"exercise": "pre_ln_block", "kind": "robustness", "idea": "adds in place to x (x += ...), changing the caller's tensor",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = norm1(x)
    x += attention(h, h, h, mask)[0]
    x += feed_forward(norm2(x))
    return x
'''},
    {"exercise": "induction_score", "kind": "correct", "idea": "fancy indexing of the shifted diagonal", "code": _IND},
    {"exercise": "induction_score", "kind": "correct", "idea": "np.diagonal with offset",
     "code": '''
import numpy as np

def induction_score(weights, period):
    diag = np.diagonal(weights, offset=1 - period, axis1=-2, axis2=-1)  # w[i, i-m+1], i = m-1 .. n-1
    return diag[..., 1:].mean(axis=-1).astype(weights.dtype)
'''},
    {"exercise": "induction_score", "kind": "wrong", "mistake": "key i - m (the earlier copy itself, not its successor)",
     "teacher_says": "an induction head attends the token after the earlier copy: key i - m + 1",
     "code": _IND.replace("i - period + 1", "i - period")},
    {"exercise": "induction_score", "kind": "wrong", "mistake": "queries from m-1 (off by one)",
     "teacher_says": "average over queries i = m .. n-1",
     "code": _IND.replace("np.arange(period, n)", "np.arange(period - 1, n)")},
    {"exercise": "induction_score", "kind": "wrong", "mistake": "divides the sum by n instead of by the number of queries",
     "teacher_says": "a mean over n - m queries: divide by n - m",
     "code": _IND.replace("weights[..., i, i - period + 1].mean(axis=-1)", "(weights[..., i, i - period + 1].sum(axis=-1) / n)")},
    {"exercise": "induction_score", "kind": "wrong", "mistake": "rows and columns swapped (weights[..., key, query])",
     "teacher_says": "rows are queries and columns keys: index weights[..., i, i - m + 1]",
     "code": _IND.replace("weights[..., i, i - period + 1]", "weights[..., i - period + 1, i]")},
    {"exercise": "induction_score", "kind": "robustness", "idea": "python loops over leading index (slow) and returns a list",
     "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    flat = weights.reshape(-1, n, n)
    return [sum(float(w[i, i - period + 1]) for i in range(period, n)) / (n - period) for w in flat]
'''},
]
