ANSWERS = [
 # ------------------------------------------------------------------ softmax
 {"exercise": "softmax", "kind": "correct",
  "idea": "move the axis to the end, work on the last axis with [..., None], move it back",
  "code": '''
import numpy as np
def softmax(x, axis=-1):
    z = np.moveaxis(x, axis, -1)
    shifted = z - z.max(axis=-1)[..., None]
    e = np.exp(shifted)
    out = e / e.sum(axis=-1)[..., None]
    return np.moveaxis(out, -1, axis)
'''},
 {"exercise": "softmax", "kind": "correct",
  "idea": "log-sum-exp form: exp(x - logsumexp(x)), with np.expand_dims instead of keepdims",
  "code": '''
import numpy as np
def softmax(x, axis=-1):
    m = np.expand_dims(np.amax(x, axis=axis), axis)
    lse = m + np.expand_dims(np.log(np.sum(np.exp(x - m), axis=axis)), axis)
    return np.exp(x - lse)
'''},
 {"exercise": "softmax", "kind": "wrong",
  "mistake": "sums without keepdims, so the row sums broadcast against the wrong axis (or fail to broadcast)",
  "teacher_says": "Use keepdims=True on the sum (and the max) so that the reduced axis stays as size 1 and broadcasts back along the axis you reduced.",
  "code": '''
import numpy as np
def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis)
'''},
 {"exercise": "softmax", "kind": "wrong",
  "mistake": "ignores the axis argument and always normalises the last axis",
  "teacher_says": "Pass axis through to both the max and the sum: softmax(x, axis=0) must make the columns sum to 1, not the rows.",
  "code": '''
import numpy as np
def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''},
 {"exercise": "softmax", "kind": "wrong",
  "mistake": "takes the maximum along the last axis (copied from the hint's example) but sums along `axis`, so for another axis each entry of a slice is shifted by a different constant",
  "teacher_says": "The shift must be the same number for every entry of the slice you normalise: take the max along the same axis as the sum.",
  "code": '''
import numpy as np
def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
'''},
 {"exercise": "softmax", "kind": "wrong",
  "mistake": "normalises by the sum of the whole array instead of the sum along the axis",
  "teacher_says": "Each slice along `axis` must sum to 1: give np.sum the axis (with keepdims=True).",
  "code": '''
import numpy as np
def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum()
'''},
 {"exercise": "softmax", "kind": "wrong",
  "mistake": "the naive formula without subtracting the maximum: overflows to inf/nan for large scores such as 1000",
  "teacher_says": "Subtract the maximum along the axis before np.exp: the softmax is unchanged and nothing overflows.",
  "code": '''
import numpy as np
def softmax(x, axis=-1):
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)
'''},
 {"exercise": "softmax", "kind": "wrong",
  "mistake": "returns the log-softmax: forgot the final exponential after the log-sum-exp trick",
  "teacher_says": "x - logsumexp(x) is log softmax(x); exponentiate it to get weights that are positive and sum to 1.",
  "code": '''
import numpy as np
def softmax(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    return x - m - np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
'''},
 {"exercise": "softmax", "kind": "robustness",
  "idea": "in-place arithmetic to save memory",
  "mistake": "subtracts the maximum and exponentiates in place, overwriting the caller's array (right values returned, input destroyed)",
  "teacher_says": "Never modify the argument: x - x.max(...) makes a new array; `x -= ...` and np.exp(x, out=x) change the caller's scores.",
  "code": '''
import numpy as np
def softmax(x, axis=-1):
    x -= x.max(axis=axis, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=axis, keepdims=True)
    return x
'''},
 # ------------------------------------------------- scaled_dot_product_attention
 {"exercise": "scaled_dot_product_attention", "kind": "correct",
  "idea": "einsum for both products; masked max replaced by 0 where a row is empty; np.divide with where= for the empty rows",
  "code": '''
import math
import numpy as np
def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = np.einsum("...qd,...kd->...qk", q, k) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(scores - m)
    total = e.sum(axis=-1, keepdims=True)
    weights = np.divide(e, total, out=np.zeros_like(e), where=total > 0)
    out = np.einsum("...qk,...kd->...qd", weights, v)
    return out, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "correct",
  "idea": "scale the queries before the product (q / sqrt(d_k)) and let mha.softmax handle rows of -inf; np.matmul with np.swapaxes",
  "code": '''
import numpy as np
import mha
def scaled_dot_product_attention(q, k, v, mask=None):
    scale = 1.0 / q.shape[-1] ** 0.5
    scores = np.matmul(q * scale, np.swapaxes(k, -1, -2))
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores, axis=-1)
    return np.matmul(weights, v), weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong",
  "mistake": "softmax over the queries axis (-2) instead of the keys axis",
  "teacher_says": "Each query's row of weights must sum to 1: the softmax runs over the last axis (the keys).",
  "code": '''
import math
import numpy as np
import mha
def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores, axis=-2)
    return weights @ v, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong",
  "mistake": "divides the scores by d_k instead of sqrt(d_k)",
  "teacher_says": "The raw scores have standard deviation sqrt(d_k); divide by math.sqrt(d_k), not by d_k, or the weights come out too flat.",
  "code": '''
import numpy as np
import mha
def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / d_k
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong",
  "mistake": "reads the mask with the opposite polarity (True = blocked), so queries attend exactly the keys they must not",
  "teacher_says": "In this book True means 'may attend': keep the score where the mask is True, np.where(mask, scores, -np.inf).",
  "code": '''
import math
import numpy as np
import mha
def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong",
  "mistake": "applies the mask to the weights after the softmax, so masked rows no longer sum to 1",
  "teacher_says": "Mask the scores (set them to -inf) before the softmax; zeroing weights afterwards leaves the allowed weights un-renormalised.",
  "code": '''
import math
import numpy as np
import mha
def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    weights = mha.softmax(scores, axis=-1)
    if mask is not None:
        weights = weights * mask
    return weights @ v, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong",
  "mistake": "transposes the keys with .T, which reverses the batch axes too: right for 2-D inputs, broken as soon as there is a batch axis",
  "teacher_says": "Use np.swapaxes(k, -1, -2) (or k.swapaxes(-1, -2)): it swaps only the last two axes and leaves the batch axes alone.",
  "code": '''
import math
import numpy as np
import mha
def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.T / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights
'''},
 {"exercise": "scaled_dot_product_attention", "kind": "wrong",
  "mistake": "fills masked scores with -1e9 instead of -inf: a query whose keys are all masked gets uniform weights and the mean of the values instead of zeros",
  "teacher_says": "A large negative number is fine for partly masked rows, but a fully masked row must give zero weights and a zero output: detect rows with no True (mask.any(axis=-1)) and zero them.",
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
 {"exercise": "scaled_dot_product_attention", "kind": "robustness",
  "idea": "scale factor computed as a NumPy float64 scalar",
  "mistake": "np.sqrt(np.float64(d_k)) is a float64 array scalar, which promotes float32 inputs: the outputs come back float64",
  "teacher_says": "Keep the input's dtype: divide by math.sqrt(d_k) (a Python float) or cast the scale to q.dtype.",
  "code": '''
import numpy as np
def scaled_dot_product_attention(q, k, v, mask=None):
    scale = np.sqrt(np.float64(q.shape[-1]))
    scores = q @ np.swapaxes(k, -1, -2) / scale
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isneginf(m), 0.0, m)
    e = np.exp(scores - m)
    s = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(s == 0, 1.0, s)
    return weights @ v, weights
