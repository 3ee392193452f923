# writer C's answers, then writer G's (each file verbatim)
ANSWERS = [
 # ---------------------------------------------------------------- attention_flops
 {"exercise": "attention_flops", "kind": "correct",
  "idea": "count each matrix product as 2*m*k*p with Python ints: four (n, d)x(d, d) projections and two (n, n, d) products per sequence",
  "code": '''
def attention_flops(batch, n, d_model):
    def matmul(m, k, p):
        return 2 * m * k * p  # a multiply-add counts 2
    projections = 4 * matmul(n, d_model, d_model)  # W^Q, W^K, W^V, W^O
    scores = matmul(n, d_model, n)                 # Q K^T, all heads together
    mixing = matmul(n, n, d_model)                 # P V
    return int(batch) * (projections + scores + mixing)
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Counts a multiply-add as one operation, so every term is half what it should be (4Bnd^2 + 2Bn^2d).",
  "teacher_says": "The statement counts a multiply-add as 2 operations: an (m,k)x(k,p) product is 2mkp FLOPs, not mkp.",
  "code": '''
def attention_flops(batch, n, d_model):
    projections = 4 * n * d_model * d_model
    attention = 2 * n * n * d_model
    return batch * (projections + attention)
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Counts only the three input projections Q, K, V and forgets the output projection W^O.",
  "teacher_says": "There are four projections: after the heads are concatenated, W^O is one more (n, d) x (d, d) product.",
  "code": '''
def attention_flops(batch, n, d_model):
    qkv = 3 * 2 * n * d_model * d_model
    qk = 2 * n * n * d_model
    pv = 2 * n * n * d_model
    return batch * (qkv + qk + pv)
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Uses math.pow for the squares, so the result is a float even though its value is right for small sizes.",
  "teacher_says": "math.pow always returns a float; the exercise asks for an int, so use ** on ints (floats round counts above 2**53).",
  "code": '''
import math

def attention_flops(batch, n, d_model):
    return 8 * batch * n * math.pow(d_model, 2) + 4 * batch * math.pow(n, 2) * d_model
'''},
 # ---------------------------------------------------------------- longest_sequence
 {"exercise": "longest_sequence", "kind": "correct",
  "idea": "integer square root of how many n*n grids of numbers fit (floor division first is exact for whole numbers)",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per_cell = batch * heads * bytes_per_number  # bytes for one (query, key) entry across batch and heads
    cells = memory_bytes // per_cell              # whole n*n cells that fit
    n = math.isqrt(cells)
    while n > 0 and per_cell * n * n > memory_bytes:  # paranoia; never triggers
        n -= 1
    return int(n)
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Uses a floating-point square root and int(), which rounds up to n when the memory is just below n^2 cells for large n.",
  "teacher_says": "math.sqrt of a number above 2**52 can round up past the true root; use math.isqrt on an integer.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return int(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Leaves the batch out of the memory of the weights, as if only one sequence's (heads, n, n) array had to fit.",
  "teacher_says": "The weights are (batch, heads, n, n): every sequence of the batch has its own maps, so divide by batch too.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (heads * bytes_per_number))
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Rounds the square root to the nearest integer instead of down, so about half the time the returned n does not fit.",
  "teacher_says": "You need the largest n that fits, so round down (floor), never to the nearest.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return int(round(math.sqrt(memory_bytes / (batch * heads * bytes_per_number))))
'''},
 # ---------------------------------------------------------------- key_block_size
 {"exercise": "key_block_size", "kind": "correct",
  "idea": "bytes of one key column of scores, floor-divide the budget, then clamp into [1, n_k]",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    column = batch * heads * n_q * bytes_per_number  # one more key adds this many bytes
    fits = budget_bytes // column
    if fits < 1:
        return 1
    if fits > n_k:
        return int(n_k)
    return int(fits)
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Clamps to n_k but forgets the lower bound, so a budget smaller than one column returns 0 and the loop would never advance.",
  "teacher_says": "When not even one key column fits you must still return 1, as the statement says.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    per_key = batch * heads * n_q * bytes_per_number
    return int(min(n_k, budget_bytes // per_key))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Confuses n_q and n_k: sizes one column of scores with the number of keys instead of the number of queries.",
  "teacher_says": "A block holds all n_q queries against `block` keys, so one key adds batch*heads*n_q numbers, not n_k.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    per_key = batch * heads * n_k * bytes_per_number
    return int(max(1, min(n_k, budget_bytes // per_key)))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Divides with / and rounds to the nearest integer, so the block can be one key too large for the budget.",
  "teacher_says": "The block must take at most budget_bytes: round the quotient down (//), not to the nearest.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    per_key = batch * heads * n_q * bytes_per_number
    block = round(budget_bytes / per_key)
    return int(max(1, min(n_k, block)))
'''},
 # ---------------------------------------------------------------- attention_weights_bytes
 {"exercise": "attention_weights_bytes", "kind": "correct",
  "idea": "count the numbers of the (B, h, n, n) array, times 2 bytes, as Python ints",
  "code": '''
B, h, n = 4, 16, 8192
attention_weights_bytes = B * h * n * n * 2  # float16: 2 bytes a number
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Uses 4 bytes per number (float32) although the weights are returned in float16.",
  "teacher_says": "float16 is 2 bytes per number; 4 is float32.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 4
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Forgets the batch: counts one sequence's (h, n, n) weights only.",
  "teacher_says": "Each of the B = 4 sequences has its own 16 maps of n x n, so multiply by B too.",
  "code": '''
heads, n, bytes_per_number = 16, 8192, 2
attention_weights_bytes = heads * n * n * bytes_per_number
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Converts the count to GB (integer division by 10**9) and assigns 8 instead of the number of bytes.",
  "teacher_says": "The question asks for bytes; converting to GB is for comparing with the T4, not the answer.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192**2 * 2 // 10**9  # in GB, to compare with 16 GB
'''},
]

_WRITER_C = ANSWERS

ANSWERS = [
 # ---------------------------------------------------------------- attention_flops
 {"exercise": "attention_flops", "kind": "correct",
  "idea": "count each matrix product as 2*m*k*p with a small helper, then add them up as Python ints",
  "code": '''
def attention_flops(batch, n, d_model):
    def matmul(m, k, p):
        return 2 * m * k * p  # m*p dot products of k multiply-adds

    tokens = batch * n
    projections = 4 * matmul(tokens, d_model, d_model)  # Q, K, V and the output W^O
    scores = batch * matmul(n, d_model, n)  # Q K^T, all heads together
    mixing = batch * matmul(n, n, d_model)  # P V
    return int(projections + scores + mixing)
'''},
 {"exercise": "attention_flops", "kind": "robustness",
  "idea": "adds the count one sequence and one projection at a time in Python loops",
  "code": '''
def attention_flops(batch, n, d_model):
    total = 0
    for _ in range(batch):
        per_sequence = 0
        for _ in range(4):  # four projections
            per_sequence += 2 * n * d_model * d_model
        per_sequence += 2 * n * n * d_model  # scores
        per_sequence += 2 * n * n * d_model  # weighted values
        total += per_sequence
    return total
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Counts a multiply-add as one operation, so every term is half the requested count.",
  "teacher_says": "The statement counts a multiply-add as 2 operations: an (m,k)x(k,p) product is 2*m*k*p FLOPs.",
  "code": '''
def attention_flops(batch, n, d_model):
    projections = 4 * batch * n * d_model * d_model
    attention = 2 * batch * n * n * d_model
    return projections + attention
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Counts only the Q, K and V projections and forgets the output projection W^O.",
  "teacher_says": "There are four d_model x d_model projections: W^Q, W^K, W^V and also W^O after the concatenation.",
  "code": '''
def attention_flops(batch, n, d_model):
    qkv = 3 * 2 * batch * n * d_model * d_model
    qk = 2 * batch * n * n * d_model
    pv = 2 * batch * n * n * d_model
    return qkv + qk + pv
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Writes the formula with float literals and math.pow, so it returns a float (which also rounds large counts).",
  "teacher_says": "Keep counts in integer arithmetic: a float is refused and loses exactness above 2**53.",
  "code": '''
import math

def attention_flops(batch, n, d_model):
    return 8.0 * batch * n * math.pow(d_model, 2) + 4.0 * batch * math.pow(n, 2) * d_model
'''},
 # ---------------------------------------------------------------- longest_sequence
 {"exercise": "longest_sequence", "kind": "correct",
  "idea": "exact integer bisection on n for the condition batch*heads*n^2*bytes <= memory",
  "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per_entry = batch * heads * bytes_per_number

    def fits(n):
        return per_entry * n * n <= memory_bytes

    low, high = 0, 1
    while fits(high):
        high *= 2
    # fits(low) is True, fits(high) is False
    while high - low > 1:
        middle = (low + high) // 2
        if fits(middle):
            low = middle
        else:
            high = middle
    return low
'''},
 {"exercise": "longest_sequence", "kind": "robustness",
  "idea": "a float square root as a first guess, corrected by stepping in Python loops, returned as a NumPy int64",
  "code": '''
import numpy as np

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per_entry = batch * heads * bytes_per_number
    guess = int(np.sqrt(float(memory_bytes) / float(per_entry)))
    while guess > 0 and per_entry * guess * guess > memory_bytes:
        guess -= 1
    while per_entry * (guess + 1) * (guess + 1) <= memory_bytes:
        guess += 1
    return np.int64(guess)
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Takes a floating-point square root and truncates it; for large memories the float rounds up and the answer is one too large.",
  "teacher_says": "Check the result in integers (or use math.isqrt): a float sqrt of a 60-bit number can land just above the true root.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return int(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Forgets the heads: counts one (n, n) matrix per sequence instead of one per sequence and head.",
  "teacher_says": "The weights have shape (batch, heads, n, n): every head keeps its own n x n matrix.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (batch * bytes_per_number))
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Reads 'fit' as strictly less than the memory, so a size that fills the memory exactly is rejected.",
  "teacher_says": "Weights that take exactly memory_bytes still fit: the condition is <=, not <.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per_entry = batch * heads * bytes_per_number
    if memory_bytes <= 0:
        return 0
    return math.isqrt((memory_bytes - 1) // per_entry)
'''},
 # ---------------------------------------------------------------- key_block_size
 {"exercise": "key_block_size", "kind": "correct",
  "idea": "bytes of one key's column, floor-divide the budget, clamp with sorted()[1]",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    column_bytes = batch * heads * n_q * bytes_per_number
    columns = budget_bytes // column_bytes
    return int(sorted([1, columns, n_k])[1])
'''},
 {"exercise": "key_block_size", "kind": "robustness",
  "idea": "grows the block one key at a time in a while loop until the next key would overflow the budget",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = 1
    while block < n_k:
        bigger = block + 1
        if batch * heads * n_q * bigger * bytes_per_number > budget_bytes:
            break
        block = bigger
    return block
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Clamps only at n_k; when one column of scores already exceeds the budget it returns 0 and the loop would never advance.",
  "teacher_says": "Keep the block at least 1, as the statement asks, even when a single key is over budget.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    keys = budget_bytes // (batch * heads * n_q * bytes_per_number)
    return int(min(keys, n_k))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Counts numbers instead of bytes: bytes_per_number is never used.",
  "teacher_says": "The budget is in bytes, so divide by the bytes of one column: batch*heads*n_q*bytes_per_number.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    keys = budget_bytes // (batch * heads * n_q)
    return int(max(1, min(keys, n_k)))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Confuses the two lengths: sizes one key's column with n_k rows instead of n_q.",
  "teacher_says": "A block of scores is (batch, heads, n_q, block): one more key adds n_q scores per sequence and head.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    keys = budget_bytes // (batch * heads * n_k * bytes_per_number)
    return int(max(1, min(keys, n_k)))
'''},
 # ---------------------------------------------------------------- attention_weights_bytes
 {"exercise": "attention_weights_bytes", "kind": "correct",
  "idea": "one (n, n) matrix per sequence and head, 2 bytes each, written out as a product",
  "code": '''
B, h, n, float16_bytes = 4, 16, 8192, 2
attention_weights_bytes = B * h * n * n * float16_bytes
'''},
 {"exercise": "attention_weights_bytes", "kind": "robustness",
  "idea": "computed in GiB first (8 GiB) and converted back to bytes with an int() cast",
  "code": '''
gib = 4 * 16 * (8192 / 1024) * (8192 / 1024) * 2 / 1024  # 8.0 GiB
attention_weights_bytes = int(gib * 2**30)
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Uses 4 bytes per number (float32) although the weights are float16.",
  "teacher_says": "float16 takes 2 bytes per number; 4 is float32.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 4
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Forgets the batch: counts the weights of one sequence only.",
  "teacher_says": "All B = 4 sequences keep their own weights: multiply by the batch too.",
  "code": '''
attention_weights_bytes = 16 * 8192 * 8192 * 2
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Answers in GB (10^9 bytes) instead of bytes, as a float.",
  "teacher_says": "The question asks for the number of bytes as an int; convert to GB only to compare with the T4.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 2 / 1e9
'''},
]

_WRITER_G = ANSWERS
ANSWERS = _WRITER_C + _WRITER_G
