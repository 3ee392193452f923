ANSWERS = [
    # ---------------- softmax ----------------
    {"exercise": "softmax", "kind": "correct", "idea": "subtract max with keepdims, numpy",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x)
    z = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return z / np.sum(z, axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "correct", "idea": "moveaxis to last, logsumexp in float64, cast back",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x)
    y = np.moveaxis(x.astype(np.float64), axis, -1)
    m = y.max(axis=-1, keepdims=True)
    lse = m + np.log(np.exp(y - m).sum(axis=-1, keepdims=True))
    return np.moveaxis(np.exp(y - lse), -1, axis).astype(x.dtype)
'''},
    {"exercise": "softmax", "kind": "wrong", "mistake": "subtracts the global max of the whole array, not per slice: underflows to 0/0 when slices differ a lot",
     "teacher_says": "subtract the maximum of each slice along axis (np.max(..., axis=axis, keepdims=True)); the global max can make a whole row underflow to 0/0",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    z = np.exp(x - np.max(x))
    return z / z.sum(axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong", "mistake": "max taken along axis=-1 regardless of the axis argument",
     "teacher_says": "the max must be taken along the same axis as the sum; with axis=0 your max is along the last axis, and exp can overflow",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    z = np.exp(x - x.max(axis=-1, keepdims=True))
    return z / z.sum(axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong", "mistake": "normalises by the sum of the whole array, not of each slice",
     "teacher_says": "each slice along axis must sum to 1: sum with axis=axis, keepdims=True, not over everything",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    z = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return z / z.sum()
'''},
    {"exercise": "softmax", "kind": "wrong", "mistake": "log-softmax returned (forgot the final exp)",
     "teacher_says": "you return log-probabilities: values are negative and do not sum to 1; take exp of the result",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    return x - m - np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
'''},
    {"exercise": "softmax", "kind": "wrong", "mistake": "float32 input upcast: returns float64 (dtype not preserved)",
     "teacher_says": "your values are right but the result is float64 for float32 input; return x's dtype",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    y = np.asarray(x, dtype=np.float64)
    z = np.exp(y - y.max(axis=axis, keepdims=True))
    return z / z.sum(axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "robustness", "idea": "returns a torch tensor via torch.softmax",
     "code": '''
import numpy as np
import torch

def softmax(x, axis=-1):
    return torch.softmax(torch.as_tensor(np.asarray(x)), dim=axis)
'''},
    {"exercise": "softmax", "kind": "robustness", "idea": "modifies the input in place (x -= max) before computing",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    x -= np.max(x, axis=axis, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=axis, keepdims=True)
    return x
'''},
    # ---------------- scaled_dot_product_attention ----------------
    {"exercise": "scaled_dot_product_attention", "kind": "correct", "idea": "swapaxes, where, stable softmax, nan_to_num-free zero rows",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    s = e.sum(axis=-1, keepdims=True)
    w = np.where(s > 0, e / np.where(s > 0, s, 1.0), 0.0).astype(scores.dtype)
    return w @ v, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "correct", "idea": "einsum, explicit mask multiplication after exp",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = np.einsum("...qd,...kd->...qk", q, k) / np.sqrt(q.shape[-1])
    if mask is None:
        allowed = np.ones(scores.shape, dtype=bool)
    else:
        allowed = np.broadcast_to(mask, scores.shape)
    filled = np.where(allowed, scores, -np.inf)
    top = np.max(filled, axis=-1, keepdims=True)
    top[~np.isfinite(top)] = 0
    e = np.exp(filled - top) * allowed
    denom = e.sum(axis=-1, keepdims=True)
    w = e / np.maximum(denom, np.finfo(scores.dtype).tiny)
    w = w.astype(scores.dtype)
    return np.einsum("...qk,...kd->...qd", w, v), w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "uses k.T, which reverses the batch axes too",
     "teacher_says": "k.T reverses every axis; with batch axes use np.swapaxes(k, -1, -2)",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.T / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(scores - m)
    s = e.sum(-1, keepdims=True)
    w = np.divide(e, s, out=np.zeros_like(e), where=s > 0)
    return w @ v, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "scales by sqrt of n_k (keys count) instead of d_k",
     "teacher_says": "the scale is 1/sqrt(d_k), the size of a query vector (q.shape[-1]), not the number of keys",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-2])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(scores - m)
    s = e.sum(-1, keepdims=True)
    w = np.divide(e, s, out=np.zeros_like(e), where=s > 0)
    return w @ v, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "fills masked scores with -1e9: a fully masked row gets uniform weights, not zeros",
     "teacher_says": "with a finite fill a row with no allowed key becomes uniform 1/n_k; the book wants zero weights and zero output there",
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
    {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "mask polarity inverted (treats True as 'blocked', PyTorch nn.MultiheadAttention style)",
     "teacher_says": "in this book True means 'may attend'; you blocked the allowed keys instead",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(scores - m)
    s = e.sum(-1, keepdims=True)
    w = np.divide(e, s, out=np.zeros_like(e), where=s > 0)
    return w @ v, w
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "applies the mask to the weights after the softmax (zeroes them) without renormalising",
     "teacher_says": "masking after the softmax leaves rows that no longer sum to 1; mask the scores before the softmax",
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
    {"exercise": "scaled_dot_product_attention", "kind": "robustness", "idea": "returns weights first: (weights, out) order swapped",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(scores - m)
    s = e.sum(-1, keepdims=True)
    w = np.divide(e, s, out=np.zeros_like(e), where=s > 0)
    return w, w @ v
'''},
    # ---------------- temperature_of ----------------
    {"exercise": "temperature_of", "kind": "correct", "idea": "centered least squares per row over positive weights",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = np.asarray(scores, float).reshape(-1, scores.shape[-1])
    w = np.asarray(weights, float).reshape(-1, weights.shape[-1])
    keep = w > 0
    num = 0.0
    den = 0.0
    for srow, wrow, krow in zip(s, w, keep):
        a = srow[krow] - srow[krow].mean()
        l = np.log(wrow[krow])
        l = l - l.mean()
        num += (a * a).sum()
        den += (a * l).sum()
    return float(num / den)
'''},
    {"exercise": "temperature_of", "kind": "correct", "idea": "vectorised masked means, polyfit-free regression",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    cnt = keep.sum(-1, keepdims=True)
    logw = np.log(np.where(keep, weights, 1.0))
    s_c = np.where(keep, scores - (np.where(keep, scores, 0).sum(-1, keepdims=True) / cnt), 0)
    l_c = np.where(keep, logw - (np.where(keep, logw, 0).sum(-1, keepdims=True) / cnt), 0)
    return np.sum(s_c ** 2) / np.sum(s_c * l_c)
'''},
    {"exercise": "temperature_of", "kind": "wrong", "mistake": "returns 1/T (slope of log w against s) instead of T",
     "teacher_says": "log w = s / T + const, so the slope of log-weights against scores is 1/T; invert it",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    cnt = keep.sum(-1, keepdims=True)
    logw = np.log(np.where(keep, weights, 1.0))
    s_c = np.where(keep, scores - np.where(keep, scores, 0).sum(-1, keepdims=True) / cnt, 0)
    l_c = np.where(keep, logw - np.where(keep, logw, 0).sum(-1, keepdims=True) / cnt, 0)
    return np.sum(s_c * l_c) / np.sum(s_c ** 2)
'''},
    {"exercise": "temperature_of", "kind": "wrong", "mistake": "no centering: regresses log w on s through the origin, ignoring the log-sum-exp term",
     "teacher_says": "log w_j = s_j/T - logsumexp: the constant differs per row; subtract each row's mean (or take differences) first",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    s = scores[keep]
    l = np.log(weights[keep])
    return float(np.sum(s * s) / np.sum(s * l))
'''},
    {"exercise": "temperature_of", "kind": "wrong", "mistake": "centres with the mean over all entries of the row, including the underflowed zeros' scores",
     "teacher_says": "the mean you subtract must be over the kept entries only; including dropped entries shifts the scores and biases T",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    s_c = scores - scores.mean(-1, keepdims=True)
    logw = np.log(np.where(keep, weights, 1.0))
    l_c = logw - np.where(keep, logw, 0).sum(-1, keepdims=True) / keep.sum(-1, keepdims=True)
    s_c = np.where(keep, s_c, 0)
    l_c = np.where(keep, l_c, 0)
    return float(np.sum(s_c ** 2) / np.sum(s_c * l_c))
'''},
    {"exercise": "temperature_of", "kind": "wrong", "mistake": "estimates from one pair of entries (first row, first two keys) only",
     "teacher_says": "one pair is exposed to rounding and may hit an underflowed weight; use every usable entry",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = scores.reshape(-1, scores.shape[-1])[0]
    w = weights.reshape(-1, weights.shape[-1])[0]
    return float((s[0] - s[1]) / (np.log(w[0]) - np.log(w[1])))
'''},
    # ---------------- saturated_weight ----------------
    {"exercise": "saturated_weight", "kind": "correct", "idea": "1/(1+e^16) with math",
     "code": '''
import math
saturated_weight = 1 / (1 + math.exp(16))
'''},
    {"exercise": "saturated_weight", "kind": "correct", "idea": "numpy softmax of [0,-16]",
     "code": '''
import numpy as np
_s = np.array([16.0, 0.0])
_w = np.exp(_s - _s.max()) / np.exp(_s - _s.max()).sum()
saturated_weight = float(_w[1])
'''},
    {"exercise": "saturated_weight", "kind": "wrong", "mistake": "gives the higher key's weight",
     "teacher_says": "that is the weight of the key with the higher score; the question asks for the lower one, 1 minus yours",
     "code": '''
import math
saturated_weight = 1 / (1 + math.exp(-16))
'''},
    {"exercise": "saturated_weight", "kind": "wrong", "mistake": "applied the sqrt(d_k) scaling anyway: difference 16/16 = 1",
     "teacher_says": "the question is about the unscaled scores: the difference is 16, not 1",
     "code": '''
import math
saturated_weight = 1 / (1 + math.exp(1))
'''},
    {"exercise": "saturated_weight", "kind": "wrong", "mistake": "forgot the exponential: treats the weight as 1/(1+difference)",
     "teacher_says": "the softmax exponentiates the scores: the weight is 1/(1+e^16), not 1/(1+16)",
     "code": '''
saturated_weight = 1 / (1 + 16)
'''},
    {"exercise": "saturated_weight", "kind": "wrong", "mistake": "used base 2 / confused exp with 2**: 2**-16",
     "teacher_says": "the softmax uses e, not 2: the weight is 1/(1+e^16)",
     "code": '''
saturated_weight = 2 ** -16
'''},
    # ---------------- score_std ----------------
    {"exercise": "score_std", "kind": "correct", "idea": "sqrt(256)",
     "code": '''
import math
score_std = math.sqrt(256)
'''},
    {"exercise": "score_std", "kind": "correct", "idea": "integer 16",
     "code": '''
score_std = 16
'''},
    {"exercise": "score_std", "kind": "wrong", "mistake": "gives the variance, 256",
     "teacher_says": "256 is the variance; the standard deviation is its square root",
     "code": '''
score_std = 256
'''},
    {"exercise": "score_std", "kind": "wrong", "mistake": "thinks scaled scores: 1",
     "teacher_says": "the question is before scaling: the std is sqrt(d_k) = 16; 1 is after dividing by sqrt(d_k)",
     "code": '''
score_std = 1.0
'''},
    {"exercise": "score_std", "kind": "wrong", "mistake": "var of a product of two normals taken as 2: sqrt(512)",
     "teacher_says": "a product of two independent standard normals has variance 1, not 2",
     "code": '''
import math
score_std = math.sqrt(2 * 256)
'''},
    {"exercise": "score_std", "kind": "robustness", "idea": "a one-element numpy array instead of a number",
     "code": '''
import numpy as np
score_std = np.array([16.0])
'''},
]
ANSWERS.append({"exercise": "score_std", "kind": "wrong", "mistake": "square root taken twice: d_k ** 0.25 = 4",
     "teacher_says": "variance d_k, so std sqrt(d_k) = 16; you took the square root twice",
     "code": "\nimport math\nscore_std = math.sqrt(math.sqrt(256))\n"})
