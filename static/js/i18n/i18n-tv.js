// The words of TV (the TV page and the lobby's small board), in English and French. i18n.js
// merges them into its own dictionary.

export const TV_TEXT = {
  en: {
    "nav.tv": "TV",
    "title.tv": "{channel} · Kodama TV",
    "tv.heading": "Kodama TV",
    "tv.channels": "Channels",
    "tv.best": "Best of all",
    "tv.waiting": "No game is being played right now: the next one to start is shown here.",
    "tv.unknown": "There is no such channel: choose one above.",
    "tv.watch": "Open the game",
    "tv.anonymous": "Anonymous",
    "tv.boardOf": "The featured game of {game}",
    "tv.lobbyTitle": "On TV",
  },
  fr: {
    "nav.tv": "TV",
    "title.tv": "{channel} · Kodama TV",
    "tv.heading": "Kodama TV",
    "tv.channels": "Chaînes",
    "tv.best": "Le meilleur de tout",
    "tv.waiting": "Aucune partie en cours : la prochaine à commencer s'affichera ici.",
    "tv.unknown": "Cette chaîne n'existe pas : choisissez-en une ci-dessus.",
    "tv.watch": "Ouvrir la partie",
    "tv.anonymous": "Anonyme",
    "tv.boardOf": "La partie à l'affiche de {game}",
    "tv.lobbyTitle": "À la TV",
  },
};
