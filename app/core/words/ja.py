"""The server's sentences in Japanese (English's keys, app/core/words/en.py)."""

WORDS = {
    "mail.verify.subject": "Kodama：メールアドレスの確認",
    "mail.verify.body": (
        "{name} さん\n\nパスワードを忘れたときにこのアドレスで"
        "Kodamaのパスワードを再設定できるよう、"
        "次のリンクを開いてください（1日有効）：\n\n{link}\n\n"
        "お心当たりがなければ、このメールは無視してください。\n"
    ),
    "mail.reset.subject": "Kodama：パスワードの再設定",
    "mail.reset.body": (
        "{name} さん\n\nKodamaの新しいパスワードを決めるには、次のリンクを開いてください"
        "（1時間・1回だけ有効）：\n\n{link}\n\n"
        "お心当たりがなければ、このメールは無視してください。パスワードは変わりません。\n"
    ),
}
