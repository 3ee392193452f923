# writer D's answers, then writer H's (each file verbatim)
"""Student answers for chapter 11 (The heads of a real Transformer), writer D."""

ANSWERS = [
    # ------------------------------------------------------------------ bert_self_attention
    {"exercise": "bert_self_attention", "kind": "correct",
     "idea": "transpose each nn.Linear weight in a dict comprehension, mask with != 0 and np.expand_dims",
     "code": '''
import numpy as np
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    names = {"q": "self.query", "k": "self.key", "v": "self.value", "o": "output.dense"}
    fields = {}
    for short, long in names.items():
        fields["w_" + short] = np.asarray(state[long + ".weight"]).T  # (out, in) -> (in, out)
        fields["b_" + short] = np.asarray(state[long + ".bias"])
    params = mha.MHAParams(num_heads=num_heads, **fields)
    keep = np.expand_dims(np.asarray(attention_mask) != 0, axis=(1, 2))  # (B, 1, 1, n)
    return mha.multi_head_attention(x, x, x, params, keep)
'''},
    {"exercise": "bert_self_attention", "kind": "robustness",
     "idea": "one sentence at a time in a Python loop, each with its own (1, 1, n) mask, then np.stack: slow but the same numbers and dtype",
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
    outs, weights = [], []
    for b in range(x.shape[0]):
        row_mask = np.array([[[bool(t == 1) for t in attention_mask[b]]]])  # (1, 1, n)
        out_b, w_b = mha.multi_head_attention(x[b], x[b], x[b], params, row_mask)
        outs.append(out_b)
        weights.append(w_b)
    return np.stack(outs), np.stack(weights)
'''},
    {"exercise": "bert_self_attention", "kind": "wrong",
     "mistake": "Uses BERT's tensors as stored, (out, in), without transposing them; every projection is square, so no shape error appears.",
     "teacher_says": "nn.Linear computes x @ W.T, so the paper's W is BERT's weight transposed: add .T to all four weights.",
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
     "mistake": "Inserts the singleton axes in the wrong places, [:, None, :, None], so the mask hides padded *queries* (whole rows) instead of padded *keys*: real tokens still attend to padding.",
     "teacher_says": "The padding mask must vary along the last axis, the keys: (B, 1, 1, n), i.e. [:, None, None, :].",
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
     "mistake": "Copy-pasted the bias lines and forgot to update the last one: b_o is the value projection's bias instead of output.dense.bias (same shape, so nothing complains).",
     "teacher_says": "Check each of the eight names against BERT's: the output bias is state['output.dense.bias'].",
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
        b_o=state["self.value.bias"],
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
    # ------------------------------------------------------- padding_mask_from_attention_mask
    {"exercise": "padding_mask_from_attention_mask", "kind": "correct",
     "idea": "astype(bool) (any non-zero is a real token) and np.expand_dims on axes 1 and 2",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    real = np.asarray(attention_mask).astype(bool)  # 1 / 1.0 -> True, 0 / 0.0 -> False
    return np.expand_dims(real, axis=(1, 2))  # (B, 1, 1, n)
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "robustness",
     "idea": "fills a preallocated (B, 1, 1, n) bool array entry by entry in two Python loops",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    rows = [list(r) for r in attention_mask]
    B, n = len(rows), len(rows[0])
    out = np.zeros((B, 1, 1, n), dtype=bool)
    for b in range(B):
        for j in range(n):
            if float(rows[b][j]) == 1.0:
                out[b, 0, 0, j] = True
    return out
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
     "mistake": "Counts the ones to get each sentence's length and keeps the first `length` positions: right only when the padding is on the right.",
     "teacher_says": "A length assumes right padding; compare each entry with 1 instead, so left-padded batches work too.",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    attention_mask = np.asarray(attention_mask)
    lengths = attention_mask.sum(axis=1).astype(int)  # (B,)
    positions = np.arange(attention_mask.shape[1])
    mask = positions[None, :] < lengths[:, None]  # (B, n)
    return mask[:, None, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
     "mistake": "Inserts the axes but never converts to bool: the mask stays int (or float) 1/0.",
     "teacher_says": "The book's mask is a bool array; compare with 1 (or cast with astype(bool)) before inserting the axes.",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    return np.asarray(attention_mask)[:, None, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
     "mistake": "Puts the token axis in the queries' place, shape (B, 1, n, 1), instead of the keys' place.",
     "teacher_says": "The mask says which keys may be attended, so the token axis must be the last one: (B, 1, 1, n).",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 1)[:, None, :, None]
'''},
    # ------------------------------------------------------------------ head_js_divergence
    {"exercise": "head_js_divergence", "kind": "correct",
     "idea": "all pairs at once by broadcasting (h, 1, Q, n_k) against (1, h, Q, n_k), xlogy-style sums via entropies",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    weights = np.asarray(weights)
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k).astype(np.float64)  # (h, Q, n_k)

    def plogp(p):
        safe = np.where(p > 0, p, 1)
        return (p * np.log(safe)).sum(-1)

    mix = (rows[:, None] + rows[None, :]) / 2  # (h, h, Q, n_k)
    own = plogp(rows)  # (h, Q)
    # JS = H(m) - (H(p) + H(q)) / 2 with H = -sum p ln p
    js = (own[:, None] + own[None, :]) / 2 - plogp(mix)  # (h, h, Q)
    return js.mean(-1).astype(weights.dtype)
'''},
    {"exercise": "head_js_divergence", "kind": "robustness",
     "idea": "four nested Python loops with math.log on every entry, accumulating in Python floats: very slow, same numbers",
     "code": '''
import math
import numpy as np


def head_js_divergence(weights):
    weights = np.asarray(weights)
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k).tolist()
    Q = len(rows[0])
    result = np.zeros((h, h), dtype=weights.dtype)
    for a in range(h):
        for b in range(h):
            total = 0.0
            for r in range(Q):
                p, q = rows[a][r], rows[b][r]
                kl_p = kl_q = 0.0
                for j in range(n_k):
                    m = (p[j] + q[j]) / 2
                    if p[j] > 0:
                        kl_p += p[j] * math.log(p[j] / m)
                    if q[j] > 0:
                        kl_q += q[j] * math.log(q[j] / m)
                total += (kl_p + kl_q) / 2
            result[a, b] = total / Q
    return result
