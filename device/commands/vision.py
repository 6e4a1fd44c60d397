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
    read.add_argument(
        "--draw",
        type=Path,
        metavar="DIR",
        help="write each photo to DIR with its dice outlined and labelled",
    )
    read.set_defaults(func=run_read)

    score = commands.add_parser("eval", help="score the reader on YOLO-labelled photos")
    score.add_argument("folder", type=Path, metavar="DIR")
    score.add_argument("--profile", help="dice profile (default: [vision] profile)")
    score.add_argument("--json", action="store_true", help="print the figures as JSON")
    score.add_argument(
        "--report",
        type=Path,
        metavar="DIR",
        help="write confusion.png and mistakes.png (misread, missed, extra dice)",
    )
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
    from dicetable.vision.images import load_image

    return load_image(path)


def _out_folder(path: Path) -> Path:
    """A folder pictures are written to; made when its parent exists (a mistyped
    path is refused rather than made deep somewhere unexpected)."""
    if path.exists() and not path.is_dir():
        raise ValueError(f"{path}: exists and is not a folder")
    if not path.parent.is_dir():
        raise FileNotFoundError(f"{path.parent}: no such folder")
    path.mkdir(exist_ok=True)
    return path


def _photos(paths: list[Path]) -> list[Path]:
    """The images named, a folder standing for the images in it."""
    from dicetable.vision.evaluation import IMAGE_SUFFIXES

    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        else:
            found.append(path)
    return found


def run_read(args: argparse.Namespace) -> int:
    from dicetable.vision.images import ImageError
    from dicetable.vision.profiles import make_reader

    reader = make_reader(_profile(args))
    draw = _out_folder(args.draw) if args.draw else None
    unread = 0
    for path in _photos(args.images):
        try:
            frame = _image(path)
        except ImageError as error:
            # one bad file in a batch is said where it stands; the others are read
            unread += 1
            if args.json:
                print(json.dumps({"image": str(path), "error": str(error)}))
            print(f"dicetable: {error}", file=sys.stderr)
            continue
        reading = reader.read_photo(frame)  # photos are independent
        if draw is not None:
            from dicetable.vision.drawing import annotate, write_png

            write_png(draw / f"{path.stem}.png", annotate(frame, reading))
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
    from dicetable.device.progress import Progress
    from dicetable.vision.evaluation import evaluate, labelled_images
    from dicetable.vision.profiles import make_reader

    profile = _profile(args)
    if not args.folder.is_dir():
        raise FileNotFoundError(f"{args.folder}: no such folder")
    report = _out_folder(args.report) if args.report else None
    progress = Progress(len(labelled_images(args.folder)), "reading")
    score = evaluate(
        args.folder,
        make_reader(profile).read_photo,
        profile.faces,
        on_photo=lambda path, reading, right: progress.step(path.name),
    )
    if not score.photos:
        raise FileNotFoundError(f"{args.folder}: no images with YOLO labels beside them")
    if args.json:
        print(
            json.dumps(
                {
                    **score.counts(),
                    "ms_p50": score.percentile(50),
                    "ms_p90": score.percentile(90),
                    "confusion": score.confusion,
                }
            )
        )
    else:
        print(f"profile {profile.name}, {args.folder}")
        print(score.report(profile.faces))
    if report is not None:
        from dicetable.vision.drawing import confusion_picture, contact_sheet, write_png

        write_png(report / "confusion.png", confusion_picture(score, profile.faces))
        sheet = contact_sheet(score.mistakes)
        if sheet is not None:
            write_png(report / "mistakes.png", sheet)
        print(
            f"report: {report / 'confusion.png'}"
            + (f", {report / 'mistakes.png'}" if sheet is not None else ", no mistakes")
        )
    return 0


def _game_dice_set(profile: str, data_dir: Path):
    """The dice set an installed game declares under this profile name, if any."""
    from dicetable.rules.registry import dice_sets

    return next((s for s in dice_sets(data_dir) if s.profile == profile), None)


def run_teach(args: argparse.Namespace) -> int:
    from dicetable.device import data_folder
    from dicetable.device.progress import Progress
    from dicetable.vision.evaluation import labelled_images, read_labels
    from dicetable.vision.profiles import ProfileError, face_file, load_profile, profiles_dir
    from dicetable.vision.teaching import Teacher, taught_bytes

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
    progress = Progress(len(images), "teaching")
    taught = 0
    for path in images:
        frame = _image(path)
        height, width = frame.shape[:2]
        labels = read_labels(path.with_suffix(".txt"), width, height)
        for label in labels:
            if label.face_index >= len(faces):
                raise ProfileError(
                    f"{path.with_suffix('.txt')}: class {label.face_index} but only"
                    f" {len(faces)} faces are named"
                )
        taught += teacher.add_photo(frame, [lb.taught for lb in labels])
        progress.step(path.name)
    missing = teacher.missing()
    # Written by descriptor, refusing links (the admin's commands run as root in a
    # folder the service's user owns): see device/data_folder.py.
    path = profiles_dir(settings.data_dir) / f"{args.profile}.npz"
    data_folder.write_bytes(
        settings.data_dir, f"profiles/{path.name}", taught_bytes(teacher.learn())
    )
    print(f"profile {args.profile}: {taught} dice from {len(images)} photos -> {path}")
    model = load_profile(args.profile, settings.data_dir).model
    size = path.stat().st_size
    print(f"  {size / 1024:.0f} KiB; finder threshold {getattr(model, 'finder_threshold', None)}")
    if teacher.missed:
        print(f"  {teacher.missed} labelled dice the finder did not find: learnt at their labels")
    if missing:
        print(f"warning: no example of {', '.join(missing)}", file=sys.stderr)
    return 0
