"""Read a rules text (English, French, Russian, German, Spanish or Italian) into facts for a design.

``cardz from-rules`` (:mod:`.rules_text`) works in three offline, deterministic steps:

1. :func:`analyse` (this module) splits the text into headings and sentences, detects the language
   (Cyrillic script, else stop-word counts), the family (keywords in four languages,
   weighted, with game names counting most) and extracts numbers, number words included
   ("четырьмя рядами по 13", "cinq sur cinq", "5x5"), each with the sentence it came from;
2. :mod:`.skeletons` lays out the family's depots and deal and fills in those numbers,
   marking every decision it cannot make with a ``TODO:`` (see :mod:`.todos`);
3. :func:`.rules_text.format_report` says what became of each sentence.
"""

from __future__ import annotations

import collections
import dataclasses
import enum
import re
from collections.abc import Iterable, Mapping, Sequence

from . import lexicon as lx
from .lexicon import Family, Language, compile_pattern, normalise


class SentenceKind(enum.Enum):
    """Whether a piece of the text is a heading line or a sentence."""

    HEADING = "heading"
    SENTENCE = "sentence"


@dataclasses.dataclass(frozen=True, slots=True)
class Sentence:
    """One heading or sentence of the text, lightly cleaned (list markers and extra spaces gone)."""

    index: int
    line: int
    text: str
    kind: SentenceKind
    in_rules: bool
    """False under a strategy, questions, history or variants heading."""
    after_goal_heading: bool = False

    @property
    def normalised(self) -> str:
        return normalise(self.text)


class Quantity(enum.Enum):
    """The numbers ``from-rules`` looks for."""

    DECKS = "decks"
    JOKERS = "jokers"
    JOKERS_PER_DECK = "jokers per deck"
    GRID_ROWS = "grid rows"
    GRID_COLUMNS = "grid columns"
    TABLEAU_COLUMNS = "tableau columns"
    CARDS_PER_COLUMN = "cards per column"
    FACE_DOWN = "face-down cards per column"
    STOCK = "cards to the stock"
    REDEALS = "redeals"
    OPEN_CARDS = "open cards (hand)"
    FREE_CELLS = "free cells"
    FIRST_ROW_CARDS = "cards in the first row"
    DRAW_COUNT = "cards turned per draw"
    REMOVED_RANK = "rank removed after the deal"


class Mechanism(enum.Enum):
    """Rules ``from-rules`` recognises well enough to write their expressions."""

    PAIR_TOUCHING = "pairs of equal rank that touch are removed"
    COMPACT_REFILL = "a tap closes the gaps and refills from the stock"


@dataclasses.dataclass(frozen=True, slots=True)
class Extraction:
    """A value found in the text, with the sentence it came from and the words that gave it."""

    quantity: Quantity
    value: int | str
    sentence: int
    evidence: str


@dataclasses.dataclass(frozen=True, slots=True)
class LanguageGuess:
    """The language of the text and why."""

    language: Language
    detected: bool
    evidence: str


@dataclasses.dataclass(frozen=True, slots=True)
class FamilyGuess:
    """The family of the game, how sure the guess is (0..1), and the words that decided it."""

    family: Family
    confidence: float
    matches: tuple[str, ...]
    names: tuple[str, ...] = ()
    """Game names of the family found in the text, as normalised (``"château de cartes"``)."""
    pyramid_layout: bool = False
    """A real pyramid was mentioned (else a Pyramid-family game is laid out as a pairing grid)."""


@dataclasses.dataclass(frozen=True)
class Analysis:
    """Everything read from a rules text, before any design is built."""

    sentences: tuple[Sentence, ...]
    language: LanguageGuess
    family: FamilyGuess
    extractions: tuple[Extraction, ...]
    mechanisms: Mapping[Mechanism, int]
    """Each recognised rule, with the sentence that states it."""
    other_games: frozenset[int]
    """Sentences about another game (a "see also" list): nothing is extracted from them."""
    name: str
    name_source: str
    goal_sentence: int | None

    def sentence(self, index: int) -> Sentence:
        """The sentence with this 1-based index."""
        return self.sentences[index - 1]

    def values(self, quantity: Quantity) -> list[Extraction]:
        """Every extraction of ``quantity``, those from rule sections first, then in text order."""
        found = [e for e in self.extractions if e.quantity is quantity]
        return sorted(found, key=lambda e: (not self.sentence(e.sentence).in_rules, e.sentence))


