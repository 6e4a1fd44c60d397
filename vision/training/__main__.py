"""``python -m dicetable.vision.training``: train and export the reader's networks.

Trains the finder, then the face reader (with the finder's mistakes on the training
photos as examples of "no die"), from the shared real photos (the training
splits of each set not left out) and domain-randomised rendered trays, from one
seed; calibrates the face reader's confidence and the finder's threshold on held-out
photos; exports ONNX beside ``models.json``; and writes the model card with the
scores of the run-time reader on the test splits. ``--smoke`` runs every stage on a
few photos for a few steps (CI). A stopped run resumes from its checkpoints in
``--out``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from dicetable.vision.face_reader import FACE_INPUT, FACE_READER, FACE_SPAN, NOT_A_DIE, cut_square
from dicetable.vision.networks import MODELS, file_digest
from dicetable.vision.training import card
from dicetable.vision.training.outline import TOP_OF_OUTLINE
from dicetable.vision.training.photos import (
    HELD_OUT_EVERY,
    NO_PRINT,
    SETS,
    SHARED,
    Die,
    Photo,
    kept_dice,
    label_fixes,
    load_split,
)
from dicetable.vision.training.samples import (
    BANK,
    BESIDE_DIE,
    DISTRACTORS,
    FAR,
    MISTAKE,
    bank_crop,
    beside_crops,
    class_of,
    die_crops,
    distractor_crops,
    finder_sample,
    floor_crops,
    group_of,
)
from dicetable.vision.training.trays import LEANING_SHARE, rendered_tray

RENDER_SIZES = ((640, 480), (512, 512), (800, 600))
RENDER_SIDES = (24.0, 90.0)
REAL_SHARE = 0.6  # of finder patches, cut from real photos (the rest rendered)
REAL_REPEAT = 2  # times each real die crop is in the face reader's epochs
PRINT_REPEAT = 8  # times each rendered numeral or glyph crop is in the face reader's epochs
PASTED_PER_PHOTO = 30  # dice crops kept for pasting, per real training photo
THRESHOLDS = (0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
PROVISIONAL_THRESHOLD = 0.3  # until the calibration picks one
# Finds this strong are mined for the face reader's "none": below the run-time
# threshold too, so that a laptop key, a barcode sticker or a die's side face the
# finder half-takes for a die on a new table is one the face reader has learnt
# (alone, beside an unchanged finder, it changed no test split's figures).
MINING_THRESHOLD = 0.15
LEANING_SEED = 50_000  # the leaning trays' seeds start here, apart from the finder's
HELD_TRAYS, SMOKE_HELD_TRAYS = 100, 2  # rendered trays the finder threshold is picked on
HELD_TRAY_SEED = 90  # added to the run's seed: their seeds lie apart from the trained ones
# The shipped schedule, so that the bare command trains the shipped models. 12000
# finder steps, not 6000: the finder trained without dice-colours so finds 98.5% of
# its dice surely, not 94.2% (about 25 minutes on 2 cores).
FINDER_STEPS = 12_000
FACE_EPOCHS = 40


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m dicetable.vision.training",
                                     description=__doc__.split("\n\n")[0])  # fmt: skip
    parser.add_argument("--out", type=Path, default=MODELS, help="where the models go")
    parser.add_argument("--data", type=Path, default=SHARED, help="the shared datasets folder")
    parser.add_argument(
        "--without",
        action="append",
        default=[],
        choices=sorted(SETS),
        help="leave this real set out (leave-one-dataset-out scoring)",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--finder-steps", type=int, default=FINDER_STEPS)
    parser.add_argument("--face-epochs", type=int, default=FACE_EPOCHS)
    parser.add_argument("--renders", type=int, default=600, help="rendered trays")
    parser.add_argument(
        "--face-widths",
        type=widths_of,
        default=None,
        help="the face reader's four conv widths, the last its embedding"
        " (default: the shipped shape, FACE_WIDTHS in vision/training/nets.py)",
    )
    parser.add_argument(
        "--finder",
        type=Path,
        default=None,
        help="train no finder: read with this finder.onnx (its models.json beside it says"
        " how it was made) and train the face reader beside it, on its mistakes",
    )
    parser.add_argument("--smoke", action="store_true", help="a few photos and steps (CI)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--recalibrate",
        action="store_true",
        help="train nothing: pick the finder threshold of the models in --out again"
        " (after the run-time reader changed) and rewrite their card",
    )
    return parser.parse_args(argv)


def widths_of(text: str) -> tuple[int, int, int, int]:
    """``--face-widths``' four positive whole numbers, comma-separated."""
    words = text.split(",")
    if len(words) != 4 or not all(w.strip().isdigit() and int(w) > 0 for w in words):
        raise argparse.ArgumentTypeError(f"want four positive whole numbers, got {text!r}")
    a, b, c, d = (int(w) for w in words)
    return a, b, c, d


