"""The provider's offer: SKU data files, catalog tables, snapshot for scoring, pricing."""
