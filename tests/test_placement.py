"""Issue 17 §3: positions refuse what cannot be, for every kind of card. Where each card may stand and
what state it may carry is derived from the compiled rules (runtime/placement.py); `score` refuses
every other combination, located, and never refuses what play produces.

The classes tested: the derivation against what the runtime does (every card entered every way it
can be, every answer explored); the checker against the derivation (every card of every box
combination and of test layers, every place, every state key); seeded games (every box combination,
2-5 players) whose positions are all accepted and score the same; each mechanism of the derivation
on a layer written here; and the issue's examples with their located messages."""
from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from harness import pull
from nidavellir.cli import main
from nidavellir.interface.decisions import Decision
from nidavellir.interface.engine import Gen
from nidavellir.rulesets import load_rules
from nidavellir.runtime.engine import Engine
from nidavellir.runtime.flow import FlowPoint, Snapshot, place_held, window_step
from nidavellir.runtime.bots import RandomBot
from nidavellir.runtime.game import Game
from nidavellir.runtime.observation import observe
from nidavellir.runtime.placement import (
    STATE_KEYS,
    Standing,
    can_capture,
    column_choices,
    standings,
)
from nidavellir.runtime.position import engine_from_position, position_of, run_without_choices
from nidavellir.runtime.position_check import NO_STATE, check_position
from nidavellir.runtime.rules import Rules
from nidavellir.runtime.scoring import final_scores

ROOT = Path(__file__).resolve().parent.parent
MECHANICS = str(ROOT / "tests" / "layers" / "mechanics.yaml")
LEGENDS = str(ROOT / "tests" / "layers" / "legends.yaml")
BOXES = [(), ("thingvellir",), ("idavoll",), ("thingvellir", "idavoll")]

# A layer with a card of each mechanism the derivation reads (none is a real card).
KINDS_LAYER = """\
layer: {id: kinds, name: Kinds test layer}
game:
  kinds:
    charm: {enters: command zone}
    beast: {enters: own column}
    omen: {enters: discard}
    hireling: {enters: command zone}
  flow:
    age_end:
      - {id: hiring, do: place-held, kind: hireling, order: {most: hireling}, before: age-end}
cards:
  - {id: stag, kind: beast, class: hunter, ranks: 1}               # its own class's column
  - {id: wanderer, kind: charm, ranks: [1], effects: ["enters chosen column of warrior, miner"]}
  - {id: totem, kind: charm, ranks: [4], effects: ["enters column explorer"]}
  - {id: portent, kind: omen, effects: ["when taken: gain gem 6"]}  # to the discard pile
  - {id: caller, kind: charm, effects: ["when taken: place card twin in chosen column"]}
  - {id: twin, kind: charm, ranks: {warrior: [2], miner: [1]}}      # ranks by column
  - {id: hireling, kind: hireling, ranks: {hunter: [0], blacksmith: [0]}}
  - {id: hoarder, kind: charm, effects: ["instead of any taken if subject_kind is dwarf and subject_class is miner: capture"]}
  - {id: picky, kind: charm, effects: ["may once per game instead of any taken if subject_class is miner or subject_class is warrior: capture"]}
  - {id: odd, kind: charm, effects: ["instead of any taken if subject_kind is dwarf and subject_kind is hero: capture"]}
  - {id: counter, kind: charm, effects: ["when taken: add 2 tokens"]}
  - {id: chooser, kind: charm, effects: ["when taken: choose class", "score ranks(chosen_class)"]}
"""
# Every way a card reaches a player follows where it enters: distinctions won into a column (their
# kind's, or a card's own `enters`), heroes recruited into the discard pile.
ENTRIES_LAYER = """\
layer: {id: entries, name: Entries test layer}
game:
  kinds:
    distinction: {enters: own column}
    hero: {enters: discard}
cards:
  - {id: distinction:miner, effects: ["when won: gain gem 6", "enters chosen column of explorer, blacksmith"]}
  - {id: distinction:hunter, effects: ["enters command zone"]}
"""
# A card that moves the card of an event: any card may be moved there.
MOVER_LAYER = """\
layer: {id: mover, name: Mover test layer}
cards:
  - {id: mover, kind: hero, class: neutral, effects: ["whenever taken if subject_kind is dwarf: move subject to column warrior"]}
"""


