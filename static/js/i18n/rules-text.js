// The rules pages' text, for players, in English and French: written from the decided
// rules (docs/rules/*.md) and the French rule sheets those were written from.
// Each game: an introduction, sections (title, body, the diagrams shown after it), the
// captions of those diagrams, and one line per piece for the movement diagrams.
//
// Diagrams are data drawn by the game page's own board (rules.js): "start" (the start
// position), "pieces" (one small board per piece, its dots from describe()), "ranks"
// (jungle's animals by strength), or a named position below.

import { html } from "../lib/html.js";
import { MORE_LANGUAGES } from "./lang/index.js";

// Positions for the diagrams: pieces by square (upper case first, lower case second),
// hands by letter, and marks (selected, dest, last, removed, pick, blocked, check).
export const POSITIONS = {
  dobutsu: {
    drop: {
      pieces: { a4: "g", b4: "l", a1: "E", b1: "L", c1: "G" },
      hands: { first: { C: 1 } },
      marks: { "C*": ["selected"], c4: ["dest"], a3: ["dest"], b3: ["dest"], c3: ["dest"], a2: ["dest"], b2: ["dest"], c2: ["dest"] },
    },
    promote: {
      pieces: { b4: "g", a4: "l", b3: "C", b1: "L" },
      marks: { b3: ["selected"], b4: ["dest"] },
    },
    try: {
      pieces: { a4: "l", c3: "L", a1: "E" },
      marks: { c3: ["selected"], c4: ["dest"], b4: ["blocked"] },
    },
  },
  gorogoro: {
    promote: {
      pieces: { c6: "k", a6: "s", c4: "S", c1: "K", d1: "G" },
      marks: { c4: ["selected"], b5: ["dest"], c5: ["dest"], d5: ["dest"], b3: ["dest"], d3: ["dest"] },
    },
    nifu: {
      pieces: { c6: "k", d5: "g", b3: "P", c1: "K" },
      hands: { first: { P: 1 } },
      marks: { "P*": ["selected"], b1: ["blocked"], b2: ["blocked"], b4: ["blocked"], b5: ["blocked"], b6: ["blocked"], a6: ["blocked"], d6: ["blocked"], e6: ["blocked"] },
    },
    check: {
      pieces: { c6: "k", b6: "g", d6: "g", c5: "P", b4: "+P", c1: "K" },
      marks: { c4: ["last"], c5: ["last"], c6: ["check"] },
    },
  },
  jungle: {
    step: {
      pieces: { d2: "C", a9: "l", g1: "L" },
      marks: { d2: ["selected"], c2: ["dest"], e2: ["dest"], d3: ["dest"], d1: ["blocked"] },
    },
    swim: {
      pieces: { c5: "R", a9: "l", g1: "L" },
      marks: { c5: ["selected"], b5: ["dest"], c4: ["dest"], c6: ["dest"], d5: ["dest"] },
    },
    jump: {
      pieces: { d5: "L", f5: "r", b7: "w", b3: "T", g9: "t" },
      marks: { d5: ["selected"], a5: ["dest"], d4: ["dest"], d6: ["dest"], g5: ["blocked"], b3: ["selected"], b7: ["dest"] },
    },
    trap: {
      pieces: { d8: "L", c8: "c", a9: "l", g1: "T" },
      marks: { c8: ["selected"], d8: ["dest"] },
    },
    rat: {
      pieces: { a5: "R", a6: "e", g1: "L", a9: "l" },
      marks: { a5: ["selected"], a6: ["dest"], a4: ["dest"], b5: ["dest"] },
    },
  },
  yote: {
    place: {
      pieces: { b2: "S", c3: "S", e4: "s", c4: "s" },
      hands: { first: { S: 10 }, second: { S: 10 } },
      marks: { c3: ["last"] },
    },
    step: {
      pieces: { c3: "S", e2: "s", a5: "s" },
      hands: { first: { S: 11 }, second: { S: 10 } },
      marks: { c3: ["selected"], c2: ["dest"], c4: ["dest"], b3: ["dest"], d3: ["dest"] },
    },
    jump: {
      pieces: { b3: "S", c3: "s", e5: "s", a1: "s", f2: "S" },
      hands: { first: { S: 10 }, second: { S: 9 } },
      marks: { b3: ["selected"], d3: ["dest"] },
    },
    remove: {
      pieces: { d3: "S", e5: "s", a1: "s", f2: "S" },
      hands: { first: { S: 10 }, second: { S: 9 } },
      marks: { b3: ["last"], d3: ["last"], c3: ["removed"], e5: ["pick"], a1: ["pick"] },
    },
  },
  wali: {
    place: {
      pieces: { b2: "S", c2: "S", d4: "s", e3: "s" },
      hands: { first: { S: 10 }, second: { S: 10 } },
      marks: { a2: ["blocked"], d2: ["blocked"] },
    },
    line: {
      pieces: { b2: "S", c2: "S", d3: "S", d1: "s", a4: "s", f5: "s", e3: "s", b3: "s" },
      hands: { first: { S: 0 }, second: { S: 0 } },
      marks: { d3: ["selected"], d2: ["dest"] },
    },
    remove: {
      pieces: { b2: "S", c2: "S", d2: "S", d1: "s", a4: "s", f5: "s", e3: "s", b3: "s" },
      hands: { first: { S: 0 }, second: { S: 0 } },
      marks: { d3: ["last"], d2: ["last"], d1: ["pick"], a4: ["pick"], f5: ["pick"], e3: ["pick"], b3: ["pick"] },
    },
  },
};

