"""Translation catalogues: English keys, Spanish values, nested messages."""

from dicetable.device.i18n import catalogue, translate
from dicetable.rules.core import msg


def test_spanish_translates_and_english_is_the_key():
    message = msg("Die {i}: {value} is not a d6 value (1 to 6).", i=2, value=7)
    assert translate(message, "en") == "Die 2: 7 is not a d6 value (1 to 6)."
    assert translate(message, "es") == "Dado 2: 7 no es un valor de d6 (1 a 6)."


def test_message_arguments_are_translated_too():
    nested = msg("Expected {wanted}, got {got}.", wanted=msg("Undo"), got="x")
    assert translate(nested, "es") == "Se esperaba Deshacer y llegó x."


def test_an_unknown_message_falls_back_to_english():
    assert translate(msg("Brand new {x}", x=1), "es") == "Brand new 1"


def test_catalogue_keys_keep_their_placeholders():
    import string

    for english, spanish in catalogue("es").items():
        names = {f[1] for f in string.Formatter().parse(english) if f[1]}
        assert names == {f[1] for f in string.Formatter().parse(spanish) if f[1]}, english
