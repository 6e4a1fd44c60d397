"""The Minion Rush card tree: which card can be fought next, and how it looks.

Unchained rulebook, Minion Rush "On Your Turn": "You must first defeat the Level I
Minion (green box). Once it has been defeated, you must choose to progress left or
right. Once you have chosen a path, you cannot switch to the other until all Minions
have been defeated on a single path." "You cannot progress to the next Minion unless
all Minions laying on top of it are defeated." The layout is data
(``data/minion_tree.toml``) so a table whose diagram differs edits the file, not code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from dicetable.rules.unchained.data import DataError, fields

START, LEFT, RIGHT = "start", "left", "right"
ROMAN = {0: "?", 1: "I", 2: "II", 3: "III", 4: "IV"}


@dataclass(frozen=True)
class TreeNode:
    id: str
    side: str
    row: int
    col: int
    level: int  # 0: drawn from the shuffled Level I/II/III deck
    on_top: tuple[str, ...]


@cache
def tree_layout(name: str = "minion_tree.toml") -> tuple[TreeNode, ...]:
    f = fields(name)
    nodes: dict[str, TreeNode] = {}
    for entry in f.entries("node"):
        on_top = entry.get("on_top")
        if not isinstance(on_top, list) or not all(isinstance(i, str) for i in on_top):
            raise entry.fail("on_top", "must be a list of node ids")
        node = TreeNode(
            entry.str("id"),
            entry.str("side", (START, LEFT, RIGHT)),
            entry.int("row"),
            entry.int("col"),
            entry.int("level"),
            tuple(on_top),
        )
        if node.level > 4:
            raise entry.fail("level", f"must be 0 (from the deck) or 1-4, not {node.level}")
        if node.id in nodes:
            raise entry.fail("id", f"repeats {node.id!r}")
        nodes[node.id] = node
    starts = [n for n in nodes.values() if n.side == START]
    if len(starts) != 1 or starts[0].level == 0:
        raise DataError(f"data/{name}: needs exactly one start node with a fixed level")
    for node in nodes.values():
        for above in node.on_top:
            if above not in nodes or nodes[above].side != node.side:
                raise DataError(
                    f"data/{name}: node {node.id!r}: field 'on_top' names {above!r}, "
                    "which is not a node on the same side"
                )
    _check_acyclic(name, nodes)
    return tuple(nodes.values())


def _check_acyclic(name: str, nodes: dict[str, TreeNode]) -> None:
    done: set[str] = set()

    def visit(node_id: str, trail: tuple[str, ...]) -> None:
        if node_id in trail:
            raise DataError(f"data/{name}: node {node_id!r}: 'on_top' loops ({' > '.join(trail)})")
        if node_id not in done:
            for above in nodes[node_id].on_top:
                visit(above, (*trail, node_id))
            done.add(node_id)

    for node_id in nodes:
        visit(node_id, ())


@dataclass
class MinionTree:
    """The cards' state: revealed levels, defeated cards, the engaged card, the path."""

    nodes: tuple[TreeNode, ...] = field(default_factory=tree_layout)
    levels: dict[str, int] = field(default_factory=dict)
    defeated: list[str] = field(default_factory=list)
    engaged: str | None = None
    path: str | None = None

    def node(self, node_id: str) -> TreeNode:
        return next(n for n in self.nodes if n.id == node_id)

    @property
    def start(self) -> TreeNode:
        return next(n for n in self.nodes if n.side == START)

    def remaining(self, side: str) -> list[TreeNode]:
        return [n for n in self.nodes if n.side == side and n.id not in self.defeated]

    def open_sides(self) -> list[str]:
        return [side for side in (LEFT, RIGHT) if self.remaining(side)]

    def uncovered(self, node: TreeNode) -> bool:
        return all(above in self.defeated for above in node.on_top)

    def reachable(self) -> list[TreeNode]:
        """The cards that may be revealed next (none while a Minion is engaged)."""
        if self.engaged is not None:
            return []
        if self.start.id not in self.defeated:
            return [self.start]
        if self.path is None:
            return []
        return [n for n in self.remaining(self.path) if self.uncovered(n)]

    def all_defeated(self) -> bool:
        return len(self.defeated) == len(self.nodes)

    def defeated_levels(self) -> list[int]:
        return [self.levels[i] for i in self.defeated]

    # drawing ---------------------------------------------------------------------
    def cell(self, node: TreeNode, reachable: set[str]) -> str:
        short = {START: "S"}.get(node.side, node.id)
        if node.id.startswith("IV-"):
            short = "L" if node.side == LEFT else "R"
        level = ROMAN[self.levels[node.id]] if node.id in self.levels else "?"
        mark = (
            "x"
            if node.id in self.defeated
            else "*"
            if node.id == self.engaged
            else ">"
            if node.id in reachable
            else " "
        )
        return f"[{short}:{level}{mark}]"

    def text(self) -> list[str]:
        """The tree as terminal lines: [position:level mark], x defeated, * engaged,
        > reachable next, ? face down."""
        reachable = {n.id for n in self.reachable()}
        width = 9
        rows = max(n.row for n in self.nodes) + 1
        cols = max(n.col for n in self.nodes) + 1
        grid = [[" " * width for _ in range(cols)] for _ in range(rows)]
        for node in self.nodes:
            grid[node.row][node.col] = f"{self.cell(node, reachable):^{width}}"
        lines = ["".join(row).rstrip() for row in grid]
        return [*lines, "x defeated  * engaged  > next  ? face down"]

    def to_json(self) -> dict[str, Any]:
        reachable = {n.id for n in self.reachable()}
        return {
            "rows": max(n.row for n in self.nodes) + 1,
            "cols": max(n.col for n in self.nodes) + 1,
            "path": self.path,
            "nodes": [
                {
                    "id": n.id,
                    "side": n.side,
                    "row": n.row,
                    "col": n.col,
                    "level": self.levels.get(n.id, n.level),
                    "revealed": n.id in self.levels,
                    "defeated": n.id in self.defeated,
                    "engaged": n.id == self.engaged,
                    "reachable": n.id in reachable,
                    "on_top": list(n.on_top),
                }
                for n in self.nodes
            ],
            "text": self.text(),
        }
