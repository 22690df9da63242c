"""The book build serves explorers' frames as files (tools/explorer_frames.py): each distinct frame
once, named by its hash, the page data naming it by URL and the opening frame a <picture> with
the phone's rendering; the notebook's own output keeps its frames inline. And what a page costs a
phone or a laptop, the budget the build holds each page to."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from types import SimpleNamespace

import ipywidgets as widgets
import matplotlib
import pytest
from explorer_frames import DATA, EXPLORER, downloads, frame_name, serve_frames

from cfrbook import interactive, plotting

matplotlib.use("agg")


def _draw(t):
    # t = 2 and t = 3 draw the same figure: one frame for both
    fig, ax = plotting.new_figure(width=2, height=1.5)
    ax.set(xticks=[], yticks=[], title=f"t = {min(t, 2)}")


def _phone_png(figure, dpi, smallest_pt):
    """A stand-in phone rendering (the real one costs 0.5 s a frame): distinct bytes a title."""
    return b"\x89PNG\r\n\x1a\n phone of " + figure.axes[0].get_title().encode(), 9.9, []


@pytest.fixture
def explorer_html(monkeypatch):
    monkeypatch.setattr(interactive, "phone_png", _phone_png)
    explorer = interactive.Explorer(_draw, {"t": widgets.IntSlider(value=2, min=1, max=3)})
    return explorer.static_html("all")


def _data(text: str) -> dict:
    return json.loads(DATA.search(text)[1])


def _rest(text: str) -> str:
    """``text`` without an explorer's data and opening frame."""
    return re.sub(r'<picture class="cfrlib-explorer-picture">.*?</picture>|'
                  r'<img class="cfrlib-explorer-figure"[^>]*>', "", DATA.sub("", text), flags=re.S)


class Store:
    """Frames saved as the build saves them, in memory: URL -> bytes, counting the saves."""

    def __init__(self):
        self.files: dict[str, bytes] = {}
        self.saves = 0

    def __call__(self, png: bytes) -> str:
        self.saves += 1
        url = "../_images/" + frame_name(png)
        assert self.files.setdefault(url, png) == png   # one name, one content
        return url


def test_a_frame_is_named_by_the_hash_of_its_bytes():
    png = b"\x89PNG some frame"
    assert frame_name(png) == hashlib.sha256(png).hexdigest()[:24] + ".png"
    assert frame_name(png) != frame_name(png + b"\0")


def test_the_notebook_output_keeps_its_frames_inline(explorer_html):
    """The notebook works by itself in Jupyter: its output names no file."""
    data = _data(explorer_html)
    assert "urls" not in data and len(data["images"]) == 2 == len(data["phone"]["images"])
    for image in data["images"] + data["phone"]["images"]:
        assert base64.b64decode(image).startswith(b"\x89PNG")
    assert EXPLORER.search(explorer_html) and "<picture" not in explorer_html


def test_the_page_names_each_frame_by_url_and_the_files_hold_the_notebooks_frames(explorer_html):
    store = Store()
    served = serve_frames(explorer_html, store)
    assert not re.search(r"iVBORw0KGgo", served)   # no PNG left inline
    before, after = _data(explorer_html), _data(served)
    assert after.pop("urls") is True
    column, phone = after.pop("images"), after.pop("phone")
    inline_column, inline_phone = before.pop("images"), before.pop("phone")
    assert after == before   # the same explorer: only its frames' form changed
    assert phone.pop("images") and inline_phone.pop("images") and phone == inline_phone
    for urls, frames in ((column, inline_column), (_data(served)["phone"]["images"],
                                                   _data(explorer_html)["phone"]["images"])):
        assert [store.files[url] for url in urls] == [base64.b64decode(f) for f in frames]
        assert all(re.fullmatch(r"\.\./_images/[0-9a-f]{24}\.png", url) for url in urls)
    # four distinct frames (t = 1 and t = 2, column and phone), each saved once
    assert len(store.files) == 4 == store.saves
    # everything but the opening image and the data is the notebook's HTML
    assert _rest(served) == _rest(explorer_html)


