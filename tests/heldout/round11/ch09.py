# writer C's answers, then writer G's (each file verbatim)
ANSWERS = [
 # ---------------------------------------------------------------- diversity_penalty
 {"exercise": "diversity_penalty", "kind": "correct",
  "idea": "cosine matrix of the flattened heads, then (sum - trace) / (h(h-1)) for the off-diagonal mean",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    flat = np.moveaxis(weights, -3, 0).reshape(h, -1)
    norm = np.linalg.norm(flat, axis=1, keepdims=True)
    unit = np.divide(flat, norm, out=np.zeros_like(flat), where=norm > 0)
    sim = unit @ unit.T
    return (sim.sum() - np.trace(sim)) / (h * (h - 1))
'''},
 {"exercise": "diversity_penalty", "kind": "robustness",
  "idea": "loops over every ordered pair of distinct heads in Python and averages their cosines as floats",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    heads = [np.asarray(weights[..., a, :, :], dtype=np.float64).ravel() for a in range(h)]
    total, count = 0.0, 0
    for a in range(h):
        for b in range(h):
            if a == b:
                continue
            na, nb = np.linalg.norm(heads[a]), np.linalg.norm(heads[b])
            total += 0.0 if na == 0 or nb == 0 else float(heads[a] @ heads[b]) / (na * nb)
            count += 1
    return total / count
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Takes the mean of the whole similarity matrix, diagonal included, so each head's similarity 1 with itself inflates the penalty.",
  "teacher_says": "Only pairs of distinct heads count: leave out the diagonal (~np.eye(h, dtype=bool)).",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    flat = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    return (unit @ unit.T).mean()
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Sums the upper triangle (each pair once) but divides by h(h-1), the number of ordered pairs, so the penalty is half the mean.",
  "teacher_says": "Count the pairs the same way in the sum and in the divisor: h(h-1)/2 unordered pairs for the upper triangle.",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    flat = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    return np.triu(sim, k=1).sum() / (h * (h - 1))
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Computes a cosine per example of the batch and averages those, instead of flattening each head over all leading axes into one vector.",
  "teacher_says": "Like head_similarity, each head is one vector over the whole batch; the mean of per-example cosines is a different number.",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    flat = weights.reshape(-1, h, weights.shape[-2] * weights.shape[-1])  # (B, h, n*n)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=-1, keepdims=True), 1e-12)
    sim = unit @ np.swapaxes(unit, -1, -2)          # (B, h, h)
    off = ~np.eye(h, dtype=bool)
    return sim[:, off].mean()
'''},
 # ---------------------------------------------------------------- moh_gates
 {"exercise": "moh_gates", "kind": "correct",
  "idea": "stable softmax over the heads, keep mask from argsort ranks via put_along_axis, times h",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    best = np.argsort(-scores, axis=-1)[..., :top_k]
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, best, True, axis=-1)
    return (h * probs * keep).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "robustness",
  "idea": "one token at a time in Python with math.exp (float64), cast back to the scores' dtype at the end",
  "code": '''
import math
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    rows = scores.reshape(-1, h)
    out = np.zeros(rows.shape, dtype=np.float64)
    for t, row in enumerate(rows):
        values = [float(s) for s in row]
        top = max(values)
        exps = [math.exp(s - top) for s in values]
        total = sum(exps)
        chosen = sorted(range(h), key=lambda a: values[a], reverse=True)[:top_k]
        for a in chosen:
            out[t, a] = h * exps[a] / total
    return out.reshape(scores.shape).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Applies the softmax over the chosen heads only (renormalised top-k), so the kept gates sum to h instead of h times their share of the full softmax.",
  "teacher_says": "The softmax runs over all h heads and is not renormalised after the top-k selection.",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    keep = scores >= kth
    masked = np.where(keep, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return (h * e / e.sum(axis=-1, keepdims=True)).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Forgets the factor h in front of the softmax, so the gates are h times too small.",
  "teacher_says": "The book scales the gates by h, so that equal routing with k = h gives gates of 1 like plain attention.",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return np.where(scores >= kth, probs, 0).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Takes the first top_k entries of np.argsort, which sorts in increasing order, so it keeps the lowest-scoring heads.",
  "teacher_says": "np.argsort sorts ascending: the top k are the last k indices ([..., -top_k:]).",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    chosen = np.argsort(scores, axis=-1)[..., :top_k]
    keep = np.zeros_like(scores, dtype=bool)
    np.put_along_axis(keep, chosen, True, axis=-1)
    return (h * probs * keep).astype(scores.dtype)
'''},
]

