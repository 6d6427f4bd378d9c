"""The ``companion`` command: replay table logs, list variants, and run the box or the demo."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Iterator, TextIO

from .rating import rating_line
from .rules import IllegalAction, LogError, State
from .tablelog import loads, parse_log
from .variants import PRESETS


def result(state: State, lang: str = "en") -> dict[str, Any]:
    """The replay contract's fields for a final state."""
    out = state.as_dict()
    out["rating"] = rating_line(state.score, state.max_score, lang, state.variant.all_or_nothing)
    return out


def describe_illegal(e: IllegalAction | LogError, actions: Any) -> str:
    index = getattr(e, "index", None)
    if index is None:
        return str(e)
    return f"action {index} {json.dumps(actions[index])}: {e}"


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as f:
        return f.read()


def _jsonl_games(text: str) -> Iterator[tuple[int, Any]]:
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                data = json.loads(line)
            except json.JSONDecodeError as e:
                raise LogError(f"line {n} is not valid JSON: {e.msg}") from None
            yield n, (data["log"] if isinstance(data, dict) and "log" in data else data)


def print_state(st: dict[str, Any], out: TextIO) -> None:
    fw = "  ".join(f"{s}{v}" for s, v in st["fireworks"].items())
    print(f"score {st['score']}/{st['max_score']} (reachable {st['reachable_score']})  "
          f"hints {st['hints']}/{st['hint_tokens']}  fuses {st['fuses_used']}/{st['fuse_tokens']}  "
          f"deck {st['deck']}", file=out)
    print(f"fireworks {fw}", file=out)
    print(f"discards  {' '.join(st['discards']) or '-'}", file=out)
    turn = f"turn {st['turn']}, player {st['current_player'] + 1} to act"
    if st["final_turns_left"] is not None and not st["over"]:
        turn += f", final round: {st['final_turns_left']} turns left"
    print(turn if not st["over"] else f"game over: {st['outcome']} ({st['reason']})", file=out)
    print(st["rating"], file=out)


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        text = _read(args.log)
    except OSError as e:
        print(f"companion replay: cannot read {args.log}: {e.strerror}", file=sys.stderr)
        return 1
    if args.log.endswith(".jsonl"):
        return _replay_many(text, args)
    try:
        log = loads(text)
        state = log.fold()
    except IllegalAction as e:
        print(f"companion replay: illegal {describe_illegal(e, log.actions)}", file=sys.stderr)
        return 2
    except LogError as e:
        where = describe_illegal(e, log.actions) if getattr(e, "index", None) is not None else str(e)
        print(f"companion replay: malformed input: {where}", file=sys.stderr)
        return 1
    st = result(state, args.lang)
    if args.json:
        print(json.dumps(st))
    else:
        print_state(st, sys.stdout)
    return 0


def _replay_many(text: str, args: argparse.Namespace) -> int:
    code = 0
    try:
        for line_no, data in _jsonl_games(text):
            try:
                log = parse_log(data)
                out = result(log.fold(), args.lang)
            except IllegalAction as e:
                code = 2
                out = {"error": describe_illegal(e, log.actions), "index": e.index}  # type: ignore[attr-defined]
            except LogError as e:
                code = code or 1
                out = {"error": f"line {line_no}: {e}", "index": getattr(e, "index", None)}
            if args.json:
                print(json.dumps(out))
            elif "error" in out:
                print(f"game on line {line_no}: {out['error']}")
            else:
                print(f"game on line {line_no}: score {out['score']}/{out['max_score']}, {out['outcome']}")
    except LogError as e:
        print(f"companion replay: malformed input: {e}", file=sys.stderr)
        return 1
    return code


def cmd_variants(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps({name: v.options() for name, v in PRESETS.items()}))
        return 0
    for name, v in PRESETS.items():
        print(f"{name:20} {len(v.suits)} suits, {v.deck_size()} cards, max score {v.max_score}")
    print("\nOptions can be set on top of a preset: {\"preset\": \"base\", \"hint_tokens\": 9}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion", description="Hanabi table companion")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    r = sub.add_parser("replay", help="fold a table log and print the final state")
    r.add_argument("log", help="a table log (.json), many games (.jsonl), or - for standard input")
    r.add_argument("--json", action="store_true", help="print JSON")
    r.add_argument("--lang", default="en", choices=("en", "pl", "de", "cs"), help="language of the rating line")
    r.set_defaults(func=cmd_replay)
    v = sub.add_parser("variants", help="list the variant presets")
    v.add_argument("--json", action="store_true")
    v.set_defaults(func=cmd_variants)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 1
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
