ANSWERS = [
    # ------------------------------------------------------------------ attention_flops
    {"exercise": "attention_flops", "kind": "correct",
     "idea": "count each matrix product with a small helper 2*m*k*p and add them up",
     "code": '''
def attention_flops(batch, n, d_model):
    def matmul(m, k, p):
        return 2 * m * k * p  # m*p dot products of k terms, a multiply-add is 2
    projections = 4 * matmul(batch * n, d_model, d_model)  # W^Q, W^K, W^V, W^O
    scores = matmul(batch * n, d_model, n)  # Q K^T, all heads together
    weighted = matmul(batch * n, n, d_model)  # P V
    return projections + scores + weighted
'''},
    {"exercise": "attention_flops", "kind": "correct",
     "idea": "factorised closed form 4*B*n*d*(2d + n), forced to a Python int",
     "code": '''
def attention_flops(batch, n, d_model):
    return int(4 * batch * n * d_model * (2 * d_model + n))
'''},
    {"exercise": "attention_flops", "kind": "wrong",
     "mistake": "counts a multiply-add as one operation, so every term is half of what was asked",
     "teacher_says": "The exercise counts a multiply-add as 2 operations: an (m,k)x(k,p) product is 2*m*k*p FLOPs, not m*k*p.",
     "code": '''
def attention_flops(batch, n, d_model):
    projections = 4 * batch * n * d_model * d_model
    attention = 2 * batch * n * n * d_model
    return projections + attention
'''},
    {"exercise": "attention_flops", "kind": "wrong",
     "mistake": "counts only the three input projections Q, K, V and forgets the output projection W^O",
     "teacher_says": "There are four projections: W^Q, W^K, W^V and the output projection W^O, each 2*B*n*d_model^2.",
     "code": '''
def attention_flops(batch, n, d_model):
    qkv = 3 * 2 * batch * n * d_model * d_model
    qk = 2 * batch * n * n * d_model
    pv = 2 * batch * n * n * d_model
    return qkv + qk + pv
'''},
    {"exercise": "attention_flops", "kind": "wrong",
     "mistake": "swaps n and d_model in the two terms (projections written as n^2 d, attention as n d^2)",
     "teacher_says": "The projections multiply (n, d) by (d, d): 2 n d^2 each; the scores multiply (n, d) by (d, n): 2 n^2 d. Check which size is squared.",
     "code": '''
def attention_flops(batch, n, d_model):
    return 8 * batch * n**2 * d_model + 4 * batch * n * d_model**2
'''},
    {"exercise": "attention_flops", "kind": "wrong",
     "mistake": "multiplies the projections by the batch but forgets the batch in the QK^T and PV products",
     "teacher_says": "Every sequence of the batch has its own n x n scores: the attention term is 4*batch*n^2*d_model too.",
     "code": '''
def attention_flops(batch, n, d_model):
    projections = 8 * batch * n * d_model * d_model
    attention = 4 * n * n * d_model
    return projections + attention
'''},
    {"exercise": "attention_flops", "kind": "wrong",
     "mistake": "counts QK^T with the factor 2 but PV without it (a multiply-add counted as 1 in one of the two products)",
     "teacher_says": "Both QK^T and PV are products of the same size: 2*B*n^2*d_model each, 4*B*n^2*d_model together.",
     "code": '''
def attention_flops(batch, n, d_model):
    projections = 4 * (2 * batch * n * d_model * d_model)
    qk = 2 * batch * n * n * d_model
    pv = batch * n * n * d_model
    return projections + qk + pv
'''},
    {"exercise": "attention_flops", "kind": "wrong",
     "mistake": "adds the scaling of the scores (one division per score) although the exercise excludes the scaling and the softmax",
     "teacher_says": "Only the four projections and the two products are counted; leave out the 1/sqrt(d_k) scaling and the softmax.",
     "code": '''
def attention_flops(batch, n, d_model):
    flops = 8 * batch * n * d_model**2 + 4 * batch * n**2 * d_model
    flops += batch * n * n  # dividing every score by sqrt(d_k)
    return flops
'''},
    {"exercise": "attention_flops", "kind": "robustness",
     "idea": "the right value, but computed with floats and returned as a float",
     "mistake": "returns a float (via a float power), which the statement forbids: large counts lose exactness above 2**53",
     "teacher_says": "Keep the arithmetic in integers (no 2.0, no /, no math.pow) and return an int.",
     "code": '''
import math


def attention_flops(batch, n, d_model):
    return 8 * batch * n * math.pow(d_model, 2) + 4 * batch * math.pow(n, 2) * d_model
'''},
    # ------------------------------------------------------------------ longest_sequence
    {"exercise": "longest_sequence", "kind": "correct",
     "idea": "integer division then math.isqrt (exact on any size)",
     "code": '''
import math


def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per_square = batch * heads * bytes_per_number  # bytes for one unit of n^2
    return math.isqrt(memory_bytes // per_square)
'''},
    {"exercise": "longest_sequence", "kind": "correct",
     "idea": "binary search on n with exact integer comparisons",
     "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    def fits(n):
        return batch * heads * n * n * bytes_per_number <= memory_bytes

    lo, hi = 0, 1
    while fits(hi):
        hi *= 2
    # fits(lo) is True (n = 0 always fits), fits(hi) is False
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo
'''},
    {"exercise": "longest_sequence", "kind": "wrong",
     "mistake": "rounds the square root to the nearest integer instead of rounding it down",
     "teacher_says": "The largest n that fits is the floor of the square root; round() goes up half of the time and then the weights no longer fit.",
     "code": '''
import math


def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return round(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
    {"exercise": "longest_sequence", "kind": "wrong",
     "mistake": "forgets the batch: counts the weights of one sequence only",
     "teacher_says": "The weights have shape (batch, heads, n, n): multiply by the batch too before solving for n.",
     "code": '''
import math


def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (heads * bytes_per_number))
'''},
    {"exercise": "longest_sequence", "kind": "wrong",
     "mistake": "treats the weights as linear in n (batch*heads*n*bytes) and never takes the square root",
     "teacher_says": "Each head holds an n x n matrix: the memory grows as n^2, so n is a square root of the budget.",
     "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return memory_bytes // (batch * heads * bytes_per_number)
'''},
    {"exercise": "longest_sequence", "kind": "wrong",
     "mistake": "takes the square root of the memory first and then divides by batch*heads*bytes (the square root applied to the wrong quantity)",
     "teacher_says": "Solve batch*heads*bytes*n^2 <= memory: divide first, then take the square root of the quotient.",
     "code": '''
import math


def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes) // (batch * heads * bytes_per_number)
'''},
    {"exercise": "longest_sequence", "kind": "wrong",
     "mistake": "off by one: corrects the float estimate by stepping up while n fits, and returns the first n that does NOT fit",
     "teacher_says": "Your loop exits when n no longer fits; the answer is the n before it (n - 1).",
     "code": '''
import math


def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per_square = batch * heads * bytes_per_number
    n = int(math.sqrt(memory_bytes / per_square))  # a first estimate
    while per_square * n * n <= memory_bytes:  # make sure it is exact
        n += 1
    return n
'''},
    {"exercise": "longest_sequence", "kind": "robustness",
     "idea": "exact but counts n up one at a time in a Python loop",
     "mistake": "a linear search: millions of iterations for a large memory, far too slow for big budgets",
     "teacher_says": "Correct, but the loop runs n times; use math.isqrt of memory // (batch*heads*bytes), which is instantaneous.",
     "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    n = 0
    while batch * heads * (n + 1) * (n + 1) * bytes_per_number <= memory_bytes:
        n += 1
    return n
'''},
    # ------------------------------------------------------------------ key_block_size
    {"exercise": "key_block_size", "kind": "correct",
     "idea": "successive floor divisions, then explicit if/elif clamping",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    numbers = budget_bytes // bytes_per_number  # how many numbers the budget holds
    block = numbers // (batch * heads * n_q)  # whole columns of scores
    if block < 1:
        block = 1
    elif block > n_k:
        block = n_k
    return int(block)
'''},
    {"exercise": "key_block_size", "kind": "correct",
     "idea": "sorted() of the three candidates picks the middle one (a clamp without min/max)",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    column_bytes = batch * heads * n_q * bytes_per_number
    fitting = budget_bytes // column_bytes
    return int(sorted([1, fitting, n_k])[1])
'''},
    {"exercise": "key_block_size", "kind": "wrong",
     "mistake": "no lower clamp: returns 0 when one column of scores is already larger than the budget",
     "teacher_says": "The loop must advance: return at least 1 key per block even when the budget is too small.",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = budget_bytes // (batch * heads * n_q * bytes_per_number)
    return min(block, n_k)
'''},
    {"exercise": "key_block_size", "kind": "wrong",
     "mistake": "no upper clamp: returns more keys per block than there are keys",
     "teacher_says": "A block cannot hold more than n_k keys: cap the result at n_k.",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = budget_bytes // (batch * heads * n_q * bytes_per_number)
    return max(1, block)
'''},
    {"exercise": "key_block_size", "kind": "wrong",
     "mistake": "sizes one column of scores with n_k instead of n_q (queries and keys mixed up)",
     "teacher_says": "One more key adds one score per query: a column is batch*heads*n_q numbers, not batch*heads*n_k.",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = budget_bytes // (batch * heads * n_k * bytes_per_number)
    return max(1, min(n_k, block))
'''},
    {"exercise": "key_block_size", "kind": "wrong",
     "mistake": "rounds up (ceiling division), so a block can exceed the budget",
     "teacher_says": "The block must take *at most* budget_bytes: round the number of columns down, not up.",
     "code": '''
import math


def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = math.ceil(budget_bytes / (batch * heads * n_q * bytes_per_number))
    return max(1, min(n_k, block))
'''},
    {"exercise": "key_block_size", "kind": "wrong",
     "mistake": "divides the budget by the number of scores and forgets the bytes per number",
     "teacher_says": "The budget is in bytes: one column takes batch*heads*n_q*bytes_per_number bytes.",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = budget_bytes // (batch * heads * n_q)
    return max(1, min(n_k, block))
'''},
    {"exercise": "key_block_size", "kind": "wrong",
     "mistake": "forgets the heads: a column of scores is counted for one head only",
     "teacher_says": "The block of scores has shape (batch, heads, n_q, block): every head has its own column.",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    per_key = batch * n_q * bytes_per_number
    return max(1, min(n_k, budget_bytes // per_key))
'''},
    {"exercise": "key_block_size", "kind": "robustness",
     "idea": "right value, but computed with true division and returned as a float",
     "mistake": "returns a float such as 64.0 instead of an int",
     "teacher_says": "Use integer floor division // and return an int: a block size is a whole number of keys.",
     "code": '''
import math


def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = math.floor(budget_bytes / (batch * heads * n_q * bytes_per_number)) * 1.0
    return max(1.0, min(float(n_k), block))
'''},
    # ------------------------------------------------------------------ attention_weights_bytes
    {"exercise": "attention_weights_bytes", "kind": "correct",
     "idea": "named sizes multiplied out",
     "code": '''
B, h, n, bytes_fp16 = 4, 16, 8192, 2
attention_weights_bytes = B * h * n * n * bytes_fp16
'''},
    {"exercise": "attention_weights_bytes", "kind": "correct",
     "idea": "math.prod of the weights' shape times NumPy's itemsize of float16",
     "code": '''
import math

import numpy as np

attention_weights_bytes = math.prod((4, 16, 8192, 8192)) * np.dtype(np.float16).itemsize
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong",
     "mistake": "uses 4 bytes per number (float32) although the weights are float16",
     "teacher_says": "float16 is 2 bytes per number, not 4.",
     "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 4
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong",
     "mistake": "forgets the batch of 4 sequences",
     "teacher_says": "Each of the B = 4 sequences has its own weights: multiply by the batch.",
     "code": '''
heads, n = 16, 8192
attention_weights_bytes = heads * n**2 * 2
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong",
     "mistake": "counts one weight per token and head (n) instead of one per query-key pair (n^2)",
     "teacher_says": "Each head holds an (n, n) matrix: n^2 numbers per sequence and head.",
     "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 2
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong",
     "mistake": "answers in GB (divides by 10**9) instead of bytes",
     "teacher_says": "The question asks for bytes, as an int; do not convert to GB.",
     "code": '''
attention_weights_bytes = 4 * 16 * 8192**2 * 2 // 10**9
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong",
     "mistake": "counts bits (16 per float16) instead of bytes",
     "teacher_says": "float16 has 16 bits, which is 2 bytes: multiply by 2, not 16.",
     "code": '''
bits_per_number = 16
attention_weights_bytes = 4 * 16 * 8192 * 8192 * bits_per_number
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong",
     "mistake": "forgets the 16 heads: one (n, n) matrix per sequence",
     "teacher_says": "There is one (n, n) matrix per sequence *and per head*: multiply by h = 16.",
     "code": '''
attention_weights_bytes = 4 * 8192 * 8192 * 2
'''},
    {"exercise": "attention_weights_bytes", "kind": "robustness",
     "idea": "the right number of bytes, written in scientific notation",
     "mistake": "assigns a float (4.294967296e9) instead of an int",
     "teacher_says": "Assign an int: write the product of integers, not a float literal.",
     "code": '''
attention_weights_bytes = 4.294967296e9
'''},
]
