"""`companion replay` and `companion variants`, exactly as the house plan's command-line contract says."""
import json
import os
import subprocess

import pytest

from tests.conftest import DATA

CONTRACT_FIELDS = {"score", "max_score", "reachable_score", "hints", "hint_tokens", "fuses_used",
                   "fuse_tokens", "deck", "fireworks", "discards", "turn", "current_player",
                   "final_turns_left", "over", "outcome", "reason", "rating"}


def replay(cmd, tmp_path, log, *extra, text=None):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log) if text is None else text)
    return subprocess.run(cmd + ["replay", str(path), *extra], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name", ["ah2ac2-3p.jsonl", "hanabidata-2p.jsonl"])
def test_every_reference_game_scores_what_its_engine_recorded(companion_cmd, name):
    path = os.path.join(DATA, name)
    expected = [json.loads(line) for line in open(path)]
    p = subprocess.run(companion_cmd + ["replay", path, "--json"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    results = [json.loads(line) for line in p.stdout.splitlines()]
    assert len(results) == len(expected)
    wrong = [(e["id"], r.get("score"), e["expected"]["score"])
             for e, r in zip(expected, results, strict=True) if r.get("score") != e["expected"]["score"]]
    assert wrong == []
    assert CONTRACT_FIELDS <= set(results[0])


def test_json_output_fields(companion_cmd, tmp_path):
    p = replay(companion_cmd, tmp_path, {"variant": "base", "players": ["Ann", "Ben"],
                                         "actions": [{"type": "play", "card": "r1"}]}, "--json")
    assert p.returncode == 0
    out = json.loads(p.stdout)
    assert CONTRACT_FIELDS <= set(out)
    assert out["fireworks"] == {"r": 1, "y": 0, "g": 0, "b": 0, "w": 0}
    assert out["score"] == 1 and out["deck"] == 39 and out["outcome"] == "in_progress"
    assert out["final_turns_left"] is None and out["current_player"] == 1


def test_text_output_and_stdin(companion_cmd):
    log = {"variant": "rainbow", "players": 3, "actions": [{"type": "play", "card": "m1"}]}
    p = subprocess.run(companion_cmd + ["replay", "-", "--lang", "de"], input=json.dumps(log),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0
    assert "score 1/30" in p.stdout and "m1" in p.stdout and "Durchgefallen" in p.stdout


@pytest.mark.parametrize("actions,needle", [
    ([{"type": "discard", "card": "r1"}], "all 8 hint tokens"),
    ([{"type": "hint"}] * 9, "no hint token"),
    ([{"type": "play", "card": "m1"}], "no m cards"),
])
def test_illegal_action_exits_2_naming_index_and_rule(companion_cmd, tmp_path, actions, needle):
    p = replay(companion_cmd, tmp_path, {"variant": "base", "players": 2, "actions": actions})
    assert p.returncode == 2
    assert f"action {len(actions) - 1} " in p.stderr and needle in p.stderr and "rule" in p.stderr
    assert "Traceback" not in p.stderr and p.stdout == ""


@pytest.mark.parametrize("log,text,needle", [
    ({"variant": "base", "players": 2, "actions": [{"type": "play", "card": "x9"}]}, None, "not a card"),
    ({"variant": "nonsense", "players": 2, "actions": []}, None, "unknown variant preset"),
    ({"variant": "base", "players": 7, "actions": []}, None, "2 to 5 players"),
    ({"variant": "base", "actions": []}, None, "no 'players'"),
    (None, "{not json", "not valid JSON"),
    ([1, 2], None, "JSON object"),
])
def test_malformed_input_exits_1(companion_cmd, tmp_path, log, text, needle):
    p = replay(companion_cmd, tmp_path, log, text=text)
    assert p.returncode == 1 and needle in p.stderr and "Traceback" not in p.stderr


def test_missing_file_exits_1(companion_cmd, tmp_path):
    p = subprocess.run(companion_cmd + ["replay", str(tmp_path / "nope.json")], capture_output=True, text=True)
    assert p.returncode == 1 and "cannot read" in p.stderr and "Traceback" not in p.stderr


def test_jsonl_one_line_per_game_and_errors_in_place(companion_cmd, tmp_path):
    games = [{"log": {"variant": "base", "players": 2, "actions": [{"type": "play", "card": "r1"}]}, "id": 1},
             {"variant": "base", "players": 2, "actions": [{"type": "hint"}, {"type": "discard", "card": "r1"},
                                                           {"type": "discard", "card": "r1"}]},
             {"variant": "base", "players": 2, "actions": []}]
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(json.dumps(g) for g in games) + "\n")
    p = subprocess.run(companion_cmd + ["replay", str(path), "--json"], capture_output=True, text=True)
    assert p.returncode == 2
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(lines) == 3
    assert lines[0]["score"] == 1
    assert lines[1]["index"] == 2 and "all 8 hint tokens" in lines[1]["error"]
    assert lines[2]["deck"] == 40


def test_variants_command(companion_cmd):
    p = subprocess.run(companion_cmd + ["variants", "--json"], capture_output=True, text=True)
    data = json.loads(p.stdout)
    assert p.returncode == 0 and set(data) >= {"base", "rainbow", "black-powder", "five-magnificent"}
    assert data["rainbow-short"]["multicolor_cards"] == 5
