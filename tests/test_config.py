"""One TOML file over documented defaults; bad values are named (issue 2, item 8)."""

import os
from pathlib import Path

import pytest

from dicetable.device import config
from dicetable.device.cli import main


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_defaults_apply_without_a_file(tmp_path: Path):
    settings = config.load(tmp_path / "missing.toml")
    assert settings.path is None
    assert settings["camera.source"] == "auto"
    assert settings["vision.settle_seconds"] == 0.5


def test_a_file_overrides_only_what_it_names(tmp_path: Path):
    settings = config.load(write(tmp_path / "c.toml", "[leds]\nport = 'sim'\ncount = 12\n"))
    assert settings["leds.port"] == "sim" and settings["leds.count"] == 12
    assert settings["leds.protocol"] == "adalight"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[camera]\nsource = 'webcam'\n", "camera.source = 'webcam' must be one of 'auto'"),
        ("[leds]\ncount = 0\n", "leds.count = 0 must be from 1 to 1024"),
        ("[leds]\ncount = 'ten'\n", "leds.count = 'ten' must be a int"),
        ("[camera]\nzoom = 2\n", "unknown key camera.zoom"),
        ("[printer]\nx = 1\n", "unknown section [printer]"),
        ("[leds]\nbrightness = 1.5\n", "leds.brightness = 1.5 must be from 0 to 1"),
        ("[leds\n", "not valid TOML"),
    ],
)
def test_invalid_values_name_the_key_the_value_and_what_is_allowed(tmp_path, text, expected):
    path = write(tmp_path / "c.toml", text)
    with pytest.raises(config.ConfigError, match="c.toml") as error:
        config.load(path)
    assert expected in str(error.value)


def test_config_command_shows_settings_and_errors(tmp_path: Path, capsys, monkeypatch):
    assert main(["config"]) == 0
    out = capsys.readouterr().out
    assert "[camera]" in out and 'source = "auto"' in out
    bad = write(tmp_path / "bad.toml", "[ui]\nlanguage = 'fr'\n")
    assert main(["--config", str(bad), "config"]) == 2
    assert "ui.language = 'fr' must be one of 'en', 'es'" in capsys.readouterr().err
    assert main(["config", "--defaults"]) == 0
    assert "# dicetable configuration" in capsys.readouterr().out


def test_data_dir_from_environment_then_config(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("DICETABLE_DATA", str(tmp_path / "env"))
    path = write(tmp_path / "c.toml", f"[storage]\ndata_dir = '{tmp_path / 'cfg'}'\n")
    assert config.load(path).data_dir == tmp_path / "env"
    monkeypatch.delenv("DICETABLE_DATA")
    assert config.load(path).data_dir == tmp_path / "cfg"


def test_the_data_folder_of_data_is_passed_not_set_in_the_environment(tmp_path: Path, monkeypatch):
    """``--data`` wins over the environment and the file, and travels with the
    settings (to demo mode, the tray process, a saved setting), never through
    ``os.environ``."""
    from dicetable.device.cli import build_parser
    from dicetable.device.commands import load_config
    from dicetable.device.table.compose import demo_settings
    from dicetable.device.table.settings_file import save_setting

    monkeypatch.setenv("DICETABLE_DATA", str(tmp_path / "env"))
    path = write(tmp_path / "c.toml", f"[storage]\ndata_dir = '{tmp_path / 'cfg'}'\n")
    args = build_parser().parse_args(
        ["--config", str(path), "--data", str(tmp_path / "d"), "saves"]
    )
    settings = load_config(args)
    assert settings.data_dir == tmp_path / "d"
    assert os.environ["DICETABLE_DATA"] == str(tmp_path / "env")  # left as it was
    assert demo_settings(settings).data_dir == tmp_path / "d"
    assert save_setting(settings, "ui.language", "es").data_dir == tmp_path / "d"
