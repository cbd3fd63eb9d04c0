"""folio.services.review.blocks: a page's markdown cut into blocks and paired with its document's keyed blocks, so a
line of a diff names the block a comment targets; and the sandbox's block keys it is tested against."""

from __future__ import annotations

from typing import Any

from folio.sandbox.domain.block_keys import block_keys, with_keys
from folio.sandbox.domain.content import markdown_document
from folio.services.review.blocks import block_at, locate_blocks, markdown_blocks, words

PAGE = """# Install

Run the **installer** and
wait for it.

- Open the menu
- Pick *Robots*
  and press enter

```bash
nw register
```

> A quote
> on two lines

| a | b |
| - | - |

{% hint style="info" %}
Inside a hint.
{% endhint %}
"""


def block(key: str, text: str, kind: str = "paragraph", kids: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    nodes = kids if kids is not None else [{"object": "text", "leaves": [{"object": "leaf", "text": text}]}]
    return {"object": "block", "type": kind, "key": key, "nodes": nodes}


def test_markdown_is_cut_into_blocks_with_their_lines() -> None:
    spans = markdown_blocks(PAGE.splitlines())
    assert [(s.kind, s.first + 1, s.last + 1) for s in spans] == [
        ("heading", 1, 1),
        ("paragraph", 3, 4),
        ("list", 6, 8),
        ("code", 10, 12),
        ("quote", 14, 15),
        ("table", 17, 18),
        ("tag", 20, 22),
    ]
    assert spans[2].items == ((5, 5), (6, 7))  # 0-based: an item's continuation line is its own


def test_the_sandbox_document_is_placed_line_by_line() -> None:
    document = with_keys(markdown_document(PAGE), "page-1")
    located = locate_blocks(PAGE, document)
    keys = dict(block_keys(document))
    paragraph = block_at(located, 4)
    assert paragraph is not None and paragraph.key in keys and paragraph.text.startswith("Run the")
    assert (paragraph.first, paragraph.last) == (3, 4)
    item = block_at(located, 8)  # the second item's continuation: the item, not the list
    assert item is not None and item.text.startswith("Pick") and item.key not in keys
    assert block_at(located, 11) is not None and block_at(located, 11).text == "nw register"  # type: ignore[union-attr]
    assert block_at(located, 2) is None and block_at(located, 9) is None  # blank lines belong to no block


def test_blocks_pair_by_text_when_the_document_differs() -> None:
    markdown = "# Title\n\nFirst paragraph.\n\nAn image the document leaves out.\n\nLast **words** here.\n"
    document = {
        "nodes": [block("h", "Title", "heading-1"), block("p1", "First paragraph."), block("p2", "Last words here.")]
    }
    located = locate_blocks(markdown, document)
    assert [(b.key, b.first) for b in located] == [("h", 1), ("p1", 3), ("p2", 7)]
    assert block_at(located, 5) is None  # a block the document lacks is no block to comment on


def test_an_edited_block_pairs_by_similarity_and_an_unlike_one_does_not() -> None:
    markdown = "Intro.\n\nThe package needs Ubuntu 22.04.\n\nSomething else entirely new.\n\nEnd.\n"
    document = {
        "nodes": [
            block("a", "Intro."),
            block("b", "The package needs Ubuntu 22.04 or newer."),
            block("c", "End."),
        ]
    }
    located = locate_blocks(markdown, document)
    assert [(b.key, b.first) for b in located] == [("a", 1), ("b", 3), ("c", 7)]


def test_keys_stay_while_other_blocks_change_and_change_with_the_text() -> None:
    before = block_keys(with_keys(markdown_document("A.\n\nB.\n\nA.\n"), "p"))
    after = block_keys(with_keys(markdown_document("New.\n\nA.\n\nB changed.\n"), "p"))
    assert after[1] == before[0]  # the first "A." keeps its key though a block came before it
    assert after[2][0] not in {key for key, _ in before}  # "B." edited: a new key
    assert before[0][0] != before[2][0]  # the same text twice: two keys
    assert block_keys(with_keys(markdown_document("A.\n"), "other"))[0][0] != before[0][0]  # keys are per page


def test_words_compare_without_marks() -> None:
    assert words("Run the **installer**  and\nwait.") == "run the installer and wait."
    assert words("- [Link](https://x.dev) `code`") == "link https://x.dev code"
