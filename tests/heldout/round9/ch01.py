# writer A's answers, then writer E's (each file verbatim)
"""Student answers for chapter 1 (scaled dot-product attention), writer A."""

ANSWERS = [
    # ------------------------------------------------------------------ softmax
    {
        "exercise": "softmax",
        "kind": "correct",
        "idea": "log-sum-exp form: shift by the max, then exp(z - log sum exp(z)), all along `axis`",
        "code": '''
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x)
    z = x - np.max(x, axis=axis, keepdims=True)  # every entry <= 0
    log_norm = np.log(np.sum(np.exp(z), axis=axis, keepdims=True))
    return np.exp(z - log_norm)
''',
    },
    {
        "exercise": "softmax",
        "kind": "robustness",
        "idea": "moves the axis to the end and loops over every slice in Python, each in "
        "float64 with math.exp, then casts back to the input dtype",
        "code": '''
import math
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x)
    moved = np.moveaxis(x, axis, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    out = np.empty(flat.shape, dtype=np.float64)
    for r in range(flat.shape[0]):
        row = [float(v) for v in flat[r]]
        biggest = max(row)
        exps = [math.exp(v - biggest) for v in row]
        total = sum(exps)
        for c in range(len(row)):
            out[r, c] = exps[c] / total
    out = out.reshape(moved.shape)
    return np.moveaxis(out, -1, axis).astype(x.dtype)
''',
    },
    {
        "exercise": "softmax",
        "kind": "wrong",
        "mistake": "Writes the textbook formula exp(x) / sum exp(x) and skips the "
        "subtraction of the maximum, so scores around 1000 overflow to inf and give NaN.",
        "teacher_says": "Subtract the maximum along the axis before exp: it changes nothing "
        "mathematically and keeps every exponent at or below 0.",
        "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)
''',
    },
    {
        "exercise": "softmax",
        "kind": "wrong",
        "mistake": "Uses `axis` for the maximum but leaves the sum at axis=-1 (copied from "
        "the attention code), so for any other axis the slices do not sum to 1.",
        "teacher_says": "Every reduction in the function has to run along the same `axis` "
        "the caller asked for; test with axis=0 on a 2-D array.",
        "code": '''
import numpy as np

def softmax(x, axis=-1):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)
''',
    },
    {
        "exercise": "softmax",
        "kind": "wrong",
        "mistake": "Forgets the axis in the denominator: divides by the sum over the whole "
        "array, so the entire array sums to 1 instead of each slice.",
        "teacher_says": "The normaliser must be a per-slice sum: np.sum(e, axis=axis, "
        "keepdims=True), not a single number for the whole array.",
        "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e)
''',
    },
    # ------------------------------------------------- scaled_dot_product_attention
    {
        "exercise": "scaled_dot_product_attention",
        "kind": "correct",
        "idea": "einsum for the scores, masked entries excluded from the exponentials, "
        "np.divide with where= so a row with no allowed key stays all zeros",
        "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = np.einsum("...id,...jd->...ij", q, k) / math.sqrt(d_k)
    if mask is not None:
        allowed = np.broadcast_to(mask, scores.shape)
        scores = np.where(allowed, scores, -np.inf)
    row_max = scores.max(axis=-1, keepdims=True)
    row_max = np.where(np.isfinite(row_max), row_max, 0)
    e = np.exp(scores - row_max)
    total = e.sum(axis=-1, keepdims=True)
    weights = np.divide(e, total, out=np.zeros_like(e), where=total > 0)
    return weights @ v, weights
''',
    },
    {
        "exercise": "scaled_dot_product_attention",
        "kind": "robustness",
        "idea": "loops in Python over every batch index and every query, building each "
        "weight row separately (slow, but the same numbers and dtype)",
        "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    n_q, n_k, d_v = q.shape[-2], k.shape[-2], v.shape[-1]
    qb = np.broadcast_to(q, batch + q.shape[-2:])
    kb = np.broadcast_to(k, batch + k.shape[-2:])
    vb = np.broadcast_to(v, batch + v.shape[-2:])
    if mask is None:
        mb = np.ones(batch + (n_q, n_k), dtype=bool)
    else:
        mb = np.broadcast_to(mask, batch + (n_q, n_k))
    weights = np.zeros(batch + (n_q, n_k), dtype=q.dtype)
    out = np.zeros(batch + (n_q, d_v), dtype=q.dtype)
    scale = 1.0 / math.sqrt(q.shape[-1])
    for idx in np.ndindex(*batch):
        for i in range(n_q):
            allowed = [j for j in range(n_k) if mb[idx + (i, j)]]
            if not allowed:
                continue  # no key: zero weights, zero output
            s = {j: float(np.dot(qb[idx + (i,)], kb[idx + (j,)])) * scale for j in allowed}
            top = max(s.values())
            e = {j: math.exp(s[j] - top) for j in allowed}
            z = sum(e.values())
            for j in allowed:
                weights[idx + (i, j)] = e[j] / z
            out[idx + (i,)] = weights[idx + (i,)] @ vb[idx]
    return out, weights
''',
    },
    {
        "exercise": "scaled_dot_product_attention",
        "kind": "wrong",
        "mistake": "Transposes the keys with `k.T`, which reverses every axis: fine for 2-D "
        "inputs, but with batch axes the batch axes are reversed too and the product "
        "fails or mixes batch entries.",
        "teacher_says": "Use np.swapaxes(k, -1, -2) (or k.swapaxes(-1, -2)) so that only the "
        "last two axes are swapped and the batch axes stay where they are.",
        "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.T / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    s = e.sum(axis=-1, keepdims=True)
    weights = np.where(s > 0, e / np.where(s > 0, s, 1.0), 0.0).astype(q.dtype)
    return weights @ v, weights
''',
    },
    {
        "exercise": "scaled_dot_product_attention",
        "kind": "wrong",
        "mistake": "Applies the mask to the weights after the softmax (multiplies by the "
        "mask) instead of to the scores before it, so masked rows no longer sum to 1.",
        "teacher_says": "The mask has to act on the scores (-inf before the softmax) so the "
        "remaining keys are renormalised; zeroing weights afterwards leaves rows that sum "
        "to less than 1.",
        "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_k)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    if mask is not None:
        weights = weights * mask
    return weights @ v, weights
''',
    },
    {
        "exercise": "scaled_dot_product_attention",
        "kind": "wrong",
        "mistake": "Scales the scores by sqrt of the value width, v.shape[-1], instead of "
        "d_k = q.shape[-1]; it only shows when d_v differs from d_k.",
        "teacher_says": "The 1/sqrt(d_k) comes from the dot product of a query with a key, "
        "so it must use their shared width d_k, not d_v.",
        "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scale = np.sqrt(v.shape[-1])
    scores = q @ np.swapaxes(k, -1, -2) / scale
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    s = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(s == 0, 1.0, s)
    return weights @ v, weights
''',
    },
    # ------------------------------------------------------------ temperature_of
    {
        "exercise": "temperature_of",
        "kind": "correct",
        "idea": "differences against each row's largest weight cancel the normaliser; one "
        "least-squares slope through the origin over every kept entry",
        "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = np.asarray(scores, dtype=np.float64).reshape(-1, scores.shape[-1])
    w = np.asarray(weights, dtype=np.float64).reshape(-1, weights.shape[-1])
    ref = np.argmax(w, axis=-1)[:, None]
    keep = w > 0
    with np.errstate(divide="ignore"):
        log_w = np.log(w)
    ds = np.where(keep, s - np.take_along_axis(s, ref, axis=-1), 0.0)
    dl = np.where(keep, log_w - np.take_along_axis(log_w, ref, axis=-1), 0.0)
    return float(np.sum(ds * ds) / np.sum(ds * dl))
''',
    },
    {
        "exercise": "temperature_of",
        "kind": "robustness",
        "idea": "plain Python loops with math.log over every row and entry, centring each "
        "row by hand; returns a Python float",
        "code": '''
import math
import numpy as np

def temperature_of(scores, weights):
    n = scores.shape[-1]
    rows_s = np.asarray(scores).reshape(-1, n).tolist()
    rows_w = np.asarray(weights).reshape(-1, n).tolist()
    num = 0.0
    den = 0.0
    for srow, wrow in zip(rows_s, rows_w):
        pairs = [(s, math.log(w)) for s, w in zip(srow, wrow) if w > 0]
        if len(pairs) < 2:
            continue
        s_mean = sum(p[0] for p in pairs) / len(pairs)
        l_mean = sum(p[1] for p in pairs) / len(pairs)
        for s, l in pairs:
            num += (s - s_mean) ** 2
            den += (s - s_mean) * (l - l_mean)
    return num / den
''',
    },
    {
        "exercise": "temperature_of",
        "kind": "wrong",
        "mistake": "Takes the logarithm of every weight, including those that underflowed to "
        "exactly 0, so log gives -inf and the fit returns nan or 0 as soon as one weight is 0.",
        "teacher_says": "A weight of exactly 0 carries no information about T; mask it out "
        "before taking logarithms and before averaging.",
        "code": '''
import numpy as np

def temperature_of(scores, weights):
    with np.errstate(divide="ignore", invalid="ignore"):
        log_w = np.log(weights)
        s = scores - scores.mean(axis=-1, keepdims=True)
        l = log_w - log_w.mean(axis=-1, keepdims=True)
        return float(np.sum(s * s) / np.sum(s * l))
''',
    },
    {
        "exercise": "temperature_of",
        "kind": "wrong",
        "mistake": "Fits the slope the other way round (log-weights against scores), which "
        "is 1/T, and returns that slope as the temperature.",
        "teacher_says": "log w = s / T + const, so the slope of log w against s is 1/T: "
        "invert it, or regress s on log w.",
        "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    log_w = np.log(np.where(keep, weights, 1.0))
    count = keep.sum(axis=-1, keepdims=True)
    s_mean = np.where(keep, scores, 0).sum(axis=-1, keepdims=True) / count
    l_mean = np.where(keep, log_w, 0).sum(axis=-1, keepdims=True) / count
    s = np.where(keep, scores - s_mean, 0)
    l = np.where(keep, log_w - l_mean, 0)
    return float(np.sum(s * l) / np.sum(s * s))
''',
    },
    {
        "exercise": "temperature_of",
        "kind": "wrong",
        "mistake": "Leaves out the per-row centring: fits log w = s / T directly, forgetting "
        "the -log(sum exp) term that every row's log-weights carry.",
        "teacher_says": "Each row's log-weights are shifted by its log-normaliser; subtract a "
        "row mean (or a reference entry) from both scores and log-weights before fitting.",
        "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    s = scores[keep]
    l = np.log(weights[keep])
    return float(np.dot(s, s) / np.dot(s, l))
''',
    },
    # ---------------------------------------------------------- saturated_weight
    {
        "exercise": "saturated_weight",
        "kind": "correct",
        "idea": "two-key softmax reduces to a logistic: 1 / (1 + e^16)",
        "code": '''
import math

saturated_weight = 1.0 / (1.0 + math.exp(16))
''',
    },
    {
        "exercise": "saturated_weight",
        "kind": "robustness",
        "idea": "takes the entry of a float32 NumPy softmax over the two scores, leaving a "
        "0-d float32 array instead of a Python float",
        "code": '''
import numpy as np

_scores = np.array([16.0, 0.0], dtype=np.float32)
_e = np.exp(_scores - _scores.max())
saturated_weight = (_e / _e.sum())[1:].reshape(())
''',
    },
    {
        "exercise": "saturated_weight",
        "kind": "wrong",
        "mistake": "Gives the weight of the key with the higher score (almost 1) instead of "
        "the lower one.",
        "teacher_says": "Reread which key is asked for: the lower score gets e^(s-16) / "
        "(e^s + e^(s-16)), a tiny number.",
        "code": '''
import math

saturated_weight = 1 / (1 + math.exp(-16))
''',
    },
    {
        "exercise": "saturated_weight",
        "kind": "wrong",
        "mistake": "Divides the difference by sqrt(d_k) = 16 first, as in scaled attention, "
        "so computes the softmax of a difference of 1 although the question is about the "
        "raw, unscaled scores.",
        "teacher_says": "The exercise is about the raw scores without the 1/sqrt(d_k): the "
        "difference is 16, not 1.",
        "code": '''
import math

saturated_weight = 1 / (1 + math.exp(16 / math.sqrt(256)))
''',
    },
    {
        "exercise": "saturated_weight",
        "kind": "wrong",
        "mistake": "Uses the variance d_k = 256 as the difference of the scores instead of "
        "the standard deviation 16.",
        "teacher_says": "One standard deviation of the raw score is sqrt(256) = 16; 256 is "
        "its variance.",
        "code": '''
import math

saturated_weight = 1 / (1 + math.exp(256))
''',
    },
    # ------------------------------------------------------------------ score_std
    {
        "exercise": "score_std",
        "kind": "correct",
        "idea": "variance adds up to d_k * 1 * 1, so the standard deviation is its root",
        "code": '''
d_k = 256
score_std = (d_k * 1.0 * 1.0) ** 0.5
''',
    },
    {
        "exercise": "score_std",
        "kind": "robustness",
        "idea": "a NumPy float32 scalar instead of a Python number",
        "code": '''
import numpy as np

score_std = np.sqrt(np.float32(256))
''',
    },
    {
        "exercise": "score_std",
        "kind": "wrong",
        "mistake": "Gives the variance of q.k (d_k = 256) instead of its standard deviation.",
        "teacher_says": "The variances add up to 256; the standard deviation is the square "
        "root of that.",
        "code": '''
score_std = 256
''',
    },
    {
        "exercise": "score_std",
        "kind": "wrong",
        "mistake": "Answers with the standard deviation after the division by sqrt(d_k), 1, "
        "although the question asks before any scaling.",
        "teacher_says": "1 is what the scaling achieves; the raw dot product has standard "
        "deviation sqrt(d_k).",
        "code": '''
import math

score_std = math.sqrt(256) / math.sqrt(256)
''',
    },
    {
        "exercise": "score_std",
        "kind": "wrong",
        "mistake": "Takes the square root twice (treats 16 as the variance), giving 4.",
        "teacher_says": "Var(q.k) = d_k = 256, so std = sqrt(256) = 16; one square root only.",
        "code": '''
import math

score_std = math.sqrt(math.sqrt(256))
''',
    },
]

