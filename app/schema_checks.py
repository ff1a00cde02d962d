"""The schema stage's screen: whether a value conforms to the OpenCheckpoint schema.

Written by app/schema_codegen.py from schema/opencheckpoint-0.1.schema.json: do not edit it, write it again
(`make schema-checks`). Each function answers for one subschema, named in its comment by its
place in the schema; `conforms` answers for the whole document.
"""

from __future__ import annotations

import re

from app import TYPE_CHECKING
from app.calls import same_value  # JSON's equality, as a call's arguments compare
from app.schema_patterns import is_digest, is_local_id, is_timestamp  # regexes' answers

if TYPE_CHECKING:
    from collections.abc import Callable

    Check = Callable[[object], bool]

# The schema's patterns, in Python's dialect, each compiled when a string first meets it.
_PATTERNS: tuple[str, ...] = ('^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(/[A-Za-z0-9._~-]+)*\\Z',)
_COMPILED: dict[int, re.Pattern[str]] = {}


def _search(index: int, value: str) -> bool:
    pattern = _COMPILED.get(index)
    if pattern is None:
        pattern = _COMPILED[index] = re.compile(_PATTERNS[index])
    return pattern.search(value) is not None


def _always(v: object) -> bool:
    return True


def _never(v: object) -> bool:
    return False


def _s0(v: object) -> bool:
    # /$defs/checkpoint/properties/opencheckpoint
    return (
        same_value(v, _t0)
    )


def _ref1(v: object) -> bool:
    # /$defs/text
    return (
        isinstance(v, str)
        and (not isinstance(v, str) or len(v) >= 1)
    )


def _ref2(v: object) -> bool:
    # /$defs/timestamp
    return (
        isinstance(v, str)
        and (not isinstance(v, str) or is_timestamp(v))
    )


def _ref4(v: object) -> bool:
    # /$defs/digest
    return (
        isinstance(v, str)
        and (not isinstance(v, str) or is_digest(v))
    )


def _s4(v: object) -> bool:
    # /$defs/parent (members)
    if not isinstance(v, dict):
        return True
    for name in _t1:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t2.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref3(v: object) -> bool:
    # /$defs/parent
    return (
        isinstance(v, dict)
        and _s4(v)
    )


def _s6(v: object) -> bool:
    # /$defs/sessionRef (members)
    if not isinstance(v, dict):
        return True
    for name in _t3:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t4.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref6(v: object) -> bool:
    # /$defs/sessionRef
    return (
        isinstance(v, dict)
        and _s6(v)
    )


def _s8(v: object) -> bool:
    # /$defs/source/properties/session_refs
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref6(x) for x in v))
    )


def _ref8(v: object) -> bool:
    # /$defs/extensionKey
    return (
        isinstance(v, str)
        and (not isinstance(v, str) or _search(0, v))
    )


def _s10(v: object) -> bool:
    # /$defs/extensions (members)
    if not isinstance(v, dict):
        return True
    for name, member in v.items():
        if not _ref8(name):
            return False
    return True


def _ref7(v: object) -> bool:
    # /$defs/extensions
    return (
        isinstance(v, dict)
        and _s10(v)
    )


def _s12(v: object) -> bool:
    # /$defs/source (members)
    if not isinstance(v, dict):
        return True
    for name in _t5:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t6.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref5(v: object) -> bool:
    # /$defs/source
    return (
        isinstance(v, dict)
        and _s12(v)
    )


def _s14(v: object) -> bool:
    # /$defs/task/properties/status
    return (
        (isinstance(v, str) and v in _t7)
    )


def _ref11(v: object) -> bool:
    # /$defs/localId
    return (
        isinstance(v, str)
        and (not isinstance(v, str) or is_local_id(v))
    )


def _s16(v: object) -> bool:
    # /$defs/criterion/properties/status
    return (
        (isinstance(v, str) and v in _t8)
    )


def _ref12(v: object) -> bool:
    # /$defs/idRef
    return (
        isinstance(v, str)
    )


def _s18(v: object) -> bool:
    # /$defs/criterion/properties/evidence
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref12(x) for x in v))
    )


def _s19(v: object) -> bool:
    # /$defs/criterion (members)
    if not isinstance(v, dict):
        return True
    for name in _t9:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t10.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref10(v: object) -> bool:
    # /$defs/criterion
    return (
        isinstance(v, dict)
        and _s19(v)
    )


def _s21(v: object) -> bool:
    # /$defs/task/properties/success_criteria
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref10(x) for x in v))
    )


def _s22(v: object) -> bool:
    # /$defs/scope/properties/includes
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref1(x) for x in v))
    )


def _s23(v: object) -> bool:
    # /$defs/scope/properties/excludes
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref1(x) for x in v))
    )


def _s24(v: object) -> bool:
    # /$defs/scope (members)
    if not isinstance(v, dict):
        return True
    for name, member in v.items():
        sub = _t11.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref13(v: object) -> bool:
    # /$defs/scope
    return (
        isinstance(v, dict)
        and _s24(v)
    )


