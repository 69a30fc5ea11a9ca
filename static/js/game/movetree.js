// The analysis board's moves as a tree (docs/decisions/analysis-move-tree.md): every move
// played stays. A node is a position reached by a move (the root: the first position); its
// first child continues its line, the others are variations. Playing a move from an earlier
// position adds a variation there instead of cutting the line. The positions are the
// server's answers (POST /api/analysis/moves): this module knows no rules.

export class MoveTree {
  // `start`: the first position ({fen, turn, legalMoves, result, check}).
  constructor(start) {
    this.root = { id: 0, move: null, pos: start, parent: null, children: [], depth: 0, n: 0 };
    this.byId = new Map([[0, this.root]]);
  }

  node(id) {
    return this.byId.get(Number(id)) || null;
  }

  child(parent, move) {
    return parent.children.find((c) => c.move === move) || null;
  }

  // The node for `move` after `parent`: the one there already, else a new one (a variation
  // when `parent` has a continuation).
  add(parent, move, pos) {
    const found = this.child(parent, move);
    if (found) return found;
    const node = {
      id: this.byId.size,
      move,
      pos,
      parent,
      children: [],
      depth: parent.depth + 1,
      n: parent.n + (startsRow(parent, mover(parent)) ? 1 : 0),
    };
    parent.children.push(node);
    this.byId.set(node.id, node);
    return node;
  }

  // The nodes from the root to `node`, both included.
  path(node) {
    const nodes = [];
    for (let at = node; at; at = at.parent) nodes.push(at);
    return nodes.reverse();
  }

  // The line through `node`: the way to it, then its first children to the end.
  lineThrough(node) {
    const line = this.path(node);
    for (let at = node.children[0]; at; at = at.children[0]) line.push(at);
    return line;
  }

  // The main line: the root's first children to the end.
  mainLine() {
    return this.lineThrough(this.root);
  }

  // The node reached by `moves` from the root, following the moves there; null if one is not.
  follow(moves) {
    let at = this.root;
    for (const move of moves) {
      at = this.child(at, move);
      if (!at) return null;
    }
    return at;
  }
}

// The side that played the move leading to `node`: the side to move before it (in wali a side
// that cannot place passes, so sides do not always alternate).
export function moverOf(node) {
  return node.parent ? mover(node.parent) : null;
}

function mover(parent) {
  return parent.pos.turn;
}

// Whether a move by `side` after `parent` opens a new numbered row (a turn pair): the first
// move, a move of the first side, or a second move of the second side in a row (a pass).
function startsRow(parent, side) {
  return !parent.parent || side === "first" || moverOf(parent) === "second";
}
