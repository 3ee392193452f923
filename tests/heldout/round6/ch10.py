ANSWERS = [
 # ------------------------------------------------------------------ sinusoidal
 {"exercise": "sinusoidal", "kind": "correct",
  "idea": "plain double loop with math.sin and math.cos, filling a float64 array",
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
  "idea": "frequencies as exp(-ln(10000) * 2i / d), sin and cos stacked on a new last axis and reshaped to interleave them",
  "code": '''
import numpy as np


def sinusoidal(n, d_model):
    freqs = np.exp(-np.log(10000.0) * np.arange(0, d_model, 2) / d_model)  # (d/2,)
    angles = np.outer(np.arange(n, dtype=np.float64), freqs)  # (n, d/2)
    return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(n, d_model)
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "puts all the sines in the first half of the columns and all the cosines in the second half instead of alternating them",
  "teacher_says": "Column 2i holds sin and column 2i+1 holds cos of the same angle: interleave them (pe[:, 0::2], pe[:, 1::2]), do not concatenate.",
  "code": '''
import numpy as np


def sinusoidal(n, d_model):
    pos = np.arange(n)[:, None]
    angles = pos / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "uses the pair index i instead of 2i in the exponent (10000^(i/d)), so the frequencies fall only half as fast",
  "teacher_says": "The exponent is 2i/d_model: with i = 0..d/2-1 use np.arange(0, d_model, 2) / d_model, or 2 * np.arange(d_model // 2) / d_model.",
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
  "mistake": "swaps sine and cosine: cosines in the even columns, sines in the odd ones",
  "teacher_says": "PE[p, 2i] is the sine and PE[p, 2i+1] the cosine; check with position 0, whose even columns must be 0.",
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
  "mistake": "numbers the positions from 1 instead of 0",
  "teacher_says": "Positions are p = 0 .. n-1: np.arange(n), so the first row is (0, 1, 0, 1, ...).",
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
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "multiplies the position by 10000^(2i/d) instead of dividing by it",
  "teacher_says": "The angle is p / 10000^(2i/d): the frequencies decrease from 1 to about 1/10000; yours grow to 10000.",
  "code": '''
import numpy as np


def sinusoidal(n, d_model):
    theta = 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    angles = np.arange(n)[:, None] * theta
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
 {"exercise": "sinusoidal", "kind": "wrong",
  "mistake": "gives every column j its own frequency 10000^(j/d), so the cosine of column 2i+1 uses a different angle from the sine of column 2i",
  "teacher_says": "A pair of columns (2i, 2i+1) shares ONE angle p/10000^(2i/d): compute d/2 angles and take sin and cos of the same ones.",
  "code": '''
import numpy as np


def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / np.power(10000, np.arange(d_model) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angles[:, 0::2])
    pe[:, 1::2] = np.cos(angles[:, 1::2])
    return pe
'''},
 {"exercise": "sinusoidal", "kind": "robustness",
  "idea": "right table built in float32 to save memory",
  "mistake": "returns float32 although the exercise asks for float64",
  "teacher_says": "Return float64 as the statement (and mha.positions.sinusoidal) does; cast to float32 only where it is added to float32 embeddings.",
  "code": '''
import numpy as np


def sinusoidal(n, d_model):
    pos = np.arange(n, dtype=np.float32)[:, None]
    div = np.power(np.float32(10000), np.arange(0, d_model, 2, dtype=np.float32) / d_model)
    pe = np.zeros((n, d_model), dtype=np.float32)
    pe[:, 0::2] = np.sin(pos / div)
    pe[:, 1::2] = np.cos(pos / div)
    return pe
'''},
 # ------------------------------------------------------------------ apply_rope
 {"exercise": "apply_rope", "kind": "correct",
  "idea": "the two halves rotated explicitly (x1 cos - x2 sin, x2 cos + x1 sin) and concatenated",
  "code": '''
import numpy as np


def apply_rope(x, positions=None):
    x = np.asarray(x)
    n, d = x.shape[-2], x.shape[-1]
    half = d // 2
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-2.0 * np.arange(half) / d)
    angles = p.astype(np.float64)[:, None] * theta  # (n, d/2)
    cos, sin = np.cos(angles), np.sin(angles)
    x1, x2 = x[..., :half], x[..., half:]
    out = np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)
    return out.astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "correct",
  "idea": "pairs (x_i, x_{i+d/2}) as complex numbers multiplied by exp(i p theta)",
  "code": '''
import numpy as np


def apply_rope(x, positions=None):
    d = x.shape[-1]
    n = x.shape[-2]
    pos = np.arange(n, dtype=np.float64) if positions is None else np.asarray(positions, dtype=np.float64)
    theta = np.power(10000.0, -np.arange(0, d, 2) / d)
    z = (x[..., : d // 2] + 1j * x[..., d // 2:]) * np.exp(1j * pos[:, None] * theta)
    return np.concatenate([z.real, z.imag], axis=-1).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "rotates neighbouring features (2i, 2i+1) together (the RoFormer / GPT-J layout) instead of feature i with feature i + d/2",
  "teacher_says": "This exercise is the rotate-half layout (GPT-NeoX, Llama): feature i pairs with i + d/2. The interleaved layout gives different scores for the same weights.",
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
    out[..., 1::2] = even * sin + odd * cos
    return out
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "writes rotate_half(x) as (x2, -x1) instead of (-x2, x1), which rotates every pair the other way round",
  "teacher_says": "rotate_half(x) = (-x[d/2:], x[:d/2]); with your sign the pair turns by -p*theta. Check one pair by hand against the rotation matrix.",
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
  "mistake": "builds theta_i = 10000^(-i/d) from the pair index without the factor 2",
  "teacher_says": "theta_i = 10000^(-2i/d) for i < d/2: use np.arange(0, d, 2) / d in the exponent.",
  "code": '''
