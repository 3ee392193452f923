# writer A's answers, then writer E's (each file verbatim)
"""Writer A, chapter 01 (scaled dot-product attention): 1 correct + 3 wrong answers per exercise."""

ANSWERS = [
    # ------------------------------------------------------------------ softmax
    {"exercise": "softmax", "kind": "correct",
     "idea": "log-sum-exp form: shift by the max along the axis, subtract the log of the sum, exponentiate",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    log_norm = np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))
    return np.exp(shifted - log_norm)
'''},
    {"exercise": "softmax", "kind": "wrong",
     "mistake": "Subtracts the max along `axis` correctly, but the sum in the denominator is hard-coded to axis=-1 (copied from a last-axis version), so for any other axis the slices do not sum to 1.",
     "teacher_says": "Every reduction in the function must use the `axis` argument, the sum as well as the max.",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong",
     "mistake": "Casts the input to float64 'for safety' and returns the float64 result, so a float32 input comes back as float64 instead of keeping its dtype.",
     "teacher_says": "Stable does not need float64 here: subtracting the max is enough, and the result must have the input's dtype (cast back if you upcast).",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    z = np.asarray(x, dtype=np.float64)
    z = z - z.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong",
     "mistake": "Takes the max without keepdims=True, so the reduced array broadcasts against the wrong axis of `x`: each slice is shifted by other slices' maxima (it raises when the shapes do not fit, and silently overflows or gives wrong numbers when they do).",
     "teacher_says": "Use keepdims=True on the max so that it lines up with the axis you reduced; otherwise broadcasting matches it with the last axis.",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis))
    return e / np.sum(e, axis=axis, keepdims=True)
'''},

    # ------------------------------------------------------------------ scaled_dot_product_attention
    {"exercise": "scaled_dot_product_attention", "kind": "correct",
     "idea": "einsum for the scores over any batch axes; masked entries excluded from the max and zeroed after exp; a zero row sum is replaced by 1 so fully masked rows give zeros",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = np.einsum("...id,...jd->...ij", q, k) / math.sqrt(q.shape[-1])
    if mask is None:
        allowed = np.ones(scores.shape, dtype=bool)
    else:
        allowed = np.broadcast_to(np.asarray(mask, dtype=bool), scores.shape)
    masked = np.where(allowed, scores, -np.inf)
    top = masked.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(masked - top)                      # exp(-inf) = 0 on masked keys
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total > 0, total, 1)
    return weights @ v, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong",
     "mistake": "Masks with -inf and then applies the ordinary stable softmax; a query whose row of the mask has no True gets max = -inf, so -inf - (-inf) = nan and its weights and output are NaN instead of zeros.",
     "teacher_says": "A fully masked row is part of the specification: handle it (e.g. with mask.any(axis=-1, keepdims=True)) so that it gives zero weights, not NaN.",
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
     "mistake": "Reads the mask the wrong way round: np.where(mask, -inf, scores) blocks exactly the keys that are allowed (True) and lets through the forbidden ones.",
     "teacher_says": "The mask is True where a query MAY attend, so keep the score where the mask is True and put -inf where it is False.",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    row_max = scores.max(axis=-1, keepdims=True)
    row_max = np.where(np.isfinite(row_max), row_max, 0.0)
    e = np.exp(scores - row_max)
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total == 0, 1.0, total)
    return weights @ v, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong",
     "mistake": "Scales the scores by the square root of the values' width, v.shape[-1] (d_v), instead of the queries' and keys' width d_k; it only looks right while d_v == d_k.",
     "teacher_says": "The scaling undoes the variance of a dot product of length d_k, so divide by sqrt(q.shape[-1]); d_v plays no part in the scores.",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d = v.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    row_max = scores.max(axis=-1, keepdims=True)
    row_max = np.where(np.isfinite(row_max), row_max, 0.0)
    e = np.exp(scores - row_max)
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total == 0, 1.0, total)
    return weights @ v, weights
