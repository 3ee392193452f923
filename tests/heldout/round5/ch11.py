ANSWERS = [
 # ------------------------------------------------------------------ bert_self_attention
 {"exercise": "bert_self_attention", "kind": "correct",
  "idea": "written out by hand with einsum: biased projections, per-head scores, masked stable softmax, W^O",
  "code": '''
import numpy as np

def bert_self_attention(x, attention_mask, state, num_heads):
    B, n, d_model = x.shape
    d_k = d_model // num_heads

    def linear(name):  # nn.Linear: x @ W.T + b
        return x @ state[f"{name}.weight"].T + state[f"{name}.bias"]

    def heads(y):
        return y.reshape(B, n, num_heads, d_k).transpose(0, 2, 1, 3)  # (B, h, n, d_k)

    q, k, v = heads(linear("self.query")), heads(linear("self.key")), heads(linear("self.value"))
    scores = np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(d_k).astype(x.dtype)
    real = (np.asarray(attention_mask) == 1)[:, None, None, :]
    scores = np.where(real, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.where(real, np.exp(scores), 0.0)
    weights = (e / e.sum(axis=-1, keepdims=True)).astype(x.dtype)
    concat = np.einsum("bhqk,bhkd->bqhd", weights, v).reshape(B, n, d_model)
    out = concat @ state["output.dense.weight"].T + state["output.dense.bias"]
    return out.astype(x.dtype), weights
'''},
 {"exercise": "bert_self_attention", "kind": "correct",
  "idea": "pack BERT's three projections into nn.MultiheadAttention's in_proj layout and convert with mha.from_torch_state_dict",
  "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    torch_like = {
        "in_proj_weight": np.concatenate(
            [state["self.query.weight"], state["self.key.weight"], state["self.value.weight"]], axis=0),
        "in_proj_bias": np.concatenate(
            [state["self.query.bias"], state["self.key.bias"], state["self.value.bias"]]),
        "out_proj.weight": state["output.dense.weight"],
        "out_proj.bias": state["output.dense.bias"],
    }
    params = mha.from_torch_state_dict(torch_like, num_heads)  # transposes to x @ W
    mask = np.expand_dims(np.asarray(attention_mask) != 0, axis=(1, 2))
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "Uses BERT's (out, in) weights as they are stored, without transposing them; the matrices are square, so no shape error warns.",
  "teacher_says": "nn.Linear computes x @ W.T: transpose every weight into the paper's (in, out) layout before building MHAParams.",
  "code": '''
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        w_q=state["self.query.weight"], w_k=state["self.key.weight"],
        w_v=state["self.value.weight"], w_o=state["output.dense.weight"],
        num_heads=num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    mask = (attention_mask == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "Builds the mask with attention_mask == 0 (True at the padding), the polarity of PyTorch's key_padding_mask.",
  "teacher_says": "The book's masks are True where a key MAY be attended: attention_mask == 1, the real tokens.",
  "code": '''
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        w_q=state["self.query.weight"].T, w_k=state["self.key.weight"].T,
        w_v=state["self.value.weight"].T, w_o=state["output.dense.weight"].T,
        num_heads=num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    mask = (attention_mask == 0)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "Leaves out the four biases.",
  "teacher_says": "BERT's projections have biases: pass b_q, b_k, b_v and b_o from the state too.",
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
  "mistake": "Inserts the singleton axes in the wrong places, (B, 1, n, 1): the mask then hides padded QUERIES instead of padded keys.",
  "teacher_says": "Padding hides keys: the mask must be (B, 1, 1, n_k), i.e. attention_mask[:, None, None, :], so that it broadcasts over heads and queries.",
  "code": '''
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        w_q=state["self.query.weight"].T, w_k=state["self.key.weight"].T,
        w_v=state["self.value.weight"].T, w_o=state["output.dense.weight"].T,
        num_heads=num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    mask = (attention_mask == 1)[:, None, :, None]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "Builds the mask from the lengths (the count of ones) with mha.padding_mask, which assumes the padding is on the right; left-padded batches are masked at the wrong end.",
  "teacher_says": "A count is a length and a length assumes right padding. Use the mask itself, attention_mask == 1, which is right wherever the padding is.",
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
    lengths = np.asarray(attention_mask).sum(axis=1).astype(int)
    mask = mha.padding_mask(lengths, x.shape[1])
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 {"exercise": "bert_self_attention", "kind": "wrong",
  "mistake": "Transposes the query, key and value weights but forgets to transpose the output projection.",
  "teacher_says": "output.dense.weight is an nn.Linear weight too, stored (out, in): it needs the same transpose as the other three.",
  "code": '''
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    params = mha.MHAParams(
        w_q=state["self.query.weight"].T, w_k=state["self.key.weight"].T,
        w_v=state["self.value.weight"].T, w_o=state["output.dense.weight"],
        num_heads=num_heads,
        b_q=state["self.query.bias"], b_k=state["self.key.bias"],
        b_v=state["self.value.bias"], b_o=state["output.dense.bias"],
    )
    mask = (attention_mask == 1)[:, None, None, :]
    return mha.multi_head_attention(x, x, x, params, mask)
'''},
 {"exercise": "bert_self_attention", "kind": "robustness",
  "idea": "converts everything to float64 'to match PyTorch more closely'",
  "mistake": "The values are right, but float32 inputs give float64 outputs and weights.",
  "teacher_says": "Return x's dtype: do not cast the state and x to float64 (or cast the results back).",
  "code": '''
import numpy as np
import mha

def bert_self_attention(x, attention_mask, state, num_heads):
    s = {name: np.asarray(a, dtype=np.float64) for name, a in state.items()}
    params = mha.MHAParams(
        w_q=s["self.query.weight"].T, w_k=s["self.key.weight"].T,
        w_v=s["self.value.weight"].T, w_o=s["output.dense.weight"].T,
        num_heads=num_heads,
        b_q=s["self.query.bias"], b_k=s["self.key.bias"],
        b_v=s["self.value.bias"], b_o=s["output.dense.bias"],
    )
    x64 = np.asarray(x, dtype=np.float64)
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]
    return mha.multi_head_attention(x64, x64, x64, params, mask)
