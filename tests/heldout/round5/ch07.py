ANSWERS = [
 # ------------------------------------------------------------------ attention_flops
 {"exercise": "attention_flops", "kind": "correct",
  "idea": "list every matrix product as an (m, k, p) shape and add 2*m*k*p over the list",
  "code": '''
def attention_flops(batch, n, d_model):
    rows = batch * n
    products = [
        (rows, d_model, d_model),  # Q = X W^Q
        (rows, d_model, d_model),  # K = X W^K
        (rows, d_model, d_model),  # V = X W^V
        (rows, d_model, d_model),  # out = concat W^O
        (batch * n, d_model, n),   # Q K^T, all heads together are d_model wide
        (batch * n, n, d_model),   # P V
    ]
    return sum(2 * m * k * p for m, k, p in products)
'''},
 {"exercise": "attention_flops", "kind": "correct",
  "idea": "factored closed form 2*B*n*d*(4d + 2n), pure Python ints",
  "code": '''
def attention_flops(batch, n, d_model):
    batch, n, d_model = int(batch), int(n), int(d_model)
    return 2 * batch * n * d_model * (4 * d_model + 2 * n)
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Counts a multiply-add as one operation instead of two, so every term is halved.",
  "teacher_says": "The statement counts a multiply-add as 2 operations: an (m, k) x (k, p) product is 2*m*k*p FLOPs, not m*k*p.",
  "code": '''
def attention_flops(batch, n, d_model):
    projections = 4 * batch * n * d_model * d_model
    attention = 2 * batch * n * n * d_model
    return projections + attention
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Counts only the three input projections Q, K, V and forgets the output projection W^O.",
  "teacher_says": "There are four projections: W^Q, W^K, W^V and W^O, each 2*B*n*d_model^2; you left out W^O.",
  "code": '''
def attention_flops(batch, n, d_model):
    qkv = 3 * 2 * batch * n * d_model * d_model
    scores = 2 * batch * n * n * d_model
    weighted_sum = 2 * batch * n * n * d_model
    return qkv + scores + weighted_sum
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Counts the score product Q K^T but forgets the second product P V.",
  "teacher_says": "Attention has two n-by-n products: the scores Q K^T and the weighted sum P V; each costs 2*B*n^2*d_model, so the attention part is 4*B*n^2*d_model.",
  "code": '''
def attention_flops(batch, n, d_model):
    projections = 4 * (2 * batch * n * d_model * d_model)
    scores = 2 * batch * n * n * d_model
    return projections + scores
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Leaves the batch size out of the attention term (only the projections are multiplied by batch).",
  "teacher_says": "Every sequence of the batch has its own n-by-n scores: the attention term is 4*batch*n^2*d_model, with the batch factor too.",
  "code": '''
def attention_flops(batch, n, d_model):
    projections = 8 * batch * n * d_model ** 2
    attention = 4 * n ** 2 * d_model
    return projections + attention
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Writes the factored form without parentheses, so 2*n is added to the product instead of multiplying it.",
  "teacher_says": "Operator precedence: 2*B*n*d*4*d + 2*n is not 2*B*n*d*(4*d + 2*n). Put the parentheses around the sum.",
  "code": '''
def attention_flops(batch, n, d_model):
    return 2 * batch * n * d_model * 4 * d_model + 2 * n
'''},
 {"exercise": "attention_flops", "kind": "robustness",
  "idea": "uses math.pow for the squares, which returns a float",
  "mistake": "The value is right but it is a Python float, which the statement says fails (floats round counts above 2**53).",
  "teacher_says": "math.pow always returns a float; use ** on ints (or int(...)) so that the count stays an exact integer.",
  "code": '''
import math

def attention_flops(batch, n, d_model):
    return 8 * batch * n * math.pow(d_model, 2) + 4 * batch * math.pow(n, 2) * d_model
'''},
 # ------------------------------------------------------------------ longest_sequence
 {"exercise": "longest_sequence", "kind": "correct",
  "idea": "binary search on n with exact integer arithmetic",
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
    return int(lo)
'''},
 {"exercise": "longest_sequence", "kind": "correct",
  "idea": "floating square root as a first guess, then corrected up and down with integer tests",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    c = batch * heads * bytes_per_number
    n = int(math.sqrt(memory_bytes / c))
    while c * (n + 1) ** 2 <= memory_bytes:
        n += 1
    while n > 0 and c * n * n > memory_bytes:
        n -= 1
    return n
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Takes the square root of the memory before dividing by batch*heads*bytes, so the divisor is not under the root.",
  "teacher_says": "Solve batch*heads*n^2*bytes <= memory: n = isqrt(memory // (batch*heads*bytes)). The divisor must be inside the square root.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes) // (batch * heads * bytes_per_number)
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Forgets the batch: counts the weights of one sequence only.",
  "teacher_says": "The weights have shape (batch, heads, n, n): the batch multiplies the memory too.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (heads * bytes_per_number))
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Rounds the square root to the nearest integer instead of down, so about half the time the n returned does not fit.",
  "teacher_says": "The largest n that fits is the floor of the root: rounding up to the nearest integer can give an n whose weights exceed the memory.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return round(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Counts up while the size fits and returns the loop variable, which is the first n that does NOT fit (one too many).",
  "teacher_says": "Your loop stops at the first n that no longer fits; the answer is the one before it (return n - 1).",
  "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per_square = batch * heads * bytes_per_number
    n = 0
    while per_square * n * n <= memory_bytes:
        n += 1
    return n
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Uses math.ceil on the root, which overshoots whenever the quotient is not a perfect square.",
  "teacher_says": "Round down, not up: ceil gives the smallest n that does not fit unless the quotient is a perfect square.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.ceil(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
 {"exercise": "longest_sequence", "kind": "robustness",
  "idea": "NumPy floor of a NumPy square root",
  "mistake": "Returns a NumPy float64 (e.g. 22360.0), not an int, and relies on a floating square root.",
  "teacher_says": "Return an int: use math.isqrt on integers (or at least int(...)), and avoid float square roots of large numbers.",
  "code": '''
import numpy as np

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return np.floor(np.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
 # ------------------------------------------------------------------ key_block_size
 {"exercise": "key_block_size", "kind": "correct",
  "idea": "explicit if/elif clamping after the integer division",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    one_key = batch * heads * n_q * bytes_per_number  # bytes of one column of scores
    block = budget_bytes // one_key
    if block < 1:
        return 1
    if block > n_k:
        return int(n_k)
    return int(block)
'''},
 {"exercise": "key_block_size", "kind": "correct",
  "idea": "NumPy clip of the quotient, converted back to a Python int",
  "code": '''
import numpy as np

def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    keys, _ = divmod(budget_bytes, batch * heads * n_q * bytes_per_number)
    return int(np.clip(keys, 1, n_k))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Forgets the upper limit n_k: a generous budget gives a block longer than the sequence.",
  "teacher_says": "A block cannot hold more keys than there are: cap the result at n_k as well as raising it to 1.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, budget_bytes // (batch * heads * n_q * bytes_per_number))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Forgets the lower limit 1: a budget smaller than one column of scores gives a block of 0 keys and the loop would never advance.",
  "teacher_says": "The statement asks for at least 1 key per block; wrap the quotient in max(1, ...).",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return min(n_k, budget_bytes // (batch * heads * n_q * bytes_per_number))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Uses n_k instead of n_q in the size of one column of scores.",
  "teacher_says": "A block of scores is (batch, heads, n_q, block): each key adds batch*heads*n_q numbers, not batch*heads*n_k.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    column = batch * heads * n_k * bytes_per_number
    return max(1, min(n_k, budget_bytes // column))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Rounds the number of keys up, so the block of scores can exceed the budget.",
  "teacher_says": "The block must take at most budget_bytes: round the quotient down (//), not up.",
  "code": '''
import math

def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = math.ceil(budget_bytes / (batch * heads * n_q * bytes_per_number))
    return max(1, min(n_k, block))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Counts numbers instead of bytes: forgets to multiply by bytes_per_number, so blocks are several times too large.",
  "teacher_says": "The budget is in bytes: one key's column takes batch*heads*n_q*bytes_per_number bytes.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    numbers_per_key = batch * heads * n_q
    return max(1, min(n_k, budget_bytes // numbers_per_key))
'''},
 {"exercise": "key_block_size", "kind": "robustness",
  "idea": "true division, floored and clipped with NumPy",
  "mistake": "Returns a NumPy float64 such as 37.0 instead of an int.",
  "teacher_says": "The statement asks for an int: use integer division and int(...) around NumPy results.",
  "code": '''
import numpy as np

def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = np.floor(budget_bytes / (batch * heads * n_q * bytes_per_number))
    return np.clip(block, 1, n_k)
'''},
 # ------------------------------------------------------------------ attention_weights_bytes
 {"exercise": "attention_weights_bytes", "kind": "correct",
  "idea": "math.prod over the shape and the bytes",
  "code": '''
import math

B, h, n, bytes_per_number = 4, 16, 8192, 2
attention_weights_bytes = math.prod((B, h, n, n)) * bytes_per_number
'''},
 {"exercise": "attention_weights_bytes", "kind": "correct",
  "idea": "reason in powers of two: 2^2 * 2^4 * 2^13 * 2^13 * 2^1 = 2^33",
  "code": '''
attention_weights_bytes = 2 ** (2 + 4 + 13 + 13 + 1)  # 4 * 16 * 8192**2 * 2
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Uses 4 bytes per number (float32) although the weights are float16.",
  "teacher_says": "float16 takes 2 bytes per number, not 4.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 4
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Forgets the batch of 4 sequences.",
  "teacher_says": "Each of the B = 4 sequences has its own h weight matrices: multiply by B too.",
  "code": '''
heads, n = 16, 8192
attention_weights_bytes = heads * n * n * 2
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Counts n numbers per head and sequence instead of an n-by-n matrix.",
  "teacher_says": "Each head has one weight per (query, key) pair: n^2 numbers, not n.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 2
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Converts the answer to gigabytes instead of giving bytes.",
  "teacher_says": "The question asks for bytes, as an int; 8.6 GB is the same memory in other units.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192 ** 2 * 2 / 1e9
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Writes the square as 8192^2, which in Python is a bitwise XOR (and binds more loosely than *).",
  "teacher_says": "In Python ^ is XOR, not a power: write 8192**2.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192^2 * 2
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Counts the numbers but forgets to multiply by the 2 bytes of each.",
  "teacher_says": "You counted the weights; the question asks for bytes, 2 per float16 number.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192
'''},
 {"exercise": "attention_weights_bytes", "kind": "robustness",
  "idea": "right value, written with a float for the bytes",
  "mistake": "Assigns the float 8589934592.0 instead of an int.",
  "teacher_says": "Keep counts as integers: write 2, not 2.0, so the result is an int.",
  "code": '''
bytes_per_float16 = 2.0
attention_weights_bytes = 4 * 16 * 8192 * 8192 * bytes_per_float16
'''},
]
