ANSWERS = [
    # ------------------------------------------------------------------ sinusoidal
    {"exercise": "sinusoidal", "kind": "correct",
     "idea": "plain double loop with math.sin / math.cos, one pair of columns at a time",
     "code": '''
import math

import numpy as np


def sinusoidal(n, d_model):
    pe = np.zeros((n, d_model), dtype=np.float64)
    for p in range(n):
        for i in range(d_model // 2):
            angle = p / math.pow(10000.0, 2 * i / d_model)
            pe[p, 2 * i] = math.sin(angle)
            pe[p, 2 * i + 1] = math.cos(angle)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "correct",
     "idea": "frequencies as exp(-log(10000) * 2i/d), np.outer for the angles, sin/cos interleaved with stack + reshape",
     "code": '''
import numpy as np


def sinusoidal(n, d_model):
    theta = np.exp(-np.log(10000.0) * np.arange(0, d_model, 2) / d_model)  # (d/2,)
    angles = np.outer(np.arange(n, dtype=np.float64), theta)  # (n, d/2)
    return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(n, d_model)
'''},
    {"exercise": "sinusoidal", "kind": "wrong",
     "mistake": "uses i/d_model instead of 2i/d_model in the exponent (the pair index without the factor 2)",
     "teacher_says": "The exponent is 2i/d_model with i the pair index (equivalently the even column index 2i over d_model): use np.arange(0, d_model, 2) / d_model.",
     "code": '''
import numpy as np


def sinusoidal(n, d_model):
    pe = np.zeros((n, d_model))
    i = np.arange(d_model // 2)
    angles = np.arange(n)[:, None] / 10000 ** (i / d_model)
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "wrong",
     "mistake": "puts the cosines in the even columns and the sines in the odd ones",
     "teacher_says": "PE[p, 2i] is the sine and PE[p, 2i+1] the cosine: even columns sin, odd columns cos.",
     "code": '''
import numpy as np


def sinusoidal(n, d_model):
    pe = np.zeros((n, d_model))
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe[:, 0::2] = np.cos(angles)
    pe[:, 1::2] = np.sin(angles)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "wrong",
     "mistake": "concatenates all sines then all cosines (the rotate-half layout) instead of interleaving them",
     "teacher_says": "The columns alternate: sin in column 2i and cos in column 2i+1, not the sines in the first half and the cosines in the second.",
     "code": '''
import numpy as np


def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)
'''},
    {"exercise": "sinusoidal", "kind": "wrong",
     "mistake": "numbers the positions from 1 instead of 0",
     "teacher_says": "Positions are p = 0, ..., n-1: np.arange(n), so the first row is (0, 1, 0, 1, ...).",
     "code": '''
import numpy as np


def sinusoidal(n, d_model):
    positions = np.arange(1, n + 1)[:, None]
    angles = positions / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.empty((n, d_model))
    pe[:, ::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "wrong",
     "mistake": "multiplies the position by 10000^(2i/d) instead of dividing by it",
     "teacher_says": "The angle is p / 10000^(2i/d_model): the frequencies fall from 1 to about 1/10000, they do not grow.",
     "code": '''
import numpy as np


def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] * 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
    {"exercise": "sinusoidal", "kind": "wrong",
     "mistake": "gives every column its own frequency from its column index j (p / 10000^(j/d)), so sin and cos of a pair no longer share an angle",
     "teacher_says": "Columns 2i and 2i+1 form a pair with ONE angle p / 10000^(2i/d_model); the odd column must not use (2i+1)/d_model.",
     "code": '''
import numpy as np


def sinusoidal(n, d_model):
    j = np.arange(d_model)
    angles = np.arange(n)[:, None] / 10000 ** (j / d_model)  # (n, d_model)
    return np.where(j % 2 == 0, np.sin(angles), np.cos(angles))
'''},
    {"exercise": "sinusoidal", "kind": "robustness",
     "idea": "right values, built in float32 to save memory",
     "mistake": "returns float32 although the exercise asks for a float64 array",
     "teacher_says": "The table must be float64 (as mha.positions.sinusoidal returns it); do not cast to float32.",
     "code": '''
import numpy as np


def sinusoidal(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model), dtype=np.float32)
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''},
    # ------------------------------------------------------------------ apply_rope
    {"exercise": "apply_rope", "kind": "correct",
     "idea": "rotate the two halves explicitly (x1 cos - x2 sin, x2 cos + x1 sin) and concatenate",
     "code": '''
import numpy as np


def apply_rope(x, positions=None):
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
     "idea": "each pair (x_i, x_{i+d/2}) as a complex number multiplied by exp(i p theta_i)",
     "code": '''
import numpy as np


def apply_rope(x, positions=None):
    d = x.shape[-1]
    half = d // 2
    if positions is None:
        positions = np.arange(x.shape[-2])
    theta = np.power(10000.0, -np.arange(0, d, 2) / d)
    rot = np.exp(1j * np.multiply.outer(np.asarray(positions, dtype=np.float64), theta))
    z = (x[..., :half] + 1j * x[..., half:]) * rot
    return np.concatenate([z.real, z.imag], axis=-1).astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "wrong",
     "mistake": "pairs neighbouring features (2i, 2i+1), the RoFormer / GPT-J layout, instead of (i, i + d/2)",
     "teacher_says": "The exercise asks for rotate-half: feature i goes with feature i + d/2, not with i + 1.",
     "code": '''
import numpy as np


def apply_rope(x, positions=None):
    d = x.shape[-1]
    p = np.arange(x.shape[-2]) if positions is None else np.asarray(positions)
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
     "mistake": "rotate_half with the sign on the wrong half, (x2, -x1): every pair turns the other way",
     "teacher_says": "rotate_half(x) = (-x[d/2:], x[:d/2]); with the minus on the other half the rotation goes by -p*theta.",
     "code": '''
import numpy as np


def apply_rope(x, positions=None):
    d = x.shape[-1]
    p = np.arange(x.shape[-2]) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = p[:, None] * theta
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rotated = np.concatenate([x[..., d // 2:], -x[..., :d // 2]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "wrong",
     "mistake": "ignores the positions argument and always rotates by 0..n-1",
     "teacher_says": "When positions is given (a KV cache's tokens at t, t+1, ...), the angles must use those positions, not np.arange(n).",
     "code": '''
import numpy as np


def apply_rope(x, positions=None):
    n, d = x.shape[-2:]
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = np.arange(n)[:, None] * theta
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rotated = np.concatenate([-x[..., d // 2:], x[..., :d // 2]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "wrong",
     "mistake": "frequencies 10000^(-i/d) with the pair index i but without the factor 2",
     "teacher_says": "theta_i = 10000^(-2i/d): with i the pair index (0..d/2-1) the exponent needs the factor 2.",
     "code": '''
import numpy as np


def apply_rope(x, positions=None):
    d = x.shape[-1]
    p = np.arange(x.shape[-2]) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(d // 2) / d)
    angles = p[:, None] * theta
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rotated = np.concatenate([-x[..., d // 2:], x[..., :d // 2]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "wrong",
     "mistake": "expands cos and sin with np.repeat (angles interleaved 0,0,1,1,...) while rotate_half pairs i with i + d/2",
     "teacher_says": "In the rotate-half layout feature i and i + d/2 share angle i: duplicate the angles with concatenate([a, a]), not repeat(a, 2).",
     "code": '''
import numpy as np


def apply_rope(x, positions=None):
    d = x.shape[-1]
    p = np.arange(x.shape[-2]) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = np.repeat(p[:, None] * theta, 2, axis=-1)  # (n, d)
    rotated = np.concatenate([-x[..., d // 2:], x[..., :d // 2]], axis=-1)
    return (x * np.cos(angles) + rotated * np.sin(angles)).astype(x.dtype)
'''},
    {"exercise": "apply_rope", "kind": "robustness",
     "idea": "right rotation, but the result stays in the float64 of the angles",
     "mistake": "forgets to cast back, so float32 inputs come back as float64",
     "teacher_says": "The angles are float64 and promote the result: return out.astype(x.dtype).",
     "code": '''
import numpy as np


def apply_rope(x, positions=None):
    d = x.shape[-1]
    p = np.arange(x.shape[-2]) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = p[:, None] * theta
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    rotated = np.concatenate([-x[..., d // 2:], x[..., :d // 2]], axis=-1)
    return x * cos + rotated * sin
'''},
    # ------------------------------------------------------------------ pre_ln_block
    {"exercise": "pre_ln_block", "kind": "correct",
     "idea": "two residual steps written out with explicit intermediate names and torch.add",
     "code": '''
import torch


def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    normed = norm1(x)
    attended, _weights = attention(normed, mask=mask)
    stream = torch.add(x, attended)
    return torch.add(stream, feed_forward(norm2(stream)))
'''},
    {"exercise": "pre_ln_block", "kind": "correct",
     "idea": "a loop over (norm, sublayer) pairs applying x = x + sublayer(norm(x))",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    def attend(y):
        return attention(y, mask=mask)[0]

    for norm, sublayer in ((norm1, attend), (norm2, feed_forward)):
        x = x + sublayer(norm(x))
    return x
'''},
    {"exercise": "pre_ln_block", "kind": "wrong",
     "mistake": "writes the post-LN block: normalises after each residual addition",
     "teacher_says": "Pre-LN normalises the INPUT of each sub-layer: x = x + MHA(LN1(x)), then x = x + FFN(LN2(x)); nothing normalises the stream itself.",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x + attention(x, mask=mask)[0])
    return norm2(x + feed_forward(x))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong",
     "mistake": "overwrites x with its normalised version, so the residual carries LN(x) instead of x",
     "teacher_says": "Keep the un-normalised x for the residual: y = norm1(x); x = x + attention(y)[0], not x = y + attention(y)[0].",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x)
    x = x + attention(x, mask=mask)[0]
    x = norm2(x)
    return x + feed_forward(x)
'''},
    {"exercise": "pre_ln_block", "kind": "wrong",
     "mistake": "feeds the block's input, not the updated stream, to the feed-forward branch (a parallel block)",
     "teacher_says": "The FFN reads the stream AFTER the attention's residual: x = x + attn(...); then x + ffn(norm2(x)) with that new x.",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    attn_out, _ = attention(norm1(x), mask=mask)
    ffn_out = feed_forward(norm2(x))
    return x + attn_out + ffn_out
'''},
    {"exercise": "pre_ln_block", "kind": "wrong",
     "mistake": "inverts the mask (~mask) as if the attention used PyTorch's True = padding convention",
     "teacher_says": "The book's attention takes True = may attend; pass the mask through as it is.",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    torch_mask = None if mask is None else ~mask
    x = x + attention(norm1(x), mask=torch_mask)[0]
    return x + feed_forward(norm2(x))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong",
     "mistake": "forgets the second residual connection: returns FFN(LN2(x)) instead of x + FFN(LN2(x))",
     "teacher_says": "Both sub-layers are residual: add the FFN's output to the stream.",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x = x + attention(norm1(x), mask=mask)[0]
    return feed_forward(norm2(x))
'''},
    {"exercise": "pre_ln_block", "kind": "wrong",
     "mistake": "never passes the mask to the attention",
     "teacher_says": "The mask must reach the attention: call attention(norm1(x), mask=mask).",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    out, _ = attention(norm1(x))
    x = x + out
    return x + feed_forward(norm2(x))
'''},
    {"exercise": "pre_ln_block", "kind": "robustness",
     "idea": "right values, but updates the residual stream in place",
     "mistake": "x += ... changes the caller's input tensor (and breaks autograd when x requires grad)",
     "teacher_says": "Write x = x + ... so that a new tensor is made; += writes into the tensor the caller passed.",
     "code": '''
def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    x += attention(norm1(x), mask=mask)[0]
    x += feed_forward(norm2(x))
    return x
'''},
    # ------------------------------------------------------------------ induction_score
    {"exercise": "induction_score", "kind": "correct",
     "idea": "np.diagonal with offset -(m-1) picks w[i, i-m+1]; drop its first entry (query m-1) and average",
     "code": '''
import numpy as np


def induction_score(weights, period):
    stripe = np.diagonal(weights, offset=-(period - 1), axis1=-2, axis2=-1)
    # stripe[..., j] = weights[..., m - 1 + j, j]; the scored queries start at i = m
    return stripe[..., 1:].mean(axis=-1).astype(weights.dtype)
'''},
    {"exercise": "induction_score", "kind": "correct",
     "idea": "loop over the scored queries, accumulate, divide by their count",
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
     "mistake": "scores the weight on key i - m, the earlier copy of the token itself, not the token after it",
     "teacher_says": "An induction head attends to the token AFTER the earlier copy: key i - m + 1.",
     "code": '''
import numpy as np


def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    keys = queries - period
    return weights[..., queries, keys].mean(axis=-1)
'''},
    {"exercise": "induction_score", "kind": "wrong",
     "mistake": "scores every query from 0, so the first m queries read negative key indices that wrap to the end of the row",
     "teacher_says": "Only queries i = m..n-1 have an earlier copy; start at period (negative indices silently wrap in NumPy).",
     "code": '''
import numpy as np


def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(n)
    keys = queries - period + 1
    return weights[..., queries, keys].mean(axis=-1)
'''},
    {"exercise": "induction_score", "kind": "wrong",
     "mistake": "sums the stripe over the scored queries but divides by n instead of by the number of scored queries n - m",
     "teacher_says": "The mean runs over the n - m scored queries: divide by n - period, not by n.",
     "code": '''
import numpy as np


def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    picked = weights[..., queries, queries - period + 1]
    return picked.sum(axis=-1) / n
'''},
    {"exercise": "induction_score", "kind": "wrong",
     "mistake": "swaps rows and columns: reads weights[..., key, query], the transposed entry",
     "teacher_says": "Rows are queries and columns keys: the weight of query i on key j is weights[..., i, j].",
     "code": '''
import numpy as np


def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    keys = queries - period + 1
    return weights[..., keys, queries].mean(axis=-1)
'''},
    {"exercise": "induction_score", "kind": "wrong",
     "mistake": "off by one in the first scored query: starts at i = m - 1, whose target key is 0",
     "teacher_says": "Query m - 1 has no earlier copy; the scored queries are i = m, ..., n-1.",
     "code": '''
import numpy as np


def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period - 1, n)
    keys = queries - (period - 1)
    return weights[..., queries, keys].mean(axis=-1)
'''},
    {"exercise": "induction_score", "kind": "wrong",
     "mistake": "averages over every leading axis too, returning one number instead of one score per leading index",
     "teacher_says": "Return shape (...): average only over the scored queries (the last axis of the picked stripe).",
     "code": '''
import numpy as np


def induction_score(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    return np.mean(weights[..., queries, queries - period + 1])
'''},
    {"exercise": "induction_score", "kind": "robustness",
     "idea": "right values with Python loops over every leading index",
     "mistake": "builds the result from Python floats, so it is always float64 (float32 weights come back as float64), and it is slow",
     "teacher_says": "Use vectorised indexing, weights[..., queries, keys].mean(-1), which keeps the dtype of weights.",
     "code": '''
import numpy as np


def induction_score(weights, period):
    n = weights.shape[-1]
    lead = weights.shape[:-2]
    result = np.zeros(lead)
    for index in np.ndindex(*lead):
        row_sum = 0.0
        for i in range(period, n):
            row_sum += float(weights[index + (i, i - period + 1)])
        result[index] = row_sum / (n - period)
    return result
'''},
]
