"""Settings, scripts, answers and card files as a hostile or unlucky person writes
them (issue 18, items 4 and 8): one clear line each, or it works; never a traceback,
never harm. The corpus is tests/bad_inputs.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from bad_inputs import CORPUS, Case, try_case


@pytest.mark.parametrize("case", CORPUS, ids=[c.name for c in CORPUS])
def test_a_bad_input_gives_one_clear_line_and_does_no_harm(tmp_path: Path, case: Case):
    outcome = try_case(case, tmp_path)
    assert outcome.kind in ("clear", "works"), f"{outcome.kind}: {outcome.detail}"
