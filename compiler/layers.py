"""Load rules layers (folders of YAML files or single variant files) and merge them by id.

A later layer adds an entry with a new id, overrides the fields it gives of an existing id,
removes ids listed under `remove:`, and may insert flow steps `before:` or `after:` a step id (a step
of an earlier layer given with `before:`/`after:` moves there; `remove: true` removes a step, and a
deck entry with `remove: true` removes that deck). One layer gives each entry once: a card, an
interpretation, an id of a `game` list, a deck's card (for a player count).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from nidavellir.errors import suggest

from .box_cards import card_hint
from .diagnostics import Diagnostics, Location, RulesError, unread
from .paths import FOUND_A_FOLDER, NOT_UTF8, problem, shown_path
from .schema import is_valid, load_schema, validate
from .yamlload import JsonDict, JsonPath, Loaded, load_yaml, overlaid, overlaid_in

# A rules folder with more files than this is refused (never silently cut short).
MAX_FILES_PER_LAYER = 2000


@dataclass
class Origin:
    """Where a merged value was written: the file and the JSON path inside it."""
    loaded: Loaded
    path: JsonPath

    @property
    def loc(self) -> Location:
        return self.loaded.locate(self.path)

    def at(self, *more: str | int) -> "Origin":
        return Origin(self.loaded, self.path + tuple(more))


@dataclass
class Layer:
    id: str
    name: str
    description: str
    source: str
    files: list[Loaded]
    is_variant: bool
    broken: dict[str, set[int]] = field(default_factory=dict)  # file -> indices of cards left out
    complete: bool = True  # False when a file could not be read or checked at all


# A deck entry, by age and (card, min_players); (age, None): the deck itself.
DeckKey = tuple[int, tuple[str, int] | None]
# A key path in the merged `game` (ids for the entries of an id list): where its value was written.
GameOrigins = dict[JsonPath, Origin]


@dataclass
class Merged:
    layers: list[Layer] = field(default_factory=list)
    game: JsonDict = field(default_factory=dict)
    game_origin: GameOrigins = field(default_factory=dict)
    cards: dict[str, JsonDict] = field(default_factory=dict)
    card_origin: dict[str, dict[str, Origin]] = field(default_factory=dict)  # id -> field -> Origin
    card_layers: dict[str, list[str]] = field(default_factory=dict)  # id -> layers that touched it
    decks: dict[int, list[JsonDict]] = field(default_factory=dict)
    deck_origin: dict[DeckKey, Origin] = field(default_factory=dict)
    zone_decks: dict[str, dict[int, list[JsonDict]]] = field(default_factory=dict)  # zone -> age -> entries
    zone_deck_origin: dict[tuple[str, DeckKey], Origin] = field(default_factory=dict)
    interpretations: dict[str, JsonDict] = field(default_factory=dict)
    sources: list[Loaded] = field(default_factory=list)
    removed: dict[str, JsonDict] = field(default_factory=dict)  # id -> a card a later layer removed


def layer_files(path: Path) -> list[Path]:
    """Every `.yaml` file of a rules folder, by name (or the one variant file), with the new files an
    active overlay holds there (an editor's, not saved yet). Whatever else is named `*.yaml` there
    (a pipe, a broken link) is listed too, so that reading it says what it is."""
    if path.is_dir():
        found = {p.name: p for p in path.glob("*.yaml") if not p.is_dir() or overlaid(p)}
        found.update({p.name: path / p.name for p in overlaid_in(path) if p.name not in found})
        return [found[name] for name in sorted(found)]
    return [path]


def load_layer(path: Path, display: str, diags: Diagnostics, is_variant: bool) -> Layer | None:
    """Load and schema-check every file of one layer; None if nothing could be read."""
    schema = load_schema("layer")
    display = shown_path(display)
    files: list[Loaded] = []
    broken: dict[str, set[int]] = {}
    complete = True
    found = None if overlaid(path) else problem(path, "file" if is_variant else "any")  # (an open document)
    if found is not None:
        hint = found.hint
        if is_variant and found.message == FOUND_A_FOLDER:
            hint = "a variant is a YAML file; check a rules folder as a PATH: `nidavellir check FOLDER`"
        diags.add(unread(display, found.message, hint))
        return None
    try:
        is_dir = path.is_dir()
        paths = layer_files(path)
    except OSError as err:
        diags.add(unread(display, err.strerror or str(err)))
        return None
    if is_dir and not paths:
        diags.error(Location(display, 1, 1), "rules folder holds no .yaml file")
        return None
    if len(paths) > MAX_FILES_PER_LAYER:
        diags.error(Location(display, 1, 1), f"rules folder holds {len(paths)} .yaml files, more than the "
                                             f"{MAX_FILES_PER_LAYER} a layer may have", "split it into layers")
        return None
    for p in paths:
        shown = display if not is_dir else f"{display.rstrip('/')}/{shown_path(p.name)}"
        if is_dir and (odd := problem(p)) is not None and odd.message == NOT_UTF8:
            diags.add(unread(shown, odd.message, odd.hint))
            complete = False
            continue
        try:
            loaded = load_yaml(p, name=shown)
        except RulesError as err:
            diags.extend(err.diagnostics)
            complete = False
            continue
        if loaded.data is None:
            if not is_dir:
                diags.error(Location(shown, 1, 1), "the variant file is empty",
                            "a variant needs at least a `layer:` with its `id` and `name`")
            continue
        if validate(loaded, schema, diags):
            files.append(loaded)
        elif (bad := _broken_cards(loaded.data, schema)) is not None:
            files.append(loaded)  # its other cards are still checked, so one run reports all
            broken[shown] = bad
        else:
            complete = False
    described = [f for f in files if "layer" in f.data]
    for f in described[1:]:
        diags.error(f.locate_key(("layer",)), "a second `layer:` description in one rules folder "
                    f"(the first is in {described[0].path})", "describe the layer in one file only")
    info = described[0].data["layer"] if described else None
    default_id = path.stem if not is_dir else path.name
    info = info or {"id": default_id, "name": default_id}
    return Layer(info["id"], info.get("name", info["id"]), info.get("description", ""),
                 info.get("source", ""), files, is_variant, broken, complete)


def _broken_cards(data: object, schema: JsonDict) -> set[int] | None:
    """Indices of the cards that break the schema, when leaving them out makes the file valid."""
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        return None
    card_schema = schema["properties"]["cards"]["items"]
    bad = {i for i, card in enumerate(data["cards"]) if not is_valid(card, card_schema)}
    rest = dict(data, cards=[c for i, c in enumerate(data["cards"]) if i not in bad])
    return bad if bad and is_valid(rest, schema) else None


def merge(layers: list[Layer], diags: Diagnostics) -> Merged:
    m = Merged(layers=layers)
    for layer in layers:
        seen: dict[tuple[str, str], Origin] = {}
        for f in layer.files:
            m.sources.append(f)
            data = f.data
            _merge_game(m, layer, f, data.get("game"), diags)
            for i, card in enumerate(data.get("cards", [])):
                if i in layer.broken.get(f.path, ()):
                    continue  # reported by the schema check
                origin = Origin(f, ("cards", i))
                _once(seen, ("card", card["id"]), origin, diags, layer)
                if _new_id_checked(m, layer, card, origin, diags):
                    _merge_card(m, layer, card, origin, diags)
            for i, deck in enumerate(data.get("decks", [])):
                _merge_deck(m, deck, Origin(f, ("decks", i)), seen, diags, layer)
            for i, item in enumerate(data.get("interpretations", [])):
                _once(seen, ("interpretation", item["id"]), Origin(f, ("interpretations", i)), diags, layer)
                m.interpretations[item["id"]] = dict(item, layer=layer.id)
            for i, rid in enumerate(data.get("remove", [])):
                origin = Origin(f, ("remove", i))
                if ("remove", rid) in seen:  # (in another file of the layer; the schema sees one list)
                    diags.error(origin.loc, f"`{rid}` is removed twice in layer `{layer.id}` (first at "
                                            f"{seen[('remove', rid)].loc})", "remove each id once")
                    continue
                seen[("remove", rid)] = origin
                if rid in m.cards:
                    m.removed[rid] = m.cards.pop(rid)
                    m.card_layers.setdefault(rid, []).append(layer.id)
                    for decks in (m.decks, *m.zone_decks.values()):
                        for age, entries in decks.items():
                            decks[age] = [e for e in entries if e["card"] != rid]
                elif rid in m.interpretations:
                    del m.interpretations[rid]
                else:
                    diags.error(origin.loc, f"cannot remove `{rid}`: no earlier layer defines it",
                                suggest(rid, list(m.cards) + list(m.interpretations)))
    return m


def _once(seen: dict[tuple[str, str], Origin], key: tuple[str, str], origin: Origin, diags: Diagnostics,
          layer: Layer) -> None:
    if key in seen:
        first = seen[key]
        diags.error(origin.at("id").loc,
                    f"{key[0]} `{key[1]}` is defined twice in layer `{layer.id}` "
                    f"(first at {first.at('id').loc})",
                    "a layer defines each id once; a later layer may override it")
    else:
        seen[key] = origin


def _new_id_checked(m: Merged, layer: Layer, card: JsonDict, origin: Origin, diags: Diagnostics) -> bool:
    """A card a later layer names but no earlier layer defines: without a `kind` it is a change to a
    card that does not exist (an error, with the likely id); in a variant, a new card whose id is
    close to an existing one is likely a typo (a warning). False: leave the entry out."""
    cid = card["id"]
    if cid in m.cards or layer is m.layers[0]:
        return True
    earlier = [c for c in m.cards if m.card_layers.get(c, [layer.id])[0] != layer.id]  # (not this layer's own)
    hint = suggest(cid, earlier)
    if "kind" not in card:
        diags.error(origin.at("id").loc, f"unknown card `{cid}`: no earlier layer defines it",
                    card_hint(cid, earlier) or "a new card needs a `kind`; to change a card, give the id of one "
                                               "that exists")
        return False
    if layer.is_variant and hint:
        diags.warning(origin.at("id").loc, f"the variant adds a new card `{cid}`",
                      f"{hint} (to change a card, use its id)")
    return True


def _merge_card(m: Merged, layer: Layer, card: JsonDict, origin: Origin, diags: Diagnostics) -> None:
    cid = card["id"]
    target = m.cards.get(cid)
    if target is None:
        target = m.cards[cid] = {}
        m.card_origin[cid] = {}
    for key, value in card.items():
        target[key] = value
        m.card_origin[cid][key] = origin.at(key)
    m.card_origin[cid].setdefault("@", origin)
    m.card_layers.setdefault(cid, []).append(layer.id)


def _merge_deck(m: Merged, deck: JsonDict, origin: Origin, seen: dict[tuple[str, str], Origin],
                diags: Diagnostics, layer: Layer) -> None:
    """Merge a `decks:` entry: an age deck, or (with `zone`) that zone's deck for the age; with
    `remove: true` the deck an earlier layer gives is removed. A layer lists each card of a deck once
    (for each `min_players`): a second entry would silently replace the first."""
    zone = deck.get("zone")
    age = deck["age"]
    named = f"the age {age} deck" + (f" of `{zone}`" if zone is not None else "")
    if deck.get("remove"):
        _remove_deck(m, zone, age, origin, diags, named)
        return
    if zone is None:
        entries = m.decks.setdefault(age, [])
    else:
        entries = m.zone_decks.setdefault(zone, {}).setdefault(age, [])

    def note(key: DeckKey, at: Origin, first: bool = False) -> None:
        table: dict[Any, Origin] = m.deck_origin if zone is None else m.zone_deck_origin
        full = key if zone is None else (zone, key)
        if not (first and full in table):
            table[full] = at

    note((age, None), origin.at("age"), first=True)
    for i, entry in enumerate(deck["cards"]):
        key = (entry["card"], entry.get("min_players", 0))
        here = origin.at("cards", i)
        once = ("deck", f"{zone or ''} {age} {key[0]} {key[1]}")
        if once in seen:
            players = f" (from {key[1]} players)" if key[1] else ""
            diags.error(here.at("card").loc, f"`{key[0]}`{players} is listed twice in {named} in layer "
                                             f"`{layer.id}` (first at {seen[once].at('card').loc})",
                        "give each card of a deck once, with its `count`")
            continue
        seen[once] = here
        for j, old in enumerate(entries):
            if (old["card"], old.get("min_players", 0)) == key:
                entries[j] = dict(entry)
                break
        else:
            entries.append(dict(entry))
        note((age, key), here)


def _remove_deck(m: Merged, zone: str | None, age: int, origin: Origin, diags: Diagnostics, named: str) -> None:
    """`{age: N, remove: true}` (with `zone`, that zone's deck): the deck and every card of it go."""
    decks = m.decks if zone is None else m.zone_decks.get(zone, {})
    if age not in decks:
        given = sorted(decks)
        diags.error(origin.loaded.locate_key(origin.path + ("remove",)), f"cannot remove {named}: no earlier layer gives it",
                    f"the decks of {'the ages' if zone is None else f'`{zone}`'}: ages "
                    + ", ".join(map(str, given)) if given else None)
        return
    del decks[age]
    if zone is None:
        for key in [k for k in m.deck_origin if k[0] == age]:
            del m.deck_origin[key]
    else:
        for zkey in [k for k in m.zone_deck_origin if k[0] == zone and k[1][0] == age]:
            del m.zone_deck_origin[zkey]
        if not decks:
            del m.zone_decks[zone]


def _merge_game(m: Merged, layer: Layer, f: Loaded, game: Any, diags: Diagnostics) -> None:
    if not game:
        return
    _merge_value(m.game, game, Origin(f, ("game",)), (), m.game_origin, diags, layer.is_variant)


def _merge_value(target: JsonDict, new: JsonDict, origin: Origin, key_path: tuple[str, ...], origins: GameOrigins,
                 diags: Diagnostics, variant: bool = False) -> None:
    for key, value in new.items():
        here = origin.at(key)
        kp = key_path + (key,)
        old = target.get(key)
        if key_path == ("flow",) and _is_id_list(value) and _is_id_list(old):
            target[key] = _merge_steps(old, value, here, kp, origins, diags, variant)
        elif isinstance(value, dict):
            if not isinstance(old, dict):
                old = target[key] = {}
            _merge_value(old, value, here, kp, origins, diags, variant)
        elif _is_id_list(value):
            target[key] = _merge_by_id(old if _is_id_list(old) else [], value, here, kp, origins, diags, variant)
        else:
            target[key] = value
        origins[kp] = here


def _is_id_list(value: object) -> TypeGuard[list[JsonDict]]:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) and "id" in v for v in value)


