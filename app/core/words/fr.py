"""The server's sentences in French (English's keys, app/core/words/en.py)."""

WORDS = {
    "mail.verify.subject": "Kodama : vérifiez votre adresse e-mail",
    "mail.verify.body": (
        "Bonjour {name},\n\npour utiliser cette adresse afin de réinitialiser votre mot de passe"
        " Kodama si vous l'oubliez, ouvrez ce lien (valable un jour) :\n\n{link}\n\n"
        "Si vous ne l'avez pas demandé, ignorez ce message.\n"
    ),
    "mail.reset.subject": "Kodama : réinitialisez votre mot de passe",
    "mail.reset.body": (
        "Bonjour {name},\n\npour choisir un nouveau mot de passe Kodama, ouvrez ce lien"
        " (valable une heure, une seule fois) :\n\n{link}\n\n"
        "Si vous ne l'avez pas demandé, ignorez ce message : votre mot de passe reste le même.\n"
    ),
}
