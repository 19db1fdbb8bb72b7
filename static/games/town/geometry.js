// @ts-check
// Town of Stairs geometry: where each card, the lighthouse row and the seaside row are drawn.

export const COLS = 7;
export const ROWS = 4;
export const LETTERS = "abcdefg";
export const CW = 92; // card width
export const CH = 112; // card height
export const GAP = 6;
export const LEFT = 24; // room for the row numbers
export const TOP = 6;
export const SKY = 74; // lighthouse row height
export const SEA = 66; // seaside row height
export const PITCH_X = CW + GAP;
export const PITCH_Y = CH + GAP;
export const WIDTH = LEFT + COLS * PITCH_X - GAP + 8;
export const GRID_TOP = TOP + SKY + GAP; // top of row 4
export const SEA_TOP = GRID_TOP + ROWS * PITCH_Y;
export const HEIGHT = SEA_TOP + SEA + 22;
export const STEP_MS = 320;

export function cardX(col) { return LEFT + col * PITCH_X; }
export function cardY(row) { return GRID_TOP + (ROWS - row) * PITCH_Y; } // rows 1..4
export function centre(col, row) {
  if (row === 0) return [cardX(col) + CW / 2, SEA_TOP + SEA / 2];
  if (row === ROWS + 1) return [cardX(col) + CW / 2, TOP + SKY / 2 + 6];
  return [cardX(col) + CW / 2, cardY(row) + CH / 2];
}
export function slotName(col, row) { return `${LETTERS[col]}${row}`; }
