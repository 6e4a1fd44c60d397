"""The training code's data pipeline on a few real photos and rendered trays (no
training framework needed), and a few training steps where torch is installed."""

from __future__ import annotations

import importlib.util
import json
import math
import random
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from dicetable.hardware.synthetic_tray import SyntheticDie, render_tray
from dicetable.vision.face_reader import CLASSES, COCKED, FACE_INPUT, NOT_A_DIE, SYMBOL
from dicetable.vision.finder import STRIDE
from dicetable.vision.training import samples
from dicetable.vision.training.photos import NO_PRINT, PIP_SPAN, Die, kept_dice, load_split
from dicetable.vision.training.samples import (
    BANK,
    BANK_DIE,
    BESIDE_DIE,
    EXTRA_COST,
    MISTAKE,
    PATCH,
    beside_crops,
    class_of,
    die_crops,
    distractor_crops,
    face_sample,
    finder_sample,
    finder_targets,
    floor_crops,
    group_of,
    group_weights,
)
from dicetable.vision.training.trays import (
    GLYPHS,
    NUMERALS,
    PRINTS,
    SIDE_FACE,
    rendered_tray,
    side_faces,
)

HALF_ROUNDING = 5e-3  # a 27-term sum of float16-rounded weights strays this little

pytestmark = pytest.mark.dataset


@pytest.fixture
def datasets(shared_dir: Path) -> Path:
    return shared_dir / "datasets"


def test_pip_tight_boxes_are_widened_to_the_face_and_a_one_takes_its_neighbours_size(datasets):
    """d6-desk boxes hug the pips (its README): a One's box is its pip. Every die of a
    photo gets the face side the Two-to-Six boxes imply."""
    photo = next(
        p
        for p in load_split("d6-desk", "train", datasets)
        if {d.value for d in p.dice} >= {1} and len({d.value for d in p.dice}) > 1
    )
    sides = {round(d.size, 3) for d in photo.dice}
    assert len(sides) == 1
    labels = (datasets / "d6-desk" / "train" / photo.name.rsplit("/", 1)[1]).with_suffix(".txt")
    spans = [
        max(float(w) * 640, float(h) * 480)
        for c, _, _, w, h in (line.split() for line in labels.read_text().splitlines())
        if c != "0"
    ]
    assert sides.pop() == pytest.approx(float(np.median(spans)) / PIP_SPAN, rel=1e-3)


def test_phone_photos_are_kept_shrunk_with_their_dice(datasets):
    photos = load_split("dice-colours", "test", datasets, limit=2)
    for photo in photos:
        assert max(photo.image.shape[:2]) == 1024
        for die, kept in zip(photo.dice, kept_dice(photo), strict=True):
            assert kept.x == pytest.approx(die.x * photo.scale)
            assert kept.size == pytest.approx(die.size * photo.scale)


