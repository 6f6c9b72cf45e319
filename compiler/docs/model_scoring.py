"""The reference's scoring: each class's formula, its worked example or its table of points."""
from __future__ import annotations

from nidavellir.interface.rules import CardDef

from .. import ir
from ..dsl import parse_expr
from .model_base import ModelBase
from .scoring import TABLE_RANKS, class_scores, example, pointless_values
from .text import formula_text
from .views import ClassView, ScoreTable


class ScoringModel(ModelBase):
    """The scoring section's classes."""

    def classes(self, marks: dict[str, list[str]]) -> tuple[list[ClassView], ScoreTable]:
        scores = class_scores(self.c.source)
        params = dict(self.rs.params)
        coin = max((c.value for c in self.rs.basic_coins), default=0)
        out: list[ClassView] = []
        table_classes: list[tuple[str, list[int]]] = []
        for c in self.rs.classes:
            cid = c.id
            fn = scores[cid]
            values = pointless_values(fn, cid, params)
            ex = None
            if values is None:
                ex = example(fn, cid, self.example_cards(cid), params, coin)
            else:
                table_classes.append((cid, values))
            out.append({
                "id": cid,
                "anchor": f"scoring-{cid}",
                "name": self.cx.cls(cid),
                "formula": formula_text(cid, parse_expr(c.formula), self.cx),
                "tabulated": values is not None,
                "example": None if ex is None else {
                    "cards": [self.link(x) for x in ex.cards], "ranks": ex.ranks, "points": ex.points,
                    "value": ex.value,
                    "facts": self.cx.join([self.t(k, **{n: self.cx.cls(v) if n == "cls" else v for n, v in kw.items()})
                                           for k, kw in ex.facts]),
                },
                "changed": marks.get(cid, []),
                "changed_by": [self.link(card) for node in ir.walk(parse_expr(c.formula))
                               if isinstance(node, ir.Call) and node.name == "param" and isinstance(node.args[0], ir.Var)
                               for card, _ in self.cx.changed(node.args[0].name)],
            })
        table: ScoreTable = {"classes": [self.cx.cls(cid) for cid, _ in table_classes],
                 "rows": [[n] + [values[i] for _, values in table_classes] for i, n in enumerate(TABLE_RANKS)]}
        return out, table

    def example_cards(self, cls: str, size: int = 3) -> list[CardDef]:
        """The first distinct dwarf cards of a class in the age decks, as an example column."""
        cards: list[CardDef] = []
        for age in self.rs.ages:
            for entry in self.decks(age):
                card = self.cards[entry.card]
                if card.cls == cls and card.kind == "dwarf" and card.ranks and card not in cards:
                    cards.append(card)
        return cards[:size]
