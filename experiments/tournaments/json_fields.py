"""Dataclasses read back from JSON with every field checked against its type hint, so a damaged
or foreign file is refused with the field named instead of failing later, far from the file."""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from typing import Any, TypeVar

T = TypeVar("T")


def from_json_object(cls: type[T], data: object) -> T:
    """An instance of the dataclass ``cls`` from a decoded JSON object.

    Lists become tuples where the hint is a tuple; ints pass where a float is wanted; bools are
    not numbers. Fields with defaults may be missing.

    :raises ValueError: ``data`` is not an object, a key is unknown or missing, or a value does
        not match its field's type (the message names the field).
    """
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, got {_json_name(data)}")
    fields = {field.name: field for field in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise ValueError(f"unknown field {unknown[0]!r}")
    hints = typing.get_type_hints(cls)
    values = {}
    for name, field in fields.items():
        if name not in data:
            if (
                field.default is dataclasses.MISSING
                and field.default_factory is dataclasses.MISSING
            ):
                raise ValueError(f"missing field {name!r}")
            continue
        try:
            values[name] = _convert(data[name], hints[name])
        except ValueError as error:
            raise ValueError(f"field {name!r}: {error}") from None
    return cls(**values)


def _convert(value: object, hint: Any) -> Any:
    """``value`` as ``hint`` wants it, or ValueError."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        for option in args:
            try:
                return _convert(value, option)
            except ValueError:
                continue
        raise ValueError(f"{_json_name(value)} is not {_hint_name(hint)}")
    if origin is tuple:
        if not isinstance(value, list):
            raise ValueError(f"expected a list, got {_json_name(value)}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(item, args[0]) for item in value)
        if len(value) != len(args):
            raise ValueError(f"expected {len(args)} items, got {len(value)}")
        return tuple(_convert(item, arg) for item, arg in zip(value, args, strict=True))
    if hint is type(None):
        if value is not None:
            raise ValueError(f"expected null, got {_json_name(value)}")
        return None
    if hint is bool:
        if not isinstance(value, bool):
            raise ValueError(f"expected true or false, got {_json_name(value)}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"expected a whole number, got {_json_name(value)}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"expected a number, got {_json_name(value)}")
        if not math.isfinite(value):
            raise ValueError(f"expected a finite number, got {value}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise ValueError(f"expected a string, got {_json_name(value)}")
        return value
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return from_json_object(hint, value)
    raise TypeError(f"from_json_object: no JSON reading for the type {hint!r}")


def _json_name(value: object) -> str:
    """How the JSON value reads in a message: ``a string ("zero")``, ``a list``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | str):
        return f"{type(value).__name__} {value!r}"
    if isinstance(value, dict):
        return "an object"
    return "a list" if isinstance(value, list) else type(value).__name__


def _hint_name(hint: Any) -> str:
    args = typing.get_args(hint)
    return " or ".join(
        "null" if arg is type(None) else getattr(arg, "__name__", str(arg)) for arg in args
    )
