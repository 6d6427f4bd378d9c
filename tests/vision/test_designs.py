"""Design families: every family draws every card kind, held-out families never feed training,
and a deck is a pure function of its family and seed."""
import cv2
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from vision import designs, mat, synth
from vision.labels import LABELS


def faces(deck):
    return {label: deck.render(label, 3) for label in LABELS}


@pytest.mark.parametrize("family", sorted(designs.FAMILIES))
def test_each_family_draws_every_card_kind_as_a_different_face(family):
    deck = designs.design(family, 11)
    drawn = faces(deck)
    for label, face in drawn.items():
        assert face.shape == (synth.CARD_PX[1], synth.CARD_PX[0], 4), label
        assert face.dtype == np.uint8
    # no two kinds look the same (the suit or the value would be unreadable): at least a numeral's
    # worth of pixels differ clearly (one firework on every card leaves only the numerals)
    flat = {label: face[..., :3].astype(np.int16) for label, face in drawn.items()}
    for a in LABELS:
        for b in LABELS:
            if a < b:
                assert (np.abs(flat[a] - flat[b]).max(2) > 40).sum() > 150, (family, a, b)


def lab(face: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(face[..., :3].astype(np.float32) / 255, cv2.COLOR_BGR2LAB)


@settings(max_examples=6, deadline=None)
@given(family=st.sampled_from(sorted(designs.FAMILIES)), seed=st.integers(0, 10**6))
@example(family="coloured-face", seed=34).via("red numerals on an orange face, 34 apart in Lab")
@example(family="coloured-face", seed=274048).via("red numerals on an orange face, 34 apart in Lab")
def test_the_value_and_the_suit_are_both_drawn(family, seed):
    # measured as the renderer keeps an ink from its face (``VANISHES``, in Lab): a low-contrast
    # suit such as light blue on blue is printed so by real editions, and stays readable
    deck = designs.design(family, seed)
    base = lab(deck.render("r3", 0))
    for other in ("r4", "g3", "m3", "k3"):
        apart = np.linalg.norm(base - lab(deck.render(other, 0)), axis=2) > designs.VANISHES
        assert apart.sum() > 150, (family, seed, other)  # a numeral's worth of pixels at least


@settings(max_examples=30, deadline=None)
@given(family=st.sampled_from(designs.TRAINING), seed=st.integers(0, 10**6), suit=st.sampled_from("rygbwkm"),
       value=st.integers(1, 5))
@example(family="coloured-face", seed=13, suit="k", value=3).via("black on the dark end of a gradient")
@example(family="coloured-face", seed=36, suit="b", value=3).via("blue as light as a gradient's middle")
@example(family="random-face", seed=1, suit="w", value=3).via("white on the light end of a gradient")
@example(family="textured", seed=3718, suit="r", value=1).via("a light seven-segment 1: 127 pixels, all of it")
def test_a_training_deck_draws_the_value_at_both_ends_of_the_card(family, seed, suit, value):
    # the networks learn each end of a card on its own, under the card's name: an end whose numeral
    # vanished into the face would teach them to name what they cannot see (VANISHES, in Lab)
    deck = designs.design(family, seed)
    face = lab(designs._face(deck))
    apart = np.linalg.norm(lab(deck.render(f"{suit}{value}")) - face, axis=2) > designs.VANISHES
    end = len(face) // 4
    # a numeral's worth of pixels: half of this numeral's own, up to 150 (a light seven-segment 1
    # has about 125 in all)
    least = min(150, (designs.corner_numeral(deck, value) > 127).sum() // 2)
    assert apart[:end].sum() > least and apart[-end:].sum() > least, (apart[:end].sum(), apart[-end:].sum(), least)


def test_held_out_families_are_never_training_families():
    assert len(designs.HELD_OUT) >= 3 and designs.TUNING
    assert not set(designs.HELD_OUT) & set(designs.TRAINING)
    assert not set(designs.TUNING) & (set(designs.TRAINING) | set(designs.HELD_OUT))  # tuning is no test
    assert set(designs.HELD_OUT) | set(designs.TRAINING) | set(designs.TUNING) == set(designs.FAMILIES)
    assert [designs.role(f) for f in designs.HELD_OUT + designs.TUNING + designs.TRAINING] == (
        ["held-out"] * len(designs.HELD_OUT) + ["tuning"] * len(designs.TUNING) + ["training"] * len(designs.TRAINING))
    # what makes them held out: faces and value displays no training family draws
    seen_in_training = {(d.face, d.art) for name in designs.TRAINING for d in
                        (designs.design(name, s) for s in range(60))}
    for name in designs.HELD_OUT + designs.TUNING:
        for s in range(20):
            d = designs.design(name, s)
            assert (d.face, d.art) not in seen_in_training, (name, d.face, d.art)


def test_held_out_typefaces_are_never_training_typefaces():
    held, trained = designs.font_split(True), designs.font_split(False)
    assert held and trained
    assert not {designs.typeface(f) for f in held} & {designs.typeface(f) for f in trained}
    assert designs.typeface("fonts/LiberationSans-BoldItalic.ttf") == designs.typeface("LiberationSans-Regular.ttf")


def test_a_deck_is_a_pure_function_of_family_and_seed():
    a, b = designs.design("skyline-pips", 5), designs.design("skyline-pips", 5)
    assert a == b
    assert np.array_equal(a.render("b2", 9), b.render("b2", 9))
    assert designs.design("skyline-pips", 6) != a


def test_a_striped_rainbow_shows_all_its_colours_in_each_corner_numeral():
    # 002 "<Set Up>": the sixth suit is multicolour; training decks also print each numeral as
    # stripes of all the colours (as printed editions do), so one end of a card alone reads as one
    deck = next(d for d in (designs.design("light-plain", s) for s in range(200)) if d.rainbow == "striped")
    corner = deck.render("m3", 0)[:110, :90, :3].reshape(-1, 3).astype(np.int16)
    inked = corner[np.abs(corner - np.median(corner, 0)).max(1) > 60]
    hues = {int(np.argmin(np.abs(designs.RAINBOW[None] - px[None]).sum(2))) for px in inked}
    assert len(hues) >= 4, hues
    # held-out families never draw it, and their decks are as they were before it was added
    assert all(designs.design(f, s).rainbow != "striped" for f in designs.HELD_OUT + designs.TUNING
               for s in range(40))


def test_a_rainbow_of_one_colour_per_element_shows_several_in_its_corners():
    # 002 "<Set Up>": the sixth suit is multicolour; a rainbow card whose every element drew the
    # same colour would be a plain card of that colour's suit, which no edition prints
    decks = [d for f in designs.FAMILIES for d in (designs.design(f, s) for s in range(12))
             if d.rainbow == "elements" and d.face != "tinted"]
    assert len(decks) >= 20
    for deck in decks:
        face = deck.render("m2", 5)[..., :3].astype(np.int16)
        colours = []
        for end in (face[:100, :75], face[-100:, -75:]):  # the first two corners: top left, bottom right
            px = end.reshape(-1, 3)
            inked = px[np.abs(px[:, None] - designs.RAINBOW[None]).sum(2).min(1) < 12]
            nearest = np.abs(inked[:, None] - designs.RAINBOW[None]).sum(2).argmin(1)
            colours.append(np.bincount(nearest, minlength=len(designs.RAINBOW)).argmax())
        assert colours[0] != colours[1], (deck.family, deck.seed)


def test_a_suit_printed_as_a_light_tint_stays_apart_from_white():
    # 002 "<Set Up>": every suit has its own colour; a tint paler than the white balance's error
    # would read as white to anyone, which no edition prints (the faces that tint a suit lightly).
    # The rainbow is left out: it is drawn in several colours, never in its one ink alone.
    light = []
    for family in ("coloured-face", "random-face"):
        for seed in range(300):
            deck = designs.design(family, seed)
            for suit, ink in zip(designs.SUITS, deck.palette, strict=True):
                hsv = cv2.cvtColor(np.array([[ink]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0]
                if suit in "rygb" and hsv[2] > 200:
                    light.append((hsv[1] / 255, family, seed, suit))
    assert len(light) > 300
    palest = min(light)
    assert palest[0] >= designs.TINT_FLOOR - 0.02, palest


def test_no_suit_vanishes_into_a_face_of_its_own_colour():
    # 002 "<Set Up>": each suit is told by its colour, so a suit's numerals must show on the face
    # they are printed on; a face of a suit's hue once hid that suit's tint (15 levels apart).
    def lab(bgr):
        return cv2.cvtColor(np.array([[bgr]], np.float32) / 255, cv2.COLOR_BGR2LAB)[0, 0].astype(float)
    least = []
    for family in ("coloured-face", "random-face"):
        for seed in range(300):
            deck = designs.design(family, seed)
            under = deck.colours if deck.face in ("gradient", "random") else deck.colours[:1]
            for suit in "rygb":
                ink = lab(deck.ink(suit))
                least.append((max(float(np.linalg.norm(ink - lab(c))) for c in under), family, seed, suit))
    assert min(least)[0] >= designs.VANISHES - 1, min(least)


def test_a_suit_moved_off_a_face_of_its_own_colour_keeps_its_colour():
    # 002 "<Set Up>": each suit is told by its colour. Made to stand out from a face of its own
    # hue, a yellow once came out black (Lab chroma 5) and a green as dark as the deck's black,
    # teaching the networks that such a card is the suit it does not show.
    def chroma(bgr):
        colour = lab(np.array([[bgr]], np.uint8))[0, 0]
        return float(np.hypot(colour[1], colour[2]))
    least = min((chroma(deck.ink(suit)), deck.family, deck.seed, suit)
                for family in ("coloured-face", "random-face") for seed in range(200)
                for deck in [designs.design(family, seed)] for suit in "rygb")
    assert least[0] >= 15, least


def test_families_draw_without_any_font_package(monkeypatch):
    monkeypatch.setattr(designs, "system_fonts", lambda: ())
    for name in designs.FAMILIES:
        deck = designs.design(name, 2)
        assert deck.font.startswith("hershey:")
        assert deck.render("y5", 1).shape[2] == 4


def test_unknown_family_names_the_known_ones():
    with pytest.raises(ValueError, match="night-bursts"):
        designs.design("no-such-family", 1)


def test_rounded_corners_let_the_mat_show_on_a_rendered_frame():
    deck = next(designs.design("blue-low-contrast", s) for s in range(50)
                if designs.design("blue-low-contrast", s).radius_mm >= 3)
    face = deck.render("w1", 0)
    assert face[0, 0, 3] == 0 and face[face.shape[0] // 2, face.shape[1] // 2, 3] == 255
    rng = np.random.default_rng(1)
    scene = synth.Scene([synth.lay("w1", "play", deck, rng)])
    plane = synth.mat_plane(scene, rng)
    corner = scene.cards[0].corners_mm()[0] * synth.PX_PER_MM
    inside = (corner + (scene.cards[0].corners_mm()[2] * synth.PX_PER_MM - corner) * 0.004).astype(int)
    empty = mat.render_mat(synth.PX_PER_MM)
    assert np.abs(plane[inside[1], inside[0]].astype(int) - empty[inside[1], inside[0]]).max() < 60


@pytest.mark.parametrize("family", designs.HELD_OUT + designs.TUNING)
def test_cards_of_held_out_families_are_found_on_the_mat(family):
    """A floor for the leave-family-out bench: the finder cuts out piles of decks it never saw."""
    from vision.recognize import Recognizer
    rng = np.random.default_rng(7)
    recognizer = Recognizer()
    found = 0
    for k in range(3):
        deck = designs.design(family, 900 + k)
        scene = synth.random_scene(rng, deck, cards=[str(c) for c in rng.choice(LABELS, 4)], others=False)
        frame = synth.render_frame(scene, synth.Camera.random(rng, max_tilt=40), synth.Light.random(rng), k)
        result = recognizer.analyse(frame)
        assert result.mat
        found += sum(scene.top(c.zone) is not None for c in result.cards)
    assert found >= 5, f"{found}/6 piles found"


def test_stroke_width_is_the_thickness_of_a_drawn_stroke():
    for width in (3, 6, 11):
        ink = np.zeros((80, 60), np.uint8)
        ink[10:70, 25:25 + width] = 1
        assert abs(designs.stroke_width(ink) - width) <= 1.5, width


@settings(max_examples=25, deadline=None)
@given(font=st.sampled_from(designs.font_split(False)), text=st.sampled_from("12345"))
def test_thin_numerals_are_worn_down_whole(font, text):
    """Training's hairline numerals (some printed decks' strokes are 4-6% of the numeral's height,
    thinner than a pixel of the card's crop): never thicker than the typeface's own, and no stroke
    broken or worn away, so the numeral still reads as itself."""
    glyph = designs.numeral_mask(font, text, 96, "fill")
    full, thin = ((g > 127).astype(np.uint8) for g in (glyph, designs.thinned(glyph)))
    assert designs.stroke_width(thin) <= designs.stroke_width(full)
    assert cv2.connectedComponents(thin)[0] == cv2.connectedComponents(full)[0]
    assert thin.sum() <= full.sum()
    _, _, w, h = cv2.boundingRect(thin)
    _, _, full_w, full_h = cv2.boundingRect(full)
    assert w >= 0.5 * full_w and h >= 0.8 * full_h  # a 4 is not worn down to its stem


def test_most_typefaces_wear_down_to_hairlines():
    fonts = designs.font_split(False)[::7]

    def share(style):
        return np.median([designs.stroke_width((designs.numeral_mask(f, t, 96, style) > 127).astype(np.uint8)) / 96
                          for f in fonts for t in "12345"])
    assert share("thin") <= 1.5 * designs.THIN_SHARE < share("fill")


def test_a_deck_never_prints_a_typeface_whose_digits_are_pictures():
    """A few font packages draw 1 to 5 as distinct pictures (weather, little faces): no printed edition
    shows its values so, and no one could read such a deck. A deck that draws one prints the next
    typeface of its list, and every other deck keeps its own."""
    fonts = ("/f/Alpha-Regular.ttf", "/f/DSEGWeather.ttf", "/f/DSEG7SEGGCHAN-Regular.ttf", "/f/Beta-Bold.ttf",
             "/f/DSEG7SEGGCHANMINI-Regular.ttf")
    assert [designs.numeral_typeface(fonts, i) for i in range(len(fonts))] == [
        "/f/Alpha-Regular.ttf", "/f/Beta-Bold.ttf", "/f/Beta-Bold.ttf", "/f/Beta-Bold.ttf", "/f/Alpha-Regular.ttf"]
    with pytest.raises(ValueError):
        designs.numeral_typeface(fonts[1:3], 0)
    drawn = {designs.typeface(designs.design(family, seed).font)
             for family in designs.HELD_OUT + designs.TUNING for seed in range(200)}
    assert all(designs.prints_numerals(f) for f in drawn)