'''},

    # ------------------------------------------------------------------ temperature_of
    {"exercise": "temperature_of", "kind": "correct",
     "idea": "per-row centering of scores and log-weights over the positive weights, then the slope 1/T by np.linalg.lstsq and its reciprocal",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    s = np.asarray(scores, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    keep = w > 0
    count = keep.sum(axis=-1, keepdims=True)
    log_w = np.log(np.where(keep, w, 1.0))
    s_mean = np.where(keep, s, 0.0).sum(axis=-1, keepdims=True) / count
    l_mean = np.where(keep, log_w, 0.0).sum(axis=-1, keepdims=True) / count
    s_c = (s - s_mean)[keep]
    l_c = (log_w - l_mean)[keep]
    slope = np.linalg.lstsq(s_c[:, None], l_c, rcond=None)[0][0]   # l = s / T
    return float(1.0 / slope)
'''},
    {"exercise": "temperature_of", "kind": "wrong",
     "mistake": "Takes the logarithm of every weight, including those that underflowed to exactly 0; log(0) = -inf poisons the row means and the fit, so the answer is nan (or 0) as soon as one weight is 0.",
     "teacher_says": "A weight that underflowed to 0 carries no information about T: leave those entries out before taking logarithms.",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    log_w = np.log(weights)
    s = scores - scores.mean(axis=-1, keepdims=True)
    l = log_w - log_w.mean(axis=-1, keepdims=True)
    return float((s * s).sum() / (s * l).sum())
'''},
    {"exercise": "temperature_of", "kind": "wrong",
     "mistake": "Does the least-squares fit right but returns the slope itself, sum(s*l)/sum(s^2), which is 1/T, not T.",
     "teacher_says": "The log-weights are s / T, so the fitted slope is 1/T: invert it (T = sum s^2 / sum s*l).",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    n = keep.sum(axis=-1, keepdims=True)
    log_w = np.where(keep, np.log(np.where(keep, weights, 1.0)), 0.0)
    s = np.where(keep, scores, 0.0)
    s_c = np.where(keep, s - s.sum(axis=-1, keepdims=True) / n, 0.0)
    l_c = np.where(keep, log_w - log_w.sum(axis=-1, keepdims=True) / n, 0.0)
    return float((s_c * l_c).sum() / (s_c * s_c).sum())
'''},
    {"exercise": "temperature_of", "kind": "wrong",
     "mistake": "Fits log w = s / T directly, without subtracting the row means: the -log(sum exp(s/T)) term of each row is left in the log-weights and biases the fitted T.",
     "teacher_says": "Each row's log-weights carry a row constant (the log of the normaliser); centre scores and log-weights per row so that it cancels before the fit.",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    s = scores[keep]
    l = np.log(weights[keep])
    return float(np.dot(s, s) / np.dot(s, l))
'''},

    # ------------------------------------------------------------------ saturated_weight
    {"exercise": "saturated_weight", "kind": "correct",
     "idea": "two scores s and s-16: the lower one gets e^(s-16)/(e^s+e^(s-16)) = 1/(1+e^16)",
     "code": '''
import math

saturated_weight = 1.0 / (1.0 + math.exp(16))
'''},
    {"exercise": "saturated_weight", "kind": "wrong",
     "mistake": "Divides the gap by sqrt(d_k) = 16 as if the scores were scaled, so uses a difference of 1 and gets 1/(1+e) ~ 0.27; the exercise asks about the raw, unscaled scores.",
     "teacher_says": "The question is about what happens without the scaling: the gap the softmax sees is the full 16.",
     "code": '''
import math

saturated_weight = 1 / (1 + math.exp(16 / math.sqrt(256)))
'''},
    {"exercise": "saturated_weight", "kind": "wrong",
     "mistake": "Gives the weight of the key with the higher score, e^16/(1+e^16) ~ 0.9999999, instead of the lower one.",
     "teacher_says": "Read which key is asked for: the lower-scoring key gets the tiny weight, 1 minus what you computed.",
     "code": '''
import math

saturated_weight = math.exp(16) / (1 + math.exp(16))
'''},
    {"exercise": "saturated_weight", "kind": "wrong",
     "mistake": "Uses the variance, 256, as the gap between the two scores instead of the standard deviation 16, so the weight comes out around 1e-111.",
     "teacher_says": "The gap is one standard deviation, sqrt(256) = 16, not the variance 256.",
     "code": '''
import math

saturated_weight = 1 / (1 + math.exp(256))
'''},

    # ------------------------------------------------------------------ score_std
    {"exercise": "score_std", "kind": "correct",
     "idea": "each product q_c k_c has variance 1, the sum of 256 of them variance 256, so the std is sqrt(256)",
     "code": '''
import math

d_k = 256
score_std = math.sqrt(d_k * 1.0 * 1.0)
'''},
    {"exercise": "score_std", "kind": "wrong",
     "mistake": "Gives the variance of q.k, 256, instead of its standard deviation.",
     "teacher_says": "Variances add; the standard deviation is the square root of the total variance, sqrt(256) = 16.",
     "code": '''
score_std = 256
'''},
    {"exercise": "score_std", "kind": "wrong",
     "mistake": "Answers for the scaled score q.k/sqrt(d_k), whose std is 1, though the question asks before any scaling.",
     "teacher_says": "1 is the std after dividing by sqrt(d_k); the raw dot product has std sqrt(d_k).",
     "code": '''
score_std = 1.0
'''},
    {"exercise": "score_std", "kind": "wrong",
     "mistake": "Takes the variance of one product q_c k_c as Var(q_c) + Var(k_c) = 2 instead of Var(q_c) Var(k_c) = 1, giving sqrt(512) ~ 22.6.",
     "teacher_says": "For independent zero-mean factors the variance of a product is the product of the variances, 1 here, not their sum.",
     "code": '''
import math

score_std = math.sqrt(256 * 2)
'''},
]

_WRITER_A = ANSWERS

"""Student answers for chapter 1 (scaled dot-product attention), writer E."""

ANSWERS = [
    # ------------------------------------------------------------------ softmax
    {"exercise": "softmax", "kind": "correct",
     "idea": "log-sum-exp form: subtract max + log of the shifted sum, then a single exp",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x)
    m = np.max(x, axis=axis, keepdims=True)
    shifted = x - m
    log_norm = np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))
    return np.exp(shifted - log_norm)
'''},
    {"exercise": "softmax", "kind": "robustness",
     "idea": "moves the axis to the end and loops over every 1-D slice with math.exp in pure "
             "Python, then casts back to the input dtype: right but very slow",
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
        top = max(row)
        exps = [math.exp(v - top) for v in row]
        total = sum(exps)
        for c in range(len(row)):
            out[r, c] = exps[c] / total
    out = out.reshape(moved.shape)
    return np.moveaxis(out, -1, axis).astype(x.dtype)
'''},
    {"exercise": "softmax", "kind": "wrong",
     "mistake": "Wrote the textbook formula exp(x) / sum(exp(x)) without subtracting the "
                "maximum, so scores around 1000 overflow to inf and the result is nan.",
     "teacher_says": "Shift each slice by its maximum before exponentiating: it leaves the "
                     "softmax unchanged and keeps exp from overflowing.",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)
'''},
    {"exercise": "softmax", "kind": "wrong",
     "mistake": "Normalised by the sum of the whole array (no axis in np.sum), so the entire "
                "array sums to 1 instead of each slice along `axis`.",
     "teacher_says": "The denominator must be summed along the same axis as the softmax, "
                     "with keepdims=True so it broadcasts back.",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum()
'''},
    {"exercise": "softmax", "kind": "wrong",
     "mistake": "Copy-pasted the max line from the attention code and left it at axis=-1, so "
                "for any other axis each slice is shifted by different constants and the "
                "result is no longer a softmax.",
     "teacher_says": "The constant you subtract must be the same for every entry of the slice "
                     "being normalised, so take the max along `axis`, not along -1.",
     "code": '''
import numpy as np

def softmax(x, axis=-1):
    z = x - x.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)
