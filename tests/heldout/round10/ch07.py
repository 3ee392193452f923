# writer C's answers, then writer G's (each file verbatim)
"""Writer C, chapter 07 (Attention on the GPU): student answers."""

ANSWERS = [
 # ---------------------------------------------------------------- attention_flops
 {"exercise": "attention_flops", "kind": "correct",
  "idea": "factor the two terms: 4*B*n*d*(2d + n), in Python ints",
  "code": '''
def attention_flops(batch, n, d_model):
    b, n, d = int(batch), int(n), int(d_model)
    # projections 4 * (2 n d^2), QK^T and PV 2 * (2 n^2 d), per sequence
    return 4 * b * n * d * (2 * d + n)
'''},
 {"exercise": "attention_flops", "kind": "robustness",
  "idea": "lists every matrix product, per sequence and per head, and adds 2*m*k*p in a Python loop",
  "code": '''
def attention_flops(batch, n, d_model):
    total = 0
    for _ in range(int(batch)):
        products = [(n, d_model, d_model)] * 4   # W^Q, W^K, W^V, W^O
        products.append((n, d_model, n))         # QK^T (heads together are d_model wide)
        products.append((n, n, d_model))         # PV
        for m, k, p in products:
            total += 2 * int(m) * int(k) * int(p)
    return total
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Counts a multiply-add as one operation, so every term is half what it should be.",
  "teacher_says": "The statement counts a multiply-add as 2 operations: each dot product of k terms costs 2k FLOPs.",
  "code": '''
def attention_flops(batch, n, d_model):
    return 4 * batch * n * d_model**2 + 2 * batch * n**2 * d_model
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Uses math.pow for the squares, so the count comes back as a float.",
  "teacher_says": "math.pow always returns a float; keep the count in integers (n * n or n ** 2) so it stays exact.",
  "code": '''
import math

def attention_flops(batch, n, d_model):
    projections = 8 * batch * n * math.pow(d_model, 2)
    attention = 4 * batch * math.pow(n, 2) * d_model
    return projections + attention
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Counts only the Q, K and V projections and forgets the output projection W^O.",
  "teacher_says": "There are four projections, W^O included: 8 B n d^2, not 6 B n d^2.",
  "code": '''
def attention_flops(batch, n, d_model):
    projections = 3 * 2 * batch * n * d_model * d_model   # Q, K, V
    scores_and_values = 2 * 2 * batch * n * n * d_model
    return projections + scores_and_values
'''},

 # ---------------------------------------------------------------- longest_sequence
 {"exercise": "longest_sequence", "kind": "correct",
  "idea": "integer division by the bytes of one (n=1) entry per (batch, head), then math.isqrt",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per_square = batch * heads * bytes_per_number   # bytes for each of the n*n positions
    return math.isqrt(memory_bytes // per_square)
'''},
 {"exercise": "longest_sequence", "kind": "robustness",
  "idea": "float square root as a first guess, then walks n down and up one step at a time until it is exact",
  "code": '''
def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    def fits(n):
        return batch * heads * n * n * bytes_per_number <= memory_bytes

    n = int((memory_bytes / (batch * heads * bytes_per_number)) ** 0.5)
    while n > 0 and not fits(n):
        n -= 1
    while fits(n + 1):
        n += 1
    return int(n)
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Takes a floating-point square root, which rounds and can be one too large (or small) for big memories.",
  "teacher_says": "A float sqrt of a number above 2**52 is not exact; use math.isqrt on the integer quotient.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return int(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Leaves the batch out of the memory: sizes the (heads, n, n) weights of one sequence only.",
  "teacher_says": "The weights are (batch, heads, n, n): every sequence of the batch has its own maps.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (heads * bytes_per_number))
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Clamps the answer to at least 1, as the block-size exercise does, so it returns 1 when not even n = 1 fits.",
  "teacher_says": "Here 0 is a valid answer: when one number per head does not fit, no sequence fits.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    n = math.isqrt(memory_bytes // (batch * heads * bytes_per_number))
    return max(1, n)
'''},

 # ---------------------------------------------------------------- key_block_size
 {"exercise": "key_block_size", "kind": "correct",
  "idea": "bytes of one key's column, floor division, clamped with sorted() middle element",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    column = batch * heads * n_q * bytes_per_number
    keys = budget_bytes // column
    return int(sorted([1, keys, n_k])[1]) if n_k >= 1 else 1
'''},
 {"exercise": "key_block_size", "kind": "robustness",
  "idea": "starts at n_k and removes one key at a time until the block fits (stops at 1)",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = n_k
    while block > 1 and batch * heads * n_q * block * bytes_per_number > budget_bytes:
        block -= 1
    return int(block)
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Forgets the lower bound: a budget smaller than one column gives a block of 0 keys.",
  "teacher_says": "A block of 0 keys never advances the loop; clamp the result to at least 1.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return min(n_k, budget_bytes // (batch * heads * n_q * bytes_per_number))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Sizes one key's column with n_k instead of n_q: a column has one score per query, not per key.",
  "teacher_says": "The block is (batch, heads, n_q, block): one more key adds n_q scores per head and sequence.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    column = batch * heads * n_k * bytes_per_number
    return max(1, min(n_k, budget_bytes // column))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Rounds the number of columns up instead of down, so the block can exceed the budget.",
  "teacher_says": "The largest block that fits is the floor of budget / column; rounding up overshoots the budget.",
  "code": '''
import math

def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    column = batch * heads * n_q * bytes_per_number
    return max(1, min(n_k, math.ceil(budget_bytes / column)))
'''},

 # ---------------------------------------------------------------- attention_weights_bytes
 {"exercise": "attention_weights_bytes", "kind": "correct",
  "idea": "B * h * n^2 numbers, 2 bytes each, written as a product of named sizes",
  "code": '''
B, h, n, bytes_fp16 = 4, 16, 8192, 2
attention_weights_bytes = B * h * n * n * bytes_fp16
'''},
 {"exercise": "attention_weights_bytes", "kind": "robustness",
  "idea": "builds a float16 tensor on PyTorch's meta device (no memory) and asks its numel and element size",
  "code": '''
import torch

_weights = torch.empty((4, 16, 8192, 8192), dtype=torch.float16, device="meta")
attention_weights_bytes = _weights.numel() * _weights.element_size()
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Counts 4 bytes per number, as for float32, although the weights are float16.",
  "teacher_says": "float16 takes 2 bytes per number; 4 is float32's size.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 4
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Converts to GB (divides by 1e9) although the exercise asks for bytes as an int.",
  "teacher_says": "The question asks for bytes: keep the integer count, and compare with 16e9 separately.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 2 / 1e9
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Forgets the batch: counts the weights of one sequence only.",
  "teacher_says": "Each of the B = 4 sequences has its own (h, n, n) weights: multiply by the batch too.",
  "code": '''
attention_weights_bytes = 16 * 8192 * 8192 * 2
'''},
]