'''},
    {"exercise": "head_js_divergence", "kind": "wrong",
     "mistake": "Reshapes to (h, -1, n_k) without first moving the heads axis to the front: with a batch axis, the 'heads' are chunks of the (B, h, n_q) rows in memory order.",
     "teacher_says": "reshape keeps memory order; bring the heads axis to the front with np.moveaxis(weights, -3, 0) before flattening.",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    weights = np.asarray(weights)
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = weights.reshape(h, -1, n_k)  # (h, Q, n_k)
    out = np.zeros((h, h))
    with np.errstate(divide="ignore", invalid="ignore"):
        for a in range(h):
            for b in range(h):
                p, q = rows[a], rows[b]
                m = (p + q) / 2
                kl_p = np.where(p > 0, p * np.log(p / m), 0).sum(-1)
                kl_q = np.where(q > 0, q * np.log(q / m), 0).sum(-1)
                out[a, b] = ((kl_p + kl_q) / 2).mean()
    return out.astype(weights.dtype)
'''},
    {"exercise": "head_js_divergence", "kind": "wrong",
     "mistake": "Uses np.log2, so the divergence comes out in bits instead of the nats the statement asks for.",
     "teacher_says": "The statement asks for nats: use the natural logarithm np.log (the maximum is then ln 2, not 1).",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    weights = np.asarray(weights)
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k)
    out = np.zeros((h, h))
    with np.errstate(divide="ignore", invalid="ignore"):
        for a in range(h):
            for b in range(h):
                p, q = rows[a], rows[b]
                m = (p + q) / 2
                kl_p = np.where(p > 0, p * np.log2(p / m), 0).sum(-1)
                kl_q = np.where(q > 0, q * np.log2(q / m), 0).sum(-1)
                out[a, b] = ((kl_p + kl_q) / 2).mean()
    return out.astype(weights.dtype)
