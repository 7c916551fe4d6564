// České texty rozhraní.
import type { Messages } from "./en";

export const cs: Messages = {
  text: {
    "app.name": "tetrad",
    "app.tagline": "Tečky a čtverečky a Tečky — jako na stránce čtverečkovaného sešitu",
    "nav.home": "Nabídka",
    "nav.rules": "Pravidla",
    "nav.settings": "Nastavení",
    "nav.language": "Jazyk",
    "nav.main": "Hlavní navigace",

    "game.boxes": "Tečky a čtverečky",
    "game.dots": "Tečky",

    "mode.computer": "Proti počítači",
    "mode.local": "Dva na jednom zařízení",
    "mode.live": "S kamarádem, naživo",
    "mode.correspondence": "S kamarádem, korespondenčně",
    "mode.daily": "Deska dne",
    "mode.computer.desc": "Tři úrovně, vracení tahů a nápověda.",
    "mode.local.desc": "Podávejte si telefon nebo hrajte u jedné klávesnice.",
    "mode.live.desc": "Pošlete odkaz a hrajte oba zároveň.",
    "mode.correspondence.desc": "Pošlete odkaz; každý táhne, kdy se mu to hodí.",
    "mode.daily.desc": "Dnes mají všichni stejnou desku. Kolik čtverečků získáte vy?",

    "start.new": "Nová hra",
    "start.game": "Hra",
    "start.mode": "Soupeř",
    "start.size": "Velikost desky",
    "start.size.boxes": "{cols}×{rows}",
    "start.size.boxesUnit": "čtverečky",
    "start.size.dotsUnit": "body",
    "start.size.default": "obvyklá",
    "start.level": "Úroveň počítače",
    "start.first": "Kdo začíná",
    "first.me": "Já",
    "first.computer": "Počítač",
    "start.play": "Začít",
    "start.creating": "Připravujeme desku…",
    "start.continue": "Pokračovat ve hře",
    "start.online": "Moje online hry",
    "start.onlineEmpty": "Zatím žádné hry s kamarády. Začněte partii a pošlete odkaz.",
    "start.onlineOpen": "Otevřít",
    "start.onlineForget": "Odebrat ze seznamu",
    "start.aboutBoxes": "Tečky a čtverečky: spojujte tečky čarami; kdo uzavře čtvereček, získá ho a táhne znovu.",
    "start.aboutDots": "Tečky: kladte značky na mřížku a obkličujte soupeřovy značky, abyste je zajali.",
    "start.readRules": "Celá pravidla",
    "start.daily": "Deska na {date}",

    "online.yourTurn": "jste na tahu",
    "online.theirTurn": "táhne kamarád",
    "online.waiting": "čeká se na kamaráda",
    "online.over": "skončeno",
    "online.unknown": "zatím neověřeno",
    "online.gone": "už není na serveru",

    "level.easy": "Lehká",
    "level.normal": "Střední",
    "level.hard": "Těžká",

    "settings.title": "Nastavení",
    "settings.language": "Jazyk rozhraní",
    "settings.tapPreview": "Značku položit druhým klepnutím (Tečky)",
    "settings.tapPreviewDesc": "Na dotykové obrazovce první klepnutí jen ukáže, kam značka přijde; druhé ji položí.",
    "settings.forget": "Zapomenout uložené hry a místa v tomto prohlížeči",
    "settings.forgetDesc": "Vaše místa ve hrách s kamarády jsou uložena jen tady. Potom se k nim už nevrátíte.",
    "settings.forgetConfirm": "Smazat vše, co si tetrad v tomto prohlížeči pamatuje?",
    "settings.forgotten": "Hotovo: prohlížeč si už nic nepamatuje.",

    "rules.title": "Pravidla",

    "room.loading": "Otevíráme hru…",
    "room.invite": "Pozvat kamaráda",
    "room.inviteDesc": "Pošlete tento odkaz. Kdo ho otevře první, obsadí druhé místo; další se mohou jen dívat.",
    "room.copy": "Kopírovat",
    "room.copied": "Odkaz zkopírován.",
    "room.copyFailed": "Kopírování se nepovedlo; označte odkaz a zkopírujte ho ručně.",
    "room.waitingGuest": "Čekáme, až kamarád otevře odkaz…",
    "room.spectating": "Tuto hru sledujete.",
    "room.youPlay": "Hrajete za {colour}.",
    "room.joining": "Obsazujeme volné místo…",
    "room.live": "Hra naživo: čára platí, jen když jsou oba hráči připojeni.",
    "room.correspondence": "Korespondenční hra: táhněte, kdy chcete; partie na soupeře počká.",

    "seat.gold": "zlatý",
    "seat.coral": "korálový",
    "seat.first": "první",
    "seat.second": "druhý",

    "player.you": "Vy",
    "player.computer": "Počítač",
    "player.friend": "Kamarád",
    "player.n": "Hráč {n}",
    "player.gold": "Zlatý",
    "player.coral": "Korálový",
    "player.score": "Skóre",
    "player.toMove": "na tahu",
    "letter.you": "V",
    "letter.computer": "P",

    "presence.online": "připojen",
    "presence.offline": "nepřipojen",
    "presence.free": "volné místo",

    "turn.yours": "Jste na tahu.",
    "turn.again": "Čtvereček uzavřen — táhněte znovu.",
    "turn.computer": "Počítač přemýšlí…",
    "turn.other": "Na tahu: {name}.",
    "turn.sending": "Odesíláme…",

    "conn.connecting": "Připojování…",
    "conn.online": "Připojeno",
    "conn.reconnecting": "Spojení ztraceno, připojujeme znovu…",
    "conn.offline": "Bez spojení",
    "conn.closed": "Zavřeno",
    "conn.retryNow": "Připojit hned",

    "takeover.title": "Toto místo je otevřené jinde",
    "takeover.body": "Stejné místo bylo otevřeno v jiné záložce nebo na jiném zařízení, a tak tato stránka ustoupila. Za jedno místo se hraje vždy jen z jednoho okna.",
    "takeover.reclaim": "Hrát tady",
    "takeover.home": "Zpět do nabídky",

    "controls.undo": "Vrátit tah",
    "controls.hint": "Nápověda",
    "controls.hintShown": "Počítač by nakreslil čárkovanou čáru.",
    "controls.newGame": "Nová partie",
    "controls.level": "Úroveň",
    "controls.levelChanged": "Úroveň: {level}. Deska zůstává, jak je.",
    "controls.resign": "Vzdát",
    "controls.resignConfirm": "Vzdát tuto partii?",
    "controls.resignYes": "Ano, vzdávám",
    "controls.cancel": "Hrát dál",
    "controls.restart": "Nabídnout novou partii",
    "controls.restartAlone": "Začít znovu",
    "controls.offerEnd": "Nabídnout remízu",
    "controls.copyInvite": "Odkaz s pozvánkou",

    "restart.mine": "Nabídli jste novou partii. Čekáme na odpověď…",
    "restart.theirs": "{name} nabízí novou partii.",
    "restart.accept": "Přijmout",
    "restart.decline": "Odmítnout",
    "restart.withdraw": "Stáhnout",
    "restart.declined": "Nabídka nové partie byla odmítnuta.",
    "restart.cancelled": "Nabídka nové partie byla stažena.",
    "restart.done": "Začala nová partie.",
    "end.mine": "Nabídli jste remízu. Čekáme na odpověď…",
    "end.theirs": "{name} nabízí remízu.",
    "end.declined": "Nabídka remízy byla odmítnuta.",

    "over.title": "Konec partie",
    "over.youWin": "Vyhráli jste!",
    "over.youLose": "Tentokrát prohra.",
    "over.draw": "Remíza.",
    "over.won": "Vyhrává: {name}.",
    "over.score": "Konečné skóre {a} : {b}",
    "over.resigned": "{name}: partie vzdána.",
    "over.agreed": "Ukončeno dohodou.",
    "over.again": "Hrát znovu",
    "over.home": "Nabídka",
    "over.review": "Prohlédnout desku",
    "over.daily": "Získali jste {n} z {total} čtverečků.",
    "over.dailyCompare": "Dnes je to lepší než u {percent} % z {others}.",
    "over.dailyFirst": "Dnešní desku jste dohráli jako první.",
    "over.dailyLoading": "Porovnáváme s dnešními hráči…",

    "board.boxes": "Deska Tečky a čtverečky, {cols} na {rows} čtverečků",

    "board.dots": "Papír pro Tečky, {width} na {height} bodů",

    "dots.point": "bod {x}, {y}",

    "dots.point.free": "{point}: volný",

    "dots.point.freeWait": "{point}: volný, ale nejste na tahu",

    "dots.point.dead": "{point}: uvnitř zajatého území",

    "dots.point.pen": "{point}: tečka perem",

    "dots.point.pencil": "{point}: křížek tužkou",

    "dots.point.penCaptured": "{point}: tečka perem, zajatá",

    "dots.point.pencilCaptured": "{point}: křížek tužkou, zajatý",

    "dots.keys": "Šipky posouvají kurzor (se Shiftem o pět bodů), Enter nebo mezerník tam položí vaši značku, plus a minus mění přiblížení, 0 ukáže celý papír.",

    "dots.zoomIn": "Přiblížit",

    "dots.zoomOut": "Oddálit",

    "dots.zoomFit": "Ukázat celý papír",

    "dots.blocked.occupied": "Na tomto bodě už značka je.",

    "dots.blocked.dead": "Tento bod leží v zajatém území: nikdo tam nesmí hrát.",

    "dots.seat0": "tečky perem",

    "dots.seat1": "křížky tužkou",

    "dots.player0": "Pero",

    "dots.player1": "Tužka",

    "dots.offerEnd": "Nabídnout konec hry",

    "dots.end.mine": "Nabídli jste ukončení hry. Čekáme na odpověď…",

    "dots.end.theirs": "{name} nabízí ukončit hru teď; rozhodne skóre.",

    "dots.end.declined": "Nabídka ukončit hru byla odmítnuta.",

    "dots.hintShown": "Počítač by dal značku do čárkovaného kroužku.",

    "dots.start": "Počáteční pozice",

    "dots.start.empty": "Prázdný papír",

    "dots.start.cross": "Kříž",

    "dots.start.four_crosses": "Čtyři kříže",

    "dots.joinTitle": "Čeká na vás hra Tečky",

    "dots.joinBody": "Připojte se, obsaďte volné místo a hrajte; do té doby se jen díváte.",

    "dots.join": "Připojit se",

    "dots.zoomHelp": "Přibližujte dvěma prsty nebo kolečkem s Ctrl, papír posunete tažením.",
    "line.label": "čára z {x1},{y1} do {x2},{y2}",
    "line.free": "{line}, volná",
    "line.drawn": "{line}, nakreslená",
    "line.blocked": "{line}, nejste na tahu",
    "blocked.drawn": "Tahle čára už je nakreslená.",
    "blocked.wait": "Ještě nejste na tahu.",
    "announce.drew": "{name} kreslí {line}.",

    "title.yourMove": "Jste na tahu",
    "title.over": "Konec hry",
    "room.failed": "Hru se nepodařilo otevřít",
    "room.retry": "Zkusit znovu",
    "room.inviteLink": "Odkaz s pozvánkou",
    "room.qr": "QR kód odkazu s pozvánkou",
    "room.scan": "Nebo ať si přítel naskenuje tento kód.",
    "room.expires": "Hry, ve kterých nikdo netáhne, se mažou: tato {date}, pokud do té doby nikdo netáhne.",
    "gone.title": "Tato hra byla smazána",
    "gone.titleUnknown": "Taková hra neexistuje",
    "gone.expired": "Hry, ve kterých několik dní nikdo netáhne, se mažou – i tato.",
    "gone.expiredOn": "Hry, ve kterých několik dní nikdo netáhne, se mažou; lhůta této vypršela {date}.",
    "gone.unknown": "Odkaz je možná špatně opsaný, nebo byla hra smazána po několika dnech bez tahu.",
    "gone.again": "Začít stejnou hru",
    "gone.newGame": "Začít novou hru",
    "controls.label": "Ovládání hry",
    "controls.newGameConfirm": "Začít novou hru? Tato skončí; tlačítko Zpět ji vrátí.",
    "controls.newGameYes": "Ano, nová hra",
    "controls.sound": "Zvuky",
    "offers.label": "Nabídky",
    "over.againPractice": "Hrát znovu (trénink)",
    "over.dailyCounted": "Dnešní započítaný výsledek: {n} z {total} čtverečků.",
    "over.show": "Ukázat výsledek",
    "daily.practice": "Trénink",
    "turn.waitFriend": "Na tahu je přítel.",
    "announce.placed": "{name}: značka na {point}.",
    "announce.undone": "Tahy vráceny.",
    "announce.joined": "{name}: přišel do hry.",
    "start.heading": "Tečky a čtverečky a Tečky",
    "start.quick": "Hrát hned",
    "start.quickDesc": "Tečky a čtverečky 5×5 proti počítači, střední úroveň, začínáte vy",
    "start.continueMeta": "{mode} · {size} · {date}",
    "start.delete": "Smazat",
    "start.deleteConfirm": "Smazat tuto hru?",
    "start.deleteYes": "Ano, smazat",
    "start.deleteNo": "Ponechat",
    "start.more": "Ukázat vše ({n})",
    "start.fewer": "Ukázat méně",
    "start.score": "skóre {score}",
    "mode.computer.short": "Počítač",
    "mode.local.short": "Na jednom zařízení",
    "mode.live.short": "Přítel, živě",
    "mode.correspondence.short": "Korespondenčně",
    "mode.daily.short": "Deska dne",
    "settings.sound": "Zvuky: tahy, zajetí, váš tah, konec hry",
    "settings.soundDesc": "Pokud je nezapnete, jsou vypnuté tam, kde prohlížeč nedovolí zvuk před prvním kliknutím.",
    "error.unknown": "Něco se pokazilo ({code}). {message}",
    "error.network": "Server není dostupný. Zkontrolujte připojení a zkuste to znovu.",
    "error.saveFailed": "Prohlížeč hře nedovolí nic uložit; po obnovení stránky se vše ztratí.",
    "common.cancel": "Zrušit",
    "notfound.title": "Tady nic není",
    "notfound.body": "Tato adresa nikam nevede.",
  },
  plural: {
    announceBoxes: { one: "{name}: uzavřen {n} čtvereček.", few: "{name}: uzavřeny {n} čtverečky.", many: "{name}: uzavřeno {n} čtverečku.", other: "{name}: uzavřeno {n} čtverečků." },
    announceCaptures: { one: "{name}: zajata {n} značka.", few: "{name}: zajaty {n} značky.", many: "{name}: zajato {n} značky.", other: "{name}: zajato {n} značek." },
    spectators: { one: "{n} divák", few: "{n} diváci", many: "{n} diváka", other: "{n} diváků" },
    otherPlayers: { one: "{n} dalšího hráče", few: "{n} dalších hráčů", many: "{n} dalšího hráče", other: "{n} dalších hráčů" },
    boxes: { one: "{n} čtvereček", few: "{n} čtverečky", many: "{n} čtverečku", other: "{n} čtverečků" },
    points: { one: "{n} bod", few: "{n} body", many: "{n} bodu", other: "{n} bodů" },
  },
  errors: {
    bad_request: "Server požadavku nerozuměl.",
    invalid_move: "Taková čára na této desce není.",
    illegal_move: "Tuto čáru teď nakreslit nelze.",
    invalid_options: "Tato nastavení hry server nepřijímá.",
    not_your_turn: "Nejste na tahu.",
    opponent_offline: "Soupeř není připojen, tah se neprovedl. Počkejte, až se vrátí.",
    stale_version: "Pozice se mezitím změnila a deska byla obnovena. Zkuste to znovu.",
    game_over: "Partie už skončila.",
    room_not_found: "Taková hra neexistuje: odkaz je možná špatně opsaný, nebo byla hra smazána po několika dnech bez tahu.",
    game_not_found: "Taková odehraná partie neexistuje.",
    bad_token: "Tento prohlížeč už toto místo nedrží.",
    bad_invite: "Odkaz s pozvánkou není platný.",
    not_allowed: "V této hře to nejde.",
    no_request: "Není na co odpovídat.",
    busy: "Počítač ještě přemýšlí; počkejte na jeho tah.",
    rate_limited: "Příliš mnoho akcí najednou. Chvíli počkejte.",
    message_too_large: "Zpráva je příliš velká.",
    not_found: "Server tuto adresu nezná. Načtěte stránku znovu.",
    method_not_allowed: "Server tu takový požadavek nepřijímá. Načtěte stránku znovu.",
    server_full: "Server je teď plný: nové hry půjdou, až některé skončí. Zkuste to později.",
    unavailable: "Server je vytížený. Zkuste to za chvíli.",
    internal_error: "Na serveru nastala chyba. Zkuste to znovu.",
    network: "Server není dostupný. Zkontrolujte připojení a zkuste to znovu.",
    taken_over: "Toto místo je otevřené v jiné záložce.",
    closed: "Spojení je zavřené.",
  },
  rules: {
    intro: "Na obě hry stačí čtverečkovaný papír a dvě pera. Takto je hraje tetrad.",
    boxes: [
      {
        heading: "Deska",
        paragraphs: [
          "Obdélník z teček. Obvyklá deska má 5×5 čtverečků, tedy 6×6 teček a 60 možných čar; malé desky se hrají rychleji, 7×7 déle.",
        ],
      },
      {
        heading: "Tah",
        paragraphs: [
          "Spojte čarou dvě sousední tečky, vodorovně nebo svisle. Úhlopříčky neplatí a nakreslená čára už zůstane.",
          "Když vaše čára uzavře čtvrtou stranu jednoho nebo dvou čtverečků, jsou vaše, ať kreslil ostatní strany kdokoli, a musíte táhnout znovu. Když neuzavře nic, hraje soupeř.",
          "Nabídnutý čtvereček brát nemusíte.",
        ],
      },
      {
        heading: "Konec",
        paragraphs: [
          "Když jsou nakresleny všechny čáry, má každý čtvereček majitele. Vyhrává ten, kdo má čtverečků víc; při sudém počtu čtverečků může být remíza.",
        ],
      },
      {
        heading: "Trocha strategie",
        paragraphs: [
          "Nekreslete třetí stranu čtverečku, dokud zbývá neškodná čára. Dřív nebo později musí někdo otevřít řetěz čtverečků: počítejte řetězy včas a snažte se, aby ty dlouhé otevíral soupeř.",
          "Ke konci hráč, který má kontrolu, někdy schválně přenechá poslední dva čtverečky řetězu, aby si kontrolu udržel na další, delší řetěz.",
        ],
      },
      {
        heading: "Na obrazovce",
        paragraphs: [
          "Ukažte na mezeru mezi dvěma tečkami: čára se objeví slabě a kliknutím nebo klepnutím ji nakreslíte. Na klávesnici se klávesou Tab dostanete na desku, šipkami vybíráte čáru a Enter nebo mezerník ji nakreslí.",
          "Získané čtverečky mají barvu a písmeno nebo číslo majitele. Malý kroužek označuje poslední čáru a karta hráče na tahu je zvýrazněná.",
        ],
      },
      {
        heading: "Deska dne",
        paragraphs: [
          "Každý den dostanou všichni stejnou desku 5×5, na které už je pár čar. Začínáte proti počítači na střední úrovni, snažíte se získat co nejvíc čtverečků a pak porovnáte výsledek s ostatními.",
        ],
      },
    ],
    dots: [
      {
        heading: "Deska",
        paragraphs: [
          "Značky se kladou na průsečíky čar mřížky, ne do čtverečků. Desky 15×15 a 20×20 bodů se hrají rychle; 39×32 je celý list sešitu.",
        ],
      },
      {
        heading: "Tah",
        paragraphs: [
          "Hráči se střídají a kladou po jedné značce na volný bod; vynechat tah nelze. Jeden kreslí tečky, druhý křížky (nebo dvě barvy).",
        ],
      },
      {
        heading: "Obklíčení",
        paragraphs: [
          "Značky jednoho hráče, které spolu sousedí vodorovně, svisle nebo úhlopříčně, tvoří řetěz. Když se řetěz uzavře kolem aspoň jedné živé značky soupeře, oblast uvnitř je zajatá: obtáhne se a vyšrafuje a každá soupeřova značka v ní se přeškrtne a počítá jako bod.",
          "Okraj listu kruh uzavřít nepomůže. Do zajaté oblasti už nesmí hrát nikdo.",
          "Kruh kolem prázdných bodů nezajme nic a hrát dovnitř mohou dál oba; když tam ale soupeř položí značku, je hned zajatá.",
          "Zajatou oblast lze i s řetězem kolem ní obklíčit znovu. Pak značky, které v ní byly zajaté, ožijí a prvnímu dobyvateli už body nepřinášejí.",
        ],
      },
      {
        heading: "Konec",
        paragraphs: [
          "Partie končí, když nezbývá volný bod, když se oba dohodnou, nebo když se někdo vzdá. Vyhrává ten, kdo drží víc zajatých značek; obklíčená prázdná plocha se nepočítá.",
        ],
      },
      {
        heading: "Na obrazovce",
        paragraphs: [
          "Na dotykové obrazovce první klepnutí ukáže, kam značka přijde, a druhé ji položí; v nastavení to lze vypnout. Přibližuje se roztažením prstů nebo kolečkem myši s klávesou Ctrl.",
          "Na klávesnici se na list dostanete klávesou Tab, kurzor posouvají šipky (se Shiftem o pět bodů) a značku položí Enter nebo mezerník; + a − mění přiblížení.",
        ],
      },
    ],
  },
};
