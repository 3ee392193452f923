# writer D's answers, then writer H's (each file verbatim)
"""Student answers for chapter 11 (The heads of a real Transformer), writer D."""

ANSWERS = [
# ---------------------------------------------------------------- bert_self_attention
 {"exercise": "bert_self_attention", "kind": "correct",
  "idea": "pull the eight arrays out of the state dict in a loop, transpose the weights with .T, "
          "mask = attention_mask != 0 with expand_dims over the heads and query axes",
  "code": '''
import numpy as np
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    arrays = {}
    for short, name in (("q", "self.query"), ("k", "self.key"), ("v", "self.value"),
                        ("o", "output.dense")):
        arrays["w_" + short] = np.asarray(state[name + ".weight"]).T  # (in, out)
        arrays["b_" + short] = np.asarray(state[name + ".bias"])
    params = mha.MHAParams(num_heads=num_heads, **arrays)
    keep = np.expand_dims(np.asarray(attention_mask) != 0, axis=(1, 2))  # (B, 1, 1, n)
    return mha.multi_head_attention(x, x, x, params, keep)
'''},
 {"exercise": "bert_self_attention", "kind": "robustness",
  "idea": "one sentence at a time in a Python loop (each with its own (1, 1, n) mask), weights "
          "copied into fresh contiguous arrays, results stacked: right values and dtype, "
          "B calls and extra copies",
  "code": '''
import numpy as np
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    def w(name):
        return np.ascontiguousarray(np.array(state[name + ".weight"]).T.copy())

    def b(name):
        return np.array(state[name + ".bias"]).copy()

    params = mha.MHAParams(
        w("self.query"), w("self.key"), w("self.value"), w("output.dense"), num_heads,
        b_q=b("self.query"), b_k=b("self.key"), b_v=b("self.value"), b_o=b("output.dense"),
    )
    outs, weights = [], []
    for i in range(x.shape[0]):
        row_mask = np.array([[[bool(t == 1) for t in attention_mask[i]]]])  # (1, 1, n)
        o, wts = mha.multi_head_attention(x[i], x[i], x[i], params, row_mask)
        outs.append(o)
        weights.append(wts)
    return np.stack(outs), np.stack(weights)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "Passes BERT's nn.Linear weights to MHAParams as they are stored, (out, in), "
             "without transposing; the shapes are square so nothing complains.",
  "teacher_says": "nn.Linear computes x @ W.T, so the paper's W is the transpose of what the "
                  "state dict stores: transpose every weight before building MHAParams.",
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
  "mistake": "Inserts the singleton axes in the wrong places, [:, None, :, None], so the mask "
             "hides the padded *queries* (their rows) instead of the padded keys.",
  "teacher_says": "The padding mask must remove columns (keys) from every row: its shape is "
                  "(B, 1, 1, n), with the token axis last.",
  "code": '''
import numpy as np
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        state["self.query.weight"].T, state["self.key.weight"].T,
        state["self.value.weight"].T, state["output.dense.weight"].T, num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, :, None]  # (B, 1, n, 1)
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "Builds MHAParams with the three input biases but forgets output.dense.bias, so "
             "b_o is never added to the output.",
  "teacher_says": "BERT's output projection is an nn.Linear with a bias too: pass "
                  "b_o=state['output.dense.bias'].",
  "code": '''
import numpy as np
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        state["self.query.weight"].T, state["self.key.weight"].T,
        state["self.value.weight"].T, state["output.dense.weight"].T, num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"],
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
# ---------------------------------------------------- padding_mask_from_attention_mask
 {"exercise": "padding_mask_from_attention_mask", "kind": "correct",
  "idea": "cast to bool (non-zero = real token) and reshape to (B, 1, 1, n)",
  "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    real = np.asarray(attention_mask).astype(bool)
    return real.reshape(real.shape[0], 1, 1, real.shape[1])
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "robustness",
  "idea": "nested Python loops build a list of lists of booleans, then np.array(..., bool) "
          "and two np.newaxis: right values, shape and dtype, slow",
  "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    rows = []
    for sentence in np.asarray(attention_mask).tolist():
        rows.append([float(token) == 1.0 for token in sentence])
    mask = np.array(rows, dtype=bool)
    return mask[:, np.newaxis, np.newaxis, :]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "Counts the ones to get each sentence's length and builds the mask as "
             "arange(n) < length, which assumes the padding is on the right.",
  "teacher_says": "A tokenizer may pad on the left; use the mask token by token "
                  "(attention_mask == 1) instead of turning it into lengths.",
  "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    attention_mask = np.asarray(attention_mask)
    lengths = attention_mask.sum(axis=1).astype(int)  # (B,)
    n = attention_mask.shape[1]
    mask = np.arange(n)[None, :] < lengths[:, None]  # (B, n)
    return mask[:, None, None, :]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "Reads the tokenizer's mask as 'True = masked out', so it keeps the padding and "
             "hides the real tokens (attention_mask == 0).",
  "teacher_says": "The book's mask is True where a key may be attended, and the tokenizer's 1 "
                  "means a real token: compare with 1, not 0.",
  "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 0)[:, None, None, :]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "Only inserts the two axes and returns the tokenizer's integer (or float) array "
             "itself, never converting it to booleans.",
  "teacher_says": "A 0/1 integer array is not a boolean mask (used as an index it selects rows "
                  "0 and 1): return a dtype-bool array, e.g. attention_mask == 1.",
  "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    return np.asarray(attention_mask)[:, None, None, :]
'''},
# ------------------------------------------------------------------ head_js_divergence
 {"exercise": "head_js_divergence", "kind": "correct",
  "idea": "rows as (h, Q, n_k); all pairs at once by broadcasting (h, 1, Q, n_k) against "
          "(1, h, Q, n_k); entropy form JS = H(m) - (H(p) + H(q)) / 2",
  "code": '''
import numpy as np


def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k).astype(np.float64)  # (h, Q, n_k)

    def entropy(p):
        safe = np.where(p > 0, p, 1.0)
        return -(p * np.log(safe)).sum(-1)

    h_rows = entropy(rows)  # (h, Q)
    mix = (rows[:, None] + rows[None, :]) / 2  # (h, h, Q, n_k)
    js = entropy(mix) - (h_rows[:, None] + h_rows[None, :]) / 2  # (h, h, Q)
    return js.mean(-1).astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "robustness",
  "idea": "three nested Python loops (head a, head b, row) with the two KL sums written out "
          "element by element in float64; right values, cast to weights' dtype at the end",
  "code": '''
import math
import numpy as np


def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k)
    n_rows = rows.shape[1]
    out = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            total = 0.0
            for r in range(n_rows):
                js = 0.0
                for j in range(n_k):
                    p, q = float(rows[a, r, j]), float(rows[b, r, j])
                    m = (p + q) / 2
                    if p > 0:
                        js += 0.5 * p * math.log(p / m)
                    if q > 0:
                        js += 0.5 * q * math.log(q / m)
                total += js
            out[a, b] = total / n_rows
    return out.astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Uses np.log2, so the divergence comes out in bits (between 0 and 1) instead of "
             "nats.",
  "teacher_says": "The statement asks for nats: use the natural logarithm np.log; bits are "
                  "nats divided by ln 2.",
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
                kl_p = np.where(p > 0, p * np.log2(p / m), 0.0).sum(-1)
                kl_q = np.where(q > 0, q * np.log2(q / m), 0.0).sum(-1)
                out[a, b] = ((kl_p + kl_q) / 2).mean()
    return out.astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Reshapes weights straight to (h, -1, n_k) without moving the heads axis to the "
             "front, so with a batch axis each 'head' gets a mix of rows from several batch "
             "entries and heads.",
  "teacher_says": "A reshape only regroups memory in order: move the heads axis (-3) to the "
                  "front with np.moveaxis before flattening the rest.",
  "code": '''
import numpy as np


def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = w.reshape(h, -1, n_k)  # (h, Q, n_k)
    out = np.zeros((h, h))
    with np.errstate(divide="ignore", invalid="ignore"):
        for a in range(h):
            for b in range(h):
                p, q = rows[a], rows[b]
                m = (p + q) / 2
                kl_p = np.where(p > 0, p * np.log(p / m), 0.0).sum(-1)
                kl_q = np.where(q > 0, q * np.log(q / m), 0.0).sum(-1)
                out[a, b] = ((kl_p + kl_q) / 2).mean()
    return out.astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Adds the two KL divergences to the mixture but forgets to halve the sum, so every "
             "entry is twice the Jensen-Shannon divergence (up to 2 ln 2).",
  "teacher_says": "JS(p, q) is the *average* (KL(p||m) + KL(q||m)) / 2; it never exceeds "
                  "ln 2, which is a quick check on your numbers.",
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
                kl_p = np.where(p > 0, p * np.log(p / m), 0.0).sum(-1)
                kl_q = np.where(q > 0, q * np.log(q / m), 0.0).sum(-1)
                out[a, b] = (kl_p + kl_q).mean()
    return out.astype(w.dtype)
'''},
# ------------------------------------------------------------------- heads_per_feature
 {"exercise": "heads_per_feature", "kind": "correct",
  "idea": "centre by hand: heads first, tokens flattened, subtract the per-head mean and "
          "average the squares; participation ratio from the (h, d_model) variances",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d_model = c.shape[-3], c.shape[-1]
    per_head = np.moveaxis(c, -3, 0).reshape(h, -1, d_model)  # (h, tokens, d_model)
    centred = per_head - per_head.mean(axis=1, keepdims=True)
    s = (centred ** 2).mean(axis=1)  # (h, d_model)
    return np.square(s.sum(axis=0)) / np.square(s).sum(axis=0)
'''},
 {"exercise": "heads_per_feature", "kind": "robustness",
  "idea": "a Python loop over features and heads, np.var on each column of one head in "
          "float64, ratios collected in a list and turned into a float64 array",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions)
    h, d_model = c.shape[-3], c.shape[-1]
    ratios = []
    for j in range(d_model):
        s = []
        for a in range(h):
            column = np.take(c, a, axis=-3)[..., j].astype(np.float64).ravel()
            s.append(float(np.var(column)))
        ratios.append(sum(s) ** 2 / sum(x * x for x in s))
    return np.array(ratios, dtype=np.float64)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "Uses the mean square of each head's contribution instead of its variance (no "
             "centring), so a head that adds the same vector to every token counts as "
             "writing to the feature.",
  "teacher_says": "The variance subtracts the mean: a constant offset says nothing about the "
                  "tokens, so use np.var (or centre first), not the mean of the squares.",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d_model = c.shape[-3], c.shape[-1]
    flat = np.moveaxis(c, -3, 0).reshape(h, -1, d_model)
    s = (flat ** 2).mean(axis=1)  # (h, d_model)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "Takes the variance along the position axis only (axis -2), per sequence, and "
             "then averages over the leading axes, instead of the variance over all tokens of "
             "all sequences.",
  "teacher_says": "Every leading index and position is a token: flatten them all into one "
                  "axis before taking the variance, otherwise differences between sequences "
                  "are lost.",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    s = c.var(axis=-2)  # (..., h, d_model)
    s = s.reshape(-1, *s.shape[-2:]).mean(axis=0)  # (h, d_model)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "Sums over the wrong axis of the (h, d_model) variance table (axis 1, the "
             "features), so it returns one number per head, shape (h,), instead of one per "
             "feature.",
  "teacher_says": "The participation ratio counts heads for each feature: the sums run over "
                  "the heads axis (0) and the result has shape (d_model,).",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d_model = c.shape[-3], c.shape[-1]
    flat = np.moveaxis(c, -3, 0).reshape(h, -1, d_model)
    s = flat.var(axis=1)  # (h, d_model)
    return s.sum(1) ** 2 / (s ** 2).sum(1)
'''},
# ---------------------------------------------------------------- head_ablation_scores
 {"exercise": "head_ablation_scores", "kind": "correct",
  "idea": "one baseline call, then np.ndindex over the gate and a fresh gate per head",
  "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    shape = (num_layers, num_heads)
    full = float(evaluate(np.ones(shape)))
    drops = np.empty(shape, dtype=np.float64)
    for index in np.ndindex(*shape):
        gate = np.ones(shape)
        gate[index] = 0.0
        drops[index] = full - float(evaluate(gate))
    return drops
'''},
 {"exercise": "head_ablation_scores", "kind": "robustness",
  "idea": "recomputes the full model's score for every head (twice the evaluate calls) and "
          "builds a nested list that is converted at the end",
  "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    table = []
    for layer in range(num_layers):
        row = []
        for head in range(num_heads):
            base = evaluate(np.ones((num_layers, num_heads)))
            gate = np.ones((num_layers, num_heads))
            gate[layer][head] = 0
            row.append(base - evaluate(gate))
        table.append(row)
    return np.array(table, dtype=np.float64)
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "Reuses one gate for the whole loop and never puts the 1 back, so each head is "
             "removed together with all the heads before it (a cumulative pruning, not an "
             "ablation of each head alone).",
  "teacher_says": "Each head must be removed alone: start every head from a fresh gate of "
                  "ones (or reset the entry after the call).",
  "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    gate = np.ones((num_layers, num_heads))
    base = float(evaluate(gate.copy()))
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate[layer, head] = 0.0
            scores[layer, head] = base - float(evaluate(gate.copy()))
    return scores
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "Subtracts the other way round, ablated score minus full score, so an important "
             "head gets a negative number.",
  "teacher_says": "The drop is base - ablated: higher is better, so removing a useful head "
                  "must give a positive importance.",
  "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    base = float(evaluate(np.ones((num_layers, num_heads))))
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[layer, head] = 0.0
            scores[layer, head] = float(evaluate(gate)) - base
    return scores
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "Lays the result out as (num_heads, num_layers), writing scores[head, layer], "
             "so the table is transposed (and has the wrong shape whenever the two differ).",
  "teacher_says": "Return the drops in the gate's own layout, (num_layers, num_heads), with "
                  "the drop for removing gate[l, a] at [l, a].",
  "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    base = float(evaluate(np.ones((num_layers, num_heads))))
    scores = np.zeros((num_heads, num_layers))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[layer, head] = 0.0
            scores[head, layer] = base - float(evaluate(gate))
    return scores
'''},
]