def _s26(v: object) -> bool:
    # /$defs/task (members)
    if not isinstance(v, dict):
        return True
    for name in _t12:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t13.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref9(v: object) -> bool:
    # /$defs/task
    return (
        isinstance(v, dict)
        and _s26(v)
    )


def _s28(v: object) -> bool:
    # /$defs/step/properties/evidence
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref12(x) for x in v))
    )


def _s29(v: object) -> bool:
    # /$defs/step (members)
    if not isinstance(v, dict):
        return True
    for name in _t14:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t15.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref15(v: object) -> bool:
    # /$defs/step
    return (
        isinstance(v, dict)
        and _s29(v)
    )


def _s31(v: object) -> bool:
    # /$defs/progress/properties/completed
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref15(x) for x in v))
    )


def _s32(v: object) -> bool:
    # /$defs/focus/properties/refs
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref12(x) for x in v))
    )


def _s33(v: object) -> bool:
    # /$defs/focus (members)
    if not isinstance(v, dict):
        return True
    for name in _t16:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t17.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref16(v: object) -> bool:
    # /$defs/focus
    return (
        isinstance(v, dict)
        and _s33(v)
    )


def _s35(v: object) -> bool:
    # /$defs/nextStep/properties/blocked_by
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref12(x) for x in v))
    )


def _s36(v: object) -> bool:
    # /$defs/nextStep/properties/requires
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref12(x) for x in v))
    )


def _s37(v: object) -> bool:
    # /$defs/nextStep/properties/refs
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref12(x) for x in v))
    )


def _s38(v: object) -> bool:
    # /$defs/nextStep (members)
    if not isinstance(v, dict):
        return True
    for name in _t18:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t19.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref17(v: object) -> bool:
    # /$defs/nextStep
    return (
        isinstance(v, dict)
        and _s38(v)
    )


def _s40(v: object) -> bool:
    # /$defs/progress/properties/next
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref17(x) for x in v))
    )


def _s41(v: object) -> bool:
    # /$defs/progress (members)
    if not isinstance(v, dict):
        return True
    for name, member in v.items():
        sub = _t20.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref14(v: object) -> bool:
    # /$defs/progress
    return (
        isinstance(v, dict)
        and _s41(v)
    )


def _s43(v: object) -> bool:
    # /$defs/statement/properties/kind
    return (
        (isinstance(v, str) and v in _t21)
    )


def _s44(v: object) -> bool:
    # /$defs/origin/properties/type
    return (
        (isinstance(v, str) and v in _t22)
    )


def _s45(v: object) -> bool:
    # /$defs/origin (members)
    if not isinstance(v, dict):
        return True
    for name in _t23:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t24.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref19(v: object) -> bool:
    # /$defs/origin
    return (
        isinstance(v, dict)
        and _s45(v)
    )


def _s47(v: object) -> bool:
    # /$defs/statement/properties/status
    return (
        (isinstance(v, str) and v in _t25)
    )


def _s48(v: object) -> bool:
    # /$defs/statement/properties/evidence
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref12(x) for x in v))
    )


def _s49(v: object) -> bool:
    # /$defs/verification/properties/state
    return (
        (isinstance(v, str) and v in _t26)
    )


def _s50(v: object) -> bool:
    # /$defs/verification/properties/revalidate
    return (
        (isinstance(v, str) and v in _t27)
    )


def _s51(v: object) -> bool:
    # /$defs/verification (members)
    if not isinstance(v, dict):
        return True
    for name in _t28:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t29.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref20(v: object) -> bool:
    # /$defs/verification
    return (
        isinstance(v, dict)
        and _s51(v)
    )


def _s53(v: object) -> bool:
    # /$defs/statement (members)
    if not isinstance(v, dict):
        return True
    for name in _t30:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t31.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _s54(v: object) -> bool:
    # /$defs/statement/allOf/0/if/properties/kind
    return (
        same_value(v, _t32)
    )


def _s55(v: object) -> bool:
    # /$defs/statement/allOf/0/if (members)
    if not isinstance(v, dict):
        return True
    for name in _t33:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t34.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s56(v: object) -> bool:
    # /$defs/statement/allOf/0/then/properties/origin/properties/type
    return (
        (isinstance(v, str) and v in _t35)
    )


def _s57(v: object) -> bool:
    # /$defs/statement/allOf/0/then/properties/origin (members)
    if not isinstance(v, dict):
        return True
    for name, member in v.items():
        sub = _t36.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s58(v: object) -> bool:
    # /$defs/statement/allOf/0/then (members)
    if not isinstance(v, dict):
        return True
    for name, member in v.items():
        sub = _t37.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s59(v: object) -> bool:
    # /$defs/statement/allOf/0
    return (
        (not _s55(v) or _s58(v))
    )


def _s60(v: object) -> bool:
    # /$defs/statement/allOf/1/if/properties/kind
    return (
        same_value(v, _t38)
    )


def _s61(v: object) -> bool:
    # /$defs/statement/allOf/1/if (members)
    if not isinstance(v, dict):
        return True
    for name in _t39:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t40.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s62(v: object) -> bool:
    # /$defs/statement/allOf/1/then/properties/origin/properties/type/not
    return (
        (isinstance(v, str) and v in _t41)
    )


