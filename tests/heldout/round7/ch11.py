ANSWERS = [
    # ------------------------------------------------------------------ bert_self_attention
    {"exercise": "bert_self_attention", "kind": "correct",
     "idea": "MHAParams built from a dict comprehension over BERT's names, np.transpose, mask with np.expand_dims",
     "code": '''
import numpy as np

import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    names = {"q": "self.query", "k": "self.key", "v": "self.value", "o": "output.dense"}
    weights = {f"w_{s}": np.transpose(state[f"{name}.weight"]) for s, name in names.items()}
    biases = {f"b_{s}": state[f"{name}.bias"] for s, name in names.items()}
    params = mha.MHAParams(num_heads=num_heads, **weights, **biases)
    real = np.expand_dims(np.asarray(attention_mask) == 1, axis=(1, 2))  # (B, 1, 1, n)
    return mha.multi_head_attention(x, x, x, params, real)
'''},
    {"exercise": "bert_self_attention", "kind": "correct",
     "idea": "everything by hand with x @ W.T + b, einsum scores, -inf for padded keys and a stable softmax",
     "code": '''
import numpy as np


def bert_self_attention(x, attention_mask, state, num_heads):
    B, n, d_model = x.shape
    d_k = d_model // num_heads

    def linear(inp, name):
        return inp @ state[name + ".weight"].T + state[name + ".bias"]

    def heads(t):  # (B, n, d) -> (B, h, n, d_k)
        return t.reshape(B, n, num_heads, -1).transpose(0, 2, 1, 3)

    q, k, v = (heads(linear(x, f"self.{p}")) for p in ("query", "key", "value"))
    scores = np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(d_k).astype(x.dtype)
    real = (np.asarray(attention_mask) == 1)[:, None, None, :]
    scores = np.where(real, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    weights = (e / e.sum(axis=-1, keepdims=True)).astype(x.dtype)
    context = (weights @ v).transpose(0, 2, 1, 3).reshape(B, n, -1)
    out = linear(context, "output.dense").astype(x.dtype)
    return out, weights
'''},
    {"exercise": "bert_self_attention", "kind": "wrong",
     "mistake": "uses BERT's weights as they are stored, (out, in), without transposing them (no shape error: every matrix is square)",
     "teacher_says": "nn.Linear computes x @ W.T: transpose every weight into the paper's (in, out) layout before building MHAParams.",
     "code": '''
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        state["self.query.weight"], state["self.key.weight"], state["self.value.weight"],
        state["output.dense.weight"], num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    mask = (attention_mask == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
    {"exercise": "bert_self_attention", "kind": "wrong",
     "mistake": "transposes W^Q, W^K and W^V but forgets to transpose output.dense (W^O)",
     "teacher_says": "All four nn.Linear weights are stored (out, in), the output projection too: transpose output.dense.weight as well.",
     "code": '''
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        state["self.query.weight"].T, state["self.key.weight"].T,
        state["self.value.weight"].T, state["output.dense.weight"], num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    mask = (attention_mask == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
    {"exercise": "bert_self_attention", "kind": "wrong",
     "mistake": "inverts the mask polarity (attention_mask == 0, PyTorch's key_padding_mask convention)",
     "teacher_says": "The book's mask is True where a key may be attended, which is where attention_mask is 1.",
     "code": '''
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        state["self.query.weight"].T, state["self.key.weight"].T,
        state["self.value.weight"].T, state["output.dense.weight"].T, num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    padding = (attention_mask == 0)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, padding)
'''},
    {"exercise": "bert_self_attention", "kind": "wrong",
     "mistake": "puts the mask on the query axis, shape (B, 1, n, 1), so padded keys are still attended",
     "teacher_says": "Padding hides KEYS: the mask must be (B, 1, 1, n) so it broadcasts along the last axis of the (B, h, n_q, n_k) scores.",
     "code": '''
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        state["self.query.weight"].T, state["self.key.weight"].T,
        state["self.value.weight"].T, state["output.dense.weight"].T, num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    mask = (attention_mask == 1)[:, None, :, None]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
    {"exercise": "bert_self_attention", "kind": "wrong",
     "mistake": "leaves out the four biases of the projections",
     "teacher_says": "BERT's projections have biases: pass b_q, b_k, b_v and b_o (self.*.bias, output.dense.bias) to MHAParams.",
     "code": '''
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        state["self.query.weight"].T, state["self.key.weight"].T,
        state["self.value.weight"].T, state["output.dense.weight"].T, num_heads,
    )
    mask = (attention_mask == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
    {"exercise": "bert_self_attention", "kind": "wrong",
     "mistake": "builds the mask from the lengths (number of ones) with mha.padding_mask, which assumes the padding is on the right",
     "teacher_says": "A count is a length and lengths assume right padding; with left padding the wrong tokens are hidden. Compare attention_mask with 1 token by token.",
     "code": '''
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        state["self.query.weight"].T, state["self.key.weight"].T,
        state["self.value.weight"].T, state["output.dense.weight"].T, num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    lengths = attention_mask.sum(axis=1).astype(int)
    mask = mha.padding_mask(lengths, x.shape[1])
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
    {"exercise": "bert_self_attention", "kind": "robustness",
     "idea": "right computation done in float64 for accuracy",
     "mistake": "casts x and the weights to float64 and returns float64 results for float32 inputs",
     "teacher_says": "Return x's dtype: keep the arrays in x.dtype (or cast the results back).",
     "code": '''
import numpy as np

import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    f64 = {name: np.asarray(value, dtype=np.float64) for name, value in state.items()}
    params = mha.MHAParams(
        f64["self.query.weight"].T, f64["self.key.weight"].T,
        f64["self.value.weight"].T, f64["output.dense.weight"].T, num_heads,
        b_q=f64["self.query.bias"], b_k=f64["self.key.bias"],
        b_v=f64["self.value.bias"], b_o=f64["output.dense.bias"],
    )
    x64 = x.astype(np.float64)
    mask = (attention_mask == 1)[:, None, None, :]
    return mha.multi_head_attention(x64, x64, x64, params, mask)
'''},
    # ------------------------------------------------------------------ padding_mask_from_attention_mask
    {"exercise": "padding_mask_from_attention_mask", "kind": "correct",
     "idea": "np.not_equal to 0 then reshape to (B, 1, 1, n)",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    B, n = am.shape
    return np.not_equal(am, 0).reshape(B, 1, 1, n)
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "correct",
     "idea": "astype(bool) and np.expand_dims with a tuple of axes",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    real = np.array(attention_mask).astype(bool)  # 1 / 1.0 -> True, 0 / 0.0 -> False
    return np.expand_dims(real, axis=(1, 2))
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
     "mistake": "inverts the polarity: True at the padding (PyTorch's key_padding_mask convention)",
     "teacher_says": "The book's mask is True where a key may be attended: the real tokens, where attention_mask is 1.",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 0)[:, None, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
     "mistake": "inserts the singleton axis in the wrong place, giving (B, 1, n, 1): a mask over queries",
     "teacher_says": "The mask hides keys, the last axis of the scores: shape (B, 1, 1, n), via [:, None, None, :].",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 1)[:, None, :, None]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
     "mistake": "counts the ones per row and builds a right-padded mask from those lengths, which is wrong for left padding",
     "teacher_says": "Do not count: with left padding the real tokens are at the end. Compare each entry with 1.",
     "code": '''
import numpy as np

import mha


def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    lengths = am.sum(axis=1).astype(int)
    return mha.padding_mask(lengths, am.shape[1])
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
     "mistake": "keeps the integers (or floats) of attention_mask instead of making a bool array",
     "teacher_says": "The book's masks are boolean: compare with 1 (== 1) so that the dtype is bool, not int or float.",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    return np.asarray(attention_mask)[:, None, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
     "mistake": "also combines in a causal mask, as for a decoder, returning (B, 1, n, n)",
     "teacher_says": "BERT is bidirectional and the exercise asks only for the padding mask of shape (B, 1, 1, n); do not add a causal mask.",
     "code": '''
import numpy as np

import mha


def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    real = (am == 1)[:, None, None, :]
    return real & mha.causal_mask(am.shape[1])
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
     "mistake": "only inserts one axis, returning (B, 1, n), which broadcasts against (B, h, n, n) on the wrong axes",
     "teacher_says": "Insert TWO axes, for heads and queries: [:, None, None, :] gives (B, 1, 1, n).",
     "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 1)[:, None, :]
'''},
    {"exercise": "padding_mask_from_attention_mask", "kind": "robustness",
     "idea": "right values, returned as a torch tensor",
     "mistake": "returns a torch bool tensor instead of a NumPy array",
     "teacher_says": "The book's NumPy functions take NumPy masks: return a NumPy bool array.",
     "code": '''
import torch


def padding_mask_from_attention_mask(attention_mask):
    am = torch.as_tensor(attention_mask)
    return (am == 1)[:, None, None, :]
'''},
    # ------------------------------------------------------------------ head_js_divergence
    {"exercise": "head_js_divergence", "kind": "correct",
     "idea": "double loop over pairs with scipy.special.xlogy for the 0 ln 0 = 0 convention",
     "code": '''
import numpy as np
from scipy.special import xlogy


def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k).astype(np.float64)
    result = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            p, q = rows[a], rows[b]
            m = (p + q) / 2
            kl_pm = (xlogy(p, p) - xlogy(p, m)).sum(-1)
            kl_qm = (xlogy(q, q) - xlogy(q, m)).sum(-1)
            result[a, b] = ((kl_pm + kl_qm) / 2).mean()
    return result.astype(weights.dtype)
'''},
    {"exercise": "head_js_divergence", "kind": "correct",
     "idea": "fully broadcast (h, h, Q, n_k) with the entropy form JS = H(m) - (H(p) + H(q)) / 2",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    p = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k).astype(np.float64)

    def entropy(t):
        safe = np.where(t > 0, t, 1.0)
        return -(t * np.log(safe)).sum(-1)

    m = (p[:, None] + p[None, :]) / 2  # (h, h, Q, n_k)
    js = entropy(m) - (entropy(p)[:, None] + entropy(p)[None, :]) / 2
    return js.mean(-1).astype(weights.dtype)
'''},
    {"exercise": "head_js_divergence", "kind": "wrong",
     "mistake": "uses log base 2 (bits) instead of the natural logarithm (nats)",
     "teacher_says": "The divergence is asked in nats: use np.log, not np.log2 (the maximum is ln 2, not 1).",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k)
    out = np.zeros((h, h), dtype=weights.dtype)
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
     "mistake": "takes m = p + q, forgetting to halve the mixture",
     "teacher_says": "The mixture is m = (p + q) / 2, a distribution that sums to 1.",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k)
    out = np.zeros((h, h), dtype=weights.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        for a in range(h):
            for b in range(h):
                p, q = rows[a], rows[b]
                m = p + q
                kl_p = np.where(p > 0, p * np.log(p / m), 0).sum(-1)
                kl_q = np.where(q > 0, q * np.log(q / m), 0).sum(-1)
                out[a, b] = ((kl_p + kl_q) / 2).mean()
    return out
'''},
    {"exercise": "head_js_divergence", "kind": "wrong",
     "mistake": "averages each head's rows into one mean distribution first and takes the JS divergence of the two means",
     "teacher_says": "Compare the heads query by query and average the divergences; the divergence of the averaged rows is a different (smaller) number.",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    mean_rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k).mean(axis=1)  # (h, n_k)
    out = np.zeros((h, h), dtype=weights.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        for a in range(h):
            for b in range(h):
                p, q = mean_rows[a], mean_rows[b]
                m = (p + q) / 2
                kl_p = np.where(p > 0, p * np.log(p / m), 0).sum()
                kl_q = np.where(q > 0, q * np.log(q / m), 0).sum()
                out[a, b] = (kl_p + kl_q) / 2
    return out
'''},
    {"exercise": "head_js_divergence", "kind": "wrong",
     "mistake": "computes p * log(p / m) without guarding zeros, so every row with an exact 0 gives 0 * log 0 = NaN",
     "teacher_says": "Some weights are exactly 0: use np.where(p > 0, p * np.log(p / m), 0) so that 0 ln 0 counts as 0.",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k)
    out = np.zeros((h, h), dtype=weights.dtype)
    for a in range(h):
        for b in range(h):
            p, q = rows[a], rows[b]
            m = (p + q) / 2
            kl_p = (p * np.log(p / m)).sum(-1)
            kl_q = (q * np.log(q / m)).sum(-1)
            out[a, b] = ((kl_p + kl_q) / 2).mean()
    return out
'''},
    {"exercise": "head_js_divergence", "kind": "wrong",
     "mistake": "keeps only KL(p || m), forgetting the KL(q || m) half (and the matrix is no longer symmetric)",
     "teacher_says": "JS is the average of two KL divergences, (KL(p||m) + KL(q||m)) / 2.",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k)
    out = np.zeros((h, h), dtype=weights.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        for a in range(h):
            for b in range(h):
                p, q = rows[a], rows[b]
                m = (p + q) / 2
                out[a, b] = np.where(p > 0, p * np.log(p / m), 0).sum(-1).mean()
    return out
'''},
    {"exercise": "head_js_divergence", "kind": "wrong",
     "mistake": "reshapes to (h, -1, n_k) without moving the heads axis to the front, so with leading axes the 'heads' mix sequences and heads",
     "teacher_says": "np.moveaxis(weights, -3, 0) first: a plain reshape of (B, h, n_q, n_k) groups the memory by batch, not by head.",
     "code": '''
import numpy as np


def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = weights.reshape(h, -1, n_k)
    out = np.zeros((h, h), dtype=weights.dtype)
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
    {"exercise": "head_js_divergence", "kind": "robustness",
     "idea": "delegates to the chapter's atlas.js_divergence after flattening the leading axes",
     "mistake": "returns atlas.js_divergence's float64 matrix even for float32 weights",
     "teacher_says": "Return the dtype of weights: cast the result with .astype(weights.dtype).",
     "code": '''
from mha import atlas


def head_js_divergence(weights):
    h, n_q, n_k = weights.shape[-3:]
    return atlas.js_divergence(weights.reshape(-1, h, n_q, n_k))
'''},
    # ------------------------------------------------------------------ heads_per_feature
    {"exercise": "heads_per_feature", "kind": "correct",
     "idea": "explicit centring and mean of squares (two-pass variance) in float64, via swapaxes on a (tokens, h, d) reshape",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    per_head = np.moveaxis(c, -3, -2).reshape(-1, h, d)  # (tokens, h, d)
    centred = per_head - per_head.mean(axis=0, keepdims=True)
    s = (centred**2).mean(axis=0)  # (h, d): variance over tokens
    return s.sum(axis=0) ** 2 / (s**2).sum(axis=0)
'''},
    {"exercise": "heads_per_feature", "kind": "correct",
     "idea": "np.var over all token axes at once (axis tuple) after moving the heads axis first",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.moveaxis(contributions.astype(np.float64), -3, 0)  # (h, ..., n, d)
    token_axes = tuple(range(1, c.ndim - 1))
    s = np.var(c, axis=token_axes)  # (h, d)
    total = np.sum(s, axis=0)
    return np.square(total) / np.sum(np.square(s), axis=0)
'''},
    {"exercise": "heads_per_feature", "kind": "wrong",
     "mistake": "uses the mean of squares (no centring) instead of the variance, so a head adding a constant vector still counts",
     "teacher_says": "s_a is the VARIANCE over tokens: subtract each head's mean first. A head that adds the same vector everywhere must count for nothing.",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    h, d = contributions.shape[-3], contributions.shape[-1]
    flat = np.moveaxis(contributions, -3, 0).reshape(h, -1, d).astype(np.float64)
    s = (flat**2).mean(axis=1)
    return s.sum(0) ** 2 / (s**2).sum(0)
'''},
    {"exercise": "heads_per_feature", "kind": "wrong",
     "mistake": "inverts the participation ratio: sum(s^2) / (sum s)^2",
     "teacher_says": "The count is (sum_a s_a)^2 / sum_a s_a^2, between 1 and h; yours is its inverse, between 1/h and 1.",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    h, d = contributions.shape[-3], contributions.shape[-1]
    flat = np.moveaxis(contributions, -3, 0).reshape(h, -1, d).astype(np.float64)
    s = flat.var(axis=1)
    return (s**2).sum(0) / s.sum(0) ** 2
'''},
    {"exercise": "heads_per_feature", "kind": "wrong",
     "mistake": "uses standard deviations instead of variances in the ratio",
     "teacher_says": "s_a is the variance (np.var), not the standard deviation (np.std).",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    h, d = contributions.shape[-3], contributions.shape[-1]
    flat = np.moveaxis(contributions, -3, 0).reshape(h, -1, d).astype(np.float64)
    s = flat.std(axis=1)
    return s.sum(0) ** 2 / (s**2).sum(0)
'''},
    {"exercise": "heads_per_feature", "kind": "wrong",
     "mistake": "sums over the features axis instead of the heads axis, returning one number per head (shape (h,))",
     "teacher_says": "For each FEATURE j, sum over the heads a: reduce s of shape (h, d_model) over axis 0, not axis 1.",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    h, d = contributions.shape[-3], contributions.shape[-1]
    flat = np.moveaxis(contributions, -3, 0).reshape(h, -1, d).astype(np.float64)
    s = flat.var(axis=1)  # (h, d)
    return s.sum(1) ** 2 / (s**2).sum(1)
'''},
    {"exercise": "heads_per_feature", "kind": "wrong",
     "mistake": "flattens with reshape(h, -1, d) without moving the heads axis to the front, mixing heads and sequences when there are leading axes",
     "teacher_says": "np.moveaxis(contributions, -3, 0) before the reshape, otherwise each 'head' row holds pieces of several heads and sequences.",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    h, d = contributions.shape[-3], contributions.shape[-1]
    flat = contributions.reshape(h, -1, d).astype(np.float64)
    s = flat.var(axis=1)
    return s.sum(0) ** 2 / (s**2).sum(0)
'''},
    {"exercise": "heads_per_feature", "kind": "robustness",
     "idea": "right formula, computed in the input's dtype",
     "mistake": "returns float32 for float32 contributions, although the exercise asks for float64",
     "teacher_says": "Convert to float64 before the variance (contributions.astype(np.float64)) and return float64.",
     "code": '''
import numpy as np


def heads_per_feature(contributions):
    h, d = contributions.shape[-3], contributions.shape[-1]
    flat = np.moveaxis(contributions, -3, 0).reshape(h, -1, d)
    s = flat.var(axis=1)
    return s.sum(0) ** 2 / (s**2).sum(0)
'''},
    # ------------------------------------------------------------------ head_ablation_scores
    {"exercise": "head_ablation_scores", "kind": "correct",
     "idea": "one gate per head from the rows of 1 - eye, reshaped to (L, H), evaluated in a list comprehension",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    total = num_layers * num_heads
    base = float(evaluate(np.ones((num_layers, num_heads))))
    gates = (1.0 - np.eye(total)).reshape(total, num_layers, num_heads)
    scores = np.array([float(evaluate(gate.copy())) for gate in gates])
    return (base - scores).reshape(num_layers, num_heads).astype(np.float64)
'''},
    {"exercise": "head_ablation_scores", "kind": "correct",
     "idea": "np.ndindex over (layer, head), a fresh gate of ones each time",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    shape = (num_layers, num_heads)
    full_score = evaluate(np.ones(shape))
    drops = np.empty(shape, dtype=np.float64)
    for layer, head in np.ndindex(*shape):
        gate = np.ones(shape)
        gate[layer, head] = 0.0
        drops[layer, head] = full_score - evaluate(gate)
    return drops
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong",
     "mistake": "reuses one gate and never puts the removed head back, so the removals accumulate",
     "teacher_says": "Each head is removed ALONE: start from a fresh gate of ones (or restore the 1) for every head.",
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
     "mistake": "subtracts the other way round (ablated score minus full score), so important heads get negative values",
     "teacher_says": "The importance is how much the score DROPS: full score minus the score without the head.",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    out = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[l, a] = 0
            out[l, a] = evaluate(gate) - base
    return out
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong",
     "mistake": "returns the scores with each head removed, not the drop from the full model's score",
     "teacher_says": "Subtract each ablated score from the score of the full model (all gates 1).",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    out = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[l, a] = 0
            out[l, a] = evaluate(gate)
    return out
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong",
     "mistake": "keeps only the one head (a one-hot gate) instead of removing it",
     "teacher_says": "Removing head (l, a) means a gate of ones with a single 0 at [l, a], not a single 1.",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    out = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            gate = np.zeros((num_layers, num_heads))
            gate[l, a] = 1
            out[l, a] = base - evaluate(gate)
    return out
'''},
    {"exercise": "head_ablation_scores", "kind": "wrong",
     "mistake": "flattens the index with num_layers as the stride (l * num_layers + a), so the wrong head is removed when num_layers != num_heads",
     "teacher_says": "In a (num_layers, num_heads) array, entry [l, a] is flat index l * num_heads + a.",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    out = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            gate = np.ones(num_layers * num_heads)
            gate[(l * num_layers + a) % gate.size] = 0
            out[l, a] = base - evaluate(gate.reshape(num_layers, num_heads))
    return out
'''},
    {"exercise": "head_ablation_scores", "kind": "robustness",
     "idea": "right numbers, collected as nested Python lists",
     "mistake": "returns a list of lists instead of a float64 NumPy array",
     "teacher_says": "Return np.array(..., dtype=np.float64) of shape (num_layers, num_heads), not a list.",
     "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    rows = []
    for l in range(num_layers):
        row = []
        for a in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[l, a] = 0
            row.append(base - evaluate(gate))
        rows.append(row)
    return rows
'''},
]
