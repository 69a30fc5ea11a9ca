"""The mails are written in the person's language: the page's choice (the kodama_lang cookie
its i18n.js sets), else the browser's Accept-Language, else English."""

from __future__ import annotations

from email.header import decode_header, make_header
from email.message import Message
from typing import Any

from fastapi.testclient import TestClient

from tests.app.accounts import test_account_mail
from tests.app.accounts.test_account_mail import (
    ADDRESS,
    Inbox,
    delivered,
    link_token,
    with_verified_address,
)
from tests.app.accounts.test_accounts import PASSWORD, Browser, call
from tests.app.accounts.test_accounts import register as register_account

# The SMTP server and the app that mails to it.
inbox = test_account_mail.inbox
web = test_account_mail.web


def subject(mail: Message) -> str:
    """The subject as written (non-ASCII subjects travel encoded, RFC 2047)."""
    return str(make_header(decode_header(mail["Subject"])))


def text(mail: Message) -> str:
    body = mail.get_payload(decode=True)
    assert isinstance(body, bytes)
    return body.decode()


def test_the_reset_mail_is_in_the_language_the_page_chose(web: TestClient, inbox: Any) -> None:
    box: Inbox = inbox[0]
    with_verified_address(web, box)
    answer = call(
        web,
        "POST",
        "/api/account/password/forgot",
        json={"email": ADDRESS},
        # The page chose Japanese although the browser prefers French.
        headers={"cookie": "kodama_lang=ja", "accept-language": "fr-FR,fr;q=0.9"},
    )
    assert answer.status_code == 202, answer.text
    [mail] = delivered(web, box)
    assert subject(mail) == "Kodama：パスワードの再設定"
    assert text(mail).startswith("alice さん\n")
    assert link_token(mail, "reset")


def test_the_verification_mail_follows_the_browsers_languages(web: TestClient, inbox: Any) -> None:
    box: Inbox = inbox[0]
    register_account(web, "alice")
    browser = Browser(web)
    browser.login("alice")
    answer = browser.post(
        "/api/account/email",
        {"password": PASSWORD, "email": ADDRESS},
        headers={"accept-language": "de-DE,de;q=0.9,fr;q=0.8,en;q=0.5"},
    )
    assert answer.status_code == 200, answer.text
    [mail] = delivered(web, box)
    assert subject(mail) == "Kodama : vérifiez votre adresse e-mail"
    assert text(mail).startswith("Bonjour alice,")
    assert link_token(mail, "verify")


def test_without_a_choice_the_mail_is_in_english(web: TestClient, inbox: Any) -> None:
    box: Inbox = inbox[0]
    with_verified_address(web, box)
    call(web, "POST", "/api/account/password/forgot", json={"email": ADDRESS})
    [mail] = delivered(web, box)
    assert subject(mail) == "Kodama: reset your password"
