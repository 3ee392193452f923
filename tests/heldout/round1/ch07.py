ANSWERS = [
    # attention_flops
    {"exercise": "attention_flops", "kind": "correct", "idea": "sum of 2*m*k*p over the six products",
     "code": '''
def attention_flops(batch, n, d_model):
    def mm(m, k, p):
        return 2 * m * k * p
    proj = 4 * mm(batch * n, d_model, d_model)
    scores = mm(batch * n, d_model, n)
    pv = mm(batch * n, n, d_model)
    return proj + scores + pv
'''},
    {"exercise": "attention_flops", "kind": "correct", "idea": "closed form 8 B n d^2 + 4 B n^2 d",
     "code": '''
def attention_flops(batch, n, d_model):
    return 8 * batch * n * d_model ** 2 + 4 * batch * n ** 2 * d_model
'''},
    {"exercise": "attention_flops", "kind": "wrong", "mistake": "counts a multiply-add as 1 operation",
     "teacher_says": "a multiply-add is 2 operations",
     "code": '''
def attention_flops(batch, n, d_model):
    return 4 * batch * n * d_model ** 2 + 2 * batch * n ** 2 * d_model
'''},
    {"exercise": "attention_flops", "kind": "wrong", "mistake": "only three projections (forgot W^O)",
     "teacher_says": "count the four projections, W^O included",
     "code": '''
def attention_flops(batch, n, d_model):
    return 6 * batch * n * d_model ** 2 + 4 * batch * n ** 2 * d_model
'''},
    {"exercise": "attention_flops", "kind": "wrong", "mistake": "counts only one of QK^T and PV",
     "teacher_says": "both QK^T and PV are n x n x d products",
     "code": '''
def attention_flops(batch, n, d_model):
    return 8 * batch * n * d_model ** 2 + 2 * batch * n ** 2 * d_model
'''},
    {"exercise": "attention_flops", "kind": "wrong", "mistake": "forgets the batch in the attention products",
     "teacher_says": "every sequence of the batch has its own QK^T and PV",
     "code": '''
def attention_flops(batch, n, d_model):
    return 8 * batch * n * d_model ** 2 + 4 * n ** 2 * d_model
'''},
    {"exercise": "attention_flops", "kind": "robustness", "idea": "returns a float from ** 2.0",
     "mistake": "uses float arithmetic; big counts lose exactness",
     "teacher_says": "keep integers: a float loses exactness beyond 2**53",
     "code": '''
def attention_flops(batch, n, d_model):
    return 8.0 * batch * n * d_model ** 2.0 + 4.0 * batch * n ** 2.0 * d_model
'''},
    # longest_sequence
    {"exercise": "longest_sequence", "kind": "correct", "idea": "math.isqrt of the integer quotient",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(int(memory_bytes) // (batch * heads * bytes_per_number))
'''},
    {"exercise": "longest_sequence", "kind": "correct", "idea": "float sqrt then correct by stepping",
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
    {"exercise": "longest_sequence", "kind": "wrong", "mistake": "rounds the square root instead of flooring",
     "teacher_says": "round() can go one above the limit; take the floor",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return round(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
    {"exercise": "longest_sequence", "kind": "wrong", "mistake": "forgets bytes_per_number",
     "teacher_says": "each weight takes bytes_per_number bytes",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (batch * heads))
'''},
    {"exercise": "longest_sequence", "kind": "wrong", "mistake": "linear in n, not n^2 (no square root)",
     "teacher_says": "the weights grow as n^2: solve for n with a square root",
     "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return memory_bytes // (batch * heads * bytes_per_number)
'''},
    {"exercise": "longest_sequence", "kind": "wrong", "mistake": "float sqrt floor: imprecise for huge memory (off by one)",
     "teacher_says": "int(math.sqrt(x)) can be off by one for large x; use math.isqrt",
     "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return int(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)) + 1e-9) if memory_bytes < 2**52 else int(math.sqrt(float(memory_bytes)) / math.sqrt(batch * heads * bytes_per_number)) + 1
'''},
    {"exercise": "longest_sequence", "kind": "robustness", "idea": "returns a numpy float",
     "mistake": "np.floor(np.sqrt(...)) returns np.float64",
     "teacher_says": "return an int",
     "code": '''
import numpy as np

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return np.floor(np.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
    # key_block_size
    {"exercise": "key_block_size", "kind": "correct", "idea": "floor division, then clamp with max/min",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    col = batch * heads * n_q * bytes_per_number
    return max(1, min(n_k, budget_bytes // col))
'''},
    {"exercise": "key_block_size", "kind": "correct", "idea": "if/else clamping with int()",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    b = int(budget_bytes // (batch * heads * n_q * bytes_per_number))
    if b < 1:
        b = 1
    if b > n_k:
        b = n_k
    return int(b)
'''},
    {"exercise": "key_block_size", "kind": "wrong", "mistake": "no lower bound: returns 0 when one column exceeds the budget",
     "teacher_says": "the block must be at least 1 or the loop never advances",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return min(n_k, budget_bytes // (batch * heads * n_q * bytes_per_number))
'''},
    {"exercise": "key_block_size", "kind": "wrong", "mistake": "no upper bound at n_k",
     "teacher_says": "a block has at most n_k keys",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, budget_bytes // (batch * heads * n_q * bytes_per_number))
'''},
    {"exercise": "key_block_size", "kind": "wrong", "mistake": "uses n_k instead of n_q in the column size",
     "teacher_says": "one key's column of scores has batch*heads*n_q numbers",
     "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, min(n_k, budget_bytes // (batch * heads * n_k * bytes_per_number)))
'''},
    {"exercise": "key_block_size", "kind": "wrong", "mistake": "rounds up (ceil): exceeds the budget",
     "teacher_says": "round down: a block that rounds up takes more than budget_bytes",
     "code": '''
import math

def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, min(n_k, math.ceil(budget_bytes / (batch * heads * n_q * bytes_per_number))))
'''},
    # attention_weights_bytes
    {"exercise": "attention_weights_bytes", "kind": "correct", "idea": "B*h*n*n*2",
     "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 2
'''},
    {"exercise": "attention_weights_bytes", "kind": "correct", "idea": "with numpy dtype itemsize, cast to int",
     "code": '''
import numpy as np
attention_weights_bytes = int(4 * 16 * 8192**2 * np.dtype(np.float16).itemsize)
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong", "mistake": "n instead of n^2",
     "teacher_says": "one (n, n) matrix per sequence and head",
     "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 2
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong", "mistake": "counts numbers, not bytes",
     "teacher_says": "multiply by 2 bytes per float16 number",
     "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong", "mistake": "float32 (4 bytes)",
     "teacher_says": "float16 takes 2 bytes, not 4",
     "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 4
'''},
    {"exercise": "attention_weights_bytes", "kind": "robustness", "idea": "answer in GiB as a float",
     "mistake": "converted to GiB (8.0) instead of bytes",
     "teacher_says": "the question asks for bytes, as an int",
     "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 2 / 2**30
'''},
    {"exercise": "attention_weights_bytes", "kind": "wrong", "mistake": "uses 8000 for 8192 (decimal k)",
     "teacher_says": "n = 8192 tokens exactly",
     "code": '''
attention_weights_bytes = 4 * 16 * 8000 * 8000 * 2
'''},
]
