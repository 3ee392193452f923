ANSWERS = [
    # bert_self_attention
    {"exercise": "bert_self_attention", "kind": "correct", "idea": "transpose copies of the Linear weights into MHAParams, padding mask from attention_mask",
     "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    W = lambda name: np.ascontiguousarray(state[name].T)
    p = mha.MHAParams(W("self.query.weight"), W("self.key.weight"), W("self.value.weight"),
                      W("output.dense.weight"), num_heads,
                      b_q=state["self.query.bias"], b_k=state["self.key.bias"],
                      b_v=state["self.value.bias"], b_o=state["output.dense.bias"])
    mask = np.asarray(attention_mask).astype(bool)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, p, mask=mask)
'''},
    {"exercise": "bert_self_attention", "kind": "correct", "idea": "mask built with != 0 and reshape, params via a dict comprehension",
     "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    names = {"w_q": "self.query", "w_k": "self.key", "w_v": "self.value", "w_o": "output.dense"}
    kw = {k: state[v + ".weight"].T.copy() for k, v in names.items()}
    kw.update({"b" + k[1:]: state[v + ".bias"].copy() for k, v in names.items()})
    p = mha.MHAParams(num_heads=num_heads, **kw)
    am = np.asarray(attention_mask)
    mask = (am != 0).reshape(am.shape[0], 1, 1, am.shape[1])
    return mha.multi_head_attention(x, x, x, p, mask)
'''},
    {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "no transpose of the (out, in) weights",
     "teacher_says": "nn.Linear stores (out, in): the book's layout is the transpose",
     "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    p = mha.MHAParams(state["self.query.weight"], state["self.key.weight"], state["self.value.weight"],
                      state["output.dense.weight"], num_heads,
                      b_q=state["self.query.bias"], b_k=state["self.key.bias"],
                      b_v=state["self.value.bias"], b_o=state["output.dense.bias"])
    mask = np.asarray(attention_mask).astype(bool)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, p, mask=mask)
'''},
    {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "mask shaped (B, 1, n, 1): masks queries instead of keys",
     "teacher_says": "the padding mask masks keys: shape (B, 1, 1, n)",
     "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    W = lambda name: state[name].T.copy()
    p = mha.MHAParams(W("self.query.weight"), W("self.key.weight"), W("self.value.weight"),
                      W("output.dense.weight"), num_heads,
                      b_q=state["self.query.bias"], b_k=state["self.key.bias"],
                      b_v=state["self.value.bias"], b_o=state["output.dense.bias"])
    mask = np.asarray(attention_mask).astype(bool)[:, None, :, None]
    return mha.multi_head_attention(x, x, x, p, mask=mask)
'''},
    {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "ignores the attention_mask",
     "teacher_says": "BERT does not attend the padding: pass the padding mask",
     "code": '''
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    W = lambda name: state[name].T.copy()
    p = mha.MHAParams(W("self.query.weight"), W("self.key.weight"), W("self.value.weight"),
                      W("output.dense.weight"), num_heads,
                      b_q=state["self.query.bias"], b_k=state["self.key.bias"],
                      b_v=state["self.value.bias"], b_o=state["output.dense.bias"])
    return mha.multi_head_attention(x, x, x, p)
'''},
    {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "drops the output bias (thinks the LayerNorm absorbs it)",
     "teacher_says": "output.dense.bias is part of the attention output before the residual: keep it",
     "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    W = lambda name: state[name].T.copy()
    p = mha.MHAParams(W("self.query.weight"), W("self.key.weight"), W("self.value.weight"),
                      W("output.dense.weight"), num_heads,
                      b_q=state["self.query.bias"], b_k=state["self.key.bias"], b_v=state["self.value.bias"])
    mask = np.asarray(attention_mask).astype(bool)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, p, mask=mask)
