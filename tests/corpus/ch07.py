"""Chapter 7: the arithmetic of a layer, the longest sequence, the key block size."""

import math

import numpy as np

from corpus import correct, wrong

# --- attention_flops ----------------------------------------------------------------------


@correct("attention_flops")
def flops_by_product(batch, n, d_model):
    def matmul(m, k, p):
        return 2 * m * k * p

    rows = batch * n
    projections = 4 * matmul(rows, d_model, d_model)
    return projections + batch * (matmul(n, d_model, n) + matmul(n, n, d_model))


@correct("attention_flops")
def flops_formula(batch, n, d_model):
    return 8 * batch * n * d_model**2 + 4 * batch * n**2 * d_model


@wrong("attention_flops", "multiply_adds")
def flops_one_per_multiply_add(batch, n, d_model):
    return 4 * batch * n * d_model * d_model + 2 * batch * n * n * d_model


@wrong("attention_flops", "no_projections")
def flops_attention_only(batch, n, d_model):
    return 2 * batch * n * n * d_model * 2


@wrong("attention_flops", "no_w_o")
def flops_three_projections(batch, n, d_model):
    qkv = 3 * 2 * batch * n * d_model * d_model
    return qkv + 4 * batch * n * n * d_model


@wrong("attention_flops", "no_weighted_sum")
def flops_scores_only(batch, n, d_model):
    return 8 * batch * n * d_model**2 + 2 * batch * n**2 * d_model


# --- longest_sequence ---------------------------------------------------------------------


@correct("longest_sequence")
def longest_by_sqrt(memory_bytes, batch, heads, bytes_per_number):
    return int(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))


@correct("longest_sequence")
def longest_by_search(memory_bytes, batch, heads, bytes_per_number):
    n = 1
    while batch * heads * (2 * n) ** 2 * bytes_per_number <= memory_bytes:
        n *= 2
    step = n // 2
    while step:
        if batch * heads * (n + step) ** 2 * bytes_per_number <= memory_bytes:
            n += step
        step //= 2
    return n


@wrong("longest_sequence", "no_square_root")
def longest_linear(memory_bytes, batch, heads, bytes_per_number):
    return memory_bytes // (batch * heads * bytes_per_number)


@wrong("longest_sequence", "rounded_up")
def longest_ceil(memory_bytes, batch, heads, bytes_per_number):
    return math.ceil(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))


@wrong("longest_sequence", "numbers_not_bytes")
def longest_in_numbers(memory_bytes, batch, heads, bytes_per_number):
    return int(np.sqrt(memory_bytes / (batch * heads)))


@wrong("longest_sequence", "one_head")
def longest_one_matrix_per_sequence(memory_bytes, batch, heads, bytes_per_number):
    return math.isqrt(memory_bytes // (batch * bytes_per_number))


# --- key_block_size -----------------------------------------------------------------------


@correct("key_block_size")
def block_clip(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return int(np.clip(budget_bytes // (batch * heads * n_q * bytes_per_number), 1, n_k))


@correct("key_block_size")
def block_count_down(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    block = n_k
    while block > 1 and batch * heads * n_q * block * bytes_per_number > budget_bytes:
        block -= 1
    return block


@wrong("key_block_size", "not_capped")
def block_uncapped(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, budget_bytes // (batch * heads * n_q * bytes_per_number))


@wrong("key_block_size", "zero_block")
def block_may_be_zero(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return min(n_k, budget_bytes // (batch * heads * n_q * bytes_per_number))


@wrong("key_block_size", "rounded_up")
def block_ceil(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, min(n_k, math.ceil(budget_bytes / (batch * heads * n_q * bytes_per_number))))


@wrong("key_block_size", "numbers_not_bytes")
def block_in_numbers(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, min(n_k, budget_bytes // (batch * heads * n_q)))


@wrong("key_block_size", "one_head")
def block_without_heads(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, min(n_k, budget_bytes // (batch * n_q * bytes_per_number)))
