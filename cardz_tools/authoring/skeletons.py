"""A design from an analysed rules text: the family's board and rules (:mod:`.families`), then the description.

A design is the family's usual board (a gaps grid, a castle, a builder with stock and
waste ...) written only with features of ``docs/format.md``. Policy, so that nothing is a
silent guess and nothing plays a looser game than the text:

* the board layout (positions) and the family's structure (which depots exist) come from
  the family; the report says so;
* a count the text states is used, and the sentence is recorded; a count it does not
  state is the family's default with a TODO, except ``decks`` 1 and ``jokers`` 0 (the
  format's own defaults), which are only reported;
* a rule the text states (:mod:`.play_rules`) is written as its expression; a rule it
  leaves unsaid is the family's usual rule (:mod:`.usual_rules`, the shipped designs')
  with a TODO saying so; a rule that cannot be written at all is the placeholder
  ``"false"`` (accepts nothing, never everything) with a TODO in its ``reason``;
* :func:`describe` writes the description in the text's language: the goal, the rule
  sentences, then a bullet per TODO.
"""

from __future__ import annotations

import re
from typing import Any

from ..todos import todo
from . import lexicon as lx
from .draft import LABEL, MAX_BULLET_CHARS, MAX_BULLETS, MAX_NAME, NEVER, PLACEHOLDER, RULE_WORDS, SCORE_WORDS, Draft
from .families import build_family
from .lexicon import Family, Language
from .play_rules import Aspect, read_play_rules
from .reading import Analysis, SentenceKind

__all__ = ["NEVER", "PLACEHOLDER", "build", "describe"]

Json = dict[str, Any]

# ------------------------------------------------------------------ description


def _clean(text: str) -> str:
    text = " ".join(text.split()).strip()
    if text and text[-1].isalnum():
        text += "."
    return text


def _bold_label(text: str, language: Language) -> str:
    match = LABEL.match(text)
    if not match:
        return text
    colon = " :" if language is Language.FR else ":"
    return f"**{match.group(1)}{colon}** {match.group(2)}"


def _goal_text(draft: Draft) -> str | None:
    index = draft.analysis.goal_sentence
    if index is None:
        return None
    text = _clean(draft.analysis.sentence(index).text)
    label = LABEL.match(text)
    if label:
        text = label.group(2)
    if draft.language is not Language.DE and text[:1].isupper() and not text[1:2].isupper():
        text = text[:1].lower() + text[1:]
    draft.outcomes[index].append("description: the goal")
    return text


def describe(draft: Draft) -> str:
    """The design's description: the goal, the rule sentences of the text, then the TODO bullets."""
    analysis = draft.analysis
    goal = _goal_text(draft)
    seen = {re.sub(r"\W+", " ", (goal or "").lower()).strip()}
    bullets: list[str] = []
    stated = {e.sentence for e in analysis.extractions} | set(analysis.mechanisms.values())
    for sentence in analysis.sentences:
        if len(bullets) >= MAX_BULLETS:
            break
        if (
            sentence.kind is not SentenceKind.SENTENCE
            or not sentence.in_rules
            or sentence.index in analysis.other_games
            or sentence.index == analysis.goal_sentence
            or sentence.text.endswith("?")
            or "=" in sentence.text
            or len(sentence.text.split()) < 4
            or not (sentence.index in stated or RULE_WORDS.search(sentence.normalised))
        ):
            continue
        key = re.sub(r"\W+", " ", sentence.text.lower()).strip()
        if key in seen:
            draft.outcomes[sentence.index].append("description: repeats an earlier sentence (left out)")
            continue
        seen.add(key)
        text = _clean(sentence.text)
        if len(text) > MAX_BULLET_CHARS:
            text = text[: MAX_BULLET_CHARS - 1].rstrip() + "…"
        bullets.append(_bold_label(text, draft.language))
        draft.outcomes[sentence.index].append("description: a rule bullet")
    if not bullets:
        draft.open("write the rules as bullet points: the text gave none that could be used.")
    sentences = [s for s in analysis.sentences if s.kind is SentenceKind.SENTENCE]
    if not draft.scored and any(SCORE_WORDS.search(s.normalised) for s in sentences):
        draft.open("write scoring.value: the text scores the game (see its sentences about points).")
    label = lx.GOAL_LABEL[draft.language]
    lines = [f"{label} {goal}" if goal else f"{label} {todo('state the goal of the game in one sentence.')}", ""]
    lines += [f"- {bullet}" for bullet in bullets]
    if draft.todos:
        lines += ([""] if bullets else []) + [f"- {todo(text)}" for text in draft.todos]
    return "\n".join(lines).rstrip()


def _end(draft: Draft, design: Json) -> None:
    """Record the win and loss sentences: the win condition is the family's; a lost game is one with no legal move."""
    win = design.get("winCondition", {})
    shown = win.get("depots") or win.get("when", "")
    for fact in draft.facts(Aspect.WIN):
        draft.outcomes[fact.sentence].append(f"winCondition {win.get('kind')} {shown} (the family's)")
    for fact in draft.facts(Aspect.LOSS):
        design["lossCondition"] = {"kind": "noLegalMoves"}
        draft.outcomes[fact.sentence].append("lossCondition noLegalMoves")


def build(analysis: Analysis) -> tuple[Json, Draft]:
    """The design for an analysed rules text, and the draft that records every decision."""
    language = analysis.language.language if analysis.language.detected else None
    draft = Draft(analysis, play=read_play_rules(analysis.sentences, language, analysis.other_games))
    name = analysis.name if len(analysis.name) <= MAX_NAME else analysis.name[: MAX_NAME - 1].rstrip() + "…"
    design: Json = {"name": name, "family": analysis.family.family.value, "description": ""}
    if analysis.family.family is Family.OTHER:
        draft.open("choose the family: the text matched no family's keywords.")
    if not analysis.language.detected:
        draft.open(f"the language could not be detected ({analysis.language.evidence}); check the description.")
    build_family(draft, design)
    _end(draft, design)
    design["description"] = describe(draft)
    ordered = ("name", "family", "description", "decks", "jokers", "depots", "dealRules", "winCondition")
    return {key: design[key] for key in ordered if key in design} | design, draft

