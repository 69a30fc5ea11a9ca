// Every sentence the pages show, in every shipped language: `t(key, values)`. English and
// French live here and in the per-area modules; every other language is one file,
// lang/<code>.js (docs/i18n.md). The language is the one chosen with the switch
// (remembered, and told to the server by a cookie), else the browser's.

import { ANALYSIS_TEXT } from "./i18n-analysis.js";
import { CHAT_TEXT } from "./i18n-chat.js";
import { OUTCOME_TEXT } from "./i18n-outcome.js";
import { PLAYER_TEXT } from "./i18n-players.js";
import { MODERATION_TEXT } from "./i18n-moderation.js";
import { RELATION_TEXT } from "./i18n-relations.js";
import { TEACHING_TEXT } from "./i18n-teaching.js";
import { TV_TEXT } from "./i18n-tv.js";
import { PUZZLE_TEXT } from "./i18n-puzzles.js";
import { REVIEW_TEXT } from "./i18n-review.js";
import { TOURNAMENT_TEXT } from "./i18n-tournaments.js";
import { SWISS_TEXT } from "./i18n-swiss.js";
import { ERROR_TEXT } from "./i18n-errors.js";
import { MORE_LANGUAGES } from "./lang/index.js";

const STORE_KEY = "kodama.lang";
// The server reads the page's language from this cookie (emails, bots' greetings).
const COOKIE = "kodama_lang";
export const LANGS = ["en", "fr", ...MORE_LANGUAGES.map((l) => l.code)];
// Each language's name in itself, for the switch.
export const LANG_NAMES = {
  en: "English",
  fr: "Français",
  ...Object.fromEntries(MORE_LANGUAGES.map((l) => [l.code, l.name])),
};
// The switch's buttons: the short name each language writes itself with (EN, 日本語).
export const LANG_SHORT = {
  en: "EN",
  fr: "FR",
  ...Object.fromEntries(MORE_LANGUAGES.map((l) => [l.code, l.short])),
};

