"""The reference's components and setup: the kinds of cards, the age decks' make-up, the coins,
gems and taverns, and what each player count sets up."""
from __future__ import annotations

from nidavellir.interface.rules import BasicCoin, SpecialCoin

from .model_base import ModelBase, _runs
from .views import CardCount, Components, KindCount, PlainTable, PlayerRow, Setup


class SetupModel(ModelBase):
    """The components and setup sections."""

    def components(self) -> Components:
        rs = self.rs
        in_decks = self.in_any_deck()
        kinds: list[KindCount] = []
        for kind in rs.kinds:
            ids = [cid for cid, c in self.cards.items() if c.kind == kind]
            count = sum(e.count for age in self.rs.ages for e in self.decks(age) if self.cards[e.card].kind == kind)
            count += sum(e.count for _, _, entries in self.zone_decks() for e in entries
                         if self.cards[e.card].kind == kind)
            count += sum(self.cards[cid].copies for cid in ids if cid not in in_decks)
            kinds.append({"kind": kind, "label": self.kind_label(kind), "entries": len(ids), "count": count})
        treasure = rs.treasure
        rows: list[PlayerRow] = []
        for n in self.players:
            removed = sum(self.rs.treasure_removed.get(n, {}).values())
            per_tavern = self.rs.cards_per_tavern.get(n, 0)
            rows.append({
                "players": n,
                "gems": ", ".join(str(v) for v in self.rs.gems.get(n, ())),
                "per_tavern": per_tavern,
                "per_turn": per_tavern * len(self.rs.taverns),
                "treasure": sum(treasure.values()) - removed,
            })
        basic = rs.basic_coins
        return {
            "kinds": kinds,
            "rows": rows,
            "decks": self.deck_table(),
            "ages": list(self.rs.ages),
            "basic": self.cx.join([self.coin_label(c) for c in basic]),
            "basic_total": len(basic) * self.players[-1],
            "max_players": self.players[-1],
            "treasure": self.cx.join([self.t("ref.count_of", count=treasure[v], what=v) for v in sorted(treasure)]),
            "treasure_total": sum(treasure.values()),
            "special_coins": self.cx.join([self.t("ref.coin.special", name=self.coin_name(c), value=c.value)
                                           for c in rs.special_coins]),
            "gems": ", ".join(str(v) for v in sorted({v for n in self.players
                                                      for v in self.rs.gems.get(n, ())})),
            "special_gems": self.cx.join([self.t("ref.gem.special" if s.tradable else "ref.gem.special_untradable",
                                                 value=s.value, points=s.points) for s in rs.special_gems]),
        }

    def deck_table(self) -> PlainTable:
        """The age decks' make-up: a row per age and run of player counts whose decks are alike, a
        column per kind of card they hold, and the deck's size."""
        ages = self.rs.ages
        kind_of = {cid: c.kind for cid, c in self.cards.items()}
        kinds = [k for k in self.rs.kinds if any(kind_of[e.card] == k for a in ages for e in self.decks(a))]
        rows: list[list[str]] = []
        for age in ages:
            counts = {n: tuple(sum(e.count for e in self.decks(age) if e.min_players <= n and kind_of[e.card] == k)
                               for k in kinds) for n in self.players}
            rows += [[self.t("ref.decks.age", age=age), self.players_range(ns)] + [str(c) for c in row] + [str(sum(row))]
                     for ns, row in _runs(counts)]
        head = [self.t("ref.col.age_deck"), self.t("ref.col.players")] + [self.kind_label(k) for k in kinds] + [
            self.t("ref.col.deck_cards")]
        return {"head": head, "rows": rows}

    def coin_label(self, coin: BasicCoin) -> str:
        return self.t("ref.coin.trading" if coin.trading else "ref.coin.value", value=coin.value)

    def trading_coins(self) -> str:
        return self.cx.join([str(c.value) for c in self.rs.basic_coins if c.trading]
                            + [self.coin_name(c) for c in self.rs.special_coins if c.trading])

    def coin_name(self, coin: SpecialCoin) -> str:
        return self.cat.t(f"coin.name.{coin.id}", default=coin.name)

    def setup(self) -> Setup:
        treasure_total = sum(self.rs.treasure.values())
        removals: list[tuple[dict[int, int], list[int]]] = []  # coins removed (value -> count), for n players
        for n in self.players:
            table = dict(self.rs.treasure_removed.get(n, {}))
            if not table:
                continue
            for known, ns in removals:
                if known == table:
                    ns.append(n)
                    break
            else:
                removals.append((table, [n]))
        extra: dict[tuple[int, int], list[CardCount]] = {}
        for age in self.rs.ages:
            for e in self.decks(age):
                if e.min_players > self.players[0]:
                    extra.setdefault((e.min_players, age), []).append({**self.link(e.card), "count": e.count})
        return {
            "basic": self.cx.join([self.coin_label(c) for c in self.rs.basic_coins]),
            "gems": "; ".join(self.t("ref.setup.gems_for", n=n, gems=", ".join(map(str, self.rs.gems.get(n, ()))))
                              for n in self.players),
            "taverns": self.taverns(),
            "heroes": sum(c.copies for c in self.cards.values() if c.kind == "hero"),
            "distinctions": [self.link(cid) for cid in self.cards_of("distinction")],
            "treasure_total": treasure_total,
            "removals": [{"players": self.cx.join([str(n) for n in ns], "list.or"),
                          "coins": self.cx.join([self.t("ref.count_of", count=k, what=v) for v, k in table.items()]),
                          "left": treasure_total - sum(table.values())} for table, ns in removals],
            "extra": [{"players": least, "most": least == self.players[-1], "age": age, "cards": cards}
                      for (least, age), cards in sorted(extra.items())],
            "zone_decks": [{"zone": self.zone_ref(zid), "decks": self.cx.join(
                [self.t("ref.setup.zone_deck", age=age, count=sum(e.count for e in entries))
                 for _, age, entries in self.zone_decks(zid)]),
                "pile": self.is_pile(zid),
                "count": sum(e.count for _, _, entries in self.zone_decks(zid) for e in entries),
                "draws": self.draws(zid)}
                for zid in self.cx.zones if self.zone_decks(zid)],
        }
