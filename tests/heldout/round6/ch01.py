ANSWERS = [
 # ------------------------------------------------------------------ softmax
 {"exercise": "softmax", "kind": "correct",
  "idea": "np.expand_dims on the reduced max and sum instead of keepdims=True",
  "code": '''
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x)
    m = np.max(x, axis=axis)
    e = np.exp(x - np.expand_dims(m, axis))
    total = np.sum(e, axis=axis)
    return e / np.expand_dims(total, axis)
'''},
 {"exercise": "softmax", "kind": "correct",
  "idea": "move the axis to the end, compute exp(x - logsumexp(x)), move it back",
  "code": '''
import numpy as np

def softmax(x, axis=-1):
    z = np.moveaxis(x, axis, -1)
    shifted = z - z.max(axis=-1)[..., None]
    log_norm = np.log(np.exp(shifted).sum(axis=-1))[..., None]
    out = np.exp(shifted - log_norm)
    return np.moveaxis(out, -1, axis)
'''},
 {"exercise": "softmax", "kind": "wrong",
  "mistake": "Subtracts the maximum without keepdims, so the reduced array broadcasts against the wrong axis (crashes for non-square 2-D input, silently wrong for square input).",
  "teacher_says": "Keep the reduced axis with keepdims=True (on the max and on the sum) so that it broadcasts back along the axis you reduced.",
  "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis))
    return e / np.sum(e, axis=axis)
'''},
 {"exercise": "softmax", "kind": "wrong",
  "mistake": "Ignores the axis argument and always normalises along the last axis.",
  "teacher_says": "Use the axis parameter in both reductions; the check asks for the softmax along other axes too.",
  "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''},
 {"exercise": "softmax", "kind": "wrong",
  "mistake": "Divides by the sum over the whole array instead of the sum along the axis, so only the whole array sums to 1.",
  "teacher_says": "Sum along `axis` with keepdims=True: every slice along the axis must sum to 1 on its own.",
  "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum()
'''},
 {"exercise": "softmax", "kind": "wrong",
  "mistake": "Shifts the scores by the maximum in the numerator but exponentiates the raw scores in the denominator, so the result is off by a factor exp(-max) (and overflows for large scores).",
  "teacher_says": "Subtract the same maximum in the numerator and the denominator: compute e = exp(x - max) once and divide it by its own sum.",
  "code": '''
import numpy as np

def softmax(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    return np.exp(x - m) / np.sum(np.exp(x), axis=axis, keepdims=True)
'''},
 {"exercise": "softmax", "kind": "wrong",
  "mistake": "Writes the log-sum-exp form and returns the log-softmax, forgetting the final exponential.",
  "teacher_says": "x - max - log(sum(exp(x - max))) is the logarithm of the softmax: exponentiate it before returning.",
  "code": '''
import numpy as np

def softmax(x, axis=-1):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))
'''},
 {"exercise": "softmax", "kind": "wrong",
  "mistake": "The textbook formula without subtracting the maximum: exp overflows to inf for scores like 1000 and the result is NaN.",
  "teacher_says": "Subtract the maximum along the axis before exponentiating; the softmax does not change and nothing overflows.",
  "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)
'''},
 {"exercise": "softmax", "kind": "robustness",
  "idea": "computes in place to save memory",
  "mistake": "Overwrites the caller's array: the shift, the exponential and the division are done in place on x, which is returned.",
  "teacher_says": "Never modify the input: work on a new array (x - max creates one) and leave x as the caller gave it.",
  "code": '''
import numpy as np

def softmax(x, axis=-1):
    x -= np.max(x, axis=axis, keepdims=True)
    np.exp(x, out=x)
    x /= np.sum(x, axis=axis, keepdims=True)
    return x
'''},

 # ------------------------------------------------------------------ scaled_dot_product_attention
 {"exercise": "scaled_dot_product_attention", "kind": "correct",
  "idea": "einsum for both products, an explicit stable softmax that keeps empty rows at zero with np.where",
  "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = np.einsum("...qd,...kd->...qk", q, k) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    row_max = scores.max(axis=-1, keepdims=True)
    row_max = np.where(np.isfinite(row_max), row_max, 0.0)
    e = np.exp(scores - row_max)
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total > 0, total, 1.0)
    out = np.einsum("...qk,...kd->...qd", weights, v)
    return out, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "correct",
  "idea": "multiplies by d_k ** -0.5, reuses mha.softmax and zeroes the rows with no allowed key with mask.any",
  "code": '''
import numpy as np
import mha

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = np.matmul(q, np.swapaxes(k, -1, -2)) * q.shape[-1] ** -0.5
    if mask is None:
        weights = mha.softmax(scores, axis=-1)
    else:
        weights = mha.softmax(np.where(mask, scores, -np.inf), axis=-1)
        weights = weights * np.any(mask, axis=-1, keepdims=True)
    return np.matmul(weights, v), weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong",
  "mistake": "Uses k.T, which reverses every axis: right for 2-D inputs, but a shape error (or nonsense) as soon as there is a batch axis.",
  "teacher_says": "Transpose only the last two axes, np.swapaxes(k, -1, -2), so that leading batch axes stay where they are.",
  "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.T / q.shape[-1] ** 0.5
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(scores - m)
    s = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(s == 0, 1, s)
    return weights @ v, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong",
  "mistake": "Takes the softmax over axis -2 (the queries): each key's column sums to 1 instead of each query's row.",
  "teacher_says": "The weights of one query are a row of the scores: normalise over the keys, axis=-1.",
  "code": '''
import numpy as np

def _softmax(x, axis):
    m = x.max(axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(x - m)
    s = e.sum(axis=axis, keepdims=True)
    return e / np.where(s == 0, 1, s)

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = _softmax(scores, axis=-2)
    return weights @ v, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong",
  "mistake": "Divides the scores by d_k instead of sqrt(d_k), so the weights come out too flat.",
  "teacher_says": "The scale is 1/sqrt(d_k): the raw scores have standard deviation sqrt(d_k), not d_k.",
  "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / d_k
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(scores - m)
    s = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(s == 0, 1, s)
    return weights @ v, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong",
  "mistake": "Reads the mask with the opposite polarity (True = blocked, as nn.MultiheadAttention does) and hides exactly the keys that may be attended.",
  "teacher_says": "In this book True means 'may attend': keep the score where the mask is True, np.where(mask, scores, -inf).",
  "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    m = scores.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(scores - m)
    s = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(s == 0, 1, s)
    return weights @ v, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong",
  "mistake": "Applies the mask by multiplying the scores by it, so a forbidden key gets score 0 (an ordinary score) instead of minus infinity and still receives weight.",
  "teacher_says": "A forbidden key must get weight exactly 0: replace its score by -inf (np.where(mask, scores, -np.inf)) before the softmax, do not multiply.",
  "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores * mask
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ v, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong",
  "mistake": "Fills forbidden scores with -1e9 instead of -inf: fine for partly masked rows, but a query with no allowed key gets uniform weights and the mean of the values instead of zeros.",
  "teacher_says": "A row with no True in the mask must give zero weights and a zero output: detect it with mask.any(axis=-1, keepdims=True) and zero it.",
  "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = np.where(mask, scores, -1e9)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ v, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "robustness",
  "idea": "casts every input to float64 'for accuracy'",
  "mistake": "Converts q, k and v to float64, so float32 inputs give float64 outputs and weights.",
  "teacher_says": "Keep the inputs' dtype: compute in the dtype you were given (or cast the result back).",
  "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    s = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(s == 0, 1.0, s)
    return weights @ v, weights
'''},

 # ------------------------------------------------------------------ temperature_of
 {"exercise": "temperature_of", "kind": "correct",
  "idea": "a Python loop over the rows that accumulates the least-squares numerator and denominator, keeping only normal (not subnormal) weights",
  "code": '''
import numpy as np

def temperature_of(scores, weights):
    s2 = scores.reshape(-1, scores.shape[-1])
    w2 = weights.reshape(-1, weights.shape[-1])
    tiny = np.finfo(w2.dtype).tiny  # below this a float64 loses digits
    num = 0.0
    den = 0.0
    for s_row, w_row in zip(s2, w2):
        keep = w_row >= tiny
        if keep.sum() < 2:
            continue
        s = s_row[keep] - s_row[keep].mean()
        ell = np.log(w_row[keep])
        ell = ell - ell.mean()
        num += np.dot(s, s)
        den += np.dot(s, ell)
    return float(num / den)
'''},
 {"exercise": "temperature_of", "kind": "correct",
  "idea": "differences to each row's largest weight, then one least-squares fit through the origin with np.linalg.lstsq",
  "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = scores.reshape(-1, scores.shape[-1])
    w = weights.reshape(-1, weights.shape[-1])
    anchor = np.argmax(w, axis=-1)
    rows = np.arange(len(w))
    ds_all, dl_all = [], []
    for r in rows:
        keep = w[r] >= np.finfo(w.dtype).tiny  # skip zeros and subnormals
        keep[anchor[r]] = False
        ds_all.append(s[r, keep] - s[r, anchor[r]])
        dl_all.append(np.log(w[r, keep]) - np.log(w[r, anchor[r]]))
    ds = np.concatenate(ds_all)
    dl = np.concatenate(dl_all)
    # log-weight differences = score differences / T: fit ds = T * dl
    T, *_ = np.linalg.lstsq(dl[:, None], ds, rcond=None)
    return float(T[0])
'''},
 {"exercise": "temperature_of", "kind": "wrong",
  "mistake": "Inverts the least-squares formula and returns sum(s*l)/sum(s^2), which is 1/T.",
  "teacher_says": "Since l = s/T, the fit of s against l gives T = sum(s^2)/sum(s*l); what you computed is its reciprocal.",
  "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    n = keep.sum(axis=-1, keepdims=True)
    logw = np.log(np.where(keep, weights, 1.0))
    s = np.where(keep, scores - np.where(keep, scores, 0).sum(-1, keepdims=True) / n, 0)
    l = np.where(keep, logw - np.where(keep, logw, 0).sum(-1, keepdims=True) / n, 0)
    return float((s * l).sum() / (s * s).sum())
'''},
 {"exercise": "temperature_of", "kind": "wrong",
  "mistake": "Fits log(w) = s/T without removing each row's mean, ignoring the log-sum-exp term that shifts every log-weight of a row.",
  "teacher_says": "log w_j = s_j/T - log sum exp(s/T): the second term is a per-row constant. Subtract each row's mean from the scores and the log-weights before fitting.",
  "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    s = scores[keep]
    l = np.log(weights[keep])
    return float(np.sum(s * s) / np.sum(s * l))
'''},
 {"exercise": "temperature_of", "kind": "wrong",
  "mistake": "Centres the scores and the log-weights with the mean over the whole array rather than per row, so rows with different normalising constants are mixed.",
  "teacher_says": "The constant that cancels is each row's own log-sum-exp: subtract the mean of each row (axis=-1, keepdims=True), not the global mean.",
  "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    s = scores[keep]
    l = np.log(weights[keep])
    s = s - s.mean()
    l = l - l.mean()
    return float(np.sum(s * s) / np.sum(s * l))
'''},
 {"exercise": "temperature_of", "kind": "wrong",
  "mistake": "Sums only along the last axis, so it returns one estimate per row (an array) instead of one number for the whole array.",
  "teacher_says": "There is one T for the whole array: sum the numerator and the denominator over every row before dividing.",
  "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    n = keep.sum(axis=-1, keepdims=True)
    logw = np.log(np.where(keep, weights, 1.0))
    s_mean = np.where(keep, scores, 0.0).sum(axis=-1, keepdims=True) / n
    l_mean = np.where(keep, logw, 0.0).sum(axis=-1, keepdims=True) / n
    s = np.where(keep, scores - s_mean, 0.0)
    l = np.where(keep, logw - l_mean, 0.0)
    return (s * s).sum(axis=-1) / (s * l).sum(axis=-1)
'''},
 {"exercise": "temperature_of", "kind": "wrong",
  "mistake": "Avoids log(0) by adding a small epsilon to every weight instead of leaving out the zero weights, which biases the fit (underflowed weights get a fake log of -27.6, tiny ones are shifted).",
  "teacher_says": "A weight that underflowed to 0 carries no information: drop it (weights > 0) rather than patching it with an epsilon.",
  "code": '''
import numpy as np

def temperature_of(scores, weights):
    l = np.log(weights + 1e-12)
    s = scores - scores.mean(axis=-1, keepdims=True)
    l = l - l.mean(axis=-1, keepdims=True)
    return float(np.sum(s * s) / np.sum(s * l))
'''},
 {"exercise": "temperature_of", "kind": "wrong",
  "mistake": "Drops the zero weights from the sums but computes each row's mean score over all entries, the underflowed ones included, so the centring is wrong in rows with zeros.",
  "teacher_says": "Use the same kept entries everywhere: the row means of the scores and of the log-weights must both be taken over the entries with weight > 0.",
  "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    logw = np.log(np.where(keep, weights, 1.0))
    n = keep.sum(axis=-1, keepdims=True)
    s_mean = scores.mean(axis=-1, keepdims=True)
    l_mean = np.where(keep, logw, 0.0).sum(axis=-1, keepdims=True) / n
    s = np.where(keep, scores - s_mean, 0.0)
    l = np.where(keep, logw - l_mean, 0.0)
    return float(np.sum(s * s) / np.sum(s * l))
'''},
 {"exercise": "temperature_of", "kind": "robustness",
  "idea": "takes the logarithm in place to save a copy",
  "mistake": "Overwrites the caller's weights array with its logarithm (np.log(..., out=weights)), so the input is destroyed after the call.",
  "teacher_says": "Leave the inputs unchanged: np.log(weights[keep]) makes a new array; do not write into weights.",
  "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    np.log(weights, out=weights, where=keep)
    n = keep.sum(axis=-1, keepdims=True)
    s_mean = np.where(keep, scores, 0.0).sum(axis=-1, keepdims=True) / n
    l_mean = np.where(keep, weights, 0.0).sum(axis=-1, keepdims=True) / n
    s = np.where(keep, scores - s_mean, 0.0)
    l = np.where(keep, weights - l_mean, 0.0)
    return float(np.sum(s * s) / np.sum(s * l))
'''},

 # ------------------------------------------------------------------ saturated_weight
 {"exercise": "saturated_weight", "kind": "correct",
  "idea": "runs a two-entry softmax in NumPy on the scores 16 and 0",
  "code": '''
import numpy as np

raw = np.array([16.0, 0.0])
e = np.exp(raw - raw.max())
saturated_weight = float(e[1] / e.sum())
'''},
 {"exercise": "saturated_weight", "kind": "correct",
  "idea": "the logistic function of the score difference, scipy.special.expit(-16)",
  "code": '''
from scipy.special import expit

saturated_weight = float(expit(-16.0))
'''},
 {"exercise": "saturated_weight", "kind": "wrong",
  "mistake": "Gives the weight of the key with the higher score instead of the lower one.",
  "teacher_says": "The question asks for the key with the lower score: e^{s-16}/(e^s + e^{s-16}) = 1/(1 + e^{16}).",
  "code": '''
import math

saturated_weight = 1 / (1 + math.exp(-16))
'''},
 {"exercise": "saturated_weight", "kind": "wrong",
  "mistake": "Divides the difference by sqrt(d_k) = 16 first, i.e. answers for the scaled scores, whereas the question is about raw, unscaled scores.",
  "teacher_says": "The exercise is about the raw scores q.k, without the 1/sqrt(d_k): the difference is 16, not 1.",
  "code": '''
import math

diff = 16 / math.sqrt(256)
saturated_weight = math.exp(-diff) / (1 + math.exp(-diff))
'''},
 {"exercise": "saturated_weight", "kind": "wrong",
  "mistake": "Takes the 16 for a variance and uses a difference of sqrt(16) = 4.",
  "teacher_says": "16 is already the standard deviation and the scores differ by 16 itself: the weight is 1/(1 + e^16).",
  "code": '''
import math

saturated_weight = 1 / (1 + math.exp(math.sqrt(16)))
'''},
 {"exercise": "saturated_weight", "kind": "wrong",
  "mistake": "Uses d_k = 256 as the score difference instead of the standard deviation 16.",
  "teacher_says": "The raw scores differ by one standard deviation, sqrt(256) = 16, not by d_k.",
  "code": '''
import math

d_k = 256
saturated_weight = 1 / (1 + math.exp(d_k))
'''},
 {"exercise": "saturated_weight", "kind": "wrong",
  "mistake": "Answers with the logarithm of the weight (about -16) rather than the weight itself.",
  "teacher_says": "The weight is a number between 0 and 1: exponentiate, e^{-16}/(1 + e^{-16}).",
  "code": '''
import math

saturated_weight = -16 - math.log(1 + math.exp(-16))
'''},
 {"exercise": "saturated_weight", "kind": "robustness",
  "idea": "computes it with torch.sigmoid",
  "mistake": "Assigns a 0-d torch tensor (float32) instead of a Python or NumPy number.",
  "teacher_says": "Assign a plain number: call .item() on the tensor or use math.exp.",
  "code": '''
import torch

saturated_weight = torch.sigmoid(torch.tensor(-16.0))
'''},

 # ------------------------------------------------------------------ score_std
 {"exercise": "score_std", "kind": "correct",
  "idea": "integer square root of the variance d_k",
  "code": '''
import math

d_k = 256
variance = d_k * 1.0 * 1.0   # d_k independent products of variance 1
score_std = math.isqrt(int(variance))
'''},
 {"exercise": "score_std", "kind": "correct",
  "idea": "power 0.5 of d_k",
  "code": '''
score_std = 256 ** 0.5
'''},
 {"exercise": "score_std", "kind": "wrong",
  "mistake": "Gives the variance d_k instead of the standard deviation.",
  "teacher_says": "The variance of the sum is d_k = 256; the standard deviation is its square root, 16.",
  "code": '''
d_k = 256
score_std = d_k
'''},
 {"exercise": "score_std", "kind": "wrong",
  "mistake": "Answers for the scaled scores (std 1), although the question is about q.k before any scaling.",
  "teacher_says": "Dividing by sqrt(d_k) brings the std to 1, but the question asks before the scaling: sqrt(256) = 16.",
  "code": '''
import math

score_std = math.sqrt(256) / math.sqrt(256)
'''},
 {"exercise": "score_std", "kind": "wrong",
  "mistake": "Takes the variance of one product q_c k_c as Var[q_c] + Var[k_c] = 2, giving sqrt(2 * 256).",
  "teacher_says": "For independent zero-mean factors, Var[q_c k_c] = E[q_c^2] E[k_c^2] = 1, a product, not a sum: the std is sqrt(256).",
  "code": '''
import math

score_std = math.sqrt(2 * 256)
'''},
 {"exercise": "score_std", "kind": "wrong",
  "mistake": "Answers with the mean of q.k (0) instead of its standard deviation.",
  "teacher_says": "The mean is 0, but the spread is what matters: the standard deviation is sqrt(d_k) = 16.",
  "code": '''
score_std = 0
'''},
 {"exercise": "score_std", "kind": "wrong",
  "mistake": "Takes the square root twice (the std of the std), giving 256 ** 0.25 = 4.",
  "teacher_says": "The variance is 256; one square root gives the standard deviation, 16.",
  "code": '''
import math

variance = math.sqrt(256)
score_std = math.sqrt(variance)
'''},
 {"exercise": "score_std", "kind": "robustness",
  "idea": "writes the answer as text",
  "mistake": "Assigns the string '16' instead of a number.",
  "teacher_says": "Assign a number, 16 or math.sqrt(256), not a string.",
  "code": '''
score_std = "16"
'''},
]
