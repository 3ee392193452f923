ANSWERS = [
    # ---------------- softmax ----------------
    {"exercise": "softmax", "kind": "correct", "idea": "moveaxis to the end, loop over rows with math.exp, move back",
     "code": '''
import math
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    moved = np.moveaxis(x, axis, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    out = np.empty_like(flat)
    for r in range(flat.shape[0]):
        row = flat[r]
        m = max(row)
        e = [math.exp(v - m) for v in row]
        s = sum(e)
        out[r] = [v / s for v in e]
    return np.moveaxis(out.reshape(moved.shape), -1, axis)
'''},
    {"exercise": "softmax", "kind": "correct", "idea": "log-sum-exp form: exp(x - logsumexp)",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    lse = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return np.exp(x - lse)
'''},
    {"exercise": "softmax", "kind": "wrong", "mistake": "no max subtraction: overflows to nan for scores like 1000",
     "teacher_says": "exp(1000) overflows to inf and inf/inf is nan; subtract the row maximum first",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong", "mistake": "max taken over the whole array instead of along axis; rows far below the global max underflow to 0/0",
     "teacher_says": "subtract the maximum of each row (np.max(x, axis=axis, keepdims=True)), not the global maximum: a row far below it underflows to 0/0",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x))
    return e / e.sum(axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong", "mistake": "sum without keepdims: broadcasts wrongly (only works for the last axis of square inputs or raises)",
     "teacher_says": "sum with keepdims=True, otherwise the reduced shape does not broadcast back along the axis you reduced",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    s = e.sum(axis=axis)
    if axis in (-1, x.ndim - 1):
        return e / s[..., None]
    return e / s
'''},
    {"exercise": "softmax", "kind": "wrong", "mistake": "ignores axis: always normalises over the last axis",
     "teacher_says": "your softmax always runs over the last axis; use the axis argument",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong", "mistake": "divides by the max-subtracted sum without exponentiating numerator consistently: uses x - max in numerator but exp(x) in denominator",
     "teacher_says": "numerator and denominator must both be exp(x - max); mixing them gives weights that do not sum to 1",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    return np.exp(x - m) / np.sum(np.exp(x), axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "robustness", "idea": "modifies the input in place (x -= max) before computing",
     "mistake": "subtracts the max in place, so the caller's array is changed",
     "teacher_says": "do not modify the argument: x -= ... writes into the caller's array",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    x -= np.max(x, axis=axis, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=axis, keepdims=True)
    return x
'''},
    {"exercise": "softmax", "kind": "robustness", "idea": "returns float32 always",
     "mistake": "casts to float32, losing precision for float64 input",
     "teacher_says": "keep the input's precision; casting to float32 loses about 8 digits",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float32)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
'''},
    # ---------------- scaled_dot_product_attention ----------------
    {"exercise": "scaled_dot_product_attention", "kind": "correct", "idea": "einsum, masked_fill with a large negative then zero the empty rows",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    s = np.einsum("...id,...jd->...ij", q, k) / math.sqrt(d_k)
    if mask is not None:
        mask = np.broadcast_to(mask, s.shape)
        s = np.where(mask, s, -np.inf)
        any_ = mask.any(axis=-1, keepdims=True)
        s = np.where(any_, s, 0.0)
    m = s.max(axis=-1, keepdims=True)
    e = np.exp(s - m)
    w = e / e.sum(axis=-1, keepdims=True)
    if mask is not None:
        w = np.where(any_, w, 0.0)
    out = np.einsum("...ij,...jd->...id", w, v)
    return out, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "correct", "idea": "scale q first (q / sqrt(d)), multiply the exp by the mask, guard the denominator",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    q = q / np.sqrt(q.shape[-1])
    s = q @ np.swapaxes(k, -1, -2)
    if mask is None:
        m = s.max(axis=-1, keepdims=True)
        e = np.exp(s - m)
    else:
        mask = np.broadcast_to(mask, s.shape)
        m = np.where(mask, s, -np.inf).max(axis=-1, keepdims=True)
        m = np.where(np.isfinite(m), m, 0.0)
        e = np.where(mask, np.exp(np.where(mask, s, 0.0) - m), 0.0)
    den = e.sum(axis=-1, keepdims=True)
    w = e / np.where(den == 0, 1.0, den)
    return w @ v, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "uses k.T, which reverses the batch axes too",
     "teacher_says": "k.T reverses all axes; with batch axes use np.swapaxes(k, -1, -2)",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "divides by d_k instead of sqrt(d_k)",
     "teacher_says": "the scale is 1/sqrt(d_k), not 1/d_k",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / q.shape[-1]
    if mask is not None:
        s = np.where(mask, s, -np.inf)
        ok = np.broadcast_to(mask, s.shape).any(axis=-1, keepdims=True)
        s = np.where(ok, s, 0.0)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    if mask is not None:
        w = np.where(ok, w, 0.0)
    return w @ v, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "fully masked rows come out NaN (no guard)",
     "teacher_says": "a query whose keys are all masked must get zero weights and a zero output, not NaN from 0/0",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "mask polarity inverted: masks the True entries",
     "teacher_says": "True in the mask means may attend; you hid the allowed keys instead of the forbidden ones",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        bad = np.broadcast_to(mask, s.shape)
        s = np.where(bad, -np.inf, s)
        ok = (~bad).any(axis=-1, keepdims=True)
        s = np.where(ok, s, 0.0)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    if mask is not None:
        w = np.where(ok, w, 0.0)
    return w @ v, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "fully masked row handled by giving uniform weights (masks with -1e9) instead of zeros",
     "teacher_says": "with -1e9 a fully masked row becomes uniform over all keys; the book wants zero weights and zero output there",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -1e9)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "scales by sqrt of d_v (v's last axis) instead of d_k",
     "teacher_says": "the scale uses d_k, the size of the queries and keys, not the value size",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(v.shape[-1])
    if mask is not None:
        mask = np.broadcast_to(mask, s.shape)
        s = np.where(mask, s, -np.inf)
        ok = mask.any(axis=-1, keepdims=True)
        s = np.where(ok, s, 0.0)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    if mask is not None:
        w = np.where(ok, w, 0.0)
    return w @ v, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "robustness", "idea": "returns only out, not the (out, weights) tuple",
     "mistake": "returns the output alone",
     "teacher_says": "return a tuple (out, weights)",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "robustness", "idea": "converts to torch and returns torch tensors",
     "mistake": "returns torch tensors instead of NumPy arrays",
     "teacher_says": "this chapter is NumPy: return NumPy arrays",
     "code": '''
import numpy as np
import torch

def scaled_dot_product_attention(q, k, v, mask=None):
    q, k, v = (torch.as_tensor(np.asarray(a)) for a in (q, k, v))
    m = None if mask is None else torch.as_tensor(np.asarray(mask))
    s = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
    if m is not None:
        s = s.masked_fill(~m, float("-inf"))
    w = torch.softmax(s, dim=-1)
    w = torch.nan_to_num(w, nan=0.0)
    return w @ v, w
'''},
    # ---------------- temperature_of ----------------
    {"exercise": "temperature_of", "kind": "correct", "idea": "least squares of log w against s, centred per row",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = np.asarray(scores, dtype=float)
    w = np.asarray(weights, dtype=float)
    s2 = s.reshape(-1, s.shape[-1])
    w2 = w.reshape(-1, w.shape[-1])
    num = 0.0
    den = 0.0
    for srow, wrow in zip(s2, w2):
        ok = wrow > 0
        if ok.sum() < 2:
            continue
        ls = srow[ok] - srow[ok].mean()
        lw = np.log(wrow[ok]) - np.log(wrow[ok]).mean()
        num += float(ls @ ls)
        den += float(ls @ lw)
    # log w = s/T + c  =>  slope 1/T = den/num
    return float(num / den)
'''},
    {"exercise": "temperature_of", "kind": "correct", "idea": "ratio of spread: (max s - min s) / (log w_max - log w_min) over one row with distinct scores, using positive weights",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = np.asarray(scores, dtype=float).reshape(-1, np.shape(scores)[-1])
    w = np.asarray(weights, dtype=float).reshape(s.shape)
    best = None
    for srow, wrow in zip(s, w):
        ok = wrow > 1e-300
        if ok.sum() < 2:
            continue
        ss, ww = srow[ok], np.log(wrow[ok])
        i, j = np.argmax(ss), np.argmin(ss)
        if ss[i] - ss[j] <= 0:
            continue
        t = (ss[i] - ss[j]) / (ww[i] - ww[j])
        spread = ss[i] - ss[j]
        if best is None or spread > best[0]:
            best = (spread, t)
    return float(best[1])
'''},
    {"exercise": "temperature_of", "kind": "wrong", "mistake": "returns 1/T (the slope) instead of T",
     "teacher_says": "the slope of log w against s is 1/T; invert it",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = np.asarray(scores, float); w = np.asarray(weights, float)
    ok = w > 0
    ls = np.where(ok, s - s.mean(axis=-1, keepdims=True), 0.0)
    lw = np.where(ok, np.log(np.where(ok, w, 1.0)), 0.0)
    lw = np.where(ok, lw - lw.sum(-1, keepdims=True) / ok.sum(-1, keepdims=True), 0.0)
    ls = np.where(ok, s - np.where(ok, s, 0).sum(-1, keepdims=True) / ok.sum(-1, keepdims=True), 0.0)
    return float((ls * lw).sum() / (ls * ls).sum())
'''},
    {"exercise": "temperature_of", "kind": "wrong", "mistake": "takes logs of all weights: underflowed zeros give -inf and the answer becomes 0 or nan",
     "teacher_says": "a weight that underflowed to 0 has no logarithm: leave it out",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = np.asarray(scores, float); w = np.asarray(weights, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        lw = np.log(w)
        ds = s[..., 0] - s[..., 1:].T
        dl = lw[..., 0] - lw[..., 1:].T
        return float(np.mean(ds / dl))
'''},
    {"exercise": "temperature_of", "kind": "wrong", "mistake": "compares s with log w directly (ignores the log-sum-exp term): T = s / log w",
     "teacher_says": "log w = s/T minus a per-row constant; only differences within a row cancel that constant",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = np.asarray(scores, float); w = np.asarray(weights, float)
    ok = (w > 0) & (w < 1)
    return float(np.median(s[ok] / np.log(w[ok])))
'''},
    {"exercise": "temperature_of", "kind": "wrong", "mistake": "uses only the first row's first two entries: fails when they are equal or a weight is 0 (and is imprecise)",
     "teacher_says": "two entries of one row may have equal scores or an underflowed weight; use every valid entry",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = np.asarray(scores, float).reshape(-1, np.shape(scores)[-1])
    w = np.asarray(weights, float).reshape(s.shape)
    return float((s[0, 0] - s[0, 1]) / (np.log(w[0, 0]) - np.log(w[0, 1])))
'''},
    {"exercise": "temperature_of", "kind": "robustness", "idea": "returns a 0-d numpy array / per-row array instead of one number",
     "mistake": "returns an array of per-row estimates",
     "teacher_says": "there is one T for the whole array: return one number",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = np.asarray(scores, float); w = np.asarray(weights, float)
    ok = w > 0
    lw = np.log(np.where(ok, w, 1.0))
    i = np.argmax(np.where(ok, s, -np.inf), axis=-1)[..., None]
    j = np.argmin(np.where(ok, s, np.inf), axis=-1)[..., None]
    ds = np.take_along_axis(s, i, -1) - np.take_along_axis(s, j, -1)
    dl = np.take_along_axis(lw, i, -1) - np.take_along_axis(lw, j, -1)
    return (ds / dl)[..., 0]
'''},
    # ---------------- saturated_weight ----------------
    {"exercise": "saturated_weight", "kind": "correct", "idea": "1/(1+e^16) with math",
     "code": '''
import math
saturated_weight = 1 / (1 + math.exp(16))
'''},
    {"exercise": "saturated_weight", "kind": "correct", "idea": "numpy softmax of [16, 0], take the lower one",
     "code": '''
import numpy as np
_s = np.array([16.0, 0.0])
_e = np.exp(_s - _s.max())
saturated_weight = float((_e / _e.sum())[1])
'''},
    {"exercise": "saturated_weight", "kind": "wrong", "mistake": "gives the weight of the higher key",
     "teacher_says": "that is the larger key's weight; the question asks for the lower score's",
     "code": '''
import math
saturated_weight = 1 / (1 + math.exp(-16))
'''},
    {"exercise": "saturated_weight", "kind": "wrong", "mistake": "uses the variance 256 as the score difference instead of the standard deviation 16",
     "teacher_says": "the scores differ by one standard deviation, 16, not by the variance 256",
     "code": '''
import math
saturated_weight = 1 / (1 + math.exp(256))
'''},
    {"exercise": "saturated_weight", "kind": "wrong", "mistake": "applies the sqrt(d_k) scaling anyway: difference 16/16 = 1",
     "teacher_says": "the question is about the raw, unscaled scores",
     "code": '''
import math
saturated_weight = 1 / (1 + math.exp(1))
'''},
    {"exercise": "saturated_weight", "kind": "wrong", "mistake": "uses sqrt(16)=4 as the difference",
     "teacher_says": "the scores differ by 16, the standard deviation itself, not its square root",
     "code": '''
import math
saturated_weight = 1 / (1 + math.exp(4))
'''},
    # ---------------- score_std ----------------
    {"exercise": "score_std", "kind": "correct", "idea": "sqrt(256) with math",
     "code": '''
import math
score_std = math.sqrt(256)
'''},
    {"exercise": "score_std", "kind": "correct", "idea": "variance of a sum of 256 unit-variance products, then root, as an int",
     "code": '''
score_std = int((256 * 1 * 1) ** 0.5)
'''},
    {"exercise": "score_std", "kind": "wrong", "mistake": "gives the variance, not the standard deviation",
     "teacher_says": "256 is the variance; the standard deviation is its square root",
     "code": '''
score_std = 256
'''},
    {"exercise": "score_std", "kind": "wrong", "mistake": "thinks the dot product of standard normals has std 1",
     "teacher_says": "each product has variance 1, and the variances of 256 independent terms add",
     "code": '''
score_std = 1.0
'''},
    {"exercise": "score_std", "kind": "wrong", "mistake": "uses an empirical estimate from a small sample",
     "teacher_says": "a simulation of a few samples is far from exact; compute the variance by hand",
     "code": '''
import numpy as np
_rng = np.random.default_rng(0)
score_std = float(np.std((_rng.standard_normal((20, 256)) * _rng.standard_normal((20, 256))).sum(-1)))
'''},
    {"exercise": "score_std", "kind": "wrong", "mistake": "thinks scores are already scaled: 1/sqrt(256)",
     "teacher_says": "before any scaling; 1/16 is the scale factor, not the std",
     "code": '''
score_std = 1 / 16
'''},
]
