"""Teaching the reader new dice from a few labelled photos, and reading with them.

A taught profile names a face with a nearest-neighbour model over small,
contrast-normalised crops of each taught face, at every rotation and a few sizes (a
die lands at any angle, and its outline is measured a little differently in another
light). A face further from every example than the examples are from each other is
"unknown face": a symbol that was never taught gets no value instead of a guess.

Where the taught dice are found: pip dice the pip reader reads right are found by
their pips; other dice (symbols) by their body colours and size (``bodies``), which
teaching records. ``make_reader`` (profiles) gives the ``TaughtReader`` that does this.

The same ``Teacher`` serves ``dicetable teach`` (YOLO-labelled photos) and a guided
touchscreen flow ("show me the skull face"): each call to ``add_example`` takes a
frame and the face index shown (and the die's box when labelled; else the lone die
in the tray is found by its body), and says whether a die was found for it.
"""

from __future__ import annotations

import math
import time
import weakref
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from dicetable.vision.bodies import (
    BodyHint,
    body_colour,
    find_lone_die,
    measure_die,
    print_contrast,
    search,
)
from dicetable.vision.faces import Face
from dicetable.vision.profiles import Profile, ProfileError, check_name, profiles_dir
from dicetable.vision.reader import DiceReader, die_reading, shrink
from dicetable.vision.reading import DieReading, FrameReading

CROP = 24  # side of the normalised crop, pixels
TURNS = 24  # rotations learned per example (every 15 degrees)
# Sizes learned per example: a die's outline measured in another light or beside
# another die (a shadow of its colour, a neighbour's rim) comes out a little bigger
# or smaller than when it was taught.
ZOOMS = (0.93, 1.0, 1.07)
# Grey-level spread inside a face below which there is no print (felt, not a die).
PRINT_CONTRAST = 15.0
KEPT_SIDE = 800  # long side of the photos kept while teaching (to check the bodies)
RECENTRE = 0.08  # of a die's side: the first step away from its outline's centre
COMPONENTS = 48  # directions faces are compared along (of CROP * CROP)
FORMAT = 1


