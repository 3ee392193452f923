# writer C's answers, then writer G's (each file verbatim)
ANSWERS = [
 # ---------------------------------------------------------------- attention_flops
 {"exercise": "attention_flops", "kind": "correct",
  "idea": "count each matrix product with a small helper 2*m*k*p and add the six products",
  "code": '''
def attention_flops(batch, n, d_model):
    def matmul(m, k, p):
        return 2 * m * k * p  # m*p dot products of k terms, a multiply-add = 2
    rows = batch * n
    projections = 4 * matmul(rows, d_model, d_model)      # Q, K, V and the output
    scores = batch * matmul(n, d_model, n)                 # Q K^T, all heads together
    mixing = batch * matmul(n, n, d_model)                 # P V
    return int(projections + scores + mixing)
'''},
 {"exercise": "attention_flops", "kind": "robustness",
  "idea": "accumulates the count in a Python loop over sequences and tokens, one token at a time",
  "code": '''
def attention_flops(batch, n, d_model):
    total = 0
    for _ in range(batch):
        for _ in range(n):
            total += 4 * 2 * d_model * d_model   # this token's row of the four projections
            total += 2 * n * d_model             # its row of Q K^T
            total += 2 * n * d_model             # its row of P V
    return total
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Counts a multiply-add as one operation, so every term is half of what it should be.",
  "teacher_says": "The statement counts a multiply-add as 2 operations: an (m,k)x(k,p) product is 2mkp FLOPs.",
  "code": '''
def attention_flops(batch, n, d_model):
    projections = 4 * batch * n * d_model * d_model
    attention = 2 * batch * n * n * d_model
    return projections + attention
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Counts Q K^T but forgets the second product P V, so the n^2 term is only 2 B n^2 d.",
  "teacher_says": "Attention has two n-by-n products, the scores Q K^T and the weighted sum P V: count both.",
  "code": '''
def attention_flops(batch, n, d_model):
    projections = 4 * 2 * batch * n * d_model ** 2
    scores = 2 * batch * n ** 2 * d_model   # Q K^T
    return projections + scores
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Uses math.pow for the squares, which returns a float, so the result is a float (and rounds large counts).",
  "teacher_says": "math.pow always gives a float; use ** on ints so the count stays an exact integer.",
  "code": '''
import math

def attention_flops(batch, n, d_model):
    return 8 * batch * n * math.pow(d_model, 2) + 4 * batch * math.pow(n, 2) * d_model
'''},
 # ---------------------------------------------------------------- longest_sequence
 {"exercise": "longest_sequence", "kind": "correct",
  "idea": "integer floor division by the bytes per n^2, then the exact integer square root",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per_square = batch * heads * bytes_per_number   # bytes for each unit of n^2
    return int(math.isqrt(memory_bytes // per_square))
'''},
 {"exercise": "longest_sequence", "kind": "robustness",
  "idea": "bisection on n in a Python loop, with only integer arithmetic",
  "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    def fits(n):
        return batch * heads * n * n * bytes_per_number <= memory_bytes
    lo, hi = 0, 1
    while fits(hi):
        hi *= 2
    while hi - lo > 1:            # fits(lo) is True, fits(hi) is False
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Takes a floating-point square root of the quotient, which is off by one for large memories (k^2 - 1 bytes rounds up to k^2).",
  "teacher_says": "Floats have 53 bits of mantissa: use math.isqrt on the integer quotient instead of math.sqrt.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return int(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Forgets the batch: sizes the weights of one sequence, (heads, n, n), so n comes out too large whenever batch > 1.",
  "teacher_says": "The weights are (batch, heads, n, n): every sequence of the batch has its own n-by-n maps.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (heads * bytes_per_number))
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Keeps the result at least 1 (a clamp copied from the block-size exercise), so it returns 1 when not even n = 1 fits.",
  "teacher_says": "The statement asks for 0 when one weight per head and sequence does not fit; do not clamp to 1 here.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    n = math.isqrt(memory_bytes // (batch * heads * bytes_per_number))
    return max(1, n)
'''},
 # ---------------------------------------------------------------- key_block_size
 {"exercise": "key_block_size", "kind": "correct",
  "idea": "bytes per key column, floor-divide the budget, clamp with sorted() middle value",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    column = batch * heads * n_q * bytes_per_number   # one more key costs this much
    keys = budget_bytes // column
    return int(sorted((1, keys, n_k))[1])   # the middle value: clamp to [1, n_k]
'''},
 {"exercise": "key_block_size", "kind": "robustness",
  "idea": "counts down from n_k one key at a time until the block fits, slow but right",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = n_k
    while block > 1 and batch * heads * n_q * block * bytes_per_number > budget_bytes:
        block -= 1
    return int(block)
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Clamps below at 1 but forgets the upper limit n_k, so a large budget gives a block longer than the keys.",
  "teacher_says": "A block cannot hold more keys than there are: take min(..., n_k) as well.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, budget_bytes // (batch * heads * n_q * bytes_per_number))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Clamps to n_k but forgets the lower limit 1, so a tiny budget gives a block of 0 keys and the loop never advances.",
  "teacher_says": "The block must hold at least one key even when one column exceeds the budget: take max(1, ...).",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return min(n_k, budget_bytes // (batch * heads * n_q * bytes_per_number))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Sizes one key's column with n_k instead of n_q (confuses the two lengths), which is wrong for cross-attention.",
  "teacher_says": "A block of scores is (batch, heads, n_q, block): each key adds one column of n_q scores.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    column = batch * heads * n_k * bytes_per_number
    return max(1, min(n_k, budget_bytes // column))
'''},
 # ---------------------------------------------------------------- attention_weights_bytes
 {"exercise": "attention_weights_bytes", "kind": "correct",
  "idea": "B * h * n^2 * 2 written out as a product of the sizes",
  "code": '''
B, h, n, bytes_fp16 = 4, 16, 8192, 2
attention_weights_bytes = B * h * n * n * bytes_fp16   # 8 GiB: fits on a 16 GB T4
'''},
 {"exercise": "attention_weights_bytes", "kind": "robustness",
  "idea": "counts bits with numpy int64 then converts to bytes and to a Python int",
  "code": '''
import numpy as np

bits = np.prod(np.array([4, 16, 8192, 8192], dtype=np.int64)) * 16
attention_weights_bytes = int(bits // 8)
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Uses 4 bytes per number (float32) although the weights are float16.",
  "teacher_says": "float16 takes 2 bytes per number, not 4.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 4
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Forgets the batch of 4 sequences and counts one sequence's weights only.",
  "teacher_says": "Each of the B = 4 sequences has its own (h, n, n) weights.",
  "code": '''
attention_weights_bytes = 16 * 8192 * 8192 * 2
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Converts to gigabytes at the end, so assigns 8.59 (a float in GB) instead of a number of bytes.",
  "teacher_says": "The question asks for bytes as an int; keep the unit the statement asks for.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 2 / 1e9
'''},
]

_WRITER_C = ANSWERS

"""Writer G, chapter 07 (Attention on the GPU): student answers."""

ANSWERS = [
    # ------------------------------------------------------------------ attention_flops
    {"exercise": "attention_flops", "kind": "correct",
     "idea": "count each matrix product as 2*m*k*p with a small helper, all in Python ints",
     "code": '''
def attention_flops(batch, n, d_model):
    def matmul(m, k, p):  # (m, k) @ (k, p): m*p dot products of k multiply-adds
        return 2 * m * k * p

    rows = batch * n
    projections = 4 * matmul(rows, d_model, d_model)  # W^Q, W^K, W^V, W^O
    scores = batch * matmul(n, d_model, n)  # Q K^T, all heads together are d_model wide
    mixing = batch * matmul(n, n, d_model)  # P V
    return int(projections + scores + mixing)
'''},
    {"exercise": "attention_flops", "kind": "robustness",
     "idea": "lists the six products and adds them up sequence by sequence in nested Python loops",
     "code": '''
def attention_flops(batch, n, d_model):
    # every product as (rows, inner, cols); one multiply-add = 2 FLOPs
    products = [
        (n, d_model, d_model),  # Q = X W^Q
        (n, d_model, d_model),  # K = X W^K
        (n, d_model, d_model),  # V = X W^V
        (n, d_model, n),        # Q K^T, the heads side by side are d_model wide
        (n, n, d_model),        # P V
        (n, d_model, d_model),  # concat(heads) W^O
    ]
    total = 0
    for _sequence in range(batch):
        for rows, inner, cols in products:
            total += 2 * rows * inner * cols
    return total
'''},
    {"exercise": "attention_flops", "kind": "wrong",
     "mistake": "Counts a multiply-add as one operation, so every term is half of what was asked.",
     "teacher_says": "The statement counts a multiply-add as 2 operations: an (m, k) x (k, p) product is 2*m*k*p FLOPs.",
     "code": '''
def attention_flops(batch, n, d_model):
    return 4 * batch * n * d_model * d_model + 2 * batch * n * n * d_model
'''},
    {"exercise": "attention_flops", "kind": "wrong",
     "mistake": "Counts only the three input projections Q, K, V and forgets the output projection W^O.",
     "teacher_says": "There are four projections: after the heads are concatenated, W^O is one more (n, d_model) x (d_model, d_model) product.",
     "code": '''
def attention_flops(batch, n, d_model):
    projections = 3 * 2 * batch * n * d_model * d_model
    attention = 2 * (2 * batch * n * n * d_model)
    return projections + attention
'''},
    {"exercise": "attention_flops", "kind": "wrong",
     "mistake": "Gets the size of PV wrong: treats it as an (n, d) x (d, d) product, costing 2*n*d^2, instead of (n, n) x (n, d), costing 2*n^2*d.",
     "teacher_says": "P is (n, n) and V is (n, d_model): the product computes n*d_model dot products of n terms, so it grows like n^2 just as QK^T does.",
     "code": '''
def attention_flops(batch, n, d_model):
    projections = 8 * batch * n * d_model**2
    qk = 2 * batch * n * n * d_model
    pv = 2 * batch * n * d_model * d_model
    return projections + qk + pv
'''},
    # ------------------------------------------------------------------ longest_sequence
    {"exercise": "longest_sequence", "kind": "correct",
     "idea": "bisection on whole n with an exact integer test of the memory",
     "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per_entry = batch * heads * bytes_per_number

    def fits(n):
        return per_entry * n * n <= memory_bytes

    lo, hi = 0, 1
    while fits(hi):
        hi *= 2
    while hi - lo > 1:  # fits(lo) and not fits(hi)
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo
'''},
    {"exercise": "longest_sequence", "kind": "robustness",
     "idea": "takes a float square root and then repairs it with integer while-loops",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    c = batch * heads * bytes_per_number
    n = int(math.sqrt(memory_bytes / c))
    while n > 0 and c * n * n > memory_bytes:
        n -= 1
    while c * (n + 1) * (n + 1) <= memory_bytes:
        n += 1
    return int(n)
'''},
    {"exercise": "longest_sequence", "kind": "wrong",
     "mistake": "Solves with a floating-point square root of the quotient and truncates: for large memories the float rounds up and the answer is one too large.",
     "teacher_says": "Floats carry 53 bits: when memory/(batch*heads*bytes) is just below a perfect square the float sqrt lands on it; use math.isqrt on the integer quotient.",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return int(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
    {"exercise": "longest_sequence", "kind": "wrong",
     "mistake": "Forgets the batch: sizes the weights of one sequence, (heads, n, n), as if batch were 1.",
     "teacher_says": "The weights are (batch, heads, n, n): every sequence of the batch has its own heads*n^2 numbers.",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (heads * bytes_per_number))
'''},
    {"exercise": "longest_sequence", "kind": "wrong",
     "mistake": "Takes the square root of the memory first and divides afterwards, i.e. solves n <= sqrt(memory) / (batch*heads*bytes).",
     "teacher_says": "Only n is squared: divide the memory by batch*heads*bytes first, then take the square root of the quotient.",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes) // (batch * heads * bytes_per_number)
'''},
    {"exercise": "longest_sequence", "kind": "wrong",
     "mistake": "Clamps the result to at least 1 (as for a block size), so it returns 1 when not even n = 1 fits.",
     "teacher_says": "The statement asks for 0 when a single 1x1 score per head does not fit; do not force a minimum here.",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    n = math.isqrt(memory_bytes // (batch * heads * bytes_per_number))
    return max(1, n)
'''},
    # ------------------------------------------------------------------ key_block_size
    {"exercise": "key_block_size", "kind": "correct",
     "idea": "bytes of one key column, integer division, then the median of (1, block, n_k) as the clamp",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    column = batch * heads * n_q * bytes_per_number  # one more key adds this many bytes
    block = budget_bytes // column
    return int(sorted((1, block, n_k))[1])
'''},
    {"exercise": "key_block_size", "kind": "robustness",
     "idea": "grows the block one key at a time while the next one still fits, up to n_k",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = 1
    while block < n_k and batch * heads * n_q * (block + 1) * bytes_per_number <= budget_bytes:
        block += 1
    return block
'''},
    {"exercise": "key_block_size", "kind": "wrong",
     "mistake": "Sizes one key's column of scores with n_k instead of n_q (confuses the two sequence lengths).",
     "teacher_says": "A block of scores is (batch, heads, n_q, block): each key adds one column of n_q scores per head, whatever n_k is.",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = budget_bytes // (batch * heads * n_k * bytes_per_number)
    return int(min(max(block, 1), n_k))
'''},
    {"exercise": "key_block_size", "kind": "wrong",
     "mistake": "Keeps the block at least 1 but forgets the upper bound: with a large budget it returns more keys than there are.",
     "teacher_says": "A block can never hold more than the n_k keys there are: clamp to n_k as well.",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, budget_bytes // (batch * heads * n_q * bytes_per_number))
'''},
    {"exercise": "key_block_size", "kind": "wrong",
     "mistake": "Forgets the lower bound: when even one key's column exceeds the budget it returns 0 and the tiling loop would never advance.",
     "teacher_says": "The statement requires at least 1 key per block, even if that block is over budget.",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return min(n_k, budget_bytes // (batch * heads * n_q * bytes_per_number))
'''},
    {"exercise": "key_block_size", "kind": "wrong",
     "mistake": "Rounds the number of keys up (ceiling division), so the block can take more bytes than the budget.",
     "teacher_says": "The largest block that fits is the floor of budget / column bytes; rounding up overshoots the budget.",
     "code": '''
import math

def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = math.ceil(budget_bytes / (batch * heads * n_q * bytes_per_number))
    return int(min(max(block, 1), n_k))
'''},
    # ------------------------------------------------------------------ attention_weights_bytes
    {"exercise": "attention_weights_bytes", "kind": "correct",
     "idea": "B * h * n^2 numbers of 2 bytes, written as a product of the sizes",
     "code": '''
B, h, n, bytes_fp16 = 4, 16, 8192, 2
attention_weights_bytes = B * h * n * n * bytes_fp16  # 8_589_934_592: 8.6 GB, fits a 16 GB T4
'''},
    {"exercise": "attention_weights_bytes", "kind": "robustness",
     "idea": "multiplies the shape with NumPy and the itemsize of float16, in int64, converted with int()",
     "code": '''
import numpy as np

shape = (4, 16, 8192, 8192)  # (B, h, n, n)
attention_weights_bytes = int(np.prod(np.array(shape, dtype=np.int64)) * np.dtype(np.float16).itemsize)
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong",
     "mistake": "Uses 4 bytes per number, as for float32, although the weights are float16.",
     "teacher_says": "float16 is 2 bytes per number; the statement says so explicitly.",
     "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 4
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong",
     "mistake": "Counts one (n, n) matrix per head but forgets the batch of 4 sequences.",
     "teacher_says": "Every sequence of the batch has its own h matrices of n x n weights: multiply by B = 4.",
     "code": '''
attention_weights_bytes = 16 * 8192 * 8192 * 2
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong",
     "mistake": "Gives the answer in GiB (a float) instead of bytes.",
     "teacher_says": "The question asks for the number of bytes as an int; convert to GB only when comparing with the T4.",
     "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 2 / 2**30
'''},
]

_WRITER_G = ANSWERS
ANSWERS = _WRITER_C + _WRITER_G
