// @ts-check
// Grid geometry for square boards named "a1".."h8": where a square is drawn, seen from either side
// (pure). Flipped = seen by the second player: file a on the right, rank 1 at the top.

/** @param {{files: number, ranks: number, pitch: number, margin?: number, flipped?: boolean,
 *           letters?: string}} spec */
export function squareGrid({ files, ranks, pitch, margin = 0, flipped = false, letters = "abcdefghijklmnopqrstuvwxyz" }) {
  const parse = (name) => ({ file: letters.indexOf(name[0]), rank: Number(name.slice(1)) - 1 });
  const name = (file, rank) => `${letters[file]}${rank + 1}`;
  /** Top-left corner (or the point itself, for point boards) of file/rank, in drawing units. */
  const cell = (file, rank) => {
    const col = flipped ? files - 1 - file : file;
    const row = flipped ? rank : ranks - 1 - rank;
    return { x: margin + col * pitch, y: margin + row * pitch, col, row };
  };
  const at = (square) => { const { file, rank } = parse(square); return cell(file, rank); };
  /** Coordinate labels: each file's letter under its column, each rank's number beside its row. */
  const labels = () => ({
    files: [...Array(files).keys()].map((file) => ({ text: letters[file], ...cell(file, flipped ? ranks - 1 : 0) })),
    ranks: [...Array(ranks).keys()].map((rank) => ({ text: String(rank + 1), ...cell(flipped ? files - 1 : 0, rank) })),
  });
  const size = { width: margin * 2 + pitch * files, height: margin * 2 + pitch * ranks };
  return { parse, name, cell, at, labels, size, flipped };
}

/** Whether the board is seen from the second seat (the first seat and spectators see it unflipped). */
export function seenFromSecondSeat(match) {
  return match?.your_seat === 1;
}
