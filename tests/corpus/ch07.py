"""Chapter 7: the arithmetic of a layer, the longest sequence, the key block size."""

import math

import numpy as np

from corpus import correct, predicted, wrong
from mha.bench.timing import flops

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


@wrong("longest_sequence", "at_least_one")
def longest_sequence_never_below_one(memory_bytes, batch, heads, bytes_per_number):
    n = math.isqrt(memory_bytes // (batch * heads * bytes_per_number))
    return n if n > 0 else 1


@wrong("longest_sequence", "float_sqrt")
def longest_by_sqrt(memory_bytes, batch, heads, bytes_per_number):
    return int(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))


@correct("longest_sequence")
def longest_by_search(memory_bytes, batch, heads, bytes_per_number):
    if batch * heads * bytes_per_number > memory_bytes:
        return 0  # not even n = 1 fits
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


@wrong("key_block_size", "rounded_to_nearest")
def key_block_size_nearest(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    keys = int(budget_bytes / (batch * heads * n_q * bytes_per_number) + 0.5)
    return min(max(keys, 1), n_k)


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


# --- written blind (issue 22, round 1): from the notebooks only, without the checks' tables ---


# blind round 1, ch07:0: 8 B n d^2 for the four projections + 4 B n^2 d for QK^T and PV
@correct("attention_flops")
def attention_flops_8_b_n_d_2_for(batch, n, d_model):
    return 8 * batch * n * d_model**2 + 4 * batch * n**2 * d_model


# blind round 1, ch07:1: sum 2*m*k*p over the list of the six matrix products (m, k, p)
@correct("attention_flops")
def attention_flops_sum_2_m_k_p_over(batch, n, d_model):
    products = [(n, d_model, d_model)] * 4 + [(n, d_model, n), (n, n, d_model)]
    return batch * sum(2 * m * k * p for m, k, p in products)


# blind round 1, ch07:2: the package's own count, mha.timing.flops
@correct("attention_flops")
def attention_flops_the_package_s_own_count_mha(batch, n, d_model):
    return int(flops(batch, n, d_model))


# blind round 1, ch07:3: counts a multiply-add as one operation (half the answer)
@wrong("attention_flops", "multiply_adds")
def attention_flops_counts_a_multiply_add_as_one(batch, n, d_model):
    return 4 * batch * n * d_model**2 + 2 * batch * n**2 * d_model


# blind round 1, ch07:4: counts three projections (forgets W^O)
@wrong("attention_flops", "no_w_o")
def attention_flops_counts_three_projections_forgets_w_o(batch, n, d_model):
    return 6 * batch * n * d_model**2 + 4 * batch * n**2 * d_model


# blind round 1, ch07:5: forgets the batch factor in the attention term
@wrong("attention_flops", "term:attention:without:batch")
def attention_flops_forgets_the_batch_factor_in_the(batch, n, d_model):
    return 8 * batch * n * d_model**2 + 4 * n**2 * d_model


# blind round 1, ch07:6: counts QK^T but not PV
@wrong("attention_flops", "no_weighted_sum")
def attention_flops_counts_qk_t_but_not_pv(batch, n, d_model):
    return 8 * batch * n * d_model**2 + 2 * batch * n**2 * d_model


# blind round 1, ch07:7: adds the softmax (about 5 operations per score) though the exercise excludes it
@wrong("attention_flops", "softmax_counted")
def attention_flops_adds_the_softmax_about_5_operations(batch, n, d_model):
    return 8 * batch * n * d_model**2 + 4 * batch * n**2 * d_model + 5 * batch * n**2


# blind round 1, ch07:8: returns a float instead of an int
@wrong("attention_flops", None)
def attention_flops_right_count_returned_as_a_float(batch, n, d_model):
    return 8.0 * batch * n * d_model**2.0 + 4.0 * batch * n**2.0 * d_model


# blind round 1, ch07:9: math.isqrt of the number of (n, n) entries that fit
@correct("longest_sequence")
def longest_sequence_math_isqrt_of_the_number_of(memory_bytes, batch, heads, bytes_per_number):
    per_entry = batch * heads * bytes_per_number
    return math.isqrt(int(memory_bytes) // per_entry)


# blind round 1, ch07:10: float square root as a first guess, then fix it up with exact integer checks
@correct("longest_sequence")
def longest_sequence_float_square_root_as_a_first(memory_bytes, batch, heads, bytes_per_number):
    c = batch * heads * bytes_per_number
    n = int(math.sqrt(memory_bytes / c))
    while (n + 1) ** 2 * c <= memory_bytes:
        n += 1
    while n > 0 and n**2 * c > memory_bytes:
        n -= 1
    return n


# blind round 1, ch07:11: binary search on n with integer arithmetic
@correct("longest_sequence")
def longest_sequence_binary_search_on_n_with_integer(memory_bytes, batch, heads, bytes_per_number):
    def fits(n):
        return batch * heads * n * n * bytes_per_number <= memory_bytes

    lo, hi = 0, 1
    while fits(hi):
        hi *= 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo


# blind round 1, ch07:12: int(math.sqrt(memory / c)): the float square root rounds up just below a perfect square, e.g. memory_bytes = 10**16 - 1 with batch = heads = bytes = 1 gives 10**8
@wrong("longest_sequence", "float_sqrt")
def longest_sequence_int_math_sqrt_memory_c_the(memory_bytes, batch, heads, bytes_per_number):
    return int(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))


# blind round 1, ch07:13: rounds to the nearest integer instead of down: the result may not fit
@wrong("longest_sequence", "rounded_to_nearest")
def longest_sequence_rounds_to_the_nearest_integer_instead(
    memory_bytes, batch, heads, bytes_per_number
):
    return round(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))