_WRITER_A = ANSWERS

"""Writer E, chapter 01 (scaled dot-product attention): blind student answers."""

ANSWERS = [
    # ------------------------------------------------------------------ softmax
    {"exercise": "softmax", "kind": "correct",
     "idea": "log-sum-exp form: subtract the slice's log-normaliser (max + log of the shifted sum) and exponentiate once",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x)
    top = np.max(x, axis=axis, keepdims=True)
    log_norm = top + np.log(np.sum(np.exp(x - top), axis=axis, keepdims=True))
    return np.exp(x - log_norm)
'''},
    {"exercise": "softmax", "kind": "robustness",
     "idea": "moves the axis last and loops over every slice in Python with math.exp, then casts back to the input dtype: right numbers, very slow",
     "code": '''
import math
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x)
    moved = np.moveaxis(x, axis, -1)
    out = np.empty(moved.shape, dtype=np.float64)
    for idx in np.ndindex(*moved.shape[:-1]):
        row = [float(v) for v in moved[idx]]
        m = max(row)
        exps = [math.exp(v - m) for v in row]
        total = sum(exps)
        for j, e in enumerate(exps):
            out[idx + (j,)] = e / total
    return np.moveaxis(out, -1, axis).astype(x.dtype)
'''},
    {"exercise": "softmax", "kind": "wrong",
     "mistake": "Used keepdims=True on the sum but forgot it on the max, so the (reduced) maxima broadcast against the wrong axis: it raises for non-square inputs and, for square ones, subtracts column-wise values from rows.",
     "teacher_says": "Keep the reduced axis with keepdims=True on every reduction you broadcast back against x, the max included.",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    shifted = x - np.max(x, axis=axis)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong",
     "mistake": "Subtracts the max along `axis` but normalises with a sum hard-coded over the last axis, so any axis other than -1 gives slices that do not sum to 1.",
     "teacher_says": "Every reduction in the function must use the same `axis` argument; test it with axis=0 as well as -1.",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong",
     "mistake": "Converts the input with np.array(x, dtype=float) 'to be safe', so float32 inputs come back as float64: the values are right but the dtype is not the input's.",
     "teacher_says": "The statement asks for the same dtype as x: compute in x's dtype (or cast back with .astype(x.dtype)).",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    x = np.array(x, dtype=float)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
'''},

    # ------------------------------------------------- scaled_dot_product_attention
    {"exercise": "scaled_dot_product_attention", "kind": "correct",
     "idea": "einsum for the scores with broadcast batch axes; masked entries set to -inf and fully masked rows guarded by zeroing their maximum and their denominator",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = np.einsum("...id,...jd->...ij", q, k) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    weights = (e / np.where(total > 0, total, 1.0)).astype(q.dtype)
    return weights @ v, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "robustness",
     "idea": "Python loops over every batch index, query and key in float64 (mask broadcast to the scores' shape first); returns float64 arrays whatever the input dtype",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    n_q, d_k = q.shape[-2:]
    n_k, d_v = k.shape[-2], v.shape[-1]
    q = np.broadcast_to(q, batch + (n_q, d_k))
    k = np.broadcast_to(k, batch + (n_k, d_k))
    v = np.broadcast_to(v, batch + (n_k, d_v))
    if mask is None:
        allowed = np.ones(batch + (n_q, n_k), dtype=bool)
    else:
        allowed = np.broadcast_to(mask, batch + (n_q, n_k))
    weights = np.zeros(batch + (n_q, n_k))
    out = np.zeros(batch + (n_q, d_v))
    for b in np.ndindex(*batch):
        for i in range(n_q):
            scores = {}
            for j in range(n_k):
                if allowed[b + (i, j)]:
                    s = 0.0
                    for c in range(d_k):
                        s += q[b + (i, c)] * k[b + (j, c)]
                    scores[j] = s / math.sqrt(d_k)
            if not scores:
                continue  # no key allowed: zero weights, zero output
            m = max(scores.values())
            exps = {j: math.exp(s - m) for j, s in scores.items()}
            total = sum(exps.values())
            for j, e in exps.items():
                weights[b + (i, j)] = e / total
                for c in range(d_v):
                    out[b + (i, c)] += e / total * v[b + (j, c)]
    return out, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong",
     "mistake": "Masks with -inf and then applies a plain stable softmax: a query whose mask row has no True gets a row of -inf, max is -inf, and -inf - (-inf) = nan, so its weights and output are NaN instead of zeros.",
     "teacher_says": "Handle the row with no allowed key explicitly (e.g. with mask.any(axis=-1, keepdims=True)) so that it gets zero weights, as the book's convention asks.",
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
     "mistake": "Scales by the square root of the values' width v.shape[-1] (d_v) instead of the queries' and keys' width d_k; it passes whenever d_v == d_k and is wrong otherwise.",
     "teacher_says": "The scaling keeps the dot products q.k at unit variance, so it is sqrt(d_k), the width of q and k, not of v.",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(v.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = np.max(scores, axis=-1, keepdims=True)
    top = np.where(np.isneginf(top), 0.0, top)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total == 0, 1.0, total)
    return weights @ v, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong",
     "mistake": "Inverted the mask's polarity (as PyTorch's boolean attn_mask, where True means 'do not attend'): it hides exactly the keys that are allowed and keeps the forbidden ones.",
     "teacher_says": "In this book True means 'may attend': keep the score where the mask is True, np.where(mask, scores, -np.inf).",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    top = np.max(scores, axis=-1, keepdims=True)
    top = np.where(np.isneginf(top), 0.0, top)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total == 0, 1.0, total)
    return weights @ v, weights
