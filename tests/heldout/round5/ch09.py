ANSWERS = [
 # ------------------------------------------------------------------ diversity_penalty
 {"exercise": "diversity_penalty", "kind": "correct",
  "idea": "sum of the whole similarity matrix minus its trace, over h*(h-1)",
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
  "idea": "loop over the h*(h-1)/2 unordered pairs (the matrix is symmetric), with np.triu_indices",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    heads = [weights[..., a, :, :].ravel().astype(np.float64) for a in range(h)]
    rows, cols = np.triu_indices(h, k=1)
    cosines = []
    for a, b in zip(rows, cols):
        na, nb = np.linalg.norm(heads[a]), np.linalg.norm(heads[b])
        cosines.append(0.0 if na == 0 or nb == 0 else heads[a] @ heads[b] / (na * nb))
    return np.mean(cosines)
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Takes the mean of the whole similarity matrix, diagonal included, so each head's similarity of 1 with itself pulls the penalty up.",
  "teacher_says": "The diagonal compares each head with itself (always 1 for a non-zero head): leave it out and average the h*(h-1) off-diagonal entries.",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    vectors = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    return (unit @ unit.T).mean()
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Removes the diagonal but still divides by h*h instead of the h*(h-1) distinct pairs.",
  "teacher_says": "There are h*(h-1) off-diagonal entries; dividing their sum by h^2 shrinks the mean by (h-1)/h.",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    vectors = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    off_diagonal = sim * (1 - np.eye(h))
    return off_diagonal.sum() / h ** 2
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Sums the upper triangle only (each pair once) but divides by h*(h-1), the number of ordered pairs: half the right value.",
  "teacher_says": "Either sum both triangles and divide by h*(h-1), or sum one triangle and divide by h*(h-1)/2: mixing the two halves the mean.",
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
  "mistake": "Compares the heads on the first example of the batch only (weights[0]), ignoring the others.",
  "teacher_says": "Each head's maps over ALL leading axes form one vector; indexing weights[0] drops every example but the first.",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    maps = weights[0] if weights.ndim == 4 else weights  # (h, n, n)
    h = maps.shape[0]
    vectors = maps.reshape(h, -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    return sim[~np.eye(h, dtype=bool)].mean()
'''},
 {"exercise": "diversity_penalty", "kind": "wrong",
  "mistake": "Returns 1 minus the mean similarity, a diversity score, instead of the similarity that the penalty adds to the loss.",
  "teacher_says": "The penalty is the redundancy itself, the mean similarity: it must be large when heads are alike, so that minimising the loss pushes them apart.",
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
  "mistake": "Averages raw dot products of the flattened maps without normalising them to cosines.",
  "teacher_says": "The redundancy is a mean COSINE similarity: divide each dot product by the two heads' norms.",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    vectors = np.moveaxis(weights, -3, 0).reshape(h, -1)
    dots = vectors @ vectors.T
    return dots[~np.eye(h, dtype=bool)].mean()
'''},
 {"exercise": "diversity_penalty", "kind": "robustness",
  "idea": "prints the penalty instead of returning it",
  "mistake": "The right number is printed, but the function returns None.",
  "teacher_says": "A function used in a loss must return its value: replace print(...) with return.",
  "code": '''
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    vectors = np.moveaxis(weights, -3, 0).reshape(h, -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    print("diversity penalty:", sim[~np.eye(h, dtype=bool)].mean())
'''},
 # ------------------------------------------------------------------ moh_gates
 {"exercise": "moh_gates", "kind": "correct",
  "idea": "np.argsort for the top-k indices and np.put_along_axis to build the keep mask",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    shifted = scores - scores.max(axis=-1, keepdims=True)
    probs = np.exp(shifted)
    probs /= probs.sum(axis=-1, keepdims=True)
    top = np.argsort(scores, axis=-1)[..., h - top_k:]
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, top, True, axis=-1)
    return (h * probs * keep).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "correct",
  "idea": "the same computation in PyTorch (softmax, topk, scatter), converted back to NumPy",
  "code": '''
import numpy as np
import torch

def moh_gates(scores, top_k):
    s = torch.from_numpy(np.ascontiguousarray(scores))
    h = s.shape[-1]
    probs = torch.softmax(s, dim=-1)
    chosen = torch.topk(s, top_k, dim=-1).indices
    keep = torch.zeros_like(probs).scatter_(-1, chosen, 1.0)
    return (h * probs * keep).numpy().astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Takes the softmax over the chosen top-k scores only (renormalised), instead of over all h heads.",
  "teacher_says": "The gate is h times the softmax over ALL heads, kept only for the top k and not renormalised afterwards.",
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
  "mistake": "Forgets the factor h in front of the softmax.",
  "teacher_says": "g = h * softmax(...): the factor h makes every gate 1 when k = h and the router is uniform, so that MoH reduces to multi-head attention.",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return np.where(scores >= kth, probs, 0).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Keeps the first top_k entries of np.argsort, which sorts in increasing order: the LOWEST-scoring heads.",
  "teacher_says": "np.argsort sorts increasingly: the top k are the last k indices, [..., -top_k:].",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    top = np.argsort(scores, axis=-1)[..., :top_k]
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, top, True, axis=-1)
    return (h * probs * keep).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Computes the softmax over the tokens (axis -2) instead of over the heads.",
  "teacher_says": "Each token distributes its routing over the h heads: the softmax runs along the last axis, the heads.",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-2, keepdims=True))
    probs = e / e.sum(axis=-2, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return (h * probs * (scores >= kth)).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Compares with the k-th largest score using a strict >, so only top_k - 1 heads are kept per token.",
  "teacher_says": "The k-th largest score itself belongs to the top k: keep scores >= the threshold, not >.",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return (h * probs * (scores > kth)).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong",
  "mistake": "Scales the softmax by top_k instead of by the number of heads h.",
  "teacher_says": "The book's factor is h, the number of heads, not k: with k = h and equal scores every gate must be exactly 1.",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return (top_k * probs * (scores >= kth)).astype(scores.dtype)
'''},
 {"exercise": "moh_gates", "kind": "robustness",
  "idea": "computes in float64 'for accuracy' and forgets to cast back",
  "mistake": "The values are right but a float32 input gives a float64 result, not the scores' dtype.",
  "teacher_says": "Return an array of the scores' dtype: cast back with .astype(scores.dtype).",
  "code": '''
import numpy as np

def moh_gates(scores, top_k):
    s = scores.astype(np.float64)
    h = s.shape[-1]
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(s, axis=-1)[..., -top_k, None]
    return h * probs * (s >= kth)
'''},
]
