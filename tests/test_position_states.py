"""State keys of a position that exclude each other (issue 17 audit): runtime/placement.py derives
from the compiled rules which of a card's state keys each spend its one once-per-game power
(`CardDef.spends`) and which mean it is spent; a position holding two ways of spending it, or
`used: false` beside one, or an empty `captured`, is refused at its place with a hint — and what
`play --json` writes stays accepted.

DESIGN §8: "`{card: surt, captured: warrior:9}` # the dwarf a giant captured; `{card: skymir,
face_down: true}` # a giant that can no longer capture"; §9 (Idavoll): "Giants: the owner's next
matching dwarf card may be captured (the giant's effect applies at once) or placed (the giant turns
face down for good)"; §8: "A position that breaks the rules data … is refused with a located error".
"""
from __future__ import annotations

import json
from typing import Any

import pytest

from harness import give, new_engine, pull, run
from nidavellir.cli import main
from nidavellir.rulesets import load_rules
from nidavellir.runtime.placement import can_capture, standings
from nidavellir.runtime.position import position_of
from nidavellir.runtime.position_check import check_position

BOTH = load_rules(("thingvellir", "idavoll"))


def position(*command_zone: Any, rules: Any = BOTH) -> dict[str, Any]:
    boxes = [layer.id for layer in rules.ruleset.layers[1:] if not layer.variant]
    return {"expansions": boxes, "players": [{"name": "A", "coins": [0], "command_zone": list(command_zone)},
                                             {"name": "B", "coins": [0]}]}


def problems(data: dict[str, Any], rules: Any = BOTH) -> list[tuple[str, tuple[Any, ...], bool]]:
    return [(p.message, p.path, p.key) for p in check_position(rules, data)]


def target(rules: Any, cid: str) -> str:
    """A dwarf card the card may capture (one that is in the game with two players)."""
    d = rules.cards[cid]
    in_game = {e.card for entries in rules.ruleset.decks.values() for e in entries if e.min_players <= 2}
    return next(t for t in sorted(in_game) if can_capture(d, rules.cards[t]))


def spenders(rules: Any) -> list[str]:
    return [cid for cid, s in standings(rules).items() if s.exclusive]


def test_the_giants_spend_their_power_by_a_capture_or_by_turning_face_down():
    """§9: a giant captures or turns face down for good: both spend its one power, so the derived
    facts say each giant holds at most one of the two, and a power spent beside either."""
    giants = sorted(cid for cid, d in BOTH.cards.items() if d.kind == "giant")
    assert giants and spenders(BOTH) == sorted(spenders(BOTH)) and set(spenders(BOTH)) == set(giants)
    for cid in giants:
        s = standings(BOTH)[cid]
        assert s.exclusive == ("captured", "face_down") and set(s.spent_by) == {"captured", "face_down"}


@pytest.mark.parametrize("cid", spenders(BOTH))
def test_two_ways_of_spending_the_power_are_refused_at_the_second(cid):
    """Audit: "`{card: surt, captured: warrior:3, face_down: true}` passes, though turning face down
    means the capture was declined": refused, at the key written second; each alone is accepted."""
    got = target(BOTH, cid)
    for state in ({"captured": got, "face_down": True}, {"face_down": True, "captured": got}):
        second = list(state)[1]
        ((message, path, key),) = problems(position({"card": cid, **state}))
        assert path == ("players", 0, "command_zone", 0, second) and key
        assert message == (f"`{cid}` holds a capture and is face down: its once-per-game power is spent once, "
                           "by capturing a card or by turning face down")
    for alone in ({"captured": got}, {"face_down": True}, {"captured": got, "face_down": False},
                  {"captured": got, "used": True}, {"face_down": True, "used": True}):
        assert problems(position({"card": cid, **alone})) == [], alone


@pytest.mark.parametrize("cid", spenders(BOTH))
def test_a_power_spent_is_not_unused(cid):
    """A capture by the once-per-game power and turning face down each spend it (runtime
    `turn_face_down`, the once-per-game guard): `used: false` beside either is refused at `used`."""
    got = target(BOTH, cid)
    for state, what in (({"captured": got}, "holds a capture: capturing a card"),
                        ({"face_down": True}, "is face down: turning face down")):
        ((message, path, key),) = problems(position({"card": cid, **state, "used": False}))
        assert message == f"`{cid}` has `used: false`, but it {what} spends its once-per-game power"
        assert path[-1] == "used" and key


