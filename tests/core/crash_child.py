"""Child process for the crash test: appends table events as fast as it can and reports each one
whose append returned, until it is killed. Restarts continue the game found in the store."""
import json
import os
import sys

from companion.game.store import Store
from companion.game.table import Table

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "ah2ac2-3p.jsonl")


def reference_actions() -> list[list[dict]]:
    with open(DATA) as f:
        return [json.loads(line)["log"]["actions"] for line in f][:20]


def main(path: str) -> None:
    games = reference_actions()
    table = Table(Store(path))
    out = sys.stdout
    while True:
        if not table.started or table.state.over or len(table.actions) >= len(games[(table.game_id - 1) % 20]):
            table.new_game(3, "base")
        else:
            table.act(games[(table.game_id - 1) % 20][len(table.actions)])
        out.write(f"{table.game_id} {len(table.actions)}\n")
        out.flush()


if __name__ == "__main__":
    main(sys.argv[1])
