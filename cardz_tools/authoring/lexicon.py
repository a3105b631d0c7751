"""Word tables for reading solitaire rules in English, French, Russian, German, Spanish and Italian.

Everything here is data: stop words for telling the languages apart, number words
(with Russian case forms), and regular-expression fragments for the nouns and verbs
that rules texts use (decks, rows, the stock, "remove the aces" ...). Patterns are
matched against *normalised* text: lower case, ``ё`` written ``е``, typographic
apostrophes and dashes made plain (see :func:`normalise`).
"""

from __future__ import annotations

import enum
import re
import unicodedata


class Family(enum.Enum):
    """Catalog families (the ``family`` key) that ``from-rules`` recognises."""

    KLONDIKE = "Klondike"
    FREECELL = "FreeCell"
    GOLF = "Golf"
    PYRAMID = "Pyramid"
    SPIDER = "Spider"
    CANFIELD = "Canfield"
    GAPS = "Gaps"
    ACCORDION = "Accordion"
    CASTLE = "Castle"
    CLOCK = "Clock"
    OTHER = "Other"


class Language(enum.Enum):
    """The languages ``cardz from-rules`` reads."""

    EN = "en"
    FR = "fr"
    RU = "ru"
    DE = "de"
    ES = "es"
    IT = "it"


def normalise(text: str) -> str:
    """Lower-case ``text`` and make spelling variants equal (``ё`` -> ``е``, ``’`` -> ``'``, dashes -> ``-``)."""
    text = unicodedata.normalize("NFC", text).lower()
    return (
        text.replace("ё", "е")
        .replace("’", "'")
        .replace("\u2013", "-")
        .replace("\u2014", "-")
        .replace("\u00a0", " ")
    )


STOP_WORDS: dict[Language, frozenset[str]] = {
    Language.EN: frozenset(
        "the and of to a in is you are on it for with be that this or when from by at an can "
        "each all no not into only your its their then there which if any two one has have".split()
    ),
    Language.FR: frozenset(
        "le la les de des du un une et est en à au aux vous que qui pour dans sur par ne pas ce "
        "cette il elle sont avec ou se sa son ses peut plus d l qu n".split()
    ),
    Language.DE: frozenset(
        "der die das und ist ein eine einen den dem des mit auf zu im nicht von sie es wird "
        "werden man oder auch kann für aus bei nach wenn alle jede jeder sich karte karten".split()
    ),
    Language.RU: frozenset(
        "и в не на с что по из к как а но за от до это все при если или у же только можно "
        "его ее их они он она".split()
    ),
    Language.ES: frozenset(
        "el la los las del y en que es se por con para al lo su sus no como más pero sobre cada "
        "puede puedes cuando cartas carta hay una un son está".split()
    ),
    Language.IT: frozenset(
        "il lo gli le di del della dei delle e è che per con non si al alla sul sulla ogni può "
        "quando sono da dal carte carta una un ci".split()
    ),
}
"""Frequent short words per language; their counts tell Latin-script languages apart."""

LETTERS_ONLY_IN: dict[Language, str] = {
    Language.FR: "éèêàâçîïôûùœë",
    Language.DE: "äöüß",
    Language.ES: "ñ¿¡óá",
    Language.IT: "òìù",
}
"""Letters that only one of the Latin-script languages uses (supporting evidence)."""


def _forms(*pairs: tuple[str, int]) -> dict[str, int]:
    return {word: value for words, value in pairs for word in words.split()}