'''},
 # --------------------------------------------------------------- temperature_of
 {"exercise": "temperature_of", "kind": "correct",
  "idea": "explicit Python loop over the rows, accumulating the least-squares sums (weights that are 0 or subnormal left out)",
  "code": '''
import numpy as np
def temperature_of(scores, weights):
    s2 = np.asarray(scores, dtype=float).reshape(-1, scores.shape[-1])
    w2 = np.asarray(weights, dtype=float).reshape(-1, weights.shape[-1])
    num = 0.0
    den = 0.0
    for s_row, w_row in zip(s2, w2):
        keep = w_row >= np.finfo(float).tiny  # 0 and subnormal weights say nothing reliable
        s = s_row[keep]
        l = np.log(w_row[keep])
        s = s - s.mean()
        l = l - l.mean()
        num += np.dot(s, s)
        den += np.dot(s, l)
    return float(num / den)
'''},
 {"exercise": "temperature_of", "kind": "correct",
  "idea": "differences against each row's largest weight (never 0), least squares through the origin, vectorised with np.take_along_axis; also drops subnormal weights, whose logarithm is imprecise",
  "code": '''
import numpy as np
def temperature_of(scores, weights):
    ref = np.argmax(weights, axis=-1)[..., None]
    s_ref = np.take_along_axis(scores, ref, axis=-1)
    w_ref = np.take_along_axis(weights, ref, axis=-1)
    keep = weights >= np.finfo(weights.dtype).tiny
    ds = np.where(keep, scores - s_ref, 0.0)
    with np.errstate(divide="ignore"):
        dl = np.where(keep, np.log(np.where(keep, weights, 1.0)) - np.log(w_ref), 0.0)
    return np.sum(ds * ds) / np.sum(ds * dl)
'''},
 {"exercise": "temperature_of", "kind": "wrong",
  "mistake": "fits the slope the wrong way round and returns 1/T (sum s*l / sum s^2)",
  "teacher_says": "Centered log-weights are s / T, so the slope of l against s is 1/T: invert it, T = sum s^2 / sum s*l.",
  "code": '''
