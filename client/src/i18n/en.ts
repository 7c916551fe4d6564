// English texts: the reference catalogue. Other languages must define every key.

const text = {
  "app.name": "tetrad",
  "app.tagline": "Dots and Boxes and Dots: against the computer, with a friend or on the board of the day",
  "nav.home": "Menu",
  "nav.rules": "Rules",
  "nav.settings": "Settings",
  "nav.language": "Language",
  "nav.main": "Main navigation",
  "nav.bots": "Bots",
  "bots.title": "Play a bot",
  "bots.intro": "Bots are programs that play through tetrad's API. Those connected now take challenges.",
  "bots.none": "No bot is connected right now.",
  "bots.rating": "rating {rating}",
  "bots.unrated": "not rated yet",
  "bots.challenge": "Challenge {name}",
  "bots.waiting": "Waiting for {name} to answer…",
  "bots.waitingAnyone": "Waiting for somebody to take your game…",
  "bots.declined": "{name} declined: {reason}",
  "bots.expired": "Nobody took the challenge in time.",
  "bots.withdraw": "Withdraw",
  "bots.board": "Board",
  "bots.open": "Open games",
  "bots.openNone": "No open games. Post one: anybody may take it.",
  "bots.post": "Post an open game",
  "bots.take": "Play",
  "bots.by": "by {name}",
  "bots.someone": "someone",
  "player.bot": "BOT",
  "settings.name": "Your name",
  "settings.nameDesc": "Shown on your seat in games with friends and bots; kept only in this browser. Empty: no name.",

  "game.boxes": "Dots and Boxes",
  "game.dots": "Dots",

  "mode.computer": "Against the computer",
  "mode.local": "Two on one device",
  "mode.live": "With a friend, live",
  "mode.correspondence": "With a friend, by correspondence",
  "mode.daily": "Board of the day",
  "mode.computer.desc": "Three levels, undo and hints.",
  "mode.local.desc": "Pass the phone or share the keyboard.",
  "mode.live.desc": "Send a link; you both play at the same time.",
  "mode.correspondence.desc": "Send a link; each moves when it suits them.",
  "mode.daily.desc": "The same board for everybody today. How many boxes can you take?",

  "start.new": "New game",
  "start.game": "Game",
  "start.mode": "Opponent",
  "start.size": "Board size",
  "start.size.boxes": "{cols}×{rows}",
  "start.size.boxesUnit": "boxes",
  "start.size.dotsUnit": "points",
  "start.size.default": "usual",
  "start.level": "Computer level",
  "start.first": "Who moves first",
  "first.me": "I do",
  "first.computer": "The computer",
  "start.play": "Start",
  "start.creating": "Setting the board…",
  "start.continue": "Continue game",
  "start.online": "My online games",
  "start.onlineEmpty": "No games with friends yet. Start one and send the link.",
  "start.onlineOpen": "Open",
  "start.onlineForget": "Remove from this list",
  "start.aboutBoxes": "Dots and Boxes: draw lines between dots; whoever closes a box owns it and moves again.",
  "start.aboutDots": "Dots: place marks on the grid and surround your opponent’s marks to capture them.",
  "start.readRules": "Read the full rules",
  "start.daily": "Today's board: {date}",

  "online.yourTurn": "your move",
  "online.theirTurn": "friend's move",
  "online.waiting": "waiting for a friend",
  "online.over": "finished",
  "online.unknown": "not checked yet",
  "online.gone": "no longer on the server",

  "level.easy": "Easy",
  "level.normal": "Normal",
  "level.hard": "Hard",

  "settings.title": "Settings",
  "settings.language": "Interface language",
  "settings.tapPreview": "Tap twice to place a mark (Dots)",
  "settings.tapPreviewDesc": "On a touch screen the first tap only shows where the mark would go; the second tap places it.",
  "settings.forget": "Forget saved games and seats in this browser",
  "settings.forgetDesc": "Your places in rooms with friends are kept only here. After this you cannot return to them.",
  "settings.forgetConfirm": "Forget everything this browser keeps for tetrad?",
  "settings.forgotten": "Done: this browser keeps nothing any more.",

  "rules.title": "Rules",

  "room.loading": "Opening the game…",
  "room.invite": "Invite a friend",
  "room.inviteDesc": "Send this link. The first person who opens it takes the second seat; later visitors watch.",
  "room.copy": "Copy link",
  "room.copied": "Link copied.",
  "room.copyFailed": "Could not copy; select the link and copy it by hand.",
  "room.waitingGuest": "Waiting for your friend to open the link…",
  "room.spectating": "You are watching this game.",
  "room.youPlay": "You play {colour}.",
  "room.joining": "Taking the free seat…",
  "room.live": "Live game: a line counts only while both players are connected.",
  "room.correspondence": "Correspondence game: move whenever you like; it waits for the other side.",

  "seat.gold": "gold",
  "seat.coral": "coral",
  "seat.first": "first",
  "seat.second": "second",

  "player.you": "You",
  "player.computer": "Computer",
  "player.friend": "Friend",
  "player.n": "Player {n}",
  "player.gold": "Gold",
  "player.coral": "Coral",
  "player.score": "Score",
  "player.toMove": "to move",
  "letter.you": "Y",
  "letter.computer": "C",

  "presence.online": "online",
  "presence.offline": "offline",
  "presence.free": "seat free",

  "turn.yours": "Your move.",
  "turn.again": "Box closed: move again.",
  "turn.computer": "The computer is thinking…",
  "turn.other": "{gender, select, you {Your move.} other {{name} to move.}}",
  "turn.sending": "Sending…",

  "conn.connecting": "Connecting…",
  "conn.online": "Connected",
  "conn.reconnecting": "Connection lost, reconnecting…",
  "conn.offline": "No connection",
  "conn.closed": "Closed",
  "conn.retryNow": "Reconnect now",

  "takeover.title": "This seat is open somewhere else",
  "takeover.body": "The same seat was opened in another tab or on another device, so this page stepped aside. A seat is played from one place at a time.",
  "takeover.reclaim": "Play here instead",
  "takeover.home": "Back to the menu",

  "controls.undo": "Undo",
  "controls.hint": "Hint",
  "controls.hintShown": "The computer would draw the dashed line.",
  "hint.shown": "{shown} {why}",
  "hint.takes_free_boxes": "Take {boxes}: it costs nothing.",
  "hint.takes_all": "Take everything: keeping control would not pay here.",
  "hint.declines_to_keep_control": "Leave the last {boxes} to your opponent, who must then open the next long chain.",
  "hint.sacrifice_to_keep_control": "Give {boxes} away now to keep control of the long chains.",
  "hint.gives_fewest_boxes": "No safe line is left: this opens the cheapest chain ({boxes}).",
  "hint.keeps_control": "Keeps control: the long chains will be yours.",
  "hint.safe_line": "A safe line: it gives nothing away.",
  "hint.captures": "It captures {marks}.",
  "hint.double_threat": "A double threat: one move cannot stop both captures.",
  "hint.blocks_capture": "It blocks the capture your opponent has ready.",
  "hint.escapes": "It gets your marks out: your opponent has no forced capture after it.",
  "controls.newGame": "New game",
  "controls.level": "Level",
  "controls.levelChanged": "Level changed to {level}. The board stays as it is.",
  "controls.resign": "Resign",
  "controls.resignConfirm": "Resign this game?",
  "controls.resignYes": "Yes, resign",
  "controls.cancel": "Keep playing",
  "controls.restart": "Offer a new game",
  "controls.restartAlone": "Start again",
  "controls.offerEnd": "Offer a draw",
  "controls.copyInvite": "Invite link",

  "restart.mine": "You offered a new game. Waiting for an answer…",
  "restart.theirs": "{name} offers a new game.",
  "restart.accept": "Accept",
  "restart.decline": "Decline",
  "restart.withdraw": "Withdraw",
  "restart.declined": "The offer of a new game was declined.",
  "restart.cancelled": "The offer of a new game was withdrawn.",
  "restart.done": "A new game has started.",
  "end.mine": "You offered a draw. Waiting for an answer…",
  "end.theirs": "{name} offers a draw.",
  "end.declined": "The draw offer was declined.",

  "over.title": "Game over",
  "over.youWin": "You won!",
  "over.youLose": "You lost this one.",
  "over.draw": "A draw.",
  "over.won": "{gender, select, you {You won.} other {{name} won.}}",
  "over.score": "Final score {a} : {b}",
  "over.resigned": "{gender, select, you {You resigned.} other {{name} resigned.}}",
  "over.agreed": "Ended by agreement.",
  "over.again": "Play again",
  "over.home": "Menu",
  "over.review": "Look at the board",
  "over.daily": "You took {n} of {total, plural, one {# box} other {# boxes}}.",
  "over.dailyFirst": "You are the first to finish today's board.",
  "over.dailyLoading": "Comparing with today's other players…",

  "board.boxes": "Dots and Boxes board, {cols} by {rows, plural, one {# box} other {# boxes}}",

  "board.dots": "Dots sheet, {width} by {height, plural, one {# point} other {# points}}",

  "dots.point": "point {x}, {y}",

  "dots.point.free": "{point}: free",

  "dots.point.freeWait": "{point}: free, not your move",

  "dots.point.dead": "{point}: inside a captured area",

  "dots.point.pen": "{point}: pen dot",

  "dots.point.pencil": "{point}: pencil cross",

  "dots.point.penCaptured": "{point}: pen dot, captured",

  "dots.point.pencilCaptured": "{point}: pencil cross, captured",

  "dots.keys": "Arrow keys move the cursor (with Shift, five points at a time); Enter or Space puts your mark there; plus and minus zoom; 0 shows the whole sheet.",

  "dots.zoomIn": "Zoom in",

  "dots.zoomOut": "Zoom out",

  "dots.zoomFit": "Show the whole sheet",

  "dots.blocked.occupied": "There is a mark on that point already.",

  "dots.blocked.dead": "That point lies inside a captured area: nobody can play there.",

  "dots.seat0": "pen dots",

  "dots.seat1": "pencil crosses",

  "dots.player0": "Pen",

  "dots.player1": "Pencil",

  "dots.offerEnd": "Offer to end the game",

  "dots.end.mine": "You offered to end the game here. Waiting for an answer…",

  "dots.end.theirs": "{name} offers to end the game here; the score decides.",

  "dots.end.declined": "The offer to end the game was declined.",

  "dots.hintShown": "The computer would put its mark in the dashed ring.",

  "dots.start": "Opening position",

  "dots.start.empty": "Empty sheet",

  "dots.start.cross": "Cross",

  "dots.start.four_crosses": "Four crosses",

  "dots.joinTitle": "A game of Dots is waiting for you",
  "dots.joinBody": "Press Join to take the free seat and play; who moves first is drawn by lot. Until then you only watch.",

  "dots.join": "Join",
  "dots.zoomHelp": "Ctrl+wheel or a touchpad pinch zooms; drag to move the sheet.",
  "line.label": "line from {x1},{y1} to {x2},{y2}",
  "line.free": "{line}, free",
  "line.drawn": "{line}, drawn",
  "line.blocked": "{line}, not your move",
  "blocked.drawn": "That line is already drawn.",
  "blocked.wait": "Not your move yet.",
  "announce.drew": "{gender, select, you {You} other {{name}}} drew the line from {x1},{y1} to {x2},{y2}.",

  "title.yourMove": "Your move",
  "title.over": "Game over",
  "room.failed": "The game could not be opened",
  "room.retry": "Try again",
  "room.inviteLink": "Invite link",
  "room.qr": "QR code of the invite link",
  "room.scan": "Or let your friend scan this code.",
  "room.expires": "A room nobody plays in is deleted: this one on {date}, unless someone moves before.",
  "gone.title": "This game has been deleted",
  "gone.titleUnknown": "There is no such game",
  "gone.expired": "Rooms where nobody moves for several days are deleted, and this one was.",
  "gone.expiredOn": "Rooms where nobody moves for several days are deleted; this one was due on {date}.",
  "gone.unknown": "The link may be mistyped, or the game was deleted after several days without a move.",
  "gone.again": "Start the same kind of game",
  "gone.newGame": "Start a new game",
  "controls.label": "Game controls",
  "controls.newGameConfirm": "Start a new game? This one ends; Undo can bring it back.",
  "controls.newGameYes": "Yes, new game",
  "controls.sound": "Sounds",
  "offers.label": "Offers",
  "over.againPractice": "Play again (practice)",
  "over.dailyCounted": "Today's counted result: {n} of {total, plural, one {# box} other {# boxes}}.",
  "over.show": "Show the result",
  "nav.games": "My games",
  "over.reviewGame": "Review the game",
  "games.title": "My games",
  "games.empty": "No games yet. The games you play in this browser appear here, finished or not.",
  "games.friend": "With a friend",
  "games.computerLevel": "Computer, {level}",
  "games.won": "won",
  "games.lost": "lost",
  "games.draw": "draw",
  "games.ending.resignation": "by resignation",
  "games.ending.time": "on time",
  "games.ending.agreement": "by agreement",
  "games.ending.grounding": "by grounding",
  "games.unfinished": "not finished",
  "games.review": "Review",
  "games.open": "Continue",
  "review.title": "Game review",
  "review.loading": "Loading the game…",
  "review.failed": "The game could not be opened",
  "review.importTitle": "Review a record",
  "review.steps": "Move through the game",
  "review.first": "To the start",
  "review.prev": "Previous move",
  "review.next": "Next move",
  "review.last": "To the end",
  "review.play": "Play the moves",
  "review.pause": "Pause",
  "review.atStart": "Start position, {total, plural, one {# move} other {# moves}} in the game",
  "review.atMove": "After move {n} of {total}",
  "review.keys": "Keys: ← → step, Home and End jump.",
  "review.moves": "Moves",
  "review.noMoves": "No moves were made.",
  "review.moveLabel": "Move {n}, {name}:",
  "review.score": "score",
  "analysis.title": "Computer analysis",
  "analysis.intro": "The exact solver judges the endgame, the hard level the rest; moves that lose boxes are marked.",
  "analysis.introDots": "The hard level suggests a move for every position.",
  "analysis.start": "Analyse the game",
  "analysis.failed": "The analysis did not finish. Try again.",
  "analysis.progress": "Analysing: {done} of {total, plural, one {# position} other {# positions}}",
  "analysis.graph": "Evaluation over the game",
  "analysis.summary": "Gold's final lead with best play: {first} at the start, {last} before the last move; at most {max} ({maxAt}), at least {min} ({minAt}).",
  "analysis.atStart": "at the start",
  "analysis.afterMove": "after move {n}",
  "analysis.noMistakes": "No move lost boxes.",
  "analysis.graphEstimates": "Dashed: estimates, not exact values.",
  "analysis.player": "{name}: {mistakes}, {blunders}, accuracy {accuracy} over {judged} judged moves.",
  "analysis.incomplete": "Time ran out before every line was valued: there may be other best moves.",
  "analysis.lineValues": "On the board, each undrawn line shows the boxes it gives away (exact; 0 in green: best).",
  "analysis.noneJudged": "No move was judged exactly yet.",
  "analysis.judged": "{judged} of {analysed} moves were judged exactly; the others only estimated.",
  "analysis.playedBest": "{move}, played here, was a best move.",
  "analysis.playedCost": "{move}, played here, {cost}.",
  "analysis.bestLine": "Best was {move}, then: {line}.",
  "analysis.exact": "Exact: gold ends {value} with best play.",
  "analysis.estimate": "Estimate: gold ends about {value}.",
  "analysis.suggestion": "The hard level would play {move} here.",
  "analysis.captures": "Captures",
  "analysis.noCaptures": "Nobody captured anything.",
  "analysis.capture": "Move {n}, {name} at {move}:",
  "export.title": "Record",
  "export.downloadText": "Download text",
  "export.downloadJson": "Download JSON",
  "export.copyText": "Copy text",
  "export.copyJson": "Copy JSON",
  "export.copyLink": "Copy the link to this game",
  "export.copied": "Copied.",
  "export.copyFailed": "Could not copy; select the record below and copy it by hand.",
  "export.record": "The record in text notation",
  "import.title": "Import a record",
  "import.paste": "Paste a record (text or JSON)",
  "import.review": "Review it",
  "import.file": "Open a file…",
  "import.tooLarge": "That file is too large to be a record.",
  "import.failed": "The record could not be read",
  "import.reason": "The server says: {reason}",
  "from.title": "Continue from here",
  "from.desc": "A new game from the position after move {n}.",
  "from.descStart": "A new game from the start position.",
  "from.over": "The game is over here; step back to play on from an earlier move.",
  "from.computer": "Against the computer",
  "from.local": "Two on one device",
  "daily.practice": "Practice",
  "turn.waitFriend": "Your friend's move.",
  "announce.placed": "{gender, select, you {You} other {{name}}} put a mark on point {x}, {y}.",
  "announce.undone": "Moves taken back.",
  "announce.joined": "{gender, select, you {You have} other {{name} has}} joined the game.",
  "start.heading": "Two games from the squared notebook",
  "start.quick": "Play now",
  "start.quickDesc": "Dots and Boxes 5×5 against the computer, normal level, you first",
  "start.continueMeta": "{date} · {mode} · {size}",
  "start.delete": "Delete",
  "start.deleteConfirm": "Delete this game?",
  "start.deleteYes": "Yes, delete",
  "start.deleteNo": "Keep it",
  "start.more": "Show all ({n})",
  "start.fewer": "Show fewer",
  "start.score": "score {score}",
  "mode.computer.short": "Computer",
  "mode.local.short": "One device",
  "mode.live.short": "Friend, live",
  "mode.correspondence.short": "Correspondence",
  "mode.daily.short": "Board of the day",
  "settings.sound": "Sounds: moves, captures, your turn, game over",
  "settings.soundDesc": "Unless you switch them on, they stay off where the browser blocks sound until you click.",
  "error.unknown": "Something went wrong ({code}). {message}",
  "error.network": "The server cannot be reached. Check the connection and try again.",
  "error.saveFailed": "This browser does not let the game save anything; it will be lost on reload.",
  "common.cancel": "Cancel",
  "notfound.title": "Nothing here",
  "notfound.body": "This address does not lead anywhere in tetrad.",
  "over.dailyRank": "Your place among today's players: {rank} of {players}.",
  "over.dailyRankShared": "Your place among today's players: {rank} of {players}, shared with {same, plural, one {# other player} other {# other players}}.",
  "over.dailyBeats": "{percent}% of today's other players took fewer boxes.",
  "controls.endNow": "End as a draw",
  "controls.endConfirm": "End this game as a draw?",
  "controls.endYes": "Yes, a draw",
  "dots.endNow": "End the game here",
  "dots.endConfirm": "End the game here? Whoever has captured more marks wins.",
  "dots.endYes": "Yes, end it",
  "hint.waiting": "Looking for a good move…",
  "dots.touchHelp": "Drag to move the sheet, pinch to zoom. Tap a point, then tap it again to put your mark there.",
  "dots.touchHelpOneTap": "Drag to move the sheet, pinch to zoom. Tap a point to put your mark there.",
  "dots.tapAgain": "Tap the same point again to put your mark there.",
  "dots.lastMove": "Go to the last move",
  "room.inviteDesc.boxes": "Send this link to your friend. The first person who opens it takes the second seat and the game begins; anyone who opens it later watches.",
  "room.inviteDesc.dots": "Send this link to your friend. They open it and press Join; who moves first is drawn by lot. Anyone else who opens it only watches.",
  "room.friendOpened": "Your friend has opened the link. Waiting for them to press Join…",
  "room.live.boxes": "Live game: a line counts only while both players are connected.",
  "room.live.dots": "Live game: a mark can be placed only while both players are connected.",
  "controls.takeback": "Ask to take back",
  "takeback.mine": "You asked to take back your last move. Waiting for an answer…",
  "takeback.theirs": "{name} asks to take back their last move.",
  "takeback.declined": "The request to take back a move was declined.",
  "takeback.done": "The move was taken back.",
  "error.retry": "The connection dropped before the server answered; if nothing changed, try again.",
  "clock.left": "time left: {time}",
  "over.time": "{name} ran out of time.",
  "start.clock": "Clock",
  "start.clock.minutes": "Minutes for each player",
  "start.clock.none": "No clock",
  "start.clock.increment": "Seconds added after each move",
  "start.clock.days": "Time for each move",
  "start.clock.noLimit": "No limit",
  "clock.live": "Clocks: {minutes} for each player, {increment} added after each move. Whoever runs out of time loses.",
  "clock.liveNoIncrement": "Clocks: {minutes} for each player. Whoever runs out of time loses.",
  "clock.perMove": "Each move must be made within {days}; a move not made in time loses the game.",
  "games.deadline.mine": "Your move: {left} left",
  "games.deadline.theirs": "Friend's move: {left} left",
  "settings.coordinates": "Show coordinates beside the board",
  "settings.coordinatesDesc": "Letters over the columns and numbers beside the rows, as in game records (a1 is the top-left corner). The review always shows them.",
} as const;