const TEXT = {
  en: {
    // ---- results and statuses ----
    "reason.checkmate": "checkmate",
    "reason.capture": "the royal piece was captured",
    "reason.try": "try: the royal piece reached the far rank",
    "reason.den": "a piece entered the den",
    "reason.no_pieces": "no pieces left",
    "reason.no_moves": "no legal move left",
    "reason.repetition": "threefold repetition",
    "reason.repetition_tiebreak": "repetition (tiebreak)",
    "reason.no_progress": "no progress",
    "reason.agreement": "agreement",
    "result.canceled": "Cancelled by its creator",
    "result.expired": "Withdrawn: nobody took the seat in time",
    "result.aborted": "Game aborted",
    "result.noStart": "Aborted: the first move was not made in time",
    "conn.connecting": "connecting…",
    "conn.open": "connected",
    "conn.closed": "reconnecting…",
    "conn.gone": "no such game",
    "status.yourTurn": "Your turn",
    "status.opponentTurn": "Your opponent's turn",
    "status.toMove": "{who} to move",
    "status.waitInvite": "Waiting for an opponent: send them the invite link.",
    "status.waitSecond": "Waiting for a second player.",
    "status.pick": "Choose an enemy stone to remove.",
    "status.place": " · choose an empty square to place a stone",
    "status.youOffered": " · you offered a draw",
    "status.theyOffer": " · {who} offers a draw",
    "status.check": "Check!",
    "status.deadline": "first move within {s} s, or the game is aborted",
    "status.moveWithin": "{time} left to move",
    // ---- sides and players ----
    "side.first": "first",
    "side.second": "second",
    "player.first": "first player",
    "player.second": "second player",
    "player.First": "First player",
    "player.Second": "Second player",
    "player.drawn": "side drawn at the start",
    "player.waiting": "waiting for an opponent…",
    "player.anonymousName": "Anonymous {tag}",
    "player.you": "you",
    "player.online": "online",
    "player.offline": "offline",
    "player.toMove": "to move",
    "player.spectators.one": "{n} spectator",
    "player.spectators.other": "{n} spectators",
    // ---- header ----
    "nav.main": "Main",
    "nav.lobby": "Play",
    "nav.rules": "Rules",
    "nav.account": "Account",
    "nav.menu": "Menu",
    "lang.switch": "Language",
    // ---- lobby ----
    "title.lobby": "Kodama · five small board games online",
    "lobby.new": "New game",
    "lobby.friend": "To play a friend: create, then send the link.",
    "lobby.game": "Game",
    "lobby.loadingGames": "Loading the games…",
    "lobby.loading": "Loading…",
    "lobby.clock": "Clock",
    "lobby.noClock": "No clock",
    "lobby.withClock": "Clock",
    "lobby.minutes": "Minutes",
    "lobby.increment": "Increment (s)",
    "lobby.youPlay": "You play",
    "lobby.random": "Random",
    "lobby.first": "First",
    "lobby.second": "Second",
    "lobby.public": "Public: listed in the lobby for anyone to join",
    "lobby.create": "Create",
    "lobby.options": "Rule options",
    "lobby.default": "(default)",
    "lobby.openGames": "Open games",
    "lobby.liveGames": "Live games",
    "lobby.noOpen": "No open games. Create one!",
    "lobby.noLive": "No games being played right now.",
    "lobby.playsRandom": "plays a random side",
    "lobby.playsFirst": "plays first",
    "lobby.playsSecond": "plays second",
    "lobby.join": "Join",
    "lobby.watch": "Watch",
    "lobby.rated": "rated",
    "lobby.casual": "casual",
    "lobby.anonymous": "Anonymous",
    "lobby.range": "rating {low}–{high}",
    "lobby.yours": "Yours",
    "lobby.cancel": "Cancel",
    "lobby.outOfRange": "Your rating in this game ({rating}) is outside its range",
    "lobby.resume": "Resume",
    "lobby.filter": "Games shown",
    "lobby.ratingRange": "Opponents' rating",
    "lobby.rangeLow": "From",
    "lobby.rangeHigh": "To",
    "lobby.rangeNote": "Empty: anyone. A player without an account counts as 1500.",
    "lobby.rangeError": "The rating range must be two whole numbers from 0 to 9999, the first not above the second.",
    "lobby.vs": "vs",
    "lobby.you": "You are {name}",
    "lobby.clockError": "Minutes must be above 0 and at most 180; the increment 0 to 180 seconds; byo-yomi: 1 to 10 periods of 1 to 180 seconds.",
    "lobby.byoyomi": "Byo-yomi",
    "lobby.correspondence": "Correspondence",
    "lobby.periods": "Periods",
    "lobby.periodSeconds": "Period (s)",
    "lobby.daysPerMove": "Days per move",
    "yourTurn.title": "Your turn",
    "yourTurn.against": "against {name}",
    "yourTurn.left": "{time} left",
    "lobby.cannotReach": "Cannot reach the server: {error}",
    "lobby.rules": "Rules",
    "lobby.rulesOf": "Rules of {game}",
    "lobby.boardOf": "{game}: the board at the start",
    "pools.title": "Quick pairing",
    "pools.intro": "One click: you play the nearest-rated player waiting for the same game and clock.",
    "pools.tile": "{game} {clock}: search for an opponent",
    "pools.searching": "Searching…",
    "pools.searchingFor": "Searching for an opponent: {pool}. Click the tile again to stop.",
    "pools.cancel": "Cancel",
    "pools.waiting": "{n} waiting",
    "pools.offline": "Not connected: try again in a moment.",
    "error.pool.unknown": "There is no such pool.",
    "error.pool.paired": "You were just paired: your game has started.",
    "error.pool.rated_anonymous": "Rated games need an account: log in.",
    "error.game.rated_needs_account": "This game is rated: only accounts can play it. Log in or sign up (Account).",
    "error.challenge.rated_needs_account": "Rated games need an account: log in or sign up (Account).",
    "lobby.ratedGame": "Rated: the game changes both players' ratings",
    "lobby.ratedNeedsAccount": "Rated games need an account: log in or sign up on the Account page.",
    "lobby.ratedChoice": "Rated",
    "lobby.ratedAccountsOnly": "(accounts only)",
    "error.pool.no_identity": "Reload the page, then try again.",
    "bots.title": "Play the computer",
    "bots.intro": "With the game, rule options, clock and side chosen in the new game form.",
    "bots.about.kodama-random": "Plays any legal move at random: for learning the rules.",
    "bots.about.kodama-easy": "Looks two moves ahead: beatable with a little care.",
    "bots.about.kodama-medium": "Looks four moves ahead, for up to half a second.",
    "bots.about.kodama-hard": "Searches up to two seconds a move: a strong opponent.",
    "bots.plays": "plays {games}",
    "bots.play": "Play {name}",
    "bots.notThisGame": "{name} does not play {game}",
    "bots.busy": "{name} is busy: all its games at once are being played. Try in a moment.",
    "bots.busyShort": "busy, try in a moment",
    "bots.sending": "Challenging {name}…",
    "bots.waiting": "Waiting for {name} to accept…",
    "bots.declined": "{name} declined: {reason}",
    "bots.declinedNoReason": "{name} declined the challenge.",
    "bots.canceled": "The challenge was cancelled.",
    "bots.cancel": "Cancel",
    "bots.failed": "The challenge failed: {error}",
    "bots.greeting": "Hello! I am {name}, a built-in computer opponent: {about} Have a good game!",
    "bots.about.kodama-perfect": "Plays perfectly from the solved table: never lets a won game go.",
    "bots.about.kodama-fairy": "Fairy-Stockfish, a strong engine for chess variants.",
    "bots.strongest": "The strongest opponent for {game}",
    "bots.kind.kodama-perfect": "Perfect play from the solved table",
    "bots.kind.kodama-fairy": "Fairy-Stockfish",
    "bots.kind.kodama-hard": "Kodama hard",
    "bots.rating.one": "Rated {rating} in {game}, from {n} rated game",
    "bots.rating.other": "Rated {rating} in {game}, from {n} rated games",
    "bots.unrated": "Not yet rated in {game}",
    "bots.ratingShort": "rated {rating}",
    "bots.unratedShort": "not yet rated",
    "bots.noTable": "{name} has no solved table for these rules on this server",
    "bots.noTableShort": "no solved table for these rules here",
    "time.noClock": "no clock",
    "time.days.one": "{n} day per move",
    "time.days.other": "{n} days per move",
    "time.daysHours": "{d} d {h} h",
    "game.private": "private",
    // ---- game page ----
    "title.game": "Game · Kodama",
    "title.yourTurn": "Your turn",
    "game.loading": "Loading…",
    "game.board": "Board",
    "game.moves": "Moves",
    "game.noMoves": "No moves yet",
    "game.noMove": "no move",
    "game.noSuch": "No such game",
    "game.noSuchText": "There is no game at this address.",
    "game.backToLobby": "Back to the lobby",
    "game.stale": "The game had moved on: the board is up to date again",
    "game.notSent": "Not connected: the move was not sent",
    "game.notConnected": "Not connected",
    "game.cannotLoad": "Cannot load the games: {error}",
    "game.rules": "Rules of {game}",
    "action.cancel": "Cancel the game",
    "action.join": "Join this game",
    "action.abort": "Abort",
    "action.resign": "Resign",
    "action.reallyResign": "Really resign?",
    "action.drawAccept": "Accept draw",
    "action.drawDecline": "Decline draw",
    "action.drawOffered": "Draw offered",
    "action.drawOffer": "Offer draw",
    "action.claimVictory": "Claim victory",
    "action.claimDraw": "Claim draw",
    "action.flip": "Flip board",
    "action.newGame": "New game",
    "action.actions": "Game actions",
    "claim.note": "Your opponent is offline. Once they have been away long enough you can claim the game.",
    "claim.in": "in {s} s",
    "claim.open": "Your opponent has been away long enough: you may claim the game.",
    "invite.label": "Invite link — whoever opens it first plays you:",
    "invite.copy": "Copy",
    "invite.copied": "Invite link copied",
    "invite.selectIt": "Select the link and copy it",
    "promotion.title": "Promote this piece?",
    "promotion.promote": "Promote",
    "promotion.stay": "Don't promote",
    "promotion.cancel": "Cancel",
    "pref.sound": "Sound",
    "pref.pieces": "Pieces",
    "pref.lang": "Language",
    "set.animals": "Animals",
    "set.yokai": "Yōkai",
    "pref.notation": "Notation",
    "notation.standard": "Standard (C b2xb3)",
    "notation.japanese": "Japanese (▲B2ひよこ)",
    "replay.first": "First position",
    "replay.prev": "Previous move",
    "replay.next": "Next move",
    "replay.last": "Last position",
    "replay.controls": "Replay",
    "replay.live": "Back to the game",
    "replay.liveMissed": "Back to the game ({n} new)",
    "replay.end": "Back to the end",
    "replay.liveKey": "End key: the newest position",
    "replay.liveNow": "Live",
    "moves.item": "Move {n}: {move}",
    "takeback.offer": "Propose a takeback",
    "takeback.proposed": "Takeback proposed",
    "takeback.withdraw": "Withdraw the takeback",
    "takeback.accept": "Accept the takeback",
    "takeback.decline": "Decline the takeback",
    "takeback.youProposed": " · you proposed a takeback",
    "takeback.theyPropose": " · {who} proposes a takeback",
    "premove.set": "Premove {move}: played when your opponent has moved. Escape cancels it.",
    "premove.cancelled": "Premove cancelled",
    // ---- the board, for screen readers ----
    "board.label": "{game} board, seen from the {side}'s side",
    "board.square": "{sq}",
    "board.piece": "{sq}, {owner}'s {piece}",
    "board.trap": "{owner}'s trap",
    "board.den": "{owner}'s den",
    "board.water": "water",
    "board.zone": "{owner}'s promotion zone",
    "board.selected": "selected",
    "board.dest": "can move here",
    "board.pick": "can be removed",
    "board.check": "in check",
    "board.lastMove": "last move",
    "board.jumped": "stone taken by the last jump",
    "board.line": "line of three that took a stone",
    "board.hand": "{owner}'s hand",
    "board.handPiece": "{owner}'s hand: {piece} × {n}",
    "board.help": "Arrow keys move between squares, Enter or Space selects and moves, Escape cancels.",
    "board.pickedUp": "{piece} on {sq} selected",
    "board.pickedHand": "{piece} from the hand selected",
    "board.cancelled": "Selection cancelled",
    "board.premove": "premove",
    // ---- moves read aloud ----
    "say.move": "{who}: {piece} {from} to {to}",
    "say.drop": "{who}: {piece} dropped on {to}",
    "say.place": "{who}: stone placed on {to}",
    "say.takes": "takes the {piece}",
    "say.takesStone": "takes the stone on {sq}",
    "say.promotes": "promotes",
    "say.sep": ", ",
    "say.removes": "removes the stone on {sq}",
    // ---- invite page ----
    "title.invite": "Invitation · Kodama",
    "invite.heading": "You are invited to a game",
    "invite.taking": "Taking your seat…",
    "invite.invalid": "This invite link is not valid: it may be mistyped, or the game was removed.",
    "invite.toLobby": "Go to the lobby",
    "invite.taken": "Someone else has already taken this seat.",
    "invite.watch": "Watch the game",
    "invite.findIt": "Find it among the live games in the lobby",
    "invite.failed": "Could not join the game: {error}.",
    // ---- rules pages ----
    "title.rules": "Rules · Kodama",
    "title.rulesOf": "{game} · rules · Kodama",
    "rules.heading": "How to play",
    "rules.intro": "Five small board games, each playable in a few minutes. Pick one to read its rules, with diagrams drawn by the same board the games use.",
    "rules.read": "Read the rules",
    "rules.play": "Play {game}",
    "rules.all": "All the games",
    "rules.unknown": "There is no game called “{id}”.",
    "rules.start": "The start position",
    "rules.options": "Rule options on Kodama",
    "rules.optionsNone": "This game has no rule options: everyone plays the same rules.",
    "rules.default": "default",
    "rules.moves": "How the pieces move",
    "rules.diagramStart": "{game}: the start position",
    "rules.onKodama": "Playing on Kodama",
    "rules.onKodamaText": "Moves are checked by the server: the board only lets you play legal moves and highlights where a piece may go. Click or tap a piece, then its destination (or drag it); the keyboard works too. A game can be played with a clock (minutes plus an increment per move) or without. Each side must make its first move within a minute or the game is aborted. You may offer a draw, resign, or abort before both sides have moved; if your opponent leaves, you can claim the game after a while.",
    "rules.dots": "The dots on a piece show the squares it may step to.",
    // ---- errors the server may answer, by code ----
    "error.network.error": "The server cannot be reached",
    "error.game.not_found": "There is no such game",
    "error.invite.not_found": "This invite link is not valid",
    "error.game.private": "This game is private: it can only be joined with its invite link",
    "error.game.seat_taken": "Someone else has already taken this seat",
    "error.game.not_creator": "Only the creator can cancel this game",
    "error.game.not_cancelable": "Someone has joined: the game can no longer be cancelled",
    "error.game.not_player": "Only the players can do that",
    "error.game.not_started": "The game has not started yet",
    "error.game.over": "The game is over",
    "error.game.not_your_turn": "It is not your turn",
    "error.game.busy": "The game is busy: try again",
    "error.game.not_abortable": "Both sides have moved: the game can no longer be aborted",
    "error.move.invalid": "That move cannot be read",
    "error.move.illegal": "That move is not legal",
    "error.draw.no_offer": "There is no draw offer to answer",
    "rematch.group": "Rematch",
    "rematch.offer": "Rematch",
    "rematch.offered": "You offered a rematch",
    "rematch.withdraw": "Cancel the offer",
    "rematch.theyOffer": "{who} offers a rematch",
    "rematch.accept": "Accept the rematch",
    "rematch.decline": "Decline",
    "rematch.go": "Go to the rematch",
    "error.rematch.not_over": "A rematch can be offered once the game is over",
    "error.rematch.not_played": "This game never started: there is nothing to play again",
    "error.rematch.no_offer": "There is no rematch offer to answer",
    "error.rematch.spectator": "Only the players can offer or answer a rematch",
    "error.rematch.taken": "The rematch has started already",
    "error.claim.opponent_present": "Your opponent is connected: you cannot claim the game",
    "error.claim.too_early": "Your opponent has not been away long enough yet",
    "error.clock.invalid": "That clock is not allowed",
    "error.option.invalid": "That rule option is not allowed",
    "error.game.unknown": "There is no such game to play",
  },
  fr: {
    "reason.checkmate": "échec et mat",
    "reason.capture": "la pièce royale a été prise",
    "reason.try": "essai : la pièce royale a atteint la dernière rangée",
    "reason.den": "une pièce est entrée dans le sanctuaire",
    "reason.no_pieces": "plus aucune pièce",
    "reason.no_moves": "plus aucun coup légal",
    "reason.repetition": "triple répétition",
    "reason.repetition_tiebreak": "répétition (départage)",
    "reason.no_progress": "pas de progrès",
    "reason.agreement": "accord mutuel",
    "result.canceled": "Annulée par son créateur",
    "result.expired": "Retirée : personne n'a pris la place à temps",
    "result.aborted": "Partie annulée",
    "result.noStart": "Annulée : le premier coup n'a pas été joué à temps",
    "conn.connecting": "connexion…",
    "conn.open": "connecté",
    "conn.closed": "reconnexion…",
    "conn.gone": "partie inconnue",
    "status.yourTurn": "À vous de jouer",
    "status.opponentTurn": "Au tour de votre adversaire",
    "status.toMove": "{who} doit jouer",
    "status.waitInvite": "En attente d'un adversaire : envoyez-lui le lien d'invitation.",
    "status.waitSecond": "En attente d'un second joueur.",
    "status.pick": "Choisissez un pion adverse à retirer.",
    "status.place": " · choisissez une case vide pour poser un pion",
    "status.youOffered": " · vous avez proposé la nulle",
    "status.theyOffer": " · {who} propose la nulle",
    "status.check": "Échec !",
    "status.deadline": "premier coup dans les {s} s, sinon la partie est annulée",
    "status.moveWithin": "{time} pour jouer",
    "side.first": "premier",
    "side.second": "deuxième",
    "player.first": "premier joueur",
    "player.second": "second joueur",
    "player.First": "Premier joueur",
    "player.Second": "Second joueur",
    "player.drawn": "côté tiré au sort au début",
    "player.waiting": "en attente d'un adversaire…",
    "player.anonymousName": "Anonyme {tag}",
    "player.you": "vous",
    "player.online": "en ligne",
    "player.offline": "hors ligne",
    "player.toMove": "au trait",
    "player.spectators.one": "{n} spectateur",
    "player.spectators.other": "{n} spectateurs",
    "nav.main": "Navigation",
    "nav.lobby": "Jouer",
    "nav.rules": "Règles",
    "nav.account": "Compte",
    "nav.menu": "Menu",
    "lang.switch": "Langue",
    "title.lobby": "Kodama · cinq petits jeux de plateau en ligne",
    "lobby.new": "Nouvelle partie",
    "lobby.friend": "Contre un ami : créez, puis envoyez le lien.",
    "lobby.game": "Jeu",
    "lobby.loadingGames": "Chargement des jeux…",
    "lobby.loading": "Chargement…",
    "lobby.clock": "Pendule",
    "lobby.noClock": "Sans pendule",
    "lobby.withClock": "Avec pendule",
    "lobby.minutes": "Minutes",
    "lobby.increment": "Incrément (s)",
    "lobby.youPlay": "Vous jouez",
    "lobby.random": "Au hasard",
    "lobby.first": "En premier",
    "lobby.second": "En second",
    "lobby.public": "Publique : affichée dans le salon, tout le monde peut la rejoindre",
    "lobby.create": "Créer",
    "lobby.options": "Options de règles",
    "lobby.default": "(par défaut)",
    "lobby.openGames": "Parties ouvertes",
    "lobby.liveGames": "Parties en cours",
    "lobby.noOpen": "Aucune partie ouverte. Créez-en une !",
    "lobby.noLive": "Aucune partie en cours pour l'instant.",
    "lobby.playsRandom": "joue un côté tiré au sort",
    "lobby.playsFirst": "joue en premier",
    "lobby.playsSecond": "joue en second",
    "lobby.join": "Rejoindre",
    "lobby.watch": "Regarder",
    "lobby.rated": "classée",
    "lobby.casual": "amicale",
    "lobby.anonymous": "Anonyme",
    "lobby.range": "classement {low}–{high}",
    "lobby.yours": "La vôtre",
    "lobby.cancel": "Annuler",
    "lobby.outOfRange": "Votre classement dans ce jeu ({rating}) est hors de sa fourchette",
    "lobby.resume": "Reprendre",
    "lobby.filter": "Jeux affichés",
    "lobby.ratingRange": "Classement de l'adversaire",
    "lobby.rangeLow": "De",
    "lobby.rangeHigh": "À",
    "lobby.rangeNote": "Vide : tout le monde. Un joueur sans compte compte pour 1500.",
    "lobby.rangeError": "La fourchette de classement doit être deux nombres entiers de 0 à 9999, le premier pas au-dessus du second.",
    "lobby.vs": "contre",
    "lobby.you": "Vous êtes {name}",
    "lobby.clockError": "Les minutes doivent être au-dessus de 0 et au plus 180 ; l'incrément de 0 à 180 secondes ; byo-yomi : 1 à 10 périodes de 1 à 180 secondes.",
    "lobby.byoyomi": "Byo-yomi",
    "lobby.correspondence": "Par correspondance",
    "lobby.periods": "Périodes",
    "lobby.periodSeconds": "Période (s)",
    "lobby.daysPerMove": "Jours par coup",
    "yourTurn.title": "À vous de jouer",
    "yourTurn.against": "contre {name}",
    "yourTurn.left": "{time} restant",
    "lobby.cannotReach": "Le serveur ne répond pas : {error}",
    "lobby.rules": "Règles",
    "lobby.rulesOf": "Règles du jeu {game}",
    "lobby.boardOf": "{game} : le plateau au départ",
    "pools.title": "Partie rapide",
    "pools.intro": "Un clic : vous jouez contre le joueur au classement le plus proche qui attend le même jeu et la même cadence.",
    "pools.tile": "{game} {clock} : chercher un adversaire",
    "pools.searching": "Recherche…",
    "pools.searchingFor": "Recherche d'un adversaire : {pool}. Cliquez à nouveau sur la case pour arrêter.",
    "pools.cancel": "Annuler",
    "pools.waiting": "{n} en attente",
    "pools.offline": "Non connecté : réessayez dans un instant.",
    "error.pool.unknown": "Ce groupe n'existe pas.",
    "error.pool.paired": "Vous venez d'être apparié : votre partie a commencé.",
    "error.pool.rated_anonymous": "Les parties classées demandent un compte : connectez-vous.",
    "error.game.rated_needs_account": "Cette partie est classée : seuls les comptes peuvent la jouer. Connectez-vous ou inscrivez-vous (Compte).",
    "error.challenge.rated_needs_account": "Les parties classées demandent un compte : connectez-vous ou inscrivez-vous (Compte).",
    "lobby.ratedGame": "Classée : la partie change le classement des deux joueurs",
    "lobby.ratedNeedsAccount": "Les parties classées demandent un compte : connectez-vous ou inscrivez-vous sur la page Compte.",
    "lobby.ratedChoice": "Classée",
    "lobby.ratedAccountsOnly": "(comptes seulement)",
    "error.pool.no_identity": "Rechargez la page, puis réessayez.",
    "bots.title": "Jouer contre l'ordinateur",
    "bots.intro": "Avec le jeu, les options, la pendule et le côté choisis dans le formulaire de nouvelle partie.",
    "bots.about.kodama-random": "Joue n'importe quel coup légal au hasard : pour apprendre les règles.",
    "bots.about.kodama-easy": "Regarde deux coups à l'avance : battable avec un peu d'attention.",
    "bots.about.kodama-medium": "Regarde quatre coups à l'avance, jusqu'à une demi-seconde.",
    "bots.about.kodama-hard": "Cherche jusqu'à deux secondes par coup : un adversaire solide.",
    "bots.plays": "joue à {games}",
    "bots.play": "Jouer contre {name}",
    "bots.notThisGame": "{name} ne joue pas à {game}",
    "bots.busy": "{name} est occupé : toutes ses parties simultanées sont en cours. Réessayez dans un instant.",
    "bots.busyShort": "occupé, réessayez dans un instant",
    "bots.sending": "Défi envoyé à {name}…",
    "bots.waiting": "En attente de la réponse de {name}…",
    "bots.declined": "{name} a refusé : {reason}",
    "bots.declinedNoReason": "{name} a refusé le défi.",
    "bots.canceled": "Le défi a été annulé.",
    "bots.cancel": "Annuler",
    "bots.failed": "Le défi a échoué : {error}",
    "bots.greeting": "Bonjour ! Je suis {name}, un adversaire intégré joué par l'ordinateur : {about} Bonne partie !",
    "bots.about.kodama-perfect": "Joue parfaitement d'après la table résolue : ne laisse jamais filer une partie gagnée.",
    "bots.about.kodama-fairy": "Fairy-Stockfish, un moteur fort pour les variantes d'échecs.",
    "bots.strongest": "L'adversaire le plus fort à {game}",
    "bots.kind.kodama-perfect": "Jeu parfait d'après la table résolue",
    "bots.kind.kodama-fairy": "Fairy-Stockfish",
    "bots.kind.kodama-hard": "Kodama difficile",
    "bots.rating.one": "Classement {rating} à {game}, sur {n} partie classée",
    "bots.rating.other": "Classement {rating} à {game}, sur {n} parties classées",
    "bots.unrated": "Pas encore classé à {game}",
    "bots.ratingShort": "classement {rating}",
    "bots.unratedShort": "pas encore classé",
    "bots.noTable": "{name} n'a pas de table résolue pour ces règles sur ce serveur",
    "bots.noTableShort": "pas de table résolue pour ces règles ici",
    "time.noClock": "sans pendule",
    "time.days.one": "{n} jour par coup",
    "time.days.other": "{n} jours par coup",
    "time.daysHours": "{d} j {h} h",
    "game.private": "privée",
    "title.game": "Partie · Kodama",
    "title.yourTurn": "À vous",
    "game.loading": "Chargement…",
    "game.board": "Plateau",
    "game.moves": "Coups",
    "game.noMoves": "Aucun coup pour l'instant",
    "game.noMove": "pas de coup",
    "game.noSuch": "Partie inconnue",
    "game.noSuchText": "Il n'y a aucune partie à cette adresse.",
    "game.backToLobby": "Retour au salon",
    "game.stale": "La partie avait avancé : le plateau est de nouveau à jour",
    "game.notSent": "Pas de connexion : le coup n'a pas été envoyé",
    "game.notConnected": "Pas de connexion",
    "game.cannotLoad": "Impossible de charger les jeux : {error}",
    "game.rules": "Règles du jeu {game}",
    "action.cancel": "Annuler la partie",
    "action.join": "Rejoindre la partie",
    "action.abort": "Annuler",
    "action.resign": "Abandonner",
    "action.reallyResign": "Vraiment abandonner ?",
    "action.drawAccept": "Accepter la nulle",
    "action.drawDecline": "Refuser la nulle",
    "action.drawOffered": "Nulle proposée",
    "action.drawOffer": "Proposer la nulle",
    "action.claimVictory": "Réclamer la victoire",
    "action.claimDraw": "Réclamer la nulle",
    "action.flip": "Retourner le plateau",
    "action.newGame": "Nouvelle partie",
    "action.actions": "Actions de la partie",
    "claim.note": "Votre adversaire est hors ligne. S'il reste absent assez longtemps, vous pourrez réclamer la partie.",
    "claim.in": "dans {s} s",
    "claim.open": "Votre adversaire est absent depuis assez longtemps : vous pouvez réclamer la partie.",
    "invite.label": "Lien d'invitation — la première personne qui l'ouvre joue contre vous :",
    "invite.copy": "Copier",
    "invite.copied": "Lien d'invitation copié",
    "invite.selectIt": "Sélectionnez le lien et copiez-le",
    "promotion.title": "Promouvoir cette pièce ?",
    "promotion.promote": "Promouvoir",
    "promotion.stay": "Ne pas promouvoir",
    "promotion.cancel": "Annuler",
    "pref.sound": "Son",
    "pref.pieces": "Pièces",
    "pref.lang": "Langue",
    "set.animals": "Animaux",
    "set.yokai": "Yōkaï",
    "pref.notation": "Notation",
    "notation.standard": "Standard (C b2xb3)",
    "notation.japanese": "Japonaise (▲B2ひよこ)",
    "replay.first": "Première position",
    "replay.prev": "Coup précédent",
    "replay.next": "Coup suivant",
    "replay.last": "Dernière position",
    "replay.controls": "Revoir la partie",
    "replay.live": "Retour à la partie",
    "replay.liveMissed": "Retour à la partie ({n} nouveaux)",
    "replay.end": "Retour à la fin",
    "replay.liveKey": "Touche Fin : la dernière position",
    "replay.liveNow": "En direct",
    "moves.item": "Coup {n} : {move}",
    "takeback.offer": "Proposer de reprendre le coup",
    "takeback.proposed": "Reprise proposée",
    "takeback.withdraw": "Retirer la demande de reprise",
    "takeback.accept": "Accepter la reprise",
    "takeback.decline": "Refuser la reprise",
    "takeback.youProposed": " · vous avez proposé de reprendre le coup",
    "takeback.theyPropose": " · {who} propose de reprendre le coup",
    "premove.set": "Coup anticipé {move} : joué dès que votre adversaire aura joué. Échap l'annule.",
    "premove.cancelled": "Coup anticipé annulé",
    "board.label": "Plateau de {game}, vu du côté du {side}",
    "board.square": "{sq}",
    "board.piece": "{sq}, {piece} du {owner}",
    "board.trap": "piège du {owner}",
    "board.den": "sanctuaire du {owner}",
    "board.water": "eau",
    "board.zone": "zone de promotion du {owner}",
    "board.selected": "sélectionnée",
    "board.dest": "destination possible",
    "board.pick": "peut être retiré",
    "board.check": "en échec",
    "board.lastMove": "dernier coup",
    "board.jumped": "pion pris par le dernier saut",
    "board.line": "ligne de trois qui a pris un pion",
    "board.hand": "réserve du {owner}",
    "board.handPiece": "réserve du {owner} : {piece} × {n}",
    "board.help": "Les flèches passent d'une case à l'autre, Entrée ou Espace sélectionne et joue, Échap annule.",
    "board.pickedUp": "Sélection : {piece} en {sq}",
    "board.pickedHand": "Sélection : {piece} de la réserve",
    "board.cancelled": "Sélection annulée",
    "board.premove": "coup anticipé",
    "say.move": "{who} : {piece} de {from} en {to}",
    "say.drop": "{who} : {piece} parachuté en {to}",
    "say.place": "{who} : pion posé en {to}",
    "say.takes": "prend : {piece}",
    "say.takesStone": "prend le pion en {sq}",
    "say.promotes": "promotion",
    "say.sep": ", ",
    "say.removes": "retire le pion en {sq}",
    "title.invite": "Invitation · Kodama",
    "invite.heading": "Vous êtes invité à une partie",
    "invite.taking": "Installation à votre place…",
    "invite.invalid": "Ce lien d'invitation n'est pas valide : il est peut-être mal recopié, ou la partie a été supprimée.",
    "invite.toLobby": "Aller au salon",
    "invite.taken": "Quelqu'un d'autre a déjà pris cette place.",
    "invite.watch": "Regarder la partie",
    "invite.findIt": "La retrouver parmi les parties en cours du salon",
    "invite.failed": "Impossible de rejoindre la partie : {error}.",
    "title.rules": "Règles · Kodama",
    "title.rulesOf": "{game} · règles · Kodama",
    "rules.heading": "Comment jouer",
    "rules.intro": "Cinq petits jeux de plateau, chacun se joue en quelques minutes. Choisissez-en un pour lire ses règles, avec des schémas dessinés par le plateau même des parties.",
    "rules.read": "Lire les règles",
    "rules.play": "Jouer à {game}",
    "rules.all": "Tous les jeux",
    "rules.unknown": "Aucun jeu ne s'appelle « {id} ».",
    "rules.start": "La position de départ",
    "rules.options": "Options de règles sur Kodama",
    "rules.optionsNone": "Ce jeu n'a pas d'options de règles : tout le monde joue les mêmes règles.",
    "rules.default": "par défaut",
    "rules.moves": "Le déplacement des pièces",
    "rules.diagramStart": "{game} : la position de départ",
    "rules.onKodama": "Jouer sur Kodama",
    "rules.onKodamaText": "Les coups sont vérifiés par le serveur : le plateau ne laisse jouer que des coups légaux et montre où une pièce peut aller. Cliquez ou touchez une pièce puis sa destination (ou faites-la glisser) ; le clavier fonctionne aussi. Une partie se joue avec une pendule (des minutes plus un incrément à chaque coup) ou sans. Chaque camp doit jouer son premier coup dans la minute, sinon la partie est annulée. Vous pouvez proposer la nulle, abandonner, ou annuler tant que les deux camps n'ont pas joué ; si votre adversaire s'en va, vous pouvez réclamer la partie au bout d'un moment.",
    "rules.dots": "Les points sur une pièce montrent les cases où elle peut aller.",
    "error.network.error": "Le serveur ne répond pas",
    "error.game.not_found": "Cette partie n'existe pas",
    "error.invite.not_found": "Ce lien d'invitation n'est pas valide",
    "error.game.private": "Cette partie est privée : on ne la rejoint qu'avec son lien d'invitation",
    "error.game.seat_taken": "Quelqu'un d'autre a déjà pris cette place",
    "error.game.not_creator": "Seul le créateur peut annuler cette partie",
    "error.game.not_cancelable": "Quelqu'un a rejoint la partie : elle ne peut plus être annulée",
    "error.game.not_player": "Seuls les joueurs peuvent faire cela",
    "error.game.not_started": "La partie n'a pas encore commencé",
    "error.game.over": "La partie est terminée",
    "error.game.not_your_turn": "Ce n'est pas votre tour",
    "error.game.busy": "La partie est occupée : réessayez",
    "error.game.not_abortable": "Les deux camps ont joué : la partie ne peut plus être annulée",
    "error.move.invalid": "Ce coup est illisible",
    "error.move.illegal": "Ce coup n'est pas légal",
    "error.draw.no_offer": "Il n'y a pas de proposition de nulle à laquelle répondre",
    "rematch.group": "Revanche",
    "rematch.offer": "Revanche",
    "rematch.offered": "Vous avez proposé une revanche",
    "rematch.withdraw": "Retirer la proposition",
    "rematch.theyOffer": "{who} propose une revanche",
    "rematch.accept": "Accepter la revanche",
    "rematch.decline": "Refuser",
    "rematch.go": "Aller à la revanche",
    "error.rematch.not_over": "Une revanche se propose une fois la partie terminée",
    "error.rematch.not_played": "Cette partie n'a jamais commencé : il n'y a rien à rejouer",
    "error.rematch.no_offer": "Il n'y a pas de proposition de revanche à laquelle répondre",
    "error.rematch.spectator": "Seuls les joueurs peuvent proposer ou accepter une revanche",
    "error.rematch.taken": "La revanche a déjà commencé",
    "error.claim.opponent_present": "Votre adversaire est connecté : vous ne pouvez pas réclamer la partie",
    "error.claim.too_early": "Votre adversaire n'est pas encore absent depuis assez longtemps",
    "error.clock.invalid": "Cette pendule n'est pas permise",
    "error.option.invalid": "Cette option de règles n'est pas permise",
    "error.game.unknown": "Ce jeu n'existe pas",
  },
};