import numpy as np
def temperature_of(scores, weights):
    keep = weights > 0
    n = keep.sum(axis=-1, keepdims=True)
    l = np.log(np.where(keep, weights, 1.0))
    s = np.where(keep, scores - (scores * keep).sum(-1, keepdims=True) / n, 0.0)
    l = np.where(keep, l - (l * keep).sum(-1, keepdims=True) / n, 0.0)
    return float((s * l).sum() / (s * s).sum())
'''},
 {"exercise": "temperature_of", "kind": "wrong",
  "mistake": "takes the logarithm of every weight, including the ones that underflowed to 0, so -inf poisons the sums",
  "teacher_says": "A weight of exactly 0 carries no information about T: leave it out (keep = weights > 0) before taking logs and means.",
  "code": '''
import numpy as np
def temperature_of(scores, weights):
    l = np.log(weights)
    s = scores - scores.mean(axis=-1, keepdims=True)
    l = l - l.mean(axis=-1, keepdims=True)
    return float(np.sum(s * s) / np.sum(s * l))
'''},
 {"exercise": "temperature_of", "kind": "wrong",
  "mistake": "fits log w = s / T without centering, forgetting the log-sum-exp term that every row subtracts",
  "teacher_says": "log w_j = s_j / T - log sum_l exp(s_l / T): the second term is a per-row constant. Subtract each row's mean (over kept entries) from s and from log w before the fit.",
  "code": '''
import numpy as np
def temperature_of(scores, weights):
    keep = weights > 0
    s = scores[keep]
    l = np.log(weights[keep])
    return float(np.sum(s * s) / np.sum(s * l))
'''},
 {"exercise": "temperature_of", "kind": "wrong",
  "mistake": "uses np.log10 for the log-weights, so the answer is off by a factor ln(10)",
  "teacher_says": "The softmax uses e: take natural logarithms (np.log), or the fitted temperature is ln(10) = 2.30 times too large.",
  "code": '''
import numpy as np
def temperature_of(scores, weights):
    keep = weights > 0
    n = keep.sum(axis=-1, keepdims=True)
    l = np.log10(np.where(keep, weights, 1.0))
    s = np.where(keep, scores - (scores * keep).sum(-1, keepdims=True) / n, 0.0)
    l = np.where(keep, l - (l * keep).sum(-1, keepdims=True) / n, 0.0)
    return float((s * s).sum() / (s * l).sum())
'''},
 {"exercise": "temperature_of", "kind": "wrong",
  "mistake": "centres with one global mean over the whole array instead of per row, so the per-row log-sum-exp does not cancel",
  "teacher_says": "The constant that cancels is different in every row: subtract each row's own mean (axis=-1, over the kept entries), not the mean of the whole array.",
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
 {"exercise": "temperature_of", "kind": "robustness",
  "idea": "patches the zero weights to avoid log(0)",
  "mistake": "writes 1.0 into the caller's weights array where it is 0 (in place) before taking logs; the estimate is right but the input is modified",
  "teacher_says": "Do not write into the arguments: build a mask keep = weights > 0 or use np.where to make a new array.",
  "code": '''
import numpy as np
def temperature_of(scores, weights):
    keep = weights >= np.finfo(weights.dtype).tiny
    weights[~keep] = 1.0
    l = np.log(weights)
    n = keep.sum(axis=-1, keepdims=True)
    s = np.where(keep, scores - (scores * keep).sum(-1, keepdims=True) / n, 0.0)
    l = np.where(keep, l - (l * keep).sum(-1, keepdims=True) / n, 0.0)
    return float((s * s).sum() / (s * l).sum())
'''},
 # ------------------------------------------------------------- saturated_weight
 {"exercise": "saturated_weight", "kind": "correct",
  "idea": "the sigmoid form 1 / (1 + e^16)",
  "code": '''
import math
saturated_weight = 1 / (1 + math.exp(16))
'''},
 {"exercise": "saturated_weight", "kind": "correct",
  "idea": "runs the package's softmax on the two scores and reads the lower one",
  "code": '''
import numpy as np
import mha
saturated_weight = float(mha.softmax(np.array([0.0, -16.0]))[1])
'''},
 {"exercise": "saturated_weight", "kind": "wrong",
  "mistake": "divides the difference by sqrt(d_k) = 16 as if the scores were scaled, so it computes the weight for a difference of 1",
  "teacher_says": "The exercise is about the raw, unscaled scores: the difference is 16, so the weight is e^-16 / (1 + e^-16).",
  "code": '''
import math
diff = 16 / math.sqrt(256)
saturated_weight = math.exp(-diff) / (1 + math.exp(-diff))
'''},
 {"exercise": "saturated_weight", "kind": "wrong",
  "mistake": "gives the weight of the key with the higher score",
  "teacher_says": "The question asks for the key with the lower score: e^(s-16) / (e^s + e^(s-16)), which is tiny, not almost 1.",
  "code": '''
