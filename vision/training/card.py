"""The reader's calibration (the face reader's temperature, the finder's threshold),
fitted on held-out photos and rendered trays, and the model card: what the networks
were trained on, how, and what the run-time reader scores on test photos."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import numpy as np

from dicetable.vision.evaluation import Label, evaluate, match
from dicetable.vision.face_reader import CLASSES, FACE_INPUT, FACE_READER, FACE_SPAN, softmax
from dicetable.vision.finder import STRIDE, TARGET_SIDE, to_input
from dicetable.vision.networks import Network, model_facts
from dicetable.vision.profiles import D6_FACES
from dicetable.vision.reader import DiceReader
from dicetable.vision.training.photos import (
    HELD_OUT_EVERY,
    Die,
    shared_folder,
)
from dicetable.vision.training.samples import DISTRACTORS
from dicetable.vision.training.trays import LEANING_SHARE, PRINTS, pip_value

EXTRA_COST = 2  # an extra die costs two right ones when the threshold is picked
TEMPERATURES = np.linspace(0.2, 3.0, 29)  # the softmax temperatures tried
BATCH = 256  # crops the face reader is given at once while calibrating
TEST_SPLITS = (("d6-desk", "valid"), ("dice-colours", "test"))


def fit_temperature(models: Path, crops: np.ndarray, labels: np.ndarray) -> float:
    """The softmax temperature that makes the exported face reader's held-out
    confidences honest (Guo et al. 2017): the one of least negative log-likelihood.
    The crops are held-out photos' and rendered trays' dice and floor: the photos of
    the sets trained on alone can be read all but perfectly, and then pick the
    sharpest temperature tried (0.2 without d6-desk, whose weak finds, side faces
    read as faces, then passed as sure), and they show no symbol or cocked face."""
    if len(crops) == 0:
        return 1.0
    net = Network(models / FACE_READER)
    logits = np.concatenate(
        [net.run(to_input(crops[i : i + BATCH]))[0] for i in range(0, len(crops), BATCH)]
    )
    rows = np.arange(len(labels))
    losses = [
        float(-np.log(softmax(logits / t)[rows, labels] + 1e-12).mean()) for t in TEMPERATURES
    ]
    return float(TEMPERATURES[int(np.argmin(losses))])


def best_threshold(
    models: Path, photos: list[tuple[np.ndarray, list[Die]]],
    trays: list[tuple[np.ndarray, list[Die]]], thresholds: tuple[float, ...],
) -> float:  # fmt: skip
    """The finder threshold under which the whole reader does best on the held-out
    ``photos`` and rendered ``trays`` (each an image and its dice), each scored per
    die so that neither outweighs the other. Off its training sets the finder's recall
    is a threshold question: real photos of the sets trained on alone pick the
    strictest threshold that loses none of their easy dice, while the trays'
    randomised dice stand in for unseen sets."""
    reader = DiceReader(models=models)
    best = (float("-inf"), thresholds[0])
    for threshold in thresholds:
        reader.finder.threshold = threshold
        score = sum(pool_score(reader, pool) for pool in (photos, trays) if pool)
        best = max(best, (score, threshold))
    return best[1]


def pool_score(reader: DiceReader, pool: list[tuple[np.ndarray, list[Die]]]) -> float:
    """Dice read right less EXTRA_COST per extra die, over the dice in ``pool``; a
    symbol face or a cocked die is read right without a value."""
    right = extra = dice_count = 0
    for image, dice in pool:
        reader.forget()
        labels = [Label(0, d.x, d.y, d.size, d.size) for d in dice]
        read = reader.read_dice(image)
        pairs, _, unmatched = match(labels, [(r.x, r.y, r.size) for r in read])
        right += sum(read[j].value == pip_value(dice[i].value) for i, j in pairs)
        extra += len(unmatched)
        dice_count += len(dice)
    return (right - EXTRA_COST * extra) / max(dice_count, 1)


def test_scores(models: Path, data: Path, limit: int = 0) -> dict[str, dict[str, Any]]:
    scores = {}
    for name, split in TEST_SPLITS:
        folder = shared_folder(name, split, data)
        if not folder.is_dir():
            continue
        score = evaluate(folder, DiceReader(models=models).read_photo, D6_FACES, limit=limit)
        scores[f"{name}/{split}"] = score.counts()
    return scores


def save_facts(models: Path, facts: dict[str, Any]) -> None:
    """``facts`` as the models.json that the reader takes its threshold and temperature
    from (the cached copy dropped)."""
    (models / "models.json").write_text(json.dumps(facts, indent=2) + "\n", encoding="utf-8")
    model_facts.cache_clear()


def write(models: Path, facts: dict[str, Any], data: Path, smoke: bool) -> None:
    """models.json and the card for the networks in ``models``; the test splits are
    scored with ``facts``' threshold and temperature, saved before they are read."""
    facts = {key: value for key, value in facts.items() if key != "test"}
    facts.setdefault("date", datetime.date.today().isoformat())
    save_facts(models, facts)
    scores = test_scores(models, data, limit=2 if smoke else 0)
    facts["test"] = scores
    save_facts(models, facts)
    sizes = {p.name: p.stat().st_size for p in sorted(models.glob("*.onnx"))}
    # Models trained by older code than today's name their recipe in models.json; the
    # clauses on what today's code adds would not be true of them.
    todays = "recipe" not in facts
    extras = (
        f"; the face reader also {facts['renders'] // LEANING_SHARE} trays seen leaning (each"
        f" side face they show as no die) and {DISTRACTORS} drawn things that are no die,"
        f" and its embedding learnt to name {PRINTS} rendered prints (numerals and glyphs)"
    ) if todays else ""  # fmt: skip
    trays = (
        "; both also on rendered trays drawn from seeds no network trained on"
    ) if todays else ""  # fmt: skip
    given = [
        "- The finder was not trained by this command: `finder.onnx` (digest"
        f" {facts['finder']['digest']}) is the one made by `{facts['finder']['command']}`"
        f" on {facts['finder']['date']}"
        + (f" by the code at {facts['finder']['code']}" if "code" in facts["finder"] else "")
        + ", given by `--finder`; the face reader learnt its mistakes."
    ] if "finder" in facts else []  # fmt: skip
    fixes = [
        f"- {facts['label_fixes']} training labels that name another face than their die"
        " shows are read fixed (`vision/training/label_fixes.json`)."
    ] if facts.get("label_fixes") else []  # fmt: skip
    outlines = [
        "- dice-colours' boxes hold the whole die, turned or not: its dice are taught as their"
        f" top faces, {facts['top_of_outline']} of the square each box is turned back into"
        " (`vision/training/outline.py`)."
    ] if "top_of_outline" in facts else []  # fmt: skip
    lines = [
        "# Model card: the dice reader's networks",
        "",
        "Two networks read a tray (`vision/finder.py`, `vision/face_reader.py`):",
        "- `finder.onnx`: a CenterNet-style heatmap of top-face centres and their log side,"
        f" at 1/{STRIDE} of a shrunk frame (dice about {TARGET_SIDE:.0f} px there).",
        f"- `faces.onnx`: a {FACE_INPUT} px crop {FACE_SPAN} times a die's side ->"
        f" {', '.join(CLASSES)};"
        " its embedding is what taught profiles name faces by.",
        "",
        f"Sizes: {', '.join(f'{k} {v / 1024:.0f} KiB' for k, v in sizes.items())}.",
        "",
        "## Data and split",
        f"- Trained on: {', '.join(facts['trained_on']) or 'rendered trays only'}, plus"
        f" {facts['renders']} domain-randomised rendered trays (`vision/training/trays.py`)"
        f"{extras}.",
        "- Held out for calibration (temperature, finder threshold), never trained on:"
        f" {', '.join(facts['held_out']) or 'none'} (of a set without a validation split,"
        f" every {HELD_OUT_EVERY}th training photo){trays}.",
        f"- Left out entirely: {', '.join(facts['without']) or 'none'}. Test splits"
        " (d6-desk valid, dice-colours test) are never read by training.",
        *fixes,
        *outlines,
        "- No photo is stored in the repository; the shared sets are read from ../shared.",
        "",
        "## How it was made",
        f"- Command: `{facts['command']}` (the `train` extra: install torch's CPU build"
        " first, e.g. `pip install torch==2.13.0` from the CPU wheel index, then"
        " `pip install -e '.[train]'`; PyPI's default Linux torch wheel pulls about 3 GB of"
        " GPU libraries this training never uses)",
        *([f"- Recipe: {facts['recipe']}"] if "recipe" in facts else []),
        *given,
        f"- Seed {facts['seed']}; {facts['face_epochs']} face-reader epochs,"
        f" {facts['finder_steps']} finder steps of 16 patches; {facts['train_seconds']} s"
        f" with {facts.get('threads', 2)} torch thread(s) on a 2-core CPU.",
        f"- Date: {facts['date']}. Temperature {facts['temperature']:.2f},"
        f" finder threshold {facts['finder_threshold']}"
        + (
            f" (both fitted again on {facts['recalibrated']}, by `--recalibrate`)."
            if "recalibrated" in facts
            else "."
        ),
        "",
        "## Scores of the run-time reader (untaught)",
        "| test split | photos | dice right | photos entirely right | missed | extra |",
        "|---|---|---|---|---|---|",
    ]
    for split, s in scores.items():
        lines.append(
            f"| {split} | {s['photos']} | {s['right']}/{s['dice']}"
            f" = {100 * s['right'] / max(1, s['dice']):.2f}% | {s['photos_right']}/{s['photos']}"
            f" | {s['missed']} | {s['extra']} |"
        )
    lines += [
        "",
        "Leave-one-dataset-out scores and speed: `benchmarks/vision_bench.py`.",
        "Limits: two real sets (white dice on a desk, coloured dice on a white board);"
        " symbol, numeral and cocked faces are known only from rendered dice.",
    ]
    if smoke:
        lines.insert(1, "\n**Smoke run: a few photos and steps; not a usable model.**")
    (models / "MODEL_CARD.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
