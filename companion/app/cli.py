"""The ``companion`` command: replay table logs, list variants, and run the box or the demo."""
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TextIO

from companion.game.rating import rating_line
from companion.game.rules import IllegalAction, LogError, State
from companion.game.store import StoreError, default_data_dir
from companion.game.tablelog import loads, parse_log
from companion.game.variants import PRESETS
from companion.words import LANGUAGES

from . import memory
from .config import CONFIG_NAME, ConfigError, load_config
from .exiting import exit_now

if TYPE_CHECKING:
    from vision.commands import LessonCamera

SYSTEM_CONFIG = "/etc/hanabi-companion/config.toml"


def result(state: State, lang: str = "en") -> dict[str, Any]:
    """The replay contract's fields for a final state."""
    out = state.as_dict()
    out["rating"] = rating_line(state.score, state.max_score, lang, state.variant.all_or_nothing)
    return out


def describe_illegal(e: IllegalAction | LogError, actions: Any) -> str:
    index = e.index
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
                out = {"error": describe_illegal(e, log.actions), "index": e.index}
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


def config_path(args: argparse.Namespace) -> str | None:
    """The settings file of ``--config``, else the first that exists of DATA/config.toml and the system's."""
    if args.config:
        return args.config
    for candidate in (os.path.join(args.data or default_data_dir(), CONFIG_NAME), SYSTEM_CONFIG):
        if os.path.exists(candidate):
            return candidate
    return None


def cmd_config(args: argparse.Namespace) -> int:
    if args.check is not None:  # also the files it names: a check is asked for before they are needed
        try:
            load_config(args.check, files=True)
        except ConfigError as e:
            print(f"companion config: {e}", file=sys.stderr)
            return 1
        if not os.path.exists(args.check):
            print(f"companion config: {args.check} does not exist; without it the box uses the defaults "
                  "(`companion config --print` shows them)", file=sys.stderr)
            return 1
        print(f"{args.check}: OK")
        return 0
    try:
        config = load_config(config_path(args))
    except ConfigError as e:
        print(f"companion config: {e}", file=sys.stderr)
        return 1
    print(config.to_toml(), end="")
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    from .doctor import examine, report
    text, code = report(examine(config_path(args)))
    print(text, end="")
    return code