export type MessageKey = keyof typeof text;

/** Texts that hold a count {n}: ICU messages whose plural forms follow it. */
const plural = {
  moves: "{n, plural, =0 {no moves yet} one {# move} other {# moves}}",
  announceBoxes: "{name}: {n, plural, one {one box} other {# boxes}} closed.",
  announceCaptures: "{name}: {n, plural, one {# mark} other {# marks}} captured.",
  spectators: "{n} watching",
  boxes: "{n, plural, one {# box} other {# boxes}}",
  marks: "{n, plural, one {# mark} other {# marks}}",
  points: "{n, plural, one {# point} other {# points}}",
  "analysis.best": "{n, plural, one {Best move} other {Best moves}}: {moves}.",
  "review.loses": "gives away {n, plural, one {# box} other {# boxes}}",
  "analysis.mistakes": "{n, plural, one {# move lost boxes; it is marked in the list.} other {# moves lost boxes; they are marked in the list.}}",
  "analysis.nMistakes": "{n, plural, one {# mistake} other {# mistakes}}",
  "analysis.nBlunders": "{n, plural, one {# blunder} other {# blunders}}",
  "analysis.hardBest": "The hard level would play {moves}.",
  "analysis.givesAway": "gives away {n, plural, one {# box} other {# boxes}}",
  "analysis.taken": "{n, plural, one {# mark taken} other {# marks taken}}",
} satisfies Record<string, string>;

