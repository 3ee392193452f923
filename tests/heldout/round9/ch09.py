# writer C's answers, then writer G's (each file verbatim)
ANSWERS = [
 # ---------------------------------------------------------------- diversity_penalty
 {"exercise": "diversity_penalty", "kind": "correct",
  "idea": "cosine matrix via normalised flattened heads; off-diagonal mean as (sum - trace) / (h*(h-1))",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    vectors = np.moveaxis(weights, -3, 0).reshape(h, -1)
    norms = np.linalg.norm(vectors, axis=1)
    unit = vectors / np.where(norms > 0, norms, 1.0)[:, None]
    sim = unit @ unit.T
    return float((sim.sum() - np.trace(sim)) / (h * (h - 1)))
'''},
 {"exercise": "diversity_penalty", "kind": "robustness",
  "idea": "loops over every ordered pair of distinct heads, computing each cosine from scratch in float64, collects them in a list",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    w = np.asarray(weights, dtype=np.float64)
    h = w.shape[-3]
    cosines = []
    for a in range(h):
        for b in range(h):
            if a == b:
                continue
            u = w[..., a, :, :].ravel()
            v = w[..., b, :, :].ravel()
            nu, nv = np.sqrt(u @ u), np.sqrt(v @ v)
            cosines.append(0.0 if nu == 0 or nv == 0 else (u @ v) / (nu * nv))
    return sum(cosines) / len(cosines)
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Takes the mean of the whole (h, h) similarity matrix, diagonal of ones included.",
  "teacher_says": "Only distinct pairs count: the diagonal compares each head with itself and pushes the penalty towards 1.",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    vectors = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)
    return float((unit @ unit.T).mean())
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Flattens with reshape(h, -1) without moving the heads axis first, so with a batch axis the 'heads' are mixtures of heads and examples.",
  "teacher_says": "With weights of shape (B, h, n, n) the heads are axis -3: move it to the front before reshaping.",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    vectors = weights.reshape(h, -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    return float(sim[~np.eye(h, dtype=bool)].mean())
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Sums every off-diagonal entry (each pair twice) but divides by the number of unordered pairs h(h-1)/2, doubling the penalty.",
  "teacher_says": "The off-diagonal holds h(h-1) entries, each pair twice: divide by h(h-1), or sum only the upper triangle.",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    vectors = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    pairs = h * (h - 1) // 2
    return float(sim[~np.eye(h, dtype=bool)].sum() / pairs)
'''},
 # ---------------------------------------------------------------- moh_gates
 {"exercise": "moh_gates", "kind": "correct",
  "idea": "stable softmax over the heads, keep mask from argpartition, put_along_axis",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    shifted = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = shifted / shifted.sum(axis=-1, keepdims=True)
    top = np.argpartition(scores, h - top_k, axis=-1)[..., h - top_k:]
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, top, True, axis=-1)
    return np.where(keep, h * probs, 0).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "robustness",
  "idea": "loops over every token row with Python's math.exp and sorted(), fills a float64 buffer, casts back at the end",
  "code": '''
import math
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    rows = scores.reshape(-1, h)
    out = np.zeros(rows.shape, dtype=np.float64)
    for r, row in enumerate(rows):
        values = [float(v) for v in row]
        m = max(values)
        exps = [math.exp(v - m) for v in values]
        total = sum(exps)
        chosen = sorted(range(h), key=lambda a: values[a], reverse=True)[:top_k]
        for a in chosen:
            out[r, a] = h * exps[a] / total
    return out.reshape(scores.shape).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Renormalises the softmax over the chosen heads only, so the kept gates always add up to h.",
  "teacher_says": "The softmax runs over all h heads and is not renormalised after the top-k selection.",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    masked = np.where(scores >= kth, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return (h * e / e.sum(axis=-1, keepdims=True)).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Leaves out the factor h, returning the plain top-k softmax probabilities.",
  "teacher_says": "g = h * softmax: without the factor the gates are h times too small (and top_k = h no longer gives plain attention).",
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
  "teacher_says": "np.argsort is increasing: the top k are the last k indices, [..., -top_k:].",
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

"""Writer G, chapter 09 (remedies for redundant heads): diversity_penalty, moh_gates."""

ANSWERS = [
    # ------------------------------------------------------------------ diversity_penalty
    {"exercise": "diversity_penalty", "kind": "correct",
     "idea": "cosine matrix from unit rows, then (total - trace) / (h (h - 1))",
     "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    unit = rows / np.where(norms == 0, 1, norms)
    sim = unit @ unit.T
    return float((sim.sum() - np.trace(sim)) / (h * (h - 1)))
'''},
    {"exercise": "diversity_penalty", "kind": "robustness",
     "idea": "Python loops over every ordered pair of distinct heads, each cosine in float64, averaged in a list",
     "code": '''
import math
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    heads = [np.asarray(weights[..., a, :, :], dtype=np.float64).ravel().tolist() for a in range(h)]
    cosines = []
    for a in range(h):
        for b in range(h):
            if a == b:
                continue
            dot = sum(u * v for u, v in zip(heads[a], heads[b]))
            na = math.sqrt(sum(u * u for u in heads[a]))
            nb = math.sqrt(sum(v * v for v in heads[b]))
            cosines.append(0.0 if na == 0 or nb == 0 else dot / (na * nb))
    return sum(cosines) / len(cosines)
'''},
    {"exercise": "diversity_penalty", "kind": "wrong",
     "mistake": "Averages the whole similarity matrix, diagonal included, so the self-similarities of 1 pull the penalty up.",
     "teacher_says": "Only distinct pairs count: leave out the diagonal (h entries of 1) and divide by h(h-1).",
     "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)
    return (unit @ unit.T).mean()
'''},
    {"exercise": "diversity_penalty", "kind": "wrong",
     "mistake": "Sums only the upper triangle (each pair once) but divides by h(h-1), the number of ordered pairs: the penalty is half of what it should be.",
     "teacher_says": "Either sum both triangles over h(h-1) or one triangle over h(h-1)/2: numerator and denominator must count the same pairs.",
     "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    return np.triu(sim, k=1).sum() / (h * (h - 1))
'''},
    {"exercise": "diversity_penalty", "kind": "wrong",
     "mistake": "Assumes a batch axis in front, (B, h, n, n), and takes the heads from axis 1; for weights without batch axes, (h, n, n), that axis is the queries.",
     "teacher_says": "The heads sit on axis -3 whatever the number of leading axes: count from the end.",
     "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[1]
    rows = np.moveaxis(weights, 1, 0).reshape(h, -1)
    unit = rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    return sim[~np.eye(h, dtype=bool)].mean()
'''},
    # ------------------------------------------------------------------ moh_gates
    {"exercise": "moh_gates", "kind": "correct",
     "idea": "stable softmax over the heads, exactly top_k heads per token from np.argpartition, times h",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    shifted = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = shifted / shifted.sum(axis=-1, keepdims=True)
    best = np.argpartition(scores, h - top_k, axis=-1)[..., h - top_k:]  # exactly top_k heads
    chosen = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(chosen, best, True, axis=-1)
    return np.where(chosen, h * probs, 0).astype(scores.dtype)
'''},
    {"exercise": "moh_gates", "kind": "robustness",
     "idea": "one token at a time with np.ndindex: softmax with math.exp, heads sorted with Python's sorted",
     "code": '''
import math
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    gates = np.zeros_like(scores)
    for index in np.ndindex(*scores.shape[:-1]):
        row = [float(s) for s in scores[index]]
        top = max(row)
        exps = [math.exp(s - top) for s in row]
        total = sum(exps)
        best = sorted(range(h), key=lambda a: row[a], reverse=True)[:top_k]
        for a in best:
            gates[index + (a,)] = h * exps[a] / total
    return gates
'''},
    {"exercise": "moh_gates", "kind": "wrong",
     "mistake": "Renormalises the softmax over the chosen heads only, so the kept gates of a token always add up to h.",
     "teacher_says": "The softmax runs over all h heads and is not renormalised after the top-k selection.",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    masked = np.where(scores >= kth, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return (h * e / e.sum(axis=-1, keepdims=True)).astype(scores.dtype)
'''},
    {"exercise": "moh_gates", "kind": "wrong",
     "mistake": "Leaves out the factor h: the gates are the plain softmax probabilities of the chosen heads.",
     "teacher_says": "g = h * softmax: the factor h makes equal routing give gates of 1, so that top_k = h is plain multi-head attention.",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return np.where(scores >= kth, probs, 0).astype(scores.dtype)
'''},
    {"exercise": "moh_gates", "kind": "wrong",
     "mistake": "Takes the first top_k indices of np.argsort, which sorts in increasing order: it keeps the lowest-scoring heads.",
     "teacher_says": "np.argsort is increasing: the top k are the last k indices ([..., -top_k:]).",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    chosen = np.argsort(scores, axis=-1)[..., :top_k]
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, chosen, True, axis=-1)
    return (h * probs * keep).astype(scores.dtype)
'''},
]

_WRITER_G = ANSWERS
ANSWERS = _WRITER_C + _WRITER_G