def _s63(v: object) -> bool:
    # /$defs/statement/allOf/1/then/properties/origin/properties/type
    return (
        not _s62(v)
    )


def _s64(v: object) -> bool:
    # /$defs/statement/allOf/1/then/properties/origin (members)
    if not isinstance(v, dict):
        return True
    for name, member in v.items():
        sub = _t42.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s65(v: object) -> bool:
    # /$defs/statement/allOf/1/then (members)
    if not isinstance(v, dict):
        return True
    for name, member in v.items():
        sub = _t43.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s66(v: object) -> bool:
    # /$defs/statement/allOf/1
    return (
        (not _s61(v) or _s65(v))
    )


def _s67(v: object) -> bool:
    # /$defs/statement/allOf/2/if/properties/kind
    return (
        same_value(v, _t44)
    )


def _s68(v: object) -> bool:
    # /$defs/statement/allOf/2/if (members)
    if not isinstance(v, dict):
        return True
    for name in _t45:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t46.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s69(v: object) -> bool:
    # /$defs/statement/allOf/2/then (members)
    if not isinstance(v, dict):
        return True
    for name in _t47:
        if name not in v:
            return False
    return True


def _s70(v: object) -> bool:
    # /$defs/statement/allOf/2
    return (
        (not _s68(v) or _s69(v))
    )


def _s71(v: object) -> bool:
    # /$defs/statement/allOf/3/if/properties/kind
    return (
        same_value(v, _t48)
    )


def _s72(v: object) -> bool:
    # /$defs/statement/allOf/3/if (members)
    if not isinstance(v, dict):
        return True
    for name in _t49:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t50.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s73(v: object) -> bool:
    # /$defs/statement/allOf/3/then/properties/verification/properties/state/not
    return (
        same_value(v, _t51)
    )


def _s74(v: object) -> bool:
    # /$defs/statement/allOf/3/then/properties/verification/properties/state
    return (
        not _s73(v)
    )


def _s75(v: object) -> bool:
    # /$defs/statement/allOf/3/then/properties/verification (members)
    if not isinstance(v, dict):
        return True
    for name, member in v.items():
        sub = _t52.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s76(v: object) -> bool:
    # /$defs/statement/allOf/3/then (members)
    if not isinstance(v, dict):
        return True
    for name, member in v.items():
        sub = _t53.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s77(v: object) -> bool:
    # /$defs/statement/allOf/3
    return (
        (not _s72(v) or _s76(v))
    )


def _s78(v: object) -> bool:
    # /$defs/statement/allOf/4/if/properties/status
    return (
        same_value(v, _t54)
    )


def _s79(v: object) -> bool:
    # /$defs/statement/allOf/4/if (members)
    if not isinstance(v, dict):
        return True
    for name in _t55:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t56.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s80(v: object) -> bool:
    # /$defs/statement/allOf/4/then/properties/kind
    return (
        same_value(v, _t57)
    )


def _s81(v: object) -> bool:
    # /$defs/statement/allOf/4/then (members)
    if not isinstance(v, dict):
        return True
    for name, member in v.items():
        sub = _t58.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s82(v: object) -> bool:
    # /$defs/statement/allOf/4
    return (
        (not _s79(v) or _s81(v))
    )


def _s83(v: object) -> bool:
    # /$defs/statement/allOf/5/if/properties/status
    return (
        same_value(v, _t59)
    )


def _s84(v: object) -> bool:
    # /$defs/statement/allOf/5/if/properties/kind
    return (
        same_value(v, _t60)
    )


def _s85(v: object) -> bool:
    # /$defs/statement/allOf/5/if (members)
    if not isinstance(v, dict):
        return True
    for name in _t61:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t62.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s86(v: object) -> bool:
    # /$defs/statement/allOf/5/then (members)
    if not isinstance(v, dict):
        return True
    for name in _t63:
        if name not in v:
            return False
    return True


def _s87(v: object) -> bool:
    # /$defs/statement/allOf/5
    return (
        (not _s85(v) or _s86(v))
    )


def _s88(v: object) -> bool:
    # /$defs/statement/allOf/6/if (members)
    if not isinstance(v, dict):
        return True
    for name in _t64:
        if name not in v:
            return False
    return True


def _s89(v: object) -> bool:
    # /$defs/statement/allOf/6/then/properties/status
    return (
        same_value(v, _t65)
    )


def _s90(v: object) -> bool:
    # /$defs/statement/allOf/6/then (members)
    if not isinstance(v, dict):
        return True
    for name in _t66:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t67.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s91(v: object) -> bool:
    # /$defs/statement/allOf/6
    return (
        (not _s88(v) or _s90(v))
    )


def _s92(v: object) -> bool:
    # /$defs/statement/allOf/7/if/properties/status
    return (
        same_value(v, _t68)
    )


def _s93(v: object) -> bool:
    # /$defs/statement/allOf/7/if (members)
    if not isinstance(v, dict):
        return True
    for name in _t69:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t70.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s94(v: object) -> bool:
    # /$defs/statement/allOf/7/then (members)
    if not isinstance(v, dict):
        return True
    for name in _t71:
        if name not in v:
            return False
    return True