export type PluralKey = keyof typeof plural;

/**
 * A name's grammatical gender, for texts that agree with the player they speak of
 * ("{gender, select, you {...} feminine {...} other {...}}"): "Ручка победила",
 * "Компьютер победил", "Золотые победили". "you" is the person at this screen; "other"
 * a name the texts know nothing about (a player's own name): each text's default form.
 */
export type Gender = "you" | "masculine" | "feminine" | "neuter" | "plural" | "other";

/** The names a player can have on the screen. */
export type NameKey = "player.you" | "player.computer" | "player.friend" | "player.n" | "player.gold" | "player.coral" | "dots.player0" | "dots.player1";

const genders: Record<NameKey, Gender> = {
  "player.you": "you",
  "player.computer": "neuter",
  "player.friend": "neuter",
  "player.n": "neuter",
  "player.gold": "neuter",
  "player.coral": "neuter",
  "dots.player0": "neuter",
  "dots.player1": "neuter",
};

/** Messages for the stable error codes the server sends (docs/api.md). */
const errors: Record<string, string> = {
  bad_request: "The server did not understand the request.",
  invalid_move: "That is not a line on this board.",
  illegal_move: "That line cannot be drawn now.",
  invalid_options: "The server does not accept these game options.",
  not_your_turn: "It is not your move.",
  opponent_offline: "Your opponent is offline, so the move was not made. Wait until they are back.",
  stale_version: "The board changed meanwhile and has been refreshed. Try again.",
  move_id_reused: "That move id was already used for another move. Reload the room and try again.",
  game_over: "The game is already over.",
  room_not_found: "There is no such game: the link may be mistyped, or the game was deleted after several days without a move.",
  game_not_found: "There is no such finished game.",
  bad_record: "This is not a game record this server can read.",
  analysis_not_found: "This game has not been analysed yet.",
  bad_token: "This browser no longer holds that seat.",
  bad_invite: "This invite link is not valid.",
  not_allowed: "That is not possible in this game.",
  no_request: "There is nothing to answer.",
  busy: "The computer is still thinking; wait for its move.",
  challenge_not_found: "This challenge is gone: taken, withdrawn or expired.",
  too_many_games: "This bot plays all the games it may at once. Try again when one ends.",
  rate_limited: "Too many actions at once. Wait a moment.",
  message_too_large: "The message was too large.",
  not_found: "The server does not know this address. Reload the page.",
  method_not_allowed: "The server does not accept this request here. Reload the page.",
  server_full: "This server is full for now: no new games until some finish. Try again later.",
  unavailable: "The server is busy. Try again in a moment.",
  internal_error: "The server hit a problem. Try again.",
  network: "The server cannot be reached. Check the connection and try again.",
  taken_over: "This seat is open in another tab.",
  closed: "The connection is closed.",
};

