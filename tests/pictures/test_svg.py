"""The SVG builder: every text and attribute escaped, characters XML cannot carry
replaced, numbers short and stable."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from arbiter.pictures.svg import el, escape, number, write


def test_text_and_attributes_are_escaped() -> None:
    hostile = '<script>alert("x")</script> & \'quotes\''
    root = el("svg", xmlns="http://www.w3.org/2000/svg").add(
        el("title", hostile), el("g", data_piece=hostile))
    parsed = ET.fromstring(write(root))
    assert parsed[0].text == hostile
    assert parsed[1].get("data-piece") == hostile
    assert "<script>" not in write(root)


def test_characters_xml_cannot_carry_become_replacement_characters() -> None:
    text = "a\x00b\x1bc\ud800d\ufffee\tf"
    assert escape(text) == "a\ufffdb\ufffdc\ufffdd\ufffde\tf"
    ET.fromstring(write(el("svg", text, id=text)))


def test_numbers_have_at_most_one_decimal_and_no_negative_zero() -> None:
    assert [number(v) for v in (1.0, 2.25, -0.04, 10 / 3, -7.0)] == ["1", "2.2", "0", "3.3",
                                                                      "-7"]


def test_attribute_names_are_written_the_svg_way() -> None:
    text = write(el("g", class_="piece", data_select="{}", stroke_width=2, aria_label="x",
                    hidden=None))
    assert text == '<g class="piece" data-select="{}" stroke-width="2" aria-label="x"/>'
