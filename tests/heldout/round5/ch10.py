ANSWERS = [
 # ------------------------------------------------------------------ sinusoidal
 {"exercise": "sinusoidal", "kind": "correct",
  "idea": "two plain Python loops with math.sin and math.cos",
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
 {"exercise": "sinusoidal", "kind": "correct",
  "idea": "frequencies by exp/log, then sin and cos stacked on a new last axis and reshaped to interleave them",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    theta = np.exp(-np.log(10000.0) * np.arange(0, d_model, 2) / d_model)  # (d/2,)
    angles = np.outer(np.arange(n, dtype=np.float64), theta)              # (n, d/2)
    return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(n, d_model)
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Puts the cosines in the even columns and the sines in the odd ones.",
  "teacher_says": "PE[p, 2i] is the sine and PE[p, 2i+1] the cosine: swap them back.",
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
  "mistake": "Concatenates all the sines then all the cosines ([sin | cos]) instead of interleaving them column by column.",
  "teacher_says": "Column 2i is the sine and column 2i+1 the cosine of the same angle: interleave them (pe[:, 0::2], pe[:, 1::2]) rather than putting two blocks side by side.",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Uses i/d_model instead of 2i/d_model in the exponent, so the frequencies fall only half as fast.",
  "teacher_says": "The exponent is 2i/d_model for pair i (equivalently, the even column index over d_model): np.arange(0, d_model, 2) / d_model.",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    i = np.arange(d_model // 2)
    angles = np.arange(n)[:, None] / 10000 ** (i / d_model)
    pe = np.empty((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Multiplies the position by 10000^(2i/d) instead of dividing by it.",
  "teacher_says": "The angle is p / 10000^(2i/d_model) (i.e. p times 10000^(-2i/d_model)); multiplying makes the hands spin faster and faster.",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] * 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Uses each column's own index j in the exponent (10000^(j/d)), so every odd (cosine) column gets a slightly different frequency from its sine partner.",
  "teacher_says": "Columns 2i and 2i+1 share ONE angle, p / 10000^(2i/d_model); using 10000^(j/d_model) per column gives the cosine column the exponent (2i+1)/d_model.",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    j = np.arange(d_model)
    angles = np.arange(n)[:, None] / 10000 ** (j / d_model)  # (n, d_model)
    return np.where(j % 2 == 0, np.sin(angles), np.cos(angles))
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "Counts positions from 1 instead of 0.",
  "teacher_says": "Positions are p = 0, ..., n-1: row 0 must be sin(0)=0 and cos(0)=1 in every pair.",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    positions = np.arange(1, n + 1)[:, None]
    angles = positions / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
 {"exercise": "sinusoidal", "kind": "robustness",
  "idea": "builds the table in float32 to save memory",
  "mistake": "Right values to float32 precision, but the dtype is float32 instead of the float64 the statement asks for.",
  "teacher_says": "The statement asks for a float64 array: do not pass dtype=np.float32 (or cast back).",
  "code": '''
import numpy as np

def sinusoidal(n, d_model):
    angles = np.arange(n, dtype=np.float32)[:, None] / np.float32(10000) ** (
        np.arange(0, d_model, 2, dtype=np.float32) / d_model)
    pe = np.zeros((n, d_model), dtype=np.float32)
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
 # ------------------------------------------------------------------ apply_rope
 {"exercise": "apply_rope", "kind": "correct",
  "idea": "rotate the two halves explicitly: (x1 cos - x2 sin, x2 cos + x1 sin)",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2], x.shape[-1]
    half = d // 2
    p = np.arange(n, dtype=np.float64) if positions is None else np.asarray(positions, dtype=np.float64)
    theta = 10000.0 ** (-2.0 * np.arange(half) / d)
    angles = p[:, None] * theta                       # (n, d/2)
    cos, sin = np.cos(angles), np.sin(angles)
    x1, x2 = x[..., :half], x[..., half:]
    out = np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)
    return out.astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "correct",
  "idea": "complex numbers: (x_i + j x_{i+d/2}) times e^{j p theta_i}",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    half = d // 2
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = np.power(10000.0, -np.arange(0, d, 2) / d)
    z = (x[..., :half] + 1j * x[..., half:]) * np.exp(1j * np.multiply.outer(p, theta))
    return np.concatenate([z.real, z.imag], axis=-1).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Pairs neighbouring features (2i, 2i+1), the RoFormer/GPT-J layout, instead of feature i with feature i + d/2.",
  "teacher_says": "The exercise asks for the rotate-half layout: feature i pairs with feature i + d/2, not with its neighbour 2i+1. Both are valid RoPEs, but they give different outputs.",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = p[:, None] * theta
    cos, sin = np.cos(angles), np.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty(x.shape, dtype=np.float64)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = odd * cos + even * sin
    return out.astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Writes rotate_half as (x2, -x1) instead of (-x2, x1), which rotates every pair the other way.",
  "teacher_says": "rotate_half(x) = (-x_{d/2:}, x_{:d/2}): the minus sign goes on the second half, moved to the front. With it on the other half the rotation runs backwards.",
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
  "mistake": "Uses theta_i = 10000^(-i/d) (pair index over d) instead of 10000^(-2i/d).",
  "teacher_says": "theta_i = 10000^(-2i/d) for i < d/2: the exponent runs over the even numbers 0, 2, ..., d-2 divided by d.",
  "code": '''
import numpy as np

def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(d // 2) / d)
    angles = p[:, None] * theta
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rotated = np.concatenate([-x[..., d // 2:], x[..., :d // 2]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "Ignores the positions argument and always rotates by 0, ..., n-1, so a KV cache's new token is rotated as if it were at position 0.",
  "teacher_says": "When positions are given, use them: a token at position 10 must be turned by 10*theta_i, whatever its index in x.",
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
  "mistake": "Expands cos and sin with np.repeat (each angle twice in a row: 0,0,1,1,...) while rotate_half pairs the halves, so feature i and i + d/2 no longer share an angle.",
  "teacher_says": "In the rotate-half layout feature i and feature i + d/2 share angle i: duplicate the angles as two halves (concatenate or tile), not entry by entry with np.repeat.",
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
 {"exercise": "apply_rope", "kind": "robustness",
  "idea": "correct rotation, but computed and returned in float64",
  "mistake": "A float32 input comes back as float64: the angles are float64 and the result is never cast back.",
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
 # ------------------------------------------------------------------ pre_ln_block
 {"exercise": "pre_ln_block", "kind": "correct",
  "idea": "named intermediate tensors, q, k and v passed explicitly, need_weights=False",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    normed = norm1(x)
    attended, _ = attention(normed, normed, normed, mask=mask, need_weights=False)
    stream = x + attended
    return stream + feed_forward(norm2(stream))
'''},
 {"exercise": "pre_ln_block", "kind": "correct",
  "idea": "a loop over (norm, sub-layer) pairs, each adding its output to the stream",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    def attend(y):
        return attention(y, mask=mask)[0]

    for norm, sublayer in ((norm1, attend), (norm2, feed_forward)):
        x = x + sublayer(norm(x))
    return x
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Writes the post-LN block: normalises after each residual addition instead of before each sub-layer.",
  "teacher_says": "Pre-LN is x = x + sublayer(norm(x)); you wrote post-LN, x = norm(x + sublayer(x)).",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x + attention(x, mask=mask)[0])
    return norm2(x + feed_forward(x))
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Adds the residual to the normalised input instead of to the untouched stream x.",
  "teacher_says": "The residual path carries x itself: x + attention(norm1(x)), not norm1(x) + attention(norm1(x)).",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = norm1(x)
    h = h + attention(h, mask=mask)[0]
    g = norm2(h)
    return g + feed_forward(g)
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Feeds both sub-layers from the block's input (a 'parallel' block): the feed-forward network reads norm2 of the original x, not of the stream after the attention's residual.",
  "teacher_says": "The two steps are sequential: the second reads the stream that the first updated, x = x + attention(...), then x + feed_forward(norm2(x)) with that new x.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    attended = attention(norm1(x), mask=mask)[0]
    fed = feed_forward(norm2(x))
    return x + attended + fed
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Forgets the second residual connection: returns the feed-forward output alone.",
  "teacher_says": "The feed-forward sub-layer is wrapped in a residual too: x + feed_forward(norm2(x)).",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = x + attention(norm1(x), mask=mask)[0]
    return feed_forward(norm2(x))
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Passes the mask as the second positional argument, which the attention module reads as the keys k.",
  "teacher_says": "The module's signature is attention(q, k=None, v=None, mask=None, ...): pass the mask by name, mask=mask.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    out, _ = attention(norm1(x), mask)
    x = x + out
    return x + feed_forward(norm2(x))
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "Inverts the mask, thinking the module uses PyTorch's key_padding_mask convention (True = padding).",
  "teacher_says": "The book's module takes True = may attend, like the mask you are given: pass it unchanged.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    torch_mask = None if mask is None else ~mask
    x = x + attention(norm1(x), mask=torch_mask)[0]
    return x + feed_forward(norm2(x))
'''},
 {"exercise": "pre_ln_block", "kind": "robustness",
  "idea": "in-place additions on the input tensor",
  "mistake": "x += ... overwrites the caller's tensor (and fails under autograd when x requires grad).",
  "teacher_says": "Do not modify the input: write x = x + ..., which makes a new tensor.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x += attention(norm1(x), mask=mask)[0]
    x += feed_forward(norm2(x))
    return x
'''},
 # ------------------------------------------------------------------ induction_score
 {"exercise": "induction_score", "kind": "correct",
  "idea": "np.diagonal with an offset picks the stripe w[i, i-m+1], then drop its first entry",
  "code": '''
import numpy as np

def induction_score(weights, period):
    # diagonal offset -(m-1): entries w[r, r-(m-1)] for r = m-1 .. n-1
    stripe = np.diagonal(weights, offset=-(period - 1), axis1=-2, axis2=-1)
    return stripe[..., 1:].mean(axis=-1)  # queries r = m .. n-1
'''},
 {"exercise": "induction_score", "kind": "correct",
  "idea": "an explicit loop over the scored queries accumulating the weights",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    total = np.zeros(weights.shape[:-2], dtype=weights.dtype)
    for i in range(period, n):
        total = total + weights[..., i, i - period + 1]
    return (total / (n - period)).astype(weights.dtype)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Reads the weight on the earlier copy itself (key i - m) instead of on the token after it (key i - m + 1).",
  "teacher_says": "An induction head copies the token that FOLLOWED the earlier occurrence: key i - m + 1, not i - m.",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    keys = queries - period
    return weights[..., queries, keys].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Starts scoring at query m - 1, one query too early (a query that has no earlier copy).",
  "teacher_says": "Only queries i = m, ..., n-1 have an earlier copy; start at period, not period - 1.",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period - 1, n)
    keys = queries - period + 1
    return weights[..., queries, keys].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Sums the n - m weights but divides by n, the number of all queries.",
  "teacher_says": "The mean is over the n - m scored queries: divide by n - period, not n.",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    return weights[..., queries, queries - period + 1].sum(axis=-1) / n
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Swaps rows and columns: reads w[i - m + 1, i] (the key's row) instead of w[i, i - m + 1].",
  "teacher_says": "Rows are queries and columns keys: query i's weight on key j is weights[..., i, j].",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    return weights[..., queries - period + 1, queries].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Scores every query 0..n-1; for the first ones the key index is negative and silently wraps around to the end of the row.",
  "teacher_says": "Negative indices wrap in NumPy: only queries i >= m have a key i - m + 1 that is an earlier position. Score those only.",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(n)
    keys = queries - period + 1
    return weights[..., queries, keys].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "Takes the mean over axis 0 (the first leading axis) instead of over the scored queries.",
  "teacher_says": "The picked weights have shape (..., n - m): average the last axis (axis=-1), keeping the leading axes.",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    picked = weights[..., queries, queries - period + 1]
    return picked.mean(axis=0)
'''},
 {"exercise": "induction_score", "kind": "robustness",
  "idea": "a Python loop over every leading index that fills a np.zeros result",
  "mistake": "Right values, but the result is always float64 (np.zeros' default) instead of the weights' dtype.",
  "teacher_says": "Return the dtype of weights: create the result with dtype=weights.dtype, or let NumPy's mean keep it.",
  "code": '''
import numpy as np

def induction_score(weights, period):
    n = weights.shape[-1]
    lead = weights.shape[:-2]
    result = np.zeros(lead)
    for idx in np.ndindex(*lead):
        w = weights[idx]
        result[idx] = sum(w[i, i - period + 1] for i in range(period, n)) / (n - period)
    return result
'''},
]
