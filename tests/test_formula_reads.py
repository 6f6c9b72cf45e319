"""What a class formula or a card's score reads (compiler/reads.py), and the marginal points that trust it.

A simulation's record gives each card "what its owner would lose at the end without it" (DESIGN
§10, sim/facts.py): the owner's Final Bravery Value minus the same with that one card out. Only the
formulas a card's leaving can change are scored again; these tests hold that to scoring everything
again, over whole games of every box combination."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from checking import write
from nidavellir.compiler.dsl import parse_expr
from nidavellir.compiler.reads import formula_reads, score_reads
from nidavellir.rulesets import load_rules
from nidavellir.runtime.game import Game
from nidavellir.runtime.scoring import player_score
from nidavellir.sim.facts import held_points

CLASSES = ("warrior", "hunter", "miner", "blacksmith", "explorer")


@pytest.mark.parametrize("text, reads", [
    ("ranks * ranks", ("hunter",)),                                   # its own column
    ("points + (highest_coin if most_ranks(warrior) else 0)", ("hunter", "warrior")),
    ("ranks(explorer) + lookup(ranks, 0, 3, 5)", ("explorer", "hunter")),
    ("max(coins_total, age) * 2", ()),                                # coins and the age: no card
    ("ranks + param(miner_zero_pairs)", None),                        # a param a card may change
    ("ranks + heroes", None),                                         # the command zone's heroes
    ("ranks + cards(hero)", None),
    ("5 if column is warrior else 0", None),
])
def test_a_formula_reads_the_columns_its_names_read(text, reads):
    """003 "Determining the Bravery Value of Each Class": a class is scored from its column ("the
    number of Hunters squared"); a formula that names another class, a param or the heroes reads
    those, and one whose names promise nothing may read anything (None)."""
    assert formula_reads("hunter", parse_expr(text), CLASSES) == reads


@pytest.mark.parametrize("text, reads", [
    ("highest_coin", ()),                                             # Astrid: her owner's coins
    ("lookup(copies, 0, 13, 40, 81, 108, 135)", ()),                  # Dwerg: the copies of its own card
    ("2 * ranks(explorer)", ("explorer",)),                           # another column, of any player
    ("track", ()),                                                    # its own card's notch
    ("highest_coin if captures > 0 else 0", ()),
    ("11 if column is explorer else 7 if column is warrior else 0", ()),  # where its own card stands
    ("5 * heroes", None),                                             # every hero its owner holds
    ("2 * ranks(chosen_class)", None),                                # a column known only in play
    ("ranks", None),                                                  # (a score scores no column)
])
def test_a_cards_score_reads_the_columns_its_names_read_besides_its_own_card(text, reads):
    """001 "Astrid: her value is equal to your highest value coin"; "Dwerg brothers: 13, 40, 81, 108
    or 135 points for 1 to 5 of them": a card's score reads its own card (its place, its marks, its
    copies), the columns it names, or anything (None) — never the card's own column, which it has not
    as a formula has."""
    assert score_reads(parse_expr(text), CLASSES) == reads


def _lose_without(game: Game, p: int) -> dict[str, list[int]]:
    """Each held card's loss, every formula scored again (the definition, spelled out)."""
    e = game.engine
    pl = e.s.players[p]
    total = player_score(e, p)["total"]
    out: dict[str, list[int]] = {}
    for column, place in [*pl.army.items(), (None, pl.command)]:
        for i, card in enumerate(place):
            e.detach(card)
            without = player_score(e, p)["total"]
            e.attach(p, card, column)
            place.insert(i, place.pop())
            out.setdefault(e.s.cards[card], []).append(total - without)
    return out


def _all_alike(rules, seeds: range) -> int:
    """Play `seeds` at random; every held card's marginal points as scored both ways; the cards."""
    cards = 0
    for seed in seeds:
        game = Game(rules, 2 + seed % 4, seed)
        rng = random.Random(seed)
        while game.pending is not None:
            game.answer(rng.choice(game.pending.options))
        for p in range(game.engine.n):
            expected = _lose_without(game, p)
            assert held_points(game.engine, p) == expected
            cards += sum(map(len, expected.values()))
    return cards


@pytest.mark.parametrize("boxes", [(), ("thingvellir",), ("idavoll",), ("thingvellir", "idavoll")],
                         ids=["base", "thingvellir", "idavoll", "both"])
def test_marginal_points_equal_scoring_everything_again(boxes):
    """A card's points are its holder's total minus the total without it, every other card kept:
    scoring only the formulas its leaving can change gives the same, card for card."""
    assert _all_alike(load_rules(boxes), range(1, 13)) > 300


def _scoring(tmp_path: Path, scores: dict[str, str]) -> Path:
    """A variant giving each card (by id) the score expression given, as its one effect."""
    cards = "".join(f'  - id: "{cid}"\n    effects: ["score {text}"]\n' for cid, text in scores.items())
    return write(tmp_path / "v.yaml", "layer: {id: v, name: V}\ncards:\n" + cards)


def test_a_card_scored_in_its_column_reads_what_its_score_reads(tmp_path: Path):
    """003: "Warriors: the sum of their ranks" — a column's points count each card's own score too,
    so a Warrior that scores the Explorers' ranks makes the Warriors read the Explorers (its
    column's formula reads only `points`); an Explorer leaving changes the Warriors' score."""
    v = _scoring(tmp_path, {"warrior:3": "3 * ranks(explorer)", "warrior:4": "2 * heroes"})
    assert _all_alike(load_rules((), (str(v),)), range(1, 25)) > 300


def test_a_command_score_that_reads_a_column_changes_with_that_columns_cards(tmp_path: Path):
    """003: the command zone's heroes and distinctions score as their cards say; a card there whose
    score reads a column (Astrid made to score twice the Warriors' ranks and her copies) loses or
    gains when a Warrior leaves, and not when another card does: scoring only what can change still
    gives each card's points as scoring everything again does."""
    rules = load_rules((), (str(_scoring(tmp_path, {"astrid": "2 * ranks(warrior) + copies"})),))
    assert rules.cards["astrid"].score_reads == ("warrior",)
    assert _all_alike(rules, range(1, 25)) > 300


def test_a_score_counting_its_copies_changes_when_a_copy_leaves_another_column(tmp_path: Path):
    """002 "Mercenary cards": a mercenary stands in one of its two classes, and its card counts in that
    column's points; 003: "Warriors: the sum of their ranks ... the player with the most ranks adds
    the value of their highest coin". A mercenary made to score 4 points per copy its owner holds,
    its two copies in the Warrior and the Explorer columns: each copy's leaving takes 4 points from
    the other's column too. Warrior copy: 9 + 8 and the highest coin 5 (most Warrior ranks), and 4
    from the Explorers, 26; Explorer copy: 11 + 8, and 4 from the Warriors, 23 — as scoring
    everything again gives."""
    from harness import pull

    v = _scoring(tmp_path, {"mercenary:warrior9-explorer11": "4 * copies"})
    game = Game(load_rules(("thingvellir",), (str(v),)), 3, 1)
    e = game.engine
    for column in ("warrior", "explorer"):
        e.attach(0, pull(e, "mercenary:warrior9-explorer11"), column)
    assert held_points(e, 0) == _lose_without(game, 0) == {"mercenary:warrior9-explorer11": [26, 23]}
