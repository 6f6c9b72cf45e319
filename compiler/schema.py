"""JSON Schema validation of loaded rules files, with located, designer-friendly errors."""

from __future__ import annotations

import functools
import importlib.resources
import json
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, relevance
from jsonschema.protocols import Validator
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource
from referencing.jsonschema import DRAFT202012, SchemaRegistry, SchemaResource

from .diagnostics import Diagnostic, Diagnostics, Location, suggest
from .yamlload import JsonDict, JsonPath, Loaded

__all__ = ["load_schema", "validate"]

_SUFFIX = ".schema.json"
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")


@functools.lru_cache(maxsize=None)
def load_schema(name: str) -> dict[str, Any]:
    """Load ``rules/schemas/<name>.schema.json`` (cached; do not mutate the result)."""
    if not _NAME.fullmatch(name) or ".." in name:
        raise ValueError(f"invalid schema name {name!r}")
    res = importlib.resources.files("nidavellir.rules") / "schemas" / f"{name}{_SUFFIX}"
    schema = json.loads(res.read_text(encoding="utf-8"))
    if not isinstance(schema, dict):
        raise ValueError(f"schema {name!r} is not a JSON object")
    return schema


def _retrieve(uri: str) -> SchemaResource:
    """Resolve ``$ref: "other.schema.json"`` to the packaged schema of that name."""
    name = uri.rsplit("/", 1)[-1]
    # (call-arg: referencing marks its attrs classes with a `__dataclass_transform__` that mypy no
    # longer reads, so it does not see their fields as arguments)
    if not name.endswith(_SUFFIX):
        raise NoSuchResource(ref=uri)  # type: ignore[call-arg]
    try:
        contents = load_schema(name[: -len(_SUFFIX)])
    except (OSError, ValueError) as exc:
        raise NoSuchResource(ref=uri) from exc  # type: ignore[call-arg]
    return Resource.from_contents(contents, default_specification=DRAFT202012)


_REGISTRY: SchemaRegistry = Registry(retrieve=_retrieve)  # type: ignore[call-arg]  # (as for NoSuchResource)


@functools.lru_cache(maxsize=256)
def _regex(pattern: str) -> re.Pattern[str]:
    """A schema pattern for Python's `re`: a final `$` matches only at the very end, as in
    JSON Schema (Python's `$` also matches before a final newline)."""
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + "\\Z"
    return re.compile(pattern)


def _pattern(validator: Validator, pattern: str, instance: Any, schema: JsonDict) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not _regex(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


# Draft 2020-12 with an exact `pattern`, and `integer` meaning an integer (YAML `2.0` is not one).
# (no-untyped-call: types-jsonschema leaves `extend` unannotated)
_Validator: type[Validator] = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    validators={"pattern": _pattern},
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda checker, v: isinstance(v, int) and not isinstance(v, bool)),
)

_VALIDATORS: dict[int, tuple[dict[str, Any], Validator]] = {}


def _validator(schema: dict[str, Any]) -> Validator:
    """A (cached) validator; the schema itself is checked once."""
    hit = _VALIDATORS.get(id(schema))
    if hit is None or hit[0] is not schema:
        Draft202012Validator.check_schema(schema)
        if len(_VALIDATORS) > 256:
            _VALIDATORS.clear()
        hit = _VALIDATORS[id(schema)] = (schema, _Validator(schema, registry=_REGISTRY))
    return hit[1]


def is_valid(instance: Any, schema: dict[str, Any]) -> bool:
    """Whether ``instance`` meets ``schema``, reporting nothing."""
    return bool(_validator(schema).is_valid(instance))


def validate(loaded: Loaded, schema: dict[str, Any], diags: Diagnostics) -> bool:
    """Validate ``loaded.data`` against ``schema``; add one located diagnostic per
    problem (sorted by position) to ``diags``. True if there was none."""
    found: dict[tuple[Location | None, str], Diagnostic] = {}
    for error in _validator(schema).iter_errors(loaded.data):
        for specific in _explain(error):
            for diag in _diagnose(loaded, specific, schema):
                found.setdefault((diag.loc, diag.message), diag)
    ordered = sorted(found.values(), key=lambda d: (d.loc.line, d.loc.col) if d.loc else (0, 0))
    diags.extend(ordered)
    return not ordered


