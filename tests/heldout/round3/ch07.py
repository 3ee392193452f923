ANSWERS = [
    {"exercise": "attention_flops", "kind": "correct", "idea": "8 B n d^2 + 4 B n^2 d with Python ints",
     "code": '''
def attention_flops(batch, n, d_model):
    b, n, d = int(batch), int(n), int(d_model)
    return 8 * b * n * d * d + 4 * b * n * n * d
'''},
    {"exercise": "attention_flops", "kind": "correct", "idea": "sum of the six matmuls, each 2*m*k*n",
     "code": '''
def attention_flops(batch, n, d_model):
    def mm(m, k, p):
        return 2 * m * k * p
    b, n, d = int(batch), int(n), int(d_model)
    proj = 4 * mm(b * n, d, d)
    qk = mm(b * n, d, n)
    pv = mm(b * n, n, d)
    return proj + qk + pv
'''},
    {"exercise": "attention_flops", "kind": "wrong", "mistake": "multiply-add counted as 1 operation",
     "teacher_says": "a multiply-add counts as 2 operations: your count is half",
     "code": '''
def attention_flops(batch, n, d_model):
    return 4 * batch * n * d_model**2 + 2 * batch * n**2 * d_model
'''},
    {"exercise": "attention_flops", "kind": "wrong", "mistake": "only three projections (forgot W^O)",
     "teacher_says": "count all four projections, W^O included",
     "code": '''
def attention_flops(batch, n, d_model):
    return 6 * batch * n * d_model**2 + 4 * batch * n**2 * d_model
'''},
    {"exercise": "attention_flops", "kind": "wrong", "mistake": "returns a float (uses ** 2.0 / math.pow)",
     "teacher_says": "return an integer: floats round large counts",
     "code": '''
import math

def attention_flops(batch, n, d_model):
    return 8 * batch * n * math.pow(d_model, 2) + 4 * batch * math.pow(n, 2) * d_model
'''},
    {"exercise": "attention_flops", "kind": "wrong", "mistake": "QK^T and PV counted once only (one n^2 product)",
     "teacher_says": "both QK^T and PV cost 2 B n^2 d each",
     "code": '''
def attention_flops(batch, n, d_model):
    return 8 * batch * n * d_model * d_model + 2 * batch * n * n * d_model
'''},
    {"exercise": "attention_flops", "kind": "wrong", "mistake": "int32 numpy arithmetic overflows for large sizes",
     "teacher_says": "np.int32 overflows above 2^31; use Python ints",
     "code": '''
import numpy as np

def attention_flops(batch, n, d_model):
    b, n, d = np.int32(batch), np.int32(n), np.int32(d_model)
    with np.errstate(over="ignore"):
        return np.int32(8) * b * n * d * d + np.int32(4) * b * n * n * d
'''},
    {"exercise": "longest_sequence", "kind": "correct", "idea": "math.isqrt of the number of numbers",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(int(memory_bytes) // (batch * heads * bytes_per_number))
'''},
    {"exercise": "longest_sequence", "kind": "correct", "idea": "float sqrt then fix up with integer checks",
     "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per = batch * heads * bytes_per_number
    n = int((memory_bytes / per) ** 0.5)
    while (n + 1) * (n + 1) * per <= memory_bytes:
        n += 1
    while n > 0 and n * n * per > memory_bytes:
        n -= 1
    return n
'''},
    {"exercise": "longest_sequence", "kind": "wrong", "mistake": "round() instead of floor: can exceed the memory",
     "teacher_says": "the sequence must fit: round down, not to the nearest",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return round(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
    {"exercise": "longest_sequence", "kind": "wrong", "mistake": "forgets the heads",
     "teacher_says": "there is one n x n matrix per head: divide by heads too",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (batch * bytes_per_number))
'''},
    {"exercise": "longest_sequence", "kind": "wrong", "mistake": "linear in n (forgot the square)",
     "teacher_says": "the weights are n x n: n^2 numbers per head and sequence",
     "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return memory_bytes // (batch * heads * bytes_per_number)
'''},
    {"exercise": "longest_sequence", "kind": "wrong", "mistake": "bits instead of bytes (multiplies by 8)",
     "teacher_says": "bytes_per_number is already in bytes",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (batch * heads * bytes_per_number * 8))
'''},
    {"exercise": "longest_sequence", "kind": "robustness", "idea": "returns a NumPy float64 (np.floor) instead of an int",
     "code": '''
import numpy as np

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return np.floor(np.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
    {"exercise": "key_block_size", "kind": "correct", "idea": "floor division, clamp to [1, n_k]",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    per_key = batch * heads * n_q * bytes_per_number
    return int(max(1, min(n_k, budget_bytes // per_key)))
'''},
    {"exercise": "key_block_size", "kind": "correct", "idea": "search loop",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = 1
    while block < n_k and batch * heads * n_q * (block + 1) * bytes_per_number <= budget_bytes:
        block += 1
    return block
'''},
    {"exercise": "key_block_size", "kind": "wrong", "mistake": "no lower clamp: returns 0 when even one key is over budget",
     "teacher_says": "the block must be at least 1 so the loop advances",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return min(n_k, budget_bytes // (batch * heads * n_q * bytes_per_number))
'''},
    {"exercise": "key_block_size", "kind": "wrong", "mistake": "no upper clamp: can exceed n_k",
     "teacher_says": "a block cannot hold more than n_k keys",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, budget_bytes // (batch * heads * n_q * bytes_per_number))
'''},
    {"exercise": "key_block_size", "kind": "wrong", "mistake": "ceil instead of floor: block slightly over budget",
     "teacher_says": "the block must fit within the budget: round down",
     "code": '''
import math

def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, min(n_k, math.ceil(budget_bytes / (batch * heads * n_q * bytes_per_number))))
'''},
    {"exercise": "key_block_size", "kind": "wrong", "mistake": "uses n_k instead of n_q in the per-key size",
     "teacher_says": "a block of scores is (batch, heads, n_q, block): each key costs batch*heads*n_q numbers",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, min(n_k, budget_bytes // (batch * heads * n_k * bytes_per_number)))
'''},
    {"exercise": "key_block_size", "kind": "robustness", "idea": "returns a float (true division floored with // 1)",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1.0, min(float(n_k), budget_bytes / (batch * heads * n_q * bytes_per_number) // 1))
'''},
    {"exercise": "attention_weights_bytes", "kind": "correct", "idea": "B*h*n*n*2", "code": "\nattention_weights_bytes = 4 * 16 * 8192 * 8192 * 2\n"},
    {"exercise": "attention_weights_bytes", "kind": "correct", "idea": "power of two", "code": "\nattention_weights_bytes = 2 ** 33\n"},
    {"exercise": "attention_weights_bytes", "kind": "wrong", "mistake": "gigabytes (8.0) instead of bytes", "teacher_says": "assign the number of bytes, not GiB", "code": "\nattention_weights_bytes = 8\n"},
    {"exercise": "attention_weights_bytes", "kind": "wrong", "mistake": "float32 size used (4 bytes)", "teacher_says": "float16 takes 2 bytes per number", "code": "\nattention_weights_bytes = 4 * 16 * 8192 * 8192 * 4\n"},
    {"exercise": "attention_weights_bytes", "kind": "wrong", "mistake": "forgot the batch", "teacher_says": "there are B = 4 sequences", "code": "\nattention_weights_bytes = 16 * 8192 * 8192 * 2\n"},
    {"exercise": "attention_weights_bytes", "kind": "wrong", "mistake": "n not squared (n * d guess with 8192 once)", "teacher_says": "each head's weights are n x n", "code": "\nattention_weights_bytes = 4 * 16 * 8192 * 2\n"},
    {"exercise": "attention_weights_bytes", "kind": "robustness", "idea": "float 8.589934592e9", "code": "\nattention_weights_bytes = 8.589934592e9\n"},
]