const EN = {
  dobutsu: {
    intro: html`<p>Dōbutsu shōgi (“animal shogi”) was created in 2008 by Madoka Kitao, a professional
      shogi player, to teach children the game of shogi. It is also sold as <em>Yōkaï no Mori</em>,
      with forest spirits instead of animals: the same game with other names and pictures. On Kodama
      you can choose either set of pictures.</p>`,
    sections: [
      {
        title: "The board and the pieces",
        body: html`<p>The board has 3 columns and 4 rows. Each player has four pieces: a
          <strong>lion</strong> in the middle of the row nearest them, an <strong>elephant</strong>
          and a <strong>giraffe</strong> on either side, and a <strong>chick</strong> in front of the lion.
          The two chicks face each other. Pieces point towards the opponent: on the screen, your
          opponent's pieces are upside down, as they would be across a real table.</p>
          <p>The row farthest from you, your opponent's home row, is your <strong>promotion
          zone</strong> (tinted on the board).</p>`,
        show: ["start"],
      },
      {
        title: "How the pieces move",
        body: html`<p>Every piece moves <strong>one square</strong> at a time, in one of the directions
          shown by the dots on it, to an empty square or onto an enemy piece (capturing it). Only
          the lion may go in every direction.</p>`,
        show: ["pieces"],
      },
      {
        title: "A turn",
        body: html`<p>The first player is drawn at random (or chosen when the game is created).
          On your turn you do exactly one of these things; you cannot pass:</p>
          <ul><li><strong>move</strong> one of your pieces to an empty square;</li>
          <li><strong>capture</strong>: move one of your pieces onto an enemy piece;</li>
          <li><strong>drop</strong> a piece from your hand onto an empty square.</li></ul>`,
      },
      {
        title: "Captures and drops",
        body: html`<p>A captured piece goes to your <strong>hand</strong> (shown next to your name)
          and changes sides: it is now yours. Instead of moving, you may drop a piece from your hand
          on <strong>any empty square</strong>, pointing towards your opponent. A captured hen goes
          to your hand as a chick, and a piece is always dropped as it started (a chick, never a hen).</p>
          <p>A chick dropped on the far row stays a chick: it can never move again, but dropping it
          there is allowed. Two chicks of one player may stand on the same column.</p>`,
        show: ["drop"],
      },
      {
        title: "Promotion",
        body: html`<p>A chick that <strong>moves</strong> onto the far row, by capturing or not,
          turns over at once into a <strong>hen</strong>; there is no choice. The hen moves one
          square in any direction except diagonally backwards. A chick dropped on the far row does
          not promote.</p>`,
        show: ["promote"],
      },
      {
        title: "How the game ends",
        body: html`<ul>
          <li><strong>Catch the lion.</strong> You may never make a move that leaves your own lion
            where an enemy piece could capture it: when your lion is attacked, you must save it.
            A player who has <strong>no legal move</strong> left loses: by <em>checkmate</em> when
            their lion is attacked, otherwise because no move is left.</li>
          <li><strong>The try.</strong> A player whose lion moves onto the far row wins at once.
            The lion can only go there if no enemy piece attacks that square.</li>
          <li><strong>Repetition.</strong> When the same position (board, hands and player to move)
            occurs for the third time, the game is a draw.</li></ul>
          <p>Good to know: the game has been solved by computers: with perfect play, the second
          player wins.</p>`,
        show: ["try"],
      },
    ],
    captions: {
      drop: "The first player has a chick in hand: it may be dropped on any empty square.",
      promote: "The chick on b3 captures the giraffe on b4 and becomes a hen.",
      try: "The lion on c3 wins by moving to c4, which nothing attacks; b4 is attacked by the enemy lion, so the lion may not go there.",
    },
    pieces: {
      L: "One square in any of the eight directions.",
      E: "One square diagonally, in any of the four diagonals.",
      G: "One square forwards, backwards or sideways.",
      C: "One square straight forwards only. Promotes to a hen on the far row.",
      H: "A promoted chick: one square in any direction except diagonally backwards.",
    },
  },
  gorogoro: {
    intro: html`<p>Gorogoro shōgi, in Japan <em lang="ja">ごろごろどうぶつしょうぎ</em>, is the Japan
      Shogi Association's 5×6 animal shogi, supervised by Madoka Kitao, who invented dōbutsu shōgi;
      it is also sold as <em>Yōkaï no Mori 5×6</em>. It plays like dōbutsu shōgi on a larger board,
      with the promotion and drop rules of real shogi, and only one way to win: checkmate.</p>`,
    sections: [
      {
        title: "The board and the pieces",
        body: html`<p>The board has 5 columns and 6 rows. Rows 1–2 are the first player's
          <strong>camp</strong>, rows 3–4 a neutral zone, rows 5–6 the second player's camp. Your
          <strong>promotion zone</strong> is your opponent's camp (tinted on the board).</p>
          <p>Each player has 8 pieces: a <strong>lion</strong> in the middle of their back row,
          two <strong>dogs</strong> beside it, two <strong>cats</strong> in the corners, and three
          <strong>chicks</strong> on the front row of the neutral zone, facing the enemy chicks.
          Pieces point towards the opponent.</p>`,
        show: ["start"],
      },
      {
        title: "How the pieces move",
        body: html`<p>Every piece moves <strong>one square</strong> at a time, in one of the
          directions shown by the dots on it (red dots for a promoted piece), to an empty square or
          onto an enemy piece, capturing it.</p>`,
        show: ["pieces"],
      },
      {
        title: "A turn, captures and drops",
        body: html`<p>On your turn you either move one of your pieces (capturing or not) or drop a
          piece from your hand; you cannot pass. A captured piece goes to your <strong>hand</strong>
          and becomes yours; a promoted piece goes back to its unpromoted side.</p>
          <p>A piece from your hand may be dropped on any empty square, always unpromoted, except:</p>
          <ol><li>a chick may not be dropped on the last row (it could never move);</li>
          <li>a chick may not be dropped on a column where you already have a chick
            (<em>nifu</em>, “two pawns” in shogi; a hen does not count);</li>
          <li>a chick may not be dropped to give checkmate at once (giving check is fine, and so is
            mating by moving a chick).</li></ol>`,
        show: ["nifu"],
      },
      {
        title: "Promotion",
        body: html`<p>A <strong>cat</strong> or a <strong>chick</strong> may promote on any move
          that starts in, ends in or enters your promotion zone, captures included. Promotion is
          <strong>optional</strong>: the board asks you. The cat becomes a <strong>power-up
          cat</strong> and the chick a <strong>hen</strong>; both move like a dog.</p>
          <p>One exception: a chick that reaches the last row <strong>must</strong> promote. A piece
          dropped in the zone does not promote on the drop, but may on a later move.</p>`,
        show: ["promote"],
      },
      {
        title: "How the game ends",
        body: html`<ul>
          <li><strong>Checkmate.</strong> You may never make a move that leaves your own lion where
            an enemy piece could capture it. When the lion is attacked it is in <em>check</em>
            (the board shows its square in red); a player with no legal move left loses.
            There is no try rule in this game: a lion reaching the far rows does not win.</li>
          <li><strong>Repetition.</strong> When the same position (board, hands and player to move)
            occurs for the third time, the game is a draw.</li></ul>`,
        show: ["check"],
      },
    ],
    captions: {
      promote: "The cat on c4 may go to b5, c5 or d5 (entering the zone: promote or not) or back to b3 or d3.",
      nifu: "The first player has a chick in hand. Not on column b, which already holds a chick, and not on the last row.",
      check: "The chick moves from c4 to c5 and gives check: the lion on c6 is attacked (shown in red) and must be saved at once.",
    },
    pieces: {
      K: "One square in any of the eight directions.",
      G: "One square forwards, diagonally forwards, sideways or straight back.",
      S: "One square forwards or diagonally, in any of the four diagonals. Promotes.",
      P: "One square straight forwards. Promotes; must promote on the last row.",
      "+S": "A promoted cat: moves like a dog.",
      "+P": "A promoted chick: moves like a dog.",
    },
  },
  jungle: {
    intro: html`<p>Dou shou qi, “the game of fighting animals”, is a Chinese game from the 19th
      century, also called <em>Jungle</em>. Eight animals a side, each with its strength, race
      across the board to enter the enemy's den.</p>`,
    sections: [
      {
        title: "The board",
        body: html`<p>The board has 7 columns and 9 rows with special squares:</p>
          <ul><li>two <strong>lakes</strong> of water in the middle (six squares each);</li>
          <li>each player's <strong>den</strong>, in the middle of their home row (d1 for the first
            player, d9 for the second);</li>
          <li>three <strong>traps</strong> around each den (striped on the board).</li></ul>`,
        show: ["start"],
      },
      {
        title: "The animals",
        body: html`<p>Each player has eight animals, each with its strength printed on it: the higher,
          the stronger. An animal may capture an enemy of <strong>equal or lower</strong> strength.
          Animals point towards the opponent.</p>`,
        show: ["ranks"],
      },
      {
        title: "Moving",
        body: html`<p>On your turn you move one animal <strong>one square</strong> forwards,
          backwards or sideways (never diagonally) to an empty square or onto an enemy it may
          capture; you cannot pass. No animal may enter <strong>its own den</strong>. Captured
          animals leave the game for good.</p>`,
        show: ["step"],
      },
      {
        title: "Water: the rat swims, the lion and the tiger jump",
        body: html`<p>Only the <strong>rat</strong> may enter the water, where it moves as on land.</p>
          <p>The <strong>lion</strong> and the <strong>tiger</strong> may jump over a lake in a straight
          line, along a row or a column, from the bank on one side to the first land square on the
          other side — unless a rat, of either side, is in the water on the way. They may land on an
          empty square or capture an enemy there.</p>`,
        show: ["swim", "jump"],
      },
      {
        title: "Exceptions to the strength order",
        body: html`<ul>
          <li>The <strong>rat</strong> (1) captures the <strong>elephant</strong> (8), and the
            elephant cannot capture the rat.</li>
          <li>A rat in the water cannot capture the elephant on land. Rats capture each other
            anywhere, in or out of the water. Animals on land can never capture a rat in the water.</li>
          <li><strong>Traps</strong>: an animal standing on a trap has strength 0, so any enemy may
            capture it there (even a rat; and the elephant may capture a rat on a trap). It still
            attacks with its full strength, and gets it back as soon as it leaves the trap.</li></ul>`,
        show: ["rat", "trap"],
      },
      {
        title: "How the game ends",
        body: html`<ul>
          <li>An animal that enters the opponent's <strong>den</strong> wins at once.</li>
          <li>A player who has no animal left, or no legal move on their turn, loses.</li>
          <li><strong>Repetition</strong>: the third time the same position occurs, the game is
            drawn (or decided by the tiebreak option below).</li>
          <li>After 100 moves in a row (counting both players) without a capture, the game is drawn.</li></ul>`,
      },
    ],
    captions: {
      step: "The cat on d2 may go to c2, e2 or d3, but never into its own den d1.",
      swim: "The rat swims: from c5 it may go to b5, c4, c6 or d5.",
      jump: "The lion on d5 jumps the left lake to a5; the enemy rat on f5 blocks its jump to g5. The tiger on b3 jumps the lake to b7 and captures the wolf.",
      rat: "The rat on a5 may capture the elephant on a6 (or go to a4, or swim to b5).",
      trap: "The first player's lion stands on the trap d8, by the second player's den: its strength is 0 there, and the cat on c8 may capture it.",
    },
  },
  yote: {
    intro: html`<p>Yoté is a West African game of stones: quick, aggressive, and every capture
      takes <strong>two</strong> enemy stones.</p>`,
    sections: [
      {
        title: "The board and the stones",
        body: html`<p>The board has 6 columns and 5 rows and is <strong>empty</strong> at the start.
          Each player has 12 stones in hand: light for the first player, dark for the second. The
          number by each hand shows how many stones are left to place.</p>`,
        show: ["start"],
      },
      {
        title: "A turn",
        body: html`<p>On your turn you do exactly one of these things:</p>
          <ol><li><strong>Place</strong> a stone from your hand on any empty square. You may place a
            stone whenever you still have one: you need not place them all before moving.</li>
          <li><strong>Step</strong> one of your stones one square forwards, backwards or sideways
            (not diagonally) to an empty square.</li>
          <li><strong>Capture</strong> by jumping: jump one of your stones over an adjacent enemy
            stone (not diagonally) onto the empty square just beyond it. The jumped stone is removed,
            and then you remove <strong>one more enemy stone of your choice</strong> from the board.
            If the opponent has no stone left on the board after the jump, there is nothing more
            to remove. Jumps never chain.</li></ol>
          <p><strong>No immediate take-back</strong>: you may not step the stone you stepped on your
          previous turn straight back to the square it came from.</p>`,
        show: ["place", "step", "jump", "remove"],
      },
      {
        title: "How the game ends",
        body: html`<ul>
          <li>A player with <strong>no stone left</strong>, on the board or in hand, loses.</li>
          <li>A player who cannot move on their turn loses.</li>
          <li>The third time the same position occurs, the game is drawn; and after 50 moves in a
            row (counting both players) with neither a placement nor a capture, too.</li></ul>`,
      },
    ],
    captions: {
      place: "A stone placed on c3: the count by each hand goes down by one.",
      step: "The stone on c3 may step to c2, c4, b3 or d3.",
      jump: "The light stone on b3 jumps over the dark stone on c3 to d3…",
      remove: "…the jumped stone is removed, and the player chooses one more dark stone to remove: e5 or a1.",
    },
  },
  wali: {
    intro: html`<p>Wali is a West African game in two phases: first the players place their stones,
      then they move them to form lines of three and remove enemy stones.</p>`,
    sections: [
      {
        title: "The board and the stones",
        body: html`<p>The board has 6 columns and 5 rows and is <strong>empty</strong> at the start.
          Each player has 12 stones in hand: light for the first player, dark for the second.</p>`,
        show: ["start"],
      },
      {
        title: "Phase 1: placing",
        body: html`<p>The players take turns placing one stone from their hand on an empty square.
          You may never place a stone that makes <strong>three or more of your stones in a
          row</strong>, horizontally or vertically. Nothing is captured during this phase.</p>
          <p>If you still have stones but nowhere to place one, your turn is skipped automatically.
          When neither player can place a stone, the stones left in hand are set aside and the
          second phase begins. The player who did not make the last placement moves first (when
          all 24 stones were placed, that is the first player).</p>`,
        show: ["place"],
      },
      {
        title: "Phase 2: moving and capturing",
        body: html`<p>On your turn you must <strong>step</strong> one of your stones one square
          forwards, backwards or sideways (not diagonally) to an empty square. If the stone you moved
          is then part of a line of <strong>three or more</strong> of your stones in a row,
          horizontally or vertically, you <strong>remove one enemy stone of your choice</strong>.</p>
          <p>Only <em>forming</em> a line captures: a line that stays as it is captures nothing on later
          turns. But you may step a stone out of a line and back in again to form it anew, and one
          step that breaks a line while forming another captures too. Making a line longer (four in
          a row) captures; forming two lines with one step removes one stone only.</p>`,
        show: ["line", "remove"],
      },
      {
        title: "How the game ends",
        body: html`<ul>
          <li>A player with <strong>no stone left</strong> on the board loses.</li>
          <li>A player who cannot step on their turn in the second phase loses.</li>
          <li>The third time the same position occurs, the game is drawn; and after 100 moves in a
            row in the second phase without a capture, too.</li></ul>`,
      },
    ],
    captions: {
      place: "The light stones on b2 and c2: placing a third light stone on a2 or d2 would make three in a row, which is not allowed.",
      line: "Phase 2: the light stone on d3 steps to d2…",
      remove: "…forming the line b2–c2–d2: the player removes any one dark stone.",
    },
  },
};