# ------------------------------------------------------------------ splitting

_LIST_MARKER = re.compile(r"^(?:[•\-*–·▪◦●]|\(?\d{1,2}[.)])\s+")
_BULLET_SYMBOL = re.compile(r"^[•\-*–·▪◦●]")
_SENTENCE_END = re.compile(r"[.!?;:…»\"”)]$")
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[\"«“(]?[A-ZА-ЯЁÀ-ÖØ-Þ0-9•])")
_RULE_HEADING = compile_pattern(lx.RULE_HEADINGS)
_SIDE_HEADING = compile_pattern(lx.SIDE_HEADINGS)
_GOAL_HEADING = compile_pattern(lx.GOAL_HEADINGS)


def split_sentences(text: str) -> tuple[Sentence, ...]:
    """Headings and sentences in text order, numbered from 1."""
    pieces: list[Sentence] = []
    in_rules = True
    after_goal = False
    for line_number, raw in enumerate(text.splitlines(), start=1):
        line = " ".join(raw.split())
        if not line:
            continue
        bulleted = bool(_BULLET_SYMBOL.match(line))
        body = _LIST_MARKER.sub("", line, count=1).strip() or line
        words = body.split()
        if not bulleted and len(words) <= 8 and not _SENTENCE_END.search(body) and "=" not in body:
            if _SIDE_HEADING.search(normalise(body)):
                in_rules = False
            elif _RULE_HEADING.search(normalise(body)):
                in_rules = True
            after_goal = bool(_GOAL_HEADING.search(normalise(body)))
            pieces.append(Sentence(len(pieces) + 1, line_number, body, SentenceKind.HEADING, in_rules))
            continue
        for part in _SPLIT.split(body):
            part = part.strip()
            if part:
                pieces.append(Sentence(len(pieces) + 1, line_number, part, SentenceKind.SENTENCE, in_rules, after_goal))
                after_goal = False
    return tuple(pieces)


# ------------------------------------------------------------------ language

_WORD = re.compile(r"[^\W\d_]+")


def _is_cyrillic(char: str) -> bool:
    return "\u0400" <= char <= "\u04ff"


def detect_language(text: str) -> LanguageGuess:
    """The language of ``text``: Russian by script, the others by their stop words."""
    letters = [c for c in text if c.isalpha()]
    cyrillic = sum(1 for c in letters if _is_cyrillic(c))
    if letters and cyrillic / len(letters) >= 0.3:
        return LanguageGuess(
            Language.RU, True, f"{100 * cyrillic // len(letters)}% of the {len(letters)} letters are Cyrillic"
        )
    lowered = normalise(text)
    words = _WORD.findall(lowered)
    letters_seen = collections.Counter(lowered)
    scores: dict[Language, int] = {}
    details: list[str] = []
    for language in (Language.EN, Language.FR, Language.DE, Language.ES, Language.IT):
        stop_words = lx.STOP_WORDS[language]
        counts = collections.Counter(w for w in words if w in stop_words)
        special = sum(letters_seen[c] for c in lx.LETTERS_ONLY_IN.get(language, ""))
        scores[language] = sum(counts.values()) + special // 4
        top = ", ".join(f"{w} {n}" for w, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:4])
        extra = f"; {special} letters like {lx.LETTERS_ONLY_IN[language][:4]}" if special else ""
        details.append(f"{language.value} {sum(counts.values())}" + (f" ({top}{extra})" if top or extra else ""))
    best = max(scores, key=lambda lang: scores[lang])
    ordered = sorted(scores.values(), reverse=True)
    evidence = "stop words: " + "; ".join(details)
    if ordered[0] < 2 or ordered[0] == ordered[1]:
        return LanguageGuess(Language.EN, False, f"no clear evidence ({evidence}); assuming en")
    return LanguageGuess(best, True, evidence)


