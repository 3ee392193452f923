# writer C's answers, then writer G's (each file verbatim)
"""Writer C, chapter 09 (Redundancy remedies): student answers."""

ANSWERS = [
 # ---------------------------------------------------------------- diversity_penalty
 {"exercise": "diversity_penalty", "kind": "correct",
  "idea": "cosine matrix from unit rows, then (sum - trace) / (h (h - 1)) for the off-diagonal mean",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    rows = np.moveaxis(np.asarray(weights), -3, 0).reshape(h, -1)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    unit = np.where(norms > 0, rows / np.where(norms > 0, norms, 1), 0)
    sim = unit @ unit.T
    return float((sim.sum() - np.trace(sim)) / (h * (h - 1)))
'''},
 {"exercise": "diversity_penalty", "kind": "robustness",
  "idea": "loops over every ordered pair of distinct heads in Python, in float64, and averages a list",
  "code": '''
import math

import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    flat = [np.asarray(weights[..., a, :, :], dtype=np.float64).ravel().tolist() for a in range(h)]
    cosines = []
    for a in range(h):
        for b in range(h):
            if a == b:
                continue
            dot = sum(u * v for u, v in zip(flat[a], flat[b]))
            na = math.sqrt(sum(u * u for u in flat[a]))
            nb = math.sqrt(sum(v * v for v in flat[b]))
            cosines.append(dot / (na * nb) if na > 0 and nb > 0 else 0.0)
    return sum(cosines) / len(cosines)
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Takes the mean of the whole (h, h) similarity matrix, diagonal included, so each head's similarity 1 with itself is counted.",
  "teacher_says": "The penalty compares distinct heads only: leave out the diagonal (~np.eye(h, dtype=bool)).",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    vectors = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)
    return (unit @ unit.T).mean()
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Sums only the upper triangle (each pair once) but divides by h(h-1), the count of ordered pairs, so the mean is halved.",
  "teacher_says": "Counting each pair once is fine, but then divide by h(h-1)/2 pairs, not h(h-1).",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    vectors = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    return np.triu(sim, k=1).sum() / (h * (h - 1))
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Computes one similarity matrix per example of the batch and averages the cosines, instead of flattening each head over all leading axes first.",
  "teacher_says": "Each head is one vector over every leading axis; the mean of per-example cosines is a different number.",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    maps = weights.reshape((-1,) + weights.shape[-3:])          # (batch, h, n, n)
    vectors = maps.reshape(maps.shape[0], h, -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)
    sims = unit @ np.swapaxes(unit, -1, -2)                      # (batch, h, h)
    off = ~np.eye(h, dtype=bool)
    return sims[:, off].mean()
'''},

 # ---------------------------------------------------------------- moh_gates
 {"exercise": "moh_gates", "kind": "correct",
  "idea": "stable softmax over heads; the k-th largest from np.partition as a threshold; h * p where kept",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    z = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = z / z.sum(axis=-1, keepdims=True)
    kth = np.partition(scores, h - top_k, axis=-1)[..., h - top_k:h - top_k + 1]
    gates = np.where(scores >= kth, h * probs, 0)
    return gates.astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "robustness",
  "idea": "one token at a time in a Python loop, softmax with math.exp in float64, sorted() to find the chosen heads, cast at the end",
  "code": '''
import math

import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    rows = np.asarray(scores).reshape(-1, h)
    out = np.zeros(rows.shape, dtype=np.float64)
    for t, row in enumerate(rows.tolist()):
        top = max(row)
        exps = [math.exp(s - top) for s in row]
        total = sum(exps)
        chosen = sorted(range(h), key=lambda a: row[a], reverse=True)[:top_k]
        for a in chosen:
            out[t, a] = h * exps[a] / total
    return out.reshape(scores.shape).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Renormalises the softmax over the chosen heads only (softmax of the top-k scores), instead of keeping the softmax over all h heads.",
  "teacher_says": "The softmax runs over all h heads and is not renormalised after the top-k selection.",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    keep = scores >= kth
    z = np.where(keep, np.exp(scores - scores.max(axis=-1, keepdims=True)), 0)
    gates = h * z / z.sum(axis=-1, keepdims=True)
    return gates.astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Leaves out the factor h: the gates are just the softmax probabilities of the chosen heads.",
  "teacher_says": "MoH multiplies by h so that equal routing over all heads gives gates of 1, as in plain multi-head attention.",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    z = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = z / z.sum(axis=-1, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return np.where(scores >= kth, probs, 0).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Takes the first top_k indices of np.argsort, which sorts in increasing order, so it keeps the lowest-scoring heads.",
  "teacher_says": "np.argsort is increasing: the top k are the last k indices, argsort(...)[..., -top_k:].",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    z = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = z / z.sum(axis=-1, keepdims=True)
    chosen = np.argsort(scores, axis=-1)[..., :top_k]
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, chosen, True, axis=-1)
    return (h * probs * keep).astype(scores.dtype)
'''},
]

_WRITER_C = ANSWERS

ANSWERS = [
 # ------------------------------------------------------------------ diversity_penalty
 {"exercise": "diversity_penalty", "kind": "correct",
  "idea": "(sum of the cosine matrix minus its trace) / (h (h - 1))",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    flat = np.moveaxis(weights, -3, 0).reshape(h, -1)
    norms = np.linalg.norm(flat, axis=1)
    unit = flat / np.where(norms > 0, norms, 1.0)[:, None]
    sim = unit @ unit.T
    return (sim.sum() - np.trace(sim)) / (h * (h - 1))
'''},
 {"exercise": "diversity_penalty", "kind": "robustness",
  "idea": "loops over the ordered pairs of distinct heads and returns a plain Python float",
  "code": '''
import math
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    maps = [np.asarray(weights[..., a, :, :], dtype=np.float64).ravel() for a in range(h)]
    total, pairs = 0.0, 0
    for a in range(h):
        for b in range(h):
            if a == b:
                continue
            na = math.sqrt(float(maps[a] @ maps[a]))
            nb = math.sqrt(float(maps[b] @ maps[b]))
            total += 0.0 if na == 0 or nb == 0 else float(maps[a] @ maps[b]) / (na * nb)
            pairs += 1
    return total / pairs
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Takes the mean of the whole (h, h) similarity matrix, diagonal included, so every head's similarity 1 with itself is counted.",
  "teacher_says": "The diagonal compares a head with itself; the penalty is the mean over distinct pairs only.",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    flat = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=-1, keepdims=True), 1e-12)
    return (unit @ unit.T).mean()
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Sums the upper triangle (each pair once) but divides by h(h-1), the number of ordered pairs: the penalty comes out half as large.",
  "teacher_says": "Count the pairs the same way you sum them: h(h-1)/2 unordered pairs for the upper triangle.",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    flat = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=-1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    return np.triu(sim, k=1).sum() / (h * (h - 1))
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Uses the raw dot products of the flattened maps, thinking attention weights are already normalised (their rows sum to 1), so no cosine is needed.",
  "teacher_says": "Rows summing to 1 is not unit length: divide by the vectors' norms to get a cosine similarity.",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    flat = np.moveaxis(weights, -3, 0).reshape(h, -1)
    sim = flat @ flat.T
    off = ~np.eye(h, dtype=bool)
    return sim[off].mean()
'''},
 # ------------------------------------------------------------------ moh_gates
 {"exercise": "moh_gates", "kind": "correct",
  "idea": "stable softmax over the heads, keep mask from argpartition, times h",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    shifted = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    probs = e / e.sum(axis=-1, keepdims=True)
    top = np.argpartition(-scores, top_k - 1, axis=-1)[..., :top_k]
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, top, True, axis=-1)
    return (h * probs * keep).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "robustness",
  "idea": "one token at a time in Python, softmax with math.exp in float64, then cast back to the scores' dtype",
  "code": '''
import math
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    rows = np.asarray(scores, dtype=np.float64).reshape(-1, h)
    gates = np.zeros_like(rows)
    for r, row in enumerate(rows):
        m = max(row)
        exps = [math.exp(s - m) for s in row]
        z = sum(exps)
        chosen = sorted(range(h), key=lambda a: row[a], reverse=True)[:top_k]
        for a in chosen:
            gates[r, a] = h * exps[a] / z
    return gates.reshape(scores.shape).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Takes the softmax over the top-k scores only (renormalises the chosen heads, as in many mixture-of-experts routers), not over all h heads.",
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
  "mistake": "Leaves out the factor h (remembers the gate as the plain softmax probability), so with k = h and equal scores the gates are 1/h, not 1.",
  "teacher_says": "The book's gate is h times the softmax, so that MoH with every head and equal scores is plain multi-head attention.",
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
  "teacher_says": "np.argsort is increasing: the top k are the last k indices (or argsort the negated scores).",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    chosen = np.argsort(scores, axis=-1)[..., :top_k]
    keep = np.zeros_like(probs)
    np.put_along_axis(keep, chosen, 1.0, axis=-1)
    return (h * probs * keep).astype(scores.dtype)
'''},
]

_WRITER_G = ANSWERS
ANSWERS = _WRITER_C + _WRITER_G
