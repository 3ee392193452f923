# writer A's answers, then writer E's (each file verbatim)
"""Writer A, chapter 01 (scaled dot-product attention): blind student answers."""

ANSWERS = [
    # ------------------------------------------------------------------ softmax
    {"exercise": "softmax", "kind": "correct",
     "idea": "log-sum-exp form: exp(x - logsumexp(x)), with the max pulled out of the log",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    m = np.amax(x, axis=axis, keepdims=True)
    log_total = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return np.exp(x - log_total)
'''},
    {"exercise": "softmax", "kind": "robustness",
     "idea": "moves the axis last, flattens to rows and loops over every row and entry with "
             "math.exp in pure Python, then casts back to the input dtype",
     "code": '''
import math
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x)
    moved = np.moveaxis(x, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    out = np.empty(rows.shape, dtype=np.float64)
    for r in range(rows.shape[0]):
        row = [float(val) for val in rows[r]]
        top = max(row)
        exps = [math.exp(val - top) for val in row]
        total = sum(exps)
        for c in range(len(exps)):
            out[r, c] = exps[c] / total
    out = out.reshape(moved.shape)
    return np.moveaxis(out, -1, axis).astype(x.dtype)
'''},
    {"exercise": "softmax", "kind": "wrong",
     "mistake": "Implements the textbook formula directly, without subtracting the maximum, so "
                "exp overflows to inf for scores around 1000 and the result is nan.",
     "teacher_says": "Shift each slice by its maximum before exp: the softmax is unchanged and "
                     "nothing can overflow.",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong",
     "mistake": "Subtracts the maximum along `axis` but normalises with a sum over the last "
                "axis, whatever `axis` is: only axis=-1 is right.",
     "teacher_says": "Every reduction must use the same `axis` argument; test your function "
                     "with axis=0 on a 2-D array.",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong",
     "mistake": "Takes the maximum without keepdims=True, so the maxima broadcast against the "
                "wrong axis (or the shapes clash) for arrays with more than one dimension.",
     "teacher_says": "Keep the reduced axis with keepdims=True so that each slice's maximum "
                     "lines up with that slice.",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    shifted = x - np.max(x, axis=axis)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)
'''},
    # ------------------------------------------- scaled_dot_product_attention
    {"exercise": "scaled_dot_product_attention", "kind": "correct",
     "idea": "einsum with an ellipsis for the scores, a masked softmax that keeps fully "
             "masked rows at zero through a guarded denominator",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = np.einsum("...id,...jd->...ij", q, k) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total > 0, total, 1.0)
    weights = weights.astype(q.dtype, copy=False)
    return weights @ v, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "robustness",
     "idea": "loops in Python over every batch index and every query row, computing each row "
             "in float64 and writing it into preallocated arrays of the input dtype",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    n_q, n_k, d_v = q.shape[-2], k.shape[-2], v.shape[-1]
    q = np.broadcast_to(q, (*batch, *q.shape[-2:]))
    k = np.broadcast_to(k, (*batch, *k.shape[-2:]))
    v = np.broadcast_to(v, (*batch, *v.shape[-2:]))
    if mask is None:
        allowed = np.ones((*batch, n_q, n_k), dtype=bool)
    else:
        allowed = np.broadcast_to(mask, (*batch, n_q, n_k))
    out = np.zeros((*batch, n_q, d_v), dtype=q.dtype)
    weights = np.zeros((*batch, n_q, n_k), dtype=q.dtype)
    scale = 1.0 / math.sqrt(q.shape[-1])
    for b in np.ndindex(*batch):
        for i in range(n_q):
            keep = [j for j in range(n_k) if allowed[b][i, j]]
            if not keep:
                continue  # no key allowed: zero weights, zero output
            s = np.array([float(np.dot(q[b][i].astype(np.float64),
                                       k[b][j].astype(np.float64))) * scale
                          for j in keep])
            p = np.exp(s - s.max())
            p = p / p.sum()
            row = np.zeros(n_k)
            row[keep] = p
            weights[b][i] = row
            out[b][i] = row @ v[b].astype(np.float64)
    return out, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong",
     "mistake": "Masks with -inf and applies the plain stable softmax: a query whose mask row "
                "has no True gets -inf - (-inf) = nan weights and a nan output.",
     "teacher_says": "Handle the fully masked row explicitly (e.g. with mask.any(axis=-1)) so "
                     "it gets zero weights instead of 0/0.",
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
    {"exercise": "scaled_dot_product_attention", "kind": "wrong",
     "mistake": "Transposes the keys with `.T`, which reverses all axes: fine for 2-D inputs, "
                "but with batch axes the product raises or mixes batch and feature axes.",
     "teacher_says": "Use np.swapaxes(k, -1, -2) (or k.swapaxes(-1, -2)) so only the last two "
                     "axes are swapped and the batch axes stay in place.",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = q @ k.T / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    s = e.sum(axis=-1, keepdims=True)
    weights = np.where(s > 0, e / np.where(s > 0, s, 1.0), 0.0).astype(q.dtype)
    return weights @ v, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong",
     "mistake": "Scales by the square root of the value width d_v (v.shape[-1]) instead of the "
                "query/key width d_k: right only when d_v == d_k.",
     "teacher_says": "The scale comes from the dot product q.k, whose length is d_k = "
                     "q.shape[-1]; the values' width plays no part in it.",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scale = np.sqrt(v.shape[-1])
    scores = np.matmul(q, np.swapaxes(k, -1, -2)) / scale
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isneginf(m), 0.0, m)
    e = np.exp(scores - m)
    s = np.sum(e, axis=-1, keepdims=True)
    weights = (e / np.where(s == 0, 1.0, s)).astype(q.dtype)
    return weights @ v, weights
'''},
    # ------------------------------------------------------------ temperature_of
    {"exercise": "temperature_of", "kind": "correct",
     "idea": "differences to each row's largest weight (its log is the row's max), then a "
             "least-squares slope through the origin over every positive weight",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    scores = np.asarray(scores, dtype=np.float64)
    weights = np.asarray(weights, dtype=np.float64)
    keep = weights > 0
    with np.errstate(divide="ignore"):
        logw = np.log(weights)
    ref = np.argmax(weights, axis=-1)[..., None]
    ds = scores - np.take_along_axis(scores, ref, axis=-1)
    dl = logw - np.take_along_axis(logw, ref, axis=-1)
    ds, dl = ds[keep], dl[keep]
    return float(np.dot(ds, ds) / np.dot(ds, dl))
'''},
    {"exercise": "temperature_of", "kind": "robustness",
     "idea": "pure-Python loops over the rows: per row, centre the kept scores and log-weights "
             "and accumulate the two sums with math.fsum",
     "code": '''
import math
import numpy as np

def temperature_of(scores, weights):
    s_rows = np.asarray(scores, dtype=np.float64).reshape(-1, np.shape(scores)[-1]).tolist()
    w_rows = np.asarray(weights, dtype=np.float64).reshape(-1, np.shape(weights)[-1]).tolist()
    num_terms, den_terms = [], []
    for s_row, w_row in zip(s_rows, w_rows):
        pairs = [(s, math.log(w)) for s, w in zip(s_row, w_row) if w > 0.0]
        s_mean = math.fsum(p[0] for p in pairs) / len(pairs)
        l_mean = math.fsum(p[1] for p in pairs) / len(pairs)
        for s, l in pairs:
            num_terms.append((s - s_mean) * (s - s_mean))
            den_terms.append((s - s_mean) * (l - l_mean))
    return math.fsum(num_terms) / math.fsum(den_terms)
'''},
    {"exercise": "temperature_of", "kind": "wrong",
     "mistake": "Takes the logarithm of every weight, including those that underflowed to "
                "exactly 0: log(0) = -inf poisons the centring and the estimate becomes nan "
                "(or 0).",
     "teacher_says": "A weight of exactly 0 carries no information about T; keep only the "
                     "weights above 0 before taking logs.",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    logw = np.log(weights)
    s = scores - scores.mean(axis=-1, keepdims=True)
    l = logw - logw.mean(axis=-1, keepdims=True)
    return np.sum(s * s) / np.sum(s * l)
'''},
    {"exercise": "temperature_of", "kind": "wrong",
     "mistake": "Sets up the least-squares fit the wrong way round and returns "
                "sum(s*l) / sum(s*s), which is the slope 1/T, not T.",
     "teacher_says": "log w = s / T, so the fitted slope of log-weights on scores is 1/T: "
                     "invert it (T = sum s^2 / sum s l).",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    logw = np.where(keep, np.log(np.where(keep, weights, 1.0)), 0.0)
    count = keep.sum(axis=-1, keepdims=True)
    s = np.where(keep, scores - (scores * keep).sum(-1, keepdims=True) / count, 0.0)
    l = np.where(keep, logw - logw.sum(-1, keepdims=True) / count, 0.0)
    return float(np.sum(s * l) / np.sum(s * s))
'''},
    {"exercise": "temperature_of", "kind": "wrong",
     "mistake": "Centres the scores and the log-weights with one mean over the whole array "
                "instead of per row, so the rows' different normalising constants log Z do "
                "not cancel and the estimate is off when there are several rows.",
     "teacher_says": "The log-sum-exp term is constant only within a row: subtract the mean of "
                     "each row separately (axis=-1, keepdims=True).",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    s = scores[keep]
    l = np.log(weights[keep])
    s = s - s.mean()
    l = l - l.mean()
    return float((s @ s) / (s @ l))
'''},
    # ---------------------------------------------------------- saturated_weight
    {"exercise": "saturated_weight", "kind": "correct",
     "idea": "the two-key softmax is a logistic: the lower key gets 1 / (1 + e^16)",
     "code": '''
import math

saturated_weight = 1.0 / (1.0 + math.exp(16))
'''},
    {"exercise": "saturated_weight", "kind": "robustness",
     "idea": "computes a float32 softmax of the two raw scores with NumPy and keeps the "
             "result as a NumPy float32 scalar",
     "code": '''
import numpy as np

_scores = np.array([16.0, 0.0], dtype=np.float32)
_e = np.exp(_scores - _scores.max())
saturated_weight = (_e / _e.sum())[1]
'''},
    {"exercise": "saturated_weight", "kind": "wrong",
     "mistake": "Gives the weight of the key with the higher score, 1 / (1 + e^-16), instead "
                "of the lower one.",
     "teacher_says": "Read the question again: it asks for the key with the lower score, which "
                     "gets almost nothing.",
     "code": '''
import math

saturated_weight = 1 / (1 + math.exp(-16))
'''},
    {"exercise": "saturated_weight", "kind": "wrong",
     "mistake": "Divides the difference by sqrt(d_k) = 16 as in the scaled attention, so it "
                "computes the softmax of scores differing by 1, not of the raw scores.",
     "teacher_says": "The question is about the unscaled softmax: use the raw difference of 16.",
     "code": '''
import math

difference = 16 / math.sqrt(256)
saturated_weight = math.exp(-difference) / (1 + math.exp(-difference))
'''},
    {"exercise": "saturated_weight", "kind": "wrong",
     "mistake": "Forgets the parentheses around the denominator: 1 / 1 + math.exp(-16) is "
                "1 + e^-16, just above 1, not a weight at all.",
     "teacher_says": "Parenthesise the whole denominator, 1 / (1 + math.exp(16)), and check "
                     "that a weight lies between 0 and 1.",
     "code": '''
import math

saturated_weight = 1 / 1 + math.exp(-16)
'''},
    # ---------------------------------------------------------------- score_std
    {"exercise": "score_std", "kind": "correct",
     "idea": "each product has variance 1, the sum of 256 has variance 256, std = 16",
     "code": '''
import math

d_k = 256
score_std = math.sqrt(d_k * 1.0 * 1.0)
'''},
    {"exercise": "score_std", "kind": "robustness",
     "idea": "the Euclidean norm of a vector of 256 unit variances' square roots, as a NumPy "
             "float64 (allocates a throwaway array)",
     "code": '''
import numpy as np

score_std = np.linalg.norm(np.ones(256))
'''},
    {"exercise": "score_std", "kind": "wrong",
     "mistake": "Answers with the variance of q.k, d_k = 256, instead of its standard "
                "deviation.",
     "teacher_says": "A sum of 256 unit-variance terms has variance 256; the standard deviation "
                     "is its square root.",
     "code": '''
score_std = 256
'''},
    {"exercise": "score_std", "kind": "wrong",
     "mistake": "Gives the standard deviation after the division by sqrt(d_k), which is 1, "
                "though the question asks before any scaling.",
     "teacher_says": "The question is about the raw score q.k; the 1 is what the scaling "
                     "brings it back to.",
     "code": '''
import math

score_std = math.sqrt(256) / math.sqrt(256)
'''},
    {"exercise": "score_std", "kind": "wrong",
     "mistake": "Adds the variances of the factors (Var q_c + Var k_c = 2) instead of "
                "multiplying them, so takes sqrt(2 * 256).",
     "teacher_says": "For independent zero-mean factors, Var(q_c k_c) = E[q_c^2] E[k_c^2] = 1: "
                     "variances of a product multiply, they do not add.",
     "code": '''
import math

score_std = math.sqrt(2 * 256)
'''},
]

_WRITER_A = ANSWERS

"""Writer E, chapter 01 (scaled dot-product attention): blind student answers."""

ANSWERS = [
    # ------------------------------------------------------------------ softmax
    {"exercise": "softmax", "kind": "correct",
     "idea": "shift by np.amax inside the exponential, then normalise in place with an in-place division",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x)
    z = np.exp(x - np.amax(x, axis=axis, keepdims=True))
    z /= np.sum(z, axis=axis, keepdims=True)
    return z
'''},
    {"exercise": "softmax", "kind": "robustness",
     "idea": "moves the axis to the end, flattens to rows and loops over every row in Python, "
             "computing in float64 and casting back to the input dtype at the end",
     "code": '''
import math
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x)
    moved = np.moveaxis(x, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1]).astype(np.float64)
    out = np.empty_like(rows)
    for r in range(rows.shape[0]):
        biggest = max(rows[r])
        exps = [math.exp(float(v) - biggest) for v in rows[r]]
        total = sum(exps)
        for c in range(rows.shape[1]):
            out[r, c] = exps[c] / total
    out = out.reshape(moved.shape)
    return np.moveaxis(out, -1, axis).astype(x.dtype)
'''},
    {"exercise": "softmax", "kind": "wrong",
     "mistake": "Subtracts the max along `axis` but the normalising sum is hard-coded to the "
                "last axis (copied from the attention cell), so any other axis is wrong.",
     "teacher_says": "Both reductions must run over the same `axis` you were given, not always -1.",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong",
     "mistake": "Exponentiates first and divides by exp(max) afterwards: mathematically the "
                "same shift, but exp(1000) already overflowed, so large scores give inf/inf = NaN.",
     "teacher_says": "The shift only helps if it happens inside the exponential: exp(x - max), not exp(x) / exp(max).",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    e = np.exp(x) / np.exp(m)
    return e / np.sum(e, axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong",
     "mistake": "Loops over the slices and fills a result made with np.zeros(x.shape), which is "
                "float64, so float32 input comes back as float64 (the statement asks for the same dtype).",
     "teacher_says": "Allocate the output with the input's dtype (np.zeros_like or dtype=x.dtype), or better, avoid the loop.",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x)
    moved = np.moveaxis(x, axis, -1)
    out = np.zeros(moved.shape)
    for idx in np.ndindex(moved.shape[:-1]):
        row = moved[idx]
        e = np.exp(row - row.max())
        out[idx] = e / e.sum()
    return np.moveaxis(out, -1, axis)
'''},

    # ------------------------------------------------- scaled_dot_product_attention
    {"exercise": "scaled_dot_product_attention", "kind": "correct",
     "idea": "einsum for both products, -inf masking, and an explicit fix of all -inf rows "
             "(finite shift, zero denominator replaced by 1)",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = np.einsum("...qd,...kd->...qk", q, k) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf).astype(scores.dtype)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0).astype(scores.dtype)
    e = np.exp(scores - top)
    denom = e.sum(axis=-1, keepdims=True)
    denom = np.where(denom > 0, denom, 1).astype(scores.dtype)
    weights = e / denom
    out = np.einsum("...qk,...kd->...qd", weights, v)
    return out, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "robustness",
     "idea": "no matmul at all: broadcasts q[..., :, None, :] * k[..., None, :, :] and "
             "weights[..., None] * v[..., None, :, :] and sums, allocating (n_q, n_k, d) tensors",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    prod = q[..., :, None, :] * k[..., None, :, :]        # (..., n_q, n_k, d_k)
    scores = prod.sum(axis=-1) / np.sqrt(q.shape[-1]).astype(q.dtype)
    if mask is None:
        allowed = np.ones(scores.shape, dtype=bool)
    else:
        allowed = np.broadcast_to(mask, scores.shape)
    filled = np.where(allowed, scores, np.finfo(scores.dtype).min)
    shifted = filled - filled.max(axis=-1, keepdims=True)
    e = np.where(allowed, np.exp(shifted), 0).astype(q.dtype)
    total = e.sum(axis=-1, keepdims=True)
    weights = np.divide(e, total, out=np.zeros_like(e), where=total > 0)
    out = (weights[..., :, :, None] * v[..., None, :, :]).sum(axis=-2)
    return out, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong",
     "mistake": "Applies the mask after the softmax (zeroing the masked weights) instead of "
                "setting the scores to -inf before it, so masked rows no longer sum to 1.",
     "teacher_says": "The mask must act on the scores before the softmax, so the remaining weights renormalise to 1.",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    if mask is not None:
        weights = np.where(mask, weights, 0.0).astype(weights.dtype)
    return weights @ v, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong",
     "mistake": "Reads d_k as q.shape[1], which is d_k only for 2-D inputs: with a batch axis it "
                "is n_q, so batched inputs are scaled by the wrong number.",
     "teacher_says": "Take the feature size from the last axis, q.shape[-1], so leading batch axes do not shift it.",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    s = e.sum(axis=-1, keepdims=True)
    weights = (e / np.where(s == 0, 1.0, s)).astype(q.dtype)
    return weights @ v, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong",
     "mistake": "Masks with a large finite negative number (-1e9) instead of -inf, so a query "
                "with no allowed key gets uniform weights 1/n_k and the mean of the values, not zeros.",
     "teacher_says": "A finite fill value cannot give a fully masked row zero weights; use -inf and treat the all-masked row explicitly.",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -1e9).astype(q.dtype)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ v, weights
'''},

    # ----------------------------------------------------------- temperature_of
    {"exercise": "temperature_of", "kind": "correct",
     "idea": "per row, differences to the row's largest weight (never 0), then one "
             "least-squares ratio over all kept entries",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = np.asarray(scores, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    keep = w > 0
    pivot = np.argmax(w, axis=-1)[..., None]
    ds = s - np.take_along_axis(s, pivot, axis=-1)
    with np.errstate(divide="ignore"):
        logw = np.log(w)
    dl = np.where(keep, logw - np.take_along_axis(logw, pivot, axis=-1), 0.0)
    ds = np.where(keep, ds, 0.0)
    return float(np.sum(ds * ds) / np.sum(ds * dl))
'''},
    {"exercise": "temperature_of", "kind": "robustness",
     "idea": "pure Python: loops over every row, builds lists of the kept entries, centres "
             "them by hand and accumulates the two sums in Python floats",
     "code": '''
import math
import numpy as np

def temperature_of(scores, weights):
    s2 = np.asarray(scores, dtype=np.float64).reshape(-1, np.shape(scores)[-1]).tolist()
    w2 = np.asarray(weights, dtype=np.float64).reshape(-1, np.shape(weights)[-1]).tolist()
    num = 0.0
    den = 0.0
    for srow, wrow in zip(s2, w2):
        kept_s = []
        kept_l = []
        for sj, wj in zip(srow, wrow):
            if wj > 0:
                kept_s.append(sj)
                kept_l.append(math.log(wj))
        ms = sum(kept_s) / len(kept_s)
        ml = sum(kept_l) / len(kept_l)
        for sj, lj in zip(kept_s, kept_l):
            num += (sj - ms) ** 2
            den += (sj - ms) * (lj - ml)
    return num / den
'''},
    {"exercise": "temperature_of", "kind": "wrong",
     "mistake": "Fits the slope of log-weights against scores and returns it; that slope is 1/T, "
                "so the answer is the reciprocal of the temperature.",
     "teacher_says": "log w = s / T + const: the slope you fitted is 1/T, so invert it (or fit s against log w).",
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
     "mistake": "Avoids log(0) by adding a small epsilon, np.log(weights + 1e-12), instead of "
                "dropping the zero weights: the underflowed entries get a made-up log-weight and "
                "bias the fit (and tiny weights are shifted too).",
     "teacher_says": "A weight that underflowed to 0 carries no information about T: leave it out rather than patching its logarithm.",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    logw = np.log(weights + 1e-12)
    s = scores - scores.mean(axis=-1, keepdims=True)
    l = logw - logw.mean(axis=-1, keepdims=True)
    return float(np.sum(s * s) / np.sum(s * l))
'''},
    {"exercise": "temperature_of", "kind": "wrong",
     "mistake": "Keeps the positive weights with boolean indexing, which flattens the array, then "
                "centres by the mean of the whole flat array: each row's own log-normaliser is "
                "not removed, so rows with different normalisers spoil the fit.",
     "teacher_says": "The constant log-sum-exp differs from row to row: centre within each row, not over the flattened array.",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    s = scores[keep]
    l = np.log(weights[keep])
    s = s - s.mean()
    l = l - l.mean()
    return float(np.dot(s, s) / np.dot(s, l))
'''},

    # --------------------------------------------------------- saturated_weight
    {"exercise": "saturated_weight", "kind": "correct",
     "idea": "two-key softmax written as a logistic of the score gap",
     "code": '''
import math

saturated_weight = 1.0 / (1.0 + math.exp(16))
'''},
    {"exercise": "saturated_weight", "kind": "robustness",
     "idea": "runs a float32 NumPy softmax on the two scores and keeps the NumPy float32 scalar",
     "code": '''
import numpy as np

_scores = np.array([16.0, 0.0], dtype=np.float32)
_e = np.exp(_scores - _scores.max())
saturated_weight = (_e / _e.sum())[1]
'''},
    {"exercise": "saturated_weight", "kind": "wrong",
     "mistake": "Gives the weight of the key with the higher score, 1/(1+e^-16), not the lower one.",
     "teacher_says": "Read the question again: the lower-scored key gets the tiny weight, about e^-16.",
     "code": '''
import math

saturated_weight = 1 / (1 + math.exp(-16))
'''},
    {"exercise": "saturated_weight", "kind": "wrong",
     "mistake": "Divides the gap by sqrt(256) = 16 first, as the chapter's attention would, so it "
                "computes the scaled softmax (gap 1) that the question explicitly excludes.",
     "teacher_says": "The question is about the raw, unscaled scores: the gap that enters the softmax is 16, not 1.",
     "code": '''
import math

gap = 16 / math.sqrt(256)
saturated_weight = math.exp(-gap) / (1 + math.exp(-gap))
'''},
    {"exercise": "saturated_weight", "kind": "wrong",
     "mistake": "Confuses the standard deviation with the variance and uses a gap of 16**2 = 256, "
                "giving about e^-256 instead of e^-16.",
     "teacher_says": "One standard deviation is 16 score units; squaring it gives the variance, which is not a score difference.",
     "code": '''
import math

saturated_weight = 1 / (1 + math.exp(16 ** 2))
'''},

    # --------------------------------------------------------------- score_std
    {"exercise": "score_std", "kind": "correct",
     "idea": "variance of a sum of d_k unit-variance products is d_k; take its root",
     "code": '''
import math

d_k = 256
score_std = math.sqrt(d_k * 1.0 * 1.0)
'''},
    {"exercise": "score_std", "kind": "robustness",
     "idea": "a NumPy float32 scalar instead of a Python number",
     "code": '''
import numpy as np

score_std = np.float32(256) ** np.float32(0.5)
'''},
    {"exercise": "score_std", "kind": "wrong",
     "mistake": "Stops at the variance of q.k, d_k = 256, and forgets to take the square root.",
     "teacher_says": "The sum has variance d_k; its standard deviation is the square root of that.",
     "code": '''
score_std = 256
'''},
    {"exercise": "score_std", "kind": "wrong",
     "mistake": "Answers with the standard deviation after the division by sqrt(d_k), 1, although "
                "the question asks before any scaling.",
     "teacher_says": "1 is what the scaling buys you; the raw dot product spreads as sqrt(d_k).",
     "code": '''
import math

score_std = math.sqrt(256) / math.sqrt(256)
'''},
    {"exercise": "score_std", "kind": "wrong",
     "mistake": "Takes the square root twice (once to go from variance to std, and again 'because "
                "attention divides by sqrt(d_k)'), giving 256 ** 0.25 = 4.",
     "teacher_says": "Variance d_k to standard deviation is one square root: sqrt(256) = 16.",
     "code": '''
import math

score_std = math.sqrt(math.sqrt(256))
'''},
]

_WRITER_E = ANSWERS
ANSWERS = _WRITER_A + _WRITER_E
