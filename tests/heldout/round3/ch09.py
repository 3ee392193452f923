_DP = '''
import numpy as np

def diversity_penalty(weights):
    x = np.asarray(weights, dtype=np.float64)
    h = x.shape[-3]
    flat = np.moveaxis(x, -3, 0).reshape(h, -1)
    n = np.linalg.norm(flat, axis=1)
    u = flat / np.where(n > 0, n, 1)[:, None]
    sim = u @ u.T
    return float((sim.sum() - np.trace(sim)) / (h * (h - 1)))
'''
_MOH = '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return np.where(scores >= kth, h * p, 0).astype(scores.dtype)
'''
ANSWERS = [
    {"exercise": "diversity_penalty", "kind": "correct", "idea": "head similarity matrix, mean of off-diagonal", "code": _DP},
    {"exercise": "diversity_penalty", "kind": "correct", "idea": "explicit loop over pairs a<b (symmetric)",
     "code": '''
import math
import numpy as np

def diversity_penalty(weights):
    h = weights.shape[-3]
    vecs = [np.asarray(weights[..., a, :, :], dtype=float).ravel() for a in range(h)]
    total, count = 0.0, 0
    for a in range(h):
        for b in range(a + 1, h):
            na, nb = math.sqrt(vecs[a] @ vecs[a]), math.sqrt(vecs[b] @ vecs[b])
            total += 0.0 if na == 0 or nb == 0 else float(vecs[a] @ vecs[b]) / (na * nb)
            count += 1
    return total / count
'''},
    {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "mean over the whole matrix, diagonal included",
     "teacher_says": "only pairs of distinct heads count: leave the diagonal (each head with itself, 1) out",
     "code": _DP.replace("(sim.sum() - np.trace(sim)) / (h * (h - 1))", "sim.mean()")},
    {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "divides the off-diagonal sum by h*h",
     "teacher_says": "there are h*(h-1) ordered distinct pairs, not h*h",
     "code": _DP.replace("(h * (h - 1))", "(h * h)")},
    {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "sum over pairs a<b divided by h*(h-1) (half of the mean)",
     "teacher_says": "count each unordered pair once and divide by h(h-1)/2, or both orders and divide by h(h-1)",
     "code": _DP.replace("(sim.sum() - np.trace(sim)) / (h * (h - 1))", "np.triu(sim, 1).sum() / (h * (h - 1))")},
    {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "heads axis taken as axis 0 (batch) by habit",
     "teacher_says": "heads are on axis -3; axis 0 is the batch",
     "code": _DP.replace("h = x.shape[-3]", "h = x.shape[0]").replace("np.moveaxis(x, -3, 0)", "x")},
    {"exercise": "diversity_penalty", "kind": "wrong", "mistake": "similarity computed per query row then averaged",
     "teacher_says": "each head's whole map (over every leading axis) is one vector; cosines per row are another measure",
     "code": '''
import numpy as np

def diversity_penalty(weights):
    x = np.asarray(weights, dtype=float)
    h = x.shape[-3]
    x = np.moveaxis(x, -3, -2)  # (..., n, h, n)
    n = np.linalg.norm(x, axis=-1, keepdims=True)
    u = x / np.where(n > 0, n, 1)
    sim = (u @ np.swapaxes(u, -1, -2)).reshape(-1, h, h).mean(0)
    return float((sim.sum() - np.trace(sim)) / (h * (h - 1)))
'''},
    {"exercise": "diversity_penalty", "kind": "robustness", "idea": "returns the (h, h) matrix instead of a number",
     "code": _DP.replace("return float((sim.sum() - np.trace(sim)) / (h * (h - 1)))", "return sim")},
    {"exercise": "diversity_penalty", "kind": "robustness", "idea": "torch tensor returned (uses torch internally)",
     "code": '''
import torch

def diversity_penalty(weights):
    x = torch.as_tensor(weights, dtype=torch.float64)
    h = x.shape[-3]
    flat = x.movedim(-3, 0).reshape(h, -1)
    u = torch.nn.functional.normalize(flat, dim=1)
    s = u @ u.T
    return (s.sum() - s.trace()) / (h * (h - 1))
'''},
    {"exercise": "moh_gates", "kind": "correct", "idea": "softmax over all heads, compare with k-th largest", "code": _MOH},
    {"exercise": "moh_gates", "kind": "correct", "idea": "argsort and put_along_axis",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    s = scores.astype(np.float64)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    idx = np.argsort(scores, axis=-1)[..., h - top_k:]
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, idx, True, axis=-1)
    return (h * p * keep).astype(scores.dtype)
'''},
    {"exercise": "moh_gates", "kind": "wrong", "mistake": "softmax over the top-k only (renormalised)",
     "teacher_says": "the softmax runs over all h heads and is not renormalised after picking the top k",
     "code": '''
import numpy as np

def moh_gates(scores, top_k):
    h = scores.shape[-1]
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    keep = scores >= kth
    x = np.where(keep, scores, -np.inf)
    e = np.exp(x - x.max(-1, keepdims=True))
    return (h * e / e.sum(-1, keepdims=True)).astype(scores.dtype)
'''},
    {"exercise": "moh_gates", "kind": "wrong", "mistake": "forgot the factor h",
     "teacher_says": "the gates are h times the softmax (so that equal scores with k = h give gates of 1)",
     "code": _MOH.replace("h * p", "p")},
    {"exercise": "moh_gates", "kind": "wrong", "mistake": "keeps the lowest k (argsort is increasing, took the first k)",
     "teacher_says": "np.sort/argsort sort increasingly: the top k are the last k",
     "code": _MOH.replace("kth = np.sort(scores, axis=-1)[..., -top_k, None]\n    return np.where(scores >= kth", "kth = np.sort(scores, axis=-1)[..., top_k - 1, None]\n    return np.where(scores <= kth")},
    {"exercise": "moh_gates", "kind": "wrong", "mistake": "off by one: keeps top_k + 1 heads (index -top_k - 1)",
     "teacher_says": "the k-th largest is at index -k of the sorted row, not -k-1",
     "code": _MOH.replace("[..., -top_k, None]", "[..., -top_k - 1, None]")},
    {"exercise": "moh_gates", "kind": "wrong", "mistake": "top-k taken over tokens (axis -2) instead of heads",
     "teacher_says": "each token picks its heads: sort along the heads axis (the last)",
     "code": _MOH.replace("np.sort(scores, axis=-1)[..., -top_k, None]", "np.sort(scores, axis=-2)[..., -top_k, :][..., None, :]")},
    {"exercise": "moh_gates", "kind": "robustness", "idea": "uses torch.topk and returns a torch tensor",
     "code": '''
import torch

def moh_gates(scores, top_k):
    s = torch.as_tensor(scores)
    h = s.shape[-1]
    p = torch.softmax(s, -1)
    idx = s.topk(top_k, dim=-1).indices
    g = torch.zeros_like(p).scatter(-1, idx, 1.0)
    return h * p * g
'''},
]