'''},
    {"exercise": "head_js_divergence", "kind": "wrong",
     "mistake": "Adds the two KL terms but forgets to halve them: the result is twice the Jensen-Shannon divergence.",
     "teacher_says": "JS is the *mean* of KL(p||m) and KL(q||m): divide their sum by 2.",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    weights = np.asarray(weights)
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k)
    out = np.zeros((h, h))
    with np.errstate(divide="ignore", invalid="ignore"):
        for a in range(h):
            for b in range(h):
                p, q = rows[a], rows[b]
                m = (p + q) / 2
                kl_p = np.where(p > 0, p * np.log(p / m), 0).sum(-1)
                kl_q = np.where(q > 0, q * np.log(q / m), 0).sum(-1)
                out[a, b] = (kl_p + kl_q).mean()
    return out.astype(weights.dtype)
'''},
    # ------------------------------------------------------------------- heads_per_feature
    {"exercise": "heads_per_feature", "kind": "correct",
     "idea": "centre each head's (tokens, d_model) table by hand and average the squares, in float64",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d_model = c.shape[-3], c.shape[-1]
    table = np.swapaxes(c.reshape(-1, h, c.shape[-2], d_model), 0, 1).reshape(h, -1, d_model)
    centred = table - table.mean(axis=1, keepdims=True)
    s = (centred ** 2).mean(axis=1)  # (h, d_model): the variance over all tokens
    total = s.sum(axis=0)
    return total * total / np.einsum("ad,ad->d", s, s)
'''},
    {"exercise": "heads_per_feature", "kind": "robustness",
     "idea": "a Python loop over features and heads, np.var of one column at a time, results collected in a list",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions)
    h, d_model = c.shape[-3], c.shape[-1]
    per_head = np.moveaxis(c, -3, 0).reshape(h, -1, d_model)
    ratios = []
    for j in range(d_model):
        s = [float(np.var(per_head[a, :, j].astype(np.float64))) for a in range(h)]
        ratios.append(sum(s) ** 2 / sum(v * v for v in s))
    return np.array(ratios, dtype=np.float64)
'''},
    {"exercise": "heads_per_feature", "kind": "wrong",
     "mistake": "Takes the variance over the positions of each sequence separately and then averages over the leading axes, so the spread between sequences is lost; the statement says every leading index and every position is a token.",
     "teacher_says": "Flatten every token axis (leading ones and n) into one before taking the variance.",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    s = c.var(axis=-2)  # (..., h, d_model): over the n positions only
    s = s.reshape(-1, *s.shape[-2:]).mean(axis=0)  # (h, d_model)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
    {"exercise": "heads_per_feature", "kind": "wrong",
     "mistake": "Uses the mean square of each head's contribution instead of its variance, so a head that adds the same vector to every token still counts as writing to the feature.",
     "teacher_says": "Subtract each head's mean over the tokens first (np.var does it): a constant offset says nothing about the token.",
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
     "mistake": "Uses the standard deviation (np.std) for s_a instead of the variance, which changes the participation ratios.",
     "teacher_says": "s_a is the variance, np.var; the square root weights the heads differently and changes the count.",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d_model = c.shape[-3], c.shape[-1]
    flat = np.moveaxis(c, -3, 0).reshape(h, -1, d_model)
    s = flat.std(axis=1)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
    # ----------------------------------------------------------------- head_ablation_scores
    {"exercise": "head_ablation_scores", "kind": "correct",
     "idea": "one baseline, then np.ndindex over the grid, each gate a fresh ones array with one zero",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    shape = (num_layers, num_heads)
    base = float(evaluate(np.ones(shape)))
    drop = np.empty(shape, dtype=np.float64)
    for index in np.ndindex(*shape):
        gate = np.ones(shape)
        gate[index] = 0.0
        drop[index] = base - float(evaluate(gate))
    return drop
'''},
    {"exercise": "head_ablation_scores", "kind": "robustness",
     "idea": "recomputes the full model's score for every head (twice as many evaluate calls) and builds the result from a nested list",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    rows = []
    for layer in range(num_layers):
        row = []
        for head in range(num_heads):
            full = evaluate(np.ones((num_layers, num_heads)))
            gate = np.ones((num_layers, num_heads))
            gate[layer, head] = 0
            row.append(full - evaluate(gate))
        rows.append(row)
    return np.array(rows, dtype=np.float64)
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong",
     "mistake": "Makes one gate before the loops and zeroes a head at each step without putting it back, so each head is measured with all the earlier heads already removed.",
     "teacher_says": "Each head is removed alone: start every measurement from a fresh gate of ones (or restore the 1 afterwards).",
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
     "mistake": "Subtracts the wrong way round, ablated score minus full score, so the importance has the opposite sign.",
     "teacher_says": "The drop is base - ablated: a head whose removal hurts the score must get a positive importance.",
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
     "mistake": "Swaps the two indices when zeroing the gate, gate[head, layer], so the wrong head is removed (or an IndexError when there are more heads than layers).",
     "teacher_says": "The gate is (num_layers, num_heads): index it as gate[layer, head], in the order of its shape.",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[head, layer] = 0
            scores[layer, head] = base - evaluate(gate)
    return scores
'''},
]

_WRITER_D = ANSWERS

ANSWERS = [
    # ------------------------------------------------------------------ bert_self_attention
    {"exercise": "bert_self_attention", "kind": "correct",
     "idea": "dict comprehension that swaps the axes of every weight, mask from attention_mask > 0 via expand_dims",
     "code": '''
import numpy as np
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    names = {"q": "self.query", "k": "self.key", "v": "self.value", "o": "output.dense"}
    weights = {f"w_{s}": np.swapaxes(state[f"{p}.weight"], 0, 1) for s, p in names.items()}
    biases = {f"b_{s}": state[f"{p}.bias"] for s, p in names.items()}
    params = mha.MHAParams(num_heads=num_heads, **weights, **biases)
    keep = np.expand_dims(np.asarray(attention_mask) > 0, axis=(1, 2))  # (B, 1, 1, n)
    return mha.multi_head_attention(x, x, x, params, keep)
'''},
    {"exercise": "bert_self_attention", "kind": "robustness",
     "idea": "a Python loop over the sentences of the batch, one multi_head_attention call each, then np.stack",
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
        row = [bool(a == 1) for a in list(np.asarray(attention_mask)[b])]
        m = np.array(row, dtype=bool)[None, None, :]  # (1, 1, n): heads, queries
        o, w = mha.multi_head_attention(x[b], x[b], x[b], params, m)
        outs.append(o)
        ws.append(w)
    return np.stack(outs), np.stack(ws)
'''},
    {"exercise": "bert_self_attention", "kind": "wrong",
     "mistake": "Uses BERT's nn.Linear weights as they are stored, (out, in), without transposing them; every projection is square, so nothing raises.",
     "teacher_says": "nn.Linear computes x @ W.T, so the paper's W is the transpose of the stored weight: transpose all four.",
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
     "mistake": "Inserts the singleton axes in the wrong places, mask[:, None, :, None] of shape (B, 1, n, 1): it hides padded queries instead of padded keys, so real tokens still attend to the padding.",
     "teacher_says": "The padding mask must vary along the last (key) axis: (B, 1, 1, n), one row shared by all heads and all queries.",
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
     "mistake": "Transposes the four weights but leaves out the output bias b_o (only passes the three input biases), so the output is off by output.dense.bias.",
     "teacher_says": "BERT's MultiHead ends with W^O plus b^O: pass all four biases, output.dense.bias included.",
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
    # ------------------------------------------------------------------ padding_mask_from_attention_mask
    {"exercise": "padding_mask_from_attention_mask", "kind": "correct",
     "idea": "np.not_equal to 0, then np.expand_dims with a tuple of axes",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    real = np.not_equal(np.asarray(attention_mask), 0)  # bool, (B, n)
    return np.expand_dims(real, axis=(1, 2))  # (B, 1, 1, n)
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "robustness",
     "idea": "nested Python loops building nested lists of booleans, then np.array(dtype=bool)",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    rows = []
    for sentence in np.asarray(attention_mask).tolist():
        flags = []
        for token in sentence:
            flags.append(True if float(token) == 1.0 else False)
        rows.append([[flags]])
    return np.array(rows, dtype=bool)
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
     "mistake": "Counts the real tokens and builds the mask as positions < length, which assumes the padding is on the right; a left-padded mask comes out shifted.",
     "teacher_says": "A count throws away where the padding is: compare each entry with 1 instead.",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    lengths = am.sum(axis=1).astype(int)  # real tokens per sentence
    n = am.shape[1]
    mask = np.arange(n)[None, :] < lengths[:, None]
    return mask[:, None, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
     "mistake": "Inserts the two singleton axes after the token axis instead of before it, giving shape (B, n, 1, 1), which does not broadcast as (heads, queries, keys).",
     "teacher_says": "The tokens are the keys, the last axis: the new axes go in front of it, [:, None, None, :].",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 1)[:, :, None, None]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
     "mistake": "Only reshapes the attention_mask, keeping its integer (or float) dtype instead of making a boolean mask.",
     "teacher_says": "The book's mask is a bool array: compare with 1 so that integers and floats both become True/False.",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    return am.reshape(am.shape[0], 1, 1, am.shape[1])
'''},
    # ------------------------------------------------------------------ head_js_divergence
    {"exercise": "head_js_divergence", "kind": "correct",
     "idea": "all pairs at once by broadcasting (h, 1, Q, n_k) against (1, h, Q, n_k), using the p log p - m log m identity",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k).astype(np.float64)  # (h, Q, n_k)

    def plogp(a):
        safe = np.where(a > 0, a, 1.0)
        return np.where(a > 0, a * np.log(safe), 0.0).sum(-1)

    own = plogp(rows)  # (h, Q)
    mid = plogp((rows[:, None] + rows[None, :]) / 2)  # (h, h, Q)
    js = (own[:, None] + own[None, :]) / 2 - mid  # (h, h, Q)
    return js.mean(-1).astype(w.dtype)
'''},
    {"exercise": "head_js_divergence", "kind": "robustness",
     "idea": "explicit Python loops over the pairs of heads, computing both KL terms literally and filling a preallocated array",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k)
    out = np.zeros((h, h), dtype=w.dtype)

    def kl(p, m):
        total = np.zeros(p.shape[0])
        for j in range(p.shape[1]):
            pj, mj = p[:, j].astype(np.float64), m[:, j].astype(np.float64)
            ok = pj > 0
            total[ok] += pj[ok] * np.log(pj[ok] / mj[ok])
        return total

    for a in range(h):
        for b in range(h):
            p, q = rows[a], rows[b]
            m = (p.astype(np.float64) + q) / 2
            out[a, b] = np.mean((kl(p, m) + kl(q, m)) / 2)
    return out
'''},
    {"exercise": "head_js_divergence", "kind": "wrong",
     "mistake": "Uses np.log2, so the divergence comes out in bits (up to 1) instead of nats (up to ln 2).",
     "teacher_says": "The statement asks for nats: use the natural logarithm np.log.",
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
     "mistake": "Reshapes the weights straight to (h, -1, n_k) without moving the heads axis to the front first, so with a leading batch axis the 'heads' are mixtures of batch entries and heads.",
     "teacher_says": "A reshape does not move axes: np.moveaxis(weights, -3, 0) before flattening, so that each head keeps its own rows.",
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
     "mistake": "Adds the two KL divergences but forgets to halve them: JS = KL(p||m) + KL(q||m), twice the right value.",
     "teacher_says": "Jensen-Shannon is the average of the two KL terms, (KL(p||m) + KL(q||m)) / 2, bounded by ln 2.",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k)
    p = rows[:, None]
    q = rows[None, :]
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        kl_p = np.where(p > 0, p * np.log(p / m), 0).sum(-1)
        kl_q = np.where(q > 0, q * np.log(q / m), 0).sum(-1)
    return (kl_p + kl_q).mean(-1).astype(w.dtype)
'''},
    # ------------------------------------------------------------------ heads_per_feature
    {"exercise": "heads_per_feature", "kind": "correct",
     "idea": "centre over every token axis at once (all axes but heads and features) and average the squares",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    token_axes = tuple(i for i in range(c.ndim) if i not in (c.ndim - 3, c.ndim - 1))
    centred = c - c.mean(axis=token_axes, keepdims=True)
    s = (centred ** 2).mean(axis=token_axes)  # (h, d_model)
    return np.sum(s, axis=0) ** 2 / np.sum(s * s, axis=0)
'''},
    {"exercise": "heads_per_feature", "kind": "robustness",
     "idea": "double Python loop over features and heads, np.var of each flattened column, accumulating the two sums by hand",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions)
    h, d = c.shape[-3], c.shape[-1]
    per_head = np.moveaxis(c, -3, 0).reshape(h, -1, d)
    result = np.empty(d, dtype=np.float64)
    for j in range(d):
        total, squares = 0.0, 0.0
        for a in range(h):
            s_a = float(np.var(per_head[a, :, j].astype(np.float64)))
            total += s_a
            squares += s_a * s_a
        result[j] = total * total / squares
    return result
