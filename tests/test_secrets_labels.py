"""A password's name as tickets in other languages write it past ASCII ("contraseña", "hasło",
"пароль", "密码：", "パスワード："): the value after it is found as after "password", and
withheld character for character; words of a script written without spaces after a
password's name are a sentence, not a password."""

from __future__ import annotations

import pytest

from app.secrets import find_secrets, redact, scan_text
from tests.test_secrets_recall import _document

PASSWORD = "Zq9-xK2!pLm4"
LABELED = [
    "contraseña: {}",
    "Contraseña = {}",
    "CONTRASEÑA={}",
    "hasło: {}",
    "Hasło: {}",
    "lösenord: {}",
    "şifre: {}",
    "Şifre: {}",
    "ŞİFRE: {}",
    "jelszó: {}",
    "пароль: {}",
    "Пароль: {}",
    "ПАРОЛЬ={}",
    "密码：{}",
    "密码: {}",
    "密碼：{}",
    "数据库密码：{}",
    "パスワード：{}",
    "ユーザーのパスワード: {}",
    "비밀번호: {}",
    "密码 ：{}",
    "비밀번호 : {}",
    "パスワード\u3000：{}",
    "密码={}",
    "パスワード＝{}",
    "password：{}",  # (a fullwidth colon after a label in ASCII too)
    "Contraseña：{}",
    "用户名：admin 密码：{}",
    "парола: {}",  # Bulgarian
    "Κωδικός: {}",  # Greek
    "mật khẩu: {}",  # Vietnamese
    "Mật khẩu: {}",
    "كلمة المرور: {}",  # Arabic
    "كلمة السر={}",
    "رمز عبور: {}",  # Persian
    "گذرواژه: {}",
    "סיסמה: {}",  # Hebrew
    "पासवर्ड: {}",  # Hindi
    "รหัสผ่าน: {}",  # Thai
]


@pytest.mark.parametrize("written", LABELED)
def test_a_password_after_its_name_past_ascii_is_found(written: str) -> None:
    text = "Kunde schreibt — " + written.format(PASSWORD) + " — 已转交"
    assert [text[a:b] for a, b, _ in scan_text(text)] == [PASSWORD]
    assert PASSWORD not in redact(text)
    assert redact(text).startswith("Kunde schreibt — ")  # (the rest as written)


# Passwords of letters and digits as people choose them: "password: …" finds each (a bare
# "pw: …" would not, a width or a power being named so), and so does every label past ASCII.
CHOSEN = ["Welcome2024", "Zq9xT4mw2", "hunter2024"]


@pytest.mark.parametrize("chosen", CHOSEN)
@pytest.mark.parametrize("written", LABELED)
def test_a_password_of_letters_and_digits_after_a_label_is_found_as_after_password(
    written: str, chosen: str
) -> None:
    assert [chosen] == [
        t[a:b] for t in ["password: " + chosen] for a, b, _ in scan_text(t)
    ]  # (English's, the reference)
    text = "Kunde schreibt — " + written.format(chosen) + " — 已转交"
    assert [text[a:b] for a, b, _ in scan_text(text)] == [chosen]


def test_in_a_document_the_hit_is_placed_in_the_text_as_written() -> None:
    doc = _document()
    text = "客户说：数据库密码：" + PASSWORD + "，请尽快更换。"
    doc["statements"][0]["text"] = text
    hits = find_secrets(doc)
    assert [(h.path, text[h.start : h.end]) for h in hits] == [("/statements/0/text", PASSWORD)]


