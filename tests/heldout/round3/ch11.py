_BERT = '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    g = lambda name: np.asarray(state[name]).astype(x.dtype)
    params = mha.MHAParams(
        w_q=g("self.query.weight").T, w_k=g("self.key.weight").T, w_v=g("self.value.weight").T,
        w_o=g("output.dense.weight").T, num_heads=num_heads,
        b_q=g("self.query.bias"), b_k=g("self.key.bias"), b_v=g("self.value.bias"),
        b_o=g("output.dense.bias"))
    mask = (np.asarray(attention_mask) != 0)[:, None, None, :]
    out, w = mha.multi_head_attention(x, x, x, params, mask)
    return out.astype(x.dtype), w.astype(x.dtype)
'''
_JS = '''
import numpy as np

def head_js_divergence(weights):
    w = np.asarray(weights, dtype=np.float64)
    h, nq, nk = w.shape[-3:]
    w = np.moveaxis(w.reshape(-1, h, nq, nk), 1, 0).reshape(h, -1, nk)  # (h, rows, nk)
    p = w[:, None]
    q = w[None, :]
    m = (p + q) / 2
    def kl(a, b):
        return np.where(a > 0, a * np.log(np.where(a > 0, a, 1) / np.where(b > 0, b, 1)), 0).sum(-1)
    js = 0.5 * kl(p, m) + 0.5 * kl(q, m)
    return js.mean(-1).astype(weights.dtype)
'''
_HPF = '''
import numpy as np

def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    tokens = np.moveaxis(c, -3, 0).reshape(h, -1, d)  # (h, tokens, d)
    s = tokens.var(axis=1)  # (h, d)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''
_ABL = '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    full = evaluate(np.ones((num_layers, num_heads)))
    drops = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[l, a] = 0
            drops[l, a] = full - evaluate(gate)
    return drops
