_HS = '''
import numpy as np

def head_similarity(per_head):
    x = np.moveaxis(np.asarray(per_head), -3, 0)
    flat = x.reshape(x.shape[0], -1)
    flat = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    return flat @ flat.T
'''

ANSWERS = [
    # diversity_penalty
    {"exercise": "diversity_penalty", "kind": "correct", "idea": "head_similarity, then off-diagonal mean with ~np.eye",
     "code": _HS + '''
def diversity_penalty(weights):
    s = head_similarity(weights)
    h = s.shape[0]
    return float(s[~np.eye(h, dtype=bool)].mean())
'''},
    {"exercise": "diversity_penalty", "kind": "correct", "idea": "(sum - trace) / (h(h-1)) with an explicit loop over pairs, float64",
     "code": '''
import math
import numpy as np

def diversity_penalty(weights):
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h = w.shape[0]
    vecs = w.reshape(h, -1)
    norms = [math.sqrt(float(v @ v)) for v in vecs]
    tot = 0.0
    for a in range(h):
        for b in range(h):
            if a != b and norms[a] > 0 and norms[b] > 0:
                tot += float(vecs[a] @ vecs[b]) / (norms[a] * norms[b])
    return tot / (h * (h - 1))
'''},
    {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "includes the diagonal (mean of the whole matrix)",
     "teacher_says": "only pairs of distinct heads: leave out the diagonal, which is 1",
     "code": _HS + '''
def diversity_penalty(weights):
    return float(head_similarity(weights).mean())
'''},
    {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "divides the off-diagonal sum by h*h instead of h*(h-1)",
     "teacher_says": "there are h(h-1) ordered pairs of distinct heads",
     "code": _HS + '''
def diversity_penalty(weights):
    s = head_similarity(weights)
    h = s.shape[0]
    return float((s.sum() - np.trace(s)) / (h * h))
'''},
    {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "upper triangle including the diagonal (np.triu)",
     "teacher_says": "np.triu keeps the diagonal: use k=1, or ~np.eye",
     "code": _HS + '''
def diversity_penalty(weights):
    s = head_similarity(weights)
    iu = np.triu_indices(s.shape[0])
    return float(s[iu].mean())
'''},
    {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "takes heads from axis 1 (assumes (B, h, n, n)), wrong with no batch or extra batch axes",
     "teacher_says": "the heads are on axis -3, whatever the number of leading axes",
     "code": '''
import numpy as np

def diversity_penalty(weights):
    w = np.asarray(weights)
    h = w.shape[1] if w.ndim > 3 else w.shape[0]
    x = np.moveaxis(w, 1 if w.ndim > 3 else 0, 0).reshape(h, -1)
    x = x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)
    s = x @ x.T
    return float(s[~np.eye(h, dtype=bool)].mean())
'''},
    {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "Pearson correlation (subtracts means) instead of cosine",
     "teacher_says": "the redundancy is cosine similarity, without centring the maps",
     "code": '''
import numpy as np

def diversity_penalty(weights):
    x = np.moveaxis(np.asarray(weights), -3, 0)
    h = x.shape[0]
    c = np.corrcoef(x.reshape(h, -1))
    return float(c[~np.eye(h, dtype=bool)].mean())
'''},
    {"exercise": "diversity_penalty", "kind": "robustness", "idea": "returns a 0-d numpy array / (h,h) matrix... returns the matrix masked",
     "mistake": "returns the off-diagonal values array instead of their mean",
     "teacher_says": "return one number",
     "code": _HS + '''
def diversity_penalty(weights):
    s = head_similarity(weights)
    return s[~np.eye(s.shape[0], dtype=bool)]
'''},
    # moh_gates
    {"exercise": "moh_gates", "kind": "correct", "idea": "softmax, then argsort top-k and put_along_axis",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    s = np.asarray(scores)
    h = s.shape[-1]
    e = np.exp(s - s.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    idx = np.argsort(s, axis=-1)[..., -top_k:]
    keep = np.zeros(s.shape, dtype=bool)
    np.put_along_axis(keep, idx, True, axis=-1)
    return np.where(keep, h * p, 0.0).astype(p.dtype)
'''},
    {"exercise": "moh_gates", "kind": "correct", "idea": "threshold at the k-th largest via np.partition",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    s = np.asarray(scores)
    h = s.shape[-1]
    kth = np.partition(s, h - top_k, axis=-1)[..., h - top_k, None]
    m = s.max(-1, keepdims=True)
    p = np.exp(s - m) / np.exp(s - m).sum(-1, keepdims=True)
    return np.where(s >= kth, h * p, 0)
'''},
    {"exercise": "moh_gates", "kind": "wrong", "mistake": "renormalises the softmax over the selected heads",
     "teacher_says": "the softmax runs over all h heads and is not renormalised after the top-k",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    keep = scores >= kth
    e = np.where(keep, np.exp(scores - scores.max(-1, keepdims=True)), 0.0)
    return h * e / e.sum(-1, keepdims=True)
'''},
    {"exercise": "moh_gates", "kind": "wrong", "mistake": "forgets the factor h",
     "teacher_says": "g = h * softmax: without h, the gates of k = h are 1/h, not 1",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    e = np.exp(scores - scores.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    return np.where(scores >= kth, p, 0.0)
'''},
    {"exercise": "moh_gates", "kind": "wrong", "mistake": "argsort increasing: takes the k lowest-scoring heads",
     "teacher_says": "np.argsort sorts increasingly: the top k are the last k indices",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    idx = np.argsort(scores, axis=-1)[..., :top_k]
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, idx, True, axis=-1)
    return np.where(keep, h * p, 0.0)
'''},
    {"exercise": "moh_gates", "kind": "wrong", "mistake": "softmax over the token axis (-2) instead of the heads",
     "teacher_says": "the router's softmax is over the h heads (last axis) of each token",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    e = np.exp(scores - scores.max(-2, keepdims=True))
    p = e / e.sum(-2, keepdims=True)
    return np.where(scores >= kth, h * p, 0.0)
'''},
    {"exercise": "moh_gates", "kind": "wrong", "mistake": "takes the top-k index with -top_k-1 (off by one: keeps k+1 heads)",
     "teacher_says": "the k-th largest is at index -top_k of the sorted row; -top_k-1 keeps one head too many",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    kth = np.sort(scores, axis=-1)[..., max(-top_k - 1, -h), None]
    e = np.exp(scores - scores.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    return np.where(scores >= kth, h * p, 0.0)
'''},
    {"exercise": "moh_gates", "kind": "robustness", "idea": "unstable softmax (no max subtraction) gives NaN for large router scores",
     "mistake": "np.exp(scores) overflows for scores ~1000",
     "teacher_says": "subtract the row max before exp",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    e = np.exp(scores)
    return np.where(scores >= kth, h * e / e.sum(-1, keepdims=True), 0.0)
'''},
]
