"""app/record.py: the records ocp lint defines without generating code (issue 28's start-up)."""

import pytest

from app.findings import Omitted
from app.parse import Limits
from app.policy import Policy


def test_records_compare_and_hash_by_their_members_and_type():
    assert Omitted("schema", "error", 3) == Omitted("schema", "error", 3, at_least=False)
    assert Omitted("schema", "error", 3) != Omitted("schema", "error", 3, at_least=True)
    assert hash(Omitted("schema", "error", 3)) == hash(Omitted("schema", "error", 3))
    assert len({Omitted("schema", "error", 3), Omitted("schema", "error", 3)}) == 1
    # a record is no tuple: it equals no tuple of its members, and cannot be read by position
    assert Omitted("schema", "error", 3) != ("schema", "error", 3, False)
    with pytest.raises(TypeError):
        Omitted("schema", "error", 3)[0]  # type: ignore[index]


def test_a_record_reads_as_its_members():
    assert repr(Limits(100, 8)) == "Limits(max_bytes=100, max_depth=8)"


def test_replace_copies_with_the_members_given_and_refuses_others():
    policy = Policy(select=("OCP-S",))
    changed = policy.replace(fail_on=("secret",))
    assert (changed.select, changed.fail_on, policy.fail_on) == (("OCP-S",), ("secret",), ())
    with pytest.raises(TypeError, match="no member 'fail_onn'"):
        policy.replace(fail_onn=("secret",))


def test_a_record_checks_what_its_own_init_checks():
    with pytest.raises(ValueError, match="max_depth"):
        Limits(max_depth=0)
