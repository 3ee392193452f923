ANSWERS = [
 # ------------------------------------------------------------------ bert_self_attention
 {"exercise": "bert_self_attention", "kind": "correct",
  "idea": "by hand: x @ W.T + b for the three projections, split_heads, scaled_dot_product_attention with the key mask, merge_heads, output projection",
  "code": '''
import numpy as np

import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    def linear(inp, name):
        return inp @ state[name + ".weight"].T + state[name + ".bias"]

    q = mha.split_heads(linear(x, "self.query"), num_heads)
    k = mha.split_heads(linear(x, "self.key"), num_heads)
    v = mha.split_heads(linear(x, "self.value"), num_heads)
    keep = (np.asarray(attention_mask) == 1)[:, np.newaxis, np.newaxis, :]  # (B, 1, 1, n)
    heads, weights = mha.scaled_dot_product_attention(q, k, v, keep)
    out = linear(mha.merge_heads(heads), "output.dense")
    return out.astype(x.dtype), weights.astype(x.dtype)
'''},
 {"exercise": "bert_self_attention", "kind": "correct",
  "idea": "MHAParams built from a dict comprehension of transposed copies (np.ascontiguousarray), mask from np.expand_dims",
  "code": '''
import numpy as np

import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    names = {"q": "self.query", "k": "self.key", "v": "self.value", "o": "output.dense"}
    w = {key: np.ascontiguousarray(state[name + ".weight"].T) for key, name in names.items()}
    b = {key: state[name + ".bias"].copy() for key, name in names.items()}
    params = mha.MHAParams(
        w_q=w["q"], w_k=w["k"], w_v=w["v"], w_o=w["o"], num_heads=num_heads,
        b_q=b["q"], b_k=b["k"], b_v=b["v"], b_o=b["o"],
    )
    mask = np.expand_dims(np.asarray(attention_mask) != 0, axis=(1, 2))
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "uses BERT's weights as they are stored, (out, in), without transposing them into the paper's x @ W layout",
  "teacher_says": "nn.Linear computes x @ W.T: transpose every weight when you build MHAParams. BERT's projections are square, so no shape error warns you.",
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
  "mistake": "inverts the mask polarity (attention_mask == 0, PyTorch's True = padding), so real tokens are hidden and padding attended",
  "teacher_says": "The book's mask is True = may attend, like the tokenizer's 1 = real token: use attention_mask == 1.",
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
  "mistake": "inserts the singleton axes on the wrong side, (B, 1, n, 1): the mask then hides padded QUERIES instead of padded keys",
  "teacher_says": "Padding hides keys: the mask must be (B, 1, 1, n) so that it broadcasts over heads and queries and varies along the keys (last axis).",
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
  "mistake": "leaves out the four biases when building MHAParams",
  "teacher_says": "BERT's projections have biases (Q = x W^Q + b^Q, ..., plus b^O): pass b_q, b_k, b_v and b_o.",
  "code": '''
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        w_q=state["self.query.weight"].T, w_k=state["self.key.weight"].T,
        w_v=state["self.value.weight"].T, w_o=state["output.dense.weight"].T,
        num_heads=num_heads,
    )
    mask = (attention_mask == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "transposes the three input projections but forgets to transpose the output projection",
  "teacher_says": "output.dense is an nn.Linear too: its weight is (out, in) and needs the same transpose as the others.",
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
  "mistake": "copy-paste slip: takes the key weight and bias for the query projection as well",
  "teacher_says": "Check each name: w_q comes from self.query, w_k from self.key. With both from the key the scores are wrong everywhere.",
  "code": '''
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        w_q=state["self.key.weight"].T, w_k=state["self.key.weight"].T,
        w_v=state["self.value.weight"].T, w_o=state["output.dense.weight"].T,
        num_heads=num_heads,
        b_q=state["self.key.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    mask = (attention_mask == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 {"exercise": "bert_self_attention", "kind": "robustness",
  "idea": "right computation, but the weights are transposed by overwriting the entries of the state dict",
  "mistake": "changes the caller's state dict in place (its weights are left transposed), although the statement says not to change them; a second call then gives wrong results",
  "teacher_says": "Do not write into state: transpose into new variables (state[name].T) and leave the dict as it was.",
  "code": '''
import mha


def bert_self_attention(x, attention_mask, state, num_heads):
    for name in ("self.query", "self.key", "self.value", "output.dense"):
        state[name + ".weight"] = state[name + ".weight"].T
    params = mha.MHAParams(
        state["self.query.weight"], state["self.key.weight"], state["self.value.weight"],
        state["output.dense.weight"], num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    mask = (attention_mask == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 # ------------------------------------------------------------------ padding_mask_from_attention_mask
 {"exercise": "padding_mask_from_attention_mask", "kind": "correct",
  "idea": "np.expand_dims of (mask != 0) on axes 1 and 2",
  "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    real = np.asarray(attention_mask) != 0
    return np.expand_dims(real, axis=(1, 2))
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "correct",
  "idea": "threshold at 0.5 and reshape to (B, 1, 1, n)",
  "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask, dtype=np.float64)
    B, n = am.shape
    return (am > 0.5).reshape(B, 1, 1, n)
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "counts the real tokens and builds the mask from the lengths, which assumes the padding is on the right (wrong for left-padded batches)",
  "teacher_says": "A count is a length, and lengths assume right padding. The attention_mask already says token by token which tokens are real: compare it with 1.",
  "code": '''
import numpy as np

import mha


def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    lengths = am.sum(axis=1).astype(int)
    return mha.padding_mask(lengths, am.shape[1])
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "flips the polarity: True at padding, as nn.MultiheadAttention's key_padding_mask",
  "teacher_says": "The book's masks are True = may attend: real tokens (attention_mask == 1) must be True.",
  "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 0)[:, None, None, :]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "inserts the singleton axes in the wrong places, (B, 1, n, 1), so the mask runs along the queries instead of the keys",
  "teacher_says": "Padding hides keys, the last axis: index with [:, None, None, :] to get (B, 1, 1, n).",
  "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 1)[:, None, :, None]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "only adds the axes and keeps the tokenizer's integers (or floats) instead of converting to a boolean mask",
  "teacher_says": "The book's masks are boolean: compare with 1 (== 1) to get dtype bool; a 0/1 integer array is not a mask there.",
  "code": '''
import numpy as np


def padding_mask_from_attention_mask(attention_mask):
    return np.asarray(attention_mask)[:, None, None, :]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "combines the padding mask with a causal mask, returning (B, 1, n, n) instead of the padding mask alone",
  "teacher_says": "BERT is bidirectional and the exercise asks for the padding mask only, of shape (B, 1, 1, n); combine with a causal mask only where a decoder needs it.",
  "code": '''
import numpy as np

import mha


def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    real = (am == 1)[:, None, None, :]
    return real & mha.causal_mask(am.shape[1])
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "robustness",
  "idea": "right mask, built with torch",
  "mistake": "returns a torch bool tensor instead of a NumPy array",
  "teacher_says": "The statement asks for a NumPy array of dtype bool; stay in NumPy (np.asarray(...) == 1).",
  "code": '''
import torch


def padding_mask_from_attention_mask(attention_mask):
    return torch.as_tensor(attention_mask).eq(1)[:, None, None, :]
'''},
 # ------------------------------------------------------------------ head_js_divergence
 {"exercise": "head_js_divergence", "kind": "correct",
  "idea": "double loop over pairs of heads, KL terms with np.where to drop 0 ln 0",
  "code": '''
import numpy as np


def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k).astype(np.float64)

    def kl(p, m):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(p > 0, p * np.log(p / m), 0.0).sum(axis=-1)

    out = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            p, q = rows[a], rows[b]
            m = (p + q) / 2
            out[a, b] = ((kl(p, m) + kl(q, m)) / 2).mean()
    return out.astype(weights.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "correct",
  "idea": "all pairs at once by broadcasting (h, 1, Q, n_k) against (1, h, Q, n_k), with scipy.special.rel_entr for the KL terms",
  "code": '''
import numpy as np
from scipy.special import rel_entr


def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k).astype(np.float64)
    p, q = rows[:, None], rows[None, :]  # (h, 1, Q, n_k), (1, h, Q, n_k)
    m = (p + q) / 2
    js = 0.5 * rel_entr(p, m).sum(-1) + 0.5 * rel_entr(q, m).sum(-1)  # (h, h, Q)
    return js.mean(-1).astype(weights.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "uses log base 2 (bits) instead of the natural logarithm (nats)",
  "teacher_says": "The statement asks for nats: np.log, not np.log2 (the maximum is then ln 2, not 1).",
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
                kl_pm = np.where(p > 0, p * np.log2(p / m), 0).sum(-1)
                kl_qm = np.where(q > 0, q * np.log2(q / m), 0).sum(-1)
                out[a, b] = ((kl_pm + kl_qm) / 2).mean()
    return out
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "forgets the factor 1/2 in front of the two KL terms",
  "teacher_says": "JS(p, q) = (KL(p||m) + KL(q||m)) / 2; without the half your values go up to 2 ln 2.",
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
                kl_pm = np.where(p > 0, p * np.log(p / m), 0).sum(-1)
                kl_qm = np.where(q > 0, q * np.log(q / m), 0).sum(-1)
                out[a, b] = (kl_pm + kl_qm).mean()
    return out
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "reshapes to (h, -1, n_k) without moving the heads axis first, so with a batch axis the rows of different heads and examples get mixed",
  "teacher_says": "Put the heads axis first (np.moveaxis(weights, -3, 0)) and only then flatten the other axes.",
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
                kl_pm = np.where(p > 0, p * np.log(p / m), 0).sum(-1)
                kl_qm = np.where(q > 0, q * np.log(q / m), 0).sum(-1)
                out[a, b] = ((kl_pm + kl_qm) / 2).mean()
    return out
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "averages each head's rows into one mean distribution first and takes the JS divergence of the means, instead of the mean of the per-query divergences",
  "teacher_says": "Compare row with row (the same query in both heads), then average the divergences; the divergence of averaged rows is much smaller.",
  "code": '''
import numpy as np


def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    mean_rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k).mean(axis=1)  # (h, n_k)
    p, q = mean_rows[:, None, :], mean_rows[None, :, :]
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        kl_pm = np.where(p > 0, p * np.log(p / m), 0).sum(-1)
        kl_qm = np.where(q > 0, q * np.log(q / m), 0).sum(-1)
    return ((kl_pm + kl_qm) / 2).astype(weights.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "computes p * log(p / m) without guarding the zero weights, so 0 * log 0 gives NaN",
  "teacher_says": "Attention weights can be exactly 0 (masked keys): 0 * log(0) is NaN in floating point. Take 0 ln 0 = 0 with np.where(p > 0, ..., 0).",
  "code": '''
import numpy as np


def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k)
    p, q = rows[:, None], rows[None, :]
    m = 0.5 * (p + q)
    kl_pm = np.sum(p * np.log(p / m), axis=-1)
    kl_qm = np.sum(q * np.log(q / m), axis=-1)
    return (0.5 * (kl_pm + kl_qm)).mean(axis=-1)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "takes the midpoint m as p + q instead of (p + q) / 2",
  "teacher_says": "m is the average distribution (p + q) / 2; p + q sums to 2 and is not a distribution.",
  "code": '''
import numpy as np


def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k)
    p, q = rows[:, None], rows[None, :]
    m = p + q
    with np.errstate(divide="ignore", invalid="ignore"):
        kl_pm = np.where(p > 0, p * np.log(p / m), 0.0).sum(-1)
        kl_qm = np.where(q > 0, q * np.log(q / m), 0.0).sum(-1)
    return ((kl_pm + kl_qm) / 2).mean(-1).astype(weights.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "robustness",
  "idea": "right divergence, computed and returned in float64",
  "mistake": "returns float64 for float32 weights instead of the dtype of weights",
  "teacher_says": "The statement asks for the dtype of weights: cast the (h, h) result back with .astype(weights.dtype).",
  "code": '''
import numpy as np


def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0).reshape(h, -1, n_k)
    p, q = rows[:, None], rows[None, :]
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        kl_pm = np.where(p > 0, p * np.log(p / m), 0.0).sum(-1)
        kl_qm = np.where(q > 0, q * np.log(q / m), 0.0).sum(-1)
    return ((kl_pm + kl_qm) / 2).mean(-1)
'''},
 # ------------------------------------------------------------------ heads_per_feature
 {"exercise": "heads_per_feature", "kind": "correct",
  "idea": "loop over heads, variance written out as the mean squared deviation, in float64",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d_model = c.shape[-3], c.shape[-1]
    s = np.empty((h, d_model))
    for a in range(h):
        tokens = np.take(c, a, axis=-3).reshape(-1, d_model)  # (tokens, d_model)
        centred = tokens - tokens.mean(axis=0)
        s[a] = (centred ** 2).mean(axis=0)
    return s.sum(axis=0) ** 2 / (s ** 2).sum(axis=0)
'''},
 {"exercise": "heads_per_feature", "kind": "correct",
  "idea": "unbiased variance (ddof=1, the same ratios) and einsum for the sums over heads",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    h, d_model = contributions.shape[-3], contributions.shape[-1]
    flat = np.moveaxis(contributions, -3, 0).reshape(h, -1, d_model).astype(np.float64)
    s = np.var(flat, axis=1, ddof=1)  # (h, d_model)
    total = np.einsum("ad->d", s)
    squares = np.einsum("ad,ad->d", s, s)
    return total * total / squares
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "reshapes to (h, -1, d_model) without moving the heads axis to the front, so with leading batch axes each 'head' mixes heads and examples",
  "teacher_says": "Heads are on axis -3: np.moveaxis(contributions, -3, 0) first, then reshape(h, -1, d_model).",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    h, d_model = contributions.shape[-3], contributions.shape[-1]
    flat = contributions.reshape(h, -1, d_model).astype(np.float64)
    s = flat.var(axis=1)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "uses the mean square of each head's contribution instead of its variance, so a head that adds the same constant to every token still counts",
  "teacher_says": "s_a is the VARIANCE over tokens: subtract each head's mean first. A constant offset says nothing about the token and must count for 0.",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    h, d_model = contributions.shape[-3], contributions.shape[-1]
    flat = np.moveaxis(contributions, -3, 0).reshape(h, -1, d_model).astype(np.float64)
    s = (flat ** 2).mean(axis=1)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "uses the standard deviation instead of the variance for s_a",
  "teacher_says": "The participation ratio is built on variances (np.var); standard deviations give a different ratio.",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    h, d_model = contributions.shape[-3], contributions.shape[-1]
    flat = np.moveaxis(contributions, -3, 0).reshape(h, -1, d_model).astype(np.float64)
    s = flat.std(axis=1)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "takes the variance over the features (last axis) instead of over the tokens, which gives one number per token rather than per feature",
  "teacher_says": "For each FEATURE j, the variance runs over the tokens: after flattening to (h, tokens, d_model) use axis=1.",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    h, d_model = contributions.shape[-3], contributions.shape[-1]
    flat = np.moveaxis(contributions, -3, 0).reshape(h, -1, d_model).astype(np.float64)
    s = flat.var(axis=-1)  # (h, tokens)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "inverts the participation ratio: sum of squares over square of the sum",
  "teacher_says": "The ratio is (sum_a s_a)^2 / sum_a s_a^2: from 1 (one head) to h (all heads equal). Yours lies between 1/h and 1.",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    h, d_model = contributions.shape[-3], contributions.shape[-1]
    flat = np.moveaxis(contributions, -3, 0).reshape(h, -1, d_model).astype(np.float64)
    s = flat.var(axis=1)
    return (s ** 2).sum(0) / s.sum(0) ** 2
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "takes the variance over the positions of each sequence separately and averages over the batch, instead of the variance over all tokens",
  "teacher_says": "Every leading index and position is a token: flatten them all and take one variance; the spread between sequences counts too.",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    s = c.var(axis=-2)  # (..., h, d_model): variance over positions
    s = s.reshape(-1, *s.shape[-2:]).mean(axis=0)  # averaged over the leading axes
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "robustness",
  "idea": "right ratios computed in the input's dtype",
  "mistake": "returns float32 for float32 contributions instead of the float64 the statement asks for",
  "teacher_says": "Convert to float64 (astype(np.float64)) before or after the computation, as the statement asks.",
  "code": '''
import numpy as np


def heads_per_feature(contributions):
    h, d_model = contributions.shape[-3], contributions.shape[-1]
    flat = np.moveaxis(contributions, -3, 0).reshape(h, -1, d_model)
    s = flat.var(axis=1)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 # ------------------------------------------------------------------ head_ablation_scores
 {"exercise": "head_ablation_scores", "kind": "correct",
  "idea": "one-hot gates from the rows of an identity matrix, iterated with np.ndindex",
  "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    full = np.ones((num_layers, num_heads))
    base = evaluate(full.copy())
    one_hot = np.eye(num_layers * num_heads).reshape(-1, num_layers, num_heads)
    scores = np.empty((num_layers, num_heads), dtype=np.float64)
    for k, (layer, head) in enumerate(np.ndindex(num_layers, num_heads)):
        scores[layer, head] = base - evaluate(full - one_hot[k])
    return scores
'''},
 {"exercise": "head_ablation_scores", "kind": "correct",
  "idea": "nested list comprehension, each gate a fresh np.ones with one entry set by np.where",
  "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    layers, heads = np.indices((num_layers, num_heads))
    base = float(evaluate(np.ones((num_layers, num_heads))))
    drops = [
        [base - float(evaluate(np.where((layers == l) & (heads == a), 0.0, 1.0)))
         for a in range(num_heads)]
        for l in range(num_layers)
    ]
    return np.array(drops, dtype=np.float64)
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "reuses one gate for the whole loop and never puts the removed head back, so heads are removed cumulatively instead of one at a time",
  "teacher_says": "Each head is removed ALONE: start every evaluation from a fresh gate of ones (or restore the entry after the call).",
  "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    gate = np.ones((num_layers, num_heads))
    base = evaluate(gate)
    scores = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            gate[l, a] = 0.0
            scores[l, a] = base - evaluate(gate)
    return scores
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "subtracts the other way round (score without the head minus the full score), so important heads get negative values",
  "teacher_says": "The importance is how much the score DROPS: full score minus the score without the head.",
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
  "mistake": "returns the score of the model without each head instead of the drop from the full model's score",
  "teacher_says": "Subtract from the full model's score: base - evaluate(gate). The raw scores are not importances.",
  "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    scores = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[l, a] = 0
            scores[l, a] = evaluate(gate)
    return scores
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "swaps the two loops' roles when allocating and indexing the result, returning a (num_heads, num_layers) array",
  "teacher_says": "Return shape (num_layers, num_heads), indexed [layer, head], like the gate.",
  "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    scores = np.zeros((num_heads, num_layers))
    for a in range(num_heads):
        for l in range(num_layers):
            gate = np.ones((num_layers, num_heads))
            gate[l, a] = 0
            scores[a, l] = base - evaluate(gate)
    return scores
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "measures each head by keeping it ALONE (all others removed) instead of removing it alone from the full model",
  "teacher_says": "Ablation removes one head and keeps all the others: a gate of ones with a single 0, compared with the full gate of ones.",
  "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    none_left = evaluate(np.zeros((num_layers, num_heads)))
    scores = np.zeros((num_layers, num_heads))
    for l in range(num_layers):
        for a in range(num_heads):
            only = np.zeros((num_layers, num_heads))
            only[l, a] = 1.0
            scores[l, a] = evaluate(only) - none_left
    return scores
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "stores the drops in an integer array (np.zeros_like of an int gate), so every fractional drop is truncated",
  "teacher_says": "Scores are real numbers: allocate the result as float64 (np.zeros(..., dtype=float)), not like an integer gate.",
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
 {"exercise": "head_ablation_scores", "kind": "robustness",
  "idea": "right drops, collected in nested Python lists",
  "mistake": "returns a list of lists instead of a float64 NumPy array",
  "teacher_says": "Wrap the result in np.array(..., dtype=np.float64) as the statement asks.",
  "code": '''
import numpy as np


def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    result = []
    for l in range(num_layers):
        row = []
        for a in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[l, a] = 0.0
            row.append(float(base - evaluate(gate)))
        result.append(row)
    return result
'''},
]
