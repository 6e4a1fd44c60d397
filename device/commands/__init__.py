"""Subcommands of ``dicetable``: one module each, found by ``device.cli``."""

from __future__ import annotations

import argparse
import os

from dicetable.device import config
from dicetable.device.store import Store


def load_config(args: argparse.Namespace) -> config.Config:
    settings = config.load(args.config)
    if args.data is not None:
        os.environ[config.ENV_DATA] = str(args.data)
    return settings


def open_store(args: argparse.Namespace) -> Store:
    return Store.in_dir(load_config(args).data_dir)