'''},
 # ------------------------------------------------------------------ padding_mask_from_attention_mask
 {"exercise": "padding_mask_from_attention_mask", "kind": "correct",
  "idea": "cast to bool (nonzero = real) and add the axes with reshape",
  "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    B, n = am.shape
    return am.astype(bool).reshape(B, 1, 1, n)
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "correct",
  "idea": "np.not_equal to 0 and np.expand_dims with a tuple of axes",
  "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    real = np.not_equal(np.asarray(attention_mask), 0)
    return np.expand_dims(real, axis=(1, 2))
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "Marks the padding as True (attention_mask == 0), PyTorch's key_padding_mask polarity.",
  "teacher_says": "The book's mask is True where a key may be attended: the real tokens, attention_mask == 1.",
  "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 0)[:, None, None, :]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "Counts the ones and rebuilds the mask from the lengths, which is only right when the padding is on the right.",
  "teacher_says": "Some tokenizers pad on the left; a length cannot say where the padding is. Compare the mask with 1 token by token instead.",
  "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    am = np.asarray(attention_mask)
    lengths = am.sum(axis=1).astype(int)
    n = am.shape[1]
    return (np.arange(n)[None, :] < lengths[:, None])[:, None, None, :]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "Puts the sequence on the query axis: shape (B, 1, n, 1), which hides padded queries rather than padded keys.",
  "teacher_says": "The keys are the last axis: the mask must be (B, 1, 1, n) so that it broadcasts over heads and queries.",
  "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 1)[:, None, :, None]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "Returns the (B, n) boolean mask without the two singleton axes.",
  "teacher_says": "A (B, n) mask broadcasts against (B, h, n, n) from the right, pairing the batch with the queries: insert the heads and queries axes, [:, None, None, :].",
  "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return np.asarray(attention_mask) == 1
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "wrong",
  "mistake": "Adds the two new axes in front, giving shape (1, 1, B, n) instead of (B, 1, 1, n).",
  "teacher_says": "The batch axis stays first: new axes go between the batch and the keys, mask[:, None, None, :].",
  "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 1)[None, None, :, :]
'''},
 {"exercise": "padding_mask_from_attention_mask", "kind": "robustness",
  "idea": "inserts the axes but keeps the tokenizer's numbers as they are",
  "mistake": "Right shape and the right ones and zeros, but the dtype is int (or float), not bool; used as a mask the entries would be read as indices or numbers.",
  "teacher_says": "Return a boolean array: compare with 1 (== 1) or cast with .astype(bool).",
  "code": '''
import numpy as np

def padding_mask_from_attention_mask(attention_mask):
    return np.asarray(attention_mask)[:, None, None, :]
'''},
 # ------------------------------------------------------------------ head_js_divergence
 {"exercise": "head_js_divergence", "kind": "correct",
  "idea": "fully vectorised over pairs of heads with scipy.special.xlogy (0 log 0 = 0)",
  "code": '''
import numpy as np
from scipy.special import xlogy

def head_js_divergence(weights):
    w = np.asarray(weights)
    h, n_k = w.shape[-3], w.shape[-1]
    rows = np.moveaxis(w, -3, 0).reshape(h, -1, n_k).astype(np.float64)  # (h, Q, n_k)
    p = rows[:, None]                                            # (h, 1, Q, n_k)
    q = rows[None, :]                                            # (1, h, Q, n_k)
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        kl_pm = xlogy(p, p).sum(-1) - xlogy(p, m).sum(-1)
        kl_qm = xlogy(q, q).sum(-1) - xlogy(q, m).sum(-1)
    return ((kl_pm + kl_qm) / 2).mean(axis=-1).astype(w.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "correct",
  "idea": "JS as entropy of the mixture minus the mean entropy, H(m) - (H(p) + H(q))/2, in a loop over pairs",
  "code": '''
import numpy as np

def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k).astype(np.float64)

    def entropy(p):  # per row, with 0 ln 0 = 0
        safe = np.where(p > 0, p, 1.0)
        return -(p * np.log(safe)).sum(axis=-1)

    own = [entropy(rows[a]) for a in range(h)]
    js = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            mix = entropy((rows[a] + rows[b]) / 2)
            js[a, b] = np.mean(mix - (own[a] + own[b]) / 2)
    return js.astype(weights.dtype)
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Uses log base 2 (bits) instead of the natural logarithm (nats).",
  "teacher_says": "The statement asks for nats: np.log, not np.log2 (the maximum is then ln 2, not 1).",
  "code": '''
import numpy as np

def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k)

    def kl(p, m):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(p > 0, p * np.log2(p / m), 0.0).sum(-1)

    js = np.zeros((h, h), dtype=weights.dtype)
    for a in range(h):
        for b in range(h):
            m = (rows[a] + rows[b]) / 2
            js[a, b] = ((kl(rows[a], m) + kl(rows[b], m)) / 2).mean()
    return js
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Keeps only KL(p || m) and forgets the KL(q || m) half, so the matrix is not even symmetric.",
  "teacher_says": "JS(p, q) = (KL(p||m) + KL(q||m)) / 2: both distributions are compared with the mixture.",
  "code": '''