def shown_command(argv: list[str]) -> str:
    """The training command as the model card shows it: where the models were written
    (``--out``) changes nothing they learn, so it is left out."""
    shown, skip = [], False
    for word in argv:
        if skip:
            skip = False
        elif word == "--out":
            skip = True
        elif not word.startswith("--out="):
            shown.append(word)
    return " ".join(["python -m dicetable.vision.training", *shown])


def split_photos(args: argparse.Namespace) -> tuple[list[Photo], list[Photo]]:
    """Training and held-out photos of every set not left out. Test splits (d6-desk
    valid, dice-colours test) are never read here."""
    limit = 4 if args.smoke else 0
    train: list[Photo] = []
    held: list[Photo] = []
    for name in sorted(set(SETS) - set(args.without)):
        photos = load_split(name, "train", args.data, limit)
        if name == "dice-colours":
            train += photos
            held += load_split(name, "val", args.data, limit)
        else:
            held += photos[::HELD_OUT_EVERY]
            train += [p for i, p in enumerate(photos) if i % HELD_OUT_EVERY]
    return train, held


def held_trays(args: argparse.Namespace) -> list[tuple[np.ndarray, list]]:
    """Rendered trays no network trained on (seeds apart from the training ones), for
    picking the finder threshold."""
    return render_pool(SMOKE_HELD_TRAYS if args.smoke else HELD_TRAYS, args.seed + HELD_TRAY_SEED)


def render_pool(count: int, seed: int, *, leaning: bool = False) -> list[tuple[np.ndarray, list]]:
    offset = LEANING_SEED if leaning else 0
    rng = random.Random(seed + offset)
    first = seed * 100_000 + offset
    return [
        rendered_tray(first + k, rng.choice(RENDER_SIZES), RENDER_SIDES, leaning=leaning)
        for k in range(count)
    ]