def _unique_ids(new: list[JsonDict], origin: Origin, key_path: tuple[str, ...], diags: Diagnostics) -> None:
    """Report an id given twice in one list (`game.classes`, a flow part, ...)."""
    first: dict[str, int] = {}
    for i, item in enumerate(new):
        if item["id"] in first:
            diags.error(origin.at(i, "id").loc,
                        f"`{item['id']}` is defined twice in `game.{'.'.join(key_path)}` "
                        f"(first at {origin.at(first[item['id']], 'id').loc})",
                        "a layer defines each id once; a later layer may override it")
        first.setdefault(item["id"], i)


def _warn_new_id(ident: str, existing: list[str], here: Origin, key_path: tuple[str, ...], diags: Diagnostics) -> None:
    """A variant that adds an entry whose id is close to an existing one most likely misspelt it."""
    hint = suggest(ident, existing)
    if existing and hint:
        diags.warning(here.at("id").loc, f"the variant adds a new entry `{ident}` to `game.{'.'.join(key_path)}`",
                      f"{hint} (to change an entry, use its id)")


def _merge_by_id(old: list[JsonDict], new: list[JsonDict], origin: Origin, key_path: tuple[str, ...],
                 origins: GameOrigins, diags: Diagnostics, variant: bool = False) -> list[JsonDict]:
    _unique_ids(new, origin, key_path, diags)
    result = [dict(v) for v in old]
    index = {v["id"]: i for i, v in enumerate(result)}
    earlier = list(index)
    for i, item in enumerate(new):
        if item["id"] in index:
            result[index[item["id"]]].update(item)
        else:
            if variant:
                _warn_new_id(item["id"], earlier, origin.at(i), key_path, diags)
            index[item["id"]] = len(result)
            result.append(dict(item))
        for k in item:
            origins[key_path + (item["id"], k)] = origin.at(i, k)
    return result