_WRITER_C = ANSWERS

ANSWERS = [
 # ------------------------------------------------------------------ attention_flops
 {"exercise": "attention_flops", "kind": "correct",
  "idea": "factor the count: 4 B n d (2 d + n), all in Python ints",
  "code": '''
def attention_flops(batch, n, d_model):
    # 4 projections of (n, d) x (d, d): 4 * 2 n d^2 ; QK^T and PV: 2 * 2 n^2 d
    return 4 * int(batch) * int(n) * int(d_model) * (2 * int(d_model) + int(n))
'''},
 {"exercise": "attention_flops", "kind": "robustness",
  "idea": "counts every matrix product with a helper, one sequence at a time in a Python loop",
  "code": '''
def attention_flops(batch, n, d_model):
    def matmul(m, k, p):
        return 2 * m * k * p  # m*p dot products of k terms, multiply-add = 2

    total = 0
    for _ in range(batch):
        for _ in ("q", "k", "v", "o"):
            total += matmul(n, d_model, d_model)
        total += matmul(n, d_model, n)   # Q K^T
        total += matmul(n, n, d_model)   # P V
    return total
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Counts a multiply-add as one operation: 4 B n d^2 + 2 B n^2 d, half the asked count.",
  "teacher_says": "The statement counts a multiply-add as 2 operations: every dot product of k terms is 2k FLOPs.",
  "code": '''
def attention_flops(batch, n, d_model):
    projections = 4 * batch * n * d_model * d_model
    attention = 2 * batch * n * n * d_model
    return projections + attention
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Uses math.pow for the squares, so the count comes back as a float.",
  "teacher_says": "math.pow always returns a float; use ** on ints so that the count stays an exact int.",
  "code": '''
import math

def attention_flops(batch, n, d_model):
    return 8 * batch * n * math.pow(d_model, 2) + 4 * batch * math.pow(n, 2) * d_model
'''},
 {"exercise": "attention_flops", "kind": "wrong",
  "mistake": "Counts only the Q, K and V projections and forgets the output projection W^O: 6 B n d^2 instead of 8 B n d^2.",
  "teacher_says": "There are four projections: W^Q, W^K, W^V and the output projection W^O.",
  "code": '''
def attention_flops(batch, n, d_model):
    qkv = 3 * 2 * batch * n * d_model * d_model
    scores_and_sum = 2 * 2 * batch * n * n * d_model
    return qkv + scores_and_sum
'''},
 # ------------------------------------------------------------------ longest_sequence
 {"exercise": "longest_sequence", "kind": "correct",
  "idea": "integer square root of how many n^2 fit, with divmod-free floor division",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per_square = batch * heads * bytes_per_number  # bytes per unit of n^2
    return math.isqrt(memory_bytes // per_square)
'''},
 {"exercise": "longest_sequence", "kind": "robustness",
  "idea": "float square root, then nudged up and down with integer checks until exact; returns a NumPy int64",
  "code": '''
import numpy as np

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    per = batch * heads * bytes_per_number
    n = int(np.sqrt(memory_bytes / per))
    while per * (n + 1) ** 2 <= memory_bytes:
        n += 1
    while n > 0 and per * n * n > memory_bytes:
        n -= 1
    return np.int64(n)
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Takes a floating-point square root and truncates it; for large memories the float rounds up and n is one too many.",
  "teacher_says": "A float has 53 bits: sqrt of a large count can land just above the true root; use math.isqrt on integers.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return int(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Forgets the batch axis: sizes one (heads, n, n) array, as in the chapter's T4 example, not (batch, heads, n, n).",
  "teacher_says": "The weights have a batch axis too: every sequence of the batch has its own h n^2 numbers.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (heads * bytes_per_number))
'''},
 {"exercise": "longest_sequence", "kind": "wrong",
  "mistake": "Rounds the square root to the nearest integer instead of down, so n can overshoot the memory.",
  "teacher_says": "You need the largest n that fits, so round down: round(1.73) = 2 does not fit.",
  "code": '''
import math

def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    return round(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))
'''},
 # ------------------------------------------------------------------ key_block_size
 {"exercise": "key_block_size", "kind": "correct",
  "idea": "columns that fit, clamped with sorted() to [1, n_k]",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    column = batch * heads * n_q * bytes_per_number  # bytes of one key's scores
    fits = budget_bytes // column
    return int(sorted((1, fits, n_k))[1])
'''},
 {"exercise": "key_block_size", "kind": "robustness",
  "idea": "grows the block one key at a time while the next key still fits (a slow Python loop)",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = 1
    while block < n_k and batch * heads * n_q * (block + 1) * bytes_per_number <= budget_bytes:
        block += 1
    return block
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Clamps only from above: when not even one key's column fits the budget it returns 0, and the loop never advances.",
  "teacher_says": "The statement asks for at least 1: a block of 0 keys makes the tiled loop spin forever.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return min(n_k, budget_bytes // (batch * heads * n_q * bytes_per_number))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Sizes one key's column with n_k instead of n_q (confuses the two sequence lengths).",
  "teacher_says": "A block has shape (batch, heads, n_q, block): each extra key adds n_q scores per head, not n_k.",
  "code": '''
def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    per_key = batch * heads * n_k * bytes_per_number
    return max(1, min(n_k, budget_bytes // per_key))
'''},
 {"exercise": "key_block_size", "kind": "wrong",
  "mistake": "Rounds the number of keys up with math.ceil, so a block can exceed the budget.",
  "teacher_says": "The block must take at most budget_bytes: round down, never up.",
  "code": '''
import math

def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    keys = math.ceil(budget_bytes / (batch * heads * n_q * bytes_per_number))
    return max(1, min(n_k, keys))
'''},
 # ------------------------------------------------------------------ attention_weights_bytes
 {"exercise": "attention_weights_bytes", "kind": "correct",
  "idea": "B * h * n^2 * 2 written as a power of two",
  "code": '''
attention_weights_bytes = 2 ** 2 * 2 ** 4 * (2 ** 13) ** 2 * 2  # B=4, h=16, n=8192, float16
'''},
 {"exercise": "attention_weights_bytes", "kind": "robustness",
  "idea": "adds the bytes of every (n, n) matrix in a Python loop over sequences and heads",
  "code": '''
attention_weights_bytes = 0
for _sequence in range(4):
    for _head in range(16):
        attention_weights_bytes += 8192 * 8192 * 2
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Uses 4 bytes per number (float32) although the weights are returned in float16.",
  "teacher_says": "float16 is 2 bytes per number; the statement says so.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 4
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Forgets the batch of 4 sequences: counts one sequence's (h, n, n) weights.",
  "teacher_says": "Each of the B = 4 sequences has its own 16 maps of n x n.",
  "code": '''
attention_weights_bytes = 16 * 8192 * 8192 * 2
'''},
 {"exercise": "attention_weights_bytes", "kind": "wrong",
  "mistake": "Converts the answer to GiB (8.0) instead of giving the number of bytes as an int.",
  "teacher_says": "The question asks for bytes as an int; the unit conversion is for your own comparison with 16 GB.",
  "code": '''
attention_weights_bytes = 4 * 16 * 8192 * 8192 * 2 / 2**30
'''},
]

_WRITER_G = ANSWERS
ANSWERS = _WRITER_C + _WRITER_G