NUMBER_WORDS: dict[Language, dict[str, int]] = {
    Language.EN: _forms(
        ("one once", 1), ("two twice both", 2), ("three thrice", 3), ("four", 4), ("five", 5),
        ("six", 6), ("seven", 7), ("eight", 8), ("nine", 9), ("ten", 10), ("eleven", 11),
        ("twelve", 12), ("thirteen", 13), ("fourteen", 14), ("fifteen", 15), ("sixteen", 16),
        ("twenty", 20), ("thirty", 30), ("forty", 40), ("fifty", 50),
    ),
    Language.FR: _forms(
        ("deux", 2), ("trois", 3), ("quatre", 4), ("cinq", 5), ("six", 6),
        ("sept", 7), ("huit", 8), ("neuf", 9), ("dix", 10), ("onze", 11), ("douze", 12),
        ("treize", 13), ("quatorze", 14), ("quinze", 15), ("seize", 16), ("vingt", 20),
        ("trente", 30), ("quarante", 40), ("cinquante", 50),
    ),
    Language.DE: _forms(
        ("eins einmal", 1), ("zwei zweimal", 2), ("drei dreimal", 3),
        ("vier viermal", 4), ("fünf fünfmal", 5), ("sechs", 6), ("sieben", 7), ("acht", 8),
        ("neun", 9), ("zehn", 10), ("elf", 11), ("zwölf", 12), ("dreizehn", 13),
        ("vierzehn", 14), ("fünfzehn", 15), ("sechzehn", 16), ("zwanzig", 20), ("dreißig", 30),
        ("vierzig", 40), ("fünfzig", 50),
    ),
    Language.RU: _forms(
        ("один одна одно одного одной одному одним одном одну одни одних", 1),
        ("два две двух двум двумя дважды", 2),
        ("три трех трем тремя трижды", 3),
        ("четыре четырех четырем четырьмя", 4),
        ("пять пяти пятью", 5), ("шесть шести шестью", 6), ("семь семи семью", 7),
        ("восемь восьми восемью восьмью", 8), ("девять девяти девятью", 9),
        ("десять десяти десятью", 10), ("одиннадцать одиннадцати одиннадцатью", 11),
        ("двенадцать двенадцати двенадцатью", 12), ("тринадцать тринадцати тринадцатью", 13),
        ("четырнадцать четырнадцати", 14), ("пятнадцать пятнадцати", 15),
        ("шестнадцать шестнадцати", 16), ("двадцать двадцати", 20), ("тридцать тридцати", 30),
        ("сорок сорока", 40), ("пятьдесят пятидесяти", 50),
    ),
    Language.ES: _forms(
        ("dos", 2), ("tres", 3), ("cuatro", 4), ("cinco", 5), ("seis", 6), ("siete", 7),
        ("ocho", 8), ("nueve", 9), ("diez", 10), ("once", 11), ("doce", 12), ("trece", 13),
        ("catorce", 14), ("quince", 15), ("dieciséis", 16), ("diecisiete", 17), ("veinte", 20),
        ("veinticuatro", 24), ("veinticinco", 25), ("veintiocho", 28), ("treinta", 30),
        ("cuarenta", 40), ("cincuenta", 50),
    ),
    Language.IT: _forms(
        ("due", 2), ("tre", 3), ("quattro", 4), ("cinque", 5), ("sei", 6), ("sette", 7),
        ("otto", 8), ("nove", 9), ("dieci", 10), ("undici", 11), ("dodici", 12), ("tredici", 13),
        ("quattordici", 14), ("quindici", 15), ("sedici", 16), ("diciassette", 17), ("venti", 20),
        ("ventiquattro", 24), ("venticinque", 25), ("ventotto", 28), ("trenta", 30),
        ("quaranta", 40), ("cinquanta", 50), ("cinquantadue", 52),
    ),
}
"""Number words by language (normalised spelling); multiplicative adverbs count too (twice = 2).

French ``un``/``une``, German ``ein``/``eine``, Spanish and Italian ``un``/``una`` are left out:
they are mostly articles ("un joker" in "si vous recevez un joker" is not a count). ``a joker per deck`` is read
by a pattern of its own."""

TIMES_WORDS: dict[Language, frozenset[str]] = {
    Language.EN: frozenset("once twice thrice".split()),
    Language.DE: frozenset("einmal zweimal dreimal viermal fünfmal".split()),
    Language.RU: frozenset("дважды трижды".split()),
}
"""Number words that already mean "N times" (``twice``), so ``redeal twice`` is 2 redeals (by language:
Spanish ``once`` is eleven)."""

# ------------------------------------------------------------------ noun and verb classes
# Each is a regex fragment (no groups of its own) matched on normalised text.

