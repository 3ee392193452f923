ANSWERS = [
 {"exercise": "bert_self_attention", "kind": "correct", "idea": "transpose weights, mask == 1", "code": '''
import numpy as np
import mha
def bert_self_attention(x, attention_mask, state, num_heads):
    g = lambda k: np.asarray(state[k])
    p = mha.MHAParams(g("self.query.weight").T, g("self.key.weight").T, g("self.value.weight").T,
                      g("output.dense.weight").T, num_heads,
                      g("self.query.bias"), g("self.key.bias"), g("self.value.bias"), g("output.dense.bias"))
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, p, mask)
'''},
 {"exercise": "bert_self_attention", "kind": "correct", "idea": "copies cast to x dtype, mask via astype(bool)", "code": '''
import numpy as np
import mha
def bert_self_attention(x, attention_mask, state, num_heads):
    dt = x.dtype
    W = {k: np.array(v, dtype=dt) for k, v in state.items()}
    p = mha.MHAParams(
        w_q=W["self.query.weight"].T.copy(), w_k=W["self.key.weight"].T.copy(),
        w_v=W["self.value.weight"].T.copy(), w_o=W["output.dense.weight"].T.copy(),
        num_heads=num_heads, b_q=W["self.query.bias"], b_k=W["self.key.bias"],
        b_v=W["self.value.bias"], b_o=W["output.dense.bias"])
    mask = np.asarray(attention_mask).astype(bool).reshape(x.shape[0], 1, 1, -1)
    out, w = mha.multi_head_attention(x, x, x, p, mask)
    return out.astype(dt), w.astype(dt)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "no transposes (nn.Linear layout used as paper layout)", "teacher_says": "BERT's weights are (out, in): transpose them", "code": '''
import numpy as np
import mha
def bert_self_attention(x, attention_mask, state, num_heads):
    s = state
    p = mha.MHAParams(s["self.query.weight"], s["self.key.weight"], s["self.value.weight"], s["output.dense.weight"], num_heads,
                      s["self.query.bias"], s["self.key.bias"], s["self.value.bias"], s["output.dense.bias"])
    return mha.multi_head_attention(x, x, x, p, (np.asarray(attention_mask) == 1)[:, None, None, :])
'''},
 {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "mask on the queries axis", "teacher_says": "padding hides keys: [:, None, None, :], not [:, None, :, None]", "code": '''
import numpy as np
import mha
def bert_self_attention(x, attention_mask, state, num_heads):
    s = state
    p = mha.MHAParams(s["self.query.weight"].T, s["self.key.weight"].T, s["self.value.weight"].T, s["output.dense.weight"].T, num_heads,
                      s["self.query.bias"], s["self.key.bias"], s["self.value.bias"], s["output.dense.bias"])
    return mha.multi_head_attention(x, x, x, p, (np.asarray(attention_mask) == 1)[:, None, :, None])
'''},
 {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "HF extended additive mask (1-m)*-10000 thresholded wrong: uses mask == 0 as allowed", "teacher_says": "True = may attend: real tokens are those with attention_mask == 1", "code": '''
import numpy as np
import mha
def bert_self_attention(x, attention_mask, state, num_heads):
    s = state
    p = mha.MHAParams(s["self.query.weight"].T, s["self.key.weight"].T, s["self.value.weight"].T, s["output.dense.weight"].T, num_heads,
                      s["self.query.bias"], s["self.key.bias"], s["self.value.bias"], s["output.dense.bias"])
    ext = (1.0 - np.asarray(attention_mask)) * -10000.0
    return mha.multi_head_attention(x, x, x, p, (ext < 0)[:, None, None, :])
'''},
 {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "mask from lengths (assumes right padding)", "teacher_says": "padding may be on the left: compare with 1 token by token, do not count", "code": '''
import numpy as np
import mha
def bert_self_attention(x, attention_mask, state, num_heads):
    s = state
    p = mha.MHAParams(s["self.query.weight"].T, s["self.key.weight"].T, s["self.value.weight"].T, s["output.dense.weight"].T, num_heads,
                      s["self.query.bias"], s["self.key.bias"], s["self.value.bias"], s["output.dense.bias"])
    lengths = np.asarray(attention_mask).sum(-1)
    return mha.multi_head_attention(x, x, x, p, mha.padding_mask(lengths, x.shape[-2]))
'''},
 {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "key and value weights swapped", "teacher_says": "w_k comes from self.key, w_v from self.value", "code": '''
import numpy as np
import mha
def bert_self_attention(x, attention_mask, state, num_heads):
    s = state
    p = mha.MHAParams(s["self.query.weight"].T, s["self.value.weight"].T, s["self.key.weight"].T, s["output.dense.weight"].T, num_heads,
                      s["self.query.bias"], s["self.value.bias"], s["self.key.bias"], s["output.dense.bias"])
    return mha.multi_head_attention(x, x, x, p, (np.asarray(attention_mask) == 1)[:, None, None, :])
'''},
 {"exercise": "bert_self_attention", "kind": "robustness", "idea": "transposes the state's arrays in place (changes the caller's dict)", "mistake": "state[k] = state[k].T", "teacher_says": "do not change the state you were given", "code": '''
import numpy as np
import mha
def bert_self_attention(x, attention_mask, state, num_heads):
    for k in list(state):
        if k.endswith("weight"):
            state[k] = np.ascontiguousarray(state[k].T)
    s = state
    p = mha.MHAParams(s["self.query.weight"], s["self.key.weight"], s["self.value.weight"], s["output.dense.weight"], num_heads,
                      s["self.query.bias"], s["self.key.bias"], s["self.value.bias"], s["output.dense.bias"])
    return mha.multi_head_attention(x, x, x, p, (np.asarray(attention_mask) == 1)[:, None, None, :])
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "correct", "idea": "== 1 and new axes", "code": '''
import numpy as np
def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 1)[:, None, None, :]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "correct", "idea": "!= 0 via reshape", "code": '''
import numpy as np
def padding_mask_from_attention_mask(attention_mask):
    m = np.asarray(attention_mask)
    return np.not_equal(m, 0).reshape(m.shape[0], 1, 1, m.shape[1])
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong", "mistake": "counts ones into lengths (right padding assumed)", "teacher_says": "left padding breaks a length-based mask: compare each entry with 1", "code": '''
import numpy as np
def padding_mask_from_attention_mask(attention_mask):
    m = np.asarray(attention_mask)
    L = m.sum(-1)
    return (np.arange(m.shape[1])[None, :] < L[:, None])[:, None, None, :]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong", "mistake": "polarity inverted (== 0)", "teacher_says": "True = may attend: real tokens (1) are True", "code": '''
import numpy as np
def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 0)[:, None, None, :]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong", "mistake": "shape (B, 1, n, 1)", "teacher_says": "the keys are the last axis: (B, 1, 1, n)", "code": '''
import numpy as np
def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 1)[:, None, :, None]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong", "mistake": "shape (B, n): forgot the axes", "teacher_says": "give it shape (B, 1, 1, n)", "code": '''
import numpy as np
def padding_mask_from_attention_mask(attention_mask):
    return np.asarray(attention_mask) == 1
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "robustness", "idea": "returns the integer mask with axes (dtype int, not bool)", "mistake": "not bool", "teacher_says": "the mask must be of dtype bool", "code": '''
import numpy as np
def padding_mask_from_attention_mask(attention_mask):
    return np.asarray(attention_mask)[:, None, None, :]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "robustness", "idea": "returns a torch tensor", "mistake": "torch", "teacher_says": "return a NumPy array", "code": '''