@pytest.mark.parametrize(
    "text",
    [
        "password: 请联系管理员获取",
        "Password：请联系管理员获取",
        "密码：请联系管理员获取。",
        "密码：忘记了",
        "パスワード: パスワードを忘れた",
        "パスワード：リセット済み",
        "비밀번호: 관리자에게문의",
        "密码已重置",  # (a CJK name with no colon after it is not read as one)
        "パスワードを忘れた場合はこちら",
        "Contraseña olvidada",
        "la contraseña fue cambiada",
        # a form's translations: the label, and that it is required (English's own refused)
        "Contraseña: Requerida",
        "CONTRASEÑA: REQUERIDA",
        "Hasło: Wymagane",
        "Lösenord: Obligatoriskt",
        "ŞİFRE: GEREKLİ",
        "Jelszó: Kötelező",
        "Пароль: Обязательно",
        "Passwort: Erforderlich",
        '"contraseña": "Contraseña"',
        "login.contraseña=Contraseña",
        # CJK's rules for a password, digits and letters among the words
        "パスワード：8文字以上",
        "パスワード：半角英数字8文字以上",
        "パスワード：ログインIDと同じ",
        "비밀번호: 8자이상",
        "비밀번호: 8~16자",
        "密码：8-16位字母和数字",
        "密码：见1Password",
        # CJK documentation's fullwidth colons
        "token：用户登录凭证，有效期两小时",
        "时间：12:30",
        "Key：Value",
    ],
)
def test_a_sentence_after_a_password_s_name_past_ascii_is_none(text: str) -> None:
    assert scan_text(text) == [], [text[a:b] for a, b, _ in scan_text(text)]


@pytest.mark.parametrize(
    "name", ["contraseña", "Пароль", "密码", "数据库密码", "パスワード", "비밀번호"]
)
def test_a_member_named_for_a_password_past_ascii_holds_one(name: str) -> None:
    doc = _document()
    doc["operations"][0]["call"]["arguments"] = {"user": "bob", name: PASSWORD}
    hits = find_secrets(doc)
    assert [h.path for h in hits] == [f"/operations/0/call/arguments/{name}"]


def test_a_member_whose_cjk_name_only_holds_a_label_is_read_as_written() -> None:
    doc = _document()
    doc["operations"][0]["call"]["arguments"] = {
        "パスワードを忘れた": "Zq9xK2pLm4Qw",  # ("forgot the password": a page's link text)
        "密码": "请联系管理员",  # (a sentence)
    }
    assert find_secrets(doc) == []


@pytest.mark.parametrize(
    "entry",
    [
        {"password": "Contraseña"},
        {"hasło": "Hasło"},
        {"пароль": "Пароль"},
        {"パスワード": "8文字以上"},
    ],
)
def test_a_translation_file_s_entry_is_none(entry: dict[str, str]) -> None:
    doc = _document()
    doc["operations"][0]["call"]["arguments"] = entry
    assert find_secrets(doc) == []


@pytest.mark.parametrize(
    ("text", "password"),
    [
        ("password: Şifre2024!xyz", "Şifre2024!xyz"),
        ("contraseña: MiContraseña2024!", "MiContraseña2024!"),
        ("пароль: МойПароль2024!", "МойПароль2024!"),
        ("密码：Zq9xT3vB7nLm，请尽快更换。", "Zq9xT3vB7nLm"),
    ],
)
def test_a_password_read_through_a_label_is_withheld_where_it_is_quoted_again(
    text: str, password: str
) -> None:
    """The hit holds the string as written (the scan read a label or a mark in it as ASCII):
    what the page withholds elsewhere, a copy in another member or a finding's message, is
    the password as written."""
    from app.redaction import Redaction

    doc = {"ticket": text, "notes": f"old value was {password} yesterday"}
    hits = find_secrets(doc)
    assert [(h.path, h.text) for h in hits] == [("/ticket", text)]
    redaction = Redaction.of(doc, hits)
    assert password not in str(redaction.data(doc))
    assert password not in redaction.text(f"finding: value {password} is weak")


@pytest.mark.parametrize(
    "line",
    [
        "  --password=CONTRASEÑA     la contraseña para ftp y http es CONTRASEÑA",
        "  --password=LÖSEN          lösenord för ftp och http",
        "  --password=ПАРОЛЬ\tпароль для ftp и http",
        "  --password=MẬT-KHẨU       mật khẩu cho ftp và http",
        "  --password=HASŁO          hasło dla ftp i http to HASŁO",
    ],
)
def test_a_command_s_help_in_another_language_names_a_flag_s_value_in_capitals(line: str) -> None:
    assert scan_text(line) == []


def test_a_password_of_capitals_on_a_command_line_is_found() -> None:
    for value in ("ZQXKPLMQWRTY", "HUNTER", "KWPDSLAMQZTRBNVC"):
        line = f"mysql -u root --password={value} -h db.internal"
        assert [line[a:b] for a, b, _ in scan_text(line)] == [value]


