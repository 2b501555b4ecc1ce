"""marshmallow schemas of the API's requests and responses."""