import torch
def padding_mask_from_attention_mask(attention_mask):
    return (torch.as_tensor(attention_mask) == 1)[:, None, None, :]
'''},
 {"exercise": "head_js_divergence", "kind": "correct", "idea": "vectorised over pairs with where for 0 ln 0", "code": '''
import numpy as np
def head_js_divergence(weights):
    w = np.asarray(weights)
    h, nk = w.shape[-3], w.shape[-1]
    x = np.moveaxis(w, -3, 0).reshape(h, -1, nk).astype(np.float64)
    p = x[:, None]; q = x[None, :]
    m = (p + q) / 2
    def kl(a, b):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(a > 0, a * np.log(a / np.where(b > 0, b, 1)), 0).sum(-1)
    return ((kl(p, m) + kl(q, m)) / 2).mean(-1).astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "correct", "idea": "entropy form H(m) - (H(p)+H(q))/2, double loop", "code": '''
import numpy as np
def head_js_divergence(weights):
    w = np.asarray(weights)
    h, nk = w.shape[-3], w.shape[-1]
    x = np.moveaxis(w, -3, 0).reshape(h, -1, nk).astype(np.float64)
    def H(a):
        return -(a * np.log(np.where(a > 0, a, 1.0))).sum(-1)
    out = np.zeros((h, h))
    for i in range(h):
        for j in range(h):
            out[i, j] = (H((x[i] + x[j]) / 2) - (H(x[i]) + H(x[j])) / 2).mean()
    return out.astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong", "mistake": "log base 2 (bits)", "teacher_says": "in nats: use the natural logarithm", "code": '''
