ANSWERS = [
 {"exercise": "softmax", "kind": "correct", "idea": "subtract max, exp, normalise",
  "code": '''
import numpy as np
def softmax(x, axis=-1):
    x = np.asarray(x)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
'''},
 {"exercise": "softmax", "kind": "correct", "idea": "log-sum-exp via moveaxis, float64 inside, cast back",
  "code": '''
import numpy as np
def softmax(x, axis=-1):
    x = np.asarray(x)
    dt = x.dtype
    y = np.moveaxis(x.astype(np.float64), axis, -1)
    m = y.max(axis=-1, keepdims=True)
    lse = m + np.log(np.exp(y - m).sum(axis=-1, keepdims=True))
    return np.moveaxis(np.exp(y - lse), -1, axis).astype(dt)
'''},
 {"exercise": "softmax", "kind": "wrong", "mistake": "no max subtraction: overflows to nan for scores like 1000",
  "teacher_says": "np.exp(1000) is inf, so large scores give inf/inf = nan; subtract the row maximum first",
  "code": '''
import numpy as np
def softmax(x, axis=-1):
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)
'''},
 {"exercise": "softmax", "kind": "wrong", "mistake": "max taken over the whole array and the sum always over axis -1, ignoring axis",
  "teacher_says": "you normalise over the last axis whatever axis is asked; use axis in the sum",
  "code": '''
import numpy as np
def softmax(x, axis=-1):
    e = np.exp(x - np.max(x))
    return e / e.sum(axis=-1, keepdims=True)
'''},
 {"exercise": "softmax", "kind": "wrong", "mistake": "subtracts the min instead of the max (overflows for spread scores)",
  "teacher_says": "subtracting the minimum makes every exponent >= 0, so a spread of 1000 still overflows; subtract the maximum",
  "code": '''
import numpy as np
def softmax(x, axis=-1):
    e = np.exp(x - np.min(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
'''},
 {"exercise": "softmax", "kind": "wrong", "mistake": "sum without keepdims and no broadcasting care: divides along the wrong axis for axis=0 of a square matrix",
  "teacher_says": "e.sum(axis) drops the axis, so for axis=0 the division broadcasts over rows, not columns; use keepdims=True",
  "code": '''
import numpy as np
def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum(axis=axis)
'''},
 {"exercise": "softmax", "kind": "robustness", "idea": "returns float64 for float32 input (dtype not preserved)",
  "mistake": "casts to float64 and never back", "teacher_says": "the output must keep the input's dtype",
  "code": '''
import numpy as np
def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
'''},
 {"exercise": "softmax", "kind": "robustness", "idea": "modifies its input in place",
  "mistake": "x -= max changes the caller's array", "teacher_says": "do not change the array you were given; x = x - m makes a new one",
  "code": '''
import numpy as np
def softmax(x, axis=-1):
    x -= np.max(x, axis=axis, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=axis, keepdims=True)
    return x
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "correct", "idea": "swapaxes, where, guard fully masked rows",
  "code": '''
import math
import numpy as np
def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(d_k)
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    m = np.max(s, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(s - m)
    z = e.sum(axis=-1, keepdims=True)
    w = np.where(z > 0, e / np.where(z > 0, z, 1.0), 0.0).astype(np.result_type(q, k))
    return w @ v, w
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "correct", "idea": "einsum, mask applied by multiplying exp by mask",
  "code": '''
import numpy as np
def scaled_dot_product_attention(q, k, v, mask=None):
    s = np.einsum("...qd,...kd->...qk", q, k) / np.sqrt(q.shape[-1])
    if mask is None:
        mask = np.ones(s.shape, dtype=bool)
    mask = np.broadcast_to(mask, s.shape)
    s_m = np.where(mask, s, -np.inf)
    mx = s_m.max(axis=-1, keepdims=True)
    mx[~np.isfinite(mx)] = 0
    e = np.exp(s - mx) * mask
    z = e.sum(axis=-1, keepdims=True)
    z[z == 0] = 1
    w = (e / z).astype(s.dtype)
    return np.einsum("...qk,...kd->...qd", w, v), w
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "uses .T, which reverses batch axes too",
  "teacher_says": "k.T reverses every axis; with a batch axis the shapes go wrong or mix batches: use np.swapaxes(k, -1, -2)",
  "code": '''
import math
import numpy as np
def scaled_dot_product_attention(q, k, v, mask=None):
    s = q @ k.T / math.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    m = s.max(-1, keepdims=True); m = np.where(np.isfinite(m), m, 0)
    e = np.exp(s - m); z = e.sum(-1, keepdims=True)
    w = e / np.where(z == 0, 1, z)
    return w @ v, w
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "scales by d_k instead of sqrt(d_k)",
  "teacher_says": "divide by sqrt(d_k), not d_k: your weights are too flat",
  "code": '''
import numpy as np
def scaled_dot_product_attention(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / q.shape[-1]
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    m = s.max(-1, keepdims=True); m = np.where(np.isfinite(m), m, 0)
    e = np.exp(s - m); z = e.sum(-1, keepdims=True)
    w = e / np.where(z == 0, 1, z)
    return w @ v, w
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "masks with a large negative -1e9 instead of -inf: fully masked row gets uniform weights",
  "teacher_says": "with -1e9 a row with no allowed key becomes uniform; it should get zero weights and zero output",
  "code": '''
import numpy as np
def scaled_dot_product_attention(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -1e9)
    e = np.exp(s - s.max(-1, keepdims=True))
    w = e / e.sum(-1, keepdims=True)
    return w @ v, w
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "mask inverted: True treated as 'masked out'",
  "teacher_says": "in this book True means 'may attend'; you blocked exactly the allowed keys",
  "code": '''
import numpy as np
def scaled_dot_product_attention(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, -np.inf, s)
    m = s.max(-1, keepdims=True); m = np.where(np.isfinite(m), m, 0)
    e = np.exp(s - m); z = e.sum(-1, keepdims=True)
    w = e / np.where(z == 0, 1, z)
    return w @ v, w
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "softmax over the queries axis (-2) instead of the keys",
  "teacher_says": "each query's weights must sum to 1 over the keys: softmax along the last axis",
  "code": '''
import numpy as np
def scaled_dot_product_attention(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    m = s.max(-2, keepdims=True); m = np.where(np.isfinite(m), m, 0)
    e = np.exp(s - m); z = e.sum(-2, keepdims=True)
    w = e / np.where(z == 0, 1, z)
    return w @ v, w
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "robustness", "idea": "returns only out, not (out, weights)",
  "mistake": "returns a single array", "teacher_says": "return the pair (out, weights)",
  "code": '''
import numpy as np
def scaled_dot_product_attention(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    m = s.max(-1, keepdims=True); m = np.where(np.isfinite(m), m, 0)
    e = np.exp(s - m); z = e.sum(-1, keepdims=True)
    w = e / np.where(z == 0, 1, z)
    return w @ v
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "robustness", "idea": "returns NaN for fully masked rows (no guard)",
  "mistake": "0/0 on a fully masked row", "teacher_says": "a query with no allowed key must get zeros, not NaN",
  "code": '''
import numpy as np
def scaled_dot_product_attention(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(-1, keepdims=True))
    w = e / e.sum(-1, keepdims=True)
    return w @ v, w
'''},
 {"exercise": "temperature_of", "kind": "correct", "idea": "centred least squares over positive weights",
  "code": '''
import numpy as np
def temperature_of(scores, weights):
    s = np.asarray(scores, float); w = np.asarray(weights, float)
    keep = w > 0
    n = keep.sum(-1, keepdims=True)
    l = np.where(keep, np.log(np.where(keep, w, 1.0)), 0.0)
    sk = np.where(keep, s, 0.0)
    sc = np.where(keep, sk - sk.sum(-1, keepdims=True) / n, 0.0)
    lc = np.where(keep, l - l.sum(-1, keepdims=True) / n, 0.0)
    return float((sc * sc).sum() / (sc * lc).sum())
'''},
 {"exercise": "temperature_of", "kind": "correct", "idea": "per-row loop with differences to the row's largest weight, pooled least squares",
  "code": '''
import math
import numpy as np
def temperature_of(scores, weights):
    s = np.asarray(scores, float).reshape(-1, np.shape(scores)[-1])
    w = np.asarray(weights, float).reshape(s.shape)
    num = den = 0.0
    for srow, wrow in zip(s, w):
        k = wrow > 0
        ss = srow[k]; ll = np.log(wrow[k])
        ss = ss - ss.mean(); ll = ll - ll.mean()
        num += float(ss @ ss); den += float(ss @ ll)
    return num / den
'''},
 {"exercise": "temperature_of", "kind": "wrong", "mistake": "returns 1/T (fit of log w on s gives the slope 1/T)",
  "teacher_says": "the slope of log-weights against scores is 1/T; invert it",
  "code": '''
import numpy as np
def temperature_of(scores, weights):
    s = np.asarray(scores, float); w = np.asarray(weights, float)
    keep = w > 0
    n = keep.sum(-1, keepdims=True)
    l = np.where(keep, np.log(np.where(keep, w, 1.0)), 0.0)
    sk = np.where(keep, s, 0.0)
    sc = np.where(keep, sk - sk.sum(-1, keepdims=True) / n, 0.0)
    lc = np.where(keep, l - l.sum(-1, keepdims=True) / n, 0.0)
    return float((sc * lc).sum() / (sc * sc).sum())
'''},
 {"exercise": "temperature_of", "kind": "wrong", "mistake": "per-row estimate from the largest and smallest score, averaged; the smallest weight may have underflowed to 0",
  "teacher_says": "the smallest weight of a sharp row is often exactly 0 and has no logarithm: leave such weights out and fit on all the others",
  "code": '''
import numpy as np
def temperature_of(scores, weights):
    s = np.asarray(scores, float).reshape(-1, np.shape(scores)[-1])
    w = np.asarray(weights, float).reshape(s.shape)
    hi = s.argmax(-1); lo = s.argmin(-1); r = np.arange(len(s))
    with np.errstate(divide="ignore"):
        t = (s[r, hi] - s[r, lo]) / (np.log(w[r, hi]) - np.log(w[r, lo]))
    return float(np.mean(t))
'''},
 {"exercise": "temperature_of", "kind": "wrong", "mistake": "log10 instead of the natural log: T off by a factor ln(10)",
  "teacher_says": "softmax uses e: take np.log, not np.log10",
  "code": '''
import numpy as np
def temperature_of(scores, weights):
    s = np.asarray(scores, float); w = np.asarray(weights, float)
    keep = w > 0
    n = keep.sum(-1, keepdims=True)
    l = np.where(keep, np.log10(np.where(keep, w, 1.0)), 0.0)
    sk = np.where(keep, s, 0.0)
    sc = np.where(keep, sk - sk.sum(-1, keepdims=True) / n, 0.0)
    lc = np.where(keep, l - l.sum(-1, keepdims=True) / n, 0.0)
    return float((sc * sc).sum() / (sc * lc).sum())
'''},
 {"exercise": "temperature_of", "kind": "wrong", "mistake": "centres over the whole array instead of per row (log-normaliser differs per row)",
  "teacher_says": "the log-sum-exp term is constant only within a row; subtract each row's mean, not the global mean",
  "code": '''
import numpy as np
def temperature_of(scores, weights):
    s = np.asarray(scores, float); w = np.asarray(weights, float)
    keep = w > 0
    ss = s[keep]; ll = np.log(w[keep])
    ss = ss - ss.mean(); ll = ll - ll.mean()
    return float((ss @ ss) / (ss @ ll))
'''},
 {"exercise": "temperature_of", "kind": "wrong", "mistake": "does not drop zero weights: log(0) = -inf poisons the fit (clips to 1e-300 instead)",
  "teacher_says": "an underflowed weight says nothing about T; clipping it to a tiny number invents a huge log-weight. Leave it out",
  "code": '''
import numpy as np
def temperature_of(scores, weights):
    s = np.asarray(scores, float); w = np.asarray(weights, float)
    l = np.log(np.maximum(w, 1e-300))
    sc = s - s.mean(-1, keepdims=True)
    lc = l - l.mean(-1, keepdims=True)
    return float((sc * sc).sum() / (sc * lc).sum())
'''},
 {"exercise": "temperature_of", "kind": "robustness", "idea": "returns a per-row array of temperatures, not one number",
  "mistake": "returns shape (..., ) array", "teacher_says": "T is one number for the whole array",
  "code": '''
import numpy as np
def temperature_of(scores, weights):
    s = np.asarray(scores, float); w = np.asarray(weights, float)
    keep = w > 0
    n = keep.sum(-1, keepdims=True)
    l = np.where(keep, np.log(np.where(keep, w, 1.0)), 0.0)
    sk = np.where(keep, s, 0.0)
    sc = np.where(keep, sk - sk.sum(-1, keepdims=True) / n, 0.0)
    lc = np.where(keep, l - l.sum(-1, keepdims=True) / n, 0.0)
    return (sc * sc).sum(-1) / (sc * lc).sum(-1)
'''},
 {"exercise": "saturated_weight", "kind": "correct", "idea": "1/(1+e^16)", "code": '''
import math
saturated_weight = 1 / (1 + math.exp(16))
'''},
 {"exercise": "saturated_weight", "kind": "correct", "idea": "e^-16/(1+e^-16) via numpy", "code": '''
import numpy as np
saturated_weight = float(np.exp(-16) / (1 + np.exp(-16)))
'''},
 {"exercise": "saturated_weight", "kind": "wrong", "mistake": "weight of the higher-scored key", "teacher_says": "that is the larger weight; the question asks for the lower-scored key's, about 1.1e-7", "code": '''
import math
saturated_weight = 1 / (1 + math.exp(-16))
'''},
 {"exercise": "saturated_weight", "kind": "wrong", "mistake": "scaled the difference by sqrt(256): uses a difference of 1", "teacher_says": "the question is about unscaled scores: the difference is 16, not 16/16", "code": '''
import math
saturated_weight = 1 / (1 + math.exp(1))
'''},
 {"exercise": "saturated_weight", "kind": "wrong", "mistake": "forgot the denominator's own term: e^-16 alone is fine but used e^-16/2", "teacher_says": "the denominator is 1 + e^-16, not 2", "code": '''
import math
saturated_weight = math.exp(-16) / 2
'''},
 {"exercise": "saturated_weight", "kind": "wrong", "mistake": "ratio of weights in log scale: -16", "teacher_says": "-16 is the log-ratio of the two weights; the weight itself is about 1.1e-7", "code": '''
saturated_weight = -16
'''},
 {"exercise": "saturated_weight", "kind": "robustness", "idea": "assigns a string", "mistake": "a string, not a number", "teacher_says": "assign a number, not text", "code": '''
saturated_weight = "1/(1+e^16)"
'''},
 {"exercise": "score_std", "kind": "correct", "idea": "sqrt(256)", "code": '''
import math
score_std = math.sqrt(256)
'''},
 {"exercise": "score_std", "kind": "correct", "idea": "integer 16", "code": '''
score_std = 16
'''},
 {"exercise": "score_std", "kind": "wrong", "mistake": "gave the variance", "teacher_says": "256 is the variance; the standard deviation is its square root, 16", "code": '''
score_std = 256
'''},
 {"exercise": "score_std", "kind": "wrong", "mistake": "thinks the scaled std, 1", "teacher_says": "1 is the std after dividing by sqrt(d_k); before scaling it is 16", "code": '''
score_std = 1.0
'''},
 {"exercise": "score_std", "kind": "wrong", "mistake": "sum of std: thinks std adds, so 256 * 1 / ... uses d_k/2", "teacher_says": "variances add, not standard deviations: sqrt(256) = 16", "code": '''
score_std = 128
'''},
 {"exercise": "score_std", "kind": "wrong", "mistake": "log2(256) = 8", "teacher_says": "the std grows as sqrt(d_k), not log(d_k)", "code": '''
import math
score_std = math.log2(256)
'''},
 {"exercise": "score_std", "kind": "robustness", "idea": "a one-element numpy array instead of a number", "mistake": "array, not a scalar", "teacher_says": "assign a plain number", "code": '''
import numpy as np
score_std = np.array([16.0])
'''},
 {"exercise": "softmax", "kind": "wrong", "mistake": "divides by the sum of the whole array, not of each slice along axis",
  "teacher_says": "each slice along axis must sum to 1: sum with axis=axis, keepdims=True",
  "code": '''
import numpy as np
def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum()
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "scales by sqrt of the number of keys (q.shape[-2] / k.shape[-2]) instead of d_k",
  "teacher_says": "the scale is sqrt(d_k), the size of the last axis of q and k, not a sequence length",
  "code": '''
import numpy as np
def scaled_dot_product_attention(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-2])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    m = s.max(-1, keepdims=True); m = np.where(np.isfinite(m), m, 0)
    e = np.exp(s - m); z = e.sum(-1, keepdims=True)
    w = e / np.where(z == 0, 1, z)
    return w @ v, w
'''},
]
