_HS = '''
import numpy as np
def _hs(w):
    h = w.shape[-3]
    v = np.moveaxis(np.asarray(w), -3, 0).reshape(h, -1)
    u = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    return u @ u.T
'''
ANSWERS = [
 {"exercise": "diversity_penalty", "kind": "correct", "idea": "mean of off-diagonal entries", "code": _HS + '''
def diversity_penalty(weights):
    s = _hs(weights); h = s.shape[0]
    return float(s[~np.eye(h, dtype=bool)].mean())
'''},
 {"exercise": "diversity_penalty", "kind": "correct", "idea": "(sum - trace) / (h(h-1)), upper triangle doubled", "code": _HS + '''
def diversity_penalty(weights):
    s = _hs(weights); h = s.shape[0]
    iu = np.triu_indices(h, k=1)
    return float(s[iu].mean())
'''},
 {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "includes the diagonal", "teacher_says": "only distinct heads: leave out the diagonal", "code": _HS + '''
def diversity_penalty(weights):
    return float(_hs(weights).mean())
'''},
 {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "divides the off-diagonal sum by h^2", "teacher_says": "there are h(h-1) distinct ordered pairs, not h^2", "code": _HS + '''
def diversity_penalty(weights):
    s = _hs(weights); h = s.shape[0]
    return float((s.sum() - np.trace(s)) / h**2)
'''},
 {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "sum over pairs, not mean", "teacher_says": "the penalty is the mean similarity", "code": _HS + '''
def diversity_penalty(weights):
    s = _hs(weights); h = s.shape[0]
    return float(s[np.triu_indices(h, 1)].sum())
'''},
 {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "per-example similarity averaged (heads flattened per example)", "teacher_says": "each head's maps over all examples form one vector", "code": '''
import numpy as np
def diversity_penalty(weights):
    w = np.asarray(weights)
    h, n, m = w.shape[-3:]
    x = w.reshape(-1, h, n * m)
    u = x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)
    s = (u @ np.swapaxes(u, -1, -2)).mean(0)
    return float(s[~np.eye(h, dtype=bool)].mean())
'''},
 {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "1 - similarity (a diversity, not redundancy)", "teacher_says": "the penalty is the similarity itself, not 1 minus it", "code": _HS + '''
def diversity_penalty(weights):
    s = _hs(weights); h = s.shape[0]
    return float(1 - s[~np.eye(h, dtype=bool)].mean())
'''},
 {"exercise": "diversity_penalty", "kind": "robustness", "idea": "returns a torch tensor", "mistake": "torch", "teacher_says": "return a number", "code": '''
import torch
def diversity_penalty(weights):
    w = torch.as_tensor(weights)
    h = w.shape[-3]
    v = w.movedim(-3, 0).reshape(h, -1)
    u = torch.nn.functional.normalize(v, dim=1)
    s = u @ u.T
    return s[~torch.eye(h, dtype=torch.bool)].mean()
'''},
 {"exercise": "moh_gates", "kind": "correct", "idea": "softmax over all heads, threshold at k-th largest", "code": '''
import numpy as np
def moh_gates(scores, top_k):
    s = np.asarray(scores)
    h = s.shape[-1]
    e = np.exp(s - s.max(-1, keepdims=True)); p = e / e.sum(-1, keepdims=True)
    kth = np.sort(s, axis=-1)[..., -top_k, None]
    return np.where(s >= kth, h * p, 0).astype(s.dtype)
'''},
 {"exercise": "moh_gates", "kind": "correct", "idea": "argsort indices and put_along_axis", "code": '''
import numpy as np
def moh_gates(scores, top_k):
    s = np.asarray(scores)
    h = s.shape[-1]
    p = np.exp(s - s.max(-1, keepdims=True)); p = p / p.sum(-1, keepdims=True)
    idx = np.argsort(s, axis=-1)[..., h - top_k:]
    keep = np.zeros(s.shape, dtype=bool)
    np.put_along_axis(keep, idx, True, axis=-1)
    return (h * p * keep).astype(s.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong", "mistake": "softmax renormalised over the chosen heads", "teacher_says": "the softmax runs over all h heads and is not renormalised", "code": '''
import numpy as np
def moh_gates(scores, top_k):
    s = np.asarray(scores); h = s.shape[-1]
    kth = np.sort(s, axis=-1)[..., -top_k, None]
    m = np.where(s >= kth, s, -np.inf)
    e = np.exp(m - m.max(-1, keepdims=True))
    return (h * e / e.sum(-1, keepdims=True)).astype(s.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong", "mistake": "forgot the factor h", "teacher_says": "the gates carry the factor h", "code": '''
import numpy as np
def moh_gates(scores, top_k):
    s = np.asarray(scores)
    e = np.exp(s - s.max(-1, keepdims=True)); p = e / e.sum(-1, keepdims=True)
    kth = np.sort(s, axis=-1)[..., -top_k, None]
    return np.where(s >= kth, p, 0).astype(s.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong", "mistake": "argsort increasing: keeps the lowest top_k", "teacher_says": "np.argsort sorts increasing: the top k are the last k indices", "code": '''
import numpy as np
def moh_gates(scores, top_k):
    s = np.asarray(scores); h = s.shape[-1]
    p = np.exp(s - s.max(-1, keepdims=True)); p = p / p.sum(-1, keepdims=True)
    idx = np.argsort(s, axis=-1)[..., :top_k]
    keep = np.zeros(s.shape, dtype=bool)
    np.put_along_axis(keep, idx, True, axis=-1)
    return (h * p * keep).astype(s.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong", "mistake": "k-th index off by one: keeps top_k + 1", "teacher_says": "sorted[..., -top_k] is the k-th largest; -top_k-1 keeps one head too many", "code": '''
import numpy as np
def moh_gates(scores, top_k):
    s = np.asarray(scores); h = s.shape[-1]
    p = np.exp(s - s.max(-1, keepdims=True)); p = p / p.sum(-1, keepdims=True)
    kth = np.sort(s, axis=-1)[..., max(-h, -top_k - 1), None]
    return np.where(s >= kth, h * p, 0).astype(s.dtype)
'''},
 {"exercise": "moh_gates", "kind": "wrong", "mistake": "softmax over the tokens axis (-2)", "teacher_says": "the router's softmax is over the heads, the last axis", "code": '''
import numpy as np
def moh_gates(scores, top_k):
    s = np.asarray(scores); h = s.shape[-1]
    e = np.exp(s - s.max(-2, keepdims=True)); p = e / e.sum(-2, keepdims=True)
    kth = np.sort(s, axis=-1)[..., -top_k, None]
    return np.where(s >= kth, h * p, 0).astype(s.dtype)
'''},
 {"exercise": "moh_gates", "kind": "robustness", "idea": "returns float64 for float32 scores", "mistake": "dtype not kept", "teacher_says": "return the scores' dtype", "code": '''
import numpy as np
def moh_gates(scores, top_k):
    s = np.asarray(scores, dtype=np.float64); h = s.shape[-1]
    e = np.exp(s - s.max(-1, keepdims=True)); p = e / e.sum(-1, keepdims=True)
    kth = np.sort(s, axis=-1)[..., -top_k, None]
    return np.where(s >= kth, h * p, 0)
'''},
 {"exercise": "moh_gates", "kind": "wrong", "mistake": "keeps heads whose probability is above uniform (p >= 1/h) instead of the top k",
  "teacher_says": "keep exactly the top_k highest-scoring heads of each token",
  "code": '''
import numpy as np
def moh_gates(scores, top_k):
    s = np.asarray(scores); h = s.shape[-1]
    e = np.exp(s - s.max(-1, keepdims=True)); p = e / e.sum(-1, keepdims=True)
    return np.where(p >= 1 / h, h * p, 0).astype(s.dtype)
'''},
]