import numpy as np

def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k)
    js = np.zeros((h, h), dtype=weights.dtype)
    for a in range(h):
        for b in range(h):
            p, q = rows[a], rows[b]
            m = (p + q) / 2
            with np.errstate(divide="ignore", invalid="ignore"):
                kl_pm = np.where(p > 0, p * np.log(p / m), 0.0).sum(-1)
            js[a, b] = (kl_pm / 2).mean()
    return js
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Adds the two KL terms but forgets to halve them, so the values go up to 2 ln 2.",
  "teacher_says": "JS is the MEAN of the two KL divergences to the mixture: divide their sum by 2.",
  "code": '''
import numpy as np

def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k)
    js = np.zeros((h, h), dtype=weights.dtype)
    for a in range(h):
        for b in range(h):
            p, q = rows[a], rows[b]
            m = (p + q) / 2
            with np.errstate(divide="ignore", invalid="ignore"):
                kl_p = np.where(p > 0, p * np.log(p / m), 0.0).sum(-1)
                kl_q = np.where(q > 0, q * np.log(q / m), 0.0).sum(-1)
            js[a, b] = (kl_p + kl_q).mean()
    return js
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Sums the per-query divergences instead of averaging them.",
  "teacher_says": "The entry is the divergence averaged over all queries: take the mean over the rows, not the sum.",
  "code": '''
