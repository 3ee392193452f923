# writer A's answers, then writer E's (each file verbatim)
"""Student answers for chapter 1 (scaled dot-product attention), writer A."""

ANSWERS = [
    # ------------------------------------------------------------------ softmax
    {"exercise": "softmax", "kind": "correct",
     "idea": "log-softmax form: shift by the max, subtract the log of the sum, exponentiate",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    shifted = x - np.amax(x, axis=axis, keepdims=True)
    log_total = np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))
    return np.exp(shifted - log_total)
'''},
    {"exercise": "softmax", "kind": "robustness",
     "idea": "moves the axis to the end and loops over every slice in Python with math.exp "
             "(float64 scalars), then writes back into an array of the input's dtype",
     "code": '''
import math
import numpy as np

def softmax(x, axis=-1):
    moved = np.moveaxis(np.asarray(x), axis, -1)
    out = np.empty(moved.shape, dtype=moved.dtype)
    for index in np.ndindex(*moved.shape[:-1]):
        row = [float(value) for value in moved[index]]
        top = max(row)
        exps = [math.exp(value - top) for value in row]
        total = sum(exps)
        for j, e in enumerate(exps):
            out[index + (j,)] = e / total
    return np.moveaxis(out, -1, axis)
'''},
    {"exercise": "softmax", "kind": "wrong",
     "mistake": "Wrote the textbook formula exp(x) / sum(exp(x)) without subtracting the "
                "maximum, so scores like 1000 overflow to inf and the result is nan.",
     "teacher_says": "Subtract the maximum along the axis first: it changes nothing "
                     "mathematically and keeps every exponent at most 0.",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong",
     "mistake": "Used `axis` for the maximum but left the sum hard-coded on the last axis "
                "(copied from the notebook's default), so any other axis is normalised wrongly.",
     "teacher_says": "Every reduction must run along the same `axis` argument; test your "
                     "function with axis=0 on a non-square array.",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong",
     "mistake": "Forgot the axis in the sum: `e.sum()` divides by the total over the whole "
                "array, so with more than one row no slice sums to 1.",
     "teacher_says": "The denominator is a sum over one slice, not over the whole array: "
                     "pass axis=axis, keepdims=True.",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum()
'''},

    # ------------------------------------------------- scaled_dot_product_attention
    {"exercise": "scaled_dot_product_attention", "kind": "correct",
     "idea": "einsum for the scores, masked_fill with -inf, a stable softmax whose "
             "denominator is guarded so an all -inf row gives zeros",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = np.einsum("...qd,...kd->...qk", q, k) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isneginf(top), 0.0, top).astype(scores.dtype)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total > 0, total, 1.0).astype(scores.dtype)
    weights = weights.astype(q.dtype)
    return weights @ v, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "robustness",
     "idea": "flattens the batch axes and loops over every batch entry and every query in "
             "Python, in float64, then casts back to the input dtype",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    batch = q.shape[:-2]
    n_q, d_k = q.shape[-2:]
    n_k, d_v = v.shape[-2:]
    if mask is None:
        mask = np.ones((n_q, n_k), dtype=bool)
    full_mask = np.broadcast_to(mask, (*batch, n_q, n_k)).reshape(-1, n_q, n_k)
    q2 = q.reshape(-1, n_q, d_k).astype(np.float64)
    k2 = k.reshape(-1, n_k, d_k).astype(np.float64)
    v2 = v.reshape(-1, n_k, d_v).astype(np.float64)
    out = np.zeros((q2.shape[0], n_q, d_v))
    weights = np.zeros((q2.shape[0], n_q, n_k))
    for b in range(q2.shape[0]):
        for i in range(n_q):
            allowed = [j for j in range(n_k) if full_mask[b, i, j]]
            if not allowed:
                continue  # nothing to attend: zero weights, zero output
            s = {j: float(q2[b, i] @ k2[b, j]) / math.sqrt(d_k) for j in allowed}
            top = max(s.values())
            e = {j: math.exp(s[j] - top) for j in allowed}
            total = sum(e.values())
            for j in allowed:
                weights[b, i, j] = e[j] / total
                out[b, i] += weights[b, i, j] * v2[b, j]
    return (out.reshape(*batch, n_q, d_v).astype(q.dtype),
            weights.reshape(*batch, n_q, n_k).astype(q.dtype))
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong",
     "mistake": "Applied the mask to the weights after the softmax (multiplying by it) "
                "instead of to the scores, so the masked rows no longer sum to 1.",
     "teacher_says": "The mask acts on the scores (-inf before the softmax), so the allowed "
                     "keys share the whole weight of 1.",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    if mask is not None:
        weights = weights * mask
    return weights @ v, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong",
     "mistake": "Transposed the keys with `k.T`, which reverses every axis: fine for 2-D "
                "inputs, but with a batch axis the product fails or mixes batch entries.",
     "teacher_says": "Swap only the last two axes, `np.swapaxes(k, -1, -2)`; `.T` also "
                     "reverses the batch axes.",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.T / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    weights = (e / np.where(total == 0, 1.0, total)).astype(q.dtype)
    return weights @ v, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong",
     "mistake": "Took d_k from the wrong axis of k: `k.shape[-2]` is n_k, the number of "
                "keys, so the scores are divided by sqrt(n_k) instead of sqrt(d_k).",
     "teacher_says": "d_k is the width of a query/key, the last axis: `q.shape[-1]`; "
                     "test with n_k != d_k.",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = k.shape[-2]
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    weights = (e / np.where(total == 0, 1.0, total)).astype(q.dtype)
    return weights @ v, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong",
     "mistake": "Masked the scores with -inf but used the plain stable softmax: a query whose "
                "keys are all masked gets max = -inf, then -inf - (-inf) = nan weights and a "
                "nan output.",
     "teacher_says": "Handle the fully masked row explicitly (e.g. with "
                     "`mask.any(axis=-1, keepdims=True)`) so it gets zero weights, not 0/0.",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ v, weights