def _s95(v: object) -> bool:
    # /$defs/statement/allOf/7
    return (
        (not _s93(v) or _s94(v))
    )


def _ref18(v: object) -> bool:
    # /$defs/statement
    return (
        isinstance(v, dict)
        and _s53(v)
        and _s59(v)
        and _s66(v)
        and _s70(v)
        and _s77(v)
        and _s82(v)
        and _s87(v)
        and _s91(v)
        and _s95(v)
    )


def _s97(v: object) -> bool:
    # /$defs/checkpoint/properties/statements
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref18(x) for x in v))
    )


def _s98(v: object) -> bool:
    # /$defs/resource/properties/kind
    return (
        (isinstance(v, str) and v in _t72)
    )


def _s99(v: object) -> bool:
    # /$defs/locator (members)
    if not isinstance(v, dict):
        return True
    for name in _t73:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t74.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref22(v: object) -> bool:
    # /$defs/locator
    return (
        isinstance(v, dict)
        and _s99(v)
    )


def _s101(v: object) -> bool:
    # /$defs/resource/properties/availability
    return (
        (isinstance(v, str) and v in _t75)
    )


def _s102(v: object) -> bool:
    # /$defs/resource/properties/excerpt
    return (
        isinstance(v, str)
        and (not isinstance(v, str) or len(v) <= 4096)
    )


def _s103(v: object) -> bool:
    # /$defs/resource/properties/sensitivity
    return (
        (isinstance(v, str) and v in _t76)
    )


def _s104(v: object) -> bool:
    # /$defs/resource (members)
    if not isinstance(v, dict):
        return True
    for name in _t77:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t78.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _s105(v: object) -> bool:
    # /$defs/resource/allOf/0/anyOf/0 (members)
    if not isinstance(v, dict):
        return True
    for name in _t79:
        if name not in v:
            return False
    return True


def _s106(v: object) -> bool:
    # /$defs/resource/allOf/0/anyOf/1 (members)
    if not isinstance(v, dict):
        return True
    for name in _t80:
        if name not in v:
            return False
    return True


def _s107(v: object) -> bool:
    # /$defs/resource/allOf/0
    return (
        (_s105(v) or _s106(v))
    )


def _ref21(v: object) -> bool:
    # /$defs/resource
    return (
        isinstance(v, dict)
        and _s104(v)
        and _s107(v)
    )


def _s109(v: object) -> bool:
    # /$defs/checkpoint/properties/resources
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref21(x) for x in v))
    )


def _s110(v: object) -> bool:
    # /$defs/selection/properties/role
    return (
        (isinstance(v, str) and v in _t81)
    )


def _s111(v: object) -> bool:
    # /$defs/selection (members)
    if not isinstance(v, dict):
        return True
    for name in _t82:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t83.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref24(v: object) -> bool:
    # /$defs/selection
    return (
        isinstance(v, dict)
        and _s111(v)
    )


def _s113(v: object) -> bool:
    # /$defs/applicationContextEntry/properties/selections
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref24(x) for x in v))
    )


def _s114(v: object) -> bool:
    # /$defs/applicationContextEntry/properties/filters
    return (
        isinstance(v, dict)
    )


def _s115(v: object) -> bool:
    # /$defs/draft/properties/status
    return (
        (isinstance(v, str) and v in _t84)
    )


def _s116(v: object) -> bool:
    # /$defs/draft/properties/content
    return (
        isinstance(v, str)
        and (not isinstance(v, str) or len(v) <= 16384)
    )


def _s117(v: object) -> bool:
    # /$defs/draft (members)
    if not isinstance(v, dict):
        return True
    for name in _t85:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t86.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref25(v: object) -> bool:
    # /$defs/draft
    return (
        isinstance(v, dict)
        and _s117(v)
    )


def _s119(v: object) -> bool:
    # /$defs/applicationContextEntry/properties/drafts
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref25(x) for x in v))
    )


def _s120(v: object) -> bool:
    # /$defs/applicationContextEntry/properties/state
    return (
        isinstance(v, dict)
    )


def _s121(v: object) -> bool:
    # /$defs/applicationContextEntry (members)
    if not isinstance(v, dict):
        return True
    for name in _t87:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t88.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref23(v: object) -> bool:
    # /$defs/applicationContextEntry
    return (
        isinstance(v, dict)
        and _s121(v)
    )


def _s123(v: object) -> bool:
    # /$defs/checkpoint/properties/application_context
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref23(x) for x in v))
    )


def _s124(v: object) -> bool:
    # /$defs/operation/properties/kind
    return (
        (isinstance(v, str) and v in _t89)
    )


def _ref27(v: object) -> bool:
    # /$defs/operationStatus
    return (
        (isinstance(v, str) and v in _t90)
    )


def _s126(v: object) -> bool:
    # /$defs/operation/properties/effect
    return (
        (isinstance(v, str) and v in _t91)
    )


def _s127(v: object) -> bool:
    # /$defs/call/properties/arguments
    return (
        isinstance(v, dict)
    )


