"""What from-rules reads about play, sentence by sentence, in the six languages."""

from __future__ import annotations

import pytest

from cardz_tools.authoring.lexicon import Language
from cardz_tools.authoring.play_rules import Aspect, read_sentence
from cardz_tools.authoring.reading import Quantity, Sentence, SentenceKind, extract

CASES = [
    (
        "Auf den vier Zielstapeln wird in Farbe aufsteigend vom Ass bis zum König gebaut.",
        Language.DE,
        Aspect.FOUNDATION_BUILD,
        "suit up",
    ),
    (
        "Auf den Stapeln wird absteigend in wechselnden Farben angelegt.",
        Language.DE,
        Aspect.TABLEAU_BUILD,
        "alternate down",
    ),
    ("Der Talon darf beliebig oft neu durchgespielt werden.", Language.DE, Aspect.PASSES, "unlimited"),
    ("Build the tableau down in suit.", Language.EN, Aspect.TABLEAU_BUILD, "suit down"),
    ("Nothing may be played on a King.", Language.EN, Aspect.ON_KING, "nothing"),
    ("A Queen may be played on a King.", Language.EN, Aspect.ON_KING, "Queen"),
    ("Redeal twice.", Language.EN, Aspect.PASSES, 3),
    ("You may go through the stock three times.", Language.EN, Aspect.PASSES, 3),
    ("There is no redeal.", Language.EN, Aspect.PASSES, 1),
    ("Only a King may fill an empty column.", Language.EN, Aspect.EMPTY_COLUMN, "King"),
    ("Aces are low and kings are high.", Language.EN, Aspect.WRAP, "no"),
    ("On ne parcourt le talon qu'une seule fois.", Language.FR, Aspect.PASSES, 1),
    ("Dans cette variante le jeu est circulaire : l'as suit le roi.", Language.FR, Aspect.WRAP, "yes"),
    ("Sur les colonnes, on descend en alternant rouge et noir.", Language.FR, Aspect.TABLEAU_BUILD, "alternate down"),
    ("Прикуп можно пройти только один раз.", Language.RU, Aspect.PASSES, 1),
    ("На пустое место можно положить только короля.", Language.RU, Aspect.EMPTY_COLUMN, "King"),
    ("В столбцах карты кладут по убыванию, чередуя цвета.", Language.RU, Aspect.TABLEAU_BUILD, "alternate down"),
    ("El mazo se puede recorrer tres veces.", Language.ES, Aspect.PASSES, 3),
    ("Se construye en orden descendente sin importar el palo.", Language.ES, Aspect.TABLEAU_BUILD, "any down"),
    ("Una columna vacía solo puede ocupar un rey.", Language.ES, Aspect.EMPTY_COLUMN, "King"),
    ("Una colonna vuota accetta qualsiasi carta.", Language.IT, Aspect.EMPTY_COLUMN, "any"),
    (
        "Nelle colonne si costruisce in ordine decrescente alternando i colori.",
        Language.IT,
        Aspect.TABLEAU_BUILD,
        "alternate down",
    ),
    ("Il re e l'asso sono consecutivi: la sequenza è circolare.", Language.IT, Aspect.WRAP, "yes"),
    ("Your score is the number of cards left in the columns; lower is better.", Language.EN, Aspect.SCORE, "left"),
    ("Spider is played here with one suit only: 104 cards, all spades.", Language.EN, Aspect.SUITS, "one"),
]


def _sentence(text: str) -> Sentence:
    return Sentence(1, 1, text, SentenceKind.SENTENCE, True)


@pytest.mark.parametrize(
    ("text", "language", "aspect", "value"), CASES, ids=[f"{c[1].value}-{c[2].name}" for c in CASES]
)
def test_play_statement_is_read(text: str, language: Language, aspect: Aspect, value: object) -> None:
    found = [fact.value for fact in read_sentence(_sentence(text), language) if fact.aspect is aspect]
    assert found[:1] == [value], (text, read_sentence(_sentence(text), language))


@pytest.mark.parametrize(
    "text",
    [
        "Turn the top card face up.",  # "up" alone is no building direction
        "Deal seven columns of cards face down.",
        "The score counts.",
        "A free cell holds one card.",
    ],
)
def test_no_building_read_from_other_sentences(text: str) -> None:
    aspects = {fact.aspect for fact in read_sentence(_sentence(text), Language.EN)}
    assert not aspects & {Aspect.FOUNDATION_BUILD, Aspect.TABLEAU_BUILD, Aspect.WRAP, Aspect.ON_KING}


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("Man deckt jeweils drei Karten auf.", Language.DE, {Quantity.DRAW_COUNT: 3}),
        ("Del mazo se voltea una carta a la vez.", Language.ES, {Quantity.DRAW_COUNT: 1}),
        ("Dal mazzo si gira una carta alla volta.", Language.IT, {Quantity.DRAW_COUNT: 1}),
        (
            "The first pile has one card, the second pile has two cards, the third three.",
            Language.EN,
            {Quantity.FACE_DOWN: "col(depot)"},
        ),
        (
            "Se reparten siete columnas: la primera recibe una carta, la segunda dos.",
            Language.ES,
            {Quantity.TABLEAU_COLUMNS: 7, Quantity.FACE_DOWN: "col(depot)"},
        ),
        ("There is only one pass through the stock.", Language.EN, {}),
        ("Las veinticuatro cartas restantes forman el mazo.", Language.ES, {Quantity.STOCK: 24}),
        (
            "Si distribuiscono sette colonne di cinque carte.",
            Language.IT,
            {Quantity.TABLEAU_COLUMNS: 7, Quantity.CARDS_PER_COLUMN: 5},
        ),
    ],
)
def test_numbers_in_six_languages(text: str, language: Language, expected: dict[Quantity, object]) -> None:
    found = {e.quantity: e.value for e in extract(_sentence(text), language)}
    assert found == expected