import math
saturated_weight = 1 / (1 + math.exp(-16))
'''},
 {"exercise": "saturated_weight", "kind": "wrong",
  "mistake": "sign slip in the denominator: exp(-16) / (1 + exp(16)) instead of exp(-16) / (1 + exp(-16))",
  "teacher_says": "Divide numerator and denominator by e^s consistently: e^-16 / (1 + e^-16) = 1 / (1 + e^16).",
  "code": '''
import math
saturated_weight = math.exp(-16) / (1 + math.exp(16))
'''},
 {"exercise": "saturated_weight", "kind": "wrong",
  "mistake": "assumes a saturated softmax gives exactly 0 to the weaker key",
  "teacher_says": "Saturated means tiny, not zero: e^-16 is about 1.1e-7 and float64 represents it fine. Compute it.",
  "code": '''
saturated_weight = 0.0
'''},
 {"exercise": "saturated_weight", "kind": "wrong",
  "mistake": "uses the variance d_k = 256 as the score difference instead of the standard deviation 16",
  "teacher_says": "One standard deviation of the raw scores is sqrt(256) = 16, and the statement says the scores differ by 16, not 256.",
  "code": '''
import math
d_k = 256
saturated_weight = math.exp(-d_k) / (1 + math.exp(-d_k))
'''},
 {"exercise": "saturated_weight", "kind": "robustness",
  "idea": "computes it with torch",
  "mistake": "the answer is a 0-d float32 torch tensor instead of a Python or NumPy number",
  "teacher_says": "Assign a plain number: call .item() on the tensor (or use math.exp).",
  "code": '''
import torch
saturated_weight = torch.softmax(torch.tensor([16.0, 0.0]), dim=0)[1]
'''},
 # ------------------------------------------------------------------- score_std
 {"exercise": "score_std", "kind": "correct",
  "idea": "variance of the sum = d_k * Var(q_c) * Var(k_c), then the square root with math.sqrt",
  "code": '''
import math
d_k = 256
var_product = 1.0 * 1.0
score_std = math.sqrt(d_k * var_product)
'''},
 {"exercise": "score_std", "kind": "correct",
  "idea": "adds the 256 unit variances in a generator and takes numpy's square root",
  "code": '''
import numpy as np
score_std = float(np.sqrt(sum(1.0 for _ in range(256))))
'''},
 {"exercise": "score_std", "kind": "wrong",
  "mistake": "gives the variance of q.k (256) instead of its standard deviation",
  "teacher_says": "A sum of 256 independent unit-variance terms has variance 256; the standard deviation is its square root, 16.",
  "code": '''
d_k = 256
score_std = d_k
'''},
 {"exercise": "score_std", "kind": "wrong",
  "mistake": "thinks each product q_c k_c has variance Var(q_c) + Var(k_c) = 2, giving sqrt(512)",
  "teacher_says": "For independent zero-mean factors Var(q_c k_c) = E[q_c^2] E[k_c^2] = 1, not the sum of the variances.",
  "code": '''
import math
score_std = math.sqrt(2 * 256)
'''},
 {"exercise": "score_std", "kind": "wrong",
  "mistake": "takes the square root twice (256 ** 0.25 = 4)",
  "teacher_says": "The variance is 256 and the standard deviation is sqrt(256) = 16: one square root, not two.",
  "code": '''
import math
score_std = math.sqrt(math.sqrt(256))
'''},
 {"exercise": "score_std", "kind": "wrong",
  "mistake": "answers with the scaling factor 1/sqrt(d_k) instead of the standard deviation",
  "teacher_says": "1/sqrt(d_k) is what you multiply the scores by to fix their spread; the spread itself, before scaling, is sqrt(d_k) = 16.",
  "code": '''
import math
score_std = 1 / math.sqrt(256)
'''},
 {"exercise": "score_std", "kind": "wrong",
  "mistake": "answers with the standard deviation after the division by sqrt(d_k) (1), not the raw one",
  "teacher_says": "The question is about q . k before any scaling: its standard deviation grows like sqrt(d_k) = 16.",
  "code": '''
score_std = 1.0
'''},
 {"exercise": "score_std", "kind": "robustness",
  "idea": "Monte-Carlo estimate instead of the exact value",
  "mistake": "estimates the standard deviation from 20000 random pairs: a NumPy float close to 16 (within about 0.5%) but not exactly 16",
  "teacher_says": "The simulation is a good check, but the exercise asks for the exact value, sqrt(256) = 16.",
  "code": '''
import numpy as np
rng = np.random.default_rng(0)
q = rng.standard_normal((20000, 256))
k = rng.standard_normal((20000, 256))
score_std = np.einsum("pc,pc->p", q, k).std()
'''},
]
