"""A long flag named for a key, a token or a secret, its value the next argument after a space.

`mycli deploy --api-key …` is how an agent's transcript gives a key to a tool (with "=", a name
and its value, the name search reads it; a password's flag, the command line's detector). The
value is judged as prose judges one after such a name (app/secrets/detectors.py
`credential_flag`): a file, a vault's name, a variable, a placeholder tell none.
"""

import pytest

from app.secrets import find_secrets, scan_text

KEY = "q7ZkR2mXw9pL" + "z4nTv8Bc3Hs6"

FOUND = [
    f"--api-key {KEY}",
    f"--token {KEY}",
    f"--client-secret {KEY}",
    f"--auth-token {KEY}",
    f"--access-token '{KEY}'",
    f'--credentials "{KEY}"',
    f"mycli deploy --api-key {KEY} --region eu-west-1",
]

NOT_FOUND = [
    "--token-file ./token.txt",
    "--key-vault-name prodvault",
    "--token $TOKEN",
    "--secret-name prod/db/password",
    "--api-key-id AKIAIOSFODNN7EXAMPLE",
    "--auth-type bearer",
    "--token-ttl 3600",
    "--key ~/.ssh/id_rsa",
    "--key-file /etc/ssl/private/server.key",
    "--tokenizer bert-base-uncased-whole-word",
    "--api-key YOUR_API_KEY_HERE_123",
    "--api-key <your-api-key>",
    "--token ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "--api-key --verbose",
]


@pytest.mark.parametrize("text", FOUND)
def test_a_credential_flag_s_value_is_found(text: str) -> None:
    assert [text[start:end] for start, end, _ in scan_text(text)] == [KEY]


@pytest.mark.parametrize("text", FOUND[:3])
def test_it_is_found_in_a_long_text_and_in_a_call_s_arguments(text: str) -> None:
    filler = "The job synced the ledger and wrote its summary to the report. " * 600
    long = f"{filler}$ {text}\n{filler}"
    assert [long[start:end] for start, end, _ in scan_text(long)] == [KEY]
    (hit,) = find_secrets({"operations": [{"call": {"arguments": {"command": text}}}]})
    assert hit.text[hit.start : hit.end] == KEY


@pytest.mark.parametrize("text", NOT_FOUND)
def test_a_flag_s_value_that_is_no_key_is_none(text: str) -> None:
    assert scan_text(text) == []


def test_a_told_key_after_thousands_of_its_names_with_none_is_found() -> None:
    """A long text's names are tried where RE2 finds them; past a thousand tried with no key
    after them, the rest is read by the regex itself, which finds what the tries would."""
    decoys = "--api-key abcdefghijklmnop " * 14_000
    text = f"{decoys}and the deploy token {KEY} for staging"
    assert [text[start:end] for start, end, _ in scan_text(text)] == [KEY]


def test_places_tried_past_a_thousand_in_vain_leave_the_rest_to_the_regex() -> None:
    """`_matched_from` tries a pattern where RE2 found its lead; past a thousand tries with no
    match, it reads the rest of the text with `finditer`, which finds the same matches."""
    import re

    from app.secrets.detectors import _matched_from

    pattern = re.compile(r"key=(\d+)")
    text = "key=x " * 3000 + "key=42 key=7"
    starts = [i for i in range(len(text)) if text.startswith("key=", i)]
    found = [m.group(1) for m in _matched_from(pattern, text, starts)]
    assert found == ["42", "7"] == [m.group(1) for m in pattern.finditer(text)]
    # (the starts alone past the tries: the regex's own reading finds what they would)
    assert [m.group(1) for m in _matched_from(pattern, text, starts[:1500])] == ["42", "7"]
