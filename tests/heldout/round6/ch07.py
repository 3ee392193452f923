ANSWERS = [
 # ------------------------------------------------------------------ attention_flops
 {"exercise": "attention_flops", "kind": "correct",
  "idea": "counts each matrix product with a small helper (2*m*k*p) and adds them up per sequence",
  "code": '''
def attention_flops(batch, n, d_model):
    def matmul(m, k, p):
        return 2 * m * k * p  # m*p dot products of k terms, a multiply-add is 2

    per_sequence = 0
    for _ in range(4):  # W^Q, W^K, W^V, W^O
        per_sequence += matmul(n, d_model, d_model)
    per_sequence += matmul(n, d_model, n)  # Q K^T, all heads together
    per_sequence += matmul(n, n, d_model)  # P V
    return batch * per_sequence
'''},
 {"exercise": "attention_flops", "kind": "correct",
  "idea": "factorised closed form 4*B*n*d*(2d + n), forced to a Python int",
  "code": '''
def attention_flops(batch, n, d_model):
    b, n, d = int(batch), int(n), int(d_model)
    return 4 * b * n * d * (2 * d + n)
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "counts a multiply-add as one operation, so every term is half the requested count",
  "teacher_says": "The exercise counts a multiply-add as 2 FLOPs: an (m, k) x (k, p) product costs 2*m*k*p, not m*k*p.",
  "code": '''
def attention_flops(batch, n, d_model):
    projections = 4 * batch * n * d_model * d_model
    attention = 2 * batch * n * n * d_model
    return projections + attention
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "counts only the three input projections and forgets the output projection W^O",
  "teacher_says": "There are four projections: W^Q, W^K, W^V and also W^O after the heads are concatenated; that is 8*B*n*d^2, not 6*B*n*d^2.",
  "code": '''
def attention_flops(batch, n, d_model):
    qkv = 3 * 2 * batch * n * d_model ** 2
    scores_and_values = 2 * 2 * batch * n ** 2 * d_model
    return qkv + scores_and_values
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "swaps the roles of n and d_model: the projections are written as growing with n^2 and the attention with d^2",
  "teacher_says": "The projections multiply (n, d) by (d, d): 2*n*d^2 each. Q K^T is (n, d) by (d, n): 2*n^2*d. Check which size is squared in each term.",
  "code": '''
def attention_flops(batch, n, d_model):
    return 8 * batch * n ** 2 * d_model + 4 * batch * n * d_model ** 2
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "multiplies only the projection term by the batch size; the attention products are counted for one sequence",
  "teacher_says": "Every sequence of the batch has its own Q K^T and P V, so the attention term is 4*B*n^2*d, with the batch too.",
  "code": '''
def attention_flops(batch, n, d_model):
    projections = batch * 8 * n * d_model ** 2
    attention = 4 * n ** 2 * d_model
    return projections + attention
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "counts Q K^T but forgets the second product P V",
  "teacher_says": "Two products of size n x n x d happen per sequence: the scores Q K^T and the weighted sum P V; together 4*B*n^2*d.",
  "code": '''
def attention_flops(batch, n, d_model):
    proj = 4 * (2 * batch * n * d_model * d_model)
    scores = 2 * batch * n * n * d_model  # Q @ K.T
    return proj + scores
'''},
 {"exercise": "attention_flops", "kind": "robustness",
  "idea": "right value, computed with math.pow, so it comes back as a float",
  "mistake": "returns a float (e.g. 1.2e9) instead of an int; large counts lose exactness",
  "teacher_says": "Keep the arithmetic in integers (use ** or *, not math.pow or /) and return an int.",
  "code": '''
import math


def attention_flops(batch, n, d_model):
    return 8 * batch * n * math.pow(d_model, 2) + 4 * batch * math.pow(n, 2) * d_model
'''},
 # ------------------------------------------------------------------ longest_sequence
 {"exercise": "longest_sequence", "kind": "correct",
  "idea": "float square root as a first guess, then corrected up and down with exact integer tests",
  "code": '''
import math


def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per_square = batch * heads * bytes_per_number
    n = int(math.sqrt(memory_bytes / per_square))
    while (n + 1) * (n + 1) * per_square <= memory_bytes:
        n += 1
    while n > 0 and n * n * per_square > memory_bytes:
        n -= 1
    return n
'''},
 {"exercise": "longest_sequence", "kind": "correct",
  "idea": "binary search on n with integer arithmetic only",
  "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    def fits(n):
        return batch * heads * n * n * bytes_per_number <= memory_bytes

    lo, hi = 0, 1
    while fits(hi):
        hi *= 2
    # fits(lo) is True, fits(hi) is False
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "counts both the scores and the weights (two arrays of that shape) although the question is about the weights alone",
  "teacher_says": "Read the statement again: only one (batch, heads, n, n) array of weights must fit, not two.",
  "code": '''
import math


def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    arrays = 2  # scores and weights
    return math.isqrt(memory_bytes // (arrays * batch * heads * bytes_per_number))
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "forgets the bytes per number: counts how many numbers fit, not how many bytes",
  "teacher_says": "Each weight takes bytes_per_number bytes; the memory of the weights is batch*heads*n^2*bytes_per_number.",
  "code": '''
import math


def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (batch * heads))
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "treats the memory as linear in n (one row per token), forgetting that the weights are n x n",
  "teacher_says": "The weights are (batch, heads, n, n): memory grows with n^2, so take a square root.",
  "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return memory_bytes // (batch * heads * bytes_per_number)
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "leaves the batch out of the memory of the weights",
  "teacher_says": "Every sequence of the batch has its own (heads, n, n) weights: multiply by batch too.",
  "code": '''
import math


def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per_token_pair = heads * bytes_per_number
    return math.isqrt(memory_bytes // per_token_pair)
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "rounds the square root up (ceil) so that the whole memory is used, which returns an n that no longer fits unless the quotient is a perfect square",
  "teacher_says": "The largest n that FITS is the square root rounded down; rounding up overshoots the memory.",
  "code": '''
import math


def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    numbers = memory_bytes / (batch * heads * bytes_per_number)
    return math.ceil(math.sqrt(numbers))
'''},
 {"exercise": "longest_sequence", "kind": "robustness",
  "idea": "correct linear search that counts n up one by one",
  "mistake": "correct values but extremely slow for large memories (hundreds of millions of iterations for a GPU-sized budget)",
  "teacher_says": "Solve the inequality directly with math.isqrt instead of trying every n.",
  "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    n = 0
    while batch * heads * (n + 1) * (n + 1) * bytes_per_number <= memory_bytes:
        n += 1
    return n
'''},
 # ------------------------------------------------------------------ key_block_size
 {"exercise": "key_block_size", "kind": "correct",
  "idea": "np.clip of the integer quotient, converted back to a Python int",
  "code": '''
import numpy as np


def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    column = batch * heads * n_q * bytes_per_number  # bytes of one key's scores
    return int(np.clip(budget_bytes // column, 1, n_k))
'''},
 {"exercise": "key_block_size", "kind": "correct",
  "idea": "explicit if/else clamping with divmod",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    per_key = batch * heads * n_q * bytes_per_number
    keys, _ = divmod(budget_bytes, per_key)
    if keys < 1:
        return 1
    if keys > n_k:
        return int(n_k)
    return int(keys)
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "forgets the lower bound: returns 0 when one key's column of scores is already larger than the budget",
  "teacher_says": "A block of 0 keys never advances the loop; the statement asks for at least 1.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = budget_bytes // (batch * heads * n_q * bytes_per_number)
    return min(block, n_k)
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "forgets the upper bound: returns blocks longer than the number of keys when the budget is large",
  "teacher_says": "A block cannot hold more keys than there are; cap it at n_k.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = budget_bytes // (batch * heads * n_q * bytes_per_number)
    return max(1, block)
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "uses the number of keys instead of the number of queries in the size of one column of scores",
  "teacher_says": "A block of scores is (batch, heads, n_q, block): each extra key adds batch*heads*n_q numbers, not batch*heads*n_k.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    per_key = batch * heads * n_k * bytes_per_number
    return max(1, min(n_k, budget_bytes // per_key))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "rounds the number of keys up (ceiling division), so the block can exceed the budget",
  "teacher_says": "The block must take at most budget_bytes: round the quotient down (//), not up.",
  "code": '''
import math


def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    per_key = batch * heads * n_q * bytes_per_number
    block = math.ceil(budget_bytes / per_key)
    return max(1, min(n_k, block))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "counts numbers instead of bytes: forgets to multiply by bytes_per_number",
  "teacher_says": "The budget is in bytes; one score takes bytes_per_number bytes.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    numbers_per_key = batch * heads * n_q
    return max(1, min(n_k, budget_bytes // numbers_per_key))
'''},
 {"exercise": "key_block_size", "kind": "robustness",
  "idea": "right clamping, but the quotient is taken with np.floor of a true division",
  "mistake": "returns a NumPy float (e.g. 37.0) whenever the budget is the binding limit, instead of an int",
  "teacher_says": "Use integer division (//) and return an int; np.floor gives a float.",
  "code": '''
import numpy as np


def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    per_key = batch * heads * n_q * bytes_per_number
    return max(1, min(n_k, np.floor(budget_bytes / per_key)))
'''},
 # ------------------------------------------------------------------ attention_weights_bytes
 {"exercise": "attention_weights_bytes", "kind": "correct",
  "idea": "the count written as a power of two, worked out by hand",
  "code": '''
# 4 = 2^2, 16 = 2^4, 8192^2 = 2^26, 2 bytes = 2^1
attention_weights_bytes = 2 ** (2 + 4 + 26 + 1)
'''},
 {"exercise": "attention_weights_bytes", "kind": "correct",
  "idea": "np.prod over the shape, converted to a Python int",
  "code": '''
import numpy as np

shape = (4, 16, 8192, 8192)  # (B, h, n, n)
attention_weights_bytes = int(np.prod(shape, dtype=np.int64)) * 2
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "uses 4 bytes per number (float32) although the weights are float16",
  "teacher_says": "float16 is 2 bytes per number; the statement gives it.",
  "code": '''
B, h, n = 4, 16, 8192
attention_weights_bytes = B * h * n * n * 4
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "forgets the batch of 4 sequences",
  "teacher_says": "There is one (n, n) matrix per sequence AND per head: multiply by B = 4 too.",
  "code": '''
h, n, bytes_per_number = 16, 8192, 2
attention_weights_bytes = h * n * n * bytes_per_number
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "forgets the heads: counts one (n, n) matrix per sequence",
  "teacher_says": "Each of the 16 heads has its own weights: multiply by h.",
  "code": '''
B, n = 4, 8192
attention_weights_bytes = B * n * n * 2
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "counts n numbers per head instead of n^2 (one weight per query, not per query-key pair)",
  "teacher_says": "The weights of one head are an (n, n) matrix: one weight for every query and every key.",
  "code": '''
B, h, n = 4, 16, 8192
attention_weights_bytes = B * h * n * 2
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "gives the answer in GB (10^9 bytes) instead of bytes",
  "teacher_says": "The question asks for bytes; do not divide by 1e9.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 2 / 1e9  # about 8.6 GB
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "multiplies by 16 (the bits of a float16) instead of 2 bytes",
  "teacher_says": "float16 has 16 bits, which is 2 bytes: the count is in bytes.",
  "code": '''
B, h, n = 4, 16, 8192
float16_size = 16
attention_weights_bytes = B * h * n ** 2 * float16_size
'''},
 {"exercise": "attention_weights_bytes", "kind": "robustness",
  "idea": "right value written with a float factor",
  "mistake": "assigns a float (8589934592.0) instead of an int",
  "teacher_says": "Use integer factors only: 2 bytes, not 2.0.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192 ** 2 * 2.0
'''},
]