// The games' own words: one-line descriptions, rule options and piece names (their names
// are in their table entries, engine/variants.py). describe() (GET /api/variants) gives the
// English originals; these add French and friendlier labels. Anything missing here falls
// back to describe()'s words.
const GAME_TEXT = {
  en: {
    "blurb.dobutsu": "Tiny shogi on 3×4: capture, drop what you took, then catch the lion or walk yours to the far rank.",
    "blurb.gorogoro": "Shogi on 5×6 with dogs, cats and chicks: promote in the enemy camp, drop your captures, checkmate the lion.",
    "blurb.jungle": "Eight animals ranked by strength cross lakes and traps to enter the enemy den.",
    "blurb.yote": "Place or step your stones; jump an enemy stone and remove a second one of your choice.",
    "blurb.wali": "Place twelve stones without three in a row, then step to form lines of three and remove enemy stones.",
    "option.ruleset": "Rule set",
    "option.ruleset.dobutsu": "Dōbutsu shōgi",
    "option.ruleset.yokai": "Yōkaï no Mori",
    "option.ruleset.about": "Dōbutsu shōgi: a move may never leave your own lion capturable, and a lion that moves onto the far rank wins. Yōkaï no Mori: every move is allowed, capturing the koropokkuru wins, and so does a koropokkuru standing unattacked on the far rank after any move.",
    "option.traps": "Traps",
    "option.traps.any": "Every trap weakens",
    "option.traps.opponent": "Only the opponent's traps",
    "option.traps.about": "Every trap: a piece on any trap has rank 0 (the rule sheets). Only the opponent's traps: only the three traps around the opponent's den weaken a piece (the usual international rule).",
    "option.repetition": "Repetition",
    "option.repetition.draw": "Draw",
    "option.repetition.tiebreak": "Tiebreak",
    "option.repetition.about": "Draw: the third time a position occurs, the game is drawn. Tiebreak: then the side with the larger total rank on the board loses; on equal totals, the side that made the last capture loses; with no capture ever, it is a draw.",
    "piece.stone": "stone",
    "piece.jungle.E": "elephant",
    "piece.jungle.L": "lion",
    "piece.jungle.T": "tiger",
    "piece.jungle.P": "leopard",
    "piece.jungle.D": "dog",
    "piece.jungle.W": "wolf",
    "piece.jungle.C": "cat",
    "piece.jungle.R": "rat",
  },
  fr: {
    "blurb.dobutsu": "Un mini-shōgi sur 3×4 : capturez, parachutez vos prises, attrapez le lion ou amenez le vôtre sur la dernière rangée.",
    "blurb.gorogoro": "Le shōgi sur 5×6 avec chiens, chats et poussins : promotion dans le camp adverse, parachutages, mat du lion.",
    "blurb.jungle": "Huit animaux classés par force traversent lacs et pièges pour entrer dans le sanctuaire adverse.",
    "blurb.yote": "Posez ou déplacez vos pions ; sautez un pion adverse et retirez-en un second de votre choix.",
    "blurb.wali": "Posez douze pions sans en aligner trois, puis déplacez-les pour former des lignes de trois et retirer des pions adverses.",
    "option.ruleset": "Règles",
    "option.ruleset.dobutsu": "Dōbutsu shōgi",
    "option.ruleset.yokai": "Yōkaï no Mori",
    "option.ruleset.about": "Dōbutsu shōgi : un coup ne peut jamais laisser son propre lion en prise, et un lion qui avance sur la dernière rangée gagne. Yōkaï no Mori : tous les coups sont permis, capturer le koropokkuru adverse gagne, et un koropokkuru qui se trouve sur la dernière rangée sans être attaqué, après n'importe quel coup, gagne aussi.",
    "option.traps": "Pièges",
    "option.traps.any": "Tous les pièges",
    "option.traps.opponent": "Seulement les pièges adverses",
    "option.traps.about": "Tous les pièges : une pièce sur n'importe quel piège a la force 0 (les fiches de règles). Seulement les pièges adverses : seuls les trois pièges autour du sanctuaire adverse affaiblissent une pièce (la règle internationale courante).",
    "option.repetition": "Répétition",
    "option.repetition.draw": "Nulle",
    "option.repetition.tiebreak": "Départage",
    "option.repetition.about": "Nulle : la troisième fois qu'une position se répète, la partie est nulle. Départage : le camp dont la force totale sur le plateau est la plus grande perd alors ; à égalité, le camp qui a fait la dernière prise perd ; sans aucune prise, la partie est nulle.",
    "piece.stone": "pion",
    "piece.dobutsu.animals.L": "Lion",
    "piece.dobutsu.animals.E": "Éléphant",
    "piece.dobutsu.animals.G": "Girafe",
    "piece.dobutsu.animals.C": "Poussin",
    "piece.dobutsu.animals.H": "Coq",
    "piece.dobutsu.yokai.L": "Koropokkuru",
    "piece.dobutsu.yokai.E": "Kitsune",
    "piece.dobutsu.yokai.G": "Tanuki",
    "piece.dobutsu.yokai.C": "Kodama",
    "piece.dobutsu.yokai.H": "Kodama samurai",
    "piece.gorogoro.animals.K": "Lion",
    "piece.gorogoro.animals.G": "Chien",
    "piece.gorogoro.animals.S": "Chat",
    "piece.gorogoro.animals.P": "Poussin",
    "piece.gorogoro.animals.+S": "Super chat",
    "piece.gorogoro.animals.+P": "Coq",
    "piece.gorogoro.yokai.K": "Koropokkuru",
    "piece.gorogoro.yokai.G": "Kirin",
    "piece.gorogoro.yokai.S": "Oni",
    "piece.gorogoro.yokai.P": "Kodama",
    "piece.gorogoro.yokai.+S": "Super oni",
    "piece.gorogoro.yokai.+P": "Kodama samurai",
    "piece.jungle.E": "éléphant",
    "piece.jungle.L": "lion",
    "piece.jungle.T": "tigre",
    "piece.jungle.P": "panthère",
    "piece.jungle.D": "chien",
    "piece.jungle.W": "loup",
    "piece.jungle.C": "chat",
    "piece.jungle.R": "rat",
  },
};

