"""Nothing is written outside the data folder, ever (issue 18, item 1): a card id is
one safe name before it becomes a file name, and a link the service's user plants in
the data folder is never written through by a command run as root."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dicetable.device import data_folder
from dicetable.device.cli import main
from dicetable.device.commands.backup import export_backup, import_backup
from dicetable.device.session import TableSession
from dicetable.device.store import Store, StoreError
from dicetable.rules.core import Input
from dicetable.rules.dicequest import catalogue
from dicetable.rules.dicequest.data import DataError

CARD = """
[[quest]]
id = "{id}"
name = "Rat Cellar"
act = 1
party = 1
require = [{{ symbol = "sword", count = 1 }}]
"""


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes (links as their target's text)."""
    found: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink():
            found[str(path.relative_to(folder))] = os.readlink(path).encode()
        elif path.is_file():
            found[str(path.relative_to(folder))] = path.read_bytes()
    return found


@pytest.mark.parametrize("card_id", ["../../x", "../x", "/tmp/x", "a/b", "x\x00y", "-", ".."])
def test_a_card_id_that_is_not_one_safe_name_is_refused(
    tmp_path: Path, isolated_data: Path, capsys: pytest.CaptureFixture[str], card_id: str
):
    outside = tmp_path / "outside"
    outside.mkdir()
    source = outside / "cards.toml"
    source.write_text(CARD.format(id=card_id.replace("\x00", "\\u0000")))
    before = tree(tmp_path)
    assert main(["dicequest", "add", str(source)]) == 2
    err = capsys.readouterr().err
    assert "field 'id'" in err and "is not an id" in err and "Traceback" not in err
    assert tree(tmp_path) == before
    assert main(["dicequest", "remove", card_id]) == 2
    assert "is not a card id" in capsys.readouterr().err
    with pytest.raises(DataError, match="is not a card id"):
        catalogue.card_file(card_id)


def test_a_link_planted_in_the_catalogue_folder_is_not_followed(tmp_path: Path, isolated_data):
    outside = tmp_path / "etc"
    outside.mkdir()
    (outside / "config.toml").write_text("the admin's settings\n")
    (isolated_data / "dicequest").mkdir(parents=True)
    (isolated_data / "dicequest" / "cards").symlink_to(outside)
    source = tmp_path / "cards" / "config.toml"  # a card whose file would land on /etc's
    source.parent.mkdir()
    source.write_text(CARD.format(id="config"))
    assert main(["dicequest", "add", str(source)]) == 2
    assert (outside / "config.toml").read_text() == "the admin's settings\n"
    assert list(outside.iterdir()) == [outside / "config.toml"]


def test_a_planted_link_at_the_card_file_is_replaced_not_followed(tmp_path: Path, isolated_data):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    cards = catalogue.cards_dir(isolated_data)
    cards.mkdir(parents=True)
    (cards / "rat-cellar.toml").symlink_to(victim)
    for temporary in (".rat-cellar.toml.partial", "rat-cellar.toml.part"):  # now, before
        (cards / temporary).symlink_to(victim)
    source = tmp_path / "card.toml"
    source.write_text(CARD.format(id="rat-cellar"))
    assert main(["dicequest", "add", str(source)]) == 0
    assert victim.read_text() == "keep me\n"
    assert not (cards / "rat-cellar.toml").is_symlink()
    assert [c.id for c in catalogue.load(isolated_data)] == ["rat-cellar"]


def a_backup(tmp_path: Path) -> Path:
    """A table with a game, a profile and a corrected frame, exported."""
    table = tmp_path / "table"
    store = Store.in_dir(table)
    session = TableSession.start(store, "dice-tray", seed=3)
    session.submit(Input.roll(2, 5))
    store.close()
    (table / "profiles" / "bone").mkdir(parents=True)
    (table / "profiles" / "bone" / "profile.json").write_text('{"faces": 6}')
    (table / "corrections" / "2026").mkdir(parents=True)
    (table / "corrections" / "2026" / "frame.png").write_bytes(b"\x89PNG frame")
    backup = tmp_path / "table.zip"
    export_backup(table, backup)
    return backup


