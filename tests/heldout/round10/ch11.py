# writer D's answers, then writer H's (each file verbatim)
ANSWERS = [
 # ---------------------------------------------------------------- bert_self_attention
 {"exercise": "bert_self_attention", "kind": "correct",
  "idea": "dict comprehension over the four projections, .T on each (out, in) weight, mask via np.expand_dims",
  "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    names = {"q": "self.query", "k": "self.key", "v": "self.value", "o": "output.dense"}
    weights = {f"w_{s}": state[f"{n}.weight"].T for s, n in names.items()}
    biases = {f"b_{s}": state[f"{n}.bias"] for s, n in names.items()}
    params = mha.MHAParams(num_heads=num_heads, **weights, **biases)
    keep = np.expand_dims(np.asarray(attention_mask) == 1, axis=(1, 2))  # (B, 1, 1, n)
    return mha.multi_head_attention(x, x, x, params, keep)
'''},
 {"exercise": "bert_self_attention", "kind": "robustness",
  "idea": "does every step in float64 (weights copied and upcast, mask as float then compared) and casts both results back to x's dtype at the end",
  "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    dtype = x.dtype
    x64 = np.array(x, dtype=np.float64)
    def w(name):
        return np.array(state[name + ".weight"], dtype=np.float64).T.copy()
    def b(name):
        return np.array(state[name + ".bias"], dtype=np.float64).copy()
    params = mha.MHAParams(
        w("self.query"), w("self.key"), w("self.value"), w("output.dense"), num_heads,
        b_q=b("self.query"), b_k=b("self.key"), b_v=b("self.value"), b_o=b("output.dense"),
    )
    mask = np.array(attention_mask, dtype=np.float64).reshape(len(x64), 1, 1, -1) > 0.5
    out, weights = mha.multi_head_attention(x64, x64, x64, params, mask)
    return out.astype(dtype), weights.astype(dtype)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "Uses BERT's nn.Linear weights as stored, (out, in), without transposing them; the square 384x384 shapes raise no error.",
  "teacher_says": "nn.Linear computes x @ W.T, so the paper's W is the transpose of the stored weight: transpose every projection.",
  "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        state["self.query.weight"], state["self.key.weight"], state["self.value.weight"],
        state["output.dense.weight"], num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "Builds the mask with PyTorch's key_padding_mask polarity, True = padding (attention_mask == 0).",
  "teacher_says": "The book's mask is True = may attend, the same polarity as the tokenizer's attention_mask: compare with 1, not 0.",
  "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    t = lambda name: state[name + ".weight"].T
    params = mha.MHAParams(
        t("self.query"), t("self.key"), t("self.value"), t("output.dense"), num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    is_pad = (np.asarray(attention_mask) == 0)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, is_pad)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "Inserts the singleton axes in the wrong places, [:, None, :, None], so the mask hides padded queries (rows) instead of padded keys (columns).",
  "teacher_says": "The padding mask must blank out key columns: shape (B, 1, 1, n) broadcasts over heads and queries; (B, 1, n, 1) masks query rows instead.",
  "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    t = lambda name: state[name + ".weight"].T
    params = mha.MHAParams(
        t("self.query"), t("self.key"), t("self.value"), t("output.dense"), num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, :, None]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 # ---------------------------------------------------- padding_mask_from_attention_mask
 {"exercise": "padding_mask_from_attention_mask", "kind": "correct",
  "idea": "nonzero test then np.expand_dims with a tuple of axes",
  "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    real = np.asarray(attention_mask) != 0
    return np.expand_dims(real, axis=(1, 2))
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "robustness",
  "idea": "builds the nested (B, 1, 1, n) list element by element in Python loops, then converts it to a bool array",
  "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    rows = []
    for sentence in np.asarray(attention_mask).tolist():
        row = []
        for token in sentence:
            row.append(True if float(token) == 1.0 else False)
        rows.append([[row]])
    return np.array(rows, dtype=bool)
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "Counts the real tokens of each sentence and keeps the first `length` positions, which assumes the padding is on the right.",
  "teacher_says": "A count is a length and loses where the padding is; with left padding the real tokens are the last ones, so compare each entry with 1 instead.",
  "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    lengths = am.sum(axis=1).astype(int)
    positions = np.arange(am.shape[1])
    keep = positions[None, :] < lengths[:, None]
    return keep[:, None, None, :]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "Inserts only one singleton axis, giving shape (B, 1, n), so against (B, h, n, n) scores the batch axis lines up with the heads axis.",
  "teacher_says": "The mask needs two new axes, one for the heads and one for the queries: (B, 1, 1, n).",
  "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 1)[:, None, :]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "Reshapes the tokenizer's mask to (B, 1, 1, n) but never turns it into booleans, so it stays int (or float).",
  "teacher_says": "The book's mask is a bool array; compare with 1 to get True/False rather than returning the 0/1 numbers.",
  "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    return am.reshape(am.shape[0], 1, 1, am.shape[1])
'''},
 # ----------------------------------------------------------------- head_js_divergence
 {"exercise": "head_js_divergence", "kind": "correct",
  "idea": "all pairs at once by broadcasting (h, 1, Q, n_k) against (1, h, Q, n_k), xlogy-style terms with np.where",
  "code": '''
import numpy as np

def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k)        # (h, Q, n_k)
    p, q = rows[:, None], rows[None, :]                     # (h, 1, Q, n_k), (1, h, Q, n_k)
    m = 0.5 * (p + q)
    with np.errstate(divide="ignore", invalid="ignore"):
        kl_pm = np.where(p > 0, p * np.log(p / m), 0).sum(-1)
        kl_qm = np.where(q > 0, q * np.log(q / m), 0).sum(-1)
    return (0.5 * (kl_pm + kl_qm)).mean(-1).astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "robustness",
  "idea": "plain Python loops over every pair of heads and every query row, accumulating in float64, cast to the input dtype at the end",
  "code": '''
import math
import numpy as np

def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k).astype(np.float64)
    n_rows = rows.shape[1]
    result = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            total = 0.0
            for r in range(n_rows):
                js = 0.0
                for j in range(n_k):
                    pa, pb = rows[a, r, j], rows[b, r, j]
                    mj = (pa + pb) / 2
                    if pa > 0:
                        js += 0.5 * pa * math.log(pa / mj)
                    if pb > 0:
                        js += 0.5 * pb * math.log(pb / mj)
                total += js
            result[a, b] = total / n_rows
    return result.astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Uses np.log2, so the divergence comes out in bits instead of nats.",
  "teacher_says": "The statement asks for nats: use the natural logarithm np.log (the bound is ln 2, not 1).",
  "code": '''
import numpy as np

def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k)
    p, q = rows[:, None], rows[None, :]
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        kl_pm = np.where(p > 0, p * np.log2(p / m), 0).sum(-1)
        kl_qm = np.where(q > 0, q * np.log2(q / m), 0).sum(-1)
    return ((kl_pm + kl_qm) / 2).mean(-1).astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Reshapes straight to (h, -1, n_k) without moving the heads axis to the front, so with leading batch axes the 'heads' are mixed-up chunks of batch and heads.",
  "teacher_says": "A reshape does not move axes: bring the heads axis (-3) to the front with np.moveaxis before flattening the rest.",
  "code": '''
import numpy as np

def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = w.reshape(h, -1, n_k)
    p, q = rows[:, None], rows[None, :]
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        kl_pm = np.where(p > 0, p * np.log(p / m), 0).sum(-1)
        kl_qm = np.where(q > 0, q * np.log(q / m), 0).sum(-1)
    return ((kl_pm + kl_qm) / 2).mean(-1).astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Computes p * log(p / m) directly; where a weight is exactly 0 this is 0 * (-inf) = NaN, which spreads into the averages.",
  "teacher_says": "Take 0 ln 0 = 0 explicitly, e.g. np.where(p > 0, p * np.log(p / m), 0), since some weights are exactly zero.",
  "code": '''
import numpy as np

def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k)
    out = np.zeros((h, h), dtype=w.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        for a in range(h):
            for b in range(h):
                p, q = rows[a], rows[b]
                m = (p + q) / 2
                js = 0.5 * (p * np.log(p / m)).sum(-1) + 0.5 * (q * np.log(q / m)).sum(-1)
                out[a, b] = js.mean()
    return out
'''},
 # ------------------------------------------------------------------ heads_per_feature
 {"exercise": "heads_per_feature", "kind": "correct",
  "idea": "centre each head's (tokens, d_model) table by hand and average the squares, in float64",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    table = np.moveaxis(c, -3, 0).reshape(h, -1, d)   # (h, tokens, d_model)
    centred = table - table.mean(axis=1, keepdims=True)
    s = (centred ** 2).mean(axis=1)                  # (h, d_model)
    return np.square(s.sum(axis=0)) / np.square(s).sum(axis=0)
'''},
 {"exercise": "heads_per_feature", "kind": "robustness",
  "idea": "unbiased variance (ddof=1, which the statement says gives the same ratios), computed feature by feature in a Python loop",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    c = np.asarray(contributions)
    h, d = c.shape[-3], c.shape[-1]
    per_head = [np.asarray(c[..., a, :, :], dtype=np.float64).reshape(-1, d) for a in range(h)]
    result = []
    for j in range(d):
        s = [float(np.var(per_head[a][:, j], ddof=1)) for a in range(h)]
        result.append(sum(s) ** 2 / sum(v * v for v in s))
    return np.array(result, dtype=np.float64)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "Uses the mean square of each head's contribution instead of its variance, so a head that adds the same vector to every token still counts.",
  "teacher_says": "Subtract each head's mean over the tokens first: a constant contribution says nothing and must give s_a = 0.",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    flat = np.moveaxis(c, -3, 0).reshape(h, -1, d)
    s = (flat ** 2).mean(axis=1)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "Writes the participation ratio upside down, sum(s^2) / (sum s)^2, which gives 1/h to 1 instead of 1 to h.",
  "teacher_says": "The participation ratio is (sum_a s_a)^2 / sum_a s_a^2; check it on h equal variances, which must give h.",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    s = np.moveaxis(c, -3, 0).reshape(h, -1, d).var(axis=1)
    return (s ** 2).sum(0) / s.sum(0) ** 2
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "Takes the variance over the positions axis only (axis -2) and then averages over the leading axes, i.e. a within-sequence variance instead of the variance over all tokens.",
  "teacher_says": "Every leading index and position is a token: flatten them all into one axis before taking the variance, or the differences between sequences are lost.",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    s = c.var(axis=-2)                       # (..., h, d_model)
    s = s.reshape(-1, *s.shape[-2:]).mean(0)  # (h, d_model)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 # ---------------------------------------------------------------- head_ablation_scores
 {"exercise": "head_ablation_scores", "kind": "correct",
  "idea": "np.ndindex over the grid, a fresh ones gate with one zero per head, scores filled into a float64 array",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    shape = (num_layers, num_heads)
    full = float(evaluate(np.ones(shape)))
    drop = np.empty(shape, dtype=np.float64)
    for index in np.ndindex(*shape):
        gate = np.ones(shape)
        gate[index] = 0.0
        drop[index] = full - float(evaluate(gate))
    return drop
'''},
 {"exercise": "head_ablation_scores", "kind": "robustness",
  "idea": "re-evaluates the full model for every head (twice the calls) and builds a list of lists of Python floats",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    rows = []
    for layer in range(num_layers):
        row = []
        for head in range(num_heads):
            full_gate = np.ones((num_layers, num_heads), dtype=np.float64)
            cut_gate = full_gate.copy()
            cut_gate[layer][head] = 0
            row.append(float(evaluate(full_gate)) - float(evaluate(cut_gate)))
        rows.append(row)
    return np.array(rows, dtype=np.float64)
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "Reuses one gate for the whole loop and never puts the removed head back, so each head is measured with all the earlier ones already removed.",
  "teacher_says": "Each head is removed alone: start every head from a fresh gate of ones (or restore the 1 after evaluating).",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    gate = np.ones((num_layers, num_heads))
    base = float(evaluate(gate.copy()))
    scores = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            gate[l, a] = 0.0
            scores[l, a] = base - float(evaluate(gate.copy()))
    return scores
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "Subtracts the wrong way round, ablated score minus full score, so important heads get negative numbers.",
  "teacher_says": "The drop is base - ablated: removing an important head lowers a higher-is-better score, so its drop must be positive.",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    base = float(evaluate(np.ones((num_layers, num_heads))))
    scores = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[l, a] = 0.0
            scores[l, a] = float(evaluate(gate)) - base
    return scores
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "Reads 'each head alone' as keeping only that head: the gate is all zeros except a 1 at [l, a], compared with the full model.",
  "teacher_says": "Removing a head alone means every other head stays: use a gate of ones with a single 0, not a single 1.",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    base = float(evaluate(np.ones((num_layers, num_heads))))
    scores = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            gate = np.zeros((num_layers, num_heads))
            gate[l, a] = 1.0
            scores[l, a] = base - float(evaluate(gate))
    return scores
'''},
]

_WRITER_D = ANSWERS

ANSWERS = [
 # ------------------------------------------------------------------ bert_self_attention
 {"exercise": "bert_self_attention", "kind": "correct",
  "idea": "swap the last two axes of every (out, in) weight with np.swapaxes, mask via expand_dims on attention_mask > 0",
  "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    def paper(name):
        return np.swapaxes(state[name + ".weight"], 0, 1)
    params = mha.MHAParams(
        w_q=paper("self.query"), w_k=paper("self.key"), w_v=paper("self.value"),
        w_o=paper("output.dense"), num_heads=num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    keep = np.expand_dims(np.asarray(attention_mask) > 0, axis=(1, 2))  # (B, 1, 1, n)
    return mha.multi_head_attention(x, x, x, params, keep)
'''},
 {"exercise": "bert_self_attention", "kind": "robustness",
  "idea": "everything by hand in float64 with a Python loop over the heads, cast back to x's dtype at the end; returns a list instead of a tuple",
  "code": '''
import numpy as np

def bert_self_attention(x, attention_mask, state, num_heads):
    dtype = x.dtype
    x64 = np.array(x, dtype=np.float64)
    def lin(inp, name):
        w = np.array(state[name + ".weight"], dtype=np.float64)
        b = np.array(state[name + ".bias"], dtype=np.float64)
        return inp @ w.T + b
    q, k, v = lin(x64, "self.query"), lin(x64, "self.key"), lin(x64, "self.value")
    d_model = q.shape[-1]
    d_k = d_model // num_heads
    real = np.array(attention_mask) == 1                     # (B, n)
    heads, all_weights = [], []
    for i in range(num_heads):
        cols = slice(i * d_k, (i + 1) * d_k)
        scores = q[..., cols] @ np.swapaxes(k[..., cols], -1, -2) / np.sqrt(d_k)
        scores = np.where(real[:, None, :], scores, -np.inf)
        top = scores.max(-1, keepdims=True)
        top = np.where(np.isfinite(top), top, 0.0)
        e = np.exp(scores - top)
        total = e.sum(-1, keepdims=True)
        w = np.where(total > 0, e / np.where(total > 0, total, 1.0), 0.0)
        all_weights.append(w)
        heads.append(w @ v[..., cols])
    concat = np.concatenate(heads, axis=-1)
    out = lin(concat, "output.dense")
    weights = np.stack(all_weights, axis=1)
    return [out.astype(dtype), weights.astype(dtype)]
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "Uses BERT's weights as stored, (out, in), without transposing them; every projection is square so nothing raises.",
  "teacher_says": "nn.Linear computes x @ W.T: its stored weight is the transpose of the paper's W, so transpose each one before building MHAParams.",
  "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        w_q=state["self.query.weight"], w_k=state["self.key.weight"],
        w_v=state["self.value.weight"], w_o=state["output.dense.weight"],
        num_heads=num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "Builds the mask the way nn.MultiheadAttention's key_padding_mask wants it (True = padding), i.e. attention_mask == 0.",
  "teacher_says": "The book's mask is True = may attend, the same polarity as the tokenizer's attention_mask: compare with 1, not with 0.",
  "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    T = {name: state[name + ".weight"].T for name in
         ("self.query", "self.key", "self.value", "output.dense")}
    params = mha.MHAParams(
        T["self.query"], T["self.key"], T["self.value"], T["output.dense"], num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    key_padding_mask = (np.asarray(attention_mask) == 0)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, key_padding_mask)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "Inserts the singleton axes in the wrong places, [:, None, :, None], so the mask hides padded *queries* (rows) instead of padded keys; real tokens still attend to the padding.",
  "teacher_says": "A padding mask hides keys: its last axis must be the key axis, shape (B, 1, 1, n), not (B, 1, n, 1).",
  "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    w = lambda name: state[name + ".weight"].T
    b = lambda name: state[name + ".bias"]
    params = mha.MHAParams(
        w("self.query"), w("self.key"), w("self.value"), w("output.dense"), num_heads,
        b_q=b("self.query"), b_k=b("self.key"), b_v=b("self.value"), b_o=b("output.dense"),
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, :, None]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "Leaves the biases out of MHAParams (the book's early chapters had none), so BERT's four bias vectors are ignored.",
  "teacher_says": "BERT's projections all have biases: pass b_q, b_k, b_v and b_o too, or the layer is a different function.",
  "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        state["self.query.weight"].T, state["self.key.weight"].T,
        state["self.value.weight"].T, state["output.dense.weight"].T, num_heads,
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 # ------------------------------------------------------------------ padding_mask_from_attention_mask
 {"exercise": "padding_mask_from_attention_mask", "kind": "correct",
  "idea": "nonzero test then a reshape to (B, 1, 1, n)",
  "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    B, n = am.shape
    return (am != 0).reshape(B, 1, 1, n)
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "robustness",
  "idea": "nested Python loops building a list of lists, turned into a bool array at the end",
  "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    rows = []
    for row in np.asarray(attention_mask).tolist():
        rows.append([[[float(value) == 1.0 for value in row]]])
    return np.array(rows, dtype=bool)
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "Counts the ones to get each sentence's length and marks the first `length` tokens as real, which assumes the padding is on the right.",
  "teacher_says": "A tokenizer may pad on the left: read which tokens are real from the mask itself instead of turning it into lengths.",
  "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    lengths = am.sum(axis=1).astype(int)                      # (B,)
    real = np.arange(am.shape[1])[None, :] < lengths[:, None]   # (B, n)
    return real[:, None, None, :]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "Inserts only one singleton axis, giving shape (B, 1, n): it then broadcasts against (B, h, n, n) with B lined up with the heads axis.",
  "teacher_says": "The mask must broadcast over heads *and* queries: two singleton axes, shape (B, 1, 1, n).",
  "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 1)[:, None, :]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "Half-remembers Hugging Face's 'extended attention mask' and returns the additive float mask (1 - mask) * -10000 (0 for real tokens, -10000 for padding) instead of a bool mask.",
  "teacher_says": "The book's mask is a bool array, True = may attend; the additive -10000 mask is transformers' internal convention, not this one.",
  "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask, dtype=np.float32)[:, None, None, :]
    return (1.0 - am) * -10000.0
'''},
 # ------------------------------------------------------------------ head_js_divergence
 {"exercise": "head_js_divergence", "kind": "correct",
  "idea": "all pairs at once by broadcasting (h, 1, Q, n_k) against (1, h, Q, n_k), 0 ln 0 removed with np.where",
  "code": '''
import numpy as np

def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k).astype(np.float64)  # (h, Q, n_k)
    p = rows[:, None]            # (h, 1, Q, n_k)
    q = rows[None, :]            # (1, h, Q, n_k)
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        kl_p = np.where(p > 0, p * np.log(p / m), 0.0).sum(-1)
        kl_q = np.where(q > 0, q * np.log(q / m), 0.0).sum(-1)
    js = ((kl_p + kl_q) / 2).mean(-1)   # (h, h)
    return js.astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "robustness",
  "idea": "plain Python loops over head pairs, queries and keys, with math.log; slow but right",
  "code": '''
import math
import numpy as np

def head_js_divergence(weights):
    w = np.asarray(weights)
    h = w.shape[-3]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, w.shape[-1]).tolist()
    Q = len(rows[0])
    result = [[0.0] * h for _ in range(h)]
    for a in range(h):
        for b in range(h):
            total = 0.0
            for r in range(Q):
                js = 0.0
                for pa, pb in zip(rows[a][r], rows[b][r]):
                    mid = (pa + pb) / 2
                    if pa > 0:
                        js += 0.5 * pa * math.log(pa / mid)
                    if pb > 0:
                        js += 0.5 * pb * math.log(pb / mid)
                total += js
            result[a][b] = total / Q
    return np.array(result, dtype=w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Uses np.log2, so the divergence comes out in bits (between 0 and 1) instead of nats.",
  "teacher_says": "The statement asks for nats: use the natural logarithm np.log, whose maximum JS is ln 2.",
  "code": '''
import numpy as np

def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k)
    out = np.zeros((h, h), dtype=w.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        for a in range(h):
            for b in range(h):
                p, q = rows[a], rows[b]
                m = (p + q) / 2
                kl_p = np.where(p > 0, p * np.log2(p / m), 0).sum(-1)
                kl_q = np.where(q > 0, q * np.log2(q / m), 0).sum(-1)
                out[a, b] = ((kl_p + kl_q) / 2).mean()
    return out
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Flattens with weights.reshape(h, -1, n_k) without first moving the heads axis to the front, so with a batch axis the 'heads' are slices of mixed batches and heads.",
  "teacher_says": "reshape does not move axes: np.moveaxis(weights, -3, 0) first, then flatten the rest.",
  "code": '''
import numpy as np

def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = w.reshape(h, -1, n_k)
    p, q = rows[:, None], rows[None, :]
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        kl = np.where(p > 0, p * np.log(p / m), 0).sum(-1) + \\
             np.where(q > 0, q * np.log(q / m), 0).sum(-1)
    return (kl / 2).mean(-1).astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Writes p * np.log(p / m) without guarding the zeros, so a head with an exactly-zero weight gives 0 * log(0) = nan in its pairs.",
  "teacher_says": "Take 0 ln 0 = 0 explicitly (np.where(p > 0, ..., 0)): weights that are exactly 0 otherwise turn the sums into nan.",
  "code": '''
import numpy as np

def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k)
    p, q = rows[:, None], rows[None, :]
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        js = 0.5 * (p * np.log(p / m)).sum(-1) + 0.5 * (q * np.log(q / m)).sum(-1)
    return js.mean(-1).astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Averages each head's attention rows over the queries first and then takes one JS between the two mean distributions (wrong order of the average and the divergence).",
  "teacher_says": "JS is computed query by query and then averaged; the JS of averaged rows is much smaller (two heads looking at different tokens can have the same mean row).",
  "code": '''
import numpy as np

def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    mean_rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k).mean(1)   # (h, n_k)
    p, q = mean_rows[:, None], mean_rows[None, :]
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        kl_p = np.where(p > 0, p * np.log(p / m), 0).sum(-1)
        kl_q = np.where(q > 0, q * np.log(q / m), 0).sum(-1)
    return ((kl_p + kl_q) / 2).astype(w.dtype)