// The languages of one file each: their words for every area are already in that file.
for (const l of MORE_LANGUAGES) {
  TEXT[l.code] = { ...l.ui };
  GAME_TEXT[l.code] = { ...l.game };
}

// The pages about players, the chat, the game records and the analysis board keep their
// words in their own files (i18n-players.js, i18n-chat.js, i18n-analysis.js).
for (const l of LANGS) Object.assign(TEXT[l], PLAYER_TEXT[l], CHAT_TEXT[l], ANALYSIS_TEXT[l], OUTCOME_TEXT[l]);

// The stone games' teaching (game/phases.js) keeps its words in i18n-teaching.js.
for (const l of LANGS) Object.assign(TEXT[l], TEACHING_TEXT[l]);

// Following players (the lobby's list, the profile's dot and button): i18n-relations.js.
for (const l of LANGS) Object.assign(TEXT[l], RELATION_TEXT[l]);

// Reports, warnings and the moderation page: i18n-moderation.js.
for (const l of LANGS) Object.assign(TEXT[l], MODERATION_TEXT[l]);

// TV (its page and the lobby's small board): i18n-tv.js.
for (const l of LANGS) Object.assign(TEXT[l], TV_TEXT[l]);

// Arena tournaments (their pages and the lobby's line): i18n-tournaments.js.
for (const l of LANGS) Object.assign(TEXT[l], TOURNAMENT_TEXT[l]);
// Swiss tournaments (their page): i18n-swiss.js.
for (const l of LANGS) Object.assign(TEXT[l], SWISS_TEXT[l]);
// Puzzles (their page and the menu's link): i18n-puzzles.js.
for (const l of LANGS) Object.assign(TEXT[l], PUZZLE_TEXT[l]);
// A finished game's computer review (the game page): i18n-review.js.
for (const l of LANGS) Object.assign(TEXT[l], REVIEW_TEXT[l]);

