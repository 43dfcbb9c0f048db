"""The path converter for row ids in URLs (``<id:table_id>``), HTTP and WebSocket alike.

Django's ``int`` takes any number of digits, and a number past the database's 64-bit ids raised
OverflowError in the query (a 500). Up to 18 digits always fits; a longer one matches no URL,
so it is a plain 404.
"""

from django.urls import register_converter


class RowIdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(value)


register_converter(RowIdConverter, "id")