def test_heatmap_peaks_sit_on_the_die_centres():
    dice = [Die(3, 50.0, 70.0, 30.0), Die(5, 140.0, 100.0, 20.0)]
    heat, size, mask = finder_targets(dice)
    assert heat.shape == (PATCH // STRIDE, PATCH // STRIDE)
    assert mask.sum() == 18  # the side is learnt on each centre's 3x3 cells
    for die in dice:
        i, j = round(die.y / STRIDE - 0.5), round(die.x / STRIDE - 0.5)
        assert heat[i, j] == 1.0 and size[i, j] == pytest.approx(math.log(die.size))
    assert heat[0, 0] < 0.01


def test_finder_patches_keep_their_dice_in_the_target_size_range(datasets):
    photo = load_split("dice-colours", "train", datasets, limit=1)[0]
    rng = np.random.default_rng(3)
    bank = [crop for crop, label in die_crops(photo.image, kept_dice(photo))]
    for _ in range(6):
        sample = finder_sample(photo.image, kept_dice(photo), rng, bank)
        assert sample.image.shape == (PATCH, PATCH, 3) and sample.image.dtype == np.uint8
        sides = np.exp(sample.size[sample.mask > 0])
        assert ((sides > 8) & (sides < 90)).all()


def test_face_crops_are_labelled_and_floor_crops_are_not_dice(datasets):
    photo = load_split("d6-desk", "valid", datasets, limit=3)[2]
    dice = kept_dice(photo)
    rng = np.random.default_rng(0)
    crops = die_crops(photo.image, dice)
    assert [label for _, label in crops] == [class_of(d.value) for d in dice]
    floor = floor_crops(photo.image, dice, 5, rng)
    assert floor and all(label == NOT_A_DIE for _, label in floor)
    assert all(crop.shape == (BANK, BANK, 3) for crop, _ in crops + floor)
    sample = face_sample(crops[0][0], rng, crops[0][1])
    assert sample.shape == (FACE_INPUT, FACE_INPUT, 3)


def test_rendered_trays_carry_symbol_and_cocked_faces_as_their_own_classes():
    values = set()
    for seed in range(40):
        image, dice = rendered_tray(seed, (640, 480), (24, 90))
        assert image.shape == (480, 640, 3)
        values |= {d.value for d in dice}
        for die in dice:
            assert 0 <= die.x < 640 and 0 <= die.y < 480
    assert values >= {1, 2, 3, 4, 5, 6, SYMBOL + 1, COCKED + 1}
    assert class_of(7) == SYMBOL and class_of(8) == COCKED


def test_rendered_symbol_faces_name_their_print_and_the_named_symbols_do_not():
    """The print head learns numerals and made-up glyphs only: the four named symbols
    stay out, so teaching them measures prints the embedding was never trained on."""
    prints = []
    for seed in range(60):
        _, dice = rendered_tray(seed, (640, 480), (24, 90))
        for die in dice:
            if die.value != SYMBOL + 1:
                assert die.printed == NO_PRINT
            prints.append(die.printed)
    numerals = [p for p in prints if 0 <= p < NUMERALS]
    glyphs = [p for p in prints if NUMERALS <= p < PRINTS]
    assert NO_PRINT in prints and numerals and glyphs
    assert len(numerals) + len(glyphs) + prints.count(NO_PRINT) == len(prints)
    assert len(set(glyphs)) > GLYPHS // 4


def test_a_glyph_is_the_same_for_its_number_and_inks_more_than_a_pip():
    from dicetable.hardware.synthetic_prints import GLYPH, glyph_shapes

    first, again, other = glyph_shapes(5), glyph_shapes(5), glyph_shapes(6)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert len(first) != len(other) or any(
        a.shape != b.shape or not np.allclose(a, b) for a, b in zip(first, other, strict=True)
    )

    def ink(face: str, value: int = 1) -> int:
        die = SyntheticDie(value=value, x=100, y=100, size=80, body_bgr=(240, 240, 240),
                           pip_bgr=(20, 20, 20), face=face)  # fmt: skip
        image = render_tray([die], (200, 200), tray=(240, 240, 240), shadows=False)
        return int((image[60:140, 60:140].max(axis=2) < 100).sum())

    one = ink("")
    assert all(ink(f"{GLYPH}{k}") > one for k in range(GLYPHS))


def test_side_faces_are_ones_a_real_die_shows_beside_its_top():
    """Opposite faces of a d6 add up to 7: beside a top face show neither it nor its
    opposite, and two side faces that meet at an edge are not opposite either."""
    rng = random.Random(3)
    for top in range(1, 7):
        for _ in range(50):
            first, second = side_faces(rng, top)
            assert {first, second}.isdisjoint({top, 7 - top})
            assert first != second and first + second != 7


def test_a_leaning_die_shows_its_two_side_faces_pips():
    """Seen off straight above, a die near the frame's corner shows two side faces:
    given two values, both get their pips; given one, only the face most turned to
    the camera does."""
    die = SyntheticDie(4, 470, 350, angle=20, size=80, lean=0.4)
    one, two = (
        render_tray([replace(die, side_values=values)], (640, 480), seed=1, noise=0)
        for values in ((2,), (2, 6))
    )
    dark = [(image.sum(axis=2) < 150).sum() for image in (one, two)]
    assert dark[1] > dark[0] + 100


def test_a_leaning_tray_lists_each_side_face_it_shows_as_no_die():
    """A webcam at the table's edge shows the side faces of every die, foreshortened
    as a top face seen from there is: each is listed where it shows, between its top
    face and the camera, to be learnt as no die (no heat, the face reader's "none")."""
    _, dice = rendered_tray(50_003, (640, 480), (24, 90), leaning=True)
    tops = [d for d in dice if d.value != SIDE_FACE]
    sides = [d for d in dice if d.value == SIDE_FACE]
    assert len(tops) <= len(sides) <= 2 * len(tops)
    for side in sides:
        nearest = min(tops, key=lambda d: math.hypot(d.x - side.x, d.y - side.y))
        gap = math.hypot(nearest.x - side.x, nearest.y - side.y) / nearest.size
        assert 0.4 < gap < 1.0
        assert side.y > nearest.y - 0.3 * nearest.size  # turned to the camera, below
    assert class_of(SIDE_FACE) == NOT_A_DIE
    heat, _, _ = finder_targets([Die(SIDE_FACE, 96.0, 96.0, 40.0), Die(3, 40.0, 40.0, 30.0)])
    assert heat[24, 24] < 0.01 and heat.max() == 1.0
    assert all(d.value != SIDE_FACE for d in rendered_tray(7, (640, 480), (24, 90))[1])


def test_crops_beside_a_die_show_its_edge_or_side_and_are_no_die():
    """The finder can find a die twice, its top and a side face; the second crop is
    centred off the die and must be learnt as no face to read."""
    dice = [Die(3, 100.0, 100.0, 40.0), Die(5, 300.0, 120.0, 40.0)]
    image = np.full((240, 400, 3), 128, np.uint8)
    rng = np.random.default_rng(4)
    crops = [beside_crops(image, dice, rng) for _ in range(10)]
    assert sum(len(c) for c in crops) == 20  # the dice are far apart: none is skipped
    assert all(label == NOT_A_DIE for c in crops for _, label in c)
    # Dice 0.75 of a side apart: a crop that would sit on the other die is not cut.
    touching = [Die(3, 100.0, 100.0, 40.0), Die(5, 130.0, 100.0, 40.0)]
    cut = sum(len(beside_crops(image, touching, np.random.default_rng(k))) for k in range(50))
    assert 50 <= cut < 100  # the crops on the far side are still cut


def test_each_weight_group_weighs_alike_however_few_its_crops():
    """A class of 100 crops, 10 of the finder's mistakes and 1,000 of bare floor: the
    ten mistakes weigh as much as the class together (as one none among the floor,
    a laptop key mined as none weighed a twentieth of a face and was read as a Two),
    the floor EXTRA_COST times that."""
    groups = np.array([0] * 100 + [MISTAKE] * 10 + [NOT_A_DIE] * 1000)
    weights = group_weights(groups)
    total = {g: float(weights[groups == g].sum()) for g in (0, MISTAKE, NOT_A_DIE)}
    assert total[MISTAKE] == pytest.approx(total[0], rel=1e-5)
    assert total[NOT_A_DIE] == pytest.approx(EXTRA_COST * total[0], rel=1e-5)
    assert weights[100] == pytest.approx(10 * weights[0], rel=1e-5)


def test_the_face_bank_weighs_side_faces_and_crops_beside_dice_as_their_own_group():
    from dicetable.vision.training.__main__ import face_bank

    image, dice = rendered_tray(50_003, (640, 480), (24, 90), leaning=True)
    crops, labels, _, groups = face_bank([(image, dice)], np.random.default_rng(0))
    tops = [d for d in dice if d.value != SIDE_FACE]
    sides = len(dice) - len(tops)
    assert list(groups[: len(dice)]) == [group_of(d.value) for d in dice]
    assert (groups[: len(dice)] == BESIDE_DIE).sum() == sides > 0
    beside = groups[len(dice) :] == BESIDE_DIE
    assert 0 < beside.sum() <= len(dice)  # one beside each, unless another die is there
    assert (labels[groups == BESIDE_DIE] == NOT_A_DIE).all()
    assert (groups[len(dice) :][~beside] == NOT_A_DIE).all()  # the bare floor
    assert len(crops) == len(labels) == len(groups)


def test_drawn_distractors_are_no_dice():
    crops = distractor_crops(20, np.random.default_rng(1))
    assert len(crops) == 20
    assert all(crop.shape == (BANK, BANK, 3) and label == NOT_A_DIE for crop, label in crops)
    assert len({crop.tobytes() for crop, _ in crops}) == 20


def test_a_marked_disc_is_flecked_on_and_round_the_disc_only():
    """dice-colours' worn grey spot with dark flecks round it was the left-out models'
    commonest extra die (25 of 41, "unknown face"): drawn discs now carry such marks
    (a token's print, a coin's relief), near the disc and nowhere else."""
    image = np.full((BANK, BANK, 3), 255, np.uint8)
    radius = 30
    samples.marks_on_disc(image, BANK // 2, BANK // 2, radius, np.random.default_rng(4))
    ys, xs = np.nonzero(np.any(image != 255, axis=2))
    assert len(ys) > 10
    reach = radius * 1.15 + BANK_DIE * 0.15 + 3  # the farthest stroke's end and width
    assert np.hypot(xs - BANK // 2, ys - BANK // 2).max() <= reach


@pytest.mark.skipif(
    importlib.util.find_spec("torch") is None,
    reason="torch (the train extra) is not installed: no smoke training",
)
def test_smoke_training_exports_models_the_reader_loads(datasets, tmp_path):
    from dicetable.vision.reader import DiceReader
    from dicetable.vision.training.__main__ import main

    out = tmp_path / "models"
    widths = ["--face-widths", "8,8,16,12"]
    assert main(["--smoke", *widths, "--out", str(out), "--data", str(datasets)]) == 0
    facts = json.loads((out / "models.json").read_text())
    assert facts["finder_threshold"] > 0 and facts["temperature"] > 0
    assert facts["face_widths"] == [8, 8, 16, 12] and "--face-widths 8,8,16,12" in facts["command"]
    assert "Smoke run" in (out / "MODEL_CARD.md").read_text()
    reader = DiceReader(models=out)
    reading = reader.read(np.full((240, 320, 3), 128, np.uint8))
    assert reading.ms >= 0
    looks = reader.faces.look(np.zeros((1, FACE_INPUT, FACE_INPUT, 3), np.uint8))
    assert looks.embeddings.shape == (1, 12)  # the embedding is the last width
    import onnx  # the print head trains the embedding and is left out of the export

    assert [o.name for o in onnx.load(str(out / "faces.onnx")).graph.output] == [
        "logits", "embedding"]  # fmt: skip
    assert half_weights(out / "faces.onnx") and half_weights(out / "finder.onnx")

    # A face reader trained beside a finder made before: the finder is that one, byte
    # for byte, and the card says which and how it was made.
    beside = tmp_path / "beside"
    given = ["--finder", str(out / "finder.onnx")]
    assert main(["--smoke", *widths, *given, "--out", str(beside), "--data", str(datasets)]) == 0
    assert (beside / "finder.onnx").read_bytes() == (out / "finder.onnx").read_bytes()
    made = json.loads((beside / "models.json").read_text())["finder"]
    assert made["command"] == facts["command"] and made["date"] == facts["date"]
    assert f"digest {made['digest']}) is the one made by" in (beside / "MODEL_CARD.md").read_text()
    assert DiceReader(models=beside).read(np.full((240, 320, 3), 128, np.uint8)).ms >= 0


@pytest.mark.skipif(
    importlib.util.find_spec("torch") is None,
    reason="torch (the train extra) is not installed: no training loop to speed up",
)
@pytest.mark.parametrize(
    ("cpuinfo", "expected"),
    [
        ("flags\t: fpu avx2 avx512f avx512_bf16 avx512_vnni\n", True),
        ("flags\t: fpu sse4_2 amx_bf16 amx_tile\n", True),
        ("flags\t: fpu avx2 avx512f avx512_vnni\n", False),  # bfloat16 would be emulated
        (None, False),  # no /proc/cpuinfo: not Linux
    ],
)
def test_the_face_reader_trains_in_bfloat16_only_where_the_cpu_has_it(
    tmp_path, monkeypatch, cpuinfo, expected
):
    from dicetable.vision.training import fit

    info = tmp_path / "cpuinfo"
    if cpuinfo is not None:
        info.write_text(cpuinfo, encoding="utf-8")
    monkeypatch.setattr(fit, "CPU_INFO", info)
    assert fit.bf16_in_hardware() is expected


def half_weights(path: Path) -> bool:
    """Whether the ONNX file at ``path`` stores any of its weights as float16."""
    import onnx

    weights = onnx.load(str(path)).graph.initializer
    return any(w.data_type == onnx.TensorProto.FLOAT16 for w in weights)


@pytest.mark.skipif(
    importlib.util.find_spec("onnx") is None,
    reason="onnx (the train extra) is not installed: no model to store",
)
def test_weights_stored_in_half_precision_take_half_the_bytes_and_read_the_same(tmp_path):
    """A convolution written as torch exports it, then stored half: the file shrinks
    by about half, and onnxruntime and OpenCV's dnn still give float32 outputs within
    float16's rounding of the original's."""
    import onnx
    import onnxruntime
    from onnx import TensorProto, helper, numpy_helper

    from dicetable.vision.training.nets import store_half

    rng = np.random.default_rng(4)
    kernel = rng.normal(0, 0.2, (16, 3, 3, 3)).astype(np.float32)
    shift = rng.normal(0, 0.2, 16).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("Conv", ["image", "kernel", "shift"], ["out"], pads=[1, 1, 1, 1])],
        "conv",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 16, 8, 8])],
        [numpy_helper.from_array(kernel, "kernel"), numpy_helper.from_array(shift, "shift")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    full, half = tmp_path / "full.onnx", tmp_path / "half.onnx"
    onnx.save(model, str(full))
    onnx.save(model, str(half))
    store_half(half)
    assert half_weights(half) and not half_weights(full)
    assert half.stat().st_size < 0.7 * full.stat().st_size
    image = rng.normal(0, 1, (1, 3, 8, 8)).astype(np.float32)
    outputs = []
    for path in (full, half):
        session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        outputs.append(session.run(None, {"image": image})[0])
    dnn = cv2.dnn.readNetFromONNX(str(half))
    dnn.setInput(image)
    outputs.append(dnn.forward())
    assert all(o.dtype == np.float32 for o in outputs)
    assert np.allclose(outputs[0], outputs[1], atol=HALF_ROUNDING)
    assert np.allclose(outputs[1], outputs[2], atol=1e-5)


@pytest.mark.parametrize("text", ["24,48,96", "24,48,96,0", "a,b,c,d", "24,48,96,128,1"])
def test_face_widths_other_than_four_positive_numbers_are_refused(text):
    import argparse

    from dicetable.vision.training.__main__ import widths_of

    with pytest.raises(argparse.ArgumentTypeError, match="four positive whole numbers"):
        widths_of(text)
    assert widths_of("32,64,128,160") == (32, 64, 128, 160)


def test_recalibrating_fits_the_calibration_again_and_keeps_the_networks(datasets, tmp_path):
    """After the run-time reader changes, ``--recalibrate`` fits a trained model's
    temperature and finder threshold again on its held-out photos and trays (no
    torch: it trains nothing) and rewrites the card, which keeps the training date
    and says they were fitted again."""
    import shutil

    from dicetable.vision.networks import MODELS
    from dicetable.vision.training.__main__ import THRESHOLDS, main

    out = tmp_path / "models"
    shutil.copytree(MODELS / "leave-out" / "d6-desk", out)
    facts = json.loads((out / "models.json").read_text())
    facts["finder_threshold"] = 0.99  # no threshold the calibration could pick
    facts["temperature"] = 3.0  # nor a temperature it could fit
    (out / "models.json").write_text(json.dumps(facts))
    networks = {p.name: p.read_bytes() for p in out.glob("*.onnx")}
    assert main(["--recalibrate", "--smoke", "--out", str(out), "--data", str(datasets)]) == 0
    after = json.loads((out / "models.json").read_text())
    assert after["finder_threshold"] in THRESHOLDS
    assert after["temperature"] < 1.0
    assert after["date"] == facts["date"] and "recalibrated" in after
    assert "fitted again" in (out / "MODEL_CARD.md").read_text()
    assert networks == {p.name: p.read_bytes() for p in out.glob("*.onnx")}


def test_the_finder_threshold_is_scored_on_rendered_trays_per_die():
    """The threshold is picked on held-out photos and rendered trays from seeds no
    network trained on, each scored per die (right less EXTRA_COST per extra), a
    symbol or cocked die right when read without a value: a threshold that finds
    nothing scores 0, the shipped one most of the dice."""
    from dicetable.vision.networks import MODELS
    from dicetable.vision.reader import DiceReader
    from dicetable.vision.training import card
    from dicetable.vision.training.__main__ import HELD_TRAY_SEED, render_pool

    trays = render_pool(4, 7 + HELD_TRAY_SEED)
    assert all(seed_dice for _, seed_dice in trays)
    reader = DiceReader(models=MODELS)
    reader.finder.threshold = 0.999
    assert card.pool_score(reader, trays) == 0
    reader.finder.threshold = 0.4
    assert card.pool_score(reader, trays) > 0.7
    assert card.best_threshold(MODELS, [], trays, (0.4, 0.999)) == 0.4


def test_the_temperature_makes_held_out_confidences_honest():
    """The temperature is fitted on the exported face reader's held-out crops (no
    torch): on crops it reads right it sharpens the confidences, and on the same
    crops given wrong labels it softens them, since there a sure reading is wrong."""
    from dicetable.vision.networks import MODELS
    from dicetable.vision.training import card
    from dicetable.vision.training.__main__ import HELD_TRAY_SEED, held_crops, render_pool

    crops, labels = held_crops(render_pool(4, 7 + HELD_TRAY_SEED), 7)
    assert len(labels) > 20
    honest = card.fit_temperature(MODELS, crops, labels)
    wrong = card.fit_temperature(MODELS, crops, (labels + 1) % len(CLASSES))
    assert honest in card.TEMPERATURES and honest < 1.0 < wrong