import numpy as np
def head_js_divergence(weights):
    w = np.asarray(weights)
    h, nk = w.shape[-3], w.shape[-1]
    x = np.moveaxis(w, -3, 0).reshape(h, -1, nk).astype(np.float64)
    p = x[:, None]; q = x[None, :]; m = (p + q) / 2
    kl = lambda a, b: np.where(a > 0, a * np.log2(np.where(a > 0, a, 1) / np.where(b > 0, b, 1)), 0).sum(-1)
    return ((kl(p, m) + kl(q, m)) / 2).mean(-1).astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong", "mistake": "averages the maps over queries first, then one JS per pair", "teacher_says": "JS row by row, then average; the JS of averaged rows is smaller", "code": '''
import numpy as np
def head_js_divergence(weights):
    w = np.asarray(weights)
    h, nk = w.shape[-3], w.shape[-1]
    x = np.moveaxis(w, -3, 0).reshape(h, -1, nk).astype(np.float64).mean(1)
    p = x[:, None]; q = x[None, :]; m = (p + q) / 2
    kl = lambda a, b: np.where(a > 0, a * np.log(np.where(a > 0, a, 1) / np.where(b > 0, b, 1)), 0).sum(-1)
    return ((kl(p, m) + kl(q, m)) / 2).astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong", "mistake": "KL(p||q) symmetrised instead of JS, with epsilon", "teacher_says": "JS compares each map with their mixture m, not with each other", "code": '''
import numpy as np
def head_js_divergence(weights):
    w = np.asarray(weights)
    h, nk = w.shape[-3], w.shape[-1]
    x = np.moveaxis(w, -3, 0).reshape(h, -1, nk).astype(np.float64) + 1e-12
    p = x[:, None]; q = x[None, :]
    kl = lambda a, b: (a * np.log(a / b)).sum(-1)
    return ((kl(p, q) + kl(q, p)) / 2).mean(-1).astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong", "mistake": "reshape(h, -1, n_k) without moving heads axis (batch first)", "teacher_says": "move the heads axis to the front before flattening", "code": '''
