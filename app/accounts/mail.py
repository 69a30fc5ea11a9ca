"""Mails to account owners through the configured SMTP server (KODAMA_SMTP_*): the links
that verify an e-mail address and reset a password.

smtplib (the standard library's) runs in a worker thread: a mail costs a connection and a
few round trips, which must not hold up the event loop. Mails are sent in the background,
after the answer: whether an address has an account must not show in how long "forgot
password" takes to answer. A mail that cannot be sent is logged; the link is not shown
anywhere else.
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
import ssl
from email.message import EmailMessage

from app.core.config import Settings

log = logging.getLogger(__name__)
TIMEOUT_S = 20


class Mailer:
    def __init__(self, settings: Settings) -> None:
        self.host = settings.smtp_host
        self.port = settings.smtp_port
        self.user = settings.smtp_user
        self.password = settings.smtp_password
        self.sender = settings.smtp_from or f"kodama@{settings.smtp_host or 'localhost'}"
        self.tls = settings.smtp_tls
        self._sending: set[asyncio.Task[None]] = set()

    @property
    def enabled(self) -> bool:
        return bool(self.host)

    def send_later(self, to: str, subject: str, body: str) -> None:
        """Send the mail in the background (``drain`` waits for those under way)."""
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = to
        message["Subject"] = subject
        message.set_content(body)
        task = asyncio.get_running_loop().create_task(self._send(message))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def drain(self) -> None:
        """Wait for the mails being sent (shutdown, tests)."""
        while self._sending:
            await asyncio.gather(*self._sending, return_exceptions=True)

    async def _send(self, message: EmailMessage) -> None:
        try:
            await asyncio.to_thread(self._deliver, message)
        except (OSError, smtplib.SMTPException) as exc:
            log.warning("mail to %s not sent: %s", message["To"], exc)

    def _deliver(self, message: EmailMessage) -> None:
        smtp: smtplib.SMTP
        if self.tls == "ssl":
            smtp = smtplib.SMTP_SSL(
                self.host, self.port, timeout=TIMEOUT_S, context=ssl.create_default_context()
            )
        else:
            smtp = smtplib.SMTP(self.host, self.port, timeout=TIMEOUT_S)
        with smtp:
            if self.tls == "starttls":
                smtp.starttls(context=ssl.create_default_context())
            if self.user:
                smtp.login(self.user, self.password)
            smtp.send_message(message)
