"""Small named exceptions. The library raises these; only the CLI turns them into messages."""


class CardgenError(Exception):
    """Base class for every error cardgen reports to a user."""


class UnknownCompetition(CardgenError):
    """A competition code or alias that is not in the vocabulary table."""


class UnknownSeason(CardgenError):
    """A season that is malformed or not available from the chosen source."""


class SourceError(CardgenError):
    """A source (Cricsheet, mirror, scraper) could not supply data."""


class ParseError(CardgenError):
    """Input that a parser could not read (malformed JSON, HTML, zip)."""


class CacheError(CardgenError):
    """A cache entry that is unreadable or inconsistent."""
