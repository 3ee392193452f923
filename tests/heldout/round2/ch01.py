ANSWERS = [
    # ---------------- softmax ----------------
    {"exercise": "softmax", "kind": "correct", "idea": "subtract the max along axis with keepdims, exp, divide by the sum",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x)
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "correct", "idea": "log-sum-exp form: exp(x - logsumexp(x)), moving the axis last and back",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x)
    moved = np.moveaxis(x, axis, -1)
    m = moved.max(axis=-1, keepdims=True)
    lse = m + np.log(np.exp(moved - m).sum(axis=-1, keepdims=True))
    out = np.exp(moved - lse)
    return np.moveaxis(out, -1, axis).astype(x.dtype)
'''},
    {"exercise": "softmax", "kind": "correct", "idea": "computes in torch float64 then returns a NumPy array of the input dtype",
     "code": '''
import numpy as np
import torch

def softmax(x, axis=-1):
    x = np.asarray(x)
    t = torch.from_numpy(np.ascontiguousarray(x, dtype=np.float64))
    return torch.softmax(t, dim=axis).numpy().astype(x.dtype)
'''},
    {"exercise": "softmax", "kind": "wrong", "mistake": "subtracts the maximum of the whole array instead of each slice's: a slice far below the global max underflows to 0/0 = NaN",
     "teacher_says": "subtract the maximum of each slice (np.max(x, axis=axis, keepdims=True)), not the global maximum: a row whose scores are all much lower than another row's underflows to 0/0",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x))
    return e / e.sum(axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong", "mistake": "max taken without keepdims: broadcasts against the wrong axis (silently when the array is square, an error otherwise)",
     "teacher_says": "np.max(x, axis=axis) drops the reduced axis, so it broadcasts along the wrong axis; use keepdims=True",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis))
    return e / np.sum(e, axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong", "mistake": "the max is taken along axis but the sum always along the last axis",
     "teacher_says": "you normalise over the last axis whatever axis is asked for: sum along axis too",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong", "mistake": "divides by the largest exponential instead of the sum (the result's max is 1, the slices do not sum to 1)",
     "teacher_says": "the weights must sum to 1 along axis: divide the exponentials by their sum, not by their maximum",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.max(e, axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong", "mistake": "subtracts the minimum instead of the maximum: exp overflows for widely spread scores",
     "teacher_says": "shifting by the minimum makes every exponent >= 0, and e^1000 overflows; shift by the maximum",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.min(x, axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong", "mistake": "casts to float64 and returns float64 for float32 input (dtype not kept)",
     "teacher_says": "the result must have the input's dtype: cast back with .astype(x.dtype)",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    x64 = np.asarray(x, dtype=np.float64)
    e = np.exp(x64 - x64.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "robustness", "idea": "modifies its input in place (x -= max)",
     "mistake": "subtracts the maximum in place: the caller's scores are changed",
     "teacher_says": "do not modify the argument: x - m makes a new array, x -= m overwrites the caller's scores",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    x -= np.max(x, axis=axis, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=axis, keepdims=True)
    return x
'''},
    {"exercise": "softmax", "kind": "robustness", "idea": "returns a nested Python list",
     "mistake": "returns .tolist() instead of an array",
     "teacher_says": "return a NumPy array of the input's shape and dtype, not a list",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return (e / e.sum(axis=axis, keepdims=True)).tolist()
'''},
    # ---------------- scaled_dot_product_attention ----------------
    {"exercise": "scaled_dot_product_attention", "kind": "correct", "idea": "swapaxes, np.where with -inf, stable softmax that leaves fully masked rows at 0",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    s = e.sum(axis=-1, keepdims=True)
    weights = np.where(s > 0, e / np.where(s > 0, s, 1.0), 0.0).astype(scores.dtype)
    return weights @ v, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "correct", "idea": "einsum in float64 internally, zeroing fully masked rows with mask.any, cast back",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    dtype = np.result_type(q, k, v)
    q64, k64, v64 = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    scores = np.einsum("...qd,...kd->...qk", q64, k64) / np.sqrt(q64.shape[-1])
    if mask is None:
        mask = np.ones(scores.shape, dtype=bool)
    mask = np.broadcast_to(mask, scores.shape)
    scores = np.where(mask, scores, -np.inf)
    has_key = mask.any(axis=-1, keepdims=True)
    scores = np.where(has_key, scores, 0.0)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores) * mask
    weights = np.where(has_key, e / np.where(has_key, e.sum(-1, keepdims=True), 1.0), 0.0)
    out = np.einsum("...qk,...kd->...qd", weights, v64)
    return out.astype(dtype), weights.astype(dtype)
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "scales by sqrt of the values' width d_v (v.shape[-1]) instead of d_k",
     "teacher_says": "the scale is 1/sqrt(d_k), the width of the queries and keys; d_v can differ",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(v.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    s = e.sum(-1, keepdims=True)
    w = np.where(s > 0, e / np.where(s > 0, s, 1), 0)
    return w @ v, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "masks with a large negative number (-1e9) instead of -inf: a fully masked row gets uniform weights and the mean of the values instead of zeros",
     "teacher_says": "with -1e9 a query that may attend no key gets weights 1/n_k on every key; the book's convention is zero weights and a zero output for such a row",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -1e9)
    e = np.exp(scores - scores.max(-1, keepdims=True))
    w = e / e.sum(-1, keepdims=True)
    return w @ v, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "mask polarity reversed: hides the keys marked True",
     "teacher_says": "True means may attend: keep the scores where the mask is True and put -inf where it is False",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    s = e.sum(-1, keepdims=True)
    w = np.where(s > 0, e / np.where(s > 0, s, 1), 0)
    return w @ v, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "applies the mask by multiplying the weights after the softmax: masked rows no longer sum to 1",
     "teacher_says": "the mask acts on the scores, before the softmax; zeroing weights afterwards leaves rows that do not sum to 1",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(scores - scores.max(-1, keepdims=True))
    w = e / e.sum(-1, keepdims=True)
    if mask is not None:
        w = w * mask
    return w @ v, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "uses k.T, which reverses the batch axes too (works only for 2-D inputs)",
     "teacher_says": ".T reverses every axis; with batch axes use np.swapaxes(k, -1, -2)",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    kt = k.T
    scores = q @ kt / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    s = e.sum(-1, keepdims=True)
    w = np.where(s > 0, e / np.where(s > 0, s, 1), 0)
    return w @ v, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "no guard for a fully masked row: its weights and output are NaN",
     "teacher_says": "a row that is all -inf gives 0/0 in the softmax; keep such rows at zero weights (e.g. with mask.any(axis=-1, keepdims=True))",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    with np.errstate(invalid="ignore"):
        e = np.exp(scores - scores.max(-1, keepdims=True))
        w = e / e.sum(-1, keepdims=True)
    return w @ v, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "returns (weights, out) in the wrong order",
     "teacher_says": "return (out, weights): the output first, then the weights",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    s = e.sum(-1, keepdims=True)
    w = np.where(s > 0, e / np.where(s > 0, s, 1), 0)
    return w, w @ v
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "robustness", "idea": "scales the queries in place (q /= sqrt(d_k)), changing the caller's array",
     "mistake": "modifies the argument q in place",
     "teacher_says": "q /= ... changes the caller's queries; compute q / sqrt(d_k) into a new array",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    q /= np.sqrt(q.shape[-1])
    scores = q @ np.swapaxes(k, -1, -2)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    s = e.sum(-1, keepdims=True)
    w = np.where(s > 0, e / np.where(s > 0, s, 1), 0)
    return w @ v, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "robustness", "idea": "returns float16 results to save memory",
     "mistake": "casts the output and weights to float16",
     "teacher_says": "keep the inputs' dtype; float16 loses about three decimal digits",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    s = e.sum(-1, keepdims=True)
    w = np.where(s > 0, e / np.where(s > 0, s, 1), 0)
    return (w @ v).astype(np.float16), w.astype(np.float16)
'''},
    # ---------------- temperature_of ----------------
    {"exercise": "temperature_of", "kind": "correct", "idea": "centre scores and log-weights per row over the positive weights, least-squares T = sum s^2 / sum s l",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = np.asarray(scores, dtype=np.float64).reshape(-1, np.shape(scores)[-1])
    w = np.asarray(weights, dtype=np.float64).reshape(s.shape)
    keep = w > 0
    count = keep.sum(-1, keepdims=True)
    logw = np.log(np.where(keep, w, 1.0))
    s_mean = np.where(keep, s, 0).sum(-1, keepdims=True) / np.maximum(count, 1)
    l_mean = np.where(keep, logw, 0).sum(-1, keepdims=True) / np.maximum(count, 1)
    sc = np.where(keep, s - s_mean, 0.0)
    lc = np.where(keep, logw - l_mean, 0.0)
    return float((sc * sc).sum() / (sc * lc).sum())
'''},
    {"exercise": "temperature_of", "kind": "correct", "idea": "loop over rows: each row's slope from np.polyfit of log w against s, combined by weighted least squares with math",
     "code": '''
import math
import numpy as np

def temperature_of(scores, weights):
    s_all = np.asarray(scores, dtype=np.float64).reshape(-1, np.shape(scores)[-1])
    w_all = np.asarray(weights, dtype=np.float64).reshape(s_all.shape)
    num = 0.0
    den = 0.0
    for s, w in zip(s_all, w_all):
        keep = w > 0
        if keep.sum() < 2:
            continue
        xs = s[keep] - s[keep].mean()
        ls = np.log(w[keep])
        ls = ls - ls.mean()
        num += float(np.dot(xs, xs))
        den += float(np.dot(xs, ls))
    return num / den
'''},
    {"exercise": "temperature_of", "kind": "wrong", "mistake": "returns the fitted slope 1/T instead of T",
     "teacher_says": "log w = s/T + const: the slope of log w against s is 1/T, so invert it",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = np.asarray(scores, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    keep = w > 0
    n = keep.sum(-1, keepdims=True)
    l = np.log(np.where(keep, w, 1.0))
    sc = np.where(keep, s - np.where(keep, s, 0).sum(-1, keepdims=True) / n, 0)
    lc = np.where(keep, l - np.where(keep, l, 0).sum(-1, keepdims=True) / n, 0)
    return float((sc * lc).sum() / (sc * sc).sum())
'''},
    {"exercise": "temperature_of", "kind": "wrong", "mistake": "takes the log of every weight, including those that underflowed to 0: -inf poisons the fit",
     "teacher_says": "a weight that is exactly 0 has no logarithm; leave those entries out of the fit",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = np.asarray(scores, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        l = np.log(np.asarray(weights, dtype=np.float64))
        sc = s - s.mean(-1, keepdims=True)
        lc = l - l.mean(-1, keepdims=True)
        return float((sc * sc).sum() / (sc * lc).sum())
'''},
    {"exercise": "temperature_of", "kind": "wrong", "mistake": "fits log w = s/T without removing each row's log-sum-exp (no centring): the constant term biases T",
     "teacher_says": "log w_j = s_j/T - log(sum): the second term differs per row; subtract each row's mean from s and from log w before fitting",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = np.asarray(scores, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    keep = w > 0
    l = np.log(np.where(keep, w, 1.0))
    s = np.where(keep, s, 0)
    l = np.where(keep, l, 0)
    return float((s * s).sum() / (s * l).sum())
'''},
    {"exercise": "temperature_of", "kind": "wrong", "mistake": "uses log10 instead of the natural logarithm: T is off by a factor ln 10",
     "teacher_says": "the softmax uses e: take np.log, not np.log10",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = np.asarray(scores, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    keep = w > 0
    n = keep.sum(-1, keepdims=True)
    l = np.log10(np.where(keep, w, 1.0))
    sc = np.where(keep, s - np.where(keep, s, 0).sum(-1, keepdims=True) / n, 0)
    lc = np.where(keep, l - np.where(keep, l, 0).sum(-1, keepdims=True) / n, 0)
    return float((sc * sc).sum() / (sc * lc).sum())
'''},
    {"exercise": "temperature_of", "kind": "wrong", "mistake": "uses only the largest and the smallest entry of each row, smallest taken over all weights (including underflowed zeros)",
     "teacher_says": "the smallest weight is often an underflowed 0, which says nothing about T; use only positive weights",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = np.asarray(scores, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    i_max = w.argmax(-1)[..., None]
    i_min = w.argmin(-1)[..., None]
    ds = np.take_along_axis(s, i_max, -1) - np.take_along_axis(s, i_min, -1)
    with np.errstate(divide="ignore"):
        dl = np.log(np.take_along_axis(w, i_max, -1)) - np.log(np.take_along_axis(w, i_min, -1))
    return float(np.mean(ds / dl))
'''},
    {"exercise": "temperature_of", "kind": "robustness", "idea": "returns one temperature per row (an array) instead of one number",
     "mistake": "returns an array of per-row estimates",
     "teacher_says": "there is one T for the whole array: return a single number",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = np.asarray(scores, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    keep = w > 0
    n = keep.sum(-1, keepdims=True)
    l = np.log(np.where(keep, w, 1.0))
    sc = np.where(keep, s - np.where(keep, s, 0).sum(-1, keepdims=True) / n, 0)
    lc = np.where(keep, l - np.where(keep, l, 0).sum(-1, keepdims=True) / n, 0)
    return (sc * sc).sum(-1) / (sc * lc).sum(-1)
'''},
    # ---------------- saturated_weight ----------------
    {"exercise": "saturated_weight", "kind": "correct", "idea": "1 / (1 + e^16) with math",
     "code": '''
import math
saturated_weight = 1 / (1 + math.exp(16))
'''},
    {"exercise": "saturated_weight", "kind": "correct", "idea": "softmax of the two scores [0, -16] with numpy, second entry",
     "code": '''
import numpy as np
_s = np.array([0.0, -16.0])
_e = np.exp(_s - _s.max())
saturated_weight = float((_e / _e.sum())[1])
'''},
    {"exercise": "saturated_weight", "kind": "wrong", "mistake": "gives the weight of the higher-scoring key",
     "teacher_says": "the question asks for the key with the lower score: 1/(1+e^16), not 1/(1+e^-16)",
     "code": '''
import math
saturated_weight = 1 / (1 + math.exp(-16))
'''},
    {"exercise": "saturated_weight", "kind": "wrong", "mistake": "divides the difference by sqrt(d_k) = 16 first: the question is about unscaled scores",
     "teacher_says": "the raw scores differ by 16 without any scaling; you computed the scaled case, a difference of 1",
     "code": '''
import math
saturated_weight = math.exp(-16 / math.sqrt(256)) / (1 + math.exp(-16 / math.sqrt(256)))
'''},
    {"exercise": "saturated_weight", "kind": "wrong", "mistake": "treats 16 as the variance and uses a difference of 4 (its square root)",
     "teacher_says": "16 is already the standard deviation and the difference is 16; e^-4 is far too large",
     "code": '''
import math
saturated_weight = 1 / (1 + math.exp(4))
'''},
    {"exercise": "saturated_weight", "kind": "wrong", "mistake": "uses the difference d_k = 256 instead of 16",
     "teacher_says": "the scores differ by one standard deviation, 16, not by d_k = 256",
     "code": '''
import math
saturated_weight = 1 / (1 + math.exp(256))
'''},
    {"exercise": "saturated_weight", "kind": "wrong", "mistake": "computed in float16: e^-16 rounds and the result is off by several percent",
     "teacher_says": "float16 has 11 bits of mantissa and 1e-7 is subnormal there; compute in float64",
     "code": '''
import numpy as np
_e = np.exp(np.float16(-16))
saturated_weight = float(_e / (np.float16(1) + _e))
'''},
    # ---------------- score_std ----------------
    {"exercise": "score_std", "kind": "correct", "idea": "sqrt(d_k) with math",
     "code": '''
import math
score_std = math.sqrt(256)
'''},
    {"exercise": "score_std", "kind": "correct", "idea": "variance of a sum of 256 unit-variance products, then its square root, as a power",
     "code": '''
variance_of_one_product = 1.0 * 1.0
score_std = (256 * variance_of_one_product) ** 0.5
'''},
    {"exercise": "score_std", "kind": "wrong", "mistake": "gives the variance (256) instead of the standard deviation",
     "teacher_says": "the variance is 256; the standard deviation is its square root, 16",
     "code": '''
score_std = 256
'''},
    {"exercise": "score_std", "kind": "wrong", "mistake": "answers 1, the std after the scaling, although the question is before any scaling",
     "teacher_says": "1 is the standard deviation after dividing by sqrt(d_k); before it, it is sqrt(256)",
     "code": '''
score_std = 1.0
'''},
    {"exercise": "score_std", "kind": "wrong", "mistake": "takes the square root twice (256 ** 0.25)",
     "teacher_says": "the variance of the sum is d_k = 256, so the std is 256 ** 0.5 = 16, not 256 ** 0.25",
     "code": '''
score_std = 256 ** 0.25
'''},
    {"exercise": "score_std", "kind": "wrong", "mistake": "estimates it from a tiny simulation (10 draws): the number is far from 16",
     "teacher_says": "10 samples give a noisy estimate; the exact value follows from the variances: sqrt(256) = 16",
     "code": '''
import numpy as np
_rng = np.random.default_rng(3)
score_std = float(np.std([_rng.standard_normal(256) @ _rng.standard_normal(256) for _ in range(10)]))
'''},
    {"exercise": "score_std", "kind": "robustness", "idea": "assigns a string",
     "mistake": "score_std is the string 'sqrt(256) = 16'",
     "teacher_says": "assign the number 16, not a string",
     "code": '''
score_std = "sqrt(256) = 16"
'''},
]

_EXPERIMENT = '''
import numpy as np

def _largest_weight(power, d_k=1024):
    draws = np.random.default_rng(d_k)
    q = draws.standard_normal((300, 1, d_k), dtype=np.float32)
    k = draws.standard_normal((300, 32, d_k), dtype=np.float32)
    scores = (q @ k.swapaxes(-1, -2))[:, 0, :].astype(np.float64) / d_k ** power
    e = np.exp(scores - scores.max(-1, keepdims=True))
    return float((e / e.sum(-1, keepdims=True)).max(-1).mean())
'''

ANSWERS += [
    # ---------------- predict_unscaled_weight ----------------
    {"exercise": "predict_unscaled_weight", "kind": "correct", "idea": "reasoned: std 32 spreads 32 scores by tens, so the top key takes nearly everything, about 0.95",
     "code": "predict_unscaled_weight = 0.95\n"},
    {"exercise": "predict_unscaled_weight", "kind": "correct", "idea": "estimated with an own small simulation of the experiment (300 rows, 32 keys, d_k = 1024, unscaled)",
     "code": _EXPERIMENT + "\npredict_unscaled_weight = _largest_weight(0.0)\n"},
    {"exercise": "predict_unscaled_weight", "kind": "wrong", "mistake": "guesses the uniform weight 1/32",
     "teacher_says": "1/32 is the weight when all scores are equal; unscaled scores at d_k = 1024 differ by tens",
     "code": "predict_unscaled_weight = 1 / 32\n"},
    {"exercise": "predict_unscaled_weight", "kind": "wrong", "mistake": "gives the value with the scaling (about 0.16)",
     "teacher_says": "the question is without the division by sqrt(d_k)",
     "code": "predict_unscaled_weight = 0.165\n"},
    {"exercise": "predict_unscaled_weight", "kind": "wrong", "mistake": "thinks two keys share the top: 0.5",
     "teacher_says": "with a std of 32 the gap between the two largest of 32 scores is typically several units or more: e^-gap is small",
     "code": "predict_unscaled_weight = 0.5\n"},
    {"exercise": "predict_unscaled_weight", "kind": "wrong", "mistake": "answers as a percentage",
     "teacher_says": "the weight is a number from 0 to 1, not a percentage",
     "code": "predict_unscaled_weight = 95\n"},
    # ---------------- scale_experiment ----------------
    {"exercise": "scale_experiment", "kind": "correct", "idea": "POWER = 1: reruns the cell's experiment at d_k = 1024 with the same seed",
     "code": _EXPERIMENT + "\nscale_experiment = (1.0, _largest_weight(1.0))\n"},
    {"exercise": "scale_experiment", "kind": "correct", "idea": "POWER = 0.25, measured the same way",
     "code": _EXPERIMENT + "\nscale_experiment = (0.25, _largest_weight(0.25))\n"},
    {"exercise": "scale_experiment", "kind": "wrong", "mistake": "changes POWER but reports the number printed before the change (POWER = 0.5)",
     "teacher_says": "rerun the cell after setting POWER: the value you give must come from your POWER",
     "code": _EXPERIMENT + "\nscale_experiment = (1.0, _largest_weight(0.5))\n"},
    {"exercise": "scale_experiment", "kind": "wrong", "mistake": "reads the first line of the output (d_k = 1) instead of d_k = 1024",
     "teacher_says": "the question asks for d_k = 1024, the last line",
     "code": _EXPERIMENT + "\nscale_experiment = (0.0, _largest_weight(0.0, d_k=1))\n"},
    {"exercise": "scale_experiment", "kind": "wrong", "mistake": "pair in the wrong order (value, POWER)",
     "teacher_says": "assign (POWER, your answer)",
     "code": _EXPERIMENT + "\nscale_experiment = (_largest_weight(1.0), 1.0)\n"},
    {"exercise": "scale_experiment", "kind": "wrong", "mistake": "POWER outside the allowed range (2.0)",
     "teacher_says": "POWER must be from 0 to 1.5",
     "code": _EXPERIMENT + "\nscale_experiment = (2.0, _largest_weight(2.0))\n"},
]