'''},
    {"exercise": "heads_per_feature", "kind": "wrong",
     "mistake": "Takes the variance over the sequence axis only and then averages these variances over the batch, instead of one variance over all tokens; the spread between sentences is lost.",
     "teacher_says": "Every leading index and every position is a token: flatten them all into one axis before taking the variance.",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    s = c.var(axis=-2)  # (..., h, d_model): variance over positions
    s = s.reshape(-1, c.shape[-3], c.shape[-1]).mean(axis=0)  # mean over the batch
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
    {"exercise": "heads_per_feature", "kind": "wrong",
     "mistake": "Uses the mean square of each head's contribution instead of its variance, so a head that adds the same constant to every token counts as writing to the feature.",
     "teacher_says": "s_a is a variance: subtract the head's mean over the tokens first (np.var does it).",
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
     "mistake": "Sums the squared variances over every head and every feature (no axis) in the denominator, so each feature is divided by a grand total.",
     "teacher_says": "Both sums run over the heads only, axis 0, one ratio per feature.",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    flat = np.moveaxis(c, -3, 0).reshape(h, -1, d)
    s = flat.var(axis=1)
    return s.sum(0) ** 2 / (s ** 2).sum()
'''},
    # ------------------------------------------------------------------ head_ablation_scores
    {"exercise": "head_ablation_scores", "kind": "correct",
     "idea": "one gate per head from 1 - one-hot rows of an identity matrix, scores collected with np.fromiter",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    size = num_layers * num_heads
    base = float(evaluate(np.ones((num_layers, num_heads))))
    gates = 1.0 - np.eye(size)  # row i: every head but i
    ablated = np.fromiter(
        (float(evaluate(gates[i].reshape(num_layers, num_heads).copy())) for i in range(size)),
        dtype=np.float64, count=size,
    )
    return (base - ablated).reshape(num_layers, num_heads)
'''},
    {"exercise": "head_ablation_scores", "kind": "robustness",
     "idea": "nested loops that rebuild a full gate of ones and re-evaluate the full model for every head (twice the evaluations)",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    scores = []
    for layer in range(num_layers):
        row = []
        for head in range(num_heads):
            full = float(evaluate(np.ones((num_layers, num_heads))))
            gate = np.ones((num_layers, num_heads))
            gate[layer, head] = 0.0
            row.append(full - float(evaluate(gate)))
        scores.append(row)
    return np.array(scores, dtype=np.float64)
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong",
     "mistake": "Reuses one gate for the whole loop and never puts the removed head back, so each head is removed on top of all the earlier ones (a pruning curve, not removal alone).",
     "teacher_says": "Each head goes alone: start every evaluation from a fresh gate of ones.",
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
     "mistake": "Subtracts the other way round, ablated score minus full score, so important heads get negative scores.",
     "teacher_says": "The drop is base - ablated: positive when removing the head hurts.",
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
     "mistake": "Reads the gate's polarity backwards: builds a gate of zeros with a 1 at the head, i.e. keeps that head alone and removes all the others.",
     "teacher_says": "1 keeps a head and 0 removes it: the ablated gate is all ones with a single 0.",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    base = float(evaluate(np.ones((num_layers, num_heads))))
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.zeros((num_layers, num_heads))
            gate[layer, head] = 1.0
            scores[layer, head] = base - float(evaluate(gate))
    return scores
'''},
]

_WRITER_H = ANSWERS
ANSWERS = _WRITER_D + _WRITER_H
