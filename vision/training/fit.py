"""The training loops, with checkpoints: a run that is stopped resumes where its last
checkpoint left it (``--out`` keeps them), from the same seed."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
from torch import nn

from dicetable.vision.finder import to_input
from dicetable.vision.training.nets import FaceNet, FinderNet
from dicetable.vision.training.photos import NO_PRINT
from dicetable.vision.training.samples import FinderSample, face_sample, group_weights

CHECKPOINT_EVERY = 50  # finder steps
FOCAL_ALPHA, FOCAL_BETA = 2.0, 4.0  # CenterNet's penalty-reduced focal loss
SIZE_WEIGHT = 2.0
PRINT_WEIGHT = 0.5  # of the print head's loss beside the classes' (``FaceNet.prints``)
Progress = Callable[[str], None]
# CPU flags of a core that computes bfloat16 in hardware (oneDNN then runs the face
# reader's convolutions in it); without one, bfloat16 is emulated and slower.
BF16_FLAGS = ("avx512_bf16", "amx_bf16")
CPU_INFO = Path("/proc/cpuinfo")


def bf16_in_hardware() -> bool:
    try:
        words = CPU_INFO.read_text(encoding="utf-8").split()
    except OSError:
        return False
    return any(flag in words for flag in BF16_FLAGS)


def focal_loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    prob = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    positive = target.eq(1).float()
    pos = -torch.log(prob) * (1 - prob) ** FOCAL_ALPHA * positive
    neg = -torch.log(1 - prob) * prob**FOCAL_ALPHA * (1 - target) ** FOCAL_BETA * (1 - positive)
    return (pos.sum() + neg.sum()) / positive.sum().clamp(min=1.0)


def _cosine(step: int, total: int, peak: float) -> float:
    warm = max(1, total // 20)
    if step < warm:
        return peak * (step + 1) / warm
    return peak * 0.5 * (1 + math.cos(math.pi * (step - warm) / max(1, total - warm)))


def _resume(path: Path, model: nn.Module, optimiser: torch.optim.Optimizer) -> tuple[int, float]:
    """The step and the training seconds a checkpoint was saved at (0, 0 without one)."""
    if not path.exists():
        return 0, 0.0
    state = torch.load(path, weights_only=True)
    model.load_state_dict(state["model"])
    optimiser.load_state_dict(state["optimiser"])
    return int(state["step"]), float(state.get("seconds", 0.0))


def _save(
    path: Path, model: nn.Module, optimiser: torch.optim.Optimizer, step: int, seconds: float
) -> None:
    temporary = path.with_suffix(".tmp")
    state = {"model": model.state_dict(), "optimiser": optimiser.state_dict(), "step": step,
             "seconds": seconds}  # fmt: skip
    torch.save(state, temporary)
    temporary.replace(path)


def train_finder(
    draw: Callable[[np.random.Generator], FinderSample],
    steps: int,
    batch: int,
    seed: int,
    checkpoint: Path,
    say: Progress,
) -> tuple[FinderNet, float]:
    """``steps`` of ``batch`` patches from ``draw``; the generator of step k is seeded
    by (seed, k), so a resumed run draws what an unbroken one would."""
    torch.manual_seed(seed)
    model = FinderNet()
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    start, spent = _resume(checkpoint, model, optimiser)
    model.train()
    began, losses = time.monotonic(), []
    for step in range(start, steps):
        rng = np.random.default_rng([seed, step])
        samples = [draw(rng) for _ in range(batch)]
        images = torch.from_numpy(to_input(np.stack([s.image for s in samples])))
        heat = torch.from_numpy(np.stack([s.heat for s in samples]))
        size = torch.from_numpy(np.stack([s.size for s in samples]))
        mask = torch.from_numpy(np.stack([s.mask for s in samples]))
        for group in optimiser.param_groups:
            group["lr"] = _cosine(step, steps, 3e-3)
        out = model(images)
        loss = focal_loss(out[:, 0], heat)
        loss = loss + SIZE_WEIGHT * (torch.abs(out[:, 1] - size) * mask).sum() / mask.sum().clamp(
            min=1.0
        )
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        losses.append(loss.item())
        if (step + 1) % CHECKPOINT_EVERY == 0 or step + 1 == steps:
            _save(checkpoint, model, optimiser, step + 1, spent + time.monotonic() - began)
            say(f"finder step {step + 1}/{steps}: loss {np.mean(losses):.3f}"
                f" ({time.monotonic() - began:.0f} s)")  # fmt: skip
            losses = []
    return model.eval(), spent + time.monotonic() - began


def train_faces(
    crops: np.ndarray,
    labels: np.ndarray,
    prints: np.ndarray,
    groups: np.ndarray,
    epochs: int,
    seed: int,
    checkpoint: Path,
    say: Progress,
    widths: tuple[int, int, int, int],
    batch: int = 128,
) -> tuple[FaceNet, float]:
    """``epochs`` over the bank crops, each drawn anew (``face_sample``); the weight
    groups (``groups``: the classes, the finder's mistakes, what lies beside a die)
    are weighted to count alike, so the many floor crops do not drown the faces nor
    the few crops of none that look like one. Crops with a known print (``prints``,
    else NO_PRINT) also train the print head."""
    torch.manual_seed(seed)
    model = FaceNet(widths)
    # in place; torch's stubs (where installed) leave memory_format out of .to
    model.to(memory_format=torch.channels_last)  # type: ignore[call-overload, unused-ignore]
    bf16 = bf16_in_hardware()
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=5e-4)
    start, spent = _resume(checkpoint, model, optimiser)
    crop_weights = torch.from_numpy(group_weights(groups))
    loss_of = nn.CrossEntropyLoss(reduction="none", label_smoothing=0.05)
    per_epoch = math.ceil(len(crops) / batch)
    began = time.monotonic()
    for epoch in range(start, epochs):
        rng = np.random.default_rng([seed, epoch])
        order = rng.permutation(len(crops))
        model.train()
        total = 0.0
        for k in range(per_epoch):
            picked = order[k * batch : (k + 1) * batch]
            images = np.stack([face_sample(crops[i], rng, int(labels[i])) for i in picked])
            for group in optimiser.param_groups:
                group["lr"] = _cosine(epoch * per_epoch + k, epochs * per_epoch, 3e-3)
            batch_in = torch.from_numpy(to_input(images)).to(memory_format=torch.channels_last)
            # the forward pass in bfloat16 where the CPU has it (weights, their updates
            # and the loss stay float32): a step of the wide reader takes 0.18 s, not
            # 0.47 s, on this machine's 2 cores, with channels-last tensors
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
                logits, embedding = model(batch_in)
            weight = crop_weights[picked]
            each = loss_of(logits.float(), torch.from_numpy(labels[picked]).long())
            loss = (each * weight).sum() / weight.sum()
            printed = torch.from_numpy(prints[picked] != NO_PRINT)
            if printed.any():
                named = model.prints(model.drop(embedding[printed].float()))
                target = torch.from_numpy(prints[picked]).long()[printed]
                loss = loss + PRINT_WEIGHT * nn.functional.cross_entropy(named, target)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += loss.item()
        _save(checkpoint, model, optimiser, epoch + 1, spent + time.monotonic() - began)
        say(f"faces epoch {epoch + 1}/{epochs}: loss {total / per_epoch:.3f}"
            f" ({time.monotonic() - began:.0f} s)")  # fmt: skip
    return model.eval(), spent + time.monotonic() - began