@pytest.mark.parametrize(
    "text",
    [
        # CJK text running on from it, no space between
        *(
            "密码：{}请尽快更换",
            "パスワード：{}です",
            "비밀번호: {}입니다",
            "password: {}请尽快更换",
        ),
        # after a CJK label and the particle that says what it is
        *("密码是{}", "数据库的密码为：{}，请更换", "パスワードは{}です", "비밀번호는 {}입니다"),
    ],
)
def test_a_password_in_cjk_text_is_found_alone(text: str) -> None:
    written = text.format(PASSWORD)
    assert [written[a:b] for a, b, _ in scan_text(written)] == [PASSWORD]


@pytest.mark.parametrize(
    "text",
    [
        "密码是必需的",
        "パスワードは8文字以上",
        "비밀번호는 8자 이상이어야 합니다",
        # a translation's message after an English label: the label and particle are its words
        "passwd: パスワードは変更されませんでした",
    ],
)
def test_a_sentence_after_a_cjk_label_and_particle_is_none(text: str) -> None:
    assert scan_text(text) == []


# A password's name, what it is for in a few words, then a colon, as tickets in other languages
# write it ("password for the db:" in English's), and the word that says what it is.
TOLD_PAST_ENGLISH = [
    "Пароль от БД: {}",
    "Пароль для входа: {}",
    "hasło do bazy: {}",
    "contraseña de la base de datos: {}",
    "la contraseña para el portal: {}",
    "Passwort für die DB: {}",
    "das Passwort des Admins: {}",
    "mot de passe de la base : {}",
    "mot de passe pour le portail: {}",
    "lösenord till databasen: {}",
    "senha do banco: {}",
    "password del database: {}",
    "wachtwoord voor de server: {}",
    "heslo k serveru: {}",
    "la contraseña es {}",
    "das Passwort ist {}",
    "hasło jest {}",
    "o password é {}",
]


@pytest.mark.parametrize("chosen", [PASSWORD, *CHOSEN])
@pytest.mark.parametrize("written", TOLD_PAST_ENGLISH)
def test_a_password_told_past_english_is_found(written: str, chosen: str) -> None:
    text = "Ticket 4821 — " + written.format(chosen) + " — danke"
    assert [text[a:b] for a, b, _ in scan_text(text)] == [chosen]
    assert chosen not in redact(text)


# A command's help naming a password's flag line after line: "password" everywhere, and no
# password told (tests/test_worst_cases.py holds it to none)
HELP_LINES = "".join(
    f"  --password=PASS{c}{d} use PASS{c}{d} to sign in\n" for c in "ABCDEFGH" for d in "XYZW"
)


@pytest.mark.parametrize(
    "written", [*TOLD_PAST_ENGLISH, "the password is {}", "PASSWORD was {}", "pwd for the VPN: {}"]
)
def test_a_password_told_in_a_long_text_is_found_as_in_a_short_one(written: str) -> None:
    """A long text has the places where a password is told found by RE2 (a name and a space),
    and `re` reads each there: what it finds in a short text, at the same place."""
    told = "Ticket 4821 — " + written.format(PASSWORD) + " — danke\n"
    text = HELP_LINES * 4 + told + HELP_LINES * 4
    assert len(text) > 8_000
    at = text.index(PASSWORD)
    assert [(a, b) for a, b, _ in scan_text(text)] == [(at, at + len(PASSWORD))]
    assert scan_text(HELP_LINES * 8) == []


@pytest.mark.parametrize(
    "text",
    [
        "Passwort für %s:",  # (a translation's message: gettext's catalogs hold thousands)
        "Passwort für die DB: siehe Vault",
        "Passwort ist 8 Zeichen lang",
        "contraseña de la base de datos: requerida",
        "la contraseña es obligatoria",
        "mot de passe du compte : oublié",
        "Пароль от БД: уточните у администратора",
        "hasło do bazy: ${DB_PASSWORD}",
        "senha do banco: <senha>",
        "das Passwort ist abgelaufen",
        "password isolated from the logs",
    ],
)
def test_what_is_told_of_a_password_past_english_is_none(text: str) -> None:
    assert scan_text(text) == []


