"""Teaching the reader a user's own dice, on the Pi, without the training framework.

The shipped face reader's embedding (its last hidden layer) describes any face, pips
or not; a taught profile keeps the embeddings of its dice's faces, each die seen at
every turn, beside its body and print colours (Dicequest's faces differ by colour),
and fits a small softmax head over them in numpy, with a "not a die" class from what
the finder found in the teaching photos that was no labelled die. A face far from
every taught example of the face the head picks is "unknown face" (unless the untaught
reader reads it as that face's pips): a symbol that was never taught gets no value.
Where the untaught reader is sure of a pip count, its chances are pooled with the
head's: a dozen photos cannot teach a head what thousands taught the face reader.
Where the finder missed taught dice, the profile lowers its threshold to the weakest
taught die's score, and the head rejects the extra finds.

The same ``Teacher`` serves ``dicetable teach`` (YOLO-labelled photos, ``add_photo``)
and the touchscreen's guided flow (``add_example``: one die in the tray, showing the
face asked for; a frame with no die or several is refused and says how many).
"""

from __future__ import annotations

import io
import math
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from dicetable.vision.face_reader import (
    FACE_INPUT,
    FACE_READER,
    FACE_SPAN,
    NOT_A_DIE,
    SYMBOL,
    UNSURE,
    FaceLooks,
    cut_square,
    softmax,
)
from dicetable.vision.finder import SURE, Candidate
from dicetable.vision.networks import network
from dicetable.vision.profiles import Profile, ProfileError, check_name, profiles_dir
from dicetable.vision.reader import (
    REASONS,
    SAME_DIE,
    UNSURE_REASON,
    DiceReader,
    Named,
    distinct,
)

FORMAT = 5  # 4: the face reader it was taught with (``face_reader``); 5: examples in bytes
TURNS = 12  # views of each taught die, every 30 degrees
ZOOMS = (0.9, 1.1)  # and its side misjudged by a tenth either way
LOW_FIND = 0.05  # finder threshold while teaching: every place a die could be
LEAST_FIND = 0.1  # the lowest threshold a profile may read with
COLOUR_WEIGHT = 0.6  # colour features' weight beside the unit-length embedding
VERDICT_WEIGHT = 0.5  # the untaught class probabilities' weight beside it
HEAD_STEPS = 400
HEAD_RATE = 2.0
HEAD_L2 = 1e-3
NOVEL = 1.6  # times the spread of a face's examples: further is a face never taught
LEAST_NOVEL = 0.35  # the novelty distance when a face was shown once (no spread known)
# A find like no taught face is dropped when the untaught reader thinks it this likely
# no die: higher than the untaught reader's own cut, since a taught set may have faces
# (Dicequest's blank) that the untaught reader takes for bare floor.
NOVEL_NOT_A_DIE = 0.5

# Where the untaught reader surely reads a pip count, the head's chances are pooled
# with its (log-linearly, the head's weighed HEAD_WEIGHT): a dozen photos teach the
# head few dice of each face, and it can be sure and wrong where the untaught reader,
# trained on thousands, is right (a Six read at 0.99, named Five by a head taught 7
# Fives). A face not named for a pip count is backed by the untaught reader's chance
# of no pip count; AGREEMENT_FLOOR keeps a sure head able to overrule it (a taught
# skull, whose two eyes the untaught reader may read as a Two at 0.7).
HEAD_WEIGHT = 0.5
AGREEMENT_FLOOR = 0.05
MAX_PROFILE_BYTES = 4 * 1024 * 1024
# Examples are stored a byte a feature, in LEVELS steps between each feature's least
# and greatest: a step is far below the novelty distances (0.35 and up), and a set
# of 200 dice taught with the wide face reader fits in 1 MB, not 2.2.
LEVELS = 255
TOLD_APART = 0.75  # of a name's taught dice, nearest to a die of their own face (alike: 1 in 3)


