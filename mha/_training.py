"""The training loop the toy models of chapter 10 share: Adam, one fresh batch per step."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def adam_steps(model: Any, steps: int, lr: float, batch_loss: Callable[[], Any]) -> list[float]:
    """``steps`` Adam steps on ``batch_loss()`` (a fresh batch's mean loss, a torch scalar);
    the model in training mode meanwhile, in eval mode after. Returns every step's loss."""
    import torch

    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    history = []
    model.train()
    for _ in range(steps):
        loss = batch_loss()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append(loss.item())
    model.eval()
    return history