CARD = r"(?:cards?|cartes?|карт\w*|karten?|cartas?|carte)"
DECK = r"(?:decks?|packs?|paquets?|jeux de cartes|колод\w*|kartenspiel\w*|kartendecks?|barajas?|mazz[oi])"
JOKER = r"(?:jokers?|jokern|джокер\w*|comod[ií]n\w*|jolly|matt[oi])"
ROW = r"(?:rows?|rangees?|rangées?|lignes?|ряд\w*|строк\w*|reihen?|zeilen?|filas?|file|righe?)"
COLUMN = (
    r"(?:columns?|piles?|stacks?|colonnes?|столб\w*|стопк\w*|колонк\w*|spalten?|stapeln?|columnas?|montones|"
    r"colonn[ae]|mucchi)"
)
BY = r"(?:by|x|×|х|на|sur|par|mal|por|per)"
OF_EACH = r"(?:of|with|de|à|по|из|zu|mit|je|zu je|mit je|di|con|da)"
STOCK = (
    r"(?:stock|draw pile|talon|pioche|прикуп\w*|запас\w*|nachziehstapel\w*|vorrat\w*|tal[oó]n|mazo|tallone|pozzo|mazzo)"
)
REDEAL = (
    r"(?:re[\s-]?deal\w*|re[\s-]?shuffl\w*|redistribu\w*|nouvelle donne|пересда\w*|перетасов\w* заново|"
    r"neu\s?(?:aus)?geteilt|neu (?:aus)?teil\w*|neuverteil\w*|neu geben|neugeben|volver a repartir|"
    r"ridistribu\w*|rimescol\w*)"
)
TIMES = r"(?:times|fois|раз\w*|mal|veces|vez|volte|volta)"
UNLIMITED = (
    r"(?:unlimited|as many times|any number of times|as often as|illimit\w*|à volonté|autant de fois|сколько угодно|"
    r"без ограничен\w*|unbegrenzt\w*|beliebig\w*|so oft\w*|"
    r"no limit|without limit|sans limite|ohne (?:begrenzung|limit)|ilimitad\w*|sin l[ií]mite|cuantas veces\w*|"
    r"illimitat\w*|senza limit\w*|quante volte\w*|tutte le volte)"
)
FACE_DOWN = (
    r"(?:face[\s-]?down|faces? cach\w+|faces? contre\w*|рубашкой вверх|закрыт\w*|verdeckt\w*|boca abajo|"
    r"coperte?|coperta)"
)
OPEN = r"(?:open|visible|découvert\w*|открыт\w*|offen\w*|aufgedeckt\w*|boca arriba|descubiert\w*|scopert\w*)"
FIRST = r"(?:first|premi[eè]re?|перв\w*|erste\w*|primer[ao]?|prim[ao])"
FREE_CELL = (
    r"(?:free ?cells?|cellules? libres?|свободн\w* ячейк\w*|ячейк\w*|freie\w* zell\w*|freizell\w*|"
    r"celdas? libres?|celdas?|celle libere|cell[ae])"
)
REMOVE = (
    r"(?:remov\w*|take out|taken out|discard\w*|retir\w*|enlev\w*|ôt\w*|убира\w*|убра\w*|убер\w*|удал\w*|"
    r"entfern\w*|herausgenommen|heraus\w*|aussortier\w*|retira\w*|quita\w*|elimin\w*|rimuov\w*|togli\w*)"
)
DRAW = (
    r"(?:draw\w*|turn\w*|retourn\w*|tir\w*|перевора\w*|переверн\w*|сда\w*|zieh\w*|umdreh\w*|aufdeck\w*|deckt|"
    r"voltea\w*|gira\w*|descubr\w*|roba\w*|pesca\w*|scopr\w*|scopre|sacan?)"
)

RANK_WORDS: dict[str, str] = {
    "Ace": r"(?:aces?|as|туз\w*|asse?|ass|ases|assi|asso)",
    "King": r"(?:kings?|rois?|корол\w*|könig\w*|reyes|rey|re)",
    "Two": r"(?:twos|deuces|deux|двойк\w*|zweien|doses|dos|due)",
}
"""Rank names (as designs write them) and how rules texts name those cards."""