'''},

    # ------------------------------------------------- scaled_dot_product_attention
    {"exercise": "scaled_dot_product_attention", "kind": "correct",
     "idea": "einsum for the scores with any batch axes, masked softmax written inline, "
             "fully masked rows zeroed via an explicit 'any allowed' flag",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = np.einsum("...id,...jd->...ij", q, k) / math.sqrt(d_k)
    if mask is not None:
        mask = np.broadcast_to(mask, scores.shape)
        scores = np.where(mask, scores, -np.inf)
        has_key = mask.any(axis=-1, keepdims=True)
    else:
        has_key = np.ones(scores.shape[:-1] + (1,), dtype=bool)
    row_max = np.where(has_key, scores.max(axis=-1, keepdims=True), 0.0)
    e = np.exp(scores - row_max)
    denom = e.sum(axis=-1, keepdims=True)
    weights = np.where(has_key, e / np.where(has_key, denom, 1.0), 0.0).astype(q.dtype)
    return weights @ v, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "robustness",
     "idea": "loops in Python over every batch index and every query, computing each row's "
             "weights with a stable softmax in float64, then casting to q's dtype",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    n_q, d_k = q.shape[-2:]
    n_k, d_v = v.shape[-2:]
    qb = np.broadcast_to(q, batch + (n_q, d_k)).astype(np.float64)
    kb = np.broadcast_to(k, batch + (n_k, d_k)).astype(np.float64)
    vb = np.broadcast_to(v, batch + (n_k, d_v)).astype(np.float64)
    if mask is None:
        mb = np.ones(batch + (n_q, n_k), dtype=bool)
    else:
        mb = np.broadcast_to(mask, batch + (n_q, n_k))
    out = np.zeros(batch + (n_q, d_v))
    weights = np.zeros(batch + (n_q, n_k))
    for idx in np.ndindex(*batch):
        for i in range(n_q):
            allowed = [j for j in range(n_k) if mb[idx + (i, j)]]
            if not allowed:
                continue
            s = {j: float(qb[idx + (i,)] @ kb[idx + (j,)]) / math.sqrt(d_k) for j in allowed}
            top = max(s.values())
            e = {j: math.exp(s[j] - top) for j in allowed}
            total = sum(e.values())
            for j in allowed:
                weights[idx + (i, j)] = e[j] / total
            out[idx + (i,)] = weights[idx + (i,)] @ vb[idx]
    return out.astype(q.dtype), weights.astype(q.dtype)
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong",
     "mistake": "Used k.T for the transpose; on batched inputs .T reverses every axis, so the "
                "product fails (or, if the sizes happen to match, mixes up the batch).",
     "teacher_says": "Use np.swapaxes(k, -1, -2) so that only the last two axes are swapped "
                     "and the batch axes stay where they are.",
     "code": '''