def _s128(v: object) -> bool:
    # /$defs/call (members)
    if not isinstance(v, dict):
        return True
    for name in _t92:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t93.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref28(v: object) -> bool:
    # /$defs/call
    return (
        isinstance(v, dict)
        and _s128(v)
    )


def _s130(v: object) -> bool:
    # /$defs/operation/properties/resume
    return (
        (isinstance(v, str) and v in _t94)
    )


def _s131(v: object) -> bool:
    # /$defs/operation/properties/depends_on
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref12(x) for x in v))
    )


def _s132(v: object) -> bool:
    # /$defs/approval/properties/evidence
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref12(x) for x in v))
    )


def _s133(v: object) -> bool:
    # /$defs/approval (members)
    if not isinstance(v, dict):
        return True
    for name in _t95:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t96.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref29(v: object) -> bool:
    # /$defs/approval
    return (
        isinstance(v, dict)
        and _s133(v)
    )


def _s135(v: object) -> bool:
    # /$defs/operation (members)
    if not isinstance(v, dict):
        return True
    for name in _t97:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t98.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _s136(v: object) -> bool:
    # /$defs/operation/allOf/0/if/properties/status
    return (
        (isinstance(v, str) and v in _t99)
    )


def _s137(v: object) -> bool:
    # /$defs/operation/allOf/0/if (members)
    if not isinstance(v, dict):
        return True
    for name in _t100:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t101.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s138(v: object) -> bool:
    # /$defs/operation/allOf/0/then/properties/kind
    return (
        same_value(v, _t102)
    )


def _s139(v: object) -> bool:
    # /$defs/operation/allOf/0/then (members)
    if not isinstance(v, dict):
        return True
    for name in _t103:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t104.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s140(v: object) -> bool:
    # /$defs/operation/allOf/0
    return (
        (not _s137(v) or _s139(v))
    )


def _s141(v: object) -> bool:
    # /$defs/operation/allOf/1/if/properties/status
    return (
        same_value(v, _t105)
    )


def _s142(v: object) -> bool:
    # /$defs/operation/allOf/1/if/properties/effect
    return (
        (isinstance(v, str) and v in _t106)
    )


def _s143(v: object) -> bool:
    # /$defs/operation/allOf/1/if (members)
    if not isinstance(v, dict):
        return True
    for name in _t107:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t108.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s144(v: object) -> bool:
    # /$defs/operation/allOf/1/then/properties/resume/not
    return (
        same_value(v, _t109)
    )


def _s145(v: object) -> bool:
    # /$defs/operation/allOf/1/then/properties/resume
    return (
        not _s144(v)
    )


def _s146(v: object) -> bool:
    # /$defs/operation/allOf/1/then (members)
    if not isinstance(v, dict):
        return True
    for name in _t110:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t111.get(name)
        if sub is not None:
            if not sub(member):
                return False
    return True


def _s147(v: object) -> bool:
    # /$defs/operation/allOf/1
    return (
        (not _s143(v) or _s146(v))
    )


def _ref26(v: object) -> bool:
    # /$defs/operation
    return (
        isinstance(v, dict)
        and _s135(v)
        and _s140(v)
        and _s147(v)
    )


def _s149(v: object) -> bool:
    # /$defs/checkpoint/properties/operations
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref26(x) for x in v))
    )


def _s150(v: object) -> bool:
    # /$defs/requirement/properties/kind
    return (
        (isinstance(v, str) and v in _t112)
    )


def _s151(v: object) -> bool:
    # /$defs/requirement/properties/necessity
    return (
        (isinstance(v, str) and v in _t113)
    )


def _s152(v: object) -> bool:
    # /$defs/requirement/properties/refs
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref12(x) for x in v))
    )


def _s153(v: object) -> bool:
    # /$defs/requirement (members)
    if not isinstance(v, dict):
        return True
    for name in _t114:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t115.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref31(v: object) -> bool:
    # /$defs/requirement
    return (
        isinstance(v, dict)
        and _s153(v)
    )


def _s155(v: object) -> bool:
    # /$defs/continuation/properties/requirements
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref31(x) for x in v))
    )


def _s156(v: object) -> bool:
    # /$defs/precondition/properties/on_failure
    return (
        (isinstance(v, str) and v in _t116)
    )


def _s157(v: object) -> bool:
    # /$defs/precondition/properties/refs
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref12(x) for x in v))
    )


def _s158(v: object) -> bool:
    # /$defs/precondition (members)
    if not isinstance(v, dict):
        return True
    for name in _t117:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t118.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref32(v: object) -> bool:
    # /$defs/precondition
    return (
        isinstance(v, dict)
        and _s158(v)
    )


def _s160(v: object) -> bool:
    # /$defs/continuation/properties/preconditions
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref32(x) for x in v))
    )


def _s161(v: object) -> bool:
    # /$defs/stopCondition/properties/applies_to
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref12(x) for x in v))
    )


def _s162(v: object) -> bool:
    # /$defs/untilEntry (members)
    if not isinstance(v, dict):
        return True
    for name in _t119:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t120.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref34(v: object) -> bool:
    # /$defs/untilEntry
    return (
        isinstance(v, dict)
        and _s162(v)
    )