PAIR = (
    r"(?:pairs?|paired|paires?|пар[аыуе]?|парами|парой|paare?n?|paarweise|same rank|equal ranks?|"
    r"matching[\s-]rank|même valeur|одного достоинства|gleiche\w* (?:rang|wert)|"
    r"parejas?|mismo valor|coppi[ae]|stesso valore)"
)
TOUCH = (
    r"(?:touch\w*|adjacent\w*|neighbo\w*|diagonal\w*|voisin\w*|contigu\w*|сосед\w*|диагонал\w*|benachbart\w*|"
    r"angrenz\w*|nachbar\w*|adyacent\w*|vecin\w*|"
    r"adiacent\w*|vicin\w*|contigu\w*)"
)
COMPACT = (
    r"(?:compact\w*|consolidat\w*|slide|close (?:up|the gaps)|tass\w*|regroup\w*|сдвига\w*|сдвинут\w*|уплотн\w*|"
    r"zusammenschieb\w*|aufrück\w*|nachrück\w*|"
    r"rück\w*|compactan|desplaz\w*|compatt\w*)"
)
REFILL = (
    r"(?:refill\w*|from (?:the )?stock|rempli\w*|complét\w*|заполн\w*|добав\w*|auffüll\w*|aufgefüllt|rellen\w*|"
    r"riemp\w*)"
)

GOAL_HEADINGS = r"(?:goal|object|aim|objective|but|objectif|цель|ziel|spielziel|objetivo|obiettivo|scopo)"
"""Headings that introduce the goal of the game."""
RULE_HEADINGS = (
    r"(?:rules?|how to play|play|playing|setup|set-up|deal|scoring|goal|object|"
    r"règles?|fonctionnement|mise en place|déroulement|points|but|правила|подготовк\w*|ход игры|reglas|preparaci[oó]n|"
    r"objetivo|juego|puntuaci[oó]n|regole|preparazione|obiettivo|gioco|punteggio|"
    r"карты|цель|подсчет\w*|особые|regeln?|spielregeln|aufbau|vorbereitung|spielablauf|wertung|punkte|ziel)"
)
"""Headings under which a text states rules (they end a strategy or history section)."""
SIDE_HEADINGS = (
    r"(?:strateg\w*|tips?|hints?|questions?|faq|history|origin\w*|variants?|variations?|"
    r"conseils?|astuces?|histoire|origine|variantes?|советы?|стратег\w*|вопрос\w*|истори\w*|"
    r"происхожд\w*|вариант\w*|кратко|tipps?|fragen|geschichte|herkunft|varianten|consejos|historia|variantes|"
    r"consigli|storia|varianti)"
)
"""Headings of sections that are not rules: strategy, questions, history, variants."""
RULE_WORDS = (
    rf"(?:{CARD}|{DECK}|{STOCK}|{ROW}|{COLUMN}|tableau|foundations?|fondations?|база|баз[ыеу]|"
    r"ablage\w*|waste|пробел\w*|gaps?|lücke\w*|trous?|win|lose|gagn\w*|perd\w*|побед\w*|"
    r"поражени\w*|gewinn\w*|verlier\w*|score|points?|очк\w*|punkte?|deal\w*|distribu\w*|"
    r"раскла\w*|выложи\w*|teil\w*|legen|move|déplac\w*|pos\w*|перемест\w*|полож\w*|"
    r"klondike|triangles?|étages?)"
)
"""Words whose presence makes a sentence a candidate rule for the description."""

GOAL_LABEL: dict[Language, str] = {
    Language.EN: "**Goal:**",
    Language.FR: "**But :**",
    Language.RU: "**Цель:**",
    Language.DE: "**Ziel:**",
    Language.ES: "**Objetivo:**",
    Language.IT: "**Obiettivo:**",
}
"""How the seed designs' ``**Goal:**`` line reads in each language."""

GENERIC_TITLE_WORDS = (
    r"(?:solitaire|patience|rules?|règles?( du jeu)?|правила( игры)?|пасьянс|regeln|spielregeln|"
    r"spielanleitung|how to play|reglas|solitario|regole)"
)
"""Words a title line adds to the game's name ("Monte Carlo Solitaire", "Монтана – Правила")."""