import math
import numpy as np

def softmax(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(x - m)
    s = e.sum(axis=axis, keepdims=True)
    return e / np.where(s == 0, 1.0, s)

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.T / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = softmax(scores, axis=-1)
    return weights @ v, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong",
     "mistake": "Applied the mask after the softmax by zeroing the masked weights, so the "
                "remaining weights of a partly masked row no longer sum to 1.",
     "teacher_says": "Mask the scores with -inf before the softmax, so that the allowed keys "
                     "share all of the weight.",
     "code": '''
import math
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    if mask is not None:
        weights = np.where(mask, weights, 0.0).astype(q.dtype)
    return weights @ v, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong",
     "mistake": "Took the scaling size from v (v.shape[-1], i.e. d_v) instead of from the "
                "queries/keys, which only works when d_v happens to equal d_k.",
     "teacher_says": "The scale is 1/sqrt(d_k), the width of the vectors in the dot product, "
                     "i.e. q.shape[-1]; d_v plays no part in the scores.",
     "code": '''
import numpy as np

def scaled_dot_product_attention(q, k, v, mask=None):
    d = v.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    m = np.where(np.isneginf(m), 0, m)
    e = np.exp(scores - m)
    tot = e.sum(axis=-1, keepdims=True)
    weights = (e / np.maximum(tot, np.finfo(e.dtype).tiny)).astype(q.dtype)
    return weights @ v, weights
'''},
    {"exercise": "scaled_dot_product_attention", "kind": "wrong",
     "mistake": "Masked with -inf and called a plain stable softmax, without handling a query "
                "whose keys are all masked: its row becomes -inf - (-inf) = nan.",
     "teacher_says": "A fully masked row must come out as zero weights and zero output: guard "
                     "it, e.g. with mask.any(axis=-1, keepdims=True).",
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

    # ------------------------------------------------------------------ temperature_of
    {"exercise": "temperature_of", "kind": "correct",
     "idea": "numpy masked arrays hide the zero weights; centre scores and log-weights per "
             "row over the kept entries, then one least-squares ratio",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    s = np.ma.masked_array(scores, mask=~keep)
    lw = np.ma.masked_array(np.log(np.where(keep, weights, 1.0)), mask=~keep)
    s_c = s - s.mean(axis=-1, keepdims=True)
    l_c = lw - lw.mean(axis=-1, keepdims=True)
    return float((s_c * s_c).sum() / (s_c * l_c).sum())
'''},
    {"exercise": "temperature_of", "kind": "robustness",
     "idea": "Python loops over every row and every pair of non-zero weights, least squares "
             "on all pairwise differences (quadratic in n, builds long lists)",
     "code": '''
import math
import numpy as np

def temperature_of(scores, weights):
    s2 = np.asarray(scores, dtype=float).reshape(-1, scores.shape[-1])
    w2 = np.asarray(weights, dtype=float).reshape(-1, weights.shape[-1])
    ds_all, dl_all = [], []
    for r in range(s2.shape[0]):
        idx = [j for j in range(s2.shape[1]) if w2[r, j] > 0]
        for a in range(len(idx)):
            for b in range(a + 1, len(idx)):
                ja, jb = idx[a], idx[b]
                ds_all.append(s2[r, ja] - s2[r, jb])
                dl_all.append(math.log(w2[r, ja]) - math.log(w2[r, jb]))
    num = sum(d * d for d in ds_all)
    den = sum(d * e for d, e in zip(ds_all, dl_all))
    return num / den
'''},
    {"exercise": "temperature_of", "kind": "wrong",
     "mistake": "Took np.log of every weight without leaving out the ones that underflowed to "
                "exactly 0, so a -inf enters the sums and the answer is nan or 0.",
     "teacher_says": "A weight of exactly 0 tells you nothing about T and has no logarithm: "
                     "keep only the weights above 0.",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    with np.errstate(divide="ignore", invalid="ignore"):
        lw = np.log(weights)
        s_c = scores - scores.mean(axis=-1, keepdims=True)
        l_c = lw - lw.mean(axis=-1, keepdims=True)
        return float(np.sum(s_c**2) / np.sum(s_c * l_c))
'''},
    {"exercise": "temperature_of", "kind": "wrong",
     "mistake": "Centred the scores and the log-weights with one mean over the whole array "
                "instead of per row, so each row's log-normaliser does not cancel.",
     "teacher_says": "The log of the softmax denominator differs from row to row: subtract "
                     "the mean of each row separately (axis=-1, keepdims=True).",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    s = scores[keep]
    lw = np.log(weights[keep])
    s_c = s - s.mean()
    l_c = lw - lw.mean()
    return float(np.sum(s_c * s_c) / np.sum(s_c * l_c))
'''},
    {"exercise": "temperature_of", "kind": "wrong",
     "mistake": "Fitted the slope of log-weights against scores and returned it; that slope "
                "is 1/T, not T.",
     "teacher_says": "log w = s / T + const, so the fitted slope is 1/T: invert it "
                     "(T = sum s^2 / sum s*l).",
     "code": '''
import numpy as np

def temperature_of(scores, weights):
    keep = weights > 0
    n_keep = keep.sum(axis=-1, keepdims=True)
    lw = np.log(np.where(keep, weights, 1.0))
    s_mean = np.where(keep, scores, 0).sum(axis=-1, keepdims=True) / n_keep
    l_mean = np.where(keep, lw, 0).sum(axis=-1, keepdims=True) / n_keep
    s_c = np.where(keep, scores - s_mean, 0)
    l_c = np.where(keep, lw - l_mean, 0)
    slope = np.sum(s_c * l_c) / np.sum(s_c * s_c)
    return float(slope)
'''},

    # ------------------------------------------------------------------ saturated_weight
    {"exercise": "saturated_weight", "kind": "correct",
     "idea": "divide through by e^s: the lower key gets 1 / (1 + e^16)",
     "code": '''
import math

saturated_weight = 1.0 / (1.0 + math.exp(16))
'''},
    {"exercise": "saturated_weight", "kind": "robustness",
     "idea": "runs torch.softmax on the two raw scores and keeps the result as a 0-d float32 "
             "NumPy array instead of a Python float",
     "code": '''
import numpy as np
import torch

saturated_weight = torch.softmax(torch.tensor([16.0, 0.0]), dim=0)[1].numpy()
'''},
    {"exercise": "saturated_weight", "kind": "wrong",
     "mistake": "Gave the weight of the key with the higher score, 1 / (1 + e^-16), which is "
                "almost 1, instead of the lower one.",
     "teacher_says": "The question asks for the lower-scoring key: its weight is the tiny "
                     "complement, 1 - that.",
     "code": '''
import math

saturated_weight = 1 / (1 + math.exp(-16))
'''},
    {"exercise": "saturated_weight", "kind": "wrong",
     "mistake": "Divided the score difference by sqrt(d_k) = 16 first, although the exercise is "
                "about the raw, unscaled scores, and got 1 / (1 + e) = 0.27.",
     "teacher_says": "The point is what happens without the scaling: use the raw difference "
                     "of 16, not 16 / sqrt(256).",
     "code": '''
import math

saturated_weight = 1 / (1 + math.exp(16 / math.sqrt(256)))
'''},
    {"exercise": "saturated_weight", "kind": "wrong",
     "mistake": "Used the variance d_k = 256 as the gap between the scores instead of the "
                "standard deviation 16.",
     "teacher_says": "One standard deviation is sqrt(256) = 16; the scores differ by 16, "
                     "not 256.",
     "code": '''
import math

saturated_weight = 1 / (1 + math.exp(256))
'''},

    # ------------------------------------------------------------------ score_std
    {"exercise": "score_std", "kind": "correct",
     "idea": "variance of a sum of d_k unit-variance products is d_k; std is its root",
     "code": '''
d_k = 256
score_std = d_k ** 0.5
'''},
    {"exercise": "score_std", "kind": "robustness",
     "idea": "the exact value as a 0-d NumPy array (np.sqrt of an array) rather than a float",
     "code": '''
import numpy as np

score_std = np.sqrt(np.array(256.0))
'''},
    {"exercise": "score_std", "kind": "wrong",
     "mistake": "Answered with the variance, d_k = 256, instead of the standard deviation.",
     "teacher_says": "The variance of the sum is 256; the standard deviation is its square "
                     "root.",
     "code": '''
score_std = 256
'''},
    {"exercise": "score_std", "kind": "wrong",
     "mistake": "Gave the standard deviation after dividing by sqrt(d_k), i.e. 1, though the "
                "question asks before any scaling.",
     "teacher_says": "Before scaling the spread grows with d_k; 1 is what the division by "
                     "sqrt(d_k) brings it back to.",
     "code": '''
score_std = 1.0
'''},
    {"exercise": "score_std", "kind": "wrong",
     "mistake": "Added the variances of q_c and k_c (1 + 1 = 2) for each product instead of "
                "multiplying them, giving sqrt(2 * 256).",
     "teacher_says": "For independent zero-mean factors Var[q_c k_c] = E[q_c^2] E[k_c^2] = 1, "
                     "a product of the variances, not a sum.",
     "code": '''
import math

score_std = math.sqrt(2 * 256)
'''},
]

_WRITER_E = ANSWERS
ANSWERS = _WRITER_A + _WRITER_E