_WRITER_C = ANSWERS

"""Writer G, chapter 09 (Remedies for redundant heads): student answers."""

ANSWERS = [
    # ------------------------------------------------------------------ diversity_penalty
    {"exercise": "diversity_penalty", "kind": "correct",
     "idea": "cosine matrix via einsum, then (sum of all entries - trace) / (h (h - 1))",
     "code": '''
import numpy as np

def diversity_penalty(weights):
    w = np.asarray(weights)
    h = w.shape[-3]
    vectors = np.moveaxis(w, -3, 0).reshape(h, -1)
    lengths = np.linalg.norm(vectors, axis=1)
    unit = np.divide(vectors, lengths[:, None], out=np.zeros_like(vectors), where=lengths[:, None] > 0)
    sim = np.einsum("af,bf->ab", unit, unit)
    return float((sim.sum() - np.trace(sim)) / (h * (h - 1)))
'''},
    {"exercise": "diversity_penalty", "kind": "robustness",
     "idea": "loops over every ordered pair of distinct heads in Python, each cosine computed separately in float64",
     "code": '''
import math

import numpy as np

def diversity_penalty(weights):
    w = np.asarray(weights, dtype=np.float64)
    h = w.shape[-3]
    total, pairs = 0.0, 0
    for a in range(h):
        for b in range(h):
            if a == b:
                continue
            va = w[..., a, :, :].flatten()
            vb = w[..., b, :, :].flatten()
            na, nb = math.sqrt(float(va @ va)), math.sqrt(float(vb @ vb))
            total += 0.0 if na == 0 or nb == 0 else float(va @ vb) / (na * nb)
            pairs += 1
    return total / pairs
'''},
    {"exercise": "diversity_penalty", "kind": "wrong",
     "mistake": "Takes the mean of the whole (h, h) similarity matrix, diagonal included, so each head's similarity 1 with itself raises the penalty.",
     "teacher_says": "Only pairs of distinct heads count: leave out the diagonal (there are h(h-1) such entries).",
     "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    v = np.moveaxis(weights, -3, 0).reshape(h, -1)
    v = v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-12)
    return (v @ v.T).mean()
'''},
    {"exercise": "diversity_penalty", "kind": "wrong",
     "mistake": "Sums the strict upper triangle (each unordered pair once) but divides by h(h-1), the number of ordered pairs, which halves the penalty.",
     "teacher_says": "Either sum both triangles over h(h-1), or one triangle over h(h-1)/2: numerator and denominator must count the same pairs.",
     "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    v = np.moveaxis(weights, -3, 0).reshape(h, -1)
    v = v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-12)
    sim = v @ v.T
    return np.triu(sim, k=1).sum() / (h * (h - 1))
'''},
    {"exercise": "diversity_penalty", "kind": "wrong",
     "mistake": "Computes the similarity of the heads separately for each sequence of the batch and averages those, instead of flattening each head over all leading axes into one vector.",
     "teacher_says": "head_similarity flattens each head over every leading axis into one vector; a mean of per-sequence cosines is a different number.",
     "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    w = weights.reshape(-1, h, weights.shape[-2] * weights.shape[-1])  # (sequences, h, n*n)
    w = w / np.maximum(np.linalg.norm(w, axis=-1, keepdims=True), 1e-12)
    sim = np.einsum("sak,sbk->sab", w, w)  # (sequences, h, h)
    off = ~np.eye(h, dtype=bool)
    return sim[:, off].mean()
'''},
    {"exercise": "diversity_penalty", "kind": "wrong",
     "mistake": "Assumes the weights always come as (B, h, n, n) and takes the heads from axis 1, which is wrong for unbatched (h, n, n) maps or for two leading axes.",
     "teacher_says": "The heads are on the third axis from the end, whatever the leading axes: index from the end (axis -3).",
     "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[1]
    v = np.moveaxis(weights, 1, 0).reshape(h, -1)
    v = v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-12)
    sim = v @ v.T
    return sim[~np.eye(h, dtype=bool)].mean()
'''},
    # ------------------------------------------------------------------ moh_gates
    {"exercise": "moh_gates", "kind": "correct",
     "idea": "stable softmax over the heads, a keep-mask built with argpartition and put_along_axis, times h",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    scores = np.asarray(scores)
    h = scores.shape[-1]
    shifted = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = shifted / shifted.sum(axis=-1, keepdims=True)
    best = np.argpartition(-scores, top_k - 1, axis=-1)[..., :top_k]  # indices of the top_k
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, best, True, axis=-1)
    return np.where(keep, h * probs, 0).astype(scores.dtype)