def _merge_steps(old: list[JsonDict], new: list[JsonDict], origin: Origin, key_path: tuple[str, ...],
                 origins: GameOrigins, diags: Diagnostics, variant: bool = False) -> list[JsonDict]:
    _unique_ids(new, origin, key_path, diags)
    steps = [dict(s) for s in old]
    earlier = [s["id"] for s in old]
    for i, step in enumerate(new):
        ids = [s["id"] for s in steps]
        here = origin.at(i)
        for k in step:
            origins[key_path + (step["id"], k)] = here.at(k)
        if step.get("remove"):
            for k in step:
                if k not in ("id", "remove"):
                    diags.error(here.loaded.locate_key(here.path + (k,)), f"`remove: true` removes the flow step "
                                f"`{step['id']}`: its `{k}` would be ignored", "remove the step, or leave out `remove`")
            if step["id"] in ids:
                steps.pop(ids.index(step["id"]))
            else:
                diags.error(here.at("id").loc, f"cannot remove flow step `{step['id']}`: no such step",
                            suggest(step["id"], ids))
            continue
        anchor = step.get("before") or step.get("after")
        clean = {k: v for k, v in step.items() if k not in ("before", "after")}
        if variant and step["id"] not in ids:
            _warn_new_id(step["id"], earlier, here, key_path, diags)
        key = "before" if "before" in step else "after"
        if anchor == step["id"]:
            diags.error(here.at(key).loc, f"flow step `{anchor}` cannot go {key} itself",
                        "name the step it goes before or after")
            continue
        if anchor is not None and anchor not in ids:
            diags.error(here.at(key).loc, f"no flow step `{anchor}` to {'move' if step['id'] in ids else 'insert'} "
                                          f"`{step['id']}` {key}", suggest(anchor, ids))
            continue
        if step["id"] in ids:  # a change to a step of an earlier layer; with an anchor, it moves there
            clean = {**steps.pop(ids.index(step["id"])), **clean}
            if anchor is None:
                steps.insert(ids.index(step["id"]), clean)
                continue
            ids = [s["id"] for s in steps]
        if anchor is None:
            steps.append(clean)
        else:
            steps.insert(ids.index(anchor) + (1 if key == "after" else 0), clean)
    return steps