# ------------------------------------------------------------------ family

_FAMILY_PATTERNS: dict[Family, tuple[tuple[re.Pattern[str], float], ...]] = {
    family: tuple((compile_pattern(fragment), weight) for fragment, weight in keywords)
    for family, keywords in lx.FAMILY_KEYWORDS.items()
}
_PYRAMID_WORD = compile_pattern(r"pyramid\w*|пирамид\w*|pir[aá]mid\w*")
MIN_FAMILY_SCORE = 2.0
"""Below this keyword score the family is Other."""


def _family_scores(sentences: Iterable[Sentence]) -> tuple[dict[Family, float], dict[Family, collections.Counter[str]]]:
    scores: dict[Family, float] = collections.defaultdict(float)
    words: dict[Family, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for sentence in sentences:
        text = sentence.normalised
        for family, patterns in _FAMILY_PATTERNS.items():
            for pattern, weight in patterns:
                for match in pattern.finditer(text):
                    scores[family] += weight
                    words[family][match.group(0)] += 1
    return scores, words


def _names_in(sentence: Sentence) -> set[Family]:
    text = sentence.normalised
    return {
        family
        for family, patterns in _FAMILY_PATTERNS.items()
        for pattern, weight in patterns
        if weight >= lx.NAME_WEIGHT and pattern.search(text)
    }


def detect_family(sentences: Sequence[Sentence]) -> tuple[FamilyGuess, frozenset[int]]:
    """The family, and the sentences that name only other games (ignored from then on)."""
    scores, _ = _family_scores(sentences)
    leader = max(scores, key=lambda f: (scores[f], f.value), default=Family.OTHER)
    other_games = frozenset(
        s.index for s in sentences if (families := _names_in(s)) and leader not in families and s.index > 1
    )
    kept = [s for s in sentences if s.index not in other_games]
    scores, words = _family_scores(kept)
    total = sum(scores.values())
    if not scores or max(scores.values()) < MIN_FAMILY_SCORE:
        matches = tuple(f"{w} ×{n}" for counter in words.values() for w, n in counter.most_common(3))
        return FamilyGuess(Family.OTHER, 0.0, matches), other_games
    family = max(scores, key=lambda f: (scores[f], f.value))
    confidence = round(scores[family] / total, 2)
    matches = tuple(f"{w} ×{n}" for w, n in words[family].most_common(8))
    if family is Family.CLOCK:
        return FamilyGuess(Family.OTHER, confidence, matches), other_games
    pyramid = family is Family.PYRAMID and any(_PYRAMID_WORD.search(s.normalised) for s in kept)
    names = tuple(
        dict.fromkeys(
            match.group(0)
            for s in kept
            for pattern, weight in _FAMILY_PATTERNS[family]
            if weight >= lx.NAME_WEIGHT
            for match in pattern.finditer(s.normalised)
        )
    )
    return FamilyGuess(family, confidence, matches, names, pyramid), other_games


# ------------------------------------------------------------------ numbers

_TENS = {20, 30, 40, 50}
_TIMES_AS = {
    Language.EN: "times", Language.FR: "fois", Language.RU: "раз",
    Language.DE: "mal", Language.ES: "veces", Language.IT: "volte",
}
_SINGLE = re.compile(
    r"(?<!\w)(?:un seul|une seule|ein einzige[snmr]?|eine einzige|nur eine[mnrs]?|una sola|un solo|uno solo|"
    r"una única|un único)(?!\w)"
)
"""Where French and German articles are numbers after all: "un seul paquet", "nur ein Kartenspiel"."""
_GERMAN_COMPOUND = re.compile(
    r"(?<!\w)(ein|zwei|drei|vier|fünf|sechs|sieben|acht|neun)und(zwanzig|dreißig|vierzig|fünfzig)(?!\w)"
)


def _number_words(language: Language | None) -> dict[str, tuple[int, Language]]:
    languages = [language] if language else list(Language)
    table: dict[str, tuple[int, Language]] = {}
    for lang in languages:
        for word, value in lx.NUMBER_WORDS[lang].items():
            table.setdefault(word, (value, lang))
    return table


def numberise(text: str, language: Language | None = None) -> str:
    """Normalised ``text`` with number words written as digits.

    >>> numberise("Выложить четырьмя рядами по тринадцать", Language.RU)
    'выложить 4 рядами по 13'
    >>> numberise("a five-by-five grid; redeal twice", Language.EN)
    'a 5 by 5 grid; redeal 2 times'
    """
    text = normalise(text)
    text = re.sub(r"(?<=\w)-(?=\w)", " ", text)
    text = re.sub(r"(\d)\s*[x×х]\s*(\d)", r"\1 × \2", text)
    de = lx.NUMBER_WORDS[Language.DE]
    text = _GERMAN_COMPOUND.sub(lambda m: str(de[m.group(1) if m.group(1) != "ein" else "eins"] + de[m.group(2)]), text)
    text = _SINGLE.sub("1", text)
    table = _number_words(language)
    words = sorted(table, key=len, reverse=True)
    pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, words)) + r")(?!\w)")

    def replace(match: re.Match[str]) -> str:
        value, lang = table[match.group(1)]
        return f"{value} {_TIMES_AS[lang]}" if match.group(1) in lx.TIMES_WORDS.get(lang, ()) else str(value)

    text = pattern.sub(replace, text)
    return re.sub(
        r"(?<!\d)(20|30|40|50)\s+(?:et\s+|und\s+|and\s+|y\s+)?([1-9])(?!\d)",
        lambda m: str(int(m.group(1)) + int(m.group(2))),
        text,
    )


