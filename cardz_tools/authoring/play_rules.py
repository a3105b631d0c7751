"""What a rules text says about play: building, empty piles, the stock's passes, scoring, the end.

:func:`read_play_rules` reads each sentence (after :mod:`.reading` split it) for the
statements :mod:`.skeletons` can turn into expressions: which way and in what suit or
colour the foundations and the tableau build, what an empty column takes, whether
ranks wrap, whether a King stops the pile, whether runs or single cards move, how many
passes the stock allows, and what the score counts. Each :class:`PlayFact` keeps its
sentence and the words that gave it, so the report can say which keys a sentence set.

The word tables are in the six languages of :mod:`.lexicon`, matched on normalised text.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Sequence

from . import lexicon as lx
from .lexicon import Language, compile_pattern, normalise
from .reading import Sentence, SentenceKind, numberise


class Aspect(enum.Enum):
    """The kinds of play statement read."""

    FOUNDATION_BUILD = "foundation building"
    """value: ``"suit"``, ``"colour"`` or ``"any"`` with a direction: ``"suit up"``."""
    TABLEAU_BUILD = "tableau building"
    """value: ``"alternate down"``, ``"suit down"``, ``"any down"``, ``"suit up"`` ..."""
    EMPTY_COLUMN = "what an empty column takes"
    """value: ``"King"``, ``"any"`` or ``"nothing"``."""
    WRAP = "ranks wrap"
    """value: ``"yes"`` or ``"no"``."""
    ON_KING = "what goes on a King"
    """value: ``"nothing"`` or ``"Queen"``."""
    MOVE_UNIT = "what moves at once"
    """value: ``"runs"`` or ``"single"``."""
    PASSES = "passes through the stock"
    """value: an int (1 = no redeal) or ``"unlimited"``."""
    SUITS = "suits in play"
    """value: ``"one"`` (a one-suit Spider) or ``"two"``."""
    SCORE = "what the score counts"
    """value: ``"foundations"``, ``"left"`` (cards left, lower is better) or ``"removed"``."""
    WIN = "how the game is won"
    LOSS = "how the game is lost"
    NEIGHBOUR_RANK = "a card goes on one a rank higher or lower"
    """value: ``"yes"``."""
    RESERVE = "cards in the reserve"
    """value: an int."""
    FOUNDATION_BASE = "the first foundation card sets the base rank"
    """value: ``"first card"``."""


@dataclasses.dataclass(frozen=True, slots=True)
class PlayFact:
    """One play statement: what it says, its sentence and the words that said it."""

    aspect: Aspect
    value: int | str
    sentence: int
    evidence: str


def _p(fragment: str) -> re.Pattern[str]:
    return compile_pattern(fragment)


FOUNDATION = _p(
    r"(?:foundations?|fondations?|bases?|maisons?|zielstapel\w*|ablagestapel\w*|ablagen?|fundament\w*|баз[аыуео]\w*|"
    r"дом\w*|fundaci[oó]n\w*|fondazion[ei]|basi|pile finali)"
)
TABLEAU = _p(rf"(?:{lx.COLUMN}|tableau|tableaus|spalten?|столбц\w*|колонк\w*|columnas?|colonn[ae])")
STOCKISH = _p(rf"(?:{lx.STOCK}|waste|défausse|ablagestapel|сброс\w*|descarte\w*|pila de descarte|scarti)")
BUILD_CONTEXT = _p(
    r"(?:build\w*|built|descend\w*|plac\w*|play\w*|put|stack\w*|mov\w*|goes|go|bât\w*|construi\w*|mont\w*|pos\w*|rang\w*|"
    r"bau\w*|gebaut|angelegt|anleg\w*|leg\w*|sortiert|gelegt|стро\w*|клад\w*|кладут|выкладыва\w*|собира\w*|"
    r"класть|положить|construy\w*|constru\w*|coloca\w*|costrui\w*|costruisc\w*|mett\w*|impil\w*|sequence\w*|run|order|"
    r"ordre|reihenfolge|порядк\w*|orden|ordine|suite\w*|folge\w*|secuencia\w*|sequenz\w*|последовательн\w*)"
)

UP = _p(
    r"(?:build\w* (?:\w+ ){0,3}up|up (?:by|in|from|the|to|regardless)|upwards?|ascend\w*|increas\w*|montant\w*|"
    r"en montant|"
    r"croissant\w*|ascendant\w*|aufsteigend\w*|aufwärts|по возрастани\w*|возраста\w*|ascendente\w*|creciente\w*|"
    r"crescente\w*|in ordine crescente)"
)
DOWN = _p(
    r"(?:build\w* (?:\w+ ){0,3}down|down (?:by|in|from|the|to|regardless|one)|downwards?|descend\w*|decreas\w*|"
    r"descendant\w*|en descendant|décroissant\w*|absteigend\w*|abwärts|по убывани\w*|убыва\w*|в убывающ\w*|"
    r"descendente\w*|decreciente\w*|decrescente\w*|discendente\w*|"
    r"(?:on|onto) (?:a|the) (?:card|one) (?:1|one) (?:rank )?higher|on the next higher card|"
    r"rang (?:immédiatement )?supérieur|valeur (?:immédiatement )?supérieure|um einen rang höher\w*|"
    r"на (?:одно|1) (?:старше|выше)|de rango (?:inmediatamente )?superior|"
    r"di (?:valore|grado) (?:immediatamente )?superiore)"
)
ACE_TO_KING = _p(
    r"(?:from (?:the )?aces? (?:up )?to (?:the )?kings?|de l'as (?:jusqu')?au roi|des as aux rois|"
    r"vom ass\w* (?:bis )?(?:zum|auf den) könig|"
    r"от туза до короля|с туза до короля|del as al rey|desde el as hasta el rey|dall'asso al re|dall'asso fino al re)"
)
KING_TO_ACE = _p(
    r"(?:from (?:the )?kings? (?:down )?to (?:the )?aces?|king down to ace|du roi à l'as|du roi (?:jusqu')?à l'as|"
    r"vom könig (?:bis )?(?:zum|auf das) ass|от короля до туза|с короля до туза|del rey al as|desde el rey hasta el as|"
    r"dal re all'asso|dal re fino all'asso)"
)
ALTERNATE = _p(
    r"(?:alternat\w*|altern\w*|wechselnd\w*|abwechselnd\w*|чередуя|чередовани\w*|чередующ\w*|red on black|black on red|"
    r"rouge sur noir|noir sur rouge|rot auf schwarz|schwarz auf rot|красн\w* на черн\w*|черн\w* на красн\w*|"
    r"rojo sobre negro|negro sobre rojo|rosso su nero|nero su rosso|opposite colou?rs?|couleurs? oppos\w*|"
    r"couleurs? différent\w*|другого цвета|противоположного цвета|разного цвета|colou?rs? contrari\w*|"
    r"colou?r oppos\w*|colore opposto|colori opposti|colore diverso|colori diversi|anderer farbe|"
    r"colou?r contrario|otro color|color opuesto|colores opuestos)"
)
SAME_SUIT = _p(
    r"(?:by suits?|in suit|same suit|one suit|of (?:a|one|the same|its|their) suit|suit by suit|même couleur|"
    r"par couleur|en couleur|dans la couleur|même famille|par famille|in farbe|nach farbe\w*|gleiche\w* farbe|"
    r"derselben farbe|der gleichen farbe|по масти|одной масти|той же масти|одномаст\w*|mismo palo|por palo\w*|"
    r"del palo|stesso seme|per seme|dello stesso seme|del medesimo seme)"
)
ANY_SUIT = _p(
    r"(?:regardless of (?:suit|colou?r)|any suit|irrespective of suit|without regard to suit|"
    r"sans tenir compte de la couleur|"
    r"quelle que soit la couleur|peu importe la couleur|toutes couleurs confondues|unabhängig von (?:der )?farbe|"
    r"ohne rücksicht auf (?:die )?farbe|egal welche\w* farbe|независимо от масти|любой масти|sin importar el palo|"
    r"independientemente del palo|de cualquier palo|indipendentemente dal seme|di qualsiasi seme|senza badare al seme)"
)
EMPTY = _p(r"(?:empty|emptied|vides?|leere\w*|пуст\w*|освободивш\w*|vac[ií][oa]s?|vuot[oaie])")
KING = _p(r"(?:kings?|rois?|корол\w*|könig\w*|reyes|rey|re)")
ANY_CARD = _p(
    r"(?:any (?:\w+ )?card|any card or (?:run|sequence)|anything|n'importe quelle (?:\w+ )?carte|toute carte|"
    r"n'importe quoi|"
    r"beliebige\w* karte\w*|jede\w* (?:beliebige )?karte|jede beliebige|любую карту|любой картой|любая карта|"
    r"cualquier carta|cualquiera|qualsiasi carta|qualunque carta)"
)
NOTHING = _p(
    r"(?:cannot be filled|never filled|stays? empty|remains? empty|ne peut être rempli\w*|bleibt leer|"
    r"не заполня\w*|queda vac\w*|resta vuot\w*)"
)
WRAP_YES = _p(
    r"(?:wrap\w*|round the corner|turn\w* the corner|continuous\w*|circular\w*|kings? and aces? (?:are|count as) "
    r"(?:neighbou?rs|adjacent|consecutive)|an ace (?:\w+ ){0,2}on a king|a king (?:\w+ ){0,2}on an ace|"
    r"as sur (?:un|le) roi|roi sur (?:un|l')as|l'as suit le roi|circulaire\w*|en boucle|"
    r"ass auf (?:einen|den) könig|könig auf (?:ein|das) ass|könig und ass\w* (?:sind|gelten als) benachbart|"
    r"по кругу|туз (?:\w+ ){0,2}на корол\w*|корол\w* (?:\w+ ){0,2}на туз\w*|туз и корол\w* (?:\w+ )?соседн\w*|"
    r"el as sigue al rey|as sobre (?:el|un) rey|rey sobre (?:el|un) as|el rey y el as son consecutiv\w*|"
    r"l'asso segue il re|asso sul re|re sull'asso|il re e l'asso sono consecutiv\w*|in modo circolare)"
)
WRAP_NO = _p(
    r"(?:do(?:es)? not wrap|don't wrap|no wrap\w*|not continuous|ne (?:se )?(?:suivent|bouclent) pas|pas circulaire\w*|"
    r"nicht (?:zirkulär|fortlaufend|umlaufend)|не по кругу|no (?:es )?circular|non (?:è )?circolare|"
    r"aces? (?:are|is) low|an ace (?:cannot|may not|can't|does not) (?:\w+ ){0,2}on a king|"
    r"l'as ne (?:se pose|va) pas sur (?:le|un) roi|kein ass auf (?:einen|den) könig|туза нельзя (?:\w+ )?на корол\w*|"
    r"el as no (?:va|se coloca|sigue) (?:sobre el|al) rey|l'asso non (?:va sul|segue il) re)"
)
NOTHING_ON_KING = _p(
    r"(?:nothing (?:\w+ ){0,4}on (?:a |the )?kings?|no card (?:\w+ ){0,4}on (?:a |the )?kings?|kings? (?:end|"
    r"stop|block)s?|"
    r"rien (?:\w+ ){0,4}sur (?:un|le) roi|aucune carte (?:\w+ ){0,4}sur (?:un|le) roi|"
    r"auf (?:einen|den) könig (?:\w+ ){0,4}(?:nichts|keine)|nichts (?:\w+ ){0,4}auf (?:einen|den) könig|"
    r"на корол\w* (?:\w+ ){0,4}(?:ничего|нельзя)|ничего (?:\w+ ){0,4}на корол\w*|"
    r"nada (?:\w+ ){0,4}sobre (?:un|el) rey|ninguna carta (?:\w+ ){0,4}sobre (?:un|el) rey|"
    r"niente (?:\w+ ){0,4}(?:su un|sul) re|nessuna carta (?:\w+ ){0,4}(?:su un|sul) re)"
)
QUEEN_ON_KING = _p(
    r"(?:a queen (?:\w+ ){0,3}on (?:a |the )?king|une dame (?:\w+ ){0,3}sur (?:un|le) roi|"
    r"eine dame (?:\w+ ){0,3}auf (?:einen|den) könig|"
    r"даму (?:\w+ ){0,3}на корол\w*|дама (?:\w+ ){0,3}на корол\w*|una reina (?:\w+ ){0,3}sobre (?:un|el) rey|"
    r"una regina (?:\w+ ){0,3}(?:su un|sul) re)"
)
SINGLE = _p(
    r"(?:(?:one|1) card at a time|only (?:the )?top cards?(?: of a column)? (?:may|can) (?:be )?mov\w*|"
    r"(?:une|1) (?:seule )?carte à la fois|carte par carte|(?:nur )?(?:einzeln|1 karte auf einmal|"
    r"jeweils (?:nur )?1 karte)|"
    r"(?:по|только по) (?:одной|1) карте|(?:una|1) (?:sola )?carta (?:a la vez|alla volta|per volta)|de (?:una|"
    r"1) en (?:una|1))"
)
RUNS = _p(
    r"(?:runs?|sequences?|builds?|séquences?|suites?|sequenz\w*|folgen|reihenfolgen|последовательност\w*|"
    r"secuencias?|escaleras?|sequenz[ae]|scale|as a unit|together|en bloc|plusieurs cartes|mehrere karten|"
    r"несколько карт|целиком|varias cartas|più carte)"
)
PASS_WORD = _p(
    r"(?:pass\w*|go(?:ne)? through|goes through|through the stock|parcour\w*|passage\w*|tours?|durchgespielt|"
    r"durchgeh\w*|"
    r"durchlauf\w*|durchgang\w*|проход\w*|пройти|просмотр\w*|pasad\w*|vueltas?|recorr\w*|passat\w*|gir[oi])"
)
NO_REDEAL = _p(
    r"(?:no redeals?|not (?:be )?redealt|never redealt|cannot be redealt|pas de (?:redistribution|nouvelle donne)|"
    r"n'est (?:jamais )?pas redistribu\w*|kein\w* (?:neu\w* )?(?:geben|verteilen|austeilen|durchgang|durchlauf)|"
    r"nicht neu (?:aus)?geteilt|без пересдач\w*|не пересда\w*|sin redistribu\w*|no se (?:vuelve a repartir|"
    r"redistribuye)|"
    r"senza ridistribu\w*|non si ridistribuisce|only once|une seule fois|nur einmal|только один раз|1 раз|"
    r"una sola vez|una sola volta|1 pass)"
)
TIMES_N = re.compile(rf"(?<!\d)(\d+)\s+(?:{lx.TIMES})(?!\w)", re.IGNORECASE)
ONE_SUIT = _p(
    r"(?:one suit only|only one suit|a single suit|(?:1|one) suit|une seule couleur|1 couleur|"
    r"eine\w* einzige\w* farbe|1 farbe|одной масти|одна масть|un solo palo|1 palo|un solo seme|1 seme|"
    r"only spades|que des piques|nur pik|только пики|solo picas|solo picche)"
)
TWO_SUITS = _p(
    r"(?:two suits|2 suits|deux couleurs|2 couleurs|zwei farben|2 farben|двух мастей|2 масти|dos palos|2 palos|"
    r"due semi|2 semi)"
)
SCORE_WORD = _p(r"(?:scor\w*|points?|очк\w*|punkte?|wertung|puntos?|puntuaci[oó]n|punti|punteggio)")
LEFT = _p(
    r"(?:left|remaining|restant\w*|reste\w*|verbleibend\w*|übrig\w*|оставш\w*|остав\w*|restantes?|quedan|"
    r"rimast\w*|rimanent\w*)"
)
REMOVED = _p(
    r"(?:removed|discarded|paired|retirées?|défauss\w*|entfernt\w*|abgelegt\w*|убран\w*|сброшен\w*|eliminad\w*|"
    r"descartad\w*|rimoss\w*|scartat\w*)"
)
WIN_WORD = _p(
    r"(?:win\w*|won|gagn\w*|réussi\w*|gewinn\w*|gewonnen|выигр\w*|побед\w*|сошелся|сходится|gana\w*|vinc\w*|"
    r"vint\w*|riesce)"
)
LOSS_WORD = _p(r"(?:los[et]\w*|perd\w*|verlor\w*|verlier\w*|проигр\w*|не сош\w*|pierde\w*|pers[oa]\b)")
NO_MOVES = _p(
    r"(?:no (?:more )?(?:legal )?moves?|no card (?:can|may) be played|plus aucun coup|aucun coup|plus de coup|"
    r"kein\w* (?:zug|züge)|nicht mehr (?:ziehen|spielen)|нет ходов|ходов нет|не осталось ходов|no (?:hay|"
    r"quedan) (?:más )?(?:movimientos|jugadas)|non (?:ci sono )?(?:più )?mosse)"
)


NEIGHBOUR = _p(
    r"(?:(?:1|one) rank (?:higher|above) or (?:lower|below)|(?:1|one) (?:higher|more) or (?:lower|less)|"
    r"(?:d'un|1) rang (?:plus haut\w*|au-dessus) ou (?:plus bas\w*|au-dessous)|plus haute? ou plus basse?|"
    r"(?:einen|1) rang höher oder niedriger|höher oder niedriger|на (?:одно|1|единицу) (?:выше|"
    r"больше) или (?:ниже|меньше)|"
    r"(?:un|1) rango más alt[ao] o más baj[ao]|más alt[ao] o más baj[ao]|(?:di )?(?:un|"
    r"1) grado più alt[ao] o più bass[ao]|"
    r"più alt[ao] o più bass[ao])"
)
_RESERVE = r"(?:reserve|réserve|reserva|riserva|резерв\w*)"
RESERVE_COUNT = re.compile(
    rf"(?<!\d)(\d+)\s+{lx.CARD}\s+(?:[\w']+\s+){{0,5}}?{_RESERVE}(?!\w)|"
    rf"{_RESERVE}\s+(?:[\w']+\s+){{0,3}}?(\d+)\s+{lx.CARD}",
    re.IGNORECASE,
)
TOP_OR_ALL = _p(
    r"(?:top card or the whole|la carte du dessus ou (?:toute )?la (?:colonne|pile)|"
    r"die oberste karte oder (?:den|die) ganze\w*|"
    r"верхн\w* карт\w* или (?:весь|всю|целиком)\w*|la carta superior o (?:toda|la columna entera)|"
    r"la carta in cima o (?:l'intera|tutta))"
)
BASE_RANK = _p(
    r"(?:same rank|that rank|même rang|même valeur|demselben rang|gleichen rang\w*|того же достоинства|mismo rango|"
    r"mismo valor|stesso valore|stesso grado)"
)


MOVE_VERB = _p(r"mov\w*|déplac\w*|versch\w*|beweg\w*|перемещ\w*|перенос\w*|mueve\w*|mover|spost\w*|muov\w*")


def _fact(
    found: list[PlayFact], aspect: Aspect, value: int | str, sentence: Sentence, match: re.Match[str] | None
) -> None:
    found.append(PlayFact(aspect, value, sentence.index, match.group(0) if match else ""))


def _build(text: str) -> tuple[str | None, str | None, re.Match[str] | None]:
    """The suit mode and direction a sentence builds with, and the words that gave the first of them."""
    mode = None
    evidence = None
    if match := ALTERNATE.search(text):
        mode, evidence = "alternate", match
    elif match := ANY_SUIT.search(text):
        mode, evidence = "any", match
    elif match := SAME_SUIT.search(text):
        mode, evidence = "suit", match
    direction = None
    if match := (ACE_TO_KING.search(text) or UP.search(text)):
        direction, evidence = "up", evidence or match
    elif match := (KING_TO_ACE.search(text) or DOWN.search(text)):
        direction, evidence = "down", evidence or match
    return mode, direction, evidence


def read_sentence(sentence: Sentence, language: Language | None) -> list[PlayFact]:
    """The play statements of one sentence."""
    found: list[PlayFact] = []
    if sentence.kind is not SentenceKind.SENTENCE:
        return found
    text = normalise(sentence.text)
    numbered = numberise(sentence.text, language)
    about_stock = bool(STOCKISH.search(text))
    about_foundation = bool(FOUNDATION.search(text))
    about_tableau = bool(TABLEAU.search(text))
    mode, direction, evidence = _build(text)
    building = mode is not None or direction is not None
    if building and (BUILD_CONTEXT.search(text) or ACE_TO_KING.search(text) or KING_TO_ACE.search(text)):
        if about_foundation and not (about_tableau and direction == "down" and not ACE_TO_KING.search(text)):
            _fact(found, Aspect.FOUNDATION_BUILD, f"{mode or 'suit'} {direction or 'up'}", sentence, evidence)
        elif about_tableau or direction == "down" or mode == "alternate":
            _fact(found, Aspect.TABLEAU_BUILD, f"{mode or '?'} {direction or '?'}", sentence, evidence)
    if EMPTY.search(text) and (
        about_tableau or _p(r"spaces?|gaps?|places?|platz|место|espacio|spazio|hueco").search(text)
    ):
        if match := KING.search(text):
            _fact(found, Aspect.EMPTY_COLUMN, "King", sentence, match)
        elif match := ANY_CARD.search(text):
            _fact(found, Aspect.EMPTY_COLUMN, "any", sentence, match)
        elif match := NOTHING.search(text):
            _fact(found, Aspect.EMPTY_COLUMN, "nothing", sentence, match)
    if match := WRAP_NO.search(text):
        _fact(found, Aspect.WRAP, "no", sentence, match)
    elif match := WRAP_YES.search(text):
        _fact(found, Aspect.WRAP, "yes", sentence, match)
    if match := NOTHING_ON_KING.search(text):
        _fact(found, Aspect.ON_KING, "nothing", sentence, match)
    elif match := QUEEN_ON_KING.search(text):
        _fact(found, Aspect.ON_KING, "Queen", sentence, match)
    if not about_stock:
        moving = MOVE_VERB.search(text)
        if (match := RUNS.search(text)) and moving and (about_tableau or not SINGLE.search(numbered)):
            _fact(found, Aspect.MOVE_UNIT, "runs", sentence, match)
        elif match := SINGLE.search(numbered):
            _fact(found, Aspect.MOVE_UNIT, "single", sentence, match)
    redeal_word = re.search(rf"(?<!\w){lx.REDEAL}", text)
    if about_stock or PASS_WORD.search(text) or redeal_word:
        if match := lx_unlimited.search(text):
            _fact(found, Aspect.PASSES, "unlimited", sentence, match)
        elif match := NO_REDEAL.search(numbered):
            redeal_word = re.search(rf"(?<!\w){lx.REDEAL}", text)
            if redeal_word and not _p(r"no|not|pas|kein\w*|nicht|без|не|sin|senza|non").search(text):
                _fact(found, Aspect.PASSES, 2, sentence, match)  # "redeal once": two passes
            else:
                _fact(found, Aspect.PASSES, 1, sentence, match)
        elif (match := TIMES_N.search(numbered)) and 1 <= int(match[1]) <= 20:
            redeal_word = re.search(rf"(?<!\w){lx.REDEAL}", text)
            passes = int(match[1]) + (1 if redeal_word else 0)
            _fact(found, Aspect.PASSES, passes, sentence, match)
    if match := ONE_SUIT.search(numbered):
        if not about_foundation or _p(
            r"spider|araignée|паук\w*|spinne|araña|ragno|play\w*|jou\w*|gespielt|игра\w*|juega|gioca"
        ).search(text):
            _fact(found, Aspect.SUITS, "one", sentence, match)
    elif match := TWO_SUITS.search(numbered):
        _fact(found, Aspect.SUITS, "two", sentence, match)
    if match := SCORE_WORD.search(text):
        if LEFT.search(text):
            _fact(found, Aspect.SCORE, "left", sentence, match)
        elif REMOVED.search(text) or _p(r"discard|défausse|сброс|descarte|scarti").search(text):
            _fact(found, Aspect.SCORE, "removed", sentence, match)
        elif about_foundation:
            _fact(found, Aspect.SCORE, "foundations", sentence, match)
    if match := NEIGHBOUR.search(numbered):
        _fact(found, Aspect.NEIGHBOUR_RANK, "yes", sentence, match)
    if (match := RESERVE_COUNT.search(numbered)) and 1 <= int(match[1] or match[2]) <= 52:
        _fact(found, Aspect.RESERVE, int(match[1] or match[2]), sentence, match)
    if match := TOP_OR_ALL.search(text):
        _fact(found, Aspect.MOVE_UNIT, "top or all", sentence, match)
    if match := BASE_RANK.search(text):
        _fact(found, Aspect.FOUNDATION_BASE, "first card", sentence, match)
    if match := LOSS_WORD.search(text):
        if NO_MOVES.search(text) or _p(r"blocked|bloqu\w*|blockiert|заблок\w*|stuck|coinc\w*").search(text):
            _fact(found, Aspect.LOSS, "no moves", sentence, match)
    elif match := WIN_WORD.search(text):
        _fact(found, Aspect.WIN, "stated", sentence, match)
    return found


lx_unlimited = _p(lx.UNLIMITED)


def read_play_rules(
    sentences: Sequence[Sentence], language: Language | None, skip: frozenset[int] = frozenset()
) -> tuple[PlayFact, ...]:
    """Every play statement of the text's rule sentences, in text order (``skip``: sentences about other games)."""
    found: list[PlayFact] = []
    for sentence in sentences:
        if sentence.in_rules and sentence.index not in skip:
            found.extend(read_sentence(sentence, language))
    return tuple(found)
