# writer D's answers, then writer H's (each file verbatim)
"""Writer D, chapter 11 (the heads of a real Transformer): 1 correct + 3 wrong per exercise."""

ANSWERS = [
    # ------------------------------------------------------------------ bert_self_attention
    {"exercise": "bert_self_attention", "kind": "correct",
     "idea": "build the MHAParams from a dict comprehension of swapped-axes weights; mask via != 0 and np.expand_dims",
     "code": '''
import numpy as np
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    names = {"q": "self.query", "k": "self.key", "v": "self.value", "o": "output.dense"}
    weights = {f"w_{s}": np.swapaxes(state[f"{p}.weight"], 0, 1) for s, p in names.items()}
    biases = {f"b_{s}": state[f"{p}.bias"] for s, p in names.items()}
    params = mha.MHAParams(num_heads=num_heads, **weights, **biases)
    keep = np.expand_dims(np.asarray(attention_mask) != 0, axis=(1, 2))  # (B, 1, 1, n)
    return mha.multi_head_attention(x, x, x, params, keep)
'''},
    {"exercise": "bert_self_attention", "kind": "wrong",
     "mistake": "Uses BERT's nn.Linear weights as they are stored, (out, in), without transposing them; every projection is square so nothing raises.",
     "teacher_says": "nn.Linear computes x @ W.T, so its weight is the transpose of the paper's W: transpose all four before building MHAParams.",
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
     "mistake": "Inserts the singleton axes on the wrong side, giving a (B, 1, n, 1) mask: it hides the padded *queries* instead of the padded keys, so real tokens still attend to padding.",
     "teacher_says": "The padding mask must vary along the last (key) axis, (B, 1, 1, n): it is keys that a query may not attend.",
     "code": '''
import numpy as np
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        w_q=state["self.query.weight"].T, w_k=state["self.key.weight"].T,
        w_v=state["self.value.weight"].T, w_o=state["output.dense.weight"].T,
        num_heads=num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, :, None]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
    {"exercise": "bert_self_attention", "kind": "wrong",
     "mistake": "Passes only the three input biases and leaves out output.dense.bias, so b_o is never added to the output.",
     "teacher_says": "BERT's output projection has a bias too: pass b_o=state['output.dense.bias'] or every output row is off by that vector.",
     "code": '''
import numpy as np
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        w_q=state["self.query.weight"].T, w_k=state["self.key.weight"].T,
        w_v=state["self.value.weight"].T, w_o=state["output.dense.weight"].T,
        num_heads=num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"],
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
    # ------------------------------------------------------ padding_mask_from_attention_mask
    {"exercise": "padding_mask_from_attention_mask", "kind": "correct",
     "idea": "np.not_equal with 0 and a reshape to (B, 1, 1, n)",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    batch, n = am.shape
    return np.not_equal(am, 0).reshape(batch, 1, 1, n)
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
     "mistake": "Counts the ones to get each sentence's length and builds the mask from lengths, which assumes the padding is on the right; left-padded masks come out wrong.",
     "teacher_says": "A length says how many tokens are real, not where they are: compare the mask with 1 token by token instead of counting.",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    lengths = am.sum(axis=1).astype(int)
    n = am.shape[1]
    mask = np.arange(n)[None, :] < lengths[:, None]
    return mask[:, None, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
     "mistake": "Puts the token axis in the query position: returns shape (B, 1, n, 1) instead of (B, 1, 1, n).",
     "teacher_says": "The mask must broadcast over heads and queries, so the tokens go on the last (key) axis: [:, None, None, :].",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    real = np.asarray(attention_mask) == 1
    return real[:, None, :, None]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
     "mistake": "Uses nn.MultiheadAttention's key_padding_mask convention, True = padding, by comparing with 0.",
     "teacher_says": "The book's mask is True where a token may be attended, the same polarity as attention_mask: compare with 1, not 0.",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    padding = np.asarray(attention_mask) == 0
    return padding[:, None, None, :]
'''},
    # ------------------------------------------------------------------ head_js_divergence
    {"exercise": "head_js_divergence", "kind": "correct",
     "idea": "all pairs at once by broadcasting (h, 1, Q, n) against (1, h, Q, n), with a safe-log helper",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k).astype(np.float64)  # (h, Q, n_k)

    def plogp(p):
        return np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0).sum(-1)

    self_term = plogp(rows)  # (h, Q)
    mix = (rows[:, None] + rows[None, :]) / 2  # (h, h, Q, n_k)
    js = (self_term[:, None] + self_term[None, :]) / 2 - plogp(mix)  # (h, h, Q)
    return js.mean(-1).astype(w.dtype)
'''},
    {"exercise": "head_js_divergence", "kind": "wrong",
     "mistake": "Uses np.log2, so the divergence comes out in bits (between 0 and 1) instead of nats.",
     "teacher_says": "The statement asks for nats: use the natural logarithm np.log; log2 scales every entry by 1/ln 2.",
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
     "mistake": "Reshapes to (h, -1, n_k) without first moving the heads axis to the front, so with a batch axis the 'heads' are slices mixing batch items and heads.",
     "teacher_says": "A reshape only regroups memory order: bring the heads axis (-3) to the front with np.moveaxis before flattening the rest.",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = w.reshape(h, -1, n_k)
    out = np.zeros((h, h), dtype=w.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        for a in range(h):
            for b in range(h):
                p, q = rows[a], rows[b]
                m = (p + q) / 2
                kl_p = np.where(p > 0, p * np.log(p / m), 0).sum(-1)
                kl_q = np.where(q > 0, q * np.log(q / m), 0).sum(-1)
                out[a, b] = ((kl_p + kl_q) / 2).mean()
    return out
'''},
    {"exercise": "head_js_divergence", "kind": "wrong",
     "mistake": "Adds the two KL divergences but forgets to halve their sum, so every entry is twice the Jensen-Shannon divergence (up to 2 ln 2).",
     "teacher_says": "JS is the mean of KL(p||m) and KL(q||m), not their sum: divide by 2.",
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
                kl_p = np.where(p > 0, p * np.log(p / m), 0).sum(-1)
                kl_q = np.where(q > 0, q * np.log(q / m), 0).sum(-1)
                out[a, b] = (kl_p + kl_q).mean()
    return out
'''},
    # ------------------------------------------------------------------ heads_per_feature
    {"exercise": "heads_per_feature", "kind": "correct",
     "idea": "centre each head's (tokens, d_model) table by hand, mean of squares, ratio in float64",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d_model = c.shape[-3], c.shape[-1]
    per_head = np.moveaxis(c, -3, 0).reshape(h, -1, d_model)  # (h, tokens, d_model)
    centred = per_head - per_head.mean(axis=1, keepdims=True)
    s = (centred**2).mean(axis=1)  # (h, d_model), np.var's convention
    return np.square(s.sum(axis=0)) / np.square(s).sum(axis=0)
'''},
    {"exercise": "heads_per_feature", "kind": "wrong",
     "mistake": "Measures each head by its mean square over tokens instead of its variance, so a head that adds the same vector to every token counts as writing to the feature.",
     "teacher_says": "Subtract each head's mean over the tokens first (np.var does): a constant offset is not information the head writes.",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    flat = np.moveaxis(c, -3, 0).reshape(h, -1, d)
    s = (flat**2).mean(axis=1)
    return s.sum(0) ** 2 / (s**2).sum(0)
'''},
    {"exercise": "heads_per_feature", "kind": "wrong",
     "mistake": "Takes the variance over the positions axis only, within each leading index, and then averages those variances; the spread between different sequences is lost.",
     "teacher_says": "Every leading index and position is a token: flatten them all into one axis and take a single variance over it.",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    s = c.var(axis=-2)  # (..., h, d_model)
    s = s.reshape(-1, *s.shape[-2:]).mean(axis=0)  # (h, d_model)
    return s.sum(0) ** 2 / (s**2).sum(0)
'''},
    {"exercise": "heads_per_feature", "kind": "wrong",
     "mistake": "Uses the standard deviation (np.std) as s_a instead of the variance.",
     "teacher_says": "s_a is the variance; with standard deviations the participation ratio weighs the heads differently and gives other counts.",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    flat = np.moveaxis(c, -3, 0).reshape(h, -1, d)
    s = flat.std(axis=1)
    return s.sum(0) ** 2 / (s**2).sum(0)
'''},
    # ------------------------------------------------------------------ head_ablation_scores
    {"exercise": "head_ablation_scores", "kind": "correct",
     "idea": "np.ndindex over the gate, a fresh ones gate each time via np.where on an index grid",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    shape = (num_layers, num_heads)
    full = float(evaluate(np.ones(shape)))
    drops = np.empty(shape, dtype=np.float64)
    for layer, head in np.ndindex(*shape):
        gate = np.ones(shape)
        gate[layer, head] = 0.0
        drops[layer, head] = full - float(evaluate(gate))
    return drops
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong",
     "mistake": "Creates one gate before the loop and sets heads to 0 in it without putting them back, so each head is removed on top of all the heads before it.",
     "teacher_says": "Each head must be removed alone: start from a fresh gate of ones (or restore the 1) for every head.",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    gate = np.ones((num_layers, num_heads))
    base = evaluate(gate.copy())
    scores = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            gate[l, a] = 0
            scores[l, a] = base - evaluate(gate.copy())
    return scores
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong",
     "mistake": "Subtracts the other way round, ablated score minus full score, so important heads get negative values.",
     "teacher_says": "The drop is full-model score minus the ablated score: a head that matters must come out positive.",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    scores = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[l, a] = 0
            scores[l, a] = evaluate(gate) - base
    return scores
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong",
     "mistake": "Builds the gate as integer ones and makes the result with np.zeros_like(gate), so the float drops are truncated to integers when stored.",
     "teacher_says": "The result must be float64: an array made like an int gate silently truncates every score you write into it.",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    ones = np.ones((num_layers, num_heads), dtype=int)
    base = evaluate(ones)
    scores = np.zeros_like(ones)
    for l in range(num_layers):
        for a in range(num_heads):
            gate = ones.copy()
            gate[l, a] = 0
            scores[l, a] = base - evaluate(gate)
    return scores
'''},
]

_WRITER_D = ANSWERS

ANSWERS = [
 # ---------------------------------------------------------------- bert_self_attention
 {"exercise": "bert_self_attention", "kind": "correct",
  "idea": "a dict comprehension transposes the four (out, in) weights into an MHAParams; the mask is `attention_mask > 0` with np.expand_dims on axes 1 and 2",
  "code": '''
import numpy as np
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    names = {"q": "self.query", "k": "self.key", "v": "self.value", "o": "output.dense"}
    weights = {f"w_{s}": np.asarray(state[f"{n}.weight"]).T for s, n in names.items()}
    biases = {f"b_{s}": np.asarray(state[f"{n}.bias"]) for s, n in names.items()}
    params = mha.MHAParams(num_heads=num_heads, **weights, **biases)
    keep = np.expand_dims(np.asarray(attention_mask) > 0, axis=(1, 2))  # (B, 1, 1, n)
    return mha.multi_head_attention(x, x, x, params, keep)
'''},
 {"exercise": "bert_self_attention", "kind": "robustness",
  "idea": "runs mha.multi_head_attention once per sentence in a Python loop (mask (1, n) per sentence) and stacks the results: right values, B calls instead of one",
  "code": '''
import numpy as np
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        w_q=state["self.query.weight"].T.copy(),
        w_k=state["self.key.weight"].T.copy(),
        w_v=state["self.value.weight"].T.copy(),
        w_o=state["output.dense.weight"].T.copy(),
        num_heads=num_heads,
        b_q=state["self.query.bias"].copy(),
        b_k=state["self.key.bias"].copy(),
        b_v=state["self.value.bias"].copy(),
        b_o=state["output.dense.bias"].copy(),
    )
    outs, ws = [], []
    for b in range(x.shape[0]):
        row_mask = np.array([[int(t) == 1 for t in attention_mask[b]]])  # (1, n)
        out_b, w_b = mha.multi_head_attention(x[b], x[b], x[b], params, row_mask)
        outs.append(out_b)
        ws.append(w_b)
    return np.stack(outs), np.stack(ws)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "Uses BERT's nn.Linear weights as they are stored, (out, in), without transposing them; every matrix is square so no shape error appears.",
  "teacher_says": "nn.Linear computes x @ W.T, so its weight is the transpose of the paper's W: transpose all four before building MHAParams.",
  "code": '''
import numpy as np
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        w_q=state["self.query.weight"],
        w_k=state["self.key.weight"],
        w_v=state["self.value.weight"],
        w_o=state["output.dense.weight"],
        num_heads=num_heads,
        b_q=state["self.query.bias"],
        b_k=state["self.key.bias"],
        b_v=state["self.value.bias"],
        b_o=state["output.dense.bias"],
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "Inserts the singleton axes in the wrong places, [:, None, :, None], so the mask hides padded *queries* (their rows become zero) instead of padded keys; real tokens still attend the padding.",
  "teacher_says": "The padding mask must run along the key axis, the last one: (B, 1, 1, n), so every query ignores the padded keys.",
  "code": '''
import numpy as np
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        w_q=state["self.query.weight"].T,
        w_k=state["self.key.weight"].T,
        w_v=state["self.value.weight"].T,
        w_o=state["output.dense.weight"].T,
        num_heads=num_heads,
        b_q=state["self.query.bias"],
        b_k=state["self.key.bias"],
        b_v=state["self.value.bias"],
        b_o=state["output.dense.bias"],
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, :, None]  # (B, 1, n, 1)
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "Passes the three projection biases but forgets output.dense.bias, so the output lacks b_O (the weights are still right).",
  "teacher_says": "BERT's output projection has a bias too: pass b_o=state['output.dense.bias'], or every output row is off by that vector.",
  "code": '''
import numpy as np
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        w_q=state["self.query.weight"].T,
        w_k=state["self.key.weight"].T,
        w_v=state["self.value.weight"].T,
        w_o=state["output.dense.weight"].T,
        num_heads=num_heads,
        b_q=state["self.query.bias"],
        b_k=state["self.key.bias"],
        b_v=state["self.value.bias"],
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 # ---------------------------------------------------- padding_mask_from_attention_mask
 {"exercise": "padding_mask_from_attention_mask", "kind": "correct",
  "idea": "`!= 0` on the array, then np.expand_dims with a tuple of axes (1, 2)",
  "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    real = np.asarray(attention_mask) != 0
    return np.expand_dims(real, axis=(1, 2))
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "robustness",
  "idea": "nested Python loops build a list of lists of bools, then np.array(..., dtype=bool).reshape(B, 1, 1, n)",
  "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    rows = []
    for row in attention_mask:
        rows.append([bool(float(t) == 1.0) for t in row])
    B, n = len(rows), len(rows[0])
    return np.array(rows, dtype=bool).reshape(B, 1, 1, n)
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "Counts the ones per row to get lengths and builds `arange(n) < length`, which assumes the padding is on the right; a left-padded row gets the mask of the wrong tokens.",
  "teacher_says": "The mask already says which tokens are real: compare it with 1 instead of turning it into lengths, which assume right padding.",
  "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    lengths = am.sum(axis=-1).astype(int)  # (B,)
    n = am.shape[-1]
    mask = np.arange(n)[None, :] < lengths[:, None]
    return mask[:, None, None, :]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "Adds the axes but never converts to bool: the result keeps the tokenizer's ints or floats (1/0 or 1.0/0.0).",
  "teacher_says": "The book's mask is a bool array; compare with 1 (== 1) so the dtype is bool whatever the tokenizer gave.",
  "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    return np.asarray(attention_mask)[:, None, None, :]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "Puts the token axis in the query position, shape (B, 1, n, 1), instead of the key position (B, 1, 1, n).",
  "teacher_says": "The mask says which keys may be attended, so the tokens go on the last axis: [:, None, None, :].",
  "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    real = np.asarray(attention_mask) == 1
    return real[:, None, :, None]
'''},
 # --------------------------------------------------------------- head_js_divergence
 {"exercise": "head_js_divergence", "kind": "correct",
  "idea": "all pairs at once by broadcasting (h, 1, Q, n_k) against (1, h, Q, n_k), with JS = H(m) - (H(p) + H(q)) / 2 and 0 ln 0 = 0 through np.where",
  "code": '''
import numpy as np


def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k)  # (h, Q, n_k)

    def xlogx(a):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(a > 0, a * np.log(np.where(a > 0, a, 1)), 0)

    neg_entropy = xlogx(rows).sum(-1)  # (h, Q)
    mid = (rows[:, None] + rows[None, :]) / 2  # (h, h, Q, n_k)
    js = (neg_entropy[:, None] + neg_entropy[None, :]) / 2 - xlogx(mid).sum(-1)
    return js.mean(-1).astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "robustness",
  "idea": "explicit Python loops over pairs of heads and over every query row, with the KL sums written term by term in a generator; slow but right",
  "code": '''
import math
import numpy as np


def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k).tolist()
    Q = len(rows[0])
    out = np.zeros((h, h), dtype=w.dtype)
    for a in range(h):
        for b in range(h):
            total = 0.0
            for r in range(Q):
                p, q = rows[a][r], rows[b][r]
                kl_p = sum(pi * math.log(pi / ((pi + qi) / 2)) for pi, qi in zip(p, q) if pi > 0)
                kl_q = sum(qi * math.log(qi / ((pi + qi) / 2)) for pi, qi in zip(p, q) if qi > 0)
                total += (kl_p + kl_q) / 2
            out[a, b] = total / Q
    return out
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Reshapes to (h, -1, n_k) straight away without moving the heads axis to the front, so with a batch axis the 'heads' are slices of the batch and of the heads mixed together.",
  "teacher_says": "A reshape only regroups memory order: bring the heads axis first with np.moveaxis(weights, -3, 0) before flattening.",
  "code": '''
import numpy as np


def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = w.reshape(h, -1, n_k)  # (h, Q, n_k)?
    out = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            p, q = rows[a], rows[b]
            m = (p + q) / 2
            with np.errstate(divide="ignore", invalid="ignore"):
                kl_p = np.where(p > 0, p * np.log(p / m), 0).sum(-1)
                kl_q = np.where(q > 0, q * np.log(q / m), 0).sum(-1)
            out[a, b] = ((kl_p + kl_q) / 2).mean()
    return out.astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Uses np.log2, so the divergence comes out in bits (between 0 and 1) rather than nats as asked.",
  "teacher_says": "The statement asks for nats: use the natural logarithm, np.log; log2 scales every entry by 1/ln 2.",
  "code": '''
import numpy as np


def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k)
    out = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            p, q = rows[a], rows[b]
            m = (p + q) / 2
            with np.errstate(divide="ignore", invalid="ignore"):
                kl_p = np.where(p > 0, p * np.log2(p / m), 0).sum(-1)
                kl_q = np.where(q > 0, q * np.log2(q / m), 0).sum(-1)
            out[a, b] = ((kl_p + kl_q) / 2).mean()
    return out.astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Writes p * np.log(p / m) without guarding the zeros: where a weight is exactly 0 the term is 0 * log(0) = NaN, and the whole average becomes NaN.",
  "teacher_says": "Take 0 ln 0 = 0 explicitly, e.g. np.where(p > 0, p * np.log(p / m), 0), since NumPy gives 0 * -inf = NaN.",
  "code": '''
import numpy as np


def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k)
    out = np.zeros((h, h))
    with np.errstate(divide="ignore", invalid="ignore"):
        for a in range(h):
            for b in range(h):
                p, q = rows[a], rows[b]
                m = (p + q) / 2
                kl_p = (p * np.log(p / m)).sum(-1)
                kl_q = (q * np.log(q / m)).sum(-1)
                out[a, b] = ((kl_p + kl_q) / 2).mean()
    return out.astype(w.dtype)
'''},
 # ---------------------------------------------------------------- heads_per_feature
 {"exercise": "heads_per_feature", "kind": "correct",
  "idea": "heads axis moved to the end, tokens flattened to (tokens, h, d); variance computed by hand as the mean squared deviation",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    tokens = np.moveaxis(c, -3, -2).reshape(-1, h, d)  # (tokens, h, d)
    centred = tokens - tokens.mean(axis=0)
    s = (centred**2).mean(axis=0)  # (h, d)
    return s.sum(axis=0) ** 2 / (s**2).sum(axis=0)
'''},
 {"exercise": "heads_per_feature", "kind": "robustness",
  "idea": "double Python loop over features and heads, each variance by np.var on a copied column; right float64 values, d_model * h calls",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions)
    h, d = c.shape[-3], c.shape[-1]
    result = []
    for j in range(d):
        s = []
        for a in range(h):
            column = np.array(c[..., a, :, j], dtype=np.float64).ravel()
            s.append(float(np.var(column)))
        result.append(sum(s) ** 2 / sum(x * x for x in s))
    return np.array(result, dtype=np.float64)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "Uses the mean square of each head's contribution (not centred) instead of its variance, so a head that adds the same constant to every token counts as writing to the feature.",
  "teacher_says": "Subtract each head's mean over the tokens first: a constant offset is not something the head says about the token.",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    flat = np.moveaxis(c, -3, 0).reshape(h, -1, d)
    s = (flat**2).mean(axis=1)  # (h, d)
    return s.sum(0) ** 2 / (s**2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "Takes the standard deviation (np.std) as s_a instead of the variance, which changes the participation ratio.",
  "teacher_says": "s_a is the variance; the ratio is not invariant to taking square roots of its entries.",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    flat = np.moveaxis(c, -3, 0).reshape(h, -1, d)
    s = flat.std(axis=1)
    return s.sum(0) ** 2 / (s**2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "Reshapes to (h, -1, d_model) without first moving the heads axis to the front, so with leading batch axes each 'head' is a block of memory that mixes batches and heads.",
  "teacher_says": "np.moveaxis(x, -3, 0) before the reshape: reshape never reorders axes, it only regroups them.",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    flat = c.reshape(h, -1, d)
    s = flat.var(axis=1)
    return s.sum(0) ** 2 / (s**2).sum(0)
'''},
 # ------------------------------------------------------------- head_ablation_scores
 {"exercise": "head_ablation_scores", "kind": "correct",
  "idea": "np.ndindex over the gate, each head from a fresh np.ones gate; baseline computed once",
  "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    shape = (num_layers, num_heads)
    base = float(evaluate(np.ones(shape)))
    drops = np.empty(shape, dtype=np.float64)
    for idx in np.ndindex(*shape):
        gate = np.ones(shape)
        gate[idx] = 0.0
        drops[idx] = base - float(evaluate(gate))
    return drops
'''},
 {"exercise": "head_ablation_scores", "kind": "robustness",
  "idea": "recomputes the full model's score inside the loop for every head (twice the evaluations), and builds the result from a nested list",
  "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    table = []
    for layer in range(num_layers):
        row = []
        for head in range(num_heads):
            full = evaluate(np.ones((num_layers, num_heads)))
            gate = np.ones((num_layers, num_heads))
            gate[layer, head] = 0
            row.append(full - evaluate(gate))
        table.append(row)
    return np.array(table, dtype=np.float64)
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "Reuses one gate for the whole loop and never sets the removed head back to 1, so each head is measured with all the earlier heads already removed.",
  "teacher_says": "Each head is removed alone: start every evaluation from a fresh gate of ones (or restore the entry after evaluating).",
  "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    gate = np.ones((num_layers, num_heads))
    base = evaluate(gate.copy())
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate[layer, head] = 0
            scores[layer, head] = base - evaluate(gate.copy())
    return scores
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "Subtracts the other way round, ablated minus full, so an important head gets a negative score (the gain, not the drop).",
  "teacher_says": "The drop is base - evaluate(ablated gate): higher scores are better, so removing an important head should give a positive number.",
  "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[layer, head] = 0
            scores[layer, head] = evaluate(gate) - base
    return scores
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "Reads 'each head alone' as keeping only that head: the gate is all zeros with a 1 at the head, so it measures the model with one head rather than without it.",
  "teacher_says": "Ablating a head means removing it from the full model: ones everywhere and a 0 at [l, a], not the other way round.",
  "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.zeros((num_layers, num_heads))
            gate[layer, head] = 1
            scores[layer, head] = base - evaluate(gate)
    return scores
'''},
]

_WRITER_H = ANSWERS
ANSWERS = _WRITER_D + _WRITER_H