_N = r"(\d+)"
_W = r"(?:[^\W\d_][\w']*\s+)"
"""One word (no digits) and the space after it."""
_WP = r"(?:[^\W\d_][\w']*[,;:]?\s+)"
"""One word, perhaps with a comma after it, and the space after it."""


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_GRID_BY = _rx(rf"(?<!\d){_N}\s*{lx.BY}\s*{_N}(?!\d)")
_ROWS_OF = _rx(rf"(?<!\d){_N}\s+{lx.ROW}\s+{lx.OF_EACH}\s+(?:je\s+)?{_N}(?!\d)")
_COLUMNS_OF = _rx(rf"(?<!\d){_N}\s+{_W}?{lx.COLUMN}\s+{lx.OF_EACH}\s+(?:je\s+)?{_N}\s+{lx.CARD}")
_ROWS = _rx(rf"(?<!\d){_N}\s+{_W}?{lx.ROW}(?!\w)")
_COLUMNS = _rx(rf"(?<!\d){_N}\s+{_W}?{lx.COLUMN}(?!\w)")
_DECKS = _rx(rf"(?<!\d){_N}\s+{_W}?{lx.DECK}(?!\w)")
_DECK_CARDS = _rx(rf"(?<!\d){_N}\s+{_W}?{lx.CARD}(?!\w)")
_JOKERS = _rx(rf"(?<!\d){_N}\s+{_W}?{lx.JOKER}(?!\w)")
_ARTICLE_JOKER = _rx(rf"(?<!\w)(?:a|an|un|une|una|uno|ein|eine|einen|einem)\s+{lx.JOKER}(?!\w)")
_EACH_OF_THEM = _rx(r"(?<!\w)(?:jede[sr]?|each|chacun\w*|cada un[oa]|ognuno|каждая)(?!\w)")
"""'Two decks, each with a joker': each deck, where the deck word came before."""
"""An article before "joker": one joker, but only trusted with "each deck" (articles are not numbers)."""
_PER_DECK = _rx(rf"(?:each|every|per|chaque|par|кажд\w*|jede\w*|pro)\s+{_W}?{lx.DECK}")
_FACE_DOWN = _rx(rf"(?<!\d){_N}\s+{_W}{{0,3}}{lx.FACE_DOWN}")
_PASS_AFTER = (
    r"(?!\s+(?:pass\w*|times?|fois|mal|раз\w*|veces|vez|volte|volta|tours?|passages?|durchg\w*|durchl\w*|проход\w*|"
    r"pasad\w*|passat\w*))"
)
"""Not "1 pass through the stock": a count of passes, not of cards."""
_STOCK = _rx(rf"(?<!\d){_N}{_PASS_AFTER}\s+{_W}{{0,4}}{lx.STOCK}(?!\w)")
_REDEAL = _rx(rf"(?<!\w){lx.REDEAL}")
_REDEAL_TIMES = _rx(rf"(?<!\d){_N}\s+(?:{lx.TIMES}(?!\w)|{_W}?{lx.REDEAL})")
_UNLIMITED = _rx(rf"(?<!\w){lx.UNLIMITED}")
_OPEN_CARDS = _rx(rf"(?<!\d){_N}\s+(?:{_W}?{lx.CARD}\s+{lx.OPEN}|{lx.OPEN}\s+{lx.CARD})(?!\w)")
_FREE_CELLS = _rx(rf"(?<!\d){_N}\s+{lx.FREE_CELL}")
_FIRST_ROW = _rx(rf"{lx.FIRST}\s+{lx.ROW}\s+{_W}{{0,5}}{_N}\s+{lx.CARD}")
_DRAW_COUNT = _rx(rf"(?<!\w){lx.DRAW}\s+{_W}{{0,2}}{_N}\s+{lx.CARD}")
_STAIRCASE = _rx(
    rf"{lx.FIRST}\s+(?:{_WP}){{0,4}}?(?:1|one|une?|eine?[mn]?|одн\w*|una?|uno)\s+(?:{_WP}){{0,4}}?"
    rf"(?:second\w*|deuxième|zweite\w*|втор\w*|segund\w*)\s+(?:{_WP}){{0,3}}?2(?!\d)"
)
"""A staircase deal: "the first gets one card, the second two" (each column one card more than the one before)."""
_DRAW_AT_ONCE = _rx(
    rf"(?<!\d){_N}\s+{lx.CARD}\s+(?:at a time|at once|à la fois|auf einmal|за раз|a la vez|de una vez|alla volta|"
    rf"per volta|"
    rf"insieme|zugleich)"
)
_ONE_CARD = _rx(rf"(?<!\w)(?:a|une?|una|eine?)\s+(?={lx.CARD}(?!\w))")
"""An article before "card" is one card where cards are counted per draw ("voltea una carta")."""
_REMOVE = compile_pattern(lx.REMOVE)
_RANKS = {rank: compile_pattern(words) for rank, words in lx.RANK_WORDS.items()}
_PAIR = compile_pattern(lx.PAIR)
_TOUCH = compile_pattern(lx.TOUCH)
_COMPACT = compile_pattern(lx.COMPACT)
_REFILL = compile_pattern(lx.REFILL)
_STOCK_WORD = compile_pattern(lx.STOCK)
_DECK_WORD = compile_pattern(lx.DECK)
_DRAW_WORD = compile_pattern(lx.DRAW)