def _s164(v: object) -> bool:
    # /$defs/stopCondition/properties/until
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref34(x) for x in v))
    )


def _s165(v: object) -> bool:
    # /$defs/stopCondition/properties/refs
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref12(x) for x in v))
    )


def _s166(v: object) -> bool:
    # /$defs/stopCondition (members)
    if not isinstance(v, dict):
        return True
    for name in _t121:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t122.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref33(v: object) -> bool:
    # /$defs/stopCondition
    return (
        isinstance(v, dict)
        and _s166(v)
    )


def _s168(v: object) -> bool:
    # /$defs/continuation/properties/stop_conditions
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref33(x) for x in v))
    )


def _s169(v: object) -> bool:
    # /$defs/recoveryStep/properties/refs
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref12(x) for x in v))
    )


def _s170(v: object) -> bool:
    # /$defs/recoveryStep (members)
    if not isinstance(v, dict):
        return True
    for name in _t123:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t124.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref35(v: object) -> bool:
    # /$defs/recoveryStep
    return (
        isinstance(v, dict)
        and _s170(v)
    )


def _s172(v: object) -> bool:
    # /$defs/continuation/properties/recovery
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref35(x) for x in v))
    )


def _s173(v: object) -> bool:
    # /$defs/incompatibility (members)
    if not isinstance(v, dict):
        return True
    for name in _t125:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t126.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref36(v: object) -> bool:
    # /$defs/incompatibility
    return (
        isinstance(v, dict)
        and _s173(v)
    )


def _s175(v: object) -> bool:
    # /$defs/continuation/properties/incompatibilities
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref36(x) for x in v))
    )


def _s176(v: object) -> bool:
    # /$defs/continuation (members)
    if not isinstance(v, dict):
        return True
    for name, member in v.items():
        sub = _t127.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref30(v: object) -> bool:
    # /$defs/continuation
    return (
        isinstance(v, dict)
        and _s176(v)
    )


def _s178(v: object) -> bool:
    # /$defs/derivation/properties/method
    return (
        (isinstance(v, str) and v in _t128)
    )


def _s179(v: object) -> bool:
    # /$defs/derivationInput/properties/kind
    return (
        (isinstance(v, str) and v in _t129)
    )


def _s180(v: object) -> bool:
    # /$defs/derivationInput (members)
    if not isinstance(v, dict):
        return True
    for name in _t130:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t131.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref38(v: object) -> bool:
    # /$defs/derivationInput
    return (
        isinstance(v, dict)
        and _s180(v)
    )


def _s182(v: object) -> bool:
    # /$defs/derivation/properties/inputs
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref38(x) for x in v))
    )


def _s183(v: object) -> bool:
    # /$defs/omission/properties/reason
    return (
        (isinstance(v, str) and v in _t132)
    )


def _s184(v: object) -> bool:
    # /$defs/omission (members)
    if not isinstance(v, dict):
        return True
    for name in _t133:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t134.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref39(v: object) -> bool:
    # /$defs/omission
    return (
        isinstance(v, dict)
        and _s184(v)
    )


def _s186(v: object) -> bool:
    # /$defs/derivation/properties/omissions
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref39(x) for x in v))
    )


def _s187(v: object) -> bool:
    # /$defs/transformation/properties/affected
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref12(x) for x in v))
    )


def _s188(v: object) -> bool:
    # /$defs/transformation (members)
    if not isinstance(v, dict):
        return True
    for name in _t135:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t136.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref40(v: object) -> bool:
    # /$defs/transformation
    return (
        isinstance(v, dict)
        and _s188(v)
    )


def _s190(v: object) -> bool:
    # /$defs/derivation/properties/transformations
    return (
        isinstance(v, list)
        and (not isinstance(v, list) or len(v) >= 1)
        and (not isinstance(v, list) or all(_ref40(x) for x in v))
    )


def _s191(v: object) -> bool:
    # /$defs/derivation (members)
    if not isinstance(v, dict):
        return True
    for name in _t137:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t138.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref37(v: object) -> bool:
    # /$defs/derivation
    return (
        isinstance(v, dict)
        and _s191(v)
    )


def _s193(v: object) -> bool:
    # /$defs/checkpoint (members)
    if not isinstance(v, dict):
        return True
    for name in _t139:
        if name not in v:
            return False
    for name, member in v.items():
        sub = _t140.get(name)
        if sub is not None:
            if not sub(member):
                return False
        elif not _never(member):
            return False
    return True


def _ref0(v: object) -> bool:
    # /$defs/checkpoint
    return (
        isinstance(v, dict)
        and _s193(v)
    )


