"""The reference's zones: the decks each holds and what fills, empties and draws from it."""
from __future__ import annotations

from nidavellir.interface.rules import DeckEntry

from .. import ir
from .model_base import ModelBase
from .views import CardCount, ZoneCell, ZoneDeck, ZoneRow, ZoneStep, ZoneTable, ZoneView


class ZonesModel(ModelBase):
    """The zones section."""

    def zones(self) -> list[ZoneView]:
        """The zones the rules declare (the Camp, its decks, the camp discard, the mythology deck) and what
        fills, empties and draws from each."""
        links = self.step_links()
        marks = self.marks_under("zones", 1)

        def using(do: str, field: str, other: str, zid: str) -> list[ZoneStep]:
            return [{"step": link, "other": self.zone_ref(getattr(s, other)), "count": s.count}
                    for s, link in links if s.do == do and getattr(s, field) == zid]

        entry = next((link for s, link in links if s.do == "enter-dwarves"), None)

        def deck_of(node: ir.Node) -> str | None:
            return node.zone if isinstance(node, ir.Deck) else None  # (a deck an action looks at or into)

        out: list[ZoneView] = []
        for zone in self.rs.zones:
            zid = zone.id
            name = self.zone_ref(zid)["name"]
            pile = self.is_pile(zid)
            decks: list[ZoneDeck] = [{"age": age, "count": sum(e.count for e in entries),
                                      "cards": [{**self.link(e.card), "count": e.count} for e in entries]}
                                     for _, age, entries in self.zone_decks(zid)]
            if pile and decks:  # one deck for the whole game: its entries of every age together
                decks = [{"age": 0, "count": sum(d["count"] for d in decks), "cards": [c for d in decks for c in d["cards"]]}]
            cleared = using("clear", "zone", "into", zid)
            out.append({
                "id": zid, "anchor": f"zone-{zid}", "title": name[:1].upper() + name[1:],
                "per_age": zone.per_age, "pile": pile, "explored": zone.explored,
                "decks": decks, "table": self.zone_table(zid, pile),
                "dealt": [{"step": entry, "tavern": d["tavern"], "when": d["when"]} for d in self.draws(zid)]
                if entry else [],
                "kept": pile and not cleared,
                "drawn_by": [self.link(cid) for cid, effects in self.c.effects.items()
                             if any(deck_of(n) == zid for _, e in effects for n in ir.walk(e))],
                "refilled": using("refill", "zone", "deck", zid), "feeds": using("refill", "deck", "zone", zid),
                "cleared": cleared, "receives": using("clear", "into", "zone", zid),
                "picked": any(src.zone == zid for src in self.rs.pick_sources),
                "taken_by": [self.link(cid) for cid, effects in self.c.effects.items()
                             if any(isinstance(n, ir.Act) and n.source() == ir.Word(zid) for _, e in effects for n in ir.walk(e))],
                "discarded": self.cx.join([self.kind_name(k) for k, to in self.rs.discards_to.items() if to == zid]),
                "changed": marks.get(zid, []),
            })
        return out

    def zone_table(self, zid: str, pile: bool) -> ZoneTable | None:
        """A zone's decks as one table: a column per deck (per age, or the one pile), a row per kind
        with its cards, and each deck's size."""
        decks: list[tuple[int, list[DeckEntry]]] = [(age, list(entries)) for _, age, entries in self.zone_decks(zid)]
        if not decks:
            return None
        if pile:
            decks = [(0, [e for _, entries in decks for e in entries])]
        kind_of = {cid: c.kind for cid, c in self.cards.items()}
        kinds = [k for k in self.rs.kinds if any(kind_of[e.card] == k for _, entries in decks for e in entries)]
        rows: list[ZoneRow] = []
        for k in kinds:
            cells: list[ZoneCell] = []
            for _, entries in decks:
                cards: list[CardCount] = [{**self.link(e.card), "count": e.count} for e in entries
                                          if kind_of[e.card] == k]
                cells.append({"count": sum(c["count"] for c in cards), "cards": cards})
            rows.append({"label": self.kind_label(k), "cells": cells})
        head = [self.t("ref.col.kind")] + [self.t("ref.zones.col_pile") if pile else self.t("ref.zones.col_age", age=age)
                                           for age, _ in decks]
        return {"head": head, "rows": rows, "totals": [sum(e.count for e in entries) for _, entries in decks]}