@pytest.mark.parametrize("cid", spenders(BOTH))
def test_an_empty_capture_list_is_refused(cid):
    """Audit: "`captured: []` is also accepted": no card is captured, and `play --json` leaves the
    key out then (runtime/position.py position_of), so an empty list is refused, not read as none."""
    ((message, path, key),) = problems(position({"card": cid, "captured": []}))
    assert message == f"`{cid}` has an empty `captured`: no card is captured"
    assert path == ("players", 0, "command_zone", 0, "captured") and not key


def test_what_play_writes_for_each_state_stays_accepted():
    """`play --json`'s `final` is scored by `score` (DESIGN §8): the states the engine writes — a
    giant that captured, one turned face down, a god whose power is used — are accepted."""
    e = new_engine(2, rules=BOTH)
    surt, skymir, odin = give(e, 0, "surt", "skymir", "odin", column=None)
    dwarf = pull(e, target(BOTH, "surt"))
    e.use(surt)  # (the giant's once-per-game capture spends its power, then captures)
    run(e.capture(0, surt, dwarf))
    e.turn_face_down(skymir)
    e.use(odin)
    final = position_of(e)
    written = {entry["card"]: entry for entry in final["players"][0]["command_zone"] if isinstance(entry, dict)}
    assert written["surt"] == {"card": "surt", "captured": BOTH.cards[target(BOTH, "surt")].id}
    assert written["skymir"] == {"card": "skymir", "face_down": True}
    assert written["odin"] == {"card": "odin", "used": True}
    assert check_position(BOTH, json.loads(json.dumps(final))) == []


GIANTS = """\
layer: {id: spending, name: Spending}
cards:
  - id: gated-giant
    kind: giant
    effects:
      - "may once per game instead of any taken if subject_kind is dwarf: capture"
      - "whenever taken if not used: turn face down"
  - id: free-turner
    kind: giant
    effects:
      - "may once per game instead of any taken if subject_kind is dwarf: capture"
      - "whenever taken: turn face down"
  - id: many-captures
    kind: giant
    effects:
      - "may instead of any taken if subject_kind is dwarf: capture"
      - "whenever taken if not used: turn face down"
"""


def test_which_keys_exclude_each_other_is_derived_from_the_effects(tmp_path):
    """The runtime knows no card: the facts come from the effects. A capture spends the power only
    when it is once per game; turning face down excludes a capture only when it runs while the power
    is unspent (`once per game`, or `not used` in its condition). Where a capture can come first and
    the card still turn face down, the two together are accepted."""
    v = tmp_path / "spending.yaml"
    v.write_text(GIANTS, encoding="utf-8")
    rules = load_rules(("idavoll",), (str(v),))
    want = {"gated-giant": (("captured", "face_down"), ("captured", "face_down")),
            "free-turner": ((), ("captured", "face_down")),
            "many-captures": ((), ("face_down",))}
    for cid, (exclusive, spent) in want.items():
        s = standings(rules)[cid]
        assert (s.exclusive, s.spent_by) == (exclusive, spent), cid
    both = {"captured": "warrior:3", "face_down": True}
    assert problems(position({"card": "gated-giant", **both}, rules=rules), rules) != []
    assert problems(position({"card": "free-turner", **both}, rules=rules), rules) == []
    assert problems(position({"card": "many-captures", **both}, rules=rules), rules) == []
    assert problems(position({"card": "many-captures", "captured": "warrior:3", "used": False}, rules=rules),
                    rules) == []  # (a capture that is not once per game spends nothing)
    assert problems(position({"card": "free-turner", "face_down": True, "used": False}, rules=rules), rules) != []


def test_score_locates_the_refusal_with_its_hint(capsys, tmp_path):
    """`score` reports it like every problem of a position: `path:line:col`, at the key, with a hint."""
    pos = tmp_path / "pos.yaml"
    pos.write_text("expansions: [idavoll]\nplayers:\n"
                   "  - {name: A, coins: [0], command_zone: [{card: surt, captured: warrior:3, face_down: true}]}\n"
                   "  - {name: B, coins: [0]}\n", encoding="utf-8")
    code = main(["score", str(pos)])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    col = pos.read_text().splitlines()[2].index("face_down") + 1
    assert f"{pos}:3:{col}: error: `surt` holds a capture and is face down" in err
    assert "hint: keep `captured` or `face_down`: the one way its power was spent" in err
