ANSWERS = [
 # ------------------------------------------------------------------ diversity_penalty
 {"exercise": "diversity_penalty", "kind": "correct",
  "idea": "(sum of the similarity matrix minus its trace) / (h (h - 1)), similarity built inline",
  "code": '''
import numpy as np


def diversity_penalty(weights):
    h = weights.shape[-3]
    flat = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    return float((sim.sum() - np.trace(sim)) / (h * (h - 1)))
'''},
 {"exercise": "diversity_penalty", "kind": "correct",
  "idea": "mean over the unordered pairs a < b with itertools.combinations (the matrix is symmetric, so this is the same mean)",
  "code": '''
import itertools
import math

import numpy as np


def diversity_penalty(weights):
    h = weights.shape[-3]
    heads = [np.take(weights, a, axis=-3).ravel() for a in range(h)]
    cosines = []
    for a, b in itertools.combinations(range(h), 2):
        na, nb = math.sqrt(heads[a] @ heads[a]), math.sqrt(heads[b] @ heads[b])
        cosines.append(0.0 if na == 0 or nb == 0 else (heads[a] @ heads[b]) / (na * nb))
    return sum(cosines) / len(cosines)
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "takes the mean of the whole similarity matrix, diagonal (each head with itself, 1) included",
  "teacher_says": "The diagonal compares each head with itself and is always 1: leave it out and average the h(h-1) off-diagonal entries.",
  "code": '''
import numpy as np


def diversity_penalty(weights):
    h = weights.shape[-3]
    flat = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    return (unit @ unit.T).mean()
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "removes the diagonal but still divides by h*h",
  "teacher_says": "There are h(h-1) distinct ordered pairs, not h^2: divide the off-diagonal sum by h*(h-1).",
  "code": '''
import numpy as np


def diversity_penalty(weights):
    h = weights.shape[-3]
    flat = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    off = sim * (1 - np.eye(h))
    return off.sum() / h ** 2
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "averages the upper triangle with np.triu_indices(h), which keeps the diagonal",
  "teacher_says": "np.triu_indices(h) includes the diagonal; use k=1 (np.triu_indices(h, 1)) to keep only the pairs of distinct heads.",
  "code": '''
import numpy as np


def diversity_penalty(weights):
    h = weights.shape[-3]
    flat = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    rows, cols = np.triu_indices(h)
    return sim[rows, cols].mean()
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "flattens the heads with reshape(h, -1) without moving the heads axis first, which mixes heads and batch elements when weights have a batch axis",
  "teacher_says": "Heads are on axis -3: np.moveaxis(weights, -3, 0) before reshape(h, -1), otherwise each row is not one head.",
  "code": '''
import numpy as np


def diversity_penalty(weights):
    h = weights.shape[-3]
    flat = weights.reshape(h, -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    return sim[~np.eye(h, dtype=bool)].mean()
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "returns the diversity (1 minus the mean similarity) instead of the redundancy that is penalised",
  "teacher_says": "The penalty added to the loss is the mean similarity itself: minimising it makes heads differ. 1 - similarity would reward redundancy.",
  "code": '''
import numpy as np


def diversity_penalty(weights):
    h = weights.shape[-3]
    flat = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    return 1.0 - sim[~np.eye(h, dtype=bool)].mean()
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "compares the heads query row by query row (cosine of each pair of attention rows, then averaged) instead of flattening each head's whole map",
  "teacher_says": "The similarity of two heads is the cosine of their maps flattened over every query and batch element into one vector, not the mean of per-row cosines.",
  "code": '''
import numpy as np


def diversity_penalty(weights):
    h = weights.shape[-3]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, weights.shape[-1])  # (h, rows, n)
    rows = rows / np.maximum(np.linalg.norm(rows, axis=-1, keepdims=True), 1e-12)
    sim = np.einsum("arn,brn->ab", rows, rows) / rows.shape[1]
    return sim[~np.eye(h, dtype=bool)].mean()
'''},
 {"exercise": "diversity_penalty", "kind": "robustness",
  "idea": "calls the package's torch functions analysis.redundancy(analysis.head_similarity(...))",
  "mistake": "returns a 0-d torch tensor instead of a Python float or NumPy scalar",
  "teacher_says": "The function takes and returns NumPy: compute with NumPy (or at least convert the result with float()).",
  "code": '''
import torch

from mha import analysis


def diversity_penalty(weights):
    return analysis.redundancy(analysis.head_similarity(torch.from_numpy(weights)))
'''},
 # ------------------------------------------------------------------ moh_gates
 {"exercise": "moh_gates", "kind": "correct",
  "idea": "top-k positions with argsort and np.put_along_axis into a boolean mask, mha.softmax over all heads",
  "code": '''
import numpy as np

import mha


def moh_gates(scores, top_k):
    h = scores.shape[-1]
    chosen = np.argsort(scores, axis=-1)[..., h - top_k:]
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, chosen, True, axis=-1)
    gates = h * mha.softmax(scores, axis=-1)
    return np.where(keep, gates, 0).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "correct",
  "idea": "k-th largest with np.partition as a threshold, softmax written out with exp and the row maximum",
  "code": '''
import numpy as np


def moh_gates(scores, top_k):
    h = scores.shape[-1]
    kth = np.partition(scores, h - top_k, axis=-1)[..., h - top_k:h - top_k + 1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    gates = h * probs * (scores >= kth)
    return gates.astype(scores.dtype, copy=False)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "renormalises the softmax over the chosen heads only (softmax of the top-k scores), so the kept gates sum to h",
  "teacher_says": "The softmax runs over all h heads and is not renormalised after the top-k selection; the unchosen heads' share is simply dropped.",
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
  "mistake": "forgets the factor h in front of the softmax",
  "teacher_says": "g = h * softmax(...): the factor h makes every gate 1 when k = h and the router is uniform, so that MoH is plain MHA.",
  "code": '''
import numpy as np

import mha


def moh_gates(scores, top_k):
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return np.where(scores >= kth, mha.softmax(scores), 0.0).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "multiplies by top_k instead of the number of heads h",
  "teacher_says": "The scale is h (the number of heads, scores.shape[-1]), whatever k is.",
  "code": '''
import numpy as np

import mha


def moh_gates(scores, top_k):
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    gates = top_k * mha.softmax(scores, axis=-1)
    return np.where(scores >= kth, gates, 0).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "takes the first top_k entries of np.argsort, which are the LOWEST scores (argsort sorts in increasing order)",
  "teacher_says": "np.argsort is increasing: the top k are the last k indices, argsort(...)[..., -top_k:].",
  "code": '''
import numpy as np

import mha


def moh_gates(scores, top_k):
    h = scores.shape[-1]
    idx = np.argsort(scores, axis=-1)[..., :top_k]
    keep = np.zeros_like(scores, dtype=bool)
    np.put_along_axis(keep, idx, True, axis=-1)
    return (h * mha.softmax(scores, axis=-1) * keep).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "runs the softmax over the tokens axis (-2) instead of over the heads",
  "teacher_says": "Each token's router scores its h heads: the softmax is over the last axis (heads), one distribution per token.",
  "code": '''
import numpy as np


def moh_gates(scores, top_k):
    h = scores.shape[-1]
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    e = np.exp(scores - scores.max(axis=-2, keepdims=True))
    probs = e / e.sum(axis=-2, keepdims=True)
    return np.where(scores >= kth, h * probs, 0).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "takes the k-th largest score without keeping the last axis (no None), so the threshold broadcasts against the wrong axis: an error, or the wrong heads when n == h",
  "teacher_says": "np.sort(...)[..., -top_k] drops the heads axis; keep it with [..., -top_k, None] (or keepdims) so each token is compared with its own threshold.",
  "code": '''
import numpy as np

import mha


def moh_gates(scores, top_k):
    h = scores.shape[-1]
    threshold = np.sort(scores, axis=-1)[..., -top_k]
    keep = scores >= threshold
    return np.where(keep, h * mha.softmax(scores), 0).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "robustness",
  "idea": "right gates, computed after converting the scores to Python floats' precision",
  "mistake": "returns float64 for float32 scores (casts with astype(float) and never casts back)",
  "teacher_says": "Return the scores' dtype: cast the result back with .astype(scores.dtype).",
  "code": '''
import numpy as np


def moh_gates(scores, top_k):
    s = np.asarray(scores).astype(float)
    h = s.shape[-1]
    order = np.argsort(-s, axis=-1)
    keep = np.zeros_like(s)
    np.put_along_axis(keep, order[..., :top_k], 1.0, axis=-1)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    return h * p * keep
'''},
]