// The server's refusals no area covers: i18n-errors.js.
for (const l of LANGS) Object.assign(TEXT[l], ERROR_TEXT[l]);

// Both dictionaries, for the page tests (every key in both languages, no English left).
export const DICTIONARIES = { ui: TEXT, game: GAME_TEXT };

// The words a page keeps in its own file ({en, fr}: account.js, challenge.js...), with
// every one-file language's words for it (that file's `pages[name]`). Kept by name for the
// page tests' key check.
export const PAGE_WORDS = {};
export function withLanguages(name, words) {
  for (const l of MORE_LANGUAGES) words[l.code] = l.pages[name];
  PAGE_WORDS[name] = words;
  return words;
}

function detect() {
  try {
    const stored = localStorage.getItem(STORE_KEY);
    if (LANGS.includes(stored)) return stored;
  } catch {
    /* no storage: fall back to the browser's language */
  }
  const wanted = (globalThis.navigator && (navigator.languages || [navigator.language])) || ["en"];
  for (const tag of wanted) {
    const base = String(tag || "").toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

function tellServer(value) {
  if (!globalThis.document) return;
  document.cookie = `${COOKIE}=${value}; path=/; max-age=31536000; SameSite=Lax`;
}

let lang = detect();
if (globalThis.document) document.documentElement.lang = lang;
tellServer(lang);

export function getLang() {
  return lang;
}

export function setLang(value) {
  if (!LANGS.includes(value)) return;
  lang = value;
  try {
    localStorage.setItem(STORE_KEY, value);
  } catch {
    /* private mode */
  }
  tellServer(value);
  if (globalThis.document) document.documentElement.lang = value;
}

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

// t("outcome.seen.other", {winner, why}); an unknown key shows itself (easy to spot, never blank).
export function t(key, values = {}) {
  const text = (TEXT[lang] && TEXT[lang][key]) ?? TEXT.en[key] ?? key;
  return fill(text, values);
}

// Singular or plural by n, by the language's own rule ("one" covers 0 and 1 in French,
// only 1 in English; Japanese and Chinese have one form, "other").
export function tn(key, n, values = {}) {
  const one = new Intl.PluralRules(lang).select(n) === "one";
  return t(`${key}.${one ? "one" : "other"}`, { n, ...values });
}

// A game word in the chosen language, else English, else `fallback` (describe()'s own).
export function gameWord(key, fallback) {
  const text = (GAME_TEXT[lang] && GAME_TEXT[lang][key]) ?? GAME_TEXT.en[key];
  return text ?? fallback;
}

// Fills the page's static markup: data-i18n (text), data-i18n-label (aria-label),
// data-i18n-title (title).
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) {
    el.setAttribute("title", t(el.dataset.i18nTitle));
  }
}

// An error from the server (api.js ApiError or a socket error): our sentence for its
// stable code when we have one, else the server's own.
export function errorText(err) {
  const code = err && err.code;
  const known = code && (TEXT[lang][`error.${code}`] ?? TEXT.en[`error.${code}`]);
  const text = known || (err && (err.message || err.error)) || String(code || err);
  return text.charAt(0).toUpperCase() + text.slice(1);
}
