// @ts-check
// Town of Stairs words (English msgids, translated through the one catalog) and seat colours.
import { N_, t } from "/static/js/kit/index.js";

export const SEAT_COLOURS = { red: "#d2423b", blue: "#2f6bd0", green: "#2a9456", yellow: "#e2ad12" };
export const SEAT_INK = { red: "#fff", blue: "#fff", green: "#fff", yellow: "#3a2d00" };

export const WORDS = {
  colours: {
    red: N_("Red"),
    blue: N_("Blue"),
    green: N_("Green"),
    yellow: N_("Yellow"),
  },
  events: {
    cafe: N_("Café"),
    bakery: N_("Bakery"),
    cat: N_("Cats"),
    flowers: N_("Florist"),
    shrine: N_("Shrine"),
    books: N_("Old books"),
    gallery: N_("Gallery"),
    market: N_("Market"),
    music: N_("Music"),
    view: N_("Lookout"),
    sunset: N_("Beautiful sunset"),
  },
  actions: {
    UR: N_("Up-right"),
    UL: N_("Up-left"),
    straight: N_("Straight on"),
    rev: N_("Turn round"),
  },
  actionHint: {
    UR: N_("climb diagonally up-right, then keep going right"),
    UL: N_("climb diagonally up-left, then keep going left"),
    straight: N_("ignore the stairs and walk on"),
    rev: N_("turn round and walk the other way"),
  },
  ends: {
    "fifth diary card": N_("5th diary card"),
    lighthouse: N_("reached the lighthouse"),
    loop: N_("walked in a loop"),
  },
  offer: N_("Offer cards"),
  pathDeck: N_("Path deck"),
  eventDeck: N_("Event deck"),
  left: N_("{n} left"),
  empty: N_("empty"),
  pickOffer: N_("Tap an offer card, then a highlighted slot."),
  pickSlot: N_("Now tap a highlighted slot for {card}."),
  noSlot: N_("{card} fits nowhere right now."),
  fallback: N_("Neither card touches the town: any slot that keeps 3 stairs per row is allowed."),
  waitBuild: N_("{name} is building."),
  waitBuildBot: N_("{bot} is building."),
  building: N_("Building the town"),
  walking: N_("{name} is walking"),
  walkingBot: N_("{bot} is walking"),
  yourWalk: N_("Your walk: choose how to go on."),
  startChoice: N_("Leave seaside {n}:"),
  cardChoice: N_("At {slot} (came from the {side}):"),
  sides: {
    left: N_("left"),
    right: N_("right"),
  },
  start: N_("Start card"),
  hidden: N_("secret"),
  diary: N_("Diary"),
  interests: N_("Interests"),
  points: N_("pts"),
  total: N_("Total"),
  player: N_("Player"),
  noDiary: N_("no cards yet"),
  lighthouse: N_("Lighthouse"),
  seaside: N_("Seaside"),
  replay: N_("Replay walk"),
  finalScores: N_("Final scores"),
  interestNote: N_("★ interest = {interest} · other = {other} · sunset = {sunset}"),
  you: N_("you"),
  stairs: N_("stairs"),
  path: N_("path"),
  reconstruction: N_("Card faces: this site's reconstruction."),
  walkOver: N_("Walk over"),
  waitingWalk: N_("waiting"),
  walkingNow: N_("walking"),
  allDone: N_("Every walk is over"),
  board: N_("Town of Stairs board"),
  placed: N_("{card} to {slot}"),
  placeHere: N_("place here"),
  lastMove: N_("last move"),
  cardEvent: N_("{card}, {event}"),
  cardKind: N_("{card}, {kind}"),
};

/** The WORDS table in the page's language (placeholders left for fill()). */
/** @param {Record<string, any>} table @returns {Record<string, any>} */
export function translate(table) {
  return Object.fromEntries(Object.entries(table).map(([key, value]) => [key, typeof value === "string" ? t(value) : translate(value)]));
}

/** @type {Record<string, any> | null} */
let translated = null;

/** @returns {Record<string, any>} */
export function words() {
  translated ??= translate(WORDS);
  return translated;
}

export function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (_, key) => values[key] ?? "");
}

export function eventName(view, event) {
  return words().events[event] ?? event;
}

/** A card in words: "E4, Café", "S2, stairs", "P7, path". */
export function cardWords(view, id) {
  const card = view.cards?.[id];
  const w = words();
  if (!card) return id;
  if (card.kind === "event") return fill(w.cardEvent, { card: id, event: eventName(view, card.event) });
  return fill(w.cardKind, { card: id, kind: card.kind === "stairs" ? w.stairs : w.path });
}

/** A move in words: "P3 to c2" (building), "Up-right" (a walk choice). */
export function moveWords(move, payload) {
  const build = /^(\w+)@([a-g]\d)$/.exec(move ?? "");
  if (build) return fill(words().placed, { card: cardWords(payload.view ?? {}, build[1]), slot: build[2] });
  return words().actions[move] ?? move;
}

export function colourOf(view, seat) {
  return view.colours?.[seat] ?? ["red", "blue", "green", "yellow"][seat];
}
