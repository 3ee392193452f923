ANSWERS = [
    # ---------------- attention_flops ----------------
    {"exercise": "attention_flops", "kind": "correct", "idea": "8 B n d^2 + 4 B n^2 d",
     "code": '''
def attention_flops(batch, n, d_model):
    return 8 * batch * n * d_model ** 2 + 4 * batch * n ** 2 * d_model
'''},
    {"exercise": "attention_flops", "kind": "correct", "idea": "sum of 2 m k p over the list of matrix products",
     "code": '''
def attention_flops(batch, n, d_model):
    products = [(n, d_model, d_model)] * 4 + [(n, d_model, n), (n, n, d_model)]  # (m, k, p)
    return sum(2 * batch * m * k * p for m, k, p in products)
'''},
    {"exercise": "attention_flops", "kind": "wrong", "mistake": "counts a multiply-add as one operation",
     "teacher_says": "a multiply-add is 2 operations: double every product's count",
     "code": '''
def attention_flops(batch, n, d_model):
    return 4 * batch * n * d_model ** 2 + 2 * batch * n ** 2 * d_model
'''},
    {"exercise": "attention_flops", "kind": "wrong", "mistake": "counts only the three input projections (forgets W^O)",
     "teacher_says": "four projections: W^Q, W^K, W^V and W^O",
     "code": '''
def attention_flops(batch, n, d_model):
    return 6 * batch * n * d_model ** 2 + 4 * batch * n ** 2 * d_model
'''},
    {"exercise": "attention_flops", "kind": "wrong", "mistake": "counts only one of the two attention products (QK^T)",
     "teacher_says": "PV costs as much as QK^T: 2 B n^2 d each",
     "code": '''
def attention_flops(batch, n, d_model):
    return 8 * batch * n * d_model ** 2 + 2 * batch * n ** 2 * d_model
'''},
    {"exercise": "attention_flops", "kind": "wrong", "mistake": "swaps n and d in the attention products (n d^2 instead of n^2 d)",
     "teacher_says": "QK^T is (n, d) x (d, n): n^2 dot products of d terms, 2 n^2 d per sequence",
     "code": '''
def attention_flops(batch, n, d_model):
    return 8 * batch * n * d_model ** 2 + 4 * batch * n * d_model ** 2
'''},
    {"exercise": "attention_flops", "kind": "wrong", "mistake": "forgets the batch in the attention products",
     "teacher_says": "every sequence has its own n x n scores: multiply the attention part by batch too",
     "code": '''
def attention_flops(batch, n, d_model):
    return 8 * batch * n * d_model ** 2 + 4 * n ** 2 * d_model
'''},
    {"exercise": "attention_flops", "kind": "robustness", "idea": "returns a float (uses ** 2.0 and /)",
     "mistake": "float arithmetic gives a float and loses exactness for large counts",
     "teacher_says": "a count is an int: avoid / and float powers",
     "code": '''
def attention_flops(batch, n, d_model):
    return 8.0 * batch * n * d_model ** 2.0 + 4 * batch * n ** 2.0 * d_model / 1
'''},
    # ---------------- longest_sequence ----------------
    {"exercise": "longest_sequence", "kind": "correct", "idea": "math.isqrt of memory // (batch * heads * bytes)",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (batch * heads * bytes_per_number))
'''},
    {"exercise": "longest_sequence", "kind": "correct", "idea": "float sqrt as a first guess, then integer correction loops",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per = batch * heads * bytes_per_number
    n = int(math.sqrt(memory_bytes / per))
    while per * (n + 1) ** 2 <= memory_bytes:
        n += 1
    while n > 0 and per * n * n > memory_bytes:
        n -= 1
    return n
'''},
    {"exercise": "longest_sequence", "kind": "wrong", "mistake": "int(math.sqrt(memory / per)): float rounding gives n one too large just below a perfect square for large inputs",
     "teacher_says": "float square roots round: for large memories just below per * n^2 the result is n instead of n - 1; use math.isqrt on integers",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return int(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
    {"exercise": "longest_sequence", "kind": "wrong", "mistake": "rounds to the nearest integer instead of down",
     "teacher_says": "n must fit: round down, never up",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return round(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
    {"exercise": "longest_sequence", "kind": "wrong", "mistake": "forgets the bytes per number (counts numbers, not bytes)",
     "teacher_says": "each weight takes bytes_per_number bytes: divide the memory by it too",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (batch * heads))
'''},
    {"exercise": "longest_sequence", "kind": "wrong", "mistake": "forgets the square root: solves for n^2, not n",
     "teacher_says": "the weights hold n^2 numbers per head and sequence: take the integer square root",
     "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return memory_bytes // (batch * heads * bytes_per_number)
'''},
    {"exercise": "longest_sequence", "kind": "wrong", "mistake": "uses ceil: the answer does not fit",
     "teacher_says": "the largest n that fits is the floor of the square root",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.ceil(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
    {"exercise": "longest_sequence", "kind": "robustness", "idea": "brute-force search counting up from 1 (very slow for large memories)",
     "mistake": "linear search over n: takes millions of steps for GB-sized memories",
     "teacher_says": "the answer follows from a square root; counting up one by one is far too slow",
     "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    n = 0
    while batch * heads * (n + 1) ** 2 * bytes_per_number <= memory_bytes:
        n += 1
    return n
'''},
    {"exercise": "longest_sequence", "kind": "robustness", "idea": "returns a float",
     "mistake": "math.floor of a float kept as float (np.floor)",
     "teacher_says": "return an int",
     "code": '''
import numpy as np

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return np.floor(np.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
    # ---------------- key_block_size ----------------
    {"exercise": "key_block_size", "kind": "correct", "idea": "columns that fit, clamped to [1, n_k]",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    per_key = batch * heads * n_q * bytes_per_number
    return max(1, min(n_k, budget_bytes // per_key))
'''},
    {"exercise": "key_block_size", "kind": "correct", "idea": "explicit if/else clamping with integer division",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = int(budget_bytes) // int(batch * heads * n_q * bytes_per_number)
    if block < 1:
        return 1
    if block > n_k:
        return int(n_k)
    return int(block)
'''},
    {"exercise": "key_block_size", "kind": "wrong", "mistake": "no lower clamp: returns 0 when one column does not fit",
     "teacher_says": "the loop must advance: return at least 1",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return min(n_k, budget_bytes // (batch * heads * n_q * bytes_per_number))
'''},
    {"exercise": "key_block_size", "kind": "wrong", "mistake": "no upper clamp: returns more than n_k for a large budget",
     "teacher_says": "a block never holds more than n_k keys",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, budget_bytes // (batch * heads * n_q * bytes_per_number))
'''},
    {"exercise": "key_block_size", "kind": "wrong", "mistake": "divides by n_k instead of n_q (a column of scores has n_q entries)",
     "teacher_says": "one key's column of scores holds batch * heads * n_q numbers",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, min(n_k, budget_bytes // (batch * heads * n_k * bytes_per_number)))
'''},
    {"exercise": "key_block_size", "kind": "wrong", "mistake": "rounds up (ceil division): the block exceeds the budget",
     "teacher_says": "the block must take at most budget_bytes: round down",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    per_key = batch * heads * n_q * bytes_per_number
    return max(1, min(n_k, -(-budget_bytes // per_key)))
'''},
    {"exercise": "key_block_size", "kind": "wrong", "mistake": "forgets the heads",
     "teacher_says": "the scores have a heads axis: batch * heads * n_q * bytes per key",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, min(n_k, budget_bytes // (batch * n_q * bytes_per_number)))
'''},
    {"exercise": "key_block_size", "kind": "robustness", "idea": "float division, returns a float",
     "mistake": "uses / and returns e.g. 12.5",
     "teacher_says": "a block size is a whole number of keys: use //",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, min(n_k, budget_bytes / (batch * heads * n_q * bytes_per_number)))
'''},
    # ---------------- attention_weights_bytes ----------------
    {"exercise": "attention_weights_bytes", "kind": "correct", "idea": "B * h * n^2 * 2",
     "code": '''
attention_weights_bytes = 4 * 16 * 8192 ** 2 * 2
'''},
    {"exercise": "attention_weights_bytes", "kind": "correct", "idea": "NumPy: the nbytes of the shape in float16, as a Python int",
     "code": '''
import numpy as np
attention_weights_bytes = int(np.prod((4, 16, 8192, 8192), dtype=np.int64)) * np.dtype(np.float16).itemsize
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong", "mistake": "forgets the 2 bytes per number",
     "teacher_says": "float16 takes 2 bytes per number: multiply the count by 2",
     "code": '''
attention_weights_bytes = 4 * 16 * 8192 ** 2
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong", "mistake": "4 bytes per number (float32)",
     "teacher_says": "the weights are float16: 2 bytes, not 4",
     "code": '''
attention_weights_bytes = 4 * 16 * 8192 ** 2 * 4
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong", "mistake": "one (n, n) matrix per sequence (averaged over heads)",
     "teacher_says": "there is one matrix per sequence *and* head: multiply by 16",
     "code": '''
attention_weights_bytes = 4 * 8192 ** 2 * 2
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong", "mistake": "answers in GiB (8) instead of bytes",
     "teacher_says": "assign the number of bytes, not gigabytes",
     "code": '''
attention_weights_bytes = 8
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong", "mistake": "n instead of n^2 entries per head",
     "teacher_says": "each head's weights are n x n",
     "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 2
'''},
    {"exercise": "attention_weights_bytes", "kind": "robustness", "idea": "computed through a NumPy int32 product that overflows",
     "mistake": "np.int32 arithmetic wraps around above 2^31",
     "teacher_says": "8.6e9 does not fit in int32; use Python ints",
     "code": '''
import numpy as np
with np.errstate(over="ignore"):
    attention_weights_bytes = int(np.prod(np.array([4, 16, 8192, 8192, 2], dtype=np.int32), dtype=np.int32))
'''},
]
