"""The server's sentences in Simplified Chinese (English's keys, app/core/words/en.py)."""

WORDS = {
    "mail.verify.subject": "Kodama：验证你的电子邮箱",
    "mail.verify.body": (
        "{name}，你好：\n\n为了在忘记密码时能用这个邮箱重设Kodama密码，"
        "请打开下面的链接（一天内有效）：\n\n{link}\n\n"
        "如果这不是你本人的操作，请忽略这封邮件。\n"
    ),
    "mail.reset.subject": "Kodama：重设你的密码",
    "mail.reset.body": (
        "{name}，你好：\n\n要设置新的Kodama密码，请打开下面的链接"
        "（一小时内有效，仅可使用一次）：\n\n{link}\n\n"
        "如果这不是你本人的操作，请忽略这封邮件：你的密码不会改变。\n"
    ),
}