_t0 = '0.1'
_t1 = ('id',)
_t2: dict[str, Check] = {'id': _ref1, 'digest': _ref4}
_t3 = ('protocol', 'id')
_t4: dict[str, Check] = {'protocol': _ref1, 'id': _ref1, 'event': _ref1}
_t5 = ('producer',)
_t6: dict[str, Check] = {'producer': _ref1, 'agent': _ref1, 'model': _ref1, 'session_refs': _s8, 'extensions': _ref7}
_t7 = frozenset(['abandoned', 'active', 'awaiting_input', 'blocked', 'completed', 'paused'])
_t8 = frozenset(['met', 'unknown', 'unmet'])
_t9 = ('description', 'status')
_t10: dict[str, Check] = {'id': _ref11, 'description': _ref1, 'status': _s16, 'evidence': _s18}
_t11: dict[str, Check] = {'includes': _s22, 'excludes': _s23}
_t12 = ('objective', 'status')
_t13: dict[str, Check] = {'objective': _ref1, 'outcome': _ref1, 'status': _s14, 'success_criteria': _s21, 'scope': _ref13, 'extensions': _ref7}
_t14 = ('description',)
_t15: dict[str, Check] = {'id': _ref11, 'description': _ref1, 'completed_at': _ref2, 'evidence': _s28}
_t16 = ('description',)
_t17: dict[str, Check] = {'description': _ref1, 'refs': _s32}
_t18 = ('description',)
_t19: dict[str, Check] = {'id': _ref11, 'description': _ref1, 'blocked_by': _s35, 'requires': _s36, 'refs': _s37}
_t20: dict[str, Check] = {'completed': _s31, 'focus': _ref16, 'next': _s40, 'extensions': _ref7}
_t21 = frozenset(['constraint', 'decision', 'external', 'hypothesis', 'instruction', 'observation', 'question'])
_t22 = frozenset(['agent', 'application', 'external', 'system', 'tool', 'user'])
_t23 = ('type',)
_t24: dict[str, Check] = {'type': _s44, 'name': _ref1, 'ref': _ref12}
_t25 = frozenset(['active', 'resolved', 'retracted', 'superseded'])
_t26 = frozenset(['disputed', 'stale', 'unverified', 'verified'])
_t27 = frozenset(['before_action', 'before_use', 'never'])
_t28 = ('state',)
_t29: dict[str, Check] = {'state': _s49, 'checked_at': _ref2, 'method': _ref1, 'revalidate': _s50}
_t30 = ('id', 'kind', 'text', 'origin')
_t31: dict[str, Check] = {'id': _ref11, 'kind': _s43, 'text': _ref1, 'origin': _ref19, 'status': _s47, 'superseded_by': _ref12, 'rationale': _ref1, 'resolution': _ref1, 'evidence': _s48, 'verification': _ref20, 'recorded_at': _ref2, 'extensions': _ref7}
_t32 = 'instruction'
_t33 = ('kind',)
_t34: dict[str, Check] = {'kind': _s54}
_t35 = frozenset(['system', 'user'])
_t36: dict[str, Check] = {'type': _s56}
_t37: dict[str, Check] = {'origin': _s57}
_t38 = 'external'
_t39 = ('kind',)
_t40: dict[str, Check] = {'kind': _s60}
_t41 = frozenset(['system', 'user'])
_t42: dict[str, Check] = {'type': _s63}
_t43: dict[str, Check] = {'origin': _s64}
_t44 = 'decision'
_t45 = ('kind',)
_t46: dict[str, Check] = {'kind': _s67}
_t47 = ('rationale',)
_t48 = 'hypothesis'
_t49 = ('kind',)
_t50: dict[str, Check] = {'kind': _s71}
_t51 = 'verified'
_t52: dict[str, Check] = {'state': _s74}
_t53: dict[str, Check] = {'verification': _s75}
_t54 = 'resolved'
_t55 = ('status',)
_t56: dict[str, Check] = {'status': _s78}
_t57 = 'question'
_t58: dict[str, Check] = {'kind': _s80}
_t59 = 'resolved'
_t60 = 'question'
_t61 = ('status', 'kind')
_t62: dict[str, Check] = {'status': _s83, 'kind': _s84}
_t63 = ('resolution',)
_t64 = ('superseded_by',)
_t65 = 'superseded'
_t66 = ('status',)
_t67: dict[str, Check] = {'status': _s89}
_t68 = 'superseded'
_t69 = ('status',)
_t70: dict[str, Check] = {'status': _s92}
_t71 = ('superseded_by',)
_t72 = frozenset(['artifact', 'dataset', 'document', 'file', 'message', 'other', 'record', 'repository', 'tool_output', 'web_page'])
_t73 = ('system', 'type', 'key')
_t74: dict[str, Check] = {'system': _ref1, 'type': _ref1, 'key': _ref1}
_t75 = frozenset(['available', 'unavailable', 'unknown'])
_t76 = frozenset(['confidential', 'internal', 'public', 'restricted'])
_t77 = ('id',)
_t78: dict[str, Check] = {'id': _ref11, 'kind': _s98, 'title': _ref1, 'description': _ref1, 'uri': _ref1, 'locator': _ref22, 'media_type': _ref1, 'revision': _ref1, 'digest': _ref4, 'observed_at': _ref2, 'availability': _s101, 'resolver': _ref1, 'excerpt': _s102, 'sensitivity': _s103, 'extensions': _ref7}
_t79 = ('uri',)
_t80 = ('locator',)
_t81 = frozenset(['focused', 'open', 'pinned', 'selected'])
_t82 = ('resource', 'role')
_t83: dict[str, Check] = {'resource': _ref12, 'role': _s110, 'detail': _always}
_t84 = frozenset(['saved', 'submitted', 'unsaved'])
_t85 = ('status',)
_t86: dict[str, Check] = {'id': _ref11, 'status': _s115, 'description': _ref1, 'target': _ref12, 'content': _s116, 'content_ref': _ref12}
_t87 = ('application',)
_t88: dict[str, Check] = {'id': _ref11, 'application': _ref1, 'view': _ref1, 'selections': _s113, 'filters': _s114, 'drafts': _s119, 'state': _s120, 'state_schema': _ref1, 'extensions': _ref7}
_t89 = frozenset(['action', 'approval', 'input', 'wait'])
_t90 = frozenset(['approved', 'awaiting', 'cancelled', 'completed', 'failed', 'planned', 'rejected', 'uncertain'])
_t91 = frozenset(['idempotent', 'non_idempotent', 'none', 'unknown'])
_t92 = ('tool',)
_t93: dict[str, Check] = {'tool': _ref1, 'arguments': _s127}
_t94 = frozenset(['ask', 'do_not_resume', 'retry', 'verify_first'])
_t95 = ('decided_by', 'decided_at', 'evidence')
_t96: dict[str, Check] = {'decided_by': _ref1, 'decided_at': _ref2, 'evidence': _s132}
_t97 = ('id', 'kind', 'status', 'description')
_t98: dict[str, Check] = {'id': _ref11, 'kind': _s124, 'status': _ref27, 'description': _ref1, 'target': _ref12, 'record': _ref12, 'effect': _s126, 'idempotency_key': _ref1, 'call': _ref28, 'resume': _s130, 'depends_on': _s131, 'requested_at': _ref2, 'last_attempt_at': _ref2, 'expires_at': _ref2, 'approval': _ref29, 'extensions': _ref7}
_t99 = frozenset(['approved', 'rejected'])
_t100 = ('status',)
_t101: dict[str, Check] = {'status': _s136}
_t102 = 'approval'
_t103 = ('approval',)
_t104: dict[str, Check] = {'kind': _s138}
_t105 = 'uncertain'
_t106 = frozenset(['non_idempotent', 'unknown'])
_t107 = ('status',)
_t108: dict[str, Check] = {'status': _s141, 'effect': _s142}
_t109 = 'retry'
_t110 = ('resume',)
_t111: dict[str, Check] = {'resume': _s145}
_t112 = frozenset(['access', 'capability', 'extension', 'tool'])
_t113 = frozenset(['optional', 'recommended', 'required'])
_t114 = ('id', 'kind', 'description', 'necessity')
_t115: dict[str, Check] = {'id': _ref11, 'kind': _s150, 'name': _ref1, 'description': _ref1, 'necessity': _s151, 'fallback': _ref1, 'refs': _s152}
_t116 = frozenset(['ask', 'degrade', 'halt'])
_t117 = ('description', 'on_failure')
_t118: dict[str, Check] = {'id': _ref11, 'description': _ref1, 'on_failure': _s156, 'refs': _s157}
_t119 = ('operation', 'status')
_t120: dict[str, Check] = {'operation': _ref12, 'status': _ref27}
_t121 = ('description',)
_t122: dict[str, Check] = {'id': _ref11, 'description': _ref1, 'applies_to': _s161, 'until': _s164, 'refs': _s165}
_t123 = ('description',)
_t124: dict[str, Check] = {'id': _ref11, 'description': _ref1, 'refs': _s169}
_t125 = ('description',)
_t126: dict[str, Check] = {'id': _ref11, 'description': _ref1}
_t127: dict[str, Check] = {'requirements': _s155, 'preconditions': _s160, 'stop_conditions': _s168, 'recovery': _s172, 'incompatibilities': _s175, 'extensions': _ref7}
_t128 = frozenset(['authored', 'captured', 'compacted', 'converted', 'forked', 'merged'])
_t129 = frozenset(['checkpoint', 'session'])
_t130 = ('kind', 'id')
_t131: dict[str, Check] = {'kind': _s179, 'id': _ref1, 'protocol': _ref1, 'digest': _ref4}
_t132 = frozenset(['irrelevant', 'sensitive', 'size', 'superseded', 'unavailable'])
_t133 = ('description', 'reason')
_t134: dict[str, Check] = {'id': _ref11, 'description': _ref1, 'reason': _s183, 'recoverable_from': _ref12}
_t135 = ('description',)
_t136: dict[str, Check] = {'id': _ref11, 'description': _ref1, 'affected': _s187}
_t137 = ('method',)
_t138: dict[str, Check] = {'method': _s178, 'inputs': _s182, 'omissions': _s186, 'transformations': _s190}
_t139 = ('opencheckpoint', 'id', 'created_at', 'source', 'task')
_t140: dict[str, Check] = {'opencheckpoint': _s0, 'id': _ref1, 'created_at': _ref2, 'parent': _ref3, 'source': _ref5, 'task': _ref9, 'progress': _ref14, 'statements': _s97, 'resources': _s109, 'application_context': _s123, 'operations': _s149, 'continuation': _ref30, 'derivation': _ref37, 'extensions': _ref7}


conforms = _ref0