def face_crop(work: np.ndarray, face: Face, angle: float = 0.0, zoom: float = 1.0) -> np.ndarray:
    """The top face as a CROP x CROP grey patch, turned ``angle`` degrees, with zero mean
    and unit length: lighting and dice colour drop out, the print stays.

    Only the die's neighbourhood is converted, first brought to about twice the crop
    (area averaging: a 12 MP die taught at 400 pixels is cut like one read at 32)."""
    side = face.size * 0.86 * zoom  # inside the rounded rim
    height, width = work.shape[:2]
    reach = face.size * zoom * 0.75  # the turned crop's corners stay inside
    x0, y0 = int(max(0, face.x - reach)), int(max(0, face.y - reach))
    x1, y1 = int(min(width, face.x + reach + 1)), int(min(height, face.y + reach + 1))
    patch = work[y0:y1, x0:x1]
    if patch.size == 0:
        return np.zeros(CROP * CROP, np.float32)
    if patch.ndim == 3:
        patch = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    shrink = min(1.0, 2 * CROP / max(side, 1.0))
    if shrink < 0.9:
        patch = cv2.resize(patch, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    else:
        shrink = 1.0
    cx, cy = (face.x - x0) * shrink, (face.y - y0) * shrink
    turn = cv2.getRotationMatrix2D((cx, cy), angle, CROP / max(side * shrink, 1.0))
    turn[0, 2] += CROP / 2 - cx
    turn[1, 2] += CROP / 2 - cy
    patch = cv2.warpAffine(
        patch, turn, (CROP, CROP), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    vector = patch.astype(np.float32).ravel()
    vector -= vector.mean()
    # The print's polarity is part of the face (dark pips on light, or light on dark)
    # but not its contrast.
    return vector / (np.linalg.norm(vector) + 1e-6)


@dataclass
class FaceModel:
    """Examples (rows of ``features``, with the face index in ``labels``) and the
    distance beyond which a face counts as unknown."""

    features: np.ndarray
    labels: np.ndarray
    threshold: float
    # What the taught dice look like, to find them by their bodies (``bodies``).
    bodies: BodyHint | None = None
    # Principal directions of the examples (CROP*CROP x COMPONENTS): faces are
    # compared in this small space, plus what lies outside it (``distances``).
    basis: np.ndarray | None = None
    # True when the taught dice are pip dice the pip reader reads (find them by their
    # pips, name them by the examples); False for symbols; None: taught before this
    # was recorded (read as then).
    pips: bool | None = None
    _index: tuple[np.ndarray, ...] | None = field(default=None, repr=False, compare=False)

    def _prepared(self) -> tuple[np.ndarray, ...]:
        """Examples sorted by face and projected, their squared lengths inside and
        outside the basis, where each face starts."""
        if self._index is None or len(self._index[0]) != len(self.features):
            if self.basis is None:
                self.basis = principal_basis(self.features)
            order = np.argsort(self.labels, kind="stable")
            projected, outside = _project(self.features[order], self.basis)
            labels = self.labels[order]
            starts = np.flatnonzero(np.r_[True, labels[1:] != labels[:-1]])
            squared = np.einsum("ij,ij->i", projected, projected) + outside
            self._index = (projected, squared, starts, labels[starts])
        return self._index

    def distances(self, vector: np.ndarray, faces: int) -> np.ndarray:
        """Distance from ``vector`` to the nearest example of each face (inf if none).

        Inside the basis exactly; outside it, the parts of the two are taken as
        unrelated (their squared lengths add): a print unlike every taught face has
        most of its energy outside, so it stays far from all of them."""
        projected, squared, starts, owners = self._prepared()
        assert self.basis is not None
        query, outside = _project(vector[None, :], self.basis)
        query = query[0]
        # |f - v|^2 = |f|^2 + |v|^2 - 2 f.v: one small matrix product.
        near = squared + float(query @ query) + float(outside[0]) - 2.0 * (projected @ query)
        best = np.full(faces, np.inf, np.float32)
        best[owners] = np.sqrt(np.maximum(np.minimum.reduceat(near, starts), 0.0))
        return best

    def _recentred(self, work: np.ndarray, face: Face, per_face: np.ndarray) -> np.ndarray:
        """Distances of the best crop near a die found by its body: seen from the side,
        a die's side faces of the body's colour join its outline, which then centres
        a little off the top face and a little too big. A coarse grid of positions
        and sizes, then a few steps downhill, each half the last."""
        x, y, zoom = face.x, face.y, 1.0
        step = face.size * RECENTRE
        for z in (1.0, 0.9):  # a coarse look first, then downhill from the best
            for dx in (-step, 0.0, step):
                for dy in (-step, 0.0, step):
                    moved = replace(face, x=face.x + dx, y=face.y + dy)
                    tried = self.distances(face_crop(work, moved, 0.0, z), len(per_face))
                    if tried.min() < per_face.min():
                        per_face, x, y, zoom = tried, face.x + dx, face.y + dy, z
        step /= 2
        for _ in range(2):
            moves = [(step, 0, 0), (-step, 0, 0), (0, step, 0), (0, -step, 0), (0, 0, -0.06)]
            for dx, dy, dz in moves:
                moved = replace(face, x=x + dx, y=y + dy)
                tried = self.distances(face_crop(work, moved, 0.0, zoom + dz), len(per_face))
                if tried.min() < per_face.min():
                    per_face, x, y, zoom = tried, x + dx, y + dy, zoom + dz
            step /= 2
        return per_face

    def read(
        self, work: np.ndarray, face: Face, profile: Profile
    ) -> tuple[int | None, str, str | None, float]:
        """The nearest taught face; a clean pip count settles a close call between faces
        (pips are counted exactly, crops only compared)."""
        per_face = self.distances(face_crop(work, face), len(profile.faces))
        if not face.marks and per_face.min() > 0.8 * self.threshold:
            per_face = self._recentred(work, face, per_face)
        order = np.argsort(per_face)
        index = int(order[0])
        trusted = False
        if face.value is not None and face.fit < 0.15:
            counted = [i for i, v in enumerate(profile.values) if v == face.value]
            # Two or more pips in a clean layout are self-evident; a lone blob must
            # also look like the taught face (a round emblem is not a One).
            reach = math.inf if face.value >= 2 and face.fit < 0.1 else self.threshold * 1.25
            close = [i for i in counted if per_face[i] <= reach]
            if close:
                index, trusted = min(close, key=lambda i: per_face[i]), True
        distance = float(per_face[index])
        others = [float(per_face[i]) for i in order if i != index and np.isfinite(per_face[i])]
        margin = (others[0] - distance) if others else self.threshold
        confidence = max(0.0, min(1.0, 1.0 - distance / (2 * self.threshold))) * min(
            1.0, 0.5 + margin / max(self.threshold, 1e-6)
        )
        if not trusted and distance > self.threshold:
            return None, "", "unknown face", round(confidence, 3)
        return profile.values[index], profile.faces[index], None, round(confidence, 3)

    def save(self, path: Path, profile: Profile) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp.npz")
        np.savez_compressed(
            temporary,
            format=np.array(FORMAT),
            features=self.features.astype(np.float16),
            labels=self.labels.astype(np.int16),
            threshold=np.array(self.threshold),
            faces=np.array(profile.faces),
            values=np.array([v or 0 for v in profile.values]),
            body_colours=self.bodies.colours if self.bodies else np.zeros((0, 3), np.float32),
            body_sides=np.array(self.bodies.sides if self.bodies else (), np.float32),
            basis=self.basis if self.basis is not None else principal_basis(self.features),
            pips=np.array(-1 if self.pips is None else int(self.pips)),
        )
        temporary.replace(path)
        names = ", ".join(f'"{name}"' for name in profile.faces)
        values = ", ".join(str(v or 0) for v in profile.values)
        path.with_suffix(".toml").write_text(
            f"# dice profile {profile.name!r}, taught with `dicetable teach`\n"
            f"# face index i is class i of the labels; value 0 means no value\n"
            f"faces = [{names}]\nvalues = [{values}]\n",
            encoding="utf-8",
        )

    @staticmethod
    def load_profile(path: Path) -> Profile:
        try:
            with np.load(path, allow_pickle=False) as data:
                if int(data["format"]) != FORMAT:
                    raise ProfileError(
                        f"{path}: profile format {int(data['format'])} is not {FORMAT}"
                    )
                model = FaceModel(
                    features=data["features"].astype(np.float32),
                    labels=data["labels"].astype(np.int32),
                    threshold=float(data["threshold"]),
                )
                if "pips" in data.files and int(data["pips"]) >= 0:
                    model.pips = bool(int(data["pips"]))
                if "basis" in data.files:  # else computed on first use
                    model.basis = data["basis"].astype(np.float32)
                if "body_colours" in data.files:  # profiles taught before had none
                    model.bodies = BodyHint.from_examples(data["body_colours"], data["body_sides"])
                faces = tuple(str(f) for f in data["faces"])
                values = tuple(int(v) or None for v in data["values"])
        except (OSError, KeyError, ValueError) as error:
            raise ProfileError(f"{path}: not a dice profile: {error}") from None
        return Profile(name=path.stem, faces=faces, values=values, model=model)


@dataclass
class Teacher:
    """Collects examples of each face of one dice set, then ``learn()``s a profile.

    ``faces`` names the faces (face index i = label class i); ``values`` gives each face's
    value (None for a pure symbol); by default face i is worth i + 1.
    """

    name: str
    faces: tuple[str, ...] = ("1", "2", "3", "4", "5", "6")
    values: tuple[int | None, ...] | None = None
    examples: list[tuple[int, np.ndarray]] = field(default_factory=list)
    # Per example: the body's Lab colour and the die's side over the frame's long side.
    bodies: list[tuple[np.ndarray, float]] = field(default_factory=list)
    # Per example: did the pip reader read the die as its label says?
    pips_agree: list[bool] = field(default_factory=list)
    _seen: tuple[weakref.ref, tuple[list[Face], float]] | None = field(
        default=None, repr=False, compare=False
    )
    # The photos taught from (small) and their dice's centres (frame pixels), to
    # check that the taught body colours find the dice again.
    _photos: list[tuple[np.ndarray, float, list[tuple[float, float]]]] = field(
        default_factory=list, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        check_name(self.name)
        if self.values is None:
            self.values = tuple(i + 1 for i in range(len(self.faces)))
        if len(self.values) != len(self.faces):
            raise ProfileError(
                f"profile {self.name!r}: {len(self.faces)} faces but {len(self.values)} values"
            )

    def add_example(
        self,
        frame: np.ndarray,
        face_index: int,
        box: tuple[float, float, float, float] | None = None,
    ) -> bool:
        """Learn the face ``face_index`` from ``frame``: the die inside ``box`` (centre x,
        centre y, width, height in pixels), or, when the flow shows one die at a time,
        the die nearest the middle (found by its body, so a face of symbols only is
        found too). False when no die was found there."""
        if not 0 <= face_index < len(self.faces):
            raise ProfileError(
                f"profile {self.name!r}: no face index {face_index} (0..{len(self.faces) - 1})"
            )
        if self._seen is None or self._seen[0]() is not frame:
            # Found once per frame: a labelled photo teaches all its dice.
            self._seen = (weakref.ref(frame), DiceReader().faces(frame)[:2])
            keep = min(1.0, KEPT_SIDE / max(frame.shape[:2]))
            self._photos.append((shrink(frame, keep), keep, []))
        die, pips = locate_die(frame, box, self._seen[1])
        if die is None:
            return False
        self._photos[-1][2].append((die.x, die.y))
        assert self.values is not None
        self.pips_agree.append(pips is not None and pips == self.values[face_index])
        for zoom in ZOOMS:
            for turn in range(TURNS):
                crop = face_crop(frame, die, turn * 360 / TURNS, zoom)
                self.examples.append((face_index, crop))
        share = die.size / max(frame.shape[:2])
        self.bodies.append((body_colour(frame, die.x, die.y, die.size), share))
        return True

    def missing(self) -> list[str]:
        """Faces with no example yet (what a guided flow asks for next)."""
        taught = {index for index, _ in self.examples}
        return [name for i, name in enumerate(self.faces) if i not in taught]

    def learn(self) -> Profile:
        if not self.examples:
            raise ProfileError(f"profile {self.name!r}: no examples were found to learn from")
        features = np.stack([vector for _, vector in self.examples]).astype(np.float32)
        labels = np.array([index for index, _ in self.examples], np.int32)
        basis = principal_basis(features)
        threshold = _threshold(features, labels, basis)
        model = FaceModel(features, labels, threshold=threshold, basis=basis)
        # Dice whose pips the pip reader reads are best found by their pips (white
        # dice on a light desk have no body colour to find them by).
        model.pips = bool(np.mean(self.pips_agree) >= 0.9) if self.pips_agree else False
        if self.bodies:
            hint = BodyHint.from_examples(
                np.stack([colour for colour, _ in self.bodies]),
                np.array([share for _, share in self.bodies]),
            )
            # Body colours that do not find the taught dice again in their own photos
            # (black dice on black felt) would lose dice: find them by their marks.
            model.bodies = hint if hint and self._body_recall(hint) >= 0.9 else None
        return Profile(
            name=self.name, faces=self.faces, values=tuple(self.values or ()), model=model
        )

    def _body_recall(self, hint: BodyHint) -> float:
        """Share of the taught dice that the body search finds in the photos taught
        from (1.0 when no photo was kept)."""
        found = total = 0
        for image, keep, centres in self._photos:
            scale = hint.scale_for(image.shape)
            faces = search(shrink(image, scale), hint, scale).faces
            for x, y in centres:
                total += 1
                found += any(
                    math.hypot(f.x / scale - x * keep, f.y / scale - y * keep)
                    < 0.4 * f.size / scale
                    for f in faces
                )
        return found / total if total else 1.0

    def save(self, data_dir: Path) -> Path:
        profile = self.learn()
        path = profiles_dir(data_dir) / f"{self.name}.npz"
        assert profile.model is not None
        profile.model.save(path, profile)
        return path


def locate_die(
    frame: np.ndarray,
    box: tuple[float, float, float, float] | None = None,
    marks: tuple[list[Face], float] | None = None,
) -> tuple[Face | None, int | None]:
    """The die to learn from, in ``frame``'s pixels, measured as the reader will
    measure it: by its body where its colour stands out from the floor, else by its
    marks (white dice on a white desk), else (a box given) the box itself; and the
    value its pips read, if they do. ``marks``: the faces the pip reader found in
    ``frame`` and its scale, when known."""
    found, scale = marks or DiceReader().faces(frame)[:2]
    height, width = frame.shape[:2]
    cx, cy = (box[0], box[1]) if box else (width / 2, height / 2)
    reach = math.hypot(box[2], box[3]) / 2 if box else max(width, height)
    marked = min(found, key=lambda f: math.hypot(f.x / scale - cx, f.y / scale - cy), default=None)
    if marked is not None:
        marked = Face(
            [], marked.x / scale, marked.y / scale, marked.size / scale, marked.body_bgr,
            marked.body_gray, marked.edge_found, marked.fit, marked.value,
        )  # fmt: skip
        if math.hypot(marked.x - cx, marked.y - cy) > max(reach, marked.size * 0.6):
            marked = None
    pips = marked.value if marked is not None else None
    if box is not None:
        # A box may be drawn round the pips only (the die is what its marks
        # measured), and the marks of a symbol may be only a piece of it (the die is
        # the box): the larger is the die.
        side = max(box[2], box[3])
        if marked is not None:
            if marked.size < 0.8 * side:
                marked = None
            else:
                side = marked.size
        by_body = measure_die(frame, cx, cy, side)
        plain = Face([], cx, cy, side, (0.0, 0.0, 0.0), 0.0, 1.0, 0.0)
        return by_body or marked or plain, pips
    lone = find_lone_die(frame)
    if marked is not None and (
        lone is None or math.hypot(lone.x - marked.x, lone.y - marked.y) > lone.size
    ):
        return measure_die(frame, marked.x, marked.y, marked.size) or marked, pips
    return lone, None


class TaughtReader(DiceReader):
    """Reads frames with a taught profile.

    Pip dice the pip reader read right while teaching (``FaceModel.pips``) are found
    by their pips, as the pip reader finds them, and named by the examples. Other
    dice (symbols) are found by their bodies where the taught body colours tell them
    from the floor, on a small image (a die ``WORK_SIDE`` pixels across), and named
    by the face model there: no pip search at all, a few milliseconds a frame at any
    resolution. Where the colours do not tell dice from floor, by their marks.
    """

    def read(self, frame: np.ndarray) -> FrameReading:
        if getattr(self.profile.model, "pips", False) is None:
            return super().read(frame)  # a profile taught before ``pips`` was kept
        start = time.perf_counter()
        dice = self._read_taught(frame)
        dice.sort(key=lambda d: (round(d.y / max(d.size, 1.0)), d.x))
        return FrameReading(dice=tuple(dice), ms=(time.perf_counter() - start) * 1000)

    def _read_taught(self, frame: np.ndarray) -> list[DieReading]:
        hint = getattr(self.profile.model, "bodies", None)
        if hint is not None and not getattr(self.profile.model, "pips", False):
            scale = hint.scale_for(frame.shape)
            small = shrink(frame, scale)
            bodies = search(small, hint, scale)
            if bodies.discerning:
                return self._named(small, scale, bodies.faces)
        found, scale, work = self.faces(frame)
        return self._named(work, scale, found)

    def _unknown_die(self, work: np.ndarray, face: Face) -> bool:
        """Whether a body blob the profile cannot name is still surely a die (a face
        never taught, to report without a value): a lone square, of the taught size,
        with print on it. A piece of a row of blobs, or a patch of felt of a dice
        colour (no print), is not."""
        hint = getattr(self.profile.model, "bodies", None)
        if face.fit > 0 or hint is None:
            return False
        share = face.size / max(work.shape[:2])
        taught = hint.sides[0] * 0.8 <= share <= hint.sides[1] * 1.25
        return taught and print_contrast(work, face) > PRINT_CONTRAST

    def _named(self, work: np.ndarray, scale: float, found: list[Face]) -> list[DieReading]:
        readings = []
        for face in found:
            read = self.profile.read_face(work, face)  # (value, name, reason, confidence)
            if read[2] == "unknown face" and not face.marks and not self._unknown_die(work, face):
                continue  # a blob of a dice colour that is no taught face: not a die
            readings.append(die_reading(face, scale, read))
        return readings


def principal_basis(features: np.ndarray) -> np.ndarray:
    """The ``COMPONENTS`` directions along which the taught crops vary most."""
    sample = features[:: max(1, len(features) // 1500)].astype(np.float32)
    _, vectors = np.linalg.eigh(sample.T @ sample)  # ascending eigenvalues
    return np.ascontiguousarray(vectors[:, ::-1][:, :COMPONENTS], np.float32)


def _project(vectors: np.ndarray, basis: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Coordinates in ``basis`` and the squared length left outside it."""
    projected = np.ascontiguousarray(vectors @ basis, np.float32)
    total = np.einsum("ij,ij->i", vectors, vectors)
    return projected, np.maximum(total - np.einsum("ij,ij->i", projected, projected), 0.0)


def _threshold(features: np.ndarray, labels: np.ndarray, basis: np.ndarray) -> float:
    """How far a face may be from its nearest example and still be that face.

    Each example's distance to the nearest example of the same face from another
    photo (leaving out its own turns and zooms), measured as ``FaceModel.distances``
    measures, says how much one face varies; a margin above the worst of these lets
    real variation in, symbols of other faces out.
    """
    per_example = TURNS * len(ZOOMS)
    groups = len(features) // per_example
    if groups < 2:
        return 0.9
    projected, outside = _project(features, basis)
    spreads = []
    for g in range(groups):
        own = slice(g * per_example, (g + 1) * per_example)
        at = g * per_example + TURNS * ZOOMS.index(1.0)
        others = np.ones(len(features), bool)
        others[own] = False
        same = others & (labels == labels[at])
        if same.any():
            squared = ((projected[same] - projected[at]) ** 2).sum(axis=1)
            squared += outside[same] + outside[at]
            spreads.append(float(np.sqrt(squared.min())))
    if not spreads:
        return 0.9
    return float(min(1.2, max(0.5, np.percentile(spreads, 95) * 1.3)))
