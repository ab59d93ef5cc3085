"""Payload rules the fake enforces since stop 48: a pre-filled text input shorter than its
min_length, the empty one included, is refused; it is accepted at it, and so is an empty
one where no min_length constrains it, or none at all."""

from __future__ import annotations

import pytest

from fakediscord import UserActionError
from fakediscord.client import _submitted
from fakediscord.limits import check_modal

from .test_payload_limits47 import _refused, _text_input


def test_a_prefilled_value_reaches_the_inputs_min_length() -> None:
    check_modal(_text_input(min_length=3, value="abc"))
    check_modal(_text_input(value=""))  # no min_length: Discord takes ""
    check_modal(_text_input(min_length=3))  # no value: the field starts empty
    check_modal(_text_input(min_length=0, value=""))
    for short in ("ab", ""):
        errors = _refused(check_modal, _text_input(min_length=3, value=short))
        assert "'value'" in errors and "BASE_TYPE_MIN_LENGTH" in errors
        assert "Must be 3 or more in length." in errors


def test_a_submitted_value_is_held_to_min_length_unless_left_empty_where_optional() -> None:
    """What the player's client lets through (`client._submitted`): a field typed shorter
    than its min_length cannot be sent; an optional one left empty can."""
    field = {"type": 4, "custom_id": "v", "style": 1, "min_length": 3}
    with pytest.raises(UserActionError, match="3 to 4000"):
        _submitted(field, {"v": "ab"})
    with pytest.raises(UserActionError, match="required"):
        _submitted(field, {"v": ""})
    assert _submitted(field, {"v": "abc"}) == {"type": 4, "custom_id": "v", "value": "abc"}
    optional = {**field, "required": False}
    assert _submitted(optional, {"v": ""}) == {"type": 4, "custom_id": "v", "value": ""}
