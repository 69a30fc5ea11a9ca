"""The server's sentences in English: the reference every other language's module follows."""

WORDS = {
    "mail.verify.subject": "Kodama: verify your e-mail address",
    "mail.verify.body": (
        "Hello {name},\n\nto use this address to reset your Kodama password if you forget it,"
        " open this link (valid for a day):\n\n{link}\n\n"
        "If you did not ask for it, ignore this mail.\n"
    ),
    "mail.reset.subject": "Kodama: reset your password",
    "mail.reset.body": (
        "Hello {name},\n\nto choose a new Kodama password, open this link"
        " (valid for an hour, once):\n\n{link}\n\n"
        "If you did not ask for it, ignore this mail: your password stays.\n"
    ),
}
