ANSWERS = [
 {"exercise": "attention_flops", "kind": "correct", "idea": "8 B n d^2 + 4 B n^2 d", "code": '''
def attention_flops(batch, n, d_model):
    return 8 * batch * n * d_model**2 + 4 * batch * n * n * d_model
'''},
 {"exercise": "attention_flops", "kind": "correct", "idea": "sum of the six products via a helper, Python ints", "code": '''
def attention_flops(batch, n, d_model):
    mm = lambda m, k, p: 2 * m * k * p
    b, n, d = int(batch), int(n), int(d_model)
    proj = 4 * mm(b * n, d, d)
    return proj + mm(b * n, d, n) + mm(b * n, n, d)
'''},
 {"exercise": "attention_flops", "kind": "wrong", "mistake": "multiply-add counted as 1", "teacher_says": "a multiply-add is 2 operations: your count is half", "code": '''
def attention_flops(batch, n, d_model):
    return 4 * batch * n * d_model**2 + 2 * batch * n * n * d_model
'''},
 {"exercise": "attention_flops", "kind": "wrong", "mistake": "forgot the output projection (3 projections)", "teacher_says": "count all four projections, W^O included", "code": '''
def attention_flops(batch, n, d_model):
    return 6 * batch * n * d_model**2 + 4 * batch * n * n * d_model
'''},
 {"exercise": "attention_flops", "kind": "wrong", "mistake": "returns a float (uses ** 2.0)", "teacher_says": "return an integer: floats round large counts", "code": '''
def attention_flops(batch, n, d_model):
    return 8 * batch * n * d_model**2.0 + 4 * batch * n**2.0 * d_model
'''},
 {"exercise": "attention_flops", "kind": "wrong", "mistake": "batch forgotten on the n^2 terms", "teacher_says": "QK^T and PV are computed for every sequence of the batch", "code": '''
def attention_flops(batch, n, d_model):
    return 8 * batch * n * d_model**2 + 4 * n * n * d_model
'''},
 {"exercise": "attention_flops", "kind": "robustness", "idea": "int32 numpy overflow for large sizes", "mistake": "np.int32 arithmetic", "teacher_says": "the count overflows 32-bit integers; use Python ints", "code": '''
import numpy as np
def attention_flops(batch, n, d_model):
    b, n, d = np.int32(batch), np.int32(n), np.int32(d_model)
    with np.errstate(over="ignore"):
        return np.int32(8) * b * n * d * d + np.int32(4) * b * n * n * d
'''},
 {"exercise": "longest_sequence", "kind": "correct", "idea": "isqrt of the number of entries per matrix", "code": '''
import math
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(int(memory_bytes) // (batch * heads * bytes_per_number))
'''},
 {"exercise": "longest_sequence", "kind": "correct", "idea": "float guess then integer correction", "code": '''
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
 {"exercise": "longest_sequence", "kind": "wrong", "mistake": "rounds the square root to the nearest integer: the rounded-up n does not fit", "teacher_says": "the largest n that fits is the square root rounded down (math.isqrt)", "code": '''
import math
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return round(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
 {"exercise": "longest_sequence", "kind": "wrong", "mistake": "forgot bytes_per_number", "teacher_says": "the memory counts bytes: divide by bytes per number too", "code": '''
import math
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (batch * heads))
'''},
 {"exercise": "longest_sequence", "kind": "wrong", "mistake": "linear in n (forgot the square)", "teacher_says": "the weights are (n, n): memory grows as n^2", "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return memory_bytes // (batch * heads * bytes_per_number)
'''},
 {"exercise": "longest_sequence", "kind": "wrong", "mistake": "heads forgotten", "teacher_says": "every head has its own (n, n) matrix", "code": '''
import math
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (batch * bytes_per_number))
'''},
 {"exercise": "longest_sequence", "kind": "robustness", "idea": "returns a numpy float", "mistake": "np.floor(np.sqrt) returns float", "teacher_says": "return an int", "code": '''
import numpy as np
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return np.floor(np.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
 {"exercise": "longest_sequence", "kind": "robustness", "idea": "very slow: counts up from 1", "mistake": "linear search", "teacher_says": "solve for n directly; counting up is slow for large memory", "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    n = 0
    per = batch * heads * bytes_per_number
    while per * (n + 1) * (n + 1) <= memory_bytes:
        n += 1
    return n
'''},
 {"exercise": "key_block_size", "kind": "correct", "idea": "floor division then clamp", "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    per_key = batch * heads * n_q * bytes_per_number
    return max(1, min(n_k, budget_bytes // per_key))
'''},
 {"exercise": "key_block_size", "kind": "correct", "idea": "numpy clip, cast to int", "code": '''
import numpy as np
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return int(np.clip(int(budget_bytes) // int(batch * heads * n_q * bytes_per_number), 1, n_k))
'''},
 {"exercise": "key_block_size", "kind": "wrong", "mistake": "no lower clamp: returns 0 for a tiny budget", "teacher_says": "at least 1 key per block, or the loop never advances", "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return min(n_k, budget_bytes // (batch * heads * n_q * bytes_per_number))
'''},
 {"exercise": "key_block_size", "kind": "wrong", "mistake": "rounds up (ceil): exceeds the budget", "teacher_says": "the block must fit the budget: round down", "code": '''
import math
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, min(n_k, math.ceil(budget_bytes / (batch * heads * n_q * bytes_per_number))))
'''},
 {"exercise": "key_block_size", "kind": "wrong", "mistake": "uses n_k instead of n_q per key column", "teacher_says": "one key's column has n_q scores per batch and head", "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, min(n_k, budget_bytes // (batch * heads * n_k * bytes_per_number)))
'''},
 {"exercise": "key_block_size", "kind": "wrong", "mistake": "no upper clamp", "teacher_says": "a block holds at most n_k keys", "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, budget_bytes // (batch * heads * n_q * bytes_per_number))
'''},
 {"exercise": "attention_weights_bytes", "kind": "correct", "idea": "B h n^2 * 2", "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 2
'''},
 {"exercise": "attention_weights_bytes", "kind": "correct", "idea": "shifts", "code": '''
attention_weights_bytes = (4 * 16 * 2) << 26
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong", "mistake": "float32 bytes", "teacher_says": "float16 is 2 bytes per number, not 4", "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 4
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong", "mistake": "in GiB not bytes", "teacher_says": "assign bytes, not gigabytes", "code": '''
attention_weights_bytes = 8
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong", "mistake": "forgot the heads", "teacher_says": "one matrix per head", "code": '''
attention_weights_bytes = 4 * 8192 * 8192 * 2
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong", "mistake": "n not squared", "teacher_says": "the weights are (n, n) per sequence and head", "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 2
'''},
 {"exercise": "attention_weights_bytes", "kind": "robustness", "idea": "float via scientific notation", "mistake": "float", "teacher_says": "assign an int", "code": '''
attention_weights_bytes = 8.589934592e9
'''},
 {"exercise": "attention_flops", "kind": "wrong", "mistake": "counts QK^T but forgets PV",
  "teacher_says": "two n x n products: the scores QK^T and the weighted sum PV",
  "code": '''
def attention_flops(batch, n, d_model):
    return 8 * batch * n * d_model**2 + 2 * batch * n * n * d_model
'''},
]
