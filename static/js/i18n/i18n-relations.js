// The words about following players (the lobby's "Following" list, a profile's online dot
// and Follow button), in English and French. i18n.js merges them into its own dictionary.

export const RELATION_TEXT = {
  en: {
    "following.title": "Following",
    "following.none": "Nobody you follow is online.",
    "following.online": "online",
    "following.playing": "playing",
    "following.watch": "Watch",
    "following.watchOf": "Watch {name}'s game",
    "following.challenge": "Challenge",
    "following.challengeOf": "Challenge {name}: their profile",
    "relation.follow": "Follow",
    "relation.unfollow": "Unfollow",
    "relation.online": "Online",
    "relation.offline": "Offline",
    "relation.cannot": "Cannot change whom you follow: {error}",
    "error.follow.self": "You cannot follow yourself.",
    "error.follow.limit": "You follow as many players as one may (5000): unfollow one first.",
  },
  fr: {
    "following.title": "Abonnements",
    "following.none": "Aucun des joueurs que vous suivez n'est en ligne.",
    "following.online": "en ligne",
    "following.playing": "en partie",
    "following.watch": "Regarder",
    "following.watchOf": "Regarder la partie de {name}",
    "following.challenge": "Défier",
    "following.challengeOf": "Défier {name} : son profil",
    "relation.follow": "Suivre",
    "relation.unfollow": "Ne plus suivre",
    "relation.online": "En ligne",
    "relation.offline": "Hors ligne",
    "relation.cannot": "Impossible de changer qui vous suivez : {error}",
    "error.follow.self": "Vous ne pouvez pas vous suivre vous-même.",
    "error.follow.limit": "Vous suivez autant de joueurs que possible (5000) : cessez d'en suivre un d'abord.",
  },
};