'''},

    # ------------------------------------------------------------ temperature_of
    {"exercise": "temperature_of", "kind": "correct",
     "idea": "masked per-row centring of scores and log-weights, then the pooled "
             "least-squares slope sum(s^2) / sum(s * l)",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    count = keep.sum(axis=-1, keepdims=True)
    log_w = np.log(np.where(keep, weights, 1.0))
    s_mean = np.where(keep, scores, 0.0).sum(axis=-1, keepdims=True) / count
    l_mean = np.where(keep, log_w, 0.0).sum(axis=-1, keepdims=True) / count
    s = np.where(keep, scores - s_mean, 0.0)
    l = np.where(keep, log_w - l_mean, 0.0)
    return float(np.sum(s * s) / np.sum(s * l))
'''},
    {"exercise": "temperature_of", "kind": "robustness",
     "idea": "a Python loop over the rows, fitting each row's (log-weight, score) pairs "
             "with np.polyfit and averaging the slopes",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    n = scores.shape[-1]
    slopes = []
    for s_row, w_row in zip(scores.reshape(-1, n), weights.reshape(-1, n)):
        xs, ys = [], []
        for s, w in zip(s_row, w_row):
            if w > 0:
                xs.append(np.log(w))
                ys.append(s)
        slope, _ = np.polyfit(np.array(xs), np.array(ys), 1)  # s = T * log w + c
        slopes.append(slope)
    return float(np.mean(slopes))
'''},
    {"exercise": "temperature_of", "kind": "wrong",
     "mistake": "Took the logarithm of every weight, including the ones that underflowed to "
                "exactly 0, so -inf enters the sums and the result is nan (or 0).",
     "teacher_says": "A weight of exactly 0 carries no information about T: keep only the "
                     "weights above 0 before taking logarithms.",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    with np.errstate(divide="ignore", invalid="ignore"):
        log_w = np.log(weights)
        s = scores - scores.mean(axis=-1, keepdims=True)
        l = log_w - log_w.mean(axis=-1, keepdims=True)
        return float(np.sum(s * s) / np.sum(s * l))
'''},
    {"exercise": "temperature_of", "kind": "wrong",
     "mistake": "Regressed the wrong way round: computed sum(s*l) / sum(s^2), which is the "
                "slope of log-weights against scores, i.e. 1/T, not T.",
     "teacher_says": "l = s / T, so s = T * l: T is sum(s^2) / sum(s*l); check on a case "
                     "where you know T = 2.",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    count = keep.sum(axis=-1, keepdims=True)
    log_w = np.log(np.where(keep, weights, 1.0))
    s_mean = np.where(keep, scores, 0.0).sum(axis=-1, keepdims=True) / count
    l_mean = np.where(keep, log_w, 0.0).sum(axis=-1, keepdims=True) / count
    s = np.where(keep, scores - s_mean, 0.0)
    l = np.where(keep, log_w - l_mean, 0.0)
    return float(np.sum(s * l) / np.sum(s * s))
'''},
    {"exercise": "temperature_of", "kind": "wrong",
     "mistake": "Replaced the zero weights' logarithms by 0 but then centred each row with a "
                "plain mean over all entries, dropped ones included, so the fake zeros bias "
                "the means and the dropped entries still count in the sums.",
     "teacher_says": "Average over the kept entries only (and leave the dropped ones out of "
                     "the sums): a placeholder value is not data.",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    log_w = np.where(keep, np.log(np.where(keep, weights, 1.0)), 0.0)
    s_kept = np.where(keep, scores, 0.0)
    s = s_kept - s_kept.mean(axis=-1, keepdims=True)
    l = log_w - log_w.mean(axis=-1, keepdims=True)
    return float(np.sum(s * s) / np.sum(s * l))
'''},

    # ---------------------------------------------------------- saturated_weight
    {"exercise": "saturated_weight", "kind": "correct",
     "idea": "two-way softmax written as a logistic sigmoid of the score gap",
     "code": '''
import math

saturated_weight = 1.0 / (1.0 + math.exp(16))
'''},
    {"exercise": "saturated_weight", "kind": "robustness",
     "idea": "runs a float32 NumPy softmax over the two raw scores and keeps the lower "
             "key's weight: a numpy.float32 scalar rather than a Python float",
     "code": '''
import numpy as np

_scores = np.array([40.0, 24.0], dtype=np.float32)  # differ by 16
_e = np.exp(_scores - _scores.max())
saturated_weight = (_e / _e.sum())[1]
'''},
    {"exercise": "saturated_weight", "kind": "wrong",
     "mistake": "Gave the weight of the key with the higher score, 1 / (1 + e^-16), "
                "instead of the lower one (a polarity slip).",
     "teacher_says": "The question asks for the key with the lower score; the two weights "
                     "sum to 1, so yours is its complement.",
     "code": '''
import math

saturated_weight = 1.0 / (1.0 + math.exp(-16))
'''},
    {"exercise": "saturated_weight", "kind": "wrong",
     "mistake": "Divided the gap by sqrt(d_k) = 16 out of habit, so used a difference of 1: "
                "1 / (1 + e), but the question is about the raw, unscaled scores.",
     "teacher_says": "Read the set-up again: the scores are raw, the gap is the full 16.",
     "code": '''
import math

saturated_weight = 1.0 / (1.0 + math.e)
'''},
    {"exercise": "saturated_weight", "kind": "wrong",
     "mistake": "Took the standard deviation to be sqrt(16) = 4 (confusing it with a "
                "variance of 16) and used a gap of 4: 1 / (1 + e^4).",
     "teacher_says": "The statement gives the difference itself, 16; no square root is "
                     "needed here.",
     "code": '''
import math

saturated_weight = 1.0 / (1.0 + math.exp(math.sqrt(16)))
'''},

    # ----------------------------------------------------------------- score_std
    {"exercise": "score_std", "kind": "correct",
     "idea": "variance adds over the d_k independent unit-variance products; std = sqrt(256)",
     "code": '''
import math

d_k = 256
score_std = math.sqrt(d_k * 1.0 * 1.0)
'''},
    {"exercise": "score_std", "kind": "robustness",
     "idea": "the right value as a numpy.float32 scalar built from a 256-element array of "
             "per-product variances",
     "code": '''
import numpy as np

score_std = np.sqrt(np.ones(256, dtype=np.float32).sum())
'''},
    {"exercise": "score_std", "kind": "wrong",
     "mistake": "Answered with the variance, d_k = 256, instead of its square root.",
     "teacher_says": "The variance is 256; the standard deviation is its square root.",
     "code": '''
score_std = 256
'''},
    {"exercise": "score_std", "kind": "wrong",
     "mistake": "Answered 1, the standard deviation after dividing by sqrt(d_k), although the "
                "question asks before any scaling.",
     "teacher_says": "1 is what the scaling gives you; the raw dot product is sqrt(d_k) "
                     "times larger.",
     "code": '''
score_std = 1.0
'''},
    {"exercise": "score_std", "kind": "wrong",
     "mistake": "Took Var(q_c k_c) = Var(q_c) + Var(k_c) = 2 (adding variances of a "
                "product), so got sqrt(2 * 256).",
     "teacher_says": "For independent zero-mean factors the variance of a product is the "
                     "product of the variances, 1 * 1 = 1.",
     "code": '''
import math

score_std = math.sqrt(2 * 256)
'''},
]