def test_the_opening_frame_is_a_picture_giving_a_phone_its_rendering(explorer_html):
    served = serve_frames(explorer_html, Store())
    data = _data(served)
    first = data["frame_of"][int(re.search(r'data-frame="(\d+)"', served)[1])]
    picture = re.search(r'<picture class="cfrlib-explorer-picture">(.*?)</picture>', served)[1]
    source = re.search(r'<source media="([^"]+)" srcset="([^"]+)" data-text-px="([^"]+)">', picture)
    assert source.groups() == (data["phone"]["media"], data["phone"]["images"][first], "9.9")
    image = re.search(r'<img class="cfrlib-explorer-figure" [^>]*src="([^"]+)">', picture)
    assert image[1] == data["images"][first]
    inline = EXPLORER.search(explorer_html)   # the notebook's image, with the file for its source
    assert image[0] == f'{inline["img"]} src="{data["images"][first]}">'


def test_serving_twice_changes_nothing_and_two_explorers_share_their_files(explorer_html):
    store = Store()
    once = serve_frames(explorer_html + explorer_html, store)
    assert serve_frames(once, store) == once
    assert len(store.files) == 4   # the second explorer's frames are the first's files
    assert len(DATA.findall(once)) == 2


def _site(tmp_path, explorer_html):
    """A page with a static figure (a phone rendering in its <picture>) and an explorer."""
    (tmp_path / "_images").mkdir()
    (tmp_path / "chapters").mkdir()

    def store(png: bytes) -> str:
        (tmp_path / "_images" / frame_name(png)).write_bytes(png)
        return "../_images/" + frame_name(png)

    (tmp_path / "_images" / "figure.png").write_bytes(b"f" * 1000)
    (tmp_path / "_images" / "figure-phone.png").write_bytes(b"p" * 700)
    figure = ('<picture class="cfr-picture"><source media="(max-width: 576px)" '
              'srcset="../_images/figure-phone.png 2x" width="180"><img alt="a figure" '
              'src="../_images/figure.png"></picture><img src="data:image/png;base64,AAAA">')
    page = tmp_path / "chapters" / "page.html"
    page.write_text(figure + serve_frames(explorer_html, store))
    return page


def test_a_page_costs_a_phone_its_phone_frames_and_a_laptop_its_column_frames(tmp_path, explorer_html):
    page = _site(tmp_path, explorer_html)
    text = page.read_text()
    inline = _data(explorer_html)
    column = sum(len(base64.b64decode(f)) for f in inline["images"])
    phone = sum(len(base64.b64decode(f)) for f in inline["phone"]["images"])
    assert downloads(page, text, phone=False) == len(text.encode()) + 1000 + column
    assert downloads(page, text, phone=True) == len(text.encode()) + 700 + phone


def test_an_explorer_not_served_costs_its_html(tmp_path, explorer_html):
    page = tmp_path / "page.html"
    page.write_text(explorer_html)
    for phone in (True, False):
        assert downloads(page, explorer_html, phone) == len(explorer_html.encode())


def test_the_build_warns_about_a_page_over_the_budget(tmp_path, explorer_html, monkeypatch, caplog):
    """A warning, which -W (tools/build-book) makes an error, naming the page and what it costs."""
    import explorer_frames

    page = _site(tmp_path, explorer_html)
    app = SimpleNamespace(outdir=str(tmp_path), builder=SimpleNamespace(format="html"))
    phone, laptop = (downloads(page, page.read_text(), screen) for screen in (True, False))
    monkeypatch.setattr(explorer_frames, "DOWNLOAD_BUDGET", max(phone, laptop))
    explorer_frames._check_downloads(app, None)
    assert not caplog.records
    monkeypatch.setattr(explorer_frames, "DOWNLOAD_BUDGET", min(phone, laptop))
    explorer_frames._check_downloads(app, None)
    assert [r.getMessage() for r in caplog.records] == [
        f"chapters/page.html costs {'a laptop' if laptop > phone else 'a phone'} "
        f"{max(phone, laptop):,} bytes with its images and explorer frames, over the budget of "
        f"{min(phone, laptop):,} (tools/explorer_frames.py): thin its explorers' grids (static=...)"]
    assert caplog.records[0].levelname == "WARNING"
