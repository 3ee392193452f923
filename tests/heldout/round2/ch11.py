_BERT = '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    t = lambda name: np.ascontiguousarray(state[name].T)
    params = mha.MHAParams(
        w_q=t("self.query.weight"), w_k=t("self.key.weight"), w_v=t("self.value.weight"),
        w_o=t("output.dense.weight"), num_heads=num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)
'''

_JS = '''
import numpy as np

def head_js_divergence(weights):
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)  # (h, ..., n_q, n_k)
    h = w.shape[0]
    w = w.reshape(h, -1, w.shape[-1])                                 # (h, rows, n_k)
    p = w[:, None]
    q = w[None, :]
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        kl_pm = np.where(p > 0, p * np.log(p / m), 0.0).sum(-1)
        kl_qm = np.where(q > 0, q * np.log(q / m), 0.0).sum(-1)
    return ((kl_pm + kl_qm) / 2).mean(-1)
'''

_ABL = '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[layer, head] = 0
            scores[layer, head] = base - evaluate(gate)
    return scores
'''

ANSWERS = [
    # ---------------- bert_self_attention ----------------
    {"exercise": "bert_self_attention", "kind": "correct", "idea": "MHAParams from transposed weights and the four biases, mask == 1 with singleton axes",
     "code": _BERT},
    {"exercise": "bert_self_attention", "kind": "correct", "idea": "loop over the three projections building a dict of fields, mask via astype(bool) and reshape",
     "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    fields = {}
    for short, name in (("q", "self.query"), ("k", "self.key"), ("v", "self.value"), ("o", "output.dense")):
        fields["w_" + short] = state[name + ".weight"].T.copy()
        fields["b_" + short] = state[name + ".bias"].copy()
    params = mha.MHAParams(num_heads=num_heads, **fields)
    am = np.asarray(attention_mask)
    mask = am.astype(bool).reshape(am.shape[0], 1, 1, am.shape[1])
    return mha.multi_head_attention(x, x, x, params, mask=mask)
'''},
    {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "uses BERT's weights without transposing them",
     "teacher_says": "state holds nn.Linear's (out, in) weights: transpose each one for the paper's x @ W",
     "code": _BERT.replace("np.ascontiguousarray(state[name].T)", "np.ascontiguousarray(state[name])")},
    {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "passes the attention_mask (B, n) as the mask without adding the heads and queries axes",
     "teacher_says": "a (B, n) mask broadcasts the batch against the queries; reshape it to (B, 1, 1, n)",
     "code": _BERT.replace("mask = (np.asarray(attention_mask) == 1)[:, None, None, :]", "mask = np.asarray(attention_mask) == 1")},
    {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "masks the padded queries instead of the padded keys ((B, 1, n, 1))",
     "teacher_says": "padding hides keys: the mask's last axis is the keys, (B, 1, 1, n)",
     "code": _BERT.replace("[:, None, None, :]", "[:, None, :, None]")},
    {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "mask polarity reversed (attention_mask == 0)",
     "teacher_says": "1 marks a real token, which may be attended: the mask is attention_mask == 1",
     "code": _BERT.replace("np.asarray(attention_mask) == 1", "np.asarray(attention_mask) == 0")},
    {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "leaves out the output bias (output.dense.bias)",
     "teacher_says": "the output projection has a bias too: b_o = state['output.dense.bias']",
     "code": _BERT.replace('b_v=state["self.value.bias"], b_o=state["output.dense.bias"],', 'b_v=state["self.value.bias"],')},
    {"exercise": "bert_self_attention", "kind": "wrong", "mistake": "uses BERT's additive-mask idea the wrong way: adds (1 - mask) * -10000 to the input x",
     "teacher_says": "the mask acts on the attention scores, not on the input features; pass a boolean mask to mha.multi_head_attention",
     "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    t = lambda name: np.ascontiguousarray(state[name].T)
    params = mha.MHAParams(t("self.query.weight"), t("self.key.weight"), t("self.value.weight"),
                           t("output.dense.weight"), num_heads, state["self.query.bias"],
                           state["self.key.bias"], state["self.value.bias"], state["output.dense.bias"])
    x = x + ((1 - np.asarray(attention_mask)) * -10000.0)[..., None].astype(x.dtype)
    return mha.multi_head_attention(x, x, x, params)
'''},
    {"exercise": "bert_self_attention", "kind": "robustness", "idea": "transposes the state's arrays in place (state[name] = state[name].T)",
     "mistake": "changes the caller's state dict",
     "teacher_says": "do not change state: build new arrays for MHAParams",
     "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    for name in ("self.query.weight", "self.key.weight", "self.value.weight", "output.dense.weight"):
        state[name] = np.ascontiguousarray(state[name].T)
    params = mha.MHAParams(state["self.query.weight"], state["self.key.weight"], state["self.value.weight"],
                           state["output.dense.weight"], num_heads, state["self.query.bias"],
                           state["self.key.bias"], state["self.value.bias"], state["output.dense.bias"])
    return mha.multi_head_attention(x, x, x, params, (np.asarray(attention_mask) == 1)[:, None, None, :])
'''},
    # ---------------- padding_mask_from_attention_mask ----------------
    {"exercise": "padding_mask_from_attention_mask", "kind": "correct", "idea": "(attention_mask == 1)[:, None, None, :]",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 1)[:, None, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "correct", "idea": "astype(bool) and np.expand_dims on axes (1, 2)",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return np.expand_dims(np.asarray(attention_mask).astype(bool), axis=(1, 2))
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong", "mistake": "counts the ones and builds a length mask: wrong for left padding",
     "teacher_says": "a count assumes the pads are at the end; compare each entry with 1 instead",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    lengths = am.sum(axis=-1)
    return (np.arange(am.shape[-1])[None, :] < lengths[:, None])[:, None, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong", "mistake": "returns shape (B, n)",
     "teacher_says": "add the heads and queries axes: (B, 1, 1, n)",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return np.asarray(attention_mask) == 1
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong", "mistake": "shape (B, 1, n, 1): the tokens on the queries axis",
     "teacher_says": "the padding mask's tokens are keys, the last axis",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 1)[:, None, :, None]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong", "mistake": "returns True for the padding (attention_mask == 0)",
     "teacher_says": "True = may attend = a real token: attention_mask == 1",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 0)[:, None, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong", "mistake": "uses np.argmin to find the first 0 as a length: wrong for left padding and for rows without padding",
     "teacher_says": "np.argmin of a row of ones is 0, so an unpadded sequence gets no real token; compare with 1 directly",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    first_pad = np.argmin(am, axis=-1)
    return (np.arange(am.shape[-1])[None, :] < first_pad[:, None])[:, None, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "robustness", "idea": "returns the int64 array unchanged but reshaped",
     "mistake": "returns the 0/1 integers instead of booleans",
     "teacher_says": "return a boolean array: an integer mask is not True/False",
     "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return np.asarray(attention_mask)[:, None, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "robustness", "idea": "returns a torch tensor",
     "mistake": "converts to torch",
     "teacher_says": "return a NumPy boolean array for NumPy input",
     "code": '''
import torch

def padding_mask_from_attention_mask(attention_mask):
    return (torch.as_tensor(attention_mask) == 1)[:, None, None, :]
'''},
    # ---------------- head_js_divergence ----------------
    {"exercise": "head_js_divergence", "kind": "correct", "idea": "broadcast pairs of heads, np.where for 0 log 0, mean over all rows",
     "code": _JS},
    {"exercise": "head_js_divergence", "kind": "correct", "idea": "loop over head pairs with entropy form JS = H(m) - (H(p) + H(q)) / 2",
     "code": '''
import numpy as np

def head_js_divergence(weights):
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h = w.shape[0]
    rows = w.reshape(h, -1, w.shape[-1])
    def entropy(p):
        with np.errstate(divide="ignore", invalid="ignore"):
            return -np.where(p > 0, p * np.log(p), 0.0).sum(-1)
    out = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            m = (rows[a] + rows[b]) / 2
            out[a, b] = np.mean(entropy(m) - (entropy(rows[a]) + entropy(rows[b])) / 2)
    return out
'''},
    {"exercise": "head_js_divergence", "kind": "wrong", "mistake": "log base 2 (bits) instead of nats",
     "teacher_says": "the exercise asks for nats: use np.log",
     "code": _JS.replace("np.log(p / m)", "np.log2(p / m)").replace("np.log(q / m)", "np.log2(q / m)")},
    {"exercise": "head_js_divergence", "kind": "wrong", "mistake": "no 0 log 0 handling: weights that are exactly 0 give NaN",
     "teacher_says": "0 * log(0 / m) is 0 * -inf = NaN in NumPy; use np.where(p > 0, ..., 0)",
     "code": _JS.replace("np.where(p > 0, p * np.log(p / m), 0.0)", "(p * np.log(p / m))").replace("np.where(q > 0, q * np.log(q / m), 0.0)", "(q * np.log(q / m))")},
    {"exercise": "head_js_divergence", "kind": "wrong", "mistake": "computes KL(p || q) instead of the Jensen-Shannon divergence",
     "teacher_says": "JS compares each distribution with their mixture m = (p + q) / 2; KL(p || q) is asymmetric and infinite where q = 0",
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
    {"exercise": "head_js_divergence", "kind": "wrong", "mistake": "returns the Jensen-Shannon distance (square root of the divergence)",
     "teacher_says": "the divergence is the mean of the two KLs / 2; its square root is a distance, not what is asked",
     "code": _JS.replace("return ((kl_pm + kl_qm) / 2).mean(-1)", "return np.sqrt(np.maximum((kl_pm + kl_qm) / 2, 0)).mean(-1)")},
    {"exercise": "head_js_divergence", "kind": "wrong", "mistake": "averages each head's rows first, then takes the JS of the averaged distributions",
     "teacher_says": "compute the divergence row by row, then average; the JS of averaged rows is smaller",
     "code": '''
import numpy as np

def head_js_divergence(weights):
    w = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h = w.shape[0]
    avg = w.reshape(h, -1, w.shape[-1]).mean(axis=1)   # (h, n_k)
    p, q = avg[:, None], avg[None, :]
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(p > 0, p * np.log(p / m), 0).sum(-1)
        b = np.where(q > 0, q * np.log(q / m), 0).sum(-1)
    return (a + b) / 2
'''},
    {"exercise": "head_js_divergence", "kind": "wrong", "mistake": "sums the KL terms over the queries as well as the keys (no mean over queries)",
     "teacher_says": "average the per-row divergences over queries and leading axes instead of summing them",
     "code": _JS.replace("return ((kl_pm + kl_qm) / 2).mean(-1)", "return ((kl_pm + kl_qm) / 2).sum(-1)")},
    {"exercise": "head_js_divergence", "kind": "robustness", "idea": "wraps everything in try/except returning zeros",
     "mistake": "a bare except hides errors and returns an all-zero matrix",
     "teacher_says": "do not swallow exceptions: an all-zero answer looks like identical heads",
     "code": '''
import numpy as np

def head_js_divergence(weights):
    try:
        w = np.moveaxis(np.asarray(weights), -3, 0)
        h = w.shape[0]
        p = w[:, None]
        q = w[None, :]
        m = (p + q) / 2
        js = 0.5 * (p * np.log(p / m) + q * np.log(q / m)).sum(-1)
        if not np.isfinite(js).all():
            raise ValueError
        return js.reshape(h, h, -1).mean(-1)
    except Exception:
        return np.zeros((np.shape(weights)[-3],) * 2)
'''},
    # ---------------- head_ablation_scores ----------------
    {"exercise": "head_ablation_scores", "kind": "correct", "idea": "fresh gate of ones per head, base - evaluate(gate)",
     "code": _ABL},
    {"exercise": "head_ablation_scores", "kind": "correct", "idea": "one flat loop over np.ndindex with an identity-row trick: gate = 1 - one-hot",
     "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    shape = (num_layers, num_heads)
    base = float(evaluate(np.ones(shape)))
    out = np.empty(shape, dtype=np.float64)
    for idx in np.ndindex(*shape):
        one_hot = np.zeros(shape)
        one_hot[idx] = 1.0
        out[idx] = base - float(evaluate(1.0 - one_hot))
    return out
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong", "mistake": "reuses one gate without resetting it: the heads are removed cumulatively",
     "teacher_says": "each head is removed alone: start every evaluation from a fresh gate of ones",
     "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    gate = np.ones((num_layers, num_heads))
    base = evaluate(gate.copy())
    scores = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for h in range(num_heads):
            gate[l, h] = 0
            scores[l, h] = base - evaluate(gate.copy())
    return scores
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong", "mistake": "evaluate(gate) - base: the sign is reversed",
     "teacher_says": "the drop is base - score without the head; yours is negative for important heads",
     "code": _ABL.replace("scores[layer, head] = base - evaluate(gate)", "scores[layer, head] = evaluate(gate) - base")},
    {"exercise": "head_ablation_scores", "kind": "wrong", "mistake": "returns the score without each head instead of the drop",
     "teacher_says": "return how much the score drops: base - evaluate(gate)",
     "code": _ABL.replace("scores[layer, head] = base - evaluate(gate)", "scores[layer, head] = evaluate(gate)")},
    {"exercise": "head_ablation_scores", "kind": "wrong", "mistake": "relative drop (divides by base)",
     "teacher_says": "the exercise asks for the drop itself, not the fraction",
     "code": _ABL.replace("scores[layer, head] = base - evaluate(gate)", "scores[layer, head] = (base - evaluate(gate)) / base")},
    {"exercise": "head_ablation_scores", "kind": "wrong", "mistake": "keeps only the ablated head (gate of zeros with a single 1) instead of removing it",
     "teacher_says": "removing head (l, h) means a gate of ones with a single 0",
     "code": _ABL.replace("gate = np.ones((num_layers, num_heads))\n            gate[layer, head] = 0", "gate = np.zeros((num_layers, num_heads))\n            gate[layer, head] = 1")},
    {"exercise": "head_ablation_scores", "kind": "robustness", "idea": "passes the gate as a nested list",
     "mistake": "evaluate receives a list of lists, not a NumPy array",
     "teacher_says": "evaluate takes a NumPy gate of shape (num_layers, num_heads)",
     "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate([[1.0] * num_heads for _ in range(num_layers)])
    out = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for h in range(num_heads):
            gate = [[1.0] * num_heads for _ in range(num_layers)]
            gate[l][h] = 0.0
            out[l, h] = base - evaluate(gate)
    return out
'''},
    {"exercise": "head_ablation_scores", "kind": "robustness", "idea": "integer gate (np.ones(..., dtype=int)) and an int result array",
     "mistake": "the result array is int: fractional drops are truncated",
     "teacher_says": "return a float array; np.zeros(..., dtype=int) truncates the drops",
     "code": _ABL.replace("scores = np.zeros((num_layers, num_heads))", "scores = np.zeros((num_layers, num_heads), dtype=int)")},
]