'''},
    {"exercise": "moh_gates", "kind": "robustness",
     "idea": "one token at a time in Python loops (np.ndindex over the leading axes), sorting each row's head indices by score, math.exp in float64",
     "code": '''
import math

import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    gates = np.zeros(scores.shape, dtype=scores.dtype)
    for index in np.ndindex(*scores.shape[:-1]):
        row = [float(s) for s in scores[index]]
        top = max(row)
        exps = [math.exp(s - top) for s in row]
        total = sum(exps)
        chosen = sorted(range(h), key=lambda a: row[a], reverse=True)[:top_k]
        for a in chosen:
            gates[index + (a,)] = h * exps[a] / total
    return gates
'''},
    {"exercise": "moh_gates", "kind": "wrong",
     "mistake": "Renormalises the softmax over the chosen top_k heads only, so the kept gates always sum to h.",
     "teacher_says": "The softmax runs over all h heads and is not renormalised after the top-k selection.",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    keep = scores >= kth
    masked = np.where(keep, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return (h * e / e.sum(axis=-1, keepdims=True)).astype(scores.dtype)
'''},
    {"exercise": "moh_gates", "kind": "wrong",
     "mistake": "Forgets the factor h: the gates are the plain softmax probabilities of the top-k heads.",
     "teacher_says": "g = h * softmax: the factor h is what makes k = h with equal scores give gates of exactly 1.",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return np.where(scores >= kth, probs, 0).astype(scores.dtype)
'''},
    {"exercise": "moh_gates", "kind": "wrong",
     "mistake": "Takes the softmax over the tokens (axis -2) instead of over the heads of each token.",
     "teacher_says": "Each token routes over its h heads: the softmax of x_t W_r runs over the last axis.",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-2, keepdims=True))
    probs = e / e.sum(axis=-2, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return np.where(scores >= kth, h * probs, 0).astype(scores.dtype)
'''},
    {"exercise": "moh_gates", "kind": "wrong",
     "mistake": "Forgets that np.argsort sorts in increasing order and keeps its first top_k indices: the lowest-scoring heads.",
     "teacher_says": "argsort is increasing: the top k are the last k indices (argsort(...)[..., -top_k:]), or sort the negated scores.",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    chosen = np.argsort(scores, axis=-1)[..., :top_k]
    gates = np.zeros_like(probs)
    np.put_along_axis(gates, chosen, np.take_along_axis(h * probs, chosen, axis=-1), axis=-1)
    return gates
'''},
]

_WRITER_G = ANSWERS
ANSWERS = _WRITER_C + _WRITER_G