import numpy as np

def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k)
    js = np.zeros((h, h), dtype=weights.dtype)
    for a in range(h):
        for b in range(h):
            p, q = rows[a], rows[b]
            m = (p + q) / 2
            with np.errstate(divide="ignore", invalid="ignore"):
                kl_p = np.where(p > 0, p * np.log(p / m), 0.0).sum(-1)
                kl_q = np.where(q > 0, q * np.log(q / m), 0.0).sum(-1)
            js[a, b] = ((kl_p + kl_q) / 2).sum()
    return js
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Reshapes to (h, -1, n_k) without moving the heads axis first, so with a batch axis the 'heads' are mixtures of examples and heads.",
  "teacher_says": "Move the heads axis to the front (np.moveaxis(weights, -3, 0)) before the reshape; reshape alone follows memory order, where the batch comes first.",
  "code": '''
import numpy as np

def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = weights.reshape(h, -1, n_k)
    js = np.zeros((h, h), dtype=weights.dtype)
    for a in range(h):
        for b in range(h):
            p, q = rows[a], rows[b]
            m = (p + q) / 2
            with np.errstate(divide="ignore", invalid="ignore"):
                kl_p = np.where(p > 0, p * np.log(p / m), 0.0).sum(-1)
                kl_q = np.where(q > 0, q * np.log(q / m), 0.0).sum(-1)
            js[a, b] = ((kl_p + kl_q) / 2).mean()
    return js
'''},
 {"exercise": "head_js_divergence", "kind": "wrong",
  "mistake": "Computes the symmetrised KL divergence (KL(p||q) + KL(q||p)) / 2, smoothed with an epsilon against the zeros, instead of comparing both rows with their mixture m.",
  "teacher_says": "Jensen-Shannon compares each row with the mixture m = (p + q)/2, which is never 0 where p or q is not: no epsilon is needed and the result stays between 0 and ln 2. The symmetrised KL is another (unbounded) quantity.",
  "code": '''
import numpy as np

def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k)
    eps = 1e-10
    js = np.zeros((h, h), dtype=weights.dtype)
    for a in range(h):
        for b in range(h):
            p, q = rows[a] + eps, rows[b] + eps
            kl_pq = (p * np.log(p / q)).sum(-1)
            kl_qp = (q * np.log(q / p)).sum(-1)
            js[a, b] = ((kl_pq + kl_qp) / 2).mean()
    return js
'''},
 {"exercise": "head_js_divergence", "kind": "robustness",
  "idea": "pure-Python loops over every pair, query and key with math.log",
  "mistake": "Correct values, but four nested Python loops make it very slow on realistic sizes (it may time out).",
  "teacher_says": "Vectorise at least the loops over queries and keys with NumPy: each pair of heads is one array expression.",
  "code": '''
import math
import numpy as np

def head_js_divergence(weights):
    h, n_k = weights.shape[-3], weights.shape[-1]
    rows = np.moveaxis(weights, -3, 0).reshape(h, -1, n_k).tolist()
    n_rows = len(rows[0])
    js = np.zeros((h, h), dtype=weights.dtype)
    for a in range(h):
        for b in range(h):
            total = 0.0
            for r in range(n_rows):
                for j in range(n_k):
                    p, q = rows[a][r][j], rows[b][r][j]
                    m = (p + q) / 2
                    if p > 0:
                        total += 0.5 * p * math.log(p / m)
                    if q > 0:
                        total += 0.5 * q * math.log(q / m)
            js[a, b] = total / n_rows
    return js
'''},
 # ------------------------------------------------------------------ heads_per_feature
 {"exercise": "heads_per_feature", "kind": "correct",
  "idea": "variance written out: centre each head's table on its mean token, square, average (einsum)",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    h, d = c.shape[-3], c.shape[-1]
    flat = np.moveaxis(c, -3, 0).reshape(h, -1, d)           # (h, tokens, d)
    centred = flat - flat.mean(axis=1, keepdims=True)
    s = np.einsum("htd,htd->hd", centred, centred) / flat.shape[1]  # variances (h, d)
    return s.sum(axis=0) ** 2 / (s ** 2).sum(axis=0)
'''},
 {"exercise": "heads_per_feature", "kind": "correct",
  "idea": "a loop over heads with np.var, ddof=1 (the statement says the ratios do not change)",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    h, d = contributions.shape[-3], contributions.shape[-1]
    variances = []
    for a in range(h):
        table = np.take(contributions, a, axis=-3).reshape(-1, d).astype(np.float64)
        variances.append(np.var(table, axis=0, ddof=1))
    s = np.stack(variances)  # (h, d)
    return np.square(s.sum(axis=0)) / np.square(s).sum(axis=0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "Uses the mean square of each contribution (its second moment) instead of its variance, so a head that adds the same vector to every token still counts.",
  "teacher_says": "s_a is a variance: subtract the head's mean over the tokens before squaring, so that a constant offset does not count as writing to the feature.",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    h, d = contributions.shape[-3], contributions.shape[-1]
    flat = np.moveaxis(contributions, -3, 0).reshape(h, -1, d).astype(np.float64)
    s = (flat ** 2).mean(axis=1)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "Inverts the participation ratio: sum of squares over square of the sum (between 1/h and 1).",
  "teacher_says": "The count is (sum_a s_a)^2 / sum_a s_a^2, from 1 to h; you computed its inverse.",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    h, d = contributions.shape[-3], contributions.shape[-1]
    s = np.moveaxis(contributions, -3, 0).reshape(h, -1, d).var(axis=1).astype(np.float64)
    return (s ** 2).sum(0) / s.sum(0) ** 2
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "Reshapes to (h, -1, d_model) without bringing the heads axis to the front, mixing the batch into the heads.",
  "teacher_says": "With a batch axis first, reshape(h, -1, d) does not separate heads: use np.moveaxis(contributions, -3, 0) first.",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    h, d = contributions.shape[-3], contributions.shape[-1]
    s = contributions.reshape(h, -1, d).astype(np.float64).var(axis=1)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "Uses standard deviations instead of variances in the participation ratio.",
  "teacher_says": "s_a is the variance (np.var), not the standard deviation: with std the ratio weighs heads differently.",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    h, d = contributions.shape[-3], contributions.shape[-1]
    s = np.moveaxis(contributions, -3, 0).reshape(h, -1, d).astype(np.float64).std(axis=1)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "Takes the variance over the positions of each sequence separately and averages over the batch, leaving out the variance between sequences.",
  "teacher_says": "Every leading index and position is a token: pool all tokens into one axis and take one variance over all of them.",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    c = np.asarray(contributions, dtype=np.float64)
    s = c.var(axis=-2)                       # (..., h, d): over positions only
    s = s.reshape(-1, *s.shape[-2:]).mean(axis=0)  # (h, d): mean over sequences
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 {"exercise": "heads_per_feature", "kind": "wrong",
  "mistake": "Sums over the features instead of over the heads, returning one number per head of shape (h,).",
  "teacher_says": "The ratio counts heads for each feature: the sums run over the heads axis (axis 0 of the (h, d_model) variances).",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    h, d = contributions.shape[-3], contributions.shape[-1]
    s = np.moveaxis(contributions, -3, 0).reshape(h, -1, d).astype(np.float64).var(axis=1)
    return s.sum(1) ** 2 / (s ** 2).sum(1)
'''},
 {"exercise": "heads_per_feature", "kind": "robustness",
  "idea": "computes in the input's dtype",
  "mistake": "Right values to float32 precision, but a float32 input gives a float32 result; the statement asks for float64.",
  "teacher_says": "Convert to float64 before computing (or at the end): the statement asks for a float64 array.",
  "code": '''
import numpy as np

def heads_per_feature(contributions):
    h, d = contributions.shape[-3], contributions.shape[-1]
    s = np.moveaxis(contributions, -3, 0).reshape(h, -1, d).var(axis=1)
    return s.sum(0) ** 2 / (s ** 2).sum(0)
'''},
 # ------------------------------------------------------------------ head_ablation_scores
 {"exercise": "head_ablation_scores", "kind": "correct",
  "idea": "np.ndindex over (layer, head) with a fresh gate each time",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    full = np.ones((num_layers, num_heads))
    base = evaluate(full.copy())
    drops = np.zeros((num_layers, num_heads))
    for layer, head in np.ndindex(num_layers, num_heads):
        gate = full.copy()
        gate[layer, head] = 0.0
        drops[layer, head] = base - evaluate(gate)
    return drops
'''},
 {"exercise": "head_ablation_scores", "kind": "correct",
  "idea": "build all the one-head-removed gates at once from 1 - identity, then evaluate them in a list comprehension",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    total = num_layers * num_heads
    gates = (1.0 - np.eye(total)).reshape(total, num_layers, num_heads)
    base = float(evaluate(np.ones((num_layers, num_heads))))
    ablated = np.array([float(evaluate(g)) for g in gates])
    return (base - ablated).reshape(num_layers, num_heads)
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "Reuses one gate for all heads without resetting it, so the heads are removed cumulatively instead of one at a time.",
  "teacher_says": "Each head is removed ALONE: start every evaluation from a fresh gate of ones (copy it), with a single zero.",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    gate = np.ones((num_layers, num_heads))
    base = evaluate(gate.copy())
    drops = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate[layer, head] = 0.0
            drops[layer, head] = base - evaluate(gate.copy())
    return drops
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "Subtracts the other way round, ablated minus full: important heads get negative scores.",
  "teacher_says": "The importance is how much the score DROPS: base - evaluate(ablated), positive when the head helped.",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    drops = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[layer, head] = 0.0
            drops[layer, head] = evaluate(gate) - base
    return drops
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "Returns the score of each ablated model instead of the drop from the full model's score.",
  "teacher_says": "Compare with the full model: the importance is evaluate(all ones) minus the ablated score.",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[layer, head] = 0.0
            scores[layer, head] = evaluate(gate)
    return scores
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "Keeps only one head at a time (a gate of zeros with a single 1) instead of removing only one.",
  "teacher_says": "Removing a head alone means every OTHER head is in place: a gate of ones with a single 0.",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    drops = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.zeros((num_layers, num_heads))
            gate[layer, head] = 1.0
            drops[layer, head] = base - evaluate(gate)
    return drops
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "Divides the drop by the full model's score (a relative drop), which the exercise did not ask for.",
  "teacher_says": "Return the drop itself, base - ablated, in the score's own units.",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    drops = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[layer, head] = 0.0
            drops[layer, head] = (base - evaluate(gate)) / base
    return drops
'''},
 {"exercise": "head_ablation_scores", "kind": "wrong",
  "mistake": "Loops over heads from 1 (range(1, num_heads)), so head 0 of every layer is never ablated and keeps a score of 0.",
  "teacher_says": "Heads are numbered from 0: range(num_heads) covers every head.",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))
    drops = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(1, num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[layer, head] = 0.0
            drops[layer, head] = base - evaluate(gate)
    return drops
'''},
 {"exercise": "head_ablation_scores", "kind": "robustness",
  "idea": "nested list comprehension",
  "mistake": "Returns a nested Python list, not the float array the statement asks for.",
  "teacher_says": "Wrap the result in np.array(..., dtype=float) (or fill a NumPy array) so that it has a shape and a dtype.",
  "code": '''
import numpy as np

def head_ablation_scores(evaluate, num_layers, num_heads):
    base = evaluate(np.ones((num_layers, num_heads)))

    def without(layer, head):
        gate = np.ones((num_layers, num_heads))
        gate[layer, head] = 0.0
        return gate

    return [[base - evaluate(without(l, a)) for a in range(num_heads)] for l in range(num_layers)]
'''},
]