def face_bank(
    sources: list[tuple[np.ndarray, list[Die]]], rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Crops of every die and of what is no die, their classes, the print each shows
    (NO_PRINT for all but the renderer's numerals and glyphs) and their weight groups
    in the loss (the class, or ``BESIDE_DIE`` for a side face and what lies beside a
    die)."""
    crops, labels, prints, groups = [], [], [], []
    for image, dice in sources:
        floor = floor_crops(image, dice, len(dice) + 2, rng)
        beside = beside_crops(image, dice, rng)
        for crop, label in die_crops(image, dice) + floor + beside:
            crops.append(crop)
            labels.append(label)
        prints += [d.printed for d in dice] + [NO_PRINT] * (len(floor) + len(beside))
        groups += [group_of(d.value) for d in dice] + [NOT_A_DIE] * len(floor)
        groups += [BESIDE_DIE] * len(beside)
    classes, shown, weighed = (np.array(column, np.int64) for column in (labels, prints, groups))
    return np.stack(crops), classes, shown, weighed


def unprinted(labels: np.ndarray) -> np.ndarray:
    """The prints of crops that show none (real dice, floor, drawn things)."""
    return np.full(len(labels), NO_PRINT, np.int64)


def held_crops(
    sources: list[tuple[np.ndarray, list[Die]]], seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Held-out dice and floor as the reader cuts them (no augmentation); the floor
    drawn from ``seed``, so that training and ``--recalibrate`` cut the same crops."""
    rng = np.random.default_rng(seed)
    crops, labels = [], []
    for image, dice in sources:
        for die in dice:
            crops.append(cut_square(image, die.x, die.y, FACE_SPAN * die.size, FACE_INPUT))
            labels.append(class_of(die.value))
        for crop, label in floor_crops(image, dice, len(dice), rng):
            centre = cut_square(crop, crop.shape[1] / 2, crop.shape[0] / 2,
                                crop.shape[0] / 2, FACE_INPUT)  # fmt: skip
            crops.append(centre)
            labels.append(label)
    if not crops:
        return np.zeros((0, FACE_INPUT, FACE_INPUT, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(crops), np.array(labels, np.int64)


def calibrate(args: argparse.Namespace, held: list[Photo], facts: dict[str, Any]) -> None:
    """The face reader's temperature, then the finder threshold under it, fitted on
    the held-out photos and the rendered trays no network trained on."""
    trays = held_trays(args)
    shown = [(p.image, kept_dice(p)) for p in held]
    crops, labels = held_crops(shown + trays, args.seed)
    facts["temperature"] = card.fit_temperature(args.out, crops, labels)
    card.save_facts(args.out, facts)
    facts["finder_threshold"] = card.best_threshold(args.out, shown, trays, THRESHOLDS)
    print(f"temperature {facts['temperature']:.2f} on {len(labels)} held-out crops;"
          f" finder threshold {facts['finder_threshold']} (best on {len(held)} held-out"
          f" photos and {len(trays)} rendered trays)", flush=True)  # fmt: skip


def mine_floor(
    models: Path, sources: list[tuple[np.ndarray, list]], limit: int
) -> tuple[np.ndarray, np.ndarray]:
    """Hard negatives: what the trained finder takes for a die in the training photos
    that is no labelled die (a magnet, a plug, a knot in the wood), as the face
    reader's "none" examples, so it learns to say so."""
    from dicetable.vision.finder import DieFinder

    finder = DieFinder(MINING_THRESHOLD, models)
    crops: list[np.ndarray] = []
    for image, dice in sources:
        finder.forget()
        for find in finder.find(image):
            if all(math.hypot(find.x - d.x, find.y - d.y) > FAR * max(d.size, find.size)
                   for d in dice):  # fmt: skip
                crops.append(bank_crop(image, find.x, find.y, find.size))
        if len(crops) >= limit:
            break
    if not crops:
        return np.zeros((0, BANK, BANK, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(crops[:limit]), np.full(min(len(crops), limit), NOT_A_DIE, np.int64)


def given_finder(path: Path, out: Path) -> dict:
    """A finder trained before (``--finder``), put in ``out``; what its models.json
    says of how it was made, for the card."""
    if not path.is_file():
        raise SystemExit(f"--finder {path}: no such file")
    facts_file = path.with_name("models.json")
    made = json.loads(facts_file.read_text(encoding="utf-8")) if facts_file.is_file() else {}
    made = made.get("finder", made)  # a finder given in its turn keeps its first origin
    if path.resolve() != (out / "finder.onnx").resolve():
        shutil.copyfile(path, out / "finder.onnx")
    return {
        "digest": file_digest(path),
        "command": made.get("command", "unknown"),
        "date": made.get("date", "unknown"),
        "finder_steps": made.get("finder_steps", 0),
        **({"code": made["code"]} if "code" in made else {}),
    }


def recalibrate(args: argparse.Namespace) -> int:
    """The temperature and finder threshold of trained models fitted again on their
    held-out photos and trays, by today's reader, and the card's scores measured
    again; the networks as they are."""
    facts = json.loads((args.out / "models.json").read_text(encoding="utf-8"))
    args.without = facts["without"]
    _, held = split_photos(args)
    calibrate(args, held, facts)
    facts["recalibrated"] = datetime.date.today().isoformat()
    card.write(args.out, facts, args.data, smoke=args.smoke)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.recalibrate:
        return recalibrate(args)
    import torch

    from dicetable.vision.training import fit, nets

    torch.set_num_threads(args.threads)
    widths = args.face_widths or nets.FACE_WIDTHS
    began = time.monotonic()

    def say(line: str) -> None:
        print(f"[{time.monotonic() - began:6.0f} s] {line}", flush=True)

    if args.smoke:
        args.finder_steps, args.face_epochs, args.renders = 3, 1, 4
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    train, held = split_photos(args)
    say(f"{len(train)} training photos ({sum(len(p.dice) for p in train)} dice),"
        f" {len(held)} held out; rendering {args.renders} trays")  # fmt: skip
    renders = render_pool(args.renders, args.seed)
    leaning = render_pool(args.renders // LEANING_SHARE, args.seed, leaning=True)
    real = [(p.image, kept_dice(p)) for p in train]
    trained = {p.name for p in train}
    facts = {
        "finder_threshold": PROVISIONAL_THRESHOLD,
        "temperature": 1.0,
        "seed": args.seed,
        "without": sorted(args.without),
        "command": shown_command(sys.argv[1:] if argv is None else argv),
        "finder_steps": args.finder_steps,
        "face_epochs": args.face_epochs,
        "renders": args.renders,
        "threads": args.threads,
        "face_widths": list(widths),
        "trained_on": sorted({p.name.rsplit("/", 1)[0] for p in train}),
        "held_out": sorted({p.name.rsplit("/", 1)[0] for p in held}),
        "label_fixes": sum(len(f) for name, f in label_fixes().items() if name in trained),
    }
    if any(not SETS[name.split("/")[0]]["pip_tight"] for name in trained):
        facts["top_of_outline"] = TOP_OF_OUTLINE

    # 1. The finder. Dice pasted onto its patches (copy-paste): real ones first.
    pasted = [c for image, dice in real + renders for c, lb in die_crops(image, dice) if lb < 6]
    real_dice = pasted[: len(real) * PASTED_PER_PHOTO]
    # Trays seen leaning teach the finder that a die's side faces are not dice.
    drawn_trays = renders + leaning
    pool = real or drawn_trays

    def draw(generator: np.random.Generator):
        use_real = real and generator.random() < REAL_SHARE
        source = real if use_real else drawn_trays or pool
        image, dice = source[int(generator.integers(len(source)))]
        return finder_sample(image, dice, generator, real_dice)

    if args.finder:
        facts["finder"] = given_finder(args.finder, args.out)
        facts["finder_steps"] = facts["finder"]["finder_steps"]
        finder_seconds = 0.0
    else:
        finder, finder_seconds = fit.train_finder(draw, args.finder_steps, 16, args.seed,
                                  args.out / "finder.ckpt", say)  # fmt: skip
        nets.export(finder, args.out / "finder.onnx", torch.zeros(1, 3, 256, 256), ["heat"])
    card.save_facts(args.out, facts)

    # 2. The face reader, with the finder's mistakes on the training photos as "none".
    real_part = face_bank(real, rng)
    rendered_part = face_bank(drawn_trays, rng)
    drawn = distractor_crops(4 if args.smoke else DISTRACTORS, rng)
    drawn_crops, drawn_labels = np.stack([c for c, _ in drawn]), np.array([lb for _, lb in drawn])
    mined_crops, mined_labels = mine_floor(args.out, real + renders, len(real_part[1]))
    say(f"{len(mined_labels)} finds that are no die mined from the training photos")
    # Real photos are the evidence: their dice and the finder's mistakes on them are
    # repeated so that they are not outnumbered by the rendered ones in every epoch.
    # A seventh of rendered dice show a numeral or a glyph, a few dozen crops a print:
    # they are repeated too, so that the print head sees a dozen of them in every batch.
    mined_groups = np.full(len(mined_labels), MISTAKE)
    mined_part = (mined_crops, mined_labels, unprinted(mined_labels), mined_groups)
    printed = rendered_part[2] != NO_PRINT
    printed_part = tuple(column[printed] for column in rendered_part)
    parts = [
        *[real_part, mined_part] * REAL_REPEAT,
        rendered_part,
        (drawn_crops, drawn_labels, unprinted(drawn_labels), drawn_labels),
        *[printed_part] * (PRINT_REPEAT - 1),
    ]
    crops, labels, prints, groups = (np.concatenate(column)
                                     for column in zip(*parts, strict=True))  # fmt: skip
    say(f"face bank: {len(crops)} crops, per class {np.bincount(labels).tolist()},"
        f" {int((prints != NO_PRINT).sum())} with a known print")  # fmt: skip
    faces, face_seconds = fit.train_faces(crops, labels, prints, groups, args.face_epochs,
                            args.seed, args.out / "faces.ckpt", say, widths)  # fmt: skip
    nets.export(faces, args.out / FACE_READER, nets.face_example(), ["logits", "embedding"])
    say("faces exported")

    # 3. Calibration on held-out photos, and the model card.
    # the networks' own training time, over every run that resumed them
    facts["train_seconds"] = round(finder_seconds + face_seconds)
    calibrate(args, held, facts)
    card.write(args.out, facts, args.data, smoke=args.smoke)
    say(f"model card written: {args.out / 'MODEL_CARD.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
