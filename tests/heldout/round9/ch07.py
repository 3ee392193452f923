# writer C's answers, then writer G's (each file verbatim)
ANSWERS = [
 # ---------------------------------------------------------------- attention_flops
 {"exercise": "attention_flops", "kind": "correct",
  "idea": "factor the two terms: 2*B*n*d*(4d + 2n) = 8Bnd^2 + 4Bn^2d, all in Python ints",
  "code": '''
def attention_flops(batch, n, d_model):
    # four (n, d) x (d, d) projections and two (n, n, d)-sized products, 2 flops per multiply-add
    return 2 * batch * n * d_model * (4 * d_model + 2 * n)
'''},
 {"exercise": "attention_flops", "kind": "robustness",
  "idea": "counts each of the six products separately in a loop with a helper, returns a NumPy int64",
  "code": '''
import numpy as np

def attention_flops(batch, n, d_model):
    def matmul(m, k, p):
        return np.int64(2) * np.int64(m) * np.int64(k) * np.int64(p)
    total = np.int64(0)
    for _ in range(4):  # W^Q, W^K, W^V, W^O
        total += matmul(batch * n, d_model, d_model)
    total += matmul(batch * n, d_model, n)   # Q K^T (all heads together)
    total += matmul(batch * n, n, d_model)   # P V
    return total
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Counts a multiply-add as one operation, so every term is half of what it should be.",
  "teacher_says": "The statement counts a multiply-add as 2 operations: an (m,k)x(k,p) product costs 2mkp.",
  "code": '''
def attention_flops(batch, n, d_model):
    projections = 4 * batch * n * d_model * d_model
    attention = 2 * batch * n * n * d_model
    return projections + attention
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Counts only the Q, K and V projections and forgets the output projection W^O.",
  "teacher_says": "There are four projections: W^O is a (d_model, d_model) product on every token too.",
  "code": '''
def attention_flops(batch, n, d_model):
    projections = 3 * 2 * batch * n * d_model * d_model  # Q, K, V
    products = 2 * 2 * batch * n * n * d_model           # QK^T and PV
    return projections + products
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Uses true division / math.pow, so the count comes back as a float even though its value is right.",
  "teacher_says": "Keep the count integer (no math.pow or /): floats lose exactness above 2**53 and the exercise asks for an int.",
  "code": '''
import math

def attention_flops(batch, n, d_model):
    return 8 * batch * n * math.pow(d_model, 2) + 4 * batch * math.pow(n, 2) * d_model
'''},
 # ---------------------------------------------------------------- longest_sequence
 {"exercise": "longest_sequence", "kind": "correct",
  "idea": "integer binary search on n for the largest batch*heads*n^2*bytes <= memory",
  "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per_square = batch * heads * bytes_per_number
    lo, hi = 0, 1
    while per_square * hi * hi <= memory_bytes:
        hi *= 2
    # invariant: lo fits, hi does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if per_square * mid * mid <= memory_bytes:
            lo = mid
        else:
            hi = mid
    return lo
'''},
 {"exercise": "longest_sequence", "kind": "robustness",
  "idea": "float sqrt as a first guess, then walks up and down one step at a time with exact integer tests",
  "code": '''
import numpy as np

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per = batch * heads * bytes_per_number
    n = int(np.sqrt(memory_bytes / per))
    while n > 0 and per * n * n > memory_bytes:
        n -= 1
    while per * (n + 1) * (n + 1) <= memory_bytes:
        n += 1
    return int(n)
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Takes a floating-point square root of the quotient and truncates it; for large memories the float rounds up and the answer is one too big.",
  "teacher_says": "A float sqrt of a number above 2**53 can be off by one: use math.isqrt on the integer quotient.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return int(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Forgets the batch axis: sizes the weights as (heads, n, n) only.",
  "teacher_says": "The weights are (batch, heads, n, n): every sequence of the batch has its own maps.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (heads * bytes_per_number))
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Rounds the square root to the nearest integer instead of down, so half the time the n returned does not fit.",
  "teacher_says": "You want the largest n that fits, so round down, never to nearest.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return round(math.sqrt(memory_bytes // (batch * heads * bytes_per_number)))
'''},
 # ---------------------------------------------------------------- key_block_size
 {"exercise": "key_block_size", "kind": "correct",
  "idea": "bytes per key column, floor-divide the budget, clamp with sorted()",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    column = batch * heads * n_q * bytes_per_number  # one more key in the block
    fits = budget_bytes // column
    return int(sorted((1, fits, n_k))[1])  # the middle one: clamp into [1, n_k]
'''},
 {"exercise": "key_block_size", "kind": "robustness",
  "idea": "grows the block one key at a time while the next key still fits (slow loop, same result)",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = 1
    while block < n_k and batch * heads * n_q * (block + 1) * bytes_per_number <= budget_bytes:
        block += 1
    return block
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Forgets the lower clamp: when one key's column exceeds the budget it returns 0 and the loop would never advance.",
  "teacher_says": "The statement asks for at least 1: clamp with max(1, ...).",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return min(n_k, budget_bytes // (batch * heads * n_q * bytes_per_number))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Sizes one key's column with n_k instead of n_q (confuses the queries and keys axes).",
  "teacher_says": "A block is (batch, heads, n_q, block): each extra key adds n_q scores per head, not n_k.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    per_key = batch * heads * n_k * bytes_per_number
    return max(1, min(n_k, budget_bytes // per_key))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Forgets the upper clamp: with a generous budget it returns more keys per block than there are keys.",
  "teacher_says": "A block can never hold more than n_k keys: clamp with min(n_k, ...).",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, budget_bytes // (batch * heads * n_q * bytes_per_number))
'''},
 # ---------------------------------------------------------------- attention_weights_bytes
 {"exercise": "attention_weights_bytes", "kind": "correct",
  "idea": "B*h*n*n*2 as a product of named sizes",
  "code": '''
B, h, n, bytes_fp16 = 4, 16, 8192, 2
attention_weights_bytes = B * h * n * n * bytes_fp16  # 8 GiB: fits a 16 GB T4, just
'''},
 {"exercise": "attention_weights_bytes", "kind": "robustness",
  "idea": "computes through a float (8192.0 ** 2) and casts back to int; exact since the value is a power of 2",
  "code": '''
attention_weights_bytes = int(4 * 16 * 8192.0 ** 2 * 2)
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Uses 4 bytes per number (float32) although the weights are float16.",
  "teacher_says": "float16 is 2 bytes per number; 4 is float32.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 4
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Forgets the batch of 4 sequences and counts one sequence's maps.",
  "teacher_says": "Every sequence of the batch has its own (h, n, n) weights: multiply by B.",
  "code": '''
attention_weights_bytes = 16 * 8192 * 8192 * 2
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Gives the answer in GB (a float, 8.59) instead of bytes.",
  "teacher_says": "The exercise asks for bytes, as an int; convert to GB only in your head when comparing with the T4.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 2 / 1e9
'''},
]

_WRITER_C = ANSWERS

"""Writer G, chapter 07 (attention on the GPU): attention_flops, longest_sequence,
key_block_size, attention_weights_bytes."""

ANSWERS = [
    # ------------------------------------------------------------------ attention_flops
    {"exercise": "attention_flops", "kind": "correct",
     "idea": "factor the two terms: 2 B n d (4 d + 2 n), all in Python ints",
     "code": '''
def attention_flops(batch, n, d_model):
    batch, n, d_model = int(batch), int(n), int(d_model)
    # four (n, d) x (d, d) projections and two (n, d) x (d, n)-like products, 2 flops per MAC
    return 2 * batch * n * d_model * (4 * d_model + 2 * n)
'''},
    {"exercise": "attention_flops", "kind": "robustness",
     "idea": "adds up every matrix product one by one in a Python loop over the batch, with a helper for (m,k)x(k,p)",
     "code": '''
def attention_flops(batch, n, d_model):
    def matmul(m, k, p):
        return 2 * m * k * p

    total = 0
    for _ in range(int(batch)):
        for _projection in ("q", "k", "v", "o"):
            total += matmul(n, d_model, d_model)
        total += matmul(n, d_model, n)  # Q K^T, all heads together
        total += matmul(n, n, d_model)  # P V
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
     "mistake": "Forgets the batch in the attention term: QK^T and PV are counted for one sequence only.",
     "teacher_says": "Every sequence of the batch has its own n x n scores, so the 4 n^2 d term is multiplied by the batch too.",
     "code": '''
def attention_flops(batch, n, d_model):
    projections = 8 * batch * n * d_model**2
    attention = 4 * n**2 * d_model
    return projections + attention
'''},
    {"exercise": "attention_flops", "kind": "wrong",
     "mistake": "Uses math.pow for the squares, so the count comes back as a float (and rounds above 2**53).",
     "teacher_says": "math.pow always returns a float; keep the count in integers with ** on ints, as the statement asks.",
     "code": '''
import math

def attention_flops(batch, n, d_model):
    return 8 * batch * n * math.pow(d_model, 2) + 4 * batch * math.pow(n, 2) * d_model
'''},
    # ------------------------------------------------------------------ longest_sequence
    {"exercise": "longest_sequence", "kind": "correct",
     "idea": "integer bisection on n for batch*heads*n^2*bytes <= memory, no floating point at all",
     "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per_cell = batch * heads * bytes_per_number  # bytes for one (query, key) pair
    low, high = 0, 1
    while per_cell * high * high <= memory_bytes:
        high *= 2
    # invariant: low fits, high does not
    while high - low > 1:
        mid = (low + high) // 2
        if per_cell * mid * mid <= memory_bytes:
            low = mid
        else:
            high = mid
    return int(low)
'''},
    {"exercise": "longest_sequence", "kind": "robustness",
     "idea": "float square root with NumPy, then nudged up and down with while loops; returns a NumPy int64 wrapped in int at the end",
     "code": '''
import numpy as np

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    c = np.int64(batch) * np.int64(heads) * np.int64(bytes_per_number)
    n = int(np.floor(np.sqrt(float(memory_bytes) / float(c))))
    c, memory_bytes = int(c), int(memory_bytes)
    while n > 0 and c * n * n > memory_bytes:
        n -= 1
    while c * (n + 1) * (n + 1) <= memory_bytes:
        n += 1
    return int(n)
'''},
    {"exercise": "longest_sequence", "kind": "wrong",
     "mistake": "Takes a floating-point square root of the quotient and truncates it; for large memories the float rounds up and n is one too large.",
     "teacher_says": "Floats carry 53 bits: solve n^2 <= M / c with math.isqrt on integers, or check the answer afterwards.",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return int(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
    {"exercise": "longest_sequence", "kind": "wrong",
     "mistake": "Counts numbers instead of bytes: bytes_per_number is left out of the memory of the weights.",
     "teacher_says": "memory_bytes is in bytes, so each of the batch*heads*n^2 numbers costs bytes_per_number of it.",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (batch * heads))
'''},
    {"exercise": "longest_sequence", "kind": "wrong",
     "mistake": "Searches for the largest n whose weights take strictly less than the memory, so an exact fit is rejected.",
     "teacher_says": "'Fit' means at most memory_bytes: use <=, an array that fills the memory exactly still fits.",
     "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per_cell = batch * heads * bytes_per_number
    n = 0
    step = 1 << 40
    while step:
        if per_cell * (n + step) ** 2 < memory_bytes:
            n += step
        else:
            step >>= 1
    return n
'''},
    # ------------------------------------------------------------------ key_block_size
    {"exercise": "key_block_size", "kind": "correct",
     "idea": "bytes of one key column, floor division, then clamp with the middle of (1, blocks, n_k)",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    column = batch * heads * n_q * bytes_per_number  # one more key adds this many bytes
    fits = budget_bytes // column
    return int(sorted((1, fits, n_k))[1])
'''},
    {"exercise": "key_block_size", "kind": "robustness",
     "idea": "grows the block one key at a time while the next one still fits (a loop of up to n_k steps)",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = 1
    while block < n_k and batch * heads * n_q * (block + 1) * bytes_per_number <= budget_bytes:
        block += 1
    return block
'''},
    {"exercise": "key_block_size", "kind": "wrong",
     "mistake": "Divides the budget by the number of scores per key and forgets that each score takes bytes_per_number bytes.",
     "teacher_says": "The budget is in bytes: a key's column of scores takes batch*heads*n_q*bytes_per_number of it.",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = budget_bytes // (batch * heads * n_q)
    return int(max(1, min(n_k, block)))
'''},
    {"exercise": "key_block_size", "kind": "wrong",
     "mistake": "Sizes one key's column with n_k instead of n_q (the two lengths swapped).",
     "teacher_says": "A block of scores is (batch, heads, n_q, block): each key in it meets all n_q queries, not n_k.",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = budget_bytes // (batch * heads * n_k * bytes_per_number)
    return int(max(1, min(n_k, block)))
'''},
    {"exercise": "key_block_size", "kind": "wrong",
     "mistake": "Clamps only from above: when not even one key fits the budget it returns 0 and the loop would never advance.",
     "teacher_says": "The statement asks for at least 1 key per block; add the lower bound max(1, ...).",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return int(min(n_k, budget_bytes // (batch * heads * n_q * bytes_per_number)))
'''},
    # ------------------------------------------------------------------ attention_weights_bytes
    {"exercise": "attention_weights_bytes", "kind": "correct",
     "idea": "B * h * n^2 numbers at 2 bytes each",
     "code": '''
B, h, n, bytes_float16 = 4, 16, 8192, 2
attention_weights_bytes = B * h * n * n * bytes_float16  # 8_589_934_592: about 8.6 GB, fits a 16 GB T4
'''},
    {"exercise": "attention_weights_bytes", "kind": "robustness",
     "idea": "adds up one (n, n) float16 matrix per sequence and head in nested Python loops, using numpy's itemsize",
     "code": '''
import numpy as np

attention_weights_bytes = 0
for _sequence in range(4):
    for _head in range(16):
        attention_weights_bytes += 8192 * 8192 * np.dtype(np.float16).itemsize
attention_weights_bytes = int(attention_weights_bytes)
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong",
     "mistake": "Uses 4 bytes per number (float32, the chapter's default) although the weights are float16.",
     "teacher_says": "The statement says float16: 2 bytes per number.",
     "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 4
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong",
     "mistake": "Forgets the batch: counts the weights of one sequence only.",
     "teacher_says": "There is one (n, n) matrix per sequence and per head: multiply by B = 4 too.",
     "code": '''
attention_weights_bytes = 16 * 8192**2 * 2
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong",
     "mistake": "Converts the result to GiB (dividing by 2**30) instead of giving bytes.",
     "teacher_says": "The question asks for bytes, as an int; keep the unit conversion for your own comparison with the T4.",
     "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 2 / 2**30
'''},
]

_WRITER_G = ANSWERS
ANSWERS = _WRITER_C + _WRITER_G
