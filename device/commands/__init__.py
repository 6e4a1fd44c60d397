"""Subcommands of ``dicetable``: one module each, found by ``device.cli``."""

from __future__ import annotations

import argparse

from dicetable.device import config
from dicetable.device.store import Store


def load_config(args: argparse.Namespace) -> config.Config:
    """The settings ``--config`` names, with the data folder ``--data`` names."""
    return config.load(args.config, args.data)


def open_store(args: argparse.Namespace) -> Store:
    return Store.in_dir(load_config(args).data_dir)
