_SIM = '''
import numpy as np

def head_similarity(per_head):
    x = np.asarray(per_head)
    h = x.shape[-3]
    flat = np.moveaxis(x, -3, 0).reshape(h, -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    return unit @ unit.T
'''

_MOH = '''
import numpy as np

def moh_gates(scores, top_k):
    s = np.asarray(scores)
    h = s.shape[-1]
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(s, axis=-1)[..., -top_k, None]
    return np.where(s >= kth, h * p, 0.0)
'''

ANSWERS = [
    # ---------------- diversity_penalty ----------------
    {"exercise": "diversity_penalty", "kind": "correct", "idea": "head_similarity, mean of the off-diagonal entries with ~np.eye",
     "code": _SIM + '''

def diversity_penalty(weights):
    s = head_similarity(weights)
    h = s.shape[0]
    return float(s[~np.eye(h, dtype=bool)].mean())
'''},
    {"exercise": "diversity_penalty", "kind": "correct", "idea": "(sum of all entries - trace) / (h (h - 1)), with einsum for the Gram matrix",
     "code": '''
import numpy as np

def diversity_penalty(weights):
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h = w.shape[0]
    flat = w.reshape(h, -1)
    norms = np.maximum(np.sqrt(np.einsum("if,if->i", flat, flat)), 1e-12)
    unit = flat / norms[:, None]
    gram = np.einsum("if,jf->ij", unit, unit)
    return float((gram.sum() - np.trace(gram)) / (h * (h - 1)))
'''},
    {"exercise": "diversity_penalty", "kind": "correct", "idea": "mean over the upper triangle (i < j): the matrix is symmetric",
     "code": _SIM + '''

def diversity_penalty(weights):
    s = head_similarity(weights)
    i, j = np.triu_indices(s.shape[0], k=1)
    return float(s[i, j].mean())
'''},
    {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "includes the diagonal (each head with itself) in the mean",
     "teacher_says": "only pairs of distinct heads count: leave out the diagonal of 1s",
     "code": _SIM + '''

def diversity_penalty(weights):
    return float(head_similarity(weights).mean())
'''},
    {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "sums over the pairs instead of averaging",
     "teacher_says": "the penalty is the mean similarity over distinct pairs, not the sum",
     "code": _SIM + '''

def diversity_penalty(weights):
    s = head_similarity(weights)
    return float(s[~np.eye(s.shape[0], dtype=bool)].sum())
'''},
    {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "uses raw dot products of the maps (no normalisation)",
     "teacher_says": "the redundancy is a cosine similarity: divide by the norms",
     "code": '''
import numpy as np

def diversity_penalty(weights):
    w = np.moveaxis(np.asarray(weights), -3, 0)
    h = w.shape[0]
    flat = w.reshape(h, -1)
    g = flat @ flat.T
    return float(g[~np.eye(h, dtype=bool)].mean())
'''},
    {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "computes the similarity per query row (cosine of each row pair) and averages, instead of flattening each head's maps",
     "teacher_says": "each head's maps are flattened into one vector before the cosine; averaging row cosines gives another number",
     "code": '''
import numpy as np

def diversity_penalty(weights):
    w = np.asarray(weights)
    h = w.shape[-3]
    unit = w / np.maximum(np.linalg.norm(w, axis=-1, keepdims=True), 1e-12)
    sims = np.einsum("...aqk,...bqk->...ab", unit, unit) / w.shape[-2]
    sims = sims.reshape(-1, h, h).mean(axis=0)
    return float(sims[~np.eye(h, dtype=bool)].mean())
'''},
    {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "returns 1 - similarity (a diversity, not the redundancy)",
     "teacher_says": "the penalty is the mean similarity itself; minimising it makes the heads diverse",
     "code": _SIM + '''

def diversity_penalty(weights):
    s = head_similarity(weights)
    return float(1 - s[~np.eye(s.shape[0], dtype=bool)].mean())
'''},
    {"exercise": "diversity_penalty", "kind": "robustness", "idea": "returns the (h, h) off-diagonal matrix instead of a number",
     "mistake": "returns an array",
     "teacher_says": "return one number, the mean",
     "code": _SIM + '''

def diversity_penalty(weights):
    s = head_similarity(weights)
    return s * ~np.eye(s.shape[0], dtype=bool)
'''},
    # ---------------- moh_gates ----------------
    {"exercise": "moh_gates", "kind": "correct", "idea": "stable softmax, threshold at the k-th largest score with np.sort",
     "code": _MOH},
    {"exercise": "moh_gates", "kind": "correct", "idea": "argsort, put_along_axis of a boolean top-k mask, softmax via mha.softmax",
     "code": '''
import numpy as np
import mha

def moh_gates(scores, top_k):
    s = np.asarray(scores)
    h = s.shape[-1]
    top = np.argsort(s, axis=-1)[..., h - top_k:]
    keep = np.zeros(s.shape, dtype=bool)
    np.put_along_axis(keep, top, True, axis=-1)
    return np.where(keep, h * mha.softmax(s, axis=-1), 0).astype(s.dtype)
'''},
    {"exercise": "moh_gates", "kind": "wrong", "mistake": "renormalises the softmax over the selected heads",
     "teacher_says": "the softmax runs over all h heads and is not renormalised after the top-k selection",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    s = np.asarray(scores)
    h = s.shape[-1]
    kth = np.sort(s, axis=-1)[..., -top_k, None]
    masked = np.where(s >= kth, s, -np.inf)
    e = np.exp(masked - masked.max(-1, keepdims=True))
    return h * e / e.sum(-1, keepdims=True)
'''},
    {"exercise": "moh_gates", "kind": "wrong", "mistake": "forgets the factor h",
     "teacher_says": "g = h * softmax(...): without h the gates of a full selection sum to 1, not h",
     "code": _MOH.replace("h * p", "p")},
    {"exercise": "moh_gates", "kind": "wrong", "mistake": "argsort is increasing: keeps the top_k lowest-scoring heads",
     "teacher_says": "np.argsort sorts upwards: the highest scores are the last top_k indices",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    s = np.asarray(scores)
    h = s.shape[-1]
    e = np.exp(s - s.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    idx = np.argsort(s, axis=-1)[..., :top_k]
    keep = np.zeros(s.shape, dtype=bool)
    np.put_along_axis(keep, idx, True, axis=-1)
    return np.where(keep, h * p, 0.0)
'''},
    {"exercise": "moh_gates", "kind": "wrong", "mistake": "off by one in the threshold: compares with the (k+1)-th largest score, keeping k+1 heads",
     "teacher_says": "the k-th largest is np.sort(...)[..., -top_k]; [-top_k - 1] keeps one head too many",
     "code": _MOH.replace("[..., -top_k, None]", "[..., -top_k - 1, None]")},
    {"exercise": "moh_gates", "kind": "wrong", "mistake": "softmax over the tokens axis (-2) instead of the heads",
     "teacher_says": "the router's softmax is over the h heads of each token, the last axis",
     "code": _MOH.replace("e = np.exp(s - s.max(axis=-1, keepdims=True))\n    p = e / e.sum(axis=-1, keepdims=True)", "e = np.exp(s - s.max(axis=-2, keepdims=True))\n    p = e / e.sum(axis=-2, keepdims=True)")},
    {"exercise": "moh_gates", "kind": "wrong", "mistake": "the gates are h * scores (no softmax) for the top k",
     "teacher_says": "the gates come from the softmax of the scores, not from the raw scores",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    s = np.asarray(scores)
    kth = np.sort(s, axis=-1)[..., -top_k, None]
    return np.where(s >= kth, s.shape[-1] * s, 0.0)
'''},
    {"exercise": "moh_gates", "kind": "robustness", "idea": "naive softmax without the max: overflows to NaN for large router scores",
     "mistake": "np.exp(scores) without subtracting the maximum",
     "teacher_says": "subtract each row's maximum before exp: scores of 1000 overflow",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    s = np.asarray(scores)
    h = s.shape[-1]
    e = np.exp(s)
    p = e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(s, axis=-1)[..., -top_k, None]
    return np.where(s >= kth, h * p, 0.0)
'''},
]
