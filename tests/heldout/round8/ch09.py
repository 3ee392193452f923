# writer C's answers, then writer G's (each file verbatim)
ANSWERS = [
 # ---------------------------------------------------------------- diversity_penalty
 {"exercise": "diversity_penalty", "kind": "correct",
  "idea": "unit vectors per head, Gram matrix, then (sum of all entries - trace) / (h (h - 1))",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    w = np.asarray(weights)
    h = w.shape[-3]
    vecs = np.moveaxis(w, -3, 0).reshape(h, -1)
    norms = np.linalg.norm(vecs, axis=1)
    unit = vecs / np.where(norms > 0, norms, 1.0)[:, None]
    sim = unit @ unit.T
    off_diagonal_sum = sim.sum() - np.trace(sim)
    return float(off_diagonal_sum / (h * (h - 1)))
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Takes the mean of the whole similarity matrix, diagonal included, so the ones of each head with itself inflate the penalty.",
  "teacher_says": "Only pairs of distinct heads count: leave out the diagonal (mask with ~np.eye(h, dtype=bool)).",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    vecs = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = vecs / np.maximum(np.linalg.norm(vecs, axis=-1, keepdims=True), 1e-12)
    return (unit @ unit.T).mean()
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Sums every off-diagonal entry (both (a, b) and (b, a)) but divides by the number of unordered pairs h(h-1)/2, doubling the mean.",
  "teacher_says": "Either sum the upper triangle and divide by h(h-1)/2, or sum all off-diagonal entries and divide by h(h-1); not a mix.",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    vecs = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = vecs / np.maximum(np.linalg.norm(vecs, axis=-1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    pairs = h * (h - 1) // 2
    return (sim.sum() - np.trace(sim)) / pairs
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Computes the redundancy of each sequence of the batch separately and averages them, instead of flattening every head over all leading axes into one vector.",
  "teacher_says": "The similarity is between whole heads, each flattened over all leading axes; a mean of per-sequence cosines is a different number.",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    per_seq = weights.reshape(-1, h, weights.shape[-2] * weights.shape[-1])  # (B, h, n*n)
    unit = per_seq / np.maximum(np.linalg.norm(per_seq, axis=-1, keepdims=True), 1e-12)
    sim = unit @ np.swapaxes(unit, -1, -2)                                   # (B, h, h)
    off = ~np.eye(h, dtype=bool)
    return sim[:, off].mean()
'''},
 # ---------------------------------------------------------------- moh_gates
 {"exercise": "moh_gates", "kind": "correct",
  "idea": "stable softmax over the heads, then a keep-mask built with argpartition + put_along_axis, times h, in the scores' dtype",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    scores = np.asarray(scores)
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    top = np.argpartition(-scores, top_k - 1, axis=-1)[..., :top_k]
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, top, True, axis=-1)
    return np.where(keep, h * probs, 0).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Takes the softmax over the chosen heads only (renormalises the kept probabilities to sum to 1), instead of over all h heads.",
  "teacher_says": "The softmax runs over all h heads and is not renormalised after the top-k selection.",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    keep = scores >= kth
    e = np.where(keep, np.exp(scores - scores.max(-1, keepdims=True)), 0)
    return (h * e / e.sum(-1, keepdims=True)).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Forgets the factor h: returns the plain softmax probabilities of the kept heads.",
  "teacher_says": "The gates are h times the softmax, so that with k = h and equal scores every gate is 1.",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return np.where(scores >= kth, probs, 0).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Compares with the k-th largest score using a strict >, so the k-th head itself is dropped and only k - 1 heads are kept.",
  "teacher_says": "The k-th largest score is one of the top k: compare with >=, or count the kept heads per row to check.",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return (h * probs * (scores > kth)).astype(scores.dtype)
'''},
]

_WRITER_C = ANSWERS

ANSWERS = [
 # ---------------------------------------------------------------- diversity_penalty
 {"exercise": "diversity_penalty", "kind": "correct",
  "idea": "cosine matrix from a Gram tensordot, then (sum of all entries - trace) / (h*(h-1))",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    w = np.asarray(weights)
    h = w.shape[-3]
    stacked = np.moveaxis(w, -3, 0)  # heads first
    others = list(range(1, stacked.ndim))
    gram = np.tensordot(stacked, stacked, axes=(others, others))  # (h, h) dot products
    norms = np.sqrt(np.diag(gram))
    scale = np.outer(norms, norms)
    cosine = np.divide(gram, scale, out=np.zeros_like(gram), where=scale > 0)
    return float((cosine.sum() - np.trace(cosine)) / (h * (h - 1)))
'''},
 {"exercise": "diversity_penalty", "kind": "robustness",
  "idea": "Python loops over every ordered pair of distinct heads, each cosine computed in float64 from flattened copies",
  "code": '''
import math

import numpy as np

def diversity_penalty(weights):
    w = np.asarray(weights, dtype=np.float64)
    h = w.shape[-3]
    flat = [w[..., a, :, :].flatten().tolist() for a in range(h)]
    total, pairs = 0.0, 0
    for a in range(h):
        for b in range(h):
            if a == b:
                continue
            dot = sum(p * q for p, q in zip(flat[a], flat[b]))
            na = math.sqrt(sum(p * p for p in flat[a]))
            nb = math.sqrt(sum(q * q for q in flat[b]))
            total += dot / (na * nb) if na > 0 and nb > 0 else 0.0
            pairs += 1
    return total / pairs
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Takes the mean of the whole similarity matrix, diagonal included, so every head's similarity 1 with itself raises the penalty.",
  "teacher_says": "Only pairs of distinct heads count: leave out the diagonal (mask with ~np.eye(h, dtype=bool)).",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    vectors = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)
    return float((unit @ unit.T).mean())
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Sums only the upper triangle (each pair once) but still divides by h*(h-1), the number of ordered pairs: the penalty is half its value.",
  "teacher_says": "Either sum both triangles over h(h-1) entries, or the upper triangle over h(h-1)/2 pairs.",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    vectors = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    return float(np.triu(sim, k=1).sum() / (h * (h - 1)))
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Computes the similarity of the heads separately for each sequence of the batch and averages the penalties, instead of flattening each head over all sequences.",
  "teacher_says": "The chapter's measure flattens a head's maps over every leading axis into one vector before the cosine.",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    per_sequence = weights.reshape(-1, h, weights.shape[-2] * weights.shape[-1])
    off = ~np.eye(h, dtype=bool)
    penalties = []
    for maps in per_sequence:
        unit = maps / np.maximum(np.linalg.norm(maps, axis=-1, keepdims=True), 1e-12)
        penalties.append((unit @ unit.T)[off].mean())
    return float(np.mean(penalties))
'''},
 # ---------------------------------------------------------------- moh_gates
 {"exercise": "moh_gates", "kind": "correct",
  "idea": "stable softmax over the heads, a boolean top-k mask from argpartition with put_along_axis, times h",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    scores = np.asarray(scores)
    h = scores.shape[-1]
    shifted = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = shifted / shifted.sum(axis=-1, keepdims=True)
    best = np.argpartition(-scores, top_k - 1, axis=-1)[..., :top_k]
    chosen = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(chosen, best, True, axis=-1)
    return np.where(chosen, h * probs, 0).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "robustness",
  "idea": "loops over every token with Python's sorted() and math.exp, builds the gates in float64, casts back at the end",
  "code": '''
import math

import numpy as np

def moh_gates(scores, top_k):
    scores = np.asarray(scores)
    h = scores.shape[-1]
    rows = scores.reshape(-1, h).astype(np.float64)
    gates = np.zeros_like(rows)
    for r, row in enumerate(rows):
        top = max(row)
        exps = [math.exp(s - top) for s in row]
        total = sum(exps)
        ranked = sorted(range(h), key=lambda a: row[a], reverse=True)
        for a in ranked[:top_k]:
            gates[r, a] = h * exps[a] / total
    return gates.reshape(scores.shape).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Takes the softmax over the chosen heads only (renormalised), not over all h heads.",
  "teacher_says": "The softmax runs over all h heads and is not renormalised after the top-k: the kept gates need not sum to h.",
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
  "mistake": "Forgets the factor h in front of the softmax.",
  "teacher_says": "g = h * softmax(...): with k = h and equal scores every gate must be exactly 1.",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return np.where(scores >= kth, probs, 0.0).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Uses np.argsort (increasing order) and keeps its first top_k indices: the lowest-scoring heads instead of the highest.",
  "teacher_says": "argsort sorts from smallest to largest: take the last top_k indices, [..., -top_k:].",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    idx = np.argsort(scores, axis=-1)[..., :top_k]
    keep = np.zeros_like(scores, dtype=bool)
    np.put_along_axis(keep, idx, True, axis=-1)
    return (h * probs * keep).astype(scores.dtype)
'''},
]

_WRITER_G = ANSWERS
ANSWERS = _WRITER_C + _WRITER_G
