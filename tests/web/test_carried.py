"""The Share form's copy of the document: the exact bytes back, a fraction of their size on the
page, and never more than the document limit once inflated (a small field that would expand
into gigabytes is refused, not inflated)."""

from __future__ import annotations

import base64
import gzip
import os

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.parse import Limits
from app.web import create_app
from app.web.carried import CarriedError, carried, carry
from tests.conftest import CONFORMANCE

HANDOFF = (CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes()


def test_a_document_comes_back_byte_for_byte_from_a_fraction_of_its_size() -> None:
    crlf = HANDOFF.replace(b"\n", b"\r\n") + b"\n\n"
    name, value = carry("checkpoint", crlf)
    assert name == "checkpoint_gz64"
    assert len(value) * 2 < len(crlf)  # a fraction, base64 included
    assert carried({name: value}, "checkpoint", len(crlf)) == crlf


def test_bytes_that_do_not_compress_are_carried_as_they_are() -> None:
    noise = os.urandom(3000)
    name, value = carry("parent", noise)
    assert name == "parent_b64"
    assert carried({name: value}, "parent", 5000) == noise
    assert carried({}, "parent", 5000) == b""


def test_a_field_that_inflates_past_the_limit_is_refused_without_inflating_it() -> None:
    bomb = gzip.compress(b" " * 50_000_000, compresslevel=9)  # 49 KB that would be 50 MB
    field = {"checkpoint_gz64": base64.b64encode(bomb).decode()}
    with pytest.raises(CarriedError) as refused:
        carried(field, "checkpoint", 1_000_000)
    assert refused.value.too_large


@pytest.mark.parametrize(
    "value",
    [
        "not base64!",
        base64.b64encode(b"plain bytes, not gzip").decode(),
        # mtime=0: the same bytes at every collection (parallel workers compare test ids)
        base64.b64encode(gzip.compress(b"{}", mtime=0) + b"trailing").decode(),
        base64.b64encode(gzip.compress(b'{"a": 1}', mtime=0)[:-6]).decode(),  # cut short
    ],
    ids=["not-base64", "not-gzip", "trailing-bytes", "cut-short"],
)
def test_a_damaged_field_is_refused(value: str) -> None:
    with pytest.raises(CarriedError) as refused:
        carried({"checkpoint_gz64": value}, "checkpoint", 1_000_000)
    assert not refused.value.too_large
    assert "damaged" in str(refused.value)


def test_the_share_route_answers_413_for_a_bomb_and_400_for_damage(tmp_path) -> None:
    settings = Settings(database_url=str(tmp_path / "db.sqlite3"), limits=Limits(max_bytes=200_000))
    bomb = base64.b64encode(gzip.compress(b" " * 5_000_000)).decode()
    with TestClient(create_app(settings)) as client:
        too_large = client.post("/share", data={"checkpoint_gz64": bomb})
        assert too_large.status_code == 413
        assert "200,000 bytes" in too_large.text
        damaged = client.post("/share", data={"checkpoint_gz64": "AAAA"})
        assert damaged.status_code == 400
        assert "damaged" in damaged.text
        name, value = carry("checkpoint", HANDOFF)
        assert client.post("/share", data={name: value}).status_code == 201