def colour_features(bgr: np.ndarray) -> np.ndarray:
    """CIE Lab of N BGR colours, scaled to about unit range."""
    pixels = np.clip(bgr, 0, 255).astype(np.uint8).reshape(-1, 1, 3)
    lab = cv2.cvtColor(pixels, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    return (lab - 128.0) / 128.0


def features(looks: FaceLooks) -> np.ndarray:
    """What a taught face is known by: the face reader's embedding, its own verdict
    (a pip count it is sure of says much of a pip face), and the colours of the
    face's middle and print (the middle's says how much of the face a symbol covers:
    a shield more than a sword)."""
    colour = np.hstack([colour_features(looks.middles), colour_features(looks.inks)])
    verdict = VERDICT_WEIGHT * looks.probabilities
    return np.hstack([looks.embeddings, verdict, COLOUR_WEIGHT * colour]).astype(np.float32)


def fit_head(x: np.ndarray, y: np.ndarray, classes: int) -> tuple[np.ndarray, np.ndarray]:
    """Softmax regression by full-batch gradient descent on standardised features,
    classes weighted alike; the standardisation is folded into the weights returned,
    which apply to the raw features."""
    mean = x.mean(axis=0)
    spread = x.std(axis=0) + 1e-3
    z = (x - mean) / spread
    weights = np.zeros((x.shape[1], classes), np.float32)
    bias = np.zeros(classes, np.float32)
    counts = np.bincount(y, minlength=classes).astype(np.float32)
    balance = np.where(counts > 0, 1.0 / np.maximum(counts, 1), 0.0)[y]
    balance /= balance.sum()
    target = np.eye(classes, dtype=np.float32)[y]
    for _ in range(HEAD_STEPS):
        p = softmax(z @ weights + bias)
        error = (p - target) * balance[:, None]
        weights -= HEAD_RATE * (z.T @ error + HEAD_L2 * weights)
        bias -= HEAD_RATE * error.sum(axis=0)
    raw = weights / spread[:, None]
    return raw.astype(np.float32), (bias - mean @ raw).astype(np.float32)


@dataclass
class TaughtFaces:
    """A taught set: examples (features, face index; ``len(faces)`` = not a die), the
    head over them, and each face's novelty distance."""

    examples: np.ndarray
    labels: np.ndarray
    weights: np.ndarray
    bias: np.ndarray
    novelty: np.ndarray  # per face
    finder_threshold: float | None
    has_floor: bool
    # per face: whether teaching told it from the other faces of its name (a hero
    # die's swords of 1, 2 and 3 differ only in a small numeral); False, the reading
    # names the face and gives no value
    told_apart: np.ndarray
    # the digest of the face reader whose embeddings the examples are: another one
    # (after an update that retrained it) cannot read with them
    face_reader: str

    def name(self, looks: FaceLooks, index: int, profile: Profile, pips: int | None) -> Named:
        """The taught face ``looks[index]`` shows. Faces of one name (a hero die's
        three swords) look alike, so they share their chance: the name can be sure
        while which of its values is not, and then the reading has the name and no
        value."""
        x = features(looks)[index]
        faces = len(profile.faces)
        logits = x @ self.weights + self.bias
        if pips is not None:
            logits = HEAD_WEIGHT * logits + np.log(agreement(looks.probabilities[index], profile))
        p = softmax(logits[None])[0]
        untaught_floor = float(looks.probabilities[index][NOT_A_DIE])
        names = sorted(set(profile.faces))
        chance = [float(sum(p[i] for i in range(faces) if profile.faces[i] == n)) for n in names]
        sure = max(chance)
        alike = [i for i in range(faces) if profile.faces[i] == names[chance.index(sure)]]
        best = max(alike, key=lambda i: p[i])
        reach = float(self.novelty[alike].max())
        # A face the untaught reader itself reads as the pips of the face the head
        # picked is that face however far from its taught examples: a dozen photos of
        # one table show a face alike (d6-desk's taught Fours lay within 0.35 of each
        # other, and three sure Fours of its other photos 0.40-0.50 away).
        novel = self._nearest(x, alike) > reach and pips != pip_count(profile.faces[best])
        floor = self.has_floor and p[faces] > sure
        # The head's floor class also takes in what lies far from all it was taught
        # (an untaught star, the untaught reader's symbol, came back as floor, even
        # when nearer a taught skull than the skull's reach): a find far from the
        # taught floor is floor only where the untaught reader says so too, and the
        # head, having named no face, leaves it an unknown face.
        if floor and self._nearest(x, [faces]) > reach:
            floor, novel = False, True
        if floor or (novel and untaught_floor > NOVEL_NOT_A_DIE):
            return Named(None, "", "not a die", float(max(p[faces], untaught_floor)), die=False)
        if novel:
            return Named(None, "", REASONS[SYMBOL], sure)
        if sure < UNSURE:
            return Named(None, "", UNSURE_REASON, sure)
        if len({profile.values[i] for i in alike}) == 1:
            return Named(profile.values[best], profile.faces[best], None, sure)
        if p[best] < UNSURE or not self.told_apart[best]:
            return Named(None, profile.faces[best], UNSURE_REASON, float(p[best]))
        return Named(profile.values[best], profile.faces[best], None, float(p[best]))

    def _nearest(self, x: np.ndarray, faces: list[int]) -> float:
        """The distance from ``x`` to the nearest example of ``faces``."""
        mine = self.examples[np.isin(self.labels, faces)]
        return float(np.sqrt(((mine - x) ** 2).sum(axis=1).min())) if len(mine) else math.inf


def pip_count(face: str) -> int | None:
    """The pip count a taught face's name stands for ("3"), or None (a "skull"); the
    face reader's first SYMBOL classes are the counts from 1."""
    return int(face) if face.isdigit() and 1 <= int(face) <= SYMBOL else None


def agreement(untaught: np.ndarray, profile: Profile) -> np.ndarray:
    """How much the untaught reader's chances back each taught face, then the floor:
    a face named for a pip count by that count's chance, any other by the chance of
    no pip count."""
    pips = untaught[:SYMBOL]
    counts = [pip_count(face) for face in profile.faces]
    backing = [1.0 - pips.sum() if n is None else pips[n - 1] for n in counts]
    return np.array([*backing, untaught[NOT_A_DIE]], np.float32) + AGREEMENT_FLOOR


def turned_crops(frame: np.ndarray, die: Candidate) -> np.ndarray:
    """The die as the face reader sees it, at every turn and at misjudged sizes."""
    wide = cut_square(frame, die.x, die.y, 2 * FACE_SPAN * die.size, 2 * FACE_INPUT)
    views = []
    for zoom in (1.0, *ZOOMS):
        for turn in range(TURNS):
            matrix = cv2.getRotationMatrix2D((FACE_INPUT, FACE_INPUT), turn * 360 / TURNS, zoom)
            matrix[:, 2] = matrix[:, 2] - FACE_INPUT / 2
            views.append(cv2.warpAffine(wide, matrix, (FACE_INPUT, FACE_INPUT),
                                        borderMode=cv2.BORDER_REPLICATE))  # fmt: skip
    return np.stack(views)


class Teacher:
    """Collects examples of one dice set's faces, then learns and saves its profile."""

    def __init__(
        self,
        name: str,
        faces: tuple[str, ...] = ("1", "2", "3", "4", "5", "6"),
        values: tuple[int | None, ...] | None = None,
        reader: DiceReader | None = None,
    ) -> None:
        self.name = check_name(name)
        self.faces = tuple(faces)
        self.values = tuple(values) if values is not None else tuple(range(1, len(faces) + 1))
        if len(self.values) != len(self.faces):
            raise ProfileError(f"{len(self.faces)} faces but {len(self.values)} values")
        self.reader = reader or DiceReader()
        self._features: list[np.ndarray] = []
        self._labels: list[np.ndarray] = []
        self._dice: list[int] = []  # which taught die each block of examples came from
        self._scores: list[float] = []  # the finder's score of each taught die
        self.missed = 0  # labelled dice the finder did not find even at LOW_FIND
        self.last_seen = 0  # dice seen by the last capture without labels

    def _check(self, face_index: int) -> None:
        if not 0 <= face_index < len(self.faces):
            raise ProfileError(f"face index {face_index}: only {len(self.faces)} faces are named")

    def _finds(self, frame: np.ndarray) -> list[Candidate]:
        return distinct(self.reader.finder.find(frame, threshold=LOW_FIND))

    def _learn_die(self, frame: np.ndarray, die: Candidate, face_index: int) -> None:
        looks = self.reader.faces.look(turned_crops(frame, die))
        self._features.append(features(looks))
        self._labels.append(np.full(len(looks.embeddings), face_index, np.int64))
        self._dice.append(len(self._dice))
        self._scores.append(die.score)

    def _learn_floor(self, frame: np.ndarray, places: list[Candidate]) -> None:
        if not places:
            return
        looks = self.reader.faces.read(frame, [(c.x, c.y, c.size) for c in places])
        self._features.append(features(looks))
        self._labels.append(np.full(len(places), len(self.faces), np.int64))
        self._dice.append(-1)

    def add_photo(self, frame: np.ndarray, labels: list[tuple[int, float, float, float]]) -> int:
        """A labelled photo: ``labels`` are (face index, x, y, side) in its pixels.
        Each label takes the find at its place (the finder's centre and side, as it
        will read them); what else was found there is "not a die". Returns the dice
        learnt."""
        finds = self._finds(frame)
        used: set[int] = set()
        for face_index, x, y, side in labels:
            self._check(face_index)
            near = [
                (math.hypot(c.x - x, c.y - y), i)
                for i, c in enumerate(finds)
                if math.hypot(c.x - x, c.y - y) < SAME_DIE * max(side, c.size) and i not in used
            ]
            if near:
                index = min(near)[1]
                used.add(index)
                self._learn_die(frame, finds[index], face_index)
            else:
                self.missed += 1
                self._learn_die(frame, Candidate(x, y, side, LOW_FIND), face_index)
        self._learn_floor(frame, [c for i, c in enumerate(finds) if i not in used])
        return len(labels)

    def add_example(self, frame: np.ndarray, face_index: int) -> bool:
        """The tray holds one die showing face ``face_index``: learn it. False when
        the frame does not hold exactly one die (``last_seen`` says how many)."""
        self._check(face_index)
        finds = self.reader.named_finds(frame)
        # Each die the untaught reader sees, with the finder's score (the profile's
        # finder threshold is set from those scores).
        dice = [f.candidate for f in finds if f.named.die and not f.cut]
        if not dice:
            # A face unlike any die the face reader knows (a game's emblem) may be
            # called "no die" untaught: the finder alone, when it is sure, still counts.
            dice = [f.candidate for f in finds if f.candidate.score >= SURE and not f.cut]
        self.last_seen = len(dice)
        if len(dice) != 1:
            return False
        self._learn_die(frame, dice[0], face_index)
        return True

    def missing(self) -> list[str]:
        taught = {int(block[0]) for block in self._labels if len(block)}
        return [face for i, face in enumerate(self.faces) if i not in taught]

    def learn(self) -> Profile:
        if not self._features or self.missing() == list(self.faces):
            raise ProfileError(f"profile {self.name!r}: no die was taught")
        x = np.vstack(self._features)
        y = np.concatenate(self._labels)
        owner = np.concatenate([np.full(len(b), d) for b, d in zip(self._labels, self._dice,
                                                                    strict=True)])  # fmt: skip
        classes = len(self.faces) + 1
        weights, bias = fit_head(x, y, classes)
        novelty = np.full(len(self.faces), LEAST_NOVEL, np.float32)
        for face in range(len(self.faces)):
            spread = _spread(x, y, owner, face)
            if spread is not None:
                novelty[face] = max(LEAST_NOVEL, NOVEL * spread)
        told_apart = np.ones(len(self.faces), bool)
        for name in set(self.faces):
            group = [i for i, face in enumerate(self.faces) if face == name]
            if len({self.values[i] for i in group}) > 1:
                told_apart[group] = _told_apart(x, y, owner, group)
        threshold = None
        if self._scores:
            weakest = float(np.percentile(self._scores, 5))
            default = self.reader.finder.threshold
            threshold = float(np.clip(0.8 * weakest, LEAST_FIND, default))
        model = TaughtFaces(x, y, weights, bias, novelty, threshold,
                            bool((y == len(self.faces)).any()), told_apart,
                            self.reader.faces.net.digest)  # fmt: skip
        return Profile(self.name, self.faces, self.values, model)

    def save(self, data_dir: Path) -> Path:
        profile = self.learn()
        path = profiles_dir(data_dir) / f"{self.name}.npz"
        save_taught(profile, path)
        return path


def _told_apart(x: np.ndarray, y: np.ndarray, owner: np.ndarray, group: list[int]) -> bool:
    """Whether the faces in ``group`` (one name, other values) are told apart: each
    taught die's upright view has, as its nearest view of another die of the group,
    one of its own face (leave one die out), for TOLD_APART of the dice."""
    among = np.isin(y, group)
    dice = np.unique(owner[among])
    if len(dice) < 2:
        return False
    right = 0
    for die in dice:
        own = np.flatnonzero(among & (owner == die))[0]
        others = np.flatnonzero(among & (owner != die))
        nearest = others[np.argmin(((x[others] - x[own]) ** 2).sum(axis=1))]
        right += int(y[nearest] == y[own])
    return right >= TOLD_APART * len(dice)


def _spread(x: np.ndarray, y: np.ndarray, owner: np.ndarray, face: int) -> float | None:
    """How far one taught die's upright view of ``face`` lies from the nearest view
    of another die of that face (the 90th percentile over dice): the distance a new
    die of a known face may be. None when one die showed the face."""
    dice = np.unique(owner[y == face])
    if len(dice) < 2:
        return None
    gaps = []
    for die in dice:
        own = np.flatnonzero((owner == die) & (y == face))
        others = x[(owner != die) & (y == face)]
        gaps.append(float(np.sqrt(((others - x[own[0]]) ** 2).sum(axis=1).min())))
    return float(np.percentile(gaps, 90))


def taught_bytes(profile: Profile) -> bytes:
    """A taught profile as the bytes of its ``.npz`` file (no pickles inside)."""
    model = profile.model
    assert isinstance(model, TaughtFaces)
    buffer = io.BytesIO()
    codes, low, step = stored_examples(model.examples)
    np.savez_compressed(
        buffer,
        format=np.array(FORMAT),
        faces=np.array(profile.faces),
        values=np.array([v or 0 for v in profile.values]),
        codes=codes,
        low=low,
        step=step,
        labels=model.labels.astype(np.int16),
        weights=model.weights,
        bias=model.bias,
        novelty=model.novelty,
        finder_threshold=np.array(
            -1.0 if model.finder_threshold is None else model.finder_threshold
        ),
        has_floor=np.array(model.has_floor),
        told_apart=model.told_apart,
        face_reader=np.array(model.face_reader),
    )
    return buffer.getvalue()


def stored_examples(examples: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The examples as a byte a feature (codes), with each feature's low and step:
    read back as ``low + codes * step``."""
    low = examples.min(axis=0)
    step = np.maximum(examples.max(axis=0) - low, 1e-6) / LEVELS
    codes = np.round((examples - low) / step).astype(np.uint8)
    return codes, low.astype(np.float32), step.astype(np.float32)


def save_taught(profile: Profile, path: Path) -> None:
    """Written whole, then renamed into place: a power cut leaves the old or the new."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.stem + ".tmp.npz")
    temporary.write_bytes(taught_bytes(profile))
    os.replace(temporary, path)


def load_taught(path: Path) -> Profile:
    """A taught profile; a file that is not one (damaged, hostile, older) is a
    ProfileError naming it."""
    try:
        if path.stat().st_size > MAX_PROFILE_BYTES:
            raise ProfileError(f"{path}: larger than any taught profile; teach it again")
        with np.load(path, allow_pickle=False) as data:
            if int(data["format"]) != FORMAT:
                raise ProfileError(f"{path}: taught by an older reader; teach these dice again")
            faces = tuple(str(f) for f in data["faces"])
            values = tuple(int(v) or None for v in data["values"])
            threshold = float(data["finder_threshold"])
            model = TaughtFaces(
                examples=data["low"] + data["codes"].astype(np.float32) * data["step"],
                labels=data["labels"].astype(np.int64),
                weights=data["weights"].astype(np.float32),
                bias=data["bias"].astype(np.float32),
                novelty=data["novelty"].astype(np.float32),
                finder_threshold=None if threshold < 0 else threshold,
                has_floor=bool(data["has_floor"]),
                told_apart=data["told_apart"].astype(bool),
                face_reader=str(data["face_reader"]),
            )
    except ProfileError:
        raise
    except (OSError, KeyError, ValueError, TypeError) as error:
        raise ProfileError(f"{path}: not a dice profile this reader can load ({error})") from None
    if model.face_reader != network(FACE_READER).digest:
        raise ProfileError(
            f"{path}: taught with another version of the face reader; teach these dice again"
        )
    if (
        len(values) != len(faces)
        or model.weights.shape[1] != len(faces) + 1
        or model.told_apart.shape != (len(faces),)
    ):
        raise ProfileError(f"{path}: its faces and its model do not agree")
    return Profile(path.stem, faces, values, model)