export interface RulesSection {
  heading: string;
  paragraphs: string[];
}

export interface RulesText {
  intro: string;
  boxes: RulesSection[];
  dots: RulesSection[];
}

const rules: RulesText = {
  intro: "Both games need nothing more than a sheet of squared paper and two pens. Here is how tetrad plays them.",
  boxes: [
    {
      heading: "The board",
      paragraphs: [
        "A rectangle of dots. The usual board has 5×5 boxes, that is 6×6 dots and 60 possible lines; smaller boards play quicker, 7×7 plays longer.",
      ],
    },
    {
      heading: "A move",
      paragraphs: [
        "Join two neighbouring dots with a line, across or down. Lines never go diagonally, and a drawn line stays for good.",
        "If your line closes the fourth side of one or two boxes, they become yours, no matter who drew the other sides, and you must draw another line. If it closes nothing, the turn passes.",
        "You never have to take a box that is offered to you.",
      ],
    },
    {
      heading: "The end",
      paragraphs: [
        "When every line is drawn, every box has an owner. Whoever owns more boxes wins; with an even number of boxes the game can end level.",
      ],
    },
    {
      heading: "A little strategy",
      paragraphs: [
        "Avoid drawing the third side of a box while a harmless line is still left. Sooner or later someone has to open a chain of boxes; count the chains early and try to make your opponent open the long ones.",
        "Near the end, the player in control sometimes gives away the last two boxes of a chain on purpose, to keep control for the next, longer chain.",
      ],
    },
    {
      heading: "On the screen",
      paragraphs: [
        "Point at the gap between two dots: the line appears faintly, and a click or tap draws it. With the keyboard press Tab to reach the board, move with the arrow keys and draw with Enter or Space.",
        "Claimed boxes carry their owner's colour and letter or number. A small ring marks the line drawn last, and the card of the player to move is highlighted.",
      ],
    },
    {
      heading: "The board of the day",
      paragraphs: [
        "Each day everybody gets the same 5×5 board with a few lines already in place. You move first against the computer at normal level and try to take as many boxes as you can, then see how your result compares with everybody else's.",
      ],
    },
  ],
  dots: [
    {
      heading: "The board",
      paragraphs: [
        "Marks go on the crossings of the grid lines, not inside the squares. Boards of 15×15 and 20×20 points play quickly; 39×32 is a whole notebook sheet.",
      ],
    },
    {
      heading: "A move",
      paragraphs: [
        "Players take turns putting one mark on a free point; passing is not allowed. One plays dots, the other crosses (or two colours).",
      ],
    },
    {
      heading: "Capturing",
      paragraphs: [
        "Marks of one player that touch each other across, down or diagonally form a chain. When a chain closes around at least one live mark of the opponent, the area inside is captured: it is outlined and shaded, and each enemy mark inside is crossed out and scores one point.",
        "The edge of the sheet does not help to close a ring. Nobody may play inside a captured area.",
        "A ring around empty points captures nothing and both may still play inside; but if the opponent puts a mark there, that mark is caught at once.",
        "A captured area can be surrounded again, together with the chain around it. Then the marks that were held inside come back to life and no longer count for the first captor.",
      ],
    },
    {
      heading: "The end",
      paragraphs: [
        "The game ends when no free point is left, when both players agree to stop, or when one resigns. Whoever holds more captured marks wins; surrounded empty land scores nothing.",
      ],
    },
    {
      heading: "On the screen",
      paragraphs: [
        "On a touch screen the first tap shows where the mark would go and the second places it; this can be switched off in the settings. Pinch or use Ctrl and the mouse wheel to zoom.",
        "With the keyboard, press Tab to reach the sheet, move the cursor with the arrow keys (with Shift it jumps five points) and place a mark with Enter or Space; + and − zoom.",
      ],
    },
  ],
};

export const en = { text, plural, genders, errors, rules };

export interface Messages {
  text: Record<MessageKey, string>;
  plural: Record<PluralKey, string>;
  genders: Record<NameKey, Gender>;
  errors: Record<string, string>;
  rules: RulesText;
}