def _in(value: int, low: int, high: int) -> bool:
    return low <= value <= high


def extract(sentence: Sentence, language: Language | None) -> list[Extraction]:
    """The numbers one sentence states (an empty list when it states none)."""
    text = numberise(sentence.text, language)
    found: list[Extraction] = []

    def add(quantity: Quantity, value: int | str, match: re.Match[str] | None) -> None:
        evidence = match.group(0).strip() if match else ""
        found.append(Extraction(quantity, value, sentence.index, evidence))

    arithmetic = "=" in text
    grid = None if arithmetic else _GRID_BY.search(text)
    if grid and _in(int(grid[1]), 2, 20) and _in(int(grid[2]), 2, 26):
        add(Quantity.GRID_ROWS, int(grid[1]), grid)
        add(Quantity.GRID_COLUMNS, int(grid[2]), grid)
    elif rows_of := _ROWS_OF.search(text):
        if _in(int(rows_of[1]), 1, 20) and _in(int(rows_of[2]), 1, 52):
            add(Quantity.GRID_ROWS, int(rows_of[1]), rows_of)
            add(Quantity.GRID_COLUMNS, int(rows_of[2]), rows_of)
    elif (rows := _ROWS.search(text)) and _in(int(rows[1]), 1, 20):
        add(Quantity.GRID_ROWS, int(rows[1]), rows)
    if columns_of := _COLUMNS_OF.search(text):
        add(Quantity.TABLEAU_COLUMNS, int(columns_of[1]), columns_of)
        add(Quantity.CARDS_PER_COLUMN, int(columns_of[2]), columns_of)
    elif (columns := _COLUMNS.search(text)) and _in(int(columns[1]), 1, 30):
        add(Quantity.TABLEAU_COLUMNS, int(columns[1]), columns)
    if (decks := _DECKS.search(text)) and _in(int(decks[1]), 1, 8):
        add(Quantity.DECKS, int(decks[1]), decks)
    elif (cards := _DECK_CARDS.search(text)) and int(cards[1]) % 52 == 0 and _in(int(cards[1]) // 52, 1, 8):
        add(Quantity.DECKS, int(cards[1]) // 52, cards)
    per_deck = bool(_PER_DECK.search(text) or (_DECK_WORD.search(text) and _EACH_OF_THEM.search(text)))
    if (jokers := _JOKERS.search(text)) and _in(int(jokers[1]), 0, 16):
        add(Quantity.JOKERS_PER_DECK if per_deck else Quantity.JOKERS, int(jokers[1]), jokers)
    elif per_deck and (article := _ARTICLE_JOKER.search(normalise(sentence.text))):
        add(Quantity.JOKERS_PER_DECK, 1, article)
    if (down := _FACE_DOWN.search(text)) and _in(int(down[1]), 0, 30):
        add(Quantity.FACE_DOWN, int(down[1]), down)
    elif staircase := _STAIRCASE.search(text):
        add(Quantity.FACE_DOWN, "col(depot)", staircase)
    stock = list(_STOCK.finditer(text))
    if stock and _in(int(stock[-1][1]), 1, 8 * 52):
        add(Quantity.STOCK, int(stock[-1][1]), stock[-1])
    if _REDEAL.search(text):
        if unlimited := _UNLIMITED.search(text):
            add(Quantity.REDEALS, "unlimited", unlimited)
        elif (times := _REDEAL_TIMES.search(text)) and _in(int(times[1]), 0, 20):
            add(Quantity.REDEALS, int(times[1]), times)
    if (hand := _OPEN_CARDS.search(text)) and _in(int(hand[1]), 1, 20):
        add(Quantity.OPEN_CARDS, int(hand[1]), hand)
    if (cells := _FREE_CELLS.search(text)) and _in(int(cells[1]), 1, 12):
        add(Quantity.FREE_CELLS, int(cells[1]), cells)
    if (first := _FIRST_ROW.search(text)) and _in(int(first[1]), 1, 52):
        add(Quantity.FIRST_ROW_CARDS, int(first[1]), first)
    draw_text = _ONE_CARD.sub("1 ", text)
    if (draw := _DRAW_COUNT.search(draw_text)) and _in(int(draw[1]), 1, 5):
        add(Quantity.DRAW_COUNT, int(draw[1]), draw)
    elif (
        (draw := _DRAW_AT_ONCE.search(draw_text))
        and _in(int(draw[1]), 1, 5)
        and (_STOCK_WORD.search(text) or _DRAW_WORD.search(text))
    ):
        add(Quantity.DRAW_COUNT, int(draw[1]), draw)
    if remove := _REMOVE.search(text):
        for rank, pattern in _RANKS.items():
            if rank_match := pattern.search(text):
                add(Quantity.REMOVED_RANK, rank, None)
                found[-1] = dataclasses.replace(found[-1], evidence=f"{remove.group(0)} … {rank_match.group(0)}")
    return found


def recognise(sentence: Sentence) -> list[Mechanism]:
    """The rules a sentence states that ``from-rules`` can write as expressions."""
    text = normalise(sentence.text)
    found = []
    if _PAIR.search(text) and _TOUCH.search(text):
        found.append(Mechanism.PAIR_TOUCHING)
    if _COMPACT.search(text) and (_REFILL.search(text) or _STOCK_WORD.search(text)):
        found.append(Mechanism.COMPACT_REFILL)
    return found


# ------------------------------------------------------------------ name and goal

_GENERIC_TITLE = compile_pattern(lx.GENERIC_TITLE_WORDS)
_RULE_WORD = compile_pattern(lx.RULE_WORDS)


def _title_core(heading: str) -> str:
    core = _GENERIC_TITLE.sub(" ", heading)
    return " ".join(core.replace("–", " ").replace(":", " ").split()).strip(" -")


def find_name(sentences: Sequence[Sentence], text: str, game_names: Sequence[str], file_stem: str) -> tuple[str, str]:
    """The game's name and where it came from: a title line whose name recurs in the text,
    else the family's game name as the text writes it, else the file name."""
    lowered = normalise(text)
    for sentence in sentences:
        if sentence.kind is SentenceKind.SENTENCE:
            break
        core = _title_core(sentence.text)
        if core == sentence.text and _RULE_HEADING.search(sentence.normalised):
            continue  # "How to play", "But du jeu": a heading, not a name
        if len(core) >= 3 and lowered.count(normalise(core)) >= 2:
            return core, f"title line {sentence.line}"
    for phrase in game_names:
        start = lowered.find(phrase)
        if start >= 0 and len(lowered) == len(text):
            original = text[start : start + len(phrase)]
            return original[:1].upper() + original[1:], "the game's name in the text"
    stem = re.sub(r"(?i)[-_. ]+(?:rules?|regles|regeln|правила)?(?:[-_. ]+(?:en|fr|ru|de))?$", "", file_stem)
    stem = " ".join(re.split(r"[-_.]+", stem)).strip()
    if stem:
        return stem[:1].upper() + stem[1:], "the file name"
    return "Untitled", "nothing (no title line, no file name)"


def find_goal(sentences: Sequence[Sentence]) -> int | None:
    """The sentence that states the goal: the first after a goal heading, else the first
    that uses a goal word, else the first rules sentence that talks about cards or play."""
    candidates = [s for s in sentences if s.kind is SentenceKind.SENTENCE and not s.text.endswith("?")]
    for sentence in candidates:
        if sentence.after_goal_heading and len(sentence.text.split()) >= 3:
            return sentence.index
    goal_word = compile_pattern(r"goal|aim|object of|but du jeu|objectif|цель|ziel")
    for sentence in candidates:
        if goal_word.search(sentence.normalised):
            return sentence.index
    for sentence in candidates:
        if sentence.in_rules and len(sentence.text.split()) >= 4 and _RULE_WORD.search(sentence.normalised):
            return sentence.index
    return None


# ------------------------------------------------------------------ the whole analysis


def analyse(text: str, file_stem: str = "", language: Language | None = None) -> Analysis:
    """Read a rules text. ``language`` forces the language instead of detecting it."""
    sentences = split_sentences(text)
    if language is None:
        guess = detect_language(text)
    else:
        guess = LanguageGuess(language, True, "given with --lang")
    family, other_games = detect_family(sentences)
    number_language = guess.language if guess.detected else None
    extractions: list[Extraction] = []
    mechanisms: dict[Mechanism, int] = {}
    for sentence in sentences:
        if sentence.index in other_games:
            continue
        extractions.extend(extract(sentence, number_language))
        for mechanism in recognise(sentence):
            mechanisms.setdefault(mechanism, sentence.index)
    name, name_source = find_name(sentences, text, family.names, file_stem)
    return Analysis(
        sentences=sentences,
        language=guess,
        family=family,
        extractions=tuple(extractions),
        mechanisms=mechanisms,
        other_games=other_games,
        name=name,
        name_source=name_source,
        goal_sentence=find_goal(sentences),
    )
