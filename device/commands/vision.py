"""``read``, ``eval`` and ``teach``: the dice reader from the command line.

``read`` prints what the reader sees in photos; ``eval`` scores it on a folder of
YOLO-labelled photos (per-die accuracy, whole photos, missed and extra dice, the
confusion matrix, latency); ``teach`` learns a dice profile from such a folder.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from dicetable.device.commands import load_config

if TYPE_CHECKING:
    from dicetable.vision.profiles import Profile


def register(commands: argparse._SubParsersAction) -> None:
    read = commands.add_parser("read", help="read the dice in photos")
    read.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    read.add_argument("--profile", help="dice profile (default: [vision] profile)")
    read.add_argument("--json", action="store_true", help="one JSON object per image per line")
    read.set_defaults(func=run_read)

    score = commands.add_parser("eval", help="score the reader on YOLO-labelled photos")
    score.add_argument("folder", type=Path, metavar="DIR")
    score.add_argument("--profile", help="dice profile (default: [vision] profile)")
    score.add_argument("--json", action="store_true", help="print the figures as JSON")
    score.set_defaults(func=run_eval)

    teach = commands.add_parser("teach", help="learn a dice profile from labelled photos")
    teach.add_argument("folder", type=Path, metavar="DIR")
    teach.add_argument("--profile", required=True, help="name of the profile to create")
    teach.add_argument(
        "--faces",
        type=Path,
        metavar="FILE",
        help="TOML naming the faces: faces = [...], optional values = [...]"
        " (default: DIR/profile.toml if present, else the faces of the game dice set"
        " named by --profile, e.g. dicethrone-barbarian, else face i is the value i+1)",
    )
    teach.set_defaults(func=run_teach)


def _profile(args: argparse.Namespace) -> Profile:
    from dicetable.vision.profiles import load_profile

    settings = load_config(args)
    return load_profile(args.profile or settings["vision.profile"], settings.data_dir)


def _image(path: Path):
    import cv2

    frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if frame is None:
        raise FileNotFoundError(f"{path}: not an image that can be read")
    return frame


def run_read(args: argparse.Namespace) -> int:
    from dicetable.vision.profiles import make_reader

    profile = _profile(args)
    unread = 0
    for path in args.images:
        try:
            frame = _image(path)
        except FileNotFoundError as error:
            # one bad file in a batch is said where it stands; the others are read
            unread += 1
            if args.json:
                print(json.dumps({"image": str(path), "error": str(error)}))
            print(f"dicetable: {error}", file=sys.stderr)
            continue
        # Photos are independent: a fresh reader measures each one's scale anew.
        reading = make_reader(profile).read(frame)
        if args.json:
            print(json.dumps({"image": str(path), **reading.to_dict()}))
            continue
        print(f"{path}: {len(reading.dice)} dice in {reading.ms:.1f} ms")
        for die in reading.dice:
            what = die.face if die.value is not None else f"no value ({die.reason})"
            print(
                f"  {what:>24}  {die.color:<7} at ({die.x:.0f}, {die.y:.0f})"
                f" size {die.size:.0f}  confidence {die.confidence:.2f}"
            )
    return 2 if unread else 0


def run_eval(args: argparse.Namespace) -> int:
    from dicetable.vision.evaluation import evaluate
    from dicetable.vision.profiles import make_reader

    profile = _profile(args)
    if not args.folder.is_dir():
        raise FileNotFoundError(f"{args.folder}: no such folder")
    score = evaluate(args.folder, lambda frame: make_reader(profile).read(frame), profile.faces)
    if not score.photos:
        raise FileNotFoundError(f"{args.folder}: no images with YOLO labels beside them")
    if args.json:
        print(
            json.dumps(
                {
                    "photos": score.photos,
                    "dice": score.dice,
                    "right": score.right,
                    "photos_right": score.photos_right,
                    "missed": score.missed,
                    "extra": score.extra,
                    "no_value": score.no_value,
                    "ms_p50": score.percentile(50),
                    "ms_p90": score.percentile(90),
                    "confusion": score.confusion,
                }
            )
        )
    else:
        print(f"profile {profile.name}, {args.folder}")
        print(score.report(profile.faces))
    return 0


def _game_dice_set(profile: str, data_dir: Path):
    """The dice set an installed game declares under this profile name, if any."""
    from dicetable.rules.registry import dice_sets

    return next((s for s in dice_sets(data_dir) if s.profile == profile), None)


def run_teach(args: argparse.Namespace) -> int:
    from dicetable.vision.evaluation import labelled_images, read_labels
    from dicetable.vision.profiles import ProfileError, face_file, load_profile
    from dicetable.vision.teaching import Teacher

    settings = load_config(args)
    folder: Path = args.folder
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder}: no such folder")
    names_file = args.faces or (folder / "profile.toml")
    game_set = _game_dice_set(args.profile, settings.data_dir)
    if args.faces or names_file.exists():
        faces, values = face_file(names_file)
    elif game_set is not None:
        # the faces as the game that rolls these dice names them (label class i = face i)
        faces = tuple(face.name for face in game_set.faces)
        values = tuple(face.value for face in game_set.faces)
        classes = ", ".join(f"{i} = {name}" for i, name in enumerate(faces))
        print(f"faces of {args.profile} as its game names them: class {classes}")
    else:
        faces, values = ("1", "2", "3", "4", "5", "6"), (1, 2, 3, 4, 5, 6)
    teacher = Teacher(args.profile, faces, values)
    images = labelled_images(folder)
    if not images:
        raise ProfileError(f"{folder}: no images with YOLO labels (.txt) beside them")
    taught = 0
    for path in images:
        frame = _image(path)
        height, width = frame.shape[:2]
        for label in read_labels(path.with_suffix(".txt"), width, height):
            if label.face_index >= len(faces):
                raise ProfileError(
                    f"{path.with_suffix('.txt')}: class {label.face_index} but only"
                    f" {len(faces)} faces are named"
                )
            box = (label.x, label.y, label.width, label.height)
            taught += teacher.add_example(frame, label.face_index, box)
    missing = teacher.missing()
    path = teacher.save(settings.data_dir)
    print(f"profile {args.profile}: {taught} dice from {len(images)} photos -> {path}")
    model = load_profile(args.profile, settings.data_dir).model
    if getattr(model, "pips", False):
        print("  dice found by their pips, faces named by the examples")
    elif getattr(model, "bodies", None) is not None:
        hint = model.bodies
        print(
            f"  dice found by their body colours ({len(hint.colours)} taught) and size"
            f" ({100 * hint.sides[0]:.1f}-{100 * hint.sides[1]:.1f}% of the photo's long side)"
        )
    if missing:
        print(f"warning: no example of {', '.join(missing)}", file=sys.stderr)
    return 0
