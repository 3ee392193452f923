ANSWERS = [
    # ------------------------------------------------------------------ diversity_penalty
    {"exercise": "diversity_penalty", "kind": "correct",
     "idea": "similarity matrix by hand, then (sum - trace) / (h*(h-1))",
     "code": '''
import numpy as np


def diversity_penalty(weights):
    h = weights.shape[-3]
    vectors = np.moveaxis(weights, -3, 0).reshape(h, -1)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit = vectors / np.maximum(norms, 1e-12)
    sim = unit @ unit.T
    return float((sim.sum() - np.trace(sim)) / (h * (h - 1)))
'''},
    {"exercise": "diversity_penalty", "kind": "correct",
     "idea": "explicit loop over unordered pairs a < b with math.sqrt (the matrix is symmetric, so the mean over a < b is the off-diagonal mean)",
     "code": '''
import itertools
import math

import numpy as np


def diversity_penalty(weights):
    h = weights.shape[-3]
    heads = [np.take(weights, a, axis=-3).ravel() for a in range(h)]
    total, count = 0.0, 0
    for a, b in itertools.combinations(range(h), 2):
        na = math.sqrt(float(heads[a] @ heads[a]))
        nb = math.sqrt(float(heads[b] @ heads[b]))
        cos = 0.0 if na == 0 or nb == 0 else float(heads[a] @ heads[b]) / (na * nb)
        total += cos
        count += 1
    return total / count
'''},
    {"exercise": "diversity_penalty", "kind": "wrong",
     "mistake": "takes the mean of the whole similarity matrix, diagonal (each head with itself, 1) included",
     "teacher_says": "The diagonal compares a head with itself and is always 1: leave it out (mask with ~np.eye(h, dtype=bool)).",
     "code": '''
import numpy as np


def diversity_penalty(weights):
    h = weights.shape[-3]
    vectors = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    return (unit @ unit.T).mean()
'''},
    {"exercise": "diversity_penalty", "kind": "wrong",
     "mistake": "drops the diagonal from the sum but still divides by h*h",
     "teacher_says": "There are h*(h-1) distinct ordered pairs, not h*h: divide by the number of entries you kept.",
     "code": '''
import numpy as np


def diversity_penalty(weights):
    h = weights.shape[-3]
    vectors = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    off = sim.sum() - np.trace(sim)
    return off / h**2
'''},
    {"exercise": "diversity_penalty", "kind": "wrong",
     "mistake": "sums only the upper triangle (each pair once) but divides by h*(h-1), the count of ordered pairs: half the right value",
     "teacher_says": "Either average the upper triangle over h*(h-1)/2 pairs, or the whole off-diagonal over h*(h-1): not one sum with the other count.",
     "code": '''
import numpy as np


def diversity_penalty(weights):
    h = weights.shape[-3]
    vectors = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    return np.triu(sim, k=1).sum() / (h * (h - 1))
'''},
    {"exercise": "diversity_penalty", "kind": "wrong",
     "mistake": "compares the heads on the first sequence of the batch only (weights[0])",
     "teacher_says": "Each head's vector flattens its maps over ALL leading axes; indexing [0] throws the other sequences away.",
     "code": '''
import numpy as np


def diversity_penalty(weights):
    w = weights[0] if weights.ndim > 3 else weights  # (h, n, n)
    h = w.shape[0]
    vectors = w.reshape(h, -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    return sim[~np.eye(h, dtype=bool)].mean()
'''},
    {"exercise": "diversity_penalty", "kind": "wrong",
     "mistake": "returns 1 minus the mean similarity (a diversity score) instead of the similarity itself",
     "teacher_says": "The penalty is the redundancy, the mean similarity of distinct heads: a penalty must grow when heads are alike.",
     "code": '''
import numpy as np


def diversity_penalty(weights):
    h = weights.shape[-3]
    vectors = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    return 1.0 - sim[~np.eye(h, dtype=bool)].mean()
'''},
    {"exercise": "diversity_penalty", "kind": "wrong",
     "mistake": "averages raw dot products of the flattened maps, without normalising them to cosines",
     "teacher_says": "The redundancy is a mean of cosine similarities: divide each dot product by the two heads' norms.",
     "code": '''
import numpy as np


def diversity_penalty(weights):
    h = weights.shape[-3]
    vectors = np.moveaxis(weights, -3, 0).reshape(h, -1)
    dots = vectors @ vectors.T
    return dots[~np.eye(h, dtype=bool)].mean()
'''},
    {"exercise": "diversity_penalty", "kind": "robustness",
     "idea": "uses the package's torch functions on the NumPy input",
     "mistake": "returns a 0-d torch tensor instead of a Python float or NumPy scalar",
     "teacher_says": "weights is a NumPy array and the answer must be a number: compute it with NumPy (or call float(...) on the tensor).",
     "code": '''
import torch

from mha import analysis


def diversity_penalty(weights):
    return analysis.redundancy(analysis.head_similarity(torch.as_tensor(weights)))
'''},
    # ------------------------------------------------------------------ moh_gates
    {"exercise": "moh_gates", "kind": "correct",
     "idea": "stable softmax by hand, argsort indices of the top k written into a boolean mask with np.put_along_axis",
     "code": '''
import numpy as np


def moh_gates(scores, top_k):
    h = scores.shape[-1]
    shifted = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    probs = e / e.sum(axis=-1, keepdims=True)
    top = np.argsort(scores, axis=-1)[..., h - top_k:]  # indices of the k largest
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, top, True, axis=-1)
    return np.where(keep, h * probs, 0).astype(scores.dtype)
'''},
    {"exercise": "moh_gates", "kind": "correct",
     "idea": "torch.softmax and torch.topk with scatter, converted back to a NumPy array of the input's dtype",
     "code": '''
import numpy as np
import torch


def moh_gates(scores, top_k):
    s = torch.from_numpy(np.ascontiguousarray(scores))
    probs = torch.softmax(s, dim=-1)
    idx = torch.topk(s, top_k, dim=-1).indices
    keep = torch.zeros_like(s).scatter(-1, idx, 1.0)
    return (s.shape[-1] * probs * keep).numpy().astype(scores.dtype, copy=False)
'''},
    {"exercise": "moh_gates", "kind": "wrong",
     "mistake": "renormalises the softmax over the chosen top-k heads only",
     "teacher_says": "The softmax runs over all h heads and is not renormalised afterwards: just zero the gates of the heads outside the top k.",
     "code": '''
import numpy as np


def moh_gates(scores, top_k):
    h = scores.shape[-1]
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    keep = scores >= kth
    e = np.where(keep, np.exp(scores - scores.max(axis=-1, keepdims=True)), 0.0)
    return (h * e / e.sum(axis=-1, keepdims=True)).astype(scores.dtype)
'''},
    {"exercise": "moh_gates", "kind": "wrong",
     "mistake": "forgets the factor h in front of the softmax",
     "teacher_says": "g = h * softmax(...): the factor h makes every gate 1 when the router is uniform and k = h.",
     "code": '''
import numpy as np


def moh_gates(scores, top_k):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return np.where(scores >= kth, probs, 0).astype(scores.dtype)
'''},
    {"exercise": "moh_gates", "kind": "wrong",
     "mistake": "takes the first k entries of np.argsort, which are the k LOWEST scores (argsort is increasing)",
     "teacher_says": "np.argsort sorts in increasing order: the top k are the LAST k indices, [..., -top_k:].",
     "code": '''
import numpy as np


def moh_gates(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    top = np.argsort(scores, axis=-1)[..., :top_k]
    keep = np.zeros_like(scores, dtype=bool)
    np.put_along_axis(keep, top, True, axis=-1)
    return (h * probs * keep).astype(scores.dtype)
'''},
    {"exercise": "moh_gates", "kind": "wrong",
     "mistake": "runs the softmax over the tokens axis (-2) instead of the heads axis",
     "teacher_says": "Each token routes over its h heads: the softmax is over the last axis, one distribution per token.",
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
     "mistake": "scales the gates by top_k instead of h",
     "teacher_says": "The factor is the number of heads h, not the number of chosen heads k.",
     "code": '''
import numpy as np


def moh_gates(scores, top_k):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return np.where(scores >= kth, top_k * probs, 0).astype(scores.dtype)
'''},
    {"exercise": "moh_gates", "kind": "wrong",
     "mistake": "keeps the heads strictly above the k-th largest score, so only k-1 heads per token survive",
     "teacher_says": "The k-th largest score is itself in the top k: compare with >=, not >.",
     "code": '''
import numpy as np


def moh_gates(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return np.where(scores > kth, h * probs, 0).astype(scores.dtype)
'''},
    {"exercise": "moh_gates", "kind": "robustness",
     "idea": "right values, computed in float64 for safety",
     "mistake": "converts to float64 and never converts back, so float32 scores give float64 gates",
     "teacher_says": "Return the scores' dtype: cast the result back with .astype(scores.dtype).",
     "code": '''
import numpy as np


def moh_gates(scores, top_k):
    s = np.asarray(scores, dtype=np.float64)
    h = s.shape[-1]
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(s, axis=-1)[..., -top_k, None]
    return np.where(s >= kth, h * probs, 0.0)
'''},
]