@pytest.mark.parametrize(
    "plant",
    [
        "profiles",  # the whole folder is a link
        "corrections",
        "corrections/2026",  # a folder inside it
        "backups",  # where the safety copy goes
    ],
)
@pytest.mark.parametrize("replace", [False, True])
def test_import_never_writes_through_a_link_in_the_data_folder(
    tmp_path: Path, plant: str, replace: bool
):
    backup = a_backup(tmp_path)
    here = tmp_path / "here"
    store = Store.in_dir(here)
    TableSession.start(store, "dice-tray", seed=9).submit(Input.roll(1, 1))
    store.close()
    outside = tmp_path / "etc"
    outside.mkdir()
    (outside / "shadow").write_text("root's secrets\n")
    link = here / plant
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(outside)
    before = tree(outside)
    with pytest.raises(ValueError, match="symbolic link"):
        import_backup(here, backup, replace=replace)
    assert tree(outside) == before
    assert link.is_symlink()


def test_a_planted_partial_file_in_profiles_is_not_followed(tmp_path: Path):
    backup = a_backup(tmp_path)
    here = tmp_path / "here"
    victim = tmp_path / "victim"
    victim.write_text("keep me\n")
    (here / "profiles").mkdir(parents=True)
    (here / "profiles" / ".bone.partial").symlink_to(tmp_path)  # a folder link
    (here / "corrections" / "2026").mkdir(parents=True)
    (here / "corrections" / "2026" / ".frame.png.partial").symlink_to(victim)
    import_backup(here, backup)
    assert victim.read_text() == "keep me\n"
    assert (here / "profiles" / "bone" / "profile.json").read_text() == '{"faces": 6}'
    assert (here / "corrections" / "2026" / "frame.png").read_bytes() == b"\x89PNG frame"
    assert not (tmp_path / "profile.json").exists()


@pytest.mark.parametrize("side", ["dicetable.sqlite3", "dicetable.sqlite3-wal"])
def test_a_link_at_the_database_or_its_journal_is_refused(tmp_path: Path, side: str):
    here = tmp_path / "here"
    here.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("keep me\n")
    (here / side).symlink_to(victim)
    with pytest.raises(StoreError, match="symbolic link"):
        Store.in_dir(here)
    assert victim.read_text() == "keep me\n"


def test_export_leaves_out_what_a_link_in_the_data_folder_points_at(tmp_path: Path):
    table = tmp_path / "table"
    Store.in_dir(table).close()
    secrets = tmp_path / "root"
    secrets.mkdir()
    (secrets / "key").write_text("secret")
    (table / "profiles").symlink_to(secrets)
    (table / "corrections").mkdir()
    (table / "corrections" / "key.png").symlink_to(secrets / "key")
    assert data_folder.regular_files(table, "profiles") == []
    assert data_folder.regular_files(table, "corrections") == []


def test_a_path_from_a_file_never_climbs_out():
    for bad in ("../x", "/etc/x", "a/../../x", ""):
        with pytest.raises(data_folder.UnsafePathError):
            data_folder.names(bad)
    assert data_folder.names("profiles/bone/profile.json") == ("profiles", "bone", "profile.json")


def test_the_cli_subprocess_refuses_a_climbing_card_id(tmp_path: Path):
    """The real command, as the issue's report ran it."""
    source = tmp_path / "card.toml"
    source.write_text(CARD.format(id="../../evil"))
    env = {**os.environ, "DICETABLE_DATA": str(tmp_path / "a" / "b" / "data")}
    result = subprocess.run(
        [sys.executable, "-m", "dicetable.device.cli", "dicequest", "add", str(source)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.rglob("evil.toml"))