# A language's own double quotes around a value: CJK's corner brackets, the guillemets of
# French, Russian and German (French sets a space inside them, often one that does not break)
QUOTED_PAST_ASCII = [
    "パスワード：「{}」",
    "パスワード：『{}』",
    "密码：「{}」",
    "パスワードは「{}」です",
    "DB_PASSWORD=「{}」",
    "password: 「{}」",
    "mot de passe : «{}»",
    "mot de passe : « {} »",
    "mot de passe : «\u00a0{}\u202f»",
    "Пароль: «{}»",
    "Passwort: »{}«",
]


@pytest.mark.parametrize("chosen", [PASSWORD, *CHOSEN])
@pytest.mark.parametrize("written", QUOTED_PAST_ASCII)
def test_a_password_in_a_languages_own_quotes_is_found(written: str, chosen: str) -> None:
    text = "Ticket 4821 — " + written.format(chosen) + "\n"
    (span,) = scan_text(text)
    assert text[span[0] : span[1]].strip(" \u00a0\u202f") == chosen
    assert chosen not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "密码：「请联系管理员获取」",
        "パスワード：「********」",
        "パスワード：『${DB_PASSWORD}』",
        "mot de passe : « obligatoire »",
        "Пароль: «введите пароль»",
        "「パスワード」を入力してください",
        "Passwort: »siehe Tresor«",
    ],
)
def test_what_a_languages_own_quotes_hold_of_no_password_is_none(text: str) -> None:
    assert scan_text(text) == []


# A key's or a token's label in another language, as a support case in that language writes
# it: a key of a service's format with no prefix of its own (Datadog's 32 hex digits) and a
# random token, each found as after "API key:" and "token:"
KEY_LABELED = [
    "API-Schlüssel: {}",
    "Datadog API-Schlüssel: {}",
    "Datadog-Schlüssel: {}",
    "API-nyckel: {}",
    "API-sleutel: {}",
    "clé API : {}",
    "Clé d’API : {}",
    "clave de API: {}",
    "Clave API: {}",
    "chave da API: {}",
    "chiave API: {}",
    "klucz API: {}",
    "API-ключ: {}",
    "ключ API: {}",
    "токен: {}",
    "jeton : {}",
    "APIキー：{}",
    "API密钥：{}",
    "API 키: {}",
    "密钥：{}",
    "令牌：{}",
    "トークン：{}",
    "アクセストークン：{}",
]
KEYS = ["3f9c2b7e8a1d4c6f9b0e2a7d5c8f1b3e", "Xq7Lm2Vz9Kp4Rt8Wn3Bc6Hy1Jd5Fg0Sa"]


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("written", KEY_LABELED)
def test_a_key_labeled_in_another_language_is_found(written: str, key: str) -> None:
    text = "Ticket 4821 — " + written.format(key) + "\n"
    assert [text[a:b] for a, b, _ in scan_text(text)] == [key]
    assert key not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "API-Schlüssel: %s",
        "Öffentlicher Schlüssel (bits 2048): siehe Anhang",
        "clave de API: requerida",
        "Clé API : votre clé personnelle",
        "APIキー：未設定",
        "令牌：无效的令牌",
        "ключ API: не задан",
        "密钥：请联系管理员获取",
        "the API: v2",
        "токен: ${TOKEN}",
    ],
)
def test_what_a_key_label_in_another_language_holds_of_no_key_is_none(text: str) -> None:
    assert scan_text(text) == []


@pytest.mark.parametrize(
    "name", ["APIキー", "密钥", "令牌", "アクセストークン", "API-Schlüssel", "токен"]
)
def test_a_member_named_for_a_key_in_another_language_holds_one(name: str) -> None:
    assert [hit.path for hit in find_secrets({"config": {name: KEYS[0]}})] == [f"/config/{name}"]


@pytest.mark.parametrize("name", ["キー", "暗号化キー", "Schlüssel", "ключ"])
def test_a_members_word_for_any_key_in_another_language_names_none(name: str) -> None:
    """Japanese's キー, German's Schlüssel, Russian's ключ alone are any key's, as English's "key"
    is (a dictionary's, a table's): only after "API" or a service's name do they name one."""
    assert find_secrets({"config": {name: KEYS[0]}}) == []