def _explain(error: ValidationError) -> list[ValidationError]:
    """For a oneOf/anyOf failure, the errors of the alternative that was most likely
    meant (as ``jsonschema.best_match`` picks it); the failure itself if unclear."""
    if not error.context:
        return [error]
    try:
        ranked = sorted(error.context, key=relevance)
        best = relevance(ranked[0])
        branches = {e.relative_schema_path[0] for e in ranked if relevance(e) == best}
    except TypeError:  # relevance compares paths; mixed str/int parts cannot be ordered
        return [error]
    if len(branches) != 1:
        return [error]
    (branch,) = branches
    return [e for sub in error.context if sub.relative_schema_path[0] == branch for e in _explain(sub)]


# -- messages ---------------------------------------------------------------

_TYPES = {
    "object": "mapping",
    "array": "list",
    "string": "string",
    "integer": "integer",
    "number": "number",
    "boolean": "boolean",
    "null": "empty value",
}


def _show(value: object) -> str:
    """A short, one-line rendering of a value, in backticks."""
    if isinstance(value, dict):
        return "this mapping"
    if isinstance(value, list):
        return "this list"
    text = value if isinstance(value, str) else json.dumps(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return "`" + text.replace("\n", "\\n").replace("\t", "\\t") + "`"


def _plain(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _describe(value: object) -> str:
    """What a value is, e.g. "string `abc`", "integer `3`", "mapping"."""
    if value is None:
        return "an empty value"
    if isinstance(value, bool):
        return f"boolean {_show(value)}"
    if isinstance(value, int):
        return f"integer {_show(value)}"
    if isinstance(value, float):
        return f"number {_show(value)}"
    if isinstance(value, str):
        return f"string {_show(value)}"
    return "a mapping" if isinstance(value, dict) else "a list"


def _choices(values: list[Any], limit: int = 12) -> str:
    shown = [_plain(v) for v in values[:limit]]
    more = f" (and {len(values) - limit} more)" if len(values) > limit else ""
    return ", ".join(shown) + more


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _diagnose(loaded: Loaded, error: ValidationError, root: dict[str, Any]) -> list[Diagnostic]:
    """Turn one jsonschema error into located, friendly diagnostics."""
    path: JsonPath = tuple(error.absolute_path)
    kind, inst, sub = error.validator, error.instance, error.schema
    expected: Any = error.validator_value  # the failed keyword's value in the schema
    loc = loaded.locate(path)
    if kind in ("additionalProperties", "unevaluatedProperties") and isinstance(inst, dict):
        allowed = _known_keys(sub, root)
        extras = _extra_keys(error, inst)
        if extras:
            options = [a for a in allowed if a not in inst]
            listing = f"allowed keys: {_choices(allowed)}" if 0 < len(allowed) <= 12 else None
            return [
                Diagnostic(
                    loaded.locate_key(path + (k,)),
                    f"unknown key `{k}`",
                    suggest(k, options) or listing,
                )
                for k in extras
            ]
    if kind == "required" and isinstance(inst, dict):
        missing = [p for p in expected if p not in inst]
        named = [p for p in missing if error.message.startswith(repr(p))] or missing
        return [Diagnostic(loc, f"missing required key `{p}`") for p in named]
    if kind == "dependentRequired" and isinstance(inst, dict):
        return [
            Diagnostic(loaded.locate_key(path + (key,)), f"key `{key}` requires key `{dep}`")
            for key, deps in expected.items()
            if key in inst
            for dep in deps
            if dep not in inst
        ]
    if "propertyNames" in error.absolute_schema_path and isinstance(inst, str):
        at = loaded.locate_key(path + (inst,))
        return [Diagnostic(at, f"invalid key: {d.message}", d.hint) for d in _leaf(error, inst, loc)]
    if kind == "uniqueItems" and isinstance(inst, list):
        return _repeats(loaded, path, inst, sub)
    if kind == "not" and isinstance(inst, dict) and isinstance(expected, dict) and set(expected) == {"required"}:
        keys = [k for k in expected["required"] if k in inst]  # (all of them: that is why `not` failed)
        what = " and ".join(f"`{k}`" for k in keys)
        message = f"{what} cannot be given together" if len(keys) > 1 else f"key {what} is not allowed here"
        hint = sub.get("description") if isinstance(sub, dict) else None
        last = [k for k in inst if k in keys][-1]  # located at the one written last
        return [Diagnostic(loaded.locate_key(path + (last,)), message, hint)]
    if kind is None and sub is False:  # a `false` subschema, e.g. properties: {old: false}
        banned = _false_keys(loaded, error, root)
        if banned:
            return [Diagnostic(loaded.locate_key(k), f"key `{k[-1]}` is not allowed here") for k in banned]
    if kind in ("oneOf", "anyOf"):
        return [Diagnostic(loc, _no_form(loaded, error, inst, root))]
    return _leaf(error, inst, loc)


def _repeats(loaded: Loaded, path: JsonPath, items: list[Any], sub: Any) -> list[Diagnostic]:
    """Each item of a list whose items must be unique that repeats an earlier one, located at the
    repeat and naming the first; the list's description is the hint."""
    first: dict[str, int] = {}
    out = []
    names = [p for p in path if isinstance(p, str)]
    name = ".".join(names[-2:]) if names and names[-1].isdigit() else names[-1] if names else None
    within = f" in `{name}`" if name else ""  # (a table's key, a number of players: with the table's name)
    hint = sub.get("description") if isinstance(sub, dict) and isinstance(sub.get("description"), str) else None
    for i, item in enumerate(items):
        key = json.dumps(item, sort_keys=True)
        if key in first:
            out.append(Diagnostic(loaded.locate(path + (i,)), f"{_show(item)} is listed twice{within} (first at "
                                                              f"{loaded.locate(path + (first[key],))})",
                                  hint or "list each item once"))
        first.setdefault(key, i)
    return out


def _leaf(error: ValidationError, inst: Any, loc: Location) -> list[Diagnostic]:
    """Diagnostics for the keywords that judge a single value."""
    kind, sub = error.validator, error.schema
    expected: Any = error.validator_value  # the failed keyword's value in the schema
    hint = None
    if kind in ("enum", "const"):
        values = list(expected) if kind == "enum" else [expected]
        message = f"{_show(inst)} is not one of: {_choices(values)}"
        if isinstance(inst, str):
            hint = suggest(inst, [v for v in values if isinstance(v, str)])
    elif kind == "type":
        types = [expected] if isinstance(expected, str) else list(expected)
        message = f"expected {' or '.join(_TYPES.get(t, t) for t in types)}, got {_describe(inst)}"
    elif kind == "pattern":
        described = sub.get("description") if isinstance(sub, dict) else None
        form = f": {described}" if described else f" `{expected}`"
        message = f"{_show(inst)} does not match the expected form{form}"
    elif isinstance(kind, str) and kind in _BOUNDS:
        message = _BOUNDS[kind](inst, expected)
    elif kind == "format":
        message = f"{_show(inst)} is not a valid {expected}"
    elif kind in ("not", None):  # None: a `false` subschema
        message = f"{_show(inst)} is not allowed here"
    else:
        message = error.message
    return [Diagnostic(loc, message, hint)]


def _size(inst: Any) -> int:
    return len(inst) if isinstance(inst, (str, list, dict)) else 0


_BOUNDS: dict[str, Callable[[Any, Any], str]] = {  # keyword -> message for (value, bound)
    "minimum": lambda v, n: f"{_show(v)} is too small: the minimum is {n}",
    "maximum": lambda v, n: f"{_show(v)} is too large: the maximum is {n}",
    "exclusiveMinimum": lambda v, n: f"{_show(v)} is too small: it must be greater than {n}",
    "exclusiveMaximum": lambda v, n: f"{_show(v)} is too large: it must be less than {n}",
    "multipleOf": lambda v, n: f"{_show(v)} is not a multiple of {n}",
    "minLength": lambda v, n: f"{_show(v)} is too short: at least {_count(n, 'character')} expected",
    "maxLength": lambda v, n: f"{_show(v)} is too long: at most {_count(n, 'character')} allowed",
    "minItems": lambda v, n: f"expected at least {_count(n, 'item')}, got {_size(v)}",
    "maxItems": lambda v, n: f"expected at most {_count(n, 'item')}, got {_size(v)}",
    "minProperties": lambda v, n: f"expected at least {_count(n, 'key')}, got {_size(v)}",
    "maxProperties": lambda v, n: f"expected at most {_count(n, 'key')}, got {_size(v)}",
}


def _pointer(root: Any, parts: Iterable[str | int]) -> Any:
    """Follow a JSON pointer (as parts) into ``root``; None if it leads nowhere."""
    node = root
    for part in parts:
        try:
            node = node[int(part) if isinstance(node, list) else part]
        except (KeyError, IndexError, TypeError, ValueError):
            return None
    return node


def _known_keys(sub: object, root: dict[str, Any], depth: int = 0) -> list[str]:
    """Property names a schema declares, including through allOf/anyOf/oneOf,
    if/then/else and local ``$ref`` (best effort, for hints)."""
    if not isinstance(sub, dict) or depth > 8:
        return []
    keys = list(sub.get("properties", {}))
    parts: list[Any] = [sub.get(k) for k in ("if", "then", "else")]
    for k in ("allOf", "anyOf", "oneOf"):
        parts += sub.get(k, [])
    ref = sub.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        parts.append(_pointer(root, [p.replace("~1", "/").replace("~0", "~") for p in ref[1:].split("/")[1:]]))
    for part in parts:
        keys += [k for k in _known_keys(part, root, depth + 1) if k not in keys]
    return keys


def _false_keys(loaded: Loaded, error: ValidationError, root: dict[str, Any]) -> list[JsonPath]:
    """Paths of the keys forbidden by ``properties: {key: false}`` (jsonschema does not
    say which key it was)."""
    path = tuple(error.absolute_path)
    properties, data = _pointer(root, error.absolute_schema_path), _pointer(loaded.data, path)
    if not isinstance(properties, dict) or not isinstance(data, dict):
        return []
    return [path + (k,) for k in data if properties.get(k) is False]


def _extra_keys(error: ValidationError, inst: JsonDict) -> list[str]:
    """The keys of `inst` an additional/unevaluatedProperties error complains about."""
    sub = error.schema
    if error.validator == "additionalProperties" and isinstance(sub, dict):
        declared, patterns = sub.get("properties", {}), list(sub.get("patternProperties", {}))
        return [k for k in inst if k not in declared and not any(re.search(p, k) for p in patterns)]
    return [k for k in inst if repr(k) in error.message]  # the message names them


def _no_form(loaded: Loaded, error: ValidationError, inst: Any, root: dict[str, Any]) -> str:
    """Message for a oneOf/anyOf failure with no single best explanation."""
    if not error.context:  # oneOf matched several alternatives
        return f"{_show(inst)} matches more than one of the allowed forms"
    own = [sub for sub in error.context if not sub.relative_path]  # about the value itself
    if own and all(sub.validator == "type" for sub in own):
        types: list[str] = []
        for sub in own:
            value: Any = sub.validator_value  # a type name, or a list of them
            for t in [value] if isinstance(value, str) else value:
                if _TYPES.get(t, t) not in types:
                    types.append(_TYPES.get(t, t))
        return f"expected {' or '.join(types)}, got {_describe(inst)}"
    reasons: list[str] = []
    for sub in own:
        for d in _diagnose(loaded, sub, root):
            if d.message not in reasons:
                reasons.append(d.message)
    detail = f": {'; or '.join(reasons[:4])}" if reasons else ""
    return f"{_show(inst)} does not match any of the allowed forms{detail}"