import numpy as np
def head_js_divergence(weights):
    w = np.asarray(weights)
    h, nk = w.shape[-3], w.shape[-1]
    x = w.reshape(h, -1, nk).astype(np.float64)
    p = x[:, None]; q = x[None, :]; m = (p + q) / 2
    kl = lambda a, b: np.where(a > 0, a * np.log(np.where(a > 0, a, 1) / np.where(b > 0, b, 1)), 0).sum(-1)
    return ((kl(p, m) + kl(q, m)) / 2).mean(-1).astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "robustness", "idea": "NaN from 0 * log 0", "mistake": "no guard", "teacher_says": "take 0 ln 0 = 0", "code": '''
import numpy as np
def head_js_divergence(weights):
    w = np.asarray(weights)
    h, nk = w.shape[-3], w.shape[-1]
    x = np.moveaxis(w, -3, 0).reshape(h, -1, nk)
    p = x[:, None]; q = x[None, :]; m = (p + q) / 2
    with np.errstate(all="ignore"):
        kl = lambda a, b: (a * np.log(a / b)).sum(-1)
        return ((kl(p, m) + kl(q, m)) / 2).mean(-1)
'''},
 {"exercise": "heads_per_feature", "kind": "correct", "idea": "variance per head per feature, participation ratio", "code": '''
import numpy as np
def heads_per_feature(contributions):
    x = np.asarray(contributions, dtype=np.float64)
    h, d = x.shape[-3], x.shape[-1]
    s = np.moveaxis(x, -3, 0).reshape(h, -1, d).var(axis=1)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "correct", "idea": "ddof=1 (same ratios), einsum-free manual variance", "code": '''
import numpy as np
def heads_per_feature(contributions):
    x = np.asarray(contributions).astype(np.float64)
    h, d = x.shape[-3], x.shape[-1]
    f = np.moveaxis(x, -3, 0).reshape(h, -1, d)
    c = f - f.mean(axis=1, keepdims=True)
    s = (c * c).sum(axis=1) / (f.shape[1] - 1)
    return np.square(s.sum(0)) / np.square(s).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong", "mistake": "mean of squares instead of variance (constant offsets counted)", "teacher_says": "a head that adds the same vector to every token should count for nothing: use the variance", "code": '''
import numpy as np
def heads_per_feature(contributions):
    x = np.asarray(contributions, dtype=np.float64)
    h, d = x.shape[-3], x.shape[-1]
    s = (np.moveaxis(x, -3, 0).reshape(h, -1, d) ** 2).mean(axis=1)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong", "mistake": "standard deviation instead of variance", "teacher_says": "s_a is the variance, not the standard deviation", "code": '''
import numpy as np
def heads_per_feature(contributions):
    x = np.asarray(contributions, dtype=np.float64)
    h, d = x.shape[-3], x.shape[-1]
    s = np.moveaxis(x, -3, 0).reshape(h, -1, d).std(axis=1)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong", "mistake": "variance only over positions, then averaged over the batch", "teacher_says": "every leading index and position is a token: variance over all of them at once", "code": '''
import numpy as np
def heads_per_feature(contributions):
    x = np.asarray(contributions, dtype=np.float64)
    s = x.var(axis=-2)  # (..., h, d)
    s = s.reshape(-1, *s.shape[-2:]).mean(0)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong", "mistake": "ratio inverted", "teacher_says": "participation ratio is (sum s)^2 / sum s^2", "code": '''
import numpy as np
def heads_per_feature(contributions):
    x = np.asarray(contributions, dtype=np.float64)
    h, d = x.shape[-3], x.shape[-1]
    s = np.moveaxis(x, -3, 0).reshape(h, -1, d).var(axis=1)
    return (s ** 2).sum(0) / s.sum(0) ** 2
'''},
 {"exercise": "heads_per_feature", "kind": "robustness", "idea": "float32 output for float32 input", "mistake": "dtype", "teacher_says": "return float64", "code": '''
import numpy as np
def heads_per_feature(contributions):
    x = np.asarray(contributions)
    h, d = x.shape[-3], x.shape[-1]
    s = np.moveaxis(x, -3, 0).reshape(h, -1, d).var(axis=1)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 {"exercise": "head_ablation_scores", "kind": "correct", "idea": "base minus each single ablation", "code": '''
import numpy as np
def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    out = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            g = np.ones((num_layers, num_heads)); g[l, a] = 0
            out[l, a] = base - evaluate(g)
    return out
'''},
 {"exercise": "head_ablation_scores", "kind": "correct", "idea": "flat loop with np.ndindex and float()", "code": '''
import numpy as np
def head_ablation_scores(evaluate, num_layers, num_heads):
    shape = (num_layers, num_heads)
    base = float(evaluate(np.ones(shape)))
    drops = np.empty(shape, dtype=float)
    for idx in np.ndindex(shape):
        gate = np.ones(shape)
        gate[idx] = 0.0
        drops[idx] = base - float(evaluate(gate))
    return drops
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong", "mistake": "returns the ablated scores, not the drop", "teacher_says": "return how much the score drops: base - ablated", "code": '''
import numpy as np
def head_ablation_scores(evaluate, num_layers, num_heads):
    out = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            g = np.ones((num_layers, num_heads)); g[l, a] = 0
            out[l, a] = evaluate(g)
    return out
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong", "mistake": "gate reused: heads removed cumulatively", "teacher_says": "each head is removed alone: start each from a fresh gate of ones", "code": '''
import numpy as np
def head_ablation_scores(evaluate, num_layers, num_heads):
    g = np.ones((num_layers, num_heads))
    base = evaluate(g.copy())
    out = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            g[l, a] = 0
            out[l, a] = base - evaluate(g)
    return out
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong", "mistake": "sign flipped (ablated - base)", "teacher_says": "a drop is base minus ablated: important heads should score positive", "code": '''
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
 {"exercise": "head_ablation_scores", "kind": "wrong", "mistake": "keeps only that head (gate of zeros with one 1)", "teacher_says": "remove the head alone: ones everywhere, a 0 at [l, a]", "code": '''
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
 {"exercise": "head_ablation_scores", "kind": "robustness", "idea": "calls evaluate for the base inside the loop (2x calls, slow) and returns nested list", "mistake": "list of lists", "teacher_says": "return a float array; evaluate the full model once", "code": '''
import numpy as np
def head_ablation_scores(evaluate, num_layers, num_heads):
    out = []
    for l in range(num_layers):
        row = []
        for a in range(num_heads):
            g = np.ones((num_layers, num_heads)); g[l, a] = 0
            row.append(evaluate(np.ones((num_layers, num_heads))) - evaluate(g))
        out.append(row)
    return out
'''},
 {"exercise": "head_ablation_scores", "kind": "robustness", "idea": "passes a bool gate instead of float", "mistake": "dtype bool gate", "teacher_says": "the gate is a float array of 1 and 0", "code": '''
import numpy as np
def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads), dtype=bool))
    out = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            g = np.ones((num_layers, num_heads), dtype=bool); g[l, a] = False
            out[l, a] = base - evaluate(g)
    return out
'''},
]
