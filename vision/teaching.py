"""Teaching the reader new dice from a few labelled photos.

The reader finds dice the same way for every set (marks grouped into faces); what a
taught profile adds is how to name a face: a nearest-neighbour model over small,
contrast-normalised crops of each taught face, at every rotation (a die lands at any
angle). A face further from every example than the examples are from each other is
"unknown face": a symbol that was never taught gets no value instead of a guess.

The same ``Teacher`` serves ``dicetable teach`` (YOLO-labelled photos) and a guided
touchscreen flow ("show me the skull face"): each call to ``add_example`` takes a
frame and the face index shown, and says whether a die was found for it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from dicetable.vision.bodies import BodyHint, body_colour
from dicetable.vision.faces import Face
from dicetable.vision.profiles import Profile, ProfileError, check_name, profiles_dir

CROP = 24  # side of the normalised crop, pixels
TURNS = 24  # rotations learned per example (every 15 degrees)
FORMAT = 1


def face_crop(work: np.ndarray, face: Face, angle: float = 0.0) -> np.ndarray:
    """The top face as a CROP x CROP grey patch, turned ``angle`` degrees, with zero mean
    and unit length: lighting and dice colour drop out, the print stays."""
    gray = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY) if work.ndim == 3 else work
    side = face.size * 0.86  # inside the rounded rim
    turn = cv2.getRotationMatrix2D((face.x, face.y), angle, CROP / max(side, 1.0))
    turn[0, 2] += CROP / 2 - face.x
    turn[1, 2] += CROP / 2 - face.y
    patch = cv2.warpAffine(
        gray, turn, (CROP, CROP), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
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
    _squared: np.ndarray | None = field(default=None, repr=False, compare=False)

    def _norms(self) -> np.ndarray:
        if self._squared is None or len(self._squared) != len(self.features):
            self._squared = np.einsum("ij,ij->i", self.features, self.features)
        return self._squared

    def distances(self, vector: np.ndarray, faces: int) -> np.ndarray:
        """Distance from ``vector`` to the nearest example of each face (inf if none)."""
        # |f - v|^2 = |f|^2 + |v|^2 - 2 f.v: one matrix product, not a copy per example.
        squared = self._norms() + float(vector @ vector) - 2.0 * (self.features @ vector)
        distances = np.sqrt(np.maximum(squared, 0.0))
        best = np.full(faces, np.inf, np.float32)
        np.minimum.at(best, self.labels, distances)
        return best

    def read(
        self, work: np.ndarray, face: Face, profile: Profile
    ) -> tuple[int | None, str, str | None, float]:
        """The nearest taught face; a clean pip count settles a close call between faces
        (pips are counted exactly, crops only compared)."""
        per_face = self.distances(face_crop(work, face), len(profile.faces))
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
        centre y, width, height in pixels), or the die nearest the centre when the flow
        shows one die at a time. False when no die was found there."""
        from dicetable.vision.reader import DiceReader

        if not 0 <= face_index < len(self.faces):
            raise ProfileError(
                f"profile {self.name!r}: no face index {face_index} (0..{len(self.faces) - 1})"
            )
        found, scale, work = DiceReader().faces(frame)
        height, width = frame.shape[:2]
        cx, cy = (box[0], box[1]) if box else (width / 2, height / 2)
        reach = math.hypot(box[2], box[3]) / 2 if box else max(width, height)
        best = min(
            found, key=lambda f: math.hypot(f.x / scale - cx, f.y / scale - cy), default=None
        )
        if best is None or math.hypot(best.x / scale - cx, best.y / scale - cy) > max(
            reach, best.size / scale * 0.6
        ):
            if box is None:
                return False
            # No die found by its marks (a plain face, a faint symbol): trust the box.
            side = max(box[2], box[3]) * scale
            best = Face([], cx * scale, cy * scale, side, (0.0, 0.0, 0.0), 0.0, 1.0, 0.0)
        for turn in range(TURNS):
            self.examples.append((face_index, face_crop(work, best, turn * 360 / TURNS)))
        share = best.size / scale / max(width, height)
        self.bodies.append((body_colour(work, best.x, best.y, best.size), share))
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
        model = FaceModel(features, labels, threshold=_threshold(features, labels))
        if self.bodies:
            model.bodies = BodyHint.from_examples(
                np.stack([colour for colour, _ in self.bodies]),
                np.array([share for _, share in self.bodies]),
            )
        return Profile(
            name=self.name, faces=self.faces, values=tuple(self.values or ()), model=model
        )

    def save(self, data_dir: Path) -> Path:
        profile = self.learn()
        path = profiles_dir(data_dir) / f"{self.name}.npz"
        assert profile.model is not None
        profile.model.save(path, profile)
        return path


def _threshold(features: np.ndarray, labels: np.ndarray) -> float:
    """How far a face may be from its nearest example and still be that face.

    Each example's distance to the nearest example of the same face from another
    photo turn (leaving out its own rotations) measures how much one face varies;
    a margin above the worst of these lets real variation in, symbols of other
    faces out.
    """
    per_example = TURNS
    groups = len(features) // per_example
    if groups < 2:
        return 0.9
    spreads = []
    for g in range(groups):
        own = slice(g * per_example, (g + 1) * per_example)
        query = features[own][0]
        others = np.ones(len(features), bool)
        others[own] = False
        same = others & (labels == labels[own][0])
        if same.any():
            spreads.append(float(np.linalg.norm(features[same] - query, axis=1).min()))
    if not spreads:
        return 0.9
    return float(min(1.2, max(0.5, np.percentile(spreads, 95) * 1.3)))