_WRITER_A = ANSWERS

"""Writer E, chapter 01 (scaled dot-product attention): blind student answers."""

ANSWERS = [
    # ------------------------------------------------------------------ softmax
    {
        "exercise": "softmax",
        "kind": "correct",
        "idea": "log-sum-exp form: shift by the max, then exp(shifted - log(sum(exp(shifted)))), keeping the dtype",
        "code": '''
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x)
    shifted = x - np.max(x, axis=axis, keepdims=True)  # every entry <= 0
    log_total = np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))
    return np.exp(shifted - log_total)
''',
    },
    {
        "exercise": "softmax",
        "kind": "robustness",
        "idea": "moves the axis to the end and loops over every slice in pure Python (math.exp "
        "in float64), then writes the results back into an array of the input's dtype",
        "code": '''
import math
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x)
    moved = np.moveaxis(x, axis, -1)
    out = np.empty(moved.shape, dtype=x.dtype)
    for index in np.ndindex(*moved.shape[:-1]):
        row = [float(value) for value in moved[index]]
        top = max(row)
        exps = [math.exp(value - top) for value in row]
        total = sum(exps)
        for j, e in enumerate(exps):
            out[index + (j,)] = e / total
    return np.moveaxis(out, -1, axis)
''',
    },
    {
        "exercise": "softmax",
        "kind": "wrong",
        "mistake": "Subtracts the maximum of the whole array (x.max() with no axis) instead of each "
        "slice's maximum; a slice far below the global maximum underflows to 0/0.",
        "teacher_says": "The shift must be each slice's own maximum (np.max(x, axis=axis, "
        "keepdims=True)): with one global shift, a row whose scores are 1000 below another row's "
        "gets exp(-1000) = 0 everywhere and a NaN softmax.",
        "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x))
    return e / np.sum(e, axis=axis, keepdims=True)
''',
    },
    {
        "exercise": "softmax",
        "kind": "wrong",
        "mistake": "Forgets keepdims=True on the sum, so the (reduced) denominator broadcasts "
        "against the wrong axis: a shape error for most shapes, silently wrong numbers for a "
        "square matrix.",
        "teacher_says": "Without keepdims the sum loses its axis and broadcasts along the last "
        "axis instead of the reduced one; keep the reduced axis with keepdims=True.",
        "code": '''
import numpy as np

def softmax(x, axis=-1):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=axis)
''',
    },
    {
        "exercise": "softmax",
        "kind": "wrong",
        "mistake": "Converts the input to float64 'to be safe' (np.asarray(x, dtype=float)) and "
        "never converts back, so a float32 input returns a float64 array.",
        "teacher_says": "The softmax must return the input's dtype: float32 in, float32 out; "
        "compute in the input's dtype or cast the result back with .astype(x.dtype).",
        "code": '''
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
''',
    },
    # ------------------------------------------------- scaled_dot_product_attention
    {
        "exercise": "scaled_dot_product_attention",
        "kind": "correct",
        "idea": "einsum for both products, -inf where masked, a guarded division that leaves "
        "fully masked rows at zero",
        "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = np.einsum("...id,...jd->...ij", q, k) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = np.max(scores, axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(scores - top)
    total = np.sum(e, axis=-1, keepdims=True)
    weights = np.divide(e, total, out=np.zeros_like(e), where=total > 0)
    out = np.einsum("...ij,...jd->...id", weights, v)
    return out, weights
''',
    },
    {
        "exercise": "scaled_dot_product_attention",
        "kind": "robustness",
        "idea": "loops in Python over every batch index and every query, each row computed "
        "separately in float64, then cast back to the input dtype",
        "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    *batch, n_q, d_k = q.shape
    n_k, d_v = k.shape[-2], v.shape[-1]
    if mask is None:
        full_mask = np.ones((*batch, n_q, n_k), dtype=bool)
    else:
        full_mask = np.broadcast_to(mask, (*batch, n_q, n_k))
    weights = np.zeros((*batch, n_q, n_k), dtype=np.float64)
    out = np.zeros((*batch, n_q, d_v), dtype=np.float64)
    for b in np.ndindex(*batch):
        qb = q[b].astype(np.float64)
        kb = k[b].astype(np.float64)
        vb = v[b].astype(np.float64)
        for i in range(n_q):
            allowed = [j for j in range(n_k) if full_mask[b + (i, j)]]
            if not allowed:
                continue  # no key: zero weights, zero output
            raw = {j: float(qb[i] @ kb[j]) / math.sqrt(d_k) for j in allowed}
            top = max(raw.values())
            exps = {j: math.exp(s - top) for j, s in raw.items()}
            total = sum(exps.values())
            for j, e in exps.items():
                weights[b + (i, j)] = e / total
            out[b + (i,)] = weights[b + (i,)] @ vb
    return out.astype(q.dtype), weights.astype(q.dtype)
''',
    },
    {
        "exercise": "scaled_dot_product_attention",
        "kind": "wrong",
        "mistake": "Writes the scale as d_k ** 1/2, which Python reads as (d_k ** 1) / 2: the "
        "scores are divided by d_k/2 instead of sqrt(d_k).",
        "teacher_says": "** binds tighter than /, so d_k ** 1/2 is d_k/2; write d_k ** 0.5 or "
        "math.sqrt(d_k).",
        "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / d_k ** 1/2
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    has_key = np.isfinite(scores).any(axis=-1, keepdims=True)
    scores = np.where(has_key, scores, 0.0)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    weights = np.where(has_key, weights, 0.0)
    return weights @ v, weights
''',
    },
    {
        "exercise": "scaled_dot_product_attention",
        "kind": "wrong",
        "mistake": "Masks with a large negative number (-1e9) instead of -inf, so a query whose "
        "keys are all masked gets uniform weights 1/n_k and the mean of the values, not zeros.",
        "teacher_says": "A finite fill value makes a fully masked row uniform after the softmax; "
        "the book's convention is zero weights and a zero output there, so detect rows with no "
        "allowed key (mask.any(axis=-1)) and zero them.",
        "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -1e9)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ v, weights
''',
    },
    {
        "exercise": "scaled_dot_product_attention",
        "kind": "wrong",
        "mistake": "Transposes K with k.T, which reverses every axis; without batch axes it is "
        "right, with a batch axis the product fails (or, for lucky sizes, mixes batch entries).",
        "teacher_says": ".T reverses all the axes of a 3-D or 4-D array; to transpose only the "
        "last two use np.swapaxes(k, -1, -2).",
        "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.T / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    row_max = scores.max(axis=-1, keepdims=True)
    row_max = np.where(np.isfinite(row_max), row_max, 0.0)
    e = np.exp(scores - row_max)
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total == 0, 1.0, total)
    return weights @ v, weights
''',
    },
    # ----------------------------------------------------------- temperature_of
    {
        "exercise": "temperature_of",
        "kind": "correct",
        "idea": "anchor each row at its largest weight: log w_j - log w_max = (s_j - s_max)/T "
        "exactly, then a least-squares fit through the origin over all kept entries",
        "code": '''
import numpy as np

def temperature_of(scores, weights):
    scores = np.asarray(scores, dtype=np.float64)
    weights = np.asarray(weights, dtype=np.float64)
    keep = weights > 0
    best = np.argmax(weights, axis=-1)[..., None]
    ds = scores - np.take_along_axis(scores, best, axis=-1)
    log_w = np.log(np.where(keep, weights, 1.0))
    dl = log_w - np.take_along_axis(log_w, best, axis=-1)
    ds = np.where(keep, ds, 0.0)
    dl = np.where(keep, dl, 0.0)
    return float(np.sum(ds * ds) / np.sum(ds * dl))
''',
    },
    {
        "exercise": "temperature_of",
        "kind": "robustness",
        "idea": "the recipe written with Python loops over rows and lists of floats, centring "
        "each row by hand",
        "code": '''
import math
import numpy as np

def temperature_of(scores, weights):
    s_rows = np.asarray(scores, dtype=np.float64).reshape(-1, np.shape(scores)[-1]).tolist()
    w_rows = np.asarray(weights, dtype=np.float64).reshape(-1, np.shape(weights)[-1]).tolist()
    num = 0.0
    den = 0.0
    for s_row, w_row in zip(s_rows, w_rows):
        pairs = [(s, math.log(w)) for s, w in zip(s_row, w_row) if w > 0]
        s_mean = sum(s for s, _ in pairs) / len(pairs)
        l_mean = sum(l for _, l in pairs) / len(pairs)
        for s, l in pairs:
            num += (s - s_mean) ** 2
            den += (s - s_mean) * (l - l_mean)
    return num / den
''',
    },
    {
        "exercise": "temperature_of",
        "kind": "wrong",
        "mistake": "Follows the recipe but never drops the weights that underflowed to 0: their "
        "logarithm is -inf, the means become -inf and the estimate is NaN.",
        "teacher_says": "A weight of exactly 0 says nothing about T and has no logarithm: keep "
        "only the entries with weights > 0 before taking logs and means.",
        "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = scores - scores.mean(axis=-1, keepdims=True)
    log_w = np.log(weights)
    l = log_w - log_w.mean(axis=-1, keepdims=True)
    return float((s * s).sum() / (s * l).sum())
''',
    },
    {
        "exercise": "temperature_of",
        "kind": "wrong",
        "mistake": "Inverts the least-squares ratio: sum(s*l)/sum(s^2) is the slope of l against "
        "s, i.e. 1/T, not T.",
        "teacher_says": "l = s/T, so the fitted slope sum(s l)/sum(s^2) is 1/T; T is its "
        "reciprocal, sum(s^2)/sum(s l).",
        "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    log_w = np.log(np.where(keep, weights, 1.0))
    count = keep.sum(axis=-1, keepdims=True)
    s_mean = np.where(keep, scores, 0.0).sum(axis=-1, keepdims=True) / count
    l_mean = np.where(keep, log_w, 0.0).sum(axis=-1, keepdims=True) / count
    s = np.where(keep, scores - s_mean, 0.0)
    l = np.where(keep, log_w - l_mean, 0.0)
    return float((s * l).sum() / (s * s).sum())
''',
    },
    {
        "exercise": "temperature_of",
        "kind": "wrong",
        "mistake": "Centres the scores and log-weights with one mean over the whole array instead "
        "of one mean per row, so each row's log-sum-exp constant does not cancel.",
        "teacher_says": "The constant log sum_l exp(s_l/T) differs from row to row; subtract "
        "each row's own mean (axis=-1) so that it cancels within the row.",
        "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    s_kept = scores[keep]
    l_kept = np.log(weights[keep])
    s = s_kept - s_kept.mean()
    l = l_kept - l_kept.mean()
    return float(np.sum(s * s) / np.sum(s * l))
''',
    },
    # --------------------------------------------------------- saturated_weight
    {
        "exercise": "saturated_weight",
        "kind": "correct",
        "idea": "divide numerator and denominator by e^s: e^-16 / (1 + e^-16)",
        "code": '''
import math

saturated_weight = math.exp(-16) / (1 + math.exp(-16))
''',
    },
    {
        "exercise": "saturated_weight",
        "kind": "robustness",
        "idea": "a two-entry float32 softmax of raw scores (s, s - 16) with s = 100, the lower "
        "key's weight taken out as a NumPy float32 scalar",
        "code": '''
import numpy as np

raw = np.array([100.0, 100.0 - 16.0], dtype=np.float32)
e = np.exp(raw - raw.max())
saturated_weight = (e / e.sum())[1]
''',
    },
    {
        "exercise": "saturated_weight",
        "kind": "wrong",
        "mistake": "Gives the weight of the key with the higher score, 1/(1 + e^-16), which is "
        "almost 1.",
        "teacher_says": "The question asks for the lower-scored key: its weight is "
        "e^(s-16)/(e^s + e^(s-16)) = 1/(1 + e^16), tiny, not nearly 1.",
        "code": '''
import math

saturated_weight = 1 / (1 + math.exp(-16))
''',
    },
    {
        "exercise": "saturated_weight",
        "kind": "wrong",
        "mistake": "Divides the difference by sqrt(d_k) = 16 before the softmax, answering for "
        "scaled scores (a difference of 1) although the exercise asks about raw scores.",
        "teacher_says": "The exercise is about the unscaled softmax: the two raw scores differ "
        "by 16, not by 16/sqrt(256) = 1.",
        "code": '''
import math

saturated_weight = math.exp(-16 / math.sqrt(256)) / (1 + math.exp(-16 / math.sqrt(256)))
''',
    },
    {
        "exercise": "saturated_weight",
        "kind": "wrong",
        "mistake": "Leaves out the parentheses around the denominator: math.exp(-16) / 1 + "
        "math.exp(-16) is 2 e^-16, twice the weight.",
        "teacher_says": "Division binds tighter than addition: write e^-16 / (1 + e^-16) with "
        "the denominator in parentheses.",
        "code": '''
import math

saturated_weight = math.exp(-16) / 1 + math.exp(-16)
''',
    },
    # ---------------------------------------------------------------- score_std
    {
        "exercise": "score_std",
        "kind": "correct",
        "idea": "variance d_k of a sum of d_k unit-variance products, std its square root",
        "code": '''
import math

d_k = 256
score_std = math.sqrt(d_k * 1.0 * 1.0)
''',
    },
    {
        "exercise": "score_std",
        "kind": "robustness",
        "idea": "adds up the 256 unit variances in a Python loop and delivers the square root as "
        "a NumPy float32 scalar",
        "code": '''
import math
import numpy as np

variance = 0.0
for _ in range(256):
    variance += 1.0 * 1.0  # Var[q_c k_c] = E[q_c^2] E[k_c^2]
score_std = np.float32(math.sqrt(variance))
''',
    },
    {
        "exercise": "score_std",
        "kind": "wrong",
        "mistake": "Gives the variance of q.k, d_k = 256, instead of its standard deviation.",
        "teacher_says": "The sum of 256 unit-variance terms has variance 256; the standard "
        "deviation is its square root, 16.",
        "code": '''
score_std = 256
''',
    },
    {
        "exercise": "score_std",
        "kind": "wrong",
        "mistake": "Answers with the standard deviation after the division by sqrt(d_k), 1, "
        "although the question asks before any scaling.",
        "teacher_says": "1 is the std of q.k/sqrt(d_k); before the scaling it is sqrt(d_k) = 16.",
        "code": '''
import math

score_std = math.sqrt(256) / math.sqrt(256)
''',
    },
    {
        "exercise": "score_std",
        "kind": "wrong",
        "mistake": "Takes Var[q_c k_c] = Var[q_c] + Var[k_c] = 2 (adding the variances as for "
        "a sum), so gets sqrt(2 * 256) ~ 22.6.",
        "teacher_says": "For independent zero-mean factors the variance of a product is the "
        "product of the variances, 1 * 1 = 1, not their sum.",
        "code": '''
import math

score_std = math.sqrt(256 * (1 + 1))
''',
    },
]

_WRITER_E = ANSWERS
ANSWERS = _WRITER_A + _WRITER_E