const FR = {
  dobutsu: {
    intro: html`<p>Le dōbutsu shōgi (« shōgi des animaux ») a été créé en 2008 par Madoka Kitao,
      joueuse professionnelle de shōgi, pour apprendre le shōgi aux enfants. Il est aussi vendu sous
      le nom de <em>Yōkaï no Mori</em>, avec des esprits de la forêt à la place des animaux : le même
      jeu, avec d'autres noms et d'autres images. Sur Kodama, vous pouvez choisir l'un ou l'autre
      jeu d'images.</p>`,
    sections: [
      {
        title: "Le plateau et les pièces",
        body: html`<p>Le plateau a 3 colonnes et 4 rangées. Chaque joueur a quatre pièces : un
          <strong>lion</strong> au milieu de la rangée la plus proche de lui, un <strong>éléphant</strong>
          et une <strong>girafe</strong> de part et d'autre, et un <strong>poussin</strong> devant le lion.
          Les deux poussins se font face. Les pièces sont tournées vers l'adversaire : à l'écran, les
          pièces de votre adversaire sont à l'envers, comme de l'autre côté d'une vraie table.</p>
          <p>La rangée la plus éloignée de vous, celle de départ de votre adversaire, est votre
          <strong>zone de promotion</strong> (teintée sur le plateau).</p>`,
        show: ["start"],
      },
      {
        title: "Le déplacement des pièces",
        body: html`<p>Chaque pièce se déplace d'<strong>une seule case</strong> à la fois, dans une des
          directions indiquées par ses points, vers une case libre ou sur une pièce adverse (qu'elle
          capture). Seul le lion peut aller dans toutes les directions.</p>`,
        show: ["pieces"],
      },
      {
        title: "Un tour de jeu",
        body: html`<p>Le premier joueur est tiré au sort (ou choisi à la création de la partie).
          À votre tour, vous faites une seule de ces actions ; on ne peut pas passer son tour :</p>
          <ul><li><strong>déplacer</strong> une de vos pièces sur une case libre ;</li>
          <li><strong>capturer</strong> : déplacer une de vos pièces sur une pièce adverse ;</li>
          <li><strong>parachuter</strong> une pièce de votre réserve sur une case libre.</li></ul>`,
      },
      {
        title: "Captures et parachutages",
        body: html`<p>Une pièce capturée va dans votre <strong>réserve</strong> (affichée près de votre
          nom) et change de camp : elle est désormais à vous. Au lieu de déplacer une pièce, vous
          pouvez en parachuter une de votre réserve sur <strong>n'importe quelle case libre</strong>,
          tournée vers votre adversaire. Un coq capturé revient dans la réserve en poussin, et une pièce
          est toujours parachutée sur sa face de départ (un poussin, jamais un coq).</p>
          <p>Un poussin parachuté sur la dernière rangée reste un poussin : il ne pourra plus jamais
          bouger, mais le parachuter là est permis. Deux poussins d'un même joueur peuvent se trouver
          sur la même colonne.</p>`,
        show: ["drop"],
      },
      {
        title: "La promotion",
        body: html`<p>Un poussin qui <strong>avance</strong> sur la dernière rangée, en capturant ou non,
          se retourne aussitôt en <strong>coq</strong> ; il n'y a pas le choix. Le coq se déplace d'une
          case dans toutes les directions sauf les diagonales arrière. Un poussin parachuté sur la
          dernière rangée n'est pas promu.</p>`,
        show: ["promote"],
      },
      {
        title: "La fin de la partie",
        body: html`<ul>
          <li><strong>Attraper le lion.</strong> Vous ne pouvez jamais jouer un coup qui laisse votre
            propre lion là où une pièce adverse pourrait le capturer : quand votre lion est attaqué,
            vous devez le sauver. Le joueur qui n'a <strong>plus aucun coup légal</strong> perd : par
            <em>échec et mat</em> si son lion est attaqué, sinon faute de coup.</li>
          <li><strong>L'essai.</strong> Un joueur dont le lion avance sur la dernière rangée gagne
            aussitôt. Le lion ne peut y aller que si aucune pièce adverse n'attaque cette case.</li>
          <li><strong>La répétition.</strong> Quand la même position (plateau, réserves et joueur au
            trait) se présente pour la troisième fois, la partie est nulle.</li></ul>
          <p>Bon à savoir : le jeu a été résolu par ordinateur ; en jouant parfaitement, le second
          joueur gagne.</p>`,
        show: ["try"],
      },
    ],
    captions: {
      drop: "Le premier joueur a un poussin en réserve : il peut le parachuter sur n'importe quelle case libre.",
      promote: "Le poussin en b3 capture la girafe en b4 et devient un coq.",
      try: "Le lion en c3 gagne en allant en c4, que rien n'attaque ; b4 est attaquée par le lion adverse, le lion ne peut donc pas y aller.",
    },
    pieces: {
      L: "Une case dans n'importe laquelle des huit directions.",
      E: "Une case en diagonale, dans les quatre diagonales.",
      G: "Une case en avant, en arrière ou sur le côté.",
      C: "Une case tout droit en avant seulement. Devient un coq sur la dernière rangée.",
      H: "Un poussin promu : une case dans toutes les directions sauf les diagonales arrière.",
    },
  },
  gorogoro: {
    intro: html`<p>Le gorogoro shōgi, au Japon <em lang="ja">ごろごろどうぶつしょうぎ</em>, est le
      shōgi des animaux sur 5×6 de la Fédération japonaise de shōgi, supervisé par Madoka Kitao,
      l'inventrice du dōbutsu shōgi ; il est aussi vendu sous le nom de <em>Yōkaï no Mori
      5×6</em>. Il se joue comme le dōbutsu shōgi sur un plus grand plateau, avec les règles de
      promotion et de parachutage du vrai shōgi, et un seul but : mettre le lion adverse échec et
      mat.</p>`,
    sections: [
      {
        title: "Le plateau et les pièces",
        body: html`<p>Le plateau a 5 colonnes et 6 rangées. Les rangées 1–2 sont le
          <strong>camp</strong> du premier joueur, les rangées 3–4 une zone neutre, les rangées 5–6 le
          camp du second joueur. Votre <strong>zone de promotion</strong> est le camp adverse (teinté
          sur le plateau).</p>
          <p>Chaque joueur a 8 pièces : un <strong>lion</strong> au milieu de sa dernière rangée, deux
          <strong>chiens</strong> à ses côtés, deux <strong>chats</strong> dans les coins, et trois
          <strong>poussins</strong> sur la première rangée de la zone neutre, face aux poussins
          adverses. Les pièces sont tournées vers l'adversaire.</p>`,
        show: ["start"],
      },
      {
        title: "Le déplacement des pièces",
        body: html`<p>Chaque pièce se déplace d'<strong>une seule case</strong> à la fois, dans une des
          directions indiquées par ses points (rouges pour une pièce promue), vers une case libre ou
          sur une pièce adverse, qu'elle capture.</p>`,
        show: ["pieces"],
      },
      {
        title: "Un tour, captures et parachutages",
        body: html`<p>À votre tour, vous déplacez une de vos pièces (en capturant ou non) ou vous
          parachutez une pièce de votre réserve ; on ne peut pas passer. Une pièce capturée va dans
          votre <strong>réserve</strong> et devient la vôtre ; une pièce promue revient sur sa face
          de départ.</p>
          <p>Une pièce de la réserve peut être parachutée sur n'importe quelle case libre, toujours non
          promue, sauf :</p>
          <ol><li>un poussin ne peut pas être parachuté sur la dernière rangée (il ne pourrait plus
            bouger) ;</li>
          <li>un poussin ne peut pas être parachuté sur une colonne où vous avez déjà un poussin
            (<em>nifu</em>, « deux pions » au shōgi ; un coq ne compte pas) ;</li>
          <li>un poussin ne peut pas être parachuté pour mettre mat immédiatement (donner échec est
            permis, et mater en déplaçant un poussin aussi).</li></ol>`,
        show: ["nifu"],
      },
      {
        title: "La promotion",
        body: html`<p>Un <strong>chat</strong> ou un <strong>poussin</strong> peut être promu à
          chaque coup qui part de votre zone de promotion, y arrive ou y entre, captures comprises.
          La promotion est <strong>facultative</strong> : le plateau vous pose la question. Le chat
          devient un <strong>super chat</strong> et le poussin un <strong>coq</strong> ; tous deux
          se déplacent comme un chien.</p>
          <p>Une exception : un poussin qui atteint la dernière rangée <strong>doit</strong> être promu.
          Une pièce parachutée dans la zone n'est pas promue en arrivant, mais peut l'être à un coup
          suivant.</p>`,
        show: ["promote"],
      },
      {
        title: "La fin de la partie",
        body: html`<ul>
          <li><strong>L'échec et mat.</strong> Vous ne pouvez jamais jouer un coup qui laisse votre lion
            là où une pièce adverse pourrait le capturer. Quand le lion est attaqué, il est en
            <em>échec</em> (le plateau montre sa case en rouge) ; le joueur qui n'a plus aucun coup
            légal perd. Il n'y a pas de règle d'essai dans ce jeu : un lion qui atteint le camp
            adverse ne gagne pas.</li>
          <li><strong>La répétition.</strong> Quand la même position (plateau, réserves et joueur au
            trait) se présente pour la troisième fois, la partie est nulle.</li></ul>`,
        show: ["check"],
      },
    ],
    captions: {
      promote: "Le chat en c4 peut aller en b5, c5 ou d5 (il entre dans la zone : promotion ou non) ou reculer en b3 ou d3.",
      nifu: "Le premier joueur a un poussin en réserve. Pas sur la colonne b, qui a déjà un poussin, ni sur la dernière rangée.",
      check: "Le poussin avance de c4 en c5 et donne échec : le lion en c6 est attaqué (en rouge) et doit être sauvé tout de suite.",
    },
    pieces: {
      K: "Une case dans n'importe laquelle des huit directions.",
      G: "Une case en avant, en diagonale avant, sur le côté ou tout droit en arrière.",
      S: "Une case en avant ou en diagonale, dans les quatre diagonales. Peut être promu.",
      P: "Une case tout droit en avant. Peut être promu ; doit l'être sur la dernière rangée.",
      "+S": "Un chat promu : se déplace comme un chien.",
      "+P": "Un poussin promu : se déplace comme un chien.",
    },
  },
  jungle: {
    intro: html`<p>Le dou shou qi, « le jeu des animaux qui se battent », est un jeu chinois du
      XIXe siècle, aussi appelé <em>jeu de la jungle</em>. Huit animaux par camp, chacun avec sa force,
      traversent le plateau pour entrer dans le sanctuaire adverse.</p>`,
    sections: [
      {
        title: "Le plateau",
        body: html`<p>Le plateau a 7 colonnes et 9 rangées, avec des cases particulières :</p>
          <ul><li>deux <strong>lacs</strong> au centre (six cases chacun) ;</li>
          <li>le <strong>sanctuaire</strong> de chaque joueur, au milieu de sa première rangée (d1 pour
            le premier joueur, d9 pour le second) ;</li>
          <li>trois <strong>pièges</strong> autour de chaque sanctuaire (rayés sur le plateau).</li></ul>`,
        show: ["start"],
      },
      {
        title: "Les animaux",
        body: html`<p>Chaque joueur a huit animaux, chacun avec sa force inscrite dessus : plus elle est
          grande, plus l'animal est fort. Un animal peut manger un animal adverse de force
          <strong>égale ou inférieure</strong>. Les animaux sont tournés vers l'adversaire.</p>`,
        show: ["ranks"],
      },
      {
        title: "Les déplacements",
        body: html`<p>À votre tour, vous déplacez un animal d'<strong>une case</strong> en avant, en
          arrière ou sur le côté (jamais en diagonale), vers une case libre ou sur un animal adverse
          qu'il peut manger ; on ne peut pas passer. Aucun animal ne peut entrer dans
          <strong>son propre sanctuaire</strong>. Les animaux mangés quittent la partie.</p>`,
        show: ["step"],
      },
      {
        title: "L'eau : le rat nage, le lion et le tigre sautent",
        body: html`<p>Seul le <strong>rat</strong> peut entrer dans l'eau, où il se déplace comme sur
          terre.</p>
          <p>Le <strong>lion</strong> et le <strong>tigre</strong> peuvent sauter par-dessus un lac en
          ligne droite, le long d'une rangée ou d'une colonne, du bord d'un côté jusqu'à la première
          case de terre de l'autre côté — sauf si un rat, de n'importe quel camp, se trouve dans l'eau
          sur le passage. Ils arrivent sur une case libre ou y mangent un animal adverse.</p>`,
        show: ["swim", "jump"],
      },
      {
        title: "Les exceptions à l'ordre des forces",
        body: html`<ul>
          <li>Le <strong>rat</strong> (1) mange l'<strong>éléphant</strong> (8), et l'éléphant ne peut
            pas manger le rat.</li>
          <li>Un rat dans l'eau ne peut pas manger l'éléphant sur la terre. Les rats se mangent entre
            eux partout, dans l'eau ou en en sortant. Un animal sur la terre ne peut jamais manger un
            rat dans l'eau.</li>
          <li><strong>Les pièges</strong> : un animal sur un piège a une force de 0, tout animal adverse
            peut donc l'y manger (même un rat ; et l'éléphant peut manger un rat sur un piège). Il attaque
            toujours avec sa pleine force, et la retrouve dès qu'il quitte le piège.</li></ul>`,
        show: ["rat", "trap"],
      },
      {
        title: "La fin de la partie",
        body: html`<ul>
          <li>Un animal qui entre dans le <strong>sanctuaire</strong> adverse gagne aussitôt.</li>
          <li>Le joueur qui n'a plus d'animal, ou plus aucun coup légal à son tour, perd.</li>
          <li><strong>La répétition</strong> : la troisième fois que la même position se présente, la
            partie est nulle (ou départagée selon l'option ci-dessous).</li>
          <li>Après 100 coups d'affilée (des deux joueurs) sans prise, la partie est nulle.</li></ul>`,
      },
    ],
    captions: {
      step: "Le chat en d2 peut aller en c2, e2 ou d3, mais jamais dans son propre sanctuaire en d1.",
      swim: "Le rat nage : depuis c5, il peut aller en b5, c4, c6 ou d5.",
      jump: "Le lion en d5 saute le lac de gauche jusqu'en a5 ; le rat adverse en f5 l'empêche de sauter jusqu'en g5. Le tigre en b3 saute le lac jusqu'en b7 et mange le loup.",
      rat: "Le rat en a5 peut manger l'éléphant en a6 (ou aller en a4, ou nager en b5).",
      trap: "Le lion du premier joueur est sur le piège d8, près du sanctuaire du second joueur : sa force y est de 0, et le chat en c8 peut le manger.",
    },
  },
  yote: {
    intro: html`<p>Le yoté est un jeu de pions d'Afrique de l'Ouest : rapide, offensif, et chaque
      prise enlève <strong>deux</strong> pions adverses.</p>`,
    sections: [
      {
        title: "Le plateau et les pions",
        body: html`<p>Le plateau a 6 colonnes et 5 rangées et il est <strong>vide</strong> au départ.
          Chaque joueur a 12 pions en réserve : clairs pour le premier joueur, foncés pour le second.
          Le nombre près de chaque réserve indique combien de pions restent à poser.</p>`,
        show: ["start"],
      },
      {
        title: "Un tour de jeu",
        body: html`<p>À votre tour, vous faites une seule de ces actions :</p>
          <ol><li><strong>Poser</strong> un pion de votre réserve sur n'importe quelle case libre. Vous
            pouvez poser un pion tant qu'il vous en reste : il n'est pas nécessaire de les avoir tous
            posés pour commencer à les déplacer.</li>
          <li><strong>Déplacer</strong> un de vos pions d'une case en avant, en arrière ou sur le côté
            (pas en diagonale) vers une case libre.</li>
          <li><strong>Prendre</strong> en sautant : faire sauter un de vos pions par-dessus un pion
            adverse voisin (pas en diagonale) jusqu'à la case libre juste derrière. Le pion sauté est
            retiré, puis vous retirez <strong>un second pion adverse de votre choix</strong> sur le
            plateau. S'il ne reste plus de pion adverse sur le plateau après le saut, il n'y a rien de
            plus à retirer. On n'enchaîne jamais les sauts.</li></ol>
          <p><strong>Pas de retour immédiat</strong> : vous ne pouvez pas ramener le pion que vous avez
          déplacé au tour précédent sur la case d'où il venait.</p>`,
        show: ["place", "step", "jump", "remove"],
      },
      {
        title: "La fin de la partie",
        body: html`<ul>
          <li>Le joueur qui n'a <strong>plus aucun pion</strong>, ni sur le plateau ni en réserve, perd.</li>
          <li>Le joueur qui ne peut plus jouer à son tour perd.</li>
          <li>La troisième fois que la même position se présente, la partie est nulle ; de même après
            50 coups d'affilée (des deux joueurs) sans pose ni prise.</li></ul>`,
      },
    ],
    captions: {
      place: "Un pion posé en c3 : le nombre près de chaque réserve diminue d'un.",
      step: "Le pion en c3 peut aller en c2, c4, b3 ou d3.",
      jump: "Le pion clair en b3 saute par-dessus le pion foncé en c3 jusqu'en d3…",
      remove: "…le pion sauté est retiré, et le joueur choisit un second pion foncé à retirer : e5 ou a1.",
    },
  },
  wali: {
    intro: html`<p>Le wali est un jeu d'Afrique de l'Ouest en deux temps : d'abord les joueurs posent
      leurs pions, puis ils les déplacent pour aligner trois pions et retirer des pions adverses.</p>`,
    sections: [
      {
        title: "Le plateau et les pions",
        body: html`<p>Le plateau a 6 colonnes et 5 rangées et il est <strong>vide</strong> au départ.
          Chaque joueur a 12 pions en réserve : clairs pour le premier joueur, foncés pour le second.</p>`,
        show: ["start"],
      },
      {
        title: "Première phase : la pose",
        body: html`<p>À tour de rôle, les joueurs posent un pion de leur réserve sur une case libre.
          Il est interdit de poser un pion qui ferait <strong>trois pions ou plus à la suite</strong> sur
          une même ligne, horizontale ou verticale. Aucune prise pendant cette phase.</p>
          <p>Si vous avez encore des pions mais nulle part où en poser un, votre tour passe
          automatiquement. Quand aucun des deux joueurs ne peut plus poser, les pions restés en réserve
          sont mis de côté et la seconde phase commence. Le joueur qui n'a pas fait la dernière pose
          joue le premier (quand les 24 pions ont été posés, c'est le premier joueur).</p>`,
        show: ["place"],
      },
      {
        title: "Seconde phase : déplacements et prises",
        body: html`<p>À votre tour, vous devez <strong>déplacer</strong> un de vos pions d'une case en
          avant, en arrière ou sur le côté (pas en diagonale) vers une case libre. Si le pion déplacé
          fait alors partie d'un alignement de <strong>trois pions ou plus</strong> à la suite,
          horizontal ou vertical, vous <strong>retirez un pion adverse de votre choix</strong>.</p>
          <p>C'est la <em>réalisation</em> de l'alignement qui permet la prise : un alignement qui reste
          en l'état ne donne rien aux tours suivants. Mais vous pouvez défaire un alignement en sortant
          un pion puis le reformer en le ramenant (« cheval simple »), et un seul déplacement qui défait
          un alignement en en formant un autre permet aussi une prise (« cheval double »). Allonger un
          alignement (quatre à la suite) permet une prise ; former deux alignements d'un coup n'en
          permet qu'une.</p>`,
        show: ["line", "remove"],
      },
      {
        title: "La fin de la partie",
        body: html`<ul>
          <li>Le joueur qui n'a <strong>plus aucun pion</strong> sur le plateau perd.</li>
          <li>Le joueur qui ne peut plus déplacer de pion à son tour, dans la seconde phase, perd.</li>
          <li>La troisième fois que la même position se présente, la partie est nulle ; de même après
            100 coups d'affilée sans prise dans la seconde phase.</li></ul>`,
      },
    ],
    captions: {
      place: "Les pions clairs en b2 et c2 : poser un troisième pion clair en a2 ou en d2 ferait trois à la suite, ce qui est interdit.",
      line: "Seconde phase : le pion clair en d3 descend en d2…",
      remove: "…et forme l'alignement b2–c2–d2 : le joueur retire le pion foncé de son choix.",
    },
  },
};

// English and French here; every other language's rules are in its own file (lang/).
export const RULES_TEXT = {
  en: EN,
  fr: FR,
  ...Object.fromEntries(MORE_LANGUAGES.map((l) => [l.code, l.rules])),
};