'''
ANSWERS = [
    {"exercise": "bert_self_attention", "kind": "correct", "idea": "transpose nn.Linear weights, bool key mask", "code": _BERT},
    {"exercise": "bert_self_attention", "kind": "correct", "idea": "own projections and mha.scaled_dot_product_attention",
     "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    def lin(t, name):
        return t @ state[name + ".weight"].T.astype(x.dtype) + state[name + ".bias"].astype(x.dtype)
    q = mha.split_heads(lin(x, "self.query"), num_heads)
    k = mha.split_heads(lin(x, "self.key"), num_heads)
    v = mha.split_heads(lin(x, "self.value"), num_heads)
    mask = np.asarray(attention_mask).astype(bool)[:, None, None, :]
    heads, w = mha.scaled_dot_product_attention(q, k, v, mask)
    return lin(mha.merge_heads(heads), "output.dense").astype(x.dtype), w.astype(x.dtype)
'''},
    {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "weights not transposed ((out, in) used as (in, out))",
     "teacher_says": "nn.Linear stores (out, in): transpose for x @ W",
     "code": _BERT.replace('g("self.query.weight").T', 'g("self.query.weight")').replace('g("self.key.weight").T', 'g("self.key.weight")').replace('g("self.value.weight").T', 'g("self.value.weight")').replace('g("output.dense.weight").T', 'g("output.dense.weight")')},
    {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "HF extended additive mask passed as a bool mask ((1 - m) * -10000 is nonzero=True at pads)",
     "teacher_says": "mha wants a boolean mask with True = real token; your additive mask is True at the pads",
     "code": _BERT.replace("mask = (np.asarray(attention_mask) != 0)[:, None, None, :]", "mask = ((1.0 - np.asarray(attention_mask)) * -10000.0)[:, None, None, :].astype(bool)")},
    {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "mask placed on the queries axis (B, 1, n, 1)",
     "teacher_says": "padding hides keys: the mask must be (B, 1, 1, n)",
     "code": _BERT.replace("[:, None, None, :]", "[:, None, :, None]")},
    {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "padding assumed at the end: lengths = mask.sum, then mha.padding_mask (wrong for left padding)",
     "teacher_says": "padding may be on the left; build the mask from attention_mask itself, not from lengths",
     "code": _BERT.replace("mask = (np.asarray(attention_mask) != 0)[:, None, None, :]", "mask = mha.padding_mask(np.asarray(attention_mask).sum(-1).astype(int), x.shape[-2])")},
    {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "output dense bias forgotten",
     "teacher_says": "output.dense has a bias too",
     "code": _BERT.replace('b_o=g("output.dense.bias")', 'b_o=None')},
    {"exercise": "bert_self_attention", "kind": "robustness", "idea": "transposes state arrays in place (state[name] = state[name].T), changing the caller's dict",
     "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    for name in ["self.query.weight", "self.key.weight", "self.value.weight", "output.dense.weight"]:
        state[name] = state[name].T
    p = mha.MHAParams(state["self.query.weight"], state["self.key.weight"], state["self.value.weight"],
                      state["output.dense.weight"], num_heads, state["self.query.bias"],
                      state["self.key.bias"], state["self.value.bias"], state["output.dense.bias"])
    return mha.multi_head_attention(x, x, x, p, np.asarray(attention_mask).astype(bool)[:, None, None, :])
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "correct", "idea": "!= 0 then reshape",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    m = np.asarray(attention_mask)
    return (m != 0).reshape(m.shape[0], 1, 1, m.shape[1])
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "correct", "idea": "astype(bool) and expand_dims",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return np.expand_dims(np.asarray(attention_mask).astype(bool), (1, 2))
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong", "mistake": "keeps the int/float dtype (not bool)",
     "teacher_says": "return dtype bool: an int mask is not a boolean mask",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return np.asarray(attention_mask)[:, None, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong", "mistake": "polarity inverted (== 0)",
     "teacher_says": "True must mark real tokens (1), not padding",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 0)[:, None, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong", "mistake": "uses lengths (sum) and assumes end padding",
     "teacher_says": "padding can be on the left; use the mask's entries, not its row sums",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    m = np.asarray(attention_mask)
    lengths = m.sum(-1)
    return (np.arange(m.shape[-1]) < lengths[:, None])[:, None, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong", "mistake": "shape (B, 1, n, 1): queries axis",
     "teacher_says": "shape (B, 1, 1, n), keys last",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return np.asarray(attention_mask).astype(bool)[:, None, :, None]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "robustness", "idea": "returns a torch bool tensor",
     "code": '''
import torch

def padding_mask_from_attention_mask(attention_mask):
    return torch.as_tensor(attention_mask).bool()[:, None, None, :]
'''},
    {"exercise": "head_js_divergence", "kind": "correct", "idea": "broadcast pairs, masked logs, mean over rows", "code": _JS},
    {"exercise": "head_js_divergence", "kind": "correct", "idea": "loop over pairs with scipy-free xlogy",
     "code": '''
import numpy as np
from scipy.special import xlogy

def head_js_divergence(weights):
    h = weights.shape[-3]
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0).reshape(h, -1, weights.shape[-1])
    out = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            m = 0.5 * (w[a] + w[b])
            ent = lambda p: -xlogy(p, p).sum(-1)
            out[a, b] = (ent(m) - 0.5 * ent(w[a]) - 0.5 * ent(w[b])).mean()
    return out.astype(weights.dtype)
'''},
    {"exercise": "head_js_divergence", "kind": "wrong", "mistake": "log base 2 (bits instead of nats)",
     "teacher_says": "the divergence is in nats: use the natural log",
     "code": _JS.replace("np.log(", "np.log2(")},
    {"exercise": "head_js_divergence", "kind": "wrong", "mistake": "KL(p||q) directly instead of JS (infinite/NaN at zeros guarded to 0)",
     "teacher_says": "JS compares each distribution with the mixture m = (p+q)/2, not with each other",
     "code": _JS.replace("js = 0.5 * kl(p, m) + 0.5 * kl(q, m)", "js = kl(p, q)")},
    {"exercise": "head_js_divergence", "kind": "wrong", "mistake": "averages the distributions over queries first, then one JS per pair",
     "teacher_says": "compute JS per query row, then average; JS of averaged rows is smaller",
     "code": _JS.replace("w = np.moveaxis(w.reshape(-1, h, nq, nk), 1, 0).reshape(h, -1, nk)  # (h, rows, nk)", "w = np.moveaxis(w.reshape(-1, h, nq, nk), 1, 0).reshape(h, -1, nk).mean(1, keepdims=True)")},
    {"exercise": "head_js_divergence", "kind": "wrong", "mistake": "missing the 1/2 factors (sum of the two KLs)",
     "teacher_says": "JS = (KL(p||m) + KL(q||m)) / 2",
     "code": _JS.replace("js = 0.5 * kl(p, m) + 0.5 * kl(q, m)", "js = kl(p, m) + kl(q, m)")},
    {"exercise": "head_js_divergence", "kind": "robustness", "idea": "no guard for zeros: 0*log0 gives NaN",
     "code": '''
import numpy as np

def head_js_divergence(weights):
    h = weights.shape[-3]
    w = np.moveaxis(weights, -3, 0).reshape(h, -1, weights.shape[-1])
    p, q = w[:, None], w[None, :]
    m = (p + q) / 2
    with np.errstate(all="ignore"):
        js = 0.5 * (p * np.log(p / m)).sum(-1) + 0.5 * (q * np.log(q / m)).sum(-1)
    return js.mean(-1)
'''},
    {"exercise": "heads_per_feature", "kind": "correct", "idea": "variance over all tokens per head and feature", "code": _HPF},
    {"exercise": "heads_per_feature", "kind": "correct", "idea": "explicit mean-centred second moment with ddof=1 (ratio is scale-free)",
     "code": '''
import numpy as np

def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    out = np.empty(d)
    per_head = [c[..., a, :, :].reshape(-1, d) for a in range(h)]
    s = np.stack([np.var(t, axis=0, ddof=1) for t in per_head])
    for j in range(d):
        out[j] = s[:, j].sum() ** 2 / np.sum(s[:, j] ** 2)
    return out
'''},
    {"exercise": "heads_per_feature", "kind": "wrong", "mistake": "variance over positions only, per leading index, then averaged",
     "teacher_says": "every leading index and position is a token: take one variance over all of them",
     "code": '''
import numpy as np

def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    s = c.var(axis=-2)  # (..., h, d)
    s = s.reshape(-1, *s.shape[-2:])
    pr = s.sum(-2) ** 2 / (s ** 2).sum(-2)
    return pr.mean(0)
'''},
    {"exercise": "heads_per_feature", "kind": "wrong", "mistake": "uses standard deviations instead of variances",
     "teacher_says": "s_a is the variance, not the standard deviation",
     "code": _HPF.replace("s = tokens.var(axis=1)", "s = tokens.std(axis=1)")},
    {"exercise": "heads_per_feature", "kind": "wrong", "mistake": "ratio inverted (sum s^2 / (sum s)^2)",
     "teacher_says": "the participation ratio is (sum s)^2 / sum s^2, between 1 and h",
     "code": _HPF.replace("return s.sum(0) ** 2 / (s ** 2).sum(0)", "return (s ** 2).sum(0) / s.sum(0) ** 2")},
    {"exercise": "heads_per_feature", "kind": "wrong", "mistake": "mean of squares without centring (second moment)",
     "teacher_says": "the variance subtracts the mean over tokens",
     "code": _HPF.replace("s = tokens.var(axis=1)", "s = (tokens ** 2).mean(axis=1)")},
    {"exercise": "heads_per_feature", "kind": "wrong", "mistake": "returns float32 for float32 input",
     "teacher_says": "return float64",
     "code": _HPF.replace("c = np.asarray(contributions, dtype=np.float64)", "c = np.asarray(contributions)")},
    {"exercise": "head_ablation_scores", "kind": "correct", "idea": "full minus each single ablation", "code": _ABL},
    {"exercise": "head_ablation_scores", "kind": "correct", "idea": "np.ndindex with eye-like gates",
     "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    base = float(evaluate(np.ones((num_layers, num_heads))))
    out = np.empty((num_layers, num_heads), dtype=float)
    for idx in np.ndindex(num_layers, num_heads):
        g = np.ones((num_layers, num_heads))
        g[idx] = 0.0
        out[idx] = base - float(evaluate(g))
    return out
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong", "mistake": "sign flipped (score after minus before)",
     "teacher_says": "a drop is full score minus ablated score: positive when the head helped",
     "code": _ABL.replace("full - evaluate(gate)", "evaluate(gate) - full")},
    {"exercise": "head_ablation_scores", "kind": "wrong", "mistake": "gate not reset: heads removed cumulatively",
     "teacher_says": "remove each head alone: start from a fresh all-ones gate each time",
     "code": _ABL.replace("            gate = np.ones((num_layers, num_heads))\n", "").replace("    for l in range(num_layers):", "    gate = np.ones((num_layers, num_heads))\n    for l in range(num_layers):")},
    {"exercise": "head_ablation_scores", "kind": "wrong", "mistake": "keeps only the head (gate one-hot) instead of removing it",
     "teacher_says": "0 removes the head: set that entry to 0 in an all-ones gate, not 1 in an all-zeros gate",
     "code": _ABL.replace("gate = np.ones((num_layers, num_heads))\n            gate[l, a] = 0", "gate = np.zeros((num_layers, num_heads))\n            gate[l, a] = 1")},
    {"exercise": "head_ablation_scores", "kind": "wrong", "mistake": "reference score computed with all heads removed (zeros gate)",
     "teacher_says": "the baseline is the full model, gate of ones",
     "code": _ABL.replace("full = evaluate(np.ones((num_layers, num_heads)))", "full = evaluate(np.zeros((num_layers, num_heads)))")},
    {"exercise": "head_ablation_scores", "kind": "robustness", "idea": "passes a torch tensor gate to evaluate (which takes NumPy)",
     "code": '''
import torch

def head_ablation_scores(evaluate, num_layers, num_heads):
    full = evaluate(torch.ones(num_layers, num_heads))
    out = torch.zeros(num_layers, num_heads)
    for l in range(num_layers):
        for a in range(num_heads):
            g = torch.ones(num_layers, num_heads)
            g[l, a] = 0
            out[l, a] = full - evaluate(g)
    return out.numpy()
'''},
    {"exercise": "head_ablation_scores", "kind": "robustness", "idea": "evaluate called once per head twice (recomputes the full score inside the loop: slow)",
     "code": _ABL.replace("drops[l, a] = full - evaluate(gate)", "drops[l, a] = evaluate(np.ones((num_layers, num_heads))) - evaluate(gate)")},
]