def compile_pattern(fragment: str) -> re.Pattern[str]:
    """A case-insensitive pattern with word boundaries around ``fragment``."""
    return re.compile(rf"(?<!\w){fragment}(?!\w)", re.IGNORECASE)


NAME_WEIGHT = 3.0
"""A game's own name ("Montana", "château de cartes") counts this much more than a mechanism word."""

FAMILY_KEYWORDS: dict[Family, tuple[tuple[str, float], ...]] = {
    Family.CASTLE: (
        (r"ch[aâ]teaux? de cartes?", NAME_WEIGHT), (r"house of cards", NAME_WEIGHT),
        (r"карточн\w* (?:домик\w*|замок|замка)", NAME_WEIGHT), (r"kartenhaus\w*", NAME_WEIGHT),
        (r"castell\w* di carte|castillo de (?:naipes|cartas)|casa de (?:naipes|cartas)", NAME_WEIGHT),
        (r"étages?|floors?|этаж\w*|stockwerk\w*|etage\w*|pisos?|pian[oi]", 1.0),
        (r"triangles?|треугольник\w*|dreieck\w*|tri[aá]ngulos?|triangol[oi]", 1.0),
    ),
    Family.GAPS: (
        (r"montana|монтан\w*|addiction|blue moon|rangoon", NAME_WEIGHT),
        (r"gaps?|spaces?|trous?|espaces? vides?|cases? vides?|пробел\w*|lücke\w*", 1.0),
    ),
    Family.PYRAMID: (
        (r"monte[\s-]?carlo|монте[\s-]карло|weddings|pyramid\w*|pir[aá]mid\w*|пирамид\w*", NAME_WEIGHT),
        (PAIR, 1.0), (TOUCH, 0.5),
    ),
    Family.KLONDIKE: (
        (r"klondike|клондайк\w*|klondyke", NAME_WEIGHT),
        (
            r"alternat\w* colou?rs?|couleurs? altern\w*|чередуя цвет\w*|чередовани\w* цвет\w*|"
            r"abwechselnd\w* farb\w*",
            1.0,
        ),
        (r"waste|défausse|сброс\w*|ablagestapel\w*", 0.5),
        (r"foundations?|fondations?|база|базы|базу|ablage\w*|tableau", 0.5),
    ),
    Family.FREECELL: (
        (
            r"freecell|free cells?|cellules? libres?|свободн\w* ячейк\w*|freie\w* zell\w*|freizell\w*|celdas? libres?|"
            r"celle libere",
            NAME_WEIGHT,
        ),
        (r"cells?|cellules?|ячейк\w*|zellen?", 1.0),
        (r"foundations?|fondations?|база|базы|базу|ablage\w*", 0.5),
    ),
    Family.GOLF: (
        (r"golf|гольф\w*|black hole|trou noir|schwarze\w* loch|черн\w* дыр\w*|agujero negro|buco nero", NAME_WEIGHT),
        (
            r"(?:one )?(?:rank )?higher or lower|plus haute? ou plus basse?|"
            r"на (?:одно|единицу) (?:больше|выше) или (?:меньше|ниже)|höher oder niedriger",
            1.0,
        ),
    ),
    Family.SPIDER: (
        (r"spider\w*|araignée|паук\w*|spinne\w*|araña|ragno", NAME_WEIGHT),
        (r"king (?:down )?to ace|du roi à l'as|от короля до туза|vom könig bis zum ass", 1.0),
    ),
    Family.CANFIELD: (
        (r"canfield|démon|demon|канфилд\w*", NAME_WEIGHT),
        (r"reserve|réserve|резерв\w*", 1.0),
    ),
    Family.ACCORDION: (
        (r"accordion|accordéon|аккордеон\w*|akkordeon\w*|acorde[oó]n|fisarmonica", NAME_WEIGHT),
        (r"one or three|un ou trois|одну или три|eins oder drei", 1.0),
    ),
    Family.CLOCK: (
        (r"clock|horloge|часы|uhr", NAME_WEIGHT),
    ),
}
"""Words that point to each family, with their weight."""