'''},

    # ----------------------------------------------------------- temperature_of
    {"exercise": "temperature_of", "kind": "correct",
     "idea": "differences to each row's largest weight cancel the normaliser; one least-squares slope through the origin over all kept entries",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    scores = np.asarray(scores, dtype=np.float64)
    weights = np.asarray(weights, dtype=np.float64)
    ref = np.argmax(weights, axis=-1)[..., None]
    ds = scores - np.take_along_axis(scores, ref, axis=-1)
    with np.errstate(divide="ignore"):
        logw = np.log(weights)
    dl = logw - np.take_along_axis(logw, ref, axis=-1)
    keep = weights > 0
    ds, dl = ds[keep], dl[keep]
    return float(np.dot(ds, ds) / np.dot(ds, dl))
'''},
    {"exercise": "temperature_of", "kind": "robustness",
     "idea": "Python loops over every row and every pair of kept entries, accumulating the least-squares sums pair by pair (quadratic in n, pure Python)",
     "code": '''
import math
import numpy as np

def temperature_of(scores, weights):
    scores = np.asarray(scores, dtype=np.float64)
    weights = np.asarray(weights, dtype=np.float64)
    n = scores.shape[-1]
    num = 0.0
    den = 0.0
    for s_row, w_row in zip(scores.reshape(-1, n).tolist(), weights.reshape(-1, n).tolist()):
        kept = [(s, math.log(w)) for s, w in zip(s_row, w_row) if w > 0]
        for a in range(len(kept)):
            for b in range(a + 1, len(kept)):
                ds = kept[a][0] - kept[b][0]
                dl = kept[a][1] - kept[b][1]
                num += ds * ds
                den += ds * dl
    return num / den
'''},
    {"exercise": "temperature_of", "kind": "wrong",
     "mistake": "Avoids log(0) with the usual epsilon trick, np.log(weights + 1e-12), instead of leaving the zero weights out: every underflowed weight then claims a log-weight of about -27.6, which pulls the fit away from the true temperature.",
     "teacher_says": "A weight that underflowed to 0 carries no information about T: drop it from the fit rather than inventing a value for its logarithm.",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    logw = np.log(weights + 1e-12)
    s = scores - scores.mean(axis=-1, keepdims=True)
    l = logw - logw.mean(axis=-1, keepdims=True)
    return float((s * s).sum() / (s * l).sum())
'''},
    {"exercise": "temperature_of", "kind": "wrong",
     "mistake": "Fits the slope the other way round, sum(s*l)/sum(s^2): since l = s/T that slope is 1/T, so it returns the inverse temperature.",
     "teacher_says": "Write the model l = s / T and check which quantity your regression slope estimates before returning it; test with a known T like 2.",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    count = keep.sum(axis=-1, keepdims=True)
    logw = np.log(np.where(keep, weights, 1.0))
    s = np.where(keep, scores - (scores * keep).sum(axis=-1, keepdims=True) / count, 0.0)
    l = np.where(keep, logw - (logw * keep).sum(axis=-1, keepdims=True) / count, 0.0)
    return float((s * l).sum() / (s * s).sum())
'''},
    {"exercise": "temperature_of", "kind": "wrong",
     "mistake": "Centres the scores and log-weights with one mean over the whole array instead of one per row, so the per-row normalising constant log(sum exp) does not cancel when there is more than one row.",
     "teacher_says": "The constant that cancels is a row's own normaliser: subtract means along the last axis with keepdims=True, not over the whole array.",
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

    # --------------------------------------------------------- saturated_weight
    {"exercise": "saturated_weight", "kind": "correct",
     "idea": "the lower score's weight is the logistic of -16, written stably with logaddexp",
     "code": '''
import numpy as np

saturated_weight = float(np.exp(-np.logaddexp(0.0, 16.0)))
'''},
    {"exercise": "saturated_weight", "kind": "robustness",
     "idea": "builds the two raw scores as an array, runs a full softmax over them and keeps the second entry as a NumPy float32 scalar",
     "code": '''
import numpy as np

_scores = np.array([16.0, 0.0], dtype=np.float32)
_e = np.exp(_scores - _scores.max())
saturated_weight = (_e / _e.sum())[1]
'''},
    {"exercise": "saturated_weight", "kind": "wrong",
     "mistake": "Gives the weight of the key with the higher score, 1/(1+e^-16), instead of the lower one.",
     "teacher_says": "Read which key is asked for: the lower score gets e^-16 relative to the higher one, so its weight is tiny, not close to 1.",
     "code": '''
import math

saturated_weight = 1 / (1 + math.exp(-16))
'''},
    {"exercise": "saturated_weight", "kind": "wrong",
     "mistake": "Divides the score difference by sqrt(d_k) = 16 first, as the chapter's attention does, and answers 1/(1+e) for a difference of 1; the question is about the raw, unscaled scores.",
     "teacher_says": "The exercise asks what happens without the scaling: use the raw difference of 16 in the softmax.",
     "code": '''
import math

saturated_weight = 1 / (1 + math.exp(16 / math.sqrt(256)))
'''},
    {"exercise": "saturated_weight", "kind": "wrong",
     "mistake": "Operator-precedence slip: wrote math.exp(-16) / 1 + math.exp(-16) meaning e^-16 / (1 + e^-16); Python divides first, giving twice the intended value.",
     "teacher_says": "Put the denominator in parentheses: a / (1 + b), and sanity-check the result against a direct softmax of [16, 0].",
     "code": '''
import math

saturated_weight = math.exp(-16) / 1 + math.exp(-16)
'''},

    # ----------------------------------------------------------------- score_std
    {"exercise": "score_std", "kind": "correct",
     "idea": "variance adds over d_k independent unit-variance products: sqrt of d_k",
     "code": '''
d_k = 256
score_std = (d_k * 1.0 * 1.0) ** 0.5
'''},
    {"exercise": "score_std", "kind": "robustness",
     "idea": "the right value delivered as a 0-d NumPy array instead of a plain number",
     "code": '''
import numpy as np

score_std = np.sqrt(np.array(256.0))
'''},
    {"exercise": "score_std", "kind": "wrong",
     "mistake": "Answered the variance of q.k, d_k = 256, and forgot to take the square root for the standard deviation.",
     "teacher_says": "Variances of independent terms add, standard deviations do not: the variance is 256, its square root is the standard deviation.",
     "code": '''
score_std = 256
'''},
    {"exercise": "score_std", "kind": "wrong",
     "mistake": "Gave the standard deviation after the division by sqrt(d_k), 1, although the question asks before any scaling.",
     "teacher_says": "1 is what the scaling produces; the raw score q.k, before dividing, has standard deviation sqrt(d_k).",
     "code": '''
score_std = 1.0
'''},
    {"exercise": "score_std", "kind": "wrong",
     "mistake": "Wrote the square root as 256 ** 1/2, which Python evaluates as (256 ** 1) / 2 = 128.",
     "teacher_says": "Exponentiation binds tighter than division: write 256 ** 0.5, 256 ** (1/2) or math.sqrt(256).",
     "code": '''
score_std = 256 ** 1/2
'''},
]

_WRITER_E = ANSWERS
ANSWERS = _WRITER_A + _WRITER_E