_WRITER_D = ANSWERS

"""Student answers for chapter 11 (The heads of a real Transformer), writer h."""

ANSWERS = [
    # ------------------------------------------------------------------ bert_self_attention
    {"exercise": "bert_self_attention", "kind": "correct",
     "idea": "a small table of (BERT name, paper name) pairs turned into MHAParams kwargs with .T on "
             "the weights; the mask via np.expand_dims on axes (1, 2)",
     "code": '''
import numpy as np
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    names = {"q": "self.query", "k": "self.key", "v": "self.value", "o": "output.dense"}
    kwargs = {}
    for short, bert in names.items():
        kwargs["w_" + short] = np.asarray(state[bert + ".weight"]).T  # (out, in) -> (in, out)
        kwargs["b_" + short] = np.asarray(state[bert + ".bias"])
    params = mha.MHAParams(num_heads=num_heads, **kwargs)
    may_attend = np.expand_dims(np.asarray(attention_mask) == 1, axis=(1, 2))  # (B, 1, 1, n)
    return mha.multi_head_attention(x, x, x, params, may_attend)
'''},
    {"exercise": "bert_self_attention", "kind": "robustness",
     "idea": "runs the layer one sentence at a time in a Python loop, with explicit contiguous copies "
             "of every transposed weight, and stacks the results: slow and allocation-heavy but equal",
     "code": '''
import numpy as np
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    x = np.asarray(x)
    def w(name):
        return np.ascontiguousarray(np.array(state[name + ".weight"]).transpose().copy())
    def b(name):
        return np.array(state[name + ".bias"]).copy()
    params = mha.MHAParams(
        w_q=w("self.query"), w_k=w("self.key"), w_v=w("self.value"), w_o=w("output.dense"),
        num_heads=num_heads,
        b_q=b("self.query"), b_k=b("self.key"), b_v=b("self.value"), b_o=b("output.dense"),
    )
    outs, weights = [], []
    for i in range(x.shape[0]):
        row = np.array([[[bool(value == 1) for value in attention_mask[i]]]])  # (1, 1, n)
        out_i, w_i = mha.multi_head_attention(
            x[i : i + 1], x[i : i + 1], x[i : i + 1], params, row[None]
        )
        outs.append(out_i[0])
        weights.append(w_i[0])
    return np.stack(outs).astype(x.dtype), np.stack(weights).astype(x.dtype)
'''},
    {"exercise": "bert_self_attention", "kind": "wrong",
     "mistake": "Transposes the query, key and value weights but copies output.dense.weight as it is "
                "stored: the (out, in) layout of W^O is used as the paper's (in, out); it is square, "
                "so nothing raises.",
     "teacher_says": "Every nn.Linear in BERT stores (out, in), the output projection too: transpose "
                     "all four weights, not just the three inside self.",
     "code": '''
import numpy as np
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        w_q=state["self.query.weight"].T,
        w_k=state["self.key.weight"].T,
        w_v=state["self.value.weight"].T,
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
     "mistake": "Builds the mask as attention_mask == 0, i.e. nn.MultiheadAttention's key_padding_mask "
                "polarity (True = padding), and passes it where the book expects True = may attend.",
     "teacher_says": "The book's mask says where a query MAY attend, like the tokenizer's 1s: compare "
                     "with 1, not 0.",
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
    padding = (np.asarray(attention_mask) == 0)[:, None, None, :]  # True = padding
    return mha.multi_head_attention(x, x, x, params, padding)
'''},
    {"exercise": "bert_self_attention", "kind": "wrong",
     "mistake": "Inserts the singleton axes on the wrong side: mask[:, None, :, None] has shape "
                "(B, 1, n, 1), so it masks the padded QUERIES (their rows become zero) while the real "
                "queries still attend the padding keys.",
     "teacher_says": "The padding is a property of the keys: the mask must vary along the last axis, "
                     "shape (B, 1, 1, n), not (B, 1, n, 1).",
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
    mask = (np.asarray(attention_mask) == 1)[:, None, :, None]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},

    # ------------------------------------------------------ padding_mask_from_attention_mask
    {"exercise": "padding_mask_from_attention_mask", "kind": "correct",
     "idea": "astype(bool) on the nonzero entries, then a reshape to (B, 1, 1, n)",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    real = np.asarray(attention_mask) != 0
    batch, n = real.shape
    return real.reshape(batch, 1, 1, n)
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "robustness",
     "idea": "nested Python loops over sentences and tokens building nested lists, then np.array with "
             "dtype=bool: slow, right",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    rows = []
    for sentence in attention_mask:
        keys = []
        for value in sentence:
            keys.append(float(value) == 1.0)
        rows.append([[keys]])
    return np.array(rows, dtype=bool)
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
     "mistake": "Counts the real tokens of each sentence and rebuilds the mask as arange(n) < length: "
                "right for right padding, wrong when the tokenizer pads on the left.",
     "teacher_says": "A length assumes the padding is at the end; read the mask token by token instead "
                     "of counting it.",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    attention_mask = np.asarray(attention_mask)
    lengths = attention_mask.sum(axis=-1).astype(int)  # real tokens per sentence
    n = attention_mask.shape[-1]
    real = np.arange(n)[None, :] < lengths[:, None]
    return real[:, None, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
     "mistake": "Only inserts the axes and returns the tokenizer's numbers as they are: the mask keeps "
                "the dtype int (or float), not bool.",
     "teacher_says": "A 0/1 integer array is not a boolean mask: compare with 1 so the result has dtype "
                     "bool as the statement asks.",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    return np.asarray(attention_mask)[:, None, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
     "mistake": "Puts the token axis third: reshape to (B, 1, n, 1), a mask over the queries that does "
                "not hide any key.",
     "teacher_says": "The mask has to broadcast over heads and queries, so the tokens go on the LAST "
                     "axis: (B, 1, 1, n).",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    real = np.asarray(attention_mask) == 1
    batch, n = real.shape
    return real.reshape(batch, 1, n, 1)
'''},

    # ------------------------------------------------------------------ head_js_divergence
    {"exercise": "head_js_divergence", "kind": "correct",
     "idea": "JS as an entropy difference, H(m) - (H(p) + H(q)) / 2, for all pairs at once by "
             "broadcasting (h, 1, Q, n_k) against (1, h, Q, n_k), in float64, cast at the end",
     "code": '''
import numpy as np


def _entropy(p):
    with np.errstate(divide="ignore", invalid="ignore"):
        return -np.where(p > 0, p * np.log(p), 0.0).sum(axis=-1)


def head_js_divergence(weights):
    weights = np.asarray(weights)
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k).astype(np.float64)  # (h, Q, n_k)
    own = _entropy(rows)  # (h, Q)
    mixed = _entropy((rows[:, None] + rows[None, :]) / 2)  # (h, h, Q)
    js = (mixed - (own[:, None] + own[None, :]) / 2).mean(axis=-1)
    return np.maximum(js, 0.0).astype(weights.dtype)
'''},
    {"exercise": "head_js_divergence", "kind": "robustness",
     "idea": "pure Python loops over the pair of heads, the query rows and the keys with math.log: "
             "very slow, same numbers",
     "code": '''
import math
import numpy as np


def head_js_divergence(weights):
    weights = np.asarray(weights)
    h, n_q, n_k = weights.shape[-3:]
    flat = weights.reshape(-1, h, n_q, n_k)
    result = np.zeros((h, h), dtype=weights.dtype)
    for a in range(h):
        for b in range(h):
            total, count = 0.0, 0
            for lead in range(flat.shape[0]):
                for i in range(n_q):
                    kl_p = kl_q = 0.0
                    for j in range(n_k):
                        p = float(flat[lead, a, i, j])
                        q = float(flat[lead, b, i, j])
                        m = (p + q) / 2
                        if p > 0:
                            kl_p += p * math.log(p / m)
                        if q > 0:
                            kl_q += q * math.log(q / m)
                    total += (kl_p + kl_q) / 2
                    count += 1
            result[a, b] = total / count
    return result
'''},
    {"exercise": "head_js_divergence", "kind": "wrong",
     "mistake": "Uses np.log2: the divergence comes out in bits (between 0 and 1), not in nats.",
     "teacher_says": "The statement asks for nats: use the natural logarithm np.log; log2 scales "
                     "everything by 1/ln 2.",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    weights = np.asarray(weights)
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k)
    result = np.zeros((h, h))
    with np.errstate(divide="ignore", invalid="ignore"):
        for a in range(h):
            for b in range(h):
                p, q = rows[a], rows[b]
                m = (p + q) / 2
                kl_p = np.where(p > 0, p * np.log2(p / m), 0).sum(-1)
                kl_q = np.where(q > 0, q * np.log2(q / m), 0).sum(-1)
                result[a, b] = ((kl_p + kl_q) / 2).mean()
    return result.astype(weights.dtype)
'''},
    {"exercise": "head_js_divergence", "kind": "wrong",
     "mistake": "Adds the two KL terms but forgets the factor 1/2: returns KL(p||m) + KL(q||m), twice "
                "the Jensen-Shannon divergence.",
     "teacher_says": "JS is the MEAN of the two divergences to the midpoint, so it is at most ln 2; "
                     "halve the sum.",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    weights = np.asarray(weights)
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k)
    result = np.zeros((h, h))
    with np.errstate(divide="ignore", invalid="ignore"):
        for a in range(h):
            for b in range(h):
                p, q = rows[a], rows[b]
                m = (p + q) / 2
                kl_p = np.where(p > 0, p * np.log(p / m), 0).sum(-1)
                kl_q = np.where(q > 0, q * np.log(q / m), 0).sum(-1)
                result[a, b] = (kl_p + kl_q).mean()
    return result.astype(weights.dtype)
'''},
    {"exercise": "head_js_divergence", "kind": "wrong",
     "mistake": "Reshapes straight to (h, -1, n_k) without moving the heads axis to the front: with a "
                "batch axis in front, each 'head' gets rows of several heads and sentences mixed.",
     "teacher_says": "A reshape does not move axes: bring the heads axis (-3) to the front with "
                     "np.moveaxis before flattening the rest.",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    weights = np.asarray(weights)
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = weights.reshape(h, -1, n_k)  # (h, Q, n_k)
    result = np.zeros((h, h))
    with np.errstate(divide="ignore", invalid="ignore"):
        for a in range(h):
            for b in range(h):
                p, q = rows[a], rows[b]
                m = (p + q) / 2
                kl_p = np.where(p > 0, p * np.log(p / m), 0).sum(-1)
                kl_q = np.where(q > 0, q * np.log(q / m), 0).sum(-1)
                result[a, b] = ((kl_p + kl_q) / 2).mean()
    return result.astype(weights.dtype)
'''},

    # ------------------------------------------------------------------ heads_per_feature
    {"exercise": "heads_per_feature", "kind": "correct",
     "idea": "swapaxes the heads to the front, flatten the tokens, and compute the variance by hand "
             "as the mean of squared deviations (float64)",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d_model = c.shape[-3], c.shape[-1]
    tokens = np.moveaxis(c, -3, 0).reshape(h, -1, d_model)  # (h, tokens, d_model)
    centred = tokens - tokens.mean(axis=1, keepdims=True)
    s = (centred ** 2).mean(axis=1)  # (h, d_model): variance over the tokens
    return np.square(s.sum(axis=0)) / np.square(s).sum(axis=0)
'''},
    {"exercise": "heads_per_feature", "kind": "robustness",
     "idea": "loops over features and heads with np.var on each (tokens,) column: slow, same result",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions)
    h, d_model = c.shape[-3], c.shape[-1]
    per_head = [np.moveaxis(c, -3, 0)[a].reshape(-1, d_model) for a in range(h)]
    result = []
    for j in range(d_model):
        s = [float(np.var(per_head[a][:, j].astype(np.float64))) for a in range(h)]
        result.append(sum(s) ** 2 / sum(value * value for value in s))
    return np.array(result, dtype=np.float64)
'''},
    {"exercise": "heads_per_feature", "kind": "wrong",
     "mistake": "Takes the variance over the feature axis instead of over the tokens, so s has one "
                "entry per head and token, and the result has one entry per token, not per feature.",
     "teacher_says": "The variance of head a's contribution to feature j runs over the TOKENS (axis 1 "
                     "of the (h, tokens, d_model) table), leaving (h, d_model).",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d_model = c.shape[-3], c.shape[-1]
    flat = np.moveaxis(c, -3, 0).reshape(h, -1, d_model)
    s = flat.var(axis=2)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
    {"exercise": "heads_per_feature", "kind": "wrong",
     "mistake": "Uses the mean square of each head's contribution instead of its variance, so a head "
                "that adds the same vector to every token still counts as writing to the feature.",
     "teacher_says": "Centre each head's column before squaring: a constant offset is not variation, "
                     "and np.var removes it.",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d_model = c.shape[-3], c.shape[-1]
    flat = np.moveaxis(c, -3, 0).reshape(h, -1, d_model)
    s = (flat ** 2).mean(axis=1)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
    {"exercise": "heads_per_feature", "kind": "wrong",
     "mistake": "Uses np.std where the statement says variance: the participation ratio of standard "
                "deviations is a different number.",
     "teacher_says": "s_a is the variance (np.var), the square of the standard deviation; the ratio is "
                     "not invariant to that square.",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d_model = c.shape[-3], c.shape[-1]
    flat = np.moveaxis(c, -3, 0).reshape(h, -1, d_model)
    s = flat.std(axis=1)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},

    # ------------------------------------------------------------------ head_ablation_scores
    {"exercise": "head_ablation_scores", "kind": "correct",
     "idea": "np.ndindex over the gate's shape, a fresh gate from np.ones for each head",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    shape = (num_layers, num_heads)
    base = float(evaluate(np.ones(shape)))
    drops = np.empty(shape, dtype=np.float64)
    for index in np.ndindex(*shape):
        gate = np.ones(shape)
        gate[index] = 0.0
        drops[index] = base - float(evaluate(gate))
    return drops
'''},
    {"exercise": "head_ablation_scores", "kind": "robustness",
     "idea": "recomputes the full model's score for every head (twice the evaluations) and collects "
             "the drops in nested Python lists",
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
    return np.array(table, dtype=np.float64)
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong",
     "mistake": "Creates the gate once outside the loop and never puts the head back: each "
                "evaluation has every earlier head removed too.",
     "teacher_says": "Each head is removed ALONE: start every ablation from a fresh gate of ones (or "
                     "restore the 1 after evaluating).",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    gate = np.ones((num_layers, num_heads))
    base = evaluate(gate.copy())
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate[layer, head] = 0.0
            scores[layer, head] = base - evaluate(gate.copy())
    return scores
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong",
     "mistake": "Subtracts the wrong way round: evaluate(ablated) - base, so important heads get "
                "negative scores.",
     "teacher_says": "The drop is the full score minus the score without the head; check the sign on a "
                     "head you know matters.",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[layer, head] = 0.0
            scores[layer, head] = evaluate(gate) - base
    return scores
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong",
     "mistake": "Indexes the gate as gate[:, head] = 0: removes head `head` in EVERY layer at once, "
                "instead of the one head of that layer.",
     "teacher_says": "A head is a (layer, head) pair: set gate[layer, head], one entry, not a whole "
                     "column.",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[:, head] = 0.0
            scores[layer, head] = base - evaluate(gate)
    return scores
'''},
]

_WRITER_H = ANSWERS
ANSWERS = _WRITER_D + _WRITER_H
