"""The one bounded parser for every number read from a user's file: rules YAML (values and mapping
keys), effect DSL literals, positions, decision logs and simulation manifests (JSON).

A number is refused, in its own words, before anything converts it: its text longer than MAX_TEXT
characters, or its value beyond MAX_MAGNITUDE either way, or not finite. So no conversion is slow
and Python's limit on the digits `int()` converts (4300) is never reached from input. What range a
number may take at its place (a coin's value, a player count) is the schema's and the checker's to
say; this bound only keeps every number small enough to be read at all.
"""
from __future__ import annotations

import json
import math
from typing import Any, TypeGuard

__all__ = ["MAX_DIGITS", "MAX_MAGNITUDE", "MAX_TEXT", "MAX_SEED", "NumberError", "parse_int", "parse_float",
           "bounded", "key_int", "is_numeral", "json_loads", "is_seed"]

MAX_DIGITS = 15
MAX_MAGNITUDE = 10 ** MAX_DIGITS - 1  # exact as an int and as a float (below 2**53)
MAX_TEXT = 40  # characters of a numeral's text: its sign, digits, `_` separators, prefix, exponent

# A game's seed, wherever one is given or read back (`--seed` and the last game S + G − 1 of a run, a
# log's header, a simulation's manifest and records): one bound, so every seed played is read back.
MAX_SEED = 10 ** 12

HINT = f"a number in the rules, a position or a log has at most {MAX_DIGITS} digits"


class NumberError(ValueError):
    """A numeral that is refused; `message` and `hint` are what to show (the caller locates it)."""

    def __init__(self, message: str, hint: str | None = HINT) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:40] + "..."


def _too_long(text: str) -> NumberError:
    return NumberError(f"`{_short(text)}` is too long a number ({len(text)} characters; at most {MAX_TEXT})")


def bounded(value: float, text: str) -> Any:
    """`value` (read from `text`) if it is finite and within MAX_MAGNITUDE; else NumberError."""
    if value != value:  # NaN
        return _raise(NumberError(f"`{_short(text)}` is not a number", "write a number"))
    if math.isinf(value) and "inf" in text.lower():
        return _raise(NumberError(f"`{_short(text)}` is not a finite number", "write a number"))
    if math.isinf(value) or abs(value) > MAX_MAGNITUDE:
        return _raise(NumberError(f"`{_short(text)}` is too large a number (at most {MAX_DIGITS} digits)"))
    return value


def _raise(err: NumberError) -> Any:
    raise err


def _check_text(text: str) -> None:
    if len(text) > MAX_TEXT:
        raise _too_long(text)


def _sexagesimal(text: str, kind: type[int] | type[float]) -> float:
    total: float = kind(0)
    for part in text.split(":"):
        total = total * 60 + kind(part)
    return total


def parse_int(text: str, yaml: bool = False) -> int:
    """An integer written in decimal (ASCII digits, an optional sign); with `yaml`, in any of YAML
    1.1's forms as PyYAML's resolver matches them (`_` separators, `0b`, `0x`, leading-0 octal,
    sexagesimal `1:30`). NumberError if it is too long, too large or not an integer."""
    _check_text(text)
    try:
        if not yaml:
            body = text[1:] if text[:1] in "+-" else text
            if not (body.isascii() and body.isdigit()):
                raise ValueError(text)
            value = int(text)
        else:
            value = _yaml_int(text)
    except ValueError:
        raise NumberError(f"`{_short(text)}` is not a valid integer", None) from None
    result: int = bounded(value, text)
    return result


def _yaml_int(text: str) -> int:
    v = text.replace("_", "")
    sign = -1 if v[:1] == "-" else 1
    v = v.lstrip("+-")
    if v.startswith("0b"):
        return sign * int(v[2:], 2)
    if v.startswith("0x"):
        return sign * int(v[2:], 16)
    if ":" in v:
        return sign * int(_sexagesimal(v, int))
    if v.startswith("0") and v != "0":
        return sign * int(v, 8)
    return sign * int(v)


def parse_float(text: str, yaml: bool = False) -> float:
    """A number with a fraction or an exponent (with `yaml`: YAML 1.1's forms, `.inf` and `.nan`
    included, which are refused as not finite). NumberError if too long, too large or not finite."""
    _check_text(text)
    try:
        if yaml:
            v = text.replace("_", "").lower()
            sign = -1.0 if v[:1] == "-" else 1.0
            v = v.lstrip("+-")
            value = sign * (math.inf if v == ".inf" else math.nan if v == ".nan" else
                            _sexagesimal(v, float) if ":" in v else float(v))
        else:
            value = float(text)
    except ValueError:
        raise NumberError(f"`{_short(text)}` is not a valid number", None) from None
    result: float = bounded(value, text)
    return result


def is_numeral(text: str) -> bool:
    """Whether a mapping key is a decimal integer written as text (`"3"`: a per-player table's key)."""
    body = text[1:] if text[:1] in "+-" else text
    return body.isascii() and body.isdigit()


def key_int(key: str | int) -> int:
    """The number a numeric mapping key names (keys are text once loaded: `{2: …}` has the key "2")."""
    return key if isinstance(key, int) and not isinstance(key, bool) else parse_int(str(key))


def is_seed(value: Any) -> TypeGuard[int]:
    """Whether `value` is a game's seed: an integer (not a boolean) from −MAX_SEED to MAX_SEED."""
    return isinstance(value, int) and not isinstance(value, bool) and -MAX_SEED <= value <= MAX_SEED


def _constant(name: str) -> float:
    raise NumberError(f"`{name}` is not a number", "write a number")


def json_loads(text: str | bytes) -> Any:
    """`json.loads` with every number read by the bounded parser (NaN and Infinity refused):
    NumberError for a number beyond the bound, ValueError (json.JSONDecodeError) for bad JSON."""
    return json.loads(text, parse_int=parse_int, parse_float=parse_float, parse_constant=_constant)