'''},
    {"exercise": "bert_self_attention", "kind": "robustness", "idea": "transposes the state's arrays in place (changes the caller's dict)",
     "mistake": "state[name] = state[name].T writes back into the argument",
     "teacher_says": "do not change the state you were given; build new arrays",
     "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    for n in ("self.query.weight", "self.key.weight", "self.value.weight", "output.dense.weight"):
        state[n] = state[n].T
    p = mha.MHAParams(state["self.query.weight"], state["self.key.weight"], state["self.value.weight"],
                      state["output.dense.weight"], num_heads,
                      b_q=state["self.query.bias"], b_k=state["self.key.bias"],
                      b_v=state["self.value.bias"], b_o=state["output.dense.bias"])
    mask = np.asarray(attention_mask).astype(bool)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, p, mask=mask)
'''},
    # padding_mask_from_attention_mask
    {"exercise": "padding_mask_from_attention_mask", "kind": "correct", "idea": "== 1 and np.expand_dims",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    m = np.asarray(attention_mask) == 1
    return np.expand_dims(m, (1, 2))
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "correct", "idea": "astype(bool) then [:, None, None, :]",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return np.asarray(attention_mask).astype(bool)[:, None, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong", "mistake": "uses the lengths (sum of the mask) with mha.padding_mask: wrong for left padding",
     "teacher_says": "with left padding the real tokens are at the end; use the mask itself, not its sum",
     "code": '''
import numpy as np
import mha

def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    return mha.padding_mask(am.sum(axis=1), am.shape[1])
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong", "mistake": "polarity inverted (== 0, PyTorch style)",
     "teacher_says": "True = may attend: the real tokens, attention_mask == 1",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 0)[:, None, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong", "mistake": "shape (B, 1, n, n) outer product: also masks pad queries",
     "teacher_says": "only the keys are masked: shape (B, 1, 1, n)",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    m = np.asarray(attention_mask).astype(bool)
    return (m[:, None, :, None] & m[:, None, None, :])
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong", "mistake": "axes (B, n, 1, 1)",
     "teacher_says": "the key axis must be last",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return np.asarray(attention_mask).astype(bool)[:, :, None, None]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "robustness", "idea": "returns an int array (no bool conversion)",
     "mistake": "returns the 0/1 integers reshaped",
     "teacher_says": "a mask is boolean: ~ on an int array gives -1 and -2",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return np.asarray(attention_mask)[:, None, None, :]
'''},
    # head_js_divergence
    {"exercise": "head_js_divergence", "kind": "correct", "idea": "broadcast heads (a, b), xlogy-style with np.where, mean over queries and leading axes",
     "code": '''
import numpy as np

def head_js_divergence(weights):
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h, nk = w.shape[0], w.shape[-1]
    w = w.reshape(h, -1, nk)  # (h, rows, n_k)
    p = w[:, None]
    q = w[None, :]
    m = 0.5 * (p + q)
    def kl(a, b):
        return np.where(a > 0, a * np.log(np.where(a > 0, a, 1.0) / np.where(b > 0, b, 1.0)), 0.0).sum(-1)
    js = 0.5 * kl(p, m) + 0.5 * kl(q, m)
    return js.mean(axis=-1)
'''},
    {"exercise": "head_js_divergence", "kind": "correct", "idea": "entropy form H(m) - (H(p)+H(q))/2, loop over pairs",
     "code": '''
import numpy as np

def head_js_divergence(weights):
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h = w.shape[0]
    w = w.reshape(h, -1, w.shape[-1])
    def H(p):
        return -np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0).sum(-1)
    Hs = [H(w[a]) for a in range(h)]
    out = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            out[a, b] = np.mean(H(0.5 * (w[a] + w[b])) - 0.5 * (Hs[a] + Hs[b]))
    return out
'''},
    {"exercise": "head_js_divergence", "kind": "wrong", "mistake": "KL(p || q) instead of JS (infinite with exact zeros)",
     "teacher_says": "JS compares each distribution with the mixture m = (p+q)/2, which is never 0 where p is not",
     "code": '''
import numpy as np

def head_js_divergence(weights):
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h = w.shape[0]
    w = w.reshape(h, -1, w.shape[-1])
    p, q = w[:, None], w[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        kl = np.where(p > 0, p * np.log(p / q), 0.0).sum(-1)
    return kl.mean(-1)
'''},
    {"exercise": "head_js_divergence", "kind": "wrong", "mistake": "log base 2 (bits) instead of nats",
     "teacher_says": "the divergence is in nats: natural logarithm",
     "code": '''
import numpy as np

def head_js_divergence(weights):
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h = w.shape[0]
    w = w.reshape(h, -1, w.shape[-1])
    p, q = w[:, None], w[None, :]
    m = (p + q) / 2
    def kl(a, b):
        return np.where(a > 0, a * np.log2(np.where(a > 0, a, 1) / np.where(b > 0, b, 1)), 0).sum(-1)
    return (0.5 * kl(p, m) + 0.5 * kl(q, m)).mean(-1)
'''},
    {"exercise": "head_js_divergence", "kind": "wrong", "mistake": "averages the rows first, then one JS between mean distributions",
     "teacher_says": "take the JS per query and average it, not the JS of the averaged rows",
     "code": '''
import numpy as np

def head_js_divergence(weights):
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h = w.shape[0]
    w = w.reshape(h, -1, w.shape[-1]).mean(axis=1)  # (h, n_k)
    p, q = w[:, None], w[None, :]
    m = (p + q) / 2
    def kl(a, b):
        return np.where(a > 0, a * np.log(np.where(a > 0, a, 1) / np.where(b > 0, b, 1)), 0).sum(-1)
    return 0.5 * kl(p, m) + 0.5 * kl(q, m)
'''},
    {"exercise": "head_js_divergence", "kind": "wrong", "mistake": "forgets the 1/2 factors (sum of the two KLs)",
     "teacher_says": "JS = (KL(p||m) + KL(q||m)) / 2; without the 1/2 it reaches 2 ln 2",
     "code": '''
import numpy as np

def head_js_divergence(weights):
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h = w.shape[0]
    w = w.reshape(h, -1, w.shape[-1])
    p, q = w[:, None], w[None, :]
    m = (p + q) / 2
    def kl(a, b):
        return np.where(a > 0, a * np.log(np.where(a > 0, a, 1) / np.where(b > 0, b, 1)), 0).sum(-1)
    return (kl(p, m) + kl(q, m)).mean(-1)
'''},
    {"exercise": "head_js_divergence", "kind": "robustness", "idea": "0 ln 0 not handled: NaN wherever weights are 0",
     "mistake": "p * np.log(p / m) gives nan at p = 0",
     "teacher_says": "take 0 ln 0 = 0: mask the zeros before the log",
     "code": '''
import numpy as np

def head_js_divergence(weights):
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h = w.shape[0]
    w = w.reshape(h, -1, w.shape[-1])
    p, q = w[:, None], w[None, :]
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        js = 0.5 * (p * np.log(p / m)).sum(-1) + 0.5 * (q * np.log(q / m)).sum(-1)
    return js.mean(-1)
'''},
    # head_ablation_scores
    {"exercise": "head_ablation_scores", "kind": "correct", "idea": "base minus evaluate with a fresh gate per head",
     "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    base = float(evaluate(np.ones((num_layers, num_heads))))
    out = np.zeros((num_layers, num_heads), dtype=float)
    for l in range(num_layers):
        for a in range(num_heads):
            g = np.ones((num_layers, num_heads))
            g[l, a] = 0.0
            out[l, a] = base - float(evaluate(g))
    return out
'''},
    {"exercise": "head_ablation_scores", "kind": "correct", "idea": "flat index loop with 1 - np.eye rows as gates",
     "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    n = num_layers * num_heads
    base = evaluate(np.ones((num_layers, num_heads)))
    gates = 1.0 - np.eye(n)
    drops = [base - evaluate(gates[i].reshape(num_layers, num_heads).copy()) for i in range(n)]
    return np.asarray(drops, dtype=np.float64).reshape(num_layers, num_heads)
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong", "mistake": "reuses one gate and never resets it: heads removed cumulatively",
     "teacher_says": "each head alone: start every evaluation from a fresh gate of ones",
     "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    g = np.ones((num_layers, num_heads))
    base = evaluate(g.copy())
    out = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            g[l, a] = 0
            out[l, a] = base - evaluate(g.copy())
    return out
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong", "mistake": "returns the ablated scores, not the drop",
     "teacher_says": "the importance is how much the score drops: base - evaluate(gate)",
     "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    out = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            g = np.ones((num_layers, num_heads)); g[l, a] = 0
            out[l, a] = evaluate(g)
    return out
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong", "mistake": "sign flipped: evaluate(gate) - base",
     "teacher_says": "a drop is base - ablated; yours is negative for important heads",
     "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    out = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            g = np.ones((num_layers, num_heads)); g[l, a] = 0
            out[l, a] = evaluate(g) - base
    return out
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong", "mistake": "keeps only one head (gate of zeros with a single 1) instead of removing one",
     "teacher_says": "removing a head means a gate of ones with a single 0",
     "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    out = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            g = np.zeros((num_layers, num_heads)); g[l, a] = 1
            out[l, a] = base - evaluate(g)
    return out
'''},
    {"exercise": "head_ablation_scores", "kind": "robustness", "idea": "passes a torch tensor gate to evaluate",
     "mistake": "evaluate gets torch.ones instead of a NumPy gate; returns a torch tensor",
     "teacher_says": "evaluate takes a NumPy gate; return a NumPy float array",
     "code": '''
import torch

def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(torch.ones(num_layers, num_heads))
    out = torch.zeros(num_layers, num_heads)
    for l in range(num_layers):
        for a in range(num_heads):
            g = torch.ones(num_layers, num_heads); g[l, a] = 0
            out[l, a] = base - evaluate(g)
    return out
'''},
]
