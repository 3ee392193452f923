"""Multi-Head Attention, step by step: the package behind the course book.

``import mha`` loads the NumPy variant only; it never imports torch or cupy. The PyTorch
variant is ``mha.torch_mha`` and the GPU helpers are ``mha.gpu``; import them when needed.
"""

from mha.functional import merge_heads, scaled_dot_product_attention, softmax, split_heads
from mha.masks import causal_mask, combine_masks, flip_polarity, padding_mask, to_additive
from mha.numpy_mha import multi_head_attention, multi_head_attention_loop
from mha.params import MHAParams, from_torch_state_dict, init_params, to_torch_state_dict

__version__ = "0.1.0"

__all__ = [
    "MHAParams",
    "causal_mask",
    "combine_masks",
    "flip_polarity",
    "from_torch_state_dict",
    "init_params",
    "merge_heads",
    "multi_head_attention",
    "multi_head_attention_loop",
    "padding_mask",
    "scaled_dot_product_attention",
    "softmax",
    "split_heads",
    "to_additive",
    "to_torch_state_dict",
]