def cmd_run(args: argparse.Namespace) -> int:
    from .wiring import Companion, RunOptions
    memory.keep_level()
    try:
        path = config_path(args)
        config = load_config(path)
        companion = Companion(config, RunOptions(args.host, args.port, args.pin, args.data, path))
    except (ConfigError, StoreError) as e:
        print(f"companion run: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"companion run: {e}", file=sys.stderr)
        return 1
    try:
        stopped = companion.serve()
    except OSError as e:  # the port is taken, most often
        print(f"companion run: cannot serve on {companion.host}:{companion.port}: {e.strerror or e}. "
              "Is another companion running? Choose another --port.", file=sys.stderr)
        return 1
    if not stopped:
        exit_now(0)
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from companion.game.variants import VariantError, parse_variant

    from .demo import DemoDriver, TableScene
    from .demofamily import DemoFamily
    from .wiring import Companion, RunOptions, demo_camera
    memory.keep_level()
    try:
        variant = parse_variant(json.loads(args.variant) if args.variant.startswith("{") else args.variant)
    except (VariantError, json.JSONDecodeError) as e:
        print(f"companion demo: {e}", file=sys.stderr)
        return 1
    if not 2 <= args.players <= 5 or args.speed <= 0:
        print("companion demo: --players is 2-5 and --speed is above 0", file=sys.stderr)
        return 1
    data = args.data or os.path.join(default_data_dir(), "demo")
    os.makedirs(data, exist_ok=True)
    scene = TableScene()
    try:
        config = load_config(config_path(args))
        # a deck taught in the demo goes into the demo's folder, unless --config names the settings
        companion = Companion(config, RunOptions(args.host or "127.0.0.1", args.port, args.pin or "1234", data,
                                                 args.config), camera=demo_camera(scene, args.seed), use_buttons=False)
    except (ConfigError, StoreError, OSError) as e:
        print(f"companion demo: {e}", file=sys.stderr)
        return 1
    press = companion.box.press if companion.box is not None else (lambda b: companion.table.act({"type": "hint"}))
    driver = DemoDriver(companion.table, scene, press, variant, args.players, args.seed, args.speed, data)
    DemoFamily(companion.teacher, scene, driver)  # lays the cards asked for when the deck is taught
    print(f"Demo: open http://{companion.host}:{companion.port}/ — pairing PIN {companion.pin}. "
          "Keys (then Enter): h = HINT, u = UNDO, o = OK, O = hold OK. Ctrl-C stops.", flush=True)
    driver.start()
    if sys.stdin is not None and sys.stdin.isatty() and companion.box is not None:
        from hardware.buttons import KEYS
        box = companion.box

        def keys() -> None:
            for line in sys.stdin:
                for key in line.strip():
                    if key in KEYS:
                        print(box.press(*KEYS[key]).message, flush=True)
        import threading
        threading.Thread(target=keys, name="keyboard", daemon=True).start()
    try:
        stopped = companion.serve()
    except OSError as e:
        print(f"companion demo: cannot serve on {companion.host}:{companion.port}: {e.strerror or e}. "
              "Choose another --port.", file=sys.stderr)
        return 1
    finally:
        driver.stop()
    if not stopped:
        exit_now(0)
    return 0


def _add_box_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", help="address to serve the page on (default from the config: 0.0.0.0)")
    p.add_argument("--port", type=int, help="port of the page (default 8000)")
    p.add_argument("--pin", help="pairing PIN for changing the game from a phone (default: random per boot)")
    p.add_argument("--data", help="folder for the game store (default: the user's data folder, "
                                  "or StateDirectory under systemd)")
    p.add_argument("--config", help=f"settings file (default: DATA/{CONFIG_NAME} or {SYSTEM_CONFIG})")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion", description="Hanabi table companion")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    r = sub.add_parser("replay", help="fold a table log and print the final state")
    r.add_argument("log", help="a table log (.json), many games (.jsonl), or - for standard input")
    r.add_argument("--json", action="store_true", help="print JSON")
    r.add_argument("--lang", default="en", choices=LANGUAGES, help="language of the rating line")
    r.set_defaults(func=cmd_replay)
    v = sub.add_parser("variants", help="list the variant presets")
    v.add_argument("--json", action="store_true")
    v.set_defaults(func=cmd_variants)
    run = sub.add_parser("run", help="run the box: camera, OLED, buttons and the table page")
    _add_box_options(run)
    run.set_defaults(func=cmd_run)
    demo = sub.add_parser("demo", help="run the companion on a simulated table on this computer")
    _add_box_options(demo)
    demo.add_argument("--seed", type=int, default=1, help="which shuffle and card design (default 1)")
    demo.add_argument("--variant", default="base", help="a preset name or a JSON variant object")
    demo.add_argument("--players", type=int, default=3)
    demo.add_argument("--speed", type=float, default=1.0, help="how fast the bot plays (2 = twice as fast)")
    demo.set_defaults(func=cmd_demo)
    cfg = sub.add_parser("config", help="show the effective settings, or check a settings file")
    what = cfg.add_mutually_exclusive_group(required=True)
    what.add_argument("--print", action="store_true", help="print them as TOML")
    what.add_argument("--check", metavar="FILE", help="check FILE: exit 0 when the box can use it, else 1 "
                                                     "with what to change")
    cfg.add_argument("--data", help="folder of the game store")
    cfg.add_argument("--config", help="settings file")
    cfg.set_defaults(func=cmd_config)
    doc = sub.add_parser("doctor", help="check that the box works: settings, model, profile, camera, I2C, "
                                        "OLED, buttons, page")
    doc.add_argument("--data", help="folder of the game store (where config.toml may be)")
    doc.add_argument("--config", help=f"settings file (default: DATA/{CONFIG_NAME} or {SYSTEM_CONFIG})")
    doc.set_defaults(func=cmd_doctor)
    from vision.commands import register
    register(sub, lesson_camera)
    return p


def lesson_camera(args: argparse.Namespace) -> LessonCamera:
    """The camera settings ``companion teach --camera`` uses: the box's (``--config``, ``--data``)."""
    from vision.commands import LessonCamera

    from .wiring import camera_source, table_zones
    config = load_config(config_path(args))
    return LessonCamera(camera_source(config), config.camera.fps, table_zones(config))


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
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