@pytest.fixture(scope="module")
def kinds_rules(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    path = tmp_path_factory.mktemp("layer") / "kinds.yaml"
    path.write_text(KINDS_LAYER, encoding="utf-8")
    return load_rules((), (str(path),))


@pytest.fixture(scope="module")
def mover_rules(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    path = tmp_path_factory.mktemp("layer") / "mover.yaml"
    path.write_text(MOVER_LAYER, encoding="utf-8")
    return load_rules(("thingvellir",), (str(path),))


def rule_sets() -> Iterator[tuple[str, Rules]]:
    """Every box combination, and variants adding cards of other kinds (the test layers)."""
    for boxes in BOXES:
        yield "+".join(("base",) + boxes), load_rules(boxes)
    yield "both+mechanics", load_rules(("thingvellir", "idavoll"), (MECHANICS,))
    yield "base+legends", load_rules((), (LEGENDS,))
    entries = Path(tempfile.mkdtemp()) / "entries.yaml"
    entries.write_text(ENTRIES_LAYER, encoding="utf-8")
    yield "base+entries", load_rules((), (str(entries),))


RULE_SETS = list(rule_sets())


@pytest.fixture(scope="module")
def every_rule_set(kinds_rules: Rules, mover_rules: Rules) -> list[tuple[str, Rules]]:
    return [*RULE_SETS, ("base+kinds", kinds_rules), ("thingvellir+mover", mover_rules)]


# -- the derivation against what the runtime does -------------------------------------------------

Seen = list[dict[str, Any]]  # the positions a scenario passed through


def explore(make: Callable[[], tuple[Seen, Gen[None]]], limit: int = 300) -> Iterator[Seen]:
    """Every way a scenario can go: each decision's every option (depth first, from a fresh engine
    each time), up to `limit` endings; yields the positions each way passed through."""
    stack: list[tuple[int, ...]] = [()]
    ended = 0
    while stack and ended < limit:
        prefix = stack.pop()
        seen, gen = make()
        try:
            decision: Decision = next(gen)
            for k in prefix:
                decision = gen.send(decision.options[k])
            stack.extend(prefix + (k,) for k in reversed(range(len(decision.options))))
            gen.close()
        except StopIteration:
            ended += 1
            yield seen


def entering(rules: Rules, cid: str, route: str) -> Callable[[], tuple[Seen, Gen[None]]]:
    """A scenario: the card reaches a player (`route`: taken, recruited if a hero, won if a
    distinction), then the end of
    the last age runs its placings and windows (mercenaries enlisted, Ylud placed, Thrud leaves the
    army, Mjöllnir's class); the position is kept after the entry and after each step."""
    base = Engine(rules, [f"P{i + 1}" for i in range(5)], seed=0)
    base.setup()
    base.s.age = rules.ages[-1]
    saved = Snapshot(FlowPoint(len(rules.ages) - 1, 0, age_end=True), base)

    def make() -> tuple[Seen, Gen[None]]:
        e = Engine(rules, base.names, seed=0)
        saved.restore(e)
        seen: Seen = []

        def run() -> Gen[None]:
            if route == "recruited":  # (among the heroes to recruit)
                yield from e.recruit_chosen(0, next(c for c in e.s.heroes if e.s.cards[c] == cid))
            elif route == "won":  # (among the distinctions to award)
                yield from e.win_distinction(0, next(c for c in e.s.distinctions if e.s.cards[c] == cid))
            else:
                yield from e.take_card(0, pull(e, cid))
            seen.append(position_of(e))
            for step in rules.ruleset.age_end:
                if step.ages is not None and e.s.age not in step.ages:
                    continue
                if step.do == "place-held":
                    yield from place_held(e, step)
                elif step.window is not None:
                    yield from window_step(e, step)
                seen.append(position_of(e))

        return seen, run()

    return make


def places_held(position: dict[str, Any]) -> Iterator[tuple[str, str | None, set[str]]]:
    """(card id, column or None for the command zone, its state keys) for every card players hold."""
    for pl in position["players"]:
        held = [(item, column) for column, cards in pl["army"].items() for item in cards]
        for item, column in held + [(item, None) for item in pl["command_zone"]]:
            if isinstance(item, str):
                yield item, column, set()
            else:
                yield item["card"], column, set(item) - {"card"}


@pytest.mark.parametrize("name", [name for name, _ in RULE_SETS])
def test_the_runtime_puts_cards_exactly_where_the_derivation_says(name):
    """Issue 17 §3: "derive, from the compiled rules …, for every card where it may stand"; "if the
    runtime already has the fact somewhere (where a card may be placed while playing), reuse it".
    Each card enters every way it can (taken; recruited, for a hero; won, for a distinction), every
    answer explored, then the last age's end runs: every card that lands in a player's hands stands
    where the derivation allows,
    carries only state keys it allows, and the position is accepted; and every place the derivation
    gives a card is one the runtime put it in."""
    rules = dict(RULE_SETS)[name]
    derived = standings(rules)
    seen: dict[str, set[str | None]] = {cid: set() for cid in rules.cards}
    routes = {"hero": ("taken", "recruited"), "distinction": ("taken", "won")}
    for cid in sorted(rules.cards):
        for route in routes.get(rules.cards[cid].kind, ("taken",)):
            for positions in explore(entering(rules, cid, route)):
                for position in positions:
                    for held, column, state in places_held(position):
                        assert derived[held].allows(column), (cid, held, column)
                        assert state <= set(derived[held].state), (cid, held, state)
                        seen[held].add(column)
                    problems = check_position(rules, position)
                    assert not problems, (cid, problems)
    for cid, st in derived.items():
        assert set(st.columns) | ({None} if st.command else set()) <= seen[cid], (cid, st, seen[cid])


# -- the checker against the derivation ----------------------------------------------------------

def holding(rules: Rules, item: Any, column: str | None) -> dict[str, Any]:
    """A five-player position in which the first player holds one card at `column` (None: the
    command zone): five players, so that every card of the box is in the game."""
    first: dict[str, Any] = {"name": "Ana", "coins": [0]}
    if column is None:
        first["command_zone"] = [item]
    else:
        first["army"] = {column: [item]}
    return {"players": [first] + [{"name": f"P{i}", "coins": [0]} for i in range(2, 6)]}


def place_path(column: str | None) -> tuple[Any, ...]:
    return ("players", 0, "command_zone", 0) if column is None else ("players", 0, "army", column, 0)


def first_place(st: Standing) -> str | None:
    return st.columns[0] if st.columns else None


def a_value(rules: Rules, cid: str, key: str) -> Any:
    """A value of `key` fit for the card if the card carries the key (else a plausible one)."""
    d = rules.cards[cid]
    if key == "captured":
        return next((t for t, td in rules.cards.items() if can_capture(d, td)), "warrior:9")
    return {"notch": 0, "tokens": 1, "class": rules.classes[0], "face_down": True, "used": True}[key]


def test_the_checker_accepts_exactly_the_derived_places_and_state(every_rule_set):
    """Issue 17 §3: "a test that walks every card of every box combination (and a variant that adds
    cards of each kind) and every place/state, asserting that exactly the derived combinations are
    accepted"; every other is refused, located at the card (a place) or at the key (a state key)."""
    for name, rules in every_rule_set:
        for cid, st in standings(rules).items():
            for column in (*rules.classes, None):
                problems = check_position(rules, holding(rules, cid, column))
                where = "the command zone" if column is None else f"the {column} column"
                expected = [] if st.allows(column) else [(f"`{cid}` cannot stand in {where}", place_path(column))]
                assert [(p.message, p.path) for p in problems] == expected, (name, cid, column)
            if not st.columns and not st.command:
                continue
            column = first_place(st)
            for key in STATE_KEYS:
                item = {"card": cid, key: a_value(rules, cid, key)}
                problems = check_position(rules, holding(rules, item, column))
                expected = [] if key in st.state else \
                    [(NO_STATE[key].format(card=f"`{cid}`"), place_path(column) + (key,), True)]
                assert [(p.message, p.path, p.key) for p in problems] == expected, (name, cid, key)


def test_a_capture_takes_only_what_its_condition_allows(every_rule_set):
    """DESIGN §9: "A giant captures only a dwarf card (kind dwarf)"; issue 17 §3: `captured` "only a
    card it could capture (kind dwarf, of its capture class)". Every capturing card of every rule set
    against every card: accepted exactly when the kind and class its capture requires match."""
    for name, rules in every_rule_set:
        for cid, d in rules.cards.items():
            if not d.captures:
                continue
            st = standings(rules)[cid]
            for target, t in rules.cards.items():
                if target == cid:
                    continue
                data = holding(rules, {"card": cid, "captured": target}, first_place(st))
                problems = [p for p in check_position(rules, data) if p.path[-1] == "captured"]
                ok = any(c.kind in (None, t.kind) and c.cls in (None, t.cls) for c in d.captures)
                assert (problems == []) == ok, (name, cid, target, problems)


# -- positions of played games --------------------------------------------------------------------

def play_checking(rules: Rules, n: int, seed: int, every: int = 9) -> Game:
    """A random game; every few decisions the players' position must be accepted."""
    seats = [RandomBot(seed * 1000 + i) for i in range(n)]
    game = Game(rules, n, seed)
    step = 0
    while game.pending is not None:
        game.answer(seats[game.pending.player].choose(observe(game)))
        step += 1
        if step % every == 0:
            problems = check_position(rules, position_of(game.engine))
            assert not problems, (seed, n, step, problems)
    return game


@pytest.mark.parametrize("boxes", BOXES, ids=lambda b: "+".join(("base",) + b))
def test_positions_of_played_games_are_accepted_and_score_the_same(boxes):
    """Issue 17 §3: "every `final` position of seeded played games (all box combinations, 2–5
    players) is accepted and scores to the same totals (it must never refuse what play produces)";
    the positions along the way are accepted too."""
    rules = load_rules(boxes)
    for n in (2, 3, 4, 5):
        for seed in range(6):
            game = play_checking(rules, n, seed)
            final = json.loads(json.dumps(position_of(game.engine)))
            e = engine_from_position(rules, final)
            for window in rules.ruleset.before_scoring:
                run_without_choices(e, window)
            assert final_scores(e) == game.scores(), (boxes, n, seed)


# -- each mechanism of the derivation, on its own --------------------------------------------------

def test_each_source_of_a_place_is_derived(kinds_rules):
    """runtime/placement.py: a card stands where it enters (its own class's column; a chosen column
    among those its effect names; a named column; the command zone; nowhere for a card that goes to
    the discard pile), where an effect places it (`place card twin in chosen column`: the columns it
    has ranks in), and for a kind a `place-held` step places, in one of its columns; `move subject`
    may move any card."""
    st = standings(kinds_rules)
    assert (st["stag"].columns, st["stag"].command) == (("hunter",), False)
    assert (st["wanderer"].columns, st["wanderer"].command) == (("warrior", "miner"), False)
    assert (st["totem"].columns, st["totem"].command) == (("explorer",), False)
    assert (st["portent"].columns, st["portent"].command) == ((), False)
    assert (st["twin"].columns, st["twin"].command) == (("warrior", "miner"), True)
    assert (st["hireling"].columns, st["hireling"].command) == (("hunter", "blacksmith"), True)
    assert (st["caller"].columns, st["caller"].command) == ((), True)


def test_a_card_an_effect_moves_may_be_any_card(mover_rules):
    """runtime/placement.py: `move subject to column warrior` moves the card of an event, which may be
    any card: every card may then stand in the warrior column (nothing play produces is refused)."""
    st = standings(mover_rules)
    assert all("warrior" in s.columns for s in st.values())
    assert st["draupnir"].columns == ("warrior",) and st["vegvisir"].columns == ("warrior", "explorer")


def test_each_state_key_follows_from_the_rules(kinds_rules):
    """Issue 17 §3: "`class` only where the card chooses a class …, `notch` only on a card with a
    track …, `captured` only on a card that captures …, `face_down` only on cards that can turn face
    down, `used` only on cards with a once-per-game power" (and `tokens` on a card that holds some)."""
    st = standings(kinds_rules)
    assert st["counter"].state == ("tokens",)
    assert st["chooser"].state == ("class",)
    assert st["hoarder"].state == ("captured",)
    assert st["picky"].state == ("captured", "used")
    assert st["odd"].state == ()               # no card is both a dwarf and a hero: it captures nothing
    assert st["stag"].state == st["twin"].state == ()
    idavoll = standings(load_rules(("idavoll",)))
    assert idavoll["surt"].state == ("captured", "face_down", "used")
    assert idavoll["olrun"].state == ("notch", "class")
    assert idavoll["frigg"].state == ("used",)


def test_a_capture_is_narrowed_only_by_what_its_condition_requires(kinds_rules):
    """card_facts.captures: `subject_kind is dwarf and subject_class is miner` narrows to miner dwarf
    cards; an `or` is not narrowed (nothing it may capture is refused); a capture that is not once per
    game may hold several cards, one that is holds one."""
    rules = kinds_rules
    cards = rules.cards
    assert can_capture(cards["hoarder"], cards["miner:1"]) and not can_capture(cards["hoarder"], cards["zoral"])
    assert can_capture(cards["picky"], cards["zoral"]) and can_capture(cards["picky"], cards["kraal"])
    many = holding(rules, {"card": "hoarder", "captured": ["miner:1", "miner:2"]}, None)
    assert check_position(rules, many) == []
    e = engine_from_position(rules, many)
    again = position_of(e)
    assert again["players"][0]["command_zone"] == [{"card": "hoarder", "captured": ["miner:1", "miner:2"]}]
    two = holding(rules, {"card": "picky", "captured": ["miner:1", "warrior:3"]}, None)
    assert [(p.message, p.path) for p in check_position(rules, two)] == [
        ("`picky` captures one card, once per game: 2 here", ("players", 0, "command_zone", 0, "captured", 1))]


def test_a_chosen_column_offers_the_columns_a_card_has_ranks_in(kinds_rules):
    """runtime/placement.column_choices, which the engine's choice of column reads: `place card twin
    in chosen column` offers the columns twin has ranks in, as the enlistment of a mercenary does."""
    rules = kinds_rules
    assert column_choices(rules, rules.cards["twin"]) == ("warrior", "miner")
    assert column_choices(rules, rules.cards["caller"]) == rules.classes
    e = Engine(rules, ["A", "B"], seed=0)
    e.setup()
    gen = e.take_card(0, pull(e, "caller"))
    decision = next(gen)
    assert decision.kind == "column" and list(decision.options) == ["warrior", "miner"]


# -- the issue's examples, located ---------------------------------------------------------------

def score(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "pos.yaml"
    path.write_text(text, encoding="utf-8")
    code = main(["score", str(path), *args])
    out = capsys.readouterr()
    return code, out.out, out.err.replace(str(path), "pos.yaml")


def located(err: str) -> list[tuple[str, str | None]]:
    """(`path:line:col: error: message`, its hint) for each error of stderr."""
    lines = err.splitlines()
    out = []
    for i, line in enumerate(lines):
        if ": error: " in line:
            hint = next((h.strip().removeprefix("hint: ") for h in lines[i + 1:i + 4] if h.strip().startswith("hint: ")
                         and ": error: " not in h), None)
            out.append((line, hint))
    return out


def test_the_issues_examples_are_refused_located(capsys, tmp_path):
    """Issue 17 §3: "`score` now quietly ignores: an artifact or a distinction in an army column, a
    giant that captured a hero or a card of another class, a card that is not a giant 'capturing', a
    `class` on a mercenary still in the command zone. A mercenary in a wrong column is refused, so
    this is a missing generalisation"; all problems of the file are reported, each located."""
    text = (
        "expansions: [thingvellir, idavoll]\n"
        "players:\n"
        "  - name: Ana\n"
        "    coins: [0]\n"
        "    army:\n"
        "      warrior: [draupnir, hunter]\n"                                       # 6
        "      miner: [distinction:miner]\n"                                        # 7
        "      hunter: [mercenary:warrior6-explorer8, royal-offering:3]\n"          # 8
        "    command_zone:\n"
        "      - {card: surt, captured: kraal}\n"                                   # 10
        "      - {card: gymir, captured: warrior:9}\n"                              # 11
        "      - {card: frigg, captured: explorer:5}\n"                             # 12
        "      - {card: mercenary:warrior6-miner1, class: warrior}\n"               # 13
        "      - vegvisir\n"                                                        # 14
        "      - {card: skaa, face_down: true, used: true}\n"                       # 15
        "      - {card: andumia, notch: 1, tokens: 1}\n"                            # 16
        "  - name: Bo\n"
        "    coins: [0]\n")
    code, out, err = score(capsys, tmp_path, text)
    assert code == 1 and out == "" and "Traceback" not in err
    assert located(err) == [
        ("pos.yaml:6:17: error: `draupnir` cannot stand in the warrior column", "it may stand in the command zone"),
        ("pos.yaml:6:27: error: `hunter` cannot stand in the warrior column", "it may stand in the hunter column"),
        ("pos.yaml:7:15: error: `distinction:miner` cannot stand in the miner column",
         "it may stand in the command zone"),
        ("pos.yaml:8:16: error: `mercenary:warrior6-explorer8` cannot stand in the hunter column",
         "it may stand in the warrior or explorer column or in the command zone"),
        ("pos.yaml:8:46: error: `royal-offering:3` cannot stand in the hunter column",
         "no player holds it: a card of kind `royal-offering` goes to the discard pile once taken"),
        ("pos.yaml:10:32: error: `surt` cannot capture `kraal`, a hero card of the warrior class",
         "it captures only a dwarf card of the warrior class"),
        ("pos.yaml:11:33: error: `gymir` cannot capture `warrior:9`, a dwarf card of the warrior class",
         "it captures only a dwarf card of the explorer class"),
        ("pos.yaml:12:23: error: `frigg` captures no card, so no `captured`", "its state: `used`"),
        ("pos.yaml:13:43: error: `mercenary:warrior6-miner1` chooses no class, so no `class`",
         "its class is that of the army column it stands in (warrior or miner)"),
        ("pos.yaml:14:9: error: `vegvisir` cannot stand in the command zone", "it may stand in the explorer column"),
        ("pos.yaml:15:22: error: `skaa` cannot turn face down, so no `face_down`",
         "it carries no state: write it as its id alone"),
        ("pos.yaml:15:39: error: `skaa` has no once-per-game power, so no `used`",
         "it carries no state: write it as its id alone"),
        ("pos.yaml:16:25: error: `andumia` has no strength track, so no `notch`",
         "it carries no state: write it as its id alone"),
        ("pos.yaml:16:35: error: `andumia` holds no tokens, so no `tokens`",
         "it carries no state: write it as its id alone"),
    ]


def test_what_the_rules_allow_is_scored(capsys, tmp_path):
    """DESIGN §8/§9: "Thrud/Ylud may stand in a column"; "Olwyn's doubles and Gullinbursti stand in a
    column"; "while a card stands in an army column it has that column's class"; "a valkyrie by id
    alone stands at notch 0"; "Mjöllnir without a class takes the class that scores most"; an
    unenlisted mercenary waits in the command zone with no rank."""
    text = (
        "expansions: [thingvellir, idavoll]\n"
        "players:\n"
        "  - name: Ana\n"
        "    coins: [0, 5]\n"
        "    army:\n"
        "      warrior: [warrior:3, ylud, mercenary:warrior6-explorer8]\n"
        "      hunter: [hunter, olwyn-double, gullinbursti]\n"
        "      miner: [miner:2, thrud, olwyn-double]\n"
        "      explorer: [vegvisir, garm]\n"
        "    command_zone:\n"
        "      - olwyn\n"
        "      - mjollnir\n"
        "      - mercenary:hunter-miner1\n"
        "      - brynhildr\n"
        "      - {card: olrun, notch: 1, class: miner}\n"
        "      - {card: surt, captured: warrior:9}\n"
        "      - {card: skymir, face_down: true}\n"
        "      - {card: frigg, used: true}\n"
        "      - {card: zolkur, tokens: 1}\n"
        "  - name: Bo\n"
        "    coins: [0]\n")
    code, out, err = score(capsys, tmp_path, text, "--json")
    assert code == 0, err
    b = json.loads(out)["players"][0]["breakdown"]
    assert b["warrior"] == 3 + 7 + 6 + 5         # Ylud 7 in the warrior column, the mercenary's 6, the majority coin
    assert b["hunter"] == 3 * 3                   # three ranks: the hunter, a double, Gullinbursti
    assert b["miner"] == 2 * 2                    # Thrud has left for the command zone; a double of 0
