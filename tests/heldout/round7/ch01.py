ANSWERS = [
 # ------------------------------------------------------------------ softmax
 {"exercise": "softmax", "kind": "correct", "idea": "np.expand_dims on the reduced max and sum instead of keepdims",
  "code": '''
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x)
    shift = np.expand_dims(np.max(x, axis=axis), axis)
    e = np.exp(x - shift)
    total = np.expand_dims(np.sum(e, axis=axis), axis)
    return e / total
'''},
 {"exercise": "softmax", "kind": "correct", "idea": "move the axis to the end, log-sum-exp, move it back",
  "code": '''
import numpy as np

def softmax(x, axis=-1):
    z = np.moveaxis(x, axis, -1)
    m = z.max(axis=-1)[..., None]
    log_norm = m + np.log(np.exp(z - m).sum(axis=-1))[..., None]
    return np.moveaxis(np.exp(z - log_norm), -1, axis)
'''},
 {"exercise": "softmax", "kind": "wrong", "mistake": "Textbook formula without subtracting the maximum: exp overflows for scores around 1000 and the result is nan.",
  "teacher_says": "Subtract the maximum along the axis (keepdims=True) before np.exp; the softmax does not change and nothing overflows.",
  "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)
'''},
 {"exercise": "softmax", "kind": "wrong", "mistake": "Reduced the max and the sum without keepdims, so they do not broadcast back against x along the right axis.",
  "teacher_says": "Use keepdims=True in both reductions (or re-insert the axis), otherwise the shapes only line up by accident.",
  "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis))
    return e / np.sum(e, axis=axis)
'''},
 {"exercise": "softmax", "kind": "wrong", "mistake": "Normalised by the sum over the whole array instead of the sum along the axis.",
  "teacher_says": "Each slice along `axis` must sum to 1: pass axis=axis, keepdims=True to the sum.",
  "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum()
'''},
 {"exercise": "softmax", "kind": "wrong", "mistake": "Used the `axis` argument for the max but hard-coded the last axis in the sum (copied from the default case).",
  "teacher_says": "Both reductions must run along the same `axis`; the sum is still taken over -1 here.",
  "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)
'''},
 {"exercise": "softmax", "kind": "wrong", "mistake": "Shifted the numerator by the maximum but divided by the sum of the unshifted exponentials.",
  "teacher_says": "Numerator and denominator must use the same shift: sum the shifted exponentials you already computed.",
  "code": '''
import numpy as np

def softmax(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    numerator = np.exp(x - m)
    denominator = np.sum(np.exp(x), axis=axis, keepdims=True)
    return numerator / denominator
'''},
 {"exercise": "softmax", "kind": "wrong", "mistake": "Returned the log-softmax (stable formula) and forgot the final exponential.",
  "teacher_says": "x - max - log(sum exp) is log softmax; take np.exp of it to get weights that are positive and sum to 1.",
  "code": '''
import numpy as np

def softmax(x, axis=-1):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))
'''},
 {"exercise": "softmax", "kind": "robustness", "idea": "in-place computation to save memory",
  "mistake": "Subtracts, exponentiates and divides in place in the caller's array: the input is overwritten by the result.",
  "teacher_says": "Never modify the caller's array; work on a copy (x - m creates one) or use out= on a new array.",
  "code": '''
import numpy as np

def softmax(x, axis=-1):
    x -= np.max(x, axis=axis, keepdims=True)
    np.exp(x, out=x)
    x /= np.sum(x, axis=axis, keepdims=True)
    return x
'''},

 # ------------------------------------------------------------------ scaled_dot_product_attention
 {"exercise": "scaled_dot_product_attention", "kind": "correct", "idea": "einsum for both products, max-shift guarded with isfinite, division guarded where the row sum is 0",
  "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = np.einsum("...qd,...kd->...qk", q, k) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    row_max = scores.max(axis=-1, keepdims=True)
    row_max = np.where(np.isfinite(row_max), row_max, 0.0).astype(scores.dtype)
    e = np.exp(scores - row_max)
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total == 0, 1, total).astype(scores.dtype)
    out = np.einsum("...qk,...kv->...qv", weights, v)
    return out, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "correct", "idea": "scale the queries first, softmax only over allowed keys with a -inf fill, then zero the rows with no allowed key",
  "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scale = q.shape[-1] ** -0.5
    scores = (q * scale) @ np.swapaxes(k, -1, -2)
    if mask is None:
        mask = np.ones(scores.shape, dtype=bool)
    mask = np.broadcast_to(mask, scores.shape)
    has_key = mask.any(axis=-1, keepdims=True)
    safe = np.where(mask, scores, -np.inf)
    safe = np.where(has_key, safe, 0.0)
    e = np.exp(safe - safe.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    weights = np.where(has_key, weights, 0.0).astype(scores.dtype)
    return weights @ v, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "Softmax over the queries axis (-2) instead of the keys axis, so columns sum to 1 instead of rows.",
  "teacher_says": "Each query's weights over the keys must sum to 1: the softmax runs along the last axis, axis=-1.",
  "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-2, keepdims=True))
    total = e.sum(axis=-2, keepdims=True)
    weights = e / np.where(total == 0, 1, total)
    return weights @ v, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "Read the mask with the opposite polarity (True = blocked), so queries attend exactly the forbidden keys.",
  "teacher_says": "In this book True means 'may attend': keep the score where the mask is True and put -inf where it is False.",
  "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    m = scores.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(scores - m)
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total == 0, 1, total)
    return weights @ v, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "Transposed the keys with .T, which reverses every axis, batch axes included.",
  "teacher_says": "Use np.swapaxes(k, -1, -2) (or k.swapaxes(-1, -2)): .T is only the matrix transpose for 2-D arrays.",
  "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.T / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(scores - m)
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total == 0, 1, total)
    return weights @ v, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "Scaled by the square root of the values' width d_v instead of the queries'/keys' width d_k.",
  "teacher_says": "The scaling comes from the dot product q.k, whose length is d_k = q.shape[-1]; v's width plays no part in it.",
  "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d = v.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(scores - m)
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total == 0, 1, total)
    return weights @ v, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "Applied the mask to the weights after the softmax, so the allowed weights no longer sum to 1.",
  "teacher_says": "Mask the scores before the softmax (np.where(mask, scores, -np.inf)); zeroing weights afterwards leaves the rows unnormalised.",
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
 {"exercise": "scaled_dot_product_attention", "kind": "wrong", "mistake": "Filled forbidden scores with -1e9 instead of handling rows with no allowed key: such a query gets uniform weights and the mean of the values instead of zeros.",
  "teacher_says": "A large negative fill is fine for partly masked rows, but a fully masked row then becomes uniform; detect rows with mask.any(axis=-1) False and give them zero weights.",
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
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "robustness", "idea": "pure-Python triple loop over batch entries, queries and keys",
  "mistake": "Correct numbers, but computed with Python loops over every (batch, query, key) entry: very slow on realistic sizes.",
  "teacher_says": "Use matrix products (q @ swapaxes(k)) and vectorised softmax; Python loops over entries are orders of magnitude slower.",
  "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    n_q, n_k, d_k, d_v = q.shape[-2], k.shape[-2], q.shape[-1], v.shape[-1]
    qb = np.broadcast_to(q, batch + q.shape[-2:])
    kb = np.broadcast_to(k, batch + k.shape[-2:])
    vb = np.broadcast_to(v, batch + v.shape[-2:])
    full_mask = np.ones(batch + (n_q, n_k), dtype=bool) if mask is None else np.broadcast_to(mask, batch + (n_q, n_k))
    out = np.zeros(batch + (n_q, d_v), dtype=q.dtype)
    weights = np.zeros(batch + (n_q, n_k), dtype=q.dtype)
    for b in np.ndindex(*batch):
        for i in range(n_q):
            row = []
            for j in range(n_k):
                if full_mask[b + (i, j)]:
                    s = 0.0
                    for c in range(d_k):
                        s += float(qb[b + (i, c)]) * float(kb[b + (j, c)])
                    row.append(s / math.sqrt(d_k))
                else:
                    row.append(None)
            allowed = [s for s in row if s is not None]
            if not allowed:
                continue
            m = max(allowed)
            exps = [0.0 if s is None else math.exp(s - m) for s in row]
            total = sum(exps)
            for j in range(n_k):
                w = exps[j] / total
                weights[b + (i, j)] = w
                for c in range(d_v):
                    out[b + (i, c)] += w * vb[b + (j, c)]
    return out, weights
'''},

 # ------------------------------------------------------------------ temperature_of
 {"exercise": "temperature_of", "kind": "correct", "idea": "loop over the rows, accumulate the least-squares sums over the kept entries of each row",
  "code": '''
import numpy as np

def temperature_of(scores, weights):
    s_all = np.asarray(scores, dtype=np.float64).reshape(-1, np.shape(scores)[-1])
    w_all = np.asarray(weights, dtype=np.float64).reshape(-1, np.shape(weights)[-1])
    num = 0.0
    den = 0.0
    for s_row, w_row in zip(s_all, w_all):
        keep = w_row > 0
        if keep.sum() < 2:
            continue
        s = s_row[keep] - s_row[keep].mean()
        l = np.log(w_row[keep])
        l = l - l.mean()
        num += np.dot(s, s)
        den += np.dot(s, l)
    return float(num / den)
'''},
 {"exercise": "temperature_of", "kind": "correct", "idea": "differences to each row's largest weight (a reference entry), then one regression through the origin over every kept entry",
  "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    ref = np.argmax(weights, axis=-1)[..., None]
    ds = scores - np.take_along_axis(scores, ref, axis=-1)
    with np.errstate(divide="ignore"):
        logw = np.log(weights)
    dl = logw - np.take_along_axis(logw, ref, axis=-1)
    ds = ds[keep]
    dl = dl[keep]
    return np.sum(ds * ds) / np.sum(ds * dl)
'''},
 {"exercise": "temperature_of", "kind": "wrong", "mistake": "Fitted the log-weights against the scores the wrong way round and returned the slope 1/T instead of T.",
  "teacher_says": "log w = s / T + const, so the slope of log w against s is 1/T: invert it (sum s^2 / sum s*l), or fit s against log w.",
  "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    s = np.where(keep, scores, 0.0)
    with np.errstate(divide="ignore"):
        l = np.where(keep, np.log(weights), 0.0)
    count = keep.sum(axis=-1, keepdims=True)
    s = np.where(keep, s - s.sum(axis=-1, keepdims=True) / count, 0.0)
    l = np.where(keep, l - l.sum(axis=-1, keepdims=True) / count, 0.0)
    return np.sum(s * l) / np.sum(s * s)
'''},
 {"exercise": "temperature_of", "kind": "wrong", "mistake": "Did not leave out the weights that underflowed to 0: their logarithm is -inf and poisons the fit.",
  "teacher_says": "Keep only the entries with weights > 0 (and centre over those): a weight of exactly 0 says nothing about T.",
  "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = scores - scores.mean(axis=-1, keepdims=True)
    l = np.log(weights)
    l = l - l.mean(axis=-1, keepdims=True)
    return np.sum(s * s) / np.sum(s * l)
'''},
 {"exercise": "temperature_of", "kind": "wrong", "mistake": "Centred the log-weights per row but not the scores, so the numerator sum of s^2 includes the rows' means.",
  "teacher_says": "Both s and log w must be centred over the kept entries of each row before the least-squares fit T = sum s^2 / sum s*l.",
  "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    with np.errstate(divide="ignore"):
        l = np.where(keep, np.log(weights), 0.0)
    count = keep.sum(axis=-1, keepdims=True)
    l = np.where(keep, l - l.sum(axis=-1, keepdims=True) / count, 0.0)
    s = np.where(keep, scores, 0.0)
    return np.sum(s * s) / np.sum(s * l)
'''},
 {"exercise": "temperature_of", "kind": "wrong", "mistake": "Took base-10 logarithms of the weights, so the estimate is off by a factor ln(10).",
  "teacher_says": "The softmax uses e: log w = s/T - log Z holds for the natural logarithm, np.log, not np.log10.",
  "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    total_ss = 0.0
    total_sl = 0.0
    for s_row, w_row, k_row in zip(scores.reshape(-1, scores.shape[-1]), weights.reshape(-1, weights.shape[-1]), keep.reshape(-1, keep.shape[-1])):
        s = s_row[k_row] - s_row[k_row].mean()
        l = np.log10(w_row[k_row])
        l = l - l.mean()
        total_ss += (s * s).sum()
        total_sl += (s * l).sum()
    return total_ss / total_sl
'''},
 {"exercise": "temperature_of", "kind": "wrong", "mistake": "Centred over the whole array instead of per row, so each row's log-normaliser log Z does not cancel.",
  "teacher_says": "The constant log sum exp(s/T) differs from row to row: subtract each row's own mean (over its kept entries), not one global mean.",
  "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    s = scores[keep]
    l = np.log(weights[keep])
    s = s - s.mean()
    l = l - l.mean()
    return float(np.sum(s ** 2) / np.sum(s * l))
'''},
 {"exercise": "temperature_of", "kind": "robustness", "idea": "replace the zero weights by 1 in place to avoid log(0)",
  "mistake": "Right estimate, but it writes into the caller's `weights` array (the zeros become ones) to dodge log(0).",
  "teacher_says": "Do not modify the inputs; select the kept entries with a boolean mask or np.where on a copy.",
  "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    weights[~keep] = 1.0
    l = np.log(weights)
    count = keep.sum(axis=-1, keepdims=True)
    s = np.where(keep, scores, 0.0)
    l = np.where(keep, l, 0.0)
    s = np.where(keep, s - s.sum(axis=-1, keepdims=True) / count, 0.0)
    l = np.where(keep, l - l.sum(axis=-1, keepdims=True) / count, 0.0)
    return float((s * s).sum() / (s * l).sum())
'''},

 # ------------------------------------------------------------------ saturated_weight
 {"exercise": "saturated_weight", "kind": "correct", "idea": "divide numerator and denominator by e^s: e^-16 / (1 + e^-16)",
  "code": '''
import math

saturated_weight = math.exp(-16) / (1 + math.exp(-16))
'''},
 {"exercise": "saturated_weight", "kind": "correct", "idea": "run the book's softmax on the two raw scores and take the lower one's weight",
  "code": '''
import numpy as np
import mha

two_scores = np.array([3.0, 3.0 - 16.0])
saturated_weight = float(mha.softmax(two_scores)[1])
'''},
 {"exercise": "saturated_weight", "kind": "wrong", "mistake": "Divided the difference by sqrt(d_k) = 16 although the exercise is about the raw, unscaled scores.",
  "teacher_says": "The question is about the raw scores: the difference is 16, not 16/sqrt(256) = 1.",
  "code": '''
import math

difference = 16 / math.sqrt(256)
saturated_weight = 1 / (1 + math.exp(difference))
'''},
 {"exercise": "saturated_weight", "kind": "wrong", "mistake": "Gave the weight of the key with the higher score instead of the lower one.",
  "teacher_says": "The higher key takes almost everything; the question asks for the lower key's weight, e^-16 / (1 + e^-16).",
  "code": '''
import math

saturated_weight = 1 / (1 + math.exp(-16))
'''},
 {"exercise": "saturated_weight", "kind": "wrong", "mistake": "Confused the standard deviation with the variance and used a score difference of 256.",
  "teacher_says": "One standard deviation is 16 (the variance is 256): the difference of the two scores is 16.",
  "code": '''
import math

saturated_weight = math.exp(-256) / (1 + math.exp(-256))
'''},
 {"exercise": "saturated_weight", "kind": "wrong", "mistake": "Answered with the log of the weight (the score difference) instead of the weight itself.",
  "teacher_says": "The softmax turns the difference -16 into a weight: exponentiate, e^-16 / (1 + e^-16), a number between 0 and 1.",
  "code": '''
saturated_weight = -16.0
'''},
 {"exercise": "saturated_weight", "kind": "robustness", "idea": "slice of the softmax output",
  "mistake": "Right value, but assigned a length-1 array (a slice) instead of a number.",
  "teacher_says": "Index the element ([1]) or wrap it in float(): the answer is one number, not an array.",
  "code": '''
import numpy as np
import mha

saturated_weight = mha.softmax(np.array([16.0, 0.0]))[1:]
'''},

 # ------------------------------------------------------------------ score_std
 {"exercise": "score_std", "kind": "correct", "idea": "variance of the sum is d_k times 1, take math.sqrt",
  "code": '''
import math

d_k = 256
variance_of_one_product = 1.0 * 1.0
score_std = math.sqrt(d_k * variance_of_one_product)
'''},
 {"exercise": "score_std", "kind": "correct", "idea": "power 0.5 of d_k, as an int expression",
  "code": '''
score_std = 256 ** 0.5
'''},
 {"exercise": "score_std", "kind": "wrong", "mistake": "Answered with the variance of q.k (256) instead of its standard deviation.",
  "teacher_says": "A sum of 256 independent terms of variance 1 has variance 256; the standard deviation is its square root, 16.",
  "code": '''
d_k = 256
score_std = d_k
'''},
 {"exercise": "score_std", "kind": "wrong", "mistake": "Gave the standard deviation after dividing by sqrt(d_k) (1) although the question asks before any scaling.",
  "teacher_says": "Before the scaling the standard deviation is sqrt(d_k) = 16; dividing by sqrt(d_k) is what brings it to 1.",
  "code": '''
import math

score_std = math.sqrt(256) / math.sqrt(256)
'''},
 {"exercise": "score_std", "kind": "wrong", "mistake": "Took the variance of one product q_c k_c as Var(q_c) + Var(k_c) = 2.",
  "teacher_says": "For independent zero-mean factors, Var(q_c k_c) = E[q_c^2] E[k_c^2] = 1, not the sum of the variances.",
  "code": '''
import math

score_std = math.sqrt(256 * 2)
'''},
 {"exercise": "score_std", "kind": "wrong", "mistake": "Gave the mean of q.k (0) instead of its standard deviation.",
  "teacher_says": "The mean is 0, but the question is how spread out the scores are: the standard deviation, sqrt(256).",
  "code": '''
score_std = 0
'''},
 {"exercise": "score_std", "kind": "wrong", "mistake": "Computed the standard deviation of the average of the 256 products (1/16) instead of their sum.",
  "teacher_says": "q.k is a sum, not a mean: its variance grows like d_k, so its standard deviation is sqrt(d_k), not 1/sqrt(d_k).",
  "code": '''
import math

score_std = 1 / math.sqrt(256)
'''},
 {"exercise": "score_std", "kind": "robustness", "idea": "answer kept as a formatted string",
  "mistake": "Right value, stored as the string '16' instead of a number.",
  "teacher_says": "Assign a number (16 or 16.0), not text.",
  "code": '''
import math

score_std = f"{math.sqrt(256):g}"
'''},
]
