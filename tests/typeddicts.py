"""Whether a value read back from JSON is of the type a snapshot's TypedDict names: what
mypy cannot check of what a reader trusts (the engine's `GameSnapshot`, the bot's
`TableSnapshot`)."""

from __future__ import annotations

import types
from typing import (
    ForwardRef,
    NotRequired,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)


def is_json(value: object) -> bool:
    """Whether `value` is what JSON holds (`engine.jsonvalue.Json`)."""
    if isinstance(value, list):
        return all(is_json(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and is_json(v) for k, v in value.items())
    return value is None or isinstance(value, (bool, int, float, str))


def conforms(value: object, hint: object) -> bool:
    """Whether a JSON value is of the type `hint` names (tuples as JSON lists, positionally;
    a bool is not an int; a TypedDict has its required keys and no other than its own)."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is None or hint is type(None):
        return value is None
    if isinstance(hint, ForwardRef):  # `Json`, recursive, left unresolved by get_type_hints
        return is_json(value)
    if origin is Union or origin is types.UnionType:
        return any(conforms(value, arg) for arg in args)
    if origin is list:
        return isinstance(value, list) and all(conforms(v, args[0]) for v in value)
    if origin is tuple:
        return isinstance(value, list) and len(value) == len(args) \
            and all(conforms(v, arg) for v, arg in zip(value, args, strict=True))
    if origin is dict:
        return isinstance(value, dict) and all(
            conforms(k, args[0]) and conforms(v, args[1]) for k, v in value.items())
    if isinstance(hint, type) and is_typeddict(hint):
        hints = get_type_hints(hint)
        required = {key for key, h in get_type_hints(hint, include_extras=True).items()
                    if get_origin(h) is not NotRequired}
        return isinstance(value, dict) and required <= set(value) <= set(hints) \
            and all(conforms(v, hints[k]) for k, v in value.items())
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    assert hint in (str, bool), hint
    return isinstance(value, hint)