'''},
 # ------------------------------------------------------------------ heads_per_feature
 {"exercise": "heads_per_feature", "kind": "correct",
  "idea": "transpose heads first with np.moveaxis, centre by hand and average the squares (variance), then the participation ratio",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    per_head = np.moveaxis(c, -3, 0).reshape(h, -1, d)           # (h, tokens, d)
    centred = per_head - per_head.mean(axis=1, keepdims=True)
    s = (centred ** 2).mean(axis=1)                              # (h, d)
    return np.sum(s, axis=0) ** 2 / np.sum(s * s, axis=0)
'''},
 {"exercise": "heads_per_feature", "kind": "robustness",
  "idea": "loops over features and heads, np.var on one column at a time, result built in a Python list",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    c = np.asarray(contributions)
    h, d = c.shape[-3], c.shape[-1]
    per_head = np.moveaxis(c, -3, 0).reshape(h, -1, d)
    ratios = []
    for j in range(d):
        s = [float(np.var(per_head[a, :, j].astype(np.float64))) for a in range(h)]
        ratios.append(sum(s) ** 2 / sum(v * v for v in s))
    return np.array(ratios, dtype=np.float64)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "Uses the mean of the squared contributions (the head's energy) instead of its variance, so a head that adds the same vector to every token counts as writing to the feature.",
  "teacher_says": "A constant offset says nothing: subtract each head's mean over the tokens (use var), as the statement asks.",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    per_head = np.moveaxis(c, -3, 0).reshape(h, -1, d)
    s = (per_head ** 2).mean(axis=1)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "Sums the variances over the feature axis instead of the heads axis, returning one number per head (shape (h,)) instead of one per feature.",
  "teacher_says": "s has shape (h, d_model): the participation ratio sums over the heads, axis 0, and leaves d_model numbers.",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    s = np.moveaxis(c, -3, 0).reshape(h, -1, d).var(axis=1)   # (h, d)
    return s.sum(1) ** 2 / (s ** 2).sum(1)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "Takes the variance over the positions of each sequence (axis -2) and then averages these over the leading axes, instead of one variance over all tokens together.",
  "teacher_says": "Every leading index and position is a token: flatten them into one token axis before the variance, or the variation between sequences is lost.",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    s = c.var(axis=-2)                                    # (..., h, d)
    s = s.reshape(-1, h, d).mean(axis=0)                  # (h, d)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 # ------------------------------------------------------------------ head_ablation_scores
 {"exercise": "head_ablation_scores", "kind": "correct",
  "idea": "a list comprehension over np.ndindex with a fresh np.ones gate each time, built as a flat array then reshaped",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    shape = (num_layers, num_heads)
    full = float(evaluate(np.ones(shape)))

    def without(index):
        gate = np.ones(shape)
        gate[index] = 0.0
        return full - float(evaluate(gate))

    return np.array([without(ix) for ix in np.ndindex(*shape)], dtype=np.float64).reshape(shape)
'''},
 {"exercise": "head_ablation_scores", "kind": "robustness",
  "idea": "re-evaluates the full model once per head (twice the evaluations) and fills a nested list of Python floats",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    table = []
    for layer in range(num_layers):
        row = []
        for head in range(num_heads):
            full = evaluate(np.ones((num_layers, num_heads)))
            gate = np.ones((num_layers, num_heads))
            gate[layer][head] = 0
            row.append(float(full) - float(evaluate(gate)))
        table.append(row)
    return np.asarray(table, dtype=np.float64)
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "Reuses one gate for every head and never puts the removed head back, so head k is measured with heads 0..k-1 already removed.",
  "teacher_says": "Each head is removed alone: restore it (or start from a fresh gate of ones) before the next one.",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    gate = np.ones((num_layers, num_heads))
    base = evaluate(gate.copy())
    scores = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            gate[l, a] = 0.0
            scores[l, a] = base - evaluate(gate.copy())
    return scores
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "Subtracts the other way round, ablated score minus full score, so important heads get negative numbers.",
  "teacher_says": "The drop is full minus ablated: with higher-is-better scores an important head must get a positive importance.",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    scores = np.empty((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[l, a] = 0
            scores[l, a] = evaluate(gate) - base
    return scores
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "Reads 'each head alone' as keeping only that head: the gate is all zeros with a 1 at [l, a], compared with the full model.",
  "teacher_says": "Removed alone means every other head stays: a gate of ones with a single 0, not a single 1.",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    scores = np.empty((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            gate = np.zeros((num_layers, num_heads))
            gate[l, a] = 1
            scores[l, a] = base - evaluate(gate)
    return scores
'''},
]

_WRITER_H = ANSWERS
ANSWERS = _WRITER_D + _WRITER_H