# blind round 1, ch07:14: forgets the batch: counts one sequence's weights
@wrong("longest_sequence", "one_sequence")
def longest_sequence_forgets_the_batch_counts_one_sequence(
    memory_bytes, batch, heads, bytes_per_number
):
    return math.isqrt(int(memory_bytes) // (heads * bytes_per_number))


# blind round 1, ch07:15: forgets bytes_per_number: counts numbers, not bytes
@wrong("longest_sequence", "numbers_not_bytes")
def longest_sequence_forgets_bytes_per_number_counts_numbers(
    memory_bytes, batch, heads, bytes_per_number
):
    return math.isqrt(int(memory_bytes) // (batch * heads))


# blind round 1, ch07:16: forgets that the weights grow as n^2: solves b*h*n*bytes <= memory
@wrong("longest_sequence", "no_square_root")
def longest_sequence_forgets_that_the_weights_grow_as(memory_bytes, batch, heads, bytes_per_number):
    return int(memory_bytes) // (batch * heads * bytes_per_number)


# blind round 1, ch07:17: rounds up with math.ceil: the returned n never fits unless the memory is a perfect fit
@wrong("longest_sequence", "rounded_up")
def longest_sequence_rounds_up_with_math_ceil_the(memory_bytes, batch, heads, bytes_per_number):
    return math.ceil(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))


# blind round 1, ch07:18: columns that fit the budget, clamped to [1, n_k]
@correct("key_block_size")
def key_block_size_columns_that_fit_the_budget_clamped(
    batch, heads, n_q, n_k, budget_bytes, bytes_per_number
):
    column = batch * heads * n_q * bytes_per_number
    return max(1, min(n_k, int(budget_bytes) // column))


# blind round 1, ch07:19: bisection on the block size in [1, n_k] with exact integer checks
@correct("key_block_size")
def key_block_size_bisection_on_the_block_size_in(
    batch, heads, n_q, n_k, budget_bytes, bytes_per_number
):
    lo, hi = 1, n_k
    # largest block in [1, n_k] whose scores fit, by bisection; 1 if even one column does not fit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if batch * heads * n_q * mid * bytes_per_number <= budget_bytes:
            lo = mid
        else:
            hi = mid - 1
    return lo


# blind round 1, ch07:20: numpy.clip of the quotient, converted back to a Python int
@correct("key_block_size")
def key_block_size_numpy_clip_of_the_quotient_converted(
    batch, heads, n_q, n_k, budget_bytes, bytes_per_number
):
    fit = int(budget_bytes) // (batch * heads * n_q * bytes_per_number)
    return int(np.clip(fit, 1, n_k))


# blind round 1, ch07:21: no lower bound: returns 0 when even one key's column exceeds the budget
@wrong("key_block_size", "zero_block")
def key_block_size_no_lower_bound_returns_0_when(
    batch, heads, n_q, n_k, budget_bytes, bytes_per_number
):
    return min(n_k, budget_bytes // (batch * heads * n_q * bytes_per_number))


# blind round 1, ch07:22: no upper bound: can return more keys than there are
@wrong("key_block_size", "not_capped")
def key_block_size_no_upper_bound_can_return_more(
    batch, heads, n_q, n_k, budget_bytes, bytes_per_number
):
    return max(1, budget_bytes // (batch * heads * n_q * bytes_per_number))


# blind round 1, ch07:23: forgets n_q: one key's column holds batch*heads*n_q numbers, not batch*heads
@wrong("key_block_size", "input:n_q=1")
def key_block_size_forgets_n_q_one_key_s(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, min(n_k, budget_bytes // (batch * heads * bytes_per_number)))


# blind round 1, ch07:24: uses n_k instead of n_q in the size of a column
@wrong("key_block_size", "input:n_k_for_n_q")
def key_block_size_uses_n_k_instead_of_n(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    return max(1, min(n_k, budget_bytes // (batch * heads * n_k * bytes_per_number)))


# blind round 1, ch07:25: rounds the number of columns up: the block can exceed the budget
@wrong("key_block_size", "rounded_up")
def key_block_size_rounds_the_number_of_columns_up(
    batch, heads, n_q, n_k, budget_bytes, bytes_per_number
):
    return max(1, min(n_k, math.ceil(budget_bytes / (batch * heads * n_q * bytes_per_number))))


# blind round 1, ch07:26: B * h * n^2 * 2 bytes
@correct("attention_weights_bytes")
def attention_weights_bytes_b_h_n_2_2_bytes():
    attention_weights_bytes = 4 * 16 * 8192**2 * 2
    return attention_weights_bytes


# blind round 1, ch07:27: from NumPy's itemsize and the shape's product
@correct("attention_weights_bytes")
def attention_weights_bytes_from_numpy_s_itemsize_and_the():
    attention_weights_bytes = math.prod((4, 16, 8192, 8192)) * np.dtype(np.float16).itemsize
    return attention_weights_bytes


# blind round 1, ch07:28: bytes per number times the number of (n, n) matrices times n squared, as a sum of logs of two
@correct("attention_weights_bytes")
def attention_weights_bytes_bytes_per_number_times_the_number():
    attention_weights_bytes = 2 ** (1 + 2 + 4 + 13 + 13)
    return attention_weights_bytes


# blind round 1, ch07:29: counts numbers, not bytes (forgets the 2 bytes of float16)
@wrong("attention_weights_bytes", "missing:bytes")
def attention_weights_bytes_counts_numbers_not_bytes_forgets_the():
    attention_weights_bytes = 4 * 16 * 8192**2
    return attention_weights_bytes


# blind round 1, ch07:30: uses 4 bytes per number (float32) instead of 2
@wrong("attention_weights_bytes", "float32")
def attention_weights_bytes_uses_4_bytes_per_number_float32():
    attention_weights_bytes = 4 * 16 * 8192**2 * 4
    return attention_weights_bytes


# whole gigabytes, rounded: 9 (the right value is 8.59e9 bytes)
@wrong("attention_weights_bytes", "times:1e-9")
def attention_weights_bytes_in_whole_gigabytes():
    return round(4 * 16 * 8192**2 * 2 / 1e9)


# blind round 1, ch07:31: gives the answer in GB (8.59) instead of bytes
@wrong("attention_weights_bytes", "times:1e-9")
def attention_weights_bytes_gives_the_answer_in_gb_8():
    attention_weights_bytes = 4 * 16 * 8192**2 * 2 / 1e9
    return attention_weights_bytes


# blind round 1, ch07:32: forgets the batch of 4
@wrong("attention_weights_bytes", "one_sequence")
def attention_weights_bytes_forgets_the_batch_of_4():
    attention_weights_bytes = 16 * 8192**2 * 2
    return attention_weights_bytes


# blind round 1, ch07:33: n not squared: one row per token instead of an (n, n) matrix
@wrong("attention_weights_bytes", "linear_in_n")
def attention_weights_bytes_n_not_squared_one_row_per():
    attention_weights_bytes = 4 * 16 * 8192 * 2
    return attention_weights_bytes


# blind round 1, ch07:34: assigns 8.589934592e9, a float, where an int is asked
@wrong("attention_weights_bytes", "integer_as_float")
def attention_weights_bytes_the_right_amount_as_a_float():
    attention_weights_bytes = 8.589934592e9
    return attention_weights_bytes


# --- predict_scores_gigabytes: predictions as readers make them --------------------------


@predicted("predict_scores_gigabytes", None)
def predicted_eight_gigabytes():
    return 8


@predicted("predict_scores_gigabytes", "one_head")
def predicted_one_head():
    return 16384**2 * 4 / 1e9


@predicted("predict_scores_gigabytes", "float64")
def predicted_double_precision():
    return 17


@predicted("predict_scores_gigabytes", "linear_in_n")
def predicted_linear():
    return 8 * 16384 * 4 / 1e9