import numpy as np


def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(d // 2) / d)
    angles = p[:, None] * theta
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rot = np.concatenate([-x[..., d // 2:], x[..., : d // 2]], axis=-1)
    return (x * cos + rot * sin).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "ignores the positions argument and always rotates tokens to 0 .. n-1",
  "teacher_says": "When positions are given (a KV cache's new token at position t), rotate by those positions, not by the token's index in x.",
  "code": '''
import numpy as np


def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    angles = np.arange(n)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rot = np.concatenate([-x[..., d // 2:], x[..., : d // 2]], axis=-1)
    return (x * cos + rot * sin).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "wrong",
  "mistake": "repeats each cosine and sine twice in a row (np.repeat: c0, c0, c1, c1, ...) while rotating halves, so features get angles meant for other pairs",
  "teacher_says": "In the rotate-half layout feature i and i + d/2 share angle i: the cos table is [cos, cos] concatenated, not each value repeated in place.",
  "code": '''
import numpy as np


def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    angles = p[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos = np.repeat(np.cos(angles), 2, axis=-1)
    sin = np.repeat(np.sin(angles), 2, axis=-1)
    rot = np.concatenate([-x[..., d // 2:], x[..., : d // 2]], axis=-1)
    return (x * cos + rot * sin).astype(x.dtype)
'''},
 {"exercise": "apply_rope", "kind": "robustness",
  "idea": "right rotation, the float64 angles never cast back",
  "mistake": "returns float64 for float32 inputs (the angles are float64 and the result is not cast to x's dtype)",
  "teacher_says": "Return an array of x's dtype: finish with .astype(x.dtype).",
  "code": '''
import numpy as np


def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    angles = p[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rot = np.concatenate([-x[..., d // 2:], x[..., : d // 2]], axis=-1)
    return x * cos + rot * sin
'''},
 # ------------------------------------------------------------------ pre_ln_block
 {"exercise": "pre_ln_block", "kind": "correct",
  "idea": "a loop over the two (norm, sub-layer) pairs, each a residual step",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    def attend(y):
        out, _ = attention(y, y, y, mask)
        return out

    for norm, sublayer in ((norm1, attend), (norm2, feed_forward)):
        x = x + sublayer(norm(x))
    return x
'''},
 {"exercise": "pre_ln_block", "kind": "correct",
  "idea": "torch.add with named intermediate tensors, attention called with keyword arguments",
  "code": '''
import torch


def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    normed = norm1(x)
    attended = attention(normed, mask=mask)[0]
    stream = torch.add(x, attended)
    return torch.add(stream, feed_forward(norm2(stream)))
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "writes the post-LN block: normalises after each residual addition instead of the input of each sub-layer",
  "teacher_says": "Pre-LN: x = x + MHA(LN1(x)); x = x + FFN(LN2(x)). The norms go INSIDE the residual branches, and nothing normalises the stream itself.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x + attention(x, mask=mask)[0])
    return norm2(x + feed_forward(x))
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "adds the residual to the normalised input instead of to the original stream",
  "teacher_says": "The identity path carries x itself: x + sublayer(norm(x)), not norm(x) + sublayer(norm(x)).",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    y = norm1(x)
    x = y + attention(y, mask=mask)[0]
    y = norm2(x)
    return y + feed_forward(y)
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "copy-paste slip: normalises the feed-forward input with norm1 instead of norm2",
  "teacher_says": "Each sub-layer has its own LayerNorm with its own weights: the feed-forward branch uses norm2.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = x + attention(norm1(x), mask=mask)[0]
    x = x + feed_forward(norm1(x))
    return x
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "computes both sub-layers from the block's input in parallel, so the feed-forward network never sees the attention's output",
  "teacher_says": "The two residual steps are sequential: the FFN reads the stream AFTER the attention was added (x = x + attn(...); then x + ffn(norm2(x))).",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    attn_out, _ = attention(norm1(x), mask=mask)
    ffn_out = feed_forward(norm2(x))
    return x + attn_out + ffn_out
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "inverts the mask before passing it on, as if the attention used PyTorch's True = padding convention",
  "teacher_says": "mha's MultiHeadAttention takes True = may attend, like the mask you are given: pass it on as it is.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    key_padding = None if mask is None else ~mask
    x = x + attention(norm1(x), mask=key_padding)[0]
    return x + feed_forward(norm2(x))
'''},
 {"exercise": "pre_ln_block", "kind": "wrong",
  "mistake": "forgets the second residual connection: returns only the feed-forward network's output",
  "teacher_says": "Both sub-layers are residual: the block returns x + FFN(LN2(x)), not FFN(LN2(x)).",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    h = x + attention(norm1(x), mask=mask)[0]
    return feed_forward(norm2(h))
'''},
 {"exercise": "pre_ln_block", "kind": "robustness",
  "idea": "right block, the residual additions done in place with +=",
  "mistake": "updates the caller's input tensor in place (x += ...), so x is changed after the call (and autograd fails on a leaf that requires grad)",
  "teacher_says": "Write x = x + ... so that a new tensor is made; in-place updates of the input change the caller's data.",
  "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x += attention(norm1(x), mask=mask)[0]
    x += feed_forward(norm2(x))
    return x
'''},
 # ------------------------------------------------------------------ induction_score
 {"exercise": "induction_score", "kind": "correct",
  "idea": "a diagonal of the weights: np.diagonal with offset 1 - m, dropping its first entry (query m - 1)",
  "code": '''
import numpy as np


def induction_score(weights, period):
    diag = np.diagonal(weights, offset=1 - period, axis1=-2, axis2=-1)  # (i, i - m + 1), i = m-1 .. n-1
    return diag[..., 1:].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "correct",
  "idea": "Python loop over the scored queries, summing one column per query",
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
  "mistake": "reads the weight on the earlier copy itself, key i - m, instead of the token after it, key i - m + 1",
  "teacher_says": "An induction head looks at the token that FOLLOWED the earlier occurrence of its token: key i - m + 1, one to the right of the copy.",
  "code": '''
import numpy as np


def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    return weights[..., queries, queries - period].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "starts the scored queries at m - 1 instead of m, so it also averages in a query that has no earlier copy",
  "teacher_says": "Only queries i = m .. n-1 have an earlier copy; np.arange(period, n), not np.arange(period - 1, n).",
  "code": '''
import numpy as np


def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period - 1, n)
    keys = queries - period + 1
    return weights[..., queries, keys].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "divides the sum by n (all queries) instead of by the n - m queries that are scored",
  "teacher_says": "It is a mean over the queries i = m .. n-1: divide by n - m, or use .mean() on the picked weights.",
  "code": '''
import numpy as np


def induction_score(weights, period):
    n = weights.shape[-1]
    q = np.arange(period, n)
    return weights[..., q, q - period + 1].sum(axis=-1) / n
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "swaps the row and column index (reads weights[key, query], the transposed entry)",
  "teacher_says": "Rows are queries and columns keys: the entry is weights[..., i, i - m + 1].",
  "code": '''
import numpy as np


def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    keys = queries - period + 1
    return weights[..., keys, queries].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "measures the previous-token weight (key i - 1) instead of the induction target",
  "teacher_says": "That is the previous-token score. The induction target depends on the period: key i - m + 1.",
  "code": '''
import numpy as np


def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    return weights[..., queries, queries - 1].mean(axis=-1)
'''},
 {"exercise": "induction_score", "kind": "wrong",
  "mistake": "averages over everything (.mean() with no axis), returning one number instead of one score per leading index",
  "teacher_says": "Return shape (...): average over the queries only (axis=-1), one score per batch element and head.",
  "code": '''
import numpy as np


def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    return weights[..., queries, queries - period + 1].mean()
'''},
 {"exercise": "induction_score", "kind": "robustness",
  "idea": "right score, computed in float64 'for accuracy'",
  "mistake": "returns float64 for float32 weights instead of the weights' dtype",
  "teacher_says": "The statement asks for the dtype of weights: do not upcast, or cast back at the end.",
  "code": '''
import numpy as np


def induction_score(weights, period):
    w = np.asarray(weights, dtype=np.float64)
    n = w.shape[-1]
    queries = np.arange(period, n)
    return w[..., queries, queries - period + 1].mean(axis=-1)
'''},
]
